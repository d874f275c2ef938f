// What the browser keeps: the seat in this tab (so a reload takes it
// back), a finished solo game's results (the server ends the game when its
// tab goes, so a reload shows them again), the seat left on purpose (so
// joining again takes it back), the
// name, the player's token (the seat the server keeps the day's attempt
// against) and each day's first try at today's board (the statistics are
// made from them). Storage may refuse: then nothing is kept.
/** @import { Solo } from "./messages" */
/** @typedef {{ name: string, room: string, token: string, solo: Solo | null, password: string, attempt?: boolean }} Seat */
/** @typedef {{ points: number, words: number, longest: number, picture?: string }} DayResult */
/** @typedef {Record<string, DayResult>} Days by the day's number */
/** @typedef {"localStorage" | "sessionStorage"} Kind */

const SEAT = "boggle.seat";
const LEFT = "boggle.left";
const NAME = "boggle.name";
const DAYS = "boggle.days";
/** Before the statistics, each day's first try had a key of its own, by date. */
const OLD_DAY = /^boggle\.daily\.(\d{4})-(\d\d)-(\d\d)$/;
const PLAYER = "boggle.player";
const DONE = "boggle.done";

/** @param {Kind} kind @param {string} key @returns {unknown} */
function load(kind, key) {
  try { return JSON.parse(window[kind].getItem(key) || "null"); } catch { return null; }
}

/** @param {Kind} kind @param {string} key @param {unknown} value */
function save(kind, key, value) {
  try { window[kind].setItem(key, JSON.stringify(value)); } catch { /* private mode */ }
}

/** @param {Kind} kind @param {string} key */
function forget(kind, key) {
  try { window[kind].removeItem(key); } catch { /* none */ }
}

/** @param {string} key @returns {Seat | null} */
function loadSeatAt(key) {
  const seat = /** @type {Partial<Seat> | null} */ (load("sessionStorage", key));
  if (!seat || typeof seat.token !== "string" || typeof seat.room !== "string") return null;
  return { name: String(seat.name), room: seat.room, token: seat.token, solo: seat.solo || null,
    password: String(seat.password || ""), attempt: seat.attempt === true };
}

/** This tab's seat in play. */
export const loadSeat = () => loadSeatAt(SEAT);

/** @param {Seat} seat */
export const saveSeat = (seat) => save("sessionStorage", SEAT, seat);

export const forgetSeat = () => forget("sessionStorage", SEAT);

/** A solo game's last results and the game's state then, so a reload shows them again. @returns {any} */
export const loadDone = () => load("sessionStorage", DONE);

/** @param {unknown} done */
export const saveDone = (done) => save("sessionStorage", DONE, done);

/** The seat this tab left on purpose (the server may hold it a while). */
export const leftSeat = () => loadSeatAt(LEFT);

/** @param {Seat | null} seat */
export const saveLeft = (seat) => (seat ? save("sessionStorage", LEFT, seat) : forget("sessionStorage", LEFT));

export const loadName = () => String(load("localStorage", NAME) || "");

/** @param {string} name */
export const saveName = (name) => save("localStorage", NAME, name);

/** The token the server gave this browser's player for the daily, if any. @returns {string | null} */
export function loadPlayer() {
  const token = load("localStorage", PLAYER);
  return typeof token === "string" ? token : null;
}

/** @param {string} token */
export const savePlayer = (token) => save("localStorage", PLAYER, token);

/** @param {unknown} r @returns {r is DayResult} */
const isResult = (r) => !!r && typeof r === "object" &&
  ["points", "words", "longest"].every((k) => Number.isSafeInteger(/** @type {Record<string, unknown>} */ (r)[k]));

/** The day's number of a date (#1 is 2026-01-01, as on the server). @param {number} y @param {number} m @param {number} d */
const dayNumber = (y, m, d) => Math.round((Date.UTC(y, m - 1, d) - Date.UTC(2026, 0, 1)) / 864e5) + 1;

/** Every first try kept, by the day's number (the keys of before taken in). @returns {Days} */
export function loadDays() {
  const kept = load("localStorage", DAYS);
  /** @type {Days} */
  const days = {};
  if (kept && typeof kept === "object") {
    for (const [n, r] of Object.entries(kept)) if (/^\d+$/.test(n) && isResult(r)) days[n] = r;
  }
  try {
    for (const key of Object.keys(localStorage)) {
      const date = OLD_DAY.exec(key);
      if (!date) continue;
      const r = load("localStorage", key);
      const n = String(dayNumber(Number(date[1]), Number(date[2]), Number(date[3])));
      if (isResult(r) && !days[n]) days[n] = r;
      localStorage.removeItem(key);
      save("localStorage", DAYS, days);
    }
  } catch { /* no storage */ }
  return days;
}

/** @param {Days} days */
export const saveDays = (days) => save("localStorage", DAYS, days);

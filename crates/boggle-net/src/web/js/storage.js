// What the browser keeps: the seat in this tab (so a reload takes it
// back), the name, the player's token (the seat the server keeps the
// day's attempt against) and each day's first result. Storage may refuse.
/** @import { Solo } from "./messages" */
/** @typedef {{ name: string, room: string, token: string, solo: Solo | null, password: string }} Seat */
/** @typedef {{ points: number, words: number, longest: number }} DayResult */
/** @typedef {"localStorage" | "sessionStorage"} Kind */

const SEAT = "boggle.seat";
const NAME = "boggle.name";
const PLAYER = "boggle.player";

/** @param {Kind} kind @param {string} key @returns {unknown} */
function load(kind, key) {
  try { return JSON.parse(window[kind].getItem(key) || "null"); } catch { return null; }
}

/** @param {Kind} kind @param {string} key @param {unknown} value */
function save(kind, key, value) {
  try { window[kind].setItem(key, JSON.stringify(value)); } catch { /* private mode */ }
}

/** @returns {Seat | null} */
export function loadSeat() {
  const seat = /** @type {Partial<Seat> | null} */ (load("sessionStorage", SEAT));
  if (!seat || typeof seat.token !== "string" || typeof seat.room !== "string") return null;
  return { name: String(seat.name), room: seat.room, token: seat.token, solo: seat.solo || null, password: String(seat.password || "") };
}

/** @param {Seat} seat */
export const saveSeat = (seat) => save("sessionStorage", SEAT, seat);

export function forgetSeat() {
  try { sessionStorage.removeItem(SEAT); } catch { /* none */ }
}

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

/** @param {string} date @returns {DayResult | null} */
export function loadDay(date) {
  const day = /** @type {DayResult | null} */ (load("localStorage", "boggle.daily." + date));
  return day && typeof day.points === "number" ? day : null;
}

/** @param {string} date @param {DayResult} result */
export const saveDay = (date, result) => save("localStorage", "boggle.daily." + date, result);

// The WebSocket to /ws (docs/protocol.md, a message per text message): the
// hello, the seat kept, pings; after a drop without a goodbye or a fatal
// error, a rejoin with the token (250 ms, doubling to 2 s, for 20 s). A
// fatal error (`replaced` among them) ends it. A tab holds its seat while
// it plays it (tabs.js), so a duplicated tab stays out.
/** @import { ClientMsg, ErrorCode, ServerMsg, Solo } from "./messages" */
import { FATAL, VERSION } from "./protocol.js";
import { setStatus } from "./screens.js";
import { state } from "./state.js";
import { forgetSeat, loadPlayer, saveLeft, saveSeat } from "./storage.js";
import { holdInThisTab } from "./tabs.js";

const REJOIN_FOR_MS = 20000;
const PING_EVERY_MS = 60000;

/** @typedef {{ message(msg: ServerMsg): void, lost(why: string): void }} Events */
/** @type {Events} */
let events = { message() {}, lost() {} };

const link = {
  /** @type {WebSocket | null} */
  ws: null,
  welcomed: false,
  /** after a fatal error or a goodbye, a close is no drop */
  ending: false,
  /** rejoining until then (0: not) */
  rejoinUntil: 0,
  delay: 250,
  /** the last welcome took a seat back */
  rejoined: false,
  resuming: false,
};

/** @param {Events} to */
export function listen(to) {
  events = to;
}

/** A code, or `unknown` for a newer server's. @param {string} code @returns {ErrorCode} */
export const known = (code) => (Object.hasOwn(FATAL, code) ? /** @type {ErrorCode} */ (code) : "unknown");

/** @param {ClientMsg} msg @returns {boolean} sent */
export function send(msg) {
  if (link.ws && link.ws.readyState === WebSocket.OPEN) {
    link.ws.send(JSON.stringify(msg));
    return true;
  }
  return false;
}

export const rejoined = () => link.rejoined;

/** The seat this tab holds ("": none). */
const held = { token: "", release: () => {} };

/** Holds `token`'s seat, or takes it over; false when another tab holds it. @param {string} token @param {boolean} takeOver @returns {Promise<boolean>} */
export async function holdSeat(token, takeOver) {
  if (held.token === token) return true;
  letGoSeat();
  const release = await holdInThisTab(token, takeOver, () => {
    if (held.token === token) held.token = "";
  });
  if (release) Object.assign(held, { token, release });
  return !!release;
}

function letGoSeat() {
  held.release();
  Object.assign(held, { token: "", release: () => {} });
}

function connect() {
  let ws;
  try {
    ws = new WebSocket((location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + "/ws");
  } catch (e) {
    events.lost("cannot connect: " + String(e));
    return;
  }
  link.ws = ws;
  ws.addEventListener("open", () => {
    /** @type {ClientMsg} */
    const hello = { type: "hello", version: VERSION, name: state.name, room: state.room };
    if (state.password) hello.password = state.password;
    if (state.token) hello.token = state.token;
    else if (state.solo) hello.solo = withPlayer(state.solo);
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener("message", (event) => {
    if (ws !== link.ws) return;
    let msg;
    try { msg = JSON.parse(String(event.data)); } catch { return; }
    if (msg && typeof msg.type === "string") heard(/** @type {ServerMsg} */ (msg));
  });
  ws.addEventListener("close", () => {
    if (ws !== link.ws) return;
    link.ws = null;
    dropped();
  });
}

/** A daily game names the player's seat (its token from the server), so
 * the day's first opening is the one scored. @param {Solo} solo @returns {Solo} */
function withPlayer(solo) {
  const player = solo.daily ? loadPlayer() : null;
  return player ? { ...solo, player } : solo;
}

/** @param {ServerMsg} msg */
function heard(msg) {
  if (msg.type === "welcome") {
    link.rejoined = link.rejoinUntil !== 0 || link.resuming;
    link.resuming = false;
    link.welcomed = true;
    link.rejoinUntil = 0;
    state.token = msg.token;
    state.name = msg.name;
    state.room = msg.room;
    // Welcomed, this tab plays the seat: it holds it at once rather than
    // asking, or a copy opened while it asked could win the tie.
    void holdSeat(msg.token, true);
    state.takingBack = false;
    // The password goes with the seat (this tab only), for a reload.
    saveSeat(seatOf(msg.token));
  } else if ((msg.type === "error" && FATAL[known(msg.code)]) || msg.type === "bye") {
    link.ending = true;
    link.welcomed = false;
    forgetSeat();
    letGoSeat();
  }
  events.message(msg);
}

function dropped() {
  if (link.ending) return;
  if (!link.welcomed && link.rejoinUntil === 0) {
    events.lost("could not reach the server");
    return;
  }
  const now = Date.now();
  if (link.rejoinUntil === 0) {
    link.rejoinUntil = now + REJOIN_FOR_MS;
    link.delay = 250;
  }
  if (now > link.rejoinUntil) {
    events.lost("the connection was lost and could not be restored");
    return;
  }
  setStatus("connection lost: rejoining…", true);
  setTimeout(connect, link.delay);
  link.delay = Math.min(link.delay * 2, 2000);
}

/** Joins (a solo game with `solo`; a seat back with `token`, its lock
 * taken, afresh if the seat is gone and `back`). @param {string} name @param {string} room @param {Solo | null} solo @param {string | null} [token] @param {boolean} [back] */
export function start(name, room, solo, token = null, back = false) {
  Object.assign(state, { name, room, solo, token, pending: [], takingBack: back });
  Object.assign(link, { ending: false, welcomed: false, rejoinUntil: 0, resuming: !!token });
  setStatus("joining…");
  closeLink();
  if (!token) {
    letGoSeat();
    connect();
    return;
  }
  void holdSeat(token, true).then(connect);
}

/** This tab's seat, as kept. @param {string} token */
const seatOf = (token) => ({ name: state.name, room: state.room, token, solo: state.solo, password: state.password, attempt: state.attempt });

/** Closes on purpose. A room's seat is kept aside: the server holds it a
 * while, and joining that room again under that name takes it back. */
export function leave() {
  // A solo round left ends now (a day's try is kept, its leaderboard at once).
  if (state.inRound && state.solo) send({ type: "done" });
  saveLeft(link.welcomed && state.token && !state.solo ? seatOf(state.token) : null);
  link.ending = true;
  link.welcomed = false;
  closeLink();
  forgetSeat();
  letGoSeat();
}

function closeLink() {
  const old = link.ws;
  link.ws = null;
  if (old) old.close();
}

setInterval(() => { if (link.welcomed) send({ type: "ping" }); }, PING_EVERY_MS);
// A page put away (left, or kept to come back to) lets go of its
// connection, so the room sees its player gone; shown again, it rejoins.
addEventListener("pagehide", closeLink);
addEventListener("pageshow", (e) => {
  if (e.persisted && link.welcomed && !link.ws) {
    link.resuming = true;
    connect();
  }
});

// The screens and what they share: elements (text only, never markup),
// the status line and its one action, the lobby, Ready, help, copying.
/** @import { ServerMsg } from "./messages" */
import { state } from "./state.js";

/** @template {Element} T @param {string} id @param {{ new (): T, prototype: T }} kind @returns {T} */
export function byId(id, kind) {
  const node = document.getElementById(id);
  if (!(node instanceof kind)) throw new Error("no #" + id);
  return node;
}

/** @param {string} id */
export const $ = (id) => byId(id, HTMLElement);
/** @param {string} id */
export const input = (id) => byId(id, HTMLInputElement);
/** @param {string} id */
export const button = (id) => byId(id, HTMLButtonElement);

/** @template {keyof HTMLElementTagNameMap} K @param {K} tag @param {string} [cls] @param {string | number} [text] */
export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = String(text);
  return node;
}

/** A switch's missed case, which the type check proves cannot happen. @param {never} value @returns {never} */
export function unhandled(value) {
  throw new Error("unhandled: " + String(value));
}

/** @param {number} n */
export const pointsText = (n) => (n === 1 ? "1 point" : n + " points");

/** @type {(() => void) | null} */
let offered = null;

/** The status line (an error in red); an action offered goes. @param {string} text @param {boolean} [isError] */
export function setStatus(text, isError) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", !!isError);
  offer(null);
}

/** Takes an error off the status line once the game has moved past it. */
export function clearError() {
  if (!state.stopping && $("status").classList.contains("error")) setStatus("");
}

/** One action beside the status, or none. @param {{ label: string, act: () => void } | null} action */
export function offer(action) {
  const b = button("retry");
  b.hidden = !action;
  offered = action && action.act;
  if (action) {
    b.textContent = action.label;
    b.focus();
  }
}
button("retry").addEventListener("click", () => offered && offered());

const SCREENS = ["home", "join", "lobby", "round", "results"];

/** @param {...string} on the screens shown */
export function show(...on) {
  for (const id of SCREENS) $(id).hidden = !on.includes(id);
  $("actions").hidden = !(on.includes("lobby") || on.includes("results"));
}

export function who() {
  const line = $("who");
  line.hidden = !state.name;
  const where = state.daily ? " · board #" + state.daily.number : state.solo ? " · solo" : " in room " + state.room;
  line.textContent = state.name + where + " · " + state.rules;
}

/** @param {number} n */
const pointsShort = (n) => (n === 1 ? "1 pt" : n + " pts");

/** @param {Extract<ServerMsg, { type: "lobby" }>} msg */
export function onLobby(msg) {
  const rows = msg.players.map((p) => {
    const li = el("li");
    li.dataset.name = p.name;
    const name = el("span", "name" + (p.connected ? "" : " away"), p.name);
    if (!p.connected) name.append(el("span", "", " (away)"));
    li.append(name, el("span", "state" + (p.ready ? " ready" : ""), p.ready ? "ready" : "not ready"),
      el("span", "total", pointsShort(p.total)));
    if (p.name === state.name) state.ready = p.ready;
    return li;
  });
  $("players").replaceChildren(...rows);
  const ready = msg.players.filter((p) => p.ready).length;
  $("lobby-note").textContent = "(" + ready + " of " + msg.players.length + " ready)";
  if (!state.results) {
    $("ready-note").textContent = msg.players.length < msg.min_players
      ? "waiting for at least " + msg.min_players + " players"
      : "a round starts when everyone connected is ready";
  }
  readyButton();
}

export function readyButton() {
  const ready = button("ready");
  ready.disabled = state.ready || state.inRound || state.last || Date.now() < state.graceUntil;
  ready.textContent = state.ready ? "Ready ✓" : state.solo ? "Play again" : "Ready";
}

/** @param {string} text @param {string} what */
export async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    setStatus(what + " copied");
  } catch {
    setStatus("could not copy: select it and copy it by hand", true);
  }
}

/** @type {Record<string, string[]>} */
const RULES = {
  classic: ["Words of 3 letters or more (4 on 5x5 and 6x6 boards).", "3 or 4 letters: 1 point, 5: 2, 6: 3, 7: 5, 8 or more: 11."],
  project4: ["Words of 3 letters or more.", "Points by length, as the course's game scores them.", "A path never goes up a row."],
  cs106b: ["Words of 4 letters or more.", "Points by length: 4 letters 1 point, each letter more 1 more."],
  tddd86: ["Words of 4 letters or more.", "A word scores its length less 3."],
  algs4: ["Words of 3 letters or more.", "3 or 4 letters: 1 point, 5: 2, 6: 3, 7: 5, 8 or more: 11."],
};

export function helpRules() {
  const lines = (RULES[state.rules] || RULES.classic).concat([
    "Each letter is used once in a word, each next to the one before" +
      (state.moves === "no_up" ? " (sideways, down, or diagonally down)." : " (in any of 8 directions)."),
    "Qu is one letter.",
    state.solo ? "Solo: every word you find counts." : state.duplicates === "count"
      ? "Words found by several players score for each." : "Words found by more than one player score for none.",
  ]);
  $("help-rules").replaceChildren(...lines.map((line) => el("li", "", line)));
}
helpRules();
button("help-button").addEventListener("click", () => byId("help", HTMLDialogElement).showModal());
button("help-close").addEventListener("click", () => byId("help", HTMLDialogElement).close());

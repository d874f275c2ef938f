// The round: its clock, the words sent and their verdicts, Done and Ready.
// A word is pending until answered, so a rejoin sends it again.
/** @import { ServerMsg } from "./messages" */
import { clearPath, drawBoard, initBoard, sendPath } from "./board.js";
import { send, start } from "./connection.js";
import { keepTry } from "./daily.js";
import { MAX_WORD } from "./protocol.js";
import { $, button, clearError, el, input, pointsText, readyButton, setStatus, show } from "./screens.js";
import { state } from "./state.js";
import { saveDone } from "./storage.js";

/** Counts in `body[data-NAME]`, for a test. @param {string} name */
export function count(name) {
  document.body.dataset[name] = String((Number(document.body.dataset[name]) || 0) + 1);
}

/** @param {Extract<ServerMsg, { type: "round_start" }>} msg */
export function onRoundStart(msg) {
  count("rounds");
  saveDone(null);
  Object.assign(state, { inRound: true, ready: false, results: null, rows: msg.rows, cols: msg.cols, board: msg.board });
  state.deadline = Date.now() + msg.remaining_ms;
  announced = 0;
  drawBoard($("board"), true);
  clearPath();
  $("verdicts").replaceChildren();
  $("last").textContent = "";
  for (const f of msg.found) addVerdict(f.word, true, f.points, pointsText(f.points));
  $("score").textContent = String(msg.score);
  keepTry(msg.score);
  show("round");
  button("done").disabled = false;
  $("clock").hidden = false;
  tick();
  setStatus(msg.found.length > 0 ? "rejoined: your words this round are kept" : "round " + msg.round + ": find words!");
  input("word").focus();
}

/** @param {Extract<ServerMsg, { type: "verdict" }>} msg */
export function onVerdict(msg) {
  answered(msg.word);
  addVerdict(msg.word, msg.accepted, msg.points, msg.reason);
  $("score").textContent = String(msg.score);
  // A word was played: a complaint about an earlier tap is out of date.
  clearError();
  if (msg.accepted) keepTry(msg.score);
}

/** @param {string} word */
function answered(word) {
  const i = state.pending.indexOf(word.toUpperCase());
  if (i >= 0) state.pending.splice(i, 1);
}

/** @param {string} word @param {string} why */
export function notPlayed(word, why) {
  answered(word);
  addVerdict(word, false, 0, why);
}

/** @param {string} word @param {boolean} accepted @param {number} points @param {string} reason */
function addVerdict(word, accepted, points, reason) {
  const w = word.toUpperCase();
  const li = el("li", accepted ? "accepted" : "refused");
  Object.assign(li.dataset, { word: w, points: String(accepted ? points : 0), accepted: String(accepted) });
  li.append(el("span", "word", w), el("span", "reason", reason));
  $("verdicts").prepend(li);
  // The latest verdict also shows under the board, in sight on a phone.
  const last = $("last");
  last.textContent = w + ": " + reason;
  last.className = accepted ? "accepted" : "refused";
}

/** @param {string} word */
export function sendWord(word) {
  const w = word.toUpperCase();
  if (!new RegExp("^[A-Z]{1," + MAX_WORD + "}$").test(w)) {
    setStatus("a word is 1 to " + MAX_WORD + " letters", true);
    return;
  }
  state.pending.push(w);
  if (!send({ type: "word", word: w.toLowerCase() })) setStatus("not connected: the word is sent when back", true);
}

/** After a welcome: the words not answered go again. */
export function resendPending() {
  const words = state.pending.splice(0);
  for (const word of words) sendWord(word);
}

/** The round is over here (results, or the connection's end). */
export function endRound() {
  state.inRound = false;
  state.pending = [];
  clearPath();
  $("clock").hidden = true;
}

/** The mark announced last (60 or 10 s left). */
let announced = 0;

function tick() {
  if (!state.inRound) return;
  const left = Math.max(0, state.deadline - Date.now());
  const s = Math.ceil(left / 1000);
  const clock = $("clock");
  clock.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  clock.classList.toggle("low", s <= 10);
  // Said once each to a screen reader.
  for (const mark of [60, 10]) {
    if (s <= mark && s > mark - 3 && announced !== mark) {
      announced = mark;
      $("alarm").textContent = mark === 60 ? "one minute left" : "ten seconds left";
    }
  }
  if (left === 0) setStatus("time is up: waiting for the results");
}

export function initRound() {
  initBoard(sendWord);
  setInterval(tick, 250);
  const word = input("word");
  word.maxLength = MAX_WORD;
  $("word-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const typed = word.value.trim();
    word.value = "";
    if (!state.inRound) return;
    if (typed) {
      clearPath();
      sendWord(typed);
    } else {
      sendPath(); // Enter after tapping letters sends them
    }
    word.focus();
  });
  // In the grace after a round, Enter and Space do nothing anywhere.
  document.addEventListener("keydown", (e) => {
    if (Date.now() < state.graceUntil && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      e.stopPropagation();
    }
  }, true);
  button("done").addEventListener("click", () => {
    if (send({ type: "done" })) {
      button("done").disabled = true;
      setStatus("done: waiting for the others");
    }
  });
  button("ready").addEventListener("click", () => {
    if (Date.now() < state.graceUntil) return;
    if (send({ type: "ready" })) {
      state.ready = true;
      readyButton();
      if (!state.solo) setStatus("ready: the round starts when everyone is");
    } else if (state.solo && !state.token) start(state.name, "solo", state.solo); // results shown again after a reload
  });
}

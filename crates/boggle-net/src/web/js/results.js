// A round's results: each player's words, the winner, the words shared
// and missed (a tapped word shows its path and meaning), then Ready, this
// board again (solo), or a link to it.
/** @import { ServerMsg } from "./messages" */
import { drawBoard, findPath, lightCells } from "./board.js";
import { dailyShare } from "./daily.js";
import { soloGame } from "./home.js";
import { clearMeaning, showMeaning } from "./meaning.js";
import { endRound } from "./round.js";
import { $, button, copy, el, pointsText, readyButton, setStatus, show } from "./screens.js";
import { state } from "./state.js";
import { saveDone } from "./storage.js";

const GRACE_MS = 1000; // after a round ends, keys and taps do nothing

/** @param {string} text @param {string} word @param {string} [cls] */
function wordButton(text, word, cls) {
  const b = el("button", "word " + (cls || ""), text);
  b.type = "button";
  b.dataset.word = word;
  return b;
}

/** @param {Extract<ServerMsg, { type: "results" }>} msg */
export function onResults(msg) {
  // The server ends a solo game whose tab goes: a reload shows these results again.
  if (state.solo && state.token) saveDone({ state: { ...state, token: null }, msg, token: state.token });
  endRound();
  Object.assign(state, { ready: false, last: msg.last, results: msg, graceUntil: Date.now() + GRACE_MS });
  $("results-title").textContent = (state.daily ? "Board #" + state.daily.number : "Results of round " + msg.round) +
    (msg.last ? " (the last)" : "");
  // Solo, the player's own words come first (the computer's list is long).
  const mine = msg.players.find((p) => p.name === state.name);
  const cards = (state.solo && mine ? [mine, ...msg.players.filter((p) => p !== mine)] : msg.players).map((p) => {
    const i = msg.players.indexOf(p);
    const card = el("div", "player-result");
    card.dataset.name = p.name;
    const head = el("div", "head");
    const round = el("span", "round", "round: ");
    round.append(el("span", "score", p.score));
    head.append(el("span", "name", p.name), round);
    // The player's own entry, below the best ones listed.
    if (p.place > i + 1) head.append(el("span", "place", "place " + p.place + " of " + msg.players_total));
    if (!state.solo) head.append(el("span", "total", "total: " + p.total));
    const words = el("ul", "words");
    for (const w of p.words) {
      const li = el("li", w.cancelled ? "cancelled" : "");
      Object.assign(li.dataset, { word: w.word, points: String(w.points), cancelled: String(w.cancelled) });
      li.append(wordButton(w.word + (w.cancelled ? " (shared)" : " +" + w.points), w.word));
      words.append(li);
    }
    const total = p.words_total || p.words.length;
    if (total > p.words.length) words.append(el("li", "note", "and " + (total - p.words.length) + " more"));
    if (total === 0) words.append(el("li", "note", "no words"));
    card.append(head, words);
    return card;
  });
  const more = msg.players_total - msg.players.length;
  if (more > 0) cards.push(el("p", "note", "and " + more + " more player" + (more === 1 ? "" : "s")));
  $("results-players").replaceChildren(...cards);
  const best = msg.players.length > 0 ? msg.players[0].score : 0;
  const winners = msg.players.filter((p) => p.score === best).map((p) => p.name);
  $("winner").textContent = msg.players.length < 2 ? "" : winners.length > 1
    ? "A tie: " + winners.join(", ") + " (" + pointsText(best) + ")"
    : "Winner: " + winners[0] + " (" + pointsText(best) + ")";
  $("tally").textContent = msg.board_words > 0
    ? "You: " + (mine ? mine.words_total : 0) + " of " + msg.board_words + " words, " +
      (mine ? mine.score : 0) + " of " + msg.board_points + " points"
    : "";
  $("results-shared").replaceChildren(...msg.shared.map((s) => {
    const count = s.count || s.players.length;
    const more = count > s.players.length ? " and " + (count - s.players.length) + " more" : "";
    const li = el("li");
    li.dataset.word = s.word;
    li.append(wordButton(s.word, s.word), ": " + s.players.join(", ") + more);
    return li;
  }));
  $("results-shared-box").hidden = msg.shared.length === 0;
  const missed = msg.missed.map((m) => {
    const li = el("li", m.rare ? "rare" : "");
    li.dataset.word = m.word;
    const b = wordButton(m.word + " " + m.points + (m.rare ? " *" : ""), m.word);
    if (m.rare) b.setAttribute("aria-label", m.word + ", " + pointsText(m.points) + ", rare");
    li.append(b);
    return li;
  });
  if (msg.missed_total > missed.length) missed.push(el("li", "note", "(" + msg.missed_total + " in all)"));
  if (missed.length === 0) missed.push(el("li", "note", "none"));
  $("results-missed").replaceChildren(...missed);
  const computer = msg.players.length > 1 && !!state.solo;
  $("missed-title").textContent = !state.solo ? "Words nobody found"
    : computer ? "Words you and the computer missed" : "Words you missed";
  drawBoard($("results-board"), false);
  shown = [];
  $("results-path").textContent = "Tap a word to see its path and what it means.";
  clearMeaning();
  dailyShare(mine);
  show("results");
  // A room's next board is its next round (Ready), and today's board is
  // played again by Ready too: only another solo game replays its board.
  button("again").hidden = !state.solo || !!state.daily;
  button("link-copy").hidden = false;
  readyButton();
  $("ready-note").textContent = state.last ? "that was the room's last round" : "";
  setStatus(state.last ? "game over" : "round over");
  window.scrollTo(0, 0);
  $("results-title").focus({ preventScroll: true });
  setTimeout(() => {
    readyButton();
    // Ready takes the focus after the grace, without scrolling.
    if (!state.last && !state.inRound && state.results === msg) button("ready").focus({ preventScroll: true });
  }, GRACE_MS);
}

/** The board for a link: Qu as on the die, a blank as a dot. */
const boardLetters = () => state.board.map((f) => (f === "QU" ? "Qu" : f || ".")).join("");

/** The path shown on the results' board. @type {number[]} */
let shown = [];

/** A word of the results: its path in order on the board, and its meaning. @param {string} word */
function explain(word) {
  shown = findPath(word) || [];
  const board = $("results-board");
  lightCells(board, shown);
  $("results-path").textContent = shown.length > 0
    ? word + " on the board: " + shown.map((i) => state.board[i] || "?").join(" → ")
    : word;
  inSight();
  void showMeaning(word).then(inSight);
}

/** Brings the board, path and meaning into sight (the board's top first),
 * above the phone's bar of actions. */
function inSight() {
  const r = $("word-side").getBoundingClientRect();
  const bar = $("actions");
  const over = r.bottom - innerHeight + (getComputedStyle(bar).position === "sticky" ? bar.offsetHeight : 0);
  if (r.top < 0 || over > 0) scrollBy(0, Math.floor(r.top < 0 ? r.top : Math.min(over, r.top)));
}

export function initResults() {
  $("results").addEventListener("click", (e) => {
    const b = e.target instanceof Element ? e.target.closest("button.word") : null;
    if (b instanceof HTMLElement) explain((b.dataset.word || "").toUpperCase());
  });
  window.addEventListener("resize", () => lightCells($("results-board"), shown));
  button("again").addEventListener("click", () => {
    if (Date.now() < state.graceUntil) return;
    soloGame({ board: boardLetters(), size: [state.rows, state.cols] }, state.name);
  });
  button("link-copy").addEventListener("click", () =>
    copy(location.origin + "/?board=" + encodeURIComponent(boardLetters()) + "&size=" + state.rows + "x" + state.cols +
      "&rules=" + encodeURIComponent(state.rules), "the link to this board"));
}

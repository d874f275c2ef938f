// The board and its input: letters tapped (the last again sends, an earlier
// one goes back), swiped or typed, the path lit and lined, under the room's
// move rule; a path shown is numbered in order and lined, on the results'
// board too. findPath is bounded: missing letters fail at once, dead ends
// are remembered, past PATH_STEPS steps it says no (a board of one letter
// would take hours).
import { $, clearError, input, setStatus } from "./screens.js";
import { state } from "./state.js";

const PATH_STEPS = 20000;

/** @type {number[]} */
let path = [];
/** @type {{ start: number, moved: boolean, path: number[] } | null} */
let gesture = null;
/** @type {(word: string) => void} */
let sendTraced = () => {};

/** @param {HTMLElement} board @param {boolean} live */
export function drawBoard(board, live) {
  board.replaceChildren();
  board.style.setProperty("--cols", String(state.cols || 4));
  board.setAttribute("aria-label", "the board, " + state.rows + " by " + state.cols);
  state.board.forEach((face, i) => {
    const text = face === "QU" ? "Qu" : face;
    const cell = document.createElement(live ? "button" : "div");
    cell.className = "cell" + (face === "" ? " blank" : "");
    cell.textContent = text;
    cell.dataset.index = String(i);
    cell.dataset.face = face;
    if (cell instanceof HTMLButtonElement) {
      cell.type = "button";
      cell.setAttribute("aria-label", (text || "blank") + ", row " + (Math.floor(i / state.cols) + 1) +
        ", column " + ((i % state.cols) + 1));
    }
    board.append(cell);
  });
}

/** @param {number} a @param {number} b */
function adjacent(a, b) {
  const dr = Math.floor(b / state.cols) - Math.floor(a / state.cols);
  const dc = (b % state.cols) - (a % state.cols);
  if ((dr === 0 && dc === 0) || Math.abs(dr) > 1 || Math.abs(dc) > 1) return false;
  return state.moves !== "no_up" || dr >= 0;
}

/** @param {number[]} cells */
const pathWord = (cells) => cells.map((i) => state.board[i]).join("");

/** Lights `cells` on `board`, numbered in order, with a line through them
 * (the board's box holds the line). @param {HTMLElement} board @param {number[]} cells */
export function lightCells(board, cells) {
  const all = board.children;
  for (const cell of all) {
    cell.classList.remove("lit", "head");
    cell.removeAttribute("data-step");
  }
  cells.forEach((i, k) => {
    if (!all[i]) return;
    all[i].classList.add(k === cells.length - 1 ? "head" : "lit");
    all[i].setAttribute("data-step", String(k + 1));
  });
  drawLine(board, cells);
}

/** @param {number[]} cells @param {boolean} bad */
function lightPath(cells, bad) {
  lightCells($("board"), cells);
  const trace = $("trace");
  trace.textContent = pathWord(cells);
  trace.classList.toggle("bad", bad);
}

/** A line through the middles of `cells` of `board`. @param {HTMLElement} board @param {number[]} cells */
function drawLine(board, cells) {
  const box = board.parentElement;
  const line = box && box.querySelector("polyline");
  if (!box || !(line instanceof SVGPolylineElement)) return;
  const at = box.getBoundingClientRect();
  const all = board.children;
  const points = cells.filter((i) => all[i]).map((i) => {
    const r = all[i].getBoundingClientRect();
    return Math.round(r.left - at.left + r.width / 2) + "," + Math.round(r.top - at.top + r.height / 2);
  });
  line.setAttribute("points", points.length > 1 ? points.join(" ") : "");
}

export function clearPath() {
  path = [];
  gesture = null;
  lightPath([], false);
}

/** @param {EventTarget | null} target @returns {HTMLElement | null} */
const cellOf = (target) => (target instanceof Element ? target.closest(".cell") : null);

/** The cell under a point, near its middle (a diagonal drag misses corners), or -1. @param {number} x @param {number} y */
function cellAt(x, y) {
  const cell = cellOf(document.elementFromPoint(x, y));
  if (!cell || !$("board").contains(cell)) return -1;
  const r = cell.getBoundingClientRect();
  const dx = (x - (r.left + r.width / 2)) / r.width;
  const dy = (y - (r.top + r.height / 2)) / r.height;
  return dx * dx + dy * dy > 0.16 ? -1 : Number(cell.dataset.index);
}

/** A swipe's next cell: a neighbour extends, the one before goes back. @param {number[]} cells @param {number} i */
function extend(cells, i) {
  const n = cells.length;
  if (i < 0 || state.board[i] === "" || (n > 0 && cells[n - 1] === i)) return false;
  if (n > 1 && cells[n - 2] === i) cells.pop();
  else if (n === 0 || (adjacent(cells[n - 1], i) && !cells.includes(i))) cells.push(i);
  else return false;
  return true;
}

/** @param {number} i */
function tap(i) {
  if (!state.inRound || Date.now() < state.graceUntil || state.board[i] === "") return;
  input("word").value = "";
  const at = path.indexOf(i);
  if (at >= 0 && at === path.length - 1) {
    // One letter is no word: tapped again, it is let go.
    if (at === 0) clearPath();
    else sendPath();
    return;
  }
  if (at >= 0) path.length = at + 1;
  else if (path.length === 0 || adjacent(path[path.length - 1], i)) path.push(i);
  else {
    setStatus("tap a letter next to the last one", true);
    return;
  }
  clearError();
  lightPath(path, false);
}

export function sendPath() {
  const word = pathWord(path);
  clearPath();
  if (word.length > 0) sendTraced(word);
}

/** Where `word` lies on the board, or null. @param {string} word @returns {number[] | null} */
export function findPath(word) {
  const letters = word.toUpperCase();
  const cells = state.board;
  if (letters.length === 0 || letters.length > 64) return [];
  /** @type {Record<string, number>} */
  const need = {};
  for (const c of letters) need[c] = (need[c] || 0) + 1;
  for (const face of cells) for (const c of face) if (need[c]) need[c] -= 1;
  if (Object.values(need).some((n) => n > 0)) return null;
  const dead = new Set();
  /** @type {number[]} */
  const used = [];
  let steps = PATH_STEPS;
  /** @param {number} i @param {number} at @returns {boolean} */
  const walk = (i, at) => {
    const face = cells[i];
    if (face === "" || used.includes(i) || !letters.startsWith(face, at)) return false;
    const next = at + face.length;
    if (next === letters.length) { used.push(i); return true; }
    const key = i + ":" + used.slice().sort((a, b) => a - b).join(",");
    if (dead.has(key) || --steps < 0) return false;
    used.push(i);
    for (let j = 0; j < cells.length; j++) {
      if (adjacent(i, j) && walk(j, next)) return true;
    }
    used.pop();
    if (steps >= 0) dead.add(key);
    return false;
  };
  for (let i = 0; i < cells.length; i++) if (walk(i, 0)) return used;
  return null;
}

/** @param {(word: string) => void} send where the board's words go */
export function initBoard(send) {
  sendTraced = send;
  const board = $("board");
  board.addEventListener("pointerdown", (e) => {
    const cell = cellOf(e.target);
    if (!state.inRound || e.button > 0 || !cell) return;
    e.preventDefault();
    const start = Number(cell.dataset.index);
    gesture = { start, moved: false, path: [start] };
    try { board.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
  });
  board.addEventListener("pointermove", (e) => {
    const g = gesture;
    if (!g) return;
    e.preventDefault();
    const i = cellAt(e.clientX, e.clientY);
    if (i < 0 || (i === g.start && !g.moved)) return;
    // Over another cell: a swipe, whatever it started from.
    g.moved = true;
    if (extend(g.path, i) || !path.length || path[0] !== g.start) {
      path = g.path.slice();
      lightPath(path, false);
    }
  });
  board.addEventListener("pointerup", (e) => {
    const g = gesture;
    if (!g) return;
    e.preventDefault();
    gesture = null;
    if (g.moved) {
      path = g.path;
      sendPath();
    } else {
      tap(g.start);
    }
  });
  board.addEventListener("pointercancel", clearPath);
  // The keyboard's tap: Enter or Space on a focused letter (a pointer's click has detail > 0).
  board.addEventListener("click", (e) => {
    const cell = cellOf(e.target);
    if (cell && e.detail === 0) tap(Number(cell.dataset.index));
  });
  window.addEventListener("resize", () => drawLine(board, path));
  const word = input("word");
  word.addEventListener("input", () => {
    if (!state.inRound || gesture) return;
    path = [];
    const typed = word.value.replace(/[^A-Za-z]/g, "");
    const found = findPath(typed);
    lightPath(found || [], found === null);
    if (found === null) $("trace").textContent = typed.toUpperCase();
  });
  word.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      word.value = "";
      clearPath();
    }
  });
}

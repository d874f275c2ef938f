// The player's statistics of today's board, made from the first tries this
// browser keeps (storage.js): games played, the current and best streak of
// days in a row, and how many games scored how many points. They travel to
// another browser as a link whose #stats= fragment (never sent to the
// server) lists the days and the player's token, the seat the server keeps
// the day's try against; opening it offers to add them.
/** @import { DayResult, Days } from "./storage.js" */
import { $, el } from "./screens.js";
import { loadDays, loadPlayer, saveDays } from "./storage.js";

/** The point ranges of the chart: each from its number to the next's. */
const RANGES = [0, 5, 10, 20, 30, 50];

/** @typedef {{ played: number, streak: number, best: number, chart: number[] }} Stats */

/** @param {Days} days @param {number} today the day's number @returns {Stats} */
export function statsOf(days, today) {
  const numbers = Object.keys(days).map(Number).sort((a, b) => a - b);
  let best = 0;
  let run = 0;
  numbers.forEach((n, i) => {
    run = i > 0 && numbers[i - 1] === n - 1 ? run + 1 : 1;
    best = Math.max(best, run);
  });
  const last = numbers[numbers.length - 1];
  // A streak goes on until a day is missed: today not yet played keeps it.
  const streak = last === today || last === today - 1 ? run : 0;
  const chart = RANGES.map(() => 0);
  for (const n of numbers) chart[rangeOf(days[n].points)] += 1;
  return { played: numbers.length, streak, best, chart };
}

/** @param {number} points */
const rangeOf = (points) => RANGES.filter((from) => points >= from).length - 1;

/** @param {number} i */
function rangeText(i) {
  const from = RANGES[i];
  const next = RANGES[i + 1];
  return next === undefined ? from + "+" : next - 1 === from ? String(from) : from + "–" + (next - 1);
}

/** @param {number} n */
export const games = (n) => (n === 1 ? "1 game" : n + " games");

/** One line for the home screen, or "" before any game. @param {number} today */
export function statsLine(today) {
  const s = statsOf(loadDays(), today);
  return s.played === 0 ? "" : "You: " + games(s.played) + ", a streak of " + s.streak + " (best " + s.best + ").";
}

/** Shows the statistics after today's board, today's range marked; none
 * before any game (nothing to show, nor to move). @param {number} today @param {DayResult | null} mine */
export function showStats(today, mine) {
  const s = statsOf(loadDays(), today);
  $("stats").hidden = s.played === 0;
  $("stat-played").textContent = String(s.played);
  $("stat-streak").textContent = String(s.streak);
  $("stat-best").textContent = String(s.best);
  const most = Math.max(1, ...s.chart);
  const marked = mine ? rangeOf(mine.points) : -1;
  $("stat-chart").replaceChildren(...s.chart.map((count, i) => {
    const li = el("li", i === marked ? "today" : "");
    const bar = el("span", "bar");
    bar.style.width = Math.round((count / most) * 100) + "%";
    li.append(el("span", "range", rangeText(i)), bar, el("span", "count", count));
    li.setAttribute("aria-label", rangeText(i) + " points: " + games(count) + (i === marked ? ", today" : ""));
    return li;
  }));
}

/** The link that carries the statistics: `#stats=N.points.words.longest_...&player=TOKEN`. */
export function statsLink() {
  const days = loadDays();
  const list = Object.keys(days).map((n) => [n, days[n].points, days[n].words, days[n].longest].join("."));
  const player = loadPlayer();
  return location.origin + "/#stats=" + list.join("_") + (player ? "&player=" + player : "");
}

/** @typedef {{ days: Days, player: string | null }} Carried */

/** The days and the player's token a link carries (no days if it is not one). @param {string} hash @returns {Carried} */
export function carriedBy(hash) {
  /** @type {Days} */
  const days = {};
  const link = /^#stats=([\d._]{0,20000})(?:&player=([0-9a-f]{32}))?$/.exec(hash);
  if (!link) return { days, player: null };
  for (const item of link[1].split("_")) {
    const [n, points, words, longest] = item.split(".").map(Number);
    if ([n, points, words, longest].every(Number.isSafeInteger) && n > 0) days[n] = { points, words, longest };
  }
  return { days, player: link[2] || null };
}

/** Adds the days this browser does not have; how many were added. @param {Days} more */
export function addDays(more) {
  const days = loadDays();
  let added = 0;
  for (const [n, r] of Object.entries(more)) {
    if (!days[n]) {
      days[n] = r;
      added += 1;
    }
  }
  saveDays(days);
  return added;
}

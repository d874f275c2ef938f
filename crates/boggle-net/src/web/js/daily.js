// Today's board (GET /daily), the share text of the day's first try (later
// ones are practice) and the day's leaderboard.
/** @import { PlayerResult } from "./messages" */
/** @import { Day } from "./state.js" */
import { $, copy, el, pointsText } from "./screens.js";
import { state } from "./state.js";
import { loadDay, saveDay } from "./storage.js";

/** @typedef {{ name: string, points: number, words: number }} Row */

/** @returns {Promise<Day | null>} */
async function loadDaily() {
  try {
    const r = await fetch("/daily");
    if (!r.ok) return null;
    const day = /** @type {Day} */ (await r.json());
    $("daily-title").textContent = "Today's board #" + day.number;
    if (loadDay(day.date)) $("daily-note").textContent = "You played today's board: a new try is practice, unscored.";
    return day;
  } catch {
    return null;
  }
}

export const today = loadDaily();

/** @param {PlayerResult | undefined} mine */
export function dailyShare(mine) {
  const day = state.daily;
  $("share-box").hidden = !day;
  if (!day || !mine) return;
  const longest = mine.words.reduce((n, w) => Math.max(n, w.word.length), 0);
  const first = loadDay(day.date);
  const scored = first || { points: mine.score, words: mine.words_total, longest };
  if (!first) saveDay(day.date, scored);
  // No letters: the share text spoils nothing for a friend yet to play.
  $("share").textContent = "Boggle #" + day.number + ": " + pointsText(scored.points) + ", " +
    scored.words + (scored.words === 1 ? " word" : " words") + ", longest " + scored.longest + " letters" +
    (first ? "\n(this try was practice: your first try counts)" : "");
  showLeaderboard(day.number);
}

/** Read after the results, which the server recorded first. @param {number} day */
async function showLeaderboard(day) {
  const table = $("leaderboard");
  try {
    const r = await fetch("/daily/leaderboard?day=" + day);
    if (!r.ok) { table.hidden = true; return; }
    const board = /** @type {{ results: Row[] }} */ (await r.json());
    const rows = board.results.map((p, i) => {
      const tr = el("tr", p.name === state.name ? "me" : "");
      for (const text of [i + 1, p.name, p.points, p.words]) tr.append(el("td", "", text));
      return tr;
    });
    $("leaderboard-rows").replaceChildren(...rows);
    table.hidden = rows.length === 0;
  } catch {
    table.hidden = true;
  }
}

export function initDaily() {
  $("share-copy").addEventListener("click", () => copy($("share").textContent || "", "the result"));
}

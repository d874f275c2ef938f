// Today's board (GET /daily), the share text of the day's first try (later
// ones are practice), what the server keeps of it against the player's
// seat (the `daily` message) and the day's leaderboard.
/** @import { PlayerResult } from "./messages" */
/** @import { DailyGame, Day } from "./state.js" */
import { $, copy, el, pointsText } from "./screens.js";
import { state } from "./state.js";
import { loadDay, saveDay, savePlayer } from "./storage.js";

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

/** The server's word on this game: the seat's token is kept, and a day
 * played before is practice, its first result the one kept.
 * @param {DailyGame} msg */
export function onDaily(msg) {
  savePlayer(msg.player);
  state.dailyGame = msg;
}

/** What the page says of the server's word on this game. @param {DailyGame | null} game */
function statusNote(game) {
  if (!game) return "";
  const listed = game.listed_as && game.listed_as !== state.name
    ? "Another player is listed as " + state.name + " today: you are listed as " + game.listed_as + ". "
    : "";
  switch (game.status) {
    case "scored": return listed;
    case "played": return listed + "You played today's board already: this try was practice, unscored.";
    case "capped": return "Today's results from your address are at the server's limit: this try was not kept.";
    case "unkept": return "";
  }
}

/** @param {PlayerResult | undefined} mine */
export function dailyShare(mine) {
  const day = state.daily;
  $("share-box").hidden = !day;
  if (!day || !mine) return;
  const game = state.dailyGame;
  const longest = mine.words.reduce((n, w) => Math.max(n, w.word.length), 0);
  // The server's word first: this game is the seat's scored attempt, or
  // practice after the first, whose result it returns.
  const kept = game && game.status === "played" ? game.first : null;
  const first = kept || (game && game.status === "scored" ? null : loadDay(day.date));
  const scored = first || { points: mine.score, words: mine.words_total, longest };
  saveDay(day.date, scored);
  $("daily-status").textContent = statusNote(game);
  // Played again in this room, the day is practice.
  if (game && game.status === "scored") state.dailyGame = { ...game, status: "played", first: scored };
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
      const me = (state.dailyGame && state.dailyGame.listed_as) || state.name;
      const tr = el("tr", p.name === me ? "me" : "");
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

// Today's board (GET /daily): the day's first try (kept by the browser as
// played, and by the server, whose `daily` message has the last word), its
// share text (numbers, a letterless picture of the cells used, the link),
// the statistics and the leaderboard. The try is on the leaderboard only
// once the server says it is kept; until then it is "being saved".
/** @import { PlayerResult } from "./messages" */
/** @import { DailyGame, Day } from "./state.js" */
/** @import { DayResult } from "./storage.js" */
import { findPath } from "./board.js";
import { PAST_DAYS } from "./protocol.js";
import { $, copy, el, pointsText } from "./screens.js";
import { state } from "./state.js";
import { showStats, statsLine, statsLink } from "./stats.js";
import { loadDays, loadSeat, saveDays, savePlayer, saveSeat } from "./storage.js";

/** @typedef {{ name: string, points: number, words: number }} Row */

/** @returns {Promise<Day | null>} */
async function loadDaily() {
  try {
    const r = await fetch("/daily");
    if (!r.ok) return null;
    const day = /** @type {Day} */ (await r.json());
    todayIs = day.number;
    dailyCard(day);
    return day;
  } catch {
    return null;
  }
}

let todayIs = 0;
export const today = loadDaily();

/** The home screen's card of today's board: its number, and the first try if played. @param {Day} day */
export function dailyCard(day) {
  $("daily-title").textContent = "Today's board #" + day.number;
  const first = loadDays()[day.number];
  if (first) $("daily-note").textContent = "You played today's board (" + pointsText(first.points) + "): a new try is practice.";
  const line = statsLine(day.number);
  $("daily-stats").textContent = line;
  $("daily-stats").hidden = !line;
  // The last days' boards, to play as practice (the first try beside).
  const days = loadDays();
  $("past").replaceChildren(...Array.from({ length: PAST_DAYS - 1 }, (_, i) => {
    const n = day.number - i - 1;
    const o = el("option", "", "#" + n + (days[n] ? ": " + pointsText(days[n].points) : ""));
    o.value = String(n);
    return o;
  }).filter((o) => Number(o.value) > 0));
}

/** The link to today's board on this server. @param {Day} day */
export const dayLink = (day) => location.origin + "/?daily=" + day.number;

/** Opening today's board: the first open of the day is the day's try. @param {Day} day */
export function openDay(day) {
  state.daily = day;
  const days = loadDays();
  state.attempt = !days[day.number];
  if (state.attempt) {
    days[day.number] = { points: 0, words: 0, longest: 0 };
    saveDays(days);
  }
}

/** The words accepted so far this round, from the verdicts shown. */
const accepted = () => Array.from(document.querySelectorAll("#verdicts li.accepted"), (li) => li.getAttribute("data-word") || "");

/** During the day's try: what it has found so far is kept. @param {number} score */
export function keepTry(score) {
  const day = state.daily;
  if (!day || !state.attempt) return;
  const days = loadDays();
  days[day.number] = result(score, accepted());
  saveDays(days);
}

/** A try's result: its points, words, longest word and picture. @param {number} points @param {string[]} words @returns {DayResult} */
const result = (points, words) => ({ points, words: words.length, longest: Math.max(0, ...words.map((w) => w.length)), picture: picture(words) });

const SHADES = ["⬜", "🟨", "🟧", "🟥"];

/** The try as a picture that gives no letter away: a square a cell, the
 * more of the words used it the redder. @param {string[]} words */
function picture(words) {
  const uses = state.board.map(() => 0);
  for (const w of words) for (const i of findPath(w) || []) uses[i] += 1;
  const most = Math.max(...uses);
  return uses.map((n, i) => (i && i % state.cols === 0 ? "\n" : "") + SHADES[n && Math.ceil((3 * n) / most)]).join("");
}

/** The server's word on this game (after every welcome): the seat's token
 * is kept; a day the seat played before is practice, and its first result,
 * which the server returns, is the one this browser keeps too. A day this
 * browser played is practice here even if the server has not seen the seat
 * (a token lost, or a server that forgot): this browser's first try stays.
 * @param {DailyGame} msg */
export function onDaily(msg) {
  savePlayer(msg.player);
  state.dailyGame = msg;
  if (msg.status === "played") {
    state.attempt = false;
    if (msg.first) {
      const days = loadDays();
      const had = days[msg.day];
      // The picture is this browser's, if its try is the one the server kept.
      days[msg.day] = { ...msg.first, picture: had && had.points === msg.first.points ? had.picture : undefined };
      saveDays(days);
    }
  }
  const seat = loadSeat();
  if (seat) saveSeat({ ...seat, attempt: state.attempt });
  if (msg.kept !== undefined && state.daily) {
    $("daily-saved").textContent = msg.kept
      ? "Your result is on today's leaderboard."
      : "Your result could not be saved: " + (msg.reason || "the server could not keep it") + ".";
    if (msg.kept) showLeaderboard(msg.day);
  }
}

/** What the page says of this try: the name it is listed under, practice,
 * not kept, no first try to share.
 * @param {DailyGame | null} game @param {boolean} practice @param {boolean} shared */
function statusNote(game, practice, shared) {
  const notes = [];
  if (game && game.listed_as && game.listed_as !== state.name) {
    notes.push("Another player is listed as " + state.name + " today: you are listed as " + game.listed_as + ".");
  }
  if (game && game.status === "capped") notes.push("Today's results from your address are at the server's limit: this try was not kept.");
  else if (state.daily && state.daily.number !== todayIs) {
    notes.push("Board #" + state.daily.number + " was practice: nothing is kept.");
    if (!shared) notes.push("You did not play it on its day, so there is no result to share.");
  } else if (practice) {
    notes.push(shared
      ? "You played today's board already: this try was practice, and your first try is the one shared."
      : "You played today's board already: this try was practice, and this browser has no first try to share.");
  }
  return notes.join(" ");
}

/** The results of a round of today's board: the share text, the statistics, the leaderboard. @param {PlayerResult | undefined} mine */
export function dailyShare(mine) {
  const day = state.daily;
  $("share-box").hidden = !day;
  if (!day) return;
  const days = loadDays();
  if (state.attempt && mine) {
    days[day.number] = { ...result(mine.score, mine.words.map((w) => w.word)), words: mine.words_total };
    saveDays(days);
  }
  const practice = !state.attempt;
  const scored = state.attempt && state.dailyGame && state.dailyGame.status === "scored";
  $("daily-saved").textContent = scored ? "Saving your result to today's leaderboard…" : "";
  // The try is over: another round here is practice, after a reload too.
  state.attempt = false;
  const seat = loadSeat();
  if (seat) saveSeat({ ...seat, attempt: false });
  // Another round in this room is practice on the server too.
  const game = state.dailyGame;
  if (game && game.status === "scored") state.dailyGame = { ...game, status: "played" };
  /** @type {DayResult | null} */
  const first = days[day.number] || null;
  // No letters: the share text spoils nothing for a friend yet to play.
  // A day with no first try has no result: the note says so, no empty share.
  $("share").textContent = !first ? "" : "Boggle #" + day.number + ": " + (first.words
    ? pointsText(first.points) + ", " + first.words + (first.words === 1 ? " word" : " words") +
      ", longest " + first.longest + " letters\n" + (first.picture ? first.picture + "\n" : "")
    : "no words found\n") + dayLink(day);
  $("share").hidden = !first;
  $("share-copy").hidden = !first;
  $("daily-status").textContent = statusNote(game, practice, !!first);
  // The streak runs to today, whichever day's board this was.
  showStats(todayIs || day.number, first);
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
  $("stats-copy").addEventListener("click", () => copy(statsLink(), "the link to your statistics"));
}

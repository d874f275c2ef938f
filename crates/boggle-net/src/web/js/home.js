// The ways in: home (Solo, Today's board, friends, and what a link
// brought), a room's join form, and the way back, asked first when it
// would end a round or leave a room.
/** @import { Solo } from "./messages" */
/** @import { Carried } from "./stats.js" */
import { leave, start } from "./connection.js";
import { dailyCard, openDay, today } from "./daily.js";
import { MAX_NAME, MAX_ROOM, PAST_DAYS } from "./protocol.js";
import { endRound } from "./round.js";
import { $, button, byId, input, setStatus, show } from "./screens.js";
import { state } from "./state.js";
import { addDays, games } from "./stats.js";
import { leftSeat, loadName, loadPlayer, saveLeft, saveName, savePlayer } from "./storage.js";

const playerName = () => (input("home-name").value.trim() || "Player").slice(0, MAX_NAME);

/** The name is kept; the password only used. */
function rememberName() {
  saveName(input("home-name").value.trim());
  state.password = input("home-password").value;
}

/** What this server plays (the page is told): `classic`, `a 3-minute round`. */
const serverRules = () => document.body.dataset.rules || "classic";
function roundLength() {
  const s = Number(document.body.dataset.seconds) || 180;
  return s % 60 === 0 ? "a " + s / 60 + "-minute round" : "a " + s + "-second round";
}

/** @param {Solo} solo @param {string} [name] the name in play, if playing */
export function soloGame(solo, name) {
  rememberName();
  Object.assign(state, { daily: null, attempt: false, dailyGame: null });
  start(name || playerName(), "solo", solo);
}

async function playDaily() {
  rememberName();
  const day = await today;
  state.dailyGame = null;
  start(playerName(), "solo", { daily: true });
  if (day) openDay(day);
}

/** A past day's board, as practice. @param {number} n */
function playPast(n) {
  rememberName();
  Object.assign(state, { daily: { number: n, date: "" }, attempt: false, dailyGame: null });
  start(playerName(), "solo", { daily: true, day: n });
}

/** @param {string} room */
export function joinForm(room) {
  input("room").value = room.slice(0, MAX_ROOM);
  input("name").value = input("name").value || state.name || input("home-name").value.trim();
  input("password").value = input("password").value || input("home-password").value;
  show("join");
}

/** Back to the join form (a room's player) or home. */
export function backHome() {
  endRound();
  Object.assign(state, { token: null, inRound: false, results: null, attempt: false });
  if (state.solo || !state.room) show("home");
  else joinForm(state.room);
  for (const id of ["clock", "who"]) $(id).hidden = true;
  button("join-button").disabled = false;
  today.then((day) => day && dailyCard(day));
}

/** @type {() => void} */
let linkAct = () => {};

/** A card above the others for what a link brought, its button focused
 * (the name first if a game needs one and none is kept). @param {string} title @param {string} note @param {string} label @param {() => void} act @param {boolean} [offer] an offer (No, thanks), not a game */
function linkCard(title, note, label, act, offer = false) {
  $("link-title").textContent = title;
  $("link-note").textContent = note;
  button("link-play").textContent = label;
  button("link-no").hidden = !offer;
  linkAct = act;
  $("link-card").hidden = false;
  show("home");
  (input("home-name").value || offer ? button("link-play") : input("home-name")).focus();
}

function hideLink() {
  if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  $("link-card").hidden = true;
  $("daily-card").hidden = false;
  history.replaceState(null, "", "/");
}

/** A link's board, played when the player says so. @param {string} board @param {[number, number] | null} size @param {string | null} rules */
export function boardLink(board, size, rules) {
  const ours = serverRules();
  const asked = rules ? rules.slice(0, 20) : ours;
  const note = (asked === ours ? "" : "The link asks for " + asked + " rules; this server plays " + ours + ". ") +
    ours.charAt(0).toUpperCase() + ours.slice(1) + " rules" + (size ? ", " + size[0] + "x" + size[1] : "") + ", " +
    roundLength() + ": the clock starts when you press Play.";
  linkCard("A board shared with you", note, "Play this board", () => soloGame({ board, size }));
}

/** A link to today's board (`?daily=N`). @param {number} n */
export async function dailyLink(n) {
  const day = await today;
  if (day && n < day.number && n > day.number - PAST_DAYS) {
    return linkCard("Board #" + n, "A past day's board: a 3-minute round, as practice.", "Play board #" + n, () => playPast(n));
  }
  const note = !day ? "" : n === day.number
    ? "One board for everyone today, the same on every server; your first try counts."
    : "That link was to board #" + n + ": today's board is #" + day.number + ".";
  linkCard(day ? "Today's board #" + day.number : "Today's board", note, "Play today's board", playDaily);
  $("daily-card").hidden = true;
}

/** A link carrying statistics from another browser: the days, and the
 * player's seat, taken where this browser has none (so the server counts
 * the day's try once for both). @param {Carried} carried */
export function statsOffer({ days, player }) {
  const n = Object.keys(days).length;
  linkCard("Statistics from another browser", "Your first tries at " + (n === 1 ? "1 daily board" : n + " daily boards") +
    ", kept in the link: add the days this browser does not have? Only if they are yours: today's board becomes practice here.", "Add them", () => {
    if (player && !loadPlayer()) savePlayer(player);
    setStatus(games(addDays(days)) + " added to your statistics");
    today.then((day) => day && dailyCard(day));
  }, true);
}

/** Whether leaving now would end something: a round on, or a seat in a room. */
const costly = () => state.inRound || (!!state.token && !state.solo);

const leaveDialog = () => byId("leave", HTMLDialogElement);

function askToLeave() {
  $("leave-title").textContent = state.inRound ? "Leave the round?" : "Leave room " + state.room + "?";
  $("leave-note").textContent = state.solo
    ? state.attempt ? "Your try at today's board ends here, with the words found so far." : "This game ends here."
    : "Your seat is kept a while: join room " + state.room + " as " + state.name + " again from this tab to take it back.";
  leaveDialog().showModal();
  button("leave-stay").focus();
}

function goHome() {
  leave();
  history.replaceState(null, "", "/");
  backHome();
  show("home");
  setStatus("");
}

export function initHome() {
  input("home-name").value = loadName();
  for (const id of ["home-name", "name"]) input(id).maxLength = MAX_NAME;
  input("room").maxLength = MAX_ROOM;
  const locked = document.body.dataset.password === "yes";
  $("password-row").hidden = !locked;
  $("home-password-row").hidden = !locked;
  $("solo-note").textContent = "A" + roundLength().slice(1) + " on a new board, started at once.";
  button("solo-button").addEventListener("click", () => {
    const level = byId("versus", HTMLSelectElement).value;
    soloGame(level ? { computer: level } : {});
  });
  button("daily-button").addEventListener("click", playDaily);
  button("past-play").addEventListener("click", () => playPast(Number(byId("past", HTMLSelectElement).value)));
  button("friends-button").addEventListener("click", () => {
    rememberName();
    // A new room of its own, not one strangers share.
    joinForm(Math.random().toString(36).slice(2, 8));
    input("name").focus();
  });
  button("link-play").addEventListener("click", () => {
    hideLink();
    linkAct();
  });
  button("link-no").addEventListener("click", hideLink);
  // Enter on the name plays what the link brought.
  input("home-name").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !$("link-card").hidden) button("link-play").click();
  });
  $("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = input("name").value.trim();
    if (name.length === 0) {
      setStatus("type a name first", true);
      input("name").focus();
      return;
    }
    const room = input("room").value.trim() || "main";
    state.password = input("password").value;
    button("join-button").disabled = true;
    Object.assign(state, { daily: null, attempt: false, dailyGame: null });
    // The seat this tab left in that room, taken back if the server still holds it.
    const left = leftSeat();
    const back = left && left.room === room && left.name.toLowerCase() === name.toLowerCase() ? left.token : null;
    saveLeft(null);
    start(name, room, null, back, !!back);
  });
  // Home leaves the game, without a page load; asked first if that ends something.
  $("home-link").addEventListener("click", (e) => {
    e.preventDefault();
    if (costly()) askToLeave();
    else goHome();
  });
  button("leave-stay").addEventListener("click", () => leaveDialog().close());
  // Stay (or Esc) goes back to typing, not to the header's link.
  leaveDialog().addEventListener("close", () => state.inRound && input("word").focus());
  button("leave-go").addEventListener("click", () => {
    leaveDialog().close();
    goHome();
  });
}

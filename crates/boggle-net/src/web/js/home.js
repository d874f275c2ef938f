// The ways in: home (Solo, Today's board, friends), a room's join form,
// and the way back to them.
/** @import { Solo } from "./messages" */
import { leave, start } from "./connection.js";
import { today } from "./daily.js";
import { MAX_NAME, MAX_ROOM } from "./protocol.js";
import { endRound } from "./round.js";
import { $, button, byId, input, setStatus, show } from "./screens.js";
import { state } from "./state.js";
import { loadName, saveName } from "./storage.js";

const playerName = () => (input("home-name").value.trim() || "Player").slice(0, MAX_NAME);

/** The name is kept; the password only used. */
function rememberName() {
  saveName(input("home-name").value.trim());
  state.password = input("home-password").value;
}

/** @param {Solo} solo */
export function soloGame(solo) {
  rememberName();
  Object.assign(state, { daily: null, dailyGame: null });
  start(playerName(), "solo", solo);
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
  Object.assign(state, { token: null, inRound: false, results: null });
  if (state.solo || !state.room) show("home");
  else joinForm(state.room);
  for (const id of ["clock", "who"]) $(id).hidden = true;
  button("join-button").disabled = false;
}

export function initHome() {
  input("home-name").value = loadName();
  for (const id of ["home-name", "name"]) input(id).maxLength = MAX_NAME;
  input("room").maxLength = MAX_ROOM;
  const locked = document.body.dataset.password === "yes";
  $("password-row").hidden = !locked;
  $("home-password-row").hidden = !locked;
  button("solo-button").addEventListener("click", () => {
    const level = byId("versus", HTMLSelectElement).value;
    soloGame(level ? { computer: level } : {});
  });
  button("daily-button").addEventListener("click", async () => {
    rememberName();
    const day = await today;
    state.dailyGame = null;
    start(playerName(), "solo", { daily: true });
    state.daily = day;
  });
  button("friends-button").addEventListener("click", () => {
    rememberName();
    joinForm(input("room").value || "main");
    input("name").focus();
  });
  $("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = input("name").value.trim();
    if (name.length === 0) {
      setStatus("type a name first", true);
      input("name").focus();
      return;
    }
    state.password = input("password").value;
    button("join-button").disabled = true;
    state.daily = null;
    start(name, input("room").value.trim() || "main", null);
  });
  // Home leaves the game, without a page load.
  $("home-link").addEventListener("click", (e) => {
    e.preventDefault();
    leave();
    history.replaceState(null, "", "/");
    backHome();
    show("home");
    setStatus("");
  });
}

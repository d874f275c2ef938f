// What the page says for each error code (a new one is a type error here
// until handled): where the player can act on it, the field to change
// focused, with an action where there is one.
/** @import { ServerMsg } from "./messages" */
/** @import { Seat } from "./storage.js" */
import { known, start } from "./connection.js";
import { backHome } from "./home.js";
import { notPlayed } from "./round.js";
import { input, offer, setStatus, unhandled } from "./screens.js";
import { state } from "./state.js";

/** @param {string} text */
const end = (text) => text + (/[.!?]$/.test(text) ? "" : ".");
/** @param {string} text */
const sentence = (text) => end(text.charAt(0).toUpperCase() + text.slice(1));

/** Back to the start, saying `text`, `field` focused. @param {string} text @param {"name" | "room" | "password" | null} field */
function refused(text, field) {
  if (state.solo) history.replaceState(null, "", "/");
  backHome();
  setStatus(text, true);
  const id = state.solo ? (field === "room" ? null : "home-" + field) : field;
  if (field && id) input(id).focus();
}

/** As `refused`, offering to join again (with `token`, the seat). @param {string} text @param {string} label @param {string | null} token */
function again(text, label, token) {
  const { name, room, solo } = state;
  refused(text, null);
  // A seat the server has given up by then is joined afresh.
  offer({ label, act: () => start(name, room, solo, token, !!token) });
}

/** The seat is played in another tab (this one a duplicate): it stays out. @param {Seat} seat */
export function inAnotherTab(seat) {
  Object.assign(state, { name: seat.name, room: seat.room, solo: seat.solo, password: seat.password });
  const where = seat.solo ? "Your game" : "Your seat in room " + seat.room;
  again(where + " is open in another tab: this tab stays out.", "Play here instead", seat.token);
}

/** @param {Extract<ServerMsg, { type: "error" }>} msg */
export function onError(msg) {
  const code = known(msg.code);
  const said = sentence(msg.message);
  const why = end(msg.message);
  const where = state.solo ? "Your game" : "Your seat in room " + state.room;
  switch (code) {
    // Not fatal: the message was ignored, the game goes on.
    case "rate_limited":
      if (msg.word) notPlayed(msg.word, "not played: too many words at once");
      else setStatus("too many messages at once: one was ignored", true);
      return;
    case "not_in_round":
      state.pending = [];
      setStatus("the round was over: that word was not played", true);
      return;
    case "bad_word":
      state.pending = [];
      setStatus(msg.message, true);
      return;
    // The server is stopping: the round goes on until it says goodbye.
    // The clock shows the round's new end, and the warning stays until it.
    case "shutting_down":
      if (msg.remaining_ms != null && state.inRound) state.deadline = Date.now() + msg.remaining_ms;
      state.stopping = true;
      return setStatus(said, true);
    // The join was refused: something to change before trying again.
    case "name_taken":
      return refused("The name " + state.name + " is taken in room " + state.room + ": choose another name.", "name");
    case "bad_name":
      return refused("That name cannot be used: " + why, "name");
    case "bad_room":
      return refused("That room name cannot be used: " + why, "room");
    case "room_full":
      return refused("Room " + state.room + " is full: choose another room.", "room");
    case "rounds_over":
      return refused("Room " + state.room + " has played all its rounds: choose another room.", "room");
    case "password":
      return refused(said, "password");
    case "too_long":
      return refused("That password is too long for the server.", "password");
    case "bad_message":
      return refused(said, null);
    case "too_many_rooms":
      return refused("No new room can be made now: " + why, "room");
    case "server_full":
      return again("The server is busy: " + why, "Try again", null);
    // The seat is gone, or the connection was dropped: join again.
    case "bad_token":
      // The seat left on purpose was given up: join afresh, as a new player.
      if (state.takingBack) {
        state.takingBack = false;
        return start(state.name, state.room, state.solo, null);
      }
      return again(where + " was given up while you were away.", state.solo ? "Play a new game" : "Join again", null);
    case "idle":
      return again("Disconnected: " + why, "Join again", state.token);
    case "too_many_messages":
      return again("Disconnected: far too many messages at once.", "Join again", state.token);
    // Another tab or device took the seat: this one stays out, or the two
    // would take it in turn.
    case "replaced":
      return again(where + " was taken by another tab or device: this tab has stopped.", "Play here instead", state.token);
    // This page and the server do not understand each other.
    case "version":
    case "not_utf8":
    case "not_joined":
      refused("The server did not understand this page (" + msg.message + "): reload it.", null);
      return offer({ label: "Reload", act: () => location.reload() });
    // A newer server's refusal.
    case "unknown":
      return refused(said, null);
    default:
      return unhandled(code);
  }
}

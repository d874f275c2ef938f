// The page's entry: each server message to its screen (the switch covers
// every message, checked), and at load this tab's seat, the link's room or
// board, or home.
/** @import { ServerMsg } from "./messages" */
import { holdSeat, listen, rejoined, send, start } from "./connection.js";
import { initDaily, onDaily, today } from "./daily.js";
import { backHome, boardLink, dailyLink, initHome, joinForm, statsOffer } from "./home.js";
import { inAnotherTab, onError } from "./refusals.js";
import { initResults, onResults } from "./results.js";
import { count, initRound, onRoundStart, onVerdict, resendPending } from "./round.js";
import { $, button, copy, helpRules, input, onLobby, setStatus, show, unhandled, who } from "./screens.js";
import { state } from "./state.js";
import { carriedBy } from "./stats.js";
import { loadDone, loadSeat } from "./storage.js";

/** @param {ServerMsg} msg */
function dispatch(msg) {
  switch (msg.type) {
    case "welcome": return onWelcome(msg);
    case "lobby": return onLobby(msg);
    case "round_start": return onRoundStart(msg);
    case "verdict": return onVerdict(msg);
    case "results": return onResults(msg);
    case "daily": return onDaily(msg);
    case "error": return onError(msg);
    case "bye":
      // A round's results (a stopping server ends with them) stay on screen.
      if ($("results").hidden) backHome();
      else $("actions").hidden = true;
      return setStatus("the server said goodbye: " + msg.reason, true);
    case "pong": return;
    default: return unhandled(msg);
  }
}

/** @param {Extract<ServerMsg, { type: "welcome" }>} msg */
function onWelcome(msg) {
  const again = rejoined();
  Object.assign(state, { rules: msg.rules, moves: msg.moves, duplicates: msg.duplicates, last: false });
  who();
  helpRules();
  if (again) count("rejoins");
  resendPending();
  if (state.solo) {
    // A reload resumes this game, not its link.
    history.replaceState(null, "", "/");
    // Solo: no one to wait for, the round starts at once.
    if (!again) send({ type: "ready" });
    return;
  }
  show("lobby");
  $("room-link-box").hidden = false;
  input("room-link").value = location.origin + "/?room=" + encodeURIComponent(state.room);
  setStatus(again ? "rejoined" : "joined: press Ready when you are");
  // The join button is gone: the keyboard's focus goes on to Ready.
  if (!again) button("ready").focus();
  history.replaceState(null, "", "/?room=" + encodeURIComponent(state.room));
}

listen({
  message: dispatch,
  lost(why) {
    backHome();
    setStatus(why, true);
  },
});
initHome();
initRound();
initResults();
initDaily();
button("room-link-copy").addEventListener("click", () => copy(input("room-link").value, "the room's link"));

const params = new URLSearchParams(location.search);
const seat = loadSeat();
const size = /^(\d+)x(\d+)$/.exec(params.get("size") || "");
const room = params.get("room");
const board = params.get("board");
const daily = /^\d{1,6}$/.exec(params.get("daily") || "");
const carried = carriedBy(location.hash);
const done = loadDone();
// A link to another board or room offers that; else the seat resumes, or
// the solo game it finished shows its results again.
if (seat && !board && !daily && done && done.token === seat.token) {
  Object.assign(state, done.state);
  who();
  helpRules();
  // Once today's number is known (a past day's results say practice).
  today.then(() => onResults(done.msg));
} else if (seat && !board && !daily && (!room || room === seat.room)) {
  // A reload: the seat is taken back silently, with this round's words.
  void holdSeat(seat.token, false).then((ours) => {
    if (!ours) return inAnotherTab(seat);
    state.password = seat.password;
    start(seat.name, seat.room, seat.solo, seat.token);
    if (seat.solo && seat.solo.daily) {
      state.attempt = !!seat.attempt;
      today.then((day) => {
        state.daily = day;
        who();
      });
    }
  });
} else if (room) {
  joinForm(room);
  input("name").focus();
} else if (board) {
  boardLink(board.slice(0, 80), size ? [Number(size[1]), Number(size[2])] : null, params.get("rules"));
} else if (daily) {
  dailyLink(Number(daily[0]));
} else if (Object.keys(carried.days).length > 0) {
  statsOffer(carried);
} else {
  show("home");
}

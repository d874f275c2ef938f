// What the modules share about the game in play (the socket's own state
// is connection.js's, the input's board.js's).
/** @import { Duplicates, Moves, ServerMsg, Solo } from "./messages" */
/** @typedef {Extract<ServerMsg, { type: "results" }>} Results */
/** @typedef {{ number: number, date: string }} Day */
/** @typedef {Extract<ServerMsg, { type: "daily" }>} DailyGame */

export const state = {
  name: "",
  room: "main",
  password: "",
  /** @type {string | null} */
  token: null,
  /** @type {Solo | null} */
  solo: null,
  rules: "",
  /** @type {Moves} */
  moves: "eight_neighbours",
  /** @type {Duplicates} */
  duplicates: "cancel",
  rows: 0,
  cols: 0,
  /** @type {string[]} faces, row-major */
  board: [],
  inRound: false,
  deadline: 0,
  /** @type {string[]} words sent, not yet answered */
  pending: [],
  ready: false,
  last: false,
  /** keys and taps do nothing until then (after a round) */
  graceUntil: 0,
  /** the server is stopping: its warning stays */
  stopping: false,
  /** @type {Day | null} */
  daily: null,
  /** this game of today's board is the day's first try */
  attempt: false,
  /** the join took back a seat left on purpose (if the server gave it up, join afresh) */
  takingBack: false,
  /** @type {DailyGame | null} what the server says this daily game is for the player's seat */
  dailyGame: null,
  /** @type {Results | null} */
  results: null,
};

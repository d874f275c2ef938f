// Generated from crates/boggle-protocol (src/typescript.rs) by `make web-protocol`: do not edit.
/** @import { ErrorCode } from "./messages" */

/** The protocol version this page speaks. */
export const VERSION = 1;
/** The most characters a player name may have. */
export const MAX_NAME = 20;
/** The most characters a room name may have. */
export const MAX_ROOM = 20;
/** The most letters a word may have. */
export const MAX_WORD = 64;
/** How many days' boards a solo game may play, today among them. */
export const PAST_DAYS = 30;
/**
 * For every error code, whether the server closes the connection after it.
 * @type {Readonly<Record<ErrorCode, boolean>>}
 */
export const FATAL = Object.freeze({
  bad_message: true,
  too_long: true,
  not_utf8: true,
  version: true,
  password: true,
  bad_name: true,
  name_taken: true,
  bad_room: true,
  bad_token: true,
  room_full: true,
  too_many_rooms: true,
  server_full: true,
  rounds_over: true,
  not_joined: true,
  idle: true,
  rate_limited: false,
  not_in_round: false,
  bad_word: false,
  too_many_messages: true,
  replaced: true,
  shutting_down: false,
  unknown: true,
});

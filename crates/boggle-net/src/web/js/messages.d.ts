// Generated from crates/boggle-protocol (src/typescript.rs) by `make web-protocol`: do not edit.

/**
 * Why the server refuses something; the `code` of an `error` message.
 */
export type ErrorCode = "bad_message" | "too_long" | "not_utf8" | "version" | "password" | "bad_name" | "name_taken" | "bad_room" | "bad_token" | "room_full" | "too_many_rooms" | "server_full" | "rounds_over" | "not_joined" | "idle" | "rate_limited" | "not_in_round" | "bad_word" | "too_many_messages" | "replaced" | "shutting_down" | "unknown";

/**
 * Whether words found by two or more players are cancelled at the end of a round.
 */
export type Duplicates = "cancel" | "count";

/**
 * How a word's path may move from cell to cell, as the `welcome` names it,
 * so a client traces a typed word the way the server will judge it.
 */
export type Moves = "eight_neighbours" | "no_up";

/**
 * What a solo `hello` asks for: a private room of one, its round started by
 * the player's `ready`, on the server's rules unless `daily`.
 */
export type Solo = {
/**
 * Play today's board (UTC) under its rules (classic 4x4, 3 minutes).
 */
daily?: boolean,
/**
 * Play this board (row-major letters, `Qu` for the Qu face), else a rolled one.
 */
board?: string | null,
/**
 * The board's rows and columns, if not the server's rules' own.
 */
size?: [number, number] | null,
/**
 * Play against the computer at this level: `easy`, `medium`, `hard` or `perfect`.
 */
computer?: string | null,
/**
 * With `daily`: the player's long-lived token, from an earlier
 * [`ServerMsg::Daily`] (a browser keeps it in `localStorage`), the seat
 * a day's attempt and result are kept against. Without one, or with one
 * that is not [`PLAYER_TOKEN_LEN`] lower-case hex digits, the server
 * gives a new one.
 */
player?: string | null,
/**
 * With `daily`: play this past day's board instead (its number, one of
 * the last [`PAST_DAYS`] days), as practice: nothing is kept.
 */
day?: number | null, };

/**
 * A message from a client to the server.
 */
export type ClientMsg = { "type": "hello",
/**
 * Must equal [`VERSION`].
 */
version: number,
/**
 * The player's name (validated by [`check_name`](crate::names::check_name)).
 */
name: string,
/**
 * The room (default `main`).
 */
room?: string | null,
/**
 * The server's password, if it has one.
 */
password?: string | null,
/**
 * The token of an earlier `welcome`, to take one's seat back.
 */
token?: string | null,
/**
 * A room of one's own instead of `room`: a solo round (the web
 * page's Solo, Today's board and board links).
 */
solo?: Solo | null, } | { "type": "ready" } | { "type": "word",
/**
 * The word, any case.
 */
word: string, } | { "type": "done" } | { "type": "ping" };

/**
 * One player as the lobby shows them.
 */
export type LobbyPlayer = {
/**
 * Their name.
 */
name: string,
/**
 * Ready for the next round.
 */
ready: boolean,
/**
 * Connected now (a dropped player keeps their seat for the round).
 */
connected: boolean,
/**
 * Points over the rounds so far.
 */
total: number, };

/**
 * A word with its points.
 */
export type WordPoints = {
/**
 * The word, upper case.
 */
word: string,
/**
 * What it is worth under the room's rules.
 */
points: number,
/**
 * Whether the word list marks it rare (missed words only; absent: not rare).
 */
rare?: boolean, };

/**
 * A word a player found, in the results.
 */
export type FoundWord = {
/**
 * The word, upper case.
 */
word: string,
/**
 * What it is worth under the room's rules.
 */
points: number,
/**
 * Found by another player too, so it scores nothing (under `cancel`).
 */
cancelled: boolean, };

/**
 * One player's round.
 */
export type PlayerResult = {
/**
 * Their name.
 */
name: string,
/**
 * The words they found, in the order found; the first
 * [`words_listed`] of them when there are more.
 */
words: Array<FoundWord>,
/**
 * How many words they found in all (absent from older servers: `words`
 * is all of them then).
 */
words_total: number,
/**
 * The round's points (cancelled words count nothing).
 */
score: number,
/**
 * Points over all rounds so far.
 */
total: number,
/**
 * Their place in the round, from 1, best score first (absent from
 * older servers: 0, and their place in `players` is it).
 */
place: number, };

/**
 * A word found by more than one player.
 */
export type SharedWord = {
/**
 * The word, upper case.
 */
word: string,
/**
 * Who found it: the first [`SHARED_NAMES`] of them when there are more.
 */
players: Array<string>,
/**
 * How many players found it (absent from older servers: `players` is all of them).
 */
count: number, };

/**
 * What a daily game is for the seat that plays it, as [`ServerMsg::Daily`] says.
 */
export type DailyStatus = "scored" | "played" | "capped" | "unkept";

/**
 * A day's result as the leaderboard keeps it.
 */
export type DayScore = {
/**
 * Points scored.
 */
points: number,
/**
 * Words found.
 */
words: number,
/**
 * The longest word's length, in letters.
 */
longest: number, };

/**
 * A message from the server to a client.
 */
export type ServerMsg = { "type": "welcome",
/**
 * The server's [`VERSION`].
 */
version: number,
/**
 * The room joined.
 */
room: string,
/**
 * The name played under.
 */
name: string,
/**
 * Send it in a later `hello` to take this seat back after a drop.
 */
token: string,
/**
 * The rules' name (`classic`, ...).
 */
rules: string,
/**
 * The rules' move rule (absent from a server that predates it:
 * 8 neighbours, which only the live trace depends on).
 */
moves: Moves,
/**
 * Rounds the room plays (absent: no limit).
 */
rounds: number | null,
/**
 * Players needed before a round starts.
 */
min_players: number,
/**
 * Whether shared words are cancelled.
 */
duplicates: Duplicates, } | { "type": "lobby",
/**
 * The players, in joining order.
 */
players: Array<LobbyPlayer>,
/**
 * Players needed before a round starts.
 */
min_players: number,
/**
 * Rounds played so far.
 */
round: number, } | { "type": "round_start",
/**
 * The round's number, from 1.
 */
round: number,
/**
 * Board rows.
 */
rows: number,
/**
 * Board columns.
 */
cols: number,
/**
 * The faces, row-major, upper case (`QU` for the Qu face, `` for a blank).
 */
board: Array<string>,
/**
 * Milliseconds left, by the server's clock.
 */
remaining_ms: number,
/**
 * Words the player already found this round (after a rejoin).
 */
found: Array<WordPoints>,
/**
 * The player's points this round so far.
 */
score: number, } | { "type": "verdict",
/**
 * The word, upper case.
 */
word: string,
/**
 * Whether it scored.
 */
accepted: boolean,
/**
 * Points earned.
 */
points: number,
/**
 * `2 points`, `not on the board`, ...
 */
reason: string,
/**
 * The player's points this round so far (before cancellation).
 */
score: number, } | { "type": "results",
/**
 * The round's number.
 */
round: number,
/**
 * Whether it was the room's last round.
 */
last: boolean,
/**
 * Whether shared words were cancelled.
 */
duplicates: Duplicates,
/**
 * The best [`PLAYERS_LISTED`] players, best round score first; in a
 * bigger room, a player below them finds their own entry last.
 */
players: Array<PlayerResult>,
/**
 * How many players the round had (absent from older servers: 0,
 * and `players` is all of them).
 */
players_total: number,
/**
 * Words found by two or more players: those most players found,
 * [`SHARED_SHOWN`] at most.
 */
shared: Array<SharedWord>,
/**
 * How many words two or more players found, in all (absent from
 * older servers: `shared` is all of them).
 */
shared_total: number,
/**
 * The best words nobody found, best first.
 */
missed: Array<WordPoints>,
/**
 * How many words nobody found, in all.
 */
missed_total: number,
/**
 * How many words the board has (absent from older servers: 0).
 */
board_words: number,
/**
 * What all the board's words are worth together (absent from older servers: 0).
 */
board_points: number, } | { "type": "daily",
/**
 * The day's number (`boggle daily`).
 */
day: number,
/**
 * The player's token: keep it (`localStorage`) and send it as
 * `solo.player` in every daily `hello`, so the server knows the seat.
 */
player: string,
/**
 * What this game is for the seat.
 */
status: DailyStatus,
/**
 * The name the day's leaderboard lists the seat under: the name
 * played under, or, when another seat's look-alike name was listed
 * first that day, that name with ` (2)`, ` (3)`, ... (absent when
 * nothing is kept for the seat).
 */
listed_as?: string | null,
/**
 * The seat's first result of the day, when this game is practice
 * after it (`played`).
 */
first?: DayScore | null,
/**
 * Whether `first` is on the day's leaderboard: `true` once it is
 * committed to the server's results file, `false` when it cannot
 * be (`reason` says why); absent while it is being saved. After a
 * scored round the server sends `daily` again with it set.
 */
kept?: boolean | null,
/**
 * Why `first` is not kept (with `kept: false`), in plain words.
 */
reason?: string | null, } | { "type": "error",
/**
 * What kind of refusal.
 */
code: ErrorCode,
/**
 * A sentence for the player.
 */
message: string,
/**
 * The word that was not played, when the refused message was a
 * `word` (`rate_limited`), so a client does not send it again.
 */
word?: string | null,
/**
 * With `shutting_down` during a round: the milliseconds left in
 * it now that the stop brings its end forward, by the server's clock.
 */
remaining_ms?: number | null, } | { "type": "bye",
/**
 * Why.
 */
reason: string, } | { "type": "pong" };

/**
 * A part of speech, as WordNet divides its words.
 */
export type PartOfSpeech = "noun" | "verb" | "adjective" | "adverb";

/**
 * One sense of a lemma.
 */
export type Sense = {
/**
 * Its part of speech.
 */
part: PartOfSpeech,
/**
 * WordNet's definition.
 */
definition: string, };

/**
 * One lemma a word reaches, with its senses.
 */
export type MeaningEntry = {
/**
 * The lemma, lower case as WordNet writes it (`box` for BOXES).
 */
lemma: string,
/**
 * Its senses, by part of speech, the most frequent first.
 */
senses: Array<Sense>, };

/**
 * The answer to `GET /meaning?word=WORD`.
 */
export type Meaning = {
/**
 * The word asked for, upper case.
 */
word: string,
/**
 * The lemmas it reaches, in WordNet's order; empty when WordNet has no entry.
 */
entries: Array<MeaningEntry>, };

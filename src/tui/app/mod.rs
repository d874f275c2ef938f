//! The full-screen game's state and its transitions, with no terminal: what the
//! player has typed and found, the status line, the clock (advanced only by
//! `Input::Tick`, so tests inject time), the phase (playing, paused, help,
//! the end screen with a selected word and, on `d`, its meaning), today's
//! board's number and share line, and the session's games when the
//! player plays again (new boards come from an injected [`BoardSource`], so the
//! state machine never decides how boards are rolled). Drawing lives in `ui`,
//! keys in `terminal`.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt;
use std::rc::Rc;
use std::time::Duration;

use boggle_engine::path::trace;
use boggle_game::dictionary::Level;
use boggle_game::face::QReads;
use boggle_game::game::{Game, Winner};
use boggle_game::game_board::GameBoard;
use boggle_game::rules::Rules;
use boggle_game::text::plural;
use boggle_game::word_find::WordFind;
use boggle_meaning::{Meanings, meaning_lines};

/// One thing the player did, or time passing; the terminal layer maps keys to these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    /// A typed character (letters are kept, Space plays the word as in BSD
    /// boggle, the rest ignored; `q` quits the end screen).
    Char(char),
    /// Deletes the last typed letter.
    Backspace,
    /// Clears the typed word (Ctrl-U, and Ctrl-W: the word is the whole line).
    Clear,
    /// Submits the typed word.
    Enter,
    /// Clears the typed word; leaves help; quits the end screen.
    Esc,
    /// Selects the previous word on the end screen.
    Up,
    /// Selects the next word on the end screen.
    Down,
    /// Selects the end screen's first word.
    Home,
    /// Selects the end screen's last word.
    End,
    /// Moves the end screen's selection back one screenful.
    PageUp,
    /// Moves the end screen's selection on one screenful.
    PageDown,
    /// Pauses or resumes (the board hides while paused).
    Pause,
    /// Shows or hides the keys and rules.
    Help,
    /// Ends the turn now and shows the end screen.
    Finish,
    /// Leaves the program.
    Quit,
    /// Time passed.
    Tick(Duration),
}

/// Which screen the game is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Typing words against the clock.
    Playing,
    /// The clock is stopped and the board hidden.
    Paused,
    /// The keys and rules are shown over the game; the clock is stopped.
    Help,
    /// The turn is over; `selected` indexes [`App::end_words`].
    /// Enter or `n` plays again on a new board when the app has a [`BoardSource`].
    Over {
        /// The selected word, whose path is highlighted.
        selected: usize,
    },
}

/// A word on the end screen: found or missed, with its points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EndWord {
    /// The word, upper case.
    pub(crate) word: String,
    /// Its points.
    pub(crate) points: u32,
    /// Whether the player found it.
    pub(crate) found: bool,
    /// Whether the word list marks it as rare.
    pub(crate) rare: bool,
}

/// Where a new board comes from when the player plays again: the command line
/// rolls it (seeded or not), tests hand out fixed boards.
#[derive(Clone)]
pub(crate) struct BoardSource(Rc<RefCell<Roll>>);

/// Rolls a board under the rules in force.
type Roll = dyn FnMut(&Rules) -> GameBoard;

impl BoardSource {
    /// A source that calls `roll` with the rules in force for each new board.
    pub(crate) fn new(roll: impl FnMut(&Rules) -> GameBoard + 'static) -> BoardSource {
        BoardSource(Rc::new(RefCell::new(roll)))
    }

    fn next(&self, rules: &Rules) -> GameBoard {
        // Only `App::play_again` calls this, never from inside `roll`, so the
        // borrow is always free.
        (self.0.borrow_mut())(rules)
    }
}

impl fmt::Debug for BoardSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BoardSource")
    }
}

/// The session's finished games, as BSD boggle keeps them: how many, the
/// points in all, and the best game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Session {
    /// Games finished this session.
    pub(crate) games: u32,
    /// Points scored over those games.
    pub(crate) total: u64,
    /// The best game's points.
    pub(crate) best: u32,
}

impl Session {
    fn add(&mut self, score: u32) {
        self.games += 1;
        self.total += u64::from(score);
        self.best = self.best.max(score);
    }

    /// The mean points per game, to one decimal place (`0.0` before any game).
    pub(crate) fn average(&self) -> String {
        if self.games == 0 {
            return "0.0".to_string();
        }
        // In tenths, rounded half up, so no float formatting decides the digits.
        let tenths = (self.total * 20 / u64::from(self.games)).div_ceil(2);
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

/// The most letters kept in the typed word (longer cannot be on any board this size).
fn typed_cap(board: &GameBoard) -> usize {
    board.faces().len() * 2
}

/// The whole game: board, rules, every word, and what the player has done.
#[derive(Clone, Debug)]
pub(crate) struct App {
    /// The board, its words and the player's; the judge of every word.
    game: Game,
    typed: String,
    status: String,
    rejected: bool,
    remaining: Option<Duration>,
    time_limit: Option<Duration>,
    phase: Phase,
    before_help: Phase,
    quit: bool,
    record_note: Option<String>,
    level: Level,
    /// Kept to judge the next board with the same dictionary and rules.
    finder: WordFind,
    boards: Option<BoardSource>,
    session: Session,
    /// Entries one PageUp/PageDown moves over: a screenful, set by the drawer.
    page: usize,
    /// How long the turn has been over: keys wait [`GRACE`] after it ends.
    over_for: Duration,
    /// Whether the screen is large enough to show the board (set by the
    /// drawer); the clock does not run while it is not.
    board_fits: bool,
    /// The word list in play, for the help overlay.
    word_list: Option<String>,
    /// What the selected word means, shown over the end screen until a key.
    meaning: Option<Vec<String>>,
    /// Today's board's number, when the game is today's board.
    daily: Option<u32>,
}

/// The status line a new board starts with.
const START_STATUS: &str = "Type a word and press Enter; ? for help";

/// How long the end screen takes no key: a key still being typed when the
/// time ran out (an Enter, a `q`, an `n`) must not dismiss the results unseen.
pub(crate) const GRACE: Duration = Duration::from_secs(1);

impl App {
    /// A game on `board` with the finder's dictionary and rules; `time_limit` `None` is untimed.
    pub(crate) fn new(finder: WordFind, board: GameBoard, time_limit: Option<Duration>) -> App {
        // The keys line says `? help`: the first status line is the rules.
        let status = rules_strip(finder.rules());
        App {
            game: Game::from_board(board, &finder),
            typed: String::new(),
            status,
            rejected: false,
            remaining: time_limit,
            time_limit,
            phase: Phase::Playing,
            before_help: Phase::Playing,
            quit: false,
            record_note: None,
            level: Level::Perfect,
            finder,
            boards: None,
            session: Session::default(),
            page: 1,
            over_for: Duration::ZERO,
            board_fits: true,
            word_list: None,
            meaning: None,
            daily: None,
        }
    }

    /// Lets the player play again from the end screen, on boards from `boards`.
    pub(crate) fn with_boards(mut self, boards: BoardSource) -> App {
        self.boards = Some(boards);
        self
    }

    /// Applies one input.
    pub(crate) fn handle(&mut self, input: Input) {
        if input == Input::Quit {
            self.quit = true;
            return;
        }
        // A word's meaning stays until the next key.
        if self.meaning.is_some() && !matches!(input, Input::Tick(_)) {
            self.meaning = None;
            return;
        }
        match self.phase {
            Phase::Playing => self.playing(input),
            Phase::Paused => match input {
                Input::Pause | Input::Esc | Input::Enter => self.phase = Phase::Playing,
                Input::Help => self.open_help(),
                Input::Finish => self.finish("Turn ended"),
                _ => {}
            },
            Phase::Help => match input {
                Input::Tick(_) => {}
                _ => self.phase = self.before_help,
            },
            Phase::Over { selected } => self.over(selected, input),
        }
    }

    fn playing(&mut self, input: Input) {
        match input {
            Input::Char(c)
                if c.is_ascii_alphabetic() && self.typed.len() < typed_cap(self.board()) =>
            {
                self.typed.push(c.to_ascii_uppercase());
            }
            Input::Backspace => {
                self.typed.pop();
            }
            Input::Esc | Input::Clear => self.typed.clear(),
            Input::Enter | Input::Char(' ') => self.submit(),
            Input::Pause => self.phase = Phase::Paused,
            Input::Help => self.open_help(),
            Input::Finish => self.finish("Turn ended"),
            Input::Tick(elapsed) => self.tick(elapsed),
            _ => {}
        }
    }

    fn over(&mut self, selected: usize, input: Input) {
        if let Input::Tick(elapsed) = input {
            self.over_for = self.over_for.saturating_add(elapsed);
            return;
        }
        if !self.taking_keys() {
            return;
        }
        let last = self.end_words().len().saturating_sub(1);
        match input {
            Input::Up => self.select(selected.saturating_sub(1)),
            Input::Down => self.select((selected + 1).min(last)),
            Input::Home => self.select(0),
            Input::End => self.select(last),
            Input::PageUp => self.select(selected.saturating_sub(self.page)),
            Input::PageDown => self.select(selected.saturating_add(self.page).min(last)),
            Input::Enter | Input::Char('n' | 'N') => self.play_again(),
            Input::Char('d' | 'D') => self.define(selected),
            Input::Help => self.open_help(),
            Input::Esc | Input::Char('q' | 'Q') => self.quit = true,
            _ => {}
        }
    }

    fn select(&mut self, selected: usize) {
        self.phase = Phase::Over { selected };
    }

    /// Shows what the end screen's `selected` word means (`boggle define`'s lines).
    fn define(&mut self, selected: usize) {
        let Some(word) = self.end_words().get(selected).map(|w| w.word.clone()) else {
            return;
        };
        self.meaning = Some(match Meanings::embedded() {
            Ok(meanings) => meaning_lines(&word, &meanings.define(&word)),
            Err(e) => vec![format!("{word}: {e}")],
        });
    }

    /// What the selected word means, while it is shown over the end screen.
    pub(crate) fn meaning(&self) -> Option<&[String]> {
        self.meaning.as_deref()
    }

    /// Plays today's board, number `number`: the header and the end screen say so.
    pub(crate) fn with_daily(mut self, number: u32) -> App {
        self.daily = Some(number);
        self
    }

    /// Today's board's number, when this game is today's board.
    pub(crate) fn daily(&self) -> Option<u32> {
        self.daily
    }

    /// Today's board's share line, spoiler-free as the page's (the points,
    /// the words and the longest word's length, not its letters):
    /// `Boggle #332: 8 points, 5 words, longest 6 letters`.
    pub(crate) fn share_line(&self) -> Option<String> {
        let number = self.daily?;
        let found = self.game.found_words();
        let longest = found.iter().map(|w| w.chars().count()).max().unwrap_or(0);
        Some(format!(
            "Boggle #{number}: {}, {}, longest {longest} letters",
            counted(self.score() as usize, "point"),
            counted(found.len(), "word")
        ))
    }

    fn open_help(&mut self) {
        self.before_help = self.phase;
        self.phase = Phase::Help;
    }

    fn tick(&mut self, elapsed: Duration) {
        // A board the screen cannot show is not time to think about it.
        if !self.board_fits {
            return;
        }
        if let Some(remaining) = self.remaining {
            let left = remaining.saturating_sub(elapsed);
            self.remaining = Some(left);
            if left.is_zero() {
                self.finish("Time's up");
            }
        }
    }

    fn finish(&mut self, why: &str) {
        self.typed.clear();
        self.rejected = false;
        self.over_for = Duration::ZERO;
        // Short enough for a 60-column screen; the keys line says what to press.
        self.status = format!("{why}: {}", self.score_line());
        self.session.add(self.score());
        self.phase = Phase::Over { selected: 0 };
    }

    /// A new board from the source, the same rules, dictionary and time; the
    /// session's games stay. Without a source the end screen stays.
    fn play_again(&mut self) {
        let Some(boards) = &self.boards else {
            return;
        };
        let board = boards.next(self.game.rules());
        self.game = Game::from_board(board, &self.finder);
        self.typed.clear();
        self.status = format!("New board; {START_STATUS}");
        self.rejected = false;
        self.remaining = self.time_limit;
        self.phase = Phase::Playing;
        self.before_help = Phase::Playing;
        self.record_note = None;
        // Another board is no longer today's.
        self.daily = None;
    }

    /// Whether the end screen offers another board (Enter or `n`).
    pub(crate) fn can_play_again(&self) -> bool {
        self.boards.is_some()
    }

    /// The session's finished games.
    pub(crate) fn session(&self) -> Session {
        self.session
    }

    /// Sets how many end-screen entries PageUp and PageDown move over (at least 1).
    pub(crate) fn set_page(&mut self, entries: usize) {
        self.page = entries.max(1);
    }

    /// Tells the game whether the screen shows the board: while it does not
    /// (a terminal too small), the clock stops.
    pub(crate) fn set_board_fits(&mut self, fits: bool) {
        self.board_fits = fits;
    }

    /// Whether the clock is stopped because the board cannot be shown.
    #[cfg(test)]
    pub(crate) fn too_small(&self) -> bool {
        !self.board_fits
    }

    /// Whether keys are taken: always while playing; on the end screen only
    /// once [`GRACE`] has passed since the turn ended.
    pub(crate) fn taking_keys(&self) -> bool {
        !self.is_over() || self.over_for >= GRACE
    }

    /// Whether the board must be hidden: whenever the clock is stopped during
    /// the turn (paused, or help over the game), so stopped time is never
    /// thinking time with the board in view. After the turn it stays shown.
    pub(crate) fn board_hidden(&self) -> bool {
        !self.is_over() && matches!(self.phase, Phase::Paused | Phase::Help)
    }

    fn submit(&mut self) {
        if self.typed.is_empty() {
            return;
        }
        let word = std::mem::take(&mut self.typed);
        let verdict = self.game.play_word(&word);
        self.status = format!("{word}: {}", verdict.reason());
        self.rejected = !verdict.is_accepted();
    }

    /// The same game against a computer (under the versus presets) that knows
    /// only the words of `level`.
    pub(crate) fn with_level(mut self, level: Level) -> App {
        self.level = level;
        self
    }

    /// Names the word list in play (the help overlay shows it).
    pub(crate) fn with_word_list(mut self, words: String) -> App {
        self.word_list = Some(words);
        self
    }

    /// The word list in play, as the help overlay names it.
    pub(crate) fn word_list(&self) -> Option<&str> {
        self.word_list.as_deref()
    }

    /// Every word for the end screen: the player's own first, in the order
    /// found (a long list of missed words must not push them out of sight),
    /// then the missed ones, common first where the word list has levels,
    /// then best first, then alphabetical.
    pub(crate) fn end_words(&self) -> Vec<EndWord> {
        let dictionary = self.game.dictionary();
        let found = self.game.found_words().iter().map(|word| EndWord {
            word: word.clone(),
            points: self.game.get_word_score(word),
            found: true,
            rare: dictionary.is_rare(word),
        });
        let missed = dictionary
            .by_commonness(self.game.missed_words(), |word| {
                self.game.get_word_score(word)
            })
            .into_iter()
            .map(|(word, rare)| EndWord {
                word: word.to_string(),
                points: self.game.get_word_score(word),
                found: false,
                rare,
            });
        found.chain(missed).collect()
    }

    /// The cells to highlight: the typed word's path while playing, the selected word's at the end.
    pub(crate) fn highlight(&self) -> Vec<usize> {
        let word = match self.phase {
            Phase::Over { selected } => self.end_words().get(selected).map(|w| w.word.clone()),
            _ => Some(self.typed.clone()),
        };
        word.and_then(|w| trace(self.board(), self.rules().moves, &w))
            .unwrap_or_default()
    }

    /// The board's longest word and its best-scoring word (a tie for best goes to the longer word).
    pub(crate) fn longest_and_best(&self) -> Option<(&str, &str)> {
        longest_and_best(&self.game, self.words().iter().map(String::as_str))
    }

    /// The player's longest and best-scoring found words, tied as for the board's.
    pub(crate) fn your_longest_and_best(&self) -> Option<(&str, &str)> {
        longest_and_best(
            &self.game,
            self.game.found_words().iter().map(String::as_str),
        )
    }

    /// `12 words, 17 of 183 points`.
    pub(crate) fn score_line(&self) -> String {
        let n = self.game.found_words().len();
        let words = plural(n, "word", "words");
        format!(
            "{n} {words}, {} of {} points",
            self.score(),
            self.total_points()
        )
    }

    /// The share of the board's points found, in whole percent.
    pub(crate) fn percent(&self) -> u32 {
        let total = u64::from(self.total_points());
        if total == 0 {
            return 0;
        }
        // Widened so a huge score cannot overflow the multiplication.
        u32::try_from(u64::from(self.score()) * 100 / total).unwrap_or(100)
    }

    /// The board.
    pub(crate) fn board(&self) -> &GameBoard {
        self.game.board()
    }

    /// The rules in force.
    pub(crate) fn rules(&self) -> &Rules {
        self.game.rules()
    }

    /// Every word on the board.
    pub(crate) fn words(&self) -> &BTreeSet<String> {
        self.game.words()
    }

    /// The game: the board, its words and what the player found.
    pub(crate) fn game(&self) -> &Game {
        &self.game
    }

    /// Why the letters typed so far cannot be spelled on the board, in the
    /// very words the verdict will use when they are played; `None` while
    /// they can (or nothing is typed).
    pub(crate) fn hint(&self) -> Option<String> {
        if self.typed.is_empty() {
            return None;
        }
        self.game.why_off_board(&self.typed).map(|why| why.reason())
    }

    /// The letters typed so far, upper case.
    pub(crate) fn typed(&self) -> &str {
        &self.typed
    }

    /// The words found, in order, with their points.
    pub(crate) fn found(&self) -> Vec<(&str, u32)> {
        self.game
            .found_words()
            .iter()
            .map(|word| (word.as_str(), self.game.get_word_score(word)))
            .collect()
    }

    /// Points scored.
    pub(crate) fn score(&self) -> u32 {
        self.game.get_score()
    }

    /// Points on the board.
    pub(crate) fn total_points(&self) -> u32 {
        self.game.get_total_points_possible()
    }

    /// The status line: the last word's points or why it was rejected.
    pub(crate) fn status(&self) -> &str {
        &self.status
    }

    /// Whether the status line says the last word was rejected.
    pub(crate) fn rejected(&self) -> bool {
        self.rejected
    }

    /// Under rules played against the computer (cs106b, tddd86), the
    /// computer's line: it takes every word the player missed that it knows.
    pub(crate) fn versus_line(&self) -> Option<String> {
        if !self.rules().against_computer {
            return None;
        }
        let words = self.game.computer_words(self.level).count();
        let points = self.game.computer_score(self.level);
        let winner = match self.game.winner(self.level) {
            Winner::Computer => "the computer wins",
            Winner::Human => "you win",
        };
        Some(format!(
            "Computer: {}, {}; {winner}",
            counted(words, "word"),
            counted(points as usize, "point")
        ))
    }

    /// Time left, or `None` when untimed.
    pub(crate) fn remaining(&self) -> Option<Duration> {
        self.remaining
    }

    /// The current screen.
    pub(crate) fn phase(&self) -> Phase {
        self.phase
    }

    /// The screen under the help overlay (the current one when help is not shown).
    pub(crate) fn screen(&self) -> Phase {
        if self.phase == Phase::Help {
            self.before_help
        } else {
            self.phase
        }
    }

    /// Whether the player asked to leave.
    pub(crate) fn should_quit(&self) -> bool {
        self.quit
    }

    /// Whether the turn is over.
    pub(crate) fn is_over(&self) -> bool {
        matches!(self.screen(), Phase::Over { .. })
    }

    /// A line about the player's records, shown on the end screen.
    pub(crate) fn record_note(&self) -> Option<&str> {
        self.record_note.as_deref()
    }

    /// Sets the line about the player's records.
    pub(crate) fn set_record_note(&mut self, note: String) {
        self.record_note = Some(note);
    }
}

/// The longest of `words` and the best-scoring by the game's scoring, ties
/// broken as a player reads them: the longer word, then more points, then the
/// more common word (in a list with commonness levels: ROB before HOB,
/// SHORED before DIKERS), then alphabetical.
fn longest_and_best<'a>(
    game: &Game,
    words: impl Iterator<Item = &'a str> + Clone,
) -> Option<(&'a str, &'a str)> {
    use std::cmp::Reverse;
    let points = |w: &str| game.get_word_score(w);
    let length = |w: &str| w.chars().count();
    // A lower level is more common; a list without levels ties every word.
    let common = |w: &str| Reverse(game.dictionary().rank(w).unwrap_or(0));
    // `Reverse` on the word makes the alphabetically first win `max_by_key`.
    let longest = words
        .clone()
        .max_by_key(|&w| (length(w), points(w), common(w), Reverse(w)))?;
    let best = words.max_by_key(|&w| (points(w), length(w), common(w), Reverse(w)))?;
    Some((longest, best))
}

/// The rules a new player is surprised by, in one line: the shortest word,
/// how a path may move, and what `Q` is (`3+ letters, never going up a row,
/// Q is plain`); the help overlay has the rest.
pub(crate) fn rules_strip(rules: &Rules) -> String {
    let moves = match rules.moves {
        boggle_game::rules::MoveRule::NoUp => "never going up a row",
        boggle_game::rules::MoveRule::EightNeighbours => "8 neighbours",
    };
    let q = match rules.q {
        QReads::Qu => "Q is Qu",
        QReads::Q => "Q is plain",
    };
    format!("{}+ letters, {moves}, {q}", rules.min_len)
}

/// `1 word`, `2 words`.
fn counted(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", plural(n, "", "s"))
}

#[cfg(test)]
pub(crate) mod tests;

//! The full-screen game's state and its transitions, with no terminal: what the
//! player has typed and found, the status line, the clock (advanced only by
//! `Input::Tick`, so tests inject time), and the phase (playing, paused, help,
//! the end screen with a selected word). Drawing lives in `ui`, keys in `terminal`.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::dictionary::Level;
use crate::engine::path::find_path;
use crate::game::{Game, Verdict, Winner};
use crate::game_board::GameBoard;
use crate::rules::Rules;
use crate::word_find::WordFind;

/// One thing the player did, or time passing; the terminal layer maps keys to these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A typed character (letters are kept, the rest ignored; `q` quits the end screen).
    Char(char),
    /// Deletes the last typed letter.
    Backspace,
    /// Submits the typed word.
    Enter,
    /// Clears the typed word; leaves help; quits the end screen.
    Esc,
    /// Selects the previous word on the end screen.
    Up,
    /// Selects the next word on the end screen.
    Down,
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
pub enum Phase {
    /// Typing words against the clock.
    Playing,
    /// The clock is stopped and the board hidden.
    Paused,
    /// The keys and rules are shown over the game; the clock is stopped.
    Help,
    /// The turn is over; `selected` indexes [`App::end_words`].
    Over {
        /// The selected word, whose path is highlighted.
        selected: usize,
    },
}

/// A word on the end screen: found or missed, with its points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndWord {
    /// The word, upper case.
    pub word: String,
    /// Its points.
    pub points: u32,
    /// Whether the player found it.
    pub found: bool,
    /// Whether the word list marks it as rare.
    pub rare: bool,
}

/// The most letters kept in the typed word (longer cannot be on any board this size).
fn typed_cap(board: &GameBoard) -> usize {
    board.faces().len() * 2
}

/// The whole game: board, rules, every word, and what the player has done.
#[derive(Clone, Debug)]
pub struct App {
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
}

impl App {
    /// A game on `board` with the finder's dictionary and rules; `time_limit` `None` is untimed.
    pub fn new(finder: WordFind, board: GameBoard, time_limit: Option<Duration>) -> App {
        App {
            game: Game::from_board(board, &finder),
            typed: String::new(),
            status: "Type a word and press Enter; ? for help".to_string(),
            rejected: false,
            remaining: time_limit,
            time_limit,
            phase: Phase::Playing,
            before_help: Phase::Playing,
            quit: false,
            record_note: None,
            level: Level::Perfect,
        }
    }

    /// Applies one input.
    pub fn handle(&mut self, input: Input) {
        if input == Input::Quit {
            self.quit = true;
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
            Input::Esc => self.typed.clear(),
            Input::Enter => self.submit(),
            Input::Pause => self.phase = Phase::Paused,
            Input::Help => self.open_help(),
            Input::Finish => self.finish("Turn ended"),
            Input::Tick(elapsed) => self.tick(elapsed),
            _ => {}
        }
    }

    fn over(&mut self, selected: usize, input: Input) {
        let last = self.end_words().len().saturating_sub(1);
        match input {
            Input::Up => self.select(selected.saturating_sub(1)),
            Input::Down => self.select((selected + 1).min(last)),
            Input::Help => self.open_help(),
            Input::Esc | Input::Char('q' | 'Q') => self.quit = true,
            _ => {}
        }
    }

    fn select(&mut self, selected: usize) {
        self.phase = Phase::Over { selected };
    }

    fn open_help(&mut self) {
        self.before_help = self.phase;
        self.phase = Phase::Help;
    }

    fn tick(&mut self, elapsed: Duration) {
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
        self.status = format!(
            "{why}: {}; Up/Down show a word's path, q quits",
            self.score_line()
        );
        self.phase = Phase::Over { selected: 0 };
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

    /// What submitting `word` would earn, without recording it (the game's judge).
    pub fn judge(&self, word: &str) -> Verdict {
        self.game.judge(word)
    }

    /// The same game against a computer (under the versus presets) that knows
    /// only the words of `level`.
    pub fn with_level(mut self, level: Level) -> App {
        self.level = level;
        self
    }

    /// Shows `text` on the status line (the first screen names the word list this way).
    pub fn announce(&mut self, text: String) {
        self.status = text;
    }

    /// Every word for the end screen: the found ones in the order found, then
    /// the missed ones, common first where the word list has levels, then best
    /// first, then alphabetical.
    pub fn end_words(&self) -> Vec<EndWord> {
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
    pub fn highlight(&self) -> Vec<usize> {
        let word = match self.phase {
            Phase::Over { selected } => self.end_words().get(selected).map(|w| w.word.clone()),
            _ => Some(self.typed.clone()),
        };
        word.and_then(|w| trace(self.board(), self.rules(), &w))
            .unwrap_or_default()
    }

    /// The board's longest word and its best-scoring word (the first alphabetically among equals).
    pub fn longest_and_best(&self) -> Option<(&str, &str)> {
        let longest = self
            .words()
            .iter()
            .fold(None::<&String>, |best, w| match best {
                Some(b) if b.len() >= w.len() => Some(b),
                _ => Some(w),
            })?;
        let best = self
            .words()
            .iter()
            .fold(None::<&String>, |best, w| match best {
                Some(b) if self.rules().word_score(b.len()) >= self.rules().word_score(w.len()) => {
                    Some(b)
                }
                _ => Some(w),
            })?;
        Some((longest, best))
    }

    /// `12 words, 17 of 183 points`.
    pub fn score_line(&self) -> String {
        let n = self.game.found_words().len();
        let words = if n == 1 { "word" } else { "words" };
        format!(
            "{n} {words}, {} of {} points",
            self.score(),
            self.total_points()
        )
    }

    /// The share of the board's points found, in whole percent.
    pub fn percent(&self) -> u32 {
        let total = u64::from(self.total_points());
        if total == 0 {
            return 0;
        }
        // Widened so a huge score cannot overflow the multiplication.
        u32::try_from(u64::from(self.score()) * 100 / total).unwrap_or(100)
    }

    /// The board.
    pub fn board(&self) -> &GameBoard {
        self.game.board()
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        self.game.rules()
    }

    /// Every word on the board.
    pub fn words(&self) -> &BTreeSet<String> {
        self.game.words()
    }

    /// The game: the board, its words and what the player found.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The letters typed so far, upper case.
    pub fn typed(&self) -> &str {
        &self.typed
    }

    /// The words found, in order, with their points.
    pub fn found(&self) -> Vec<(&str, u32)> {
        self.game
            .found_words()
            .iter()
            .map(|word| (word.as_str(), self.game.get_word_score(word)))
            .collect()
    }

    /// Points scored.
    pub fn score(&self) -> u32 {
        self.game.get_score()
    }

    /// Points on the board.
    pub fn total_points(&self) -> u32 {
        self.game.get_total_points_possible()
    }

    /// The status line: the last word's points or why it was rejected.
    pub fn status(&self) -> &str {
        &self.status
    }

    /// Whether the status line says the last word was rejected.
    pub fn rejected(&self) -> bool {
        self.rejected
    }

    /// Under rules played against the computer (cs106b, tddd86), the
    /// computer's line: it takes every word the player missed that it knows.
    pub fn versus_line(&self) -> Option<String> {
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
    pub fn remaining(&self) -> Option<Duration> {
        self.remaining
    }

    /// The turn's time limit, or `None` when untimed.
    pub fn time_limit(&self) -> Option<Duration> {
        self.time_limit
    }

    /// The current screen.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The screen under the help overlay (the current one when help is not shown).
    pub fn screen(&self) -> Phase {
        if self.phase == Phase::Help {
            self.before_help
        } else {
            self.phase
        }
    }

    /// Whether the player asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Whether the turn is over.
    pub fn is_over(&self) -> bool {
        matches!(self.screen(), Phase::Over { .. })
    }

    /// A line about the player's records, shown on the end screen.
    pub fn record_note(&self) -> Option<&str> {
        self.record_note.as_deref()
    }

    /// Sets the line about the player's records.
    pub fn set_record_note(&mut self, note: String) {
        self.record_note = Some(note);
    }
}

/// `1 word`, `2 words`.
fn counted(n: usize, noun: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{n} {noun}{s}")
}

/// The cells of the typed letters' path under the rules, if they can be formed.
/// A trailing `Q` also matches a `Qu` face, so the highlight does not flicker off
/// between typing `Q` and `U`.
pub fn trace(board: &GameBoard, rules: &Rules, typed: &str) -> Option<Vec<usize>> {
    find_path(board, rules.moves, typed).or_else(|| {
        let ends_in_q = typed.ends_with(['q', 'Q']);
        ends_in_q
            .then(|| find_path(board, rules.moves, &format!("{typed}U")))
            .flatten()
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::dictionary::Dictionary;
    use crate::rules::Preset;

    /// BENH / LAUM / ITLZ / RGAN under project4 (no-up) rules, with a tiny
    /// dictionary (the screen tests draw the same game).
    pub(crate) fn app(time: Option<u64>) -> App {
        let dictionary = Dictionary::from_words(["EAT", "LAB", "BEAU", "ALT", "ZZZ", "AT"]);
        let finder = WordFind::with_rules(Arc::new(dictionary), Rules::project4());
        let board = GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters");
        App::new(finder, board, time.map(Duration::from_secs))
    }

    fn type_word(app: &mut App, word: &str) {
        word.chars().for_each(|c| app.handle(Input::Char(c)));
        app.handle(Input::Enter);
    }

    #[test]
    fn accepted_words_score_and_count() {
        let mut app = app(None);
        assert_eq!(app.words().len(), 3, "{:?}", app.words());
        type_word(&mut app, "eat");
        assert_eq!(app.status(), "EAT: 1 point");
        type_word(&mut app, "beau");
        assert_eq!(app.status(), "BEAU: 1 point");
        assert_eq!(app.score_line(), "2 words, 2 of 3 points");
        assert_eq!(app.typed(), "");
    }

    #[test]
    fn every_rejection_says_why() {
        let mut app = app(None);
        let cases = [
            ("at", "AT: too short (at least 3 letters)"),
            ("tea", "TEA: not in the dictionary"),
            ("lab", "LAB: not allowed by the no-up rule"),
            ("zzz", "ZZZ: not on the board"),
        ];
        for (word, status) in cases {
            type_word(&mut app, word);
            assert_eq!(app.status(), status);
            assert!(app.rejected());
        }
        type_word(&mut app, "eat");
        type_word(&mut app, "EAT");
        assert_eq!(app.status(), "EAT: already found");
        assert_eq!(app.score(), 1);
    }

    #[test]
    fn editing_keys() {
        let mut app = app(None);
        for input in [Input::Char('e'), Input::Char('1'), Input::Char('x')] {
            app.handle(input);
        }
        assert_eq!(app.typed(), "EX");
        app.handle(Input::Backspace);
        assert_eq!(app.typed(), "E");
        app.handle(Input::Esc);
        assert_eq!(app.typed(), "");
        app.handle(Input::Enter);
        assert_eq!(app.status(), "Type a word and press Enter; ? for help");
    }

    #[test]
    fn the_typed_path_is_traced() {
        let mut app = app(None);
        "ea".chars().for_each(|c| app.handle(Input::Char(c)));
        assert_eq!(app.highlight(), vec![1, 5]);
        app.handle(Input::Char('z'));
        assert_eq!(app.highlight(), Vec::<usize>::new());
        let board = GameBoard::from_letters("QITX", 2, 2, true).expect("4 cells");
        let rules = Rules::preset(crate::rules::Preset::Classic);
        assert_eq!(trace(&board, &rules, "Q"), Some(vec![0]));
        assert_eq!(trace(&board, &rules, "QUI"), Some(vec![0, 1]));
    }

    #[test]
    fn time_runs_out_into_the_end_screen() {
        let mut app = app(Some(3));
        type_word(&mut app, "eat");
        app.handle(Input::Char('n'));
        app.handle(Input::Tick(Duration::from_millis(2500)));
        assert_eq!(app.remaining(), Some(Duration::from_millis(500)));
        assert_eq!(app.phase(), Phase::Playing);
        app.handle(Input::Tick(Duration::from_secs(1)));
        assert_eq!(app.phase(), Phase::Over { selected: 0 });
        assert_eq!(app.remaining(), Some(Duration::ZERO));
        assert_eq!(
            app.status(),
            "Time's up: 1 word, 1 of 3 points; Up/Down show a word's path, q quits"
        );
        assert_eq!(app.typed(), "");
    }

    #[test]
    fn untimed_games_end_on_finish() {
        let mut app = app(None);
        app.handle(Input::Tick(Duration::from_secs(999)));
        assert_eq!(app.phase(), Phase::Playing);
        app.handle(Input::Finish);
        assert!(app.is_over());
    }

    #[test]
    fn pause_stops_the_clock() {
        let mut app = app(Some(10));
        app.handle(Input::Pause);
        assert_eq!(app.phase(), Phase::Paused);
        app.handle(Input::Char('e'));
        app.handle(Input::Tick(Duration::from_secs(60)));
        assert_eq!(app.remaining(), Some(Duration::from_secs(10)));
        assert_eq!(app.typed(), "");
        app.handle(Input::Pause);
        assert_eq!(app.phase(), Phase::Playing);
    }

    #[test]
    fn help_stops_the_clock_and_returns_where_it_was() {
        let mut app = app(Some(10));
        app.handle(Input::Help);
        assert_eq!(app.phase(), Phase::Help);
        assert_eq!(app.screen(), Phase::Playing);
        app.handle(Input::Tick(Duration::from_secs(60)));
        assert_eq!(app.remaining(), Some(Duration::from_secs(10)));
        app.handle(Input::Char('x'));
        assert_eq!(app.phase(), Phase::Playing);
        assert_eq!(app.typed(), "", "the key that closes help is not typed");
        app.handle(Input::Pause);
        app.handle(Input::Help);
        app.handle(Input::Esc);
        assert_eq!(app.phase(), Phase::Paused);
    }

    #[test]
    fn the_end_screen_browses_found_then_missed_words() {
        let mut app = app(Some(1));
        type_word(&mut app, "alt");
        app.handle(Input::Tick(Duration::from_secs(1)));
        let words: Vec<(String, u32, bool)> = app
            .end_words()
            .into_iter()
            .map(|w| (w.word, w.points, w.found))
            .collect();
        let expected = [("ALT", 1, true), ("BEAU", 1, false), ("EAT", 1, false)];
        let expected: Vec<(String, u32, bool)> = expected
            .into_iter()
            .map(|(w, p, f)| (w.to_string(), p, f))
            .collect();
        assert_eq!(words, expected);
        assert_eq!(app.highlight(), vec![5, 4, 9]);
        app.handle(Input::Up);
        assert_eq!(app.phase(), Phase::Over { selected: 0 });
        app.handle(Input::Down);
        app.handle(Input::Down);
        app.handle(Input::Down);
        assert_eq!(app.phase(), Phase::Over { selected: 2 });
        assert_eq!(app.highlight(), vec![1, 5, 9]);
        app.handle(Input::Char('e'));
        assert!(!app.should_quit());
        app.handle(Input::Char('q'));
        assert!(app.should_quit());
    }

    #[test]
    fn quit_leaves_from_any_phase() {
        for before in [
            None,
            Some(Input::Pause),
            Some(Input::Help),
            Some(Input::Finish),
        ] {
            let mut app = app(Some(5));
            if let Some(input) = before {
                app.handle(input);
            }
            app.handle(Input::Quit);
            assert!(app.should_quit(), "{before:?}");
        }
    }

    #[test]
    fn longest_best_and_share() {
        let mut app = app(None);
        assert_eq!(app.longest_and_best(), Some(("BEAU", "ALT")));
        type_word(&mut app, "eat");
        assert_eq!(app.percent(), 33);
        assert_eq!(app.versus_line(), None);
    }

    #[test]
    fn against_the_computer_it_takes_the_missed_words() {
        let dictionary = Dictionary::from_words(["EAT", "BEAU", "ALT", "BEAN"]);
        let rules = Rules::preset(Preset::Cs106b);
        let finder = WordFind::with_rules(Arc::new(dictionary), rules);
        let board = GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters");
        let mut app = App::new(finder, board, None);
        type_word(&mut app, "beau");
        assert_eq!(app.status(), "BEAU: 1 point");
        assert!(!app.rejected());
        assert_eq!(
            app.versus_line().as_deref(),
            Some("Computer: 1 word, 1 point; you win")
        );
    }

    #[test]
    fn missed_words_read_common_first_and_the_computer_keeps_to_its_level() {
        // BEAN (10), BEAU (50), NEAT (no level: rare) on the spec board under cs106b.
        let dictionary = Dictionary::parse(b"BEAU\t50\nBEAN\t10\nNEAT\n");
        let finder = WordFind::with_rules(Arc::new(dictionary), Rules::preset(Preset::Cs106b));
        let board = GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters");
        let app = App::new(finder, board, None);
        let missed: Vec<(String, bool)> = app
            .end_words()
            .into_iter()
            .map(|w| (w.word, w.rare))
            .collect();
        let expected = [("BEAN", false), ("BEAU", false), ("NEAT", true)];
        assert_eq!(missed, expected.map(|(w, rare)| (w.to_string(), rare)));
        let easy = app.clone().with_level(Level::Easy);
        assert_eq!(
            easy.versus_line().as_deref(),
            Some("Computer: 1 word, 1 point; the computer wins")
        );
        assert_eq!(
            app.versus_line().as_deref(),
            Some("Computer: 3 words, 3 points; the computer wins")
        );
    }
}

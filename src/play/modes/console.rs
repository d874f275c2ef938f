//! Spec 004's console game, byte for byte: the board prompt, the guess loop
//! and the summary. Runs over any reader and writers so tests (any bytes too) can
//! drive it; the end of input ends the game like `q`, and the summary is
//! always written. The same loop plays any rules (a board prompt for their
//! shape) and, with a time limit, shows the time left and stops when it ends.

use std::io::Write;
use std::time::Duration;

use crate::play::player::keyboard::{Keyboard, Typed, time_left};
use boggle_game::error::Error;
use boggle_game::face::QReads;
use boggle_game::game::Game;
use boggle_game::game_board::GameBoard;
use boggle_game::rules::Rules;
use boggle_game::text::plural;

/// The first prompt.
pub(crate) const BOARD_PROMPT: &str =
    "Enter a 16-character long string to run manual tests, or leave empty to get a random board: ";
/// The prompt before the first guess.
pub(crate) const FIRST_PROMPT: &str = "Enter a word (q to quit): ";
/// The prompt before every later guess.
pub(crate) const PROMPT: &str = "Enter a word: ";
/// Written after a guess that scores nothing.
pub(crate) const NOT_WORTH: &str = "\tNot worth any points\n";
/// Written when a timed turn runs out (on a line of its own: the player may be mid-word).
pub(crate) const TIME_UP: &str = "\nTime's up!\n";

/// Plays one game of spec 004's rules. `make_game` gets the board the player typed (`None` for a
/// random one) and returns the game to play; it is called only after the
/// first answer, so a dictionary can load while the player types.
/// Diagnostics (a 16-character line that is not all letters) go to `err`.
#[cfg(test)]
pub(crate) fn play<R, W, E, F>(
    input: R,
    out: &mut W,
    err: &mut E,
    make_game: F,
) -> Result<Game, Error>
where
    R: std::io::BufRead,
    W: Write,
    E: Write,
    F: FnOnce(Option<GameBoard>) -> Result<Game, Error>,
{
    let options = Options::default();
    let mut keys = crate::play::player::keyboard::Plain::new(input);
    play_with(&mut keys, out, err, &options, make_game)
}

/// What a console game is played with besides its input and output.
#[derive(Clone, Debug, Default)]
pub(crate) struct Options {
    /// The rules, for the board prompt and reading a typed board.
    pub(crate) rules: Rules,
    /// The time the player has to guess, if limited.
    pub(crate) time: Option<Duration>,
    /// The board, when it was given up front (`--board`): the board prompt is
    /// then skipped.
    pub(crate) board: Option<GameBoard>,
    /// Whether the player types at a terminal: the end of input there (Ctrl-D)
    /// leaves the cursor on the prompt's line, so the summary starts on a
    /// line of its own. Piped input keeps spec 004's transcript byte for byte.
    pub(crate) terminal: bool,
}

/// Plays one game under `options`, like [`play`]. With a time limit every
/// prompt shows the time left, and the guessing ends when it runs out.
pub(crate) fn play_with<K, W, E, F>(
    keys: &mut K,
    out: &mut W,
    err: &mut E,
    options: &Options,
    make_game: F,
) -> Result<Game, Error>
where
    K: Keyboard + ?Sized,
    W: Write,
    E: Write,
    F: FnOnce(Option<GameBoard>) -> Result<Game, Error>,
{
    if !is_spec_game(&options.rules) {
        // Once, on stderr, so stdout stays the game's own transcript.
        let _ = writeln!(err, "rules: {}", options.rules.describe());
    }
    let (board, failed) = match &options.board {
        Some(board) => (Some(board.clone()), None),
        None => ask_board(keys, out, err, &options.rules)?,
    };
    let mut game = make_game(board)?;
    out.write_all(game.show_board().as_bytes())
        .map_err(Error::Output)?;
    let read_result = match failed {
        None => {
            keys.start_timer(options.time);
            guess_loop(keys, out, &mut game, options.terminal)
        }
        // Input that fails at once is played like input that ends at once, so
        // the summary is still written; the failure is reported after it.
        Some(e) => out
            .write_all(FIRST_PROMPT.as_bytes())
            .map_err(Error::Output)
            .and(Err(Error::Input(e))),
    };
    write_summary(out, &game).map_err(Error::Output)?;
    out.flush().map_err(Error::Output)?;
    read_result?;
    Ok(game)
}

/// Asks for a board: the one typed (`None` for a random one) and the read
/// error, if the input failed (the game is then played as if it had ended).
fn ask_board<K, W, E>(
    keys: &mut K,
    out: &mut W,
    err: &mut E,
    rules: &Rules,
) -> Result<(Option<GameBoard>, Option<std::io::Error>), Error>
where
    K: Keyboard + ?Sized,
    W: Write,
    E: Write,
{
    out.write_all(board_prompt(rules).as_bytes())
        .map_err(Error::Output)?;
    out.flush().map_err(Error::Output)?;
    let (line, failed) = match keys.line() {
        Ok(Typed::Text(line)) => (line, None),
        Ok(Typed::End | Typed::TimeUp) => (Vec::new(), None),
        Err(e) => (Vec::new(), Some(e)),
    };
    Ok((typed_board(&line, rules, err), failed))
}

/// Spec 004's prompt for its own 4x4 board; for any other shape, or where `Q` means `Qu`, one that says what to type.
pub(crate) fn board_prompt(rules: &Rules) -> String {
    if is_spec_board(rules) {
        return BOARD_PROMPT.to_owned();
    }
    let qu = match rules.q {
        QReads::Qu => " (Q or Qu for the Qu face)",
        QReads::Q => "",
    };
    format!(
        "Enter the {} letters of a {}x{} board{qu} to run manual tests, or leave empty to get a random board: ",
        rules.cells(),
        rules.rows,
        rules.cols
    )
}

/// Whether the game is spec 004's own, whose transcript is kept byte for byte.
fn is_spec_game(rules: &Rules) -> bool {
    *rules == Rules::project4()
}

/// Whether the board is spec 004's: 4x4 with a plain `Q`.
fn is_spec_board(rules: &Rules) -> bool {
    rules.rows == 4 && rules.cols == 4 && rules.q == QReads::Q
}

/// The board in the first answer, once trimmed. Spec 004 takes exactly 16
/// ASCII letters and quietly rolls a random board for any other length; other
/// shapes say why a non-empty answer was not a board. Either way a bad answer
/// gives a random board.
fn typed_board<E: Write>(line: &[u8], rules: &Rules, err: &mut E) -> Option<GameBoard> {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if is_spec_board(rules) && text.chars().count() != rules.cells() {
        // Spec 004's rule: anything but 16 characters is a random board. Where
        // it was a board with spaces in it, say why it was not taken.
        let spaced = GameBoard::from_typed(text, rules.rows, rules.cols, rules.q).is_ok();
        if spaced {
            let _ = writeln!(
                err,
                "boggle: type the 16 letters without spaces (spec 004); using a random board"
            );
        }
        return None;
    }
    match GameBoard::from_typed(text, rules.rows, rules.cols, rules.q) {
        Ok(board) => Some(board),
        Err(e) => {
            // Diagnostics must never stop the game, so a failed write is ignored.
            let _ = writeln!(err, "boggle: {e}; using a random board");
            None
        }
    }
}

/// Prompts for guesses until `q`, the end of input, the end of the time, or every point found.
/// A read error ends the loop like the end of input, and is returned after the summary.
fn guess_loop<K: Keyboard + ?Sized, W: Write>(
    keys: &mut K,
    out: &mut W,
    game: &mut Game,
    terminal: bool,
) -> Result<(), Error> {
    let mut prompt = FIRST_PROMPT;
    loop {
        write!(out, "{}{prompt}", time_left(keys)).map_err(Error::Output)?;
        out.flush().map_err(Error::Output)?;
        prompt = PROMPT;
        let token = match keys.token().map_err(Error::Input)? {
            Typed::Text(token) => token,
            Typed::End => {
                if terminal {
                    out.write_all(b"\n").map_err(Error::Output)?;
                }
                return Ok(());
            }
            Typed::TimeUp => {
                out.write_all(TIME_UP.as_bytes()).map_err(Error::Output)?;
                return Ok(());
            }
        };
        if token == b"q" || token == b"Q" {
            return Ok(());
        }
        let word = String::from_utf8_lossy(&token);
        let spec = is_spec_game(game.rules());
        let verdict = game.play_word(&word);
        if !verdict.is_accepted() {
            if spec {
                out.write_all(NOT_WORTH.as_bytes()).map_err(Error::Output)?;
            } else {
                // Under other rules a player hears why, as in versus.
                writeln!(out, "\tNot worth any points: {}", verdict.reason())
                    .map_err(Error::Output)?;
            }
        } else if game.is_complete() {
            let total = game.get_total_points_possible();
            writeln!(
                out,
                "Congratulations! You achieved {total} out of {total} possible points!"
            )
            .map_err(Error::Output)?;
            return Ok(());
        }
    }
}

/// The end-of-game summary: score, incorrect guesses, points possible, every word.
pub(crate) fn write_summary<W: Write>(out: &mut W, game: &Game) -> std::io::Result<()> {
    let score = game.get_score();
    let wrong = game.get_incorrect_guesses();
    writeln!(
        out,
        "You got {score} {} and had {wrong} incorrect {}.",
        plural(score, "point", "points"),
        plural(wrong, "guess", "guesses"),
    )?;
    writeln!(
        out,
        "There were {} points possible",
        game.get_total_points_possible()
    )?;
    writeln!(out, "{}", "=".repeat(60))?;
    if is_spec_game(game.rules()) && !game.dictionary().has_levels() {
        // Spec 004's list: every word, A-Z.
        return out.write_all(game.get_all_words().as_bytes());
    }
    // Otherwise each word with its points, `+` for the player's, common first
    // where the list has levels.
    let words = game.words_by_commonness();
    let width = words.iter().map(|(w, _)| w.len()).max().unwrap_or(0);
    for (word, rare) in words {
        let found = if game.new_word(word) { ' ' } else { '+' };
        let rare = if rare { " rare" } else { "" };
        let points = game.get_word_score(word);
        writeln!(out, "{found} {word:<width$} {points:>2}{rare}")?;
    }
    Ok(())
}

//! `boggle versus` (specs 000 and 003): a human against an omniscient
//! computer. The human types words one per line, each answered with its points
//! or the reason it does not count; a blank line ends the turn. The computer
//! then takes every word left and wins only with strictly more points. Rounds
//! repeat while the player wants another board.
//!
//! A round is a [`Game`], the same judge as every other mode, plus the
//! computer's turn ([`Game::computer_words`], [`Game::winner`]); this module
//! is only the dialogue, over any [`Keyboard`] and `Write`. The end of input
//! at any prompt ends the match cleanly with the results so far.

use std::io::Write;
use std::time::Duration;

use crate::play::modes::console::TIME_UP;
use crate::play::player::keyboard::{Keyboard, Typed, ask, time_left};
use boggle_game::dictionary::Level;
use boggle_game::error::Error;
use boggle_game::face::QReads;
use boggle_game::game::{Game, Verdict, Winner};
use boggle_game::game_board::{BoardError, GameBoard};
use boggle_game::rules::{MoveRule, Rules};
use boggle_game::text::plural;
use boggle_game::word_find::WordFind;

/// Asked before each round.
pub(crate) const TYPE_BOARD_PROMPT: &str = "Do you want to type the board yourself? (y/n) ";
/// Asked for each word of the human's turn.
pub(crate) const WORD_PROMPT: &str = "Type a word (or press Enter to end your turn): ";
/// Asked after each round.
pub(crate) const AGAIN_PROMPT: &str = "Play again? (y/n) ";
/// Spec 000's line when the computer wins.
pub(crate) const COMPUTER_WINS: &str = "I crushed you, puny human!";
/// The line when the human wins (a tie goes to the human, as in spec 003).
pub(crate) const HUMAN_WINS: &str = "You beat me, human. Well played!";

/// How the path of an accepted word is marked on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Highlight {
    /// Reverse video (for a terminal that takes colour).
    Reverse,
    /// The path's letters in lower case (for pipes, files and `NO_COLOR`).
    LowerCase,
}

/// What a match is played with besides its input and output.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings<'a> {
    /// The dictionary and rules.
    pub(crate) finder: &'a WordFind,
    /// How an accepted word's path is shown.
    pub(crate) highlight: Highlight,
    /// The time for each human turn, if limited.
    pub(crate) time: Option<Duration>,
    /// How much of the word list the computer knows.
    pub(crate) level: Level,
    /// Whether a match at a terminal opens with the rules and each round
    /// asks whether the player types the board (`--no-intro` skips both:
    /// every board is rolled, but for `--board`'s).
    pub(crate) intro: bool,
    /// The first round's board, when it was given up front (`--board`): the
    /// first round then does not ask for one.
    pub(crate) board: Option<&'a GameBoard>,
    /// Whether a player sits at a terminal: the match opens with the rules
    /// (spec 003's introduction) and the screen is cleared and the board
    /// drawn again after every answer, so the board stays in one place.
    pub(crate) terminal: bool,
    /// The width the computer's words are laid out in: the terminal's, or
    /// [`COLUMNS_WIDTH`] when the output is not a terminal.
    pub(crate) width: usize,
    /// The terminal's rows, `None` when the output is not a terminal: the
    /// computer's list is cut to what fits below the board, so a long one
    /// does not scroll the board and the headers away.
    pub(crate) height: Option<usize>,
}

/// Clears a terminal's screen and puts the cursor at its top left.
const CLEAR_SCREEN: &str = "\x1b[H\x1b[2J";

/// The width the computer's word columns fill when the output is not a terminal.
pub(crate) const COLUMNS_WIDTH: usize = 80;

/// Spec 003's introduction: the rules in force, in a few lines.
pub(crate) fn introduction(rules: &Rules) -> String {
    let moves = match rules.moves {
        MoveRule::EightNeighbours => "to any of its 8 neighbours",
        MoveRule::NoUp => "to a neighbour in the same row or the row below, never up",
    };
    format!(
        "Welcome to Boggle! You play a {}x{} board against the computer.\n\
         Spell words by moving from cube to cube {moves}, using each cube once per word.\n\
         Words need at least {} letters and must be in the dictionary.\n\
         Type one word per line; an empty line ends your turn. Then I take every word\n\
         you missed. I win only with strictly more points than you.\n\n",
        rules.rows, rules.cols, rules.min_len
    )
}

/// Rounds played and won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Record {
    /// Rounds finished.
    pub(crate) rounds: u32,
    /// Rounds the human won.
    pub(crate) human_wins: u32,
}

/// Plays rounds until the player stops or the input ends. `roll` makes a
/// random board (or fails, when no board is good enough for the settings).
pub(crate) fn play<K, W, F>(
    keys: &mut K,
    out: &mut W,
    settings: &Settings<'_>,
    mut roll: F,
) -> Result<Record, Error>
where
    K: Keyboard + ?Sized,
    W: Write,
    F: FnMut() -> Result<GameBoard, Error>,
{
    let mut record = Record::default();
    let mut given = settings.board.cloned();
    if settings.terminal && settings.intro {
        out.write_all(introduction(settings.finder.rules()).as_bytes())
            .map_err(Error::Output)?;
    }
    loop {
        let board = match given.take() {
            Some(board) => board,
            None if !settings.intro => roll()?,
            None => match choose_board(keys, out, settings.finder.rules(), &mut roll)? {
                Some(board) => board,
                None => break,
            },
        };
        let mut round = Game::try_from_board(board, settings.finder).map_err(Error::Search)?;
        human_turn(keys, out, &mut round, settings)?;
        computer_turn(out, &round, settings)?;
        record.rounds = record.rounds.saturating_add(1);
        let won = round.winner(settings.level) == Winner::Human;
        record.human_wins = record.human_wins.saturating_add(u32::from(won));
        if ask_yes_no(keys, out, AGAIN_PROMPT)? != Some(true) {
            break;
        }
    }
    if record.rounds > 0 {
        writeln!(
            out,
            "You won {} of {} {}. Thanks for playing!",
            record.human_wins,
            record.rounds,
            plural(record.rounds, "round", "rounds")
        )
        .map_err(Error::Output)?;
    }
    out.flush().map_err(Error::Output)?;
    Ok(record)
}

/// A typed or rolled board; `None` at the end of input.
fn choose_board<K, W, F>(
    keys: &mut K,
    out: &mut W,
    rules: &Rules,
    roll: &mut F,
) -> Result<Option<GameBoard>, Error>
where
    K: Keyboard + ?Sized,
    W: Write,
    F: FnMut() -> Result<GameBoard, Error>,
{
    match ask_yes_no(keys, out, TYPE_BOARD_PROMPT)? {
        None => return Ok(None),
        Some(false) => return roll().map(Some),
        Some(true) => {}
    }
    let qu = match rules.q {
        QReads::Qu => " (Q or Qu for the Qu face)",
        QReads::Q => "",
    };
    loop {
        write!(
            out,
            "Type the {} letters of the {}x{} board, row by row{qu}: ",
            rules.cells(),
            rules.rows,
            rules.cols
        )
        .map_err(Error::Output)?;
        out.flush().map_err(Error::Output)?;
        let Typed::Text(line) = keys.line().map_err(Error::Input)? else {
            out.write_all(b"\n").map_err(Error::Output)?;
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&line);
        match GameBoard::from_typed(text.trim(), rules.rows, rules.cols, rules.q) {
            Ok(board) => return Ok(Some(board)),
            Err(e) => writeln!(
                out,
                "That is not a board: {}. Try again.",
                board_problem(&e, rules.q)
            )
            .map_err(Error::Output)?,
        }
    }
}

/// What is wrong with a typed board, in the player's terms.
fn board_problem(e: &BoardError, q: QReads) -> String {
    match e {
        BoardError::WrongLength { expected, got } => {
            let counting = match q {
                QReads::Qu => " (Q or QU counting as one)",
                QReads::Q => "",
            };
            format!("it has {got} letters{counting}, and the board needs exactly {expected}")
        }
        BoardError::NotALetter { found, .. } => format!("{found:?} is not a letter from A to Z"),
        BoardError::BadSize { .. } => e.to_string(),
    }
}

/// Asks until the answer starts with y or n (any case); `None` at the end of input.
fn ask_yes_no<K: Keyboard + ?Sized, W: Write>(
    keys: &mut K,
    out: &mut W,
    prompt: &str,
) -> Result<Option<bool>, Error> {
    ask(keys, out, prompt, |line| {
        match line.trim_ascii().first().map(u8::to_ascii_lowercase) {
            Some(b'y') => Ok(true),
            Some(b'n') => Ok(false),
            _ => Err("Please answer y or n.".into()),
        }
    })
}

/// The human's turn: words until a blank line, the end of input or the end of the time.
fn human_turn<K, W>(
    keys: &mut K,
    out: &mut W,
    round: &mut Game,
    settings: &Settings<'_>,
) -> Result<(), Error>
where
    K: Keyboard + ?Sized,
    W: Write,
{
    writeln!(out, "It's your turn!").map_err(Error::Output)?;
    show_progress(out, round, &[], settings.highlight)?;
    keys.start_timer(settings.time);
    loop {
        write!(out, "{}{WORD_PROMPT}", time_left(keys)).map_err(Error::Output)?;
        out.flush().map_err(Error::Output)?;
        let line = match keys.line().map_err(Error::Input)? {
            Typed::Text(line) => line,
            Typed::End => {
                out.write_all(b"\n").map_err(Error::Output)?;
                break;
            }
            Typed::TimeUp => {
                out.write_all(TIME_UP.as_bytes()).map_err(Error::Output)?;
                break;
            }
        };
        let text = String::from_utf8_lossy(&line);
        let word = text.trim();
        if word.is_empty() {
            break;
        }
        let verdict = round.play_word(word);
        if settings.terminal {
            out.write_all(CLEAR_SCREEN.as_bytes())
                .map_err(Error::Output)?;
        }
        writeln!(out, "{}", feedback(word, &verdict)).map_err(Error::Output)?;
        // On a terminal the screen was cleared, so the board comes back after
        // every answer; a transcript shows it again only when a word scores.
        match &verdict {
            Verdict::Accepted { path, .. } => show_progress(out, round, path, settings.highlight)?,
            _ if settings.terminal => show_progress(out, round, &[], settings.highlight)?,
            _ => {}
        }
    }
    keys.start_timer(None);
    Ok(())
}

/// One line of feedback on a word.
pub(crate) fn feedback(word: &str, verdict: &Verdict) -> String {
    let word = word.to_ascii_uppercase();
    match verdict {
        Verdict::Accepted { points, .. } => {
            format!(
                "You found {word}: {points} {}.",
                plural(*points, "point", "points")
            )
        }
        Verdict::TooShort { min } => {
            format!("{word} is too short: words need at least {min} letters.")
        }
        Verdict::TooLong { max } => {
            format!("{word} is too long: words have at most {max} letters.")
        }
        Verdict::NotInDictionary => format!("{word} is not in the dictionary."),
        Verdict::AlreadyFound => format!("{word} was already found."),
        Verdict::NotAllowedMove => {
            format!("{word} is on the board only by going up a row, which the rules forbid.")
        }
        Verdict::NotOnBoard => format!("{word} is not on the board."),
    }
}

/// The board (with `path` marked), the human's words and score.
fn show_progress<W: Write>(
    out: &mut W,
    round: &Game,
    path: &[usize],
    highlight: Highlight,
) -> Result<(), Error> {
    out.write_all(render(round.board(), path, highlight).as_bytes())
        .map_err(Error::Output)?;
    let words = round.found_words();
    let listed = if words.is_empty() {
        String::new()
    } else {
        format!(" {}", words.join(", "))
    };
    writeln!(out, "Your words ({}):{listed}", words.len()).map_err(Error::Output)?;
    writeln!(out, "Your score: {}", round.get_score()).map_err(Error::Output)?;
    Ok(())
}

/// The board, a row per line, cells padded to one width, the cells of `path` marked.
pub(crate) fn render(board: &GameBoard, path: &[usize], highlight: Highlight) -> String {
    board.show_marked(|cell, text| match (path.contains(&cell), highlight) {
        (false, _) => text.to_string(),
        (true, Highlight::Reverse) => format!("\x1b[7m{text}\x1b[0m"),
        (true, Highlight::LowerCase) => text.to_ascii_lowercase(),
    })
}

/// The computer's turn: every word left with its points, the scores and who won.
fn computer_turn<W: Write>(
    out: &mut W,
    round: &Game,
    settings: &Settings<'_>,
) -> Result<(), Error> {
    let (level, width) = (settings.level, settings.width);
    let dictionary = round.dictionary();
    let points = |word: &str| round.get_word_score(word);
    let words: Vec<(&str, bool)> = if dictionary.has_levels() {
        dictionary.by_commonness(round.computer_words(level), points)
    } else {
        round
            .computer_words(level)
            .map(|word| (word, false))
            .collect()
    };
    if settings.terminal {
        // A fresh screen: the board and the player's words on top, then the list below them.
        out.write_all(CLEAR_SCREEN.as_bytes())
            .map_err(Error::Output)?;
        show_progress(out, round, &[], settings.highlight)?;
    }
    writeln!(out, "It's my turn!").map_err(Error::Output)?;
    writeln!(out, "My words ({}):", words.len()).map_err(Error::Output)?;
    let word_width = words.iter().map(|(w, _)| w.len()).max().unwrap_or(0);
    let entries: Vec<String> = words
        .iter()
        .map(|&(word, rare)| {
            let mark = if rare { "*" } else { "" };
            format!("{word:<word_width$} {:>2}{mark}", points(word))
        })
        .collect();
    let rare = words.iter().any(|&(_, rare)| rare);
    let room = settings
        .height
        .map(|height| list_room(round, width, height, rare));
    out.write_all(columns(&entries, width, room).as_bytes())
        .map_err(Error::Output)?;
    if rare {
        writeln!(out, "(* a rare word)").map_err(Error::Output)?;
    }
    writeln!(out, "My score: {}", round.computer_score(level)).map_err(Error::Output)?;
    writeln!(out, "Your score: {}", round.get_score()).map_err(Error::Output)?;
    let result = match round.winner(level) {
        Winner::Computer => COMPUTER_WINS,
        Winner::Human => HUMAN_WINS,
    };
    writeln!(out, "{result}").map_err(Error::Output)?;
    Ok(())
}

/// The rows of a terminal `height` rows high left for the computer's list
/// once the board, the player's words (wrapped at `width`), the headers, the
/// scores, the verdict and the next prompt have theirs (at least one).
fn list_room(round: &Game, width: usize, height: usize, rare: bool) -> usize {
    let found = round.found_words();
    let your_words = format!("Your words ({}): {}", found.len(), found.join(", "));
    let wrapped = your_words.len().div_ceil(width.max(1));
    // Your score, It's my turn, My words, My score, Your score, the verdict, Play again.
    let fixed = round.board().rows() + wrapped + 7 + usize::from(rare);
    height.saturating_sub(fixed).max(1)
}

/// `entries` in as many columns as fit in `width` (two spaces before each),
/// filled down each column first, as `ls` and BSD boggle list words; in at
/// most `room` rows when given, the last of them then saying how many more
/// there were.
fn columns(entries: &[String], width: usize, room: Option<usize>) -> String {
    let widest = entries.iter().map(String::len).max().unwrap_or(0) + 1;
    let per_row = (width / (widest + 2)).max(1);
    let mut shown = entries;
    if let Some(room) = room.filter(|&room| entries.len().div_ceil(per_row) > room) {
        shown = &entries[..room.saturating_sub(1).max(1) * per_row];
    }
    let rows = shown.len().div_ceil(per_row);
    let mut text = String::new();
    for row in 0..rows {
        let line: Vec<String> = shown
            .iter()
            .skip(row)
            .step_by(rows)
            .map(|entry| format!("  {entry:<widest$}"))
            .collect();
        text.push_str(line.concat().trim_end());
        text.push('\n');
    }
    let more = entries.len() - shown.len();
    if more > 0 {
        text.push_str(&format!("  ... and {more} more\n"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_marks_the_path_and_pads_two_letter_faces() {
        let board =
            GameBoard::from_cells(["Qu", "A", "-", "T"], 2, 2, QReads::Qu).expect("4 cells");
        assert_eq!(
            render(&board, &[0, 3], Highlight::LowerCase),
            "qu A\n-  t\n"
        );
        assert_eq!(
            render(&board, &[1], Highlight::Reverse),
            "Qu \x1b[7mA\x1b[0m\n-  T\n"
        );
        let plain = GameBoard::new("ABCDEFGHIJKLMNOP").expect("16 letters");
        assert_eq!(
            render(&plain, &[], Highlight::Reverse),
            plain.show_board(),
            "one-letter faces need no padding"
        );
    }

    #[test]
    fn feedback_gives_points_or_the_reason() {
        let accepted = Verdict::Accepted {
            points: 1,
            path: vec![0],
        };
        assert_eq!(feedback("cat", &accepted), "You found CAT: 1 point.");
        assert_eq!(
            feedback("ox", &Verdict::TooShort { min: 3 }),
            "OX is too short: words need at least 3 letters."
        );
        assert_eq!(
            feedback("zzz", &Verdict::NotInDictionary),
            "ZZZ is not in the dictionary."
        );
    }
}

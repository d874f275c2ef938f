//! `boggle define WORD...`: what each word means, from WordNet 3.1 through
//! [`boggle_meaning`], as the full screens' and the page's results show
//! it. An inflected word is shown with the lemma it reaches (`BOXES, a form
//! of BOX`); a word WordNet lacks says so. [`meaning_lines`] is the one text
//! this command and the full screens' results print; here a line longer than
//! 80 columns wraps at a space, under its sense. Accented letters are looked
//! up without their accents (CAFÉ as CAFE), as WordNet spells them.

use std::io::{self, Write};

use clap::Args;

use super::{CliError, UsageError};
use boggle_game::error::Error;
use boggle_meaning::{Meanings, meaning_lines};

/// Flags of `boggle define`.
#[derive(Debug, Args)]
pub(crate) struct DefineArgs {
    /// The words to look up (letters only, any case, é as e; BOXES finds BOX)
    #[arg(value_name = "WORD", required = true)]
    pub(crate) words: Vec<String>,
}

/// The longest word looked up: the longest word a board can spell under the
/// protocol's cap, far beyond any WordNet lemma.
const MAX_WORD: usize = 64;

/// The accented Latin letters folded to the plain letter WordNet spells them with.
const ACCENTED: &str = "àáâãäåçèéêëìíîïñòóôõöùúûüýÿ";
/// Each letter of [`ACCENTED`] without its accent.
const PLAIN: &str = "aaaaaaceeeeiiiinooooouuuuyy";

/// A word of letters only (an accented one without its accent), upper case;
/// anything else is refused, shown cut short (clap would echo it whole).
fn parse_word(text: &str) -> Result<String, UsageError> {
    let fold = |c: char| {
        let c = c.to_lowercase().next().unwrap_or(c);
        let plain = ACCENTED
            .chars()
            .position(|a| a == c)
            .and_then(|i| PLAIN.chars().nth(i));
        plain.or(c.is_ascii_alphabetic().then_some(c))
    };
    let word: Option<String> = text.chars().map(fold).collect();
    match word {
        Some(word) if !word.is_empty() && word.len() <= MAX_WORD => Ok(word.to_ascii_uppercase()),
        _ => {
            let mut shown: String = text.chars().take(20).collect();
            if text.chars().nth(20).is_some() {
                shown.push('…');
            }
            Err(UsageError::NotAWord {
                shown,
                max: MAX_WORD,
            })
        }
    }
}

/// The widest line printed: longer ones wrap at a space.
const WIDTH: usize = 80;

/// `line` wrapped at spaces to [`WIDTH`] columns, each line after the first
/// indented under the sense (two spaces past the line's own indent).
fn wrap(line: &str) -> Vec<String> {
    let lead = line.len() - line.trim_start().len();
    let mut lines = Vec::new();
    let mut current = line[..lead].to_string();
    // Whether `current` holds a word yet.
    let mut begun = false;
    for word in line[lead..].split(' ') {
        if begun && current.chars().count() + 1 + word.chars().count() > WIDTH {
            lines.push(std::mem::replace(&mut current, " ".repeat(lead + 2)));
            begun = false;
        }
        if begun {
            current.push(' ');
        }
        current.push_str(word);
        begun = true;
    }
    lines.push(current);
    lines
}

/// Prints the meaning of each word in turn.
pub(crate) fn run(args: &DefineArgs) -> Result<(), CliError> {
    let words = args
        .words
        .iter()
        .map(|w| parse_word(w))
        .collect::<Result<Vec<_>, _>>()?;
    let meanings = Meanings::embedded().map_err(CliError::Meanings)?;
    let mut out = io::stdout().lock();
    write_meanings(&mut out, meanings, &words).map_err(|e| Error::Output(e).into())
}

/// Writes each word's meaning lines, as `boggle define` prints them.
fn write_meanings(out: &mut impl Write, meanings: &Meanings, words: &[String]) -> io::Result<()> {
    for word in words {
        for line in meaning_lines(word, &meanings.define(word)) {
            for part in wrap(&line) {
                writeln!(out, "{part}")?;
            }
        }
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Meanings {
        Meanings::from_text(
            "L\tbox\tn:a container\tv:put into a box\nX\tv\tran\trun\nL\trun\tv:move fast\n"
                .to_owned(),
        )
        .unwrap()
    }

    fn printed(words: &[&str]) -> String {
        let words: Vec<String> = words.iter().map(|w| parse_word(w).unwrap()).collect();
        let mut out = Vec::new();
        write_meanings(&mut out, &tiny(), &words).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_lemma_is_shown_with_its_senses() {
        assert_eq!(
            printed(&["box"]),
            "BOX\n  noun: a container\n  verb: put into a box\n"
        );
    }

    #[test]
    fn an_inflected_word_names_its_lemma() {
        assert_eq!(printed(&["Ran"]), "RAN, a form of RUN\n  verb: move fast\n");
        assert_eq!(
            printed(&["BOXES"]),
            "BOXES, a form of BOX\n  noun: a container\n  verb: put into a box\n"
        );
    }

    #[test]
    fn a_word_without_an_entry_says_so() {
        assert_eq!(
            printed(&["qxz", "box"]).lines().next(),
            Some("QXZ: no entry in WordNet")
        );
    }

    #[test]
    fn only_letters_are_words_and_accents_fold() {
        for bad in ["", "b0x", "two words", "naïve!", &"A".repeat(65)] {
            let err = parse_word(bad).unwrap_err().to_string();
            assert!(err.contains("is not a word: letters A to Z only"), "{err}");
        }
        assert_eq!(parse_word("café").unwrap(), "CAFE");
        assert_eq!(parse_word("NAÏVE").unwrap(), "NAIVE");
        // A long refusal is shown cut short, once.
        let err = parse_word(&"b0".repeat(2500)).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("'{}…' is not a word", "b0".repeat(10))),
            "{err}"
        );
        assert!(err.len() < 120, "{err}");
    }

    #[test]
    fn long_lines_wrap_at_80_columns_under_their_sense() {
        let line = format!("  noun: {}", "word ".repeat(30).trim_end());
        let lines = wrap(&line);
        assert!(
            lines.iter().all(|l| l.chars().count() <= WIDTH),
            "{lines:?}"
        );
        assert!(
            lines[1..].iter().all(|l| l.starts_with("    word")),
            "{lines:?}"
        );
        assert_eq!(
            lines.join(" ").split_whitespace().count(),
            31,
            "no word lost"
        );
        assert_eq!(wrap("BOX"), ["BOX"]);
    }
}

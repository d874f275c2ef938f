//! `boggle define WORD...`: what each word means, from WordNet 3.1 through
//! [`boggle_game::meaning`], as the full screens' and the page's results show
//! it. An inflected word is shown with the lemma it reaches (`BOXES, a form
//! of BOX`); a word WordNet lacks says so. [`meaning_lines`] is the one text
//! this command and the full screens' results print.

use std::io::{self, Write};

use clap::Args;

use super::CliError;
use boggle_game::error::Error;
use boggle_game::meaning::{Meanings, meaning_lines};

/// Flags of `boggle define`.
#[derive(Debug, Args)]
pub(crate) struct DefineArgs {
    /// The words to look up (letters only, any case; BOXES finds BOX)
    #[arg(value_name = "WORD", required = true, value_parser = parse_word)]
    pub(crate) words: Vec<String>,
}

/// The longest word looked up: the longest word a board can spell under the
/// protocol's cap, far beyond any WordNet lemma.
const MAX_WORD: usize = 64;

/// Accepts a word of letters only, for clap (so anything else is a usage error).
fn parse_word(text: &str) -> Result<String, String> {
    if text.is_empty() || text.len() > MAX_WORD || !text.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(format!(
            "'{text}' is not a word: letters A to Z only, at most {MAX_WORD}"
        ));
    }
    Ok(text.to_ascii_uppercase())
}

/// Prints the meaning of each word in turn.
pub(crate) fn run(args: &DefineArgs) -> Result<(), CliError> {
    let meanings = Meanings::embedded().map_err(CliError::Meanings)?;
    let mut out = io::stdout().lock();
    write_meanings(&mut out, meanings, &args.words).map_err(|e| Error::Output(e).into())
}

/// Writes each word's meaning lines, as `boggle define` prints them.
fn write_meanings(out: &mut impl Write, meanings: &Meanings, words: &[String]) -> io::Result<()> {
    for word in words {
        for line in meaning_lines(word, &meanings.define(word)) {
            writeln!(out, "{line}")?;
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
    fn only_letters_are_words() {
        for bad in ["", "b0x", "two words", "naïve", &"A".repeat(65)] {
            let err = parse_word(bad).unwrap_err();
            assert!(err.contains("is not a word: letters A to Z only"), "{err}");
        }
    }
}

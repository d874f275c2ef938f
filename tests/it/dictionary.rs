//! The dictionary suite: the project's words.txt and files with every quirk.

#![expect(
    clippy::disallowed_methods,
    reason = "the dictionary's own lookup is what these tests check"
)]

use crate::common;

use boggle::{Dictionary, DictionaryError};
use common::TempDir;

#[test]
fn default_dictionary_knows_game_words() {
    let d = Dictionary::new();
    for word in ["AARDVARK", "ZYMURGY", "OFF", "BAG", "QUIT"] {
        assert!(d.is_word(word), "{word}");
    }
    assert!(d.is_word("aardvark"), "lookups ignore case");
    for word in ["MARCUS", "", "XQZV", "BAG ", "N'T"] {
        assert!(!d.is_word(word), "{word:?}");
    }
}

#[test]
fn loads_every_quirk() {
    let dir = TempDir::new("dict-quirks");
    let path = dir.write(
        "quirks.txt",
        b"\xEF\xBB\xBFzebra\r\nApple\r\n\r\nABLAZE(P)\nN'T\nCON\x07TROL\nLATIN\xE9\nNUL\x00L\nlast",
    );
    let d = Dictionary::from_file(&path).expect("loads");
    let mut words: Vec<&str> = d.words().collect();
    words.sort_unstable();
    assert_eq!(words, ["APPLE", "LAST", "ZEBRA"]);
}

#[test]
fn a_long_word_and_a_large_file_load() {
    let dir = TempDir::new("dict-large");
    let long = "A".repeat(1500);
    let mut text = format!("{long}\n");
    for i in 0..200_000u32 {
        let w: String = i
            .to_string()
            .bytes()
            .map(|b| char::from(b'A' + (b - b'0')))
            .collect();
        text.push_str(&w);
        text.push('\n');
    }
    let d = Dictionary::from_file(dir.write("big.txt", &text)).expect("loads");
    assert!(d.is_word(&long));
    assert!(d.is_word("BCD"));
}

#[test]
fn unusable_files_are_errors_naming_the_file() {
    let dir = TempDir::new("dict-errors");
    let empty = dir.write("empty.txt", "");
    let err = Dictionary::from_file(&empty).expect_err("empty");
    assert!(matches!(err, DictionaryError::NoWords { .. }));
    assert!(err.to_string().contains("empty.txt"));
    let err = Dictionary::from_file(dir.path().join("missing.txt")).expect_err("missing");
    assert!(err.to_string().contains("missing.txt"), "{err}");
    assert!(Dictionary::from_file(dir.path()).is_err(), "a directory");
}

#[test]
fn a_file_of_too_many_letters_is_refused_before_it_is_indexed() {
    let dir = TempDir::new("dict-letters");
    // 2,100 words of 8,192 letters: 17.2 M letters, past the 16 Mi cap, in a
    // file well under the 64 MiB size cap.
    let mut text = String::new();
    for i in 0..2_100u32 {
        let tail: String = format!("{i:04}")
            .bytes()
            .map(|b| char::from(b'A' + (b - b'0')))
            .collect();
        text.push_str(&"Z".repeat(8_188));
        text.push_str(&tail);
        text.push('\n');
    }
    let path = dir.write("long.txt", &text);
    let err = Dictionary::from_file(&path).expect_err("too many letters");
    assert!(
        matches!(err, DictionaryError::TooManyLetters { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("long.txt"), "{err}");
    // Just under the cap loads.
    let under: String = text.lines().take(2_000).map(|l| format!("{l}\n")).collect();
    assert_eq!(
        Dictionary::from_file(dir.write("under.txt", under))
            .expect("loads")
            .len(),
        2_000
    );
}

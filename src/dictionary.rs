//! The word list: an `ahash` set of upper-case words (the design's
//! `unordered_set`) plus the prefix trie the search walks. Owns reading word
//! files, the built-in `words.txt`, and the process-wide default dictionary.

use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use ahash::AHashSet;

use crate::trie::Trie;

/// The project's `words.txt`, built into the binary so it runs from any directory.
pub const EMBEDDED_WORDS: &str = include_str!("../words.txt");

/// The file the game looks for in the working directory, as in the original.
pub const DEFAULT_FILE: &str = "words.txt";

/// Longest word kept: the most letters a path can spell on the largest board
/// (every cell a two-letter face). A longer line could never be found, and
/// indexing it would cost a trie node per letter (hundreds of MB for a 50 MB line).
pub const MAX_WORD_LEN: usize = 2 * crate::game_board::MAX_CELLS;

/// Largest word file read: far beyond any real word list (English ones are a
/// few MB), and a bound on memory when the path names something endless such
/// as `/dev/zero`.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Why a dictionary file could not be used.
#[derive(Debug)]
pub enum DictionaryError {
    /// The file could not be read (missing, a directory, no permission, ...).
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The file was read but holds no word made only of letters.
    NoWords {
        /// The file.
        path: PathBuf,
    },
}

impl fmt::Display for DictionaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DictionaryError::Io { path, source } => {
                write!(f, "cannot read dictionary {}: {source}", path.display())
            }
            DictionaryError::NoWords { path } => {
                write!(
                    f,
                    "dictionary {} holds no words (one word of letters A-Z per line)",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for DictionaryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DictionaryError::Io { source, .. } => Some(source),
            DictionaryError::NoWords { .. } => None,
        }
    }
}

/// A set of words, upper case, with a prefix index.
#[derive(Debug, Default)]
pub struct Dictionary {
    /// Every word's letters, sorted and deduplicated, end to end; `ends[i]` is
    /// where word `i` stops. One buffer instead of a string per word: loading
    /// YAWL's 264,061 words costs one allocation, not a quarter of a million.
    letters: Vec<u8>,
    ends: Vec<u32>,
    /// The design's hash set, built on the first `is_word` call: the search
    /// uses only the trie, so solving boards never pays for hashing every word.
    set: OnceLock<AHashSet<Box<str>>>,
    trie: Trie,
}

impl Clone for Dictionary {
    fn clone(&self) -> Self {
        Dictionary {
            letters: self.letters.clone(),
            ends: self.ends.clone(),
            set: self.set.clone(),
            trie: self.trie.clone(),
        }
    }
}

impl Dictionary {
    /// `words.txt` from the working directory if it can be read, else the built-in list.
    pub fn new() -> Dictionary {
        Dictionary::load_default().unwrap_or_else(|_| Dictionary::embedded())
    }

    /// `words.txt` from the working directory if present (an error if it cannot be
    /// used), else the built-in list.
    pub fn load_default() -> Result<Dictionary, DictionaryError> {
        let path = Path::new(DEFAULT_FILE);
        if path.exists() {
            Dictionary::from_file(path)
        } else {
            Ok(Dictionary::embedded())
        }
    }

    /// The list built into the binary.
    pub fn embedded() -> Dictionary {
        Dictionary::parse(EMBEDDED_WORDS.as_bytes())
    }

    /// The dictionary every `Game::new()` and `WordFind::new()` shares: loaded once per process.
    pub fn shared_default() -> Arc<Dictionary> {
        static DEFAULT: OnceLock<Arc<Dictionary>> = OnceLock::new();
        Arc::clone(DEFAULT.get_or_init(|| Arc::new(Dictionary::new())))
    }

    /// Reads a word file: one word per line, any case, CRLF or LF, an optional
    /// UTF-8 byte order mark. Lines that are not all letters, or longer than
    /// [`MAX_WORD_LEN`], are skipped (they could never match).
    pub fn from_file(path: impl AsRef<Path>) -> Result<Dictionary, DictionaryError> {
        let path = path.as_ref();
        let bytes = read_capped(path).map_err(|source| DictionaryError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let dictionary = Dictionary::parse(&bytes);
        if dictionary.is_empty() {
            return Err(DictionaryError::NoWords {
                path: path.to_path_buf(),
            });
        }
        Ok(dictionary)
    }

    /// A dictionary from the bytes of a word file (see [`Dictionary::from_file`]); never fails.
    pub fn parse(bytes: &[u8]) -> Dictionary {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        Dictionary::from_lines(bytes.split(|&b| b == b'\n'))
    }

    /// A dictionary from a list of words (any case; entries that are not all letters, or
    /// longer than [`MAX_WORD_LEN`], are skipped).
    pub fn from_words<I, S>(words: I) -> Dictionary
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let words: Vec<S> = words.into_iter().collect();
        Dictionary::from_lines(words.iter().map(|w| w.as_ref().as_bytes()))
    }

    /// Keeps the lines that are words once trimmed, upper-cased; sorts,
    /// deduplicates and indexes them.
    fn from_lines<'a>(lines: impl Iterator<Item = &'a [u8]>) -> Dictionary {
        let mut letters = Vec::new();
        let mut spans: Vec<(u32, u32)> = Vec::new();
        for line in lines {
            let word = line.trim_ascii();
            if word.is_empty()
                || word.len() > MAX_WORD_LEN
                || !word.iter().all(u8::is_ascii_alphabetic)
            {
                continue;
            }
            let start = letters.len();
            letters.extend(word.iter().map(u8::to_ascii_uppercase));
            spans.push((start as u32, letters.len() as u32));
        }
        let word = |&(start, end): &(u32, u32)| &letters[start as usize..end as usize];
        // Word lists are nearly always sorted already, which this sort detects in one pass.
        spans.sort_unstable_by(|a, b| word(a).cmp(word(b)));
        spans.dedup_by(|a, b| word(a) == word(b));
        let mut sorted = Vec::with_capacity(letters.len());
        let mut ends = Vec::with_capacity(spans.len());
        for span in &spans {
            sorted.extend_from_slice(word(span));
            ends.push(sorted.len() as u32);
        }
        let mut dictionary = Dictionary {
            letters: sorted,
            ends,
            set: OnceLock::new(),
            trie: Trie::default(),
        };
        let words: Vec<&[u8]> = dictionary.word_bytes().collect();
        dictionary.trie = Trie::from_sorted(&words);
        dictionary
    }

    /// Every word's letters, in order.
    fn word_bytes(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(self.ends.iter().copied())
            .map(|(start, end)| &self.letters[start as usize..end as usize])
    }

    /// The design's hash set of every word.
    fn set(&self) -> &AHashSet<Box<str>> {
        self.set
            .get_or_init(|| self.words().map(Box::from).collect())
    }

    /// Whether `word` is in the dictionary (case-insensitive).
    pub fn is_word(&self, word: &str) -> bool {
        if word.bytes().any(|b| b.is_ascii_lowercase()) {
            self.set().contains(word.to_ascii_uppercase().as_str())
        } else {
            self.set().contains(word)
        }
    }

    /// Whether some word starts with `prefix` (case-insensitive). A false `true`
    /// would only slow a search down; a false `false` would lose words, so this is exact.
    pub fn is_prefix(&self, prefix: &str) -> bool {
        self.trie.walk(prefix.as_bytes()).is_some()
    }

    /// Number of words.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no words.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The prefix index the search walks.
    pub fn trie(&self) -> &Trie {
        &self.trie
    }

    /// Every word, in ascending order.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        // Only ASCII letters are stored, so every word is valid UTF-8.
        self.word_bytes()
            .map(|w| std::str::from_utf8(w).unwrap_or_default())
    }
}

/// The whole file, unless it is longer than [`MAX_FILE_BYTES`].
fn read_capped(path: &Path) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "it is larger than {} MiB (a word list is a few MB)",
                MAX_FILE_BYTES >> 20
            ),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_quirky_files() {
        let d =
            Dictionary::parse(b"\xEF\xBB\xBFcat\r\nDOG\n\n  emu \nN'T\nAB\x01C\n\xE9t\xE9\nowl");
        let mut words: Vec<&str> = d.words().collect();
        words.sort_unstable();
        assert_eq!(words, ["CAT", "DOG", "EMU", "OWL"]);
        assert!(d.is_word("cat") && d.is_word("OWL") && !d.is_word("N'T"));
        assert!(d.is_prefix("ca") && d.is_prefix("") && !d.is_prefix("cx"));
    }

    #[test]
    fn words_no_board_can_hold_are_skipped() {
        let longest = "A".repeat(MAX_WORD_LEN);
        let too_long = "B".repeat(MAX_WORD_LEN + 1);
        let d = Dictionary::parse(format!("{longest}\n{too_long}\ncat\n").as_bytes());
        assert!(d.is_word(&longest) && d.is_word("CAT") && !d.is_word(&too_long));
        assert_eq!(Dictionary::from_words([&too_long]).len(), 0);
    }

    #[test]
    fn embedded_list_has_game_words_and_no_names() {
        let d = Dictionary::embedded();
        assert!(d.is_word("AARDVARK") && d.is_word("ZYMURGY") && d.is_word("OFF"));
        assert!(!d.is_word("MARCUS"));
        assert!(d.len() > 200_000);
    }

    #[test]
    fn missing_and_empty_files_are_errors() {
        let dir = std::env::temp_dir().join(format!("boggle-dict-test-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let missing = Dictionary::from_file(dir.join("nope.txt"));
        assert!(matches!(missing, Err(DictionaryError::Io { .. })));
        let empty = dir.join("empty.txt");
        std::fs::write(&empty, "\n12\n").expect("temp dir is writable");
        let err = Dictionary::from_file(&empty).expect_err("no words");
        assert!(err.to_string().contains("empty.txt"), "{err}");
        let as_dir = Dictionary::from_file(&dir).expect_err("a directory");
        assert!(
            as_dir.to_string().contains("cannot read dictionary"),
            "{as_dir}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

//! The word list: an `ahash` set of upper-case words (the design's
//! `unordered_set`) plus the prefix trie the search walks. Owns reading word
//! files, the two built-in lists (the course's `words.txt` and the player
//! list), how common each word is, and the process-wide default dictionary.
//!
//! Commonness comes from SCOWL's size levels: 10 holds the most common English
//! words, 70 the rare ones a large dictionary still lists. A word file may
//! follow a word with white space and its level (`CAT\t10`); a word without
//! one, in a list that has levels, is rarer than any level.

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use ahash::AHashSet;

use crate::text::{plural, thousands};
use boggle_engine::trie::Trie;

/// The course's `words.txt` (spec 004's starter list, unchanged), built into
/// the binary so the Project 4 game gives the same answers from any directory.
pub const EMBEDDED_WORDS: &str = include_str!("../../../words.txt");

/// The player list (`data/player-words.txt`): the Letterpress word list with
/// SCOWL commonness levels, built in; every preset but `project4` plays it.
pub(crate) const PLAYER_WORDS: &str = include_str!("../../../data/player-words.txt");

/// The commonness of a word in a list with no level for it: rarer than every level.
pub(crate) const RARE: u8 = u8::MAX;

pub use crate::rules::WordList;

/// How much of the word list a computer player knows (`--level`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Level {
    /// Everyday words only (SCOWL 10 and 20): about a seventh of a board's points.
    Easy,
    /// The words of a small dictionary (SCOWL up to 40): about a third.
    Medium,
    /// Every word a large dictionary lists (SCOWL up to 70): about half.
    Hard,
    /// Every word of the list.
    #[default]
    Perfect,
}

impl Level {
    /// The rarest commonness level known at this level.
    pub(crate) fn max_rank(self) -> u8 {
        match self {
            Level::Easy => 20,
            Level::Medium => 40,
            Level::Hard => 70,
            Level::Perfect => RARE,
        }
    }

    /// Whether a word of commonness `rank` is known at this level.
    pub fn knows(self, rank: u8) -> bool {
        rank <= self.max_rank()
    }
}

/// Which words count in a game (`--words`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum WordsCounted {
    /// Only common words (SCOWL up to 50, a desk dictionary): a casual game.
    Common,
    /// Every word of the list.
    #[default]
    All,
}

impl WordsCounted {
    /// The rarest commonness level that counts.
    pub fn max_rank(self) -> u8 {
        match self {
            WordsCounted::Common => 50,
            WordsCounted::All => RARE,
        }
    }
}

/// End screens mark a word rare from this level on: SCOWL 70 is where a large
/// dictionary's obscure words are, and words in no SCOWL list are rarer still.
pub(crate) const RARE_FROM: u8 = 70;

/// The file the game looks for in the working directory, as in the original.
pub const DEFAULT_FILE: &str = "words.txt";

/// Longest word kept: the most letters a path can spell on the largest board
/// (every cell a two-letter face). A longer line could never be found, and
/// indexing it would cost a trie node per letter (hundreds of MB for a 50 MB line).
pub const MAX_WORD_LEN: usize = 2 * crate::rules::MAX_CELLS;

/// Largest word file read: far beyond any real word list (English ones are a
/// few MB), and a bound on memory when the path names something endless such
/// as `/dev/zero`.
pub(crate) const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Most letters a word file's words may hold in all: 16 Mi, six times the
/// largest English lists (YAWL: 2.4 M letters). The trie costs up to 8 bytes
/// a letter, so this bounds a dictionary's memory (about 200 MB at most)
/// whatever the file holds: 64 MB of 8,192-letter words would otherwise need
/// gigabytes.
pub(crate) const MAX_LETTERS: usize = 16 << 20;

/// Why a dictionary file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum DictionaryError {
    /// The file could not be read (missing, a directory, no permission, ...).
    #[error("cannot read dictionary {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The `words.txt` found in the working directory is not a regular file
    /// (a FIFO would hang the game before it says anything).
    #[error(
        "{} is not a regular file (a FIFO, a device or a directory is not read as the word list)",
        path.display()
    )]
    NotAFile {
        /// The file.
        path: PathBuf,
    },
    /// The file is larger than 64 MiB: no word list is.
    #[error(
        "dictionary {} is larger than {} MiB (a word list is a few MB)",
        path.display(),
        MAX_FILE_BYTES >> 20
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The file was read but holds no word made only of letters.
    #[error(
        "dictionary {} holds no words (one word of letters A-Z per line)",
        path.display()
    )]
    NoWords {
        /// The file.
        path: PathBuf,
    },
    /// The file's words hold more letters than 2^24 (16 << 20).
    #[error(
        "dictionary {} holds more than {} million letters (a word list holds a few)",
        path.display(),
        MAX_LETTERS >> 20
    )]
    TooManyLetters {
        /// The file.
        path: PathBuf,
    },
}

/// A set of words, upper case, with a prefix index.
///
/// ```
/// use boggle_game::Dictionary;
///
/// let dictionary = Dictionary::from_words(["eat", "Bat", "NAG", "N'T"]);
/// assert!(dictionary.is_word("EAT") && dictionary.is_word("bat"));
/// assert!(dictionary.is_prefix("NA") && !dictionary.is_prefix("NX"));
/// assert_eq!(dictionary.len(), 3, "N'T can never be spelled, so it is skipped");
///
/// // Dictionary::new() is the course's words.txt (this directory's, else built in).
/// assert!(Dictionary::new().is_word("BAG"));
/// ```
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
    /// Each word's commonness level, in word order; empty when the list has none.
    ranks: Vec<u8>,
    /// Where the words came from, as a player reads it (`player list (built in)`).
    source: String,
}

impl Clone for Dictionary {
    fn clone(&self) -> Self {
        Dictionary {
            letters: self.letters.clone(),
            ends: self.ends.clone(),
            set: self.set.clone(),
            trie: self.trie.clone(),
            ranks: self.ranks.clone(),
            source: self.source.clone(),
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
        if !path.exists() {
            return Ok(Dictionary::embedded());
        }
        let bytes = read_capped(path, true)?;
        let mut dictionary = Dictionary::from_file_bytes(path, &bytes)?;
        if bytes == EMBEDDED_WORDS.as_bytes() {
            dictionary.source = format!("{DEFAULT_FILE} (course list)");
        }
        Ok(dictionary)
    }

    /// The course's list built into the binary.
    pub fn embedded() -> Dictionary {
        Dictionary::parse(EMBEDDED_WORDS.as_bytes()).named("course list (built in)")
    }

    /// The player list built into the binary, with its commonness levels.
    pub fn player() -> Dictionary {
        Dictionary::parse(PLAYER_WORDS.as_bytes()).named("player list (built in)")
    }

    /// A built-in list: the player list, or for the course list `words.txt`
    /// from the working directory if present (an error if it cannot be used).
    pub fn load_builtin(list: WordList) -> Result<Dictionary, DictionaryError> {
        match list {
            WordList::Course => Dictionary::load_default(),
            WordList::Player => Ok(Dictionary::player()),
        }
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
        Dictionary::from_file_bytes(path, &read_words_file(path)?)
    }

    /// The dictionary of a word file's bytes, named for the file; an error if it holds no word.
    fn from_file_bytes(path: &Path, bytes: &[u8]) -> Result<Dictionary, DictionaryError> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let collected = Collected::from_lines(bytes.split(|&b| b == b'\n'), MAX_LETTERS)
            .ok_or_else(|| DictionaryError::TooManyLetters {
                path: path.to_path_buf(),
            })?;
        let dictionary = collected.build().named(path.display().to_string());
        if dictionary.is_empty() {
            return Err(DictionaryError::NoWords {
                path: path.to_path_buf(),
            });
        }
        Ok(dictionary)
    }

    /// The same words, said to come from `source`.
    fn named(mut self, source: impl Into<String>) -> Dictionary {
        self.source = source.into();
        self
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

    /// Keeps the lines that are words once trimmed (optionally followed by a
    /// commonness level), upper-cased; sorts, deduplicates and indexes them.
    fn from_lines<'a>(lines: impl Iterator<Item = &'a [u8]>) -> Dictionary {
        Collected::from_lines(lines, usize::MAX)
            .unwrap_or_default()
            .build()
    }

    /// Only the words at most as rare as `max_rank` (all of them in a list without levels).
    pub fn restricted(&self, max_rank: u8) -> Dictionary {
        if self.ranks.is_empty() || max_rank == RARE {
            return self.clone();
        }
        // The kept words are already sorted and distinct: collected as they are.
        let mut kept = Collected {
            ranked: true,
            ..Collected::default()
        };
        for (word, &rank) in self.word_bytes().zip(&self.ranks) {
            if rank <= max_rank {
                let start = kept.letters.len() as u32;
                kept.letters.extend_from_slice(word);
                kept.spans.push((start, kept.letters.len() as u32, rank));
            }
        }
        // `player list (built in)` becomes `player list (built in, common words)`.
        let source = match self.source.strip_suffix(')') {
            Some(open) => format!("{open}, common words)"),
            None => format!("{} (common words)", self.source),
        };
        kept.build().named(source)
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

    /// Whether the list says how common its words are.
    pub fn has_levels(&self) -> bool {
        !self.ranks.is_empty()
    }

    /// How common `word` is (case-insensitive): its SCOWL level, 255 (`u8::MAX`) for
    /// a word without one; `None` if it is not a word or the list has no levels.
    pub fn rank(&self, word: &str) -> Option<u8> {
        if self.ranks.is_empty() {
            return None;
        }
        let word = word.to_ascii_uppercase();
        let (mut low, mut high) = (0, self.ends.len());
        while low < high {
            let mid = (low + high) / 2;
            match self.word_at(mid).cmp(word.as_bytes()) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return self.ranks.get(mid).copied(),
            }
        }
        None
    }

    /// Whether `word`'s commonness level marks it as rare on end screens
    /// (never in a list without levels).
    pub fn is_rare(&self, word: &str) -> bool {
        self.rank(word).is_some_and(|rank| rank >= RARE_FROM)
    }

    /// `words` in end-screen order: common first (in a list with levels), then
    /// more points first, then alphabetical; each with whether it is rare.
    /// So a player reads "you missed CART" before "you missed AALII".
    pub fn by_commonness<'w>(
        &self,
        words: impl IntoIterator<Item = &'w str>,
        points: impl Fn(&str) -> u32,
    ) -> Vec<(&'w str, bool)> {
        let mut ranked: Vec<(u8, std::cmp::Reverse<u32>, &str)> = words
            .into_iter()
            .map(|word| {
                (
                    self.rank(word).unwrap_or(0),
                    std::cmp::Reverse(points(word)),
                    word,
                )
            })
            .collect();
        ranked.sort_unstable();
        ranked
            .into_iter()
            .map(|(rank, _, word)| (word, self.has_levels() && rank >= RARE_FROM))
            .collect()
    }

    /// The letters of word `index` (in ascending order).
    fn word_at(&self, index: usize) -> &[u8] {
        let start = index.checked_sub(1).map_or(0, |i| self.ends[i] as usize);
        &self.letters[start..self.ends[index] as usize]
    }

    /// Where the words came from, with how many there are, as a player reads it:
    /// `words.txt (course list, 66,925 words)`.
    pub fn describe(&self) -> String {
        let count = format!(
            "{} word{}",
            thousands(self.len() as u64),
            plural(self.len(), "", "s")
        );
        match self.source.split_once(" (") {
            Some((name, kind)) => format!("{name} ({}, {count})", kind.trim_end_matches(')')),
            None => format!("{} ({count})", self.source),
        }
    }

    /// Every word, in ascending order.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        // Only ASCII letters are stored, so every word is valid UTF-8.
        self.word_bytes()
            .map(|w| std::str::from_utf8(w).unwrap_or_default())
    }
}

/// The words of a word file, as read: their letters end to end, each word's
/// span and level, before sorting and indexing.
#[derive(Default)]
struct Collected {
    letters: Vec<u8>,
    spans: Vec<(u32, u32, u8)>,
    ranked: bool,
}

impl Collected {
    /// The words of `lines`; `None` once they hold more than `max_letters`
    /// letters (checked while reading, so memory stays bounded).
    fn from_lines<'a>(
        lines: impl Iterator<Item = &'a [u8]>,
        max_letters: usize,
    ) -> Option<Collected> {
        let mut collected = Collected::default();
        for line in lines {
            let Some((word, rank)) = parse_line(line) else {
                continue;
            };
            let letters = &mut collected.letters;
            if letters.len() + word.len() > max_letters {
                return None;
            }
            collected.ranked |= rank.is_some();
            let start = letters.len();
            letters.extend(word.iter().map(u8::to_ascii_uppercase));
            let span = (start as u32, letters.len() as u32, rank.unwrap_or(RARE));
            collected.spans.push(span);
        }
        Some(collected)
    }

    /// Sorts and deduplicates the words and indexes them in a trie.
    fn build(self) -> Dictionary {
        let Collected {
            letters,
            mut spans,
            ranked,
        } = self;
        let word = |&(start, end, _): &(u32, u32, u8)| &letters[start as usize..end as usize];
        // Word lists are nearly always sorted already, which this sort detects
        // in one pass; among repeats of a word the most common level comes first.
        spans.sort_unstable_by(|a, b| word(a).cmp(word(b)).then(a.2.cmp(&b.2)));
        spans.dedup_by(|a, b| word(a) == word(b));
        let mut sorted = Vec::with_capacity(letters.len());
        let mut ends = Vec::with_capacity(spans.len());
        for span in &spans {
            sorted.extend_from_slice(word(span));
            ends.push(sorted.len() as u32);
        }
        let ranks = if ranked {
            spans.iter().map(|span| span.2).collect()
        } else {
            Vec::new()
        };
        let mut dictionary = Dictionary {
            letters: sorted,
            ends,
            set: OnceLock::new(),
            trie: Trie::default(),
            ranks,
            source: "a list of words".to_string(),
        };
        let words: Vec<&[u8]> = dictionary.word_bytes().collect();
        dictionary.trie = Trie::from_sorted(&words);
        dictionary
    }
}

/// A word-file line: its word (trimmed, letters only, at most [`MAX_WORD_LEN`])
/// and the commonness level written after it, if any; `None` for a line that is no word.
fn parse_line(line: &[u8]) -> Option<(&[u8], Option<u8>)> {
    let line = line.trim_ascii();
    let (word, rest) = match line.iter().position(u8::is_ascii_whitespace) {
        Some(at) => (&line[..at], Some(line[at..].trim_ascii())),
        None => (line, None),
    };
    let rank = match rest {
        None => None,
        Some(rest) => Some(std::str::from_utf8(rest).ok()?.parse::<u8>().ok()?),
    };
    let is_word =
        !word.is_empty() && word.len() <= MAX_WORD_LEN && word.iter().all(u8::is_ascii_alphabetic);
    is_word.then_some((word, rank))
}

/// A word file's bytes, or why it could not be read: at most
/// [`MAX_FILE_BYTES`], so a path naming something endless such as
/// `/dev/zero` costs no more memory than that.
fn read_words_file(path: &Path) -> Result<Vec<u8>, DictionaryError> {
    read_capped(path, false)
}

/// The whole file, unless it is longer than [`MAX_FILE_BYTES`]. With
/// `regular_only` (the `words.txt` picked up from the working directory,
/// which nobody named), the open does not wait (a FIFO without a writer
/// would hang the game before it says anything) and anything but a regular
/// file is refused; a list named on the command line may be a pipe.
#[expect(
    clippy::disallowed_types,
    reason = "a word list is read here, before any judging"
)]
fn read_capped(path: &Path, regular_only: bool) -> Result<Vec<u8>, DictionaryError> {
    let io = |source| DictionaryError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    if regular_only {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    let file = options.open(path).map_err(io)?;
    if regular_only && !file.metadata().map_err(io)?.is_file() {
        return Err(DictionaryError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(DictionaryError::TooLarge {
            path: path.to_path_buf(),
        });
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
    fn built_in_lists() {
        let course = Dictionary::embedded();
        assert!(course.is_word("BAG") && course.is_word("TALC") && !course.is_word("EATS"));
        assert!(!course.has_levels() && course.rank("BAG").is_none());
        let player = Dictionary::player();
        assert!(
            player.is_word("AARDVARK") && player.is_word("ZYMURGY") && !player.is_word("MARCUS")
        );
        assert!(player.has_levels());
        assert_eq!(player.describe(), "player list (built in, 274,013 words)");
    }

    #[test]
    fn levels_follow_words() {
        let d = Dictionary::parse(b"cat\t10\ncat 35\nDOG  20\nemu\nowl x\nyak\t300\n");
        assert_eq!(d.words().collect::<Vec<_>>(), ["CAT", "DOG", "EMU"]);
        assert_eq!(
            d.rank("cat"),
            Some(10),
            "a repeated word keeps its most common level"
        );
        assert_eq!(d.rank("DOG"), Some(20));
        assert_eq!(d.rank("EMU"), Some(RARE));
        assert_eq!(d.rank("GNU"), None);
        assert!(d.is_rare("emu") && !d.is_rare("cat"));
        let common = d.restricted(20);
        assert_eq!(common.words().collect::<Vec<_>>(), ["CAT", "DOG"]);
        assert_eq!(common.describe(), "a list of words (common words, 2 words)");
        assert_eq!(
            Dictionary::player().restricted(50).describe(),
            "player list (built in, common words, 63,067 words)"
        );
        assert_eq!(common.rank("DOG"), Some(20));
        assert_eq!(d.restricted(RARE).len(), 3);
    }

    #[test]
    fn end_screens_read_common_words_first() {
        let d = Dictionary::parse(b"AALII\nCART\t10\nCARTS\t20\nZOO\t10\n");
        let points = |w: &str| w.len() as u32;
        let order = d.by_commonness(["AALII", "CARTS", "ZOO", "CART"], points);
        assert_eq!(
            order,
            [
                ("CART", false),
                ("ZOO", false),
                ("CARTS", false),
                ("AALII", true)
            ]
        );
        let plain = Dictionary::from_words(["AALII", "CART", "ZOO"]);
        let order = plain.by_commonness(["ZOO", "CART", "AALII"], points);
        assert_eq!(order, [("AALII", false), ("CART", false), ("ZOO", false)]);
    }

    #[test]
    fn counts_read_with_thousands() {
        let d = Dictionary::from_words(["CAT"]);
        assert_eq!(d.describe(), "a list of words (1 word)");
    }

    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "the test writes the word files it reads"
    )]
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

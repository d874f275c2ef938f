//! A shard's settings, `shard-I-of-N.params.json`: what was proved (rules,
//! size, target, buckets), with which word list (its path, word count and
//! hash) and program version, and how the proof is split. Every shard of
//! one proof has the same settings but for the word list's path.
//!
//! Read from a file, every field is checked against its range before
//! anything is built from it ([`Params::parse`]): the board within the
//! prover's cells, the buckets valid and their table of classes within the
//! caps of `limits`, at least one shard, the text fields short and
//! printable. The number of classes and of shards are checked against the
//! classes the settings make once those are built (`merge`).

use boggle_engine::{MoveRule, SearchRules};
use serde::{Deserialize, Serialize};

use crate::classes::{Buckets, Classes};
use crate::entry::MAX_CELLS;
use crate::error::BadParams;
pub(crate) use crate::error::WordListId;
use crate::limits::MAX_TEXT_BYTES;
use crate::{ProveError, Settings};

/// The settings a shard ran with; every shard of one proof has the same
/// (but for [`Params::dictionary`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// The version of the program that wrote them.
    pub version: String,
    /// The rules preset (a label the command line resolves to full rules).
    pub rules: String,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Fewest letters a word may have.
    pub min_len: usize,
    /// Whether moves may go up (8 neighbours) or not.
    pub(crate) no_up: bool,
    /// The target score.
    pub above: u32,
    /// The buckets' specification.
    pub(crate) buckets: String,
    /// Where the word list was read from: a path, or `builtin:NAME`.
    pub dictionary: String,
    /// Words in the dictionary.
    pub(crate) words: usize,
    /// A hash of the dictionary's words (FNV-1a, 16 hex digits).
    pub(crate) dictionary_hash: String,
    /// Canonical classes in the whole proof.
    pub classes: u64,
    /// How many shards the proof is split into.
    pub shards: u32,
}

/// Where a proof's settings come from besides [`Settings`]: the program and
/// the names of its rules and word list.
#[derive(Debug, Clone, Copy)]
pub struct Origin<'a> {
    /// The program's version (`CARGO_PKG_VERSION`).
    pub version: &'a str,
    /// The rules preset's name, which the caller resolves back to rules.
    pub rules: &'a str,
    /// Where the word list was read from (a path, or `builtin:NAME`).
    pub dictionary: &'a str,
}

/// The number of words in a word list and its FNV-1a hash (each word and a
/// newline), as 16 hex digits: how the settings recognise a word list. It
/// catches another list, not a forged one.
pub(crate) fn word_list_hash<'w>(words: impl IntoIterator<Item = &'w str>) -> (usize, String) {
    let (mut hash, mut count): (u64, usize) = (0xcbf2_9ce4_8422_2325, 0);
    for word in words {
        count += 1;
        for byte in word.bytes().chain(std::iter::once(b'\n')) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    (count, format!("{hash:016x}"))
}

impl Params {
    /// The parameters of a proof of `settings` made by `origin` with the word
    /// list `words` (sorted, as the dictionary holds them), of `classes`
    /// canonical classes over `shards` shards.
    pub fn new<'w>(
        settings: &Settings,
        origin: Origin<'_>,
        words: impl IntoIterator<Item = &'w str>,
        classes: u64,
        shards: u32,
    ) -> Params {
        let (words, hash) = word_list_hash(words);
        let rules = &settings.rules;
        Params {
            version: origin.version.to_string(),
            rules: origin.rules.to_string(),
            rows: rules.rows,
            cols: rules.cols,
            min_len: rules.min_len,
            no_up: rules.moves == MoveRule::NoUp,
            above: settings.above,
            buckets: settings.buckets.spec().to_string(),
            dictionary: origin.dictionary.to_string(),
            words,
            dictionary_hash: hash,
            classes,
            shards,
        }
    }

    /// Reads settings from a file's bytes and checks every field (see the
    /// module's doc); the number of classes and shards are checked later,
    /// against the classes built.
    pub fn parse(bytes: &[u8]) -> Result<Params, BadParams> {
        let params: Params = serde_json::from_slice(bytes).map_err(BadParams::Json)?;
        params.check()?;
        Ok(params)
    }

    /// Every field within its range, and the table of classes within the caps.
    fn check(&self) -> Result<(), BadParams> {
        let field = |field, must| Err(BadParams::Field { field, must });
        let short_printable = |text: &str, max: usize| {
            !text.is_empty()
                && text.len() <= max
                && text.bytes().all(|b| (b' '..=b'~').contains(&b))
        };
        if !short_printable(&self.version, 64) {
            return field("version", "1 to 64 printable ASCII characters");
        }
        if self.rules.is_empty()
            || self.rules.len() > 32
            || !self
                .rules
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        {
            return field("rules", "a rules name: 1 to 32 of a-z, 0-9, - and _");
        }
        if self.rows == 0 || self.cols == 0 || self.rows > MAX_CELLS || self.cols > MAX_CELLS {
            return field("rows", "1 to 16 rows and 1 to 16 columns");
        }
        if self.rows * self.cols > MAX_CELLS {
            return Err(BadParams::Size {
                rows: self.rows,
                cols: self.cols,
            });
        }
        if self.min_len == 0 || self.min_len > 64 {
            return field("min_len", "1 to 64");
        }
        if self.buckets.len() > MAX_TEXT_BYTES {
            return field("buckets", "at most 4096 bytes");
        }
        if self.dictionary.is_empty()
            || self.dictionary.len() > MAX_TEXT_BYTES
            || self.dictionary.chars().any(char::is_control)
        {
            return field(
                "dictionary",
                "a path of 1 to 4096 bytes without control characters",
            );
        }
        if self.dictionary_hash.len() != 16
            || !self
                .dictionary_hash
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            return field("dictionary_hash", "16 lower-case hex digits");
        }
        if self.shards == 0 {
            return field("shards", "at least 1");
        }
        self.shape_classes().map(|_| ())
    }

    /// The rules as far as the classes go (the board's shape and moves; the
    /// classes and symmetries need no more).
    fn shape(&self) -> SearchRules {
        SearchRules {
            moves: if self.no_up {
                MoveRule::NoUp
            } else {
                MoveRule::EightNeighbours
            },
            ..SearchRules::standard(self.rows, self.cols)
        }
    }

    /// The classes these settings describe (no dictionary needed: they
    /// depend on the shape and the move rule alone), refused before they are
    /// built if their table is over the caps.
    pub fn shape_classes(&self) -> Result<Classes, BadParams> {
        let buckets = Buckets::parse(&self.buckets).map_err(BadParams::Buckets)?;
        self.settings_with(self.shape(), buckets)
            .map(|s| s.classes())
    }

    /// The proof's settings under `rules`, which must be the rules the
    /// settings name (their shape, moves and fewest letters are checked).
    pub(crate) fn settings(&self, rules: SearchRules) -> Result<Settings, BadParams> {
        let agree = rules.rows == self.rows
            && rules.cols == self.cols
            && rules.min_len == self.min_len
            && (rules.moves == MoveRule::NoUp) == self.no_up;
        if !agree {
            return Err(BadParams::Rules {
                name: self.rules.clone(),
                why: "they do not give the size, moves and fewest letters recorded",
            });
        }
        let buckets = Buckets::parse(&self.buckets).map_err(BadParams::Buckets)?;
        self.settings_with(rules, buckets)
    }

    fn settings_with(&self, rules: SearchRules, buckets: Buckets) -> Result<Settings, BadParams> {
        Settings::new(rules, buckets, self.above).map_err(|e| match e {
            ProveError::TooLarge(estimate) => BadParams::TooLarge(estimate),
            _ => BadParams::Size {
                rows: self.rows,
                cols: self.cols,
            },
        })
    }

    /// The settings that differ between two shards' (the word list's path
    /// may: it is where each machine found the list, which the hash checks).
    pub(crate) fn differences(&self, other: &Params) -> Vec<&'static str> {
        let mut fields = Vec::new();
        let mut differ = |name, differs: bool| {
            if differs {
                fields.push(name);
            }
        };
        differ("version", self.version != other.version);
        differ("rules", self.rules != other.rules);
        differ("rows", self.rows != other.rows);
        differ("cols", self.cols != other.cols);
        differ("min_len", self.min_len != other.min_len);
        differ("no_up", self.no_up != other.no_up);
        differ("above", self.above != other.above);
        differ("buckets", self.buckets != other.buckets);
        differ("words", self.words != other.words);
        differ(
            "dictionary_hash",
            self.dictionary_hash != other.dictionary_hash,
        );
        differ("classes", self.classes != other.classes);
        differ("shards", self.shards != other.shards);
        fields
    }

    /// Whether `words` is the word list these settings were made with: the
    /// words and hash of the list given, and those recorded, if not.
    pub(crate) fn check_words<'w>(
        &self,
        words: impl IntoIterator<Item = &'w str>,
    ) -> Result<(), (WordListId, WordListId)> {
        let given = word_list_hash(words);
        if given.0 == self.words && given.1 == self.dictionary_hash {
            Ok(())
        } else {
            Err((given, (self.words, self.dictionary_hash.clone())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> serde_json::Value {
        serde_json::json!({
            "version": "0.1.0", "rules": "classic", "rows": 3, "cols": 3, "min_len": 3,
            "no_up": false, "above": 500,
            "buckets": "aeiouy bcdfgjkmpqvwxz hlnrst/aeiouy bcdfghjklmnpqrstvwxz",
            "dictionary": "/w/enable2k.txt", "words": 173528,
            "dictionary_hash": "c76bbd0b7d648a6b", "classes": 639, "shards": 4
        })
    }

    fn parse(value: &serde_json::Value) -> Result<Params, BadParams> {
        Params::parse(value.to_string().as_bytes())
    }

    fn with(field: &str, value: serde_json::Value) -> Result<Params, BadParams> {
        let mut params = good();
        params[field] = value;
        parse(&params)
    }

    #[test]
    fn good_settings_read_back() {
        let params = parse(&good()).expect("good settings");
        assert_eq!((params.rows, params.shards), (3, 4));
        let classes = params.shape_classes().expect("3x3 classes");
        assert_eq!(classes.canonical().len(), 639);
    }

    #[test]
    fn crafted_numbers_are_refused_before_anything_is_built() {
        use serde_json::json;
        assert!(matches!(
            with("shards", json!(0)),
            Err(BadParams::Field {
                field: "shards",
                ..
            })
        ));
        assert!(matches!(
            with("rows", json!(1u64 << 60 | 1)),
            Err(BadParams::Field { field: "rows", .. })
        ));
        assert!(matches!(
            with("rows", json!(6)),
            Err(BadParams::Size { rows: 6, cols: 3 })
        ));
        assert!(matches!(with("rows", json!(-1)), Err(BadParams::Json(_))));
        assert!(matches!(
            with("min_len", json!(0)),
            Err(BadParams::Field { .. })
        ));
        let singles = "abcdefghijklmnopqrstuvwxyz"
            .chars()
            .map(String::from)
            .collect::<Vec<_>>()
            .join(" ");
        assert!(matches!(
            with("buckets", json!(singles)),
            Err(BadParams::TooLarge(_))
        ));
        assert!(matches!(
            with("buckets", json!("abc")),
            Err(BadParams::Buckets(_))
        ));
        assert!(matches!(
            with("rules", json!("\u{1b}[2J")),
            Err(BadParams::Field { .. })
        ));
        assert!(matches!(
            with("dictionary", json!("a\nb")),
            Err(BadParams::Field { .. })
        ));
        assert!(matches!(
            with("dictionary_hash", json!("XYZ")),
            Err(BadParams::Field { .. })
        ));
        assert!(matches!(with("extra", json!(1)), Err(BadParams::Json(_))));
    }

    #[test]
    fn differences_name_the_fields_but_not_the_path() {
        let a = parse(&good()).expect("good");
        let mut b = a.clone();
        b.dictionary = "/elsewhere/enable2k.txt".into();
        assert!(a.differences(&b).is_empty());
        b.shards = 3;
        b.above = 400;
        assert_eq!(a.differences(&b), ["above", "shards"]);
    }
}

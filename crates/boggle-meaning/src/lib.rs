//! What a word means: definitions from WordNet 3.1, and WordNet's own way
//! from an inflected word to its lemma (its "morphy": BOXES is a form of
//! BOX, RAN of RUN, MICE of MOUSE).
//!
//! The data is `data/meanings.tsv.gz`, made by `scripts/make-meanings.sh`
//! (its header gives the format and the sources, its licence is
//! `data/meanings.LICENSE`): each lemma of one word with its first two senses
//! of each part of speech, and WordNet's exception lists. It is built into
//! the binary compressed (2.5 MB) and unpacked on first use (about 7 MB held
//! for the process's life); a lookup is a binary search, so the server
//! answers one word at a time without shipping the list.
//!
//! How a word reaches its lemmas, for each part of speech in WordNet's order
//! (noun, verb, adjective, adverb): the word itself, then, if the exception
//! list of that part of speech has the word, the forms it gives, else the
//! forms WordNet's suffix rules make (`-xes` to `-x`, `-ies` to `-y`, `-ing`
//! to nothing or `-e`, ...); a form counts where WordNet has it as that part
//! of speech. Limits: single words only (WordNet's collocations are left
//! out), only the first two senses, and a word WordNet lacks, or whose base
//! its rules do not reach, has no meaning.

use std::collections::HashMap;
use std::fmt;
use std::io::Read;
use std::sync::OnceLock;

/// The meanings file as built into the binary (gzip; see the module header).
const EMBEDDED: &[u8] = include_bytes!("../../../data/meanings.tsv.gz");

/// A part of speech, in WordNet's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PartOfSpeech {
    /// A noun (`n`).
    Noun,
    /// A verb (`v`).
    Verb,
    /// An adjective (`a`).
    Adjective,
    /// An adverb (`r`).
    Adverb,
}

impl PartOfSpeech {
    /// Every part of speech, in the order WordNet looks a word up.
    pub(crate) const ALL: [PartOfSpeech; 4] = [
        PartOfSpeech::Noun,
        PartOfSpeech::Verb,
        PartOfSpeech::Adjective,
        PartOfSpeech::Adverb,
    ];

    /// The part of speech a file's one-letter tag names.
    fn from_tag(tag: &str) -> Option<PartOfSpeech> {
        match tag {
            "n" => Some(PartOfSpeech::Noun),
            "v" => Some(PartOfSpeech::Verb),
            "a" => Some(PartOfSpeech::Adjective),
            "r" => Some(PartOfSpeech::Adverb),
            _ => None,
        }
    }

    /// WordNet's suffix rules for this part of speech: an ending and what replaces it.
    fn suffix_rules(self) -> &'static [(&'static str, &'static str)] {
        match self {
            PartOfSpeech::Noun => &[
                ("s", ""),
                ("ses", "s"),
                ("xes", "x"),
                ("zes", "z"),
                ("ches", "ch"),
                ("shes", "sh"),
                ("men", "man"),
                ("ies", "y"),
            ],
            PartOfSpeech::Verb => &[
                ("s", ""),
                ("ies", "y"),
                ("es", "e"),
                ("es", ""),
                ("ed", "e"),
                ("ed", ""),
                ("ing", "e"),
                ("ing", ""),
            ],
            PartOfSpeech::Adjective => &[("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
            PartOfSpeech::Adverb => &[],
        }
    }
}

impl fmt::Display for PartOfSpeech {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PartOfSpeech::Noun => "noun",
            PartOfSpeech::Verb => "verb",
            PartOfSpeech::Adjective => "adjective",
            PartOfSpeech::Adverb => "adverb",
        })
    }
}

/// One sense of a lemma: its part of speech and WordNet's definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sense<'a> {
    /// The part of speech of this sense.
    pub part: PartOfSpeech,
    /// WordNet's definition (its gloss without the examples).
    pub definition: &'a str,
}

/// A lemma a word reaches, with the senses of the parts of speech that reach it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<'a> {
    /// The lemma, in lower case as WordNet writes it (`box` for BOXES).
    pub lemma: &'a str,
    /// Its senses, by part of speech in WordNet's order, most frequent first.
    pub senses: Vec<Sense<'a>>,
}

/// Why a meanings file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MeaningsError {
    /// The gzip stream could not be unpacked.
    #[error("the meanings file is not a readable gzip stream")]
    Unpack(#[source] std::io::Error),
    /// A line is not of the file's format.
    #[error("line {line} of the meanings file is malformed")]
    Malformed {
        /// The 1-based line number.
        line: usize,
    },
}

/// Definitions of WordNet's lemmas and its exception lists, searchable by word.
#[derive(Debug)]
pub struct Meanings {
    /// The unpacked file.
    text: String,
    /// Each lemma line's byte range in `text`, sorted by lemma.
    lemmas: Vec<(usize, usize)>,
    /// The exception lists: (part of speech, inflected form) to its base forms.
    exceptions: HashMap<(PartOfSpeech, String), Vec<String>>,
}

impl Meanings {
    /// The meanings built into the binary, unpacked once per process.
    pub fn embedded() -> Result<&'static Meanings, &'static MeaningsError> {
        static MEANINGS: OnceLock<Result<Meanings, MeaningsError>> = OnceLock::new();
        MEANINGS
            .get_or_init(|| Meanings::from_gzip(EMBEDDED))
            .as_ref()
    }

    /// Reads a gzip'd meanings file (the format in the module header).
    fn from_gzip(bytes: &[u8]) -> Result<Meanings, MeaningsError> {
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_string(&mut text)
            .map_err(MeaningsError::Unpack)?;
        Meanings::from_text(text)
    }

    /// Reads a meanings file's text (the format in the module header).
    pub fn from_text(text: String) -> Result<Meanings, MeaningsError> {
        let mut lemmas = Vec::new();
        let mut exceptions = HashMap::new();
        let mut start = 0;
        for (index, line) in text.split_inclusive('\n').enumerate() {
            let range = (start, start + line.trim_end_matches('\n').len());
            start += line.len();
            let malformed = || MeaningsError::Malformed { line: index + 1 };
            let mut fields = line.trim_end_matches('\n').split('\t');
            match fields.next() {
                Some("L") => {
                    fields.next().ok_or_else(malformed)?;
                    lemmas.push(range);
                }
                Some("X") => {
                    let (Some(part), Some(form), Some(bases), None) =
                        (fields.next(), fields.next(), fields.next(), fields.next())
                    else {
                        return Err(malformed());
                    };
                    let part = PartOfSpeech::from_tag(part).ok_or_else(malformed)?;
                    let bases = bases.split(',').map(str::to_owned).collect();
                    exceptions.insert((part, form.to_owned()), bases);
                }
                Some("") if line.trim().is_empty() => {}
                _ => return Err(malformed()),
            }
        }
        let mut meanings = Meanings {
            text,
            lemmas,
            exceptions,
        };
        let text = &meanings.text;
        meanings
            .lemmas
            .sort_by(|a, b| lemma_of(&text[a.0..a.1]).cmp(lemma_of(&text[b.0..b.1])));
        Ok(meanings)
    }

    /// How many lemmas have a definition.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lemmas.len()
    }

    /// The lemmas `word` reaches (any case), each with the senses of the
    /// parts of speech that reach it; empty when WordNet has no entry.
    pub fn define(&self, word: &str) -> Vec<Entry<'_>> {
        let word = word.to_ascii_lowercase();
        let mut entries: Vec<Entry<'_>> = Vec::new();
        for part in PartOfSpeech::ALL {
            for form in self.forms(&word, part) {
                let Some(line) = self.line_of(&form) else {
                    continue;
                };
                let senses: Vec<Sense<'_>> = senses_of(line).filter(|s| s.part == part).collect();
                if senses.is_empty() {
                    continue;
                }
                let lemma = lemma_of(line);
                match entries.iter_mut().find(|e| e.lemma == lemma) {
                    Some(entry) => {
                        for sense in senses {
                            if !entry.senses.contains(&sense) {
                                entry.senses.push(sense);
                            }
                        }
                    }
                    None => entries.push(Entry { lemma, senses }),
                }
            }
        }
        for entry in &mut entries {
            entry.senses.sort_by_key(|s| s.part);
        }
        entries
    }

    /// The forms WordNet tries for `word` as `part`: the word itself, then its
    /// exceptions if it has any, else what the suffix rules make of it.
    fn forms(&self, word: &str, part: PartOfSpeech) -> Vec<String> {
        let mut forms = vec![word.to_owned()];
        match self.exceptions.get(&(part, word.to_owned())) {
            Some(bases) => forms.extend(bases.iter().cloned()),
            None => forms.extend(part.suffix_rules().iter().filter_map(|(ending, with)| {
                let stem = word.strip_suffix(ending)?;
                (!stem.is_empty()).then(|| format!("{stem}{with}"))
            })),
        }
        forms
    }

    /// The line of `lemma`, if WordNet has it.
    fn line_of(&self, lemma: &str) -> Option<&str> {
        let index = self
            .lemmas
            .binary_search_by(|&(start, end)| lemma_of(&self.text[start..end]).cmp(lemma))
            .ok()?;
        let (start, end) = self.lemmas[index];
        Some(&self.text[start..end])
    }
}

/// The lines that show `word`'s meaning in a terminal (`boggle define`, the
/// results of `tui` and `join`): for each lemma it reaches, a title (the
/// word, and the lemma when it is another: `BOXES, a form of BOX`) and one
/// line a sense (`  noun: ...`), or one line saying WordNet has no entry.
pub fn meaning_lines(word: &str, entries: &[Entry<'_>]) -> Vec<String> {
    let word = word.to_ascii_uppercase();
    if entries.is_empty() {
        return vec![format!("{word}: no entry in WordNet")];
    }
    let mut lines = Vec::new();
    for entry in entries {
        let lemma = entry.lemma.to_ascii_uppercase();
        if lemma == word {
            lines.push(word.clone());
        } else {
            lines.push(format!("{word}, a form of {lemma}"));
        }
        lines.extend(
            entry
                .senses
                .iter()
                .map(|sense| format!("  {}: {}", sense.part, sense.definition)),
        );
    }
    lines
}

/// The lemma of a lemma line (`L<TAB>lemma<TAB>...`).
fn lemma_of(line: &str) -> &str {
    line.split('\t').nth(1).unwrap_or_default()
}

/// The senses of a lemma line, in the file's order.
fn senses_of(line: &str) -> impl Iterator<Item = Sense<'_>> {
    line.split('\t').skip(2).flat_map(|group| {
        let (tag, definitions) = group.split_once(':').unwrap_or(("", ""));
        let part = PartOfSpeech::from_tag(tag);
        definitions
            .split('|')
            .filter(|d| !d.is_empty())
            .filter_map(move |definition| {
                Some(Sense {
                    part: part?,
                    definition,
                })
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny meanings file in the real format.
    fn tiny() -> Meanings {
        let text = "L\tbox\tn:a container|a theatre seat\tv:put into a box\n\
                    L\tmouse\tn:a small rodent\n\
                    L\tquick\ta:fast\n\
                    L\trun\tn:a score in baseball\tv:move fast on foot\n\
                    L\trunning\tn:the act of running\n\
                    X\tn\tmice\tmouse\n\
                    X\tv\tran\trun\n\
                    X\tv\trunning\trun\n";
        Meanings::from_text(text.to_owned()).unwrap()
    }

    fn lemmas(meanings: &Meanings, word: &str) -> Vec<String> {
        let entries = meanings.define(word);
        entries.iter().map(|e| e.lemma.to_owned()).collect()
    }

    #[test]
    fn suffix_rules_reach_the_lemma_by_each_part_of_speech() {
        let m = tiny();
        let entries = m.define("BOXES");
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].lemma, "box");
        let parts: Vec<_> = entries[0].senses.iter().map(|s| s.part).collect();
        assert_eq!(
            parts,
            [PartOfSpeech::Noun, PartOfSpeech::Noun, PartOfSpeech::Verb]
        );
        assert_eq!(lemmas(&m, "quickest"), ["quick"]);
    }

    #[test]
    fn exceptions_come_before_the_suffix_rules() {
        let m = tiny();
        assert_eq!(lemmas(&m, "mice"), ["mouse"]);
        assert_eq!(lemmas(&m, "RAN"), ["run"]);
    }

    #[test]
    fn a_word_keeps_only_the_senses_of_the_parts_that_reach_it() {
        let m = tiny();
        // RUNNING is a noun of its own and, by the verb exceptions, a form of
        // the verb RUN, not of the noun.
        let entries = m.define("running");
        assert_eq!(lemmas(&m, "running"), ["running", "run"]);
        assert_eq!(
            entries[1].senses,
            [Sense {
                part: PartOfSpeech::Verb,
                definition: "move fast on foot"
            }]
        );
    }

    #[test]
    fn a_word_without_an_entry_has_none() {
        let m = tiny();
        assert!(m.define("zzz").is_empty());
        assert!(m.define("").is_empty());
        assert!(m.define("s").is_empty());
    }

    #[test]
    fn malformed_lines_are_refused_with_their_number() {
        let err = Meanings::from_text("L\tbox\tn:a container\nY\tbad\n".to_owned()).unwrap_err();
        assert!(matches!(err, MeaningsError::Malformed { line: 2 }), "{err}");
        let err = Meanings::from_text("X\tq\tmice\tmouse\n".to_owned()).unwrap_err();
        assert!(matches!(err, MeaningsError::Malformed { line: 1 }), "{err}");
        assert!(matches!(
            Meanings::from_gzip(b"not gzip"),
            Err(MeaningsError::Unpack(_))
        ));
    }

    #[test]
    fn the_embedded_wordnet_defines_irregular_and_regular_forms() {
        let m = Meanings::embedded().unwrap();
        assert!(m.len() > 70_000, "{} lemmas", m.len());
        for (word, lemma) in [
            ("BOXES", "box"),
            ("RAN", "run"),
            ("MICE", "mouse"),
            ("GEESE", "goose"),
        ] {
            let found = lemmas(m, word);
            assert!(found.iter().any(|l| l == lemma), "{word}: {found:?}");
        }
        let box_senses = &m.define("box")[0].senses;
        assert_eq!(
            box_senses[0].definition,
            "a (usually rectangular) container; may have a lid"
        );
        assert!(m.define("QXZ").is_empty());
    }
}

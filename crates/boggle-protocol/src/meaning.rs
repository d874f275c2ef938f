//! What a word means, as the web side answers `GET /meaning?word=WORD` (one
//! word at a time, so the page never carries the dictionary): the word, and
//! for each WordNet lemma it reaches (BOXES reaches BOX) the senses of the
//! parts of speech that reach it. No entry is an empty `entries`, not an
//! error. Under `cfg(test)` each type derives ts-rs's `TS`, so the page's
//! declaration of the answer is generated as the messages' are.

use serde::{Deserialize, Serialize};

/// The answer to `GET /meaning?word=WORD`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Meaning {
    /// The word asked for, upper case.
    pub word: String,
    /// The lemmas it reaches, in WordNet's order; empty when WordNet has no entry.
    pub entries: Vec<MeaningEntry>,
}

/// One lemma a word reaches, with its senses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MeaningEntry {
    /// The lemma, lower case as WordNet writes it (`box` for BOXES).
    pub lemma: String,
    /// Its senses, by part of speech, the most frequent first.
    pub senses: Vec<Sense>,
}

/// One sense of a lemma.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Sense {
    /// Its part of speech.
    pub part: PartOfSpeech,
    /// WordNet's definition.
    pub definition: String,
}

/// A part of speech, as WordNet divides its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum PartOfSpeech {
    /// A noun.
    Noun,
    /// A verb.
    Verb,
    /// An adjective.
    Adjective,
    /// An adverb.
    Adverb,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_reads_as_the_page_expects() {
        let meaning = Meaning {
            word: "BOXES".into(),
            entries: vec![MeaningEntry {
                lemma: "box".into(),
                senses: vec![Sense {
                    part: PartOfSpeech::Verb,
                    definition: "put into a box".into(),
                }],
            }],
        };
        assert_eq!(
            serde_json::to_string(&meaning).unwrap(),
            r#"{"word":"BOXES","entries":[{"lemma":"box","senses":[{"part":"verb","definition":"put into a box"}]}]}"#
        );
    }
}

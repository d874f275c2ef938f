//! `GET /meaning?word=WORD`: what one word means, as JSON
//! ([`boggle_protocol::meaning::Meaning`], whose declaration the page is
//! checked against), from the WordNet definitions built into the binary
//! ([`boggle_meaning`]). One word a request, so the page never loads
//! the dictionary; a word without an entry is an answer with no entries.
//!
//! Limits: the word is 1 to [`MAX_WORD`] letters A to Z (any case), given
//! once; anything else is a 400 saying so. The first request unpacks the
//! definitions (a few megabytes, once per process) off the async threads;
//! each lookup after that is a binary search.

use axum::http::{StatusCode, Uri};
use axum::response::Response;

use super::with_headers;
use boggle_meaning::{self as wordnet, Meanings};
use boggle_protocol::MAX_WORD;
use boggle_protocol::meaning::{Meaning, MeaningEntry, PartOfSpeech, Sense};

/// `GET /meaning?word=WORD`.
pub(super) async fn meaning_handler(uri: Uri) -> Response {
    let text = |status, body: String| with_headers(status, "text/plain; charset=utf-8", body);
    let word = match word_asked(uri.query()) {
        Ok(word) => word,
        Err(why) => return text(StatusCode::BAD_REQUEST, format!("{why}\n")),
    };
    let looked_up = tokio::task::spawn_blocking(move || {
        Meanings::embedded()
            .map(|meanings| meaning_of(meanings, &word))
            .map_err(|e| e.to_string())
    })
    .await;
    match looked_up {
        Ok(Ok(meaning)) => match serde_json::to_string(&meaning) {
            Ok(body) => with_headers(StatusCode::OK, "application/json", body),
            Err(e) => unavailable(&e.to_string()),
        },
        Ok(Err(e)) => unavailable(&e),
        Err(e) => unavailable(&e.to_string()),
    }
}

/// The server cannot answer (a broken build's definitions): said once in the log.
fn unavailable(why: &str) -> Response {
    tracing::warn!("meanings cannot be read: {why}");
    with_headers(
        StatusCode::SERVICE_UNAVAILABLE,
        "text/plain; charset=utf-8",
        "meanings cannot be looked up now\n".into(),
    )
}

/// The word of a query string `word=WORD`, upper case, or why it is refused.
pub(super) fn word_asked(query: Option<&str>) -> Result<String, &'static str> {
    let mut words = query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .filter_map(|pair| pair.strip_prefix("word="));
    let (Some(word), None) = (words.next(), words.next()) else {
        return Err("ask for one word: /meaning?word=WORD");
    };
    if word.is_empty() || word.len() > MAX_WORD || !word.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err("a word is 1 to 64 letters A to Z");
    }
    Ok(word.to_ascii_uppercase())
}

/// What WordNet says of `word`, as the page reads it.
pub(super) fn meaning_of(meanings: &Meanings, word: &str) -> Meaning {
    let entries = meanings
        .define(word)
        .into_iter()
        .map(|entry| MeaningEntry {
            lemma: entry.lemma.to_string(),
            senses: entry
                .senses
                .iter()
                .map(|sense| Sense {
                    part: match sense.part {
                        wordnet::PartOfSpeech::Noun => PartOfSpeech::Noun,
                        wordnet::PartOfSpeech::Verb => PartOfSpeech::Verb,
                        wordnet::PartOfSpeech::Adjective => PartOfSpeech::Adjective,
                        wordnet::PartOfSpeech::Adverb => PartOfSpeech::Adverb,
                    },
                    definition: sense.definition.to_string(),
                })
                .collect(),
        })
        .collect();
    Meaning {
        word: word.to_ascii_uppercase(),
        entries,
    }
}

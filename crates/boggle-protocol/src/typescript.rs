//! The page's view of the protocol, generated from these types (a test, so
//! nothing of it is built into the server or a client). The browser page
//! (`boggle-net`'s `src/web/js/`) is checked by the TypeScript compiler
//! against two generated files there:
//!
//! - `messages.d.ts`: every message and record as ts-rs declares it from the
//!   serde attributes (so from the wire format), and the web side's answer
//!   to `GET /meaning`, types only, never served;
//! - `protocol.js`: the values the page needs at run time: the version, the
//!   caps on names and words, and for every error code whether it is fatal
//!   ([`ErrorCode::is_fatal`]), as a record the compiler checks is complete.
//!
//! [`the_page_protocol_is_what_the_types_generate`] fails when a checked-in
//! file differs from what the types generate; `make web-protocol`
//! (`BOGGLE_REGENERATE=1` on this test) writes them. A message or error
//! code added here then reaches the page's declarations, where the page's
//! exhaustive `switch`es make it a type error until the page handles it.
//! Integers are declared `number` (`JSON.parse` gives a number): every
//! integer the protocol carries is far below 2^53.

use std::path::{Path, PathBuf};

use ts_rs::{Config, TS};

use crate::meaning::{Meaning, MeaningEntry, PartOfSpeech, Sense};
use crate::message::{
    ClientMsg, DailyStatus, DayScore, Duplicates, ErrorCode, FoundWord, LobbyPlayer, MAX_NAME,
    MAX_ROOM, MAX_WORD, Moves, PAST_DAYS, PlayerResult, ServerMsg, SharedWord, Solo, VERSION,
    WordPoints,
};

/// Where the page's modules are, beside the server that serves them.
fn page_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../boggle-net/src/web/js")
}

/// The first line of each generated file.
const GENERATED: &str = "Generated from crates/boggle-protocol (src/typescript.rs) by `make \
web-protocol`: do not edit.";

fn config() -> Config {
    Config::new().with_large_int("number")
}

/// One exported declaration, with the type's doc comment.
fn declare<T: TS>(cfg: &Config) -> String {
    let doc = T::docs()
        .map(|doc| format!("{}\n", doc.trim_end()))
        .unwrap_or_default();
    format!("{doc}export {}\n\n", T::decl(cfg))
}

/// `messages.d.ts`: the types, each before the types that use it.
fn messages() -> String {
    let cfg = config();
    let decls = [
        declare::<ErrorCode>(&cfg),
        declare::<Duplicates>(&cfg),
        declare::<Moves>(&cfg),
        declare::<Solo>(&cfg),
        declare::<ClientMsg>(&cfg),
        declare::<LobbyPlayer>(&cfg),
        declare::<WordPoints>(&cfg),
        declare::<FoundWord>(&cfg),
        declare::<PlayerResult>(&cfg),
        declare::<SharedWord>(&cfg),
        declare::<DailyStatus>(&cfg),
        declare::<DayScore>(&cfg),
        declare::<ServerMsg>(&cfg),
        declare::<PartOfSpeech>(&cfg),
        declare::<Sense>(&cfg),
        declare::<MeaningEntry>(&cfg),
        declare::<Meaning>(&cfg),
    ];
    // ts-rs ends each field's line with a space.
    let text: Vec<&str> = decls
        .iter()
        .flat_map(|d| d.lines())
        .map(str::trim_end)
        .collect();
    format!("// {GENERATED}\n\n{}\n", text.join("\n").trim_end())
}

/// Every error code as the wire spells it, from ts-rs's union of them.
fn error_codes() -> Vec<String> {
    ErrorCode::inline(&config())
        .split('|')
        .map(|code| code.trim().trim_matches('"').to_string())
        .collect()
}

/// Every code's `as_str` is the name the wire gives it, and `sent` lists
/// every code but `unknown`.
#[test]
fn each_error_codes_name_is_its_wire_name() {
    let mut sent = Vec::new();
    for name in error_codes() {
        let code: ErrorCode = serde_json::from_str(&format!("\"{name}\"")).expect("a code");
        assert_eq!(code.as_str(), name);
        if code != ErrorCode::Unknown {
            sent.push(code);
        }
    }
    assert_eq!(sent, ErrorCode::sent().collect::<Vec<_>>());
}

/// `protocol.js`: the values, typed by `messages.d.ts`.
fn values() -> String {
    let fatal: Vec<String> = error_codes()
        .iter()
        .map(|name| {
            let code: ErrorCode =
                serde_json::from_str(&format!("\"{name}\"")).expect("a code the type names");
            format!("  {name}: {},", code.is_fatal())
        })
        .collect();
    format!(
        "// {GENERATED}\n\
         /** @import {{ ErrorCode }} from \"./messages\" */\n\n\
         /** The protocol version this page speaks. */\n\
         export const VERSION = {VERSION};\n\
         /** The most characters a player name may have. */\n\
         export const MAX_NAME = {MAX_NAME};\n\
         /** The most characters a room name may have. */\n\
         export const MAX_ROOM = {MAX_ROOM};\n\
         /** The most letters a word may have. */\n\
         export const MAX_WORD = {MAX_WORD};\n\
         /** How many days' boards a solo game may play, today among them. */\n\
         export const PAST_DAYS = {PAST_DAYS};\n\
         /**\n \
         * For every error code, whether the server closes the connection after it.\n \
         * @type {{Readonly<Record<ErrorCode, boolean>>}}\n \
         */\n\
         export const FATAL = Object.freeze({{\n{}\n}});\n",
        fatal.join("\n")
    )
}

#[test]
#[expect(
    clippy::disallowed_methods,
    reason = "a test of the checked-in page files: it reads them, and writes them when asked"
)]
fn the_page_protocol_is_what_the_types_generate() {
    let regenerate = std::env::var_os("BOGGLE_REGENERATE").is_some();
    let mut stale = Vec::new();
    for (name, text) in [("messages.d.ts", messages()), ("protocol.js", values())] {
        let path = page_dir().join(name);
        if regenerate {
            std::fs::write(&path, &text).expect("the generated file is written");
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "{stale:?} differ from what the protocol's types generate: run `make web-protocol`"
    );
}

#[test]
fn every_error_code_is_listed_with_its_fatality() {
    let codes = error_codes();
    assert!(codes.len() >= 20, "{codes:?}");
    for (code, fatal) in [
        ("name_taken", true),
        ("bad_token", true),
        ("rate_limited", false),
        ("not_in_round", false),
        ("unknown", true),
    ] {
        assert!(values().contains(&format!("  {code}: {fatal},")), "{code}");
    }
}

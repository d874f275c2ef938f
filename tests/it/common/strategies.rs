//! The proptest pieces both property files use: how many cases a property
//! runs and bytes that look hostile. The integration tests reach it as
//! `common::strategies`; the binary's own properties
//! (`src/play/properties.rs`) include this file by path, as a crate's unit
//! tests cannot link the integration tests' crate. It holds only what both
//! use, so neither sees dead code.

use proptest::prelude::*;
use proptest::test_runner::Config;

/// `PROPTEST_CASES` if set, else `default` (chosen so the file runs in seconds in debug).
pub(crate) fn cases(default: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default);
    Config {
        cases,
        ..Config::default()
    }
}

/// Bytes that look like what a player or a file might send, mixed with noise.
pub(crate) fn hostile_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => prop::collection::vec(any::<u8>(), 0..8),
        3 => prop::sample::select(vec![
            &b"q"[..], b"Q", b"\n", b"\r\n", b" ", b"\t", b"\x0b", b"\0", b"\xef\xbb\xbf",
            b"\xff\xfe", b"\xc3\xa9", b"eat", b"TEA", b"beat", b"QUA", b"NIEHGTIBGUALRWGC",
            b"ABCDEFGHIJKLMNO1", "ÄÖÜÄÖÜÄÖÜÄÖÜÄÖÜÄ".as_bytes(), b"QUEATSBRONIXDELP",
        ])
        .prop_map(<[u8]>::to_vec),
        1 => (any::<u8>(), 0usize..3000).prop_map(|(b, n)| vec![b; n]),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

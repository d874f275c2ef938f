//! Fuzzes the tui's records file parser: any text is either refused or read
//! into records that write back out as text that reads back the same.
#![no_main]

use boggle_play::records::Records;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some(records) = Records::parse(&text) {
        let written = records.to_text();
        assert_eq!(Records::parse(&written), Some(records), "{written:?}");
    }
});

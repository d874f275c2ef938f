//! Fuzzes the prover's settings parser (`shard-I-of-N.params.json`): any
//! bytes are refused or give settings whose numbers are in bounds, so that
//! building their classes neither panics nor exhausts memory.
#![no_main]

use boggle_prove::shard::Params;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(params) = Params::parse(data) else {
        return;
    };
    assert!(params.shards >= 1, "{params:?}");
    assert!(params.rows >= 1 && params.cols >= 1, "{params:?}");
    if let Ok(classes) = params.shape_classes() {
        assert!(classes.total() >= 1);
    }
});

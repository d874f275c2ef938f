//! Fuzzes the check of a shard's records (`shard-I-of-N.ndjson`) for a
//! 2x2 proof in one shard: any bytes are refused with a reason or read as records that
//! belong to the proof, each board of the right size, scored as claimed.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use boggle_engine::SearchRules;
use boggle_engine::search::Searcher;
use boggle_engine::trie::Trie;
use boggle_game::GameBoard;
use boggle_prove::Settings;
use boggle_prove::classes::{Buckets, Classes, Group};
use boggle_prove::shard::{Checker, ShardRecords};
use libfuzzer_sys::fuzz_target;

const WORDS: [&str; 8] = ["ate", "eat", "sea", "tea", "seat", "east", "quest", "quae"];

struct Proof {
    trie: Trie,
    settings: Settings,
    classes: Classes,
    groups: Vec<Group>,
}

fn proof() -> &'static Proof {
    static PROOF: OnceLock<Proof> = OnceLock::new();
    PROOF.get_or_init(|| {
        let trie = Trie::from_words(WORDS);
        let buckets = Buckets::parse("a e st bcdfghijklmnopqruvwxyz").expect("valid buckets");
        let settings = Settings::new(SearchRules::standard(2, 2), buckets, 4).expect("2x2");
        let classes = settings.classes();
        let groups = classes.groups();
        Proof {
            trie,
            settings,
            classes,
            groups,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let p = proof();
    let mut checker = Checker::new(&p.trie, &p.settings, &p.classes, &p.groups, 1);
    let shard = 0;
    let Ok(read) = ShardRecords::read(data, shard, &mut checker, Path::new("fuzz.ndjson")) else {
        return;
    };
    let mut searcher = Searcher::new(&p.trie, p.settings.rules());
    for record in read.records() {
        assert_eq!(checker.owner(record.class), Some(shard));
        for board in &record.boards {
            let rules = p.settings.rules();
            let grid = GameBoard::from_letters(&board.board, rules.rows, rules.cols, rules.q)
                .expect("a checked board has the proof's size");
            assert_eq!(searcher.score(&grid), board.score, "{}", board.board);
        }
    }
});

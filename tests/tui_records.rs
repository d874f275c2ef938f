//! The full-screen game's records file survives a kill at any moment of a
//! save and a corrupt file. The writer is this test binary run again as a
//! child process (`writer_child` with an environment variable), saving
//! records in a loop until it is killed.

mod common;

use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

use boggle::tui::records::{RecordKey, Records};
use common::TempDir;

/// Set in the child: the records file to save to, over and over.
const CHILD_ENV: &str = "BOGGLE_TEST_RECORDS_WRITER";

fn key(n: usize) -> RecordKey {
    RecordKey {
        preset: "project4".into(),
        size: "4x4".into(),
        dictionary: format!("words-{n}.txt"),
        time: "3:00".into(),
    }
}

/// Not a test on its own: the child process's body when `CHILD_ENV` is set.
#[test]
fn writer_child() {
    let Some(path) = std::env::var_os(CHILD_ENV) else {
        return;
    };
    let path = Path::new(&path);
    let mut records = Records::load(path).records;
    loop {
        // Many keys make each save long enough for a kill to land inside it.
        for n in 0..2000 {
            records.add_game(key(n), 1);
        }
        records.save(path).expect("saves");
    }
}

fn spawn_writer(path: &Path) -> Child {
    Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "writer_child",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(CHILD_ENV, path)
        .spawn()
        .expect("the writer starts")
}

#[test]
fn records_survive_a_kill_while_writing() {
    let dir = TempDir::new("records-kill");
    let path = dir.path().join("records.tsv");
    let mut games_before = 0;
    for delay_ms in [0, 3, 7, 20, 45, 90] {
        let mut child = spawn_writer(&path);
        // Wait until this child has saved at least once, then kill it at an arbitrary moment.
        while Records::load(&path)
            .records
            .get(&key(0))
            .map_or(0, |r| r.played)
            <= games_before
        {
            // A writer that died on its own would leave this loop waiting forever.
            if let Some(status) = child.try_wait().expect("polls the writer") {
                panic!("the writer stopped by itself: {status}");
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_millis(delay_ms));
        child.kill().expect("kills the writer");
        child.wait().expect("reaps the writer");
        let loaded = Records::load(&path);
        assert!(loaded.warning.is_none(), "{:?}", loaded.warning);
        let games = loaded.records.get(&key(0)).expect("recorded").played;
        assert!(games > games_before, "records never go back");
        let other = loaded.records.get(&key(1999)).expect("every key").played;
        assert_eq!(other, games, "a save is all or nothing");
        games_before = games;
    }
}

#[test]
fn a_corrupt_records_file_is_set_aside_and_the_game_goes_on() {
    let dir = TempDir::new("records-corrupt");
    let path = dir.write(
        "records.tsv",
        "boggle records 1\nproject4\t4x4\tdefault\n\u{0}\u{0}",
    );
    let loaded = Records::load(&path);
    let warning = loaded.warning.expect("a warning");
    assert!(
        warning.ends_with("records.tsv.corrupt and started afresh"),
        "{warning}"
    );
    assert_eq!(loaded.records, Records::default());
    let mut records = loaded.records;
    records.add_game(key(7), 12);
    records
        .save(&path)
        .expect("saves over the corrupt file's place");
    let text = std::fs::read_to_string(&path).expect("reads");
    assert_eq!(
        text,
        "boggle records 1\nproject4\t4x4\twords-7.txt\t3:00\t1\t12\n"
    );
    assert!(dir.path().join("records.tsv.corrupt").exists());
}

//! The full-screen game's records file loses no game and is never
//! overwritten unseen: two processes saving at once both count, a kill at any
//! moment of a save leaves whole records, a corrupt file is kept aside, and a
//! FIFO, a device, a huge file or a planted link cannot hang the game or
//! redirect its writes.
//!
//! The writers are this test binary run again as child processes: a test
//! whose environment names a child role plays that role and returns; without
//! it, the same test is the parent and makes the real assertions, so no test
//! passes by doing nothing.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::play::records::{self, RecordKey, Records, RecordsError};
use crate::play::testing::TempDir;

/// Set in a child: the records file it saves to.
const CHILD_PATH: &str = "BOGGLE_TEST_RECORDS_WRITER";

fn key(n: usize) -> RecordKey {
    RecordKey {
        preset: "project4".into(),
        size: "4x4".into(),
        dictionary: format!("words-{n}.txt"),
        time: "3:00".into(),
    }
}

/// The records file this process is a child writer for, if it is one.
fn child_path() -> Option<PathBuf> {
    std::env::var_os(CHILD_PATH).map(PathBuf::from)
}

/// Runs this test binary's test `name` alone in a child process writing to `path`.
fn spawn_child(name: &str, path: &Path) -> Child {
    // The harness names a test by its path below the crate's root.
    let module = module_path!()
        .split_once("::")
        .map_or("", |(_, below)| below);
    Command::new(std::env::current_exe().expect("test binary"))
        .args(["--exact", &format!("{module}::{name}")])
        .args(["--nocapture", "--test-threads", "1"])
        .env(CHILD_PATH, path)
        // The harness's chatter would mix into the parent's; a panic still shows on stderr.
        .stdout(Stdio::null())
        .spawn()
        .expect("the writer starts")
}

fn games(path: &Path, n: usize) -> u64 {
    let loaded = Records::load(path).expect("the records load");
    assert!(loaded.warning.is_none(), "{:?}", loaded.warning);
    loaded.records.get(&key(n)).map_or(0, |r| r.played)
}

#[test]
fn two_processes_saving_at_once_count_every_game() {
    if let Some(path) = child_path() {
        for _ in 0..500 {
            Records::update(&path, |records| records.add_game(key(0), 1)).expect("saves");
        }
        return;
    }
    let dir = TempDir::new("records-two");
    let path = dir.path().join("records.tsv");
    let name = "two_processes_saving_at_once_count_every_game";
    let writers = [spawn_child(name, &path), spawn_child(name, &path)];
    for mut writer in writers {
        assert!(writer.wait().expect("reaps a writer").success());
    }
    assert_eq!(games(&path, 0), 1000, "2 writers x 500 games");
}

#[test]
#[expect(
    clippy::disallowed_methods,
    reason = "the pause is the point: the writer is killed at a moment the test chooses"
)]
fn records_survive_a_kill_while_writing() {
    if let Some(path) = child_path() {
        loop {
            // Many keys make each save long enough for a kill to land inside it.
            Records::update(&path, |records| {
                for n in 0..2000 {
                    records.add_game(key(n), 1);
                }
            })
            .expect("saves");
        }
    }
    let dir = TempDir::new("records-kill");
    let path = dir.path().join("records.tsv");
    let mut games_before = 0;
    for delay_ms in [0, 3, 7, 20, 45, 90] {
        let mut child = spawn_child("records_survive_a_kill_while_writing", &path);
        // Wait until this child has saved at least once, then kill it at an arbitrary moment.
        while games(&path, 0) <= games_before {
            // A writer that died on its own would leave this loop waiting forever.
            if let Some(status) = child.try_wait().expect("polls the writer") {
                panic!("the writer stopped by itself: {status}");
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_millis(delay_ms));
        child.kill().expect("kills the writer");
        child.wait().expect("reaps the writer");
        let played = games(&path, 0);
        assert!(played > games_before, "records never go back");
        assert_eq!(games(&path, 1999), played, "a save is all or nothing");
        games_before = played;
    }
    // The next save clears whatever temporary files the kills left.
    Records::update(&path, |records| records.add_game(key(0), 1)).expect("saves");
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("lists")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    assert_eq!(names, ["records.tsv", "records.tsv.lock"]);
}

#[test]
fn a_corrupt_records_file_is_set_aside_and_the_game_goes_on() {
    let dir = TempDir::new("records-corrupt");
    let path = dir.write(
        "records.tsv",
        "boggle records 1\nproject4\t4x4\tdefault\n\u{0}\u{0}",
    );
    let updated = Records::update(&path, |records| records.add_game(key(7), 12))
        .expect("saves over the corrupt file's place");
    let warning = updated.warning.expect("a warning");
    assert!(
        warning.ends_with("records.tsv.corrupt and started afresh"),
        "{warning}"
    );
    let text = std::fs::read_to_string(&path).expect("reads");
    assert_eq!(
        text,
        "boggle records 1\nproject4\t4x4\twords-7.txt\t3:00\t1\t12\n"
    );
    assert!(dir.path().join("records.tsv.corrupt").exists());
    // A second corrupt file gets a backup of its own.
    std::fs::write(&path, "junk").expect("writes");
    let updated = Records::update(&path, |_| ()).expect("saves");
    let warning = updated.warning.expect("a warning");
    assert!(warning.ends_with("records.tsv.corrupt.2 and started afresh"));
    let first = std::fs::read_to_string(dir.path().join("records.tsv.corrupt")).expect("kept");
    assert!(first.starts_with("boggle records 1\nproject4\t4x4\tdefault\n"));
}

#[test]
fn files_keyed_by_a_bare_dictionary_name_keep_loading() {
    let dir = TempDir::new("records-old");
    let old = "boggle records 1\nproject4\t4x4\tdefault\t3:00\t290\t41\n";
    let path = dir.write("records.tsv", old);
    let new_key = RecordKey {
        dictionary: records::dictionary_label("built-in", 0xfeed),
        ..key(0)
    };
    let updated = Records::update(&path, |records| records.add_game(new_key, 9)).expect("saves");
    assert!(updated.warning.is_none(), "an old file is not corrupt");
    let text = std::fs::read_to_string(&path).expect("reads");
    assert_eq!(
        text,
        "boggle records 1\nproject4\t4x4\tbuilt-in@000000000000feed\t3:00\t1\t9\n\
         project4\t4x4\tdefault\t3:00\t290\t41\n"
    );
}

/// Runs `save` on another thread; a watchdog (not a timing measure) turns a
/// save that blocks forever into a failure instead of a hung suite.
fn finishes<T: Send + 'static>(save: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(save());
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the save returns instead of blocking")
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_at_the_path_is_left_alone_without_hanging() {
    let dir = TempDir::new("records-special");
    let fifo = dir.path().join("records.tsv");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let path = fifo.clone();
    let result = finishes(move || Records::update(&path, |records| records.add_game(key(0), 1)));
    assert!(
        matches!(result, Err(RecordsError::NotAFile { .. })),
        "{result:?}"
    );
    let kind = std::fs::symlink_metadata(&fifo)
        .expect("still there")
        .file_type();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&kind));

    let device = dir.path().join("device.tsv");
    std::os::unix::fs::symlink("/dev/null", &device).expect("links");
    let path = device.clone();
    let result = finishes(move || Records::update(&path, |records| records.add_game(key(0), 1)));
    assert!(
        matches!(result, Err(RecordsError::NotAFile { .. })),
        "{result:?}"
    );
    let link = std::fs::read_link(&device).expect("the link is not replaced");
    assert_eq!(link, Path::new("/dev/null"));
}

#[test]
fn a_file_over_the_cap_is_set_aside_not_read_whole() {
    let dir = TempDir::new("records-huge");
    let path = dir.path().join("records.tsv");
    // Valid records, just far more than any player makes: past the cap they are not read.
    let mut text = String::from("boggle records 1\n");
    for n in 0..40_000 {
        text.push_str(&format!("project4\t4x4\twords-{n}.txt\t3:00\t1\t1\n"));
    }
    assert!(text.len() as u64 > records::MAX_FILE_BYTES);
    std::fs::write(&path, &text).expect("writes");
    let updated = Records::update(&path, |records| records.add_game(key(0), 5)).expect("saves");
    assert!(updated.warning.is_some());
    let aside = std::fs::read_to_string(dir.path().join("records.tsv.corrupt")).expect("kept");
    assert_eq!(aside, text);
    assert_eq!(games(&path, 0), 1);
}

#[cfg(unix)]
#[test]
fn a_link_planted_at_a_temporary_name_is_never_written_through() {
    let dir = TempDir::new("records-link");
    let victim = dir.write("victim", "precious");
    let path = dir.path().join("records.tsv");
    // The name the old saver used for this process, and a guess at a random one.
    for name in [
        format!("records.tsv.tmp{}", std::process::id()),
        "records.tsv.tmpAAAAAA".to_string(),
    ] {
        std::os::unix::fs::symlink(&victim, dir.path().join(name)).expect("links");
    }
    Records::update(&path, |records| records.add_game(key(0), 1)).expect("saves");
    assert_eq!(std::fs::read_to_string(&victim).expect("reads"), "precious");
    assert_eq!(games(&path, 0), 1);
}

/// A lock another process holds for good is waited on for
/// a few seconds, not for ever: the save fails saying why, and the records
/// are untouched.
#[test]
fn a_lock_held_elsewhere_is_waited_on_for_a_time_limit_only() {
    let dir = TempDir::new("records-held");
    let path = dir.path().join("records.tsv");
    Records::update(&path, |r| r.add_game(key(1), 10)).expect("a first save");
    let lock = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.path().join("records.tsv.lock"))
        .expect("the lock file is there");
    let mut held = fd_lock::RwLock::new(lock);
    let _guard = held.write().expect("held by the test");
    let (done, waited) = mpsc::channel();
    let saver = path.clone();
    std::thread::spawn(move || {
        let _ = done.send(Records::update(&saver, |r| r.add_game(key(2), 20)).is_err());
    });
    let failed = waited
        .recv_timeout(Duration::from_secs(20))
        .expect("the save gives up within its time limit");
    assert!(failed, "the save is refused while the lock is held");
}

/// A records file that is a symbolic link stays one after
/// a save; what it points to is updated.
#[cfg(unix)]
#[test]
fn a_records_file_that_is_a_link_stays_a_link() {
    let dir = TempDir::new("records-link");
    let target = dir.path().join("kept-elsewhere.tsv");
    let link = dir.path().join("records.tsv");
    std::os::unix::fs::symlink(&target, &link).expect("a link");
    Records::update(&link, |r| r.add_game(key(1), 10)).expect("saved");
    Records::update(&link, |r| r.add_game(key(2), 20)).expect("saved again");
    let meta = std::fs::symlink_metadata(&link).expect("there");
    assert!(meta.file_type().is_symlink(), "still a link");
    let text = std::fs::read_to_string(&target).expect("the target holds the records");
    assert!(
        text.contains("words-1.txt") && text.contains("words-2.txt"),
        "{text}"
    );
}

//! Every error of the program, one value of each variant, as a table per
//! type: the value and the one line the user sees of it (after `boggle: `),
//! with the exit status for the program's own errors. One runner ([`run`])
//! holds each row to its line and to the rule the reporter
//! ([`super::chain`]) relies on: a message never repeats its `source()`,
//! and the line says nothing twice.
//!
//! Each table names its type's variants through a `match` ([`variants!`]):
//! a new variant does not build until it is named there, and the runner
//! fails until the table has a row of it. The wrappers are then checked
//! around every value of what they wrap. Limits: a row shows one value of
//! a variant, not every value its fields can take.

use std::collections::HashSet;
use std::error::Error as StdError;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

use super::{CliError, UsageError, chain};
use crate::play::board_file::{BoardFileError, BoardProblem, BoardSyntaxError, Dimension};
use crate::play::modes::bench::Totals;
use crate::play::records::RecordsError;
use crate::tui::terminal::TerminalError;
use boggle_best::SpaceError;
use boggle_best::hunt::HuntError;
use boggle_client::join::JoinError;
use boggle_client::link::{Dropped, LinkError};
use boggle_client::seat::SeatError;
use boggle_engine::cpu::Simd;
use boggle_engine::search::Exhausted;
use boggle_files::FileError;
use boggle_game::dice::DiceSet;
use boggle_game::dictionary::DictionaryError;
use boggle_game::game_board::BoardError;
use boggle_game::rules::{Preset, RulesError};
use boggle_meaning::MeaningsError;
use boggle_protocol::{ErrorCode, ProtocolError};
use boggle_prove::classes::BucketError;
use boggle_prove::{BadBoard, BadMarker, BadParams, BadRecord, Estimate, ProveError, ThreadsError};

/// Which variant an error is, by name, and the names of all of them
/// ([`variants!`]): the `match` behind it names every variant, so a new
/// one does not build until it is named here, and [`run`] then fails
/// until its table has a row of it.
struct Variants<E: 'static> {
    name: fn(&E) -> &'static str,
    all: &'static [&'static str],
}

/// [`Variants`] of the enum `$e`, every variant of it named.
macro_rules! variants {
    ($e:ident: $($v:ident),+ $(,)?) => {
        Variants::<$e> {
            name: |e| match e {
                $($e::$v { .. } => stringify!($v),)+
            },
            all: &[$(stringify!($v)),+],
        }
    };
}

/// One error type's cases: each a value and the one line the user sees
/// of it (after `boggle: `), every variant in at least one.
type Table<E> = (Variants<E>, Vec<(E, &'static str)>);

/// The program's own errors' cases: a value, its exit status and its line.
type CliTable = (Variants<CliError>, Vec<(CliError, u8, &'static str)>);

/// The one runner: holds every row of `table` to its line and to the rule
/// ([`check`]), and finds a row of every variant; how many rows there were.
#[track_caller]
fn run<E: StdError + 'static>((variants, rows): Table<E>) -> usize {
    for (e, line) in &rows {
        assert_eq!(chain(e), *line, "{e:?}");
        check(e);
    }
    let seen: HashSet<&str> = rows.iter().map(|(e, _)| (variants.name)(e)).collect();
    for name in variants.all {
        assert!(seen.contains(name), "no row of {name}");
    }
    rows.len()
}

/// [`run`] for the program's own errors, their exit status too.
fn run_cli((variants, rows): CliTable) -> usize {
    let mut lines = Vec::new();
    for (e, code, line) in rows {
        assert_eq!(e.exit_code(), code, "{e:?}");
        lines.push((e, line));
    }
    run((variants, lines))
}

/// The values of a table's rows, for the wrappers around them.
fn values<E>((_, rows): Table<E>) -> impl Iterator<Item = E> {
    rows.into_iter().map(|(e, _)| e)
}

/// `e` and every cause under it, outermost first.
fn causes<'a>(e: &'a (dyn StdError + 'static)) -> Vec<&'a (dyn StdError + 'static)> {
    let mut all = vec![e];
    let mut next = e.source();
    while let Some(cause) = next {
        all.push(cause);
        next = cause.source();
    }
    all
}

/// Holds `e` and every cause under it to the rule, and its reported line
/// too: the line is each layer's message once, in order, joined by ": ".
fn check(e: &(dyn StdError + 'static)) {
    let errors = causes(e);
    let layers: Vec<String> = errors.iter().map(ToString::to_string).collect();
    for (e, text) in errors.iter().zip(&layers) {
        assert!(!text.is_empty(), "{e:?} says nothing");
        if let Some(source) = e.source() {
            let cause = source.to_string();
            assert!(
                !text.contains(&cause),
                "{e:?}: {text:?} repeats its source {cause:?}"
            );
        }
    }
    let line = chain(e);
    assert_eq!(line, layers.join(": "));
    let distinct: HashSet<&String> = layers.iter().collect();
    assert_eq!(distinct.len(), layers.len(), "a segment twice: {line}");
    for text in &layers {
        assert_eq!(
            line.matches(text.as_str()).count(),
            1,
            "{text:?} twice in {line:?}"
        );
    }
}

/// [`check`]s each error, returning how many there were.
fn check_all<E: StdError + 'static>(errors: impl IntoIterator<Item = E>) -> usize {
    errors.into_iter().map(|e| check(&e)).count()
}

/// What the operating system says in these tests: a text no message holds.
fn os() -> io::Error {
    io::Error::other("the disk is on fire")
}

fn json() -> serde_json::Error {
    match serde_json::from_str::<u32>("x") {
        Ok(_) => unreachable!("x is not a number"),
        Err(e) => e,
    }
}

/// rayon's error for a pool whose threads cannot be spawned.
fn rayon_error() -> rayon::ThreadPoolBuildError {
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .spawn_handler(|_| Err(io::Error::other("no threads today")))
        .build();
    match built {
        Ok(_) => unreachable!("the spawn handler fails"),
        Err(e) => e,
    }
}

fn estimate() -> Estimate {
    Estimate::new(5, 5, u64::MAX, 8)
}

fn path(name: &str) -> PathBuf {
    PathBuf::from(name)
}

#[rustfmt::skip]
fn dictionary() -> Table<DictionaryError> {
    let path = || path("w.txt");
    let variants = variants!(DictionaryError: Io, NotAFile, TooLarge, NoWords, TooManyLetters);
    (variants, vec![
        (DictionaryError::Io { path: path(), source: os() },
            "cannot read dictionary w.txt: the disk is on fire"),
        (DictionaryError::NotAFile { path: path() },
            "w.txt is not a regular file (a FIFO, a device or a directory is not read as the word list)"),
        (DictionaryError::TooLarge { path: path() },
            "dictionary w.txt is larger than 64 MiB (a word list is a few MB)"),
        (DictionaryError::NoWords { path: path() },
            "dictionary w.txt holds no words (one word of letters A-Z per line)"),
        (DictionaryError::TooManyLetters { path: path() },
            "dictionary w.txt holds more than 16 million letters (a word list holds a few)"),
    ])
}

#[rustfmt::skip]
fn board() -> Table<BoardError> {
    let variants = variants!(BoardError: WrongLength, NotALetter, BadSize);
    (variants, vec![
        (BoardError::WrongLength { expected: 16, got: 4 },
            "a board needs exactly 16 letters, got 4"),
        (BoardError::NotALetter { index: 2, found: "7".into() },
            "\"7\" at position 3 is not a letter"),
        (BoardError::BadSize { rows: 0, cols: 4 }, "a 0x4 board is not allowed (1 to 4096 cells)"),
    ])
}

#[rustfmt::skip]
fn rules() -> Table<RulesError> {
    let variants = variants!(RulesError: BadSize, DiceDoNotFit, ZeroMinLength, MaxBelowMin);
    (variants, vec![
        (RulesError::BadSize { rows: 0, cols: 3 }, "a 0x3 board is not possible (1 to 4096 cells)"),
        (RulesError::DiceDoNotFit { dice: DiceSet::Big, rows: 4, cols: 4 },
            "the big dice do not fit a 4x4 board (they fill 25 cells)"),
        (RulesError::ZeroMinLength, "the minimum word length must be at least 1"),
        (RulesError::MaxBelowMin { min: 4, max: 3 },
            "the maximum word length (3) is below the minimum (4)"),
    ])
}

#[rustfmt::skip]
fn game() -> Table<boggle_game::Error> {
    use boggle_game::Error as E;
    let variants = variants!(E: Dictionary, Board, Search, Stopped, NoBoard, Input, Output);
    (variants, vec![
        (E::Dictionary(DictionaryError::NoWords { path: path("w.txt") }),
            "dictionary w.txt holds no words (one word of letters A-Z per line)"),
        (E::Board(BoardError::BadSize { rows: 0, cols: 4 }),
            "a 0x4 board is not allowed (1 to 4096 cells)"),
        (E::Search(Exhausted),
            "the board's search passed its limit of 50000000 steps (no real board comes near it: is the board or the word list made up?)"),
        (E::Stopped, "stopped by a signal"),
        (E::NoBoard { min_points: 500, rolls: 10_000 },
            "no board of 10000 random boards was worth 500 points or more (ask for fewer with --min-points)"),
        (E::Input(os()), "cannot read the input: the disk is on fire"),
        (E::Output(os()), "cannot write the output: the disk is on fire"),
    ])
}

#[rustfmt::skip]
fn protocol() -> Table<ProtocolError> {
    let variants = variants!(ProtocolError: TooLong, NotUtf8, BadMessage, Version);
    (variants, vec![
        (ProtocolError::TooLong, "message longer than 4096 bytes"),
        (ProtocolError::NotUtf8, "message is not UTF-8"),
        (ProtocolError::BadMessage("expected value at line 1 column 1".into()),
            "not a message of this protocol: expected value at line 1 column 1"),
        (ProtocolError::Version(2),
            "this server speaks boggle protocol version 1 and the client speaks version 2: use a boggle of the same version as the server"),
    ])
}

#[rustfmt::skip]
fn bucket() -> Table<BucketError> {
    let variants = variants!(BucketError: NotALetter, Repeated, Missing, Shape);
    (variants, vec![
        (BucketError::NotALetter { group: "a1".into() }, "bucket 'a1' is not letters a-z"),
        (BucketError::Repeated { letter: 'e' }, "letter e is in two buckets"),
        (BucketError::Missing { letter: 'q' }, "letter q is in no bucket"),
        (BucketError::Shape, "buckets are groups of letters, with corner groups after a '/'"),
    ])
}

#[rustfmt::skip]
fn bad_board() -> Table<BadBoard> {
    let board = || "ABCD".to_string();
    let variants = variants!(BadBoard: Letters, NotInClass, NotCanonical, Twice, Score,
        UnderTarget, AboveBound);
    (variants, vec![
        (BadBoard::Letters { cells: 16 },
            "not 16 cells of letters A to Z (QU for a Q under Qu rules)"),
        (BadBoard::NotInClass { board: board() },
            "ABCD is not in the line's class (no rotation or reflection of it is)"),
        (BadBoard::NotCanonical { board: "DCBA".into(), canonical: board() },
            "DCBA is not the form of itself that sorts first (ABCD)"),
        (BadBoard::Twice { board: board() }, "ABCD is in the record twice"),
        (BadBoard::Score { board: board(), claimed: 10, actual: 9 }, "ABCD scores 9, not 10"),
        (BadBoard::UnderTarget { board: board(), score: 3, above: 4 },
            "ABCD 3 is under the target 4"),
        (BadBoard::AboveBound { board: board(), score: 9, bound: 8 },
            "ABCD scores 9, above its class's bound 8"),
    ])
}

#[rustfmt::skip]
fn bad_record() -> Table<BadRecord> {
    let variants = variants!(BadRecord: Json, TooLong, NotAClass, OtherShard, Conflict, Cpu,
        Board);
    (variants, vec![
        (BadRecord::Json(json()), "not a record: expected value at line 1 column 1"),
        (BadRecord::TooLong { limit: 4096 }, "longer than any record (4 KiB)"),
        (BadRecord::NotAClass { class: 7 }, "class 7 is not one of this proof's classes"),
        (BadRecord::OtherShard { class: 7, owner: 1 }, "class 7 belongs to shard 1, not this one"),
        (BadRecord::Conflict { class: 7, first: 2 },
            "class 7 is on line 2 too, with another bound or other boards"),
        (BadRecord::Cpu, "its cpu is not a number of seconds"),
        (BadRecord::Board { index: 1, reason: BadBoard::Letters { cells: 16 } },
            "board 1: not 16 cells of letters A to Z (QU for a Q under Qu rules)"),
    ])
}

#[rustfmt::skip]
fn bad_params() -> Table<BadParams> {
    let variants = variants!(BadParams: Json, Field, Size, Buckets, TooLarge, Classes, Shards,
        Name, Rules);
    (variants, vec![
        (BadParams::Json(json()), "not a shard's settings: expected value at line 1 column 1"),
        (BadParams::Field { field: "rows", must: "1 to 5" }, "\"rows\" must be 1 to 5"),
        (BadParams::Size { rows: 9, cols: 9 },
            "a 9x9 board: boggle prove handles at most 16 cells"),
        (BadParams::Buckets(BucketError::Shape),
            "\"buckets\": buckets are groups of letters, with corner groups after a '/'"),
        (BadParams::TooLarge(estimate()),
            "the buckets make more than 18 billion billion classes of 5x5 boards (about 2,305,843,009,213,693,952 up to symmetry), whose table would take about 16 EiB and years to build; boggle prove takes at most 1,073,741,824 classes before symmetry and 4 GiB of table"),
        (BadParams::Classes { claimed: 1, actual: 2 },
            "\"classes\" says 1, but the settings make 2"),
        (BadParams::Shards { count: 9, groups: 2 },
            "\"shards\" says 9, more than the proof's 2 groups"),
        (BadParams::Name { named: 2, recorded: 3 },
            "the file's name says 2 shards, its \"shards\" 3"),
        (BadParams::Rules { name: "chess".into(), why: "no such rules" },
            "rules chess: no such rules"),
    ])
}

#[rustfmt::skip]
fn bad_marker() -> Table<BadMarker> {
    let variants = variants!(BadMarker: Json, Differs, Missing);
    (variants, vec![
        (BadMarker::Json(json()), "not a completion marker: expected value at line 1 column 1"),
        (BadMarker::Differs { marker: (1, 2, "ab".into()), records: (3, 4, "cd".into()) },
            "the marker says 1 classes, 2 boards, digest ab; the records hold 3 classes, 4 boards, digest cd: they changed after the shard finished"),
        (BadMarker::Missing { have: 1, owned: 2 },
            "the marker says the shard is done, but only 1 of its 2 classes have a record"),
    ])
}

#[rustfmt::skip]
fn threads() -> Table<ThreadsError> {
    let variants = variants!(ThreadsError: Pool, Writing);
    (variants, vec![
        (ThreadsError::Pool(rayon_error()), "cannot start them: no threads today"),
        (ThreadsError::Writing, "a worker failed while writing"),
    ])
}

#[rustfmt::skip]
fn prove() -> Table<ProveError> {
    use ProveError as E;
    let shard = || path("out/shard-0-of-2.ndjson");
    let params = || path("out/shard-0-of-2.params.json");
    let variants = variants!(E: Buckets, Size, Shard, TooManyShards, TooLarge, Io, NotAFile,
        TooBig, Locked, NoShards, NoSettings, Record, Params, Mismatch, SameShard, Marker,
        WrongWords, UnreadableWords, WordsNotAFile, Recheck, Threads, Encode, Dictionary);
    (variants, vec![
        (E::Buckets(BucketError::Shape),
            "bad --buckets: buckets are groups of letters, with corner groups after a '/'"),
        (E::Size { rows: 9, cols: 9 }, "boggle prove handles boards of at most 16 cells, not 9x9"),
        (E::Shard { given: "3/2".into() }, "--shard 3/2 is not I/N with 0 <= I < N"),
        (E::TooManyShards { count: 9, groups: 2 },
            "--shard .../9: the proof has 2 groups of classes and a shard proves whole groups, so at most 2 shards"),
        (E::TooLarge(estimate()),
            "the buckets make more than 18 billion billion classes of 5x5 boards (about 2,305,843,009,213,693,952 up to symmetry), whose table would take about 16 EiB and years to build; boggle prove takes at most 1,073,741,824 classes before symmetry and 4 GiB of table"),
        (E::Io { path: shard(), source: os() },
            "cannot read or write out/shard-0-of-2.ndjson: the disk is on fire"),
        (E::NotAFile { path: shard() },
            "out/shard-0-of-2.ndjson: not a regular file (a shard's files are never FIFOs, devices or directories)"),
        (E::TooBig { path: shard(), limit: 1 << 20 },
            "out/shard-0-of-2.ndjson: larger than 1 MiB (more than this kind of file holds)"),
        (E::Locked { path: shard() },
            "out/shard-0-of-2.ndjson: another run of this shard holds its lock (two runs of one shard must not write its file together; wait for it or stop it)"),
        (E::NoShards { dir: path("out") }, "out: no shard files here"),
        (E::NoSettings { records: shard(), settings: params() },
            "out/shard-0-of-2.params.json is missing while out/shard-0-of-2.ndjson holds records: resuming cannot check them, and starting over would discard them; put the settings file back, or run without --resume to start the shard afresh"),
        (E::Record { path: shard(), line: 3, reason: BadRecord::Cpu },
            "out/shard-0-of-2.ndjson:3: its cpu is not a number of seconds"),
        (E::Params { path: params(), reason: BadParams::Size { rows: 9, cols: 9 } },
            "out/shard-0-of-2.params.json: a 9x9 board: boggle prove handles at most 16 cells"),
        (E::Mismatch { first: params(), second: Some(path("other/shard-1-of-2.params.json")), fields: vec!["rows", "buckets"] },
            "out/shard-0-of-2.params.json and other/shard-1-of-2.params.json: the two shards were run with other settings (rows, buckets differ)"),
        (E::SameShard { first: params(), second: path("again/shard-0-of-2.params.json") },
            "out/shard-0-of-2.params.json and again/shard-0-of-2.params.json: the same shard twice"),
        (E::Marker { path: path("out/shard-0-of-2.done.json"), reason: BadMarker::Missing { have: 1, owned: 2 } },
            "out/shard-0-of-2.done.json: the marker says the shard is done, but only 1 of its 2 classes have a record"),
        (E::WrongWords { path: params(), given: (10, "ab".into()), expected: (11, "cd".into()) },
            "out/shard-0-of-2.params.json: the proof was made with another word list (11 words, hash cd; this one has 10 words, hash ab): give the proof's with --dict"),
        (E::UnreadableWords { params: params(), named: path("/words/yawl.txt"), source: os() },
            "out/shard-0-of-2.params.json: cannot read the word list it names, /words/yawl.txt (give the proof's word list with --dict): the disk is on fire"),
        (E::WordsNotAFile { params: params(), named: path("/words") },
            "out/shard-0-of-2.params.json: the word list it names, /words, is not a regular file; give the proof's word list with --dict"),
        (E::Recheck { path: shard(), line: 4, class: 7, claimed: (1, 2), found: (3, 4) },
            "out/shard-0-of-2.ndjson:4: class 7 proved again gives bound 3 and 4 boards, but the line says bound 1 and 2 boards: the records are wrong, nothing is proved"),
        (E::Threads(ThreadsError::Writing),
            "the worker threads failed: a worker failed while writing"),
        (E::Encode(json()), "cannot encode a record: expected value at line 1 column 1"),
        (E::Dictionary { nodes: 1 << 25 },
            "the dictionary is too large to prove with (33554432 trie nodes, at most 16777216)"),
    ])
}

#[rustfmt::skip]
fn space() -> Table<SpaceError> {
    let variants = variants!(SpaceError: DiceDoNotFill, FacelessDie);
    (variants, vec![
        (SpaceError::DiceDoNotFill { dice: 16, rows: 5, cols: 5 },
            "16 dice do not fill a 5x5 board"),
        (SpaceError::FacelessDie, "a die has no faces"),
    ])
}

#[rustfmt::skip]
fn problem() -> Table<BoardProblem> {
    use BoardProblem as P;
    let variants = variants!(P: MissingDimension, BadDimension, TooLarge, TooManyCells,
        TooFewCells, NotACell, Board);
    (variants, vec![
        (P::MissingDimension(Dimension::Rows), "missing the number of rows"),
        (P::BadDimension { dimension: Dimension::Columns, found: "x".into() },
            "the number of columns must be a positive whole number, not \"x\""),
        (P::TooLarge { rows: 999, cols: 999 }, "a 999x999 board is too large (at most 4096 cells)"),
        (P::TooManyCells { rows: 2, cols: 2 }, "more than the 4 cells of a 2x2 board"),
        (P::TooFewCells { found: 3, rows: 2, cols: 2 }, "only 3 of the 4 cells of a 2x2 board"),
        (P::NotACell { found: "7".into() }, "\"7\" is not a board cell (a letter, or Qu)"),
        (P::Board(BoardError::BadSize { rows: 0, cols: 2 }),
            "a 0x2 board is not allowed (1 to 4096 cells)"),
    ])
}

#[rustfmt::skip]
fn board_file() -> Table<BoardFileError> {
    use BoardFileError as E;
    let path = || path("boards.txt");
    let variants = variants!(E: Open, Read, TooLarge, LineTooLong, NotText, Malformed);
    (variants, vec![
        (E::Open { path: path(), source: os() }, "cannot open boards.txt: the disk is on fire"),
        (E::Read { path: PathBuf::from("-"), source: os() },
            "cannot read standard input: the disk is on fire"),
        (E::TooLarge { path: path(), limit: 1 << 20 },
            "boards.txt is larger than 1 MiB, the most boggle reads as boards"),
        (E::LineTooLong { path: path(), line: 2 },
            "boards.txt:2: a line longer than 64 KiB (the largest board has 4096 cells)"),
        (E::NotText { path: path(), line: 3 }, "boards.txt:3: not UTF-8 text"),
        (E::Malformed { path: path(), line: 4, problem: BoardProblem::NotACell { found: "7".into() } },
            "boards.txt:4: \"7\" is not a board cell (a letter, or Qu)"),
    ])
}

#[rustfmt::skip]
fn terminal() -> Table<TerminalError> {
    let variants = variants!(TerminalError: Io, Signalled, HungUp);
    (variants, vec![
        (TerminalError::Io(os()), "cannot draw on the terminal: the disk is on fire"),
        (TerminalError::Signalled, "stopped by a signal; the terminal is restored"),
        (TerminalError::HungUp, "the terminal went away"),
    ])
}

#[rustfmt::skip]
fn records() -> Table<RecordsError> {
    use RecordsError as E;
    let file = || path("/home/p/.local/share/boggle/records.tsv");
    let variants = variants!(E: NoFileName, Lock, NotAFile, Read, SetAside, NoBackupLeft, Write);
    (variants, vec![
        (E::NoFileName { path: path("/") }, "the records path / names no file"),
        (E::Lock { path: path("/home/p/.local/share/boggle/records.tsv.lock"), source: os() },
            "cannot lock the records with /home/p/.local/share/boggle/records.tsv.lock: the disk is on fire"),
        (E::NotAFile { path: file() },
            "/home/p/.local/share/boggle/records.tsv is not a regular file (left as it is)"),
        (E::Read { path: file(), source: os() },
            "cannot read the records in /home/p/.local/share/boggle/records.tsv (left as it is): the disk is on fire"),
        (E::SetAside { path: file(), source: os() },
            "the records in /home/p/.local/share/boggle/records.tsv are corrupt and could not be moved aside (left as they are): the disk is on fire"),
        (E::NoBackupLeft { path: file() },
            "the records in /home/p/.local/share/boggle/records.tsv are corrupt and 1000 corrupt backups are already there (left as they are)"),
        (E::Write { path: file(), source: os() },
            "cannot save the records to /home/p/.local/share/boggle/records.tsv: the disk is on fire"),
    ])
}

#[rustfmt::skip]
fn dropped() -> Table<Dropped> {
    let variants = variants!(Dropped: Connect, ConnectTimedOut, Closed, Silent, Io);
    (variants, vec![
        (Dropped::Connect(os()), "cannot connect to the server: the disk is on fire"),
        (Dropped::ConnectTimedOut, "connecting took too long"),
        (Dropped::Closed, "the server closed the connection"),
        (Dropped::Silent(Duration::from_secs(10)), "the server did not answer within 10 s"),
        (Dropped::Io(os()), "the disk is on fire"),
    ])
}

#[rustfmt::skip]
fn link() -> Table<LinkError> {
    let variants = variants!(LinkError: Dropped, TooLong, BadMessage, NoWelcome, NotRejoined,
        Closed);
    (variants, vec![
        (LinkError::Dropped(Dropped::Closed), "the server closed the connection"),
        (LinkError::TooLong, "a message from the server is too long"),
        (LinkError::BadMessage(ProtocolError::NotUtf8),
            "bad message from the server: message is not UTF-8"),
        (LinkError::NoWelcome(Duration::from_secs(10)), "the server did not answer within 10 s"),
        (LinkError::NotRejoined { why: Dropped::Closed, within: Duration::from_secs(30), last: Some(Dropped::Connect(os())) },
            "lost the connection to the server (the server closed the connection) and could not rejoin within 30 s: cannot connect to the server: the disk is on fire"),
        (LinkError::Closed, "the connection to the server is closed"),
    ])
}

#[rustfmt::skip]
fn join() -> Table<JoinError> {
    let variants = variants!(JoinError: Link, Refused, Closed, Replaced, SeatInUse, Input, Output);
    (variants, vec![
        (JoinError::Link(LinkError::TooLong), "a message from the server is too long"),
        (JoinError::Refused { code: ErrorCode::RoomFull, message: "the room is full".into() },
            "the server refused: the room is full"),
        (JoinError::Closed { reason: "the server is shutting down".into() },
            "the server closed: the server is shutting down"),
        (JoinError::Replaced,
            "another connection took this seat with its token (a boggle join elsewhere, or a browser): this one stops and does not rejoin"),
        (JoinError::SeatInUse(SeatError::InUse { path: path("seats/ann@main@h%3A1.lock") }),
            "this seat is in use by another boggle join on this machine (it holds seats/ann@main@h%3A1.lock)"),
        (JoinError::Input(os()), "cannot read the input: the disk is on fire"),
        (JoinError::Output(os()), "cannot write the output: the disk is on fire"),
    ])
}

#[rustfmt::skip]
fn usage() -> Table<UsageError> {
    use UsageError as E;
    let variants = variants!(E: NotAWord, Rules, NeedsDictionary, NeedsLevels, Ece209Seed, NoBoard,
        Board, Search, Prove, NeedsFlag, TooSmall, MinAboveMax, Seconds, NotWithRules, Label,
        Simd);
    (variants, vec![
        (E::NotAWord { shown: "b0x".into(), max: 64 },
            "'b0x' is not a word: letters A to Z only (é as e), at most 64"),
        (E::Rules(RulesError::ZeroMinLength),
            "impossible rules: the minimum word length must be at least 1"),
        (E::NeedsDictionary { mode: "versus", preset: Preset::Ece209 },
            "versus needs rules with a dictionary (ece209 scores any string on the board); play them with 'boggle --rules ece209'"),
        (E::NeedsLevels { word_list: "words.txt".into() },
            "--words common and --level need a word list with commonness levels, and words.txt has none (the player list of every preset but project4 has them)"),
        (E::Ece209Seed { seed: 70_000 },
            "--seed 70000 is too large: ece209 seeds go from 0 to 65535 (its random numbers come from a 16-bit register)"),
        (E::NoBoard, "give a board file (or - for standard input), or --board LETTERS"),
        (E::Board { rows: 4, cols: 4, source: BoardError::WrongLength { expected: 16, got: 4 } },
            "--board does not spell a 4x4 board: a board needs exactly 16 letters, got 4"),
        (E::Search(SpaceError::FacelessDie), "a die has no faces"),
        (E::Prove(ProveError::Shard { given: "3/2".into() }),
            "--shard 3/2 is not I/N with 0 <= I < N"),
        (E::NeedsFlag { mode: "join", flag: "--name NAME" }, "boggle join needs --name NAME"),
        (E::TooSmall { flags: "--rounds", least: "1" }, "--rounds must be at least 1"),
        (E::MinAboveMax { min: "--min-players", max: "--max-players" },
            "--min-players is more than --max-players"),
        (E::Seconds { seconds: f64::NAN }, "--time NaN is not a number of seconds"),
        (E::NotWithRules { flag: "--dict", preset: Preset::Ece209, why: "it scores any string" },
            "--dict does not apply to --rules ece209: it scores any string"),
        (E::Label { flag: "--name", reason: "a name has 1 to 20 characters".into() },
            "--name: a name has 1 to 20 characters"),
        (E::Simd(boggle_engine::cpu::Lacks { asked: Simd::Avx512, present: vec![Simd::Avx2, Simd::None] }),
            "--simd avx512: this processor lacks AVX-512 (F, BW, VL and VPOPCNTDQ); it has avx2, none"),
    ])
}

#[rustfmt::skip]
fn cli() -> CliTable {
    use CliError as E;
    let addr = || "127.0.0.1:1".to_string();
    let variants = variants!(E: Usage, Game, BoardFile, WorkerFailed, Prove, Unfinished,
        Incomplete, PassesDisagree, Threads, NoTerminal, Terminal, SecretFile, Runtime, Listen,
        ListenWeb, Results, NoDataDir, Server, Serving, Daily, Join, Hunt, Meanings);
    (variants, vec![
        (E::Usage(UsageError::NoBoard), 2,
            "give a board file (or - for standard input), or --board LETTERS"),
        (E::Game(boggle_game::Error::Stopped), 1, "stopped by a signal"),
        (E::BoardFile(BoardFileError::NotText { path: path("boards.txt"), line: 1 }), 1,
            "boards.txt:1: not UTF-8 text"),
        (E::WorkerFailed { work: "the search" }, 1, "the search stopped unexpectedly"),
        (E::Prove(ProveError::Locked { path: path("out/shard-0-of-2.ndjson") }), 1,
            "out/shard-0-of-2.ndjson: another run of this shard holds its lock (two runs of one shard must not write its file together; wait for it or stop it)"),
        (E::Unfinished { done: 1, total: 2, resumable: true }, 1,
            "stopped after 1 of 2 classes: nothing is proved (--resume continues)"),
        (E::Incomplete, 1, "the proof is not complete"),
        (E::PassesDisagree { first: Totals::default(), then: Totals { boards: 1, ..Totals::default() } }, 1,
            "bench passes disagree: Totals { boards: 0, words: 0, score: 0, exhausted: 0 } then Totals { boards: 1, words: 0, score: 0, exhausted: 0 }"),
        (E::Threads(rayon_error()), 1,
            "cannot start the search's worker threads: no threads today"),
        (E::NoTerminal, 1,
            "the tui needs a terminal on standard input and output; pipe words into 'boggle' for the console game"),
        (E::Terminal(TerminalError::HungUp), 1, "the terminal went away"),
        (E::SecretFile { flag: "--password-file", path: path("/nonexistent"), source: os() }, 1,
            "cannot read --password-file /nonexistent: the disk is on fire"),
        (E::Runtime(os()), 1, "cannot start the network runtime: the disk is on fire"),
        (E::Listen { addr: addr(), source: os() }, 1,
            "cannot listen on 127.0.0.1:1: the disk is on fire"),
        (E::ListenWeb { addr: "127.0.0.1:2".into(), source: os() }, 1,
            "cannot serve the web page on 127.0.0.1:2: the disk is on fire"),
        (E::Results(boggle_net::StoreError::NotADatabase { path: path("data/daily.sqlite") }), 1,
            "cannot keep the day's results: data/daily.sqlite: not a results database (move it away or choose another --data)"),
        (E::NoDataDir, 1,
            "no data directory for the day's results: set --data DIR (or XDG_DATA_HOME or HOME)"),
        (E::Server(os()), 1, "the server failed: the disk is on fire"),
        (E::Serving(boggle_net::ServerError::ResultsUnwritten(3)), 1,
            "the server failed: 3 daily results could not be written to the results file before the server stopped (each is in the log with its content)"),
        (E::Daily(boggle_game::daily::DateError::Malformed("1999-13-01".into(), )), 1,
            "no board for today: '1999-13-01' is not a date (write YYYY-MM-DD, e.g. 2026-03-14)"),
        (E::Join { addr: addr(), source: JoinError::Closed { reason: "the server is shutting down".into() } }, 1,
            "127.0.0.1:1: the server closed: the server is shutting down"),
        (E::Hunt(HuntError::Locked { path: path("hunt/hunt-0.lock") }), 1,
            "hunt/hunt-0.lock: another process runs this task (a task index runs once at a time)"),
        (E::Meanings(Box::leak(Box::new(MeaningsError::Malformed { line: 3 }))), 1,
            "cannot read the built-in meanings: line 3 of the meanings file is malformed"),
    ])
}

#[rustfmt::skip]
fn meanings() -> Table<MeaningsError> {
    let variants = variants!(MeaningsError: Unpack, Malformed);
    (variants, vec![
        (MeaningsError::Unpack(io::Error::new(io::ErrorKind::InvalidData, "bad gzip header", )),
            "the meanings file is not a readable gzip stream: bad gzip header"),
        (MeaningsError::Malformed { line: 3 }, "line 3 of the meanings file is malformed"),
    ])
}

#[rustfmt::skip]
fn hunt() -> Table<HuntError> {
    let path = || path("hunt/hunt-0.state");
    let variants = variants!(HuntError: Io, Corrupt, Mismatch, Locked, File, OtherSettings,
        Exhausted);
    (variants, vec![
        (HuntError::Io { path: path(), source: os() }, "hunt/hunt-0.state: the disk is on fire"),
        (HuntError::Corrupt { path: path(), reason: "line 2: not a board".into() },
            "hunt/hunt-0.state: line 2: not a board"),
        (HuntError::Mismatch { path: path(), what: "threshold", recorded: "3000".into(), given: "3500".into() },
            "hunt/hunt-0.state: this hunt's threshold is 3000, not 3500 (use another directory)"),
        (HuntError::Locked { path: path() },
            "hunt/hunt-0.state: another process runs this task (a task index runs once at a time)"),
        (HuntError::File(FileError::TooLarge { path: path(), limit: 65536, what: "a hunt's state" }),
            "hunt/hunt-0.state is larger than 65536 bytes, more than a hunt's state can be: refused"),
        (HuntError::OtherSettings { path: path(), recorded: "classic 5x5 3+ letters".into(), given: "classic 4x4 3+ letters".into() },
            "hunt/hunt-0.state: hunted under classic 5x5 3+ letters, not classic 4x4 3+ letters: merge it with the rules, size and word list it was hunted with"),
        (HuntError::Exhausted { path: path(), what: "rounds" },
            "hunt/hunt-0.state: the count of rounds is at its largest (18446744073709551615): the task cannot go on"),
    ])
}

#[rustfmt::skip]
fn file() -> Table<FileError> {
    let path = || path("hunt/hunt-0.results");
    let variants = variants!(FileError: Io, NotAFile, TooLarge);
    (variants, vec![
        (FileError::Io { path: path(), source: os() }, "hunt/hunt-0.results: the disk is on fire"),
        (FileError::NotAFile { path: path(), what: "a FIFO" },
            "hunt/hunt-0.results is a FIFO, not a regular file: refused"),
        (FileError::TooLarge { path: path(), limit: 4096, what: "a seat's token" },
            "hunt/hunt-0.results is larger than 4096 bytes, more than a seat's token can be: refused"),
    ])
}

#[rustfmt::skip]
fn seat() -> Table<SeatError> {
    let variants = variants!(SeatError: InUse, File);
    (variants, vec![
        (SeatError::InUse { path: path("seats/ann@main@h%3A1.lock") },
            "this seat is in use by another boggle join on this machine (it holds seats/ann@main@h%3A1.lock)"),
        (SeatError::File(FileError::Io { path: path("seats/ann@main@h%3A1"), source: os() }),
            "seats/ann@main@h%3A1: the disk is on fire"),
    ])
}

/// Every error of every type says its one line, and no message repeats its
/// source nor any line a thing twice.
#[test]
fn every_error_says_its_one_line_and_nothing_twice() {
    assert_eq!(
        chain(&Exhausted),
        "the board's search passed its limit of 50000000 steps (no real board comes near it: is the board or the word list made up?)"
    );
    check(&Exhausted);
    let checked = [
        run(dictionary()),
        run(board()),
        run(rules()),
        run(game()),
        run(protocol()),
        run(bucket()),
        run(bad_board()),
        run(bad_record()),
        run(bad_params()),
        run(bad_marker()),
        run(threads()),
        run(prove()),
        run(space()),
        run(problem()),
        run(board_file()),
        run(terminal()),
        run(records()),
        run(dropped()),
        run(link()),
        run(join()),
        run(usage()),
        run(hunt()),
        run(file()),
        run(seat()),
        run(meanings()),
        run_cli(cli()),
    ];
    let variants: usize = checked.iter().sum();
    assert!(variants >= 150, "only {variants} variants checked");
}

#[test]
fn every_wrapper_holds_the_rule_around_every_value_it_wraps() {
    use boggle_game::Error as Game;
    check_all(values(dictionary()).map(Game::from).map(CliError::Game));
    check_all(values(board()).map(Game::from).map(CliError::Game));
    check_all(values(game()).map(CliError::Game));
    check_all(values(rules()).map(UsageError::from).map(CliError::Usage));
    check_all(values(board()).map(|source| UsageError::Board {
        rows: 4,
        cols: 4,
        source,
    }));
    check_all(values(space()).map(UsageError::Search));
    check_all(values(usage()).map(CliError::Usage));
    // Through the command line's From: each lands as a usage error or a runtime one.
    check_all(values(prove()).map(CliError::from));
    check_all(values(bucket()).map(ProveError::Buckets));
    check_all(values(bucket()).map(BadParams::Buckets));
    check_all(values(bad_board()).map(|reason| BadRecord::Board { index: 2, reason }));
    check_all(values(bad_record()).map(|reason| ProveError::Record {
        path: path("s.ndjson"),
        line: 1,
        reason,
    }));
    check_all(values(bad_params()).map(|reason| ProveError::Params {
        path: path("s.params.json"),
        reason,
    }));
    check_all(values(bad_marker()).map(|reason| ProveError::Marker {
        path: path("s.done.json"),
        reason,
    }));
    check_all(values(threads()).map(ProveError::Threads));
    check_all(values(problem()).map(|problem| BoardFileError::Malformed {
        path: path("boards.txt"),
        line: 2,
        problem,
    }));
    check_all(values(problem()).map(|problem| BoardSyntaxError { line: 2, problem }));
    check_all(values(board_file()).map(CliError::BoardFile));
    check_all(values(protocol()).map(LinkError::BadMessage));
    check_all(values(dropped()).map(LinkError::Dropped));
    check_all(values(dropped()).map(|last| LinkError::NotRejoined {
        why: Dropped::Io(io::Error::other("connection reset")),
        within: Duration::from_secs(30),
        last: Some(last),
    }));
    check_all(values(dropped()).map(|why| LinkError::NotRejoined {
        why,
        within: Duration::from_secs(30),
        last: None,
    }));
    check_all(values(terminal()).map(CliError::Terminal));
    let at = |source| CliError::Join {
        addr: "127.0.0.1:1".into(),
        source,
    };
    check_all(values(link()).map(JoinError::Link).map(at));
    check_all(values(join()).map(at));
    check_all(values(file()).map(HuntError::File).map(CliError::Hunt));
    check_all(
        values(file())
            .map(SeatError::File)
            .map(JoinError::SeatInUse)
            .map(at),
    );
}

/// The five errors that used to travel as an `io::Error` are variants of
/// their own, saying what happened, with the system's words after them
/// where there are any.
#[test]
fn the_former_io_errors_have_words_of_their_own() {
    let listen = CliError::Listen {
        addr: "127.0.0.1:7".into(),
        source: io::Error::from(io::ErrorKind::AddrInUse),
    };
    assert_eq!(
        chain(&listen),
        "cannot listen on 127.0.0.1:7: address in use"
    );
    let secret = CliError::SecretFile {
        flag: "--password-file",
        path: path("/nonexistent"),
        source: os(),
    };
    assert_eq!(
        chain(&secret),
        "cannot read --password-file /nonexistent: the disk is on fire"
    );
    let big = CliError::from(DictionaryError::TooLarge {
        path: path("big.txt"),
    });
    assert_eq!(
        chain(&big),
        "dictionary big.txt is larger than 64 MiB (a word list is a few MB)"
    );
    let records = RecordsError::NotAFile {
        path: path("/d/boggle/records.tsv"),
    };
    assert_eq!(
        chain(&records),
        "/d/boggle/records.tsv is not a regular file (left as it is)"
    );
    let hung_up = CliError::from(TerminalError::HungUp);
    assert_eq!(chain(&hung_up), "the terminal went away");
    // No one is left to read it: exit status 0, as for a closed pipe.
    assert!(hung_up.is_broken_pipe());
    let signalled = CliError::from(TerminalError::Signalled);
    assert!(!signalled.is_broken_pipe());
    assert_eq!(signalled.exit_code(), 1);
}

/// `--simd` naming a level the processor lacks is refused in one line,
/// exit status 2, naming what it has: through the function the modes call,
/// told that this processor lacks the level (every machine that runs the
/// tests may have them all). A level it has is set; `auto` sets nothing.
#[test]
fn a_simd_level_the_processor_lacks_is_refused_in_one_line() {
    use super::args::SimdArgs;
    use super::values::SimdArg;
    // A processor with the levels below `missing` only.
    let without = |missing: Simd| move |level: Simd| level < missing;
    let refused = SimdArgs {
        simd: SimdArg::Avx512,
    }
    .apply_with(without(Simd::Avx512), |_| panic!("set despite the refusal"))
    .expect_err("refused");
    let error = CliError::from(refused);
    assert_eq!(error.exit_code(), 2);
    assert_eq!(
        chain(&error),
        "--simd avx512: this processor lacks AVX-512 (F, BW, VL and VPOPCNTDQ); it has avx2, none"
    );
    let refused = SimdArgs {
        simd: SimdArg::Avx2,
    }
    .apply_with(without(Simd::Avx2), |_| panic!("set despite the refusal"))
    .expect_err("refused");
    assert_eq!(
        chain(&CliError::from(refused)),
        "--simd avx2: this processor lacks AVX2 (x86-64-v3); it has none"
    );
    let mut set = None;
    SimdArgs {
        simd: SimdArg::Avx2,
    }
    .apply_with(
        |_| true,
        |level| {
            set = Some(level);
            Ok(())
        },
    )
    .expect("a level it has");
    assert_eq!(set, Some(Simd::Avx2));
    SimdArgs {
        simd: SimdArg::Auto,
    }
    .apply_with(|_| false, |_| panic!("auto sets nothing"))
    .expect("auto is always taken");
}

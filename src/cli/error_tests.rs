//! Every error of the program, one value of each variant, held to the rule
//! the reporter ([`super::chain`]) relies on: a message never repeats its
//! `source()`, and the reported line says nothing twice.
//!
//! Each type's values come from a successor function whose `match` names
//! every variant: a new variant does not build until it has an arm here,
//! and its arm says which value comes next, so the walk reaches it. The
//! wrappers are then checked around every value of what they wrap.

use std::collections::HashSet;
use std::error::Error as StdError;
use std::io;
use std::mem::discriminant;
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

/// Every value `next` walks to, from `next(None)` until it gives `None`.
fn walk<E>(next: impl Fn(Option<&E>) -> Option<E>) -> Vec<E> {
    let mut all: Vec<E> = Vec::new();
    while let Some(e) = next(all.last()) {
        let new = all
            .iter()
            .all(|seen| discriminant(seen) != discriminant(&e));
        assert!(new, "a variant twice: the walk would loop");
        all.push(e);
    }
    all
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

fn dictionary(prev: Option<&DictionaryError>) -> Option<DictionaryError> {
    let path = path("w.txt");
    Some(match prev {
        None => DictionaryError::Io { path, source: os() },
        Some(DictionaryError::Io { .. }) => DictionaryError::NotAFile { path },
        Some(DictionaryError::NotAFile { .. }) => DictionaryError::TooLarge { path },
        Some(DictionaryError::TooLarge { .. }) => DictionaryError::NoWords { path },
        Some(DictionaryError::NoWords { .. }) => DictionaryError::TooManyLetters { path },
        Some(DictionaryError::TooManyLetters { .. }) => return None,
    })
}

fn board(prev: Option<&BoardError>) -> Option<BoardError> {
    Some(match prev {
        None => BoardError::WrongLength {
            expected: 16,
            got: 4,
        },
        Some(BoardError::WrongLength { .. }) => BoardError::NotALetter {
            index: 2,
            found: "7".into(),
        },
        Some(BoardError::NotALetter { .. }) => BoardError::BadSize { rows: 0, cols: 4 },
        Some(BoardError::BadSize { .. }) => return None,
    })
}

fn rules(prev: Option<&RulesError>) -> Option<RulesError> {
    Some(match prev {
        None => RulesError::BadSize { rows: 0, cols: 3 },
        Some(RulesError::BadSize { .. }) => RulesError::DiceDoNotFit {
            dice: DiceSet::Big,
            rows: 4,
            cols: 4,
        },
        Some(RulesError::DiceDoNotFit { .. }) => RulesError::ZeroMinLength,
        Some(RulesError::ZeroMinLength) => RulesError::MaxBelowMin { min: 4, max: 3 },
        Some(RulesError::MaxBelowMin { .. }) => return None,
    })
}

fn game(prev: Option<&boggle_game::Error>) -> Option<boggle_game::Error> {
    use boggle_game::Error as E;
    Some(match prev {
        None => E::Dictionary(DictionaryError::NoWords {
            path: path("w.txt"),
        }),
        Some(E::Dictionary(_)) => E::Board(BoardError::BadSize { rows: 0, cols: 4 }),
        Some(E::Board(_)) => E::Search(Exhausted),
        Some(E::Search(_)) => E::Stopped,
        Some(E::Stopped) => E::NoBoard {
            min_points: 500,
            rolls: 10_000,
        },
        Some(E::NoBoard { .. }) => E::Input(os()),
        Some(E::Input(_)) => E::Output(os()),
        Some(E::Output(_)) => return None,
    })
}

fn protocol(prev: Option<&ProtocolError>) -> Option<ProtocolError> {
    Some(match prev {
        None => ProtocolError::TooLong,
        Some(ProtocolError::TooLong) => ProtocolError::NotUtf8,
        Some(ProtocolError::NotUtf8) => {
            ProtocolError::BadMessage("expected value at line 1 column 1".into())
        }
        Some(ProtocolError::BadMessage(_)) => ProtocolError::Version(2),
        Some(ProtocolError::Version(_)) => return None,
    })
}

fn bucket(prev: Option<&BucketError>) -> Option<BucketError> {
    Some(match prev {
        None => BucketError::NotALetter { group: "a1".into() },
        Some(BucketError::NotALetter { .. }) => BucketError::Repeated { letter: 'e' },
        Some(BucketError::Repeated { .. }) => BucketError::Missing { letter: 'q' },
        Some(BucketError::Missing { .. }) => BucketError::Shape,
        Some(BucketError::Shape) => return None,
    })
}

fn bad_board(prev: Option<&BadBoard>) -> Option<BadBoard> {
    let board = || "ABCD".to_string();
    Some(match prev {
        None => BadBoard::Letters { cells: 16 },
        Some(BadBoard::Letters { .. }) => BadBoard::NotInClass { board: board() },
        Some(BadBoard::NotInClass { .. }) => BadBoard::NotCanonical {
            board: "DCBA".into(),
            canonical: board(),
        },
        Some(BadBoard::NotCanonical { .. }) => BadBoard::Twice { board: board() },
        Some(BadBoard::Twice { .. }) => BadBoard::Score {
            board: board(),
            claimed: 10,
            actual: 9,
        },
        Some(BadBoard::Score { .. }) => BadBoard::UnderTarget {
            board: board(),
            score: 3,
            above: 4,
        },
        Some(BadBoard::UnderTarget { .. }) => BadBoard::AboveBound {
            board: board(),
            score: 9,
            bound: 8,
        },
        Some(BadBoard::AboveBound { .. }) => return None,
    })
}

fn bad_record(prev: Option<&BadRecord>) -> Option<BadRecord> {
    Some(match prev {
        None => BadRecord::Json(json()),
        Some(BadRecord::Json(_)) => BadRecord::TooLong { limit: 4096 },
        Some(BadRecord::TooLong { .. }) => BadRecord::NotAClass { class: 7 },
        Some(BadRecord::NotAClass { .. }) => BadRecord::OtherShard { class: 7, owner: 1 },
        Some(BadRecord::OtherShard { .. }) => BadRecord::Conflict { class: 7, first: 2 },
        Some(BadRecord::Conflict { .. }) => BadRecord::Cpu,
        Some(BadRecord::Cpu) => BadRecord::Board {
            index: 1,
            reason: BadBoard::Letters { cells: 16 },
        },
        Some(BadRecord::Board { .. }) => return None,
    })
}

fn bad_params(prev: Option<&BadParams>) -> Option<BadParams> {
    Some(match prev {
        None => BadParams::Json(json()),
        Some(BadParams::Json(_)) => BadParams::Field {
            field: "rows",
            must: "1 to 5",
        },
        Some(BadParams::Field { .. }) => BadParams::Size { rows: 9, cols: 9 },
        Some(BadParams::Size { .. }) => BadParams::Buckets(BucketError::Shape),
        Some(BadParams::Buckets(_)) => BadParams::TooLarge(estimate()),
        Some(BadParams::TooLarge(_)) => BadParams::Classes {
            claimed: 1,
            actual: 2,
        },
        Some(BadParams::Classes { .. }) => BadParams::Shards {
            count: 9,
            groups: 2,
        },
        Some(BadParams::Shards { .. }) => BadParams::Name {
            named: 2,
            recorded: 3,
        },
        Some(BadParams::Name { .. }) => BadParams::Rules {
            name: "chess".into(),
            why: "no such rules",
        },
        Some(BadParams::Rules { .. }) => return None,
    })
}

fn bad_marker(prev: Option<&BadMarker>) -> Option<BadMarker> {
    Some(match prev {
        None => BadMarker::Json(json()),
        Some(BadMarker::Json(_)) => BadMarker::Differs {
            marker: (1, 2, "ab".into()),
            records: (3, 4, "cd".into()),
        },
        Some(BadMarker::Differs { .. }) => BadMarker::Missing { have: 1, owned: 2 },
        Some(BadMarker::Missing { .. }) => return None,
    })
}

fn threads(prev: Option<&ThreadsError>) -> Option<ThreadsError> {
    Some(match prev {
        None => ThreadsError::Pool(rayon_error()),
        Some(ThreadsError::Pool(_)) => ThreadsError::Writing,
        Some(ThreadsError::Writing) => return None,
    })
}

fn prove(prev: Option<&ProveError>) -> Option<ProveError> {
    use ProveError as E;
    let shard = || path("out/shard-0-of-2.ndjson");
    let params = || path("out/shard-0-of-2.params.json");
    Some(match prev {
        None => E::Buckets(BucketError::Shape),
        Some(E::Buckets(_)) => E::Size { rows: 9, cols: 9 },
        Some(E::Size { .. }) => E::Shard {
            given: "3/2".into(),
        },
        Some(E::Shard { .. }) => E::TooManyShards {
            count: 9,
            groups: 2,
        },
        Some(E::TooManyShards { .. }) => E::TooLarge(estimate()),
        Some(E::TooLarge(_)) => E::Io {
            path: shard(),
            source: os(),
        },
        Some(E::Io { .. }) => E::NotAFile { path: shard() },
        Some(E::NotAFile { .. }) => E::TooBig {
            path: shard(),
            limit: 1 << 20,
        },
        Some(E::TooBig { .. }) => E::Locked { path: shard() },
        Some(E::Locked { .. }) => E::NoShards { dir: path("out") },
        Some(E::NoShards { .. }) => E::NoSettings {
            records: shard(),
            settings: params(),
        },
        Some(E::NoSettings { .. }) => E::Record {
            path: shard(),
            line: 3,
            reason: BadRecord::Cpu,
        },
        Some(E::Record { .. }) => E::Params {
            path: params(),
            reason: BadParams::Size { rows: 9, cols: 9 },
        },
        Some(E::Params { .. }) => E::Mismatch {
            first: params(),
            second: Some(path("other/shard-1-of-2.params.json")),
            fields: vec!["rows", "buckets"],
        },
        Some(E::Mismatch { .. }) => E::SameShard {
            first: params(),
            second: path("again/shard-0-of-2.params.json"),
        },
        Some(E::SameShard { .. }) => E::Marker {
            path: path("out/shard-0-of-2.done.json"),
            reason: BadMarker::Missing { have: 1, owned: 2 },
        },
        Some(E::Marker { .. }) => E::WrongWords {
            path: params(),
            given: (10, "ab".into()),
            expected: (11, "cd".into()),
        },
        Some(E::WrongWords { .. }) => E::UnreadableWords {
            params: params(),
            named: path("/words/yawl.txt"),
            source: os(),
        },
        Some(E::UnreadableWords { .. }) => E::WordsNotAFile {
            params: params(),
            named: path("/words"),
        },
        Some(E::WordsNotAFile { .. }) => E::Recheck {
            path: shard(),
            line: 4,
            class: 7,
            claimed: (1, 2),
            found: (3, 4),
        },
        Some(E::Recheck { .. }) => E::Threads(ThreadsError::Writing),
        Some(E::Threads(_)) => E::Encode(json()),
        Some(E::Encode(_)) => E::Dictionary { nodes: 1 << 25 },
        Some(E::Dictionary { .. }) => return None,
    })
}

fn space(prev: Option<&SpaceError>) -> Option<SpaceError> {
    Some(match prev {
        None => SpaceError::DiceDoNotFill {
            dice: 16,
            rows: 5,
            cols: 5,
        },
        Some(SpaceError::DiceDoNotFill { .. }) => SpaceError::FacelessDie,
        Some(SpaceError::FacelessDie) => return None,
    })
}

fn problem(prev: Option<&BoardProblem>) -> Option<BoardProblem> {
    use BoardProblem as P;
    Some(match prev {
        None => P::MissingDimension(Dimension::Rows),
        Some(P::MissingDimension(_)) => P::BadDimension {
            dimension: Dimension::Columns,
            found: "x".into(),
        },
        Some(P::BadDimension { .. }) => P::TooLarge {
            rows: 999,
            cols: 999,
        },
        Some(P::TooLarge { .. }) => P::TooManyCells { rows: 2, cols: 2 },
        Some(P::TooManyCells { .. }) => P::TooFewCells {
            found: 3,
            rows: 2,
            cols: 2,
        },
        Some(P::TooFewCells { .. }) => P::NotACell { found: "7".into() },
        Some(P::NotACell { .. }) => P::Board(BoardError::BadSize { rows: 0, cols: 2 }),
        Some(P::Board(_)) => return None,
    })
}

fn board_file(prev: Option<&BoardFileError>) -> Option<BoardFileError> {
    use BoardFileError as E;
    let path = || path("boards.txt");
    Some(match prev {
        None => E::Open {
            path: path(),
            source: os(),
        },
        Some(E::Open { .. }) => E::Read {
            path: PathBuf::from("-"),
            source: os(),
        },
        Some(E::Read { .. }) => E::TooLarge {
            path: path(),
            limit: 1 << 20,
        },
        Some(E::TooLarge { .. }) => E::LineTooLong {
            path: path(),
            line: 2,
        },
        Some(E::LineTooLong { .. }) => E::NotText {
            path: path(),
            line: 3,
        },
        Some(E::NotText { .. }) => E::Malformed {
            path: path(),
            line: 4,
            problem: BoardProblem::NotACell { found: "7".into() },
        },
        Some(E::Malformed { .. }) => return None,
    })
}

fn terminal(prev: Option<&TerminalError>) -> Option<TerminalError> {
    Some(match prev {
        None => TerminalError::Io(os()),
        Some(TerminalError::Io(_)) => TerminalError::Signalled,
        Some(TerminalError::Signalled) => TerminalError::HungUp,
        Some(TerminalError::HungUp) => return None,
    })
}

fn records(prev: Option<&RecordsError>) -> Option<RecordsError> {
    use RecordsError as E;
    let file = || path("/home/p/.local/share/boggle/records.tsv");
    Some(match prev {
        None => E::NoFileName { path: path("/") },
        Some(E::NoFileName { .. }) => E::Lock {
            path: path("/home/p/.local/share/boggle/records.tsv.lock"),
            source: os(),
        },
        Some(E::Lock { .. }) => E::NotAFile { path: file() },
        Some(E::NotAFile { .. }) => E::Read {
            path: file(),
            source: os(),
        },
        Some(E::Read { .. }) => E::SetAside {
            path: file(),
            source: os(),
        },
        Some(E::SetAside { .. }) => E::NoBackupLeft { path: file() },
        Some(E::NoBackupLeft { .. }) => E::Write {
            path: file(),
            source: os(),
        },
        Some(E::Write { .. }) => return None,
    })
}

fn dropped(prev: Option<&Dropped>) -> Option<Dropped> {
    Some(match prev {
        None => Dropped::Connect(os()),
        Some(Dropped::Connect(_)) => Dropped::ConnectTimedOut,
        Some(Dropped::ConnectTimedOut) => Dropped::Closed,
        Some(Dropped::Closed) => Dropped::Silent(Duration::from_secs(10)),
        Some(Dropped::Silent(_)) => Dropped::Io(os()),
        Some(Dropped::Io(_)) => return None,
    })
}

fn link(prev: Option<&LinkError>) -> Option<LinkError> {
    Some(match prev {
        None => LinkError::Dropped(Dropped::Closed),
        Some(LinkError::Dropped(_)) => LinkError::TooLong,
        Some(LinkError::TooLong) => LinkError::BadMessage(ProtocolError::NotUtf8),
        Some(LinkError::BadMessage(_)) => LinkError::NoWelcome(Duration::from_secs(10)),
        Some(LinkError::NoWelcome(_)) => LinkError::NotRejoined {
            why: Dropped::Closed,
            within: Duration::from_secs(30),
            last: Some(Dropped::Connect(os())),
        },
        Some(LinkError::NotRejoined { .. }) => LinkError::Closed,
        Some(LinkError::Closed) => return None,
    })
}

fn join(prev: Option<&JoinError>) -> Option<JoinError> {
    Some(match prev {
        None => JoinError::Link(LinkError::TooLong),
        Some(JoinError::Link(_)) => JoinError::Refused {
            code: ErrorCode::RoomFull,
            message: "the room is full".into(),
        },
        Some(JoinError::Refused { .. }) => JoinError::Closed {
            reason: "the server is shutting down".into(),
        },
        Some(JoinError::Closed { .. }) => JoinError::Replaced,
        Some(JoinError::Replaced) => JoinError::SeatInUse(SeatError::InUse {
            path: path("seats/ann@main@h%3A1.lock"),
        }),
        Some(JoinError::SeatInUse(_)) => JoinError::Input(os()),
        Some(JoinError::Input(_)) => JoinError::Output(os()),
        Some(JoinError::Output(_)) => return None,
    })
}

fn usage(prev: Option<&UsageError>) -> Option<UsageError> {
    use UsageError as E;
    Some(match prev {
        None => E::NotAWord {
            shown: "b0x".into(),
            max: 64,
        },
        Some(E::NotAWord { .. }) => E::Rules(RulesError::ZeroMinLength),
        Some(E::Rules(_)) => E::NeedsDictionary {
            mode: "versus",
            preset: Preset::Ece209,
        },
        Some(E::NeedsDictionary { .. }) => E::NeedsLevels {
            word_list: "words.txt".into(),
        },
        Some(E::NeedsLevels { .. }) => E::Ece209Seed { seed: 70_000 },
        Some(E::Ece209Seed { .. }) => E::NoBoard,
        Some(E::NoBoard) => E::Board {
            rows: 4,
            cols: 4,
            source: BoardError::WrongLength {
                expected: 16,
                got: 4,
            },
        },
        Some(E::Board { .. }) => E::Search(SpaceError::FacelessDie),
        Some(E::Search(_)) => E::Prove(ProveError::Shard {
            given: "3/2".into(),
        }),
        Some(E::Prove(_)) => E::NeedsFlag {
            mode: "join",
            flag: "--name NAME",
        },
        Some(E::NeedsFlag { .. }) => E::TooSmall {
            flags: "--rounds",
            least: "1",
        },
        Some(E::TooSmall { .. }) => E::MinAboveMax {
            min: "--min-players",
            max: "--max-players",
        },
        Some(E::MinAboveMax { .. }) => E::Seconds { seconds: f64::NAN },
        Some(E::Seconds { .. }) => E::NotWithRules {
            flag: "--dict",
            preset: Preset::Ece209,
            why: "it scores any string",
        },
        Some(E::NotWithRules { .. }) => E::Label {
            flag: "--name",
            reason: "a name has 1 to 20 characters".into(),
        },
        Some(E::Label { .. }) => E::Simd(boggle_engine::cpu::Lacks {
            asked: Simd::Avx512,
            present: vec![Simd::Avx2, Simd::None],
        }),
        Some(E::Simd(_)) => return None,
    })
}

fn cli(prev: Option<&CliError>) -> Option<CliError> {
    use CliError as E;
    let addr = || "127.0.0.1:1".to_string();
    Some(match prev {
        None => E::Usage(UsageError::NoBoard),
        Some(E::Usage(_)) => E::Game(boggle_game::Error::Stopped),
        Some(E::Game(_)) => E::BoardFile(BoardFileError::NotText {
            path: path("boards.txt"),
            line: 1,
        }),
        Some(E::BoardFile(_)) => E::WorkerFailed { work: "the search" },
        Some(E::WorkerFailed { .. }) => E::Prove(ProveError::Locked {
            path: path("out/shard-0-of-2.ndjson"),
        }),
        Some(E::Prove(_)) => E::Unfinished {
            done: 1,
            total: 2,
            resumable: true,
        },
        Some(E::Unfinished { .. }) => E::Incomplete,
        Some(E::Incomplete) => E::PassesDisagree {
            first: Totals::default(),
            then: Totals {
                boards: 1,
                ..Totals::default()
            },
        },
        Some(E::PassesDisagree { .. }) => E::Threads(rayon_error()),
        Some(E::Threads(_)) => E::NoTerminal,
        Some(E::NoTerminal) => E::Terminal(TerminalError::HungUp),
        Some(E::Terminal(_)) => E::SecretFile {
            flag: "--password-file",
            path: path("/nonexistent"),
            source: os(),
        },
        Some(E::SecretFile { .. }) => E::Runtime(os()),
        Some(E::Runtime(_)) => E::Listen {
            addr: addr(),
            source: os(),
        },
        Some(E::Listen { .. }) => E::ListenWeb {
            addr: "127.0.0.1:2".into(),
            source: os(),
        },
        Some(E::ListenWeb { .. }) => {
            E::Results(boggle_net::leaderboard::StoreError::NotADatabase {
                path: path("data/daily.sqlite"),
            })
        }
        Some(E::Results(_)) => E::NoDataDir,
        Some(E::NoDataDir) => E::Server(os()),
        Some(E::Server(_)) => E::Serving(boggle_net::server::ServerError::ResultsUnwritten(3)),
        Some(E::Serving(_)) => E::Daily(boggle_game::daily::DateError::Malformed(
            "1999-13-01".into(),
        )),
        Some(E::Daily(_)) => E::Join {
            addr: addr(),
            source: JoinError::Closed {
                reason: "the server is shutting down".into(),
            },
        },
        Some(E::Join { .. }) => E::Hunt(HuntError::Locked {
            path: path("hunt/hunt-0.lock"),
        }),
        Some(E::Hunt(_)) => E::Meanings(Box::leak(Box::new(MeaningsError::Malformed { line: 3 }))),
        Some(E::Meanings(_)) => return None,
    })
}

fn meanings(prev: Option<&MeaningsError>) -> Option<MeaningsError> {
    Some(match prev {
        None => MeaningsError::Unpack(io::Error::new(
            io::ErrorKind::InvalidData,
            "bad gzip header",
        )),
        Some(MeaningsError::Unpack(_)) => MeaningsError::Malformed { line: 3 },
        Some(MeaningsError::Malformed { .. }) => return None,
    })
}

fn hunt(prev: Option<&HuntError>) -> Option<HuntError> {
    let path = || path("hunt/hunt-0.state");
    Some(match prev {
        None => HuntError::Io {
            path: path(),
            source: os(),
        },
        Some(HuntError::Io { .. }) => HuntError::Corrupt {
            path: path(),
            reason: "line 2: not a board".into(),
        },
        Some(HuntError::Corrupt { .. }) => HuntError::Mismatch {
            path: path(),
            what: "threshold",
            recorded: "3000".into(),
            given: "3500".into(),
        },
        Some(HuntError::Mismatch { .. }) => HuntError::Locked { path: path() },
        Some(HuntError::Locked { .. }) => HuntError::File(FileError::TooLarge {
            path: path(),
            limit: 65536,
            what: "a hunt's state",
        }),
        Some(HuntError::File(_)) => HuntError::OtherSettings {
            path: path(),
            recorded: "classic 5x5 3+ letters".into(),
            given: "classic 4x4 3+ letters".into(),
        },
        Some(HuntError::OtherSettings { .. }) => HuntError::Exhausted {
            path: path(),
            what: "rounds",
        },
        Some(HuntError::Exhausted { .. }) => return None,
    })
}

fn file(prev: Option<&FileError>) -> Option<FileError> {
    let path = || path("hunt/hunt-0.results");
    Some(match prev {
        None => FileError::Io {
            path: path(),
            source: os(),
        },
        Some(FileError::Io { .. }) => FileError::NotAFile {
            path: path(),
            what: "a FIFO",
        },
        Some(FileError::NotAFile { .. }) => FileError::TooLarge {
            path: path(),
            limit: 4096,
            what: "a seat's token",
        },
        Some(FileError::TooLarge { .. }) => return None,
    })
}

fn seat(prev: Option<&SeatError>) -> Option<SeatError> {
    Some(match prev {
        None => SeatError::InUse {
            path: path("seats/ann@main@h%3A1.lock"),
        },
        Some(SeatError::InUse { .. }) => SeatError::File(FileError::Io {
            path: path("seats/ann@main@h%3A1"),
            source: os(),
        }),
        Some(SeatError::File(_)) => return None,
    })
}

#[test]
fn no_message_repeats_its_source_and_no_line_says_a_thing_twice() {
    let checked = [
        check_all(walk(dictionary)),
        check_all(walk(board)),
        check_all(walk(rules)),
        check_all(walk(game)),
        check_all([Exhausted]),
        check_all(walk(protocol)),
        check_all(walk(bucket)),
        check_all(walk(bad_board)),
        check_all(walk(bad_record)),
        check_all(walk(bad_params)),
        check_all(walk(bad_marker)),
        check_all(walk(threads)),
        check_all(walk(prove)),
        check_all(walk(space)),
        check_all(walk(problem)),
        check_all(walk(board_file)),
        check_all(walk(terminal)),
        check_all(walk(records)),
        check_all(walk(dropped)),
        check_all(walk(link)),
        check_all(walk(join)),
        check_all(walk(usage)),
        check_all(walk(cli)),
        check_all(walk(hunt)),
        check_all(walk(file)),
        check_all(walk(seat)),
        check_all(walk(meanings)),
    ];
    let variants: usize = checked.iter().sum();
    assert!(variants >= 150, "only {variants} variants checked");
}

#[test]
fn every_wrapper_holds_the_rule_around_every_value_it_wraps() {
    use boggle_game::Error as Game;
    check_all(
        walk(dictionary)
            .into_iter()
            .map(Game::from)
            .map(CliError::Game),
    );
    check_all(walk(board).into_iter().map(Game::from).map(CliError::Game));
    check_all(walk(game).into_iter().map(CliError::Game));
    check_all(
        walk(rules)
            .into_iter()
            .map(UsageError::from)
            .map(CliError::Usage),
    );
    check_all(walk(board).into_iter().map(|source| UsageError::Board {
        rows: 4,
        cols: 4,
        source,
    }));
    check_all(walk(space).into_iter().map(UsageError::Search));
    check_all(walk(usage).into_iter().map(CliError::Usage));
    // Through the command line's From: each lands as a usage error or a runtime one.
    check_all(walk(prove).into_iter().map(CliError::from));
    check_all(walk(bucket).into_iter().map(ProveError::Buckets));
    check_all(walk(bucket).into_iter().map(BadParams::Buckets));
    check_all(
        walk(bad_board)
            .into_iter()
            .map(|reason| BadRecord::Board { index: 2, reason }),
    );
    check_all(
        walk(bad_record)
            .into_iter()
            .map(|reason| ProveError::Record {
                path: path("s.ndjson"),
                line: 1,
                reason,
            }),
    );
    check_all(
        walk(bad_params)
            .into_iter()
            .map(|reason| ProveError::Params {
                path: path("s.params.json"),
                reason,
            }),
    );
    check_all(
        walk(bad_marker)
            .into_iter()
            .map(|reason| ProveError::Marker {
                path: path("s.done.json"),
                reason,
            }),
    );
    check_all(walk(threads).into_iter().map(ProveError::Threads));
    check_all(
        walk(problem)
            .into_iter()
            .map(|problem| BoardFileError::Malformed {
                path: path("boards.txt"),
                line: 2,
                problem,
            }),
    );
    check_all(
        walk(problem)
            .into_iter()
            .map(|problem| BoardSyntaxError { line: 2, problem }),
    );
    check_all(walk(board_file).into_iter().map(CliError::BoardFile));
    check_all(walk(protocol).into_iter().map(LinkError::BadMessage));
    check_all(walk(dropped).into_iter().map(LinkError::Dropped));
    check_all(
        walk(dropped)
            .into_iter()
            .map(|last| LinkError::NotRejoined {
                why: Dropped::Io(io::Error::other("connection reset")),
                within: Duration::from_secs(30),
                last: Some(last),
            }),
    );
    check_all(walk(dropped).into_iter().map(|why| LinkError::NotRejoined {
        why,
        within: Duration::from_secs(30),
        last: None,
    }));
    check_all(walk(terminal).into_iter().map(CliError::Terminal));
    let at = |source| CliError::Join {
        addr: "127.0.0.1:1".into(),
        source,
    };
    check_all(walk(link).into_iter().map(JoinError::Link).map(at));
    check_all(walk(join).into_iter().map(at));
    check_all(
        walk(file)
            .into_iter()
            .map(HuntError::File)
            .map(CliError::Hunt),
    );
    check_all(
        walk(file)
            .into_iter()
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

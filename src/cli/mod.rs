//! The command line: parses arguments, dispatches to a mode, and turns the
//! outcome into one message on stderr and an exit status. Every mode lives in
//! its own module here; `main.rs` only calls [`main`].

pub(crate) mod args;
mod bench;
mod best;
mod daily;
pub(crate) mod define;
mod error;
#[cfg(test)]
mod error_tests;
mod hunt;
#[cfg(feature = "net")]
mod join;
mod play;
mod progress;
mod prove;
#[cfg(feature = "serve")]
mod serve;
mod solve;
#[cfg(feature = "tui")]
mod tui;
mod usage;
pub(crate) mod values;
mod versus;

pub(crate) use error::CliError;
pub(crate) use usage::UsageError;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use strum::VariantArray;

use boggle_game::dictionary::{Dictionary, Level, WordsCounted};
use boggle_game::error::Error;
use boggle_game::game_board::GameBoard;
use boggle_game::rules::Preset;

const EXIT_STATUS: &str = "\
Exit status: 0 when the game or command finished (also when the output pipe
was closed), 1 on a runtime failure (an unreadable dictionary or board file,
no terminal for tui), 2 on a usage error (a bad flag or an impossible
combination of settings).";

/// Boggle: the Project 4 console game, the classic variants, and a fast solver.
#[derive(Debug, Parser)]
#[command(
    name = "boggle",
    version,
    about,
    after_help = EXIT_STATUS,
    // Game flags before a subcommand would otherwise be dropped without a word.
    args_conflicts_with_subcommands = true,
    // The console game plays every preset, ece209 included.
    mut_arg("preset", |arg| args::rules_arg(arg, Preset::Project4, Preset::VARIANTS)),
    mut_arg("time", |arg| arg.help(
        "Seconds to find words, 0 (untimed) to 86400 [default: untimed; under ece209, asked at the start]"
    ))
)]
pub(crate) struct Cli {
    /// A mode other than the default console game.
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    /// Settings for the default console game.
    #[command(flatten)]
    pub(crate) game: GameArgs,
}

/// The modes besides the default game.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Print every word of board files (spec 002's test client) and the score
    Solve(solve::SolveArgs),
    /// Solve many boards with one dictionary and report boards per second
    Bench(bench::BenchArgs),
    /// Play against the computer (specs 000 and 003); default rules cs106b
    Versus(versus::VersusArgs),
    /// Search for the highest-scoring boards
    Best(best::BestArgs),
    /// The full-screen game: live clock, the typed word traced on the board, records
    #[cfg(feature = "tui")]
    Tui(tui::TuiArgs),
    /// Host networked games: rooms of players on one board and clock, shared words cancelled
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
    /// Join a networked game (boggle serve); words from standard input, one per line
    #[cfg(feature = "net")]
    Join(join::JoinArgs),
    /// Print the board of the day (UTC) and its number, as every server's web page plays it
    Daily(daily::DailyArgs),
    /// Prove the best boards of a size by branch and bound (shardable)
    Prove(prove::ProveArgs),
    /// Print what words mean (WordNet 3.1): BOXES finds BOX, RAN finds RUN
    Define(define::DefineArgs),
}

/// Settings shared by the playable modes. Each mode states its own `--rules`
/// and `--time` defaults in its help (see [`args::rules_arg`]).
#[derive(Debug, Args, Clone, Default)]
pub(crate) struct GameArgs {
    /// The word list.
    #[command(flatten)]
    pub(crate) dict: args::DictArgs,
    /// Seed for a repeatable random board [default: random]
    #[arg(short, long, value_name = "N")]
    pub(crate) seed: Option<u64>,
    /// Seconds to find words, 0 (untimed) to 86400
    #[arg(short, long, value_name = "SECONDS", value_parser = args::game_seconds())]
    pub(crate) time: Option<u64>,
    /// Words that count: common (a casual game: everyday and desk-dictionary words; needs a list with commonness levels, as every preset's but project4's) or all
    #[arg(long, value_name = "WHICH", value_enum, default_value = "all")]
    pub(crate) words: WordsCounted,
    /// The board to play, row-major: spaces allowed, Qu or Th for two-letter faces, . for a blank
    #[arg(short, long, value_name = "LETTERS")]
    pub(crate) board: Option<String>,
    /// Reroll a random board until it is worth at least N points
    #[arg(long, value_name = "N")]
    pub(crate) min_points: Option<u32>,
    /// The rules to play by.
    #[command(flatten)]
    pub(crate) rules: args::RulesArgs,
}

/// Runs the program with the process's arguments and returns its exit status.
pub(crate) fn main() -> ExitCode {
    run(std::env::args_os())
}

/// Runs the program with `args` (the first is the program name).
pub(crate) fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e, &command_of(&args)),
    };
    let result = match cli.command {
        None => play::run(&cli.game),
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Versus(args)) => versus::run(&args),
        Some(Command::Best(args)) => best::run(&args),
        #[cfg(feature = "tui")]
        Some(Command::Tui(args)) => tui::run(&args),
        #[cfg(feature = "serve")]
        Some(Command::Serve(args)) => serve::run(&args),
        #[cfg(feature = "net")]
        Some(Command::Join(args)) => join::run(&args),
        Some(Command::Prove(args)) => prove::run(&args),
        Some(Command::Daily(args)) => daily::run(&args),
        Some(Command::Define(args)) => define::run(&args),
    };
    exit_status(result)
}

/// The exit status for a finished run, reporting its error if it has one.
/// A closed output pipe (`boggle ... | head`) is not a failure.
fn exit_status(result: Result<(), CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            report(&chain(&e));
            ExitCode::from(e.exit_code())
        }
    }
}

/// An error and its causes on one line, joined with ": " (as ripgrep
/// reports them): `cannot read dictionary w.txt: No such file or directory
/// (os error 2)`. Every error of this program says what happened in its own
/// words and leaves its cause to this line (`error_tests` checks each one),
/// so each cause is printed as it comes, never compared with the line.
pub(crate) fn chain(error: &dyn std::error::Error) -> String {
    std::iter::successors(Some(error), |e| e.source())
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(": ")
}

/// `--help` and `--version` print normally; a usage error becomes one line and
/// status 2, with clap's "did you mean" suggestion (or the valid values) and
/// the `command` whose help to see.
fn clap_exit(e: &clap::Error, command: &str) -> ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            exit_status(e.print().map_err(|e| Error::Output(e).into()))
        }
        _ => {
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            // clap lists what is missing on the lines after the first: name it on the one line.
            let missing = match (e.kind(), e.get(ContextKind::InvalidArg)) {
                (ErrorKind::MissingRequiredArgument, Some(ContextValue::Strings(args))) => {
                    format!("{}: {}", first.trim_end_matches(':'), args.join(", "))
                }
                _ => first.to_string(),
            };
            let first = missing.as_str();
            let suggested = [
                ContextKind::SuggestedArg,
                ContextKind::SuggestedSubcommand,
                ContextKind::SuggestedValue,
            ]
            .into_iter()
            .find_map(|kind| match e.get(kind) {
                Some(ContextValue::String(s)) => Some(s.clone()),
                Some(ContextValue::Strings(s)) if !s.is_empty() => Some(s.join("' or '")),
                _ => None,
            });
            let hint = match (suggested, e.get(ContextKind::ValidValue)) {
                (Some(s), _) => format!("; did you mean '{s}'?"),
                (None, Some(ContextValue::Strings(valid))) if !valid.is_empty() => {
                    format!(" (choose one of {})", valid.join(", "))
                }
                _ => String::new(),
            };
            report(&format!("{first}{hint} (see '{command} --help')"));
            ExitCode::from(2)
        }
    }
}

/// The command whose help fits a parse error of `args`: `boggle versus` when
/// a subcommand's name is among them, else `boggle`.
fn command_of(args: &[OsString]) -> String {
    use clap::CommandFactory;
    let cli = Cli::command();
    let named = args.iter().skip(1).find_map(|arg| {
        let arg = arg.to_str()?;
        cli.get_subcommands()
            .find(|sub| sub.get_name() == arg)
            .map(|sub| sub.get_name().to_string())
    });
    named.map_or_else(|| "boggle".to_string(), |name| format!("boggle {name}"))
}

/// Writes `boggle: message` to stderr; a failure to write it is ignored (there is nowhere left to say it).
pub(crate) fn report(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "boggle: {message}");
}

/// How many random boards `--min-points` rolls before it gives up.
pub(crate) const MAX_ROLLS: u32 = 10_000;

/// The `--board` a playable mode was given, read under `rules` (a board that
/// does not fit them is a usage error).
pub(crate) fn given_board(
    args: &GameArgs,
    rules: &boggle_game::Rules,
) -> Result<Option<GameBoard>, CliError> {
    args.board
        .as_deref()
        .map(|text| {
            GameBoard::from_typed(text, rules.rows, rules.cols, rules.q).map_err(|source| {
                CliError::Usage(UsageError::Board {
                    rows: rules.rows,
                    cols: rules.cols,
                    source,
                })
            })
        })
        .transpose()
}

/// A random board worth at least `min_points` (any board without it), rolled
/// with `rng`; gives up after [`MAX_ROLLS`] boards.
pub(crate) fn roll_board<R: rand::RngCore + ?Sized>(
    finder: &boggle_game::WordFind,
    rng: &mut R,
    min_points: Option<u32>,
) -> Result<GameBoard, Error> {
    let Some(min_points) = min_points else {
        return Ok(GameBoard::random(finder.rules(), rng));
    };
    let mut searcher = finder.searcher();
    for _ in 0..MAX_ROLLS {
        let board = GameBoard::random(finder.rules(), rng);
        if searcher.score(&board) >= min_points {
            return Ok(board);
        }
    }
    Err(Error::NoBoard {
        min_points,
        rolls: MAX_ROLLS,
    })
}

/// The dictionary of a playable mode: `--dict` or the rules' list, cut down
/// to the common words under `--words common`. `--words common`, and a
/// computer `level` below perfect, need a word list that has commonness levels.
pub(crate) fn load_game_dictionary(
    args: &GameArgs,
    rules: &boggle_game::Rules,
    level: Level,
) -> Result<Dictionary, CliError> {
    let dictionary = args.dict.load(rules)?;
    let needs_levels = args.words == WordsCounted::Common || level != Level::Perfect;
    if needs_levels && !dictionary.has_levels() {
        return Err(UsageError::NeedsLevels {
            word_list: dictionary.describe(),
        }
        .into());
    }
    Ok(dictionary.restricted(args.words.max_rank()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serve_web_is_off_unless_asked_and_loopback_without_an_address() {
        let web = |args: &[&str]| match Cli::try_parse_from(args).expect("valid").command {
            Some(Command::Serve(serve)) => serve.web,
            other => panic!("{other:?}"),
        };
        assert_eq!(web(&["boggle", "serve"]), None);
        assert_eq!(
            web(&["boggle", "serve", "--web"]).as_deref(),
            Some(serve::DEFAULT_WEB)
        );
        assert_eq!(
            web(&["boggle", "serve", "--web", "--time", "60"]).as_deref(),
            Some("127.0.0.1:8040")
        );
        assert_eq!(
            web(&["boggle", "serve", "--web", "0.0.0.0:9000"]).as_deref(),
            Some("0.0.0.0:9000")
        );
    }

    #[test]
    fn parses_game_flags() {
        let cli = Cli::try_parse_from(["boggle", "--dict", "w.txt", "--seed", "7"]).expect("valid");
        assert_eq!(cli.game.dict.path, Some("w.txt".into()));
        assert_eq!(cli.game.seed, Some(7));
        assert!(Cli::try_parse_from(["boggle", "--seed", "x"]).is_err());
        assert!(Cli::try_parse_from(["boggle", "--nope"]).is_err());
    }

    /// Whether `args` (after the program name) parse.
    fn parses(args: &[&str]) -> bool {
        Cli::try_parse_from(std::iter::once("boggle").chain(args.iter().copied())).is_ok()
    }

    #[test]
    fn time_is_capped_at_a_day_in_every_mode() {
        for mode in [&[][..], &["versus"], &["tui"], &["best"]] {
            for (time, allowed) in [
                ("86400", true),
                ("86401", false),
                ("18446744073709551615", false),
            ] {
                let args = [mode, &["--time", time]].concat();
                assert_eq!(parses(&args), allowed, "{args:?}");
            }
        }
        assert!(parses(&["--time", "0"]));
        assert!(
            !parses(&["best", "--time", "0"]),
            "a search needs some time"
        );
    }

    #[test]
    fn help_states_the_caps_the_parsers_apply() {
        use clap::CommandFactory;
        let mut cli = Cli::command();
        let seconds = args::MAX_SECONDS.to_string();
        let threads = format!("1 to {}", args::MAX_THREADS);
        assert!(cli.render_help().to_string().contains(&seconds));
        for (name, caps) in [
            ("versus", &[&seconds][..]),
            ("tui", &[&seconds]),
            ("best", &[&seconds, &threads]),
            ("bench", &[&threads]),
        ] {
            let help = cli
                .find_subcommand_mut(name)
                .map(|sub| sub.render_help().to_string())
                .unwrap_or_default();
            for cap in caps {
                assert!(help.contains(cap.as_str()), "{name}: {cap}: {help}");
            }
        }
    }

    #[test]
    fn threads_are_capped_in_every_mode_that_takes_them() {
        for mode in ["bench", "best"] {
            assert!(parses(&[mode, "--threads", "256"]), "{mode}");
            assert!(!parses(&[mode, "--threads", "257"]), "{mode}");
            assert!(!parses(&[mode, "--threads", "0"]), "{mode}");
        }
    }

    #[test]
    fn bsd_short_flags() {
        let cli = Cli::try_parse_from(["boggle", "-t", "90", "-s", "4", "-w", "5"]).expect("valid");
        assert_eq!(
            (cli.game.time, cli.game.seed, cli.game.rules.min_len),
            (Some(90), Some(4), Some(5))
        );
        assert!(parses(&["best", "-t", "1.5", "-s", "2"]));
        assert!(parses(&["bench", "-s", "2", "-w", "4"]));
    }

    #[test]
    fn presets_and_dice_parse_in_any_case_and_each_mode_has_its_default() {
        let cli = Cli::try_parse_from(["boggle", "--rules", "CS106B", "--dice", "SuperBig"])
            .expect("valid");
        assert_eq!(cli.game.rules.preset, Some(Preset::Cs106b));
        assert_eq!(cli.game.rules.dice, Some(boggle_game::DiceSet::SuperBig));
        let default_of = |args: &[&str]| {
            let cli = Cli::try_parse_from(args).expect("valid");
            match cli.command {
                None => cli.game.rules.preset,
                Some(Command::Solve(a)) => a.solver.rules.preset,
                Some(Command::Bench(a)) => a.solver.rules.preset,
                Some(Command::Versus(a)) => a.game.rules.preset,
                Some(Command::Best(a)) => a.solver.rules.preset,
                Some(Command::Tui(a)) => a.game.rules.preset,
                Some(Command::Serve(a)) => a.rules.preset,
                Some(Command::Join(_) | Command::Daily(_) | Command::Define(_)) => None,
                Some(Command::Prove(a)) => a.solver.rules.preset,
            }
        };
        assert_eq!(default_of(&["boggle"]), Some(Preset::Project4));
        assert_eq!(default_of(&["boggle", "solve"]), Some(Preset::Algs4));
        assert_eq!(default_of(&["boggle", "bench"]), Some(Preset::Classic));
        assert_eq!(default_of(&["boggle", "versus"]), Some(Preset::Cs106b));
        assert_eq!(default_of(&["boggle", "best"]), Some(Preset::Project4));
        assert_eq!(default_of(&["boggle", "tui"]), Some(Preset::Classic));
        assert_eq!(default_of(&["boggle", "serve"]), Some(Preset::Classic));
        assert_eq!(default_of(&["boggle", "prove"]), Some(Preset::Classic));
        // Not offered, but parsed, so the mode can say where ece209 is played.
        let versus = ["boggle", "versus", "--rules", "ece209"];
        assert_eq!(default_of(&versus), Some(Preset::Ece209));
    }

    #[test]
    fn misspelt_flags_carry_a_suggestion() {
        use clap::error::{ContextKind, ContextValue};
        let e = Cli::try_parse_from(["boggle", "--seeed", "1"]).expect_err("no such flag");
        assert_eq!(
            e.get(ContextKind::SuggestedArg),
            Some(&ContextValue::String("--seed".into()))
        );
    }

    #[test]
    fn the_report_joins_causes_and_says_each_once() {
        let read = Error::Input(std::io::Error::other("Is a directory"));
        assert_eq!(chain(&read), "cannot read the input: Is a directory");
        let dictionary = Error::from(boggle_game::DictionaryError::Io {
            path: "w.txt".into(),
            source: std::io::Error::other("gone"),
        });
        assert_eq!(chain(&dictionary), "cannot read dictionary w.txt: gone");
        let rules = CliError::from(UsageError::Rules(
            boggle_game::rules::RulesError::ZeroMinLength,
        ));
        assert_eq!(
            chain(&rules),
            "impossible rules: the minimum word length must be at least 1"
        );
        assert_eq!(rules.exit_code(), 2);
        assert_eq!(CliError::NoTerminal.exit_code(), 1);
    }
}

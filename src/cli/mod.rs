//! The command line: parses arguments, dispatches to a mode, and turns the
//! outcome into one message on stderr and an exit status. Every mode lives in
//! its own module here; `main.rs` only calls [`main`].

pub mod args;
mod bench;
mod best;
mod play;
mod prove;
mod solve;
mod tui;
mod versus;

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::error::Error;

const EXIT_STATUS: &str = "\
Exit status: 0 when the game or command finished (also when the output pipe
was closed), 1 on a runtime failure (an unreadable dictionary or board file),
2 on a usage error (a bad flag or an impossible combination of settings).";

/// Boggle: the Project 4 console game, the classic variants, and a fast solver.
#[derive(Debug, Parser)]
#[command(
    name = "boggle",
    version,
    about,
    after_help = EXIT_STATUS,
    // Game flags before a subcommand would otherwise be dropped without a word.
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// A mode other than the default console game.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Settings for the default console game.
    #[command(flatten)]
    pub game: GameArgs,
}

/// The modes besides the default game.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print every word of board files (spec 002's test client) and the score
    Solve(solve::SolveArgs),
    /// Solve many boards with one dictionary and report boards per second
    Bench(bench::BenchArgs),
    /// Play against the computer (specs 000 and 003); default rules cs106b
    Versus(GameArgs),
    /// Search for the highest-scoring boards
    Best(best::BestArgs),
    /// The full-screen game: live clock, the typed word traced on the board, records
    Tui(tui::TuiArgs),
    /// Prove the best boards of a size by branch and bound (shardable)
    Prove(prove::ProveArgs),
}

/// Settings shared by the playable modes.
#[derive(Debug, Args, Clone, Default)]
pub struct GameArgs {
    /// Word list to use instead of words.txt (one word per line)
    #[arg(long, value_name = "PATH")]
    pub dict: Option<PathBuf>,
    /// Seed for a repeatable random board
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Seconds to find words (a turn ends when they run out; ece209: the timer)
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<u64>,
    /// The rules to play by.
    #[command(flatten)]
    pub rules: args::RulesArgs,
}

/// Runs the program with the process's arguments and returns its exit status.
pub fn main() -> ExitCode {
    run(std::env::args_os())
}

/// Runs the program with `args` (the first is the program name).
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    let result = match cli.command {
        None => play::run(&cli.game),
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Versus(args)) => versus::run(&args),
        Some(Command::Best(args)) => best::run(&args),
        Some(Command::Tui(args)) => tui::run(&args),
        Some(Command::Prove(args)) => prove::run(&args),
    };
    exit_status(result)
}

/// The exit status for a finished run, reporting its error if it has one.
/// A closed output pipe (`boggle ... | head`) is not a failure.
fn exit_status(result: Result<(), Error>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            report(&e.to_string());
            ExitCode::from(e.exit_code())
        }
    }
}

/// `--help` and `--version` print normally; a usage error becomes one line and status 2.
fn clap_exit(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            exit_status(e.print().map_err(Error::Output))
        }
        _ => {
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            report(&format!("{first} (see 'boggle --help')"));
            ExitCode::from(2)
        }
    }
}

/// Writes `boggle: message` to stderr; a failure to write it is ignored (there is nowhere left to say it).
pub(crate) fn report(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "boggle: {message}");
}

/// Loads `--dict PATH`, or the default dictionary (`words.txt` here, else built in).
pub(crate) fn load_dictionary(path: Option<&std::path::Path>) -> Result<crate::Dictionary, Error> {
    Ok(match path {
        Some(path) => crate::Dictionary::from_file(path)?,
        None => crate::Dictionary::load_default()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_game_flags() {
        let cli = Cli::try_parse_from(["boggle", "--dict", "w.txt", "--seed", "7"]).expect("valid");
        assert_eq!(cli.game.dict, Some(PathBuf::from("w.txt")));
        assert_eq!(cli.game.seed, Some(7));
        assert!(Cli::try_parse_from(["boggle", "--seed", "x"]).is_err());
        assert!(Cli::try_parse_from(["boggle", "--nope"]).is_err());
    }
}

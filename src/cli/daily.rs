//! `boggle daily`: the board of the day (UTC), or of `--date`, with its
//! number, as every server's "Today's board" shows it and `boggle tui
//! --daily` plays it. How the board is chosen is documented in
//! [`boggle_game::daily`].

use std::io::{self, Write};

use clap::Args;

use super::CliError;
use boggle_game::daily::{Daily, Date};
use boggle_game::error::Error;

/// Flags of `boggle daily`.
#[derive(Debug, Args)]
pub(crate) struct DailyArgs {
    /// The day, YYYY-MM-DD (from 2026-01-01, board #1) [default: today, UTC]
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_day)]
    pub(crate) date: Option<Daily>,
}

/// Parses `--date` into that day's board, for clap (so a bad date is a usage error).
fn parse_day(text: &str) -> Result<Daily, String> {
    let date: Date = text.parse().map_err(|e| format!("{e}"))?;
    Daily::of(date).map_err(|e| e.to_string())
}

/// Prints the day's number, date, rules and board.
pub(crate) fn run(args: &DailyArgs) -> Result<(), CliError> {
    let day = match &args.date {
        Some(day) => day.clone(),
        // Only a clock set before 2026 has no board today.
        None => Daily::today().map_err(CliError::Daily)?,
    };
    let mut out = io::stdout().lock();
    write_day(&mut out, &day).map_err(|e| Error::Output(e).into())
}

/// The day as `boggle daily` prints it: a title line, then the board's rows.
pub(crate) fn write_day(out: &mut impl Write, day: &Daily) -> io::Result<()> {
    writeln!(
        out,
        "Daily board #{} ({}): classic rules, 4x4, 3 minutes",
        day.number, day.date
    )?;
    write!(out, "{}", day.board.show_board())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_the_number_and_the_board() {
        let day = parse_day("2026-03-14").unwrap();
        let mut out = Vec::new();
        write_day(&mut out, &day).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("Daily board #73 (2026-03-14): classic rules"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 5, "{text}");
    }

    #[test]
    fn refuses_days_without_a_board() {
        assert!(
            parse_day("2025-12-31")
                .unwrap_err()
                .contains("before the first")
        );
        assert!(parse_day("2026-02-30").unwrap_err().contains("not a date"));
    }
}

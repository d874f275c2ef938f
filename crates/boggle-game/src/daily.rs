//! The board of the day: one board per calendar day (UTC), the same on every
//! machine running the same version, so players anywhere share and compare it.
//!
//! How a day's board is made (documented so anyone can check it): the day's
//! seed is its date written as the decimal number `YYYYMMDD` (2026-01-01 is
//! seed 20260101); the board is the first board [`GameBoard::random`] rolls
//! under the classic rules on 4x4 with [`random::seeded`] from that seed, the
//! same roll as `boggle tui --rules classic --seed 20260101`. Days are
//! numbered from 1 January 2026 (#1); earlier dates have no board. A day is
//! played for [`SECONDS`] seconds. The board changes only if the classic dice
//! or the pinned random numbers change, which their own tests guard.

use std::fmt;

use crate::game_board::GameBoard;
use crate::random;
use crate::rules::{Preset, Rules};

/// The first day with a board, numbered 1.
pub(crate) const FIRST_DAY: Date = Date(jiff::civil::date(2026, 1, 1));

/// Seconds a day's round lasts: the classic sand timer.
pub const SECONDS: u64 = 180;

/// A calendar date (proleptic Gregorian, years -9999 to 9999), as the daily
/// board counts days: jiff's civil date, with the daily board's own
/// spelling (exactly `YYYY-MM-DD`) and numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(jiff::civil::Date);

/// Why a date was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DateError {
    /// Not written as `YYYY-MM-DD`, or no such day (2026-02-30).
    #[error("'{0}' is not a date (write YYYY-MM-DD, e.g. 2026-03-14)")]
    Malformed(String),
    /// Before 1 January 2026 (day #1), which has no board.
    #[error("{0} is before the first daily board ({FIRST_DAY})")]
    BeforeFirstDay(Date),
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.0;
        write!(f, "{:04}-{:02}-{:02}", d.year(), d.month(), d.day())
    }
}

/// 1970-01-01, from which [`Date::days`] counts.
const EPOCH: jiff::civil::Date = jiff::civil::date(1970, 1, 1);

impl Date {
    /// The date `year-month-day`, if there is such a day.
    pub(crate) fn new(year: i32, month: u32, day: u32) -> Option<Date> {
        let (year, month, day) = (
            i16::try_from(year).ok()?,
            i8::try_from(month).ok()?,
            i8::try_from(day).ok()?,
        );
        jiff::civil::Date::new(year, month, day).ok().map(Date)
    }

    /// The UTC date `seconds` after 1970-01-01 00:00 (the clock is the
    /// caller's: the game's classes never read it, so tests pin the day).
    /// Past the year 9999, the last day of 9999.
    pub(crate) fn from_unix_seconds(seconds: u64) -> Date {
        Date::from_days(i64::try_from(seconds / 86_400).unwrap_or(i64::MAX))
    }

    /// Days since 1970-01-01 (negative before it).
    pub fn days(self) -> i64 {
        i64::from((self.0 - EPOCH).get_days())
    }

    /// The date `days` after 1970-01-01, held within jiff's years.
    pub fn from_days(days: i64) -> Date {
        let (first, last) = (jiff::civil::Date::MIN, jiff::civil::Date::MAX);
        let days = days.clamp(Date(first).days(), Date(last).days());
        Date(
            EPOCH
                .checked_add(jiff::Span::new().days(days))
                .unwrap_or(last),
        )
    }

    /// The day's number: [`FIRST_DAY`] is 1, or `None` before it.
    pub(crate) fn number(self) -> Option<u32> {
        u32::try_from(self.days() - FIRST_DAY.days() + 1)
            .ok()
            .filter(|&n| n >= 1)
    }

    /// The day's seed: the date as the decimal number `YYYYMMDD`.
    pub(crate) fn seed(self) -> u64 {
        let d = self.0;
        let part = |n: i16| u64::try_from(n).unwrap_or(0);
        part(d.year()) * 10_000 + part(d.month().into()) * 100 + part(d.day().into())
    }
}

impl std::str::FromStr for Date {
    type Err = DateError;

    /// `YYYY-MM-DD`, exactly: four digits, two, two.
    fn from_str(text: &str) -> Result<Date, DateError> {
        let malformed = || DateError::Malformed(text.chars().take(40).collect());
        let digits = |s: &str, n: usize| {
            (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<u32>().ok())?
        };
        let mut parts = text.split('-');
        let (Some(y), Some(m), Some(d), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(malformed());
        };
        let (Some(year), Some(month), Some(day)) = (digits(y, 4), digits(m, 2), digits(d, 2))
        else {
            return Err(malformed());
        };
        Date::new(year as i32, month, day).ok_or_else(malformed)
    }
}

/// One day's board and what names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Daily {
    /// The date (UTC).
    pub date: Date,
    /// The day's number, 1 on 1 January 2026.
    pub number: u32,
    /// The rules every day is played by: classic on 4x4.
    pub rules: Rules,
    /// The day's board.
    pub board: GameBoard,
}

impl Daily {
    /// The board of `date`, or an error before 1 January 2026.
    pub fn of(date: Date) -> Result<Daily, DateError> {
        let number = date.number().ok_or(DateError::BeforeFirstDay(date))?;
        let rules = Daily::rules();
        let board = GameBoard::random(&rules, &mut random::seeded(date.seed()));
        Ok(Daily {
            date,
            number,
            rules,
            board,
        })
    }

    /// The board of the UTC day `seconds` after 1970-01-01 00:00: today's,
    /// given the system clock's seconds.
    pub(crate) fn at_unix_seconds(seconds: u64) -> Result<Daily, DateError> {
        Daily::of(Date::from_unix_seconds(seconds))
    }

    /// Today's board (UTC) by the system clock: what `boggle daily`, `tui
    /// --daily` and a server's "Today's board" play. The one reading of the
    /// real clock in this crate: a date, not a game's timing. A clock set
    /// before 1970 counts as 1970 (so an error: before 1 January 2026).
    #[expect(
        clippy::disallowed_methods,
        reason = "today's date, not a game's timing: the one reading of the clock here"
    )]
    pub fn today() -> Result<Daily, DateError> {
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_secs());
        Daily::at_unix_seconds(seconds)
    }

    /// The rules of every day's board: classic, 4x4.
    pub fn rules() -> Rules {
        Rules::sized(Preset::Classic, 4, 4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Date {
        text.parse().unwrap()
    }

    #[test]
    fn days_are_numbered_from_the_first_day() {
        assert_eq!(date("2026-01-01").number(), Some(1));
        assert_eq!(date("2026-01-02").number(), Some(2));
        assert_eq!(date("2027-01-01").number(), Some(366));
        assert_eq!(date("2028-03-01").number(), Some(366 + 365 + 60));
        assert_eq!(date("2025-12-31").number(), None);
        assert!(matches!(
            Daily::of(date("2025-12-31")),
            Err(DateError::BeforeFirstDay(_))
        ));
    }

    #[test]
    fn dates_round_trip_through_days() {
        assert_eq!(date("1970-01-01").days(), 0);
        assert_eq!(date("2000-03-01").days(), 11_017);
        for days in (-800_000..800_000).step_by(997) {
            assert_eq!(Date::from_days(days).days(), days);
        }
    }

    #[test]
    fn only_real_dates_parse() {
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-1-01",
            "26-01-01",
            "2026-01-01-",
            "",
            "2026/01/01",
            "２０２６-01-01",
        ] {
            assert!(bad.parse::<Date>().is_err(), "{bad}");
        }
        assert_eq!(date("2028-02-29").to_string(), "2028-02-29");
        assert_eq!(date("2026-03-14").seed(), 20_260_314);
    }

    #[test]
    fn a_days_board_is_pinned() {
        // If this changes, every server shows another board on that day:
        // never update it casually.
        let day = Daily::of(date("2026-03-14")).unwrap();
        assert_eq!(day.number, 73);
        assert_eq!(day.board.letters(), PINNED_2026_03_14);
        assert_eq!(day.rules.preset, Preset::Classic);
        assert_eq!((day.rules.rows, day.rules.cols), (4, 4));
        let next = Daily::of(date("2026-03-15")).unwrap();
        assert_ne!(next.board, day.board);
    }

    const PINNED_2026_03_14: &str = "BENELKEYHXHDAQUMS";
}

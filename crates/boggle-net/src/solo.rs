//! Solo rooms: what a `hello` with [`Solo`] plays (the web page's Solo,
//! Today's board and `/?board=` links). A solo room is an ordinary [`Room`]
//! of one seat, so its words are judged by the same [`Game`] as every room;
//! it needs one player, counts shared words (there are none), plays rounds
//! until its player leaves, and may seat a computer (`versus`'s levels).
//!
//! The rules are the server's own, at another size if asked, on its word
//! list; today's board is played by its own rules (classic 4x4, 3 minutes),
//! on the server's word list when the server plays those rules and on the
//! built-in player list otherwise (loaded once, on the first daily game).
//!
//! [`Room`]: crate::room::Room
//! [`Game`]: boggle_game::Game

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use boggle_game::daily::{self, Daily, Date};
use boggle_game::dictionary::{Dictionary, Level, WordList};
use boggle_game::game_board::GameBoard;
use boggle_game::rules::Rules;
use boggle_game::word_find::WordFind;

use super::room::RoomConfig;
use boggle_protocol::{Duplicates, PAST_DAYS, Solo};

/// The settings of a solo room asked for with `solo`, from the server's `base`.
/// A board, size or level that cannot be played is refused with the reason.
/// A daily game's room names its day (`daily`), so the server can keep its
/// seat's attempt.
pub(crate) fn config(base: &RoomConfig, solo: &Solo) -> Result<RoomConfig, String> {
    let computer = solo.computer.as_deref().map(level).transpose()?;
    let mut record = None;
    let (word_find, board, time) = if solo.daily {
        let today = Daily::today().map_err(|e| e.to_string())?;
        let day = match solo.day {
            Some(n) if n != today.number => past_day(&today, n)?,
            _ => {
                // Only today's first opening is kept: a past day is practice.
                record = Some(today.number);
                today
            }
        };
        (
            daily_word_find(base)?,
            Some(day.board),
            Duration::from_secs(daily::SECONDS),
        )
    } else {
        let word_find = sized(base, solo.size)?;
        let rules = word_find.rules();
        let board = solo
            .board
            .as_deref()
            .map(|text| GameBoard::from_typed(text, rules.rows, rules.cols, rules.q))
            .transpose()
            .map_err(|e| format!("that board cannot be played here: {e}"))?;
        (word_find, board.or_else(|| base.board.clone()), base.time)
    };
    Ok(RoomConfig {
        word_find,
        board,
        time,
        rounds: None,
        min_players: 1,
        duplicates: Duplicates::Count,
        max_players: 1,
        computer,
        daily: record,
    })
}

/// Day `n`'s board, one of the [`PAST_DAYS`] days up to `today`.
fn past_day(today: &Daily, n: u32) -> Result<Daily, String> {
    let back = today.number.checked_sub(n).filter(|&back| back < PAST_DAYS);
    let Some(back) = back else {
        return Err(format!(
            "day {n} cannot be played: the last {PAST_DAYS} days' boards can ({} to {})",
            today.number.saturating_sub(PAST_DAYS - 1).max(1),
            today.number
        ));
    };
    Daily::of(Date::from_days(today.date.days() - i64::from(back))).map_err(|e| e.to_string())
}

/// The most cells a solo board may have (the 6x6 of Super Big Boggle).
pub(crate) const MAX_SOLO_CELLS: usize = 36;

/// The server's rules at `size`, on its word list (its own rules without one).
fn sized(base: &RoomConfig, size: Option<(usize, usize)>) -> Result<Arc<WordFind>, String> {
    let rules = base.word_find.rules();
    let Some((rows, cols)) = size.filter(|&shape| shape != (rules.rows, rules.cols)) else {
        return Ok(Arc::clone(&base.word_find));
    };
    let cells = rows.saturating_mul(cols);
    if !(2..=MAX_SOLO_CELLS).contains(&cells) || rows == 0 || cols == 0 {
        return Err(format!(
            "a solo board is 2 to {MAX_SOLO_CELLS} cells, not {rows}x{cols}"
        ));
    }
    let sized = Rules::sized(rules.preset, rows, cols);
    sized.validate().map_err(|e| e.to_string())?;
    Ok(Arc::new(WordFind::with_rules(
        Arc::clone(base.word_find.dictionary()),
        sized,
    )))
}

/// Today's board's rules and words: the server's if it plays them, else the player list's.
fn daily_word_find(base: &RoomConfig) -> Result<Arc<WordFind>, String> {
    if *base.word_find.rules() == Daily::rules() {
        return Ok(Arc::clone(&base.word_find));
    }
    static DAILY: OnceLock<Result<Arc<WordFind>, String>> = OnceLock::new();
    DAILY
        .get_or_init(|| {
            let words = Dictionary::load_builtin(WordList::Player).map_err(|e| e.to_string())?;
            Ok(Arc::new(WordFind::with_rules(
                Arc::new(words),
                Daily::rules(),
            )))
        })
        .clone()
}

/// A computer level by its name, as `versus --level` spells it.
fn level(name: &str) -> Result<Level, String> {
    match name {
        "easy" => Ok(Level::Easy),
        "medium" => Ok(Level::Medium),
        "hard" => Ok(Level::Hard),
        "perfect" => Ok(Level::Perfect),
        _ => Err("the computer plays at easy, medium, hard or perfect".to_string()),
    }
}

#[cfg(test)]
#[expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]
mod tests {
    use super::*;
    use boggle_game::rules::Preset;

    fn base() -> RoomConfig {
        let rules = Rules::preset(Preset::Classic);
        RoomConfig {
            word_find: Arc::new(WordFind::with_rules(
                Arc::new(Dictionary::from_words(["CAT", "ACT", "TAC"])),
                rules,
            )),
            board: None,
            time: Duration::from_secs(60),
            rounds: Some(3),
            min_players: 2,
            duplicates: Duplicates::Cancel,
            max_players: 50,
            computer: None,
            daily: None,
        }
    }

    #[test]
    fn a_solo_room_seats_one_and_needs_one() {
        let solo = Solo {
            board: Some("CATX ABCD EFGH IJKL".into()),
            computer: Some("medium".into()),
            ..Solo::default()
        };
        let config = config(&base(), &solo).unwrap();
        assert_eq!((config.min_players, config.max_players), (1, 1));
        assert_eq!(config.rounds, None);
        assert_eq!(config.computer, Some(Level::Medium));
        assert_eq!(config.board.unwrap().letters(), "CATXABCDEFGHIJKL");
    }

    #[test]
    fn daily_rooms_play_todays_board_by_its_rules() {
        let solo = Solo {
            daily: true,
            ..Solo::default()
        };
        let config = config(&base(), &solo).unwrap();
        assert_eq!(config.board, Some(Daily::today().unwrap().board));
        assert_eq!(*config.word_find.rules(), Daily::rules());
        assert_eq!(config.time, Duration::from_secs(180));
    }

    #[test]
    fn a_past_days_board_is_played_as_practice_within_the_last_30_days() {
        let today = Daily::today().unwrap();
        let past = |day| Solo {
            daily: true,
            day: Some(day),
            ..Solo::default()
        };
        let yesterday = config(&base(), &past(today.number - 1)).unwrap();
        let date = Date::from_days(today.date.days() - 1);
        assert_eq!(yesterday.board, Some(Daily::of(date).unwrap().board));
        assert_eq!(yesterday.daily, None, "practice: nothing kept");
        assert_eq!(yesterday.time, Duration::from_secs(180));
        // Today's number is today's game, kept.
        assert_eq!(
            config(&base(), &past(today.number)).unwrap().daily,
            Some(today.number)
        );
        let oldest = config(&base(), &past(today.number - 29)).unwrap();
        assert_ne!(oldest.board, yesterday.board);
        for day in [today.number - 30, today.number + 1, 0] {
            let refused = config(&base(), &past(day)).unwrap_err();
            assert!(
                refused.starts_with(&format!("day {day} cannot be played")),
                "{refused}"
            );
        }
    }

    #[test]
    fn boards_sizes_and_levels_that_cannot_be_played_are_refused() {
        let bad = [
            Solo {
                board: Some("CAT".into()),
                ..Solo::default()
            },
            Solo {
                size: Some((9, 9)),
                ..Solo::default()
            },
            Solo {
                computer: Some("godlike".into()),
                ..Solo::default()
            },
        ];
        for solo in bad {
            assert!(config(&base(), &solo).is_err(), "{solo:?}");
        }
        let five = Solo {
            size: Some((5, 5)),
            ..Solo::default()
        };
        assert_eq!(config(&base(), &five).unwrap().word_find.rules().rows, 5);
    }
}

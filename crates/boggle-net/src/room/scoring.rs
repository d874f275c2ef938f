//! A round's scoring: who found what, each player's result with shared
//! words cancelled where the room cancels them, the computer's side, the
//! words shared and missed, and today's result as a value for the store.
//! Each reads the room's state at the round's end and returns a value for
//! `end_round` to send; only `daily_result` changes the room (it keeps the
//! seat's result for the store and marks today's game played; a try whose
//! words came faster than a person can enter them, `pace.rs`, is not handed
//! to the store and its seat is told why). No I/O.

use std::collections::BTreeMap;

use boggle_game::dictionary::Dictionary;
use boggle_game::game::Game;
use boggle_protocol::{
    DailyStatus, DayScore, Duplicates, FoundWord, PlayerResult, SHARED_NAMES, SHARED_SHOWN,
    SharedWord, WordPoints, words_listed,
};

use super::pace::TOO_FAST;
use super::{COMPUTER, DailyResult, Kept, MISSED_SHOWN, Room};

impl Room {
    /// A scored daily round's result, as a value for the server to take:
    /// the seat's points, words and longest word. Later rounds of the room
    /// are practice, and say so to a rejoin.
    pub(super) fn daily_result(&mut self, scores: &[u32]) {
        let Some(daily) = &self.daily else { return };
        if daily.status != DailyStatus::Scored {
            return;
        }
        let Some((player, &points)) = self.players.iter().zip(scores).next() else {
            return;
        };
        let found = player.game.iter().flat_map(|g| g.found_words());
        let score = DayScore {
            points,
            words: u32::try_from(found.clone().count()).unwrap_or(u32::MAX),
            longest: found
                .map(|w| u32::try_from(w.chars().count()).unwrap_or(u32::MAX))
                .max()
                .unwrap_or(0),
        };
        let too_fast = self.pace.too_fast();
        if !too_fast {
            self.results.push(DailyResult {
                day: daily.day,
                player: daily.player.clone(),
                score,
            });
        }
        if let Some(daily) = &mut self.daily {
            daily.status = DailyStatus::Played;
            daily.first = Some(score);
        }
        if too_fast {
            self.daily_kept(Kept::No(TOO_FAST.into()));
        }
    }

    /// Who found each word this round, by seat.
    pub(super) fn finders(&self) -> BTreeMap<String, Vec<usize>> {
        let mut finders: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (seat, player) in self.players.iter().enumerate() {
            for word in player.game.iter().flat_map(|g| g.found_words()) {
                finders.entry(word.clone()).or_default().push(seat);
            }
        }
        finders
    }

    /// Each player's result (in seat order) and round score, shared words
    /// cancelled if the room cancels them. Each one's words are listed up to
    /// a share of a fixed budget, so the message stays small however many play.
    pub(super) fn player_results(
        &self,
        finders: &BTreeMap<String, Vec<usize>>,
    ) -> (Vec<PlayerResult>, Vec<u32>) {
        let cancel = self.config.duplicates == Duplicates::Cancel;
        let listed = words_listed(self.players.len());
        let mut results = Vec::with_capacity(self.players.len());
        let mut scores = Vec::with_capacity(self.players.len());
        for player in &self.players {
            let mut words = Vec::new();
            let mut score = 0u32;
            let mut words_total = 0;
            if let Some(game) = &player.game {
                for word in game.found_words() {
                    let points = game.get_word_score(word);
                    let cancelled = cancel && finders.get(word).is_some_and(|f| f.len() >= 2);
                    if !cancelled {
                        score = score.saturating_add(points);
                    }
                    words_total += 1;
                    if words.len() < listed {
                        words.push(FoundWord {
                            word: word.clone(),
                            points,
                            cancelled,
                        });
                    }
                }
            }
            scores.push(score);
            results.push(PlayerResult {
                name: player.name.clone(),
                words,
                words_total,
                score,
                total: player.total.saturating_add(score),
                place: 0,
            });
        }
        (results, scores)
    }

    /// The words most players shared first, A-Z among equals, a few names
    /// each; and how many words were shared in all.
    pub(super) fn shared_words(
        &self,
        finders: &BTreeMap<String, Vec<usize>>,
    ) -> (Vec<SharedWord>, usize) {
        let mut shared: Vec<(&String, &Vec<usize>)> = finders
            .iter()
            // The computer's seat (past the players') shares nothing.
            .filter(|(_, seats)| seats.iter().filter(|&&s| s < self.players.len()).count() >= 2)
            .collect();
        let total = shared.len();
        shared.sort_by_key(|(_, seats)| std::cmp::Reverse(seats.len()));
        let shown = shared
            .into_iter()
            .take(SHARED_SHOWN)
            .map(|(word, seats)| SharedWord {
                word: word.clone(),
                players: seats
                    .iter()
                    .filter_map(|&s| self.players.get(s))
                    .take(SHARED_NAMES)
                    .map(|p| p.name.clone())
                    .collect(),
                count: seats.len(),
            })
            .collect();
        (shown, total)
    }

    /// The computer's side of a round, if the room has one: every word the
    /// first player missed that it knows (noted in `finders` under a seat
    /// past the players', so they are not listed as missed).
    pub(super) fn computer_result(
        &self,
        finders: &mut BTreeMap<String, Vec<usize>>,
    ) -> Option<PlayerResult> {
        let level = self.config.computer?;
        let game = self.players.first()?.game.as_ref()?;
        let seat = self.players.len();
        let mut words = Vec::new();
        let mut score = 0u32;
        for word in game.computer_words(level) {
            let points = game.get_word_score(word);
            score = score.saturating_add(points);
            finders.entry(word.to_string()).or_default().push(seat);
            words.push(FoundWord {
                word: word.to_string(),
                points,
                cancelled: false,
            });
        }
        let words_total = words.len();
        words.truncate(words_listed(2));
        Some(PlayerResult {
            name: COMPUTER.to_string(),
            words,
            words_total,
            score,
            total: score,
            place: 0,
        })
    }
}

/// The board's words nobody found, common words first (a player learns more
/// from CART than from AALII), then most points, then longest, then A-Z, at
/// most [`MISSED_SHOWN`]; and how many there were.
pub(super) fn missed_words(
    template: &Game,
    finders: &BTreeMap<String, Vec<usize>>,
    dictionary: &Dictionary,
) -> (Vec<WordPoints>, usize) {
    let mut missed: Vec<WordPoints> = template
        .words()
        .iter()
        .filter(|w| !finders.contains_key(w.as_str()))
        .map(|w| WordPoints {
            word: w.clone(),
            points: template.get_word_score(w),
            rare: dictionary.is_rare(w),
        })
        .collect();
    let total = missed.len();
    // The set is already A-Z, and the sort is stable.
    missed.sort_by(|a, b| {
        a.rare
            .cmp(&b.rare)
            .then(b.points.cmp(&a.points))
            .then(b.word.len().cmp(&a.word.len()))
    });
    missed.truncate(MISSED_SHOWN);
    (missed, total)
}

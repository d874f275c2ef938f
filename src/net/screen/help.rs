//! What `boggle join`'s full screen shows over itself: the help (`?`: the
//! keys, then the room's rules as the welcome names them, with the tui's
//! lines for the preset, and the rules of a room: shared words, rounds,
//! when a round starts).

#![expect(
    clippy::disallowed_types,
    reason = "the help describes the preset a room plays, by its name, as the command line does"
)]

use super::app::Screen;
use crate::tui::ui::rules_lines;
use boggle_game::rules::{Preset, Rules};
use boggle_protocol::Duplicates;

/// The keys of the network game's full screen.
const KEYS: [&str; 7] = [
    "Enter: ready (lobby, results); play the typed word (round)",
    "Enter on an empty word, twice: done with the round",
    "Esc: clear the word; on an empty word, twice: leave",
    "Results: Left/Right choose a word and light its path;",
    "  d: what it means; Up/Down, PgUp/PgDn: scroll",
    "q: leave (outside a round); Ctrl-C: leave at once",
    "Ctrl-D: done with the round (leave outside one)",
];

impl Screen {
    /// The help's lines: the keys, then the room's rules.
    pub(crate) fn help_lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = KEYS.iter().map(|k| k.to_string()).collect();
        lines.push(String::new());
        match Preset::from_name(&self.rules_name) {
            Some(preset) => {
                let (rows, cols) = self.board.as_ref().map_or((4, 4), |b| (b.rows(), b.cols()));
                let mut rules = Rules::sized(preset, rows, cols);
                rules.moves = self.moves;
                lines.extend(rules_lines(&rules));
            }
            // A server of another make: its name is all there is to say.
            None => lines.push(format!("Rules: {}", self.rules_name)),
        }
        lines.push(match self.duplicates {
            Duplicates::Cancel => "Shared: a word two players found scores for neither".into(),
            Duplicates::Count => "Shared: a word scores for everyone who found it".into(),
        });
        if let Some(rounds) = self.rounds {
            lines.push(format!("Rounds: {rounds}, then the room closes"));
        }
        lines.push(format!(
            "A round starts when {} {} in and all are ready.",
            self.min_players,
            if self.min_players == 1 { "is" } else { "are" }
        ));
        lines.extend([String::new(), "Any key closes this.".to_string()]);
        lines
    }
}

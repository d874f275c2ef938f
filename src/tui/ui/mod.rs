//! Drawing the full-screen game on any ratatui backend: the header with the
//! countdown, the board (large cells when they fit) with the highlighted path
//! in reverse video, the found words in columns, the typed word, the status
//! line, the end screen's word list, the help overlay and the paused screen.
//! The board itself (`largest_cell`, `draw_board`) is drawn the same way
//! by the network game's full screen.

use std::time::Duration;

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use boggle_game::face::QReads;
use boggle_game::rules::{MoveRule, Rules, Scoring};

use super::app::{App, Phase};

mod board;
mod overlay;
mod words;

use board::CELL_SIZES;
pub(crate) use board::{CellSize, board_size, draw_board, largest_cell};
pub(crate) use overlay::{fit, overlay};
use words::{Columns, end_entry_width, end_words, found_words, summary_lines};

/// Rows taken by everything but the board: header, input, status, keys.
const CHROME_ROWS: u16 = 5;
/// The narrowest word panel beside the board.
const WORDS_MIN_WIDTH: u16 = 30;
/// The word panel's width kept when the board is centred in the rest: enough
/// for the end screen's summary lines at 60 columns.
const WORDS_COMFORT_WIDTH: u16 = 34;

/// The screen size the board needs with `cell`: board plus word panel, board plus chrome.
fn needed(app: &App, cell: CellSize) -> (u16, u16) {
    let (width, height) = board_size(app.board(), cell);
    (
        width.saturating_add(4 + WORDS_MIN_WIDTH),
        height.saturating_add(CHROME_ROWS + 1),
    )
}

/// Where things go on a screen of `area`: the cell size, the board's region
/// (the board is centred in it) and the word panel to its right.
struct Layout {
    cell: CellSize,
    board: Rect,
    words: Rect,
}

impl Layout {
    /// The layout of the largest cells that fit, or `None` when none do.
    fn of(app: &App, area: Rect) -> Option<Layout> {
        // Room for the board once the word panel, margins and chrome have theirs.
        let room = (
            area.width.saturating_sub(4 + WORDS_MIN_WIDTH),
            area.height.saturating_sub(CHROME_ROWS + 1),
        );
        let cell = largest_cell(app.board(), room, area)?;
        let (board_w, _) = board_size(app.board(), cell);
        let body_h = area.height - CHROME_ROWS + 1;
        // The left half for the board, centred in it, unless the word panel
        // would get too narrow; never less than the board and its margins.
        let region = (area.width / 2)
            .min(area.width.saturating_sub(WORDS_COMFORT_WIDTH))
            .max(board_w + 4);
        Some(Layout {
            cell,
            board: Rect::new(area.x, area.y + 1, region, body_h),
            words: Rect::new(area.x + region, area.y + 1, area.width - region, body_h),
        })
    }
}

/// Where the end screen's parts go: the summary, the board (when it fits)
/// and the areas the word list flows through, the space beside the board
/// first and then the whole width below it (the whole screen below the
/// summary when the board does not fit: it is not needed to read the results).
struct EndScreen {
    summary: Rect,
    lines: Vec<String>,
    board: Option<(CellSize, Rect)>,
    lists: Vec<Rect>,
}

impl EndScreen {
    fn of(app: &App, area: Rect, layout: Option<&Layout>) -> EndScreen {
        // The rows between the header and the footer.
        let body = Rect::new(
            area.x,
            area.y + 1,
            area.width,
            area.height.saturating_sub(4),
        );
        let Some(layout) = layout else {
            let lines = summary_lines(app, body.width);
            let top = body.y
                + u16::try_from(lines.len())
                    .unwrap_or(u16::MAX)
                    .min(body.height);
            return EndScreen {
                summary: Rect::new(body.x, body.y, body.width, top - body.y),
                lines,
                board: None,
                lists: vec![Rect::new(body.x, top, body.width, body.bottom() - top)],
            };
        };
        let words = layout.words;
        let lines = summary_lines(app, words.width);
        let summary_bottom = words.y
            + u16::try_from(lines.len())
                .unwrap_or(u16::MAX)
                .min(words.height);
        let (_, board_h) = board_size(app.board(), layout.cell);
        // Where the board is drawn while playing, so it stays put when the turn ends.
        let board_top = layout.board.y + layout.board.height.saturating_sub(board_h) / 2;
        let board_bottom = (board_top + board_h).min(layout.board.bottom());
        // Below the board (after a row's gap) the list may take the whole width.
        let below_top = (board_bottom + 1).min(body.bottom());
        let lists = if summary_bottom >= board_bottom {
            vec![Rect::new(
                body.x,
                summary_bottom,
                body.width,
                body.bottom() - summary_bottom,
            )]
        } else if body.bottom() - below_top >= 2 {
            vec![
                Rect::new(
                    words.x,
                    summary_bottom,
                    words.width,
                    board_bottom - summary_bottom,
                ),
                Rect::new(body.x, below_top, body.width, body.bottom() - below_top),
            ]
        } else {
            // Too little below the board to be worth a row of its own.
            vec![Rect::new(
                words.x,
                summary_bottom,
                words.width,
                body.bottom() - summary_bottom,
            )]
        };
        EndScreen {
            summary: Rect::new(words.x, words.y, words.width, summary_bottom - words.y),
            lines,
            board: Some((layout.cell, layout.board)),
            lists,
        }
    }
}

/// Whether `area` is large enough for `app`'s board (while it is not, the
/// game stops its clock).
pub(crate) fn board_fits(app: &App, area: Rect) -> bool {
    Layout::of(app, area).is_some()
}

/// The narrowest screen anything but the "too small" note is drawn on.
const MIN_WIDTH: u16 = 20;

/// Whether `area` is too small for even the end screen (a pty nobody sized
/// is 0x0): only the note is drawn, and nothing is laid out.
fn too_small(area: Rect) -> bool {
    area.height <= CHROME_ROWS || area.width < MIN_WIDTH
}

/// Says the terminal is too small for `app`'s board, and how large it must be.
fn too_small_note(frame: &mut Frame, app: &App, area: Rect) {
    let (w, h) = needed(app, CELL_SIZES[CELL_SIZES.len() - 1]);
    let stopped = if app.is_over() {
        ""
    } else {
        "; the clock is stopped"
    };
    let text = format!("terminal too small: need {w}x{h}{stopped}");
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

/// Draws the whole screen for `app` in `look`.
pub(crate) fn render(frame: &mut Frame, app: &App, look: Look) {
    let area = frame.area();
    if too_small(area) {
        return too_small_note(frame, app, area);
    }
    let layout = Layout::of(app, area);
    if app.is_over() {
        header(frame, app, Rect::new(area.x, area.y, area.width, 1));
        let end = EndScreen::of(app, area, layout.as_ref());
        if let Some(board) = end.board {
            draw_board(frame, app.board(), &app.highlight(), board, look);
        }
        let text: Vec<Line> = end.lines.into_iter().map(Line::from).collect();
        frame.render_widget(Paragraph::new(text), end.summary);
        end_words(frame, app, &end.lists, look);
    } else {
        let Some(layout) = layout else {
            return too_small_note(frame, app, area);
        };
        header(frame, app, Rect::new(area.x, area.y, area.width, 1));
        if app.board_hidden() {
            // Under help the overlay says how to go back; only the paused screen needs this.
            if app.screen() == Phase::Paused {
                let paused = Paragraph::new("Paused: Tab resumes").alignment(Alignment::Center);
                frame.render_widget(paused, centre_row(layout.board));
            }
        } else {
            draw_board(
                frame,
                app.board(),
                &app.highlight(),
                (layout.cell, layout.board),
                look,
            );
        }
        found_words(frame, app, layout.words);
    }
    footer(
        frame,
        app,
        Rect::new(area.x, area.bottom() - 3, area.width, 3),
        look,
    );
    if app.phase() == Phase::Help {
        help(frame, app, area);
    }
    if let Some(lines) = app.meaning() {
        overlay(frame, area, " WordNet 3.1 ", lines);
    }
}

/// How many end-screen words one PageUp/PageDown moves over on a screen of
/// `area`: the words shown at once.
pub(crate) fn page_size(app: &App, area: Rect) -> usize {
    if too_small(area) {
        return 0;
    }
    let end = EndScreen::of(app, area, Layout::of(app, area).as_ref());
    Columns::new(app.end_words().len(), end_entry_width(app), &end.lists).shown()
}

/// How the screen is styled: the highlight is reverse video always, coloured only when allowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Look {
    /// Whether to use colour (`--color`, `NO_COLOR`).
    pub(crate) colour: bool,
}

impl Look {
    fn highlight(self) -> Style {
        let style = Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD);
        if self.colour {
            style.fg(Color::Yellow)
        } else {
            style
        }
    }

    fn status(self, good: bool) -> Style {
        match (self.colour, good) {
            (false, _) => Style::default(),
            (true, true) => Style::default().fg(Color::Green),
            (true, false) => Style::default().fg(Color::Red),
        }
    }
}

fn centre_row(area: Rect) -> Rect {
    Rect::new(area.x, area.y + area.height / 2, area.width, 1)
}

fn header(frame: &mut Frame, app: &App, area: Rect) {
    let rules = app.rules();
    let day = app
        .daily()
        .map_or(String::new(), |n| format!("today's board #{n}  "));
    let left = format!(
        " Boggle  {day}{} {}x{}  {}",
        rules.preset,
        rules.rows,
        rules.cols,
        app.remaining().map_or("untimed".to_string(), clock)
    );
    frame.render_widget(Paragraph::new(left), area);
    frame.render_widget(Paragraph::new("? help ").alignment(Alignment::Right), area);
}

/// `m:ss` left, rounded up so the clock shows 0:00 only when time is up.
pub(crate) fn clock(left: Duration) -> String {
    let seconds = left.as_millis().div_ceil(1000);
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

fn footer(frame: &mut Frame, app: &App, area: Rect, palette: Look) {
    let input = if app.is_over() {
        String::new()
    } else if let Some(why) = app.hint() {
        // The path went dark: say why, as the verdict will, rather than leave the player guessing.
        format!("> {}_   {why}", app.typed())
    } else {
        format!("> {}_", app.typed())
    };
    let good = !app.rejected();
    // The longest spelling of the keys that fits, so 60 columns keep them all.
    let choices: &[&str] = match (app.is_over(), app.can_play_again()) {
        (false, _) => &[
            "Enter: submit   Esc: clear   Tab: pause   ?: help   Ctrl-D: end   Ctrl-C: quit",
            "Enter submit  Esc clear  Tab pause  ? help  ^D end  ^C quit",
            "? help  Tab pause  ^D end  ^C quit",
        ],
        (true, true) => &[
            "Up/Down: a word   d: meaning   PgUp/PgDn: more   Enter: new board   q: quit",
            "Up/Down: word  d: meaning  Enter: new board  q: quit",
            "Enter: new board  ? help  q: quit",
        ],
        (true, false) => &[
            "Up/Down: a word   d: meaning   PgUp/PgDn: more   ?: help   q: quit",
            "Up/Down: word  d: meaning  ?: help  q: quit",
            "Up/Down: a word's path  ? help  q: quit",
        ],
    };
    let room = usize::from(area.width.saturating_sub(1));
    // The end screen takes no key for a moment (a late key must not dismiss
    // it), so none is offered until it does.
    let choices = if app.taking_keys() { choices } else { &[""] };
    let keys = choices
        .iter()
        .find(|keys| keys.len() <= room)
        .or(choices.last())
        .copied()
        .unwrap_or_default();
    let lines = vec![
        Line::from(format!(" {input}")),
        Line::from(Span::styled(
            format!(" {}", app.status()),
            palette.status(good),
        )),
        Line::from(format!(" {keys}")),
    ];
    frame.render_widget(Paragraph::new(lines), area);
}

/// The keys and the rules in force, one line each.
pub(crate) fn help_lines(rules: &Rules) -> Vec<String> {
    let mut lines: Vec<String> = [
        "Type a word: its path lights up on the board.",
        "Enter submits, Backspace deletes, Esc clears.",
        "Tab pauses (the board hides). Ctrl-D ends the turn.",
        "End screen: Up/Down a word's path, d its meaning;",
        "PgUp/PgDn, Home/End page; Enter/n: new board; q quits.",
        "Ctrl-C quits at any time.",
        "",
    ]
    .map(String::from)
    .to_vec();
    lines.extend(rules_lines(rules));
    lines.extend([String::new(), "Any key closes this.".to_string()]);
    lines
}

/// The rules in force, one line each: the preset and size, the words, the
/// moves, the Q and the points (the help of both full screens).
pub(crate) fn rules_lines(rules: &Rules) -> Vec<String> {
    let moves = match rules.moves {
        MoveRule::NoUp => "to a neighbour in the same row or below, never up",
        MoveRule::EightNeighbours => "to any of the 8 neighbours",
    };
    let max = rules
        .max_len
        .map_or(String::new(), |max| format!(" (at most {max})"));
    vec![
        format!(
            "Rules: {}, {}x{} board",
            rules.preset, rules.rows, rules.cols
        ),
        format!("Words: {}+ letters{max}, each cell once", rules.min_len),
        format!("Moves: {moves}"),
        format!(
            "Q: {}",
            match rules.q {
                QReads::Qu => "Qu (two letters)",
                QReads::Q => "a plain Q",
            }
        ),
        format!("Points: {}", scoring_text(rules)),
    ]
}

/// `3:1 4:1 5:2 6:3 7:4 8+:11`, or `letters - 3`.
#[expect(
    clippy::disallowed_methods,
    reason = "the rules' scoring table, shown: no player's word is judged here"
)]
fn scoring_text(rules: &Rules) -> String {
    match rules.scoring {
        Scoring::Table(_) => (rules.min_len.min(8)..=8)
            .map(|n| {
                let plus = if n == 8 { "+" } else { "" };
                format!("{n}{plus}:{}", rules.scoring.points(n))
            })
            .collect::<Vec<_>>()
            .join(" "),
        Scoring::LengthMinus(n) => format!("letters - {n}"),
    }
}

fn help(frame: &mut Frame, app: &App, area: Rect) {
    let mut lines = help_lines(app.rules());
    if let Some(words) = app.word_list() {
        lines.insert(lines.len() - 2, format!("Word list: {words}"));
    }
    overlay(frame, area, " Help ", &lines);
}

#[cfg(test)]
pub(crate) mod tests;

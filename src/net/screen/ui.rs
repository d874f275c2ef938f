//! Drawing `boggle join`'s full screen on any ratatui backend: the header
//! (who, where, and in a round its number, points and time left), the board
//! drawn as the tui draws it with the typed word's path (the chosen word's
//! on the results), the panel beside it (the lobby, the round's verdicts,
//! the results with the chosen word in reverse video), the typed word, the
//! status line, and a box over it all (the help, a word's meaning).
//! Everything from the server was [`clean`]ed on the way in.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use unicode_width::UnicodeWidthStr;

use super::app::{Screen, View};
use crate::tui::ui::{Look, board_size, clock, draw_board, fit, largest_cell, overlay};
use boggle_client::join::{Results, points, waiting_for};
use boggle_game::text::plural;
use boggle_protocol::names::clean;

/// The narrowest panel beside the board (lobby, words, results).
const PANEL_MIN_WIDTH: u16 = 30;
/// The narrowest panel beside the board while the clock runs: the board
/// comes first then (a 40-column terminal keeps it in sight).
const ROUND_PANEL_MIN_WIDTH: u16 = 14;
/// The lobby's column of names is at least this wide.
const NAME_COLUMN: usize = 20;

/// Draws `screen` on the whole frame. Returns how far the results can be
/// scrolled at this size (0 when they fit), and how far they are shown
/// scrolled (the chosen word kept in sight).
pub(crate) fn draw(frame: &mut Frame, screen: &Screen, look: Look) -> (usize, usize) {
    // The status line takes two rows when one would cut it.
    let status_rows = if screen.status.width() > usize::from(frame.area().width) {
        2
    } else {
        1
    };
    let [header, body, input, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(status_rows),
    ])
    .areas(frame.area());
    // The round, the points and the clock at the right, kept whole: a
    // narrow terminal cuts the title, never the time left.
    let round = match (screen.view, screen.left) {
        (View::Round, Some(left)) => format!(
            "   round {}   {}   {}",
            screen.round,
            points(screen.score),
            clock(left)
        ),
        _ => String::new(),
    };
    let round_width = u16::try_from(round.width()).unwrap_or(u16::MAX);
    let [title, clock_area] =
        Layout::horizontal([Constraint::Min(0), Constraint::Length(round_width)]).areas(header);
    let bold = Style::default().add_modifier(Modifier::BOLD);
    // A narrow terminal keeps who and the room, if not the rules.
    let shown_title = if screen.title.width() > usize::from(title.width) {
        &screen.short_title
    } else {
        &screen.title
    };
    frame.render_widget(Paragraph::new(shown_title.clone()).style(bold), title);
    frame.render_widget(Paragraph::new(round).style(bold), clock_area);
    let side = if screen.view == View::Lobby && screen.round == 0 {
        body
    } else {
        board_and_panel(frame, screen, body, look)
    };
    let mut scrolled = (0, 0);
    match screen.view {
        View::Lobby => panel(
            frame,
            side,
            "lobby",
            lobby_lines(screen, usize::from(side.width.saturating_sub(2))),
        ),
        View::Round => {
            let lines = screen
                .verdicts
                .iter()
                .rev()
                .map(|(text, accepted)| {
                    let style = if *accepted {
                        Style::default().add_modifier(Modifier::BOLD)
                    } else {
                        Style::default()
                    };
                    Line::styled(text.clone(), style)
                })
                .collect();
            panel(frame, side, "your words", lines);
        }
        View::Results => scrolled = results_panel(frame, screen, side),
    }
    let prompt = if screen.view == View::Round {
        format!("> {}_", screen.typed)
    } else {
        String::new()
    };
    frame.render_widget(Paragraph::new(prompt), input);
    frame.render_widget(
        Paragraph::new(screen.status.clone()).wrap(Wrap { trim: true }),
        status,
    );
    if let Some((title, lines)) = &screen.overlay {
        overlay(frame, frame.area(), title, lines);
    }
    scrolled
}

/// A bordered panel titled `title` holding `lines`, wrapped to its width.
fn panel(frame: &mut Frame, area: Rect, title: &str, lines: Vec<Line<'static>>) {
    let text = Paragraph::new(lines)
        .block(
            Block::default()
                .borders(Borders::ALL)
                .title(title.to_string()),
        )
        .wrap(Wrap { trim: false });
    frame.render_widget(text, area);
}

/// The results, laid out to the panel's width so that no entry (`WORD +2`)
/// is ever split, scrolled by `screen.scroll` (to the chosen word when it
/// was just chosen), with a marker on the border where there is more above
/// or below. Returns how far they can scroll, and how far they are.
fn results_panel(frame: &mut Frame, screen: &Screen, area: Rect) -> (usize, usize) {
    let inner_width = usize::from(area.width.saturating_sub(2));
    let height = usize::from(area.height.saturating_sub(2));
    let (mut lines, chosen) = match &screen.results {
        Some(results) => results_text(results, inner_width, screen.selected),
        None => (Vec::new(), None),
    };
    if let Some(rejoin) = screen.rejoin_hint().filter(|_| !screen.last) {
        lines.push(Line::from(""));
        let words: Vec<String> = rejoin.split(' ').map(str::to_string).collect();
        lines.extend(
            flow(&words, "", "", " ", inner_width)
                .into_iter()
                .map(Line::from),
        );
    }
    let most = lines.len().saturating_sub(height);
    let mut from = screen.scroll.min(most);
    if let Some(line) = chosen.filter(|_| screen.follow) {
        from = from.min(line).max((line + 1).saturating_sub(height));
    }
    let mut block = Block::default().borders(Borders::ALL).title("results");
    if from > 0 {
        block = block.title_top(Line::from(" ↑ more ").right_aligned());
    }
    if from < most {
        block = block.title_bottom(Line::from(" ↓ more: ↑↓ PgUp PgDn ").right_aligned());
    }
    let shown: Vec<Line> = lines.into_iter().skip(from).take(height).collect();
    frame.render_widget(Paragraph::new(shown).block(block), area);
    (most, from)
}

/// The results as lines of at most `width` columns: each player's score
/// (bold), their words and cancelled words, the shared words, the best
/// missed; the word `chosen` (in [`Results::words`]' order) in reverse video.
/// Returns the lines and the line the chosen word is on.
fn results_text(
    results: &Results,
    width: usize,
    chosen: Option<usize>,
) -> (Vec<Line<'static>>, Option<usize>) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut text = Chosen {
        lines: vec![Line::styled(results.heading(), bold)],
        chosen,
        next: 0,
        line: None,
    };
    for player in &results.players {
        text.lines.push(Line::styled(player.heading(), bold));
        let mut entries = player.kept.clone();
        entries.extend(labelled("cancelled:", &player.cancelled));
        entries.extend(player.more.clone());
        // The words: the scored ones, then (after their label) the cancelled.
        let kept = player.kept.len();
        let words: Vec<usize> = (0..kept)
            .chain((kept + 1..).take(player.cancelled.len()))
            .collect();
        text.add("  ", &entries, &words, width);
    }
    if let Some(more) = &results.players_more {
        text.lines.push(Line::raw(more.clone()));
    }
    let mut shared: Vec<String> = results
        .shared
        .iter()
        .map(|(word, who)| format!("{word} ({who})"))
        .collect();
    let words: Vec<usize> = (1..=shared.len()).collect();
    shared.extend(results.shared_more.clone());
    text.add("", &labelled("shared:", &shared), &words, width);
    if let Some(missed) = &results.missed {
        let words: Vec<usize> = (1..=results.missed_words.len()).collect();
        let entries = labelled(&format!("{missed}:"), &results.missed_words);
        text.add("", &entries, &words, width);
    }
    (text.lines, text.line)
}

/// The results' lines as they are laid out, and where the chosen word lands.
struct Chosen {
    lines: Vec<Line<'static>>,
    /// The chosen word, counted over every section's words.
    chosen: Option<usize>,
    /// The first word of the next section, so counted.
    next: usize,
    /// The line the chosen word is on, once laid out.
    line: Option<usize>,
}

impl Chosen {
    /// Lays out one section, `entries` flowed to `width` after `first`; the
    /// entries at `words` are the section's words, in order.
    fn add(&mut self, first: &str, entries: &[String], words: &[usize], width: usize) {
        let (flowed, placed) = flow_placed(entries, first, "  ", "  ", width);
        let entry = self
            .chosen
            .and_then(|c| c.checked_sub(self.next))
            .and_then(|k| words.get(k).copied());
        self.next += words.len();
        let at = entry.and_then(|e| Some((e, placed[e]?)));
        let base = self.lines.len();
        for (i, text) in flowed.into_iter().enumerate() {
            let line = match at {
                Some((e, (line, col))) if line == i => {
                    self.line = Some(base + i);
                    let end = col + entries[e].len();
                    Line::from(vec![
                        Span::raw(text[..col].to_string()),
                        Span::styled(
                            text[col..end].to_string(),
                            Style::default().add_modifier(Modifier::REVERSED),
                        ),
                        Span::raw(text[end..].to_string()),
                    ])
                }
                _ => Line::from(text),
            };
            self.lines.push(line);
        }
    }
}

/// `label` (ending in `:`) and `entries` after it, or nothing without entries.
fn labelled(label: &str, entries: &[String]) -> Vec<String> {
    if entries.is_empty() {
        return Vec::new();
    }
    std::iter::once(label.to_string())
        .chain(entries.iter().cloned())
        .collect()
}

/// `entries` laid out in lines of at most `width` columns, `sep` apart (where
/// that is not one space, a label, an entry ending in `:`, is one space from
/// the entry after it and never ends a line), the first line indented by
/// `first` and the others by `indent`; an entry is never split (one wider
/// than a line has a line of its own).
fn flow(entries: &[String], first: &str, indent: &str, sep: &str, width: usize) -> Vec<String> {
    flow_placed(entries, first, indent, sep, width).0
}

/// [`flow`], with where each entry landed: its line and the byte it starts
/// at (`None` for an entry on a line wider than `width`, which is wrapped).
fn flow_placed(
    entries: &[String],
    first: &str,
    indent: &str,
    sep: &str,
    width: usize,
) -> (Vec<String>, Vec<Option<(usize, usize)>>) {
    let mut lines: Vec<String> = Vec::new();
    let mut placed = Vec::with_capacity(entries.len());
    let mut line = String::new();
    // Words of running text (one space apart) have no labels.
    let labels = sep != " ";
    for (at, entry) in entries.iter().enumerate() {
        let sep = if labels && line.ends_with(':') {
            " "
        } else {
            sep
        };
        // A label goes where the entry after it fits beside it.
        let unit = match entries.get(at + 1) {
            Some(next) if labels && entry.ends_with(':') => entry.width() + 1 + next.width(),
            _ => entry.width(),
        };
        if line.is_empty() {
            let lead = if lines.is_empty() { first } else { indent };
            line = lead.to_string();
        } else if line.width() + sep.width() + unit <= width {
            line.push_str(sep);
        } else {
            lines.push(std::mem::take(&mut line));
            line = indent.to_string();
        }
        placed.push((lines.len(), line.len()));
        line.push_str(entry);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    // An entry wider than a line (a shared word with a long list of names)
    // is wrapped at its spaces rather than cut off by the panel's edge; the
    // lines after it move down.
    let mut shift = 0;
    let mut moved = Vec::with_capacity(lines.len());
    let mut out = Vec::new();
    for line in lines {
        let fitted = fit(line, indent, width);
        moved.push((fitted.len() == 1).then_some(shift));
        shift += fitted.len() - 1;
        out.extend(fitted);
    }
    let placed = placed
        .into_iter()
        .map(|(line, col)| moved[line].map(|shift| (line + shift, col)))
        .collect();
    (out, placed)
}

/// Draws the board at the left of `body` with the tui's drawing (largest
/// cells that fit, the typed word's path highlighted and numbered); returns
/// the area left for the panel beside it.
fn board_and_panel(frame: &mut Frame, screen: &Screen, body: Rect, look: Look) -> Rect {
    let note = |frame: &mut Frame, text: &str| {
        let [line, rest] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(body);
        frame.render_widget(Paragraph::new(text.to_string()), line);
        rest
    };
    let Some(board) = &screen.board else {
        return note(frame, "the server's board cannot be shown");
    };
    // Two columns of margin either side of the board; while the clock runs
    // the panel gives way to the board if it must.
    let fits = |panel: u16| {
        let room = body.width.saturating_sub(panel + 4);
        largest_cell(board, (room, body.height), frame.area()).map(|cell| (cell, panel))
    };
    let Some((cell, panel)) = fits(PANEL_MIN_WIDTH).or_else(|| {
        (screen.view == View::Round)
            .then(|| fits(ROUND_PANEL_MIN_WIDTH))
            .flatten()
    }) else {
        return note(frame, "the board needs a bigger terminal");
    };
    let (width, _) = board_size(board, cell);
    let [left, side] = Layout::horizontal([
        Constraint::Length(width.saturating_add(4)),
        Constraint::Min(panel),
    ])
    .areas(body);
    draw_board(frame, board, &screen.path(), (cell, left), look);
    side
}

/// `text` padded with spaces to `width` columns as a terminal shows them
/// (a CJK character takes two).
fn pad(text: &str, width: usize) -> String {
    let mut padded = text.to_string();
    padded.extend(std::iter::repeat_n(' ', width.saturating_sub(text.width())));
    padded
}

/// Who is in, who is ready, their points, what a round waits for, and the
/// command that takes this seat back, in `width` columns (a player's line
/// on one line: the names' column narrows to fit, down to the longest name).
fn lobby_lines(screen: &Screen, width: usize) -> Vec<Line<'static>> {
    let names: Vec<String> = screen.lobby.iter().map(|p| clean(&p.name)).collect();
    // What follows a name: ` not ready  123 points`.
    const AFTER_NAME: usize = 22;
    let column = names
        .iter()
        .map(|n| n.width())
        .max()
        .unwrap_or(0)
        .max(NAME_COLUMN.min(width.saturating_sub(AFTER_NAME)));
    let mut lines: Vec<Line> = screen
        .lobby
        .iter()
        .zip(&names)
        .map(|(p, name)| {
            let state = match (p.connected, p.ready) {
                (false, _) => "away",
                (true, true) => "ready",
                (true, false) => "not ready",
            };
            Line::from(format!(
                "{} {state:<9} {:>4} {}",
                pad(name, column),
                p.total,
                plural(p.total, "point", "points")
            ))
        })
        .collect();
    lines.push(Line::from(""));
    let wait = match waiting_for(&screen.lobby, screen.min_players) {
        _ if screen.lobby.is_empty() => "joining...".to_string(),
        Some(wait) => format!(
            "{wait}: a round starts when {} are in and all are ready",
            screen.min_players
        ),
        None => format!(
            "a round starts when {} or more are in and all are ready",
            screen.min_players
        ),
    };
    lines.push(Line::from(wait));
    if let Some(rejoin) = screen.rejoin_hint() {
        lines.push(Line::from(""));
        // The panel wraps it at word boundaries.
        lines.push(Line::from(rejoin));
    }
    lines
}

#[cfg(test)]
mod tests;

//! Words in columns: the found words while playing (the newest kept in
//! view) and the end screen's summary and word list (paged, the selected
//! word kept in view), with a line saying how many are not shown.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::Look;
use crate::tui::app::{App, Phase};
use boggle_game::text::plural;

/// Where `count` entries of `width` go in `areas`: top to bottom in columns,
/// filling each area's columns before the next area's, with the last area's
/// bottom row kept for a line saying how many are not shown when they do not
/// all fit.
pub(super) struct Columns {
    count: usize,
    /// Each column's rectangle, in the order entries fill them.
    slots: Vec<Rect>,
    /// The row for the line about entries not shown, when some are not.
    marker: Option<Rect>,
}

impl Columns {
    pub(super) fn new(count: usize, width: u16, areas: &[Rect]) -> Columns {
        let slots = column_slots(areas, width);
        let capacity: usize = slots.iter().map(|s| usize::from(s.height)).sum();
        if count <= capacity {
            return Columns {
                count,
                slots,
                marker: None,
            };
        }
        // The marker takes the bottom row of the last area with room, unless
        // no row would be left for entries (then they are shown instead).
        let mut areas = areas.to_vec();
        let last = areas.iter_mut().rev().find(|a| a.height > 0 && a.width > 0);
        let marker = last.map(|area| {
            area.height -= 1;
            Rect::new(area.x, area.bottom(), area.width, 1)
        });
        let reserved = column_slots(&areas, width);
        if reserved.iter().all(|s| s.height == 0) {
            return Columns {
                count,
                slots,
                marker: None,
            };
        }
        Columns {
            count,
            slots: reserved,
            marker,
        }
    }

    /// How many entries fit on the screen at once.
    fn capacity(&self) -> usize {
        self.slots
            .iter()
            .map(|s| usize::from(s.height))
            .sum::<usize>()
            .max(1)
    }

    /// How many entries are on the screen at once.
    pub(super) fn shown(&self) -> usize {
        self.capacity().min(self.count).max(1)
    }

    /// The first entry shown, so that `selected` is in view: `paged`, the
    /// screenful holding it (so PageDown shows the next screenful whole; the
    /// last one ends with the last entry), else the columns ending with its
    /// column (so the newest word keeps the ones before it in view; columns
    /// of one height, as the playing screen's one area has).
    pub(super) fn first(&self, selected: Option<usize>, paged: bool) -> usize {
        let selected = selected.unwrap_or(0);
        let page = self.capacity();
        if paged {
            // The last screenful is a full one, so End shows more than a stub.
            return (selected / page * page).min(self.count.saturating_sub(page));
        }
        let per_column = self
            .slots
            .first()
            .map_or(1, |s| usize::from(s.height).max(1));
        let selected_column = selected / per_column;
        selected_column.saturating_sub(self.slots.len().saturating_sub(1)) * per_column
    }

    /// Where the `n`th entry shown goes.
    fn place(&self, mut n: usize) -> Option<Rect> {
        for slot in &self.slots {
            let rows = usize::from(slot.height);
            if n < rows {
                let y = slot.y + u16::try_from(n).unwrap_or(0);
                return Some(Rect::new(slot.x, y, slot.width, 1));
            }
            n -= rows;
        }
        None
    }
}

/// The columns of `width` that fit in `areas`, in order; an area narrower
/// than one column gives one clipped column only when it is the first.
fn column_slots(areas: &[Rect], width: u16) -> Vec<Rect> {
    let width = width.max(1);
    let mut slots = Vec::new();
    for (index, area) in areas.iter().enumerate() {
        if area.height == 0 || area.width == 0 {
            continue;
        }
        let mut columns = area.width / width;
        if columns == 0 && index == 0 {
            columns = 1;
        }
        for column in 0..columns {
            let x = area.x + column * width;
            slots.push(Rect::new(
                x,
                area.y,
                width.min(area.right() - x),
                area.height,
            ));
        }
    }
    slots
}

/// Lays `entries` out top to bottom in columns of `width` over `areas`,
/// keeping `selected` in view (see [`Columns::first`] for `paged`); when
/// some do not fit, the last row says how many are before and after the
/// ones shown, in words (never a `+`, which marks a found word).
pub(super) fn columns(
    frame: &mut Frame,
    entries: Vec<Line>,
    (width, areas): (u16, &[Rect]),
    selected: Option<usize>,
    paged: bool,
) {
    let layout = Columns::new(entries.len(), width, areas);
    let first = layout.first(selected, paged);
    let end = (first + layout.capacity()).min(entries.len());
    for (i, entry) in entries.into_iter().enumerate().take(end).skip(first) {
        if let Some(rect) = layout.place(i - first) {
            frame.render_widget(Paragraph::new(entry), rect);
        }
    }
    if let Some(row) = layout.marker {
        let after = layout.count - end;
        let marker = match (first, after) {
            (0, after) => format!("... {after} more"),
            (before, 0) => format!("{before} earlier ..."),
            (before, after) => format!("{before} earlier ... {after} more"),
        };
        frame.render_widget(Paragraph::new(marker), row);
    }
}

/// The width of one `WORD  3` column entry for words up to `longest` letters.
pub(super) fn entry_width(longest: usize) -> u16 {
    u16::try_from(longest.max(4) + 5).unwrap_or(u16::MAX)
}

pub(super) fn found_words(frame: &mut Frame, app: &App, area: Rect) {
    let title = Rect::new(area.x, area.y, area.width, 1);
    frame.render_widget(
        Paragraph::new(format!("Found: {}", app.score_line())),
        title,
    );
    let longest = app.found().iter().map(|(w, _)| w.len()).max().unwrap_or(0);
    let width = entry_width(longest);
    let entries = app
        .found()
        .iter()
        .map(|(word, points)| Line::from(format!("{word:<w$}{points:>2}", w = longest.max(4) + 1)))
        .collect();
    let list = Rect::new(
        area.x,
        area.y + 2,
        area.width,
        area.height.saturating_sub(2),
    );
    // The newest word stays in view when the words outgrow the panel.
    let newest = app.found().len().checked_sub(1);
    columns(frame, entries, (width, &[list]), newest, false);
}

/// The end screen's summary lines, wrapped to `width` columns.
pub(super) fn summary_lines(app: &App, width: u16) -> Vec<String> {
    let mut lines = vec![format!("{} ({}%)", app.score_line(), app.percent())];
    lines.extend(app.share_line());
    lines.extend(longest_and_best_table(app));
    lines.extend(app.versus_line());
    lines.extend(app.record_note().map(str::to_string));
    let session = app.session();
    let games = plural(session.games, "game", "games");
    lines.push(format!(
        "Session: {} {games}, best {}",
        session.games, session.best
    ));
    lines.push(format!(
        "  total {}, average {}",
        session.total,
        session.average()
    ));
    let rare = app.end_words().iter().any(|w| w.rare);
    lines.push(
        if rare {
            "- missed  + found  * rare"
        } else {
            "- missed  + found"
        }
        .to_string(),
    );
    // At 60 columns the panel is 34 wide: long lines (the computer's turn, a
    // records warning) wrap rather than lose their ends.
    let width = usize::from(width);
    lines.iter().flat_map(|l| wrap(l, width)).collect()
}

/// The width of one end-screen entry (`-WORD  3*` and two spaces) for the
/// longest word on the end screen.
pub(super) fn end_entry_width(app: &App) -> u16 {
    let longest = app.end_words().iter().map(|w| w.word.len()).max();
    entry_width(longest.unwrap_or(0)) + 2
}

/// `line` broken at spaces into lines of at most `width` characters, the
/// continuations indented by two; a word longer than a line is left whole.
/// A line that fits is kept as it is, its runs of spaces too.
pub(super) fn wrap(line: &str, width: usize) -> Vec<String> {
    if line.len() <= width {
        return vec![line.to_string()];
    }
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in line.split(' ') {
        let fits = current.len() + 1 + word.len() <= width;
        if current.trim().is_empty() || fits {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        } else {
            lines.push(std::mem::take(&mut current));
            current = format!("  {word}");
        }
    }
    lines.push(current);
    lines
}

/// Whose longest and best words these are: the player's found words and the
/// board's, in a small table so neither is taken for the other.
pub(super) fn longest_and_best_table(app: &App) -> Vec<String> {
    let points = |word: &str| app.game().get_word_score(word);
    let yours = app.your_longest_and_best();
    let board = app.longest_and_best();
    let width = [yours, board]
        .iter()
        .flatten()
        .map(|(longest, _)| longest.len())
        .max()
        .unwrap_or(0)
        .max("Longest".len())
        + 2;
    let row = |who: &str, words: Option<(&str, &str)>| match words {
        Some((longest, best)) => {
            format!("{who:<7}{longest:<width$}{best} {}", points(best))
        }
        None => format!("{who:<7}{:<width$}-", "-"),
    };
    vec![
        format!("{:<7}{:<width$}Best", "", "Longest"),
        row("You", yours),
        row("Board", board),
    ]
}

/// The end screen's words in columns over `areas`, the selected one highlighted.
pub(super) fn end_words(frame: &mut Frame, app: &App, areas: &[Rect], palette: Look) {
    let words = app.end_words();
    let longest = words.iter().map(|w| w.word.len()).max().unwrap_or(0);
    let selected = match app.screen() {
        Phase::Over { selected } => selected,
        _ => 0,
    };
    let entries = words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let mark = if w.found { '+' } else { '-' };
            let rare = if w.rare { "*" } else { "" };
            let text = format!(
                "{mark}{:<n$}{:>2}{rare}",
                w.word,
                w.points,
                n = longest.max(4) + 1
            );
            let style = if i == selected {
                palette.highlight()
            } else {
                Style::default()
            };
            Line::from(Span::styled(text, style))
        })
        .collect();
    columns(
        frame,
        entries,
        (end_entry_width(app), areas),
        Some(selected),
        true,
    );
}

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

/// Where `count` entries of `width` go in `area`: top to bottom in columns,
/// with the last row kept for a "+N more" line when they do not all fit.
pub(super) struct Columns {
    count: usize,
    width: u16,
    per_column: usize,
    visible_columns: usize,
    overflows: bool,
}

impl Columns {
    pub(super) fn new(count: usize, width: u16, area: Rect) -> Columns {
        let rows = usize::from(area.height);
        let visible_columns = usize::from((area.width / width.max(1)).max(1));
        // With a single row there is no room for the marker, so it shows entries.
        let overflows = rows >= 2 && count > rows * visible_columns;
        let per_column = if overflows { rows - 1 } else { rows.max(1) };
        Columns {
            count,
            width,
            per_column,
            visible_columns,
            overflows,
        }
    }

    /// How many entries are on the screen at once.
    pub(super) fn shown(&self) -> usize {
        (self.per_column * self.visible_columns)
            .min(self.count)
            .max(1)
    }

    /// The first entry shown, so that `selected` is in view: `paged`, the
    /// screenful holding it (so PageDown shows the next screenful whole; the
    /// last one ends with the last entry),
    /// else the columns ending with its column (so the newest word keeps the
    /// ones before it in view).
    pub(super) fn first(&self, selected: Option<usize>, paged: bool) -> usize {
        let selected = selected.unwrap_or(0);
        if paged {
            let page = self.per_column * self.visible_columns;
            // The last screenful is a full one, so End shows more than a stub.
            return (selected / page * page).min(self.count.saturating_sub(page));
        }
        let selected_column = selected / self.per_column;
        selected_column.saturating_sub(self.visible_columns - 1) * self.per_column
    }
}

/// Lays `entries` out top to bottom in columns of `width`, keeping
/// `selected` in view (see [`Columns::first`] for `paged`); when some do not
/// fit, the last row says how many are before and after the ones shown.
pub(super) fn columns(
    frame: &mut Frame,
    entries: Vec<Line>,
    (width, area): (u16, Rect),
    selected: Option<usize>,
    paged: bool,
) {
    let layout = Columns::new(entries.len(), width, area);
    let first = layout.first(selected, paged);
    let end = (first + layout.per_column * layout.visible_columns).min(entries.len());
    for (i, entry) in entries.into_iter().enumerate().take(end).skip(first) {
        let column = (i - first) / layout.per_column;
        let x = area.x + u16::try_from(column).unwrap_or(0) * layout.width;
        let y = area.y + u16::try_from((i - first) % layout.per_column).unwrap_or(0);
        let rect = Rect::new(x, y, layout.width.min(area.right() - x), 1);
        frame.render_widget(Paragraph::new(entry), rect);
    }
    if layout.overflows {
        let after = layout.count - end;
        let marker = match (first, after) {
            (0, after) => format!("+{after} more"),
            (before, 0) => format!("{before} earlier"),
            (before, after) => format!("{before} earlier, +{after} more"),
        };
        let row = Rect::new(area.x, area.bottom() - 1, area.width, 1);
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
    columns(frame, entries, (width, list), newest, false);
}

/// The end screen's summary lines above the word list, the list's area and
/// its entries' width.
pub(super) fn end_layout(app: &App, area: Rect) -> (Vec<String>, Rect, u16) {
    let mut lines = vec![format!("{} ({}%)", app.score_line(), app.percent())];
    lines.extend(longest_and_best_table(app));
    lines.extend(app.versus_line());
    lines.extend(app.record_note().map(str::to_string));
    let session = app.session();
    let games = if session.games == 1 { "game" } else { "games" };
    lines.push(format!(
        "Session: {} {games}, best {}",
        session.games, session.best
    ));
    lines.push(format!(
        "  total {}, average {}",
        session.total,
        session.average()
    ));
    lines.push("- missed  + found".to_string());
    // At 60 columns the panel is 34 wide: long lines (the computer's turn, a
    // records warning) wrap rather than lose their ends.
    let width = usize::from(area.width);
    let lines: Vec<String> = lines.iter().flat_map(|l| wrap(l, width)).collect();
    let top = u16::try_from(lines.len())
        .unwrap_or(u16::MAX)
        .min(area.height);
    let list = Rect::new(area.x, area.y + top, area.width, area.height - top);
    let longest = app.end_words().iter().map(|w| w.word.len()).max();
    (lines, list, entry_width(longest.unwrap_or(0)) + 1)
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

pub(super) fn end_words(frame: &mut Frame, app: &App, area: Rect, palette: Look) {
    let (lines, list, width) = end_layout(app, area);
    let text: Vec<Line> = lines.into_iter().map(Line::from).collect();
    frame.render_widget(Paragraph::new(text), area);
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
            let text = format!(
                "{mark}{:<n$}{:>2}{}",
                w.word,
                w.points,
                if w.rare { " rare" } else { "" },
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
    columns(frame, entries, (width, list), Some(selected), true);
}

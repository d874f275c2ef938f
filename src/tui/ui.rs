//! Drawing the full-screen game on any ratatui backend: the header with the
//! countdown, the board (large cells when they fit) with the highlighted path
//! in reverse video, the found words in columns, the typed word, the status
//! line, the end screen's word list, the help overlay and the paused screen.
//! The board itself ([`largest_cell`], [`draw_board`]) is drawn the same way
//! by the network game's full screen.

use std::time::Duration;

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::face::Face;
use crate::game_board::GameBoard;
use crate::rules::{MoveRule, Rules, Scoring};

use super::app::{App, Phase};

/// Rows taken by everything but the board: header, input, status, keys.
const CHROME_ROWS: u16 = 5;
/// The narrowest word panel beside the board.
const WORDS_MIN_WIDTH: u16 = 30;
/// The word panel's width kept when the board is centred in the rest: enough
/// for the end screen's summary lines at 60 columns.
const WORDS_COMFORT_WIDTH: u16 = 34;

/// How big one board cell is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CellSize {
    width: u16,
    height: u16,
    boxed: bool,
}

/// Boxed 7x3 cells when they fit, then boxed 5x3 (60 columns), else bare 4x1
/// cells; every size numbers the path's cells in order.
const CELL_SIZES: [CellSize; 3] = [
    CellSize {
        width: 7,
        height: 3,
        boxed: true,
    },
    CellSize {
        width: 5,
        height: 3,
        boxed: true,
    },
    CellSize {
        width: 4,
        height: 1,
        boxed: false,
    },
];

/// The columns and rows `board` takes with cells of `cell`.
pub(crate) fn board_size(board: &GameBoard, cell: CellSize) -> (u16, u16) {
    let cols = u16::try_from(board.cols()).unwrap_or(u16::MAX);
    let rows = u16::try_from(board.rows()).unwrap_or(u16::MAX);
    (
        cols.saturating_mul(cell.width),
        rows.saturating_mul(cell.height),
    )
}

/// The largest cells with which `board` fits in `width` x `height`, or
/// `None` when even the smallest do not.
pub(crate) fn largest_cell(board: &GameBoard, width: u16, height: u16) -> Option<CellSize> {
    CELL_SIZES.iter().copied().find(|&cell| {
        let (w, h) = board_size(board, cell);
        w <= width && h <= height
    })
}

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
        let cell = largest_cell(
            app.board(),
            area.width.saturating_sub(4 + WORDS_MIN_WIDTH),
            area.height.saturating_sub(CHROME_ROWS + 1),
        )?;
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

/// Draws the whole screen for `app` in `look`.
pub fn render(frame: &mut Frame, app: &App, look: Look) {
    let area = frame.area();
    let Some(layout) = Layout::of(app, area) else {
        let (w, h) = needed(app, CELL_SIZES[CELL_SIZES.len() - 1]);
        let text = format!("terminal too small: need {w}x{h}");
        frame.render_widget(Paragraph::new(text), area);
        return;
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
    if app.is_over() {
        end_words(frame, app, layout.words, look);
    } else {
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
}

/// How many end-screen words one PageUp/PageDown moves over on a screen of
/// `area`: the words shown at once.
pub fn page_size(app: &App, area: Rect) -> usize {
    Layout::of(app, area).map_or(1, |layout| {
        let (_, list, width) = end_layout(app, layout.words);
        let words = app.end_words().len();
        Columns::new(words, width, list).shown()
    })
}

/// How the screen is styled: the highlight is reverse video always, coloured only when allowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Look {
    /// Whether to use colour (`--color`, `NO_COLOR`).
    pub colour: bool,
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
    let left = format!(
        " Boggle  {} {}x{}  {}",
        rules.preset,
        rules.rows,
        rules.cols,
        app.remaining().map_or("untimed".to_string(), clock)
    );
    frame.render_widget(Paragraph::new(left), area);
    frame.render_widget(Paragraph::new("? help ").alignment(Alignment::Right), area);
}

/// `m:ss` left, rounded up so the clock shows 0:00 only when time is up.
pub fn clock(left: Duration) -> String {
    let seconds = left.as_millis().div_ceil(1000);
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// How a face is written in its cell: `A`, `Qu`, `Th`, or blank.
fn face_text(face: Face) -> String {
    let mut chars = face.as_str().chars();
    match chars.next() {
        Some(first) => first.to_string() + &chars.as_str().to_ascii_lowercase(),
        None => String::new(),
    }
}

/// Draws `board` with cells of `cell`, centred in `area`, the cells of
/// `path` highlighted and numbered in order.
pub(crate) fn draw_board(
    frame: &mut Frame,
    board: &GameBoard,
    path: &[usize],
    (cell, area): (CellSize, Rect),
    palette: Look,
) {
    let (board_w, board_h) = board_size(board, cell);
    let left = area.x + (area.width.saturating_sub(board_w)) / 2;
    let top = area.y + (area.height.saturating_sub(board_h)) / 2;
    let cols = board.cols();
    for (index, &face) in board.faces().iter().enumerate() {
        let (row, col) = (index / cols, index % cols);
        let x = left + u16::try_from(col).unwrap_or(0) * cell.width;
        let y = top + u16::try_from(row).unwrap_or(0) * cell.height;
        let rect = Rect::new(x, y, cell.width, cell.height);
        let step = path.iter().position(|&cell| cell == index);
        let style = if step.is_some() {
            palette.highlight()
        } else {
            Style::default()
        };
        if cell.boxed {
            let text = Paragraph::new(face_text(face))
                .alignment(Alignment::Center)
                .style(style);
            // The step number on the border shows the path's order, not just its cells.
            let mut block = Block::default().borders(Borders::ALL);
            if let Some(step) = step {
                block = block.title((step + 1).to_string());
            }
            frame.render_widget(text.block(block), rect);
        } else {
            // No border to carry the step number: it follows the face, in the
            // cell's last two columns (" B3 ", "Qu12").
            let number = step.map_or(String::new(), |step| (step + 1).to_string());
            let text = format!("{:>2}{number:<2}", face_text(face));
            frame.render_widget(Paragraph::new(text).style(style), rect);
        }
    }
}

/// Where `count` entries of `width` go in `area`: top to bottom in columns,
/// with the last row kept for a "+N more" line when they do not all fit.
struct Columns {
    count: usize,
    width: u16,
    per_column: usize,
    visible_columns: usize,
    overflows: bool,
}

impl Columns {
    fn new(count: usize, width: u16, area: Rect) -> Columns {
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
    fn shown(&self) -> usize {
        (self.per_column * self.visible_columns)
            .min(self.count)
            .max(1)
    }

    /// The first entry shown, so that `selected` is in view: `paged`, the
    /// screenful holding it (so PageDown shows the next screenful whole; the
    /// last one ends with the last entry),
    /// else the columns ending with its column (so the newest word keeps the
    /// ones before it in view).
    fn first(&self, selected: Option<usize>, paged: bool) -> usize {
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
fn columns(
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
fn entry_width(longest: usize) -> u16 {
    u16::try_from(longest.max(4) + 5).unwrap_or(u16::MAX)
}

fn found_words(frame: &mut Frame, app: &App, area: Rect) {
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
fn end_layout(app: &App, area: Rect) -> (Vec<String>, Rect, u16) {
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
fn wrap(line: &str, width: usize) -> Vec<String> {
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
fn longest_and_best_table(app: &App) -> Vec<String> {
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

fn end_words(frame: &mut Frame, app: &App, area: Rect, palette: Look) {
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

fn footer(frame: &mut Frame, app: &App, area: Rect, palette: Look) {
    let input = if app.is_over() {
        String::new()
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
            "Up/Down: a word's path   PgUp/PgDn/Home/End: more   Enter: new board   q: quit",
            "Up/Down PgUp/PgDn Home/End: path  Enter: new board  q: quit",
            "Enter: new board  ? help  q: quit",
        ],
        (true, false) => &[
            "Up/Down: a word's path   PgUp/PgDn/Home/End: more   ?: help   q: quit",
            "Up/Down PgUp/PgDn Home/End: a word's path  ?: help  q: quit",
            "Up/Down: a word's path  ? help  q: quit",
        ],
    };
    let room = usize::from(area.width.saturating_sub(1));
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
pub fn help_lines(rules: &Rules) -> Vec<String> {
    let moves = match rules.moves {
        MoveRule::NoUp => "to a neighbour in the same row or below, never up",
        MoveRule::EightNeighbours => "to any of the 8 neighbours",
    };
    let max = rules
        .max_len
        .map_or(String::new(), |max| format!(" (at most {max})"));
    vec![
        "Type a word: its path lights up on the board.".to_string(),
        "Enter submits, Backspace deletes, Esc clears.".to_string(),
        "Tab pauses (the board hides). Ctrl-D ends the turn.".to_string(),
        "End screen: Up/Down show a word's path, PgUp/PgDn".to_string(),
        "and Home/End page; Enter or n: a new board; q quits.".to_string(),
        "Ctrl-C quits at any time.".to_string(),
        String::new(),
        format!(
            "Rules: {}, {}x{} board",
            rules.preset, rules.rows, rules.cols
        ),
        format!("Words: {}+ letters{max}, each cell once", rules.min_len),
        format!("Moves: {moves}"),
        format!(
            "Q: {}",
            if rules.qu {
                "Qu (two letters)"
            } else {
                "a plain Q"
            }
        ),
        format!("Points: {}", scoring_text(rules)),
        String::new(),
        "Any key closes this.".to_string(),
    ]
}

/// `3:1 4:1 5:2 6:3 7:4 8+:11`, or `letters - 3`.
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
    let lines = help_lines(app.rules());
    let width = lines
        .iter()
        .map(|l| l.len())
        .max()
        .map_or(0, |w| u16::try_from(w + 4).unwrap_or(u16::MAX))
        .min(area.width);
    let height = u16::try_from(lines.len() + 2)
        .unwrap_or(u16::MAX)
        .min(area.height);
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let text: Vec<Line> = lines
        .into_iter()
        .map(|l| Line::from(format!(" {l}")))
        .collect();
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(text).block(Block::default().borders(Borders::ALL).title(" Help ")),
        rect,
    );
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::Arc;

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;
    use crate::dictionary::Dictionary;
    use crate::game_board::GameBoard;
    use crate::rules::Rules;
    use crate::tui::app::Input;
    use crate::word_find::WordFind;

    use crate::tui::app::BoardSource;
    use crate::tui::app::tests::{app, rich_app};

    fn send(app: &mut App, keys: &str) {
        for c in keys.chars() {
            app.handle(match c {
                '\n' => Input::Enter,
                c => Input::Char(c),
            });
        }
    }

    /// The screen as rows of text, trailing spaces trimmed, and the cells drawn reversed.
    fn screen(app: &App, width: u16, height: u16) -> (Vec<String>, Vec<(u16, u16)>) {
        drawn(width, height, |frame| render(frame, app, Look::default()))
    }

    /// What `draw` puts on a `width` x `height` screen, as [`screen`] gives
    /// it; the network game's screen is tested with it too.
    pub(crate) fn drawn(
        width: u16,
        height: u16,
        draw: impl FnOnce(&mut Frame),
    ) -> (Vec<String>, Vec<(u16, u16)>) {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
        terminal.draw(draw).expect("draws");
        let buffer = terminal.backend().buffer();
        let rows = (0..height)
            .map(|y| {
                let row: String = (0..width).map(|x| buffer[(x, y)].symbol()).collect();
                row.trim_end().to_string()
            })
            .collect();
        let reversed = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| buffer[(x, y)].modifier.contains(Modifier::REVERSED))
            .collect();
        (rows, reversed)
    }

    #[track_caller]
    pub(crate) fn assert_rows(got: &[String], expected: &[&str]) {
        let got: Vec<&str> = got.iter().map(String::as_str).collect();
        assert_eq!(got, expected, "\n{}", got.join("\n"));
    }

    #[test]
    fn playing_at_80x24() {
        let mut app = app(Some(180));
        send(&mut app, "eat\nlab\nbea");
        app.handle(Input::Tick(Duration::from_millis(2500)));
        let (rows, reversed) = screen(&app, 80, 24);
        // The board is centred in the left half (6 columns either side), the
        // words in the right half.
        assert_rows(
            &rows,
            &[
                " Boggle  project4 4x4  2:58                                              ? help",
                "                                        Found: 1 word, 1 of 3 points",
                "",
                "                                        EAT   1",
                "",
                "      ┌1────┐┌2────┐┌─────┐┌─────┐",
                "      │  B  ││  E  ││  N  ││  H  │",
                "      └─────┘└─────┘└─────┘└─────┘",
                "      ┌─────┐┌3────┐┌─────┐┌─────┐",
                "      │  L  ││  A  ││  U  ││  M  │",
                "      └─────┘└─────┘└─────┘└─────┘",
                "      ┌─────┐┌─────┐┌─────┐┌─────┐",
                "      │  I  ││  T  ││  L  ││  Z  │",
                "      └─────┘└─────┘└─────┘└─────┘",
                "      ┌─────┐┌─────┐┌─────┐┌─────┐",
                "      │  R  ││  G  ││  A  ││  N  │",
                "      └─────┘└─────┘└─────┘└─────┘",
                "",
                "",
                "",
                "",
                " > BEA_",
                " LAB: not allowed by the no-up rule",
                " Enter: submit   Esc: clear   Tab: pause   ?: help   Ctrl-D: end   Ctrl-C: quit",
            ],
        );
        // B, E and A (cells 0, 1, 5) are drawn in reverse video, all 7x3 of each.
        assert_eq!(reversed.len(), 3 * 21);
        for (x, y) in [(6, 5), (13, 6), (19, 10)] {
            assert!(reversed.contains(&(x, y)), "({x}, {y})");
        }
        assert!(!reversed.contains(&(20, 6)));
    }

    #[test]
    fn playing_at_60x20_keeps_the_path_numbers_and_every_key() {
        let mut app = app(Some(180));
        send(&mut app, "eat\nlab\nbea");
        let (rows, reversed) = screen(&app, 60, 20);
        assert_rows(
            &rows,
            &[
                " Boggle  project4 4x4  3:00                          ? help",
                "                          Found: 1 word, 1 of 3 points",
                "",
                "   ┌1──┐┌2──┐┌───┐┌───┐   EAT   1",
                "   │ B ││ E ││ N ││ H │",
                "   └───┘└───┘└───┘└───┘",
                "   ┌───┐┌3──┐┌───┐┌───┐",
                "   │ L ││ A ││ U ││ M │",
                "   └───┘└───┘└───┘└───┘",
                "   ┌───┐┌───┐┌───┐┌───┐",
                "   │ I ││ T ││ L ││ Z │",
                "   └───┘└───┘└───┘└───┘",
                "   ┌───┐┌───┐┌───┐┌───┐",
                "   │ R ││ G ││ A ││ N │",
                "   └───┘└───┘└───┘└───┘",
                "",
                "",
                " > BEA_",
                " LAB: not allowed by the no-up rule",
                " Enter submit  Esc clear  Tab pause  ? help  ^D end  ^C quit",
            ],
        );
        assert_eq!(reversed.len(), 3 * 15, "three 5x3 cells");
    }

    #[test]
    fn found_words_that_overflow_say_how_many_are_hidden() {
        let mut app = rich_app();
        let words: Vec<String> = app.words().iter().take(50).cloned().collect();
        for word in &words {
            send(&mut app, &format!("{word}\n"));
        }
        let (rows, _) = screen(&app, 60, 20);
        assert_rows(
            &rows[1..17],
            &[
                "                          Found: 50 words, 99 of 1345 points",
                "",
                "   ┌───┐┌───┐┌───┐┌───┐   ANT       1  ARGENT    3",
                "   │ S ││ E ││ R ││ S │   ANTE      1  ARS       1",
                "   └───┘└───┘└───┘└───┘   ANTI      1  ART       1",
                "   ┌───┐┌───┐┌───┐┌───┐   APE       1  ARTERIES 11",
                "   │ P ││ A ││ T ││ G │   APES      1  ARTES     2",
                "   └───┘└───┘└───┘└───┘   APIE      1  ARTS      1",
                "   ┌───┐┌───┐┌───┐┌───┐   APING     2  ASP       1",
                "   │ L ││ I ││ N ││ E │   APIS      1  ASPER     2",
                "   └───┘└───┘└───┘└───┘   APLITE    3  ASPERGES 11",
                "   ┌───┐┌───┐┌───┐┌───┐   APSE      1  ASPIRE    3",
                "   │ S ││ E ││ R ││ S │   ARE       1  ATE       1",
                "   └───┘└───┘└───┘└───┘   ARES      1",
                "                          ARETE     2",
                "                          26 earlier",
            ],
        );
        // The newest word stays in view; the 26 before the shown columns are counted.
        assert_eq!(words[26], "ANT");
        assert_eq!(words[49], "ATE");
    }

    #[test]
    fn paused_hides_the_board() {
        let mut app = app(Some(180));
        app.handle(Input::Pause);
        let (rows, _) = screen(&app, 80, 24);
        assert!(rows.iter().all(|r| !r.contains('┌')), "{rows:#?}");
        assert_eq!(rows[11], "           Paused: Tab resumes");
        let (rows, _) = screen(&app, 60, 20);
        assert!(rows.iter().all(|r| !r.contains('┌')), "{rows:#?}");
        assert_eq!(rows[9], "    Paused: Tab resumes");
    }

    #[test]
    fn help_over_the_game_hides_the_board() {
        let mut app = app(Some(180));
        let (rows, _) = screen(&app, 80, 24);
        assert_eq!(rows[6], "      │  B  ││  E  ││  N  ││  H  │");
        app.handle(Input::Help);
        // The help box starts at column 10; the board's first column (at 6) was
        // left showing beside it while the clock stood still.
        let (rows, _) = screen(&app, 80, 24);
        for (y, row) in rows.iter().enumerate().take(21).skip(2) {
            let left: String = row.chars().take(10).collect();
            assert_eq!(left.trim(), "", "row {y}: {row}");
        }
        assert_eq!(
            rows[6],
            "          │ Enter submits, Backspace deletes, Esc clears.            │"
        );
        let (rows, _) = screen(&app, 60, 20);
        for face in ["B", "E", "L", "A", "I", "R"] {
            let cell = format!("│ {face} │");
            assert!(rows.iter().all(|r| !r.contains(&cell)), "{rows:#?}");
        }
        assert_eq!(
            rows[2],
            "┌ Help ────────────────────────────────────────────────────┐"
        );
    }

    #[test]
    fn help_overlay_shows_keys_and_rules() {
        let mut app = app(None);
        app.handle(Input::Help);
        let (rows, _) = screen(&app, 80, 24);
        let text = rows.join("\n");
        for line in [
            "│ Moves: to a neighbour in the same row or below, never up │",
            "│ Points: 3:1 4:1 5:2 6:3 7:4 8+:11",
            "│ Q: a plain Q",
        ] {
            assert!(text.contains(line), "{line}\n{text}");
        }
        assert_eq!(
            rows[0],
            " Boggle  project4 4x4  untimed                                           ? help"
        );
    }

    #[test]
    fn the_end_screen_lists_missed_words_first_and_shows_the_selected_path() {
        let mut app = app(Some(1));
        send(&mut app, "alt\n");
        app.handle(Input::Tick(Duration::from_secs(1)));
        app.set_record_note("Games 3, best 7".to_string());
        app.handle(Input::Down);
        let (rows, reversed) = screen(&app, 80, 24);
        assert_rows(
            &rows,
            &[
                " Boggle  project4 4x4  0:00                                              ? help",
                "                                        1 word, 1 of 3 points (33%)",
                "                                               Longest  Best",
                "                                        You    ALT      ALT 1",
                "                                        Board  BEAU     BEAU 1",
                "      ┌─────┐┌1────┐┌─────┐┌─────┐      Games 3, best 7",
                "      │  B  ││  E  ││  N  ││  H  │      Session: 1 game, best 1",
                "      └─────┘└─────┘└─────┘└─────┘        total 1, average 1.0",
                "      ┌─────┐┌2────┐┌─────┐┌─────┐      - missed  + found",
                "      │  L  ││  A  ││  U  ││  M  │      -BEAU  1",
                "      └─────┘└─────┘└─────┘└─────┘      -EAT   1",
                "      ┌─────┐┌3────┐┌─────┐┌─────┐      +ALT   1",
                "      │  I  ││  T  ││  L  ││  Z  │",
                "      └─────┘└─────┘└─────┘└─────┘",
                "      ┌─────┐┌─────┐┌─────┐┌─────┐",
                "      │  R  ││  G  ││  A  ││  N  │",
                "      └─────┘└─────┘└─────┘└─────┘",
                "",
                "",
                "",
                "",
                "",
                " Time's up: 1 word, 1 of 3 points",
                " Up/Down: a word's path   PgUp/PgDn/Home/End: more   ?: help   q: quit",
            ],
        );
        // EAT's cells (1, 5, 9) and its list entry, "-EAT   1", are reversed.
        assert_eq!(reversed.len(), 3 * 21 + 8);
        let (rows, reversed) = screen(&app, 60, 20);
        assert_rows(
            &rows,
            &[
                " Boggle  project4 4x4  0:00                          ? help",
                "                          1 word, 1 of 3 points (33%)",
                "                                 Longest  Best",
                "   ┌───┐┌1──┐┌───┐┌───┐   You    ALT      ALT 1",
                "   │ B ││ E ││ N ││ H │   Board  BEAU     BEAU 1",
                "   └───┘└───┘└───┘└───┘   Games 3, best 7",
                "   ┌───┐┌2──┐┌───┐┌───┐   Session: 1 game, best 1",
                "   │ L ││ A ││ U ││ M │     total 1, average 1.0",
                "   └───┘└───┘└───┘└───┘   - missed  + found",
                "   ┌───┐┌3──┐┌───┐┌───┐   -BEAU  1",
                "   │ I ││ T ││ L ││ Z │   -EAT   1",
                "   └───┘└───┘└───┘└───┘   +ALT   1",
                "   ┌───┐┌───┐┌───┐┌───┐",
                "   │ R ││ G ││ A ││ N │",
                "   └───┘└───┘└───┘└───┘",
                "",
                "",
                "",
                " Time's up: 1 word, 1 of 3 points",
                " Up/Down PgUp/PgDn Home/End: a word's path  ?: help  q: quit",
            ],
        );
        assert_eq!(reversed.len(), 3 * 15 + 8);
    }

    /// A rich board played twice: LINES and SEAT, then LINES and SAPIENTES.
    fn second_game() -> App {
        let again =
            BoardSource::new(|_: &Rules| GameBoard::new("SERSPATGLINESERS").expect("16 letters"));
        let mut app = rich_app().with_boards(again);
        send(&mut app, "lines\nseat\n");
        app.handle(Input::Finish);
        app.handle(Input::Enter);
        send(&mut app, "lines\nsapientes\n");
        app.handle(Input::Finish);
        app.set_record_note("2 games here, best 13 (new best)".to_string());
        app
    }

    #[test]
    fn a_long_end_screen_at_80x24_pages_and_says_what_is_hidden() {
        let mut app = second_game();
        let (rows, _) = screen(&app, 80, 24);
        assert_rows(
            &rows[1..],
            &[
                "                                        2 words, 13 of 1345 points (0%)",
                "                                               Longest    Best",
                "                                        You    SAPIENTES  SAPIENTES 11",
                "                                        Board  SAPIENTES  SAPIENTES 11",
                "      ┌─────┐┌─────┐┌2────┐┌─────┐      2 games here, best 13 (new best)",
                "      │  S  ││  E  ││  R  ││  S  │      Session: 2 games, best 13",
                "      └─────┘└─────┘└─────┘└─────┘        total 16, average 8.0",
                "      ┌─────┐┌1────┐┌3────┐┌─────┐      - missed  + found",
                "      │  P  ││  A  ││  T  ││  G  │      -ARTERIES  11  -RETAINER  11",
                "      └─────┘└─────┘└─────┘└─────┘      -ASPERGES  11  -SALPETER  11",
                "      ┌─────┐┌6────┐┌─────┐┌4────┐      -ENTRAILS  11  -SPARGERE  11",
                "      │  L  ││  I  ││  N  ││  E  │      -ERITREAN  11  -SPLINTER  11",
                "      └─────┘└─────┘└─────┘└─────┘      -ESPALIER  11  -STEALING  11",
                "      ┌8────┐┌7────┐┌5────┐┌─────┐      -GESNERIA  11  -STRAINER  11",
                "      │  S  ││  E  ││  R  ││  S  │      -GNETALES  11  -STRANGER  11",
                "      └─────┘└─────┘└─────┘└─────┘      -INTEGRAL  11  -STRAPING  11",
                "                                        -PILSENER  11  -ANSERES    5",
                "                                        -RELATING  11  -ELATING    5",
                "                                        -RETAILER  11  -ERITREA    5",
                "                                        +567 more",
                "",
                " Turn ended: 2 words, 13 of 1345 points",
                " Up/Down: a word's path   PgUp/PgDn/Home/End: more   Enter: new board   q: quit",
            ],
        );
        let page = page_size(&app, Rect::new(0, 0, 80, 24));
        assert_eq!(page, 22, "two columns of 11");
        app.set_page(page);
        app.handle(Input::PageDown);
        let (rows, _) = screen(&app, 80, 24);
        assert_eq!(
            rows[9],
            "      │  P  ││  A  ││  T  ││  G  │      -ETERNAL    5  -PARTING    5"
        );
        assert_eq!(
            rows[20],
            "                                        22 earlier, +545 more"
        );
        app.handle(Input::End);
        let (rows, _) = screen(&app, 80, 24);
        assert_rows(
            &rows[14..21],
            &[
                "      ┌─────┐┌5────┐┌─────┐┌9────┐      -TERN       1  -TIRE       1",
                "      │  S  ││  E  ││  R  ││  S  │      -TIE        1  -TIS        1",
                "      └─────┘└─────┘└─────┘└─────┘      -TIEN       1  -TRAP       1",
                "                                        -TIER       1  -TRES       1",
                "                                        -TIES       1  +LINES      2",
                "                                        -TILE       1  +SAPIENTES 11",
                "                                        567 earlier",
            ],
        );
    }

    #[test]
    fn a_long_end_screen_at_60x20_pages_and_says_what_is_hidden() {
        let mut app = second_game();
        let (rows, _) = screen(&app, 60, 20);
        assert_rows(
            &rows[1..],
            &[
                "                          2 words, 13 of 1345 points (0%)",
                "                                 Longest    Best",
                "   ┌───┐┌───┐┌2──┐┌───┐   You    SAPIENTES  SAPIENTES 11",
                "   │ S ││ E ││ R ││ S │   Board  SAPIENTES  SAPIENTES 11",
                "   └───┘└───┘└───┘└───┘   2 games here, best 13 (new best)",
                "   ┌───┐┌1──┐┌3──┐┌───┐   Session: 2 games, best 13",
                "   │ P ││ A ││ T ││ G │     total 16, average 8.0",
                "   └───┘└───┘└───┘└───┘   - missed  + found",
                "   ┌───┐┌6──┐┌───┐┌4──┐   -ARTERIES  11  -INTEGRAL  11",
                "   │ L ││ I ││ N ││ E │   -ASPERGES  11  -PILSENER  11",
                "   └───┘└───┘└───┘└───┘   -ENTRAILS  11  -RELATING  11",
                "   ┌8──┐┌7──┐┌5──┐┌───┐   -ERITREAN  11  -RETAILER  11",
                "   │ S ││ E ││ R ││ S │   -ESPALIER  11  -RETAINER  11",
                "   └───┘└───┘└───┘└───┘   -GESNERIA  11  -SALPETER  11",
                "                          -GNETALES  11  -SPARGERE  11",
                "                          +575 more",
                "",
                " Turn ended: 2 words, 13 of 1345 points",
                " Up/Down PgUp/PgDn Home/End: path  Enter: new board  q: quit",
            ],
        );
        assert_eq!(page_size(&app, Rect::new(0, 0, 60, 20)), 14);
        app.handle(Input::End);
        let (rows, _) = screen(&app, 60, 20);
        assert_rows(
            &rows[9..17],
            &[
                "   ┌───┐┌4──┐┌6──┐┌8──┐   -TIER       1  -TIPS       1",
                "   │ L ││ I ││ N ││ E │   -TIES       1  -TIRE       1",
                "   └───┘└───┘└───┘└───┘   -TILE       1  -TIS        1",
                "   ┌───┐┌5──┐┌───┐┌9──┐   -TIN        1  -TRAP       1",
                "   │ S ││ E ││ R ││ S │   -TINE       1  -TRES       1",
                "   └───┘└───┘└───┘└───┘   -TING       1  +LINES      2",
                "                          -TIP        1  +SAPIENTES 11",
                "                          575 earlier",
            ],
        );
    }

    #[test]
    fn the_computers_turn_wraps_at_60_columns() {
        let dictionary = Dictionary::from_words(["EAT", "BEAU", "ALT", "BEAN"]);
        let rules = Rules::preset(crate::rules::Preset::Cs106b);
        let finder = WordFind::with_rules(Arc::new(dictionary), rules);
        let board = GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters");
        let mut app = App::new(finder, board, None);
        app.handle(Input::Finish);
        app.set_record_note("Not recorded: see the message after the game".to_string());
        let (rows, _) = screen(&app, 60, 20);
        let panel: Vec<String> = rows[1..13]
            .iter()
            .map(|r| r.chars().skip(26).collect())
            .collect();
        assert_rows(
            &panel,
            &[
                "0 words, 0 of 2 points (0%)",
                "       Longest  Best",
                "You    -        -",
                "Board  BEAN     BEAN 1",
                "Computer: 2 words, 2 points; the",
                "  computer wins",
                "Not recorded: see the message",
                "  after the game",
                "Session: 1 game, best 0",
                "  total 0, average 0.0",
                "- missed  + found",
                "-BEAN  1",
            ],
        );
        assert_eq!(wrap("a bb ccc", 4), ["a bb", "  ccc"]);
        assert_eq!(wrap("abcdefgh ij", 4), ["abcdefgh", "  ij"]);
        assert_eq!(wrap("", 4), [""]);
    }

    #[test]
    fn small_terminals_get_small_cells_then_a_message() {
        let mut app = app(None);
        send(&mut app, "bea");
        let (rows, _) = screen(&app, 50, 12);
        assert_rows(
            &rows,
            &[
                " Boggle  project4 4x4  untimed             ? help",
                "                    Found: 0 words, 0 of 3 points",
                "",
                "   B1  E2  N   H",
                "   L   A3  U   M",
                "   I   T   L   Z",
                "   R   G   A   N",
                "",
                "",
                " > BEA_",
                " Type a word and press Enter; ? for help",
                " ? help  Tab pause  ^D end  ^C quit",
            ],
        );
        let (rows, _) = screen(&app, 40, 8);
        assert_eq!(rows[0], "terminal too small: need 50x10");
    }

    #[test]
    fn a_6x6_board_with_qu_fits_80x24_in_large_cells() {
        let rules = Rules::sized(crate::rules::Preset::Classic, 6, 6);
        let finder = WordFind::with_rules(Arc::new(Dictionary::from_words(["QUIT"])), rules);
        let letters = "QITABCDEFGHIJKLMNOPRSTUVWXYZABCDEFGH";
        let board = GameBoard::from_letters(letters, 6, 6, true).expect("36 cells");
        let mut app = App::new(finder, board, None);
        send(&mut app, "quit\nqu");
        let (rows, reversed) = screen(&app, 80, 24);
        assert_rows(
            &rows[1..4],
            &[
                "                                              Found: 1 word, 1 of 1 points",
                "  ┌1────┐┌─────┐┌─────┐┌─────┐┌─────┐┌─────┐",
                "  │ Qu  ││  I  ││  T  ││  A  ││  B  ││  C  │  QUIT  1",
            ],
        );
        assert_eq!(reversed.len(), 21, "typing QU lights the Qu cell");
        assert_eq!(rows[19], "  └─────┘└─────┘└─────┘└─────┘└─────┘└─────┘");
    }

    #[test]
    fn colour_is_added_to_the_reverse_video_never_instead_of_it() {
        let mut app = app(None);
        send(&mut app, "b");
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("test backend");
        for colour in [false, true] {
            terminal
                .draw(|frame| render(frame, &app, Look { colour }))
                .expect("draws");
            let cell = &terminal.backend().buffer()[(9, 6)];
            assert_eq!(cell.symbol(), "B");
            assert!(cell.modifier.contains(Modifier::REVERSED));
            let fg = if colour { Color::Yellow } else { Color::Reset };
            assert_eq!(cell.fg, fg);
        }
    }

    #[test]
    fn clocks_round_up() {
        assert_eq!(clock(Duration::from_secs(180)), "3:00");
        assert_eq!(clock(Duration::from_millis(59_001)), "1:00");
        assert_eq!(clock(Duration::ZERO), "0:00");
    }

    #[test]
    fn qu_faces_show_in_their_cells() {
        assert_eq!(face_text(Face::QU), "Qu");
        assert_eq!(face_text(Face::BLANK), "");
        assert_eq!(face_text(Face::letter(b'a').expect("a letter")), "A");
    }
}

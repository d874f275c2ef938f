//! Drawing the game on any ratatui backend: the board large and centred with
//! the traced path in reverse video, the clock, the typed word, the status
//! line, the found words in columns, the end screen's word list, the help
//! overlay, and a plain message when the terminal is too small. Reads the
//! [`App`]; changes nothing.

use std::time::Duration;

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::app::{App, EndWord, Phase};
use crate::rules::{MoveRule, Rules, Scoring};

/// How the screen may look: colour, or attributes only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// Whether to use colour (the highlight is reverse video either way).
    pub colour: bool,
}

impl Look {
    fn highlight(self) -> Style {
        let style = Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD);
        if self.colour {
            style.fg(Color::Yellow)
        } else {
            style
        }
    }

    fn accent(self) -> Style {
        if self.colour {
            Style::new().fg(Color::Cyan)
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        }
    }

    fn dim(self) -> Style {
        if self.colour {
            Style::new().fg(Color::DarkGray)
        } else {
            Style::new()
        }
    }
}

/// Cell sizes tried for the board, largest first (width, height in characters).
const CELL_SIZES: [(u16, u16); 4] = [(7, 3), (5, 3), (4, 2), (3, 1)];
/// Narrowest word panel worth drawing.
const PANEL_MIN_WIDTH: u16 = 24;
/// Lines outside the middle area: title, typed word, status, keys.
const CHROME_LINES: u16 = 4;

/// The smallest terminal (columns, lines) that can show this board.
pub fn min_size(rules: &Rules) -> (u16, u16) {
    let (w, h) = CELL_SIZES[CELL_SIZES.len() - 1];
    let (board_w, board_h) = board_size(rules, (w, h));
    (board_w + 2 + PANEL_MIN_WIDTH, board_h + 2 + CHROME_LINES)
}

/// Draws the whole screen.
pub fn render(frame: &mut Frame, app: &App, look: Look) {
    let area = frame.area();
    let (need_w, need_h) = min_size(app.rules());
    if area.width < need_w || area.height < need_h {
        let text = format!(
            "This terminal is {}x{}; boggle needs at least {need_w}x{need_h}. Enlarge it, or press Ctrl-C to quit.",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let [title, middle, typed, status, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    render_title(frame.buffer_mut(), title, app, look);
    let (cell, board_w) = fit_cell(app.rules(), middle);
    // The board takes half the width (more if it needs it) and sits centred in it.
    let left_w = (board_w + 4).max(middle.width / 2);
    let [left, right] =
        Layout::horizontal([Constraint::Length(left_w), Constraint::Fill(1)]).areas(middle);
    if app.screen() == Phase::Paused {
        let text = Paragraph::new(vec![
            Line::raw(""),
            Line::raw("Paused"),
            Line::raw(""),
            Line::raw("Tab resumes"),
        ])
        .centered()
        .block(Block::bordered());
        frame.render_widget(text, left);
    } else {
        render_board(frame.buffer_mut(), left, app, cell, look);
    }
    if app.is_over() {
        render_end(frame, right, app, look);
    } else if app.screen() != Phase::Paused {
        render_found(frame, right, app, look);
    }
    render_typed(frame.buffer_mut(), typed, app, look);
    frame.buffer_mut().set_stringn(
        status.x,
        status.y,
        app.status(),
        status.width.into(),
        Style::new(),
    );
    frame
        .buffer_mut()
        .set_stringn(keys.x, keys.y, key_hint(app), keys.width.into(), look.dim());
    if app.phase() == Phase::Help {
        render_help(frame, area, app, look);
    }
}

fn render_title(buf: &mut Buffer, area: Rect, app: &App, look: Look) {
    let rules = app.rules();
    let left = format!("Boggle  {} {}x{}", rules.preset, rules.rows, rules.cols);
    buf.set_stringn(area.x, area.y, &left, area.width.into(), look.accent());
    let clock = match app.remaining() {
        Some(left) => clock(left),
        None => "untimed".to_string(),
    };
    let width = u16::try_from(clock.len()).unwrap_or(u16::MAX);
    let x = area.x + area.width.saturating_sub(width);
    buf.set_string(x, area.y, clock, look.accent().add_modifier(Modifier::BOLD));
}

/// `m:ss`, rounding up so the clock reads 0:00 only when time is up.
pub fn clock(left: Duration) -> String {
    let seconds = left.as_millis().div_ceil(1000);
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

fn board_size(rules: &Rules, (w, h): (u16, u16)) -> (u16, u16) {
    let cols = u16::try_from(rules.cols).unwrap_or(u16::MAX);
    let rows = u16::try_from(rules.rows).unwrap_or(u16::MAX);
    (cols.saturating_mul(w), rows.saturating_mul(h))
}

/// The largest cell size whose board fits `area` beside the word panel, and that board's width.
fn fit_cell(rules: &Rules, area: Rect) -> ((u16, u16), u16) {
    let room_w = area.width.saturating_sub(PANEL_MIN_WIDTH + 4);
    let room_h = area.height.saturating_sub(2);
    let cell = CELL_SIZES
        .into_iter()
        .find(|&cell| {
            let (w, h) = board_size(rules, cell);
            w <= room_w && h <= room_h
        })
        .unwrap_or(CELL_SIZES[CELL_SIZES.len() - 1]);
    (cell, board_size(rules, cell).0)
}

fn render_board(buf: &mut Buffer, area: Rect, app: &App, cell: (u16, u16), look: Look) {
    let (board_w, board_h) = board_size(app.rules(), cell);
    let frame = centre(area, board_w + 2, board_h + 2);
    Block::bordered().render_into(frame, buf);
    let path = app.highlight();
    let board = app.board();
    let (w, h) = cell;
    for (index, face) in board.faces().iter().enumerate() {
        let (row, col) = (index / board.cols(), index % board.cols());
        let x = frame.x + 1 + u16::try_from(col).unwrap_or(0) * w;
        let y = frame.y + 1 + u16::try_from(row).unwrap_or(0) * h;
        let step = path.iter().position(|&c| c == index);
        let style = if step.is_some() {
            look.highlight()
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        };
        // Fill the whole cell inset by one column, so a highlighted cell reads as a tile.
        let inner = Rect::new(x + 1, y, w.saturating_sub(2).max(1), h);
        if step.is_some() {
            buf.set_style(inner, style);
        }
        let text = face.to_string();
        let text_w = u16::try_from(text.len()).unwrap_or(1);
        let tx = x + (w.saturating_sub(text_w)) / 2;
        buf.set_string(tx, y + (h - 1) / 2, &text, style);
        // The step number shows the order of the path where the cell has room for it.
        if let (Some(step), true) = (step, h >= 3 && w >= 5) {
            let number = (step + 1).to_string();
            buf.set_string(x + w - 1 - number.len() as u16, y + h - 1, number, style);
        }
    }
}

/// A `w` x `h` rectangle centred in `area` (clipped to it).
fn centre(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

trait RenderInto {
    fn render_into(self, area: Rect, buf: &mut Buffer);
}

impl RenderInto for Block<'_> {
    fn render_into(self, area: Rect, buf: &mut Buffer) {
        ratatui::widgets::Widget::render(self, area, buf);
    }
}

fn render_found(frame: &mut Frame, area: Rect, app: &App, look: Look) {
    let block = Block::bordered()
        .title(format!(" {} ", app.score_line()))
        .title_style(look.accent());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let entries: Vec<(String, Style)> = app
        .found()
        .iter()
        .map(|(word, points)| (format!("{word} {points}"), Style::new()))
        .collect();
    // The newest words matter most: when the panel is full, the oldest scroll off.
    let capacity = columns_capacity(&entries, inner);
    let skip = entries.len().saturating_sub(capacity);
    draw_columns(frame.buffer_mut(), inner, &entries[skip..]);
}

fn column_width(entries: &[(String, Style)]) -> u16 {
    let widest = entries
        .iter()
        .map(|(text, _)| text.len())
        .max()
        .unwrap_or(0);
    u16::try_from(widest + 2).unwrap_or(u16::MAX)
}

fn columns_capacity(entries: &[(String, Style)], area: Rect) -> usize {
    let columns = (area.width / column_width(entries).max(1)).max(1);
    usize::from(columns) * usize::from(area.height)
}

/// Lays entries out top to bottom, then left to right.
fn draw_columns(buf: &mut Buffer, area: Rect, entries: &[(String, Style)]) {
    if area.height == 0 {
        return;
    }
    let width = column_width(entries);
    for (i, (text, style)) in entries.iter().enumerate() {
        let i = u16::try_from(i).unwrap_or(u16::MAX);
        let x = area
            .x
            .saturating_add((i / area.height).saturating_mul(width));
        let y = area.y + i % area.height;
        if x.saturating_add(width) > area.x + area.width + 2 {
            break;
        }
        let room = usize::from((area.x + area.width).saturating_sub(x));
        buf.set_stringn(x, y, text, room.min(usize::from(width)), *style);
    }
}

fn render_end(frame: &mut Frame, area: Rect, app: &App, look: Look) {
    let block = Block::bordered()
        .title(format!(" {} ", app.score_line()))
        .title_style(look.accent());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut summary = vec![format!("You found {}% of the points.", app.percent())];
    if let Some((longest, best)) = app.longest_and_best() {
        summary.push(format!("Longest {longest}, best {best}"));
    }
    if let Some(note) = app.record_note() {
        summary.push(note.to_string());
    }
    summary.push("+ found  - missed".to_string());
    let buf = frame.buffer_mut();
    for (i, line) in summary.iter().enumerate() {
        let y = inner.y + u16::try_from(i).unwrap_or(u16::MAX);
        if y < inner.y + inner.height {
            buf.set_stringn(inner.x, y, line, inner.width.into(), Style::new());
        }
    }
    let lines = u16::try_from(summary.len()).unwrap_or(u16::MAX);
    let list = Rect::new(
        inner.x,
        inner.y + lines.min(inner.height),
        inner.width,
        inner.height.saturating_sub(lines),
    );
    let words = app.end_words();
    let selected = match app.screen() {
        Phase::Over { selected } => selected,
        _ => 0,
    };
    let entries: Vec<(String, Style)> = words
        .iter()
        .enumerate()
        .map(|(i, word)| (end_entry(word), entry_style(i == selected, word, look)))
        .collect();
    // Scroll a column at a time so the selected word stays in view.
    let per_column = usize::from(list.height.max(1));
    let columns = usize::from((list.width / column_width(&entries).max(1)).max(1));
    let first_column = (selected / per_column + 1).saturating_sub(columns);
    draw_columns(buf, list, &entries[first_column * per_column..]);
}

fn end_entry(word: &EndWord) -> String {
    let mark = if word.found { '+' } else { '-' };
    format!("{mark}{} {}", word.word, word.points)
}

fn entry_style(selected: bool, word: &EndWord, look: Look) -> Style {
    if selected {
        look.highlight()
    } else if word.found {
        Style::new()
    } else {
        look.dim()
    }
}

fn render_typed(buf: &mut Buffer, area: Rect, app: &App, look: Look) {
    if app.is_over() {
        return;
    }
    buf.set_string(area.x, area.y, "Word: ", look.accent());
    let typed = format!("{}_", app.typed());
    buf.set_stringn(
        area.x + 6,
        area.y,
        typed,
        usize::from(area.width.saturating_sub(6)),
        Style::new().add_modifier(Modifier::BOLD),
    );
}

fn key_hint(app: &App) -> &'static str {
    match app.screen() {
        Phase::Over { .. } => "Up/Down select a word   ? help   q quit",
        Phase::Paused => "Tab resume   ? help   Ctrl-D end turn   Ctrl-C quit",
        _ => "Enter submit  Backspace  Esc clear  Tab pause  ? help  Ctrl-D end  Ctrl-C quit",
    }
}

fn render_help(frame: &mut Frame, area: Rect, app: &App, look: Look) {
    let lines = help_lines(app.rules(), app.time_limit());
    let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let width = lines.iter().map(String::len).max().unwrap_or(0) + 4;
    let popup = centre(area, u16::try_from(width).unwrap_or(u16::MAX), height);
    frame.render_widget(Clear, popup);
    let block = Block::bordered()
        .title(" Help: any key closes ")
        .title_style(look.accent());
    let text: Vec<Line> = lines.into_iter().map(Line::raw).collect();
    frame.render_widget(Paragraph::new(text).block(block), popup);
}

/// The help overlay's text: the keys, then the rules in force.
pub fn help_lines(rules: &Rules, time: Option<Duration>) -> Vec<String> {
    let mut lines: Vec<String> = [
        " Letters    type a word (its path lights up)",
        " Enter      submit    Backspace  delete",
        " Esc        clear the word",
        " Tab        pause (hides the board)",
        " Ctrl-D     end the turn now",
        " Up/Down    at the end: show a word's path",
        " Ctrl-C     quit",
        "",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let max = rules
        .max_len
        .map_or(String::new(), |max| format!(" to {max}"));
    lines.push(format!(
        " Rules {}: {}x{} board, words of {}{max} letters",
        rules.preset, rules.rows, rules.cols, rules.min_len
    ));
    lines.push(format!(" Points: {}", scoring_text(rules)));
    lines.push(
        match rules.moves {
            MoveRule::EightNeighbours => " Moves: to any of the 8 neighbours",
            MoveRule::NoUp => " Moves: to a neighbour, never up a row",
        }
        .to_string(),
    );
    let qu = if rules.qu {
        "Qu is one cell, two letters"
    } else {
        "Q is a plain letter"
    };
    let time = time.map_or("untimed".to_string(), clock);
    lines.push(format!(" {qu}; a cell once per word; time {time}"));
    lines
}

fn scoring_text(rules: &Rules) -> String {
    match rules.scoring {
        Scoring::LengthMinus(n) => format!("letters - {n}"),
        Scoring::Table(_) => {
            let from = rules.min_len.max(1);
            let mut parts: Vec<String> = (from..8)
                .map(|n| format!("{n}:{}", rules.word_score(n)))
                .collect();
            parts.push(format!("8+:{}", rules.word_score(8)));
            parts.join(" ")
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;
    use crate::dictionary::Dictionary;
    use crate::game_board::GameBoard;
    use crate::tui::app::Input;
    use crate::word_find::WordFind;

    const PLAIN: Look = Look { colour: false };

    fn app(time: Option<u64>) -> App {
        let dictionary = Dictionary::from_words(["EAT", "LAB", "BEAU", "ALT", "NAG", "TAN"]);
        let finder = WordFind::with_rules(Arc::new(dictionary), Rules::project4());
        let board = GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters");
        App::new(finder, board, time.map(Duration::from_secs))
    }

    fn keys(app: &mut App, text: &str) {
        for c in text.chars() {
            app.handle(match c {
                '\n' => Input::Enter,
                c => Input::Char(c),
            });
        }
    }

    fn screen(app: &App, width: u16, height: u16) -> (Vec<String>, Buffer) {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
        terminal
            .draw(|frame| render(frame, app, PLAIN))
            .expect("draws");
        let buffer = terminal.backend().buffer().clone();
        let rows = (0..height)
            .map(|y| {
                (0..width)
                    .map(|x| buffer[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect();
        (rows, buffer)
    }

    #[track_caller]
    fn check(app: &App, expected: &[&str]) -> Buffer {
        let (rows, buffer) = screen(app, 80, 24);
        let got: Vec<&str> = rows.iter().map(|r| r.trim_end()).collect();
        let expected: Vec<&str> = expected.iter().map(|r| r.trim_end()).collect();
        assert_eq!(got, expected, "\n{}", rows.join("\n"));
        buffer
    }

    #[test]
    fn playing_screen_traces_the_typed_word() {
        let mut app = app(Some(180));
        keys(&mut app, "eat\nxyz\nbea");
        app.handle(Input::Tick(Duration::from_millis(61_500)));
        let buffer = check(
            &app,
            &[
                "Boggle  project4 4x4                                                        1:59",
                "                                        ┌ 1 word, 1 of 5 points ───────────────┐",
                "                                        │EAT 1                                 │",
                "                                        │                                      │",
                "     ┌────────────────────────────┐     │                                      │",
                "     │                            │     │                                      │",
                "     │   B      E      N      H   │     │                                      │",
                "     │     1      2               │     │                                      │",
                "     │                            │     │                                      │",
                "     │   L      A      U      M   │     │                                      │",
                "     │            3               │     │                                      │",
                "     │                            │     │                                      │",
                "     │   I      T      L      Z   │     │                                      │",
                "     │                            │     │                                      │",
                "     │                            │     │                                      │",
                "     │   R      G      A      N   │     │                                      │",
                "     │                            │     │                                      │",
                "     └────────────────────────────┘     │                                      │",
                "                                        │                                      │",
                "                                        │                                      │",
                "                                        └──────────────────────────────────────┘",
                "Word: BEA_",
                "XYZ: not in the dictionary",
                "Enter submit  Backspace  Esc clear  Tab pause  ? help  Ctrl-D end  Ctrl-C quit",
            ],
        );
        // B, E and A are in reverse video; a cell off the path is not.
        for (x, y) in [(9, 6), (16, 6), (16, 9)] {
            assert!(
                buffer[(x, y)].modifier.contains(Modifier::REVERSED),
                "{x},{y}"
            );
        }
        assert!(!buffer[(23, 6)].modifier.contains(Modifier::REVERSED));
        assert_eq!(buffer[(9, 6)].fg, Color::Reset, "no colour when off");
    }

    #[test]
    fn end_screen_lists_found_then_missed_words_and_traces_the_selected_one() {
        let mut app = app(Some(180));
        keys(&mut app, "eat\nnag\n");
        app.handle(Input::Tick(Duration::from_secs(180)));
        app.handle(Input::Down);
        app.handle(Input::Down);
        app.set_record_note("project4 4x4 3:00: 2 games, best 5".into());
        let buffer = check(
            &app,
            &[
                "Boggle  project4 4x4                                                        0:00",
                "                                        ┌ 2 words, 2 of 5 points ──────────────┐",
                "                                        │You found 40% of the points.          │",
                "                                        │Longest BEAU, best ALT                │",
                "     ┌────────────────────────────┐     │project4 4x4 3:00: 2 games, best 5    │",
                "     │                            │     │+ found  - missed                     │",
                "     │   B      E      N      H   │     │+EAT 1                                │",
                "     │                            │     │+NAG 1                                │",
                "     │                            │     │-ALT 1                                │",
                "     │   L      A      U      M   │     │-BEAU 1                               │",
                "     │     2      1               │     │-TAN 1                                │",
                "     │                            │     │                                      │",
                "     │   I      T      L      Z   │     │                                      │",
                "     │            3               │     │                                      │",
                "     │                            │     │                                      │",
                "     │   R      G      A      N   │     │                                      │",
                "     │                            │     │                                      │",
                "     └────────────────────────────┘     │                                      │",
                "                                        │                                      │",
                "                                        │                                      │",
                "                                        └──────────────────────────────────────┘",
                "",
                "Time's up: 2 words, 2 of 5 points; Up/Down show a word's path, q quits",
                "Up/Down select a word   ? help   q quit",
            ],
        );
        assert!(
            buffer[(41, 8)].modifier.contains(Modifier::REVERSED),
            "ALT is selected"
        );
    }

    #[test]
    fn help_overlays_the_keys_and_rules() {
        let mut app = app(Some(180));
        app.handle(Input::Help);
        check(
            &app,
            &[
                "Boggle  project4 4x4                                                        3:00",
                "                                        ┌ 0 words, 0 of 5 points ──────────────┐",
                "                                        │                                      │",
                "                                        │                                      │",
                "     ┌────────────────────────────┐     │                                      │",
                "     │     ┌ Help: any key closes ─────────────────────────────────┐           │",
                "     │   B │ Letters    type a word (its path lights up)           │           │",
                "     │     │ Enter      submit    Backspace  delete                │           │",
                "     │     │ Esc        clear the word                             │           │",
                "     │   L │ Tab        pause (hides the board)                    │           │",
                "     │     │ Ctrl-D     end the turn now                           │           │",
                "     │     │ Up/Down    at the end: show a word's path             │           │",
                "     │   I │ Ctrl-C     quit                                       │           │",
                "     │     │                                                       │           │",
                "     │     │ Rules project4: 4x4 board, words of 3 letters         │           │",
                "     │   R │ Points: 3:1 4:1 5:2 6:3 7:4 8+:11                     │           │",
                "     │     │ Moves: to a neighbour, never up a row                 │           │",
                "     └─────│ Q is a plain letter; a cell once per word; time 3:00  │           │",
                "           └───────────────────────────────────────────────────────┘           │",
                "                                        │                                      │",
                "                                        └──────────────────────────────────────┘",
                "Word: _",
                "Type a word and press Enter; ? for help",
                "Enter submit  Backspace  Esc clear  Tab pause  ? help  Ctrl-D end  Ctrl-C quit",
            ],
        );
    }

    #[test]
    fn pause_hides_the_board() {
        let mut app = app(Some(180));
        app.handle(Input::Pause);
        check(
            &app,
            &[
                "Boggle  project4 4x4                                                        3:00",
                "┌──────────────────────────────────────┐",
                "│                                      │",
                "│                Paused                │",
                "│                                      │",
                "│              Tab resumes             │",
                "│                                      │",
                "│                                      │",
                "│                                      │",
                "│                                      │",
                "│                                      │",
                "│                                      │",
                "│                                      │",
                "│                                      │",
                "│                                      │",
                "│                                      │",
                "│                                      │",
                "│                                      │",
                "│                                      │",
                "│                                      │",
                "└──────────────────────────────────────┘",
                "Word: _",
                "Type a word and press Enter; ? for help",
                "Tab resume   ? help   Ctrl-D end turn   Ctrl-C quit",
            ],
        );
    }

    #[test]
    fn a_small_terminal_says_what_it_needs() {
        let app = app(None);
        let (rows, _) = screen(&app, 30, 10);
        assert_eq!(
            rows[..3].join("\n"),
            "This terminal is 30x10; boggle\nneeds at least 38x10. Enlarge \nit, or press Ctrl-C to quit.  "
        );
    }

    #[test]
    fn clock_rounds_up_to_the_second() {
        assert_eq!(clock(Duration::from_secs(180)), "3:00");
        assert_eq!(clock(Duration::from_millis(59_001)), "1:00");
        assert_eq!(clock(Duration::from_millis(1)), "0:01");
        assert_eq!(clock(Duration::ZERO), "0:00");
    }
}

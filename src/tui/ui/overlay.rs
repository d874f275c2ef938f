//! A box drawn over the middle of a full screen: the tui's help, and the
//! meaning of a word on the results of `tui` and `join`. Lines wider than
//! the screen are wrapped at spaces ([`fit`], which the network game's
//! results lay out with too), the rest of a wrapped line indented under it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use unicode_width::UnicodeWidthStr;

/// Draws `lines` in a bordered box titled `title`, centred in `area`, as
/// wide as its longest line (each after one space) where it fits.
pub(crate) fn overlay(frame: &mut Frame, area: Rect, title: &str, lines: &[String]) {
    // The border and a space on either side.
    let room = usize::from(area.width.saturating_sub(4)).max(1);
    let lines: Vec<String> = lines
        .iter()
        .flat_map(|line| {
            let lead = line.len() - line.trim_start().len();
            fit(line.clone(), &" ".repeat(lead + 2), room)
        })
        .collect();
    let width = lines
        .iter()
        .map(|l| l.width())
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
        Paragraph::new(text).block(
            Block::default()
                .borders(Borders::ALL)
                .title(title.to_string()),
        ),
        rect,
    );
}

/// `line` as lines of at most `width` columns: broken at the last space
/// that fits, or, in a word wider than that, anywhere; the rest indented.
pub(crate) fn fit(line: String, indent: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut rest = line;
    while rest.width() > width && width > indent.width() + 1 {
        let mut cut = 0;
        let mut space = None;
        for (at, c) in rest.char_indices() {
            if rest[..at + c.len_utf8()].width() > width {
                break;
            }
            cut = at + c.len_utf8();
            if c == ' ' && rest[..at].trim().len() > indent.len() {
                space = Some(at);
            }
        }
        let (head, tail) = match space {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => rest.split_at(cut.max(1)),
        };
        lines.push(head.trim_end().to_string());
        rest = format!("{indent}{}", tail.trim_start());
    }
    lines.push(rest);
    lines
}

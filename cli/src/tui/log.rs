//! The scrolling log: events as sentences, errors, notes and echoed commands, each seen by both
//! sides or (hot-seat) by one only, word-wrapped to the panel; PageUp/PageDown scroll it.

use overmind_core::Side;
use ratatui::style::Style;

/// One line of the log.
struct Entry {
    text: String,
    style: Style,
    /// Seen only by this side (hot-seat); `None`: by both.
    only: Option<Side>,
}

/// Every line of the game so far, and where the panel is scrolled to.
#[derive(Default)]
pub struct Log {
    entries: Vec<Entry>,
    /// The first row shown while scrolled back; `None` follows the newest line.
    top: Option<usize>,
}

impl Log {
    /// Add `text`, one entry per line.
    pub fn push(&mut self, text: &str, style: Style, only: Option<Side>) {
        for l in text.trim_end_matches('\n').split('\n') {
            self.entries.push(Entry {
                text: l.trim_end().to_string(),
                style,
                only,
            });
        }
    }

    /// The rows `eyes` may see, wrapped to `width`.
    #[must_use]
    pub fn rows(&self, eyes: Side, width: usize) -> Vec<(String, Style)> {
        let mut out = Vec::new();
        for e in self.visible(eyes) {
            for row in wrap(&e.text, width) {
                out.push((row, e.style));
            }
        }
        out
    }

    fn visible(&self, eyes: Side) -> impl Iterator<Item = &Entry> {
        self.entries
            .iter()
            .filter(move |e| e.only.is_none_or(|s| s == eyes))
    }

    /// The last `n` lines `eyes` may see.
    #[must_use]
    pub fn tail(&self, eyes: Side, n: usize) -> Vec<String> {
        let all: Vec<&Entry> = self.visible(eyes).collect();
        let from = all.len().saturating_sub(n);
        all[from..].iter().map(|e| e.text.clone()).collect()
    }

    /// The rows of a window `height` high over `total` rows: the first shown, and how many
    /// newer rows are below it.
    #[must_use]
    pub fn window(&self, total: usize, height: usize) -> (usize, usize) {
        let last = total.saturating_sub(height);
        let top = self.top.map_or(last, |t| t.min(last));
        (top, total.saturating_sub(top + height))
    }

    /// Scroll back a page of `height` rows over `total`.
    pub fn page_up(&mut self, total: usize, height: usize) {
        let (top, _) = self.window(total, height);
        self.top = Some(top.saturating_sub(height.max(1)));
    }

    /// Scroll on a page; at the newest line the log follows again.
    pub fn page_down(&mut self, total: usize, height: usize) {
        let (top, _) = self.window(total, height);
        let next = top + height.max(1);
        self.top = (next < total.saturating_sub(height)).then_some(next);
    }

    /// Follow the newest line.
    pub fn follow(&mut self) {
        self.top = None;
    }
}

/// `text` in rows of at most `width` characters, broken at spaces where a word allows, later
/// rows indented by two.
#[must_use]
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(4);
    let mut rows = Vec::new();
    let mut row = String::new();
    let mut len = 0;
    // Whether the row holds no word yet (only blanks).
    let mut fresh = true;
    for (i, word) in text.split(' ').enumerate() {
        let wl = word.chars().count();
        if i > 0 {
            if !fresh && len + 1 + wl > width {
                rows.push(std::mem::replace(&mut row, "  ".into()));
                len = 2;
                fresh = true;
            } else {
                row.push(' ');
                len += 1;
            }
        }
        // A word longer than a row is cut where the row ends.
        let mut rest: Vec<char> = word.chars().collect();
        while len + rest.len() > width {
            let take = width.saturating_sub(len);
            row.extend(rest.drain(..take));
            rows.push(std::mem::replace(&mut row, "  ".into()));
            len = 2;
        }
        if !rest.is_empty() {
            fresh = false;
        }
        len += rest.len();
        row.extend(rest);
    }
    rows.push(row);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_at_words_and_indent() {
        assert_eq!(
            wrap("captain moves from 2,17 to 2,14 (3 steps)", 16),
            ["captain moves", "  from 2,17 to", "  2,14 (3 steps)"]
        );
        assert_eq!(wrap("", 10), [""]);
        assert_eq!(wrap("  indented", 20), ["  indented"]);
        let cut = wrap("abcdefghijkl", 5);
        assert!(cut.iter().all(|r| r.chars().count() <= 5), "{cut:?}");
        assert_eq!(cut.concat().replace(' ', ""), "abcdefghijkl");
    }

    #[test]
    fn one_sides_lines_are_hidden_from_the_other() {
        let mut log = Log::default();
        log.push("both", Style::default(), None);
        log.push("heroes only", Style::default(), Some(Side::Heroes));
        log.push(
            "overmind only\nsecond",
            Style::default(),
            Some(Side::Overmind),
        );
        assert_eq!(log.tail(Side::Heroes, 9), ["both", "heroes only"]);
        assert_eq!(
            log.tail(Side::Overmind, 9),
            ["both", "overmind only", "second"]
        );
    }

    #[test]
    fn paging_scrolls_back_and_returns_to_following() {
        let log = &mut Log::default();
        assert_eq!(log.window(100, 10), (90, 0));
        log.page_up(100, 10);
        assert_eq!(log.window(100, 10), (80, 10));
        log.page_up(100, 10);
        log.page_down(100, 10);
        assert_eq!(log.window(100, 10), (80, 10));
        log.page_down(100, 10);
        assert_eq!(log.top, None);
        assert_eq!(log.window(100, 10), (90, 0));
        for _ in 0..20 {
            log.page_up(100, 10);
        }
        assert_eq!(log.window(100, 10), (0, 90));
    }
}

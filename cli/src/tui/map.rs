//! The pinned map: screen.rs's board (render.rs's drawing) with its axis labels kept in view,
//! scrolled to the selected unit when the terminal is too small, and squares marked.

use super::ansi::{self, Cell};
use overmind_core::{GameState, Pos};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

/// The drawn map of one state, as cells.
pub struct Board {
    rows: Vec<Vec<Cell>>,
    /// The map's width and height in squares.
    squares: (i32, i32),
    /// Lines of column numbers above the squares.
    header: usize,
    /// Columns of row numbers (and their gap) left of the squares.
    margin: usize,
}

impl Board {
    /// The board of `state` as line mode draws it.
    #[must_use]
    pub fn new(state: &GameState, colour: bool) -> Board {
        let (w, h) = (state.map.width(), state.map.height());
        Board {
            rows: ansi::cells(&crate::screen::board(state, colour)),
            squares: (w, h),
            header: digits(w - 1),
            margin: digits(h - 1) + 1,
        }
    }

    /// Columns and rows the whole board takes.
    #[must_use]
    pub fn size(&self) -> (u16, u16) {
        let w = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        (clamp(w), clamp(self.rows.len()))
    }

    /// The cell of square `p`: its row and column in `rows`.
    fn cell(&self, p: Pos) -> Option<(usize, usize)> {
        let x = usize::try_from(p.x).ok()?;
        let y = usize::try_from(p.y).ok()?;
        Some((self.header + 2 * y + 1, self.margin + 2 * x + 1))
    }

    /// Draw square `p` in `style` (added to its own), showing `ch` instead when given.
    pub fn mark(&mut self, p: Pos, ch: Option<char>, style: Style) {
        let Some((r, c)) = self.cell(p) else {
            return;
        };
        if let Some(cell) = self.rows.get_mut(r).and_then(|row| row.get_mut(c)) {
            if let Some(ch) = ch {
                cell.0 = ch;
            }
            cell.1 = cell.1.patch(style);
        }
    }

    /// Where `text` begins with this very board drawn with marks on some squares (as `los` and
    /// `reach` answer): those squares and their marks, and how many lines the board took.
    /// `None` when `text` does not begin with this board.
    #[must_use]
    pub fn marks_in(&self, text: &str) -> Option<(Vec<(Pos, char)>, usize)> {
        let lines: Vec<Vec<char>> = text
            .lines()
            .take(self.rows.len())
            .map(|l| l.trim_end().chars().collect())
            .collect();
        if lines.len() < self.rows.len() {
            return None;
        }
        let mut marks = Vec::new();
        for (r, (mine, theirs)) in self.rows.iter().zip(&lines).enumerate() {
            let mine: Vec<char> = mine.iter().map(|c| c.0).collect();
            let end = mine.iter().rposition(|&c| c != ' ').map_or(0, |i| i + 1);
            for (c, &ch) in mine[..end].iter().enumerate() {
                let drawn = theirs.get(c).copied().unwrap_or(' ');
                if drawn == ch {
                    continue;
                }
                // Only a square may differ; anything else means another drawing.
                let square = r >= self.header
                    && (r - self.header) % 2 == 1
                    && c >= self.margin
                    && (c - self.margin) % 2 == 1;
                if !square {
                    return None;
                }
                let x = i32::try_from((c - self.margin) / 2).ok()?;
                let y = i32::try_from((r - self.header) / 2).ok()?;
                if x >= self.squares.0 || y >= self.squares.1 {
                    return None;
                }
                marks.push((Pos::new(x, y), drawn));
            }
            if theirs.len() > end {
                return None;
            }
        }
        Some((marks, self.rows.len()))
    }

    /// Mark a square as selected.
    pub fn select(&mut self, p: Pos) {
        self.mark(
            p,
            None,
            Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD),
        );
    }

    /// Draw into `area`: the labels stay put, and when the squares do not fit they scroll so
    /// that `focus` is in view, as near the middle as the edges allow.
    pub fn render(&self, area: Rect, buf: &mut Buffer, focus: Option<Pos>) {
        let (aw, ah) = (usize::from(area.width), usize::from(area.height));
        let (w, h) = self.size();
        let body_h = usize::from(h).saturating_sub(self.header);
        let body_w = usize::from(w).saturating_sub(self.margin);
        let view_h = ah.saturating_sub(self.header);
        let view_w = aw.saturating_sub(self.margin);
        let (fr, fc) = focus
            .and_then(|p| self.cell(p))
            .map_or((0, 0), |(r, c)| (r - self.header, c - self.margin));
        let r0 = offset(fr, body_h, view_h);
        let c0 = offset(fc, body_w, view_w);
        for sy in 0..ah {
            let src = if sy < self.header {
                sy
            } else {
                self.header + r0 + (sy - self.header)
            };
            let Some(row) = self.rows.get(src) else {
                break;
            };
            for sx in 0..aw {
                let col = if sx < self.margin {
                    sx
                } else {
                    self.margin + c0 + (sx - self.margin)
                };
                let Some(&(ch, style)) = row.get(col) else {
                    break;
                };
                let at = (area.x + clamp(sx), area.y + clamp(sy));
                if let Some(cell) = buf.cell_mut(at) {
                    cell.set_char(ch).set_style(style);
                }
            }
        }
    }
}

/// Where a window of `view` starts over `total` so that `focus` is inside it.
fn offset(focus: usize, total: usize, view: usize) -> usize {
    if total <= view {
        0
    } else {
        focus.saturating_sub(view / 2).min(total - view)
    }
}

fn digits(n: i32) -> usize {
    n.max(0).to_string().len()
}

fn clamp(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// render.rs's one-line key, wrapped to `width`: a line breaks before a symbol (a word of one
/// or two characters) where it can, so a symbol stays with its meaning.
#[must_use]
pub fn key(colour: bool, tokens: &[(char, String)], width: usize) -> Vec<Vec<Cell>> {
    let cells = ansi::cells(&crate::render::key(colour, tokens))
        .into_iter()
        .next()
        .unwrap_or_default();
    wrap(&cells, width.max(1))
}

fn wrap(cells: &[Cell], width: usize) -> Vec<Vec<Cell>> {
    // Words with the spaces before them.
    let mut words: Vec<Vec<Cell>> = Vec::new();
    for &c in cells {
        let start = c.0 != ' '
            && words
                .last()
                .is_none_or(|w| w.last().is_some_and(|l| l.0 == ' '));
        if start || words.is_empty() {
            words.push(Vec::new());
        }
        if let Some(w) = words.last_mut() {
            w.push(c);
        }
    }
    let len = |w: &[Cell]| w.iter().filter(|c| c.0 != ' ').count();
    let mut lines: Vec<Vec<Cell>> = vec![Vec::new()];
    for (i, word) in words.iter().enumerate() {
        let line_len = lines.last().map_or(0, Vec::len);
        // Break before a symbol when it and its meaning would not both fit.
        let need = if len(word) <= 2 {
            word.len()
                + words
                    .get(i + 1)
                    .map_or(0, |n| n.iter().filter(|c| c.0 != ' ').count() + 1)
        } else {
            word.len()
        };
        if line_len > 0 && line_len + need > width {
            lines.push(Vec::new());
        }
        if let Some(line) = lines.last_mut() {
            let word = if line.is_empty() {
                // No leading blank on a fresh line.
                let skip = word.iter().take_while(|c| c.0 == ' ').count();
                &word[skip..]
            } else {
                &word[..]
            };
            line.extend(word.iter().take(width.saturating_sub(line.len())));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Vec<Cell>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.iter().map(|c| c.0).collect())
            .collect()
    }

    #[test]
    fn the_key_wraps_before_a_symbol() {
        let tokens = [
            ('~', "acid pool".to_string()),
            ('[', "terminal".to_string()),
        ];
        let lines = text(&key(false, &tokens, 40));
        assert!(lines.len() > 1, "{lines:?}");
        assert!(lines.iter().all(|l| l.chars().count() <= 40), "{lines:?}");
        assert!(lines[0].starts_with("Key: "));
        // Every piece of the one-line key is there, in order.
        let joined = lines.join(" ");
        let one = crate::render::key(false, &tokens);
        assert!(one.contains("~ acid pool [ terminal"), "{one}");
        let words: Vec<&str> = one.split_whitespace().collect();
        assert_eq!(joined.split_whitespace().collect::<Vec<_>>(), words);
        // No line ends on a bare symbol whose meaning went to the next line.
        for l in &lines[..lines.len() - 1] {
            let last = l.split_whitespace().last().unwrap_or("");
            assert!(last.chars().count() > 2, "{l:?} ends on a symbol");
        }
    }

    #[test]
    fn marks_drawn_on_the_same_board_are_read_back() {
        let m =
            overmind_core::MapBuilder::from_drawing("+-+-+-+\n|. . .|\n+ + + +\n|. # .|\n+-+-+-+")
                .build();
        let mut units = std::collections::HashMap::new();
        units.insert(Pos::new(0, 0), crate::render::Unit::Hero('1'));
        let board = Board {
            rows: ansi::cells(&crate::render::map(&m, &units, false)),
            squares: (3, 2),
            header: 1,
            margin: 2,
        };
        let mut marks = std::collections::HashMap::new();
        marks.insert(Pos::new(2, 0), '*');
        marks.insert(Pos::new(0, 1), '+');
        let text = format!(
            "{}captain: a Sprint reaches 1 squares\n",
            crate::render::marked(&m, &units, &marks, false)
        );
        let (mut got, lines) = board.marks_in(&text).expect("the same board");
        got.sort_by_key(|(p, _)| (p.y, p.x));
        assert_eq!(got, [(Pos::new(2, 0), '*'), (Pos::new(0, 1), '+')]);
        assert_eq!(
            text.lines().nth(lines),
            Some("captain: a Sprint reaches 1 squares")
        );
        assert!(board.marks_in("help text\nof a few lines").is_none());
        // Another map: a wall where this one has none.
        let walled =
            overmind_core::MapBuilder::from_drawing("+-+-+-+\n|. . .|\n+-+ + +\n|. # .|\n+-+-+-+")
                .build();
        let other = crate::render::map(&walled, &units, false);
        assert!(board.marks_in(&other).is_none());
    }

    #[test]
    fn the_window_follows_the_focus_within_the_edges() {
        assert_eq!(offset(5, 10, 20), 0);
        assert_eq!(offset(0, 40, 10), 0);
        assert_eq!(offset(20, 40, 10), 15);
        assert_eq!(offset(39, 40, 10), 30);
    }
}

//! Where each part of the full-screen UI goes for a terminal size: the map pinned at the left
//! with its key under it (or beside it when the whole map takes the height), the unit panel,
//! the roster, the log and the options beside it (below it when the terminal is narrow), the
//! status line and the prompt along the bottom; or one part zoomed to the whole middle.

use ratatui::layout::Rect;

/// The smallest terminal the UI draws in; below it, it asks for a bigger one.
pub const MIN: (u16, u16) = (40, 16);

/// Fewest columns beside the map for the panels to sit there rather than below it (80 columns
/// keep the demo's map and a column of panels side by side).
const RIGHT_MIN: u16 = 30;

/// Fewest rows the log keeps, borders included.
const LOG_MIN: u16 = 6;

/// One part shown over the whole middle of the screen, on demand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Zoom {
    #[default]
    None,
    /// The map, as large as fits (`map`).
    Map,
    /// "You may" (or a decision) in full (F3).
    Options,
    /// The map's key and the dice's (F2).
    Key,
}

/// How much each part would like, in rows and columns of content (no borders).
pub struct Wants<'a> {
    pub zoom: Zoom,
    /// The whole map, labels included.
    pub map: (u16, u16),
    /// Rows the map's key takes at a width.
    pub key_rows: &'a dyn Fn(u16) -> u16,
    pub panel: u16,
    pub roster: u16,
    pub options: u16,
}

/// The parts' places; a part with no room has zero height.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Areas {
    pub title: Rect,
    pub map: Rect,
    pub key: Rect,
    pub panel: Rect,
    pub roster: Rect,
    pub log: Rect,
    pub options: Rect,
    pub status: Rect,
    pub prompt: Rect,
    /// The panels are beside the map (else below it).
    pub beside: bool,
    /// The key is a box in the panels' column (the map took the height under it).
    pub key_boxed: bool,
}

/// The layout for a terminal of `size`, or `None` when it is smaller than [`MIN`].
#[must_use]
pub fn areas(size: Rect, w: &Wants) -> Option<Areas> {
    let (width, height) = (size.width, size.height);
    if width < MIN.0 || height < MIN.1 {
        return None;
    }
    let row = |y: u16, h: u16| Rect::new(size.x, size.y + y, width, h);
    let mut a = Areas {
        title: row(0, 1),
        status: row(height - 2, 1),
        prompt: row(height - 1, 1),
        ..Areas::default()
    };
    let mid_y = size.y + 1;
    let mid_h = height - 3;
    let whole = Rect::new(size.x, mid_y, width, mid_h);
    match w.zoom {
        Zoom::None => {}
        Zoom::Map => {
            a.map = whole;
            return Some(a);
        }
        Zoom::Options => {
            a.options = whole;
            return Some(a);
        }
        Zoom::Key => {
            a.key = whole;
            return Some(a);
        }
    }
    let (map_w, map_h) = w.map;
    let (column, top, room) = if map_w + 1 + RIGHT_MIN <= width {
        a.beside = true;
        // The map takes the height first; the key goes under it only when it fits whole,
        // else into the column (it is never cut).
        let shown = map_h.min(mid_h);
        let key_h = (w.key_rows)(map_w);
        if shown + key_h <= mid_h {
            a.key = Rect::new(size.x, mid_y + shown, map_w, key_h);
        } else {
            a.key_boxed = true;
        }
        a.map = Rect::new(size.x, mid_y, map_w, shown);
        (
            Rect::new(size.x + map_w + 1, mid_y, width - map_w - 1, mid_h),
            mid_y,
            mid_h,
        )
    } else {
        let key_h = (w.key_rows)(width).min(3);
        let shown = map_h
            .min(mid_h * 2 / 5)
            .min(mid_h.saturating_sub(key_h + LOG_MIN));
        a.map = Rect::new(size.x, mid_y, width, shown);
        a.key = Rect::new(size.x, mid_y + shown, width, key_h);
        let used = shown + key_h;
        (
            Rect::new(size.x, mid_y + used, width, mid_h - used),
            mid_y + used,
            mid_h - used,
        )
    };
    // The log keeps its rows. Then the options get a row (a decision must be seen), the
    // panel two, the options the rest of theirs, the panel the rest of its, and the roster
    // what remains; a box of fewer than 3 rows (borders and a line) is left out.
    let mut left = room.saturating_sub(LOG_MIN);
    let options_h = grow(&mut left, 0, w.options.min(1), 3);
    let panel_h = grow(&mut left, 0, w.panel.min(2), 4);
    let options_h = grow(&mut left, options_h, w.options, (room / 3).max(3));
    let panel_h = grow(&mut left, panel_h, w.panel, 14);
    let key_rows = if a.key_boxed {
        (w.key_rows)(column.width.saturating_sub(2))
    } else {
        0
    };
    // Whole or not at all (F2 shows it then).
    let key_h = if key_rows > 0 && key_rows + 2 <= left {
        grow(&mut left, 0, key_rows, key_rows + 2)
    } else {
        0
    };
    let roster_h = if a.beside {
        grow(&mut left, 0, w.roster, room)
    } else {
        0
    };
    let log_h = room - panel_h - options_h - roster_h - key_h;
    let mut y = top;
    let mut next = |h: u16| {
        let r = Rect::new(column.x, y, column.width, h);
        y += h;
        r
    };
    a.panel = next(panel_h);
    a.roster = next(roster_h);
    a.log = next(log_h);
    if a.key_boxed {
        a.key = next(key_h);
    }
    a.options = next(options_h);
    Some(a)
}

/// Give a box `want` rows of content (and its borders), up to `most`, from the rows `left`,
/// keeping the `have` it has; a box of fewer than 3 rows (borders and a line) is left out.
fn grow(left: &mut u16, have: u16, want: u16, most: u16) -> u16 {
    if want == 0 {
        return 0;
    }
    let target = (want + 2).min(most).max(have);
    let h = (have + *left).min(target);
    if h < 3 {
        return 0;
    }
    *left -= h - have;
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wants() -> Wants<'static> {
        Wants {
            zoom: Zoom::None,
            map: (44, 43),
            key_rows: &|w| 100 / w + 1,
            panel: 6,
            roster: 12,
            options: 4,
        }
    }

    fn inside(r: Rect, size: Rect) -> bool {
        r.height == 0 || (r.right() <= size.right() && r.bottom() <= size.bottom())
    }

    fn overlap(a: Rect, b: Rect) -> bool {
        a.height > 0 && b.height > 0 && a.intersects(b)
    }

    fn check(size: Rect) -> Areas {
        let a = areas(size, &wants()).unwrap_or_else(|| panic!("no layout at {size:?}"));
        let parts = [
            a.title, a.map, a.key, a.panel, a.roster, a.log, a.options, a.status, a.prompt,
        ];
        for (i, p) in parts.iter().enumerate() {
            assert!(inside(*p, size), "part {i} {p:?} outside {size:?}");
            for q in &parts[i + 1..] {
                assert!(!overlap(*p, *q), "{p:?} overlaps {q:?} at {size:?}");
            }
        }
        assert!(a.log.height >= LOG_MIN, "{a:?}");
        a
    }

    #[test]
    fn a_big_terminal_has_the_panels_beside_the_whole_map() {
        let a = check(Rect::new(0, 0, 160, 50));
        assert!(a.beside);
        assert_eq!((a.map.width, a.map.height), (44, 43));
        assert!(a.panel.x > a.map.right() - 1 && a.roster.height > 0);
        assert_eq!(a.prompt.y, 49);
    }

    /// Issue 25: at 80×24 the panels sit beside the map, which takes the whole height.
    #[test]
    fn a_small_terminal_keeps_the_map_and_the_panels_side_by_side() {
        let a = check(Rect::new(0, 0, 80, 24));
        assert!(a.beside, "{a:?}");
        assert_eq!((a.map.width, a.map.height), (44, 21));
        assert!(a.panel.height >= 4 && a.options.height >= 3, "{a:?}");
        for zoom in [Zoom::Map, Zoom::Options, Zoom::Key] {
            let z = areas(Rect::new(0, 0, 80, 24), &Wants { zoom, ..wants() }).unwrap_or_default();
            let part = match zoom {
                Zoom::Map => z.map,
                Zoom::Options => z.options,
                _ => z.key,
            };
            assert_eq!(part, Rect::new(0, 1, 80, 21), "{zoom:?}");
        }
    }

    #[test]
    fn a_narrow_terminal_stacks_them_below_a_scrolled_map() {
        let a = check(Rect::new(0, 0, 70, 30));
        assert!(!a.beside);
        assert!(a.map.height < 43 && a.panel.y >= a.key.bottom());
        assert_eq!(a.roster.height, 0);
        assert!(a.panel.height >= 4 && a.options.height >= 3, "{a:?}");
    }

    #[test]
    fn every_size_from_the_smallest_lays_out() {
        for w in (MIN.0..200).step_by(7) {
            for h in (MIN.1..70).step_by(5) {
                check(Rect::new(0, 0, w, h));
            }
        }
        assert!(areas(Rect::new(0, 0, MIN.0 - 1, 40), &wants()).is_none());
    }
}

//! Squares and directions on the Mission Map grid (`x` right, `y` down, `0,0` top-left).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A square of the map, by column `x` and row `y`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[i32; 2]", into = "[i32; 2]")]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    #[must_use]
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// King-move (Chebyshev) distance: the game's range and distance (docs/RULES.md §4.1).
    #[must_use]
    pub fn distance(self, other: Pos) -> u32 {
        (self.x - other.x)
            .unsigned_abs()
            .max((self.y - other.y).unsigned_abs())
    }

    #[must_use]
    pub fn offset(self, d: Dir) -> Pos {
        let (dx, dy) = d.delta();
        Pos::new(self.x + dx, self.y + dy)
    }
}

/// The squares of a model's base: its own square, or for an XXL model the 2×2 block whose
/// top-left square is `at` (docs/RULES.md §4.4). An XXL model's position is that top-left
/// square everywhere.
pub fn footprint(at: Pos, xxl: bool) -> impl Iterator<Item = Pos> + Clone {
    let n = if xxl { 4 } else { 1 };
    (0..n).map(move |i| Pos::new(at.x + i % 2, at.y + i / 2))
}

/// King-move distance between two bases (the least over their squares).
#[must_use]
pub fn base_distance(a: Pos, a_xxl: bool, b: Pos, b_xxl: bool) -> u32 {
    let gap = |lo: i32, lo_big: bool, hi: i32, hi_big: bool| -> u32 {
        // Each base spans [p, p + size - 1] on an axis.
        let (a0, a1) = (lo, lo + i32::from(lo_big));
        let (b0, b1) = (hi, hi + i32::from(hi_big));
        if a1 < b0 {
            (b0 - a1).unsigned_abs()
        } else if b1 < a0 {
            (a0 - b1).unsigned_abs()
        } else {
            0
        }
    };
    gap(a.x, a_xxl, b.x, b_xxl).max(gap(a.y, a_xxl, b.y, b_xxl))
}

impl From<[i32; 2]> for Pos {
    fn from([x, y]: [i32; 2]) -> Pos {
        Pos { x, y }
    }
}

impl From<Pos> for [i32; 2] {
    fn from(p: Pos) -> [i32; 2] {
        [p.x, p.y]
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// The eight directions of a single step.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];
    pub const ORTHOGONAL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    #[must_use]
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::N => (0, -1),
            Dir::NE => (1, -1),
            Dir::E => (1, 0),
            Dir::SE => (1, 1),
            Dir::S => (0, 1),
            Dir::SW => (-1, 1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, -1),
        }
    }

    #[must_use]
    pub const fn is_diagonal(self) -> bool {
        matches!(self, Dir::NE | Dir::SE | Dir::SW | Dir::NW)
    }

    /// The direction of a single step from `a` to `b`, if they are neighbours.
    #[must_use]
    pub fn between(a: Pos, b: Pos) -> Option<Dir> {
        let d = (b.x - a.x, b.y - a.y);
        Dir::ALL.into_iter().find(|dir| dir.delta() == d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_is_chebyshev() {
        assert_eq!(Pos::new(0, 0).distance(Pos::new(3, 5)), 5);
        assert_eq!(Pos::new(2, 2).distance(Pos::new(2, 2)), 0);
        assert_eq!(Pos::new(4, 1).distance(Pos::new(1, 3)), 3);
    }

    #[test]
    fn footprints_and_base_distance() {
        let f: Vec<Pos> = footprint(Pos::new(2, 3), true).collect();
        assert_eq!(
            f,
            vec![
                Pos::new(2, 3),
                Pos::new(3, 3),
                Pos::new(2, 4),
                Pos::new(3, 4)
            ]
        );
        assert_eq!(footprint(Pos::new(2, 3), false).count(), 1);
        assert_eq!(
            base_distance(Pos::new(0, 0), true, Pos::new(2, 0), false),
            1
        );
        assert_eq!(
            base_distance(Pos::new(0, 0), true, Pos::new(1, 1), false),
            0
        );
        assert_eq!(
            base_distance(Pos::new(5, 0), false, Pos::new(0, 0), true),
            4
        );
        assert_eq!(
            base_distance(Pos::new(0, 0), false, Pos::new(3, 5), false),
            5
        );
    }

    #[test]
    fn between_finds_neighbours_only() {
        assert_eq!(Dir::between(Pos::new(1, 1), Pos::new(2, 0)), Some(Dir::NE));
        assert_eq!(Dir::between(Pos::new(1, 1), Pos::new(3, 1)), None);
    }
}

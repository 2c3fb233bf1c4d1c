//! Line of Sight (RULES.md §3): the exact "any point to any point" rule and the centre rule.
//!
//! # The exact rule
//! Squares A and B see each other when some segment from a point strictly inside A to a point
//! strictly inside B touches no wall (closed unit segments on square edges, the border
//! included) and no obstacle square (closed unit squares: solid terrain, models, Blips), A and B
//! themselves excepted. A = B always sees itself; a square off the map sees nothing.
//!
//! ## Why the method below is exact
//! 1. *Lines, not segments.* Blockers never meet the open squares A and B, so a segment from
//!    `P ∈ A` to `Q ∈ B` is clear iff every segment on the same line between the two squares
//!    is: clearness is a property of the line. The clear lines form an open set (closed
//!    blockers, open end squares).
//! 2. *Standard frame.* One of the 8 symmetries of the grid (which map walls to walls and
//!    squares to squares) puts A at square `(0,0)` and B at `(dx,dy)` with `0 <= dy <= dx`
//!    (`y` grows downwards). Then `dx = 1` is a neighbour: orthogonal (clear iff their shared
//!    edge is no wall) or diagonal (clear iff one of the two squares cut past, with its two
//!    edges, is clear). When `dy = 0` every blocker that can touch a line inside the row spans
//!    the row, so the row is clear iff there is none. Otherwise (`dx >= 2`, `dy >= 1`) every
//!    line through A and B is `y = s·x + t` with `s > 0`.
//! 3. *Each blocker is a pair of corners.* The part of such a line that matters runs from where
//!    it leaves A to where it enters B; it lies in the open convex hull of A ∪ B, so only walls
//!    and obstacle squares meeting that hull count ([`frame`] collects them, column by column).
//!    For each of them there are two lattice points `q` (lower left) and `p` (upper right) such
//!    that the line misses the part that matters iff `q` is strictly above the line or `p`
//!    strictly below it: for an obstacle square `[k,k+1]×[r,r+1]`, `q = (k, r+1)` and
//!    `p = (k+1, r)` (a rising line misses a closed square iff it passes on one side of both
//!    those corners); for a wall `x = k`, `q = (k, r+1)`, `p = (k, r)`; for a wall `y = r`,
//!    `q = (k, r)`, `p = (k+1, r)`. In the end columns this still holds because only the
//!    squares and edges strictly inside the box of A and B are collected (e.g. a wall on A's
//!    far side, which the line only meets before it counts, is outside). The line crosses open
//!    A iff `(0,1)` is strictly below it and `(1,0)` strictly above; open B likewise with
//!    `(dx, dy+1)` and `(dx+1, dy)`.
//! 4. *The dual plane.* "Lattice point `X` strictly above `y = s·x + t`" is an open half-plane of
//!    the `(s, t)` plane. So the clear lines are an open convex quadrilateral (through A and B)
//!    minus one closed wedge per blocker (the lines with `q` not above and `p` not below). The
//!    [`solve::Solver`] keeps the clear set as disjoint open convex polygons, one per way of
//!    passing the blockers seen so far (above or below each), and splits every polygon by each
//!    blocker; B is visible iff a polygon survives. Every vertex is the line through two
//!    lattice points and every test is the sign of a 2×2 integer determinant, so it is exact:
//!    no tolerance, symmetric and monotone because the rule is, and blind to the order of
//!    blockers. A polygon "survives" iff it has interior, which a clip detects exactly: the
//!    part of a convex polygon where a linear function is positive has interior iff the
//!    function is positive at some vertex.
//!
//! Cost: collecting blockers visits `O(dx + dy)` squares; the centre line is tried first
//! (usually enough); the polygon step is `O(blockers × polygons × sides)` with small numbers in
//! practice. `core/tests/los_props.rs` checks it against a slow oracle that tries lines through
//! pairs of critical corners, and `core/benches/los.rs` times it.
//!
//! # The centre rule
//! `LosRule::Centre`: the segment between the two centres must touch no wall (closed) and no
//! obstacle square's interior (open), A and B excepted. In the same frame that is one line
//! tested against the same blockers.

mod explain;
mod frame;
mod solve;

#[cfg(test)]
mod tests;

pub use explain::{Blocker, Explanation, ObstacleKind, Point, Rational, WallEdge};

use crate::geom::Pos;
use crate::map::{Map, Obstacles};
use frame::{Blk, Frame};
use serde::{Deserialize, Serialize};
use solve::Solver;
use std::cell::RefCell;

/// Which LOS rule a pack uses (`los = "exact"` or `"centre"` in `rules.toml`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LosRule {
    #[default]
    Exact,
    Centre,
}

/// A Line of Sight rule. Squares `a` and `b` themselves never block.
pub trait LineOfSight {
    fn visible(&self, map: &Map, obstacles: &Obstacles, a: Pos, b: Pos) -> bool;
}

impl LineOfSight for LosRule {
    fn visible(&self, map: &Map, obstacles: &Obstacles, a: Pos, b: Pos) -> bool {
        if !map.in_bounds(a) || !map.in_bounds(b) {
            return false;
        }
        if a == b {
            return true;
        }
        let frame = Frame::new(a, b);
        let query = |s: &mut Scratch| query(*self, &frame, map, obstacles, s);
        SCRATCH
            .try_with(|cell| match cell.try_borrow_mut() {
                Ok(mut s) => query(&mut s),
                Err(_) => query(&mut Scratch::default()),
            })
            .unwrap_or_else(|_| query(&mut Scratch::default()))
    }
}

/// One `visible` query in the frame, with scratch buffers.
fn query(rule: LosRule, frame: &Frame, map: &Map, obstacles: &Obstacles, s: &mut Scratch) -> bool {
    s.blks.clear();
    match rule {
        LosRule::Exact => {
            // In a straight row any blocker at all settles it.
            frame.collect(map, obstacles, &mut s.blks, frame.dy == 0);
            solve::exact_visible(frame, &s.blks, &mut s.solver)
        }
        LosRule::Centre => {
            frame.collect(map, obstacles, &mut s.blks, false);
            let centre = solve::centre_line(frame);
            !s.blks.iter().any(|b| solve::centre_touches(&centre, b))
        }
    }
}

/// Why `a` and `b` do or do not see each other under `rule`: a witness sight line with exact end
/// points, or what blocks (see [`Explanation`]).
#[must_use]
pub fn explain(rule: LosRule, map: &Map, obstacles: &Obstacles, a: Pos, b: Pos) -> Explanation {
    let off: Vec<Blocker> = [a, b]
        .into_iter()
        .filter(|&p| !map.in_bounds(p))
        .map(Blocker::OffMap)
        .collect();
    if !off.is_empty() {
        return Explanation::Blocked { blockers: off };
    }
    let frame = Frame::new(a, b);
    let centres = |frame: &Frame| {
        let half = Rational::new(1, 2).unwrap_or(Rational::integer(0));
        let far_x = Rational::new(2 * i128::from(frame.dx) + 1, 2).unwrap_or(half);
        let far_y = Rational::new(2 * i128::from(frame.dy) + 1, 2).unwrap_or(half);
        ((half, half), (far_x, far_y))
    };
    if a == b {
        return visible_between(&frame, centres(&frame));
    }
    let mut blks = Vec::new();
    frame.collect(map, obstacles, &mut blks, false);
    match rule {
        LosRule::Centre => {
            let centre = solve::centre_line(&frame);
            let blockers: Vec<Blocker> = blks
                .iter()
                .filter(|b| solve::centre_touches(&centre, b))
                .map(|b| b.what)
                .collect();
            if blockers.is_empty() {
                visible_between(&frame, centres(&frame))
            } else {
                Explanation::Blocked { blockers }
            }
        }
        LosRule::Exact => {
            let mut solver = Solver::default();
            if let Some(w) = solve::exact_witness(&frame, &blks, &mut solver) {
                return visible_between(&frame, w);
            }
            if solve::exact_visible(&frame, &blks, &mut solver) {
                // Visible, but the witness overflowed i128 (spans of millions of squares).
                return visible_between(&frame, centres(&frame));
            }
            Explanation::Blocked {
                blockers: irreducible(&frame, blks, &mut solver),
            }
        }
    }
}

/// Drop blockers one by one while the rest still block every line: what is left blocks, and
/// removing any one of them lets some line through. The ones farthest from the centre line are
/// tried first, so the obvious ones stay; the order only depends on the squares' positions, so
/// `explain(a, b)` and `explain(b, a)` agree. The result runs from `a` towards `b`.
fn irreducible(frame: &Frame, mut blks: Vec<Blk>, solver: &mut Solver) -> Vec<Blocker> {
    let (dx, dy) = (i128::from(frame.dx), i128::from(frame.dy));
    // Doubled middle of a blocker (q + p), its distance from the centre line (scaled by the
    // length of A→B) and its position along A→B.
    let mid = |b: &Blk| (i128::from(b.q.x + b.p.x), i128::from(b.q.y + b.p.y));
    let off_centre = |b: &Blk| {
        let (mx, my) = mid(b);
        ((my - 1) * dx - (mx - 1) * dy).abs()
    };
    let along = |b: &Blk| {
        let (mx, my) = mid(b);
        mx * dx + my * dy
    };
    blks.sort_by_key(|b| (std::cmp::Reverse(off_centre(b)), global_key(&b.what)));
    let mut i = 0;
    let mut trial = Vec::with_capacity(blks.len());
    while i < blks.len() {
        trial.clear();
        trial.extend(
            blks.iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, b)| *b),
        );
        if solve::exact_visible(frame, &trial, solver) {
            i += 1;
        } else {
            blks.remove(i);
        }
    }
    blks.sort_by_key(|b| (along(b), global_key(&b.what)));
    blks.into_iter().map(|b| b.what).collect()
}

/// A total order on blockers by map position, for ties.
fn global_key(b: &Blocker) -> (i32, i32, u8) {
    match *b {
        Blocker::Wall(WallEdge::West(p)) => (p.y, p.x, 0),
        Blocker::Wall(WallEdge::North(p)) => (p.y, p.x, 1),
        Blocker::Obstacle { at, .. } => (at.y, at.x, 2),
        Blocker::OffMap(p) => (p.y, p.x, 3),
    }
}

fn visible_between(frame: &Frame, (p, q): (solve::FPoint, solve::FPoint)) -> Explanation {
    match (frame.point_to_map(p.0, p.1), frame.point_to_map(q.0, q.1)) {
        (Some(from), Some(to)) => Explanation::Visible { from, to },
        // Only for coordinates near i64::MAX, which no map reaches.
        _ => Explanation::Blocked {
            blockers: Vec::new(),
        },
    }
}

/// Per-thread buffers, so a query allocates nothing once warm.
#[derive(Default)]
struct Scratch {
    blks: Vec<Blk>,
    solver: Solver,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

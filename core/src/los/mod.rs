//! Line of Sight (docs/RULES.md §3): the exact "any point to any point" rule and the centre rule.
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
//!    and obstacle squares meeting that hull count (`frame.rs` collects them). For each of them
//!    there are two lattice points `q` (lower left) and `p` (upper right) such that the line
//!    misses the part that matters iff `q` is strictly above the line or `p` strictly below it:
//!    for an obstacle square `[k,k+1]×[r,r+1]`, `q = (k, r+1)` and `p = (k+1, r)` (a rising
//!    line misses a closed square iff it passes on one side of both those corners); for a wall
//!    `x = k`, `q = (k, r+1)`, `p = (k, r)`; for a wall `y = r`, `q = (k, r)`, `p = (k+1, r)`.
//!    Everything collected lies inside the box `[0, dx+1]×[0, dy+1]`, not on its outline (the
//!    squares other than A and B, the edges `x = k` for `1 <= k <= dx`, `y = r` for
//!    `1 <= r <= dy`), which is what keeps the test right in the end columns: there the part
//!    that matters only goes down from A (resp. up into B), so e.g. a square below A is passed
//!    iff `p` is below the line, and "`q` above" cannot happen for a line through A. Walls on
//!    the outline (A's top and left sides, B's bottom and right sides) are only ever met
//!    before leaving A or after entering B. The line crosses open A iff `(0,1)` is strictly
//!    below it and `(1,0)` strictly above; open B likewise with `(dx, dy+1)` and `(dx+1, dy)`.
//! 4. *The dual plane.* "Lattice point `X` strictly above `y = s·x + t`" is an open half-plane of
//!    the `(s, t)` plane. So the clear lines are an open convex quadrilateral (through A and B)
//!    minus one closed wedge per blocker (the lines with `q` not above and `p` not below). The
//!    solver (`solve.rs`) keeps the clear set as disjoint open convex polygons, one per way of
//!    passing the blockers seen so far (above or below each), and splits every polygon by each
//!    blocker; B is visible iff a polygon survives. Every vertex is the line through two
//!    lattice points and every test is the sign of a 2×2 integer determinant, so it is exact:
//!    no tolerance, symmetric and monotone because the rule is, and blind to the order of
//!    blockers. A polygon "survives" iff it has interior, which a clip detects exactly: the
//!    part of a convex polygon where a linear function is positive has interior iff the
//!    function is positive at some vertex.
//!
//! Cost: the map keeps its walls and solid squares as bit sets by rows and by columns, so the
//! walls and solid squares in the hull are read along the frame's `dy + 1` rows (the shorter
//! side), a word at a time. Then, in order: the centre line is tried (usually enough to see);
//! a grid line `x = k` or `y = r` that every sight line crosses and that is covered all across
//! the hull settles "blocked" at once (walls across the way); only then the polygons, whose
//! cost is `O(blockers × polygons × sides)`, small in practice. Units are read (from the
//! `Obstacles` bit set) only when walls and solid squares leave a line open. So the first query
//! of a pair also learns what walls and solid squares alone decide, and the map remembers it
//! (2 bits a pair and rule, for maps up to 2048 squares): a pair they block is answered at once
//! from then on, whatever the units (LOS is monotone). For the other pairs, where units
//! decide, the map also remembers (exact rule, one word per entry of a small direct-mapped
//! table) the unit squares in the hull at the last query, up to four: if they blocked, the pair
//! stays blocked while all of them still hold units (more obstacles never make sight); if it
//! was visible, it stays visible while the units in the hull are among them (fewer obstacles
//! never remove sight). Only units in the hull other than A and B can touch a line that matters
//! (point 3), so both are exact, however the other units moved. `core/tests/los_props.rs`
//! checks all this against a slow oracle that tries lines through pairs of critical corners;
//! `core/benches/los.rs` times it.
//!
//! # Explanations
//! [`explain`] gives a witness segment with exact end points (preferring the centres, then
//! quarter and eighth points, then a line from the solver), or an irreducible set of blockers:
//! together they block every line, and without any one of them some line gets through.
//!
//! # The centre rule
//! `LosRule::Centre`: the segment between the two centres must touch no wall (closed) and no
//! obstacle square's interior (open), A and B excepted. In the same frame that is one line
//! tested against the same blockers.

mod cache;
mod explain;
mod frame;
mod solve;

#[cfg(test)]
mod tests;

pub(crate) use cache::LosCache;
pub use explain::{Blocker, Explanation, ObstacleKind, Point, Rational, WallEdge};

use crate::geom::Pos;
use crate::map::{Map, Obstacles};
use cache::{Memo, MemoEntry, Slot, Static};
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
        let (ia, ib) = (map.index(a), map.index(b));
        let slot = Slot::of(map, ia, ib);
        let rule_bit = match self {
            LosRule::Exact => 0,
            LosRule::Centre => 2,
        };
        let known = slot.as_ref().map_or(Static::Unknown, |s| s.get(rule_bit));
        if known == Static::Blocked {
            return false;
        }
        // Only pairs the units decide are remembered, so only the exact rule (the centre rule
        // is one line, cheap already) and only when walls and solid squares are not known to
        // block.
        let memo = match self {
            LosRule::Exact => MemoEntry::of(map, ia, ib),
            LosRule::Centre => None,
        };
        let remembered = memo.as_ref().and_then(MemoEntry::get);
        if let Some((Memo::Blocked, squares, len)) = remembered {
            let w = usize::try_from(map.width()).unwrap_or(1).max(1);
            let at = |i: usize| Pos::new((i % w) as i32, (i / w) as i32);
            if squares[..len].iter().all(|&i| obstacles.contains(at(i))) {
                return false;
            }
        }
        let query = |s: &mut Scratch| {
            if let Some((Memo::Visible, squares, len)) = remembered {
                s.units.clear();
                frame.collect_units(map, obstacles, &mut s.units);
                let had = |u: &Blk| squares[..len].contains(&map.index(frame.unit_square(u)));
                if s.units.len() <= len && s.units.iter().all(had) {
                    return true;
                }
            }
            let (seen, alone) = query(*self, &frame, map, obstacles, s);
            if let (Some(slot), Static::Unknown) = (&slot, known) {
                slot.set(
                    rule_bit,
                    if alone {
                        Static::Visible
                    } else {
                        Static::Blocked
                    },
                );
            }
            // With walls and solid squares alone leaving the pair visible, `s.units` holds every
            // unit in the hull, and they decided.
            if let (Some(memo), true) = (&memo, alone) {
                let kind = if seen { Memo::Visible } else { Memo::Blocked };
                if seen || !s.units.is_empty() {
                    let squares = s.units.iter().map(|u| map.index(frame.unit_square(u)));
                    memo.set(kind, squares);
                }
            }
            seen
        };
        SCRATCH
            .try_with(|cell| match cell.try_borrow_mut() {
                Ok(mut s) => query(&mut s),
                Err(_) => query(&mut Scratch::default()),
            })
            .unwrap_or_else(|_| query(&mut Scratch::default()))
    }
}

/// One `visible` query in the frame, with scratch buffers: whether `b` is visible, and whether
/// walls and solid squares alone leave it visible, which comes for free.
fn query(
    rule: LosRule,
    frame: &Frame,
    map: &Map,
    obstacles: &Obstacles,
    s: &mut Scratch,
) -> (bool, bool) {
    s.statics.clear();
    s.units.clear();
    frame.collect_statics(map, &mut s.statics);
    let (alone, seen) = match rule {
        LosRule::Exact => solve::exact_decide(
            frame,
            &mut s.statics,
            &mut s.units,
            |units| frame.collect_units(map, obstacles, units),
            &mut s.solver,
        ),
        LosRule::Centre => {
            let centre = solve::centre_line(frame);
            let clear = |blks: &[Blk]| !blks.iter().any(|b| solve::centre_touches(&centre, b));
            let alone = clear(&s.statics);
            if alone {
                frame.collect_units(map, obstacles, &mut s.units);
            }
            (alone, alone && clear(&s.units))
        }
    };
    (seen, alone)
}

/// Why `a` and `b` do or do not see each other under `rule`: a witness sight line with exact end
/// points, or what blocks (see [`Explanation`]). Agrees with [`LineOfSight::visible`].
///
/// The witness is exact for any span a map can hold in memory short of about a million
/// squares between `a` and `b`; past that, were 128-bit fractions to overflow, the centres
/// are given as the end points.
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
    let mut units = Vec::new();
    frame.collect(map, obstacles, &mut blks, &mut units);
    blks.append(&mut units);
    match rule {
        LosRule::Centre => {
            let centre = solve::centre_line(&frame);
            let blockers: Vec<Blocker> = blks
                .iter()
                .filter(|b| solve::centre_touches(&centre, b))
                .map(|b| frame.blocker(b))
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
                // Visible, but the witness overflowed i128 (see above).
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
    blks.sort_by_key(|b| {
        (
            std::cmp::Reverse(off_centre(b)),
            global_key(&frame.blocker(b)),
        )
    });
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
    blks.sort_by_key(|b| (along(b), global_key(&frame.blocker(b))));
    blks.iter().map(|b| frame.blocker(b)).collect()
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
    statics: Vec<Blk>,
    units: Vec<Blk>,
    solver: Solver,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

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
//! Cost. Each unordered pair has one frame (`Frame::canonical`: the one whose columns run along
//! the lines of the bit sets in their own order), and the map keeps its walls and solid squares
//! as bit sets by rows and by columns, so a frame row is a word of each set (for `dx <= 62`).
//!
//! *Walls and solid squares, once per pair.* The first query of a pair decides what they alone
//! do, in two passes over the hull's `dy + 1` rows (`Frame::static_scan`): first the squares a
//! sight line could pass through — each right of or below the one before, through free squares
//! and open edges (a sight line with positive slope visits such a staircase) — spread row by
//! row with bit operations: if none reaches B, they block (a grid line covered all across the
//! hull is one such case); then whether the centre line touches any of them. Only when a
//! staircase gets through and the centre line is touched are the hull's walls and solid squares
//! collected for the polygons, whose cost is `O(blockers × polygons × sides)`, small in
//! practice. The map remembers the outcome in its pair table: blocked, visible, or visible with
//! a clear centre line (2 bits a pair and rule, in a direct-mapped table of one-word entries
//! holding 8 pairs each, with a tag: as many entries as the map's pairs need, at most 65,536,
//! 512 KiB, whatever the map's size; a pair that lost its entry to another is simply worked out
//! again). A pair they block is answered at once from then on, whatever the units (LOS is
//! monotone).
//!
//! *Units, only those that can matter.* For a pair walls and solid squares leave visible, only
//! units in the hull other than A and B can touch a line that matters (point 3). When the
//! centre line passed the walls and solid squares, it is tried on the units first, reading the
//! units' bit set along the squares it touches; then the units in the hull are read (one span
//! of the bit set per map row): none, visible; only then the solver, with walls and solid
//! squares read again. The map also remembers (exact rule, a direct-mapped table of 4,096
//! one-word entries) the unit squares in the hull that last decided such a pair, up to four,
//! coded in the pair's frame: if they blocked, the pair stays blocked while all of them still
//! hold units (more obstacles never make sight); if it was visible, it stays visible while the
//! units in the hull are among them (fewer obstacles never remove sight). Both are exact,
//! however the other units moved. `core/tests/it/los_props.rs` checks all this against a slow
//! oracle that tries lines through pairs of critical corners (on 80×80 maps too, and on maps
//! whose units move between rounds); `core/benches/los.rs` times it against a Supercover walk.
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

pub use explain::{Blocker, Explanation, ObstacleKind, Point, Rational, WallEdge};

use crate::data::geom::{footprint, Pos};
use crate::data::map::{Map, Obstacles};
use cache::{Masks, Memo, MemoEntry, Slot, Static};
use frame::{Blk, Frame, StaticScan};
use solve::Solver;
use std::cell::RefCell;

pub use crate::data::settings::LosRule;

impl crate::data::state::GameState {
    /// Line of Sight between two squares with the current obstacles.
    pub fn los(&mut self, a: Pos, b: Pos) -> bool {
        let rule = self.rules.los;
        let map = std::sync::Arc::clone(&self.map);
        let obstacles = self.obstacles();
        rule.visible(&map, obstacles, a, b)
    }

    /// Ids of the face-down Blips in the Line of Sight of some Hero model, in Blip order
    /// (see `GameState::blips_in_sight`).
    pub(crate) fn blips_seen(&mut self) -> Vec<crate::data::id::Id> {
        let rule = self.rules.los;
        self.blips_in_sight(|map, o, a, b| rule.visible(map, o, a, b))
    }
}

/// Line of Sight between two bases (docs/RULES.md §4.4): some square of the one at `a` sees some
/// square of the one at `b` (an XXL base fills the 2×2 squares from its top-left square). The
/// bases' own squares stay obstacles: a line that reaches one square of a base past another
/// of its squares first reaches that other one, so this is exactly "any of its squares".
#[must_use]
pub fn base_visible(
    rule: &impl LineOfSight,
    map: &Map,
    obstacles: &Obstacles,
    a: Pos,
    a_xxl: bool,
    b: Pos,
    b_xxl: bool,
) -> bool {
    if !a_xxl && !b_xxl {
        return rule.visible(map, obstacles, a, b);
    }
    footprint(a, a_xxl).any(|p| footprint(b, b_xxl).any(|q| rule.visible(map, obstacles, p, q)))
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
        // The rule is symmetric: always one way round for a pair (see `Frame::canonical`), so
        // that what is remembered in the pair's frame reads the same both ways.
        let frame = Frame::canonical(a, b);
        let (a, b) = (frame.a(), frame.b());
        let (ia, ib) = (map.index(a), map.index(b));
        let slot = Slot::of(map, ia, ib);
        let q = Query {
            map,
            obstacles,
            frame: &frame,
            slot: slot.as_ref(),
            ends: (a, b, ia, ib),
        };
        // Most queries are settled without buffers (no thread-local access).
        let step = match self {
            LosRule::Exact => match q.exact_quick() {
                Step::Done(seen) => return seen,
                step => step,
            },
            LosRule::Centre => Step::Solve { scanned: false },
        };
        let run = |s: &mut Scratch| match (self, step) {
            (LosRule::Centre, _) => q.centre(s),
            (_, Step::Units { centre_clear }) => q.exact_units(s, centre_clear),
            (_, Step::Solve { scanned }) => q.exact_solve(s, scanned),
            (_, Step::Done(seen)) => seen,
        };
        SCRATCH
            .try_with(|cell| match cell.try_borrow_mut() {
                Ok(mut s) => run(&mut s),
                Err(_) => run(&mut Scratch::default()),
            })
            .unwrap_or_else(|_| run(&mut Scratch::default()))
    }
}

/// Where the first part of an exact query left it.
#[derive(Copy, Clone)]
enum Step {
    Done(bool),
    /// Walls and solid squares leave the pair visible: the units decide.
    Units {
        centre_clear: bool,
    },
    /// A pair never asked that the scans did not settle (or could not read).
    Solve {
        scanned: bool,
    },
}

/// The rule bits of each rule in a pair's slot.
const EXACT: u32 = 0;
const CENTRE: u32 = 2;

/// One `visible` query between distinct squares on the map.
struct Query<'a> {
    map: &'a Map,
    obstacles: &'a Obstacles,
    frame: &'a Frame,
    slot: Option<&'a Slot<'a>>,
    /// A, B and their indices.
    ends: (Pos, Pos, usize, usize),
}

impl Query<'_> {
    fn known(&self, rule_bit: u32) -> Static {
        self.slot.map_or(Static::Unknown, |s| s.get(rule_bit))
    }

    fn learn(&self, rule_bit: u32, now: Static) {
        if let Some(slot) = self.slot {
            slot.set(rule_bit, now);
        }
    }

    /// Walls and solid squares are read once per pair: after the first query of a pair the
    /// slot says whether they block it, and if not, whether the centre line passes them. The
    /// units are then read from the hull alone, and the solver only runs when they might block
    /// every line.
    ///
    /// This first part needs no buffers: what the pair table says, and for a pair never asked
    /// the scans of walls and solid squares; then the centre line on the units, if it passed
    /// the walls and solid squares.
    fn exact_quick(&self) -> Step {
        let (frame, map) = (self.frame, self.map);
        let centre_clear = match self.known(EXACT) {
            Static::Blocked => return Step::Done(false),
            Static::Visible { centre_clear } => centre_clear,
            Static::Unknown => {
                let (a, b, _, _) = self.ends;
                // A pair never asked: walls and solid squares first, from the bit sets (no
                // staircase through the hull blocks; a centre line that touches none of them
                // sees past them), then (`exact_solve`) the solver, which learns what they
                // decide for free.
                let scanned =
                    frame.dx >= 2 && frame.dy >= 1 && !map.is_solid(a) && !map.is_solid(b);
                if !scanned {
                    return Step::Solve { scanned };
                }
                let masks = Masks::of(map);
                let scan = if frame.dx <= 62 {
                    frame.static_scan(masks)
                } else if frame.static_cut(masks) {
                    StaticScan::Blocked
                } else {
                    StaticScan::Open
                };
                match scan {
                    StaticScan::Blocked => {
                        self.learn(EXACT, Static::Blocked);
                        return Step::Done(false);
                    }
                    StaticScan::CentreClear => {
                        self.learn(EXACT, Static::Visible { centre_clear: true });
                        true
                    }
                    StaticScan::Open => return Step::Solve { scanned },
                }
            }
        };
        if centre_clear && frame.centre_misses_units(map, self.obstacles) == Some(true) {
            return Step::Done(true);
        }
        Step::Units { centre_clear }
    }

    /// The units' part, for a pair walls and solid squares leave visible: the memo, then the
    /// units in the hull (none: visible; the centre line, if it passed the walls and solid
    /// squares, missing them all: visible), and only then the solver.
    fn exact_units(&self, s: &mut Scratch, centre_clear: bool) -> bool {
        let (frame, map) = (self.frame, self.map);
        let general = frame.dx >= 2 && frame.dy >= 1;
        let memo = if general {
            MemoEntry::of(map, self.ends.2, self.ends.3)
        } else {
            None
        };
        let remembered = memo.as_ref().and_then(MemoEntry::get);
        if let Some((Memo::Blocked, codes, len)) = remembered {
            if codes[..len]
                .iter()
                .all(|&c| self.obstacles.contains(frame.decode(c)))
            {
                return false;
            }
        }
        s.units.clear();
        frame.hull_units(map, self.obstacles, &mut s.units);
        if s.units.is_empty() {
            return true;
        }
        if frame.dy == 0 {
            // In a straight row every unit between blocks.
            return false;
        }
        if let Some((Memo::Visible, codes, len)) = remembered {
            let had = |u: &Blk| frame.code(u).is_some_and(|c| codes[..len].contains(&c));
            if s.units.len() <= len && s.units.iter().all(had) {
                return true;
            }
        }
        if general && centre_clear {
            let centre = solve::centre_line(frame);
            if s.units.iter().all(|u| solve::misses(&centre, u)) {
                return true;
            }
        }
        // The units may block every line: solve with the walls and solid squares.
        s.statics.clear();
        frame.statics_along(Masks::of(map), &mut s.statics);
        let d = solve::exact_decide(
            frame,
            &mut s.statics,
            &mut s.units,
            |_| {},
            &mut s.solver,
            true,
        );
        self.remember(memo.as_ref(), d.seen, &s.units);
        d.seen
    }

    /// The solver for a pair never asked (`scanned`: the scans found no staircase blocked,
    /// so no grid line covered either).
    fn exact_solve(&self, s: &mut Scratch, scanned: bool) -> bool {
        let (frame, map) = (self.frame, self.map);
        let (_, _, ia, ib) = self.ends;
        let general = frame.dx >= 2 && frame.dy >= 1;
        s.statics.clear();
        s.units.clear();
        frame.statics_along(Masks::of(map), &mut s.statics);
        let obstacles = self.obstacles;
        let d = solve::exact_decide(
            frame,
            &mut s.statics,
            &mut s.units,
            |units| frame.hull_units(map, obstacles, units),
            &mut s.solver,
            !scanned,
        );
        let now = if d.alone {
            Static::Visible {
                centre_clear: general && d.centre_clear,
            }
        } else {
            Static::Blocked
        };
        self.learn(EXACT, now);
        if d.alone && general && !s.units.is_empty() {
            // With walls and solid squares alone leaving the pair visible, `s.units` holds
            // every unit in the hull, and they decided.
            self.remember(MemoEntry::of(map, ia, ib).as_ref(), d.seen, &s.units);
        }
        d.seen
    }

    /// Remember what the units in the hull decided, for a pair walls and solid squares leave
    /// visible.
    fn remember(&self, memo: Option<&MemoEntry>, seen: bool, units: &[Blk]) {
        if let Some(memo) = memo {
            let kind = if seen { Memo::Visible } else { Memo::Blocked };
            memo.set(kind, units.iter().map(|u| self.frame.code(u)));
        }
    }

    /// The centre rule: one line, against walls and solid squares (remembered per pair), then
    /// the units in the hull.
    fn centre(&self, s: &mut Scratch) -> bool {
        let (frame, map) = (self.frame, self.map);
        let known = self.known(CENTRE);
        if known == Static::Blocked {
            return false;
        }
        let centre = solve::centre_line(frame);
        let clear = |blks: &[Blk]| !blks.iter().any(|b| solve::centre_touches(&centre, b));
        if known == Static::Unknown {
            s.statics.clear();
            frame.collect_statics(map, &mut s.statics);
            let alone = clear(&s.statics);
            self.learn(
                CENTRE,
                if alone {
                    Static::Visible {
                        centre_clear: false,
                    }
                } else {
                    Static::Blocked
                },
            );
            if !alone {
                return false;
            }
        }
        s.units.clear();
        frame.hull_units(map, self.obstacles, &mut s.units);
        clear(&s.units)
    }
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

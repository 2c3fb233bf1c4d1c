//! One LOS query turned into a standard position, with the walls and obstacles that could touch
//! a sight line: the solvers then deal with a single case instead of eight symmetric ones.

use super::cache::{Grid, Masks};
use super::explain::{Blocker, ObstacleKind, Point, Rational, WallEdge};
use crate::geom::Pos;
use crate::map::{Map, Obstacles};

/// A lattice point (square corner) in frame coordinates.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pt {
    pub x: i64,
    pub y: i64,
}

impl Pt {
    pub const fn new(x: i64, y: i64) -> Pt {
        Pt { x, y }
    }
}

/// Which grid element a blocker is, in frame coordinates.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// The square `[k, k+1] × [r, r+1]`.
    Cell,
    /// The edge `x = k`, `r <= y <= r+1`.
    VEdge,
    /// The edge `y = r`, `k <= x <= k+1`.
    HEdge,
}

/// A closed blocker that could touch a sight line, in frame coordinates.
///
/// Every line `y = s·x + t` with `s > 0` through both end squares misses the part of this
/// blocker that matters iff `q` lies strictly above it or `p` strictly below it (`y` grows
/// downwards, so "above" means smaller `y`). See the module documentation.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Blk {
    pub q: Pt,
    pub p: Pt,
    pub shape: Shape,
    /// For an obstacle square: solid terrain rather than a unit.
    pub solid: bool,
}

impl Blk {
    /// Walls are closed for both rules; the centre rule only looks at obstacle interiors.
    pub fn is_wall(&self) -> bool {
        self.shape != Shape::Cell
    }

    /// The frame column and row that name it (see [`Shape`]).
    pub fn k_r(&self) -> (i64, i64) {
        match self.shape {
            Shape::Cell | Shape::VEdge => (self.q.x, self.p.y),
            Shape::HEdge => (self.q.x, self.q.y),
        }
    }
}

/// Bits `start .. start + len` (`len <= 64`) of the bit set `words`, as the low bits of a word.
#[inline(always)]
fn bits(words: &[u64], start: usize, len: usize) -> u64 {
    let (w, o) = (start / 64, start % 64);
    let lo = words.get(w).map_or(0, |&v| v >> o);
    let hi = if o == 0 {
        0
    } else {
        words.get(w + 1).map_or(0, |&v| v << (64 - o))
    };
    let all = lo | hi;
    if len >= 64 {
        all
    } else {
        all & ((1u64 << len) - 1)
    }
}

/// The symmetry that takes square A to the frame's origin square and B to `(dx, dy)` with
/// `0 <= dy <= dx`.
///
/// Frame square `(k, r)` occupies `[k, k+1] × [r, r+1]` in frame coordinates.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Frame {
    a: Pos,
    ex: i64,
    ey: i64,
    swap: bool,
    pub dx: i64,
    pub dy: i64,
}

impl Frame {
    pub fn new(a: Pos, b: Pos) -> Frame {
        let gx = i64::from(b.x) - i64::from(a.x);
        let gy = i64::from(b.y) - i64::from(a.y);
        let ex = if gx < 0 { -1 } else { 1 };
        let ey = if gy < 0 { -1 } else { 1 };
        let swap = gy.abs() > gx.abs();
        let (dx, dy) = if swap {
            (gy.abs(), gx.abs())
        } else {
            (gx.abs(), gy.abs())
        };
        Frame {
            a,
            ex,
            ey,
            swap,
            dx,
            dy,
        }
    }

    /// The map square of frame square `(k, r)`. Only called inside the box of A and B, so the
    /// result fits in `i32`.
    pub fn cell(&self, k: i64, r: i64) -> Pos {
        let (u, v) = if self.swap { (r, k) } else { (k, r) };
        Pos::new(
            (i64::from(self.a.x) + self.ex * u) as i32,
            (i64::from(self.a.y) + self.ey * v) as i32,
        )
    }

    /// The map square of a unit blocker from [`Frame::collect_units`].
    pub fn unit_square(&self, b: &Blk) -> Pos {
        self.cell(b.q.x, b.p.y)
    }

    /// A frame point in map coordinates (square `(x, y)` spans `[x, x+1] × [y, y+1]`);
    /// `None` only if the arithmetic would overflow.
    pub fn point_to_map(&self, x: Rational, y: Rational) -> Option<Point> {
        let (u, v) = if self.swap { (y, x) } else { (x, y) };
        let (ax, ay) = (i64::from(self.a.x), i64::from(self.a.y));
        let gx = if self.ex > 0 {
            Rational::integer(ax).add(u)?
        } else {
            Rational::integer(ax + 1).sub(u)?
        };
        let gy = if self.ey > 0 {
            Rational::integer(ay).add(v)?
        } else {
            Rational::integer(ay + 1).sub(v)?
        };
        Some(Point { x: gx, y: gy })
    }

    /// The map edge between frame squares `(k-1, r)` and `(k, r)`.
    fn vedge(&self, k: i64, r: i64) -> WallEdge {
        edge_between(self.cell(k - 1, r), self.cell(k, r))
    }

    /// The map edge between frame squares `(k, r-1)` and `(k, r)`.
    fn hedge(&self, k: i64, r: i64) -> WallEdge {
        edge_between(self.cell(k, r - 1), self.cell(k, r))
    }

    /// The blocker in map terms, for explanations.
    pub fn blocker(&self, b: &Blk) -> Blocker {
        let (k, r) = b.k_r();
        match b.shape {
            Shape::Cell => Blocker::Obstacle {
                at: self.cell(k, r),
                kind: if b.solid {
                    ObstacleKind::Solid
                } else {
                    ObstacleKind::Unit
                },
            },
            Shape::VEdge => Blocker::Wall(self.vedge(k, r)),
            Shape::HEdge => Blocker::Wall(self.hedge(k, r)),
        }
    }

    /// Frame column and row of map square `(gx, gy)`.
    fn frame_of(&self, gx: i64, gy: i64) -> (i64, i64) {
        let u = self.ex * (gx - i64::from(self.a.x));
        let v = self.ey * (gy - i64::from(self.a.y));
        if self.swap {
            (v, u)
        } else {
            (u, v)
        }
    }

    /// The blocker on the edge between map squares `g1` and `g2` (orthogonal neighbours).
    fn edge_blk(&self, g1: (i64, i64), g2: (i64, i64)) -> Blk {
        let (k1, r1) = self.frame_of(g1.0, g1.1);
        let (k2, r2) = self.frame_of(g2.0, g2.1);
        if k1 != k2 {
            let k = k1.max(k2);
            Blk {
                q: Pt::new(k, r1 + 1),
                p: Pt::new(k, r1),
                shape: Shape::VEdge,
                solid: false,
            }
        } else {
            let r = r1.max(r2);
            Blk {
                q: Pt::new(k1, r),
                p: Pt::new(k1 + 1, r),
                shape: Shape::HEdge,
                solid: false,
            }
        }
    }

    /// Push every wall and obstacle square that meets the open convex hull of A ∪ B (the only
    /// place a sight line between them can be). Over x ∈ [k, k+1] the hull lies in
    /// dy(k-1)/dx < y < 1 + dy(k+1)/dx, so frame column `k` contributes the squares of rows
    /// `rows(k) = max(0, ⌊dy(k-1)/dx⌋) ..= min(dy, ⌊(dx + dy(k+1) - 1)/dx⌋)`, the edges `x = k`
    /// beside them and the edges `y = r` between them. A and B themselves never block.
    ///
    /// Walls and solid squares go to `statics`, read from the map's bit sets along the frame's
    /// `dy + 1` rows (map rows or map columns: the shorter way); squares holding units go to
    /// `units` ([`Frame::collect_units`]). Requires A and B on the map and distinct.
    pub fn collect(
        &self,
        map: &Map,
        obstacles: &Obstacles,
        statics: &mut Vec<Blk>,
        units: &mut Vec<Blk>,
    ) {
        self.collect_statics(map, statics);
        self.collect_units(map, obstacles, units);
    }

    /// The walls and solid squares of [`Frame::collect`].
    pub fn collect_statics(&self, map: &Map, statics: &mut Vec<Blk>) {
        if self.dx < 1 {
            return;
        }
        let m = Masks::of(map);
        if self.swap {
            // On the transposed map the same frame needs no swap.
            let t = Frame {
                a: Pos::new(self.a.y, self.a.x),
                ex: self.ey,
                ey: self.ex,
                swap: false,
                dx: self.dx,
                dy: self.dy,
            };
            t.statics(&m.cols, statics);
        } else {
            self.statics(&m.rows, statics);
        }
    }

    /// The squares holding units (not solid) of [`Frame::collect`].
    pub fn collect_units(&self, map: &Map, obstacles: &Obstacles, units: &mut Vec<Blk>) {
        if self.dx < 1 {
            return;
        }
        self.units(map, &Masks::of(map).rows, obstacles, units);
    }

    /// Walls and solid squares, for an unswapped frame on `grid`'s lines.
    fn statics(&self, grid: &Grid, out: &mut Vec<Blk>) {
        let (dx, dy) = (self.dx, self.dy);
        let (ax, ay, ex, ey) = (i64::from(self.a.x), i64::from(self.a.y), self.ex, self.ey);
        // Line position of the squares at frame columns k0..=k1.
        let span = |k0: i64, k1: i64| {
            if ex > 0 {
                (ax + k0, ax + k1)
            } else {
                (ax - k1, ax - k0)
            }
        };
        // Line position of the squares after the edges between frame columns k-1 and k, for
        // k in k0..=k1 (an edge belongs to the square after it).
        let after = |k0: i64, k1: i64| {
            if ex > 0 {
                (ax + k0, ax + k1)
            } else {
                (ax - k1 + 1, ax - k0 + 1)
            }
        };
        // The line after the edge between frame rows r-1 and r.
        let line_after = |r: i64| if ey > 0 { ay + r } else { ay - r + 1 };
        let mut sc = Scan {
            frame: self,
            grid,
            line_bits: (grid.words_per_line * 64) as i64,
            out,
        };
        // The columns k with r in rows(k) are k0..=k1, as both ends of rows(k) grow with k:
        // k0 is the first with hi(k) >= r, k1 the last with lo(k) <= r.
        let (mut k0, mut hi_k0) = (0, Floor::new(dx + dy - 1, dy, dx));
        let (mut k1, mut lo_k1_next) = (0, Floor::new(0, dy, dx));
        for r in 0..=dy {
            while k0 <= dx && hi_k0.q.min(dy) < r {
                k0 += 1;
                hi_k0.next();
            }
            while k1 < dx && lo_k1_next.q.max(0) <= r {
                k1 += 1;
                lo_k1_next.next();
            }
            if k0 > k1 {
                continue;
            }
            let line = ay + ey * r;
            sc.cells(line, span(k0, k1));
            if k0.max(1) <= k1 {
                sc.west_edges(line, after(k0.max(1), k1));
            }
            if r >= 1 {
                sc.north_edges(line_after(r), span(k0, k1));
            }
        }
    }

    /// Squares holding units (and not solid) inside the hull.
    fn units(&self, map: &Map, rows: &Grid, obstacles: &Obstacles, out: &mut Vec<Blk>) {
        let (dx, dy) = (self.dx, self.dy);
        let b = self.cell(dx, dy);
        let (x0, x1) = (self.a.x.min(b.x), self.a.x.max(b.x));
        let (y0, y1) = (self.a.y.min(b.y), self.a.y.max(b.y));
        let width = i64::from(map.width());
        let words = obstacles.words();
        // Units as a bit set in the map's row-major order (what `Obstacles::new(map)` makes);
        // otherwise ask `contains` square by square.
        let fit = words.len() == map.len().div_ceil(64);
        let line_bits = (rows.words_per_line * 64) as i64;
        for gy in y0..=y1 {
            let gy = i64::from(gy);
            let mut x = i64::from(x0);
            while x <= i64::from(x1) {
                let len = (i64::from(x1) - x + 1).min(64);
                let mut found = if fit {
                    bits(words, (gy * width + x) as usize, len as usize)
                } else {
                    (0..len).fold(0, |acc, i| {
                        let p = Pos::new((x + i) as i32, gy as i32);
                        acc | (u64::from(obstacles.contains(p)) << i)
                    })
                };
                found &= !bits(&rows.solid, (gy * line_bits + x) as usize, len as usize);
                while found != 0 {
                    let gx = x + i64::from(found.trailing_zeros());
                    found &= found - 1;
                    let (k, r) = self.frame_of(gx, gy);
                    // Inside the hull: 0 <= k <= dx and r in rows(k), by multiplication.
                    let inside = (0..=dx).contains(&k)
                        && (0..=dy).contains(&r)
                        && (r + 1) * dx > dy * (k - 1)
                        && r * dx < dx + dy * (k + 1);
                    if inside && !((k == 0 && r == 0) || (k == dx && r == dy)) {
                        out.push(Blk {
                            q: Pt::new(k, r + 1),
                            p: Pt::new(k + 1, r),
                            shape: Shape::Cell,
                            solid: false,
                        });
                    }
                }
                x += 64;
            }
        }
    }
}

/// `floor(n / den)` (`den > 0`) as `n` grows by `step >= 0`, without dividing each time.
#[derive(Copy, Clone)]
pub(crate) struct Floor {
    pub q: i64,
    rem: i64,
    step_q: i64,
    step_rem: i64,
    den: i64,
}

impl Floor {
    pub fn new(n: i64, step: i64, den: i64) -> Floor {
        Floor {
            q: n.div_euclid(den),
            rem: n.rem_euclid(den),
            step_q: step.div_euclid(den),
            step_rem: step.rem_euclid(den),
            den,
        }
    }

    pub fn next(&mut self) {
        self.q += self.step_q;
        self.rem += self.step_rem;
        if self.rem >= self.den {
            self.rem -= self.den;
            self.q += 1;
        }
    }
}

/// One scan of walls and solid squares: turns set bits of a grid into frame blockers.
struct Scan<'a> {
    frame: &'a Frame,
    grid: &'a Grid,
    line_bits: i64,
    out: &'a mut Vec<Blk>,
}

impl Scan<'_> {
    /// Call `f(self, bits, x)` for the set bits `bits` (bit `i` is position `x + i`) of `set` on
    /// line `line`, positions `x0..=x1`, 64 at a time.
    #[inline(always)]
    fn each(
        &mut self,
        set: &[u64],
        line: i64,
        (x0, x1): (i64, i64),
        mut f: impl FnMut(&mut Self, i64),
    ) {
        if self.line_bits == 64 && (0..64).contains(&x0) && (0..64).contains(&x1) {
            // Maps up to 64 squares across: one word a line.
            let word = usize::try_from(line)
                .ok()
                .and_then(|l| set.get(l))
                .map_or(0, |&w| w);
            let mut b = word & (u64::MAX << x0) & (u64::MAX >> (63 - x1));
            while b != 0 {
                let at = i64::from(b.trailing_zeros());
                b &= b - 1;
                f(self, at);
            }
            return;
        }
        let base = line * self.line_bits;
        let mut x = x0;
        while x <= x1 {
            let len = (x1 - x + 1).min(64);
            let (Ok(start), Ok(len)) = (usize::try_from(base + x), usize::try_from(len)) else {
                return;
            };
            let mut b = bits(set, start, len);
            while b != 0 {
                let at = x + i64::from(b.trailing_zeros());
                b &= b - 1;
                f(self, at);
            }
            x += 64;
        }
    }

    /// Solid squares on `line`, positions `x0..=x1`.
    fn cells(&mut self, line: i64, span: (i64, i64)) {
        let grid = self.grid;
        self.each(&grid.solid, line, span, |sc, at| {
            let (k, r) = sc.frame.frame_of(at, line);
            let (dx, dy) = (sc.frame.dx, sc.frame.dy);
            if !((k == 0 && r == 0) || (k == dx && r == dy)) {
                sc.out.push(Blk {
                    q: Pt::new(k, r + 1),
                    p: Pt::new(k + 1, r),
                    shape: Shape::Cell,
                    solid: true,
                });
            }
        });
    }

    /// Walls before the squares on `line` along it, positions `x0..=x1`.
    fn west_edges(&mut self, line: i64, span: (i64, i64)) {
        let grid = self.grid;
        self.each(&grid.west, line, span, |sc, at| {
            let b = sc.frame.edge_blk((at - 1, line), (at, line));
            sc.out.push(b);
        });
    }

    /// Walls before the squares on `line` across the lines, positions `x0..=x1`.
    fn north_edges(&mut self, line: i64, span: (i64, i64)) {
        let grid = self.grid;
        self.each(&grid.north, line, span, |sc, at| {
            let b = sc.frame.edge_blk((at, line - 1), (at, line));
            sc.out.push(b);
        });
    }
}

/// The edge shared by two orthogonally adjacent squares.
fn edge_between(c1: Pos, c2: Pos) -> WallEdge {
    if c1.y == c2.y {
        WallEdge::West(Pos::new(c1.x.max(c2.x), c1.y))
    } else {
        WallEdge::North(Pos::new(c1.x, c1.y.max(c2.y)))
    }
}

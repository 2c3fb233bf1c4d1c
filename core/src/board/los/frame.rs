//! One LOS query turned into a standard position, with the walls and obstacles that could touch
//! a sight line: the solvers then deal with a single case instead of eight symmetric ones.

use super::cache::{Grid, Masks};
use super::explain::{Blocker, ObstacleKind, Point, Rational, WallEdge};
use crate::data::geom::Pos;
use crate::data::map::{Map, Obstacles};

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

/// Is every one of the `len` positions from `start` on the grid line `line` of `g` covered:
/// a wall on the edge before it across the lines, or a solid square on either side of that
/// edge (lines `line - 1` and `line`)?
#[inline]
fn covered(g: &Grid, line: i64, start: i64, len: i64) -> bool {
    let line_bits = (g.words_per_line * 64) as i64;
    let (Ok(at), Ok(before), Ok(mut left)) = (
        usize::try_from(line * line_bits + start),
        usize::try_from((line - 1) * line_bits + start),
        usize::try_from(len),
    ) else {
        return false;
    };
    let mut i = 0;
    while left > 0 {
        let n = left.min(64);
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let v =
            bits(&g.north, at + i, n) | bits(&g.solid, at + i, n) | bits(&g.solid, before + i, n);
        if v != all {
            return false;
        }
        left -= n;
        i += n;
    }
    true
}

/// What [`Frame::static_scan`] found out about walls and solid squares alone.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum StaticScan {
    /// No path of free squares leads through the hull: blocked.
    Blocked,
    /// The centre line touches none of them: visible, by the centre line.
    CentreClear,
    /// Neither: the solver decides.
    Open,
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

    /// The frame of the pair `{a, b}` that runs along the map's rows (or, when it swaps rows
    /// and columns, along its columns) in their own order: from `a` or from `b`, whichever
    /// makes the frame's first column direction positive. Each unordered pair gets one frame.
    pub fn canonical(a: Pos, b: Pos) -> Frame {
        let f = Frame::new(a, b);
        if f.along() > 0 {
            f
        } else {
            Frame::new(b, a)
        }
    }

    /// The direction of frame columns along the lines of the bit set the frame is read from
    /// (map rows, or map columns when swapped).
    fn along(&self) -> i64 {
        if self.swap {
            self.ey
        } else {
            self.ex
        }
    }

    /// Square A, the frame's origin.
    pub fn a(&self) -> Pos {
        self.a
    }

    /// Square B, at frame `(dx, dy)`.
    pub fn b(&self) -> Pos {
        self.cell(self.dx, self.dy)
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
            self.transposed().statics(&m.cols, statics);
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

    /// This frame with map rows and columns swapped, for the transposed grid: the same frame
    /// needs no swap there.
    fn transposed(&self) -> Frame {
        Frame {
            a: Pos::new(self.a.y, self.a.x),
            ex: self.ey,
            ey: self.ex,
            swap: !self.swap,
            dx: self.dx,
            dy: self.dy,
        }
    }

    /// Is some grid line `x = k` (`1 <= k <= dx`) or `y = r` (`1 <= r <= dy`) covered by walls
    /// and solid squares all across the hull of A ∪ B? Every sight line crosses each of them
    /// inside the hull, in the part that matters, so then walls and solid squares alone block.
    /// Read from the bit sets a word at a time: per grid line the walls on it and the solid
    /// squares on either side. The lines are tried from A towards B, so a wall across the way
    /// near A is found first.
    ///
    /// Needs `dx >= 2`, `dy >= 1`, and neither A nor B solid (end squares never block, and
    /// here they would count).
    pub fn static_cut(&self, m: &Masks) -> bool {
        if self.swap {
            self.transposed().cut_on(&m.cols, &m.rows)
        } else {
            self.cut_on(&m.rows, &m.cols)
        }
    }

    /// [`Frame::static_cut`] for an unswapped frame: frame rows are lines of `g`, frame columns
    /// lines of `t` (the transpose).
    fn cut_on(&self, g: &Grid, t: &Grid) -> bool {
        let (dx, dy) = (self.dx, self.dy);
        let (ax, ay, ex, ey) = (i64::from(self.a.x), i64::from(self.a.y), self.ex, self.ey);
        // Positions (along g's lines) of frame columns k0..=k1, and lines of frame rows r0..=r1.
        let cols = |k0: i64, k1: i64| if ex > 0 { ax + k0 } else { ax - k1 };
        let rows = |r0: i64, r1: i64| if ey > 0 { ay + r0 } else { ay - r1 };
        // The hull meets x = k in segments lo_v(k) ..= hi_v(k) and y = r in lo_h(r) ..= hi_h(r)
        // (see `Cuts::closed`).
        let (mut lo_v, mut hi_v) = (Floor::new(0, dy, dx), Floor::new(dx + dy - 1, dy, dx));
        let (mut lo_h, mut hi_h) = (Floor::new(0, dx, dy), Floor::new(dy + dx - 1, dx, dy));
        let mut r = 1;
        for k in 1..=dx {
            // The vertical line between frame columns k-1 and k: the line of `t` after it.
            let after = if ex > 0 { ax + k } else { ax - k + 1 };
            let (lo, hi) = (lo_v.q, hi_v.q);
            if covered(t, after, rows(lo, hi), hi - lo + 1) {
                return true;
            }
            lo_v.next();
            hi_v.next();
            // The horizontal lines whose segments in the hull start before column k.
            while r <= dy && lo_h.q < k {
                let after = if ey > 0 { ay + r } else { ay - r + 1 };
                let (lo, hi) = (lo_h.q, hi_h.q);
                if covered(g, after, cols(lo, hi), hi - lo + 1) {
                    return true;
                }
                lo_h.next();
                hi_h.next();
                r += 1;
            }
        }
        false
    }

    /// Two passes over the hull's rows on the bit sets, for a pair never asked: do walls and
    /// solid squares leave a path through the hull that a sight line could take (if not, they
    /// block), and does the centre line touch any of them? Each row is a few word operations
    /// on one word of each bit set: the frame's `dx + 1` columns fit in it.
    ///
    /// Needs `2 <= dx <= 62`, `dy >= 1`, and neither A nor B solid.
    pub fn static_scan(&self, m: &Masks) -> StaticScan {
        // Both answers are the same from B to A; scan the way that runs along the lines of the
        // bit set in their own order.
        let f = if self.along() > 0 {
            *self
        } else {
            Frame::canonical(self.a, self.b())
        };
        if f.swap {
            f.transposed().scan_on(&m.cols)
        } else {
            f.scan_on(&m.rows)
        }
    }

    /// [`Frame::static_scan`] for an unswapped frame whose rows are lines of `g`, running along
    /// them (`ex = 1`): frame column `k` of every row is bit `k` of a word read from A's
    /// position on, and the edge between columns `k - 1` and `k` is bit `k` too (an edge
    /// belongs to the square after it).
    fn scan_on(&self, g: &Grid) -> StaticScan {
        let (Ok(ax), Ok(ay), Ok(rows)) = (
            usize::try_from(self.a.x),
            usize::try_from(self.a.y),
            usize::try_from(self.dy),
        ) else {
            return StaticScan::Open;
        };
        // The lines of frame rows 0..=dy, all inside the grid.
        let lines = g.solid.len() / g.words_per_line.max(1);
        let last = if self.ey > 0 {
            ay.checked_add(rows)
        } else {
            ay.checked_sub(rows)
        };
        if ay >= lines || last.is_none_or(|l| l >= lines) {
            return StaticScan::Open;
        }
        let wpl = g.words_per_line;
        if wpl == 1 {
            self.scan_lines(g, |set: &[u64], line: usize| set[line] >> ax)
        } else {
            self.scan_lines(g, |set: &[u64], line: usize| {
                bits(set, line * wpl * 64 + ax, 64)
            })
        }
    }

    /// The two passes of [`Frame::static_scan`]; `read(set, line)` is the word of `set` on
    /// `line` from A's position on.
    #[inline(always)]
    fn scan_lines(&self, g: &Grid, read: impl Fn(&[u64], usize) -> u64) -> StaticScan {
        let (dx, dy, ey) = (self.dx, self.dy, self.ey);
        let ay = self.a.y as usize;
        let down = ey > 0;
        // Bits 0..n (0 <= n <= 63).
        let upto = |n: i64| (1u64 << n) - 1;
        // A sight line runs through squares of the hull, each right of or below the one before
        // (through a corner only where the squares and edges round it are all free). So if no
        // such staircase of free squares and open edges leads from A to B, walls and solid
        // squares block. (A grid line covered all across the hull is one such case.)
        //
        // The staircase is sought from both ends at once, a row at a time from the end that has
        // gone less far, so that walls near either end stop the search early: from A, the
        // squares of row t a staircase from A reaches; from B, the squares of row b from which
        // one reaches B; they meet in a row both have (then some square must be in both).
        //
        // Row r of the hull is columns k0(r) = max(0, ⌊dx(r-1)/dy⌋) ..= k1(r) =
        // min(dx, ⌈dx(r+1)/dy⌉) (as in `statics`), tracked from both ends as quotients and
        // remainders of dx(r-1) and dx(r+1) over dy.
        let (q, rem) = (dx / dy, dx % dy);
        let fwd = Steps::new(q, rem, dy);
        let bwd = if rem > 0 {
            Steps::new(-q - 1, dy - rem, dy)
        } else {
            Steps::new(-q, 0, dy)
        };
        let carry = i64::from(rem > 0);
        let low = if rem > 0 { dy - rem } else { 0 };
        let (mut vf, mut wf) = (fwd.at(-q - carry, low), fwd.at(q, rem));
        let (mut vb, mut wb) = (fwd.at(dx - q - carry, low), fwd.at(dx + q, rem));
        let span = |v: &Quot, w: &Quot| (v.q.max(0), (w.q + i64::from(w.rem > 0)).min(dx));
        let line = |r: i64| {
            if down {
                ay + r as usize
            } else {
                ay - r as usize
            }
        };
        // Free squares of row r in the hull (columns k0..=k1), and walls on the edge before each
        // (along), and on the edge above each (across, between rows r-1 and r).
        let free =
            |r: i64, (k0, k1): (i64, i64)| upto(k1 + 1) & !upto(k0) & !read(&g.solid, line(r));
        let west = |r: i64| read(&g.west, line(r));
        let north = |r: i64| read(&g.north, if down { line(r) } else { line(r) + 1 });
        // Spread along a row through `open` squares, doubling the reach each step.
        let right = |mut reached: u64, mut open: u64, width: i64| {
            let mut shift = 1;
            while shift <= width {
                reached |= (reached << shift) & open;
                open &= open << shift;
                shift <<= 1;
            }
            reached
        };
        let left = |mut reached: u64, mut open: u64, width: i64| {
            let mut shift = 1;
            while shift <= width {
                reached |= (reached >> shift) & open;
                open &= open >> shift;
                shift <<= 1;
            }
            reached
        };
        // Into square k from k - 1: k free, the edge before it open. Out of square k to k + 1:
        // k free, the edge after it open.
        let (s0, sd) = (span(&vf, &wf), span(&vb, &wb));
        let mut from_a = right(1, free(0, s0) & !west(0), s0.1 - s0.0);
        let mut to_b = left(1 << dx, free(dy, sd) & !(west(dy) >> 1), sd.1 - sd.0);
        let (mut t, mut b) = (0, dy);
        loop {
            if from_a == 0 || to_b == 0 {
                return StaticScan::Blocked;
            }
            if t + 1 == b {
                // Row b from A, where the two meet.
                fwd.next(&mut vf);
                fwd.next(&mut wf);
                let sb = span(&vf, &wf);
                let f = free(b, sb);
                let met = right(from_a & f & !north(b), f & !west(b), sb.1 - sb.0);
                if met & to_b == 0 {
                    return StaticScan::Blocked;
                }
                break;
            }
            if t <= dy - b {
                t += 1;
                fwd.next(&mut vf);
                fwd.next(&mut wf);
                let st = span(&vf, &wf);
                let f = free(t, st);
                from_a = right(from_a & f & !north(t), f & !west(t), st.1 - st.0);
            } else {
                b -= 1;
                bwd.next(&mut vb);
                bwd.next(&mut wb);
                let sb = span(&vb, &wb);
                let f = free(b, sb);
                to_b = left(to_b & f & !north(b + 1), f & !(west(b) >> 1), sb.1 - sb.0);
            }
        }
        // The centre line y = 1/2 + dy(x - 1/2)/dx touches row r's squares in columns
        // c_lo(r) ..= h(r+1), the edges x = k for k in c_lo(r) + 1 ..= h(r+1), and the edges on
        // y = r in columns c_lo(r) ..= h(r), where, with U(r) = dx(2r - 1),
        // h(r) = ⌊(U(r) + dy)/2dy⌋ and c_lo(r) = ⌊(U(r) + dy - 1)/2dy⌋.
        let over_2dy = Steps::new(q, 2 * rem, 2 * dy);
        // ⌊-dx / 2dy⌋ from dx = q·dy + rem.
        let u0 = -(if q % 2 == 0 {
            q / 2 + i64::from(rem > 0)
        } else {
            (q + 1) / 2
        });
        let mut u = over_2dy.at(u0, -dx - 2 * dy * u0);
        let cells = |a: i64, b: i64| upto(b.min(dx) + 1) & !upto(a.max(0));
        let mut line = ay;
        for r in 0..=dy {
            let c_lo = u.q + i64::from(u.rem > dy);
            let h_r = u.q + i64::from(u.rem >= dy);
            over_2dy.next(&mut u);
            let c_hi = u.q + i64::from(u.rem >= dy);
            let mut touched = (read(&g.solid, line) & cells(c_lo, c_hi))
                | (read(&g.west, line) & cells(c_lo + 1, c_hi) & !1);
            if r >= 1 {
                touched |= read(&g.north, if down { line } else { line + 1 }) & cells(c_lo, h_r);
            }
            if touched != 0 {
                return StaticScan::Open;
            }
            line = if down { line + 1 } else { line.wrapping_sub(1) };
        }
        StaticScan::CentreClear
    }

    /// The walls and solid squares of [`Frame::collect_statics`] (the same set), read a word
    /// per line when the frame runs along the bit set's lines (`Frame::canonical`) and its
    /// `dx + 1` columns fit in a word, else as `collect_statics` does.
    pub fn statics_along(&self, m: &Masks, out: &mut Vec<Blk>) {
        if self.dx < 1 {
            return;
        }
        if self.along() < 0 || self.dx > 62 {
            self.collect_statics_into(m, out);
            return;
        }
        let (f, g) = if self.swap {
            (self.transposed(), &m.cols)
        } else {
            (*self, &m.rows)
        };
        let (Ok(ax), Ok(ay)) = (usize::try_from(f.a.x), usize::try_from(f.a.y)) else {
            self.collect_statics_into(m, out);
            return;
        };
        let wpl = g.words_per_line;
        let lines = g.solid.len() / wpl.max(1);
        let ok = |line: i64| usize::try_from(line).is_ok_and(|l| l < lines);
        if !ok(f.a.y.into()) || !ok(i64::from(f.a.y) + f.ey * f.dy) {
            self.collect_statics_into(m, out);
            return;
        }
        if wpl == 1 {
            f.statics_lines(g, ay, out, |set: &[u64], line: usize| set[line] >> ax);
        } else {
            f.statics_lines(g, ay, out, |set: &[u64], line: usize| {
                bits(set, line * wpl * 64 + ax, 64)
            });
        }
    }

    fn collect_statics_into(&self, m: &Masks, out: &mut Vec<Blk>) {
        if self.swap {
            self.transposed().statics(&m.cols, out);
        } else {
            self.statics(&m.rows, out);
        }
    }

    /// [`Frame::statics_along`] for an unswapped frame with `ex = 1` on `g`'s lines; `read` as
    /// in [`Frame::scan_lines`].
    #[inline(always)]
    fn statics_lines(
        &self,
        g: &Grid,
        ay: usize,
        out: &mut Vec<Blk>,
        read: impl Fn(&[u64], usize) -> u64,
    ) {
        let (dx, dy, down) = (self.dx, self.dy, self.ey > 0);
        let upto = |n: i64| (1u64 << n) - 1;
        let mut line = ay;
        let mut row = |r: i64, k0: i64, k1: i64, line: usize| {
            let span = upto(k1 + 1) & !upto(k0);
            // A and B never block.
            let ends = u64::from(r == 0) | (u64::from(r == dy) << dx);
            let mut bits = read(&g.solid, line) & span & !ends;
            while bits != 0 {
                let k = i64::from(bits.trailing_zeros());
                bits &= bits - 1;
                out.push(Blk {
                    q: Pt::new(k, r + 1),
                    p: Pt::new(k + 1, r),
                    shape: Shape::Cell,
                    solid: true,
                });
            }
            let mut bits = read(&g.west, line) & span & !1;
            while bits != 0 {
                let k = i64::from(bits.trailing_zeros());
                bits &= bits - 1;
                out.push(Blk {
                    q: Pt::new(k, r + 1),
                    p: Pt::new(k, r),
                    shape: Shape::VEdge,
                    solid: false,
                });
            }
            if r >= 1 {
                let mut bits = read(&g.north, if down { line } else { line + 1 }) & span;
                while bits != 0 {
                    let k = i64::from(bits.trailing_zeros());
                    bits &= bits - 1;
                    out.push(Blk {
                        q: Pt::new(k, r),
                        p: Pt::new(k + 1, r),
                        shape: Shape::HEdge,
                        solid: false,
                    });
                }
            }
        };
        if dy == 0 {
            row(0, 0, dx, line);
            return;
        }
        for (r, k0, k1) in self.spans() {
            row(r, k0, k1, line);
            line = if down { line + 1 } else { line.wrapping_sub(1) };
        }
    }

    /// Does the centre line miss every unit (for a canonical frame that does not swap, with
    /// `2 <= dx <= 62` and `dy >= 1`, on `Obstacles::new(map)`'s layout; else `None`)? Reads
    /// the units' bit set along the squares the centre line touches, a word per row, as the
    /// second pass of [`Frame::static_scan`] reads walls and solid squares. Only for a centre
    /// line that misses every wall and solid square: a unit on a solid square counts here.
    pub fn centre_misses_units(&self, map: &Map, obstacles: &Obstacles) -> Option<bool> {
        let (dx, dy, ey) = (self.dx, self.dy, self.ey);
        let words = obstacles.words();
        if self.swap
            || self.along() < 0
            || !(2..=62).contains(&dx)
            || dy < 1
            || words.len() != map.len().div_ceil(64)
        {
            return None;
        }
        let width = usize::try_from(map.width()).ok()?;
        let ax = usize::try_from(self.a.x).ok()?;
        let mut at = usize::try_from(self.a.y).ok()? * width + ax;
        let upto = |n: i64| (1u64 << n) - 1;
        let cells = |a: i64, b: i64| upto(b.min(dx) + 1) & !upto(a.max(0));
        let (q, rem) = (dx / dy, dx % dy);
        let over_2dy = Steps::new(q, 2 * rem, 2 * dy);
        let u0 = -(if q % 2 == 0 {
            q / 2 + i64::from(rem > 0)
        } else {
            (q + 1) / 2
        });
        let mut u = over_2dy.at(u0, -dx - 2 * dy * u0);
        for r in 0..=dy {
            let c_lo = u.q + i64::from(u.rem > dy);
            over_2dy.next(&mut u);
            let c_hi = u.q + i64::from(u.rem >= dy);
            // A and B never block.
            let ends = u64::from(r == 0) | (u64::from(r == dy) << dx);
            if bits(words, at, 64) & cells(c_lo, c_hi) & !ends != 0 {
                return Some(false);
            }
            at = if ey > 0 {
                at + width
            } else {
                at.wrapping_sub(width)
            };
        }
        Some(true)
    }

    /// The square codes of a memo entry: a unit square `(k, r)` in the hull is
    /// `4k + (r - lo(k))`, where `lo(k) = max(0, ⌊dy(k-1)/dx⌋)` is the first row of the hull in
    /// column `k` (the hull spans at most 4 rows of a column). `None` past `dx = 255`.
    pub fn code(&self, b: &Blk) -> Option<u32> {
        let (k, r) = (b.q.x, b.p.y);
        let off = r - self.hull_lo(k);
        u32::try_from(4 * k + off)
            .ok()
            .filter(|&c| (0..4).contains(&off) && c < 1024)
    }

    /// The map square of a memo code.
    pub fn decode(&self, c: u32) -> Pos {
        let k = i64::from(c >> 2);
        self.cell(k, self.hull_lo(k) + i64::from(c & 3))
    }

    fn hull_lo(&self, k: i64) -> i64 {
        if self.dx < 1 {
            0
        } else {
            (self.dy * (k - 1)).div_euclid(self.dx).max(0)
        }
    }

    /// The squares holding units (not solid) inside the hull, A and B excepted, as
    /// [`Frame::collect_units`] finds them, but reading only the hull's squares: one span of the
    /// units' bit set per map row.
    pub fn hull_units(&self, map: &Map, obstacles: &Obstacles, out: &mut Vec<Blk>) {
        let (dx, dy) = (self.dx, self.dy);
        if dx < 1 {
            return;
        }
        let words = obstacles.words();
        if words.len() != map.len().div_ceil(64) || self.along() < 0 {
            // Not `Obstacles::new(map)`'s layout, or not a canonical frame: the whole box.
            self.collect_units(map, obstacles, out);
            return;
        }
        let rows = &Masks::of(map).rows;
        let width = i64::from(map.width());
        let line_bits = (rows.words_per_line * 64) as i64;
        let (ax, ay, ex, ey) = (i64::from(self.a.x), i64::from(self.a.y), self.ex, self.ey);
        // The units, not solid, of map row `gy`, squares x0..=x1 (at most 64), as bits from x0.
        let found = |gy: i64, x0: i64, x1: i64| -> u64 {
            let len = (x1 - x0 + 1) as usize;
            bits(words, (gy * width + x0) as usize, len)
                & !bits(&rows.solid, (gy * line_bits + x0) as usize, len)
        };
        let unit = |k: i64, r: i64| Blk {
            q: Pt::new(k, r + 1),
            p: Pt::new(k + 1, r),
            shape: Shape::Cell,
            solid: false,
        };
        // A and B never block.
        let end = |k: i64, r: i64| (k == 0 && r == 0) || (k == dx && r == dy);
        if self.swap {
            // Frame column k is map row ay + k (the frame runs down the map); its hull rows
            // run along it, from lo(k) = max(0, ⌊dy(k-1)/dx⌋) to hi(k) =
            // min(dy, ⌊(dx + dy(k+1) - 1)/dx⌋), tracked over dx (1 <= dy <= dx: no division),
            // at map x = ax + ex·r.
            let (mut lo, mut hi, over_dx) = if dy == 0 {
                let s = Steps::new(0, 0, dx.max(1));
                (s.at(0, 0), s.at(0, 0), s)
            } else {
                let s = if dy == dx {
                    Steps::new(1, 0, dx)
                } else {
                    Steps::new(0, dy, dx)
                };
                (s.at(-1, dx - dy), s.at(1, dy - 1), s)
            };
            for k in 0..=dx {
                let (r0, r1) = (lo.q.max(0), hi.q.min(dy));
                let (x0, x1) = if ex > 0 {
                    (ax + r0, ax + r1)
                } else {
                    (ax - r1, ax - r0)
                };
                let mut b = found(ay + k, x0, x1);
                while b != 0 {
                    let gx = x0 + i64::from(b.trailing_zeros());
                    b &= b - 1;
                    let r = ex * (gx - ax);
                    if !end(k, r) {
                        out.push(unit(k, r));
                    }
                }
                over_dx.next(&mut lo);
                over_dx.next(&mut hi);
            }
        } else {
            // Frame row r is map row ay + ey·r; its hull columns k0..=k1 are map x = ax + k.
            let mut row = |r: i64, k0: i64, k1: i64| {
                let mut x = k0;
                while x <= k1 {
                    let top = k1.min(x + 63);
                    let mut b = found(ay + ey * r, ax + x, ax + top);
                    while b != 0 {
                        let k = x + i64::from(b.trailing_zeros());
                        b &= b - 1;
                        if !end(k, r) {
                            out.push(unit(k, r));
                        }
                    }
                    x = top + 1;
                }
            };
            if dy == 0 {
                row(0, 0, dx);
            } else {
                for (r, k0, k1) in self.spans() {
                    row(r, k0, k1);
                }
            }
        }
    }

    /// The hull's squares row by row: for frame row r = 0..=dy, its columns k0(r) ..= k1(r),
    /// where k0(r) = max(0, ⌊dx(r-1)/dy⌋) and k1(r) = min(dx, ⌈dx(r+1)/dy⌉) (the hull meets
    /// row r in dx(r-1)/dy < x < dx(r+1)/dy + 1). Tracked as quotients and remainders: one
    /// division. Needs `dy >= 1`.
    fn spans(&self) -> impl Iterator<Item = (i64, i64, i64)> {
        let (dx, dy) = (self.dx, self.dy.max(1));
        let (q, rem) = (dx / dy, dx % dy);
        let over_dy = Steps::new(q, rem, dy);
        let mut v = over_dy.at(-q - i64::from(rem > 0), if rem > 0 { dy - rem } else { 0 });
        let mut w = over_dy.at(q, rem);
        (0..=self.dy).map(move |r| {
            let span = (r, v.q.max(0), (w.q + i64::from(w.rem > 0)).min(dx));
            over_dy.next(&mut v);
            over_dy.next(&mut w);
            span
        })
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
        if dy == 0 {
            // The row itself.
            sc.cells(ay, span(0, dx));
            sc.west_edges(ay, after(1, dx));
            return;
        }
        for (r, k0, k1) in self.spans() {
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

/// `⌊(n + step·i) / den⌋` as `i` grows, as a quotient and a remainder (`0 <= rem < den`),
/// for several `n` with one step: the step's quotient and remainder are given.
#[derive(Copy, Clone)]
struct Steps {
    q: i64,
    rem: i64,
    den: i64,
}

/// A value tracked by [`Steps`].
#[derive(Copy, Clone)]
struct Quot {
    q: i64,
    rem: i64,
}

impl Steps {
    /// Steps of `q·den + rem` (`0 <= rem < den`).
    fn new(q: i64, rem: i64, den: i64) -> Steps {
        Steps { q, rem, den }
    }

    /// The value `q·den + rem` (`0 <= rem < den`).
    fn at(&self, q: i64, rem: i64) -> Quot {
        Quot { q, rem }
    }

    #[inline(always)]
    fn next(&self, v: &mut Quot) {
        v.q += self.q;
        v.rem += self.rem;
        if v.rem >= self.den {
            v.rem -= self.den;
            v.q += 1;
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

//! The exact decision in the standard frame: is there a line through both end squares that
//! passes every blocker on one side or the other? (The argument is in `los`'s module docs.)

use super::explain::Rational;
use super::frame::{Blk, Frame, Pt, Shape};

/// A non-vertical line through `u / scale` with direction `(dxv, dyv)`, `dxv > 0`.
///
/// As a vertex of a dual polygon it is the line through two lattice points (`scale` 1).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Line {
    u: Pt,
    dxv: i64,
    dyv: i64,
    scale: i64,
}

/// Frames with `dx` below this keep every factor of [`Line::side`] below 2^30 (lattice points
/// of the frame, lines through them at scales up to 8), so it fits in `i64` unchecked.
const NARROW: i64 = 1 << 26;

impl Line {
    /// The line through `a / scale` and `b / scale` (`a.x != b.x`).
    pub fn through(a: Pt, b: Pt, scale: i64) -> Line {
        let (u, v) = if a.x <= b.x { (a, b) } else { (b, a) };
        Line {
            u,
            dxv: v.x - u.x,
            dyv: v.y - u.y,
            scale,
        }
    }

    /// [`Line::side`] for a line and a point of a frame with `dx < NARROW`.
    #[inline(always)]
    pub fn side_narrow(&self, x: Pt) -> i8 {
        let (a, d) = (self.scale * x.y - self.u.y, self.scale * x.x - self.u.x);
        (a * self.dxv - self.dyv * d).signum() as i8
    }

    /// `+1` when lattice point `x` lies strictly below the line (larger `y`), `-1` strictly
    /// above, `0` on it: the sign of a 2×2 determinant, computed exactly.
    #[inline]
    pub fn side(&self, x: Pt) -> i8 {
        let (a, d) = (self.scale * x.y - self.u.y, self.scale * x.x - self.u.x);
        // Plain i64 when every factor is below 2^30 (any playable map), else i128.
        const SMALL: u64 = 1 << 30;
        if (a.unsigned_abs() | d.unsigned_abs() | self.dxv.unsigned_abs() | self.dyv.unsigned_abs())
            < SMALL
        {
            return (a * self.dxv - self.dyv * d).signum() as i8;
        }
        let (a, d) = (i128::from(a), i128::from(d));
        let g = a * i128::from(self.dxv) - i128::from(self.dyv) * d;
        g.signum() as i8
    }

    /// Slope and intercept of `y = s·x + t`.
    fn slope_intercept(&self) -> Option<(Rational, Rational)> {
        let s = Rational::new(i128::from(self.dyv), i128::from(self.dxv))?;
        let scale = i128::from(self.scale);
        let ux = Rational::new(i128::from(self.u.x), scale)?;
        let uy = Rational::new(i128::from(self.u.y), scale)?;
        Some((s, uy.sub(s.mul(ux)?)?))
    }
}

/// Does the line pass blocker `b` (exact rule: `q` strictly above or `p` strictly below)?
#[inline]
pub(crate) fn misses(l: &Line, b: &Blk) -> bool {
    l.side(b.q) < 0 || l.side(b.p) > 0
}

/// Does the centre line touch `b`: a wall anywhere (closed), an obstacle only inside (open)?
pub(crate) fn centre_touches(l: &Line, b: &Blk) -> bool {
    let (sq, sp) = (l.side(b.q), l.side(b.p));
    if b.is_wall() {
        sq >= 0 && sp <= 0
    } else {
        sq > 0 && sp < 0
    }
}

/// The line through the centres of A and B in the frame.
pub(crate) fn centre_line(frame: &Frame) -> Line {
    Line::through(
        Pt::new(1, 1),
        Pt::new(2 * frame.dx + 1, 2 * frame.dy + 1),
        2,
    )
}

/// A side of a dual polygon: "lattice point `pt` strictly below the line" or "strictly above".
/// Which of the two is implied by the vertex signs, so only the point is kept.
#[derive(Copy, Clone, Debug)]
struct Con {
    pt: Pt,
}

/// One side of a dual polygon and the vertex where it meets the previous side.
type Side = (Con, Line);

/// Scratch space for the polygon method, kept between queries to avoid allocating.
#[derive(Default)]
pub(crate) struct Solver {
    polys: Vec<Vec<Side>>,
    next: Vec<Vec<Side>>,
    pool: Vec<Vec<Side>>,
    sa: Vec<i8>,
    sb: Vec<i8>,
    /// The buffer of [`Cuts`].
    cuts: Vec<u64>,
    /// The frame of the last [`Solver::start`] has `dx < NARROW`.
    narrow: bool,
}

impl Solver {
    fn fresh(&mut self) -> Vec<Side> {
        let mut v = self.pool.pop().unwrap_or_default();
        v.clear();
        v
    }

    /// Is any line through both end squares clear of every blocker in `blks`? Needs
    /// `dx >= 2` and `dy >= 1` (then all such lines have `0 < s < ∞`).
    ///
    /// Keeps the open set of clear lines as disjoint open convex polygons in the `(s, t)`
    /// plane, one per way of passing the blockers seen so far, and splits them by each blocker.
    pub fn run<'a>(&mut self, dx: i64, dy: i64, blks: impl IntoIterator<Item = &'a Blk>) -> bool {
        self.start(dx, dy);
        self.feed(blks)
    }

    /// Start again from all lines through both end squares.
    pub fn start(&mut self, dx: i64, dy: i64) {
        self.narrow = dx < NARROW;
        let old = std::mem::take(&mut self.polys);
        self.pool.extend(old);
        // Lines through open A: (0,1) below and (1,0) above; through open B likewise.
        // Sides in order round the quadrilateral: (dx+1, dy) above, (1,0) above,
        // (dx, dy+1) below, (0,1) below.
        let ring = [
            Con {
                pt: Pt::new(dx + 1, dy),
            },
            Con { pt: Pt::new(1, 0) },
            Con {
                pt: Pt::new(dx, dy + 1),
            },
            Con { pt: Pt::new(0, 1) },
        ];
        let mut start = self.fresh();
        for i in 0..4 {
            let prev = ring[(i + 3) % 4];
            start.push((ring[i], Line::through(prev.pt, ring[i].pt, 1)));
        }
        self.polys.push(start);
    }

    /// Split the polygons by more blockers; whether any clear line is left.
    pub fn feed<'a>(&mut self, blks: impl IntoIterator<Item = &'a Blk>) -> bool {
        for b in blks {
            if self.polys.is_empty() {
                return false;
            }
            // Polygons `b` splits are replaced by their pieces, which already pass `b`.
            let mut i = 0;
            let mut pieces = std::mem::take(&mut self.next);
            while i < self.polys.len() {
                if self.split(i, b, &mut pieces) {
                    let gone = self.polys.swap_remove(i);
                    self.pool.push(gone);
                } else {
                    i += 1;
                }
            }
            self.polys.append(&mut pieces);
            self.next = pieces;
        }
        !self.polys.is_empty()
    }

    /// If blocker `b` cuts polygon `i`, push its parts that pass `b` above and below to
    /// `pieces` and return `true`; `false` when every line of it already passes `b`.
    fn split(&mut self, i: usize, b: &Blk, pieces: &mut Vec<Vec<Side>>) -> bool {
        let Some(poly) = self.polys.get(i) else {
            return false;
        };
        // Signs at each vertex of "q above" (a) and "p below" (c).
        self.sa.clear();
        self.sb.clear();
        let (mut a_pos, mut a_neg, mut c_pos, mut c_neg) = (false, false, false, false);
        let narrow = self.narrow;
        let side = |l: &Line, x: Pt| {
            if narrow {
                l.side_narrow(x)
            } else {
                l.side(x)
            }
        };
        for (_, l) in poly {
            let (a, c) = (-side(l, b.q), side(l, b.p));
            a_pos |= a > 0;
            a_neg |= a < 0;
            c_pos |= c > 0;
            c_neg |= c < 0;
            self.sa.push(a);
            self.sb.push(c);
        }
        // Every line of the polygon already passes `b` above (a >= 0 all round) or below.
        if !a_neg || !c_neg {
            return false;
        }
        for (pos, con, signs) in [
            (a_pos, Con { pt: b.q }, &self.sa),
            (c_pos, Con { pt: b.p }, &self.sb),
        ] {
            if !pos {
                continue;
            }
            let mut out = self.pool.pop().unwrap_or_default();
            out.clear();
            if clip(poly, con, signs, &mut out) {
                pieces.push(out);
            } else {
                self.pool.push(out);
            }
        }
        true
    }

    /// Three consecutive vertices of a polygon left by the last successful [`Solver::run`]:
    /// their centroid is strictly inside it.
    pub fn vertices(&self) -> Option<[Line; 3]> {
        let p = self.polys.first()?;
        Some([p.first()?.1, p.get(1)?.1, p.get(2)?.1])
    }
}

/// `poly ∩ {c > 0}` into `out`, given `s[i]` = sign of `c` at vertex `i`, which has both signs.
/// Vertex `i` joins sides `i-1` and `i`; side `i` runs from vertex `i` to vertex `i+1`.
fn clip(poly: &[Side], c: Con, s: &[i8], out: &mut Vec<Side>) -> bool {
    let n = poly.len();
    let first = (0..n).find(|&i| s[i] <= 0 && s[(i + 1) % n] > 0);
    let last = (0..n).find(|&i| s[i] > 0 && s[(i + 1) % n] <= 0);
    let (Some(f), Some(l)) = (first, last) else {
        return false;
    };
    // The kept sides are f..=l (those with a vertex where c > 0), then c closes the polygon.
    out.push((poly[f].0, Line::through(c.pt, poly[f].0.pt, 1)));
    let mut i = (f + 1) % n;
    for _ in 0..n {
        out.push(poly[i]);
        if i == l {
            break;
        }
        i = (i + 1) % n;
    }
    out.push((c, Line::through(poly[l].0.pt, c.pt, 1)));
    true
}

/// For A, B diagonal neighbours (`dx = dy = 1`): a sight line passes either through square
/// (1,0) or through (0,1). Returns the open one, `false` for (1,0), `true` for (0,1).
pub(crate) fn diagonal_route<'a>(blks: impl Iterator<Item = &'a Blk> + Clone) -> Option<bool> {
    let on = |route: [(Shape, i64, i64); 3]| {
        !blks.clone().any(|b| {
            route
                .iter()
                .any(|&(s, k, r)| b.shape == s && b.k_r() == (k, r))
        })
    };
    if on([
        (Shape::VEdge, 1, 0),
        (Shape::Cell, 1, 0),
        (Shape::HEdge, 1, 1),
    ]) {
        Some(false)
    } else if on([
        (Shape::HEdge, 0, 1),
        (Shape::Cell, 0, 1),
        (Shape::VEdge, 1, 1),
    ]) {
        Some(true)
    } else {
        None
    }
}

/// What [`exact_decide`] found.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Decision {
    /// Visible with walls and solid squares alone.
    pub alone: bool,
    /// Visible with the units too.
    pub seen: bool,
    /// The centre line passes every wall and solid square (only meaningful with `alone`, for
    /// `dx >= 2`, `dy >= 1`).
    pub centre_clear: bool,
}

/// The exact rule in the frame, given every wall and solid square meeting the hull of A ∪ B
/// (`statics`); `fill_units` puts the units there into `units`, and is only called when the
/// statics leave a line open. With `cuts`, a grid line covered all across the hull is looked
/// for before the polygons (callers that already know none is covered by the statics pass
/// `false`). Reorders both lists.
pub(crate) fn exact_decide(
    frame: &Frame,
    statics: &mut [Blk],
    units: &mut Vec<Blk>,
    fill_units: impl FnOnce(&mut Vec<Blk>),
    solver: &mut Solver,
    cuts: bool,
) -> Decision {
    let blocked = Decision {
        alone: false,
        seen: false,
        centre_clear: false,
    };
    if frame.dy == 0 {
        // In a straight row every blocker between spans the whole row.
        if !statics.is_empty() {
            return blocked;
        }
        fill_units(units);
        return Decision {
            alone: true,
            seen: units.is_empty(),
            centre_clear: true,
        };
    }
    if frame.dx == 1 {
        if diagonal_route(statics.iter()).is_none() {
            return blocked;
        }
        fill_units(units);
        return Decision {
            alone: true,
            seen: diagonal_route(statics.iter().chain(units.iter())).is_some(),
            centre_clear: false,
        };
    }
    let (dx, dy) = (frame.dx, frame.dy);
    // Blockers on the centre line first, nearest the line first: they cut the polygons down
    // soonest.
    let centre = centre_line(frame);
    let off_centre = |b: &Blk| {
        let (mx, my) = (b.q.x + b.p.x, b.q.y + b.p.y);
        ((my - 1) * dx - (mx - 1) * dy).unsigned_abs()
    };
    let narrow = dx < NARROW;
    let s_hit = hits_first(statics, &centre, narrow);
    if let Some(on) = statics.get_mut(..s_hit) {
        on.sort_unstable_by_key(off_centre);
    }
    // A grid line every sight line must cross, blocked all along: no need for polygons.
    let mut cuts = Cuts::new(dx, dy, std::mem::take(&mut solver.cuts), cuts);
    let centre_clear = s_hit == 0;
    let seen = 'decide: {
        if s_hit > 0 {
            statics.iter().for_each(|b| cuts.add(b));
            if cuts.closed(dx, dy) {
                break 'decide blocked;
            }
            solver.start(dx, dy);
            if !solver.feed(statics.iter()) {
                break 'decide blocked;
            }
        }
        fill_units(units);
        let u_hit = hits_first(units, &centre, narrow);
        let visible = |seen| Decision {
            alone: true,
            seen,
            centre_clear,
        };
        if u_hit == 0 && s_hit == 0 {
            break 'decide visible(true);
        }
        if s_hit == 0 {
            // The centre line passed the statics; now they count.
            statics.iter().for_each(|b| cuts.add(b));
            solver.start(dx, dy);
            solver.feed(statics.iter());
        }
        units.iter().for_each(|b| cuts.add(b));
        visible(!cuts.closed(dx, dy) && solver.feed(units.iter()))
    };
    solver.cuts = cuts.give_back();
    seen
}

/// Which blockers cover each grid line `x = k` (`1 <= k <= dx`) and `y = r` (`1 <= r <= dy`)
/// where it crosses the hull of A ∪ B. Every sight line crosses each of them inside the hull, in
/// the part that matters, so one fully covered line blocks them all: a quick "no" for walls
/// across the way. (Only for `dx < 64`, one bit per row or column.)
struct Cuts {
    /// Bit `r` of `v[k]`: the segment `x = k`, `r <= y <= r+1` touches a blocker; bit `k` of
    /// `v[h + r]`: the segment `y = r`, `k <= x <= k+1` does. Empty when `dx >= 63`.
    v: Vec<u64>,
    h: i64,
}

impl Cuts {
    /// Reuses `buf`'s allocation; with `on` false, finds nothing.
    fn new(dx: i64, dy: i64, mut buf: Vec<u64>, on: bool) -> Cuts {
        buf.clear();
        if on && dx < 63 {
            buf.resize((dx + dy + 4) as usize, 0);
        }
        Cuts { v: buf, h: dx + 2 }
    }

    fn give_back(self) -> Vec<u64> {
        self.v
    }

    fn add(&mut self, b: &Blk) {
        if self.v.is_empty() {
            return;
        }
        let (k, r) = b.k_r();
        let h = self.h;
        let mut set = |line: i64, bit: i64| {
            if let (Ok(i), true) = (usize::try_from(line), (0..64).contains(&bit)) {
                if let Some(w) = self.v.get_mut(i) {
                    *w |= 1 << bit;
                }
            }
        };
        match b.shape {
            // A square touches the lines along all four of its sides.
            Shape::Cell => {
                set(k, r);
                set(k + 1, r);
                set(h + r, k);
                set(h + r + 1, k);
            }
            Shape::VEdge => set(k, r),
            Shape::HEdge => set(h + r, k),
        }
    }

    /// Is some grid line covered across the whole hull? The hull meets `x = k` in
    /// `dy(k-1)/dx < y < 1 + dy·k/dx`, so the unit segments there are rows
    /// `⌊dy(k-1)/dx⌋ ..= ⌊(dx + dy·k - 1)/dx⌋`; likewise `y = r` with `dx` and `dy` swapped.
    /// A run of covered segments `s..=e` spans them iff `s·dx <= dy(k-1)` and
    /// `dx + dy·k - 1 < (e+1)·dx`: no division needed.
    fn closed(&self, dx: i64, dy: i64) -> bool {
        if self.v.is_empty() {
            return false;
        }
        // Does a run of set bits of `bits` reach from `s·den <= lo_num` to `hi_num < (e+1)·den`?
        let spans = |mut bits: u64, lo_num: i64, hi_num: i64, den: i64| {
            while bits != 0 {
                let s = bits.trailing_zeros();
                let len = (!(bits >> s)).trailing_zeros();
                let e = i64::from(s + len) - 1;
                if i64::from(s) * den <= lo_num && hi_num < (e + 1) * den {
                    return true;
                }
                bits &= !((u64::MAX >> (64 - len)) << s);
            }
            false
        };
        (1..=dx).any(|k| spans(self.line(k), dy * (k - 1), dx + dy * k - 1, dx))
            || (1..=dy).any(|r| spans(self.line(self.h + r), dx * (r - 1), dy + dx * r - 1, dy))
    }

    fn line(&self, i: i64) -> u64 {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.v.get(i))
            .copied()
            .unwrap_or(0)
    }
}

/// Move the blockers the centre line touches to the front; how many there are.
fn hits_first(blks: &mut [Blk], centre: &Line, narrow: bool) -> usize {
    let misses = |b: &Blk| {
        if narrow {
            centre.side_narrow(b.q) < 0 || centre.side_narrow(b.p) > 0
        } else {
            misses(centre, b)
        }
    };
    let mut n = 0;
    for i in 0..blks.len() {
        if !misses(&blks[i]) {
            blks.swap(n, i);
            n += 1;
        }
    }
    n
}

/// The exact rule for one list of blockers (explanations).
pub(crate) fn exact_visible(frame: &Frame, blks: &[Blk], solver: &mut Solver) -> bool {
    let mut own = blks.to_vec();
    exact_decide(frame, &mut own, &mut Vec::new(), |_| {}, solver, true).alone
}

/// A point in frame coordinates.
pub(crate) type FPoint = (Rational, Rational);

fn half(n: i64) -> Rational {
    Rational::new(i128::from(n) * 2 + 1, 2).unwrap_or(Rational::integer(n))
}

fn frac(n: i64, d: i64) -> Rational {
    Rational::new(i128::from(n), i128::from(d)).unwrap_or(Rational::integer(0))
}

/// A sight line with exact end points inside A and B, if the exact rule sees; prefers the
/// centres, then points on a grid of quarters and eighths, then any line the solver found.
pub(crate) fn exact_witness(
    frame: &Frame,
    blks: &[Blk],
    solver: &mut Solver,
) -> Option<(FPoint, FPoint)> {
    let (dx, dy) = (frame.dx, frame.dy);
    let centres = ((half(0), half(0)), (half(dx), half(dy)));
    if blks.is_empty() {
        return Some(centres);
    }
    if dy == 0 {
        return None;
    }
    if dx == 1 {
        // Through (1,0): (1/2, 1/4) → (7/4, 3/2); through (0,1): mirrored in y = x.
        let (p, q) = ((frac(1, 2), frac(1, 4)), (frac(7, 4), frac(3, 2)));
        return match diagonal_route(blks.iter())? {
            false => Some((p, q)),
            true => Some(((p.1, p.0), (q.1, q.0))),
        };
    }
    if blks.iter().all(|b| misses(&centre_line(frame), b)) {
        return Some(centres);
    }
    for den in [4i64, 8] {
        let mut pts: Vec<(i64, i64)> = (1..den)
            .flat_map(|i| (1..den).map(move |j| (i, j)))
            .collect();
        let cost = |(i, j): (i64, i64)| (2 * i - den).abs() + (2 * j - den).abs();
        let mut pairs: Vec<((i64, i64), (i64, i64))> = pts
            .iter()
            .flat_map(|&p| pts.iter().map(move |&q| (p, q)))
            .collect();
        pairs.sort_by_key(|&(p, q)| cost(p) + cost(q));
        for (p, q) in pairs {
            let l = Line::through(
                Pt::new(p.0, p.1),
                Pt::new(den * dx + q.0, den * dy + q.1),
                den,
            );
            if blks.iter().all(|b| misses(&l, b)) {
                return Some((
                    (frac(p.0, den), frac(p.1, den)),
                    (frac(den * dx + q.0, den), frac(den * dy + q.1, den)),
                ));
            }
        }
        pts.clear();
    }
    if !solver.run(dx, dy, blks) {
        return None;
    }
    polygon_witness(dx, dy, &solver.vertices()?)
}

/// The line at the centroid of three vertices of a clear polygon, cut to its chords in A and B.
fn polygon_witness(dx: i64, dy: i64, v: &[Line; 3]) -> Option<(FPoint, FPoint)> {
    let mut s = Rational::integer(0);
    let mut t = Rational::integer(0);
    for l in v {
        let (si, ti) = l.slope_intercept()?;
        s = s.add(si)?;
        t = t.add(ti)?;
    }
    let three = Rational::integer(3);
    let (s, t) = (s.div(three)?, t.div(three)?);
    let p = chord_middle(s, t, 0, 0)?;
    let q = chord_middle(s, t, dx, dy)?;
    Some((p, q))
}

/// The middle of the part of `y = s·x + t` (`s > 0`) inside the open square `(k, r)`.
fn chord_middle(s: Rational, t: Rational, k: i64, r: i64) -> Option<FPoint> {
    let (k0, k1) = (Rational::integer(k), Rational::integer(k + 1));
    let (r0, r1) = (Rational::integer(r), Rational::integer(r + 1));
    let lo = k0.max(r0.sub(t)?.div(s)?);
    let hi = k1.min(r1.sub(t)?.div(s)?);
    let x = lo.add(hi)?.div(Rational::integer(2))?;
    Some((x, s.mul(x)?.add(t)?))
}

/// Whether `Cuts` finds a grid line covered by `blks` across the hull (`dx >= 2`, `dy >= 1`).
#[cfg(test)]
pub(crate) fn cut_only(frame: &Frame, blks: &[Blk]) -> bool {
    let mut cuts = Cuts::new(frame.dx, frame.dy, Vec::new(), true);
    blks.iter().for_each(|b| cuts.add(b));
    cuts.closed(frame.dx, frame.dy)
}

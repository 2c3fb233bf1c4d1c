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

    /// `+1` when lattice point `x` lies strictly below the line (larger `y`), `-1` strictly
    /// above, `0` on it: the sign of a 2×2 determinant, computed exactly.
    #[inline]
    pub fn side(&self, x: Pt) -> i8 {
        let g = i128::from(self.scale * x.y - self.u.y) * i128::from(self.dxv)
            - i128::from(self.dyv) * i128::from(self.scale * x.x - self.u.x);
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
        for b in blks {
            let mut cur = std::mem::take(&mut self.polys);
            for poly in cur.drain(..) {
                self.split(poly, b);
            }
            self.polys = std::mem::replace(&mut self.next, cur);
            if self.polys.is_empty() {
                return false;
            }
        }
        true
    }

    /// Replace `poly` (in `next`) by its parts that pass `b` above and below.
    fn split(&mut self, poly: Vec<Side>, b: &Blk) {
        self.sa.clear();
        self.sb.clear();
        let (mut a_nonneg, mut b_nonneg, mut a_pos, mut b_pos) = (true, true, false, false);
        for (_, l) in &poly {
            let a = -l.side(b.q);
            let c = l.side(b.p);
            a_nonneg &= a >= 0;
            b_nonneg &= c >= 0;
            a_pos |= a > 0;
            b_pos |= c > 0;
            self.sa.push(a);
            self.sb.push(c);
        }
        if a_nonneg || b_nonneg {
            // Every line of the polygon already passes `b` on one side.
            self.next.push(poly);
            return;
        }
        if a_pos {
            let mut out = self.fresh();
            let above = Con { pt: b.q };
            if clip(&poly, above, &self.sa, &mut out) {
                self.next.push(out);
            } else {
                self.pool.push(out);
            }
        }
        if b_pos {
            let mut out = self.fresh();
            let below = Con { pt: b.p };
            if clip(&poly, below, &self.sb, &mut out) {
                self.next.push(out);
            } else {
                self.pool.push(out);
            }
        }
        self.pool.push(poly);
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
pub(crate) fn diagonal_route(blks: &[Blk]) -> Option<bool> {
    let on = |route: [(Shape, i64, i64); 3]| {
        !blks
            .iter()
            .any(|b| route.iter().any(|&(s, k, r)| b.shape == s && b.k == k && b.r == r))
    };
    if on([(Shape::VEdge, 1, 0), (Shape::Cell, 1, 0), (Shape::HEdge, 1, 1)]) {
        Some(false)
    } else if on([(Shape::HEdge, 0, 1), (Shape::Cell, 0, 1), (Shape::VEdge, 1, 1)]) {
        Some(true)
    } else {
        None
    }
}

/// The exact rule in the frame, given every blocker meeting the hull of A ∪ B.
pub(crate) fn exact_visible(frame: &Frame, blks: &[Blk], solver: &mut Solver) -> bool {
    if blks.is_empty() {
        return true;
    }
    if frame.dy == 0 {
        // In a straight row every blocker between spans the whole row.
        return false;
    }
    if frame.dx == 1 {
        return diagonal_route(blks).is_some();
    }
    let centre = centre_line(frame);
    if blks.iter().all(|b| misses(&centre, b)) {
        return true;
    }
    solver.run(frame.dx, frame.dy, blks)
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
        return match diagonal_route(blks)? {
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

//! Property tests of Line of Sight on random maps: agreement with a slow, obviously correct
//! oracle, symmetry, monotonicity, and valid explanations.

use overmind_core::geom::footprint;
use overmind_core::los::{
    base_visible, explain, Blocker, Explanation, ObstacleKind, Point, WallEdge,
};
use overmind_core::{Edge, LineOfSight, LosRule, Map, MapBuilder, Obstacles, Pos, Terrain};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// The oracle.
//
// Rule: A sees B iff some closed segment from a point strictly inside A to a point strictly
// inside B misses every blocker: walls (closed unit segments) and obstacle squares other than A
// and B (closed unit squares; a segment that starts outside a closed square meets it iff it
// meets one of its four edges). So the blockers are a list of closed unit segments `segs`.
//
// Why trying the lines below is complete. Let the critical points be the corners of A and B and
// the end points of `segs` (only those inside the bounding box of A ∪ B, where every candidate
// segment lies). For a line avoiding all critical points, whether it is a sight line (it
// crosses open A and open B and the part between them misses `segs`) does not change as the
// line moves without passing a critical point: crossings with unit edges only appear,
// vanish or change order at shared end points, which are critical. The lines with a given
// vector of signs (which side of the line each critical point is on) form a convex, hence
// connected, set, so being a sight line is a function of that sign vector. Sight lines form a
// non-empty open set when A sees B, so some sign vector with a sight line exists; its cell in the
// dual arrangement (great circles, one per critical point, on the sphere of oriented lines) is a
// spherical polygon, so it has a vertex: a line L0 through two critical points. The cells around
// L0 are exactly the sign patterns "the critical points on L0 get signs by a threshold along L0"
// (2k of them for k points on L0) with all other critical points keeping their side. Below, each
// pattern is made by a translation (all +, all −) or a rotation about a point between two
// consecutive critical points on L0 (both ways), scaled so small (factor 1/N) that no lattice
// point off L0 changes side. Each candidate is then checked directly, so the oracle never says
// "visible" wrongly, and by the above it finds a sight line whenever one exists.
// ---------------------------------------------------------------------------------------------

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct P {
    x: i128,
    y: i128,
}

/// A rational point `(x / d, y / d)`, `d > 0`.
#[derive(Copy, Clone, Debug)]
struct RP {
    x: i128,
    y: i128,
    d: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

impl RP {
    fn new(x: i128, y: i128, d: i128) -> RP {
        let (x, y, d) = if d < 0 { (-x, -y, -d) } else { (x, y, d) };
        let g = gcd(gcd(x, y), d);
        RP {
            x: x / g,
            y: y / g,
            d: d / g,
        }
    }

    fn mid(a: RP, b: RP) -> RP {
        RP::new(a.x * b.d + b.x * a.d, a.y * b.d + b.y * a.d, 2 * a.d * b.d)
    }

    /// Strictly inside square `s`.
    fn inside(self, s: Pos) -> bool {
        let (x0, y0) = (i128::from(s.x) * self.d, i128::from(s.y) * self.d);
        x0 < self.x && self.x < x0 + self.d && y0 < self.y && self.y < y0 + self.d
    }
}

/// The line `a·x + b·y = c`, integer coefficients.
#[derive(Copy, Clone, Debug)]
struct Ln {
    a: i128,
    b: i128,
    c: i128,
}

impl Ln {
    fn at(&self, p: P) -> i128 {
        self.a * p.x + self.b * p.y - self.c
    }

    /// The line through two rational points.
    fn through(p: RP, q: RP) -> Ln {
        let dx = q.x * p.d - p.x * q.d;
        let dy = q.y * p.d - p.y * q.d;
        // F(X) = dy·(X.x·pd − px) − dx·(X.y·pd − py)
        Ln {
            a: dy * p.d,
            b: -dx * p.d,
            c: dy * p.x - dx * p.y,
        }
    }
}

fn sign(v: i128) -> i128 {
    v.signum()
}

/// Side of rational `p` relative to the directed integer segment `e → f`.
fn orient(e: P, f: P, p: RP) -> i128 {
    sign((f.x - e.x) * (p.y - e.y * p.d) - (f.y - e.y) * (p.x - e.x * p.d))
}

/// Does the closed segment `p q` (on line `l`) meet the closed segment `e f`?
fn hits(p: RP, q: RP, l: &Ln, e: P, f: P) -> bool {
    let (s1, s2) = (sign(l.at(e)), sign(l.at(f)));
    if s1 * s2 > 0 {
        return false;
    }
    if s1 == 0 && s2 == 0 {
        // Collinear: compare the projections on the axis the unit segment runs along.
        let (lo, hi, pv, qv) = if e.x == f.x {
            (e.y.min(f.y), e.y.max(f.y), (p.y, p.d), (q.y, q.d))
        } else {
            (e.x.min(f.x), e.x.max(f.x), (p.x, p.d), (q.x, q.d))
        };
        // [min(p,q), max(p,q)] ∩ [lo, hi] ≠ ∅
        let le = |(n, d): (i128, i128), v: i128| n <= v * d;
        let ge = |(n, d): (i128, i128), v: i128| n >= v * d;
        let pq_min_le_hi = le(pv, hi) || le(qv, hi);
        let pq_max_ge_lo = ge(pv, lo) || ge(qv, lo);
        return pq_min_le_hi && pq_max_ge_lo;
    }
    orient(e, f, p) * orient(e, f, q) <= 0
}

/// The blockers of one query as closed unit segments, and the critical points.
struct Scene {
    segs: Vec<(P, P)>,
    crit: Vec<P>,
}

fn pt(x: i32, y: i32) -> P {
    P {
        x: i128::from(x),
        y: i128::from(y),
    }
}

fn scene(map: &Map, obs: &Obstacles, a: Pos, b: Pos) -> Scene {
    scene_of(map, Some(obs), a, b)
}

/// With `obs` `None`, walls only (the centre rule's closed blockers).
fn scene_of(map: &Map, obs: Option<&Obstacles>, a: Pos, b: Pos) -> Scene {
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x) + 1);
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y) + 1);
    let mut segs = Vec::new();
    for gx in x0..=x1 {
        for row in y0..y1 {
            if map.west_edge(gx, row) == Edge::Wall {
                segs.push((pt(gx, row), pt(gx, row + 1)));
            }
        }
    }
    for gy in y0..=y1 {
        for col in x0..x1 {
            if map.north_edge(col, gy) == Edge::Wall {
                segs.push((pt(col, gy), pt(col + 1, gy)));
            }
        }
    }
    for cy in y0..y1 {
        for cx in x0..x1 {
            let s = Pos::new(cx, cy);
            if s != a && s != b && obs.is_some_and(|o| map.is_solid(s) || o.contains(s)) {
                let c = [
                    pt(cx, cy),
                    pt(cx + 1, cy),
                    pt(cx + 1, cy + 1),
                    pt(cx, cy + 1),
                ];
                for i in 0..4 {
                    segs.push((c[i], c[(i + 1) % 4]));
                }
            }
        }
    }
    let mut crit: Vec<P> = segs.iter().flat_map(|&(e, f)| [e, f]).collect();
    for s in [a, b] {
        crit.extend([
            pt(s.x, s.y),
            pt(s.x + 1, s.y),
            pt(s.x + 1, s.y + 1),
            pt(s.x, s.y + 1),
        ]);
    }
    crit.sort();
    crit.dedup();
    Scene { segs, crit }
}

fn corners(s: Pos) -> [P; 4] {
    [
        pt(s.x, s.y),
        pt(s.x + 1, s.y),
        pt(s.x + 1, s.y + 1),
        pt(s.x, s.y + 1),
    ]
}

/// The middle of the chord of line `l` in square `s`, if `l` crosses its interior and misses
/// its corners.
fn chord_mid(l: &Ln, s: Pos) -> Option<RP> {
    let c = corners(s);
    let f: Vec<i128> = c.iter().map(|&p| l.at(p)).collect();
    if f.contains(&0) {
        return None;
    }
    let mut cross = Vec::new();
    for i in 0..4 {
        let j = (i + 1) % 4;
        if f[i] * f[j] < 0 {
            cross.push(RP::new(
                c[j].x * f[i] - c[i].x * f[j],
                c[j].y * f[i] - c[i].y * f[j],
                f[i] - f[j],
            ));
        }
    }
    match cross.as_slice() {
        [r1, r2] => Some(RP::mid(*r1, *r2)),
        _ => None,
    }
}

fn clear(p: RP, q: RP, l: &Ln, segs: &[(P, P)]) -> bool {
    !segs.iter().any(|&(e, f)| hits(p, q, l, e, f))
}

/// Is candidate line `l` a sight line from `a` to `b`?
fn sight_line(l: &Ln, a: Pos, b: Pos, segs: &[(P, P)]) -> bool {
    match (chord_mid(l, a), chord_mid(l, b)) {
        (Some(p), Some(q)) => clear(p, q, l, segs),
        _ => false,
    }
}

/// The corners of the convex hull of A ∪ B, counter-clockwise (monotone chain).
fn hull(a: Pos, b: Pos) -> Vec<P> {
    let mut pts: Vec<P> = corners(a).into_iter().chain(corners(b)).collect();
    pts.sort();
    pts.dedup();
    let cross = |o: P, p: P, q: P| (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x);
    let mut h: Vec<P> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        let it: Vec<P> = if pass == 0 {
            pts.clone()
        } else {
            pts.iter().rev().copied().collect()
        };
        for p in it {
            while h.len() >= start + 2 && cross(h[h.len() - 2], h[h.len() - 1], p) <= 0 {
                h.pop();
            }
            h.push(p);
        }
        h.pop();
    }
    h
}

/// Does the closed segment `e f` meet the closed convex polygon `poly`? No separating axis
/// among the polygon's edge normals and the segment's normal.
fn meets(poly: &[P], e: P, f: P) -> bool {
    let mut axes: Vec<(i128, i128)> = (0..poly.len())
        .map(|i| {
            let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
            (q.y - p.y, p.x - q.x)
        })
        .collect();
    axes.push((f.y - e.y, e.x - f.x));
    axes.iter().all(|&(nx, ny)| {
        let proj = |p: P| nx * p.x + ny * p.y;
        let (lo, hi) = poly.iter().fold((i128::MAX, i128::MIN), |(lo, hi), &p| {
            (lo.min(proj(p)), hi.max(proj(p)))
        });
        let (s0, s1) = (proj(e).min(proj(f)), proj(e).max(proj(f)));
        !(s1 < lo || hi < s0)
    })
}

/// Keep only the blockers meeting the closed hull of A ∪ B, where every candidate segment lies
/// (so the answer is the same), and their critical points: much less work on long pairs.
fn in_hull(sc: Scene, a: Pos, b: Pos) -> Scene {
    let h = hull(a, b);
    let segs: Vec<(P, P)> = sc
        .segs
        .into_iter()
        .filter(|&(e, f)| meets(&h, e, f))
        .collect();
    let mut crit: Vec<P> = segs.iter().flat_map(|&(e, f)| [e, f]).collect();
    crit.extend(corners(a).into_iter().chain(corners(b)));
    crit.sort();
    crit.dedup();
    Scene { segs, crit }
}

pub(crate) fn oracle(map: &Map, obs: &Obstacles, a: Pos, b: Pos) -> bool {
    oracle_with(map, obs, a, b, false)
}

/// The oracle; with `hull_only`, on the blockers meeting the hull alone (see [`in_hull`]).
fn oracle_with(map: &Map, obs: &Obstacles, a: Pos, b: Pos, hull_only: bool) -> bool {
    if !map.in_bounds(a) || !map.in_bounds(b) {
        return false;
    }
    if a == b {
        return true;
    }
    let sc = scene(map, obs, a, b);
    let sc = if hull_only { in_hull(sc, a, b) } else { sc };
    let (ca, cb) = (corners(a), corners(b));
    let crosses = |l: &Ln, c: &[P; 4]| {
        let v: Vec<i128> = c.iter().map(|&p| sign(l.at(p))).collect();
        !(v.iter().all(|&s| s > 0) || v.iter().all(|&s| s < 0))
    };
    let max_coord = sc
        .crit
        .iter()
        .map(|p| p.x.abs().max(p.y.abs()))
        .max()
        .unwrap_or(0)
        + 1;
    for (i, &c1) in sc.crit.iter().enumerate() {
        for &c2 in &sc.crit[i + 1..] {
            let l0 = Ln {
                a: c2.y - c1.y,
                b: c1.x - c2.x,
                c: (c2.y - c1.y) * c1.x + (c1.x - c2.x) * c1.y,
            };
            // A cell next to L0 holding sight lines has L0 in its closure, so L0 meets both
            // closed squares.
            if !crosses(&l0, &ca) || !crosses(&l0, &cb) {
                continue;
            }
            // Positions along L0 of the critical points on it.
            let tau = |p: P| -l0.b * p.x + l0.a * p.y;
            let mut on: Vec<i128> = sc
                .crit
                .iter()
                .filter(|&&p| l0.at(p) == 0)
                .map(|&p| tau(p))
                .collect();
            on.sort();
            on.dedup();
            let max_tau = on.iter().map(|t| t.abs()).max().unwrap_or(0);
            // |rotation term| < n at every lattice point of the box, where |L0| >= 1 off L0.
            let n = 2 * (l0.a.abs() + l0.b.abs()) * max_coord + 2 * max_tau + 2;
            let mut cands = Vec::new();
            for s in [1i128, -1] {
                cands.push(Ln {
                    a: n * l0.a,
                    b: n * l0.b,
                    c: n * l0.c - s,
                });
                for w in on.windows(2) {
                    let m = w[0] + w[1];
                    // n·L0(X) + s·(2·tau(X) − m)
                    cands.push(Ln {
                        a: n * l0.a - 2 * s * l0.b,
                        b: n * l0.b + 2 * s * l0.a,
                        c: n * l0.c + s * m,
                    });
                }
            }
            if cands.iter().any(|l| sight_line(l, a, b, &sc.segs)) {
                return true;
            }
        }
    }
    false
}

/// Is `(from, to)` a genuine sight line from `a` to `b`?
fn valid_witness(map: &Map, obs: &Obstacles, a: Pos, b: Pos, from: Point, to: Point) -> bool {
    let rp = |p: Point| {
        let d = p.x.denom() * p.y.denom();
        RP::new(p.x.numer() * p.y.denom(), p.y.numer() * p.x.denom(), d)
    };
    let (p, q) = (rp(from), rp(to));
    if !p.inside(a) || !q.inside(b) {
        return false;
    }
    if a == b {
        return true;
    }
    let sc = scene(map, obs, a, b);
    clear(p, q, &Ln::through(p, q), &sc.segs)
}

/// The centre rule, directly: the segment between the centres (coordinates doubled) must not
/// meet a closed wall, nor the interior of an obstacle square other than `a` and `b`.
fn centre_oracle(map: &Map, obs: &Obstacles, a: Pos, b: Pos) -> bool {
    if !map.in_bounds(a) || !map.in_bounds(b) {
        return false;
    }
    if a == b {
        return true;
    }
    let c = |s: Pos| RP::new(2 * i128::from(s.x) + 1, 2 * i128::from(s.y) + 1, 2);
    let (p, q) = (c(a), c(b));
    let l = Ln::through(p, q);
    let sc = scene_of(map, None, a, b);
    if !clear(p, q, &l, &sc.segs) {
        return false;
    }
    // Obstacle interiors: the part of the segment inside the closed square, by its parameter
    // range [lo, hi] ⊂ [0, 1] (fractions n/d), enters the open square iff it has length and its
    // middle is strictly inside.
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
    let (px, py) = (2 * i128::from(a.x) + 1, 2 * i128::from(a.y) + 1);
    let (dx, dy) = (2 * i128::from(b.x - a.x), 2 * i128::from(b.y - a.y));
    for cy in y0..=y1 {
        for cx in x0..=x1 {
            let s = Pos::new(cx, cy);
            if s == a || s == b || !(map.is_solid(s) || obs.contains(s)) {
                continue;
            }
            // Fractions (n, d) with d > 0.
            let mut lo = (0i128, 1i128);
            let mut hi = (1i128, 1i128);
            let mut empty = false;
            for (p0, d, s0) in [(px, dx, 2 * i128::from(cx)), (py, dy, 2 * i128::from(cy))] {
                if d == 0 {
                    if p0 < s0 || p0 > s0 + 2 {
                        empty = true;
                    }
                    continue;
                }
                let (mut t0, mut t1) = ((s0 - p0, d), (s0 + 2 - p0, d));
                if d < 0 {
                    t0 = (-t0.0, -t0.1);
                    t1 = (-t1.0, -t1.1);
                    std::mem::swap(&mut t0, &mut t1);
                }
                if t0.0 * lo.1 > lo.0 * t0.1 {
                    lo = t0;
                }
                if t1.0 * hi.1 < hi.0 * t1.1 {
                    hi = t1;
                }
            }
            if empty || lo.0 * hi.1 >= hi.0 * lo.1 {
                continue;
            }
            // Middle parameter m = (lo + hi) / 2 = mn / md; point = p0 + m·d (doubled coords).
            let (mn, md) = (lo.0 * hi.1 + hi.0 * lo.1, 2 * lo.1 * hi.1);
            let inside = |p0: i128, d: i128, s0: i128| {
                let v = p0 * md + mn * d;
                s0 * md < v && v < (s0 + 2) * md
            };
            if inside(px, dx, 2 * i128::from(cx)) && inside(py, dy, 2 * i128::from(cy)) {
                return false;
            }
        }
    }
    true
}

// ---------------------------------------------------------------------------------------------
// Random maps.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
pub(crate) struct World {
    pub(crate) map: Map,
    pub(crate) obs: Obstacles,
}

pub(crate) fn world(max: i32) -> impl Strategy<Value = World> {
    world_of(1..=max, 1..=max, 0u8..35, 0u8..25, 0u8..25)
}

/// A random map of `w`×`h` squares; walls, solid squares and units each with the percentage
/// drawn from its range.
fn world_of(
    w: impl Strategy<Value = i32>,
    h: impl Strategy<Value = i32>,
    wall: std::ops::Range<u8>,
    solid: std::ops::Range<u8>,
    unit: std::ops::Range<u8>,
) -> impl Strategy<Value = World> {
    (w, h, wall, solid, unit)
        .prop_flat_map(|(w, h, wall, solid, unit)| {
            let (wu, hu) = (w as usize, h as usize);
            (
                Just((w, h, wall, solid, unit)),
                proptest::collection::vec(0u8..100, (wu + 1) * hu),
                proptest::collection::vec(0u8..100, wu * (hu + 1)),
                proptest::collection::vec(0u8..100, wu * hu),
                proptest::collection::vec(0u8..100, wu * hu),
            )
        })
        .prop_map(|((w, h, wall, solid, unit), ve, he, so, un)| {
            let mut mb = MapBuilder::new(w, h);
            for y in 0..h {
                for x in 0..=w {
                    if ve[(y * (w + 1) + x) as usize] < wall {
                        mb.set_west(x, y, Edge::Wall);
                    }
                }
            }
            for y in 0..=h {
                for x in 0..w {
                    if he[(y * w + x) as usize] < wall {
                        mb.set_north(x, y, Edge::Wall);
                    }
                }
            }
            for y in 0..h {
                for x in 0..w {
                    if so[(y * w + x) as usize] < solid {
                        mb.set_terrain(Pos::new(x, y), Terrain::Solid);
                    }
                }
            }
            let map = mb.build();
            let mut obs = Obstacles::new(&map);
            for y in 0..h {
                for x in 0..w {
                    if un[(y * w + x) as usize] < unit {
                        obs.insert(Pos::new(x, y));
                    }
                }
            }
            World { map, obs }
        })
}

/// A top-left square where a 2×2 base fits on the map's squares (none solid), if the map has
/// one: the first from `i` on, in map order.
pub(crate) fn base_square(map: &Map, i: u16) -> Option<Pos> {
    let n = map.len();
    (0..n)
        .map(|k| map.pos_of((usize::from(i) + k) % n))
        .find(|&p| footprint(p, true).all(|q| map.in_bounds(q) && !map.is_solid(q)))
}

/// The map in the mission drawing format, units as `u`, for failure messages.
pub(crate) fn draw(w: &World) -> String {
    let m = &w.map;
    let mut out = String::new();
    for y in 0..=m.height() {
        for x in 0..m.width() {
            out.push('+');
            out.push(if m.north_edge(x, y) == Edge::Wall {
                '-'
            } else {
                ' '
            });
        }
        out.push_str("+\n");
        if y == m.height() {
            break;
        }
        for x in 0..=m.width() {
            out.push(if m.west_edge(x, y) == Edge::Wall {
                '|'
            } else {
                ' '
            });
            if x < m.width() {
                let p = Pos::new(x, y);
                out.push(if m.is_solid(p) {
                    '#'
                } else if w.obs.contains(p) {
                    'u'
                } else {
                    '.'
                });
            }
        }
        out.push('\n');
    }
    out
}

pub(crate) fn square(map: &Map, i: u16) -> Pos {
    map.pos_of(usize::from(i) % map.len())
}

const PAIRS: usize = 110;

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// 96 maps × 110 pairs = 10,560 pairs against the oracle, plus valid explanations.
    #[test]
    fn exact_agrees_with_oracle(
        w in world(12),
        pairs in proptest::collection::vec((any::<u16>(), any::<u16>()), PAIRS),
    ) {
        for (i, j) in pairs {
            let (a, b) = (square(&w.map, i), square(&w.map, j));
            let fast = LosRule::Exact.visible(&w.map, &w.obs, a, b);
            let slow = oracle(&w.map, &w.obs, a, b);
            prop_assert_eq!(fast, slow, "{} -> {}", a, b);
            match explain(LosRule::Exact, &w.map, &w.obs, a, b) {
                Explanation::Visible { from, to } => {
                    prop_assert!(fast, "explain sees but visible() does not: {} -> {}", a, b);
                    prop_assert!(valid_witness(&w.map, &w.obs, a, b, from, to),
                        "bad witness {} -> {} for {} -> {}", from, to, a, b);
                }
                Explanation::Blocked { blockers } => {
                    prop_assert!(!fast);
                    prop_assert!(!blockers.is_empty());
                }
            }
        }
    }

    /// The centre rule against a direct check of the centre segment.
    #[test]
    fn centre_agrees_with_direct_check(
        w in world(12),
        pairs in proptest::collection::vec((any::<u16>(), any::<u16>()), 200),
    ) {
        for (i, j) in pairs {
            let (a, b) = (square(&w.map, i), square(&w.map, j));
            prop_assert_eq!(
                LosRule::Centre.visible(&w.map, &w.obs, a, b),
                centre_oracle(&w.map, &w.obs, a, b),
                "{} -> {}\n{}", a, b, draw(&w)
            );
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// XXL targets (docs/RULES.md §4.4): LOS to a 2×2 base is LOS to any one of its four
    /// squares (its squares obstacles, as in the game), against the oracle; it is symmetric,
    /// and adding a wall, a solid square or a unit never creates it.
    #[test]
    fn xxl_bases_agree_with_oracle(
        w in world(10),
        at in any::<u16>(),
        pairs in proptest::collection::vec(any::<u16>(), 40),
        what in 0u8..4,
        extra in any::<u16>(),
    ) {
        let Some(base) = base_square(&w.map, at) else { return Ok(()) };
        let mut obs = w.obs.clone();
        for q in footprint(base, true) {
            obs.insert(q);
        }
        let p = square(&w.map, extra);
        let mut mb = MapBuilder::from(w.map.clone());
        let mut more_obs = obs.clone();
        match what {
            0 => { mb.set_west(p.x, p.y, Edge::Wall); }
            1 => { mb.set_north(p.x, p.y, Edge::Wall); }
            2 => { if !footprint(base, true).any(|q| q == p) { mb.set_terrain(p, Terrain::Solid); } }
            _ => more_obs.insert(p),
        }
        let more = mb.build();
        for i in pairs {
            let a = square(&w.map, i);
            if footprint(base, true).any(|q| q == a) {
                continue;
            }
            let fast = base_visible(&LosRule::Exact, &w.map, &obs, a, false, base, true);
            let slow = footprint(base, true).any(|q| oracle(&w.map, &obs, a, q));
            prop_assert_eq!(fast, slow, "{} -> XXL at {}\n{}", a, base, draw(&w));
            prop_assert_eq!(
                fast,
                base_visible(&LosRule::Exact, &w.map, &obs, base, true, a, false),
                "not symmetric: {} and XXL at {}", a, base
            );
            if base_visible(&LosRule::Exact, &more, &more_obs, a, false, base, true) {
                prop_assert!(fast, "adding {} at {} created LOS {} -> XXL at {}", what, p, a, base);
            }
        }
    }

    /// Ruined Walls are openings (docs/RULES.md §5.4): LOS on a map with walls ruined agrees
    /// with the oracle (which reads only walls), and never is less than before the ruin.
    #[test]
    fn ruined_walls_agree_with_oracle(
        w in world(10),
        ruin in proptest::collection::vec((any::<u16>(), any::<bool>()), 12),
        pairs in proptest::collection::vec((any::<u16>(), any::<u16>()), 60),
    ) {
        let edges: Vec<(Pos, overmind_core::Dir)> = ruin
            .iter()
            .map(|&(i, east)| {
                (square(&w.map, i), if east { overmind_core::Dir::E } else { overmind_core::Dir::S })
            })
            .collect();
        let ruined = w.map.with_ruined(&edges);
        for (i, j) in pairs {
            let (a, b) = (square(&w.map, i), square(&w.map, j));
            let fast = LosRule::Exact.visible(&ruined, &w.obs, a, b);
            prop_assert_eq!(fast, oracle(&ruined, &w.obs, a, b), "{} -> {}", a, b);
            if LosRule::Exact.visible(&w.map, &w.obs, a, b) {
                prop_assert!(fast, "a ruined wall removed LOS {} -> {}", a, b);
            }
        }
    }
}

proptest! {
    // Every pair of each map: fewer maps.
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A sees B iff B sees A, for both rules, over every pair of a map.
    #[test]
    fn symmetric(w in world(9)) {
        for a in w.map.squares() {
            for b in w.map.squares() {
                if a < b {
                    for rule in [LosRule::Exact, LosRule::Centre] {
                        prop_assert_eq!(
                            rule.visible(&w.map, &w.obs, a, b),
                            rule.visible(&w.map, &w.obs, b, a),
                            "{:?} {} {}", rule, a, b
                        );
                    }
                }
            }
        }
    }

    /// Adding a wall, a solid square or a unit never creates LOS.
    #[test]
    fn monotone(w in world(9), what in 0u8..4, at in any::<u16>(), ) {
        let p = square(&w.map, at);
        let mut mb = MapBuilder::from(w.map.clone());
        let mut obs = w.obs.clone();
        match what {
            0 => { mb.set_west(p.x, p.y, Edge::Wall); }
            1 => { mb.set_north(p.x, p.y, Edge::Wall); }
            2 => { mb.set_terrain(p, Terrain::Solid); }
            _ => obs.insert(p),
        }
        let more = mb.build();
        for a in w.map.squares() {
            for b in w.map.squares() {
                for rule in [LosRule::Exact, LosRule::Centre] {
                    if rule.visible(&more, &obs, a, b) {
                        prop_assert!(rule.visible(&w.map, &w.obs, a, b),
                            "{:?}: adding {} at {} created LOS {} -> {}", rule, what, p, a, b);
                    }
                }
            }
        }
    }

    /// A map remembers what walls alone decide for a pair; that must never leak into queries
    /// with other units: answers on a well-used map match a fresh copy's.
    #[test]
    fn cached_answers_match_fresh_ones(w in world(9), more in any::<u16>()) {
        let mut fewer = Obstacles::new(&w.map);
        let extra = square(&w.map, more);
        let mut crowd = w.obs.clone();
        crowd.insert(extra);
        for obs in [&w.obs, &crowd, &fewer] {
            for a in w.map.squares() {
                for b in w.map.squares() {
                    for rule in [LosRule::Exact, LosRule::Centre] {
                        let _ = rule.visible(&w.map, obs, a, b);
                    }
                }
            }
        }
        fewer.insert(extra);
        for obs in [&fewer, &w.obs, &Obstacles::new(&w.map)] {
            let fresh = w.map.clone();
            for a in w.map.squares() {
                for b in w.map.squares() {
                    for rule in [LosRule::Exact, LosRule::Centre] {
                        prop_assert_eq!(
                            rule.visible(&w.map, obs, a, b),
                            rule.visible(&fresh, obs, a, b),
                            "{:?} {} {}", rule, a, b
                        );
                    }
                }
            }
        }
    }

    /// The blockers an explanation lists block on their own, and each of them is needed.
    #[test]
    fn blockers_are_irreducible(
        w in world(10),
        pairs in proptest::collection::vec((any::<u16>(), any::<u16>()), 20),
    ) {
        for (i, j) in pairs {
            let (a, b) = (square(&w.map, i), square(&w.map, j));
            let Explanation::Blocked { blockers } = explain(LosRule::Exact, &w.map, &w.obs, a, b)
            else { continue };
            // A map holding only the listed blockers (plus the border, which is never listed).
            let only = |skip: Option<usize>| {
                let mut mb = MapBuilder::new(w.map.width(), w.map.height());
                let mut obs = Obstacles::new(&w.map);
                for (k, x) in blockers.iter().enumerate() {
                    if Some(k) == skip {
                        continue;
                    }
                    match *x {
                        Blocker::Wall(WallEdge::West(p)) => { mb.set_west(p.x, p.y, Edge::Wall); }
                        Blocker::Wall(WallEdge::North(p)) => { mb.set_north(p.x, p.y, Edge::Wall); }
                        Blocker::Obstacle { at, kind: ObstacleKind::Solid } => {
                            mb.set_terrain(at, Terrain::Solid);
                        }
                        Blocker::Obstacle { at, kind: ObstacleKind::Unit } => obs.insert(at),
                        Blocker::OffMap(_) => {}
                    }
                }
                let map = mb.build();
                oracle(&map, &obs, a, b)
            };
            prop_assert!(!only(None), "{} -> {}: listed blockers do not block", a, b);
            for (k, x) in blockers.iter().enumerate() {
                prop_assert!(only(Some(k)), "{} -> {}: {} is not needed", a, b, x);
            }
        }
    }
}

/// Pairs on a big map: half at random, half from the west edge's columns to the east edge's
/// (frames wider than a word of the bit sets).
fn big_pairs(map: &Map, raw: &[(u16, u16, bool)]) -> Vec<(Pos, Pos)> {
    let (w, h) = (map.width(), map.height());
    raw.iter()
        .map(|&(i, j, long)| {
            if long {
                let a = Pos::new(i32::from(i) % 8, i32::from(i / 8) % h);
                let b = Pos::new(w - 1 - i32::from(j) % 8, i32::from(j / 8) % h);
                (a, b)
            } else {
                (square(map, i), square(map, j))
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// 80×80 maps (no pair table of the old kind, bit-set lines of two words), sparser so
    /// that long pairs stay within the oracle's reach: the exact rule against the oracle, and
    /// what a well-used map remembers against a fresh copy.
    #[test]
    fn big_maps_agree_with_oracle(
        w in world_of(Just(80), Just(80), 0u8..5, 0u8..4, 0u8..3),
        raw in proptest::collection::vec((any::<u16>(), any::<u16>(), any::<bool>()), 32),
    ) {
        let pairs = big_pairs(&w.map, &raw);
        for &(a, b) in &pairs {
            let fast = LosRule::Exact.visible(&w.map, &w.obs, a, b);
            prop_assert_eq!(fast, oracle_with(&w.map, &w.obs, a, b, true), "{} -> {}", a, b);
            prop_assert_eq!(
                LosRule::Centre.visible(&w.map, &w.obs, a, b),
                centre_oracle(&w.map, &w.obs, a, b),
                "centre {} -> {}", a, b
            );
        }
        // Asked again (both ways round) on the same map: remembered answers.
        for &(a, b) in &pairs {
            let fresh = w.map.clone();
            prop_assert_eq!(
                LosRule::Exact.visible(&w.map, &w.obs, b, a),
                LosRule::Exact.visible(&fresh, &w.obs, a, b),
                "again {} -> {}", a, b
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The oracle on the hull's blockers alone is the oracle.
    #[test]
    fn oracle_on_the_hull_is_the_oracle(
        w in world(10),
        pairs in proptest::collection::vec((any::<u16>(), any::<u16>()), 40),
    ) {
        for (i, j) in pairs {
            let (a, b) = (square(&w.map, i), square(&w.map, j));
            prop_assert_eq!(
                oracle(&w.map, &w.obs, a, b),
                oracle_with(&w.map, &w.obs, a, b, true),
                "{} -> {}", a, b
            );
        }
    }
}

/// Units moving as in a game: after every round of moves, a map that has answered every
/// earlier round (its pair table and unit memo full of them) answers as a fresh copy does,
/// on 20×20 and 80×80 maps, for both rules, and the exact answers on 20×20 agree with the
/// oracle.
#[test]
fn cached_answers_equal_fresh_ones_after_units_move() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(10);
    for (size, rounds) in [(20, 30), (80, 12)] {
        let mut mb = MapBuilder::new(size, size);
        for y in 0..size {
            for x in 0..size {
                if rng.random_range(0..100) < 12 {
                    mb.set_west(x, y, Edge::Wall);
                }
                if rng.random_range(0..100) < 12 {
                    mb.set_north(x, y, Edge::Wall);
                }
                if rng.random_range(0..100) < 6 {
                    mb.set_terrain(Pos::new(x, y), Terrain::Solid);
                }
            }
        }
        let warm = mb.build();
        let free: Vec<Pos> = warm.squares().filter(|&p| !warm.is_solid(p)).collect();
        let count = (free.len() / 20).max(8);
        let mut units: Vec<Pos> = (0..count)
            .map(|_| free[rng.random_range(0..free.len())])
            .collect();
        // Pairs asked every round: between the units, and a fixed set at random.
        let fixed: Vec<(Pos, Pos)> = (0..300)
            .map(|_| {
                (
                    free[rng.random_range(0..free.len())],
                    free[rng.random_range(0..free.len())],
                )
            })
            .collect();
        for round in 0..rounds {
            // A few units step to a neighbouring free square; now and then one jumps.
            for u in units.iter_mut() {
                match rng.random_range(0..10) {
                    0..=3 => {
                        let d = [(1, 0), (-1, 0), (0, 1), (0, -1)][rng.random_range(0..4)];
                        let to = Pos::new(u.x + d.0, u.y + d.1);
                        if warm.in_bounds(to) && !warm.is_solid(to) {
                            *u = to;
                        }
                    }
                    4 => *u = free[rng.random_range(0..free.len())],
                    _ => {}
                }
            }
            let mut obs = Obstacles::new(&warm);
            for &u in &units {
                obs.insert(u);
            }
            let fresh = warm.clone();
            let among = units
                .iter()
                .flat_map(|&a| units.iter().map(move |&b| (a, b)))
                .take(400);
            for (a, b) in among.chain(fixed.iter().copied()) {
                for rule in [LosRule::Exact, LosRule::Centre] {
                    let want = rule.visible(&fresh, &obs, a, b);
                    assert_eq!(
                        rule.visible(&warm, &obs, a, b),
                        want,
                        "{rule:?} {a} -> {b}, {size}x{size}, round {round}"
                    );
                    if size == 20 && rule == LosRule::Exact && round % 10 == 0 {
                        assert_eq!(want, oracle(&fresh, &obs, a, b), "oracle {a} -> {b}");
                    }
                }
            }
        }
    }
}

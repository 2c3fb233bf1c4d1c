//! One LOS query turned into a standard position, with the walls and obstacles that could touch
//! a sight line: the solvers then deal with a single case instead of eight symmetric ones.

use super::explain::{Blocker, ObstacleKind, Point, Rational, WallEdge};
use crate::geom::Pos;
use crate::map::{Edge, Map, Obstacles};

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
    pub k: i64,
    pub r: i64,
    /// The same blocker in map terms, for explanations.
    pub what: Blocker,
}

impl Blk {
    /// Walls are closed for both rules; the centre rule only looks at obstacle interiors.
    pub fn is_wall(&self) -> bool {
        self.shape != Shape::Cell
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

    /// Push every wall and obstacle square that meets the open convex hull of A ∪ B (the only
    /// place a sight line between them can be). A and B themselves never block.
    ///
    /// Requires `dx >= 1` (A ≠ B). With `first_only`, stops after the first one found.
    pub fn collect(&self, map: &Map, obstacles: &Obstacles, out: &mut Vec<Blk>, first_only: bool) {
        let (dx, dy) = (self.dx, self.dy);
        if dx < 1 {
            return;
        }
        for k in 0..=dx {
            // The hull's open interior over x ∈ [k, k+1] lies in
            // dy(k-1)/dx < y < 1 + dy(k+1)/dx: only rows meeting that band matter.
            let r_lo = (dy * (k - 1)).div_euclid(dx).max(0);
            let r_hi = (dx + dy * (k + 1) - 1).div_euclid(dx).min(dy);
            for r in r_lo..=r_hi {
                if !((k == 0 && r == 0) || (k == dx && r == dy)) {
                    let at = self.cell(k, r);
                    let kind = if map.is_solid(at) {
                        Some(ObstacleKind::Solid)
                    } else if obstacles.contains(at) {
                        Some(ObstacleKind::Unit)
                    } else {
                        None
                    };
                    if let Some(kind) = kind {
                        out.push(Blk {
                            q: Pt::new(k, r + 1),
                            p: Pt::new(k + 1, r),
                            shape: Shape::Cell,
                            k,
                            r,
                            what: Blocker::Obstacle { at, kind },
                        });
                        if first_only {
                            return;
                        }
                    }
                }
                if k >= 1 {
                    let e = self.vedge(k, r);
                    if is_wall(map, e) {
                        out.push(Blk {
                            q: Pt::new(k, r + 1),
                            p: Pt::new(k, r),
                            shape: Shape::VEdge,
                            k,
                            r,
                            what: Blocker::Wall(e),
                        });
                        if first_only {
                            return;
                        }
                    }
                }
            }
            for r in r_lo.max(1)..=r_hi.min(dy) {
                let e = self.hedge(k, r);
                if is_wall(map, e) {
                    out.push(Blk {
                        q: Pt::new(k, r),
                        p: Pt::new(k + 1, r),
                        shape: Shape::HEdge,
                        k,
                        r,
                        what: Blocker::Wall(e),
                    });
                    if first_only {
                        return;
                    }
                }
            }
        }
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

fn is_wall(map: &Map, e: WallEdge) -> bool {
    match e {
        WallEdge::West(p) => map.west_edge(p.x, p.y) == Edge::Wall,
        WallEdge::North(p) => map.north_edge(p.x, p.y) == Edge::Wall,
    }
}

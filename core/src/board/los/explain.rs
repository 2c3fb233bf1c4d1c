//! What `overmind los --explain` shows to settle a dispute: a sight line with exact end points,
//! or the walls and obstacles that block every line.

use crate::data::geom::Pos;
use std::cmp::Ordering;
use std::fmt;

/// An exact fraction `num / den` (`den > 0`, lowest terms).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rational {
    num: i128,
    den: i128,
}

impl Rational {
    /// `num / den` in lowest terms; `None` when `den` is 0 or the sign cannot be normalised.
    #[must_use]
    pub fn new(num: i128, den: i128) -> Option<Rational> {
        if den == 0 {
            return None;
        }
        let g = gcd(num.unsigned_abs(), den.unsigned_abs());
        let (mut num, mut den) = (num / i128::try_from(g).ok()?, den / i128::try_from(g).ok()?);
        if den < 0 {
            num = num.checked_neg()?;
            den = den.checked_neg()?;
        }
        Some(Rational { num, den })
    }

    #[must_use]
    pub const fn integer(n: i64) -> Rational {
        Rational {
            num: n as i128,
            den: 1,
        }
    }

    #[must_use]
    pub const fn numer(self) -> i128 {
        self.num
    }

    /// Always positive.
    #[must_use]
    pub const fn denom(self) -> i128 {
        self.den
    }

    pub(crate) fn add(self, o: Rational) -> Option<Rational> {
        let num = self
            .num
            .checked_mul(o.den)?
            .checked_add(o.num.checked_mul(self.den)?)?;
        Rational::new(num, self.den.checked_mul(o.den)?)
    }

    pub(crate) fn sub(self, o: Rational) -> Option<Rational> {
        self.add(Rational {
            num: o.num.checked_neg()?,
            den: o.den,
        })
    }

    pub(crate) fn mul(self, o: Rational) -> Option<Rational> {
        Rational::new(self.num.checked_mul(o.num)?, self.den.checked_mul(o.den)?)
    }

    pub(crate) fn div(self, o: Rational) -> Option<Rational> {
        Rational::new(self.num.checked_mul(o.den)?, self.den.checked_mul(o.num)?)
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

impl Ord for Rational {
    /// Compares by continued fractions, so it never overflows.
    fn cmp(&self, other: &Rational) -> Ordering {
        let (mut a, mut b, mut c, mut d) = (self.num, self.den, other.num, other.den);
        // Invariant: compare a/b with c/d, b > 0, d > 0; `flip` reverses the answer.
        let mut flip = false;
        loop {
            let (qa, qc) = (a.div_euclid(b), c.div_euclid(d));
            if qa != qc {
                let o = qa.cmp(&qc);
                return if flip { o.reverse() } else { o };
            }
            let (ra, rc) = (a.rem_euclid(b), c.rem_euclid(d));
            let o = match (ra == 0, rc == 0) {
                (true, true) => return Ordering::Equal,
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
                (false, false) => {
                    // ra/b vs rc/d is the reverse of b/ra vs d/rc.
                    (a, b, c, d) = (b, ra, d, rc);
                    flip = !flip;
                    continue;
                }
            };
            return if flip { o.reverse() } else { o };
        }
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, other: &Rational) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Rational {
    /// `3`, `3.25`, or `10/3` when the decimal would not end within 6 places.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            return write!(f, "{}", self.num);
        }
        // A terminating decimal has a denominator of the form 2^i 5^j.
        let mut rest = self.den;
        let (mut twos, mut fives) = (0u32, 0u32);
        while rest % 2 == 0 {
            rest /= 2;
            twos += 1;
        }
        while rest % 5 == 0 {
            rest /= 5;
            fives += 1;
        }
        let places = twos.max(fives);
        if rest == 1 && places <= 6 {
            let scale = 10i128.pow(places);
            if let Some(scaled) = self.num.checked_mul(scale / self.den) {
                let sign = if scaled < 0 { "-" } else { "" };
                let abs = scaled.unsigned_abs();
                let scale = scale.unsigned_abs();
                let frac = format!("{:0width$}", abs % scale, width = places as usize);
                return write!(f, "{sign}{}.{}", abs / scale, frac.trim_end_matches('0'));
            }
        }
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// A point in map coordinates: square `(x, y)` spans `[x, x+1] × [y, y+1]`, so the centre of
/// square `3,4` is `(3.5, 4.5)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Point {
    pub x: Rational,
    pub y: Rational,
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// A wall, by the square it lies west or north of.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WallEdge {
    West(Pos),
    North(Pos),
}

/// What makes a square an obstacle.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ObstacleKind {
    /// Solid scenery.
    Solid,
    /// A model or a Blip Token.
    Unit,
}

/// Something that blocks sight lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Blocker {
    Wall(WallEdge),
    Obstacle {
        at: Pos,
        kind: ObstacleKind,
    },
    /// The square asked about is not on the map.
    OffMap(Pos),
}

impl fmt::Display for Blocker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Blocker::Wall(WallEdge::West(p)) => write!(f, "wall west of {p}"),
            Blocker::Wall(WallEdge::North(p)) => write!(f, "wall north of {p}"),
            Blocker::Obstacle {
                at,
                kind: ObstacleKind::Solid,
            } => write!(f, "obstacle at {at} (solid square)"),
            Blocker::Obstacle {
                at,
                kind: ObstacleKind::Unit,
            } => write!(f, "obstacle at {at} (model or Blip)"),
            Blocker::OffMap(p) => write!(f, "square {p} is off the map"),
        }
    }
}

/// Why two squares do or do not see each other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Explanation {
    /// A sight line: it starts strictly inside the first square, ends strictly inside the second
    /// and touches no wall and no obstacle (for the centre rule: the centre-to-centre line).
    Visible { from: Point, to: Point },
    /// No sight line. For the exact rule, every line from inside one square to inside the other
    /// touches at least one of these, and none of them can be left out (remove any one and some
    /// line gets through). For the centre rule, everything the centre line touches.
    Blocked { blockers: Vec<Blocker> },
}

impl Explanation {
    #[must_use]
    pub fn is_visible(&self) -> bool {
        matches!(self, Explanation::Visible { .. })
    }
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Explanation::Visible { from, to } => write!(
                f,
                "visible: the line from {from} to {to} touches no wall or obstacle"
            ),
            Explanation::Blocked { blockers } if blockers.is_empty() => write!(f, "blocked"),
            Explanation::Blocked { blockers } => {
                write!(f, "blocked by ")?;
                for (i, b) in blockers.iter().enumerate() {
                    if i > 0 {
                        write!(f, "; ")?;
                    }
                    write!(f, "{b}")?;
                }
                Ok(())
            }
        }
    }
}

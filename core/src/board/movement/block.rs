//! XXL models (docs/RULES.md §4.4): a 2×2 base, named by its top-left square, that is
//! adjacent to whatever touches it and moves as one block.
//!
//! A base *fits* at a top-left square when its four squares are on the map, not solid, hold no
//! other model or Blip, and the four edges inside it are open. A step to a neighbouring
//! top-left square is legal when the base fits there; a diagonal step also needs the base to
//! fit at both orthogonal squares it cuts past (as a one-square diagonal step needs both
//! two-step routes). So every square of every step is free and every crossed edge open: a
//! one-square opening is too narrow. A plain breadth-first search over top-left squares:
//! XXL models are few, so none of the single-square search's cached masks are needed.

use super::steps::adjacent;
use super::towards::{Goal, Remaining, Towards};
use crate::data::geom::{base_distance, footprint, Dir, Pos};
use crate::data::map::{Map, Obstacles};

/// Are two bases adjacent: some square of one [`adjacent`] to some square of the other, and
/// they share no square?
#[must_use]
pub fn base_adjacent(map: &Map, a: Pos, a_xxl: bool, b: Pos, b_xxl: bool) -> bool {
    if !a_xxl && !b_xxl {
        return adjacent(map, a, b);
    }
    if base_distance(a, a_xxl, b, b_xxl) != 1 {
        return false;
    }
    footprint(a, a_xxl).any(|p| footprint(b, b_xxl).any(|q| adjacent(map, p, q)))
}

/// Does a 2×2 base fit with its top-left square on `at` (see the module's text)?
#[must_use]
pub fn fits(map: &Map, obstacles: &Obstacles, at: Pos) -> bool {
    footprint(at, true).all(|p| !map.blocked(obstacles, p))
        && !map.wall(at, Dir::E)
        && !map.wall(at, Dir::S)
        && !map.wall(at.offset(Dir::SE), Dir::N)
        && !map.wall(at.offset(Dir::SE), Dir::W)
}

/// `obstacles` without the mover's own base on `from` (it has left it once it steps).
fn without(obstacles: &Obstacles, from: Pos) -> Obstacles {
    let mut o = obstacles.clone();
    for p in footprint(from, true) {
        o.remove(p);
    }
    o
}

/// One legal step of a 2×2 base from `from` to the neighbouring top-left square `to`, over
/// obstacles that no longer hold the mover.
fn step_free(map: &Map, o: &Obstacles, from: Pos, to: Pos) -> bool {
    let Some(d) = Dir::between(from, to) else {
        return false;
    };
    if !fits(map, o, to) {
        return false;
    }
    if !d.is_diagonal() {
        return true;
    }
    let (dx, dy) = d.delta();
    fits(map, o, Pos::new(from.x + dx, from.y)) && fits(map, o, Pos::new(from.x, from.y + dy))
}

/// Can an XXL model on `from` make one legal step to `to` (top-left squares)? `obstacles` may
/// hold the mover itself.
#[must_use]
pub fn can_step_block(map: &Map, obstacles: &Obstacles, from: Pos, to: Pos) -> bool {
    map.in_bounds(from) && step_free(map, &without(obstacles, from), from, to)
}

/// A breadth-first search of a 2×2 base from `from`: step counts and the square each was
/// first reached from, by map index (`u32::MAX`: not reached).
struct Search {
    dist: Vec<u32>,
    parent: Vec<usize>,
    order: Vec<usize>,
}

impl Search {
    fn run(map: &Map, o: &Obstacles, sources: &[Pos], max: u32) -> Search {
        let mut s = Search {
            dist: vec![u32::MAX; map.len()],
            parent: vec![usize::MAX; map.len()],
            order: Vec::new(),
        };
        for &p in sources {
            if map.in_bounds(p) && s.dist[map.index(p)] == u32::MAX {
                s.dist[map.index(p)] = 0;
                s.order.push(map.index(p));
            }
        }
        let mut head = 0;
        while head < s.order.len() {
            let i = s.order[head];
            head += 1;
            if s.dist[i] >= max {
                continue;
            }
            let p = map.pos_of(i);
            for d in Dir::ALL {
                let q = p.offset(d);
                if !map.in_bounds(q) || s.dist[map.index(q)] != u32::MAX {
                    continue;
                }
                if step_free(map, o, p, q) {
                    let j = map.index(q);
                    s.dist[j] = s.dist[i] + 1;
                    s.parent[j] = i;
                    s.order.push(j);
                }
            }
        }
        s
    }

    fn get(&self, map: &Map, p: Pos) -> Option<u32> {
        if !map.in_bounds(p) {
            return None;
        }
        let d = self.dist[map.index(p)];
        (d != u32::MAX).then_some(d)
    }

    /// The path from the source to `to`, start first.
    fn path(&self, map: &Map, to: Pos) -> Option<Vec<Pos>> {
        self.get(map, to)?;
        let mut out = vec![to];
        let mut i = map.index(to);
        while self.parent[i] != usize::MAX {
            i = self.parent[i];
            out.push(map.pos_of(i));
        }
        out.reverse();
        Some(out)
    }
}

/// A shortest legal path of an XXL model from `from` to `to` (top-left squares, start
/// first), the first in search order when several tie.
#[must_use]
pub fn block_path(map: &Map, obstacles: &Obstacles, from: Pos, to: Pos) -> Option<Vec<Pos>> {
    if !map.in_bounds(from) || !map.in_bounds(to) {
        return None;
    }
    let o = without(obstacles, from);
    Search::run(map, &o, &[from], u32::MAX).path(map, to)
}

/// Top-left squares an XXL model on `from` can reach in at most `max_steps` legal steps, with
/// their step counts, `from` included at 0; sorted by (steps, y, x).
#[must_use]
pub fn block_reachable(
    map: &Map,
    obstacles: &Obstacles,
    from: Pos,
    max_steps: u32,
) -> Vec<(Pos, u32)> {
    if !map.in_bounds(from) {
        return Vec::new();
    }
    let o = without(obstacles, from);
    let s = Search::run(map, &o, &[from], max_steps);
    let mut out: Vec<(Pos, u32)> = s
        .order
        .iter()
        .map(|&i| (map.pos_of(i), s.dist[i]))
        .collect();
    out.sort_unstable_by_key(|&(p, d)| (d, p.y, p.x));
    out
}

/// Does an XXL model with its top-left square on `p` meet `goal`: adjacent to a target, or
/// covering one of the squares?
fn meets(map: &Map, goal: &Goal, p: Pos) -> bool {
    match goal {
        Goal::AdjacentTo(ts) => ts.iter().any(|&t| base_adjacent(map, p, true, t, false)),
        Goal::Squares(sq) => footprint(p, true).any(|q| map.in_bounds(q) && sq.contains(&q)),
    }
}

/// [`super::towards`] for an XXL model: every best end (top-left square) of a move of up to
/// `max_steps` towards `goal`, by the same measure (least remaining legal-path distance to a
/// position meeting the goal, then fewest steps; else least distance from the base to the
/// nearest goal square).
#[must_use]
pub fn block_towards(
    map: &Map,
    obstacles: &Obstacles,
    from: Pos,
    goal: &Goal,
    max_steps: u32,
) -> Towards {
    if !map.in_bounds(from) {
        return Towards::from_parts(Vec::new(), Remaining::NoGoal, 0, Vec::new());
    }
    let o = without(obstacles, from);
    let near = Search::run(map, &o, &[from], max_steps);
    let goals: Vec<Pos> = map
        .squares()
        .filter(|&p| meets(map, goal, p) && (p == from || fits(map, &o, p)))
        .collect();
    let anchors: &[Pos] = match goal {
        Goal::AdjacentTo(v) | Goal::Squares(v) => v,
    };
    let stay = |remaining| Towards::from_parts(vec![from], remaining, 0, vec![vec![from]]);
    if !anchors.iter().any(|&a| map.in_bounds(a)) {
        return stay(Remaining::NoGoal);
    }
    let back = Search::run(map, &o, &goals, u32::MAX);
    // (remaining, steps) of each reached top-left square; the least wins.
    let score = |i: usize| -> (bool, u32, u32) {
        match back.dist[i] {
            u32::MAX => {
                let p = map.pos_of(i);
                let cheb = anchors
                    .iter()
                    .map(|&a| base_distance(p, true, a, false))
                    .min()
                    .unwrap_or(u32::MAX);
                (true, cheb, near.dist[i])
            }
            d => (false, d, near.dist[i]),
        }
    };
    let Some(best) = near.order.iter().map(|&i| score(i)).min() else {
        return stay(Remaining::NoGoal);
    };
    let mut ends: Vec<Pos> = near
        .order
        .iter()
        .filter(|&&i| score(i) == best)
        .map(|&i| map.pos_of(i))
        .collect();
    ends.sort_unstable_by_key(|p| (p.y, p.x));
    let paths = ends
        .iter()
        .map(|&e| near.path(map, e).unwrap_or_default())
        .collect();
    let remaining = if best.0 {
        Remaining::Chebyshev(best.1)
    } else {
        Remaining::Path(best.1)
    };
    Towards::from_parts(ends, remaining, best.2, paths)
}

/// Steps of the shortest legal path of an XXL model from `from` to a position meeting `goal`.
#[must_use]
pub fn block_distance(map: &Map, obstacles: &Obstacles, from: Pos, goal: &Goal) -> Option<u32> {
    let t = block_towards(map, obstacles, from, goal, u32::MAX / 4);
    t.reached().then_some(t.steps)
}

//! "Move towards" orders: goals and the best end squares of a move towards one.

use super::grid::{offsets, Grid, UNREACHED};
use super::layout::{Layout, FREE};
use super::scratch::{with_walk, Scratch};
use super::steps::adjacent;
use super::walk::Walk;
use crate::data::geom::{Dir, Pos};
use crate::data::map::{Map, Obstacles};

/// Where a move "towards" something wants to end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// End [`adjacent`] to any of these squares (a Hero, an Alien Unit): they are usually
    /// occupied, so they are not entered.
    AdjacentTo(Vec<Pos>),
    /// End on any of these squares (green squares, building squares, an exit…).
    Squares(Vec<Pos>),
}

impl Goal {
    /// Does a model on `p` satisfy the goal?
    #[must_use]
    pub fn is_met(&self, map: &Map, p: Pos) -> bool {
        match self {
            Goal::AdjacentTo(targets) => targets.iter().any(|&t| adjacent(map, p, t)),
            Goal::Squares(squares) => map.in_bounds(p) && squares.contains(&p),
        }
    }

    /// The squares the fallback measures Chebyshev distance to: the targets or the squares.
    fn anchors(&self) -> &[Pos] {
        match self {
            Goal::AdjacentTo(v) | Goal::Squares(v) => v,
        }
    }
}

/// How far the ends of a [`Towards`] still are from the goal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Remaining {
    /// Legal steps still needed from each end; 0 = the goal is reached.
    Path(u32),
    /// No legal path from anywhere the mover can reach leads to the goal: the ends minimise the
    /// Chebyshev distance to the nearest goal square (for [`Goal::AdjacentTo`], the nearest
    /// target square itself), which is this.
    Chebyshev(u32),
    /// The goal names no square on the map: the mover stays.
    NoGoal,
}

/// The equally good end squares of a "move up to N steps towards" order, for the Overmind to
/// choose among.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Towards {
    /// Best end squares, sorted by (y, x). Empty only when the mover is off the map.
    pub ends: Vec<Pos>,
    /// Distance still left from each end to the goal.
    pub remaining: Remaining,
    /// Steps used to reach each end (all ends need the same number).
    pub steps: u32,
    /// A path for each end, parallel to `ends`.
    paths: Vec<Vec<Pos>>,
}

impl Towards {
    /// An answer made elsewhere in the board layer (an XXL model's, `block`).
    pub(super) fn from_parts(
        ends: Vec<Pos>,
        remaining: Remaining,
        steps: u32,
        paths: Vec<Vec<Pos>>,
    ) -> Towards {
        Towards {
            ends,
            remaining,
            steps,
            paths,
        }
    }

    /// The answer for a mover off the map.
    pub(super) fn nowhere() -> Towards {
        Towards {
            ends: Vec::new(),
            remaining: Remaining::NoGoal,
            steps: 0,
            paths: Vec::new(),
        }
    }

    /// A legal path from the start to `end` (both included) if `end` is one of the ends.
    #[must_use]
    pub fn path(&self, end: Pos) -> Option<Vec<Pos>> {
        let k = self.ends.iter().position(|&e| e == end)?;
        self.paths.get(k).filter(|p| !p.is_empty()).cloned()
    }

    /// Do the ends satisfy the goal?
    #[must_use]
    pub fn reached(&self) -> bool {
        self.remaining == Remaining::Path(0)
    }
}

/// "Move up to `max_steps` steps towards `goal`": every best end square.
///
/// Best means, among squares reachable in at most `max_steps` legal steps: least remaining
/// legal-path distance to a square meeting the goal (the mover's start counts as free); then
/// fewest steps used. If no reachable square has any legal path to the goal, the fallback is
/// least Chebyshev distance to the nearest goal square (see [`Remaining::Chebyshev`]), then
/// fewest steps. A mover already at the goal stays (0 steps). Because fewer steps win ties, a
/// best end's path never passes through a goal square before it: the mover stops on the first.
///
/// A caller moving many models towards one goal can keep a [`GoalField`] instead: its
/// [`GoalField::towards`] gives the same answers without searching the goal's side afresh.
///
/// [`GoalField`]: super::GoalField
/// [`GoalField::towards`]: super::GoalField::towards
#[must_use]
pub fn towards(map: &Map, obstacles: &Obstacles, from: Pos, goal: Goal, max_steps: u32) -> Towards {
    with_walk(map, obstacles, from, |grid, start, sc| {
        let Scratch {
            walk,
            dist2,
            order2,
            cells,
            ..
        } = sc;
        goal_cells(map, grid, obstacles, &goal, start, cells);
        // `dist2` and `order2` serve this search alone, so the last one's labels are all in
        // `order2`.
        grid.reseed(dist2, order2, cells);
        towards_on(
            map,
            grid,
            walk,
            start,
            &goal,
            max_steps,
            ToGoal::Search(dist2, order2),
        )
    })
    .unwrap_or_else(Towards::nowhere)
}

/// The cells of `grid` meeting `goal` that a model may end on, into `out` (in no particular
/// order, perhaps twice): not solid, and holding no model unless it is the mover's `start`.
pub(super) fn goal_cells(
    map: &Map,
    grid: &Grid,
    obstacles: &Obstacles,
    goal: &Goal,
    start: usize,
    out: &mut Vec<usize>,
) {
    let layout = Layout::of(map);
    out.clear();
    let mut add = |p: Pos| {
        if let Some(i) = grid.index(p) {
            if layout.cells[i] & FREE != 0 && (i == start || !obstacles.contains(p)) {
                out.push(i);
            }
        }
    };
    match goal {
        Goal::Squares(squares) => squares.iter().for_each(|&p| add(p)),
        // The squares adjacent to each target.
        Goal::AdjacentTo(targets) => {
            for &t in targets {
                let Some(ti) = layout.index(t) else {
                    continue;
                };
                let adj = layout.adjacent[ti];
                for (k, d) in Dir::ALL.into_iter().enumerate() {
                    if adj & (1 << k) != 0 {
                        add(t.offset(d));
                    }
                }
            }
        }
    }
}

/// Where [`towards_on`] gets the distances to the goal from.
pub(super) enum ToGoal<'a> {
    /// A search on the mover's grid seeded with the goal cells (at 0), to be taken as far as
    /// needed.
    Search(&'a mut Vec<u32>, &'a mut Vec<usize>),
    /// Every distance to the goal on the mover's grid, exact.
    Field(&'a [u32]),
}

/// [`towards`] from `start` on the mover's `grid`, with the mover's search `walk`.
pub(super) fn towards_on(
    map: &Map,
    grid: &Grid,
    walk: &mut Walk,
    start: usize,
    goal: &Goal,
    max_steps: u32,
    mut to_goal: ToGoal<'_>,
) -> Towards {
    let offsets = offsets(grid.stride);
    let at_goal = |g: &ToGoal<'_>, i: usize| match g {
        ToGoal::Search(d, _) => d[i] == 0,
        ToGoal::Field(d) => d[i] == 0,
    };
    // The mover's search first, level by level up to the first holding a goal square if any:
    // then the best ends are the goal squares there. Otherwise only the least distance to the
    // goal of any square the mover reached matters, so the goal's search stops after the first
    // level holding one (every square of that level is reached by then); squares it has not
    // reached are farther, whatever their true distance, so they can never be best.
    let mut level = 0;
    let mut reached = 1;
    let mut hit = at_goal(&to_goal, start);
    while !hit && level < max_steps {
        walk.advance(&grid.steps, &offsets, level + 1);
        let order = &walk.order;
        let mut end = reached;
        while end < order.len() && walk.dist[order[end]] == level + 1 {
            end += 1;
        }
        if end == reached && walk.exhausted() {
            break;
        }
        level += 1;
        hit = order[reached..end].iter().any(|&i| at_goal(&to_goal, i));
        reached = end;
    }
    let order = &walk.order[..reached];
    let moves = &walk.dist;
    let in_reach = |j: usize| moves[j] <= level;
    let to_goal: &[u32] = match &mut to_goal {
        ToGoal::Search(dist, goal_order) => {
            if !hit {
                grid.search(dist, goal_order, UNREACHED, true, in_reach);
            }
            dist
        }
        ToGoal::Field(dist) => dist,
    };

    // One (primary, steps) key per reachable square; the best ends share the least key.
    let path_key = |i: usize| (to_goal[i], moves[i]);
    let best_path = order.iter().map(|&i| path_key(i)).min();
    if let Some(best @ (d, _)) = best_path.filter(|k| k.0 != UNREACHED) {
        let ends: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| path_key(i) == best)
            .collect();
        return finish(grid, moves, ends, Remaining::Path(d), best.1);
    }
    let anchors: Vec<Pos> = goal
        .anchors()
        .iter()
        .copied()
        .filter(|&p| map.in_bounds(p))
        .collect();
    let keys: Vec<(u32, u32)> = order
        .iter()
        .map(|&i| {
            let p = grid.pos(i);
            let cheb = anchors.iter().map(|&a| p.distance(a)).min().unwrap_or(0);
            (cheb, moves[i])
        })
        .collect();
    let remaining = match keys.iter().min() {
        Some(&(c, _)) if !anchors.is_empty() => Remaining::Chebyshev(c),
        _ => Remaining::NoGoal,
    };
    let best = keys.iter().min().copied().unwrap_or((0, 0));
    let ends: Vec<usize> = order
        .iter()
        .zip(&keys)
        .filter(|&(_, k)| *k == best)
        .map(|(&i, _)| i)
        .collect();
    finish(grid, moves, ends, remaining, best.1)
}

/// The [`Towards`] of the best `ends` (cells of `grid`, reached with `moves` in `steps`).
fn finish(
    grid: &Grid,
    moves: &[u32],
    mut ends: Vec<usize>,
    remaining: Remaining,
    steps: u32,
) -> Towards {
    ends.sort_unstable_by_key(|&i| {
        let p = grid.pos(i);
        (p.y, p.x)
    });
    // Every end was reached by this BFS, so each has a path; an empty one would mean none.
    let paths: Vec<Vec<Pos>> = ends
        .iter()
        .map(|&i| grid.path(moves, i).unwrap_or_default())
        .collect();
    Towards {
        ends: ends.iter().map(|&i| grid.pos(i)).collect(),
        remaining,
        steps,
        paths,
    }
}

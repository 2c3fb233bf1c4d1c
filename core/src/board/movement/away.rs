//! "Move away" orders: the best end squares of a move away from threats.

use super::grid::offsets;
use super::scratch::with_walk;
use crate::data::geom::Pos;
use crate::data::map::{Map, Obstacles};

/// The equally good end squares of a "move up to N steps away from" order, for the Overmind
/// to choose among.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Away {
    /// Best end squares, sorted by (y, x). Empty only when the mover is off the map.
    pub ends: Vec<Pos>,
    /// The distance ([`Pos::distance`], the game's range) from each end to the nearest of the
    /// squares moved away from; `None` when none of them is on the map (the mover stays).
    pub distance: Option<u32>,
    /// Steps used to reach each end (all ends need the same number).
    pub steps: u32,
    /// A path for each end, parallel to `ends`.
    paths: Vec<Vec<Pos>>,
}

impl Away {
    /// A legal path from the start to `end` (both included) if `end` is one of the ends.
    #[must_use]
    pub fn path(&self, end: Pos) -> Option<Vec<Pos>> {
        let k = self.ends.iter().position(|&e| e == end)?;
        self.paths.get(k).filter(|p| !p.is_empty()).cloned()
    }
}

/// "Move up to `max_steps` steps away from `threats`": every best end square.
///
/// Best means, among the squares [`reachable`] in at most `max_steps` legal steps (the start
/// included): greatest distance ([`Pos::distance`], the game's range) to the nearest threat on
/// the map; then fewest steps used. So a mover no square of which is farther stays, and every
/// end is reached by a legal path exactly as a move to it would take. Threats off the map are
/// ignored; with none on the map the mover stays (0 steps, `distance` `None`).
///
/// [`reachable`]: fn@super::reachable
#[must_use]
pub fn away(map: &Map, obstacles: &Obstacles, from: Pos, threats: &[Pos], max_steps: u32) -> Away {
    let threats: Vec<Pos> = threats
        .iter()
        .copied()
        .filter(|&p| map.in_bounds(p))
        .collect();
    with_walk(map, obstacles, from, |grid, start, sc| {
        let walk = &mut sc.walk;
        let moves = if threats.is_empty() { 0 } else { max_steps };
        walk.advance(&grid.steps, &offsets(grid.stride), moves);
        let far = |i: usize| {
            let p = grid.pos(i);
            threats.iter().map(|&t| p.distance(t)).min()
        };
        // The least key is best: farthest first (reversed), then fewest steps.
        let key = |i: usize| (std::cmp::Reverse(far(i)), walk.dist[i]);
        let within = walk.within(moves);
        let best = within.iter().map(|&i| key(i)).min();
        let mut ends: Vec<usize> = match best {
            Some(b) => within.iter().copied().filter(|&i| key(i) == b).collect(),
            None => vec![start],
        };
        ends.sort_unstable_by_key(|&i| {
            let p = grid.pos(i);
            (p.y, p.x)
        });
        let steps = ends.first().map_or(0, |&i| walk.dist[i]);
        let distance = ends.first().and_then(|&i| far(i));
        Away {
            ends: ends.iter().map(|&i| grid.pos(i)).collect(),
            distance,
            steps,
            paths: ends
                .iter()
                .map(|&i| grid.path(&walk.dist, i).unwrap_or_default())
                .collect(),
        }
    })
    .unwrap_or(Away {
        ends: Vec::new(),
        distance: None,
        steps: 0,
        paths: Vec::new(),
    })
}

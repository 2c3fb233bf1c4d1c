//! The squares a model can reach in a number of legal steps.

use super::grid::offsets;
use super::scratch::with_walk;
use crate::data::geom::Pos;
use crate::data::map::{Map, Obstacles};

/// Squares a model on `from` can reach in at most `max_steps` legal steps, with their step
/// counts, `from` included at 0; sorted by (steps, y, x). Empty if `from` is off the map.
#[must_use]
pub fn reachable(map: &Map, obstacles: &Obstacles, from: Pos, max_steps: u32) -> Vec<(Pos, u32)> {
    with_walk(map, obstacles, from, |grid, _, sc| {
        let walk = &mut sc.walk;
        walk.advance(&grid.steps, &offsets(grid.stride), max_steps);
        let mut out: Vec<(Pos, u32)> = walk
            .within(max_steps)
            .iter()
            .map(|&i| (grid.pos(i), walk.dist[i]))
            .collect();
        out.sort_unstable_by_key(|&(p, d)| (d, p.y, p.x));
        out
    })
    .unwrap_or_default()
}

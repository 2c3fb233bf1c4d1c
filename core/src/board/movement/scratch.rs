//! The buffers each thread's searches reuse, and the last single-source search kept to go on
//! from.

use super::grid::Grid;
use super::repair::Repair;
use super::walk::Walk;
use crate::data::geom::Pos;
use crate::data::map::{Map, Obstacles};

/// Buffers the searches of one thread reuse, so that a search does not allocate; and the last
/// single-source search with the grid it ran on, so that the next question about the same
/// start over the same grid (the AI's `towards`, then validation's `shortest_path`, then the
/// engine's `shortest_paths` for one move) goes on from it instead of searching afresh.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) steps: Vec<u8>,
    pub(super) order: Vec<usize>,
    pub(super) dist2: Vec<u32>,
    pub(super) order2: Vec<usize>,
    /// The grid of `walk` (its steps; stride and start cell in `memo`).
    memo_steps: Vec<u8>,
    memo: Option<(usize, usize)>,
    pub(super) walk: Walk,
    pub(super) repair: Repair,
    pub(super) cells: Vec<usize>,
    pub(super) changed: Vec<usize>,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Box<Scratch>>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with this thread's [`Scratch`] (taken out meanwhile, so never shared; a nested call
/// gets a fresh one).
pub(super) fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut scratch = SCRATCH.with(std::cell::Cell::take).unwrap_or_default();
    let r = f(&mut scratch);
    SCRATCH.with(|c| c.set(Some(scratch)));
    r
}

/// Runs `f` on the grid of a model moving from `from` and the breadth-first search from it
/// (`sc.walk`, whatever levels it has done), the last one of this thread if that was from the
/// same start over the same grid, else a new one. `None` if `from` is off the map.
pub(super) fn with_walk<R>(
    map: &Map,
    obstacles: &Obstacles,
    from: Pos,
    f: impl FnOnce(&Grid, usize, &mut Scratch) -> R,
) -> Option<R> {
    with_scratch(|sc| {
        let mut grid = Grid::new(map, obstacles, &[from], std::mem::take(&mut sc.steps));
        let Some(start) = grid.index(from) else {
            sc.steps = grid.steps;
            return None;
        };
        let key = Some((grid.stride, start));
        if sc.memo != key || sc.memo_steps != grid.steps {
            std::mem::swap(&mut sc.memo_steps, &mut grid.steps);
            sc.memo = key;
            sc.walk.restart(sc.memo_steps.len(), start);
        }
        sc.steps = std::mem::replace(&mut grid.steps, std::mem::take(&mut sc.memo_steps));
        let r = f(&grid, start, sc);
        sc.memo_steps = grid.steps;
        Some(r)
    })
}

//! Distances to one goal kept from one "move towards" query to the next, repaired as models
//! move.

use super::grid::{Grid, UNREACHED};
use super::scratch::{with_walk, Scratch};
use super::towards::{goal_cells, towards, towards_on, Goal, ToGoal, Towards};
use crate::data::geom::Pos;
use crate::data::map::{Map, Obstacles};

/// The distances to one goal, kept from one [`GoalField::towards`] to the next so that moving
/// several models towards the same goal (a unit's models one after another, a side's
/// activations) does not search the goal's side afresh for each.
///
/// The field holds every square's distance to the goal over the grid of the last query (its
/// mover's square free, every other model blocking). The next query brings it up to date with
/// its own grid and goal cells by re-settling only the squares whose distance the differences
/// can alter (a dynamic shortest-path update, see `Repair`): when a model has moved and the
/// next one plans, that is the squares around the two, not the map. Its answers are always
/// those of [`towards`], whatever was asked before: goal, map and obstacles may all differ from
/// one query to the next (a large difference just costs a full search).
#[derive(Clone, Debug)]
pub struct GoalField {
    /// The grid the distances are exact for, its stride, and its goal cells (sorted).
    pub(super) steps: Vec<u8>,
    pub(super) stride: usize,
    pub(super) sources: Vec<usize>,
    pub(super) dist: Vec<u32>,
    /// The least map (in squares) the field is kept on: [`REPAIR_FROM`] (0 in tests).
    pub(super) keep_from: usize,
}

impl Default for GoalField {
    fn default() -> GoalField {
        GoalField {
            steps: Vec::new(),
            stride: 0,
            sources: Vec::new(),
            dist: Vec::new(),
            keep_from: REPAIR_FROM,
        }
    }
}

/// The least map (in squares) on which a [`GoalField`] is kept and repaired.
const REPAIR_FROM: usize = 60 * 60;

impl GoalField {
    /// An empty field (the first query searches).
    #[must_use]
    pub fn new() -> GoalField {
        GoalField::default()
    }

    /// Exactly [`towards`]`(map, obstacles, from, goal.clone(), max_steps)`.
    #[must_use]
    pub fn towards(
        &mut self,
        map: &Map,
        obstacles: &Obstacles,
        from: Pos,
        goal: &Goal,
        max_steps: u32,
    ) -> Towards {
        // Below this many squares a repair visits more than the one-off search, which stops
        // at the first level it needs (measured: `paths/*/plan_*` in core/benches/paths.rs,
        // 3.2× slower kept on 20×20, 1.4× on 40×40, even on 60×60, 0.64× on 80×80, 0.39× on
        // 160×160), so the field is not kept there.
        if map.len() < self.keep_from {
            self.steps.clear();
            return towards(map, obstacles, from, goal.clone(), max_steps);
        }
        with_walk(map, obstacles, from, |grid, start, sc| {
            let mut sources = std::mem::take(&mut sc.cells);
            goal_cells(map, grid, obstacles, goal, start, &mut sources);
            sources.sort_unstable();
            sources.dedup();
            self.update(grid, &mut sources, sc);
            sc.cells = sources;
            towards_on(
                map,
                grid,
                &mut sc.walk,
                start,
                goal,
                max_steps,
                ToGoal::Field(&self.dist),
            )
        })
        .unwrap_or_else(Towards::nowhere)
    }

    /// Makes the field exact for `grid` and its goal cells `sources` (sorted; swapped with the
    /// field's old ones): repaired when few cells differ from the grid it was exact for, else
    /// searched afresh.
    fn update(&mut self, grid: &Grid, sources: &mut Vec<usize>, sc: &mut Scratch) {
        let n = grid.steps.len();
        if self.stride == grid.stride && self.steps.len() == n {
            let limit = n / 8 + 8;
            let moved = sym_diff_len(&self.sources, sources);
            let changed = &mut sc.changed;
            changed.clear();
            if moved <= limit {
                differing(&self.steps, &grid.steps, limit - moved, changed);
            }
            if moved + changed.len() <= limit {
                if moved > 0 || !changed.is_empty() {
                    sc.repair.run(
                        (&self.steps, &self.sources),
                        (&grid.steps, sources),
                        changed,
                        &mut self.dist,
                        grid.stride,
                    );
                    for &i in changed.iter() {
                        self.steps[i] = grid.steps[i];
                    }
                    std::mem::swap(&mut self.sources, sources);
                }
                return;
            }
        }
        grid.bfs(&mut self.dist, &mut sc.order, sources, UNREACHED, None);
        self.steps.clone_from(&grid.steps);
        self.stride = grid.stride;
        std::mem::swap(&mut self.sources, sources);
    }
}

/// The cells where `a` and `b` (of one length) differ, into `out`; stops once more than `limit`.
fn differing(a: &[u8], b: &[u8], limit: usize, out: &mut Vec<usize>) {
    const W: usize = 16;
    for (c, (x, y)) in a.chunks(W).zip(b.chunks(W)).enumerate() {
        if x == y {
            continue;
        }
        for (k, (p, q)) in x.iter().zip(y).enumerate() {
            if p != q {
                out.push(c * W + k);
            }
        }
        if out.len() > limit {
            return;
        }
    }
}

/// How many cells are in exactly one of two sorted lists.
fn sym_diff_len(a: &[usize], b: &[usize]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => (i, n) = (i + 1, n + 1),
            std::cmp::Ordering::Greater => (j, n) = (j + 1, n + 1),
            std::cmp::Ordering::Equal => (i, j) = (i + 1, j + 1),
        }
    }
    n + (a.len() - i) + (b.len() - j)
}

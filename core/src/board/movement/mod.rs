//! Movement and paths (docs/RULES.md §4): legal steps, step-count distances and "move towards"
//! choices.
//!
//! Distances are a hand-written breadth-first search over a byte grid padded by one square on
//! every side, so the hot loop needs no bounds arithmetic. Each map caches its walls, solid
//! squares and the legal steps ignoring models, one step mask a square; a search copies the
//! masks, takes out the steps into or diagonally past each model, and reuses per-thread buffers,
//! so a visited square costs one mask load. Measured choice (20×20 benchmark map, 2 cores): a
//! whole-map field took ≈5 µs before the cached masks (≈2.5 µs now); the `pathfinding` crate's
//! `dijkstra_all` / `dijkstra_reach` over the very same grid successors take ≈32–35 µs (hash maps
//! and a heap for unit costs), and ≈60 µs over [`neighbours`]; its `bfs` for one path ≈31 µs
//! against ≈4 µs for [`shortest_path`] then. So no dependency. See `docs/BENCHMARKS.md`.
//!
//! The moving model's own square is its start: it may be in the caller's [`Obstacles`] (it holds
//! the mover itself) and its model never blocks, not even a later diagonal cutting past it, as
//! the mover has left it. (Solid terrain stays solid: no model stands there.)
//!
//! The code is in private submodules: `steps` (adjacency and legal steps), `layout` (the map's
//! cached step masks), `grid` (one search's grid), `walk` (a breadth-first search taken further
//! on demand), `scratch` (per-thread buffers and the last search), `field` ([`DistanceField`]),
//! `paths` (path searches and their counter), `reachable`, `towards` ([`Goal`], [`towards()`]),
//! `away`, `block` (XXL models' 2×2 bases), `goal_field` ([`GoalField`]) and `repair` (its update after models move).
//!
//! [`Obstacles`]: crate::data::map::Obstacles

mod away;
mod block;
mod field;
mod goal_field;
mod grid;
mod layout;
mod paths;
mod reachable;
mod repair;
mod scratch;
mod steps;
mod towards;
mod walk;

#[cfg(test)]
mod tests;

pub use away::{away, Away};
pub use block::{
    base_adjacent, block_distance, block_path, block_reachable, block_towards, can_step_block, fits,
};
pub use field::DistanceField;
pub use goal_field::GoalField;
pub use paths::{path_distance, path_searches, shortest_path, shortest_paths, MAX_PATH_OPTIONS};
pub use reachable::reachable;
pub use steps::{adjacent, can_step, neighbours};
pub use towards::{towards, Goal, Remaining, Towards};

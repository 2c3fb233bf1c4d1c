//! Path searches: the distance and shortest paths between two squares, and the count of
//! searches made.

use super::grid::{offsets, Grid};
use super::scratch::with_walk;
use crate::data::geom::Pos;
use crate::data::map::{Map, Obstacles};

thread_local! {
    static PATH_SEARCHES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Steps of a shortest legal path for a model on `a` to reach `b` (`a` is free, `b` must not be
/// blocked unless it is `a`); `None` if there is none or either is off the map.
#[must_use]
pub fn path_distance(map: &Map, obstacles: &Obstacles, a: Pos, b: Pos) -> Option<u32> {
    with_walk(map, obstacles, a, |grid, _, sc| {
        let ib = grid.index(b)?;
        sc.walk.reach(&grid.steps, &offsets(grid.stride), ib)
    })
    .flatten()
}

/// Path searches ([`shortest_path`], [`shortest_paths`]) this thread has made so far: what
/// the tests count to show that a move is searched once, validation to resolution.
#[must_use]
pub fn path_searches() -> u64 {
    PATH_SEARCHES.with(std::cell::Cell::get)
}

fn count_search() {
    PATH_SEARCHES.with(|c| c.set(c.get() + 1));
}

/// A shortest legal path from `a` to `b`, both included (see [`DistanceField::path_to`] for
/// which one).
///
/// [`DistanceField::path_to`]: super::DistanceField::path_to
#[must_use]
pub fn shortest_path(map: &Map, obstacles: &Obstacles, a: Pos, b: Pos) -> Option<Vec<Pos>> {
    count_search();
    with_walk(map, obstacles, a, |grid, _, sc| {
        let ib = grid.index(b)?;
        sc.walk.reach(&grid.steps, &offsets(grid.stride), ib)?;
        grid.path(&sc.walk.dist, ib)
    })
    .flatten()
}

/// Most distinct shortest paths [`shortest_paths`] lists.
pub const MAX_PATH_OPTIONS: usize = 64;

/// Every distinct shortest legal path from `a` to `b` (both included), at most `cap` of them,
/// in a fixed order whose first is [`shortest_path`]'s. Empty when there is none.
#[must_use]
pub fn shortest_paths(
    map: &Map,
    obstacles: &Obstacles,
    a: Pos,
    b: Pos,
    cap: usize,
) -> Vec<Vec<Pos>> {
    count_search();
    // Walk back from `b`, one step closer to `a` each time, neighbours in `Dir::ALL` order
    // (the order `path_to` picks its one path by). A step is taken when the grid allows it,
    // which on a shortest path is exactly when `can_step` does: the grid differs only in
    // letting the mover's square `a` be entered or cut past, and neither can happen one step
    // closer to `a` (both neighbours of such a step would be one step from `a`).
    fn back(
        grid: &Grid,
        dist: &[u32],
        offsets: &[isize; 8],
        rev: &mut Vec<usize>,
        out: &mut Vec<Vec<Pos>>,
        cap: usize,
    ) {
        let Some(&q) = rev.last() else {
            return;
        };
        let d = dist[q];
        if d == 0 {
            out.push(rev.iter().rev().map(|&i| grid.pos(i)).collect());
            return;
        }
        for (k, &off) in offsets.iter().enumerate() {
            let p = q.wrapping_add_signed(off);
            if dist[p] == d - 1 && grid.steps[p] & (1 << ((k + 4) % 8)) != 0 {
                rev.push(p);
                back(grid, dist, offsets, rev, out, cap);
                rev.pop();
                if out.len() >= cap {
                    return;
                }
            }
        }
    }
    with_walk(map, obstacles, a, |grid, _, sc| {
        let mut out: Vec<Vec<Pos>> = Vec::new();
        let Some(ib) = grid.index(b) else {
            return out;
        };
        let offsets = offsets(grid.stride);
        let Some(total) = sc.walk.reach(&grid.steps, &offsets, ib) else {
            return out;
        };
        if cap > 0 {
            let mut rev = Vec::with_capacity(total as usize + 1);
            rev.push(ib);
            back(grid, &sc.walk.dist, &offsets, &mut rev, &mut out, cap);
        }
        debug_assert!(out.iter().all(|p| p.len() as u32 == total + 1));
        out
    })
    .unwrap_or_default()
}

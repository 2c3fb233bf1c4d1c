//! A breadth-first search from one start, kept so that it can be taken further later.

use super::grid::UNREACHED;

/// A breadth-first search from one start over one grid, kept so that it can be taken further
/// later. `order` holds the labelled cells in the order reached, so by distance, and
/// `order[head..]` are not expanded yet; every cell at most `done` steps away is labelled in
/// `dist` (`done` is the distance of `order[head]`, or `u32::MAX` once nothing is left).
#[derive(Debug, Default)]
pub(super) struct Walk {
    pub(super) dist: Vec<u32>,
    pub(super) order: Vec<usize>,
    head: usize,
    done: u32,
}

impl Walk {
    /// A new search from `start` over a grid of `len` cells. When the last search labelled few
    /// cells, only those are reset (all of them are in `order`), so that a short search on a
    /// big map costs what it visits.
    pub(super) fn restart(&mut self, len: usize, start: usize) {
        if self.dist.len() == len && self.order.len() < len / 8 {
            for &i in &self.order {
                self.dist[i] = UNREACHED;
            }
        } else {
            self.dist.clear();
            self.dist.resize(len, UNREACHED);
        }
        self.order.clear();
        self.order.reserve(len);
        self.dist[start] = 0;
        self.order.push(start);
        self.head = 0;
        self.done = 0;
    }

    /// Nothing more can be reached: every cell the search will ever label is labelled.
    pub(super) fn exhausted(&self) -> bool {
        self.head == self.order.len()
    }

    /// Expands the next cell.
    fn expand(&mut self, steps: &[u8], offsets: &[isize; 8]) {
        let i = self.order[self.head];
        self.head += 1;
        let d = self.dist[i];
        let mut mask = steps[i];
        while mask != 0 {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let j = i.wrapping_add_signed(offsets[k]);
            if self.dist[j] == UNREACHED {
                self.dist[j] = d + 1;
                self.order.push(j);
            }
        }
    }

    /// Sets `done` from where the search stands.
    fn settle(&mut self) {
        self.done = self
            .order
            .get(self.head)
            .map_or(u32::MAX, |&i| self.dist[i]);
    }

    /// Labels every cell at most `level` steps away.
    pub(super) fn advance(&mut self, steps: &[u8], offsets: &[isize; 8], level: u32) {
        if level <= self.done {
            return;
        }
        while let Some(&i) = self.order.get(self.head) {
            if self.dist[i] >= level {
                break;
            }
            self.expand(steps, offsets);
        }
        self.settle();
    }

    /// Takes the search on until `target` is labelled (and no further); its steps, or `None`
    /// when it cannot be reached.
    pub(super) fn reach(
        &mut self,
        steps: &[u8],
        offsets: &[isize; 8],
        target: usize,
    ) -> Option<u32> {
        let &d = self.dist.get(target)?;
        if d != UNREACHED {
            return Some(d);
        }
        while !self.exhausted() && self.dist[target] == UNREACHED {
            self.expand(steps, offsets);
        }
        self.settle();
        Some(self.dist[target]).filter(|&d| d != UNREACHED)
    }

    /// The labelled cells at most `level` steps away (complete when `level` ≤ `done`).
    pub(super) fn within(&self, level: u32) -> &[usize] {
        let n = self.order.partition_point(|&i| self.dist[i] <= level);
        &self.order[..n]
    }
}

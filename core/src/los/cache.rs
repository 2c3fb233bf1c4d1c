//! What one map remembers for Line of Sight: its walls and solid squares as bit rows, and which
//! pairs of squares walls and solid squares alone already decide. Both are built on first use;
//! a map never changes once built, so neither goes stale.

use crate::map::{Edge, Map};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Lives in [`Map`] (not serialised; maps compare equal whatever their caches hold).
#[derive(Default)]
pub(crate) struct LosCache {
    masks: OnceLock<Masks>,
    pairs: OnceLock<Vec<AtomicU64>>,
}

/// The map's walls and solid squares as bit sets, by rows and by columns.
#[derive(Clone)]
pub(crate) struct Masks {
    /// Line `y` is map row `y`; bit `x` is square `(x, y)`.
    pub rows: Grid,
    /// The transposed map: line `x` is map column `x`, bit `y` is square `(x, y)`; its "west"
    /// edges are the map's north edges and the other way round.
    pub cols: Grid,
}

/// One orientation: line `i` of each set is `words_per_line` words.
#[derive(Clone)]
pub(crate) struct Grid {
    pub words_per_line: usize,
    pub solid: Vec<u64>,
    /// Wall on the edge before the square along the line (west in map rows).
    pub west: Vec<u64>,
    /// Wall on the edge before the square across the lines (north in map rows).
    pub north: Vec<u64>,
}

impl Grid {
    fn new(lines: usize, len: usize) -> Grid {
        let words_per_line = len.div_ceil(64);
        Grid {
            words_per_line,
            solid: vec![0; words_per_line * lines],
            west: vec![0; words_per_line * lines],
            north: vec![0; words_per_line * lines],
        }
    }

    fn set(&mut self, line: usize, at: usize, solid: bool, west: bool, north: bool) {
        let (word, bit) = (line * self.words_per_line + at / 64, 1u64 << (at % 64));
        for (set, on) in [
            (&mut self.solid, solid),
            (&mut self.west, west),
            (&mut self.north, north),
        ] {
            if let (true, Some(w)) = (on, set.get_mut(word)) {
                *w |= bit;
            }
        }
    }
}

impl Masks {
    pub fn of(map: &Map) -> &Masks {
        map.los.masks.get_or_init(|| {
            let w = usize::try_from(map.width()).unwrap_or(0).max(1);
            let h = usize::try_from(map.height()).unwrap_or(0);
            let mut m = Masks {
                rows: Grid::new(h, w),
                cols: Grid::new(w, h),
            };
            for (i, p) in map.squares().enumerate() {
                let (x, y) = (i % w, i / w);
                let solid = map.is_solid(p);
                let west = map.west_edge(p.x, p.y) == Edge::Wall;
                let north = map.north_edge(p.x, p.y) == Edge::Wall;
                m.rows.set(y, x, solid, west, north);
                m.cols.set(x, y, solid, north, west);
            }
            m
        })
    }
}

/// What walls and solid squares alone say about a pair, for one rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Static {
    Unknown,
    /// Blocked whatever the units: LOS is monotone, so units can only block more.
    Blocked,
    /// Visible without units; the units still have to be looked at.
    Visible,
}

/// Maps with more squares than this keep no pair table (it takes `n²/4` bytes).
const MAX_SQUARES: usize = 2048;

/// A pair's slot: 4 bits (2 per rule) in the triangular table of unordered pairs.
pub(crate) struct Slot<'a> {
    word: &'a AtomicU64,
    shift: u32,
}

impl Slot<'_> {
    /// The slot of distinct squares with row-major indices `i` and `j`, if the map keeps one.
    pub fn of(map: &Map, i: usize, j: usize) -> Option<Slot<'_>> {
        let n = map.len();
        if n > MAX_SQUARES || i == j || i >= n || j >= n {
            return None;
        }
        let (lo, hi) = (i.min(j), i.max(j));
        let t = hi * (hi - 1) / 2 + lo;
        let table = map.los.pairs.get_or_init(|| {
            (0..(n * (n - 1) / 2).div_ceil(16))
                .map(|_| AtomicU64::new(0))
                .collect()
        });
        Some(Slot {
            word: table.get(t / 16)?,
            shift: (t % 16 * 4) as u32,
        })
    }

    /// `rule_bit` is 0 for the exact rule, 2 for the centre rule.
    pub fn get(&self, rule_bit: u32) -> Static {
        // Relaxed: a slot only ever goes from Unknown to one deterministic value.
        match (self.word.load(Ordering::Relaxed) >> (self.shift + rule_bit)) & 3 {
            1 => Static::Blocked,
            2 => Static::Visible,
            _ => Static::Unknown,
        }
    }

    pub fn set(&self, rule_bit: u32, s: Static) {
        let v: u64 = match s {
            Static::Unknown => 0,
            Static::Blocked => 1,
            Static::Visible => 2,
        };
        self.word
            .fetch_or(v << (self.shift + rule_bit), Ordering::Relaxed);
    }
}

impl Clone for LosCache {
    /// Keeps the masks; the pair table starts again empty.
    fn clone(&self) -> LosCache {
        LosCache {
            masks: self.masks.clone(),
            pairs: OnceLock::new(),
        }
    }
}

impl PartialEq for LosCache {
    fn eq(&self, _: &LosCache) -> bool {
        true
    }
}

impl Eq for LosCache {}

impl fmt::Debug for LosCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LosCache")
    }
}

//! What one map remembers for Line of Sight: its walls and solid squares as bit rows, which
//! pairs of squares walls and solid squares alone already decide, and (for pairs the units
//! decide) the unit squares that last decided them. All are built on first use; a map never
//! changes once built, so none goes stale (and a memo entry is checked against the current
//! units before it is used).

use crate::map::{Edge, Map};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Lives in [`Map`] (not serialised; maps compare equal whatever their caches hold).
#[derive(Default)]
pub(crate) struct LosCache {
    masks: OnceLock<Masks>,
    pairs: OnceLock<Vec<AtomicU64>>,
    memo: OnceLock<Vec<AtomicU64>>,
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

/// The number of the unordered pair of distinct squares `i`, `j` in the triangular table, with
/// the map's square count, if the map keeps pair tables.
fn pair_index(map: &Map, i: usize, j: usize) -> Option<(usize, usize)> {
    let n = map.len();
    if n > MAX_SQUARES || i == j || i >= n || j >= n {
        return None;
    }
    let (lo, hi) = (i.min(j), i.max(j));
    Some((n, hi * (hi - 1) / 2 + lo))
}

/// A pair's slot: 4 bits (2 per rule) in the triangular table of unordered pairs.
pub(crate) struct Slot<'a> {
    word: &'a AtomicU64,
    shift: u32,
}

impl Slot<'_> {
    /// The slot of distinct squares with row-major indices `i` and `j`, if the map keeps one.
    pub fn of(map: &Map, i: usize, j: usize) -> Option<Slot<'_>> {
        let (n, t) = pair_index(map, i, j)?;
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

/// Entries of the unit memo (direct-mapped by pair number).
const MEMO_BITS: u32 = 10;
/// Bits of a square's index (`MAX_SQUARES` is `1 << SQ_BITS`).
const SQ_BITS: u32 = 11;
/// Most unit squares one memo entry holds.
pub(crate) const MEMO_SQUARES: usize = 4;
const COUNT_SHIFT: u32 = SQ_BITS * MEMO_SQUARES as u32;
const KIND_SHIFT: u32 = COUNT_SHIFT + 3;
const TAG_SHIFT: u32 = KIND_SHIFT + 1;
// The tag is the pair number without its low `MEMO_BITS` bits.
const _: () = assert!(TAG_SHIFT + (2 * SQ_BITS - 1 - MEMO_BITS) <= 64);
const _: () = assert!(MAX_SQUARES == 1 << SQ_BITS);

/// What the units of a pair's hull last decided under the exact rule, for a pair that walls and
/// solid squares alone leave visible. LOS is monotone in the obstacles and only unit squares in
/// the pair's hull (other than the two end squares) can touch a sight line, so:
/// - `Blocked(W)`: walls, solid squares and the units on `W` block the pair; while every square
///   of `W` still holds a unit, it is still blocked, whatever else moved;
/// - `Visible(U)`: the pair was visible with exactly the units on `U` in its hull; while the
///   units in its hull are among `U`, it is still visible.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Memo {
    Blocked,
    Visible,
}

/// A pair's memo entry: one word holding the pair's tag, the kind, and up to
/// [`MEMO_SQUARES`] square indices (row-major), so a load is never torn and any value read is
/// either this pair's or recognisably another's.
pub(crate) struct MemoEntry<'a> {
    word: &'a AtomicU64,
    tag: u64,
}

impl MemoEntry<'_> {
    /// The entry of distinct squares with row-major indices `i` and `j`, if the map keeps memos.
    pub fn of(map: &Map, i: usize, j: usize) -> Option<MemoEntry<'_>> {
        let (_, t) = pair_index(map, i, j)?;
        let table = map.los.memo.get_or_init(|| {
            (0..1usize << MEMO_BITS)
                .map(|_| AtomicU64::new(0))
                .collect()
        });
        Some(MemoEntry {
            word: table.get(t & ((1 << MEMO_BITS) - 1))?,
            tag: (t >> MEMO_BITS) as u64,
        })
    }

    /// What this pair last remembered: the kind and its squares (`len` of them).
    pub fn get(&self) -> Option<(Memo, [usize; MEMO_SQUARES], usize)> {
        // Relaxed: each value is written whole and is valid on its own.
        let v = self.word.load(Ordering::Relaxed);
        if v == 0 || v >> TAG_SHIFT != self.tag {
            return None;
        }
        let len = ((v >> COUNT_SHIFT) & 7) as usize;
        let kind = if (v >> KIND_SHIFT) & 1 == 1 {
            Memo::Visible
        } else {
            Memo::Blocked
        };
        let mut sq = [0; MEMO_SQUARES];
        for (k, s) in sq.iter_mut().enumerate().take(len.min(MEMO_SQUARES)) {
            *s = ((v >> (k as u32 * SQ_BITS)) & ((1 << SQ_BITS) - 1)) as usize;
        }
        Some((kind, sq, len.min(MEMO_SQUARES)))
    }

    /// Remember `kind` with `squares` (indices below `MAX_SQUARES`); more than
    /// [`MEMO_SQUARES`] squares are not remembered.
    pub fn set(&self, kind: Memo, squares: impl ExactSizeIterator<Item = usize>) {
        let len = squares.len();
        if len > MEMO_SQUARES {
            return;
        }
        let mut v = (self.tag << TAG_SHIFT)
            | (u64::from(kind == Memo::Visible) << KIND_SHIFT)
            | ((len as u64) << COUNT_SHIFT);
        for (k, s) in squares.enumerate() {
            if s >= MAX_SQUARES {
                return;
            }
            v |= (s as u64) << (k as u32 * SQ_BITS);
        }
        self.word.store(v, Ordering::Relaxed);
    }
}

impl Clone for LosCache {
    /// Keeps the masks; the pair table and the memo start again empty.
    fn clone(&self) -> LosCache {
        LosCache {
            masks: self.masks.clone(),
            pairs: OnceLock::new(),
            memo: OnceLock::new(),
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

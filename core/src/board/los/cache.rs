//! What one map remembers for Line of Sight: its walls and solid squares as bit rows, what walls
//! and solid squares alone decide for each pair of squares asked about, and (for pairs the units
//! decide) the unit squares that last decided them. All are built on first use, and the two
//! tables are bounded whatever the map's size: a map never changes once built, so nothing goes
//! stale (and a memo entry is checked against the current units before it is used).

use crate::data::map::{Edge, Map};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Lives in [`Map`] (not serialised; maps compare equal whatever their caches hold).
#[derive(Default)]
pub(crate) struct LosCache {
    masks: OnceLock<Masks>,
    pairs: OnceLock<Table>,
    memo: OnceLock<Table>,
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
        LosCache::of(map).masks.get_or_init(|| {
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
    /// Visible without units; the units still have to be looked at. `centre_clear` (exact
    /// rule, pairs at least two apart across and one along): the line through the two centres
    /// passes every wall and solid square, so a query only has to try it on the units.
    Visible {
        centre_clear: bool,
    },
}

/// The number of the unordered pair of distinct squares `i < j`: `j(j-1)/2 + i`.
pub(crate) fn pair_number(i: usize, j: usize) -> u64 {
    let (lo, hi) = (i.min(j) as u64, i.max(j) as u64);
    hi * hi.saturating_sub(1) / 2 + lo
}

/// A bounded, direct-mapped table of one-word entries: the high bits of each word are a tag
/// naming which key it holds (0: none), the low bits its value. A key `k` goes to entry
/// `k mod len` with tag `k / len + 1`, so a map whose keys all fit gets one entry each, and a
/// larger one shares entries, the newest key winning.
struct Table {
    words: Vec<AtomicU64>,
    bits: u32,
}

impl Table {
    /// Enough entries for `keys` keys, at most `1 << max_bits`.
    fn new(keys: u64, max_bits: u32) -> Table {
        let bits = keys
            .max(1)
            .next_power_of_two()
            .trailing_zeros()
            .min(max_bits);
        let words: Vec<AtomicU64> = (0..1usize << bits).map(|_| AtomicU64::new(0)).collect();
        // Zeroed memory may come as pages the system fills in on first write: write them now,
        // while the map is set up, rather than one page fault per query later.
        for w in words.iter().step_by(512).chain(words.last()) {
            w.store(0, Ordering::Relaxed);
        }
        Table { words, bits }
    }

    /// The entry and tag of `key`, if the tag fits in `tag_bits`.
    fn entry(&self, key: u64, tag_bits: u32) -> Option<(&AtomicU64, u64)> {
        let tag = (key >> self.bits) + 1;
        if tag >> tag_bits != 0 {
            return None;
        }
        let i = usize::try_from(key & ((1 << self.bits) - 1)).ok()?;
        Some((self.words.get(i)?, tag))
    }
}

/// Pairs per entry of the pair table (4 bits each: 2 per rule).
const GROUP: u64 = 8;
/// Most entries of the pair table: 512 KiB, 524,288 pairs if they came in whole groups.
const PAIR_BITS: u32 = 16;
/// The pair table's tag: the high half of an entry.
const PAIR_TAG_BITS: u32 = 32;

/// A pair's slot in the pair table: 4 bits (2 per rule) of an entry that holds 8 pairs with
/// consecutive numbers.
pub(crate) struct Slot<'a> {
    word: &'a AtomicU64,
    tag: u64,
    shift: u32,
}

impl Slot<'_> {
    /// The slot of distinct squares with row-major indices `i` and `j`, if the map has one (all
    /// maps but those too big for 64-bit pair numbers with a 32-bit tag: about 2^25 squares).
    pub fn of(map: &Map, i: usize, j: usize) -> Option<Slot<'_>> {
        let n = map.len() as u64;
        let t = pair_number(i, j);
        let table = LosCache::of(map).pairs.get_or_init(|| {
            let pairs = n.saturating_mul(n.saturating_sub(1)) / 2;
            Table::new(pairs.div_ceil(GROUP), PAIR_BITS)
        });
        let (word, tag) = table.entry(t / GROUP, PAIR_TAG_BITS)?;
        Some(Slot {
            word,
            tag,
            shift: (t % GROUP * 4) as u32,
        })
    }

    fn bits(&self) -> u64 {
        // Relaxed: each entry is written whole (compare-and-swap) and is valid on its own.
        let v = self.word.load(Ordering::Relaxed);
        if v >> PAIR_TAG_BITS == self.tag {
            (v >> self.shift) & 15
        } else {
            0
        }
    }

    /// What the exact rule (`rule_bit` 0) or the centre rule (2) learnt about the pair.
    pub fn get(&self, rule_bit: u32) -> Static {
        match (self.bits() >> rule_bit) & 3 {
            1 => Static::Blocked,
            2 => Static::Visible {
                centre_clear: false,
            },
            3 => Static::Visible { centre_clear: true },
            _ => Static::Unknown,
        }
    }

    pub fn set(&self, rule_bit: u32, s: Static) {
        let v: u64 = match s {
            Static::Unknown => return,
            Static::Blocked => 1,
            Static::Visible {
                centre_clear: false,
            } => 2,
            Static::Visible { centre_clear: true } => 3,
        };
        let bits = v << (self.shift + rule_bit);
        let mut cur = self.word.load(Ordering::Relaxed);
        loop {
            // Our group: add the pair's bits (a slot only goes from Unknown to a value fixed by
            // the map). Another group: take the entry over.
            let new = if cur >> PAIR_TAG_BITS == self.tag {
                cur | bits
            } else {
                (self.tag << PAIR_TAG_BITS) | bits
            };
            match self
                .word
                .compare_exchange_weak(cur, new, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return,
                Err(now) => cur = now,
            }
        }
    }
}

/// Entries of the unit memo: 32 KiB.
const MEMO_BITS: u32 = 12;
/// Bits of a square's code (see [`MemoEntry`]).
const CODE_BITS: u32 = 10;
/// Most unit squares one memo entry holds.
pub(crate) const MEMO_SQUARES: usize = 4;
const COUNT_SHIFT: u32 = CODE_BITS * MEMO_SQUARES as u32;
const KIND_SHIFT: u32 = COUNT_SHIFT + 3;
const MEMO_TAG_SHIFT: u32 = KIND_SHIFT + 1;
const MEMO_TAG_BITS: u32 = 64 - MEMO_TAG_SHIFT;

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
/// [`MEMO_SQUARES`] squares, so a load is never torn and any value read is either this pair's
/// or recognisably another's. A square is coded in the pair's frame (the frame from the square
/// with the lower index to the other): see `Frame::code`.
pub(crate) struct MemoEntry<'a> {
    word: &'a AtomicU64,
    tag: u64,
}

impl MemoEntry<'_> {
    /// The entry of distinct squares with row-major indices `i` and `j`, if the map keeps one
    /// for them (pair numbers below about 2^32: maps up to about 90,000 squares).
    pub fn of(map: &Map, i: usize, j: usize) -> Option<MemoEntry<'_>> {
        let table = LosCache::of(map)
            .memo
            .get_or_init(|| Table::new(1 << MEMO_BITS, MEMO_BITS));
        let (word, tag) = table.entry(pair_number(i, j), MEMO_TAG_BITS)?;
        Some(MemoEntry { word, tag })
    }

    /// What this pair last remembered: the kind and its square codes (`len` of them).
    pub fn get(&self) -> Option<(Memo, [u32; MEMO_SQUARES], usize)> {
        // Relaxed: each value is written whole and is valid on its own.
        let v = self.word.load(Ordering::Relaxed);
        if v >> MEMO_TAG_SHIFT != self.tag {
            return None;
        }
        let len = (((v >> COUNT_SHIFT) & 7) as usize).min(MEMO_SQUARES);
        let kind = if (v >> KIND_SHIFT) & 1 == 1 {
            Memo::Visible
        } else {
            Memo::Blocked
        };
        let mut sq = [0; MEMO_SQUARES];
        for (k, s) in sq.iter_mut().enumerate().take(len) {
            *s = ((v >> (k as u32 * CODE_BITS)) & ((1 << CODE_BITS) - 1)) as u32;
        }
        Some((kind, sq, len))
    }

    /// Remember `kind` with square codes `codes`; more than [`MEMO_SQUARES`] squares, or a
    /// code that does not fit, are not remembered.
    pub fn set(&self, kind: Memo, codes: impl ExactSizeIterator<Item = Option<u32>>) {
        let len = codes.len();
        if len > MEMO_SQUARES {
            return;
        }
        let mut v = (self.tag << MEMO_TAG_SHIFT)
            | (u64::from(kind == Memo::Visible) << KIND_SHIFT)
            | ((len as u64) << COUNT_SHIFT);
        for (k, c) in codes.enumerate() {
            match c {
                Some(c) if c >> CODE_BITS == 0 => v |= u64::from(c) << (k as u32 * CODE_BITS),
                _ => return,
            }
        }
        self.word.store(v, Ordering::Relaxed);
    }
}

impl LosCache {
    /// The map's cache.
    pub(crate) fn of(map: &Map) -> &LosCache {
        map.los.get_or_init(LosCache::default)
    }
}

impl crate::data::map::CacheSlot for LosCache {
    fn clone_slot(&self) -> Box<dyn crate::data::map::CacheSlot> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
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

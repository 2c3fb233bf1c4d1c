//! An allocator shim in front of mlua's: charges large allocations and caps string size.
//!
//! A single VM instruction can do work proportional to the size of what it allocates (`a .. b`
//! copies both strings; a table insert can rehash the whole table; C library functions build
//! long strings). The instruction hook cannot see that work, so the shim counts the bytes of
//! every allocation of at least [`CHARGE_THRESHOLD`] bytes and the budget charges them at the
//! next hook tick or host-function call. It also refuses to create any single string longer
//! than the string limit, so no one instruction can copy or compare more than that, and any
//! table hash part of more nodes than the table-key limit, so no one table lookup can walk a
//! longer collision chain (integer keys can be chosen to collide) and no rehash can take
//! quadratic time over more keys than that. Hash parts are charged quadratically in their
//! size (a rebuild reinserts every key, and colliding keys make that quadratic), and
//! reallocations to the same size (a table rebuilt around an array part it keeps, which Lua
//! scans whole) are charged like new blocks. Growing a block in place is not charged: the
//! collector shrinks stacks whenever it runs, and what regrowing them costs must not depend on
//! when that was (it differs between two Lua states playing the same game).
//!
//! The shim delegates every request to the allocator mlua installed (with its user data), so
//! mlua's own accounting and memory limit keep working. It is removed again when the
//! [`Sandbox`](crate::Sandbox) is dropped; see [`Shim::uninstall`].

use std::cell::Cell;
use std::ffi::c_void;
use std::ptr;
use std::rc::Rc;

use mlua::ffi;

/// Allocations at least this large are charged to the instruction budget.
pub const CHARGE_THRESHOLD: usize = 1024;

/// A hash part of `n` nodes costs at least `n * n / HASH_QUADRATIC` instructions (see
/// [`AllocCounters::note_hash_part`]).
pub const HASH_QUADRATIC: u64 = 256;

/// Lua string headers and the terminating NUL: a string object of `n` bytes allocates about
/// `n + STRING_OVERHEAD` bytes.
const STRING_OVERHEAD: usize = 64;

/// Counters the shim writes and the budget reads.
#[derive(Debug, Default)]
pub(crate) struct AllocCounters {
    charged_bytes: Cell<u64>,
    string_cap_hit: Cell<Option<usize>>,
    max_string_alloc: Cell<usize>,
    /// `sizeof(Node)` as measured by [`AllocCounters::calibrate`]; 0 until then (no cap).
    node_size: Cell<usize>,
    max_nodes: Cell<usize>,
    hash_cap_hit: Cell<Option<usize>>,
    calibrating: Cell<bool>,
    largest_vector: Cell<usize>,
    /// Lua's compiler is running: its own tables (a chunk's constants, by value) are not a
    /// script's, and a source's size bounds them.
    compiling: Cell<bool>,
}

impl AllocCounters {
    pub(crate) fn new(string_bytes: usize, table_keys: usize) -> Self {
        let counters = Self::default();
        counters
            .max_string_alloc
            .set(string_bytes.saturating_add(STRING_OVERHEAD));
        counters.max_nodes.set(
            table_keys
                .max(1)
                .checked_next_power_of_two()
                .unwrap_or(usize::MAX),
        );
        counters
    }

    /// Measures the size of a hash node by watching the vectors a small table allocates while
    /// `grow_table` adds 9 string keys (its hash part grows to 16 nodes). Until this succeeds,
    /// hash parts are not capped.
    pub(crate) fn calibrate(&self, grow_table: impl FnOnce() -> bool) {
        self.largest_vector.set(0);
        self.calibrating.set(true);
        let ran = grow_table();
        self.calibrating.set(false);
        let node = self.largest_vector.get() / 16;
        if ran && matches!(node, 16..=64) && node * 16 == self.largest_vector.get() {
            self.node_size.set(node);
        }
    }

    /// Runs `f` (Lua's compiler) with hash parts uncapped: the compiler keeps a chunk's
    /// constants in a table of its own, which a script of more than `table_keys` distinct
    /// constants would otherwise outgrow.
    pub(crate) fn compiling<R>(&self, f: impl FnOnce() -> R) -> R {
        let before = self.compiling.replace(true);
        let out = f();
        self.compiling.set(before);
        out
    }

    /// The number of nodes of the last hash part refused for being over the limit.
    pub(crate) fn take_hash_cap_hit(&self) -> Option<usize> {
        self.hash_cap_hit.take()
    }

    /// True when a fresh untyped vector of `nsize` bytes is a hash part over the limit: Lua
    /// allocates hash parts as whole new vectors of `2^k` nodes.
    fn is_oversized_hash_part(&self, nsize: usize) -> bool {
        if self.compiling.get() {
            return false;
        }
        let node = self.node_size.get();
        if node == 0 || (nsize / node) * node != nsize {
            return false;
        }
        let nodes = nsize / node;
        if nodes.is_power_of_two() && nodes > self.max_nodes.get() {
            self.hash_cap_hit.set(Some(nodes));
            return true;
        }
        false
    }

    /// Bytes of large allocations since the last call, and resets the count.
    pub(crate) fn take_charged_bytes(&self) -> u64 {
        self.charged_bytes.replace(0)
    }

    /// The size of the last string refused for being over the limit, and forgets it.
    pub(crate) fn take_string_cap_hit(&self) -> Option<usize> {
        self.string_cap_hit.take()
    }

    fn note(&self, nsize: usize) {
        if nsize >= CHARGE_THRESHOLD {
            let bytes = u64::try_from(nsize).unwrap_or(u64::MAX);
            self.charged_bytes
                .set(self.charged_bytes.get().saturating_add(bytes));
        }
    }

    /// A fresh vector that is a hash part of `2^k` nodes: Lua fills it by reinserting every
    /// key, and keys chosen to share one chain make that quadratic. Charge the larger of its
    /// bytes and `nodes^2 / HASH_QUADRATIC` instructions' worth.
    fn note_hash_part(&self, nsize: usize) {
        let node = self.node_size.get();
        if node == 0 || !nsize.is_multiple_of(node) || !(nsize / node).is_power_of_two() {
            return;
        }
        let nodes = u64::try_from(nsize / node).unwrap_or(u64::MAX);
        let quadratic = nodes.saturating_mul(nodes) / HASH_QUADRATIC;
        let bytes = u64::try_from(nsize).unwrap_or(u64::MAX);
        let extra = quadratic
            .saturating_mul(crate::budget::BYTES_PER_UNIT)
            .saturating_sub(bytes);
        if extra > 0 {
            self.charged_bytes
                .set(self.charged_bytes.get().saturating_add(extra));
        }
    }
}

/// What the shim's user-data pointer points to.
struct ShimData {
    inner: ffi::lua_Alloc,
    inner_ud: *mut c_void,
    counters: Rc<AllocCounters>,
}

/// The installed shim. Owns the data the allocator's user-data pointer refers to.
pub(crate) struct Shim {
    data: Box<ShimData>,
    state: *mut ffi::lua_State,
}

impl std::fmt::Debug for Shim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shim")
            .field("counters", &self.data.counters)
            .finish_non_exhaustive()
    }
}

unsafe extern "C" fn shim_alloc(
    ud: *mut c_void,
    ptr: *mut c_void,
    osize: usize,
    nsize: usize,
) -> *mut c_void {
    // SAFETY: `ud` is the `ShimData` that `Shim::install` registered; it lives until
    // `Shim::uninstall` has put mlua's allocator back.
    let data = unsafe { &*(ud as *const ShimData) };
    if nsize > 0 {
        // When `ptr` is null, Lua passes the type of the new object in `osize`.
        let new_object = ptr.is_null();
        let is_string = new_object && osize == ffi::LUA_TSTRING as usize;
        if is_string && nsize > data.counters.max_string_alloc.get() {
            data.counters
                .string_cap_hit
                .set(Some(nsize - STRING_OVERHEAD.min(nsize)));
            return ptr::null_mut();
        }
        // Vectors (hash parts, array parts, buffers, code) come with type 0.
        if new_object && osize == 0 {
            if data.counters.calibrating.get() {
                let largest = data.counters.largest_vector.get().max(nsize);
                data.counters.largest_vector.set(largest);
            } else if data.counters.is_oversized_hash_part(nsize) {
                return ptr::null_mut();
            } else {
                data.counters.note_hash_part(nsize);
            }
        }
        // New blocks copy or clear `nsize` bytes; a reallocation to the same size is a table
        // being rebuilt around an array part that keeps its size, which Lua scans whole first
        // (`numusearray`). Growing a block in place is not charged: the collector shrinks
        // stacks and the string table whenever it runs, and regrowing them after a shrink
        // would charge a call for when the collector last ran, which differs between two Lua
        // states playing the same game (their hash layouts differ with the addresses). What a
        // grown block costs is paid for otherwise: each stack slot and array element by the
        // instructions that filled it (growth doubles, so the copies total less than that), a
        // string buffer by the string it becomes.
        if new_object || nsize == osize {
            data.counters.note(nsize);
        }
    }
    // SAFETY: delegating the exact request to the allocator (and user data) mlua installed.
    unsafe { (data.inner)(data.inner_ud, ptr, osize, nsize) }
}

impl Shim {
    /// Puts the shim in front of the state's current allocator.
    ///
    /// Must be called after `Lua::set_memory_limit` (mlua only protects its allocations
    /// against failure once a limit is set, and its limit keeps being enforced by its own
    /// allocator behind the shim), and before anything else changes the allocator.
    pub(crate) fn install(lua: &mlua::Lua, counters: Rc<AllocCounters>) -> mlua::Result<Self> {
        let mut data = Box::new(ShimData {
            inner: shim_alloc,
            inner_ud: ptr::null_mut(),
            counters,
        });
        let data_ptr: *mut ShimData = &mut *data;
        let mut state_ptr: *mut ffi::lua_State = ptr::null_mut();
        let state_out: *mut *mut ffi::lua_State = &mut state_ptr;
        // SAFETY: `exec_raw` hands us the state of `lua`; we only read and swap its allocator,
        // which Lua allows at any time. Blocks allocated before the swap are freed through the
        // shim, which forwards them to the allocator that made them.
        unsafe {
            lua.exec_raw::<()>((), move |state| {
                let mut inner_ud: *mut c_void = ptr::null_mut();
                let inner = ffi::lua_getallocf(state, &mut inner_ud);
                (*data_ptr).inner = inner;
                (*data_ptr).inner_ud = inner_ud;
                ffi::lua_setallocf(state, shim_alloc, data_ptr.cast::<c_void>());
                *state_out = state;
            })?;
        }
        if state_ptr.is_null() {
            return Err(mlua::Error::runtime("allocator shim: no Lua state"));
        }
        Ok(Self {
            data,
            state: state_ptr,
        })
    }

    /// Puts mlua's allocator back. Called from `Sandbox::drop`, while the state is alive.
    ///
    /// If something else replaced the allocator meanwhile, the shim's data is leaked rather
    /// than freed, so no allocator can be left pointing at freed memory.
    pub(crate) fn uninstall(self) {
        let data_ptr: *const ShimData = &*self.data;
        // SAFETY: `self.state` is the main thread of a state that is still open (the sandbox
        // holds its `Lua`); `lua_getallocf`/`lua_setallocf` only touch the global state.
        unsafe {
            let mut ud: *mut c_void = ptr::null_mut();
            let current = ffi::lua_getallocf(self.state, &mut ud);
            if std::ptr::fn_addr_eq(current, shim_alloc as ffi::lua_Alloc)
                && ptr::eq(ud as *const ShimData, data_ptr)
            {
                ffi::lua_setallocf(self.state, self.data.inner, self.data.inner_ud);
            } else {
                std::mem::forget(self.data);
            }
        }
    }
}

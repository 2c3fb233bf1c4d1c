//! Per-call budgets: VM instructions (a count hook), charged host work, memory, call depth.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;

use mlua::{HookTriggers, Lua, VmState};

use crate::alloc::AllocCounters;
use crate::error::Location;

/// The hook runs every this many VM instructions. Budgets are counted in these steps, and the
/// call-depth check runs at each step.
pub const HOOK_INTERVAL: u32 = 1_000;

/// Large allocations cost one instruction per this many bytes (see `docs/SANDBOX.md`).
pub const BYTES_PER_UNIT: u64 = 64;

/// Limits for every script call and every script load.
///
/// The defaults are DESIGN.md's: one million instructions and 64 MiB; 200 nested calls; strings
/// of at most 64 KiB; tables of at most 256 keys outside their array part. The last two bound
/// what one VM instruction can cost (comparing two strings, looking a key up in a table whose
/// keys share one chain), so that a whole call at the default budget ends within a second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// VM instructions per call (plus the charged cost of host work: pattern matching, large
    /// allocations, long copies). Counted in steps of [`HOOK_INTERVAL`].
    pub instructions: u64,
    /// Bytes the whole Lua state may hold (every script, the libraries, the API).
    pub memory_bytes: usize,
    /// Nested calls on the running coroutine's stack.
    pub call_depth: u32,
    /// The longest string a script may create, in bytes. Comparing two strings is one VM
    /// instruction whatever their length, so this bounds what one instruction can cost.
    pub string_bytes: usize,
    /// Keys a table may hold outside its array part (rounded up to a power of two). Lua's
    /// integer keys can be chosen to share one hash chain, so this bounds what one lookup can
    /// cost; array parts (keys 1..n) are not limited.
    pub table_keys: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            instructions: 1_000_000,
            memory_bytes: 64 * 1024 * 1024,
            call_depth: 200,
            string_bytes: 64 * 1024,
            table_keys: 256,
        }
    }
}

/// Which budget ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exhausted {
    Instructions,
    Memory,
    Depth,
}

/// The error a spent budget raises inside Lua. `mlua` carries it through Lua as an external
/// error; scripts cannot catch it (see the `pcall` wrappers in the prelude).
#[derive(Debug, Clone)]
pub(crate) struct BudgetError {
    pub(crate) kind: Exhausted,
    pub(crate) limit: u64,
    pub(crate) location: Option<Location>,
    pub(crate) detail: Option<String>,
}

impl fmt::Display for BudgetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.location {
            write!(f, "{loc}: ")?;
        }
        match self.kind {
            Exhausted::Instructions => write!(
                f,
                "instruction budget exhausted ({} instructions per call)",
                self.limit
            ),
            Exhausted::Memory => match &self.detail {
                Some(detail) => write!(f, "memory budget exhausted: {detail}"),
                None => write!(f, "memory budget exhausted ({} bytes)", self.limit),
            },
            Exhausted::Depth => write!(
                f,
                "call depth budget exhausted ({} nested calls)",
                self.limit
            ),
        }
    }
}

impl std::error::Error for BudgetError {}

/// The running tally of one call. Shared (by `Rc`) between the sandbox, the hook and the
/// host functions the prelude calls.
#[derive(Debug)]
pub(crate) struct BudgetState {
    pub(crate) limits: Limits,
    used: Cell<u64>,
    spent: Cell<Option<Exhausted>>,
    error: RefCell<Option<BudgetError>>,
    pub(crate) alloc: Rc<AllocCounters>,
    /// Per host call running, innermost last: where it failed, once an error has escaped
    /// the script (the message handler runs before `<close>` handlers do). Nothing the script
    /// asks of the game after that acts, and the call reports this failure.
    failures: RefCell<Vec<Option<crate::error::ScriptFailure>>>,
}

impl BudgetState {
    pub(crate) fn new(limits: Limits, alloc: Rc<AllocCounters>) -> Self {
        Self {
            limits,
            used: Cell::new(0),
            spent: Cell::new(None),
            error: RefCell::new(None),
            alloc,
            failures: RefCell::new(Vec::new()),
        }
    }

    /// A host call into a script starts (nested ones inside another's job included).
    pub(crate) fn enter_call(&self) {
        self.failures.borrow_mut().push(None);
    }

    /// The innermost host call ends: where it failed, if it did.
    pub(crate) fn leave_call(&self) -> Option<crate::error::ScriptFailure> {
        self.failures.borrow_mut().pop().flatten()
    }

    /// An error escaped the innermost running call's script: the first one is its failure.
    pub(crate) fn record_failure(&self, failure: &crate::error::ScriptFailure) {
        if let Some(top @ None) = self.failures.borrow_mut().last_mut() {
            *top = Some(failure.clone());
        }
    }

    /// Where the innermost running call failed, once it has.
    pub(crate) fn failed(&self) -> Option<crate::error::ScriptFailure> {
        self.failures.borrow().last().cloned().flatten()
    }

    /// Starts a fresh budget (a new call, or idle time after one).
    pub(crate) fn reset(&self) {
        self.used.set(0);
        self.spent.set(None);
        self.error.replace(None);
        crate::collate::take_pending();
        crate::collate::set_allowance(self.limits.instructions);
        self.alloc.take_charged_bytes();
        self.alloc.take_string_cap_hit();
        self.alloc.take_hash_cap_hit();
    }

    /// The budget error of this call, if one was spent.
    pub(crate) fn spent_error(&self) -> Option<BudgetError> {
        self.error.borrow().clone()
    }

    pub(crate) fn is_spent(&self) -> bool {
        self.spent.get().is_some()
    }

    /// Instruction units left in this call.
    pub(crate) fn remaining(&self) -> u64 {
        self.limits.instructions.saturating_sub(self.used.get())
    }

    /// Records that `kind` ran out (the first exhaustion wins) and returns the error to raise.
    pub(crate) fn exhaust(
        &self,
        kind: Exhausted,
        location: Option<Location>,
        detail: Option<String>,
    ) -> BudgetError {
        if let Some(existing) = self.spent_error() {
            return existing;
        }
        let limit = match kind {
            Exhausted::Instructions => self.limits.instructions,
            Exhausted::Memory => u64::try_from(self.limits.memory_bytes).unwrap_or(u64::MAX),
            Exhausted::Depth => u64::from(self.limits.call_depth),
        };
        let err = BudgetError {
            kind,
            limit,
            location,
            detail,
        };
        self.spent.set(Some(kind));
        self.error.replace(Some(err.clone()));
        crate::collate::set_allowance(0);
        err
    }

    /// The error to raise again once a budget is spent.
    pub(crate) fn again(&self) -> Option<BudgetError> {
        self.spent_error()
    }

    /// Charges `units` instructions' worth of work (plus any large allocations since the last
    /// charge). Fails once the budget is spent; `locate` is asked for the script's position
    /// only then.
    pub(crate) fn consume(
        &self,
        units: u64,
        locate: impl FnOnce() -> Option<Location>,
    ) -> Result<(), BudgetError> {
        if let Some(err) = self.again() {
            return Err(err);
        }
        let alloc_units = self.alloc.take_charged_bytes() / BYTES_PER_UNIT;
        let used = self
            .used
            .get()
            .saturating_add(units)
            .saturating_add(alloc_units)
            .saturating_add(crate::collate::take_pending());
        self.used.set(used);
        if used > self.limits.instructions {
            return Err(self.exhaust(Exhausted::Instructions, locate(), None));
        }
        crate::collate::set_allowance(self.limits.instructions - used);
        Ok(())
    }

    /// A memory error seen inside Lua: a string over the string limit, or the state's limit.
    pub(crate) fn memory_exhausted(&self, location: Option<Location>) -> BudgetError {
        let detail = self.cap_detail();
        self.exhaust(Exhausted::Memory, location, detail)
    }

    /// Describes the size cap the last allocation failure hit, if it was one.
    pub(crate) fn cap_detail(&self) -> Option<String> {
        if let Some(size) = self.alloc.take_string_cap_hit() {
            return Some(format!(
                "a string of {size} bytes is over the string limit of {} bytes",
                self.limits.string_bytes
            ));
        }
        self.alloc.take_hash_cap_hit().map(|nodes| {
            format!(
                "a table would need room for {nodes} keys outside its array part; the limit is {}",
                self.limits.table_keys
            )
        })
    }

    /// What the count hook does every [`HOOK_INTERVAL`] instructions.
    fn on_tick(&self, lua: &Lua) -> mlua::Result<VmState> {
        self.consume(u64::from(HOOK_INTERVAL), || script_location(lua))
            .map_err(mlua::Error::external)?;
        let depth = usize::try_from(self.limits.call_depth).unwrap_or(usize::MAX);
        if lua.inspect_stack(depth, |_| ()).is_some() {
            let err = self.exhaust(Exhausted::Depth, script_location(lua), None);
            return Err(mlua::Error::external(err));
        }
        Ok(VmState::Continue)
    }
}

/// Installs the count hook on the main thread as mlua's *global* hook. Lua 5.4 copies a
/// thread's hook into every coroutine it creates, and mlua gives the global hook to the threads
/// it creates, so the budget follows scripts into coroutines. (A per-thread `Lua::set_hook`
/// would not: mlua looks such hooks up by thread and drops them in coroutines.)
pub(crate) fn install_hook(lua: &Lua, state: &Rc<BudgetState>) -> mlua::Result<()> {
    let state = Rc::clone(state);
    lua.set_global_hook(
        HookTriggers::default().every_nth_instruction(HOOK_INTERVAL),
        move |lua, _debug| state.on_tick(lua),
    )
}

/// The innermost stack frame that belongs to a script (a chunk loaded with an `@path` name),
/// skipping host functions and the sandbox's own prelude.
pub(crate) fn script_location(lua: &Lua) -> Option<Location> {
    for level in 0..64 {
        let found = lua.inspect_stack(level, |debug| {
            let source = debug.source();
            let path = source.source.as_deref()?.strip_prefix('@')?.to_string();
            let line = u32::try_from(debug.current_line()?).ok()?;
            Some(Location { path, line })
        });
        match found {
            None => return None,
            Some(Some(location)) => return Some(location),
            Some(None) => {}
        }
    }
    None
}

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
    /// The call's budget was cut to what its game step had left, and that ran out.
    Step,
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
            Exhausted::Step => write!(
                f,
                "instruction budget exhausted: this game step's scripts had {} instructions \
                 left for this call (`lua_step_instructions` in rules.toml)",
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

/// One host call into a script, nested or not: its own instruction count and limit, so that a
/// call nested in another (a face-down card's hook inside a public token's) spends only its
/// own budget (docs/SANDBOX.md).
#[derive(Debug)]
struct Frame {
    /// Instructions this call has spent itself, not counting the calls nested in it.
    used: u64,
    /// Its budget: the per-call limit, or less when the step's pool has less left.
    limit: u64,
    /// Its instruction budget ran out here.
    spent: Option<BudgetError>,
    /// Where it failed, once an error has escaped its script (the message handler runs before
    /// `<close>` handlers do). Nothing the script asks of the game after that acts, and the
    /// call reports this failure.
    failure: Option<crate::error::ScriptFailure>,
}

/// What one host call spent and how it ended, when it is left.
#[derive(Debug)]
pub(crate) struct Left {
    /// Instructions the call spent itself.
    pub(crate) used: u64,
    /// Its instruction budget ran out.
    pub(crate) spent: Option<BudgetError>,
    /// Where it failed first.
    pub(crate) failure: Option<crate::error::ScriptFailure>,
}

/// The running tallies of the calls in progress. Shared (by `Rc`) between the sandbox, the
/// hook and the host functions the prelude calls.
///
/// Instructions are counted per call ([`Frame`]); memory and call depth are the Lua state's
/// and the running stack's, so running out of either ends every call in progress.
#[derive(Debug)]
pub(crate) struct BudgetState {
    pub(crate) limits: Limits,
    /// Instructions counted while no call runs (the hook between calls).
    idle: Cell<u64>,
    spent: Cell<Option<Exhausted>>,
    error: RefCell<Option<BudgetError>>,
    pub(crate) alloc: Rc<AllocCounters>,
    /// The host calls running, innermost last.
    frames: RefCell<Vec<Frame>>,
}

impl BudgetState {
    pub(crate) fn new(limits: Limits, alloc: Rc<AllocCounters>) -> Self {
        Self {
            limits,
            idle: Cell::new(0),
            spent: Cell::new(None),
            error: RefCell::new(None),
            alloc,
            frames: RefCell::new(Vec::new()),
        }
    }

    /// A host call into a script starts (nested ones inside another's job included), with an
    /// instruction budget of its own of at most `limit`.
    pub(crate) fn enter_call(&self, limit: u64) {
        self.settle();
        self.frames.borrow_mut().push(Frame {
            used: 0,
            limit: limit.min(self.limits.instructions),
            spent: None,
            failure: None,
        });
        self.allow();
    }

    /// The innermost host call ends: what it spent, and where it failed if it did.
    pub(crate) fn leave_call(&self) -> Left {
        self.settle();
        let frame = self.frames.borrow_mut().pop();
        self.allow();
        match frame {
            Some(f) => Left {
                used: f.used,
                spent: f.spent,
                failure: f.failure,
            },
            None => Left {
                used: 0,
                spent: None,
                failure: None,
            },
        }
    }

    /// An error escaped the innermost running call's script: the first one is its failure.
    pub(crate) fn record_failure(&self, failure: &crate::error::ScriptFailure) {
        if let Some(top) = self.frames.borrow_mut().last_mut() {
            if top.failure.is_none() {
                top.failure = Some(failure.clone());
            }
        }
    }

    /// Where the innermost running call failed, once it has.
    pub(crate) fn failed(&self) -> Option<crate::error::ScriptFailure> {
        self.frames.borrow().last().and_then(|f| f.failure.clone())
    }

    /// Starts fresh (a new outermost call, or idle time after one).
    pub(crate) fn reset(&self) {
        self.idle.set(0);
        self.spent.set(None);
        self.error.replace(None);
        self.frames.borrow_mut().clear();
        crate::collate::take_pending();
        crate::collate::set_allowance(self.limits.instructions);
        self.alloc.take_charged_bytes();
        self.alloc.take_string_cap_hit();
        self.alloc.take_hash_cap_hit();
    }

    /// The budget error of the innermost running call, if one was spent (memory and depth are
    /// every running call's).
    pub(crate) fn spent_error(&self) -> Option<BudgetError> {
        if let Some(e) = self.error.borrow().clone() {
            return Some(e);
        }
        self.frames.borrow().last().and_then(|f| f.spent.clone())
    }

    /// The memory or call-depth budget ran out: every running call ends.
    pub(crate) fn state_spent(&self) -> Option<BudgetError> {
        self.error.borrow().clone()
    }

    pub(crate) fn is_spent(&self) -> bool {
        self.spent_error().is_some()
    }

    /// Instruction units left in the innermost running call.
    pub(crate) fn remaining(&self) -> u64 {
        match self.frames.borrow().last() {
            Some(f) => f.limit.saturating_sub(f.used),
            None => self.limits.instructions.saturating_sub(self.idle.get()),
        }
    }

    /// Records that `kind` ran out (the first exhaustion wins) and returns the error to raise.
    /// Instructions run out for the innermost call alone; memory and depth for all of them.
    pub(crate) fn exhaust(
        &self,
        kind: Exhausted,
        location: Option<Location>,
        detail: Option<String>,
    ) -> BudgetError {
        if let Some(existing) = self.spent_error() {
            return existing;
        }
        let mut frames = self.frames.borrow_mut();
        let limit = match kind {
            Exhausted::Instructions | Exhausted::Step => {
                frames.last().map_or(self.limits.instructions, |f| f.limit)
            }
            Exhausted::Memory => u64::try_from(self.limits.memory_bytes).unwrap_or(u64::MAX),
            Exhausted::Depth => u64::from(self.limits.call_depth),
        };
        // A call given less than the per-call budget ran out of what its step had left.
        let kind = match kind {
            Exhausted::Instructions if limit < self.limits.instructions => Exhausted::Step,
            k => k,
        };
        let err = BudgetError {
            kind,
            limit,
            location,
            detail,
        };
        match (kind, frames.last_mut()) {
            (Exhausted::Instructions | Exhausted::Step, Some(top)) => {
                top.spent = Some(err.clone());
            }
            _ => {
                self.spent.set(Some(kind));
                self.error.replace(Some(err.clone()));
            }
        }
        crate::collate::set_allowance(0);
        err
    }

    /// The error to raise again once a budget is spent.
    pub(crate) fn again(&self) -> Option<BudgetError> {
        self.spent_error()
    }

    /// Moves work counted outside the hook (large allocations, collation) onto the innermost
    /// call, so that each call pays for its own.
    fn settle(&self) {
        let units = (self.alloc.take_charged_bytes() / BYTES_PER_UNIT)
            .saturating_add(crate::collate::take_pending());
        self.add(units);
    }

    fn add(&self, units: u64) -> u64 {
        match self.frames.borrow_mut().last_mut() {
            Some(f) => {
                f.used = f.used.saturating_add(units);
                f.used
            }
            None => {
                let used = self.idle.get().saturating_add(units);
                self.idle.set(used);
                used
            }
        }
    }

    /// Tells the collation code what the innermost call has left.
    fn allow(&self) {
        if self.is_spent() {
            crate::collate::set_allowance(0);
        } else {
            crate::collate::set_allowance(self.remaining());
        }
    }

    /// Charges `units` instructions' worth of work (plus any large allocations since the last
    /// charge) to the innermost running call. Fails once its budget is spent; `locate` is asked
    /// for the script's position only then.
    pub(crate) fn consume(
        &self,
        units: u64,
        locate: impl FnOnce() -> Option<Location>,
    ) -> Result<(), BudgetError> {
        if let Some(err) = self.again() {
            return Err(err);
        }
        let extra = (self.alloc.take_charged_bytes() / BYTES_PER_UNIT)
            .saturating_add(crate::collate::take_pending());
        self.add(units.saturating_add(extra));
        if self.over() {
            return Err(self.exhaust(Exhausted::Instructions, locate(), None));
        }
        crate::collate::set_allowance(self.remaining());
        Ok(())
    }

    /// The innermost call (or idle time) has spent more than its budget.
    fn over(&self) -> bool {
        match self.frames.borrow().last() {
            Some(f) => f.used > f.limit,
            None => self.idle.get() > self.limits.instructions,
        }
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

/// Starts the count of instructions to the next hook tick again, keeping the hook that
/// [`install_hook`] set: what `lua_sethook` does with the same hook, mask and count. Installs
/// the hook anew if the state has none.
pub(crate) fn restart_hook_count(lua: &Lua, state: &Rc<BudgetState>) -> mlua::Result<()> {
    // SAFETY: reads the running state's hook and sets the same one again, which only resets
    // its count (Lua 5.4's `lua_sethook` raises nothing and touches no stack).
    let restarted = lua.exec_raw_lua(|raw| unsafe {
        let l = raw.state();
        match mlua::ffi::lua_gethook(l) {
            Some(hook) => {
                let (mask, count) = (
                    mlua::ffi::lua_gethookmask(l),
                    mlua::ffi::lua_gethookcount(l),
                );
                mlua::ffi::lua_sethook(l, Some(hook), mask, count);
                true
            }
            None => false,
        }
    });
    if restarted {
        Ok(())
    } else {
        install_hook(lua, state)
    }
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

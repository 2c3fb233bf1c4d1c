//! How API functions, registered once, reach the `BehaviourCtx` of the behaviour now running.
//!
//! `ScriptHost::run_script` wraps the `&mut BehaviourCtx` in a `RefCell` on its own stack and
//! runs the call inside [`Calls::within`], which keeps a pointer to that cell for exactly the
//! duration of the closure it runs (popped however the closure ends, also when it unwinds). An
//! API function calls [`with_ctx`]: it borrows the innermost cell (a `RefCell` borrow, so two
//! borrows at once are refused, never aliased) and runs with the context. A behaviour revealed
//! by an API function (a Blip whose stat a script read) performs inside it and pushes its own
//! cell, so nested behaviours always reach their own context. Outside a behaviour call there
//! is no cell and every such function raises a clear error.
//!
//! This used to be a trampoline made with `Lua::scope` at every call (no unsafe code, but a
//! scope, a Lua function and a round trip through Lua at every call and every API call); the
//! one `unsafe` block below replaces it, and its safety rests on `within` alone.

use crate::budget::{script_location, BudgetState};
use mlua::{Lua, Table};
use overmind_core::trigger::Hook;
use overmind_core::{BehaviourCtx, Pos};
use std::cell::RefCell;
use std::rc::Rc;

/// What every API call costs, in instructions: reaching the context, the handles it makes.
pub(crate) const CALL_UNITS: u64 = 20;
/// A search over the map (a distance field, a shortest path, the squares towards a goal) costs
/// this many instructions per square of the map.
pub(crate) const SEARCH_UNITS_PER_SQUARE: u64 = 2;
/// `reachable` returns a table per square reached: per square of the map.
pub(crate) const REACHABLE_UNITS_PER_SQUARE: u64 = 8;
/// One Line of Sight check: per square along its longer axis.
pub(crate) const LOS_UNITS_PER_SQUARE: u64 = 12;
/// Listing or finding models: per model or Blip on the map.
pub(crate) const MODEL_UNITS: u64 = 2;

/// Charges `units` instructions' worth of host work to the running call's budget, before the
/// work is done; a spent budget raises its error, which no script can catch.
///
/// # Errors
/// The budget is spent.
pub(crate) fn charge(lua: &Lua, units: u64) -> mlua::Result<()> {
    match lua.app_data_ref::<Rc<BudgetState>>() {
        Some(b) => b
            .consume(units, || script_location(lua))
            .map_err(mlua::Error::external),
        None => Ok(()),
    }
}

/// The cost of one search over the whole map.
pub(crate) fn search_units(ctx: &BehaviourCtx<'_, '_>) -> u64 {
    let map = &ctx.state().map;
    let squares =
        u64::try_from(map.width()).unwrap_or(0) * u64::try_from(map.height()).unwrap_or(0);
    squares * SEARCH_UNITS_PER_SQUARE
}

/// The cost of a move away from `targets` squares: a search, and each square reached measured
/// against each target.
pub(crate) fn away_units(ctx: &BehaviourCtx<'_, '_>, targets: usize) -> u64 {
    let per_square =
        SEARCH_UNITS_PER_SQUARE.saturating_add(u64::try_from(targets).unwrap_or(u64::MAX));
    (search_units(ctx) / SEARCH_UNITS_PER_SQUARE).saturating_mul(per_square)
}

/// The cost of `reachable` (a search, and a table per square it returns).
pub(crate) fn reachable_units(ctx: &BehaviourCtx<'_, '_>) -> u64 {
    search_units(ctx) / SEARCH_UNITS_PER_SQUARE * REACHABLE_UNITS_PER_SQUARE
}

/// The cost of one Line of Sight check between two squares.
pub(crate) fn los_units(a: Pos, b: Pos) -> u64 {
    (u64::from(a.distance(b)) + 1) * LOS_UNITS_PER_SQUARE
}

/// The cost of a query that walks every model and Blip on the map.
pub(crate) fn model_units(ctx: &BehaviourCtx<'_, '_>) -> u64 {
    let st = ctx.state();
    let models: usize = st.units.iter().map(|u| u.models.len()).sum();
    u64::try_from(models + st.blips.len()).unwrap_or(u64::MAX) * MODEL_UNITS
}

/// The cost of checking Line of Sight from every model of `unit` to every Hero.
pub(crate) fn sight_units(ctx: &BehaviourCtx<'_, '_>, unit: &str) -> u64 {
    let own: Vec<Pos> = ctx.models_of(unit).iter().map(|m| m.pos).collect();
    let heroes: Vec<Pos> = ctx.heroes().iter().map(|m| m.pos).collect();
    let mut units = model_units(ctx);
    for p in &own {
        for h in &heroes {
            units = units.saturating_add(los_units(*p, *h));
        }
    }
    units
}

type Before = Box<dyn Fn(&mut BehaviourCtx<'_, '_>)>;

/// The contexts of the behaviour calls now running (innermost last).
#[derive(Default)]
pub(crate) struct Calls {
    /// Each points at a `RefCell<&mut BehaviourCtx>` on the stack of the `within` that pushed
    /// it, and is popped before that frame returns (see `within`).
    running: RefCell<Vec<*const ()>>,
    /// Runs before every API call, with the context (the host settles its pending moments).
    before: RefCell<Option<Before>>,
    /// One slot per running behaviour call (innermost last): its behaviour's id and its
    /// `game.storage` table, made when the call first reads it.
    storage: RefCell<Vec<StorageSlot>>,
    /// The sandbox's budgets, which every API call charges: held here so that a call finds
    /// them without a lookup in Lua's app data (about 80 instructions each, three a call).
    budget: Option<Rc<BudgetState>>,
}

struct StorageSlot {
    id: String,
    table: Option<Table>,
    /// The hook of a trigger call (none for a behaviour call).
    hook: Option<Hook>,
}

/// Pops the storage slot pushed by [`Calls::enter_storage`], however the call ends.
pub(crate) struct StorageEntered<'a>(&'a Calls);

impl StorageEntered<'_> {
    /// The call's `game.storage` table, if the call read it.
    pub(crate) fn table(&self) -> Option<Table> {
        self.0.storage.borrow().last().and_then(|s| s.table.clone())
    }
}

impl Drop for StorageEntered<'_> {
    fn drop(&mut self) {
        self.0.storage.borrow_mut().pop();
    }
}

/// Pops the context pushed by [`Calls::within`] however its closure ends.
struct Entered<'a>(&'a Calls);

impl Drop for Entered<'_> {
    fn drop(&mut self) {
        self.0.running.borrow_mut().pop();
    }
}

impl Calls {
    /// No call running yet; API calls charge `budget`.
    pub(crate) fn new(budget: Rc<BudgetState>) -> Calls {
        Calls {
            budget: Some(budget),
            ..Calls::default()
        }
    }

    /// Charges `units` to the running call's budget (the sandbox's, if this holds none).
    fn charge(&self, lua: &Lua, units: u64) -> mlua::Result<()> {
        match &self.budget {
            Some(b) => b
                .consume(units, || script_location(lua))
                .map_err(mlua::Error::external),
            None => charge(lua, units),
        }
    }

    /// Runs `f` with `ctx` as the innermost context API functions reach.
    pub(crate) fn within<R>(
        &self,
        ctx: &RefCell<&mut BehaviourCtx<'_, '_>>,
        f: impl FnOnce() -> R,
    ) -> R {
        self.running
            .borrow_mut()
            .push(std::ptr::from_ref(ctx).cast::<()>());
        // Popped when `f` returns or unwinds, while `ctx` is still borrowed by this frame.
        let _entered = Entered(self);
        f()
    }

    /// Makes `f` run before every API call, with the running call's context.
    pub(crate) fn set_before(&self, f: Before) {
        self.before.replace(Some(f));
    }

    /// Whether a behaviour or trigger call is running (its game can be reached).
    pub(crate) fn is_running(&self) -> bool {
        !self.running.borrow().is_empty()
    }

    /// A behaviour (or trigger, of `hook`) call of script `id` starts: it gets its own storage
    /// slot. A call nested in a running call of the same script shares that call's table (one
    /// `game.storage` per script id), so neither overwrites what the other kept.
    pub(crate) fn enter_storage(&self, id: &str, hook: Option<Hook>) -> StorageEntered<'_> {
        let mut slots = self.storage.borrow_mut();
        let table = slots
            .iter()
            .rev()
            .find(|s| s.id == id)
            .and_then(|s| s.table.clone());
        slots.push(StorageSlot {
            id: id.to_string(),
            table,
            hook,
        });
        drop(slots);
        StorageEntered(self)
    }

    /// The hook of the innermost running call, when it is a trigger's.
    pub(crate) fn hook(&self) -> Option<Hook> {
        self.storage.borrow().last().and_then(|s| s.hook)
    }

    /// The running call's `game.storage` table, made by `make` on the first read.
    ///
    /// # Errors
    /// No behaviour is running, or `make` failed.
    pub(crate) fn storage(
        &self,
        make: impl FnOnce() -> mlua::Result<Table>,
    ) -> mlua::Result<Table> {
        match self.storage.borrow().last() {
            Some(StorageSlot { table: Some(t), .. }) => return Ok(t.clone()),
            Some(_) => {}
            None => {
                return Err(mlua::Error::runtime(
                    "game.storage can only be used while a behaviour or trigger runs (not when a \
                     script loads)",
                ))
            }
        }
        let t = make()?;
        if let Some(slot) = self.storage.borrow_mut().last_mut() {
            slot.table = Some(t.clone());
        }
        Ok(t)
    }

    fn run<R>(
        &self,
        lua: &Lua,
        f: impl FnOnce(&Lua, &mut BehaviourCtx<'_, '_>) -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        let top = self.running.borrow().last().copied().ok_or_else(|| {
            mlua::Error::runtime(
                "the game can only be used while a behaviour or trigger runs (not when a script loads)",
            )
        })?;
        self.charge(lua, CALL_UNITS)?;
        // A `<close>` handler running while the call's error unwinds: the call has failed, and
        // nothing after its failure point acts.
        let failed = match &self.budget {
            Some(b) => b.failed(),
            None => lua
                .app_data_ref::<Rc<BudgetState>>()
                .and_then(|b| b.failed()),
        };
        if let Some(failed) = failed {
            return Err(mlua::Error::runtime(format!(
                "nothing acts after the script failed ({failed})"
            )));
        }
        // SAFETY: `top` was pushed by `within` from a `&RefCell<&mut BehaviourCtx>` that its
        // frame borrows until it pops it again (on return or unwind), and API functions only
        // run inside that frame's closure (the script call), so the cell is alive here. Only a
        // shared reference to the `RefCell` is made; the context itself is reached through its
        // dynamic borrow, which refuses a second one, so no `&mut` is ever aliased. The
        // lifetimes the cell was made with are erased for the length of this call only: no
        // reference obtained here outlives it (`R` is returned by value).
        let cell = unsafe { &*top.cast::<RefCell<&mut BehaviourCtx<'_, '_>>>() };
        let answer = {
            let mut ctx = cell
                .try_borrow_mut()
                .map_err(|_| mlua::Error::runtime("the game is busy with another API call"))?;
            if let Some(before) = self.before.borrow().as_ref() {
                before(&mut ctx);
            }
            f(lua, &mut ctx)
        };
        // A behaviour the call performed (a Blip it revealed) spent a budget that ends this
        // call too (memory, depth), and no script can catch that.
        self.charge(lua, 0)?;
        answer
    }
}

/// Run `f` with the running behaviour's context (see the module docs).
///
/// # Errors
/// No behaviour is running, or `f` failed.
pub(crate) fn with_ctx<R>(
    lua: &Lua,
    f: impl FnOnce(&Lua, &mut BehaviourCtx<'_, '_>) -> mlua::Result<R>,
) -> mlua::Result<R> {
    let calls = lua
        .app_data_ref::<Rc<Calls>>()
        .map(|c| Rc::clone(&c))
        .ok_or_else(|| mlua::Error::runtime("internal: the Lua API is not set up"))?;
    calls.run(lua, f)
}

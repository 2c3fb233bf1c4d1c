//! How API functions, registered once, reach the `BehaviourCtx` of the behaviour now running
//! without any unsafe code: each behaviour call makes one scoped trampoline that borrows its
//! context, and API functions hand it a job to run.
//!
//! `ScriptHost::perform` wraps the `&mut BehaviourCtx` in a `RefCell`, creates the trampoline
//! with `Lua::scope` (so it cannot outlive the call) and pushes it with [`Calls::enter`]. An API
//! function calls [`with_ctx`]: the job goes into a slot, the innermost trampoline is called,
//! takes the job and runs it with the borrowed context. A behaviour revealed by a job (a Blip
//! whose stat a script read) performs inside that job and pushes its own trampoline, so nested
//! behaviours always reach their own context. Outside a behaviour call there is no trampoline
//! and every such function raises a clear error.

use mlua::{Function, Lua, Table};
use overmind_core::BehaviourCtx;
use std::cell::RefCell;
use std::rc::Rc;

type Job = Box<dyn FnOnce(&Lua, &mut BehaviourCtx<'_, '_>)>;

/// The trampolines of the behaviour calls now running (innermost last) and the job slot.
#[derive(Default)]
pub(crate) struct Calls {
    running: RefCell<Vec<Function>>,
    job: RefCell<Option<Job>>,
    /// Set when a nested behaviour spent the budget the whole outermost call shares: the
    /// behaviours around it must end too, even if the hook does not fire again before they
    /// would finish.
    spent: RefCell<Option<String>>,
    /// One slot per running behaviour call (innermost last): its behaviour's id and its
    /// `game.storage` table, made when the call first reads it.
    storage: RefCell<Vec<StorageSlot>>,
}

struct StorageSlot {
    id: String,
    table: Option<Table>,
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

/// Pops the trampoline pushed by [`Calls::enter`] when the behaviour call ends, however it ends.
pub(crate) struct Entered<'a>(&'a Calls);

impl Drop for Entered<'_> {
    fn drop(&mut self) {
        self.0.running.borrow_mut().pop();
    }
}

impl Calls {
    /// Makes `trampoline` (created in the behaviour call's scope) the innermost context.
    pub(crate) fn enter(&self, trampoline: Function) -> Entered<'_> {
        self.running.borrow_mut().push(trampoline);
        Entered(self)
    }

    /// A behaviour call of `id` starts: it gets its own storage slot. A call nested in a
    /// running call of the same behaviour shares that call's table (one `game.storage` per
    /// behaviour id), so neither overwrites what the other kept.
    pub(crate) fn enter_storage(&self, id: &str) -> StorageEntered<'_> {
        let mut slots = self.storage.borrow_mut();
        let table = slots
            .iter()
            .rev()
            .find(|s| s.id == id)
            .and_then(|s| s.table.clone());
        slots.push(StorageSlot {
            id: id.to_string(),
            table,
        });
        drop(slots);
        StorageEntered(self)
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
                    "game.storage can only be used while a behaviour performs (not when a \
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

    /// How many behaviour calls are running, nested.
    pub(crate) fn depth(&self) -> usize {
        self.running.borrow().len()
    }

    /// A behaviour call ended by a spent budget: `message` says which and where.
    pub(crate) fn note_spent(&self, message: String) {
        self.spent.borrow_mut().get_or_insert(message);
    }

    /// The spent-budget message, if a behaviour of the running outermost call spent it.
    pub(crate) fn spent(&self) -> Option<String> {
        self.spent.borrow().clone()
    }

    /// A new outermost call starts with its budget whole.
    pub(crate) fn clear_spent(&self) {
        self.spent.replace(None);
    }

    /// The trampoline's body: run the waiting job with the behaviour's context.
    pub(crate) fn run_job(
        &self,
        lua: &Lua,
        ctx: &RefCell<&mut BehaviourCtx<'_, '_>>,
    ) -> mlua::Result<()> {
        let job = self
            .job
            .borrow_mut()
            .take()
            .ok_or_else(|| mlua::Error::runtime("internal: no API call is waiting"))?;
        let mut ctx = ctx
            .try_borrow_mut()
            .map_err(|_| mlua::Error::runtime("the game is busy with another API call"))?;
        job(lua, &mut ctx);
        Ok(())
    }

    fn run<R: 'static>(
        &self,
        f: impl FnOnce(&Lua, &mut BehaviourCtx<'_, '_>) -> mlua::Result<R> + 'static,
    ) -> mlua::Result<R> {
        let trampoline = self.running.borrow().last().cloned().ok_or_else(|| {
            mlua::Error::runtime(
                "the game can only be used while a behaviour performs (not when a script loads)",
            )
        })?;
        let out: Rc<RefCell<Option<mlua::Result<R>>>> = Rc::new(RefCell::new(None));
        let slot = Rc::clone(&out);
        let job: Job = Box::new(move |lua: &Lua, ctx: &mut BehaviourCtx<'_, '_>| {
            slot.replace(Some(f(lua, ctx)));
        });
        self.job.replace(Some(job));
        if let Err(e) = trampoline.call::<()>(()) {
            self.job.replace(None);
            return Err(unwrap_callback(e));
        }
        if let Some(message) = self.spent() {
            return Err(mlua::Error::runtime(message));
        }
        let answer = out.borrow_mut().take();
        answer.unwrap_or_else(|| Err(mlua::Error::runtime("internal: the API call did not run")))
    }
}

/// The trampoline reports a job's own failure wrapped as a callback error; give the script the
/// job's error itself, so messages read as if the API function had raised it directly.
fn unwrap_callback(e: mlua::Error) -> mlua::Error {
    match e {
        mlua::Error::CallbackError { cause, .. } => (*cause).clone(),
        other => other,
    }
}

/// Run `f` with the running behaviour's context (see the module docs).
///
/// # Errors
/// No behaviour is running, or `f` failed.
pub(crate) fn with_ctx<R: 'static>(
    lua: &Lua,
    f: impl FnOnce(&Lua, &mut BehaviourCtx<'_, '_>) -> mlua::Result<R> + 'static,
) -> mlua::Result<R> {
    let calls = lua
        .app_data_ref::<Rc<Calls>>()
        .map(|c| Rc::clone(&c))
        .ok_or_else(|| mlua::Error::runtime("internal: the Lua API is not set up"))?;
    calls.run(f)
}

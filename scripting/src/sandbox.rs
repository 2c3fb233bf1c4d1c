//! The sandbox: one Lua state, whitelisted per-script environments, budgeted calls.

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::rc::Rc;

use mlua::{
    chunk::ChunkMode, FromLuaMulti, Function, IntoLuaMulti, Lua, LuaOptions, MultiValue, StdLib,
    Table, Value,
};

use crate::alloc::{AllocCounters, Shim};
use crate::budget::{
    install_hook, restart_hook_count, BudgetError, BudgetState, Exhausted, Limits,
};
use crate::error::{from_lua_error, ErrorKind, Location, ScriptError};
use crate::host::{self, PrintLine, PrintSink};

const PRELUDE: &str = include_str!("prelude.lua");

/// Where the scoped RNG function sits in the slots table during `call_with_rng` (the prelude's
/// `math.random` reads `slots[1]`).
const RNG_SLOT: i64 = 1;
/// `[CACHE_SLOT]` is true once `next` has cached a traversal order the next outermost call
/// must clear.
const CACHE_SLOT: i64 = 2;

/// Where a call's `math.random` draws from.
enum Rng<'a> {
    /// Nowhere: it raises.
    None,
    /// A host closure, lent for the call (through a scoped function).
    Scoped(&'a mut dyn FnMut() -> u64),
}

/// Scripts larger than this are refused before compiling (content scripts are a few KiB).
pub const MAX_SOURCE_BYTES: usize = 4 * 1024 * 1024;

/// A loaded script: what its chunk returned, and its own global environment.
#[derive(Debug, Clone)]
pub struct Script {
    /// The path the script was loaded as (its chunk name, used in every message).
    pub path: String,
    /// The first value the chunk returned (`nil` when it returned nothing).
    pub value: Value,
    env: Table,
    compiled: Compiled,
}

/// A definition script sealed for calls ([`Sandbox::seal`]): its top level ran once, the tables
/// its functions can reach are read-only, and each call gets a fresh scratch environment.
#[derive(Clone, Debug)]
pub struct Sealed {
    table: Table,
    /// No function of the script reaches a global: its calls need no scratch environment and
    /// go straight from the host into the function ([`crate::direct`]).
    bare: bool,
}

impl Script {
    /// The script's own global table (its `_ENV`). Writing to it affects only this script.
    #[must_use]
    pub fn env(&self) -> &Table {
        &self.env
    }

    /// The compiled chunk, to run the script's top level again in a fresh environment
    /// ([`Sandbox::instantiate`]).
    #[must_use]
    pub fn compiled(&self) -> &Compiled {
        &self.compiled
    }
}

/// A script compiled once (a text chunk named after its path), whose top level can be run
/// again and again, each time in a fresh environment ([`Sandbox::instantiate`]): nothing one
/// run leaves in its globals or in the chunk's locals reaches the next.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The path the script was compiled as.
    pub path: String,
    /// `function(_ENV, ...) <the script> end`.
    chunk: Function,
}

/// The Lua functions the prelude returns.
struct Api {
    shared_changed: Function,
    new_call: Function,
    instantiate: Function,
    load: Function,
    invoke: Function,
    freeze: Function,
    seal: Function,
    call_sealed: Function,
    call_hook: Function,
    hook_bare: Function,
    raise: Function,
    fail: Function,
    set_lazy_fill: Function,
}

/// A Lua 5.4 state prepared for untrusted content scripts.
///
/// See the crate documentation for what scripts can do, and `docs/SANDBOX.md` for how each
/// escape is closed.
pub struct Sandbox {
    lua: Lua,
    budget: Rc<BudgetState>,
    shim: Option<Shim>,
    api: Api,
    /// Privileged: name → frozen value, copied into every new environment.
    shared: Table,
    /// Privileged: `[RNG_SLOT]` is the scoped RNG function during `call_with_rng`.
    slots: Table,
    print: Rc<RefCell<PrintSink>>,
    nesting: Cell<u32>,
    paths: RefCell<BTreeSet<String>>,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("limits", &self.budget.limits)
            .field("used_memory", &self.lua.used_memory())
            .finish_non_exhaustive()
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        if let Some(shim) = self.shim.take() {
            shim.uninstall();
        }
    }
}

fn setup(err: mlua::Error) -> ScriptError {
    ScriptError::host(format!("setting up the Lua sandbox failed: {err}"))
}

impl Sandbox {
    /// Creates a sandbox: a Lua 5.4 state with only the `table`, `string`, `math`, `utf8` and
    /// `coroutine` libraries, the budget hook, and the safe library built by the prelude.
    ///
    /// # Errors
    /// [`ScriptError::Host`] when `limits` are unusable (a zero budget, less than 1 MiB of
    /// memory) or the state cannot be set up.
    pub fn new(limits: Limits) -> Result<Self, ScriptError> {
        if limits.instructions == 0
            || limits.call_depth == 0
            || limits.string_bytes == 0
            || limits.table_keys < 64
        {
            return Err(ScriptError::host(
                "limits must allow at least one instruction, one call, one byte of string and \
                 64 table keys",
            ));
        }
        if limits.memory_bytes < 1024 * 1024 {
            return Err(ScriptError::host("the memory limit must be at least 1 MiB"));
        }
        // Lua's string comparisons must call the sandbox's `strcoll` (see `collate`).
        std::hint::black_box(crate::collate::linked());
        let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
        // SAFETY: the `debug` library (what makes this constructor unsafe) is for the prelude
        // alone: sealing a script reads and sets its functions' upvalues. The prelude takes the
        // four functions it uses into its own locals and removes `debug` from the globals
        // before any script is compiled, and no script ever sees the real globals (each gets a
        // whitelisted environment), so no script can reach it.
        let lua = unsafe { Lua::unsafe_new_with(libs | StdLib::DEBUG, LuaOptions::default()) };
        lua.set_memory_limit(limits.memory_bytes).map_err(setup)?;
        let counters = Rc::new(AllocCounters::new(limits.string_bytes, limits.table_keys));
        let shim = Shim::install(&lua, Rc::clone(&counters)).map_err(setup)?;
        let budget = Rc::new(BudgetState::new(limits, Rc::clone(&counters)));
        install_hook(&lua, &budget).map_err(setup)?;
        // The API charges host work (searches, Line of Sight) to the running call's budget.
        lua.set_app_data(Rc::clone(&budget));

        let print = Rc::new(RefCell::new(PrintSink::buffer()));
        let slots = lua.create_table().map_err(setup)?;
        let shared = lua.create_table().map_err(setup)?;
        let host = host::register(&lua, &budget, &print, &slots).map_err(setup)?;
        let exports: Table = lua
            .load(PRELUDE)
            .set_name("=[sandbox]")
            .set_mode(ChunkMode::Text)
            .call((lua.globals(), host))
            .map_err(setup)?;
        let api = Api {
            shared_changed: exports.get("shared_changed").map_err(setup)?,
            new_call: exports.get("new_call").map_err(setup)?,
            instantiate: exports.get("instantiate").map_err(setup)?,
            load: exports.get("load").map_err(setup)?,
            invoke: exports.get("invoke").map_err(setup)?,
            freeze: exports.get("freeze").map_err(setup)?,
            seal: exports.get("seal").map_err(setup)?,
            call_sealed: exports.get("call_sealed").map_err(setup)?,
            call_hook: exports.get("call_hook").map_err(setup)?,
            hook_bare: exports.get("hook_bare").map_err(setup)?,
            raise: exports.get("raise").map_err(setup)?,
            fail: exports.get("fail").map_err(setup)?,
            set_lazy_fill: exports.get("set_lazy_fill").map_err(setup)?,
        };
        let grow = lua
            .load("local t = {} for i = 1, 9 do t['k' .. i] = i end")
            .set_name("=[sandbox]")
            .into_function()
            .map_err(setup)?;
        counters.calibrate(|| grow.call::<()>(()).is_ok());
        lua.gc_collect().map_err(setup)?;
        budget.reset();
        Ok(Self {
            lua,
            budget,
            shim: Some(shim),
            api,
            shared,
            slots,
            print,
            nesting: Cell::new(0),
            paths: RefCell::new(BTreeSet::new()),
        })
    }

    /// The Lua state, for the API binder to create functions, userdata and tables.
    ///
    /// Run every call into Lua through [`call`](Self::call) (or the other `call*` methods) so
    /// it is budgeted, and do not change the state's hook, allocator or memory limit, or hand
    /// `lua.globals()` (the unfiltered globals) to scripts.
    #[must_use]
    pub fn lua(&self) -> &Lua {
        &self.lua
    }

    /// The limits every call and load runs under.
    #[must_use]
    pub fn limits(&self) -> Limits {
        self.budget.limits
    }

    /// Bytes the Lua state currently uses.
    #[must_use]
    pub fn used_memory(&self) -> usize {
        self.lua.used_memory()
    }

    /// Exposes `value` as the global `name` of every script loaded from now on.
    ///
    /// Tables are shared as read-only snapshots: the raw fields are copied, nested tables
    /// become read-only views too, and metatables are not carried over (share userdata for
    /// objects with behaviour). Functions and userdata are shared as they are. Call this before
    /// loading the scripts that should see `name`.
    ///
    /// # Errors
    /// [`ScriptError::Host`] if `name` is not a Lua identifier or is reserved (`_G`, `load`).
    pub fn share(&self, name: &str, value: Value) -> Result<(), ScriptError> {
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid || name == "_G" || name == "load" || name == "_ENV" {
            return Err(ScriptError::host(format!(
                "cannot share `{name}`: not an identifier, or reserved"
            )));
        }
        self.run(None, |_| {
            let frozen: Value = self.api.freeze.call((value, name))?;
            self.shared.raw_set(name, frozen)?;
            self.api.shared_changed.call::<()>(())
        })
    }

    /// Compiles `source` as a text chunk named `path` in a fresh environment and runs its top
    /// level under the per-call budget (with no RNG: `math.random` raises there).
    ///
    /// # Errors
    /// [`ScriptError::BinaryChunk`] for precompiled chunks, [`ScriptError::Syntax`] when the
    /// source does not parse, and any error or budget the top level runs into.
    pub fn load_script(&self, path: &str, source: &str) -> Result<Script, ScriptError> {
        self.load_script_bytes(path, source.as_bytes())
    }

    /// [`load_script`](Self::load_script) for source that may not be UTF-8.
    ///
    /// # Errors
    /// As [`load_script`](Self::load_script).
    pub fn load_script_bytes(&self, path: &str, source: &[u8]) -> Result<Script, ScriptError> {
        // Lua treats any chunk starting with ESC as binary (its signature is "\x1bLua").
        if source.first() == Some(&0x1b) {
            return Err(ScriptError::BinaryChunk {
                path: path.to_string(),
            });
        }
        if source.len() > MAX_SOURCE_BYTES {
            return Err(ScriptError::Syntax {
                path: path.to_string(),
                line: None,
                message: format!(
                    "script is {} bytes; the sandbox loads at most {MAX_SOURCE_BYTES}",
                    source.len()
                ),
            });
        }
        self.paths.borrow_mut().insert(path.to_string());
        let loaded = self.run(None, |lua| {
            let compiled = self.compile(lua, path, source)?;
            let (env, values): (Table, MultiValue) = self
                .api
                .load
                .call((self.shared.clone(), compiled.chunk.clone()))?;
            Ok((compiled, env, values))
        });
        match loaded {
            Ok((compiled, env, values)) => Ok(Script {
                path: path.to_string(),
                value: values.into_iter().next().unwrap_or(Value::Nil),
                env,
                compiled,
            }),
            Err(ScriptError::Syntax { line, message, .. }) => Err(ScriptError::Syntax {
                path: path.to_string(),
                line,
                message,
            }),
            Err(other) => Err(other),
        }
    }

    /// The budgets every call of this sandbox runs under.
    pub(crate) fn budget(&self) -> Rc<BudgetState> {
        Rc::clone(&self.budget)
    }

    /// Seals a loaded definition script so that its functions can be called again and again
    /// without running its top level again, and without carrying anything from one call to
    /// the next: a function that assigns a local of the top level is refused (at the line of
    /// the assignment), every table the functions can reach from their upvalues, from `def`
    /// (the definition's table) and from the globals the top level set becomes read-only (a
    /// write raises an error saying why), a coroutine reachable so is refused, and each
    /// [`call_sealed`](Self::call_sealed) gets a fresh global table whose misses read the top
    /// level's globals and the library. The walk runs under one call's budget.
    ///
    /// # Errors
    /// [`ScriptError::Runtime`] at `path:line` for state a function could keep.
    pub fn seal(&self, script: &Script, def: &Table) -> Result<Sealed, ScriptError> {
        let dump = script.compiled.chunk.dump(false);
        let kept = crate::seal::kept_locals(&dump).map_err(ScriptError::host)?;
        if let Some(k) = kept.first() {
            let what = if k.name == "_ENV" {
                "`_ENV` is the script's environment".to_string()
            } else {
                format!("`{}` is a local of the script's top level", k.name)
            };
            return Err(ScriptError::Runtime {
                message: format!(
                    "{what}: a function may not assign it, since the top level runs once, when \
                     the script loads, and the value would carry from one call to the next; \
                     keep state in game.storage"
                ),
                location: Some(crate::error::Location {
                    path: script.path.clone(),
                    line: k.line,
                }),
                traceback: None,
            });
        }
        let reads_only = crate::seal::reads_globals_only(&dump).map_err(ScriptError::host)?;
        let source = format!("@{}", script.path);
        let table = self.run(None, |_| {
            self.api
                .seal
                .call::<Table>((script.env.clone(), def.clone(), source, reads_only))
        })?;
        // The prelude's own test, read once: `call_sealed` gives no environment when the
        // first cell is missing.
        let bare = table
            .raw_get::<Table>("cells")
            .and_then(|c| c.raw_get::<Value>(1))
            .map_err(|e| from_lua_error(&e))?
            .is_nil();
        Ok(Sealed { table, bare })
    }

    /// Calls `f` (a function of the sealed script) with `args` in a fresh scratch environment,
    /// through the sandbox's message handler. Call it inside [`call`](Self::call) (or another
    /// `call*`), so it runs under that call's budget.
    ///
    /// # Errors
    /// The function raised an error or spent a budget (as the enclosing call reports it).
    pub fn call_sealed(
        &self,
        sealed: &Sealed,
        f: &Function,
        mut args: MultiValue,
    ) -> mlua::Result<Value> {
        if sealed.bare && args.len() <= crate::direct::MAX_ARGS as usize {
            return crate::direct::call(&self.lua, &self.api.fail, &self.api.raise, f, |raw| {
                for a in &args {
                    // SAFETY: `direct::call` made room for `MAX_ARGS` values.
                    unsafe { raw.push_value(a)? };
                }
                Ok(args.len() as i32)
            });
        }
        args.push_front(Value::Function(f.clone()));
        args.push_front(Value::Table(sealed.table.clone()));
        self.api.call_sealed.call(args)
    }

    /// [`call_sealed`](Self::call_sealed) for a hook: `f(game, moment)` where `moment` is a lazy
    /// table of `data`, made in Lua: scripts see a plain table whose fields the lazy fill
    /// function ([`set_lazy_fill`](Self::set_lazy_fill)) makes from `data` when a script first
    /// reads, writes or walks it.
    ///
    /// # Errors
    /// As [`call_sealed`](Self::call_sealed).
    pub fn call_hook(
        &self,
        sealed: &Sealed,
        f: &Function,
        game: Value,
        data: Value,
    ) -> mlua::Result<Value> {
        if sealed.bare {
            let hook = &self.api.hook_bare;
            return crate::direct::call(&self.lua, &self.api.fail, &self.api.raise, hook, |raw| {
                // SAFETY: `direct::call` made room for `MAX_ARGS` values.
                unsafe {
                    raw.push(f)?;
                    raw.push_value(&game)?;
                    raw.push_value(&data)?;
                }
                Ok(3)
            });
        }
        self.api
            .call_hook
            .call((sealed.table.clone(), f.clone(), game, data))
    }

    /// Makes `fill` the function lazy tables are filled in with: called with a lazy table's
    /// data, it returns the table whose fields the lazy one then takes.
    ///
    /// # Errors
    /// Lua could not run the setter (out of memory).
    pub fn set_lazy_fill(&self, fill: Function) -> mlua::Result<()> {
        self.api.set_lazy_fill.call(fill)
    }

    /// Compiles `source` (checked by the caller: text, not too large) into a factory: a
    /// function of `(_ENV, ...)` whose body is the script, so each call of it runs the top level
    /// with its own environment and its own locals (nothing is shared between runs).
    fn compile(&self, lua: &Lua, path: &str, source: &[u8]) -> mlua::Result<Compiled> {
        let name = format!("@{path}");
        // First as it is, for Lua's own syntax errors. A source that parses on its own parses
        // the same way as the body of the factory below: the parser reads the same tokens in
        // the same states, and what follows them (`end`, like the end of the source) ends a
        // block either way; the newline ends a trailing comment. So no script can close the
        // factory early and run code outside it.
        // Lua's compiler keeps a chunk's constants in a table of its own: not capped like a
        // script's tables (the source's size bounds it), or a script with more distinct strings
        // than `table_keys` would not load.
        let alloc = &self.budget.alloc;
        alloc.compiling(|| {
            lua.load(source)
                .set_name(name.clone())
                .set_mode(ChunkMode::Text)
                .into_function()
        })?;
        let mut wrapped = Vec::with_capacity(source.len() + 40);
        // On the first line, so every line keeps its number.
        wrapped.extend_from_slice(b"return function(_ENV, ...) ");
        wrapped.extend_from_slice(source);
        wrapped.extend_from_slice(b"\nend");
        let env = lua.create_table()?;
        let outer = alloc.compiling(|| {
            lua.load(wrapped)
                .set_name(name)
                .set_mode(ChunkMode::Text)
                .set_environment(env)
                .into_function()
        })?;
        let factory: Function = outer.call(())?;
        Ok(Compiled {
            path: path.to_string(),
            chunk: factory,
        })
    }

    /// Runs a compiled script's top level again, in a fresh environment built like the one
    /// [`load_script`](Self::load_script) gives (the whitelisted library and everything shared),
    /// and returns what the chunk returned. The chunk's locals are fresh too: every closure the
    /// run creates sees only this run's environment and locals.
    ///
    /// Call it inside [`call`](Self::call) (or another `call*`), so the top level runs under that
    /// call's budget, through the sandbox's message handler.
    ///
    /// # Errors
    /// The top level raised an error or spent a budget (as the enclosing call reports it).
    pub fn instantiate(&self, compiled: &Compiled) -> mlua::Result<MultiValue> {
        self.api
            .instantiate
            .call((self.shared.clone(), compiled.chunk.clone()))
    }

    /// Runs host code that calls into Lua under one per-call budget, with no RNG
    /// (`math.random` raises).
    ///
    /// A call nested in it (from inside `f`, or from a Rust callback a script called) has an
    /// instruction budget of its own; memory and call depth are shared by every call running.
    /// After the call, whatever happened, the budget is fresh for the next one.
    ///
    /// # Errors
    /// The error `f` returns, converted: a spent budget always wins over the error value a
    /// script let escape.
    pub fn call<R>(&self, f: impl FnOnce(&Lua) -> mlua::Result<R>) -> Result<R, ScriptError> {
        self.run(None, f)
    }

    /// [`call`](Self::call) with `rng` as the source of `math.random` for the duration of the
    /// call. `rng` must return uniformly random 64-bit values (e.g. the game's seeded
    /// ChaCha's `next_u64`).
    ///
    /// # Errors
    /// As [`call`](Self::call).
    pub fn call_with_rng<R>(
        &self,
        rng: &mut dyn FnMut() -> u64,
        f: impl FnOnce(&Lua) -> mlua::Result<R>,
    ) -> Result<R, ScriptError> {
        self.run(Some(rng), f)
    }

    /// Calls a script function under the budget, through the sandbox's message handler (so an
    /// error object that is a table is described without running unbudgeted code or showing
    /// an address).
    ///
    /// # Errors
    /// As [`call`](Self::call).
    pub fn call_function<R: FromLuaMulti>(
        &self,
        func: &Function,
        args: impl IntoLuaMulti,
    ) -> Result<R, ScriptError> {
        self.run(None, |lua| self.invoke(lua, func, args))
    }

    /// [`call_function`](Self::call_function) with `rng` as the source of `math.random`.
    ///
    /// # Errors
    /// As [`call`](Self::call).
    pub fn call_function_with_rng<R: FromLuaMulti>(
        &self,
        rng: &mut dyn FnMut() -> u64,
        func: &Function,
        args: impl IntoLuaMulti,
    ) -> Result<R, ScriptError> {
        self.run(Some(rng), |lua| self.invoke(lua, func, args))
    }

    /// The sandbox's trampoline: calling it with `(f, args...)` calls `f(args...)` and turns an
    /// error object that is not a string into a description. Use it as the body of threads the
    /// binder creates for behaviours that yield (`lua.create_thread(sandbox.invoker().clone())`),
    /// then resume them inside [`call`](Self::call).
    #[must_use]
    pub fn invoker(&self) -> &Function {
        &self.api.invoke
    }

    /// Sends every line scripts print to `sink` (instead of the default buffer).
    pub fn set_print_sink(&self, sink: impl FnMut(&PrintLine) + 'static) {
        self.print.replace(PrintSink::Custom(Box::new(sink)));
    }

    /// Takes the lines printed since the last call, when no sink is set. The buffer keeps at
    /// most 1 MiB of text; a final line says how many lines were dropped beyond that.
    pub fn take_prints(&self) -> Vec<PrintLine> {
        self.print.borrow_mut().take()
    }

    fn invoke<R: FromLuaMulti>(
        &self,
        lua: &Lua,
        func: &Function,
        args: impl IntoLuaMulti,
    ) -> mlua::Result<R> {
        let mut args = args.into_lua_multi(lua)?;
        args.push_front(Value::Function(func.clone()));
        self.api.invoke.call(args)
    }

    fn run<R>(
        &self,
        rng: Option<&mut dyn FnMut() -> u64>,
        f: impl FnOnce(&Lua) -> mlua::Result<R>,
    ) -> Result<R, ScriptError> {
        let rng = match rng {
            Some(r) => Rng::Scoped(r),
            None => Rng::None,
        };
        self.run_within(self.budget.limits.instructions, rng, f).0
    }

    /// [`call_with_rng`](Self::call_with_rng) with an instruction budget of at most `limit` for
    /// this call alone, also when it is nested in another: the instructions of the calls nested
    /// in it are theirs, not its. Returns the result and the instructions this call spent
    /// itself, for the caller to charge to a larger pool (a game step's).
    ///
    /// # Errors
    /// As [`call`](Self::call).
    pub fn call_within<R>(
        &self,
        limit: u64,
        f: impl FnOnce(&Lua) -> mlua::Result<R>,
    ) -> (Result<R, ScriptError>, u64) {
        self.run_within(limit, Rng::None, f)
    }

    /// Makes `draw` the source of `math.random` in every call from now on (unless a call gives
    /// its own with [`call_with_rng`](Self::call_with_rng)): a function that returns a uniformly
    /// random 64-bit integer, and raises when no game is running.
    ///
    /// # Errors
    /// Lua is out of memory.
    pub fn set_rng(&self, draw: &Function) -> mlua::Result<()> {
        self.slots.raw_set(RNG_SLOT, draw.clone())
    }

    fn run_within<R>(
        &self,
        limit: u64,
        rng: Rng<'_>,
        f: impl FnOnce(&Lua) -> mlua::Result<R>,
    ) -> (Result<R, ScriptError>, u64) {
        let outermost = self.nesting.get() == 0;
        if outermost {
            self.budget.reset();
            // Lua counts instructions to the next hook tick per thread, across calls: set the
            // count again, so that where this call's ticks (and so its budget's end) fall does
            // not depend on what ran before it (another game, the AI's look-ahead on a copy).
            if let Err(e) = restart_hook_count(&self.lua, &self.budget) {
                return (Err(setup(e)), 0);
            }
            // Only when `next` cached an order since (a raw read is cheaper than a call).
            let cached = crate::direct::raw_flag(&self.lua, &self.slots, CACHE_SLOT);
            if cached {
                if let Err(e) = self.api.new_call.call::<()>(()) {
                    return (Err(setup(e)), 0);
                }
            }
        }
        self.nesting.set(self.nesting.get() + 1);
        self.budget.enter_call(limit);
        let result = match rng {
            // Whatever source the sandbox has (`set_rng`), untouched.
            Rng::None => f(&self.lua),
            Rng::Scoped(rng) => self.lua.scope(|scope| {
                let draw = scope.create_function_mut(move |_, ()| {
                    Ok(i64::from_ne_bytes(rng().to_ne_bytes()))
                })?;
                // An integer key: a string key would be made (interned) again at every call.
                let previous: Value = self.slots.raw_get(RNG_SLOT)?;
                self.slots.raw_set(RNG_SLOT, draw)?;
                let result = f(&self.lua);
                let restored = self.slots.raw_set(RNG_SLOT, previous);
                let value = result?;
                restored?;
                Ok(value)
            }),
        };
        self.nesting.set(self.nesting.get() - 1);
        let left = self.budget.leave_call();
        // This call's own instruction budget, or the state's memory or depth (which end every
        // call running).
        let spent = self.budget.state_spent().or(left.spent);
        let result = match result {
            // A budget spent inside (right before returning, or the state's by a nested call
            // whose error a script could not see) ends this call too.
            Ok(_) if spent.is_some() => {
                let spent = spent.map(|e| ScriptError::from_budget(&e));
                Err(spent.map_or_else(|| ScriptError::host("budget spent"), |e| self.fill(e)))
            }
            Ok(v) => Ok(v),
            // The call failed where its first error escaped the script: what a `<close>`
            // handler raised while it unwound does not move the failure.
            Err(err) => match left.failure {
                Some(f) if spent.is_none() => Err(self.classify(&mlua::Error::external(f), None)),
                _ => Err(self.classify(&err, spent)),
            },
        };
        if outermost {
            let out_of_memory = matches!(&result, Err(e) if e.kind() == ErrorKind::MemoryBudget);
            self.budget.reset();
            if out_of_memory {
                // Free what the aborted call left behind; nothing here runs script code (the
                // sandbox refuses __gc), and a failure only means memory stays tight.
                let _ = self.lua.gc_collect();
                self.budget.reset();
            }
        }
        (result, left.used)
    }

    /// Converts an error from a call: a spent budget wins over whatever error value escaped.
    /// A budget error the budget does not know yet (Lua's own "stack overflow" or "not enough
    /// memory" reaching the host directly) spends that budget now, so the calls around this one
    /// (a behaviour that revealed the Blip whose behaviour this was) end too, through any
    /// `pcall`.
    fn classify(&self, err: &mlua::Error, spent: Option<BudgetError>) -> ScriptError {
        let converted = match &spent {
            Some(spent) => ScriptError::from_budget(spent),
            None => from_lua_error(err),
        };
        let filled = self.fill(converted);
        if filled.is_budget() && filled.kind() != ErrorKind::InstructionBudget && spent.is_none() {
            let kind = match filled.kind() {
                ErrorKind::MemoryBudget => Exhausted::Memory,
                _ => Exhausted::Depth,
            };
            let detail = match &filled {
                ScriptError::MemoryBudget { detail, .. } => Some(detail.clone()),
                _ => None,
            };
            self.budget.exhaust(kind, filled.location(), detail);
        }
        filled
    }

    /// Fills in what only the sandbox knows: the limits of budget errors, full paths.
    fn fill(&self, converted: ScriptError) -> ScriptError {
        let limits = self.budget.limits;
        match converted {
            ScriptError::MemoryBudget {
                limit: 0, location, ..
            } => {
                let detail = self.budget.cap_detail().unwrap_or_else(|| {
                    format!(
                        "the scripts' Lua state may use at most {} bytes",
                        limits.memory_bytes
                    )
                });
                ScriptError::MemoryBudget {
                    limit: limits.memory_bytes,
                    detail,
                    location: self.full_path(location),
                }
            }
            ScriptError::DepthBudget { limit: 0, location } => ScriptError::DepthBudget {
                limit: limits.call_depth,
                location: self.full_path(location),
            },
            ScriptError::Runtime {
                message,
                location,
                traceback,
            } => ScriptError::Runtime {
                message,
                location: self.full_path(location),
                traceback,
            },
            other => other,
        }
    }

    /// Lua shortens long chunk names in messages to `...tail`; map them back to a loaded path.
    fn full_path(&self, location: Option<Location>) -> Option<Location> {
        let mut location = location?;
        if let Some(tail) = location.path.strip_prefix("...") {
            let paths = self.paths.borrow();
            let mut matches = paths.iter().filter(|p| p.ends_with(tail));
            if let (Some(only), None) = (matches.next(), matches.next()) {
                location.path.clone_from(only);
            }
        }
        Some(location)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `string.find/match/gmatch/gsub` over (subject, pattern) pairs; one line per result.
    const PROBE: &str = r#"
      local cases = ...
      local out = {}
      local function show(...)
        local t = table.pack(...)
        for i = 1, t.n do t[i] = tostring(t[i]) end
        return table.concat(t, ",", 1, t.n)
      end
      local function strip(e)
        e = tostring(e)
        return e:match("^[^\n]-:%d+: (.*)$") or e
      end
      local function try(label, f)
        local ok, r = pcall(f)
        out[#out + 1] = label .. ":" .. (ok and r or ("error " .. strip(r)))
      end
      local tbl = setmetatable({}, { __index = function(_, k) return "T" .. tostring(k) end })
      for i = 1, #cases, 2 do
        local s, p = cases[i], cases[i + 1]
        out[#out + 1] = "case " .. s .. " " .. p
        try("find", function() return show(string.find(s, p)) end)
        try("find3", function() return show(string.find(s, p, 3)) end)
        try("findneg", function() return show(s:find(p, -4)) end)
        try("plain", function() return show(string.find(s, p, 1, true)) end)
        try("match", function() return show(string.match(s, p)) end)
        try("match2", function() return show(s:match(p, 2)) end)
        try("gmatch", function()
          local acc = {}
          for a, b in string.gmatch(s, p) do
            acc[#acc + 1] = tostring(a) .. "/" .. tostring(b)
            if #acc > 40 then break end
          end
          return table.concat(acc, ";")
        end)
        try("gsub", function() return show(string.gsub(s, p, "<%0>")) end)
        try("gsub1", function() return show(string.gsub(s, p, "%1-%%")) end)
        try("gsubf", function()
          return show(string.gsub(s, p, function(...) return "[" .. select('#', ...) .. "]" end))
        end)
        try("gsubt", function() return show(string.gsub(s, p, tbl, 2)) end)
        try("gsubfalse", function() return show(s:gsub(p, function() return false end)) end)
      end
      return table.concat(out, "\n")
    "#;

    fn cases() -> Vec<String> {
        let subjects = [
            "",
            "a",
            "hello world",
            "aaab",
            "f(a(b)c)d",
            "THE (quick) fox",
            "key = value",
            "x1 y22 z333",
            "a.b-c",
            "  trim  ",
            "^$",
            "%a",
            "abcabc",
            "\0a\0b",
            "[x]",
        ];
        let tokens = [
            "a", "b", ".", "%a", "%d", "%s", "%w", "[ab]", "[^a]", "[a-c]", "[%]x]", "*", "+", "-",
            "?", "(", ")", "()", "%1", "^", "$", "%b()", "%f[%w]", "%", "[", "x", " ", "%.", "%%",
            "=",
        ];
        let mut seed: u64 = 0x5eed;
        let mut next = move |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(seed >> 33).unwrap_or(0) % n
        };
        let mut out = Vec::new();
        for fixed in [
            ("hello world", "o w"),
            ("hello", "l+"),
            ("hello", "^h.-l"),
            ("f(a(b)c)d", "%b()"),
            ("THE (quick) fox", "%f[%a]%a+"),
            ("abcabc", "(abc)%1"),
            ("x = 12", "%d+$"),
            ("key = value", "(%w+)%s*=%s*()(%w+)"),
            ("abc", "(a"),
            ("abc", "a)"),
            ("abc", "%"),
            ("abc", "[a"),
            ("abc", "%f"),
            ("abc", "%b"),
            (
                "abc",
                "((((((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))))))",
            ),
        ] {
            out.push(fixed.0.to_string());
            out.push(fixed.1.to_string());
        }
        for _ in 0..600 {
            let subject = subjects[next(subjects.len())];
            let len = 1 + next(5);
            let pattern: String = (0..len).map(|_| tokens[next(tokens.len())]).collect();
            out.push(subject.to_string());
            out.push(pattern);
        }
        out
    }

    fn run_probe(lua: &Lua, call: impl FnOnce(&Function, Table) -> mlua::Result<String>) -> String {
        let list = lua.create_table().expect("table");
        for (i, s) in cases().iter().enumerate() {
            list.raw_set(i + 1, lua.create_string(s).expect("string"))
                .expect("set");
        }
        let f = lua
            .load(PROBE)
            .set_name("@probe.lua")
            .into_function()
            .expect("probe");
        call(&f, list).expect("probe runs")
    }

    #[test]
    fn pattern_functions_match_lua_exactly() {
        let reference = Lua::new();
        let expected = run_probe(&reference, |f, cases| f.call(cases));

        let sandbox = Sandbox::new(Limits {
            instructions: 1_000_000_000,
            string_bytes: 1024 * 1024,
            table_keys: 8192,
            ..Limits::default()
        })
        .expect("sandbox");
        let script = sandbox
            .load_script("probe.lua", &format!("return function(...) {PROBE} end"))
            .expect("probe loads");
        let Value::Function(probe) = script.value else {
            panic!("probe returns a function")
        };
        let got = run_probe(sandbox.lua(), |_, cases| {
            sandbox
                .call_function::<String>(&probe, cases)
                .map_err(|e| mlua::Error::runtime(e.to_string()))
        });
        for (line, (want, have)) in expected.lines().zip(got.lines()).enumerate() {
            assert_eq!(have, want, "line {line} differs");
        }
        assert_eq!(expected.lines().count(), got.lines().count());
    }
}

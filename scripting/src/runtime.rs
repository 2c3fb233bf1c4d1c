//! The scripting runtime: one sandboxed Lua state for all of a game's scripts, the live
//! definition of every Lua behaviour by id, and [`LuaBehaviour`], which lets the core call a
//! Lua behaviour exactly as it calls a native one.

use crate::api::blip::KnownTypes;
use crate::api::call::Calls;
use crate::api::game::GameRef;
use crate::api::globals::{invalid, returned, DefKind, Definition};
use crate::api::shape::{self, BEHAVIOUR_DEF};
use crate::api::unit::UnitRef;
use crate::api::{self, args::as_int};
use crate::problem::Problem;
use crate::{Limits, Sandbox, ScriptError, Sealed};
use mlua::{AnyUserData, Function, MultiValue, Value};
use overmind_core::trigger::{Hook, Owner};
use overmind_core::{AlienType, Behaviour, BehaviourCtx, BehaviourError, Rules};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

mod cards;
mod triggers;

pub use cards::{CardFile, LuaPlay};
pub use triggers::{AbilityDef, HookSet, LuaTrigger, RuleDef, TokenDef};

/// One behaviour as its script defines it: the card and the `perform` function.
#[derive(Clone)]
pub struct BehaviourDef {
    /// The id alien types list it by.
    pub id: String,
    /// The name on the card, e.g. `"RUSH"`.
    pub name: String,
    /// The card's rule text.
    pub text: String,
    /// Most squares one model may move during the behaviour; `None` = its Movement.
    pub max_move: Option<u32>,
    /// The script it came from.
    pub path: PathBuf,
    /// It defines `ai_score`, the look-ahead AI's hint.
    pub has_ai_score: bool,
    script: Loaded,
}

/// A definition script as every call runs it: its top level ran once, when it loaded, and
/// it is sealed (`Sandbox::seal`), so each call runs one function of its definition in a fresh
/// scratch environment and nothing of one call reaches the next.
#[derive(Clone)]
pub(crate) struct Loaded {
    kind: DefKind,
    path: PathBuf,
    /// The line of `behaviour { ... }` (or the other definitions), for errors of later runs.
    line: u32,
    /// The functions of the definition a call may run, read once: `perform`, `ai_score`,
    /// `play`, and each hook of `on`.
    entries: Vec<Entry>,
    sealed: Sealed,
}

/// One function of a definition a call may run.
#[derive(Clone)]
struct Entry {
    hook: Option<Hook>,
    name: &'static str,
    f: Function,
    /// Whether it can receive a hook's second argument, the `moment` (two parameters or more,
    /// or `...`): one that cannot is called without it, so no moment table is made for it.
    takes_moment: bool,
}

impl Entry {
    fn new(hook: Option<Hook>, name: &'static str, f: Function) -> Entry {
        let info = f.info();
        let takes_moment = info.num_params >= 2 || info.is_vararg;
        Entry {
            hook,
            name,
            f,
            takes_moment,
        }
    }
}

impl Loaded {
    pub(crate) fn new(kind: DefKind, path: &Path, def: &Definition, sealed: Sealed) -> Loaded {
        let mut entries = Vec::new();
        for name in ["perform", "ai_score", "play", "resolution"] {
            if let Ok(Value::Function(f)) = def.table.raw_get::<Value>(name) {
                entries.push(Entry::new(None, name, f));
            }
        }
        if let Ok(Value::Table(on)) = def.table.raw_get::<Value>("on") {
            for hook in Hook::ALL {
                if let Ok(Value::Function(f)) = on.raw_get::<Value>(hook.name()) {
                    entries.push(Entry::new(Some(hook), "on", f));
                }
            }
        }
        Loaded {
            kind,
            path: path.to_path_buf(),
            line: def.line,
            entries,
            sealed,
        }
    }
}

impl std::fmt::Debug for BehaviourDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BehaviourDef")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("max_move", &self.max_move)
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// One Lua state for all of a game's scripts (each script in its own sandboxed environment),
/// plus the current definition of every behaviour by id. Behaviours look their definition up
/// at each call, so a hot reload swaps the code for the next call without touching the game.
pub struct ScriptHost {
    defs: RefCell<BTreeMap<String, Rc<BehaviourDef>>>,
    known: Rc<KnownTypes>,
    calls: Rc<Calls>,
    game: AnyUserData,
    /// The running hook calls' moments, for their lazy `moment` tables.
    moments: Rc<triggers::Moments>,
    // Last, so every Lua value above is released before the state closes.
    sandbox: Sandbox,
}

impl std::fmt::Debug for ScriptHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptHost")
            .field("behaviours", &self.defs.borrow().keys().collect::<Vec<_>>())
            .field("sandbox", &self.sandbox)
            .finish_non_exhaustive()
    }
}

fn chunk_name(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn setup(e: &mlua::Error) -> ScriptError {
    ScriptError::host(format!("setting up the Lua API failed: {e}"))
}

impl ScriptHost {
    /// A host whose budgets are the rules' `lua_instructions`, `lua_memory_mib` and
    /// `lua_call_depth`.
    ///
    /// # Errors
    /// The limits are unusable or the Lua state cannot be set up.
    pub fn new(rules: &Rules) -> Result<Rc<ScriptHost>, ScriptError> {
        let memory = rules.lua_memory_mib.saturating_mul(1024 * 1024);
        let limits = Limits {
            instructions: rules.lua_instructions,
            memory_bytes: usize::try_from(memory).unwrap_or(usize::MAX),
            call_depth: rules.lua_call_depth,
            ..Limits::default()
        };
        Self::with_limits(limits)
    }

    /// A host with explicit sandbox limits.
    ///
    /// # Errors
    /// The limits are unusable or the Lua state cannot be set up.
    pub fn with_limits(limits: Limits) -> Result<Rc<ScriptHost>, ScriptError> {
        let sandbox = Sandbox::new(limits)?;
        let calls = Rc::new(Calls::new(sandbox.budget()));
        let known = Rc::new(KnownTypes::default());
        let lua = sandbox.lua();
        lua.set_app_data(Rc::clone(&calls));
        lua.set_app_data(Rc::clone(&known));
        api::register_all(&sandbox)?;
        let game = lua.create_any_userdata(GameRef).map_err(|e| setup(&e))?;
        // `math.random` in a call draws from the game's RNG through the running call's context
        // (`api::call`), like any API function: made once, not per call.
        let running = Rc::clone(&calls);
        let draw = lua
            .create_function(move |lua, ()| {
                if !running.is_running() {
                    return Err(mlua::Error::runtime(
                        "math.random is only available while the game is running (it draws from \
                         the game's seeded RNG, which a script's top level does not have)",
                    ));
                }
                api::call::with_ctx(lua, |_, ctx| {
                    Ok(i64::from_ne_bytes(ctx.random_u64().to_ne_bytes()))
                })
            })
            .map_err(|e| setup(&e))?;
        // There for good: it raises while no call runs, as an empty slot would.
        sandbox.set_rng(&draw).map_err(|e| setup(&e))?;
        let moments = Rc::new(triggers::Moments::default());
        let settle = Rc::clone(&moments);
        calls.set_before(Box::new(move |ctx| settle.settle(ctx)));
        let fill = triggers::moment_fill(lua, Rc::clone(&moments)).map_err(|e| setup(&e))?;
        sandbox.set_lazy_fill(fill).map_err(|e| setup(&e))?;
        Ok(Rc::new(ScriptHost {
            moments,
            defs: RefCell::new(BTreeMap::new()),
            known,
            calls,
            game,
            sandbox,
        }))
    }

    /// The sandbox the scripts run in (prints, memory use, limits).
    #[must_use]
    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    /// Compiles and runs a behaviour script in a fresh environment and checks what it returns
    /// (`behaviour { ... }` with `id`, `name`, `text`, optional `max_move`, `perform`). Does
    /// not install it.
    ///
    /// # Errors
    /// Syntax errors, errors and spent budgets of the script's top level, and the first way
    /// the definition breaks its shape, at `path:line`; [`check_behaviour`](Self::check_behaviour)
    /// gives every one.
    pub fn load_behaviour(&self, path: &Path, source: &str) -> Result<BehaviourDef, ScriptError> {
        self.read_behaviour(path, source)
            .map_err(|b| b.first(path, source))
    }

    /// [`load_behaviour`](Self::load_behaviour), with every problem of the file: each field
    /// that is missing, bad or unknown is its own problem at its `path:line:column`.
    ///
    /// # Errors
    /// Every problem, in file order (a script that does not compile or run is one).
    pub fn check_behaviour(&self, path: &Path, source: &str) -> Result<BehaviourDef, Vec<Problem>> {
        self.read_behaviour(path, source)
            .map_err(|b| b.problems(path, source))
    }

    fn read_behaviour(&self, path: &Path, source: &str) -> Result<BehaviourDef, Broken> {
        let (sealed, def) = self.read_def(path, source, DefKind::Behaviour, &BEHAVIOUR_DEF)?;
        let t = &def.table;
        let text = |k: &str| crate::alien::text(t, k);
        let max_move = t
            .raw_get::<Value>("max_move")
            .ok()
            .and_then(|v| as_int(&v))
            .and_then(|n| u32::try_from(n).ok());
        if !matches!(t.raw_get::<Value>("perform"), Ok(Value::Function(_))) {
            let bad = shape::Invalid::new(vec!["perform".into()], "perform must be a function");
            return Err(Broken::Invalid {
                def,
                problems: vec![bad],
                lists: Vec::new(),
            });
        }
        Ok(BehaviourDef {
            id: text("id"),
            name: text("name"),
            text: text("text"),
            max_move,
            path: path.to_path_buf(),
            has_ai_score: matches!(t.raw_get::<Value>("ai_score"), Ok(Value::Function(_))),
            script: Loaded::new(DefKind::Behaviour, path, &def, sealed),
        })
    }

    /// Makes `def` the live definition of its id (new or replacing) and returns the core
    /// behaviour object to put in `Content`. Every object for an id keeps working across later
    /// installs of the same id: it runs whatever definition is live at each call.
    pub fn install_behaviour(self: &Rc<Self>, def: BehaviourDef) -> Rc<dyn Behaviour> {
        let id = def.id.clone();
        self.defs.borrow_mut().insert(id.clone(), Rc::new(def));
        Rc::new(LuaBehaviour {
            host: Rc::clone(self),
            id,
        })
    }

    /// Compiles and runs an alien type script (it returns `alien_type { ... }`), checks it and
    /// converts it. The host remembers the type, to answer scripts that read a revealed Blip's
    /// type stats.
    ///
    /// # Errors
    /// As [`load_behaviour`](Self::load_behaviour), and numbers out of range or unknown
    /// effect names, at the line of the offending field; the first problem only
    /// ([`check_alien`](Self::check_alien) gives every one).
    pub fn load_alien(&self, path: &Path, source: &str) -> Result<AlienType, ScriptError> {
        self.load_alien_type(path, source).map(|(t, _)| t)
    }

    /// [`load_alien`](Self::load_alien), with the type's triggers (its `on = { ... }`), if
    /// it has any.
    ///
    /// # Errors
    /// As [`load_alien`](Self::load_alien).
    pub fn load_alien_type(
        &self,
        path: &Path,
        source: &str,
    ) -> Result<(AlienType, Option<HookSet>), ScriptError> {
        self.read_alien(path, source)
            .map_err(|b| b.first(path, source))
    }

    /// [`load_alien`](Self::load_alien), with every problem of the file, each at its
    /// `path:line:column`.
    ///
    /// # Errors
    /// Every problem in file order, and the behaviours the type lists when that list is itself
    /// fine, so that a pack checks those too in the same run.
    pub fn check_alien(&self, path: &Path, source: &str) -> Result<AlienType, BrokenAlien> {
        self.check_alien_type(path, source).map(|(t, _)| t)
    }

    /// [`check_alien`](Self::check_alien), with the type's triggers, if it has any.
    ///
    /// # Errors
    /// As [`check_alien`](Self::check_alien).
    pub fn check_alien_type(
        &self,
        path: &Path,
        source: &str,
    ) -> Result<(AlienType, Option<HookSet>), BrokenAlien> {
        self.read_alien(path, source).map_err(|b| {
            let behaviours = match &b {
                Broken::Invalid { lists, .. } => lists.clone(),
                Broken::Script(_) => Vec::new(),
            };
            BrokenAlien {
                problems: b.problems(path, source),
                behaviours,
            }
        })
    }

    /// Compile and run a definition script in a fresh environment: the definition of `kind`
    /// it returns.
    fn run_def(
        &self,
        path: &Path,
        source: &str,
        kind: DefKind,
    ) -> Result<(Sealed, Definition), Broken> {
        let name = chunk_name(path);
        let script = self
            .sandbox
            .load_script(&name, source)
            .map_err(Broken::Script)?;
        let def = returned(&script.value, kind, &name, source).map_err(Broken::Script)?;
        let sealed = self
            .sandbox
            .seal(&script, &def.table)
            .map_err(Broken::Script)?;
        Ok((sealed, def))
    }

    /// [`run_def`](Self::run_def), the definition checked against `shape`.
    fn read_def(
        &self,
        path: &Path,
        source: &str,
        kind: DefKind,
        shape: &shape::Shape,
    ) -> Result<(Sealed, Definition), Broken> {
        let (script, def) = self.run_def(path, source, kind)?;
        let problems = shape::check(&def.table, shape, &[]);
        if !problems.is_empty() {
            return Err(Broken::Invalid {
                def,
                problems,
                lists: Vec::new(),
            });
        }
        Ok((script, def))
    }

    fn read_alien(
        &self,
        path: &Path,
        source: &str,
    ) -> Result<(AlienType, Option<HookSet>), Broken> {
        let (script, def) = self.run_def(path, source, DefKind::AlienType)?;
        let converted = crate::alien::convert(&def.table);
        if !converted.problems.is_empty() {
            let lists = if converted.broken("behaviours") {
                Vec::new()
            } else {
                converted.alien.behaviours.clone()
            };
            return Err(Broken::Invalid {
                def,
                problems: converted.problems,
                lists,
            });
        }
        let alien = converted.alien;
        let owner = Owner::Alien(overmind_core::Id::from(alien.id.as_str()));
        let hooks = Some(HookSet::read(&script, &def, path, owner)).filter(|h| !h.hooks.is_empty());
        self.known
            .0
            .borrow_mut()
            .insert(alien.id.clone(), alien.clone());
        Ok((alien, hooks))
    }

    /// Is a behaviour of this id installed?
    #[must_use]
    pub fn has_behaviour(&self, id: &str) -> bool {
        self.defs.borrow().contains_key(id)
    }

    /// The live definition of a behaviour.
    #[must_use]
    pub fn definition(&self, id: &str) -> Option<Rc<BehaviourDef>> {
        self.defs.borrow().get(id).cloned()
    }

    /// Runs the live definition of behaviour `id` for `ctx.unit()`.
    ///
    /// The sealed script's `perform(unit, game)` runs in a fresh global table (nothing of an
    /// earlier call reaches it: see `Sandbox::seal`), under the sandbox's budgets, with
    /// `math.random` drawing from the game's RNG. API functions reach `ctx` only during this
    /// call, through `Calls::within` (see `api::call`). `game.storage`, if the call read it,
    /// is checked and written back to the game state when the call ends, however it ends.
    ///
    /// # Errors
    /// The script raised an error (an illegal action, a bad argument, its own `error`), spent
    /// a budget, or left something in `game.storage` that is not a plain value; the message
    /// starts with the script's `path:line` where it is known.
    pub fn perform(&self, id: &str, ctx: &mut BehaviourCtx<'_, '_>) -> Result<(), BehaviourError> {
        self.run_entry(id, ctx, "perform").map(|_| ())
    }

    /// The behaviour's `ai_score(unit, game)`, if it has one: run like [`ScriptHost::perform`]
    /// (the look-ahead AI hands it a throw-away copy of the game). `None` when the behaviour
    /// has no `ai_score`, or it failed or returned something other than a finite number.
    pub fn ai_score(&self, id: &str, ctx: &mut BehaviourCtx<'_, '_>) -> Option<f64> {
        let def = self.definition(id)?;
        if !def.has_ai_score {
            return None;
        }
        match self.run_entry(id, ctx, "ai_score") {
            Ok(Value::Integer(n)) => Some(n as f64),
            Ok(Value::Number(x)) if x.is_finite() => Some(x),
            _ => None,
        }
    }

    /// Run the sealed script's function `entry(unit, game)`.
    fn run_entry(
        &self,
        id: &str,
        ctx: &mut BehaviourCtx<'_, '_>,
        entry: &'static str,
    ) -> Result<Value, BehaviourError> {
        let def = self
            .definition(id)
            .ok_or_else(|| BehaviourError::new(format!("behaviour {id} is not loaded")))?;
        let unit_id = ctx.unit().to_string();
        let unit = UnitRef::of(ctx, &unit_id)
            .ok_or_else(|| BehaviourError::new(format!("no unit {unit_id} to perform {id}")))?;
        let args = |lua: &mlua::Lua, game: &AnyUserData| {
            let unit = lua.create_any_userdata(unit)?;
            Ok(MultiValue::from_iter([
                Value::UserData(unit),
                Value::UserData(game.clone()),
            ]))
        };
        self.run_script(&def.script, ctx, None, entry, None, args)
    }

    /// One call into a definition script, as behaviours and triggers make it: the function
    /// `pick` finds in its sealed definition is called with `args` in a fresh global table,
    /// under the sandbox's budgets, with
    /// `math.random` drawing from the game's RNG. API functions reach `ctx` only during this
    /// call, through `Calls::within` (see `api::call`). `game.storage`, if the call
    /// read it, is checked and written back to the game state when the call ends, however it
    /// ends. `hook` is the trigger's hook (none for a behaviour), which some API functions
    /// depend on; `entry` names the function in messages (`on`, with the hook, for triggers).
    fn run_script(
        &self,
        script: &Loaded,
        ctx: &mut BehaviourCtx<'_, '_>,
        hook: Option<Hook>,
        entry: &str,
        moment: Option<i64>,
        args: impl FnOnce(&mlua::Lua, &AnyUserData) -> mlua::Result<MultiValue>,
    ) -> Result<Value, BehaviourError> {
        // A step whose pool is spent runs nothing more: not even the first instructions before
        // the budget's first check, which can be slow ones (docs/SANDBOX.md).
        if ctx.step_instructions_left() == 0 {
            return Err(BehaviourError::new(format!(
                "{}: instruction budget exhausted: this game step's scripts had 0 instructions \
                 left for this call (`lua_step_instructions` in rules.toml)",
                script.path.display()
            )));
        }
        let storage = self.calls.enter_storage(ctx.behaviour(), hook);
        let cell = RefCell::new(ctx);
        let calls = &self.calls;
        let sandbox = &self.sandbox;
        // Each call has a budget of its own, cut to what its step has left: what a call nested
        // in this one spends (a face-down card's hook inside a public token's) is not this
        // call's, and each is charged to its own step pool (docs/SANDBOX.md).
        let limit = cell.try_borrow().map_or(0, |c| c.step_instructions_left());
        let (result, used) = self.sandbox.call_within(limit, |lua| {
            calls.within(&cell, || {
                let e = entry_of(script, entry, hook)?;
                let f = &e.f;
                match moment {
                    Some(index) if e.takes_moment => sandbox.call_hook(
                        &script.sealed,
                        f,
                        Value::UserData(self.game.clone()),
                        Value::Integer(index),
                    ),
                    // The hook cannot receive its moment: the moment is not made.
                    Some(_) => sandbox.call_sealed(
                        &script.sealed,
                        f,
                        MultiValue::from_iter([Value::UserData(self.game.clone())]),
                    ),
                    None => sandbox.call_sealed(&script.sealed, f, args(lua, &self.game)?),
                }
            })
        });
        let table = storage.table();
        drop(storage);
        let ctx = cell.into_inner();
        ctx.spend_step_instructions(used);
        let kept = match table {
            Some(t) => keep_storage(script, &t, ctx).err(),
            None => None,
        };
        // A spent instruction budget is this call's alone; a spent memory or depth budget is
        // the whole outermost call's, so the behaviours around this one end too.
        let (value, failed) = match result {
            Ok(v) => (v, None),
            Err(e) => (
                Value::Nil,
                Some(e.or_in(&script.path.to_string_lossy()).to_string()),
            ),
        };
        match (failed, kept) {
            (None, None) => Ok(value),
            (Some(e), None) => Err(BehaviourError::new(e)),
            (None, Some(k)) => Err(BehaviourError::new(k)),
            (Some(e), Some(k)) => Err(BehaviourError::new(format!("{e}; and {k}"))),
        }
    }
}

impl ScriptHost {
    /// Whether `script`'s definition has a `resolution` function (docs/RULES.md §16.3).
    pub(crate) fn has_resolution(script: &Loaded) -> bool {
        entry_of(script, "resolution", None).is_ok()
    }

    /// Call `script`'s `resolution(r)` with the table `make` builds, under a per-call budget
    /// of `instructions` and the sandbox's memory and depth limits, outside any game (the
    /// API's game functions and `math.random` are not there); `read` reads the table back.
    ///
    /// # Errors
    /// The call failed or spent a budget, or `read` refused the table: the message names the
    /// script.
    pub(crate) fn run_resolution<T>(
        &self,
        script: &Loaded,
        instructions: u64,
        make: impl FnOnce(&mlua::Lua) -> mlua::Result<mlua::Table>,
        read: impl FnOnce(&mlua::Table) -> Result<T, String>,
    ) -> Result<T, String> {
        let sandbox = &self.sandbox;
        let (result, _) = sandbox.call_within(instructions, |lua| {
            let e = entry_of(script, "resolution", None)?;
            let r = make(lua)?;
            sandbox.call_sealed(
                &script.sealed,
                &e.f,
                MultiValue::from_iter([Value::Table(r.clone())]),
            )?;
            Ok(r)
        });
        match result {
            Ok(r) => read(&r).map_err(|m| format!("{}: {m}", script.path.display())),
            Err(e) => Err(e.or_in(&script.path.to_string_lossy()).to_string()),
        }
    }
}

/// An alien type script that did not load.
#[derive(Clone, Debug)]
pub struct BrokenAlien {
    /// Every problem of the file, in file order.
    pub problems: Vec<Problem>,
    /// The ids of the behaviours it lists, when that list is itself fine (else none).
    pub behaviours: Vec<String>,
}

/// A definition script that did not load.
enum Broken {
    /// It does not compile or run, or returns no definition.
    Script(ScriptError),
    /// Its definition breaks its shape, in each of these ways; `lists` holds the behaviours
    /// an alien type lists when that list is fine.
    Invalid {
        def: Definition,
        problems: Vec<shape::Invalid>,
        lists: Vec<String>,
    },
}

impl Broken {
    /// The first problem, as the error `load_*` return.
    fn first(self, path: &Path, source: &str) -> ScriptError {
        match self {
            Broken::Script(e) => e,
            Broken::Invalid { def, problems, .. } => match problems.first() {
                Some(bad) => invalid(&def, &chunk_name(path), source, bad),
                None => ScriptError::host("a definition was refused without a reason"),
            },
        }
    }

    /// Every problem, each at its field, in file order.
    fn problems(self, path: &Path, source: &str) -> Vec<Problem> {
        match self {
            Broken::Script(e) => vec![crate::pack::script_problem(path, source, &e)],
            Broken::Invalid { def, problems, .. } => {
                let mut out: Vec<Problem> = problems
                    .iter()
                    .map(|bad| {
                        let (line, column) = shape::position(source, def.line, bad);
                        let message = format!("{}: {}", def.kind.function(), bad.message);
                        Problem::new(path, line, column, message)
                    })
                    .collect();
                out.sort_by_key(|p| (p.line, p.column));
                out
            }
        }
    }
}

/// The function `entry` (with `hook`, for `on`) of the script's definition.
fn entry_of<'a>(script: &'a Loaded, entry: &str, hook: Option<Hook>) -> mlua::Result<&'a Entry> {
    script
        .entries
        .iter()
        .find(|e| e.hook == hook && e.name == entry)
        .ok_or_else(|| {
            mlua::Error::runtime(format!(
                "{}:{}: the script's `{} {{ ... }}` has no function {entry}{}",
                script.path.display(),
                script.line.max(1),
                script.kind.function(),
                hook.map_or(String::new(), |h| format!(".{}", h.name())),
            ))
        })
}

/// Write a call's `game.storage` back to the game, or say why it cannot be kept (the game's
/// storage then keeps its earlier value).
fn keep_storage(
    def: &Loaded,
    table: &mlua::Table,
    ctx: &mut BehaviourCtx<'_, '_>,
) -> Result<(), String> {
    let kept = match crate::api::storage::from_lua(table) {
        Ok(value) => ctx.set_storage(value).map_err(|e| e.message),
        Err(bad) => Err(match bad.at {
            Some((path, line)) => format!("{path}:{line}: {}", bad.message),
            None => format!("{}: {}", def.path.display(), bad.message),
        }),
    };
    kept.map_err(|m| format!("{m}; the storage is left as it was before this call"))
}

/// A Lua behaviour as the core sees it: an id whose live definition is looked up at each call.
pub struct LuaBehaviour {
    host: Rc<ScriptHost>,
    id: String,
}

impl std::fmt::Debug for LuaBehaviour {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LuaBehaviour")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl LuaBehaviour {
    /// The behaviour's id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }
}

impl Behaviour for LuaBehaviour {
    fn name(&self) -> String {
        self.host
            .definition(&self.id)
            .map_or_else(|| self.id.clone(), |d| d.name.clone())
    }

    fn max_move(&self) -> Option<u32> {
        self.host.definition(&self.id).and_then(|d| d.max_move)
    }

    fn perform(&self, ctx: &mut BehaviourCtx<'_, '_>) -> Result<(), BehaviourError> {
        self.host.perform(&self.id, ctx)
    }

    fn ai_score(&self, ctx: &mut BehaviourCtx<'_, '_>) -> Option<f64> {
        self.host.ai_score(&self.id, ctx)
    }

    fn has_ai_score(&self) -> bool {
        self.host
            .definition(&self.id)
            .is_some_and(|d| d.has_ai_score)
    }
}

//! Triggers in Lua (docs/RULES.md §14): the hooks of `token { ... }`, `ability { ... }`,
//! `trigger { ... }` and an alien type's `on = { ... }`, read into the core's token kinds and
//! [`TriggerDef`]s, and [`LuaTrigger`], which runs a hook's function when the core fires it
//! exactly as a behaviour runs: the same sandbox, budgets, `game.storage` (one per script id),
//! failure semantics and `path:line` messages.

use super::{Broken, Loaded, ScriptHost};
use crate::alien::text;
use crate::api::args;
use crate::api::build::MomentFields;
use crate::api::game::{token_class, token_table};
use crate::api::globals::{DefKind, Definition};
use crate::api::shape::{ABILITY_DEF, TOKEN_DEF, TRIGGER_DEF};
use crate::api::unit::UnitRef;
use crate::problem::Problem;
use crate::ScriptError;
use mlua::{Lua, MultiValue, Table, Value};
use overmind_core::event::AttackKind;
use overmind_core::token::{Token, TokenClass, TokenKind};
use overmind_core::trigger::{Hook, Moment, Owner, Trigger, TriggerDef};
use overmind_core::{BehaviourCtx, BehaviourError, Id, ModelInfo, Pos, Side};
use std::path::Path;
use std::rc::Rc;

/// One script's triggers: what its `on = { ... }` acts at, and for what.
#[derive(Clone)]
pub struct HookSet {
    /// The script's id: the log names it, and `game.storage` is this id's.
    pub id: String,
    /// What its triggers fire for.
    pub owner: Owner,
    /// The hooks its `on` table defines, in [`Hook::ALL`] order.
    pub hooks: Vec<Hook>,
    pub(super) script: Loaded,
}

impl std::fmt::Debug for HookSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HookSet")
            .field("id", &self.id)
            .field("owner", &self.owner)
            .field("hooks", &self.hooks)
            .field("path", &self.script.path)
            .finish_non_exhaustive()
    }
}

impl HookSet {
    /// The hooks of a definition's `on` table (already checked against its shape); none when
    /// it has no `on`.
    pub(super) fn read(
        script: &crate::Sealed,
        def: &Definition,
        path: &Path,
        owner: Owner,
    ) -> HookSet {
        let hooks = match def.table.raw_get::<Value>("on") {
            Ok(Value::Table(on)) => Hook::ALL
                .into_iter()
                .filter(|h| matches!(on.raw_get::<Value>(h.name()), Ok(Value::Function(_))))
                .collect(),
            _ => Vec::new(),
        };
        HookSet {
            id: text(&def.table, "id"),
            owner,
            hooks,
            script: Loaded::new(def.kind, path, def, script.clone()),
        }
    }

    /// The line its definition is written on.
    pub(crate) fn def_line(&self) -> u32 {
        self.script.line
    }

    /// The script the hooks are in.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.script.path
    }

    /// Whether its definition has a `resolution` function (docs/RULES.md §16.3).
    #[must_use]
    pub fn has_resolution(&self) -> bool {
        ScriptHost::has_resolution(&self.script)
    }

    /// Run its `resolution(r)`: see [`ScriptHost::run_resolution`].
    ///
    /// # Errors
    /// The call failed, or `read` refused what it left in `r`.
    pub fn run_resolution<T>(
        &self,
        host: &ScriptHost,
        instructions: u64,
        make: impl FnOnce(&Lua) -> mlua::Result<Table>,
        read: impl FnOnce(&Table) -> Result<T, String>,
    ) -> Result<T, String> {
        host.run_resolution(&self.script, instructions, make, read)
    }
}

/// `token { ... }`: a kind of token and its hooks.
#[derive(Clone, Debug)]
pub struct TokenDef {
    /// The kind, for `Content.tokens`.
    pub kind: TokenKind,
    /// Its triggers (`Owner::Token`).
    pub hooks: HookSet,
}

/// `ability { ... }`: a hero profile's ability.
#[derive(Clone, Debug)]
pub struct AbilityDef {
    /// Its id.
    pub id: String,
    /// The name players see.
    pub name: String,
    /// What it does.
    pub text: String,
    /// The hero profile that has it.
    pub hero: String,
    /// Its triggers (`Owner::Hero`).
    pub hooks: HookSet,
}

/// `trigger { ... }`: a game-wide rule of a pack.
#[derive(Clone, Debug)]
pub struct RuleDef {
    /// Its id.
    pub id: String,
    /// The name players see.
    pub name: String,
    /// What it does.
    pub text: String,
    /// Its triggers (`Owner::Game`).
    pub hooks: HookSet,
}

impl ScriptHost {
    /// Compiles and runs a token script (`token { ... }`) and checks it. Does not install it.
    ///
    /// # Errors
    /// As [`load_behaviour`](Self::load_behaviour): the first problem.
    pub fn load_token(&self, path: &Path, source: &str) -> Result<TokenDef, ScriptError> {
        self.read_token(path, source)
            .map_err(|b| b.first(path, source))
    }

    /// [`load_token`](Self::load_token), with every problem of the file.
    ///
    /// # Errors
    /// Every problem, in file order.
    pub fn check_token(&self, path: &Path, source: &str) -> Result<TokenDef, Vec<Problem>> {
        self.read_token(path, source)
            .map_err(|b| b.problems(path, source))
    }

    fn read_token(&self, path: &Path, source: &str) -> Result<TokenDef, Broken> {
        let (script, def) = self.read_def(path, source, DefKind::Token, &TOKEN_DEF)?;
        let t = &def.table;
        let id = text(t, "id");
        // The shape checked both: these defaults are never used.
        let class = TokenClass::named(&text(t, "class")).unwrap_or(TokenClass::Marker);
        let symbol = text(t, "symbol").chars().next().unwrap_or('?');
        let hooks = HookSet::read(&script, &def, path, Owner::Token(Id::from(id.as_str())));
        Ok(TokenDef {
            kind: TokenKind {
                id,
                name: text(t, "name"),
                class,
                symbol,
                text: text(t, "text"),
            },
            hooks,
        })
    }

    /// Compiles and runs an ability script (`ability { ... }`) and checks it; whether its hero
    /// profile is loaded is the pack's to check.
    ///
    /// # Errors
    /// The first problem.
    pub fn load_ability(&self, path: &Path, source: &str) -> Result<AbilityDef, ScriptError> {
        self.read_ability(path, source)
            .map_err(|b| b.first(path, source))
    }

    /// [`load_ability`](Self::load_ability), with every problem of the file.
    ///
    /// # Errors
    /// Every problem, in file order.
    pub fn check_ability(&self, path: &Path, source: &str) -> Result<AbilityDef, Vec<Problem>> {
        self.read_ability(path, source)
            .map_err(|b| b.problems(path, source))
    }

    fn read_ability(&self, path: &Path, source: &str) -> Result<AbilityDef, Broken> {
        let (script, def) = self.read_def(path, source, DefKind::Ability, &ABILITY_DEF)?;
        let t = &def.table;
        let hero = text(t, "hero");
        let hooks = HookSet::read(&script, &def, path, Owner::Hero(Id::from(hero.as_str())));
        Ok(AbilityDef {
            id: text(t, "id"),
            name: text(t, "name"),
            text: text(t, "text"),
            hero,
            hooks,
        })
    }

    /// Compiles and runs a game-wide rule (`trigger { ... }`) and checks it.
    ///
    /// # Errors
    /// The first problem.
    pub fn load_trigger(&self, path: &Path, source: &str) -> Result<RuleDef, ScriptError> {
        self.read_trigger(path, source)
            .map_err(|b| b.first(path, source))
    }

    /// [`load_trigger`](Self::load_trigger), with every problem of the file.
    ///
    /// # Errors
    /// Every problem, in file order.
    pub fn check_trigger(&self, path: &Path, source: &str) -> Result<RuleDef, Vec<Problem>> {
        self.read_trigger(path, source)
            .map_err(|b| b.problems(path, source))
    }

    fn read_trigger(&self, path: &Path, source: &str) -> Result<RuleDef, Broken> {
        let (script, def) = self.read_def(path, source, DefKind::Trigger, &TRIGGER_DEF)?;
        let t = &def.table;
        let hooks = HookSet::read(&script, &def, path, Owner::Game);
        Ok(RuleDef {
            id: text(t, "id"),
            name: text(t, "name"),
            text: text(t, "text"),
            hooks,
        })
    }

    /// The core's triggers for `set`, one per hook, in its order: each runs the script's
    /// function for its hook when the core fires it.
    #[must_use]
    pub fn install_hooks(self: &Rc<Self>, set: HookSet) -> Vec<TriggerDef> {
        let set = Rc::new(set);
        set.hooks
            .iter()
            .map(|&hook| TriggerDef {
                source: Id::from(set.id.as_str()),
                owner: set.owner.clone(),
                hook,
                handler: Rc::new(LuaTrigger {
                    host: Rc::clone(self),
                    set: Rc::clone(&set),
                    hook,
                }),
            })
            .collect()
    }
}

/// One hook of a script, as the core sees it.
pub struct LuaTrigger {
    host: Rc<ScriptHost>,
    set: Rc<HookSet>,
    hook: Hook,
}

impl std::fmt::Debug for LuaTrigger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LuaTrigger")
            .field("id", &self.set.id)
            .field("hook", &self.hook)
            .finish_non_exhaustive()
    }
}

impl Trigger for LuaTrigger {
    /// Runs the script's top level afresh, then its `on[hook](game, moment)`.
    fn fire(&self, ctx: &mut BehaviourCtx<'_, '_>, moment: &Moment) -> Result<(), BehaviourError> {
        let (index, _entered) = self.host.moments.enter(moment);
        let args = |_: &Lua, _: &mlua::AnyUserData| Ok(MultiValue::new());
        self.host
            .run_script(
                &self.set.script,
                ctx,
                Some(self.hook),
                "on",
                Some(index),
                args,
            )
            .map(|_| ())
    }
}

/// A model a moment names: on the map, or gone (killed) and known by its id.
#[derive(Clone)]
enum Seen {
    Here(ModelInfo),
    Gone(Id),
}

impl Seen {
    fn of(ctx: &BehaviourCtx<'_, '_>, id: Option<Id>) -> Option<Seen> {
        id.map(|m| ctx.model(&m).map_or(Seen::Gone(m), Seen::Here))
    }

    fn value(self, lua: &Lua) -> mlua::Result<Value> {
        match self {
            Seen::Here(m) => args::model(lua, m),
            Seen::Gone(id) => Ok(Value::String(lua.create_string(id.as_str())?)),
        }
    }
}

/// What the `moment` table holds, read from the game before the call.
#[derive(Clone)]
pub(super) struct Told {
    unit: Option<UnitRef>,
    model: Option<Seen>,
    at: Option<Pos>,
    side: Option<Side>,
    round: u32,
    token: Option<(Token, Option<TokenClass>)>,
    attack: Option<AttackKind>,
    target: Option<Seen>,
    amount: Option<u32>,
    by: Option<Id>,
    card: Option<Id>,
}

/// The moments of the hook calls running, innermost last: a lazy `moment` table holds its
/// index here (an integer costs nothing to make; a userdata would, at every call).
///
/// A moment's facts (its unit's and models' handles, its token) are read from the game only
/// when needed: when its hook first looks at it, or before any API call of any running call,
/// whichever comes first ([`Moments::settle`]). The game changes only through API calls, so
/// either way they are what the game was when the hook was called.
#[derive(Default)]
pub(crate) struct Moments {
    entries: std::cell::RefCell<Vec<Entry>>,
    /// How many entries are still `Pending` (the API path's fast check).
    pending: std::cell::Cell<usize>,
}

// A few entries at a time (one per nested hook call): their size does not matter, and boxing
// would allocate at every call.
#[allow(clippy::large_enum_variant)]
enum Entry {
    Pending(Moment),
    Told(Told),
}

impl Moments {
    /// `moment` is the running call's until the guard drops; returns its index.
    pub(super) fn enter(&self, moment: &Moment) -> (i64, MomentEntered<'_>) {
        let mut v = self.entries.borrow_mut();
        v.push(Entry::Pending(moment.clone()));
        self.pending.set(self.pending.get() + 1);
        (
            i64::try_from(v.len() - 1).unwrap_or(i64::MAX),
            MomentEntered(self),
        )
    }

    /// Reads every pending moment's facts from the game as it is now: called before anything
    /// an API call does.
    pub(crate) fn settle(&self, ctx: &mut BehaviourCtx<'_, '_>) {
        if self.pending.get() == 0 {
            return;
        }
        for e in self.entries.borrow_mut().iter_mut() {
            if let Entry::Pending(m) = e {
                *e = Entry::Told(Told::of(ctx, m));
            }
        }
        self.pending.set(0);
    }
}

/// Drops the moment its call entered.
pub(super) struct MomentEntered<'a>(&'a Moments);

impl Drop for MomentEntered<'_> {
    fn drop(&mut self) {
        if let Some(Entry::Pending(_)) = self.0.entries.borrow_mut().pop() {
            self.0.pending.set(self.0.pending.get().saturating_sub(1));
        }
    }
}

/// The function a lazy `moment` is filled in with (`Sandbox::call_hook`): its data is the
/// index of its entry among the running calls' moments. It runs as an API call (so every
/// pending moment is settled first).
pub(crate) fn moment_fill(
    lua: &Lua,
    moments: std::rc::Rc<Moments>,
) -> mlua::Result<mlua::Function> {
    lua.create_function(move |lua, i: i64| {
        let moments = std::rc::Rc::clone(&moments);
        crate::api::call::with_ctx(lua, move |lua, _| {
            let told = usize::try_from(i)
                .ok()
                .and_then(|i| match moments.entries.borrow().get(i) {
                    Some(Entry::Told(t)) => Some(t.clone()),
                    _ => None,
                })
                .ok_or_else(|| mlua::Error::runtime("internal: a moment outlived its call"))?;
            told.table(lua)
        })
    })
}

impl Told {
    pub(super) fn of(ctx: &mut BehaviourCtx<'_, '_>, m: &Moment) -> Told {
        let token = m
            .token
            .and_then(|t| ctx.state().token(&t).cloned())
            .map(|t| {
                let class = token_class(ctx, &t.kind);
                (t, class)
            });
        Told {
            unit: m.unit.and_then(|u| UnitRef::of(ctx, &u)),
            model: Seen::of(ctx, m.model),
            at: m.at,
            side: m.side,
            round: m.round,
            token,
            attack: m.attack,
            target: Seen::of(ctx, m.target),
            amount: m.amount,
            by: m.by,
            card: m.card,
        }
    }

    pub(super) fn table(self, lua: &Lua) -> mlua::Result<Table> {
        // Built on first look (see `Moments`), from what was read when the hook was called.
        crate::api::build::moment(
            lua,
            MomentFields {
                unit: self
                    .unit
                    .map(|u| lua.create_any_userdata(u).map(Value::UserData))
                    .transpose()?,
                model: self.model.map(|m| m.value(lua)).transpose()?,
                at: self
                    .at
                    .map(|p| args::square(lua, p).map(Value::Table))
                    .transpose()?,
                side: self.side.map(|s| s.name()),
                round: self.round,
                token: self
                    .token
                    .map(|(token, class)| token_table(lua, &token, class).map(Value::Table))
                    .transpose()?,
                attack: self.attack.map(AttackKind::name),
                target: self.target.map(|m| m.value(lua)).transpose()?,
                amount: self.amount.map(|n| Value::Integer(i64::from(n))),
                by: self.by.as_ref().map(Id::as_str),
                card: self.card.as_ref().map(Id::as_str),
            },
        )
    }
}

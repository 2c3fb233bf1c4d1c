//! `Unit`: a Hero or an Alien Unit by id; the performing unit's handle also acts (moves,
//! attacks, Fear Attacks) through the core's validated behaviour context.

use super::args::{self, core_err, err, Args};
use super::call::{away_units, charge, model_units, search_units, sight_units, with_ctx};
use super::model::{self, side_name};
use super::unit_type::TypeRef;
use super::{method, Class, Field, FieldDoc, FnDoc, Method, Param, Ret};
use mlua::{Lua, MultiValue, Value};
use overmind_core::state::Overwatch;
use overmind_core::Id;
use overmind_core::{BehaviourCtx, Side};

/// A unit handle: its id, side, type and models as they were when the handle was made.
#[derive(Clone, Debug)]
pub(crate) struct UnitRef {
    pub(crate) id: Id,
    pub(crate) side: Side,
    pub(crate) kind: Option<Id>,
    /// Its model ids then, to say which were killed when it has none left.
    pub(crate) models: Vec<Id>,
    /// Its Overwatch token then.
    pub(crate) overwatch: Option<Overwatch>,
}

impl UnitRef {
    /// The handle of unit `id` now, if it exists.
    pub(crate) fn of(ctx: &BehaviourCtx<'_, '_>, id: &str) -> Option<UnitRef> {
        let u = ctx.state().unit(id)?;
        Some(UnitRef {
            id: u.id,
            side: u.side,
            kind: u.models.last().map(|m| m.kind),
            models: u.models.iter().map(|m| m.id).collect(),
            overwatch: u.overwatch,
        })
    }
}

/// Acting and melee questions are the performing unit's alone.
fn performing(ctx: &BehaviourCtx<'_, '_>, func: &str, unit: &str) -> mlua::Result<()> {
    if unit == ctx.unit() {
        Ok(())
    } else {
        err(format!(
            "{func}: only the performing unit {} can do this, not {unit}",
            ctx.unit()
        ))
    }
}

/// Does the unit still have a model on the map?
fn unit_alive(ctx: &BehaviourCtx<'_, '_>, unit: &str) -> bool {
    ctx.state().unit(unit).is_some_and(|u| !u.models.is_empty())
}

/// The performing unit acts: it must have a model left; if not, say who killed them.
fn acting(ctx: &BehaviourCtx<'_, '_>, func: &str, this: &UnitRef) -> mlua::Result<()> {
    performing(ctx, func, &this.id)?;
    if unit_alive(ctx, &this.id) {
        return Ok(());
    }
    let killed: Vec<String> = this
        .models
        .iter()
        .filter_map(|m| match ctx.killed(m) {
            Some(Some(by)) => Some(format!("{m} was killed by {by}")),
            Some(None) => Some(format!("{m} was killed")),
            None => None,
        })
        .collect();
    let why = if killed.is_empty() {
        String::new()
    } else {
        format!(": {}", killed.join(", "))
    };
    err(format!(
        "{func}: {} has no model left on the map{why} (check `unit.alive`)",
        this.id
    ))
}

/// An attack's target model must still be there; if it was killed, say so.
fn target_there(ctx: &BehaviourCtx<'_, '_>, func: &str, target: &str) -> mlua::Result<()> {
    if ctx.state().unit(target).is_some()
        || model::alive(ctx, target)
        || ctx.killed(target).is_none()
    {
        Ok(())
    } else {
        Err(model::gone(ctx, func, target))
    }
}

fn models(lua: &Lua, this: &UnitRef, a: MultiValue) -> mlua::Result<MultiValue> {
    Args::new("models", a).at_most(0)?;
    let id = this.id;
    let ms = with_ctx(lua, move |lua, ctx| {
        charge(lua, model_units(ctx))?;
        Ok(ctx.models_of(&id))
    })?;
    Ok(MultiValue::from_iter([args::models(lua, ms)?]))
}

fn in_melee(lua: &Lua, this: &UnitRef, a: MultiValue) -> mlua::Result<MultiValue> {
    Args::new("in_melee", a).at_most(0)?;
    let id = this.id;
    let yes = with_ctx(lua, move |lua, ctx| {
        performing(ctx, "in_melee", &id)?;
        charge(lua, model_units(ctx))?;
        Ok(ctx.in_melee())
    })?;
    args::one(yes, lua)
}

fn melee_targets(lua: &Lua, this: &UnitRef, a: MultiValue) -> mlua::Result<MultiValue> {
    Args::new("melee_targets", a).at_most(0)?;
    let id = this.id;
    let ms = with_ctx(lua, move |lua, ctx| {
        performing(ctx, "melee_targets", &id)?;
        charge(lua, sight_units(ctx, &id))?;
        Ok(ctx.melee_targets())
    })?;
    Ok(MultiValue::from_iter([args::models(lua, ms)?]))
}

fn shoot_targets(lua: &Lua, this: &UnitRef, a: MultiValue) -> mlua::Result<MultiValue> {
    Args::new("shoot_targets", a).at_most(0)?;
    let id = this.id;
    let ms = with_ctx(lua, move |lua, ctx| {
        performing(ctx, "shoot_targets", &id)?;
        charge(lua, sight_units(ctx, &id))?;
        Ok(ctx.shoot_targets())
    })?;
    Ok(MultiValue::from_iter([args::models(lua, ms)?]))
}

fn attack(
    lua: &Lua,
    this: &UnitRef,
    a: MultiValue,
    func: &'static str,
) -> mlua::Result<MultiValue> {
    let a = Args::new(func, a);
    a.at_most(2)?;
    let target = a.target(0, "target")?;
    let penalty = a.attack_options(1)?;
    let this = this.clone();
    with_ctx(lua, move |lua, ctx| {
        acting(ctx, func, &this)?;
        charge(lua, sight_units(ctx, &this.id))?;
        target_there(ctx, func, &target)?;
        let r = if func == "melee" {
            ctx.melee(&target, penalty)
        } else {
            ctx.shoot(&target, penalty)
        };
        r.map_err(|e| core_err(func, &e))
    })?;
    args::none()
}

fn melee(lua: &Lua, this: &UnitRef, a: MultiValue) -> mlua::Result<MultiValue> {
    attack(lua, this, a, "melee")
}

fn shoot(lua: &Lua, this: &UnitRef, a: MultiValue) -> mlua::Result<MultiValue> {
    attack(lua, this, a, "shoot")
}

fn fear(lua: &Lua, this: &UnitRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("fear", a);
    a.at_most(1)?;
    let hero = a.target(0, "hero")?;
    let this = this.clone();
    with_ctx(lua, move |_, ctx| {
        acting(ctx, "fear", &this)?;
        target_there(ctx, "fear", &hero)?;
        ctx.fear(&hero).map_err(|e| core_err("fear", &e))
    })?;
    args::none()
}

fn destroy_wall(lua: &Lua, this: &UnitRef, a: MultiValue) -> mlua::Result<MultiValue> {
    Args::new("destroy_wall", a).at_most(0)?;
    let this = this.clone();
    with_ctx(lua, move |lua, ctx| {
        acting(ctx, "destroy_wall", &this)?;
        // A new map and the sight check after it: charged as a search of the map.
        charge(lua, search_units(ctx))?;
        let model = ctx
            .state()
            .unit(&this.id)
            .and_then(|u| u.models.iter().find(|m| m.xxl))
            .map(|m| m.id);
        let Some(model) = model else {
            return err(format!(
                "destroy_wall: {} has no XXL model: only XXL models Destroy Wall",
                this.id
            ));
        };
        ctx.destroy_wall(&model)
            .map_err(|e| core_err("destroy_wall", &e))
    })?;
    args::none()
}

fn move_towards(lua: &Lua, this: &UnitRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("move_towards", a);
    a.at_most(3)?;
    let target = a.target_of_move(0, "target")?;
    let steps = a.steps(1, "steps")?;
    let prompt = a.opt_string(2, "prompt")?;
    let this = this.clone();
    let moved = with_ctx(lua, move |lua, ctx| {
        acting(ctx, "move_towards", &this)?;
        let mut total = 0;
        for m in ctx.model_order(&this.id) {
            charge(lua, search_units(ctx))?;
            // One killed while another moved (Overwatch, a Free Attack) moves no more.
            if !model::alive(ctx, &m) {
                continue;
            }
            let steps = steps.unwrap_or_else(|| ctx.move_left(&m));
            let goal = target.goal(ctx);
            total += ctx
                .move_towards_asking(&m, goal, steps, prompt.as_deref())
                .map_err(|e| core_err("move_towards", &e))?;
        }
        Ok(total)
    })?;
    args::one(moved, lua)
}

fn move_away_from(lua: &Lua, this: &UnitRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("move_away_from", a);
    a.at_most(3)?;
    let target = a.target_away(0, "target")?;
    let steps = a.steps(1, "steps")?;
    let prompt = a.opt_string(2, "prompt")?;
    let this = this.clone();
    let moved = with_ctx(lua, move |lua, ctx| {
        acting(ctx, "move_away_from", &this)?;
        let mut total = 0;
        for m in ctx.model_order(&this.id) {
            // Where the target stands now: a unit's models may have moved meanwhile.
            let from = target.squares(ctx);
            charge(lua, away_units(ctx, from.len()))?;
            if !model::alive(ctx, &m) {
                continue;
            }
            let steps = steps.unwrap_or_else(|| ctx.move_left(&m));
            total += ctx
                .move_away_from(&m, &from, steps, prompt.as_deref())
                .map_err(|e| core_err("move_away_from", &e))?;
        }
        Ok(total)
    })?;
    args::one(moved, lua)
}

fn type_of(lua: &Lua, u: &UnitRef) -> mlua::Result<Value> {
    let id = u.id;
    match with_ctx(lua, move |_, ctx| Ok(ctx.unit_type(&id)))? {
        Some(t) => Ok(Value::UserData(lua.create_any_userdata(TypeRef(t))?)),
        None => Ok(Value::Nil),
    }
}

fn str_value(lua: &Lua, s: &str) -> mlua::Result<Value> {
    Ok(Value::String(lua.create_string(s)?))
}

/// The `Unit` class.
pub(crate) static UNIT: Class<UnitRef> = Class {
    name: "Unit",
    var: "unit",
    doc: "A Hero or an Alien Unit (one or more models). `perform` receives the performing Alien \
          Unit; only it can act (move, attack, Fear Attack) and answer the melee questions. \
          Handles compare equal (`==`) when they name the same unit.",
    key: |u| u.id.to_string(),
    singleton: None,
    fields: &[
        Field {
            doc: FieldDoc { name: "id", ty: "string", doc: "The unit's id (an Alien Unit takes its Blip's id)." },
            get: |lua, u| str_value(lua, &u.id),
        },
        Field {
            doc: FieldDoc { name: "side", ty: "\"heroes\"|\"overmind\"", doc: "Whose unit it is." },
            get: |lua, u| str_value(lua, side_name(u.side)),
        },
        Field {
            doc: FieldDoc {
                name: "alive",
                ty: "boolean",
                doc: "Has the unit a model left on the map? Read live: false once all its models \
                      were killed. Acting with a unit that has none raises an error saying who \
                      killed them.",
            },
            get: |lua, u| {
                let id = u.id;
                Ok(Value::Boolean(with_ctx(lua, move |_, ctx| Ok(unit_alive(ctx, &id)))?))
            },
        },
        Field {
            doc: FieldDoc { name: "kind", ty: "string?", doc: "Its Alien Type id (Hero profile id for a Hero); nil once it has no models." },
            get: |lua, u| match &u.kind {
                Some(k) => str_value(lua, k),
                None => Ok(Value::Nil),
            },
        },
        Field {
            doc: FieldDoc {
                name: "type",
                ty: "UnitType?",
                doc: "The stats of its type (`unit.type.movement`, `unit.type.shoot.long.range`): \
                      its Alien Type's, or for a Hero its profile's. Read from the loaded \
                      content at each read; nil once it has no models.",
            },
            get: type_of,
        },
        Field {
            doc: FieldDoc {
                name: "overwatch",
                ty: "\"full\"|\"weak\"|nil",
                doc: "The Overwatch token it holds (docs/RULES.md §6.5: `\"full\"` when Overwatch \
                      was its activation's first action, `\"weak\"` when its second, one die \
                      fewer), or nil; as when the handle was made. It fires once, then it is gone.",
            },
            get: |lua, u| match u.overwatch {
                Some(Overwatch::Full) => str_value(lua, "full"),
                Some(Overwatch::Weak) => str_value(lua, "weak"),
                None => Ok(Value::Nil),
            },
        },
    ],
    methods: &[
        Method {
            doc: FnDoc {
                name: "models",
                params: &[],
                returns: &[Ret { ty: "Model[]", doc: "Its models now, in the unit's order (empty when it is gone)." }],
                doc: "The unit's models.",
            },
            make: |lua| method(lua, models),
        },
        Method {
            doc: FnDoc {
                name: "in_melee",
                params: &[],
                returns: &[Ret { ty: "boolean", doc: "True when some model of it is adjacent to a Hero." }],
                doc: "Is the performing unit in Melee Combat?",
            },
            make: |lua| method(lua, in_melee),
        },
        Method {
            doc: FnDoc {
                name: "melee_targets",
                params: &[],
                returns: &[Ret { ty: "Model[]", doc: "Hero models, in game order." }],
                doc: "The Heroes the performing unit could Melee now (adjacent, in Line of Sight).",
            },
            make: |lua| method(lua, melee_targets),
        },
        Method {
            doc: FnDoc {
                name: "shoot_targets",
                params: &[],
                returns: &[Ret { ty: "Model[]", doc: "Hero models, in game order." }],
                doc: "The Heroes the performing unit could Shoot now (in range and Line of Sight, \
                      not adjacent).",
            },
            make: |lua| method(lua, shoot_targets),
        },
        Method {
            doc: FnDoc {
                name: "melee",
                params: &[
                    Param { name: "target", ty: "Model", doc: "A Hero model." },
                    Param { name: "options", ty: "AttackOptions?", doc: "`{ penalty = n }`: dice fewer (never fewer than the rules' behaviour penalty)." },
                ],
                returns: &[],
                doc: "The performing unit's Melee attack: every model of it that can fight the \
                      target adds its CV. At most one per behaviour. Raises an error when no model \
                      is adjacent with Line of Sight, when the target is a Blip, on the \
                      Overmind's side or killed, when the unit has no model left, or when it \
                      already made its Melee attack.",
            },
            make: |lua| method(lua, melee),
        },
        Method {
            doc: FnDoc {
                name: "shoot",
                params: &[
                    Param { name: "target", ty: "Model", doc: "A Hero model." },
                    Param { name: "options", ty: "AttackOptions?", doc: "`{ penalty = n }`: dice fewer (never fewer than the rules' behaviour penalty)." },
                ],
                returns: &[],
                doc: "The performing unit's Shoot attack: every model that can shoot the target \
                      adds its CV for the range band. At most one per behaviour. Raises an error \
                      when no model has the target in range and Line of Sight, or it is adjacent, \
                      or when the unit has no model left.",
            },
            make: |lua| method(lua, shoot),
        },
        Method {
            doc: FnDoc {
                name: "fear",
                params: &[Param { name: "hero", ty: "Model", doc: "A Hero model." }],
                returns: &[],
                doc: "A Fear Attack on one Hero: the unit rolls its Fear CV, the Hero its Defence; \
                      any hit left Shakes the Hero. Once per Hero per behaviour; raises an error \
                      when the unit has no Fear or the target is not a Hero.",
            },
            make: |lua| method(lua, fear),
        },
        Method {
            doc: FnDoc {
                name: "destroy_wall",
                params: &[],
                returns: &[],
                doc: "Destroy Wall (docs/RULES.md §5.4): the performing unit's XXL model, standing \
                      orthogonally against a building's wall along a whole side of its base, puts \
                      a Ruined Wall on both edges (an opening two squares wide) and the building \
                      becomes a Ruin; the Overmind chooses when several walls qualify (decision \
                      `wall`), and a Blip now in a Hero's sight is revealed at once. Raises an \
                      error when the unit has no XXL model, it is Stunned, or no wall qualifies.",
            },
            make: |lua| method(lua, destroy_wall),
        },
        Method {
            doc: FnDoc {
                name: "move_towards",
                params: &[
                    Param { name: "target", ty: "Model|Unit|Blip|Pos|(Model|Blip|Unit)[]|Pos[]", doc: "As for `Model:move_towards`." },
                    Param { name: "steps", ty: "integer?", doc: "Most squares each model moves; default all it may still move." },
                    Param { name: "prompt", ty: "string?", doc: "The question a tie among a model's end squares asks the Overmind." },
                ],
                returns: &[Ret { ty: "integer", doc: "Squares moved by all models together." }],
                doc: "Moves every model of the performing unit towards the target, one by one in \
                      the order the Overmind picks (`game:model_order`); a model killed meanwhile \
                      is skipped. Raises an error when the unit has no model left.",
            },
            make: |lua| method(lua, move_towards),
        },
        Method {
            doc: FnDoc {
                name: "move_away_from",
                params: &[
                    Param { name: "target", ty: "Model|Unit|Blip|Pos|(Model|Unit|Blip|Pos)[]", doc: "As for `Model:move_away_from`." },
                    Param { name: "steps", ty: "integer?", doc: "Most squares each model moves; default all it may still move." },
                    Param { name: "prompt", ty: "string?", doc: "The question a tie among a model's end squares asks the Overmind." },
                ],
                returns: &[Ret { ty: "integer", doc: "Squares moved by all models together." }],
                doc: "Moves every model of the performing unit away from the target as \
                      `Model:move_away_from` does, one by one in the order the Overmind picks \
                      (`game:model_order`); a model killed meanwhile is skipped. Raises an error \
                      when the unit has no model left.",
            },
            make: |lua| method(lua, move_away_from),
        },
    ],
};

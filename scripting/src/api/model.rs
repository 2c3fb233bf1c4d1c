//! `Model`: one figure on the map, Hero or Alien, as a read-only snapshot; the performing
//! unit's own models can also move.

use super::args::{self, core_err, err, Args};
use super::call::{away_units, charge, model_units, reachable_units, search_units, with_ctx};
use super::{method, Class, Field, FieldDoc, FnDoc, Method, Param, Ret};
use mlua::{Lua, MultiValue, Value};
use overmind_core::{ModelInfo, Pos, Side};

/// A model handle: what the model was when the API returned it (call `game:model(id)` for a
/// fresh look).
#[derive(Clone, Debug)]
pub(crate) struct ModelRef(pub(crate) ModelInfo);

pub(crate) fn side_name(s: Side) -> &'static str {
    s.name()
}

fn own(ctx: &overmind_core::BehaviourCtx<'_, '_>, func: &str, m: &ModelInfo) -> mlua::Result<()> {
    if m.unit == ctx.unit() {
        Ok(())
    } else {
        err(format!(
            "{func}: {} is not a model of the performing unit {}",
            m.id,
            ctx.unit()
        ))
    }
}

/// Is the model still on the map (not killed)?
pub(crate) fn alive(ctx: &overmind_core::BehaviourCtx<'_, '_>, model: &str) -> bool {
    ctx.state().find_model(model).is_some()
}

/// The error for acting with (or on) a model that is gone: killed during the action now
/// resolving, by whom when known.
pub(crate) fn gone(
    ctx: &overmind_core::BehaviourCtx<'_, '_>,
    func: &str,
    model: &str,
) -> mlua::Error {
    let why = match ctx.killed(model) {
        Some(Some(by)) => format!("{model} was killed by {by}"),
        Some(None) => format!("{model} was killed"),
        None => format!("{model} is not on the map"),
    };
    mlua::Error::runtime(format!(
        "{func}: {why} (check `model.alive` before using a handle after a move or an attack)"
    ))
}

/// A model of the performing unit that is still on the map.
fn acting(
    ctx: &overmind_core::BehaviourCtx<'_, '_>,
    func: &str,
    m: &ModelInfo,
) -> mlua::Result<()> {
    own(ctx, func, m)?;
    if alive(ctx, &m.id) {
        Ok(())
    } else {
        Err(gone(ctx, func, &m.id))
    }
}

fn move_towards(lua: &Lua, this: &ModelRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("move_towards", a);
    a.at_most(3)?;
    let target = a.target_of_move(0, "target")?;
    let steps = a.steps(1, "steps")?;
    let prompt = a.opt_string(2, "prompt")?;
    let m = this.0.clone();
    let moved = with_ctx(lua, move |lua, ctx| {
        acting(ctx, "move_towards", &m)?;
        charge(lua, search_units(ctx))?;
        let steps = steps.unwrap_or_else(|| ctx.move_left(&m.id));
        let goal = target.goal(ctx);
        ctx.move_towards_asking(&m.id, goal, steps, prompt.as_deref())
            .map_err(|e| core_err("move_towards", &e))
    })?;
    args::one(moved, lua)
}

fn move_away_from(lua: &Lua, this: &ModelRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("move_away_from", a);
    a.at_most(3)?;
    let target = a.target_away(0, "target")?;
    let steps = a.steps(1, "steps")?;
    let prompt = a.opt_string(2, "prompt")?;
    let m = this.0.clone();
    let moved = with_ctx(lua, move |lua, ctx| {
        acting(ctx, "move_away_from", &m)?;
        let from = target.squares(ctx);
        charge(lua, away_units(ctx, from.len()))?;
        let steps = steps.unwrap_or_else(|| ctx.move_left(&m.id));
        ctx.move_away_from(&m.id, &from, steps, prompt.as_deref())
            .map_err(|e| core_err("move_away_from", &e))
    })?;
    args::one(moved, lua)
}

fn reachable_away_from(lua: &Lua, this: &ModelRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("reachable_away_from", a);
    a.at_most(2)?;
    let target = a.target_away(0, "target")?;
    let steps = a.steps(1, "steps")?;
    let m = this.0.clone();
    let squares = with_ctx(lua, move |lua, ctx| {
        acting(ctx, "reachable_away_from", &m)?;
        let from = target.squares(ctx);
        charge(lua, away_units(ctx, from.len()))?;
        charge(lua, reachable_units(ctx))?;
        let steps = steps.unwrap_or_else(|| ctx.move_left(&m.id));
        ctx.reachable_away_from(&m.id, &from, steps)
            .map_err(|e| core_err("reachable_away_from", &e))
    })?;
    args::one(square_list(lua, squares)?, lua)
}

/// Squares with the steps to reach each, as `Square` tables.
fn square_list(lua: &Lua, squares: Vec<(Pos, u32)>) -> mlua::Result<mlua::Table> {
    super::build::squares_with_steps(lua, &squares)
}

fn move_to(lua: &Lua, this: &ModelRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("move_to", a);
    a.at_most(2)?;
    let to = match a_first_int(&a) {
        true => {
            let x = a.int(0, "x", i64::from(i32::MIN), i64::from(i32::MAX))?;
            let y = a.int(1, "y", i64::from(i32::MIN), i64::from(i32::MAX))?;
            Pos::new(x as i32, y as i32)
        }
        false => {
            a.at_most(1)?;
            a.pos(0, "square")?
        }
    };
    let m = this.0.clone();
    let moved = with_ctx(lua, move |lua, ctx| {
        acting(ctx, "move_to", &m)?;
        charge(lua, search_units(ctx))?;
        ctx.move_to(&m.id, to).map_err(|e| core_err("move_to", &e))
    })?;
    args::one(moved, lua)
}

/// `move_to(x, y)` rather than `move_to(square)`.
fn a_first_int(a: &Args) -> bool {
    a.int(0, "x", i64::MIN, i64::MAX).is_ok()
}

fn reachable(lua: &Lua, this: &ModelRef, a: MultiValue) -> mlua::Result<MultiValue> {
    Args::new("reachable", a).at_most(0)?;
    let m = this.0.clone();
    let squares = with_ctx(lua, move |lua, ctx| {
        acting(ctx, "reachable", &m)?;
        charge(lua, reachable_units(ctx))?;
        ctx.reachable(&m.id).map_err(|e| core_err("reachable", &e))
    })?;
    args::one(square_list(lua, squares)?, lua)
}

fn move_left(lua: &Lua, this: &ModelRef, a: MultiValue) -> mlua::Result<MultiValue> {
    Args::new("move_left", a).at_most(0)?;
    let m = this.0.clone();
    let left = with_ctx(lua, move |_, ctx| {
        acting(ctx, "move_left", &m)?;
        Ok(ctx.move_left(&m.id))
    })?;
    args::one(left, lua)
}

fn str_value(lua: &Lua, s: &str) -> mlua::Result<Value> {
    Ok(Value::String(lua.create_string(s)?))
}

/// The `Model` class.
pub(crate) static MODEL: Class<ModelRef> = Class {
    name: "Model",
    var: "model",
    doc: "A figure on the map — a Hero or one model of an Alien Unit — as it was when the API \
          returned the handle. Fields are a snapshot (but `alive`, read live): after a move, \
          `game:model(model.id)` gives a fresh one. Handles compare equal (`==`) when they name \
          the same model. Only models of the performing unit can move, and only while alive.",
    key: |m| m.0.id.to_string(),
    singleton: None,
    fields: &[
        Field {
            doc: FieldDoc { name: "id", ty: "string", doc: "The model's id, e.g. `\"B3.1\"` (a Hero's model id is the Hero's id)." },
            get: |lua, m| str_value(lua, &m.0.id),
        },
        Field {
            doc: FieldDoc { name: "unit", ty: "string", doc: "The id of the unit the model belongs to (`game:unit(model.unit)`)." },
            get: |lua, m| str_value(lua, &m.0.unit),
        },
        Field {
            doc: FieldDoc { name: "kind", ty: "string", doc: "Its Alien Type id, or its Hero profile id." },
            get: |lua, m| str_value(lua, &m.0.kind),
        },
        Field {
            doc: FieldDoc { name: "side", ty: "\"heroes\"|\"overmind\"", doc: "Whose model it is." },
            get: |lua, m| str_value(lua, side_name(m.0.side)),
        },
        Field {
            doc: FieldDoc { name: "x", ty: "integer", doc: "Its column (0 at the left)." },
            get: |_, m| Ok(Value::Integer(i64::from(m.0.pos.x))),
        },
        Field {
            doc: FieldDoc { name: "y", ty: "integer", doc: "Its row (0 at the top)." },
            get: |_, m| Ok(Value::Integer(i64::from(m.0.pos.y))),
        },
        Field {
            doc: FieldDoc { name: "pos", ty: "Pos", doc: "Its square as a fresh `{ x =, y = }` table." },
            get: |lua, m| Ok(Value::Table(args::square(lua, m.0.pos)?)),
        },
        Field {
            doc: FieldDoc {
                name: "xxl",
                ty: "boolean",
                doc: "Is it an XXL model (docs/RULES.md §4.4: its base fills the 2×2 squares \
                      whose top-left square is `pos`)?",
            },
            get: |_, m| Ok(Value::Boolean(m.0.xxl)),
        },
        Field {
            doc: FieldDoc { name: "health", ty: "integer", doc: "Its Health (when the handle was made)." },
            get: |_, m| Ok(Value::Integer(i64::from(m.0.health))),
        },
        Field {
            doc: FieldDoc {
                name: "knocked_down",
                ty: "boolean",
                doc: "Is it Knocked Down (docs/RULES.md §6.6: its next Move action is spent standing \
                      up; it cannot attack before)?",
            },
            get: |_, m| Ok(Value::Boolean(m.0.status.knocked_down)),
        },
        Field {
            doc: FieldDoc {
                name: "stunned",
                ty: "boolean",
                doc: "Is it Stunned (docs/RULES.md §6.6: as Knocked Down, but it recovers by an \
                      Interact action and cannot defend against Melee)?",
            },
            get: |_, m| Ok(Value::Boolean(m.0.status.stunned)),
        },
        Field {
            doc: FieldDoc {
                name: "shaken",
                ty: "boolean",
                doc: "Is it Shaken (docs/RULES.md §6.6: it may not attack the unit that Shook it \
                      this round)?",
            },
            get: |_, m| Ok(Value::Boolean(m.0.status.shaken_by.is_some())),
        },
        Field {
            doc: FieldDoc {
                name: "shaken_by",
                ty: "string?",
                doc: "The id of the unit that Shook it, or nil when it is not Shaken.",
            },
            get: |lua, m| match &m.0.status.shaken_by {
                Some(by) => str_value(lua, by),
                None => Ok(Value::Nil),
            },
        },
        Field {
            doc: FieldDoc {
                name: "alive",
                ty: "boolean",
                doc: "Is the model still on the map? Read live, not from the snapshot: false once \
                      it was killed (by Overwatch during its own move, say). Any action with a \
                      killed model raises an error saying who killed it.",
            },
            get: |lua, m| {
                let id = m.0.id;
                Ok(Value::Boolean(with_ctx(lua, move |lua, ctx| {
                    charge(lua, model_units(ctx))?;
                    Ok(alive(ctx, &id))
                })?))
            },
        },
    ],
    methods: &[
        Method {
            doc: FnDoc {
                name: "move_towards",
                params: &[
                    Param { name: "target", ty: "Model|Unit|Blip|Pos|(Model|Blip|Unit)[]|Pos[]", doc: "Handles: end next to one of them (they are obstacles). Squares: end on one of them." },
                    Param { name: "steps", ty: "integer?", doc: "Most squares to move; default all the model may still move in this behaviour." },
                    Param { name: "prompt", ty: "string?", doc: "The question a tie among end squares asks the Overmind (default `\"where does <model> end its move?\"`)." },
                ],
                returns: &[Ret { ty: "integer", doc: "Squares actually moved (a reveal or Overwatch can cut a move short)." }],
                doc: "Moves this model of the performing unit up to `steps` squares, as close to \
                      the target as it can get by legal paths. Equally good end squares are the \
                      Overmind's choice. Raises an error when `steps` is more than the behaviour \
                      allows (`max_move`, else Movement) for this model, or when a target square \
                      is off the map.",
            },
            make: |lua| method(lua, move_towards),
        },
        Method {
            doc: FnDoc {
                name: "move_away_from",
                params: &[
                    Param { name: "target", ty: "Model|Unit|Blip|Pos|(Model|Unit|Blip|Pos)[]", doc: "What to keep away from: handles (a unit: each of its models) and squares, in any mix." },
                    Param { name: "steps", ty: "integer?", doc: "Most squares to move; default all the model may still move in this behaviour." },
                    Param { name: "prompt", ty: "string?", doc: "The question a tie among end squares asks the Overmind (default `\"where does <model> end its move?\"`)." },
                ],
                returns: &[Ret { ty: "integer", doc: "Squares actually moved (0 when no reachable square is farther; a reveal or Overwatch can cut a move short)." }],
                doc: "Moves this model of the performing unit up to `steps` squares by a legal \
                      path to the square it can reach that is farthest from the target (the \
                      nearest of its squares, by `game:distance`: the game's range), with the \
                      fewest steps; equally good end squares are the Overmind's choice, as for \
                      `move_towards`. The move is checked by the rules like every move (walls, \
                      solid squares, models; Overwatch and Free Attacks happen). Raises an error \
                      when `steps` is more than the behaviour allows for this model, or when a \
                      target square is off the map.",
            },
            make: |lua| method(lua, move_away_from),
        },
        Method {
            doc: FnDoc {
                name: "reachable_away_from",
                params: &[
                    Param { name: "target", ty: "Model|Unit|Blip|Pos|(Model|Unit|Blip|Pos)[]", doc: "As for `move_away_from`." },
                    Param { name: "steps", ty: "integer?", doc: "Most squares; default all the model may still move in this behaviour." },
                ],
                returns: &[Ret { ty: "Square[]", doc: "The equally good end squares, by row then column, each with `steps` to reach it (the model's own square alone when none is farther)." }],
                doc: "The squares `move_away_from(target, steps)` would choose among, without \
                      moving: a query. Raises the errors `move_away_from` would.",
            },
            make: |lua| method(lua, reachable_away_from),
        },
        Method {
            doc: FnDoc {
                name: "move_to",
                params: &[
                    Param { name: "x", ty: "integer|Pos", doc: "The column, or the square itself." },
                    Param { name: "y", ty: "integer?", doc: "The row, when `x` is a column." },
                ],
                returns: &[Ret { ty: "integer", doc: "Squares actually moved." }],
                doc: "Moves this model of the performing unit to a square by a shortest legal path. \
                      Raises an error when there is no legal path or it is longer than the model \
                      may still move.",
            },
            make: |lua| method(lua, move_to),
        },
        Method {
            doc: FnDoc {
                name: "reachable",
                params: &[],
                returns: &[Ret { ty: "Square[]", doc: "Every square within the moves left, with `steps` to reach it (its own square first, with 0)." }],
                doc: "The squares this model of the performing unit can reach with the moves it has \
                      left in this behaviour, nearest first.",
            },
            make: |lua| method(lua, reachable),
        },
        Method {
            doc: FnDoc {
                name: "move_left",
                params: &[],
                returns: &[Ret { ty: "integer", doc: "Squares." }],
                doc: "How many more squares this model of the performing unit may move in this \
                      behaviour.",
            },
            make: |lua| method(lua, move_left),
        },
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::args::as_int;

    #[test]
    fn whole_floats_are_integers() {
        assert_eq!(as_int(&Value::Number(3.0)), Some(3));
        assert_eq!(as_int(&Value::Number(3.5)), None);
    }
}

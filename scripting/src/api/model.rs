//! `Model`: one figure on the map, Hero or Alien, as a read-only snapshot; the performing
//! unit's own models can also move.

use super::args::{self, core_err, err, Args};
use super::call::{charge, model_units, reachable_units, search_units, with_ctx};
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
    a.at_most(2)?;
    let target = a.target_of_move(0, "target")?;
    let steps = a.steps(1, "steps")?;
    let m = this.0.clone();
    let moved = with_ctx(lua, move |lua, ctx| {
        acting(ctx, "move_towards", &m)?;
        charge(lua, search_units(ctx))?;
        let steps = steps.unwrap_or_else(|| ctx.move_left(&m.id));
        let goal = target.goal(ctx);
        ctx.move_towards(&m.id, goal, steps)
            .map_err(|e| core_err("move_towards", &e))
    })?;
    args::one(moved, lua)
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
    let t = lua.create_table_with_capacity(squares.len(), 0)?;
    for (i, (p, steps)) in squares.into_iter().enumerate() {
        let sq = args::square(lua, p)?;
        sq.raw_set("steps", steps)?;
        t.raw_set(i + 1, sq)?;
    }
    args::one(t, lua)
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
            doc: FieldDoc { name: "health", ty: "integer", doc: "Its Health (when the handle was made)." },
            get: |_, m| Ok(Value::Integer(i64::from(m.0.health))),
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
                ],
                returns: &[Ret { ty: "integer", doc: "Squares actually moved (a reveal or Overwatch can cut a move short)." }],
                doc: "Moves this model of the performing unit up to `steps` squares, as close to \
                      the target as it can get by legal paths. Equally good end squares are the \
                      Overmind's choice. Raises an error when `steps` is more than the behaviour \
                      allows (`max_move`, else Movement) for this model.",
            },
            make: |lua| method(lua, move_towards),
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

//! `UnitType`: the stats a unit's type gives it (`unit.type`), read-only: an Alien Unit's Alien
//! Type, or a Hero's profile, so behaviours read ranges, Combat Values and Movement instead of
//! hard-coding a card's numbers.

use super::{Class, Field, FieldDoc};
use mlua::{Lua, Table, Value};
use overmind_core::behaviour::TypeStats;
use overmind_core::Band;

/// A unit type handle: the stats as they were when `unit.type` was read.
#[derive(Clone, Debug)]
pub(crate) struct TypeRef(pub(crate) TypeStats);

fn str_value(lua: &Lua, s: &str) -> mlua::Result<Value> {
    Ok(Value::String(lua.create_string(s)?))
}

fn band(lua: &Lua, b: Band) -> mlua::Result<Table> {
    let t = lua.create_table_with_capacity(0, 2)?;
    t.raw_set("range", b.range)?;
    t.raw_set("cv", b.cv)?;
    Ok(t)
}

fn int(n: u32) -> Value {
    Value::Integer(i64::from(n))
}

/// The `UnitType` class.
pub(crate) static UNIT_TYPE: Class<TypeRef> = Class {
    name: "UnitType",
    var: "unit.type",
    doc: "The stats of a unit's type, as `unit.type` reads them: for an Alien Unit its Alien \
          Type's card (the numbers of `alien_type { ... }`), for a Hero its profile's, with Melee \
          and Defence at the Hero's Health when it was read (the Health dial). Read-only; the \
          stats are those of the game's loaded content, so a reloaded card shows its new numbers \
          at the next read.",
    key: |t| t.0.id.clone(),
    singleton: None,
    fields: &[
        Field {
            doc: FieldDoc {
                name: "id",
                ty: "string",
                doc: "The Alien Type id or Hero profile id (`unit.kind`).",
            },
            get: |lua, t| str_value(lua, &t.0.id),
        },
        Field {
            doc: FieldDoc {
                name: "name",
                ty: "string",
                doc: "The name on the card.",
            },
            get: |lua, t| str_value(lua, &t.0.name),
        },
        Field {
            doc: FieldDoc {
                name: "movement",
                ty: "integer",
                doc: "Movement: squares a Move action may take.",
            },
            get: |_, t| Ok(int(t.0.movement)),
        },
        Field {
            doc: FieldDoc {
                name: "melee",
                ty: "integer",
                doc: "Melee CV (a Hero's at its Health).",
            },
            get: |_, t| Ok(int(t.0.melee)),
        },
        Field {
            doc: FieldDoc {
                name: "defence",
                ty: "integer",
                doc: "Defence CV (a Hero's at its Health).",
            },
            get: |_, t| Ok(int(t.0.defence)),
        },
        Field {
            doc: FieldDoc {
                name: "health",
                ty: "integer",
                doc: "The type's full Health (a model's own is `model.health`).",
            },
            get: |_, t| Ok(int(t.0.health)),
        },
        Field {
            doc: FieldDoc {
                name: "fear",
                ty: "integer",
                doc: "Fear CV for Fear Attacks (0 for none, and for every Hero).",
            },
            get: |_, t| Ok(int(t.0.fear)),
        },
        Field {
            doc: FieldDoc {
                name: "shoot",
                ty: "ShootBands?",
                doc: "Its Shoot attack as a fresh table `{ short = { range =, cv = }, long = { \
                      range =, cv = } }`; nil when it has none.",
            },
            get: |lua, t| match t.0.shoot {
                Some(s) => {
                    let out = lua.create_table_with_capacity(0, 2)?;
                    out.raw_set("short", band(lua, s.short)?)?;
                    out.raw_set("long", band(lua, s.long)?)?;
                    Ok(Value::Table(out))
                }
                None => Ok(Value::Nil),
            },
        },
    ],
    methods: &[],
};

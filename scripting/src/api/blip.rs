//! `Blip`: a face-down Blip Token. Its id, square and Movement are free to read; reading any
//! other stat reveals it first (docs/RULES.md §7.3), then answers from the revealed unit.

use super::args::{self, core_err};
use super::call::with_ctx;
use super::unit::UnitRef;
use super::{Class, Field, FieldDoc};
use mlua::{Lua, Value};
use overmind_core::Id;
use overmind_core::{AlienType, Pos};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A Blip handle: id, square and Movement as they were when the handle was made.
#[derive(Clone, Debug)]
pub(crate) struct BlipRef {
    pub(crate) id: Id,
    pub(crate) pos: Pos,
    pub(crate) movement: u32,
}

/// The Alien Types the host has loaded, by id: where a revealed Blip's type stats come from.
#[derive(Debug, Default)]
pub(crate) struct KnownTypes(pub(crate) RefCell<BTreeMap<String, AlienType>>);

/// What a revealed Blip turned out to hold.
struct Revealed {
    unit: Option<UnitRef>,
    size: usize,
    health: Option<u32>,
}

/// Reveal the Blip if it is still face down (a stat read: docs/RULES.md §7.3 cause 2), then describe
/// the unit that came from it. A Decoy, or a Blip already gone without a unit, holds nothing.
fn reveal(lua: &Lua, this: &BlipRef, field: &'static str) -> mlua::Result<Revealed> {
    let id = this.id;
    with_ctx(lua, move |_, ctx| {
        if ctx.state().blip(&id).is_some() {
            ctx.reveal_for_stat(&id)
                .map_err(|e| core_err(&format!("blip.{field}"), &e))?;
        }
        let unit = ctx
            .state()
            .units
            .iter()
            .find(|u| u.from_blip.as_deref() == Some(id.as_str()));
        Ok(match unit {
            Some(u) => Revealed {
                unit: UnitRef::of(ctx, &u.id),
                size: u.models.len(),
                health: u.models.first().map(|m| m.health),
            },
            None => Revealed {
                unit: None,
                size: 0,
                health: None,
            },
        })
    })
}

fn type_stat(
    lua: &Lua,
    this: &BlipRef,
    field: &'static str,
    stat: fn(&AlienType) -> u32,
) -> mlua::Result<Value> {
    let r = reveal(lua, this, field)?;
    let Some(kind) = r.unit.and_then(|u| u.kind) else {
        return Ok(Value::Nil);
    };
    let known = lua.app_data_ref::<Rc<KnownTypes>>().map(|k| Rc::clone(&k));
    let value = known.and_then(|k| k.0.borrow().get(kind.as_str()).map(stat));
    Ok(value.map_or(Value::Nil, |v| Value::Integer(i64::from(v))))
}

fn str_value(lua: &Lua, s: &str) -> mlua::Result<Value> {
    Ok(Value::String(lua.create_string(s)?))
}

/// The `Blip` class.
pub(crate) static BLIP: Class<BlipRef> = Class {
    name: "Blip",
    var: "blip",
    doc: "A face-down Blip Token. `id`, `x`, `y`, `pos` and `movement` are free to read. Reading \
          any other field reveals the Blip first, exactly as when the Overmind needs a Blip's \
          stat (docs/RULES.md §7.3: a reveal by the Overmind, cause `stat`, which may trigger the \
          revealed unit's own behaviour at once), and then answers from the revealed unit; a \
          Decoy answers `decoy = true` and nil for the rest. A Blip is an obstacle; behaviours \
          cannot attack it.",
    key: |b| b.id.to_string(),
    singleton: None,
    fields: &[
        Field {
            doc: FieldDoc { name: "id", ty: "string", doc: "The Blip's id (a revealed unit keeps it as its unit id). Free to read." },
            get: |lua, b| str_value(lua, &b.id),
        },
        Field {
            doc: FieldDoc { name: "x", ty: "integer", doc: "Its column. Free to read." },
            get: |_, b| Ok(Value::Integer(i64::from(b.pos.x))),
        },
        Field {
            doc: FieldDoc { name: "y", ty: "integer", doc: "Its row. Free to read." },
            get: |_, b| Ok(Value::Integer(i64::from(b.pos.y))),
        },
        Field {
            doc: FieldDoc { name: "pos", ty: "Pos", doc: "Its square. Free to read." },
            get: |lua, b| Ok(Value::Table(args::square(lua, b.pos)?)),
        },
        Field {
            doc: FieldDoc { name: "movement", ty: "integer", doc: "Every Blip's Movement (`rules.blip_movement`, 5), whatever it holds. Free to read." },
            get: |_, b| Ok(Value::Integer(i64::from(b.movement))),
        },
        Field {
            doc: FieldDoc { name: "type", ty: "string?", doc: "REVEALS. The Alien Type id of the unit it held; nil for a Decoy." },
            get: |lua, b| match reveal(lua, b, "type")?.unit.and_then(|u| u.kind) {
                Some(k) => str_value(lua, &k),
                None => Ok(Value::Nil),
            },
        },
        Field {
            doc: FieldDoc { name: "decoy", ty: "boolean", doc: "REVEALS. True when it was a Decoy (it is removed)." },
            get: |lua, b| Ok(Value::Boolean(reveal(lua, b, "decoy")?.unit.is_none())),
        },
        Field {
            doc: FieldDoc { name: "unit", ty: "Unit?", doc: "REVEALS. The unit it held; nil for a Decoy." },
            get: |lua, b| match reveal(lua, b, "unit")?.unit {
                Some(u) => Ok(Value::UserData(lua.create_any_userdata(u)?)),
                None => Ok(Value::Nil),
            },
        },
        Field {
            doc: FieldDoc { name: "size", ty: "integer", doc: "REVEALS. How many models the revealed unit has now (0 for a Decoy)." },
            get: |lua, b| Ok(Value::Integer(i64::try_from(reveal(lua, b, "size")?.size).unwrap_or(0))),
        },
        Field {
            doc: FieldDoc { name: "health", ty: "integer?", doc: "REVEALS. Health of the revealed unit's first model; nil for a Decoy." },
            get: |lua, b| Ok(reveal(lua, b, "health")?.health.map_or(Value::Nil, |h| Value::Integer(i64::from(h)))),
        },
        Field {
            doc: FieldDoc { name: "defence", ty: "integer?", doc: "REVEALS. Defence CV of the revealed unit's Alien Type; nil for a Decoy." },
            get: |lua, b| type_stat(lua, b, "defence", |t| t.defence),
        },
        Field {
            doc: FieldDoc { name: "melee", ty: "integer?", doc: "REVEALS. Melee CV of the revealed unit's Alien Type; nil for a Decoy." },
            get: |lua, b| type_stat(lua, b, "melee", |t| t.melee),
        },
        Field {
            doc: FieldDoc { name: "fear", ty: "integer?", doc: "REVEALS. Fear CV of the revealed unit's Alien Type; nil for a Decoy." },
            get: |lua, b| type_stat(lua, b, "fear", |t| t.fear),
        },
    ],
    methods: &[],
};

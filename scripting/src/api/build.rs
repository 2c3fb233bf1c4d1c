//! Tables the API hands scripts (squares, lists, moments, tokens), each built by one call of a
//! small trusted Lua constructor rather than field by field from Rust.
//!
//! Under the sandbox's memory limit every table, string key and `raw_set` made from Rust is its
//! own protected call into Lua; a square `{ x, y }` took five of them and a list of 100 reachable
//! squares more than 800. A constructor call is one, and Lua's table constructor sizes the table
//! once. The tables are the same as before: the same keys, values and array order.

use mlua::{Function, IntoLua, Lua, LuaString, MultiValue, Table, Value};
use overmind_core::Pos;
use std::rc::Rc;

/// Values a constructor receives in one call at most: longer lists are appended in chunks, so
/// no call needs more Lua stack than this. Kept under 384: an array of exactly 3 * 2^k values
/// (768 and up) is as large as a hash part of 2^(k+1) nodes, which the allocator shim refuses
/// over the table-key limit (`alloc.rs`), so neither the chunks nor the lists they fill are
/// ever made at an exact size that large: the lists grow by Lua's doubling.
const CHUNK: usize = 255;

const SOURCE: &str = r#"
local move = table.move
local function square(x, y) return { x = x, y = y } end
-- Appends `n` squares given as x, y, steps triples after index `at`.
local function append_steps(t, at, ...)
  local v = { ... }
  for i = 1, #v, 3 do
    at = at + 1
    t[at] = { x = v[i], y = v[i + 1], steps = v[i + 2] }
  end
end
-- Appends the squares given as x, y pairs after index `at`.
local function append_squares(t, at, ...)
  local v = { ... }
  for i = 1, #v, 2 do
    at = at + 1
    t[at] = { x = v[i], y = v[i + 1] }
  end
end
-- Appends the values after index `at` (none of them nil).
local function append(t, at, ...)
  local v = { ... }
  move(v, 1, #v, at + 1, t)
end
local function list(...) return { ... } end
local function moment(unit, model, at, side, round, token, attack, target, amount, by, card)
  return {
    unit = unit, model = model, at = at, side = side, round = round, token = token,
    attack = attack, target = target, amount = amount, by = by, card = card,
  }
end
local function token(id, kind, class, x, y, carried_by)
  return { id = id, kind = kind, class = class, x = x, y = y, carried_by = carried_by }
end
return {
  square = square, append_steps = append_steps, append_squares = append_squares,
  append = append, list = list, moment = moment, token = token,
}
"#;

/// The constructors, kept in the Lua state's app data.
pub(crate) struct Builders {
    square: Function,
    append_steps: Function,
    append_squares: Function,
    append: Function,
    list: Function,
    moment: Function,
    token: Function,
    /// The keys `"x"` and `"y"`, made once: reading a square with a `&str` key creates (interns)
    /// the key string again, a protected call each time.
    key_x: LuaString,
    key_y: LuaString,
}

/// Loads the constructors into `lua` (once, when the API is registered).
pub(crate) fn install(lua: &Lua) -> mlua::Result<()> {
    let t: Table = lua
        .load(SOURCE)
        .set_name("=[sandbox build]")
        .set_mode(mlua::chunk::ChunkMode::Text)
        .call(())?;
    let builders = Builders {
        square: t.get("square")?,
        append_steps: t.get("append_steps")?,
        append_squares: t.get("append_squares")?,
        append: t.get("append")?,
        list: t.get("list")?,
        moment: t.get("moment")?,
        token: t.get("token")?,
        key_x: lua.create_string("x")?,
        key_y: lua.create_string("y")?,
    };
    lua.set_app_data(Rc::new(builders));
    Ok(())
}

fn builders(lua: &Lua) -> mlua::Result<Rc<Builders>> {
    lua.app_data_ref::<Rc<Builders>>()
        .map(|b| Rc::clone(&b))
        .ok_or_else(|| mlua::Error::runtime("internal: the API's table builders are not set up"))
}

/// `{ x = p.x, y = p.y }`.
pub(crate) fn square(lua: &Lua, p: Pos) -> mlua::Result<Table> {
    builders(lua)?.square.call((p.x, p.y))
}

/// A fresh array filled by `append(t, at, ...)` calls of at most [`CHUNK`] values each: `per`
/// values for each item, pushed by `push`.
fn filled<T>(
    lua: &Lua,
    append: &Function,
    items: &[T],
    per: usize,
    push: impl Fn(&mut MultiValue, &T),
) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let n = CHUNK / per;
    for (k, chunk) in items.chunks(n).enumerate() {
        let mut args = MultiValue::with_capacity(chunk.len() * per + 2);
        args.push_back(Value::Table(t.clone()));
        args.push_back(Value::Integer((k * n) as i64));
        for item in chunk {
            push(&mut args, item);
        }
        append.call::<()>(args)?;
    }
    Ok(t)
}

/// An array of `{ x, y, steps }` tables, in the given order.
pub(crate) fn squares_with_steps(lua: &Lua, squares: &[(Pos, u32)]) -> mlua::Result<Table> {
    let b = builders(lua)?;
    filled(lua, &b.append_steps, squares, 3, |args, (p, steps)| {
        args.push_back(Value::Integer(i64::from(p.x)));
        args.push_back(Value::Integer(i64::from(p.y)));
        args.push_back(Value::Integer(i64::from(*steps)));
    })
}

/// An array of `{ x, y }` tables, in the given order.
pub(crate) fn squares(lua: &Lua, squares: &[Pos]) -> mlua::Result<Table> {
    let b = builders(lua)?;
    filled(lua, &b.append_squares, squares, 2, |args, p| {
        args.push_back(Value::Integer(i64::from(p.x)));
        args.push_back(Value::Integer(i64::from(p.y)));
    })
}

/// An array of `values` (none nil), in order.
pub(crate) fn list(lua: &Lua, values: Vec<Value>) -> mlua::Result<Table> {
    let b = builders(lua)?;
    if values.len() <= CHUNK {
        return b.list.call(MultiValue::from_vec(values));
    }
    filled(lua, &b.append, &values, 1, |args, v| {
        args.push_back(v.clone())
    })
}

/// A trigger's moment: each field that is `Some`.
pub(crate) struct MomentFields<'a> {
    pub(crate) unit: Option<Value>,
    pub(crate) model: Option<Value>,
    pub(crate) at: Option<Value>,
    pub(crate) side: Option<&'static str>,
    pub(crate) round: u32,
    pub(crate) token: Option<Value>,
    pub(crate) attack: Option<&'static str>,
    pub(crate) target: Option<Value>,
    pub(crate) amount: Option<Value>,
    pub(crate) by: Option<&'a str>,
    pub(crate) card: Option<&'a str>,
}

/// The moment table: `{ unit, model, at, side, round, token, attack, target, amount, by, card }`
/// with the fields that are `None` left out.
pub(crate) fn moment(lua: &Lua, m: MomentFields<'_>) -> mlua::Result<Table> {
    let b = builders(lua)?;
    let or_nil = |v: Option<Value>| v.unwrap_or(Value::Nil);
    let args = MultiValue::from_vec(vec![
        or_nil(m.unit),
        or_nil(m.model),
        or_nil(m.at),
        or_nil(m.side.map(|s| s.into_lua(lua)).transpose()?),
        Value::Integer(i64::from(m.round)),
        or_nil(m.token),
        or_nil(m.attack.map(|s| s.into_lua(lua)).transpose()?),
        or_nil(m.target),
        or_nil(m.amount),
        or_nil(m.by.map(|s| s.into_lua(lua)).transpose()?),
        or_nil(m.card.map(|s| s.into_lua(lua)).transpose()?),
    ]);
    b.moment.call(args)
}

/// A token table: `{ id, kind, class, x, y, carried_by }` (`class` and `carried_by` when known).
pub(crate) fn token(
    lua: &Lua,
    id: &str,
    kind: &str,
    class: Option<&'static str>,
    pos: Pos,
    carried_by: Option<&str>,
) -> mlua::Result<Table> {
    builders(lua)?
        .token
        .call((id, kind, class, pos.x, pos.y, carried_by))
}

/// The raw `x` and `y` fields of a table (a square, as scripts pass them).
pub(crate) fn xy(t: &Table) -> mlua::Result<(Value, Value)> {
    let b = t
        .weak_lua()
        .try_upgrade()
        .and_then(|lua| lua.app_data_ref::<Rc<Builders>>().map(|b| Rc::clone(&b)));
    match b {
        Some(b) => Ok((t.raw_get(&b.key_x)?, t.raw_get(&b.key_y)?)),
        None => Ok((t.raw_get("x")?, t.raw_get("y")?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Limits;
    use crate::Sandbox;

    fn lua_with_builders() -> Sandbox {
        let sandbox = Sandbox::new(Limits::default()).expect("sandbox");
        install(sandbox.lua()).expect("builders");
        sandbox
    }

    #[test]
    fn long_lists_keep_every_value_in_order_across_chunks() {
        let sandbox = lua_with_builders();
        let lua = sandbox.lua();
        for n in [
            0,
            1,
            CHUNK - 1,
            CHUNK,
            CHUNK + 1,
            767,
            768,
            769,
            1536,
            3 * CHUNK + 7,
        ] {
            let values: Vec<Value> = (0..n).map(|i| Value::Integer(i as i64 * 7)).collect();
            let t = list(lua, values).expect("list");
            assert_eq!(t.raw_len(), n, "length of a list of {n}");
            for i in 0..n {
                assert_eq!(t.raw_get::<i64>(i + 1).expect("item"), i as i64 * 7);
            }
        }
    }

    #[test]
    fn square_lists_hold_each_square_with_its_steps_in_order() {
        let sandbox = lua_with_builders();
        let lua = sandbox.lua();
        let n = 768;
        let given: Vec<(Pos, u32)> = (0..n)
            .map(|i| (Pos::new(i as i32 % 13, i as i32 / 13), i as u32 % 5))
            .collect();
        let t = squares_with_steps(lua, &given).expect("squares");
        assert_eq!(t.raw_len(), n);
        for (i, (p, steps)) in given.iter().enumerate() {
            let sq: Table = t.raw_get(i + 1).expect("square");
            assert_eq!(sq.raw_get::<i32>("x").expect("x"), p.x);
            assert_eq!(sq.raw_get::<i32>("y").expect("y"), p.y);
            assert_eq!(sq.raw_get::<u32>("steps").expect("steps"), *steps);
        }
        let plain = squares(lua, &given.iter().map(|(p, _)| *p).collect::<Vec<_>>()).expect("sq");
        assert_eq!(plain.raw_len(), n);
        let last: Table = plain.raw_get(n).expect("last");
        assert_eq!(
            xy(&last).expect("xy").0,
            Value::Integer(i64::from(given[n - 1].0.x))
        );
        assert!(last.raw_get::<Value>("steps").expect("steps").is_nil());
    }

    #[test]
    fn a_moment_leaves_out_the_fields_it_does_not_have() {
        let sandbox = lua_with_builders();
        let lua = sandbox.lua();
        let t = moment(
            lua,
            MomentFields {
                unit: None,
                model: None,
                at: Some(Value::Table(square(lua, Pos::new(2, 3)).expect("sq"))),
                side: Some("heroes"),
                round: 4,
                token: None,
                attack: None,
                target: None,
                amount: Some(Value::Integer(2)),
                by: None,
                card: Some("swarm"),
            },
        )
        .expect("moment");
        let mut keys: Vec<String> = t
            .pairs::<String, Value>()
            .map(|kv| kv.expect("pair").0)
            .collect();
        keys.sort();
        assert_eq!(keys, ["amount", "at", "card", "round", "side"]);
        assert_eq!(t.raw_get::<u32>("round").expect("round"), 4);
    }
}

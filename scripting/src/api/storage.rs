//! `game.storage`: what a behaviour keeps between calls (RULES.md §8), as a Lua table of plain
//! values built from the game state when a call first reads it and written back, checked, when
//! the call ends (also when it ends by an error: what it did stands).
//!
//! Both directions are bounded by the limits of `overmind_core::storage` and deterministic:
//! tables are built and read in key order (integers before strings), so a replay builds the
//! same tables and a game's storage compares equal however the script filled it.

use mlua::{Lua, Table, Value as Lua_};
use overmind_core::storage::{
    Key, Value, MAX_STORAGE_BYTES, MAX_STORAGE_DEPTH, MAX_STORAGE_VALUES,
};

/// What a storage table may hold, for error messages.
const PLAIN: &str = "game.storage keeps only nil, booleans, numbers, strings and tables of \
                     these, with integer or string keys";

/// The Lua table for a stored value (`None`, or anything but a table: an empty table).
///
/// # Errors
/// Lua could not allocate the tables (a memory budget).
pub(crate) fn to_lua(lua: &Lua, value: Option<&Value>) -> mlua::Result<Table> {
    match value {
        Some(Value::Table(entries)) => table(lua, entries),
        _ => lua.create_table(),
    }
}

fn table(lua: &Lua, entries: &[(Key, Value)]) -> mlua::Result<Table> {
    let array = entries
        .iter()
        .take_while(|(k, _)| matches!(k, Key::Int(_)))
        .count();
    let t = lua.create_table_with_capacity(array, entries.len() - array)?;
    for (k, v) in entries {
        let v = match v {
            Value::Bool(b) => Lua_::Boolean(*b),
            Value::Int(i) => Lua_::Integer(*i),
            Value::Num(n) => Lua_::Number(*n),
            Value::Str(s) => Lua_::String(lua.create_string(s)?),
            Value::Table(e) => Lua_::Table(table(lua, e)?),
        };
        match k {
            Key::Int(i) => t.raw_set(*i, v)?,
            Key::Str(s) => t.raw_set(lua.create_string(s)?, v)?,
        }
    }
    Ok(t)
}

/// Why a storage table cannot be kept, and where the offending value was made when that is
/// known (a function's `path:line`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NotPlain {
    pub(crate) message: String,
    pub(crate) at: Option<(String, u32)>,
}

struct Walk {
    values: usize,
    bytes: usize,
    /// The tables from the root to the one being read, to find cycles.
    open: Vec<*const std::ffi::c_void>,
}

/// `game.storage.a[3].b` for a key path.
fn place(path: &[Key]) -> String {
    let mut s = String::from("game.storage");
    for k in path {
        match k {
            Key::Int(i) => s.push_str(&format!("[{i}]")),
            Key::Str(k)
                if k.chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                s.push('.');
                s.push_str(k);
            }
            Key::Str(k) => s.push_str(&format!("[{k:?}]")),
        }
    }
    s
}

fn fail<T>(path: &[Key], what: String) -> Result<T, NotPlain> {
    Err(NotPlain {
        message: format!("{}: {what}", place(path)),
        at: None,
    })
}

/// The plain value a storage table holds now, read raw (no metamethod runs) and in key order.
///
/// # Errors
/// Something in it is not plain (a function, userdata, coroutine, a table with a metatable or
/// a cycle, NaN or an infinity, a key that is neither an integer nor a string, a string that
/// is not UTF-8) or it is over the storage limits; reading stops at the first problem, so the
/// work is bounded by the limits.
pub(crate) fn from_lua(t: &Table) -> Result<Value, NotPlain> {
    let mut walk = Walk {
        values: 0,
        bytes: 0,
        open: Vec::new(),
    };
    let mut path = Vec::new();
    read_table(t, &mut walk, &mut path)
}

/// Counts one value (`values` is 0 for a key) and `bytes` of string.
fn count(walk: &mut Walk, path: &[Key], values: usize, bytes: usize) -> Result<(), NotPlain> {
    walk.values += values;
    walk.bytes += bytes;
    if walk.values > MAX_STORAGE_VALUES {
        return fail(
            path,
            format!("game.storage holds more than {MAX_STORAGE_VALUES} values"),
        );
    }
    if walk.bytes > MAX_STORAGE_BYTES {
        return fail(
            path,
            format!("game.storage holds more than {MAX_STORAGE_BYTES} bytes of strings"),
        );
    }
    Ok(())
}

fn string(s: &mlua::LuaString, path: &[Key]) -> Result<String, NotPlain> {
    match s.to_str() {
        Ok(text) => Ok(text.to_string()),
        Err(_) => fail(path, "a string that is not UTF-8 cannot be kept".into()),
    }
}

fn read_table(t: &Table, walk: &mut Walk, path: &mut Vec<Key>) -> Result<Value, NotPlain> {
    count(walk, path, 1, 0)?;
    if t.metatable().is_some() {
        return fail(
            path,
            format!("a table with a metatable cannot be kept: {PLAIN}"),
        );
    }
    let me = t.to_pointer();
    if walk.open.contains(&me) {
        return fail(
            path,
            "the table contains itself (a cycle), which cannot be kept".into(),
        );
    }
    if walk.open.len() >= MAX_STORAGE_DEPTH {
        return fail(path, format!("tables nest deeper than {MAX_STORAGE_DEPTH}"));
    }
    walk.open.push(me);
    let mut entries: Vec<(Key, Lua_)> = Vec::new();
    for pair in t.pairs::<Lua_, Lua_>() {
        let Ok((k, v)) = pair else {
            return fail(path, "the table could not be read".into());
        };
        let key = match &k {
            Lua_::Integer(i) => Key::Int(*i),
            Lua_::String(s) => {
                let s = string(s, path)?;
                count(walk, path, 0, s.len())?;
                Key::Str(s)
            }
            other => {
                let what = match other {
                    Lua_::Number(_) => "a number that is not an integer".to_string(),
                    o => format!("a {}", o.type_name()),
                };
                return fail(path, format!("{what} cannot be a key: {PLAIN}"));
            }
        };
        entries.push((key, v));
        if entries.len() > MAX_STORAGE_VALUES {
            return fail(
                path,
                format!("game.storage holds more than {MAX_STORAGE_VALUES} values"),
            );
        }
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Vec::with_capacity(entries.len());
    for (k, v) in entries {
        path.push(k.clone());
        let value = read_value(&v, walk, path)?;
        path.pop();
        out.push((k, value));
    }
    walk.open.pop();
    Ok(Value::Table(out))
}

fn read_value(v: &Lua_, walk: &mut Walk, path: &mut Vec<Key>) -> Result<Value, NotPlain> {
    match v {
        Lua_::Boolean(b) => {
            count(walk, path, 1, 0)?;
            Ok(Value::Bool(*b))
        }
        Lua_::Integer(i) => {
            count(walk, path, 1, 0)?;
            Ok(Value::Int(*i))
        }
        Lua_::Number(n) => {
            count(walk, path, 1, 0)?;
            if n.is_finite() {
                Ok(Value::Num(*n))
            } else {
                fail(path, format!("{n} cannot be kept (numbers must be finite)"))
            }
        }
        Lua_::String(s) => {
            let s = string(s, path)?;
            count(walk, path, 1, s.len())?;
            Ok(Value::Str(s))
        }
        Lua_::Table(t) => read_table(t, walk, path),
        Lua_::Function(f) => {
            let info = f.info();
            let at = info
                .source
                .as_deref()
                .and_then(|s| s.strip_prefix('@'))
                .zip(info.line_defined.and_then(|l| u32::try_from(l).ok()))
                .map(|(p, l)| (p.to_string(), l));
            let made = match &at {
                Some((p, l)) => format!(" (defined at {p}:{l})"),
                None => String::new(),
            };
            Err(NotPlain {
                message: format!("{}: a function{made} cannot be kept: {PLAIN}", place(path)),
                at,
            })
        }
        other => fail(
            path,
            format!("a {} cannot be kept: {PLAIN}", type_name(other)),
        ),
    }
}

fn type_name(v: &Lua_) -> String {
    match v {
        Lua_::UserData(ud) => ud
            .metatable()
            .ok()
            .and_then(|mt| mt.get::<String>("__name").ok())
            .map_or_else(|| "userdata".to_string(), |n| format!("{n} handle")),
        Lua_::LightUserData(_) => "userdata".into(),
        other => other.type_name().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lua_value(lua: &Lua, code: &str) -> Table {
        lua.load(code).eval().expect("evaluates")
    }

    #[test]
    fn round_trips_in_key_order_with_ints_and_floats_apart() {
        let lua = Lua::new();
        let t = lua_value(
            &lua,
            "return { 10, 20, [5] = 2.0, z = 'last', a = { true, false }, n = -0.5 }",
        );
        let v = from_lua(&t).expect("plain");
        assert_eq!(
            v,
            Value::Table(vec![
                (Key::Int(1), Value::Int(10)),
                (Key::Int(2), Value::Int(20)),
                (Key::Int(5), Value::Num(2.0)),
                (
                    Key::Str("a".into()),
                    Value::Table(vec![
                        (Key::Int(1), Value::Bool(true)),
                        (Key::Int(2), Value::Bool(false)),
                    ])
                ),
                (Key::Str("n".into()), Value::Num(-0.5)),
                (Key::Str("z".into()), Value::Str("last".into())),
            ])
        );
        assert!(v.check().is_ok());
        let back = to_lua(&lua, Some(&v)).expect("builds");
        assert_eq!(from_lua(&back).expect("plain"), v);
        let five: Lua_ = back.raw_get(5).expect("get");
        assert!(matches!(five, Lua_::Number(n) if n == 2.0), "{five:?}");
    }

    #[test]
    fn refuses_what_is_not_plain_and_says_where() {
        let lua = Lua::new();
        let cases = [
            (
                "return { f = function() end }",
                "game.storage.f: a function",
            ),
            (
                "return { a = { [1.5] = 1 } }",
                "game.storage.a: a number that is not an integer cannot be a key",
            ),
            ("return { [true] = 1 }", "a boolean cannot be a key"),
            ("return { x = 0/0 }", "game.storage.x: NaN cannot be kept"),
            ("return { x = math.huge }", "inf cannot be kept"),
            (
                "local t = {} t.me = t return { t = t }",
                "game.storage.t.me: the table contains itself",
            ),
            (
                "return { m = setmetatable({}, {}) }",
                "game.storage.m: a table with a metatable",
            ),
            (
                "return { c = coroutine.create(print) }",
                "a thread cannot be kept",
            ),
            (
                "return { ['a b'] = { print } }",
                "game.storage[\"a b\"][1]: a function",
            ),
        ];
        for (code, want) in cases {
            let e = from_lua(&lua_value(&lua, code)).expect_err(code);
            assert!(e.message.contains(want), "{code}: {}", e.message);
        }
    }

    #[test]
    fn a_function_names_where_it_was_defined() {
        let lua = Lua::new();
        let t: Table = lua
            .load("return {\n  keep = function() end,\n}")
            .set_name("@behaviours/keep.lua")
            .eval()
            .expect("evaluates");
        let e = from_lua(&t).expect_err("a function");
        assert_eq!(e.at, Some(("behaviours/keep.lua".to_string(), 2)));
        assert!(
            e.message
                .starts_with("game.storage.keep: a function (defined at behaviours/keep.lua:2)"),
            "{}",
            e.message
        );
    }

    #[test]
    fn shared_subtables_are_copies_and_blowups_stop_at_the_limit() {
        let lua = Lua::new();
        let t = lua_value(&lua, "local s = { 1 } return { a = s, b = s }");
        assert!(from_lua(&t).is_ok(), "a table reached twice is no cycle");
        // 2^20 leaves if copied out: the value count stops the walk early.
        let t = lua_value(
            &lua,
            "local t = { 1 } for i = 1, 20 do t = { t, t } end return { t = t }",
        );
        let e = from_lua(&t).expect_err("too big");
        assert!(e.message.contains("more than"), "{}", e.message);
        let t = lua_value(&lua, "local t = {} for i = 1, 40 do t = { t } end return t");
        let e = from_lua(&t).expect_err("too deep");
        assert!(e.message.contains("deeper than"), "{}", e.message);
    }
}

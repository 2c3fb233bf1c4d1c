//! One protected call from the host straight into a Lua function, with the sandbox's message
//! handler: the fixed cost of a sealed script's call without mlua's and the prelude's frames.
//!
//! `Function::call` protects the call with mlua's own handler, so a sealed call used to go
//! Rust → `lua_pcall` → prelude (`call_hook`, `call_sealed`) → `xpcall(f, fail)` → `f`: two
//! protected calls and three Lua frames before the script's first instruction, each instruction
//! dearer under the budget's count hook. Here the host pushes `fail` (the prelude's handler,
//! which records where the call failed) and calls the function itself: one protected call.
//! A failure is raised again through mlua (`raise`), so it reaches the host exactly as the
//! prelude's `error(e, 0)` made it reach it before: the same value, converted by mlua.

use mlua::state::RawLua;
use mlua::{ffi, Function, Lua, Value};

/// The most arguments [`call`] pushes.
pub(crate) const MAX_ARGS: i32 = 8;

/// Calls `func` with the arguments `push` pushes (at most [`MAX_ARGS`]; it returns how many)
/// under `lua_pcall` with `handler` as the message handler, and returns its first result; a
/// failure is the handler's value raised again through `raise`.
pub(crate) fn call(
    lua: &Lua,
    handler: &Function,
    raise: &Function,
    func: &Function,
    push: impl FnOnce(&RawLua) -> mlua::Result<i32>,
) -> mlua::Result<Value> {
    // SAFETY: the raw calls below keep Lua's stack balanced (the top is restored before the
    // closure returns, whatever happened) and never raise outside protection: `lua_checkstack`
    // and the pushes of existing values (references and numbers; `push_value` allocates only
    // for `Value::Error`, which no caller passes) do not raise, and everything that can raise
    // runs inside `lua_pcall`. It is what mlua's own `Function::call` does, with our handler;
    // values are pushed by reference, as mlua pushes its own.
    let (ok, value) = lua.exec_raw_lua(|raw| unsafe {
        let state = raw.state();
        let top = ffi::lua_gettop(state);
        if ffi::lua_checkstack(state, MAX_ARGS + 4) == 0 {
            return Err(mlua::Error::StackError);
        }
        let pushed = (|| {
            raw.push(handler)?;
            raw.push(func)?;
            let n = push(raw)?;
            if n > MAX_ARGS || ffi::lua_gettop(state) != top + 2 + n {
                return Err(mlua::Error::StackError);
            }
            Ok::<i32, mlua::Error>(n)
        })();
        let nargs = match pushed {
            Ok(n) => n,
            Err(e) => {
                ffi::lua_settop(state, top);
                return Err(e);
            }
        };
        let status = ffi::lua_pcall(state, nargs, 1, top + 1);
        let value = raw.pop_value();
        ffi::lua_settop(state, top);
        Ok((status == ffi::LUA_OK, value))
    })?;
    if ok {
        Ok(value)
    } else {
        raise.call::<()>(value)?;
        // `raise` always raises; if it ever returned, the call still failed.
        Err(mlua::Error::runtime("a script call failed"))
    }
}

/// Whether `table[key]` (read raw) is `true`: a flag the prelude sets, read without mlua's
/// wrapper frames.
pub(crate) fn raw_flag(lua: &Lua, table: &mlua::Table, key: i64) -> bool {
    // SAFETY: pushes a reference and reads a raw field: neither raises; the top is restored.
    lua.exec_raw_lua(|raw| unsafe {
        let state = raw.state();
        if ffi::lua_checkstack(state, 2) == 0 {
            // Unknown: the caller then does what a set flag asks, which is always safe.
            return true;
        }
        let top = ffi::lua_gettop(state);
        if raw.push(table).is_err() {
            ffi::lua_settop(state, top);
            return true;
        }
        ffi::lua_rawgeti(state, -1, key);
        let set =
            ffi::lua_type(state, -1) == ffi::LUA_TBOOLEAN && ffi::lua_toboolean(state, -1) != 0;
        ffi::lua_settop(state, top);
        set
    })
}

//! The load-time check that a definition script's functions keep nothing between calls: none
//! assigns a local of the script's top level (read from Lua's own compiled code).
//!
//! A definition script's top level runs once, when it loads; its functions are then called
//! again and again. A local of the top level that a function assigns (`count = count + 1`)
//! would carry from one call to the next, so it is refused here, at the line of the assignment.
//! The tables such locals hold are made read-only when the script is sealed (the prelude's
//! `seal`), and globals go to a scratch table of each call, so this check is the one that
//! needs the compiled code: Lua's parser has already resolved every name, and the instruction
//! that assigns an upvalue (`SETUPVAL`) names the local it reaches.

/// One assignment of a top-level local from inside a function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeptLocal {
    /// The local's name (`?` when the compiled code carries no name).
    pub(crate) name: String,
    /// The line of the assignment.
    pub(crate) line: u32,
}

/// Lua 5.4's `MOVE A B`: `R[A] := R[B]`.
const OP_MOVE: u32 = 0;
/// Lua 5.4's `GETUPVAL A B`: `R[A] := UpValue[B]`.
const OP_GETUPVAL: u32 = 9;
/// Lua 5.4's `SETUPVAL A B`: `UpValue[B] := R[A]`.
const OP_SETUPVAL: u32 = 10;
/// Lua 5.4's `GETTABLE A B C`: `R[A] := R[B][R[C]]`.
const OP_GETTABLE: u32 = 12;
/// Lua 5.4's `SETTABUP A B C`: `UpValue[A][K[B]] := RK(C)` (a global write).
const OP_SETTABUP: u32 = 15;
/// Lua 5.4's `SETTABLE`, `SETI` and `SETFIELD A B C`: `R[A][..] := RK(C)`.
const OP_SETTABLE: u32 = 16;
const OP_SETI: u32 = 17;
const OP_SETFIELD: u32 = 18;
/// Lua 5.4's `SELF A B C`: `R[A+1] := R[B]; R[A] := R[B][RK(C)]`.
const OP_SELF: u32 = 20;
/// Lua 5.4's `RETURN A B` and `RETURN1 A`: return `R[A]` and on.
const OP_RETURN: u32 = 70;
const OP_RETURN1: u32 = 72;
/// Names that reach a script's environment or load code unseen here: a script that holds
/// either string keeps a scratch environment per call.
const ENV_NAMES: [&str; 2] = ["_G", "load"];
/// A line-info byte that says the line is in the absolute table instead.
const ABS_LINE_INFO: i8 = -0x80;

/// One function prototype of a dump, with what the check needs.
struct Proto {
    line_defined: u32,
    code: Vec<u32>,
    /// The string constants by index (`None` for any other constant).
    strings: Vec<Option<String>>,
    /// `(in the enclosing function's registers, index)` of each upvalue.
    upvalues: Vec<(bool, usize)>,
    protos: Vec<Proto>,
    line_info: Vec<i8>,
    abs_line_info: Vec<(usize, u32)>,
    upvalue_names: Vec<String>,
    /// The name of the first local (a parameter when it starts at instruction 0).
    first_local: Option<String>,
}

impl Proto {
    /// The source line of instruction `pc` (Lua's `luaG_getfuncline`).
    fn line(&self, pc: usize) -> u32 {
        let (start, mut line) = match self.abs_line_info.iter().rev().find(|(p, _)| *p <= pc) {
            Some(&(p, l)) => (p + 1, l),
            None => (0, self.line_defined),
        };
        for d in self.line_info.iter().take(pc + 1).skip(start) {
            if *d != ABS_LINE_INFO {
                line = line.saturating_add_signed(i32::from(*d));
            }
        }
        line
    }
}

/// Reads a dump made by `lua_dump` (Lua 5.4, not stripped).
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or("the compiled code ends early")?;
        self.at += 1;
        Ok(b)
    }

    fn skip(&mut self, n: usize) -> Result<(), String> {
        if self.bytes.len() - self.at < n {
            return Err("the compiled code ends early".into());
        }
        self.at += n;
        Ok(())
    }

    /// `dumpSize`: 7 bits a byte, most significant first, the last byte marked.
    fn size(&mut self) -> Result<usize, String> {
        let mut x: usize = 0;
        loop {
            let b = self.byte()?;
            x = x
                .checked_mul(128)
                .and_then(|x| x.checked_add(usize::from(b & 0x7f)))
                .ok_or("a size in the compiled code overflows")?;
            if b & 0x80 != 0 {
                return Ok(x);
            }
        }
    }

    fn int(&mut self) -> Result<u32, String> {
        u32::try_from(self.size()?).map_err(|_| "a number in the compiled code overflows".into())
    }

    fn string(&mut self) -> Result<Option<String>, String> {
        match self.size()? {
            0 => Ok(None),
            n => {
                let len = n - 1;
                if self.bytes.len() - self.at < len {
                    return Err("the compiled code ends early".into());
                }
                let s = String::from_utf8_lossy(&self.bytes[self.at..self.at + len]).into_owned();
                self.at += len;
                Ok(Some(s))
            }
        }
    }

    fn function(&mut self, depth: u32) -> Result<Proto, String> {
        if depth > 250 {
            return Err("functions nested too deep".into());
        }
        self.string()?; // source
        let line_defined = self.int()?;
        self.int()?; // last line
        self.skip(3)?; // params, vararg, stack size
        let n = self.size()?;
        let mut code = Vec::with_capacity(n.min(1 << 20));
        for _ in 0..n {
            let mut b = [0u8; 4];
            for x in &mut b {
                *x = self.byte()?;
            }
            code.push(u32::from_ne_bytes(b));
        }
        let n = self.size()?;
        let mut strings = Vec::with_capacity(n.min(1 << 20));
        for _ in 0..n {
            strings.push(match self.byte()? {
                // float, integer
                0x13 | 0x03 => {
                    self.skip(8)?;
                    None
                }
                // short and long strings
                0x04 | 0x14 => self.string()?,
                _ => None,
            });
        }
        let mut upvalues = Vec::new();
        for _ in 0..self.size()? {
            let instack = self.byte()? != 0;
            let idx = self.byte()?;
            self.byte()?; // kind
            upvalues.push((instack, usize::from(idx)));
        }
        let mut protos = Vec::new();
        for _ in 0..self.size()? {
            protos.push(self.function(depth + 1)?);
        }
        let n = self.size()?;
        let mut line_info = Vec::with_capacity(n.min(1 << 20));
        for _ in 0..n {
            line_info.push(i8::from_ne_bytes([self.byte()?]));
        }
        let mut abs_line_info = Vec::new();
        for _ in 0..self.size()? {
            let pc = self.size()?;
            let line = self.int()?;
            abs_line_info.push((pc, line));
        }
        let mut first_local = None;
        for k in 0..self.size()? {
            let name = self.string()?;
            let start = self.size()?;
            self.size()?;
            if k == 0 && start == 0 {
                first_local = name;
            }
        }
        let mut upvalue_names = Vec::new();
        for _ in 0..self.size()? {
            upvalue_names.push(self.string()?.unwrap_or_else(|| "?".into()));
        }
        Ok(Proto {
            line_defined,
            code,
            strings,
            upvalues,
            protos,
            line_info,
            abs_line_info,
            upvalue_names,
            first_local,
        })
    }
}

/// Every assignment, inside a function of the script, of a local of `dump`'s main function
/// (the script's top level, its `_ENV` included), in code order.
///
/// # Errors
/// The dump is not one this Lua wrote (a host bug, not the script's).
pub(crate) fn kept_locals(dump: &[u8]) -> Result<Vec<KeptLocal>, String> {
    let main = main_function(dump)?;
    let mut out = Vec::new();
    for child in &main.protos {
        // The chain of enclosing functions below the top level, innermost last.
        let mut chain = vec![child];
        walk(&mut chain, &mut out);
    }
    Ok(out)
}

/// The main function of a dump made by `lua_dump` (Lua 5.4, not stripped).
fn main_function(dump: &[u8]) -> Result<Proto, String> {
    // Signature, version, format, LUAC_DATA, three sizes, LUAC_INT, LUAC_NUM; then the main
    // function's upvalue count.
    const HEADER: usize = 4 + 1 + 1 + 6 + 3 + 8 + 8;
    if !dump.starts_with(b"\x1bLua") || dump.get(4) != Some(&0x54) {
        return Err("not a Lua 5.4 dump".into());
    }
    let mut r = Reader {
        bytes: dump,
        at: HEADER + 1,
    };
    r.function(0)
}

/// Whether the script's functions use its environment only to read globals by name: none
/// assigns a global, takes `_ENV` as a value or declares an `_ENV` of its own; the top level
/// hands its environment to nothing but global reads and writes; and no code of the script
/// holds the string `_G` or `load` (the ways to reach the environment or load code that
/// this check cannot see). Such functions can share one read-only environment for every call,
/// since nothing they run can write to it or hand it on.
///
/// The top level's environment is its upvalue 0 in a plain chunk, or its parameter `_ENV`
/// (register 0) in the host's `function(_ENV, ...)` factory.
///
/// # Errors
/// The dump is not one this Lua wrote (a host bug, not the script's).
pub(crate) fn reads_globals_only(dump: &[u8]) -> Result<bool, String> {
    let main = main_function(dump)?;
    if names_env(&main) {
        return Ok(false);
    }
    let env = if main.first_local.as_deref() == Some("_ENV") {
        Env::Register
    } else {
        Env::Upvalue
    };
    for &i in &main.code {
        let handed_on = match (env, i & 0x7f) {
            (Env::Upvalue, OP_GETUPVAL) => arg_b(i) == 0,
            (Env::Register, OP_MOVE | OP_GETTABLE | OP_SELF) => arg_b(i) == 0,
            (Env::Register, OP_SETTABLE | OP_SETI | OP_SETFIELD) => !arg_k(i) && arg_c(i) == 0,
            (Env::Register, OP_RETURN | OP_RETURN1) => arg_a(i) == 0,
            _ => false,
        };
        if handed_on {
            return Ok(false);
        }
    }
    Ok(main.protos.iter().all(|child| {
        let mut chain = vec![child];
        reads_only(&mut chain, env)
    }))
}

/// Where the top level keeps its environment.
#[derive(Clone, Copy)]
enum Env {
    /// Upvalue 0 (a plain chunk).
    Upvalue,
    /// Register 0 (the host's factory's first parameter).
    Register,
}

fn arg_a(i: u32) -> usize {
    ((i >> 7) & 0xff) as usize
}

fn arg_k(i: u32) -> bool {
    (i >> 15) & 1 != 0
}

fn arg_b(i: u32) -> usize {
    ((i >> 16) & 0xff) as usize
}

fn arg_c(i: u32) -> usize {
    ((i >> 24) & 0xff) as usize
}

/// Whether `f` or a function nested in it holds the string `_G` or `load`.
fn names_env(f: &Proto) -> bool {
    f.strings
        .iter()
        .flatten()
        .any(|s| ENV_NAMES.contains(&s.as_str()))
        || f.protos.iter().any(names_env)
}

/// [`reads_globals_only`] for the innermost function of `chain` and those nested in it.
fn reads_only(chain: &mut Vec<&Proto>, env: Env) -> bool {
    let Some(&f) = chain.last() else {
        return true;
    };
    // An `_ENV` that is not the top level's (a local `_ENV` of the script's own).
    let own_env = f
        .upvalue_names
        .iter()
        .enumerate()
        .any(|(idx, name)| name == "_ENV" && !is_top_level_env(chain, idx, env));
    if own_env {
        return false;
    }
    for &i in &f.code {
        let ok = match i & 0x7f {
            OP_GETUPVAL => !is_top_level_env(chain, arg_b(i), env),
            OP_SETTABUP => !is_top_level_env(chain, arg_a(i), env),
            _ => true,
        };
        if !ok {
            return false;
        }
    }
    f.protos.iter().all(|p| {
        chain.push(p);
        let ok = reads_only(chain, env);
        chain.pop();
        ok
    })
}

/// Whether upvalue `idx` of the innermost function of `chain` is the top level's environment,
/// reached through the enclosing functions' upvalues.
fn is_top_level_env(chain: &[&Proto], mut idx: usize, env: Env) -> bool {
    for level in (0..chain.len()).rev() {
        let Some(&(in_stack, at)) = chain[level].upvalues.get(idx) else {
            return false;
        };
        if in_stack {
            // A register of the enclosing function: the top level's when this is chain[0].
            return level == 0 && at == 0 && matches!(env, Env::Register);
        }
        idx = at;
    }
    idx == 0 && matches!(env, Env::Upvalue)
}

/// Checks the innermost function of `chain` and those nested in it.
fn walk(chain: &mut Vec<&Proto>, out: &mut Vec<KeptLocal>) {
    let Some(&f) = chain.last() else {
        return;
    };
    for (pc, &i) in f.code.iter().enumerate() {
        if i & 0x7f != OP_SETUPVAL {
            continue;
        }
        let b = arg_b(i);
        if reaches_top_level(chain, b) {
            out.push(KeptLocal {
                name: f
                    .upvalue_names
                    .get(b)
                    .cloned()
                    .unwrap_or_else(|| "?".into()),
                line: f.line(pc),
            });
        }
    }
    for p in &f.protos {
        chain.push(p);
        walk(chain, out);
        chain.pop();
    }
}

/// Whether upvalue `idx` of the innermost function of `chain` is a local (or the upvalue
/// `_ENV`) of the top level, which encloses `chain[0]`.
fn reaches_top_level(chain: &[&Proto], mut idx: usize) -> bool {
    for level in (0..chain.len()).rev() {
        let Some(&(in_stack, at)) = chain[level].upvalues.get(idx) else {
            return false;
        };
        if in_stack {
            // A register of the enclosing function: the top level's when this is chain[0].
            return level == 0;
        }
        idx = at;
    }
    // Through chain[0]'s upvalues to the top level's own upvalues (its `_ENV`).
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlua::{chunk::ChunkMode, Lua};

    fn kept(src: &str) -> Vec<(String, u32)> {
        let lua = Lua::new();
        let f = lua
            .load(src)
            .set_mode(ChunkMode::Text)
            .into_function()
            .expect("compiles");
        kept_locals(&f.dump(false))
            .expect("reads")
            .into_iter()
            .map(|k| (k.name, k.line))
            .collect()
    }

    #[test]
    fn a_function_assigning_a_top_level_local_is_found_at_its_line() {
        let src = "local n = 0\nlocal t = {}\nlocal function f()\n  local m = 1\n  m = m + 1\n  t.x = 1\n  n = n + 1\nend\nreturn f";
        assert_eq!(kept(src), [("n".to_string(), 7)]);
    }

    #[test]
    fn nested_functions_reach_the_top_level_through_their_parents() {
        let src = "local n = 0\nreturn function()\n  local own = 0\n  return function()\n    own = own + 1\n    n = 2\n  end\nend";
        assert_eq!(kept(src), [("n".to_string(), 6)]);
    }

    #[test]
    fn the_top_level_itself_may_assign_its_locals_and_env() {
        assert!(kept("local n = 0\nn = 1\nx = 2\nreturn n").is_empty());
        assert_eq!(
            kept("return function() _ENV = {} end"),
            [("_ENV".to_string(), 1)]
        );
        assert!(
            kept("return function() x = 1 end").is_empty(),
            "globals are not locals"
        );
    }

    /// The check on `src` as a plain chunk and as the host compiles it (the body of a
    /// `function(_ENV, ...)` factory); both must agree.
    fn reads_only(src: &str) -> bool {
        let lua = Lua::new();
        let plain = lua
            .load(src)
            .set_mode(ChunkMode::Text)
            .into_function()
            .expect("compiles");
        let factory: mlua::Function = lua
            .load(format!("return function(_ENV, ...) {src}\nend"))
            .set_mode(ChunkMode::Text)
            .call(())
            .expect("compiles");
        let a = reads_globals_only(&plain.dump(false)).expect("reads");
        let b = reads_globals_only(&factory.dump(false)).expect("reads");
        assert_eq!(a, b, "plain and factory differ: {src}");
        a
    }

    #[test]
    fn functions_that_only_read_globals_by_name_share_one_environment() {
        assert!(reads_only(
            "local t = {}\nhelper = 1\nreturn function(g) for _, v in ipairs(t) do print(v, math.max(1, helper)) end end"
        ));
        assert!(reads_only(
            "return function() return function() return type end end"
        ));
    }

    #[test]
    fn a_function_that_writes_or_hands_on_its_environment_keeps_a_scratch_one() {
        for src in [
            "return function() x = 1 end",
            "return function() return function() x = 1 end end",
            "return function() return _G end",
            "return function() return _ENV end",
            "return function(k) return _ENV[k] end",
            "return function() return load('return 1') end",
            "local e = _ENV\nreturn function() return e end",
            "local G = _G\nreturn function() return G end",
            "local _ENV = { print = print }\nreturn function() return print end",
            "return function() local _ENV = {} ; return function() return y end end",
            "setmetatable(_G, {})\nreturn function() end",
            "local f = load\nreturn function() end",
            "for k in pairs(_ENV) do end\nreturn function() end",
            "local mt = { __index = _ENV }\nreturn function() end",
            "local k = 'x'\nlocal v = _ENV[k]\nreturn function() end",
            "return _ENV",
            "return function() game:log('load') end",
        ] {
            assert!(!reads_only(src), "{src}");
        }
    }

    #[test]
    fn a_local_function_reassigned_is_found() {
        let src = "local function helper() end\nreturn function()\n  helper = nil\nend";
        assert_eq!(kept(src), [("helper".to_string(), 3)]);
    }
}

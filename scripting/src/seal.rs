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

/// Lua 5.4's `SETUPVAL A B`: `UpValue[B] := R[A]`.
const OP_SETUPVAL: u32 = 10;
/// A line-info byte that says the line is in the absolute table instead.
const ABS_LINE_INFO: i8 = -0x80;

/// One function prototype of a dump, with what the check needs.
struct Proto {
    line_defined: u32,
    code: Vec<u32>,
    /// `(in the enclosing function's registers, index)` of each upvalue.
    upvalues: Vec<(bool, usize)>,
    protos: Vec<Proto>,
    line_info: Vec<i8>,
    abs_line_info: Vec<(usize, u32)>,
    upvalue_names: Vec<String>,
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
        for _ in 0..self.size()? {
            match self.byte()? {
                // float, integer
                0x13 | 0x03 => self.skip(8)?,
                // short and long strings
                0x04 | 0x14 => {
                    self.string()?;
                }
                _ => {}
            }
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
        for _ in 0..self.size()? {
            self.string()?;
            self.size()?;
            self.size()?;
        }
        let mut upvalue_names = Vec::new();
        for _ in 0..self.size()? {
            upvalue_names.push(self.string()?.unwrap_or_else(|| "?".into()));
        }
        Ok(Proto {
            line_defined,
            code,
            upvalues,
            protos,
            line_info,
            abs_line_info,
            upvalue_names,
        })
    }
}

/// Every assignment, inside a function of the script, of a local of `dump`'s main function
/// (the script's top level, its `_ENV` included), in code order.
///
/// # Errors
/// The dump is not one this Lua wrote (a host bug, not the script's).
pub(crate) fn kept_locals(dump: &[u8]) -> Result<Vec<KeptLocal>, String> {
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
    let main = r.function(0)?;
    let mut out = Vec::new();
    for child in &main.protos {
        // The chain of enclosing functions below the top level, innermost last.
        let mut chain = vec![child];
        walk(&mut chain, &mut out);
    }
    Ok(out)
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
        let b = ((i >> 16) & 0xff) as usize;
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

    #[test]
    fn a_local_function_reassigned_is_found() {
        let src = "local function helper() end\nreturn function()\n  helper = nil\nend";
        assert_eq!(kept(src), [("helper".to_string(), 3)]);
    }
}

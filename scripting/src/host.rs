//! Host functions the prelude builds the safe library from: charging, budget checks,
//! metatable peeking, pattern matching, printing. Scripts never see these directly.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, MultiValue, Table, Value};

use crate::budget::{script_location, BudgetState, Exhausted};
use crate::error::{is_stack_overflow, split_location, Location, ScriptFailure};
use crate::pattern::{no_specials, plain_find, Capture, Matcher, PatternError};

/// The most values one library call may return (`table.unpack`, `string.byte`,
/// `utf8.codepoint`). Copying that many values is one VM instruction, so the number is kept
/// small.
pub const MAX_RESULTS: i64 = 1024;

/// Bytes of printed text kept in the default print buffer; later lines are counted, not kept.
const PRINT_BUFFER_BYTES: usize = 1024 * 1024;

const SCAN_ANCHOR: i64 = 1;
const SCAN_WHOLE: i64 = 2;
const SCAN_PLAIN: i64 = 4;
const SCAN_FIND: i64 = 8;
const SCAN_LAZY: i64 = 16;

/// One line a script printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintLine {
    /// Where the script called `print`.
    pub location: Option<Location>,
    /// The arguments, converted with the sandbox's `tostring` and joined with tabs.
    pub text: String,
}

/// Where `print` goes.
pub(crate) enum PrintSink {
    Buffer {
        lines: Vec<PrintLine>,
        bytes: usize,
        dropped: usize,
    },
    Custom(Box<dyn FnMut(&PrintLine)>),
}

impl PrintSink {
    pub(crate) fn buffer() -> Self {
        Self::Buffer {
            lines: Vec::new(),
            bytes: 0,
            dropped: 0,
        }
    }

    fn push(&mut self, line: PrintLine) {
        match self {
            Self::Buffer {
                lines,
                bytes,
                dropped,
            } => {
                if *bytes + line.text.len() > PRINT_BUFFER_BYTES {
                    *dropped += 1;
                } else {
                    *bytes += line.text.len();
                    lines.push(line);
                }
            }
            Self::Custom(sink) => sink(&line),
        }
    }

    /// Takes the buffered lines (and a note of how many were dropped).
    pub(crate) fn take(&mut self) -> Vec<PrintLine> {
        match self {
            Self::Buffer {
                lines,
                bytes,
                dropped,
            } => {
                let mut taken = std::mem::take(lines);
                if *dropped > 0 {
                    taken.push(PrintLine {
                        location: None,
                        text: format!("({dropped} more printed lines dropped: print buffer full)"),
                    });
                }
                *bytes = 0;
                *dropped = 0;
                taken
            }
            Self::Custom(_) => Vec::new(),
        }
    }
}

fn budget_error(err: crate::budget::BudgetError) -> mlua::Error {
    mlua::Error::external(err)
}

/// Builds the `host` table handed to the prelude.
pub(crate) fn register(
    lua: &Lua,
    budget: &Rc<BudgetState>,
    print: &Rc<RefCell<PrintSink>>,
    slots: &Table,
) -> mlua::Result<Table> {
    let host = lua.create_table()?;

    let b = Rc::clone(budget);
    host.raw_set(
        "charge",
        lua.create_function(move |lua, units: i64| {
            let units = u64::try_from(units).unwrap_or(0);
            b.consume(units, || script_location(lua))
                .map_err(budget_error)
        })?,
    )?;

    let b = Rc::clone(budget);
    host.raw_set(
        "spent",
        lua.create_function(move |lua, e: Value| Ok(spent(lua, &b, &e)))?,
    )?;

    host.raw_set(
        "is_host_error",
        lua.create_function(|_, e: Value| Ok(matches!(e, Value::Error(_))))?,
    )?;

    // What `tostring` shows of an error a host function raised and a script caught: its
    // message with the script's `path:line`, like a Lua string error (the API's own text).
    host.raw_set(
        "host_error_message",
        lua.create_function(|_, e: Value| {
            Ok(match e {
                Value::Error(err) => Some(crate::error::from_lua_error(&err).to_string()),
                _ => None,
            })
        })?,
    )?;

    let b = Rc::clone(budget);
    host.raw_set(
        "fail",
        lua.create_function(move |lua, e: Value| fail(lua, &b, e))?,
    )?;

    host.raw_set(
        "meta_field",
        lua.create_function(|_, (v, name): (Value, mlua::LuaString)| meta_field(&v, &name))?,
    )?;

    let b = Rc::clone(budget);
    host.raw_set(
        "scan",
        lua.create_function(
            move |lua, (s, p, init, last, flags): (mlua::LuaString, mlua::LuaString, i64, i64, i64)| {
                scan(lua, &b, &s, &p, init, last, flags)
            },
        )?,
    )?;

    let b = Rc::clone(budget);
    let sink = Rc::clone(print);
    host.raw_set(
        "log",
        lua.create_function(move |lua, text: mlua::LuaString| {
            let bytes = text.as_bytes();
            let units = u64::try_from(bytes.len() / 16).unwrap_or(u64::MAX);
            b.consume(units, || script_location(lua))
                .map_err(budget_error)?;
            let line = PrintLine {
                location: script_location(lua),
                text: String::from_utf8_lossy(&bytes).into_owned(),
            };
            sink.borrow_mut().push(line);
            Ok(())
        })?,
    )?;

    host.raw_set("slots", slots.clone())?;
    host.raw_set("max_results", MAX_RESULTS)?;
    host.raw_set(
        "max_string",
        i64::try_from(budget.limits.string_bytes).unwrap_or(i64::MAX),
    )?;
    Ok(host)
}

/// Whether the error value `e` (caught by a script's `pcall`, `xpcall`, `coroutine.resume`,
/// `coroutine.close` or `load`) means a budget is spent, so the catch must be undone.
/// Lua's own memory and stack-overflow errors count: they become the memory and depth budgets.
fn spent(lua: &Lua, budget: &BudgetState, e: &Value) -> bool {
    if budget.is_spent() {
        return true;
    }
    match e {
        Value::String(s) => {
            let text = s.to_string_lossy();
            if text == "not enough memory" {
                budget.memory_exhausted(script_location(lua));
                true
            } else if is_stack_overflow(&text) {
                budget.exhaust(Exhausted::Depth, script_location(lua), None);
                true
            } else {
                false
            }
        }
        Value::Error(err) if is_memory_error(err) => {
            budget.memory_exhausted(script_location(lua));
            true
        }
        // Lua's own "C stack overflow" met by the host (calling back into Lua for a nested
        // behaviour) and raised to the script as a host error.
        Value::Error(err)
            if crate::error::from_lua_error(err).kind() == crate::ErrorKind::DepthBudget =>
        {
            budget.exhaust(Exhausted::Depth, script_location(lua), None);
            true
        }
        _ => false,
    }
}

/// The message handler of every call the host makes into a script: turns the error value into
/// a [`ScriptFailure`] placed by the stack as it is where the error was raised.
///
/// The place is the innermost frame of a script (a chunk the host compiled with an `@path`
/// name; chunks a script loads are not). A message that starts with `path:line: ` keeps that
/// line only when `path` is that script's own (Lua writes the raising or the calling line
/// there); any other prefix is part of the message, so no script can blame another. Values that
/// are not strings are described without running any of the script's code.
fn fail(lua: &Lua, budget: &BudgetState, e: Value) -> mlua::Result<Value> {
    if spent(lua, budget, &e) {
        return Ok(e);
    }
    let at = script_location(lua);
    let (location, message) = match &e {
        Value::String(s) => {
            // A prefix is short: read no more of a long message than it takes to find one.
            let bytes = s.as_bytes();
            let head = &bytes[..bytes.len().min(2 * crate::error::MAX_MESSAGE_BYTES)];
            let text = String::from_utf8_lossy(head).into_owned();
            match (split_location(&text), &at) {
                ((Some(own), rest), Some(here)) if same_script(&own.path, &here.path) => {
                    let line = own.line;
                    (
                        Some(Location {
                            path: here.path.clone(),
                            line,
                        }),
                        rest.to_string(),
                    )
                }
                _ => (at, text),
            }
        }
        Value::Error(err) => match crate::error::from_lua_error(err) {
            crate::ScriptError::Runtime { message, .. } => (at, message),
            other => (at, other.to_string()),
        },
        Value::Nil | Value::Boolean(_) => {
            (at, format!("(error object is a {} value)", e.type_name()))
        }
        Value::Integer(i) => (at, i.to_string()),
        Value::Number(n) => (at, n.to_string()),
        Value::UserData(_) => {
            let described = crate::api::args::describe(&e);
            let text = if described == "userdata" {
                "(error object is a userdata value)".to_string()
            } else {
                format!("(error object is {described})")
            };
            (at, text)
        }
        Value::Table(_) => {
            let name = meta_field(&e, &lua.create_string("__name")?)?;
            let text = match name {
                Value::String(n) if n.as_bytes().len() <= 64 => {
                    format!("(error object is a {} value)", n.to_string_lossy())
                }
                _ => "(error object is a table value)".to_string(),
            };
            (at, text)
        }
        other => (
            at,
            format!("(error object is a {} value)", other.type_name()),
        ),
    };
    let traceback = lua.traceback(None, 1).ok().map(|t| t.to_string_lossy());
    let failure = ScriptFailure::new(location, &message, traceback);
    budget.record_failure(&failure);
    Ok(Value::Error(Box::new(mlua::Error::external(failure))))
}

/// Is `written` (a path as Lua writes it in a message, long ones shortened to `...tail`) the
/// script at `path`?
fn same_script(written: &str, path: &str) -> bool {
    match written.strip_prefix("...") {
        Some(tail) => path.ends_with(tail),
        None => written == path,
    }
}

fn is_memory_error(err: &mlua::Error) -> bool {
    match err {
        mlua::Error::MemoryError(_) => true,
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => {
            is_memory_error(cause)
        }
        _ => false,
    }
}

/// The raw value of field `name` in the real metatable of a table or userdata (ignoring a
/// `__metatable` field), or nil.
fn meta_field(v: &Value, name: &mlua::LuaString) -> mlua::Result<Value> {
    match v {
        Value::Table(t) => match t.metatable() {
            Some(mt) => mt.raw_get(name),
            None => Ok(Value::Nil),
        },
        Value::UserData(ud) => {
            let Ok(mt) = ud.metatable() else {
                return Ok(Value::Nil);
            };
            let key = name.to_string_lossy();
            Ok(mt.get::<Value>(key).unwrap_or(Value::Nil))
        }
        _ => Ok(Value::Nil),
    }
}

/// One pattern search for `string.find`/`match`/`gmatch`/`gsub` (see the prelude).
///
/// Returns `false` for no match, `nil, message` for a malformed pattern, and otherwise the
/// 1-based start, the end, and the captures.
fn scan(
    lua: &Lua,
    budget: &BudgetState,
    s: &mlua::LuaString,
    p: &mlua::LuaString,
    init: i64,
    last: i64,
    flags: i64,
) -> mlua::Result<MultiValue> {
    let src_ref = s.as_bytes();
    let pat_ref = p.as_bytes();
    let src: &[u8] = &src_ref;
    let pat: &[u8] = &pat_ref;
    let init = usize::try_from(init).unwrap_or(0).min(src.len());
    let allowance = budget.remaining();
    let charge = |steps: u64| {
        budget
            .consume(steps, || script_location(lua))
            .map_err(budget_error)
    };

    let plain = flags & SCAN_PLAIN != 0 || (flags & SCAN_FIND != 0 && no_specials(pat));
    if flags & SCAN_FIND != 0 && plain {
        let mut steps = 0;
        let found = plain_find(src, pat, init, allowance, &mut steps);
        charge(steps)?;
        return match found {
            Ok(Some(at)) => Ok(MultiValue::from_iter([
                Value::Integer(to_int(at + 1)),
                Value::Integer(to_int(at + pat.len())),
            ])),
            Ok(None) | Err(_) => Ok(MultiValue::from_iter([Value::Boolean(false)])),
        };
    }

    let (pat, anchored) = match pat.split_first() {
        Some((b'^', rest)) if flags & SCAN_ANCHOR != 0 => (rest, true),
        _ => (pat, false),
    };
    let last_end = usize::try_from(last).ok();
    let mut matcher = Matcher::new(src, pat, allowance);
    let found = matcher.search(
        init,
        anchored,
        last_end,
        flags & SCAN_WHOLE != 0,
        flags & SCAN_LAZY != 0,
    );
    charge(matcher.steps())?;
    match found {
        Err(PatternError::Budget) => {
            // `charge` above has failed already when the allowance ran out; this keeps the
            // error even if the accounting were to disagree.
            Err(budget_error(budget.exhaust(
                Exhausted::Instructions,
                script_location(lua),
                None,
            )))
        }
        Err(PatternError::Malformed(message)) => Ok(MultiValue::from_iter([
            Value::Nil,
            Value::String(lua.create_string(message)?),
        ])),
        Ok(None) => Ok(MultiValue::from_iter([Value::Boolean(false)])),
        Ok(Some(m)) => {
            let mut out = Vec::with_capacity(m.captures.len() + 2);
            out.push(Value::Integer(to_int(m.start + 1)));
            out.push(Value::Integer(to_int(m.end)));
            for capture in m.captures {
                out.push(match capture {
                    Capture::Str(a, b) => Value::String(lua.create_string(&src[a..b])?),
                    Capture::Position(pos) => Value::Integer(to_int(pos)),
                    // Captures are never booleans: `false` marks one the prelude must refuse
                    // to use ("unfinished capture").
                    Capture::Unfinished => Value::Boolean(false),
                });
            }
            Ok(MultiValue::from_iter(out))
        }
    }
}

fn to_int(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

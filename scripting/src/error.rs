//! Script errors: one typed error per failure kind, each carrying the script's `path:line`.

use std::fmt;
use std::sync::Arc;

use crate::budget::{BudgetError, Exhausted};

/// A place in a script: the chunk name it was loaded with and a line number.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    /// The script's path, as given to [`Sandbox::load_script`](crate::Sandbox::load_script).
    pub path: String,
    /// 1-based line number.
    pub line: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            // Only the script is known (a memory error leaves no frame to read a line from).
            write!(f, "{}", self.path)
        } else {
            write!(f, "{}:{}", self.path, self.line)
        }
    }
}

/// The most bytes of a failure's message (after its `path:line: `); longer ones are cut, ending
/// in "…".
pub const MAX_MESSAGE_BYTES: usize = 1024;

/// The most bytes of a traceback kept with a failure.
const MAX_TRACEBACK_BYTES: usize = 4096;

/// `text` cut to at most `max` bytes on a character boundary, ending in "…" when cut.
pub(crate) fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max.saturating_sub('…'.len_utf8());
    while end > 0 && !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// A script's failure as the sandbox's message handler wrote it, where the error was raised:
/// the place comes from the stack, not from the message (which a script can write freely), and
/// the message is already a bounded description of the error value.
#[derive(Debug, Clone)]
pub(crate) struct ScriptFailure {
    pub(crate) location: Option<Location>,
    pub(crate) message: String,
    pub(crate) traceback: Option<String>,
}

impl ScriptFailure {
    pub(crate) fn new(
        location: Option<Location>,
        message: &str,
        traceback: Option<String>,
    ) -> ScriptFailure {
        ScriptFailure {
            location,
            message: bounded(message, MAX_MESSAGE_BYTES),
            traceback: traceback.map(|t| bounded(&t, MAX_TRACEBACK_BYTES)),
        }
    }
}

impl fmt::Display for ScriptFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", prefix(&self.location), self.message)
    }
}

impl std::error::Error for ScriptFailure {}

/// The kind of a [`ScriptError`], for matching without caring about the details.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The call ran more VM instructions (or charged work) than its budget allows.
    InstructionBudget,
    /// The Lua state ran out of its memory budget, or a string grew past the string limit.
    MemoryBudget,
    /// Calls nested deeper than the depth budget (or Lua's own stack / C-stack limits).
    DepthBudget,
    /// The script raised an error, or called something wrongly.
    Runtime,
    /// The source does not parse.
    Syntax,
    /// The source is precompiled bytecode, which the sandbox refuses.
    BinaryChunk,
    /// The sandbox itself failed (setting up tables, bad host input); not the script's fault.
    Host,
}

/// Everything that can go wrong when loading or calling a script.
///
/// Every variant that a script causes carries the script's location when one is known, and its
/// `Display` reads `path:line: message`, the form `overmind check` prints.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScriptError {
    /// The per-call instruction budget is spent.
    #[error("{}instruction budget exhausted: the call ran more than {limit} instructions (infinite loop?)", prefix(.location))]
    InstructionBudget {
        /// The budget, in VM instructions per call.
        limit: u64,
        /// Where the script was when the budget ran out.
        location: Option<Location>,
    },
    /// The call's budget was cut to what its game step had left (`lua_step_instructions`), and
    /// that is spent. Its kind is [`ErrorKind::InstructionBudget`].
    #[error("{}instruction budget exhausted: this game step's scripts had {limit} instructions left for this call (`lua_step_instructions` in rules.toml)", prefix(.location))]
    StepBudget {
        /// What the step had left for the call, in VM instructions.
        limit: u64,
        /// Where the script was when the budget ran out.
        location: Option<Location>,
    },
    /// The memory budget is spent.
    #[error("{}memory budget exhausted: {detail}", prefix(.location))]
    MemoryBudget {
        /// The state's memory limit in bytes.
        limit: usize,
        /// What ran out (the whole state, or one string over the string limit).
        detail: String,
        /// Where the script was, when known.
        location: Option<Location>,
    },
    /// Calls nested too deeply.
    #[error("{}call depth budget exhausted: more than {limit} nested calls (runaway recursion?)", prefix(.location))]
    DepthBudget {
        /// The budget, in nested calls.
        limit: u32,
        /// Where the script was when the budget ran out.
        location: Option<Location>,
    },
    /// The script raised an error at run time.
    #[error("{}{message}", prefix(.location))]
    Runtime {
        /// The message without its `path:line:` prefix.
        message: String,
        /// Where the error was raised, when known.
        location: Option<Location>,
        /// Lua's stack traceback, when one was produced.
        traceback: Option<String>,
    },
    /// The source does not parse.
    #[error("{path}:{}: {message}", .line.map_or_else(|| "?".to_string(), |l| l.to_string()))]
    Syntax {
        /// The script's path.
        path: String,
        /// The line of the error, when Lua reported one.
        line: Option<u32>,
        /// Lua's message without its `path:line:` prefix.
        message: String,
    },
    /// The source is a precompiled (binary) chunk.
    #[error("{path}: binary (precompiled) Lua chunks are not allowed; load source text")]
    BinaryChunk {
        /// The script's path.
        path: String,
    },
    /// The sandbox itself failed.
    #[error("sandbox: {message}")]
    Host {
        /// What failed.
        message: String,
    },
}

fn prefix(location: &Option<Location>) -> String {
    location
        .as_ref()
        .map_or_else(String::new, |l| format!("{l}: "))
}

impl ScriptError {
    /// The kind of this error.
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::InstructionBudget { .. } | Self::StepBudget { .. } => {
                ErrorKind::InstructionBudget
            }
            Self::MemoryBudget { .. } => ErrorKind::MemoryBudget,
            Self::DepthBudget { .. } => ErrorKind::DepthBudget,
            Self::Runtime { .. } => ErrorKind::Runtime,
            Self::Syntax { .. } => ErrorKind::Syntax,
            Self::BinaryChunk { .. } => ErrorKind::BinaryChunk,
            Self::Host { .. } => ErrorKind::Host,
        }
    }

    /// Where in a script the error happened, when known.
    #[must_use]
    pub fn location(&self) -> Option<Location> {
        match self {
            Self::InstructionBudget { location, .. }
            | Self::StepBudget { location, .. }
            | Self::MemoryBudget { location, .. }
            | Self::DepthBudget { location, .. }
            | Self::Runtime { location, .. } => location.clone(),
            Self::Syntax { path, line, .. } => line.map(|line| Location {
                path: path.clone(),
                line,
            }),
            Self::BinaryChunk { .. } | Self::Host { .. } => None,
        }
    }

    /// True for the three budget kinds.
    #[must_use]
    pub fn is_budget(&self) -> bool {
        matches!(
            self.kind(),
            ErrorKind::InstructionBudget | ErrorKind::MemoryBudget | ErrorKind::DepthBudget
        )
    }

    /// Places an error that knows no place (a memory error leaves no frame) in `path`, the
    /// script the host called.
    #[must_use]
    pub fn or_in(self, path: &str) -> Self {
        let at = || {
            Some(Location {
                path: path.to_string(),
                line: 0,
            })
        };
        match self {
            Self::InstructionBudget {
                limit,
                location: None,
            } => Self::InstructionBudget {
                limit,
                location: at(),
            },
            Self::MemoryBudget {
                limit,
                detail,
                location: None,
            } => Self::MemoryBudget {
                limit,
                detail,
                location: at(),
            },
            Self::DepthBudget {
                limit,
                location: None,
            } => Self::DepthBudget {
                limit,
                location: at(),
            },
            Self::StepBudget {
                limit,
                location: None,
            } => Self::StepBudget {
                limit,
                location: at(),
            },
            Self::Runtime {
                message,
                location: None,
                traceback,
            } => Self::Runtime {
                message,
                location: at(),
                traceback,
            },
            other => other,
        }
    }

    pub(crate) fn host(message: impl Into<String>) -> Self {
        Self::Host {
            message: message.into(),
        }
    }

    pub(crate) fn from_budget(err: &BudgetError) -> Self {
        let location = err.location.clone();
        match err.kind {
            Exhausted::Instructions => Self::InstructionBudget {
                limit: err.limit,
                location,
            },
            Exhausted::Step => Self::StepBudget {
                limit: err.limit,
                location,
            },
            Exhausted::Memory => Self::MemoryBudget {
                limit: usize::try_from(err.limit).unwrap_or(usize::MAX),
                detail: err.detail.clone().unwrap_or_else(|| {
                    format!("the scripts' Lua state may use at most {} bytes", err.limit)
                }),
                location,
            },
            Exhausted::Depth => Self::DepthBudget {
                limit: u32::try_from(err.limit).unwrap_or(u32::MAX),
                location,
            },
        }
    }
}

/// Converts an `mlua` error into a [`ScriptError`] by kind.
///
/// Runtime messages are split into `path:line:` and the message proper; a traceback is split
/// off. Errors that Rust callbacks raised (`CallbackError` chains, `WithContext`) surface as
/// [`ScriptError::Runtime`] with the callback's own message, located at the first script frame
/// of the traceback. Budget errors raised by the sandbox's hook keep their kind; Lua's own
/// "stack overflow" errors become [`ScriptError::DepthBudget`] and memory errors
/// [`ScriptError::MemoryBudget`] (with `limit` 0 when this function cannot know it: prefer
/// the errors [`Sandbox`](crate::Sandbox) returns, which know their limits).
#[must_use]
pub fn from_lua_error(err: &mlua::Error) -> ScriptError {
    convert(err, None)
}

fn convert(err: &mlua::Error, traceback: Option<&str>) -> ScriptError {
    match err {
        mlua::Error::SyntaxError { message, .. } => syntax(message),
        mlua::Error::RuntimeError(message) => runtime(message, traceback),
        mlua::Error::MemoryError(message) => ScriptError::MemoryBudget {
            limit: 0,
            detail: message.clone(),
            location: None,
        },
        mlua::Error::CallbackError {
            traceback: tb,
            cause,
        } => convert(cause, Some(traceback.unwrap_or(tb))),
        mlua::Error::WithContext { context, cause } => match convert(cause, traceback) {
            ScriptError::Runtime {
                message,
                location,
                traceback,
            } => ScriptError::Runtime {
                message: format!("{context}: {message}"),
                location,
                traceback,
            },
            other => other,
        },
        mlua::Error::ExternalError(inner) => external(inner, traceback),
        other => runtime(&other.to_string(), traceback),
    }
}

fn external(inner: &Arc<dyn std::error::Error>, traceback: Option<&str>) -> ScriptError {
    if let Some(budget) = inner.downcast_ref::<BudgetError>() {
        return ScriptError::from_budget(budget);
    }
    if let Some(failure) = inner.downcast_ref::<ScriptFailure>() {
        return ScriptError::Runtime {
            message: failure.message.clone(),
            location: failure.location.clone(),
            traceback: failure.traceback.clone(),
        };
    }
    runtime(&inner.to_string(), traceback)
}

fn syntax(message: &str) -> ScriptError {
    let (location, rest) = split_location(message);
    match location {
        Some(loc) => ScriptError::Syntax {
            path: loc.path,
            line: Some(loc.line),
            message: rest.to_string(),
        },
        None => ScriptError::Syntax {
            path: String::new(),
            line: None,
            message: message.to_string(),
        },
    }
}

fn runtime(full: &str, outer_traceback: Option<&str>) -> ScriptError {
    let (text, own_traceback) = match full.find("\nstack traceback:") {
        Some(at) => (&full[..at], Some(full[at + 1..].to_string())),
        None => (full, None),
    };
    let traceback = own_traceback.or_else(|| outer_traceback.map(str::to_string));
    let (mut location, message) = split_location(text);
    // Errors raised inside the sandbox's own wrappers (a C library function they called) are
    // placed at the script frame that called the wrapper.
    if location.as_ref().is_none_or(|l| l.path == SANDBOX_CHUNK) {
        location = traceback.as_deref().and_then(first_script_frame);
    }
    if is_stack_overflow(message) {
        return ScriptError::DepthBudget { limit: 0, location };
    }
    if message == "not enough memory" {
        return ScriptError::MemoryBudget {
            limit: 0,
            detail: message.to_string(),
            location,
        };
    }
    ScriptError::Runtime {
        message: bounded(message, MAX_MESSAGE_BYTES),
        location,
        traceback: traceback.map(|t| bounded(&t, MAX_TRACEBACK_BYTES)),
    }
}

/// Lua's own overflow messages: the Lua stack ("stack overflow"), the C stack ("C stack
/// overflow"), and `luaL_checkstack` ("stack overflow (...)").
pub(crate) fn is_stack_overflow(message: &str) -> bool {
    message.ends_with("stack overflow") || message.contains("stack overflow (")
}

/// Splits `path:line: rest` into a location and `rest`. Paths may contain `:`; the first
/// `:<digits>: ` ends the path.
pub(crate) fn split_location(text: &str) -> (Option<Location>, &str) {
    let bytes = text.as_bytes();
    let mut search = 0;
    while let Some(offset) = text[search..].find(':') {
        let colon = search + offset;
        let digits_end = bytes[colon + 1..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(bytes.len(), |p| colon + 1 + p);
        if digits_end > colon + 1
            && bytes.get(digits_end) == Some(&b':')
            && colon > 0
            && !text[..colon].contains('\n')
        {
            if let Ok(line) = text[colon + 1..digits_end].parse::<u32>() {
                let rest = text[digits_end + 1..].trim_start_matches(' ');
                let location = Location {
                    path: text[..colon].to_string(),
                    line,
                };
                return (Some(location), rest);
            }
        }
        search = colon + 1;
    }
    (None, text)
}

/// The chunk name of the sandbox's prelude, as Lua shows it in messages.
pub(crate) const SANDBOX_CHUNK: &str = "[sandbox]";

/// The first frame of a Lua traceback that is in a script (not `[C]`, not the sandbox's own
/// prelude).
fn first_script_frame(traceback: &str) -> Option<Location> {
    traceback
        .lines()
        .map(str::trim_start)
        .filter(|line| !line.starts_with("[C]") && !line.starts_with("[sandbox]"))
        .find_map(|line| split_location(line).0)
}

/// Where in `source` the syntax error Lua reported on `line` with `message` is: Lua names
/// the token it stopped at (`... near '='`, `near <eof>`) but gives no column, so this finds
/// that token on the line. Of several such tokens on the line, the one at which the source
/// cut just after it still fails with the same message (Lua's own parser decides); `<eof>` is
/// just past the last non-blank character of the file. `None` when the message names no token
/// found on the line. 1-based line and column, the column in characters.
pub(crate) fn syntax_position(source: &str, line: u32, message: &str) -> Option<(usize, usize)> {
    let near = message.rsplit_once(" near ")?.1;
    if near == "<eof>" {
        let end = source.trim_end().len();
        return Some(overmind_core::source::line_col(source, end));
    }
    let near = near.strip_prefix('\'')?.strip_suffix('\'')?;
    let index = usize::try_from(line).ok()?.checked_sub(1)?;
    let line_start: usize = source.split_inclusive('\n').take(index).map(str::len).sum();
    let text = source.get(line_start..)?.split('\n').next()?;
    let candidates: Vec<Token> = tokens(text)
        .into_iter()
        .filter(|t| {
            let written = &text[t.start..t.end];
            written == near || (t.literal && written.starts_with(near) && !near.is_empty())
        })
        .collect();
    let chosen = match candidates.as_slice() {
        [] => return None,
        [only] => *only,
        many => {
            let same = |t: &Token| {
                let again = source.get(..line_start + t.end).and_then(compile_error);
                again.is_some_and(|again| {
                    let (at, rest) = split_location(&again);
                    at.map(|l| l.line) == Some(line) && rest == message
                })
            };
            // Lua stops at the first token it cannot take, so the first that fails alike;
            // a line of many such tokens is not compiled again for each.
            many.iter()
                .take(32)
                .copied()
                .find(|t| same(t))
                .or_else(|| many.last().copied())?
        }
    };
    Some(overmind_core::source::line_col(
        source,
        line_start + chosen.start,
    ))
}

/// The message of compiling `source` as a chunk named `x`, when it does not compile.
fn compile_error(source: &str) -> Option<String> {
    // A state with no libraries: the source is only compiled, never run.
    let lua = mlua::Lua::new_with(mlua::StdLib::NONE, mlua::LuaOptions::default()).ok()?;
    match lua
        .load(source)
        .set_name("@x")
        .set_mode(mlua::chunk::ChunkMode::Text)
        .into_function()
    {
        Err(mlua::Error::SyntaxError { message, .. }) => Some(message),
        _ => None,
    }
}

/// A token of one line of Lua: its byte range, and whether it is a string or number (whose
/// text in Lua's messages may be cut short by the lexer error itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Token {
    start: usize,
    end: usize,
    literal: bool,
}

/// The tokens of one line of Lua, comments left out. A string or long bracket left open runs
/// to the end of the line.
fn tokens(line: &str) -> Vec<Token> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if line[i..].starts_with("--") {
            // A comment: a long one may end on this line, a short one does not.
            match long_bracket(&line[i + 2..]) {
                Some(level) => {
                    let close = format!("]{}]", "=".repeat(level));
                    let body = i + 2 + level + 2;
                    match line.get(body..).and_then(|r| r.find(&close)) {
                        Some(e) => i = body + e + close.len(),
                        None => break,
                    }
                }
                None => break,
            }
            continue;
        }
        let literal;
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            literal = true;
        } else if let Some(level) = long_bracket(&line[i..]) {
            let close = format!("]{}]", "=".repeat(level));
            let body = i + level + 2;
            i = line
                .get(body..)
                .and_then(|r| r.find(&close))
                .map_or(b.len(), |e| body + e + close.len());
            literal = true;
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            // As Lua reads a numeral: letters, digits and dots, and a sign after an exponent.
            i += 1;
            while i < b.len() {
                let d = b[i];
                let signed =
                    (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' || signed {
                    i += 1;
                } else {
                    break;
                }
            }
            literal = true;
        } else if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            literal = false;
        } else {
            const LONG: [&str; 10] = ["...", "..", "==", "~=", "<=", ">=", "//", "::", "<<", ">>"];
            i += LONG
                .iter()
                .find(|op| line[i..].starts_with(**op))
                .map_or_else(
                    || line[i..].chars().next().map_or(1, char::len_utf8),
                    |op| op.len(),
                );
            literal = false;
        }
        while !line.is_char_boundary(i.min(b.len())) {
            i += 1;
        }
        i = i.min(b.len());
        out.push(Token {
            start,
            end: i,
            literal,
        });
    }
    out
}

/// The level of a long bracket (`[[` is 0, `[==[` is 2) that `text` starts with.
fn long_bracket(text: &str) -> Option<usize> {
    let rest = text.strip_prefix('[')?;
    let level = rest.bytes().take_while(|&b| b == b'=').count();
    (rest.as_bytes().get(level) == Some(&b'[')).then_some(level)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_path_and_line() {
        let (loc, rest) = split_location("behaviours/rush.lua:12: boom: bang");
        assert_eq!(
            loc,
            Some(Location {
                path: "behaviours/rush.lua".into(),
                line: 12
            })
        );
        assert_eq!(rest, "boom: bang");
    }

    #[test]
    fn message_without_location_is_kept_whole() {
        let (loc, rest) = split_location("plain message: 12 things");
        assert_eq!(loc, None);
        assert_eq!(rest, "plain message: 12 things");
    }

    #[test]
    fn runtime_error_keeps_message_and_traceback() {
        let err = mlua::Error::RuntimeError(
            "a.lua:3: oops\nstack traceback:\n\t[C]: in ?\n\ta.lua:3: in main chunk".into(),
        );
        let converted = from_lua_error(&err);
        assert_eq!(converted.kind(), ErrorKind::Runtime);
        assert_eq!(converted.to_string(), "a.lua:3: oops");
        match converted {
            ScriptError::Runtime { traceback, .. } => {
                assert!(traceback.is_some_and(|t| t.starts_with("stack traceback:")));
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    #[allow(clippy::arc_with_non_send_sync)] // mlua's errors are !Send without its `send` feature
    fn callback_error_surfaces_its_cause_located_by_the_traceback() {
        let err = mlua::Error::CallbackError {
            traceback: "stack traceback:\n\t[C]: in function 'move'\n\tb.lua:7: in main chunk"
                .into(),
            cause: Arc::new(mlua::Error::RuntimeError(
                "move_towards: 6 squares asked, RUSH allows 5".into(),
            )),
        };
        let converted = from_lua_error(&err);
        assert_eq!(
            converted.to_string(),
            "b.lua:7: move_towards: 6 squares asked, RUSH allows 5"
        );
    }

    #[test]
    fn the_line_scanner_skips_comments_and_keeps_strings_whole() {
        let shown = |line: &str| -> Vec<String> {
            tokens(line)
                .iter()
                .map(|t| line[t.start..t.end].to_string())
                .collect()
        };
        assert_eq!(
            shown("x = \"a = 'b'\" .. [==[=]]=]==] -- = a comment"),
            vec!["x", "=", "\"a = 'b'\"", "..", "[==[=]]=]==]"]
        );
        assert_eq!(shown("a --[[ = ]] == 1e+5"), vec!["a", "==", "1e+5"]);
        assert_eq!(shown("s = \"open é"), vec!["s", "=", "\"open é"]);
    }

    #[test]
    fn a_syntax_error_without_a_token_on_its_line_keeps_no_column() {
        let source = "local a = 1\nlocal b = ]\n";
        assert_eq!(
            syntax_position(source, 2, "unexpected symbol near ']'"),
            Some((2, 11))
        );
        assert_eq!(
            syntax_position(source, 1, "unexpected symbol near ']'"),
            None
        );
        assert_eq!(syntax_position(source, 2, "something odd"), None);
    }

    #[test]
    fn stack_overflow_is_a_depth_error() {
        let err = mlua::Error::RuntimeError("c.lua:1: stack overflow".into());
        assert_eq!(from_lua_error(&err).kind(), ErrorKind::DepthBudget);
    }
}

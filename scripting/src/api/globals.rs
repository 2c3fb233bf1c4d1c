//! The global functions every script sees: `behaviour { ... }`, `alien_type { ... }`,
//! `token { ... }`, `ability { ... }` and `trigger { ... }`, which mark a table as a definition
//! and remember the line it was written on, for error messages.

use super::args::{describe, err};
use super::{FnDoc, Global, Globals, Param, Ret};
use mlua::{Lua, MetaMethod, MultiValue, Table, UserDataFields, UserDataMethods, Value};

/// What a definition defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DefKind {
    Behaviour,
    AlienType,
    Token,
    Ability,
    Trigger,
    Card,
}

impl DefKind {
    pub(crate) fn function(self) -> &'static str {
        match self {
            DefKind::Behaviour => "behaviour",
            DefKind::AlienType => "alien_type",
            DefKind::Token => "token",
            DefKind::Ability => "ability",
            DefKind::Trigger => "trigger",
            DefKind::Card => "card",
        }
    }
}

/// The opaque value `behaviour { ... }` (and the other definitions) returns: the table as written
/// and the line of the call. The host validates it after the script's top level has run.
#[derive(Clone, Debug)]
pub(crate) struct Definition {
    pub(crate) kind: DefKind,
    pub(crate) table: Table,
    pub(crate) line: u32,
}

/// Registers the definition type (its `tostring`), so scripts cannot look inside it.
pub(crate) fn register_types(lua: &Lua) -> mlua::Result<()> {
    lua.register_userdata_type::<Definition>(|reg| {
        reg.add_meta_method(MetaMethod::ToString, |_, d: &Definition, ()| {
            Ok(format!(
                "{} definition (line {})",
                d.kind.function(),
                d.line
            ))
        });
        reg.add_meta_field("__name", "Definition");
    })
}

/// The line of the script code that called the running host function.
fn caller_line(lua: &Lua) -> u32 {
    lua.inspect_stack(1, |d| d.current_line())
        .flatten()
        .and_then(|l| u32::try_from(l).ok())
        .unwrap_or(0)
}

fn define(lua: &Lua, args: MultiValue, kind: DefKind) -> mlua::Result<MultiValue> {
    let name = kind.function();
    let mut it = args.into_iter();
    let first = it.next().unwrap_or(Value::Nil);
    if it.any(|v| !v.is_nil()) {
        return err(format!(
            "{name}: takes one table, e.g. {name} {{ id = \"...\", ... }}"
        ));
    }
    let Value::Table(table) = first else {
        return err(format!(
            "{name}: expects a table, e.g. {name} {{ id = \"...\", ... }}, got {}",
            describe(&first)
        ));
    };
    let def = Definition {
        kind,
        table,
        line: caller_line(lua),
    };
    Ok(MultiValue::from_iter([Value::UserData(
        lua.create_any_userdata(def)?,
    )]))
}

/// The global functions.
pub(crate) static GLOBALS: Globals = Globals {
    doc: "Global functions. A behaviour script ends with `return behaviour { ... }`, an alien \
          type script with `return alien_type { ... }`, a token script with `return token { ... \
          }`, an ability script with `return ability { ... }`, a game-wide rule with `return \
          trigger { ... }`, a card with `return card { ... }`; the definition is checked when the pack loads (`overmind check`) and \
          every problem names the file and line.",
    functions: &[
        Global {
            doc: FnDoc {
                name: "behaviour",
                params: &[Param {
                    name: "def",
                    ty: "BehaviourDef",
                    doc: "The behaviour's card and its `perform` function.",
                }],
                returns: &[Ret {
                    ty: "Definition",
                    doc: "The definition; the script must return it.",
                }],
                doc: "Defines one Alien Behaviour (`behaviours/*.lua`).",
            },
            call: |lua, args| define(lua, args, DefKind::Behaviour),
        },
        Global {
            doc: FnDoc {
                name: "alien_type",
                params: &[Param {
                    name: "def",
                    ty: "AlienTypeDef",
                    doc: "The Alien Type's card.",
                }],
                returns: &[Ret {
                    ty: "Definition",
                    doc: "The definition; the script must return it.",
                }],
                doc: "Defines one Alien Type (`aliens/*.lua`).",
            },
            call: |lua, args| define(lua, args, DefKind::AlienType),
        },
        Global {
            doc: FnDoc {
                name: "token",
                params: &[Param {
                    name: "def",
                    ty: "TokenDef",
                    doc: "The token kind and what it does.",
                }],
                returns: &[Ret {
                    ty: "Definition",
                    doc: "The definition; the script must return it.",
                }],
                doc: "Defines one kind of token on squares: a hazard, an item, a Building \
                      Exploration event or a marker (`tokens/*.lua`).",
            },
            call: |lua, args| define(lua, args, DefKind::Token),
        },
        Global {
            doc: FnDoc {
                name: "ability",
                params: &[Param {
                    name: "def",
                    ty: "AbilityDef",
                    doc: "The ability, the hero profile that has it and what it does.",
                }],
                returns: &[Ret {
                    ty: "Definition",
                    doc: "The definition; the script must return it.",
                }],
                doc: "Defines one hero profile's ability (`abilities/*.lua`).",
            },
            call: |lua, args| define(lua, args, DefKind::Ability),
        },
        Global {
            doc: FnDoc {
                name: "trigger",
                params: &[Param {
                    name: "def",
                    ty: "TriggerDef",
                    doc: "The rule and what it does.",
                }],
                returns: &[Ret {
                    ty: "Definition",
                    doc: "The definition; the script must return it.",
                }],
                doc: "Defines one game-wide rule of the pack, in force in every mission played \
                      with it (`triggers/*.lua`).",
            },
            call: |lua, args| define(lua, args, DefKind::Trigger),
        },
        Global {
            doc: FnDoc {
                name: "card",
                params: &[Param {
                    name: "def",
                    ty: "CardDef",
                    doc: "The card, its deck and what playing it does.",
                }],
                returns: &[Ret {
                    ty: "Definition",
                    doc: "The definition; the script must return it.",
                }],
                doc: "Defines one card of a deck: a Mutation card the Overmind draws and plays, \
                      or a Hidden Agenda it is dealt (`cards/*.lua`).",
            },
            call: |lua, args| define(lua, args, DefKind::Card),
        },
    ],
};

/// A load error at `path:line`.
pub(crate) fn located(path: &str, line: u32, message: String) -> crate::ScriptError {
    crate::ScriptError::Runtime {
        message,
        location: Some(crate::Location {
            path: path.to_string(),
            line: line.max(1),
        }),
        traceback: None,
    }
}

/// The definition a script's chunk returned, or an error saying what it should return.
pub(crate) fn returned(
    value: &Value,
    kind: DefKind,
    path: &str,
    source: &str,
) -> Result<Definition, crate::ScriptError> {
    let name = kind.function();
    let found = match value {
        Value::UserData(ud) => match ud.borrow::<Definition>() {
            Ok(d) if d.kind == kind => return Ok(d.clone()),
            Ok(d) => format!("{} {{ ... }}", d.kind.function()),
            Err(_) => describe(value),
        },
        other => describe(other),
    };
    let last = source
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .last()
        .map_or(1, |(i, _)| i + 1);
    Err(located(
        path,
        u32::try_from(last).unwrap_or(1),
        format!("the script must end with `return {name} {{ ... }}`; it returned {found}"),
    ))
}

/// The error for a field that breaks its shape, placed on the field's line when it can be
/// found after the definition's line, else on the definition's line.
pub(crate) fn invalid(
    def: &Definition,
    path: &str,
    source: &str,
    bad: &super::shape::Invalid,
) -> crate::ScriptError {
    let line = field_line(source, def.line, &bad.path);
    located(
        path,
        line,
        format!("{}: {}", def.kind.function(), bad.message),
    )
}

/// Where `key = ` is written on a line (outside a trailing `--` comment).
fn has_key(line: &str, key: &str) -> bool {
    let code = line.split("--").next().unwrap_or("");
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(at) = code[from..].find(key) {
        let start = from + at;
        let end = start + key.len();
        let before_ok =
            start == 0 || !(bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_');
        let rest = code[end..].trim_start();
        if before_ok && rest.starts_with('=') && !rest.starts_with("==") {
            return true;
        }
        from = end;
    }
    false
}

/// The line of a nested field (`shoot`, `short`, `range`), searching forward from `from`.
pub(crate) fn field_line(source: &str, from: u32, fields: &[String]) -> u32 {
    let lines: Vec<&str> = source.lines().collect();
    let start = usize::try_from(from.max(1)).unwrap_or(1);
    let mut at = start;
    for key in fields {
        match (at..=lines.len()).find(|&l| has_key(lines[l - 1], key)) {
            Some(l) => at = l,
            None => break,
        }
    }
    u32::try_from(at).unwrap_or(from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nested_field_lines() {
        let src = "return alien_type {\n  id = \"x\",\n  shoot = {\n    short = { range = 2, cv = 1 },\n    long = { range = 1, cv = 1 },\n  },\n}\n";
        let f =
            |p: &[&str]| field_line(src, 1, &p.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(f(&["id"]), 2);
        assert_eq!(f(&["shoot", "long", "range"]), 5);
        assert_eq!(f(&["nope"]), 1);
        assert!(!has_key("x == 1", "x"));
        assert!(!has_key("max_move = 5", "move"));
    }
}

//! The checker: every problem of a table against its shape.

use super::hooks::hooks_of;
use super::names::{effect, effect_names};
use super::rule::{Rule, Shape};
use crate::api::args::{as_int, describe, describe_key};
use mlua::{Table, Value};
use overmind_core::trigger::Hook;

/// A field that breaks its shape: where (field names from the top) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Invalid {
    pub(crate) path: Vec<String>,
    pub(crate) message: String,
    /// The string the problem is about inside the field (a bad item of an array), to point at
    /// where it is written.
    pub(crate) item: Option<String>,
}

impl Invalid {
    pub(crate) fn new(path: Vec<String>, message: impl Into<String>) -> Invalid {
        Invalid {
            path,
            message: message.into(),
            item: None,
        }
    }
}

fn is_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= overmind_core::Id::MAX_LEN
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

fn expectation(rule: &Rule) -> String {
    match rule {
        Rule::Str => "a string".into(),
        Rule::Id => "an id (a string of a-z, 0-9 and _, at most 31 bytes)".into(),
        Rule::Int { min, max } => format!("a whole number from {min} to {max}"),
        Rule::Func => "a function".into(),
        Rule::Bool => "true or false".into(),
        Rule::Table(s) => format!(
            "a table ({})",
            s.fields
                .iter()
                .map(|f| f.name)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Rule::Effects => format!("an array of effects ({})", effect_names()),
        Rule::Ids => "an array of ids".into(),
        Rule::OneOf(names) => format!("one of {}", names.join(", ")),
        Rule::Symbol => format!(
            "one printable ASCII character that is not a letter, a digit, a space or one the map \
             uses ({})",
            overmind_core::token::RESERVED_SYMBOLS
        ),
        Rule::Any => "a value".into(),
    }
}

/// A token symbol the map can draw: see [`Rule::Symbol`].
fn is_symbol(s: &str) -> bool {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => {
            c.is_ascii_graphic()
                && !c.is_ascii_alphanumeric()
                && !overmind_core::token::RESERVED_SYMBOLS.contains(c)
        }
        _ => false,
    }
}

/// Checks `t` against `shape` and returns every problem: each missing or bad field in the
/// shape's order (nested tables included), then the unknown fields, sorted. An unknown field
/// near a missing one ("nam" for a missing "name") is one problem, the unknown field's, with
/// the suggestion.
pub(crate) fn check(t: &Table, shape: &Shape, path: &[String]) -> Vec<Invalid> {
    let mut out = Vec::new();
    check_into(t, shape, path, &mut out);
    out
}

fn check_into(t: &Table, shape: &Shape, path: &[String], out: &mut Vec<Invalid>) {
    let names = || shape.fields.iter().map(|f| f.name);
    let mut unknown: Vec<(String, Option<&'static str>)> = Vec::new();
    for pair in t.pairs::<Value, Value>() {
        let k = match pair {
            Ok((k, _)) => k,
            Err(e) => {
                out.push(Invalid::new(path.to_vec(), e.to_string()));
                return;
            }
        };
        let known = matches!(&k, Value::String(s) if names().any(|n| s.as_bytes().as_ref() == n.as_bytes()));
        if !known {
            let near = match &k {
                Value::String(s) => crate::problem::nearest(&s.to_string_lossy(), names()),
                _ => None,
            };
            unknown.push((describe_key(&k), near));
        }
    }
    unknown.sort();
    for f in shape.fields {
        let mut here = path.to_vec();
        here.push(f.name.to_string());
        let v: Value = match t.raw_get(f.name) {
            Ok(v) => v,
            Err(e) => {
                out.push(Invalid::new(here, e.to_string()));
                continue;
            }
        };
        if v.is_nil() {
            // A misspelling of it is reported instead, with the right name.
            let misspelt = unknown.iter().any(|(_, near)| *near == Some(f.name));
            if f.required && !misspelt {
                out.push(Invalid::new(
                    here.clone(),
                    format!("{} is missing ({})", here.join("."), expectation(&f.rule)),
                ));
            }
            continue;
        }
        check_value(&v, &f.rule, &here, out);
    }
    let at = if path.is_empty() {
        String::new()
    } else {
        format!(" in {}", path.join("."))
    };
    for (k, near) in unknown {
        let hint = match near {
            Some(n) => format!("did you mean {n}?"),
            None => format!("{}s: {}", shape.key, names().collect::<Vec<_>>().join(", ")),
        };
        let mut here = path.to_vec();
        let bare = k.trim_matches('\'').to_string();
        let message = if shape.key == "hook" && Hook::named(&bare).is_some() {
            // A real hook, but none of its moments concerns this kind of definition.
            format!(
                "hook {k}{at} never runs for {} (its hooks: {})",
                hooks_of(shape),
                names().collect::<Vec<_>>().join(", ")
            )
        } else {
            format!("unknown {} {k}{at} ({hint})", shape.key)
        };
        here.push(bare);
        out.push(Invalid::new(here, message));
    }
}

fn check_value(v: &Value, rule: &Rule, here: &[String], out: &mut Vec<Invalid>) {
    let name = here.join(".");
    let bad = |expected: String| {
        Invalid::new(
            here.to_vec(),
            format!("{name} must be {expected}, found {}", describe(v)),
        )
    };
    let ok = match rule {
        Rule::Any => true,
        Rule::Str => matches!(v, Value::String(_)),
        Rule::Id => matches!(v, Value::String(s) if is_id(&s.to_string_lossy())),
        Rule::Int { min, max } => as_int(v).is_some_and(|n| (*min..=*max).contains(&n)),
        Rule::Func => matches!(v, Value::Function(_)),
        Rule::Bool => matches!(v, Value::Boolean(_)),
        Rule::Symbol => matches!(v, Value::String(s) if is_symbol(&s.to_string_lossy())),
        Rule::OneOf(names) => match v {
            Value::String(s) if names.iter().any(|n| s.as_bytes().as_ref() == n.as_bytes()) => true,
            Value::String(s) => {
                let near = crate::problem::nearest(&s.to_string_lossy(), names.iter().copied())
                    .map_or_else(String::new, |n| format!(" (did you mean {n}?)"));
                out.push(Invalid::new(
                    here.to_vec(),
                    format!(
                        "{name} must be {}, found {}{near}",
                        expectation(rule),
                        describe(v)
                    ),
                ));
                true
            }
            _ => false,
        },
        Rule::Table(shape) => match v {
            Value::Table(t) => {
                check_into(t, shape, here, out);
                true
            }
            _ => false,
        },
        Rule::Effects | Rule::Ids => match v {
            Value::Table(t) => {
                check_items(t, rule, here, out);
                true
            }
            _ => false,
        },
    };
    if !ok {
        out.push(bad(expectation(rule)));
    }
}

/// Every bad item of an array of effect names or ids, each its own problem.
fn check_items(t: &Table, rule: &Rule, here: &[String], out: &mut Vec<Invalid>) {
    let name = here.join(".");
    let items = match array(t) {
        Ok(items) => items,
        Err(e) => {
            out.push(Invalid::new(
                here.to_vec(),
                format!("{name} must be {}: {e}", expectation(rule)),
            ));
            return;
        }
    };
    for (i, item) in items.iter().enumerate() {
        let ok = match (rule, item) {
            (Rule::Effects, Value::String(s)) => effect(&s.to_string_lossy()).is_some(),
            (_, Value::String(s)) => is_id(&s.to_string_lossy()),
            _ => false,
        };
        if !ok {
            let what = if matches!(rule, Rule::Effects) {
                format!("one of {}", effect_names())
            } else {
                "an id (a string of a-z, 0-9 and _, at most 31 bytes)".to_string()
            };
            out.push(Invalid {
                path: here.to_vec(),
                message: format!("{name}[{}] must be {what}, found {}", i + 1, describe(item)),
                item: match item {
                    Value::String(s) => Some(s.to_string_lossy()),
                    _ => None,
                },
            });
        }
    }
}

/// The items of a table that must be a plain array (keys 1..n and nothing else).
pub(crate) fn array(t: &Table) -> Result<Vec<Value>, String> {
    let n = t.raw_len();
    let mut count = 0usize;
    for pair in t.pairs::<Value, Value>() {
        let _ = pair.map_err(|e| e.to_string())?;
        count += 1;
    }
    if count != n {
        return Err("it has keys other than 1, 2, 3, ...".into());
    }
    (1..=n)
        .map(|i| t.raw_get::<Value>(i).map_err(|e| e.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_symbol_is_one_drawable_character_the_map_does_not_use() {
        for ok in ["~", "%", "&", "$", "!", "^"] {
            assert!(is_symbol(ok), "{ok}");
        }
        for bad in ["", "ab", " ", "a", "Z", "7", "#", ".", "X", "é", "\t"] {
            assert!(!is_symbol(bad), "{bad:?}");
        }
    }
}

//! Alien Type scripts: the table `alien_type { ... }` returns, checked against its documented
//! shape and turned into the core's [`AlienType`], every problem a `path:line` [`ScriptError`].

use crate::api::args::as_int;
use crate::api::globals::{invalid, Definition};
use crate::api::shape::{self, Invalid, ALIEN_TYPE_DEF};
use crate::ScriptError;
use mlua::{Table, Value};
use overmind_core::{AlienType, Band, Effect, Makeup, Shoot};

fn get(t: &Table, name: &str) -> Value {
    t.raw_get(name).unwrap_or(Value::Nil)
}

fn text(t: &Table, name: &str) -> String {
    match get(t, name) {
        Value::String(s) => s.to_string_lossy(),
        _ => String::new(),
    }
}

fn number(t: &Table, name: &str) -> u32 {
    as_int(&get(t, name))
        .and_then(|n| u32::try_from(n).ok())
        .unwrap_or(0)
}

fn table(t: &Table, name: &str) -> Option<Table> {
    match get(t, name) {
        Value::Table(t) => Some(t),
        _ => None,
    }
}

fn strings(t: &Table, name: &str) -> Vec<String> {
    let Some(list) = table(t, name) else {
        return Vec::new();
    };
    shape::array(&list)
        .unwrap_or_default()
        .iter()
        .filter_map(|v| match v {
            Value::String(s) => Some(s.to_string_lossy()),
            _ => None,
        })
        .collect()
}

fn effects(t: &Table, name: &str) -> Vec<Effect> {
    strings(t, name)
        .iter()
        .filter_map(|s| shape::effect(s))
        .collect()
}

fn band(t: &Table) -> Band {
    Band {
        range: number(t, "range"),
        cv: number(t, "cv"),
    }
}

/// Turns a checked `alien_type { ... }` table into an [`AlienType`].
///
/// # Errors
/// The first field that breaks the shape or the rules' limits, at the field's line.
pub(crate) fn convert(
    def: &Definition,
    path: &str,
    source: &str,
) -> Result<AlienType, ScriptError> {
    let t = &def.table;
    shape::check(t, &ALIEN_TYPE_DEF, &[]).map_err(|bad| invalid(def, path, source, &bad))?;
    let unit = table(t, "unit").map_or(
        Makeup {
            max: 1,
            leader: None,
        },
        |u| Makeup {
            max: number(&u, "max"),
            leader: match get(&u, "leader") {
                Value::String(s) => Some(s.to_string_lossy()),
                _ => None,
            },
        },
    );
    let shoot = table(t, "shoot").map(|s| Shoot {
        short: table(&s, "short")
            .as_ref()
            .map_or(Band { range: 0, cv: 0 }, band),
        long: table(&s, "long")
            .as_ref()
            .map_or(Band { range: 0, cv: 0 }, band),
    });
    if let Some(s) = &shoot {
        if s.short.range > s.long.range {
            let bad = Invalid {
                path: vec!["shoot".into(), "long".into(), "range".into()],
                message: format!(
                    "shoot.long.range ({}) must be at least shoot.short.range ({})",
                    s.long.range, s.short.range
                ),
            };
            return Err(invalid(def, path, source, &bad));
        }
    }
    let alien = AlienType {
        id: text(t, "id"),
        name: text(t, "name"),
        unit,
        movement: number(t, "movement"),
        melee: number(t, "melee"),
        defence: number(t, "defence"),
        health: number(t, "health"),
        fear: number(t, "fear"),
        shoot,
        melee_effects: effects(t, "melee_effects"),
        shoot_effects: effects(t, "shoot_effects"),
        behaviours: strings(t, "behaviours"),
    };
    // The core's own checks, in case they grow stricter than the shape.
    if let Some(problem) = alien.validate().into_iter().next() {
        let field = problem
            .split([':', '.'])
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        let bad = Invalid {
            path: vec![field],
            message: problem,
        };
        return Err(invalid(def, path, source, &bad));
    }
    Ok(alien)
}

//! Alien Type scripts: the table `alien_type { ... }` returns, checked against its documented
//! shape and turned into the core's [`AlienType`], every problem placed at its field.

use crate::api::args::as_int;
use crate::api::shape::{self, Invalid, ALIEN_TYPE_DEF};
use mlua::{Table, Value};
use overmind_core::{AlienType, Band, Effect, Makeup, Shoot};

fn get(t: &Table, name: &str) -> Value {
    t.raw_get(name).unwrap_or(Value::Nil)
}

/// A string field's text (empty when it is not a string).
pub(crate) fn text(t: &Table, name: &str) -> String {
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

/// An `alien_type { ... }` table read: the type, and every way the table breaks its shape or
/// the rules' limits (the type is usable only when there is none).
pub(crate) struct Converted {
    pub(crate) alien: AlienType,
    pub(crate) problems: Vec<Invalid>,
}

impl Converted {
    /// Whether the field `name` had a problem (what depends on it would be a consequence).
    pub(crate) fn broken(&self, name: &str) -> bool {
        has_problem(&self.problems, name)
    }
}

fn has_problem(problems: &[Invalid], field: &str) -> bool {
    problems
        .iter()
        .any(|p| p.path.first().is_some_and(|f| f == field))
}

/// Turns an `alien_type { ... }` table into an [`AlienType`], collecting every problem: the
/// shape's, then the checks across fields of the fields that are themselves fine.
pub(crate) fn convert(t: &Table) -> Converted {
    let mut problems = shape::check(t, &ALIEN_TYPE_DEF, &[]);
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
    if let Some(s) = shoot.as_ref().filter(|_| !has_problem(&problems, "shoot")) {
        if s.short.range > s.long.range {
            problems.push(Invalid::new(
                vec!["shoot".into(), "long".into(), "range".into()],
                format!(
                    "shoot.long.range ({}) must be at least shoot.short.range ({})",
                    s.long.range, s.short.range
                ),
            ));
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
        xxl: matches!(t.get::<mlua::Value>("xxl"), Ok(mlua::Value::Boolean(true))),
    };
    // The core's own checks, in case they grow stricter than the shape; a field that already
    // has a problem is read as 0 here, so what they say of it is not a second problem.
    for problem in alien.validate() {
        let field = problem
            .split([':', '.'])
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        if !has_problem(&problems, &field) {
            problems.push(Invalid::new(vec![field], problem));
        }
    }
    Converted { alien, problems }
}

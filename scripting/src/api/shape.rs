//! The shapes of the tables scripts write (`behaviour { ... }`, `alien_type { ... }`) and pass
//! (squares, attack options), declared once: the validator checks scripts against them and
//! the doc generator prints them, so the documented fields are exactly the accepted ones.

use super::args::{as_int, describe, describe_key};
use mlua::{Table, Value};
use overmind_core::Effect;

/// What a field of a definition table must hold.
#[derive(Debug)]
pub enum Rule {
    /// Any string.
    Str,
    /// An id: 1 to 64 characters of `a-z`, `0-9` and `_`.
    Id,
    /// A whole number in `min..=max`.
    Int {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A function.
    Func,
    /// A nested table of this shape.
    Table(&'static Shape),
    /// An array of Special Combat Effect names.
    Effects,
    /// An array of ids.
    Ids,
    /// Not checked here (shapes only documented).
    Any,
}

/// One field of a shape.
#[derive(Debug)]
pub struct ShapeField {
    /// The field's name.
    pub name: &'static str,
    /// Its type in LuaLS notation.
    pub ty: &'static str,
    /// What it means.
    pub doc: &'static str,
    /// Must it be given?
    pub required: bool,
    /// What it must hold.
    pub rule: Rule,
}

/// A table shape: a LuaLS class of plain tables.
#[derive(Debug)]
pub struct Shape {
    /// The LuaLS class name.
    pub name: &'static str,
    /// What it is.
    pub doc: &'static str,
    /// The class it is a kind of (LuaLS `---@class Square: Pos`), so it passes where that one
    /// is expected.
    pub parent: Option<&'static str>,
    /// Its fields, in the order the docs show them and the validator checks them.
    pub fields: &'static [ShapeField],
}

/// Special Combat Effects by the names scripts use (docs/RULES.md §6.6).
pub static EFFECTS: &[(&str, Effect)] = &[
    ("knock_down", Effect::KnockDown),
    ("push_back", Effect::PushBack),
    ("shaken", Effect::Shaken),
    ("stun", Effect::Stun),
];

/// `behaviour { ... }`.
pub static BEHAVIOUR_DEF: Shape = Shape {
    name: "BehaviourDef",
    doc: "What `behaviour { ... }` takes: one Alien Behaviour card.",
    parent: None,
    fields: &[
        ShapeField {
            name: "id",
            ty: "string",
            doc: "The id alien types list it by: `a-z`, `0-9`, `_`.",
            required: true,
            rule: Rule::Id,
        },
        ShapeField {
            name: "name",
            ty: "string",
            doc: "The name printed on the card, e.g. `\"RUSH\"`.",
            required: true,
            rule: Rule::Str,
        },
        ShapeField {
            name: "text",
            ty: "string",
            doc: "The card's rule text, shown to players.",
            required: true,
            rule: Rule::Str,
        },
        ShapeField {
            name: "max_move",
            ty: "integer?",
            doc: "Most squares one model may move during the behaviour (0 to 50); default its Movement.",
            required: false,
            rule: Rule::Int { min: 0, max: 50 },
        },
        ShapeField {
            name: "perform",
            ty: "fun(unit: Unit, game: Game)",
            doc: "Carries the behaviour out for the performing unit. Raising an error fails the \
                  behaviour where it failed: what it did before stands, and the log records why.",
            required: true,
            rule: Rule::Func,
        },
        ShapeField {
            name: "ai_score",
            ty: "(fun(unit: Unit, game: Game): number)?",
            doc: "A hint for the look-ahead AI (`standard`, `strong`): a number added to this \
                  behaviour's play-out score for the unit now (positive: choose it more). It \
                  runs on a throw-away copy of the game, so what it does is not kept.",
            required: false,
            rule: Rule::Func,
        },
    ],
};

/// `unit = { ... }` of an alien type.
pub static MAKEUP: Shape = Shape {
    name: "Makeup",
    doc: "How a Blip's unit of this type is made up.",
    parent: None,
    fields: &[
        ShapeField {
            name: "max",
            ty: "integer",
            doc: "Up to this many models of the type (1 to 12).",
            required: true,
            rule: Rule::Int { min: 1, max: 12 },
        },
        ShapeField {
            name: "leader",
            ty: "string?",
            doc: "Id (`a-z`, `0-9`, `_`) of an alien type one model of which leads the unit.",
            required: false,
            rule: Rule::Id,
        },
    ],
};

/// One Shoot range band.
pub static BAND: Shape = Shape {
    name: "Band",
    doc: "One range band of a Shoot attack.",
    parent: None,
    fields: &[
        ShapeField {
            name: "range",
            ty: "integer",
            doc: "Reach in squares (0 to 50).",
            required: true,
            rule: Rule::Int { min: 0, max: 50 },
        },
        ShapeField {
            name: "cv",
            ty: "integer",
            doc: "Combat Value (dice) in this band (0 to 20).",
            required: true,
            rule: Rule::Int { min: 0, max: 20 },
        },
    ],
};

/// Short and long Shoot bands.
pub static SHOOT: Shape = Shape {
    name: "ShootBands",
    doc: "A Shoot attack's two bands; a target within the short range must be shot with the short CV.",
    parent: None,
    fields: &[
        ShapeField { name: "short", ty: "Band", doc: "The short band.", required: true, rule: Rule::Table(&BAND) },
        ShapeField { name: "long", ty: "Band", doc: "The long band (its range at least the short one's).", required: true, rule: Rule::Table(&BAND) },
    ],
};

/// `alien_type { ... }`.
pub static ALIEN_TYPE_DEF: Shape = Shape {
    name: "AlienTypeDef",
    doc: "What `alien_type { ... }` takes: one Alien Type card (per-model stats).",
    parent: None,
    fields: &[
        ShapeField { name: "id", ty: "string", doc: "The id missions and Blips name it by: `a-z`, `0-9`, `_`.", required: true, rule: Rule::Id },
        ShapeField { name: "name", ty: "string", doc: "The name on the card.", required: true, rule: Rule::Str },
        ShapeField { name: "unit", ty: "Makeup", doc: "The unit's make-up.", required: true, rule: Rule::Table(&MAKEUP) },
        ShapeField { name: "movement", ty: "integer", doc: "Movement (0 to 20).", required: true, rule: Rule::Int { min: 0, max: 20 } },
        ShapeField { name: "melee", ty: "integer", doc: "Melee CV (0 to 20).", required: true, rule: Rule::Int { min: 0, max: 20 } },
        ShapeField { name: "defence", ty: "integer", doc: "Defence CV (0 to 20).", required: true, rule: Rule::Int { min: 0, max: 20 } },
        ShapeField { name: "health", ty: "integer", doc: "Health (1 to 100).", required: true, rule: Rule::Int { min: 1, max: 100 } },
        ShapeField { name: "fear", ty: "integer?", doc: "Fear CV for Fear Attacks (0 to 20, default 0).", required: false, rule: Rule::Int { min: 0, max: 20 } },
        ShapeField { name: "shoot", ty: "ShootBands?", doc: "Its Shoot attack; none when absent.", required: false, rule: Rule::Table(&SHOOT) },
        ShapeField { name: "melee_effects", ty: "Effect[]?", doc: "Special Combat Effects of its Melee attacks.", required: false, rule: Rule::Effects },
        ShapeField { name: "shoot_effects", ty: "Effect[]?", doc: "Special Combat Effects of its Shoot attacks.", required: false, rule: Rule::Effects },
        ShapeField { name: "behaviours", ty: "string[]?", doc: "Ids of the Alien Behaviours it may perform; the Overmind picks one per triggered reveal.", required: false, rule: Rule::Ids },
    ],
};

/// A square.
pub static POS: Shape = Shape {
    name: "Pos",
    doc: "A square of the map. Any table with whole-number `x` and `y` is accepted where a square is expected.",
    parent: None,
    fields: &[
        ShapeField { name: "x", ty: "integer", doc: "Column, 0 at the left.", required: true, rule: Rule::Any },
        ShapeField { name: "y", ty: "integer", doc: "Row, 0 at the top.", required: true, rule: Rule::Any },
    ],
};

/// A square `Model:reachable` returns.
pub static SQUARE: Shape = Shape {
    name: "Square",
    doc: "A reachable square (`Model:reachable`, `Model:reachable_away_from`): a `Pos` with the steps to reach it; it passes wherever a `Pos` is expected.",
    parent: Some("Pos"),
    fields: &[
        ShapeField {
            name: "x",
            ty: "integer",
            doc: "Column.",
            required: true,
            rule: Rule::Any,
        },
        ShapeField {
            name: "y",
            ty: "integer",
            doc: "Row.",
            required: true,
            rule: Rule::Any,
        },
        ShapeField {
            name: "steps",
            ty: "integer",
            doc: "Legal steps from the model's square.",
            required: true,
            rule: Rule::Any,
        },
    ],
};

/// Options of `Unit:melee` and `Unit:shoot`.
pub static ATTACK_OPTIONS: Shape = Shape {
    name: "AttackOptions",
    doc: "Options of an attack.",
    parent: None,
    fields: &[ShapeField {
        name: "penalty",
        ty: "integer?",
        doc: "Dice fewer (0 to 20). An attack made as a behaviour never has fewer than the rules' `behaviour_penalty`.",
        required: false,
        rule: Rule::Any,
    }],
};

/// Every shape, in the order the docs present them.
pub static SHAPES: &[&Shape] = &[
    &BEHAVIOUR_DEF,
    &ALIEN_TYPE_DEF,
    &MAKEUP,
    &SHOOT,
    &BAND,
    &POS,
    &SQUARE,
    &ATTACK_OPTIONS,
];

/// A field that breaks its shape: where (field names from the top) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Invalid {
    pub(crate) path: Vec<String>,
    pub(crate) message: String,
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
        Rule::Any => "a value".into(),
    }
}

fn effect_names() -> String {
    EFFECTS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The effect named `name`.
pub(crate) fn effect(name: &str) -> Option<Effect> {
    EFFECTS.iter().find(|(n, _)| *n == name).map(|(_, e)| *e)
}

/// Checks `t` against `shape`: fields in the shape's order, then unknown fields (sorted, so
/// the first reported is the same on every run).
pub(crate) fn check(t: &Table, shape: &Shape, path: &[String]) -> Result<(), Invalid> {
    let lua_err = |e: mlua::Error| Invalid {
        path: path.to_vec(),
        message: e.to_string(),
    };
    for f in shape.fields {
        let mut here = path.to_vec();
        here.push(f.name.to_string());
        let v: Value = t.raw_get(f.name).map_err(lua_err)?;
        if v.is_nil() {
            if f.required {
                return Err(Invalid {
                    message: format!("{} is missing ({})", here.join("."), expectation(&f.rule)),
                    path: here,
                });
            }
            continue;
        }
        check_value(&v, &f.rule, &here)?;
    }
    let mut unknown = Vec::new();
    for pair in t.pairs::<Value, Value>() {
        let (k, _) = pair.map_err(lua_err)?;
        let known = matches!(&k, Value::String(s) if shape.fields.iter().any(|f| s.as_bytes().as_ref() == f.name.as_bytes()));
        if !known {
            unknown.push(describe_key(&k));
        }
    }
    unknown.sort();
    if let Some(k) = unknown.first() {
        let at = if path.is_empty() {
            String::new()
        } else {
            format!(" in {}", path.join("."))
        };
        let mut here = path.to_vec();
        here.push(k.trim_matches('\'').to_string());
        return Err(Invalid {
            path: here,
            message: format!(
                "unknown field {k}{at} (fields: {})",
                shape
                    .fields
                    .iter()
                    .map(|f| f.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    Ok(())
}

fn check_value(v: &Value, rule: &Rule, here: &[String]) -> Result<(), Invalid> {
    let name = here.join(".");
    let bad = |expected: String| {
        Err(Invalid {
            path: here.to_vec(),
            message: format!("{name} must be {expected}, found {}", describe(v)),
        })
    };
    match rule {
        Rule::Any => Ok(()),
        Rule::Str => match v {
            Value::String(_) => Ok(()),
            _ => bad(expectation(rule)),
        },
        Rule::Id => match v {
            Value::String(s) if is_id(&s.to_string_lossy()) => Ok(()),
            _ => bad(expectation(rule)),
        },
        Rule::Int { min, max } => match as_int(v) {
            Some(n) if (*min..=*max).contains(&n) => Ok(()),
            _ => bad(expectation(rule)),
        },
        Rule::Func => match v {
            Value::Function(_) => Ok(()),
            _ => bad(expectation(rule)),
        },
        Rule::Table(shape) => match v {
            Value::Table(t) => check(t, shape, here),
            _ => bad(expectation(rule)),
        },
        Rule::Effects | Rule::Ids => {
            let Value::Table(t) = v else {
                return bad(expectation(rule));
            };
            let items = array(t).map_err(|e| Invalid {
                path: here.to_vec(),
                message: format!("{name} must be {}: {e}", expectation(rule)),
            })?;
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
                    return Err(Invalid {
                        path: here.to_vec(),
                        message: format!(
                            "{name}[{}] must be {what}, found {}",
                            i + 1,
                            describe(item)
                        ),
                    });
                }
            }
            Ok(())
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

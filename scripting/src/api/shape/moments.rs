//! What hook functions and a card's `play` are told: the moment tables.

use super::rule::{Rule, Shape, ShapeField};

const ROUND: ShapeField = ShapeField {
    name: "round",
    ty: "integer",
    doc: "The round, from 1.",
    required: true,
    rule: Rule::Any,
};
const UNIT: ShapeField = ShapeField {
    name: "unit",
    ty: "Unit",
    doc: "The unit the moment is about.",
    required: true,
    rule: Rule::Any,
};
const AT: ShapeField = ShapeField {
    name: "at",
    ty: "Pos",
    doc: "The square.",
    required: true,
    rule: Rule::Any,
};
const MODEL: ShapeField = ShapeField {
    name: "model",
    ty: "Model",
    doc: "The model (its id instead, a string, if an earlier trigger of the moment took it off \
          the map).",
    required: true,
    rule: Rule::Any,
};

/// What a hook function is told: every moment's round.
pub static MOMENT: Shape = Shape {
    name: "Moment",
    doc: "What a hook function is told about the moment it runs at: a fresh plain table \
          (`round_start`, `round_end`, `victory_check`: only the round). The other moments are \
          kinds of it.",
    parent: None,
    key: "field",
    fields: &[ROUND],
};

/// `phase_start`, `phase_end`.
pub static PHASE_MOMENT: Shape = Shape {
    name: "PhaseMoment",
    doc: "`phase_start`, `phase_end`: whose phase.",
    parent: Some("Moment"),
    key: "field",
    fields: &[
        ROUND,
        ShapeField {
            name: "side",
            ty: "Side",
            doc: "Whose phase.",
            required: true,
            rule: Rule::Any,
        },
    ],
};

/// `activation_start`, `activation_end`.
pub static UNIT_MOMENT: Shape = Shape {
    name: "UnitMoment",
    doc: "`activation_start`, `activation_end`: the unit.",
    parent: Some("Moment"),
    key: "field",
    fields: &[ROUND, UNIT],
};

/// `reveal`.
pub static REVEAL_MOMENT: Shape = Shape {
    name: "RevealMoment",
    doc: "`reveal`: the revealed unit and the Blip's square.",
    parent: Some("UnitMoment"),
    key: "field",
    fields: &[ROUND, UNIT, AT],
};

/// `step`.
pub static STEP_MOMENT: Shape = Shape {
    name: "StepMoment",
    doc: "`step`: the model that entered a square, its unit, and the square.",
    parent: Some("UnitMoment"),
    key: "field",
    fields: &[ROUND, UNIT, MODEL, AT],
};

/// A token's `step` and `interact`.
pub static TOKEN_MOMENT: Shape = Shape {
    name: "TokenMoment",
    doc: "A token's `step` and `interact`: the model, its unit, its square, and the token.",
    parent: Some("StepMoment"),
    key: "field",
    fields: &[
        ROUND,
        UNIT,
        MODEL,
        AT,
        ShapeField {
            name: "token",
            ty: "Token",
            doc: "The token stepped onto or interacted with.",
            required: true,
            rule: Rule::Any,
        },
    ],
};

/// `before_attack`.
pub static ATTACK_MOMENT: Shape = Shape {
    name: "AttackMoment",
    doc: "`before_attack`: the attacking unit, its first attacking model and its square, the attack and its target.",
    parent: Some("UnitMoment"),
    key: "field",
    fields: &[
        ROUND,
        UNIT,
        MODEL,
        AT,
        ShapeField { name: "attack", ty: "AttackKind", doc: "The attack's kind.", required: true, rule: Rule::Any },
        ShapeField { name: "target", ty: "Model", doc: "The target model.", required: true, rule: Rule::Any },
    ],
};

/// `after_damage`.
pub static DAMAGE_MOMENT: Shape = Shape {
    name: "DamageMoment",
    doc: "`after_damage`: the model hurt and how much.",
    parent: Some("UnitMoment"),
    key: "field",
    fields: &[
        ROUND,
        UNIT,
        ShapeField {
            name: "model",
            ty: "Model|string",
            doc: "The model hurt: a handle, or its id (a string) when the damage killed it.",
            required: true,
            rule: Rule::Any,
        },
        ShapeField {
            name: "at",
            ty: "Pos?",
            doc: "Its square (nil when it was killed).",
            required: false,
            rule: Rule::Any,
        },
        ShapeField {
            name: "amount",
            ty: "integer",
            doc: "Health lost.",
            required: true,
            rule: Rule::Any,
        },
        ShapeField {
            name: "by",
            ty: "string?",
            doc: "The id of the attacking unit, if a unit's attack did it.",
            required: false,
            rule: Rule::Any,
        },
    ],
};

/// `killed`.
pub static KILLED_MOMENT: Shape = Shape {
    name: "KilledMoment",
    doc: "`killed`: the dead model, where it fell, and who killed it.",
    parent: Some("UnitMoment"),
    key: "field",
    fields: &[
        ROUND,
        UNIT,
        ShapeField {
            name: "model",
            ty: "string",
            doc: "The dead model's id (it is gone from the map).",
            required: true,
            rule: Rule::Any,
        },
        ShapeField {
            name: "at",
            ty: "Pos",
            doc: "Where it fell.",
            required: true,
            rule: Rule::Any,
        },
        ShapeField {
            name: "by",
            ty: "string?",
            doc: "The id of the unit that killed it, if a unit did.",
            required: false,
            rule: Rule::Any,
        },
    ],
};

/// What a card's `play` is told.
pub static PLAY_CONTEXT: Shape = Shape {
    name: "PlayContext",
    doc: "What a card's `play` is told: a fresh plain table with the card, the round and the card's target.",
    parent: Some("Moment"),
    key: "field",
    fields: &[
        ROUND,
        ShapeField { name: "card", ty: "string", doc: "The card's id.", required: true, rule: Rule::Any },
        ShapeField { name: "unit", ty: "Unit?", doc: "The unit it was played on (`alien` and `hero` cards).", required: false, rule: Rule::Any },
        ShapeField { name: "at", ty: "Pos?", doc: "The square it was played on (`square` cards).", required: false, rule: Rule::Any },
    ],
};

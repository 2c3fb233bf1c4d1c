//! The plain tables the API hands scripts and takes from them: tokens, squares, attack options.

use super::rule::{Rule, Shape, ShapeField};

/// A token in play, as scripts see it.
pub static TOKEN: Shape = Shape {
    name: "Token",
    doc: "A token in play (`game:tokens`, `moment.token`): a fresh plain table, a `Pos` (its square, a carrier's last square while carried), so it passes wherever a square is expected.",
    parent: Some("Pos"),
    key: "field",
    fields: &[
        ShapeField { name: "id", ty: "string", doc: "The token's id (`game:remove_token`, `game:take_token` take it).", required: true, rule: Rule::Any },
        ShapeField { name: "kind", ty: "string", doc: "Its kind's id (`token { id = ... }`).", required: true, rule: Rule::Any },
        ShapeField { name: "class", ty: "TokenClass?", doc: "Its kind's class (nil when the kind is not loaded).", required: false, rule: Rule::Any },
        ShapeField { name: "x", ty: "integer", doc: "Column.", required: true, rule: Rule::Any },
        ShapeField { name: "y", ty: "integer", doc: "Row.", required: true, rule: Rule::Any },
        ShapeField { name: "carried_by", ty: "string?", doc: "The id of the model carrying it, if any.", required: false, rule: Rule::Any },
    ],
};

/// A square.
pub static POS: Shape = Shape {
    name: "Pos",
    doc: "A square of the map. Any table with whole-number `x` and `y` is accepted where a square is expected.",
    parent: None,
    key: "field",
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
    key: "field",
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
    key: "field",
    fields: &[ShapeField {
        name: "penalty",
        ty: "integer?",
        doc: "Dice fewer (0 to 20). An attack made as a behaviour never has fewer than the rules' `behaviour_penalty`.",
        required: false,
        rule: Rule::Any,
    }],
};

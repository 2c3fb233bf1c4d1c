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

/// What a `resolution` hook is given (docs/RULES.md §16.3).
pub static RESOLUTION: Shape = Shape {
    name: "Resolution",
    doc: "The Resolution Phase after a campaign's mission, as a rule's `resolution(r)` sees it after the core's: change `heroes` and `upgrade_nodes`, and add lines to `log`. What it leaves is checked; a value out of range, or a failure, changes nothing.",
    parent: None,
    key: "field",
    fields: &[
        ShapeField { name: "campaign", ty: "string", doc: "The campaign's id.", required: true, rule: Rule::Any },
        ShapeField { name: "mission", ty: "string", doc: "The campaign mission just played.", required: true, rule: Rule::Any },
        ShapeField { name: "winner", ty: "\"heroes\"|\"overmind\"|nil", doc: "Who won it.", required: false, rule: Rule::Any },
        ShapeField { name: "reason", ty: "string?", doc: "Why.", required: false, rule: Rule::Any },
        ShapeField { name: "rounds", ty: "integer", doc: "The round it ended in.", required: true, rule: Rule::Any },
        ShapeField { name: "upgrade_nodes", ty: "integer", doc: "The Overmind's Upgrade Nodes, 0 to 32.", required: true, rule: Rule::Any },
        ShapeField { name: "heroes", ty: "table<string, ResolutionHero>", doc: "The squad by hero profile.", required: true, rule: Rule::Any },
        ShapeField { name: "log", ty: "string[]", doc: "Lines for the report (at most 20 are kept).", required: true, rule: Rule::Any },
    ],
};

/// One Hero in a [`RESOLUTION`].
pub static RESOLUTION_HERO: Shape = Shape {
    name: "ResolutionHero",
    doc: "A Hero of the campaign's squad between missions.",
    parent: None,
    key: "field",
    fields: &[
        ShapeField {
            name: "health",
            ty: "integer",
            doc: "Health at the next mission's start, 1 to `max_health`.",
            required: true,
            rule: Rule::Any,
        },
        ShapeField {
            name: "max_health",
            ty: "integer",
            doc: "Its profile's Health (read only).",
            required: true,
            rule: Rule::Any,
        },
        ShapeField {
            name: "xp",
            ty: "integer",
            doc: "Experience, 0 to 1000.",
            required: true,
            rule: Rule::Any,
        },
        ShapeField {
            name: "level",
            ty: "integer",
            doc: "Its level for its XP before the hook (read only).",
            required: true,
            rule: Rule::Any,
        },
        ShapeField {
            name: "items",
            ty: "string[]",
            doc: "The Item token kinds it carries into the next mission (at most 6).",
            required: true,
            rule: Rule::Any,
        },
    ],
};

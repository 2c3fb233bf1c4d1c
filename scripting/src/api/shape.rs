//! The shapes of the tables scripts write (`behaviour { ... }`, `alien_type { ... }`) and pass
//! (squares, attack options), declared once: the validator checks scripts against them and
//! the doc generator prints them, so the documented fields are exactly the accepted ones.

use super::args::{as_int, describe, describe_key};
use mlua::{Table, Value};
use overmind_core::event::{AttackKind, Roll};
use overmind_core::state::{Stat, StatusName, Until};
use overmind_core::trigger::Hook;
use overmind_core::Effect;
use overmind_core::Side;

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
    /// One of these strings.
    OneOf(&'static [&'static str]),
    /// A token's map symbol: one printable ASCII character that is not a letter, a digit or
    /// one the map uses ([`overmind_core::token::RESERVED_SYMBOLS`]).
    Symbol,
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
    /// What its keys are called in messages (`field`; `hook` for `on = { ... }`).
    pub key: &'static str,
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

/// Attack kinds by the names scripts read (`moment.attack`).
pub static ATTACK_KINDS: &[(&str, AttackKind)] = &[
    ("melee", AttackKind::Melee),
    ("shoot", AttackKind::Shoot),
    ("overwatch", AttackKind::Overwatch),
    ("free_attack", AttackKind::FreeAttack),
    ("fear", AttackKind::Fear),
];

/// The name scripts read for an attack kind.
pub(crate) fn attack_name(kind: AttackKind) -> &'static str {
    ATTACK_KINDS
        .iter()
        .find(|(_, k)| *k == kind)
        .map_or("attack", |(n, _)| n)
}

/// How long a stat modifier lasts, by the names scripts use (`game:modify`).
pub static UNTILS: &[(&str, Until)] = &[
    ("activation", Until::ActivationEnd),
    ("round", Until::RoundEnd),
];

/// What `game:modify_attack` changes, by the names scripts use.
pub static ROLLS: &[(&str, Roll)] = &[("dice", Roll::Attack), ("defence", Roll::Defence)];

/// The square kinds `game:squares` takes, by their Lua names.
pub static TERRAINS: &[(&str, overmind_core::map::Terrain)] = &[
    ("plain", overmind_core::map::Terrain::Plain),
    ("red", overmind_core::map::Terrain::Red),
    ("green", overmind_core::map::Terrain::Green),
    ("yellow", overmind_core::map::Terrain::Yellow),
    ("building", overmind_core::map::Terrain::Building),
    ("solid", overmind_core::map::Terrain::Solid),
];

/// Statuses by the names scripts use (`game:set_status`).
pub static STATUSES: &[(&str, StatusName)] = &[
    ("knocked_down", StatusName::KnockedDown),
    ("stunned", StatusName::Stunned),
];

/// Stats a modifier may change, by the names scripts use (`game:modify`).
pub static STATS: &[(&str, Stat)] = &[
    ("movement", Stat::Movement),
    ("melee", Stat::Melee),
    ("defence", Stat::Defence),
    ("shoot", Stat::Shoot),
];

/// Sides by the names scripts use.
pub static SIDES: &[(&str, Side)] = &[("heroes", Side::Heroes), ("overmind", Side::Overmind)];

/// `behaviour { ... }`.
pub static BEHAVIOUR_DEF: Shape = Shape {
    name: "BehaviourDef",
    doc: "What `behaviour { ... }` takes: one Alien Behaviour card.",
    parent: None,
    key: "field",
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
    key: "field",
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
    key: "field",
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
    key: "field",
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
    key: "field",
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
        ShapeField { name: "on", ty: "AlienHooks?", doc: "Abilities of the type: triggers that run for its units' moments (a unit of the type activates, steps, is revealed, attacks, is hurt, is killed).", required: false, rule: Rule::Table(&ALIEN_HOOKS) },
    ],
};

/// Token classes by the names scripts use.
pub static TOKEN_CLASSES: &[&str] = &["hazard", "item", "exploration", "marker"];

/// One hook of an `on = { ... }` table: its name, what its function is told, and when.
const fn hook(name: &'static str, ty: &'static str, doc: &'static str) -> ShapeField {
    ShapeField {
        name,
        ty,
        doc,
        required: false,
        rule: Rule::Func,
    }
}

const ROUND_START: ShapeField = hook(
    "round_start",
    "(fun(game: Game, moment: Moment))?",
    "A round began (round 1: just before its first action).",
);
const ROUND_END: ShapeField = hook(
    "round_end",
    "(fun(game: Game, moment: Moment))?",
    "The Overmind phase ended, and the round with it.",
);
const PHASE_START: ShapeField = hook(
    "phase_start",
    "(fun(game: Game, moment: PhaseMoment))?",
    "A side's phase began.",
);
const PHASE_END: ShapeField = hook(
    "phase_end",
    "(fun(game: Game, moment: PhaseMoment))?",
    "A side's phase ended.",
);
const ACTIVATION_START: ShapeField = hook(
    "activation_start",
    "(fun(game: Game, moment: UnitMoment))?",
    "A unit's activation began (with its first action).",
);
const ACTIVATION_END: ShapeField = hook(
    "activation_end",
    "(fun(game: Game, moment: UnitMoment))?",
    "A unit's activation ended.",
);
const STEP: ShapeField = hook(
    "step",
    "(fun(game: Game, moment: StepMoment))?",
    "A model entered a square, moving or moved (entering a building is entering its first \
     square): every square of a path. Killing, stunning, knocking down or moving the model \
     stops its move there.",
);
const REVEAL: ShapeField = hook(
    "reveal",
    "(fun(game: Game, moment: RevealMoment))?",
    "A Blip was revealed and its unit placed.",
);
const BEFORE_ATTACK: ShapeField = hook(
    "before_attack",
    "(fun(game: Game, moment: AttackMoment))?",
    "An attack is about to roll (the unit is the attacker's): `game:modify_attack` changes \
     its dice or the target's Defence.",
);
const AFTER_DAMAGE: ShapeField = hook(
    "after_damage",
    "(fun(game: Game, moment: DamageMoment))?",
    "A model lost Health (once per model per attack or effect).",
);
const KILLED: ShapeField = hook(
    "killed",
    "(fun(game: Game, moment: KilledMoment))?",
    "A model was killed.",
);
const VICTORY_CHECK: ShapeField = hook(
    "victory_check",
    "(fun(game: Game, moment: Moment))?",
    "After everything that may end the game: `game:declare_winner` ends it.",
);
const TOKEN_STEP: ShapeField = hook(
    "step",
    "(fun(game: Game, moment: TokenMoment))?",
    "A model entered the token's square (as `step` of the other hooks, once per token there).",
);
const TOKEN_INTERACT: ShapeField = hook(
    "interact",
    "(fun(game: Game, moment: TokenMoment))?",
    "A model took the Interact action on the token's square or next to it (a token with this \
     hook makes the action legal there, for either side).",
);

/// Every hook but `interact` (which is a token's): what a game-wide rule and a card may take.
const GAME_HOOKS: &[ShapeField] = &[
    ROUND_START,
    ROUND_END,
    PHASE_START,
    PHASE_END,
    ACTIVATION_START,
    ACTIVATION_END,
    STEP,
    REVEAL,
    BEFORE_ATTACK,
    AFTER_DAMAGE,
    KILLED,
    VICTORY_CHECK,
];

/// `on = { ... }` of `trigger { ... }`: every moment of each hook that is not about a token.
/// The names are `overmind_core::trigger::Hook`'s (a test checks them).
pub static HOOKS: Shape = Shape {
    name: "Hooks",
    doc: "What `on = { ... }` of a `trigger { ... }` takes: a function per moment the rule acts \
          at, called as `function(game, moment)` for every such moment of the game (not those \
          about a token), with the same sandbox, budgets and `game.storage` as a behaviour (one \
          storage per script id). An error ends that call only: what it did before stands and \
          the log records `trigger_failed` with its `path:line`.",
    parent: None,
    key: "hook",
    fields: GAME_HOOKS,
};

/// `on = { ... }` of an alien type: the moments about its units.
pub static ALIEN_HOOKS: Shape = Shape {
    name: "AlienHooks",
    doc: "What `on = { ... }` of an `alien_type { ... }` takes: hooks (as `Hooks`) that run for \
          the moments about a unit of the type: it activates, steps, is revealed, attacks, is \
          hurt, is killed.",
    parent: None,
    key: "hook",
    fields: &[
        ACTIVATION_START,
        ACTIVATION_END,
        STEP,
        REVEAL,
        BEFORE_ATTACK,
        AFTER_DAMAGE,
        KILLED,
    ],
};

/// `on = { ... }` of an ability: the moments about Heroes of its profile.
pub static ABILITY_HOOKS: Shape = Shape {
    name: "AbilityHooks",
    doc: "What `on = { ... }` of an `ability { ... }` takes: hooks (as `Hooks`) that run for the \
          moments about a Hero of the ability's profile: it activates, steps, attacks, is hurt, \
          is killed.",
    parent: None,
    key: "hook",
    fields: &[
        ACTIVATION_START,
        ACTIVATION_END,
        STEP,
        BEFORE_ATTACK,
        AFTER_DAMAGE,
        KILLED,
    ],
};

/// `on = { ... }` of a token kind: the moments about a token of the kind.
pub static TOKEN_HOOKS: Shape = Shape {
    name: "TokenHooks",
    doc: "What `on = { ... }` of a `token { ... }` takes: hooks (as `Hooks`) that run for the \
          moments about a token of the kind.",
    parent: None,
    key: "hook",
    fields: &[TOKEN_STEP, TOKEN_INTERACT],
};

/// `on = { ... }` of a card: every moment of each hook while the card is in play.
pub static CARD_HOOKS: Shape = Shape {
    name: "CardHooks",
    doc: "What `on = { ... }` of a `card { ... }` takes: hooks (as `Hooks`) that run for every \
          such moment while the card is in play: a played card until the end of its round, a \
          Hidden Agenda all game. A face-down agenda whose hook does anything the log shows is \
          turned up first (`card_revealed`).",
    parent: None,
    key: "hook",
    fields: GAME_HOOKS,
};

/// The definition a hook shape belongs to, for messages.
fn hooks_of(shape: &Shape) -> &'static str {
    match shape.name {
        "AlienHooks" => "an alien type",
        "AbilityHooks" => "an ability",
        "TokenHooks" => "a token kind",
        "CardHooks" => "a card",
        _ => "a trigger",
    }
}

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

/// The name of a token kind, an ability or a rule.
const NAME: ShapeField = ShapeField {
    name: "name",
    ty: "string",
    doc: "The name players see.",
    required: true,
    rule: Rule::Str,
};

/// What a token kind, an ability or a rule does.
const TEXT: ShapeField = ShapeField {
    name: "text",
    ty: "string",
    doc: "What it does, shown to players.",
    required: true,
    rule: Rule::Str,
};

/// `token { ... }`.
pub static TOKEN_DEF: Shape = Shape {
    name: "TokenDef",
    doc: "What `token { ... }` takes: one kind of token on squares (`tokens/*.lua`), placed by missions and scripts.",
    parent: None,
    key: "field",
    fields: &[
        ShapeField { name: "id", ty: "string", doc: "The id missions and `game:place_token` name it by: `a-z`, `0-9`, `_`.", required: true, rule: Rule::Id },
        ShapeField { name: "name", ty: "string", doc: "The name players see, e.g. `\"Acid pool\"`.", required: true, rule: Rule::Str },
        ShapeField { name: "class", ty: "TokenClass", doc: "What it is for.", required: true, rule: Rule::OneOf(TOKEN_CLASSES) },
        ShapeField { name: "symbol", ty: "string", doc: "How the map draws it: one printable ASCII character, not a letter or digit (those are units) nor one the map uses (`.rgyb#?|-+=:*X`), and not another token kind's.", required: true, rule: Rule::Symbol },
        TEXT,
        ShapeField { name: "on", ty: "TokenHooks?", doc: "What it does: hooks that run for moments about a token of this kind (`step` onto it, `interact` with it).", required: false, rule: Rule::Table(&TOKEN_HOOKS) },
    ],
};

/// `ability { ... }`.
pub static ABILITY_DEF: Shape = Shape {
    name: "AbilityDef",
    doc: "What `ability { ... }` takes: a hero profile's ability (`abilities/*.lua`), triggers that run for moments about that Hero.",
    parent: None,
    key: "field",
    fields: &[
        ShapeField { name: "id", ty: "string", doc: "The ability's id (its `game.storage` and the log name it): `a-z`, `0-9`, `_`.", required: true, rule: Rule::Id },
        NAME,
        TEXT,
        ShapeField { name: "hero", ty: "string", doc: "The id of the hero profile that has it (`heroes/*.toml`; a loaded pack must define it).", required: true, rule: Rule::Id },
        ShapeField { name: "on", ty: "AbilityHooks", doc: "What it does, hook by hook.", required: true, rule: Rule::Table(&ABILITY_HOOKS) },
    ],
};

/// `trigger { ... }`.
pub static TRIGGER_DEF: Shape = Shape {
    name: "TriggerDef",
    doc: "What `trigger { ... }` takes: a game-wide rule of the pack (`triggers/*.lua`), in force in every mission played with it.",
    parent: None,
    key: "field",
    fields: &[
        ShapeField { name: "id", ty: "string", doc: "The rule's id (its `game.storage` and the log name it): `a-z`, `0-9`, `_`.", required: true, rule: Rule::Id },
        NAME,
        TEXT,
        ShapeField { name: "on", ty: "Hooks", doc: "What it does, hook by hook: every moment of the hook (not those about a token).", required: true, rule: Rule::Table(&HOOKS) },
    ],
};

/// The decks a card may belong to (`overmind_core::card::Deck`'s names).
pub static DECKS: &[&str] = &["mutation", "hidden_agenda"];

/// What a card may be played on (`overmind_core::card::CardTarget`'s names).
pub static CARD_TARGETS: &[&str] = &["none", "alien", "hero", "square"];

/// `card { ... }`.
pub static CARD_DEF: Shape = Shape {
    name: "CardDef",
    doc: "What `card { ... }` takes: one card (`cards/*.lua`) of a deck a mission deals (its `decks = [...]`). A `mutation` card is drawn into the Overmind's hand and played (`play CARD [TARGET]`); a `hidden_agenda` is dealt face down, one per game, and acts through its hooks.",
    parent: None,
    key: "field",
    fields: &[
        ShapeField { name: "id", ty: "string", doc: "The card's id (commands, `game.storage` and the log name it): `a-z`, `0-9`, `_`.", required: true, rule: Rule::Id },
        NAME,
        TEXT,
        ShapeField { name: "deck", ty: "Deck", doc: "Its deck: `mutation` or `hidden_agenda`.", required: true, rule: Rule::OneOf(DECKS) },
        ShapeField { name: "target", ty: "CardTarget?", doc: "What `play` names with it: `none` (the default), `alien` (a revealed Alien Unit), `hero`, or `square`.", required: false, rule: Rule::OneOf(CARD_TARGETS) },
        ShapeField { name: "copies", ty: "integer?", doc: "Copies of it in its deck, 1 (the default) to 10.", required: false, rule: Rule::Int { min: 1, max: 10 } },
        ShapeField { name: "play", ty: "(fun(game: Game, ctx: PlayContext))?", doc: "What playing it does, run as a hook is (same sandbox, budgets and `game.storage`); an error ends it there (`card_failed` with its `path:line`) and what it did before stands. A `mutation` card needs `play` or `on`.", required: false, rule: Rule::Func },
        ShapeField { name: "on", ty: "CardHooks?", doc: "Hooks that act while the card is in play (a played card until the end of the round; a Hidden Agenda all game: its `victory_check` or `round_end` may `game:declare_winner(\"overmind\", ...)`).", required: false, rule: Rule::Table(&CARD_HOOKS) },
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

/// Every shape, in the order the docs present them.
pub static SHAPES: &[&Shape] = &[
    &BEHAVIOUR_DEF,
    &ALIEN_TYPE_DEF,
    &MAKEUP,
    &SHOOT,
    &BAND,
    &TOKEN_DEF,
    &ABILITY_DEF,
    &TRIGGER_DEF,
    &CARD_DEF,
    &HOOKS,
    &ALIEN_HOOKS,
    &ABILITY_HOOKS,
    &TOKEN_HOOKS,
    &CARD_HOOKS,
    &MOMENT,
    &PHASE_MOMENT,
    &UNIT_MOMENT,
    &REVEAL_MOMENT,
    &STEP_MOMENT,
    &TOKEN_MOMENT,
    &ATTACK_MOMENT,
    &DAMAGE_MOMENT,
    &KILLED_MOMENT,
    &PLAY_CONTEXT,
    &TOKEN,
    &POS,
    &SQUARE,
    &ATTACK_OPTIONS,
];

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
pub(crate) fn is_symbol(s: &str) -> bool {
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

/// Where a problem of a definition written on line `def_line` of `source` is: the line and
/// column (1-based, in characters) of its field's key, found by following its path of keys
/// forward from the definition (`unit`, then `max` after it); of the bad item inside the field
/// when the problem names one. What cannot be found is placed at the last key found, else at
/// the definition's line.
pub(crate) fn position(source: &str, def_line: u32, bad: &Invalid) -> (usize, usize) {
    let lines: Vec<&str> = source.lines().collect();
    let first = usize::try_from(def_line.max(1)).unwrap_or(1);
    // (0-based line, byte in the line) from which the next key is looked for.
    let mut at = (first - 1, 0);
    let mut found = None;
    for key in &bad.path {
        match find_key(&lines, at, key) {
            Some(p) => {
                found = Some(p);
                at = (p.0, p.1 + key.len());
            }
            None => break,
        }
    }
    if let (Some(start), Some(item)) = (found, &bad.item) {
        if let Some(p) = find_item(&lines, start, item) {
            found = Some(p);
        }
    }
    match found {
        Some((l, b)) => {
            let column = lines.get(l).map_or(1, |t| t[..b].chars().count() + 1);
            (l + 1, column)
        }
        None => {
            let column = lines.get(first - 1).map_or(1, |l| {
                l.chars().take_while(|c| c.is_whitespace()).count() + 1
            });
            (first.min(lines.len().max(1)), column)
        }
    }
}

/// The code of a line: what comes before a `--` comment.
fn code(line: &str) -> &str {
    line.split("--").next().unwrap_or("")
}

/// The first `key =` (not `==`, not part of a longer name) at or after `from`.
fn find_key(lines: &[&str], from: (usize, usize), key: &str) -> Option<(usize, usize)> {
    // An empty key (`[""] = 1`) is written nowhere findable.
    if key.is_empty() {
        return None;
    }
    for (l, line) in lines.iter().enumerate().skip(from.0) {
        let text = code(line);
        let mut start = if l == from.0 { from.1 } else { 0 };
        while let Some(i) = text.get(start..).and_then(|t| t.find(key)) {
            let b = start + i;
            let end = b + key.len();
            let bytes = text.as_bytes();
            let before_ok =
                b == 0 || !(bytes[b - 1].is_ascii_alphanumeric() || bytes[b - 1] == b'_');
            let rest = text[end..].trim_start();
            if before_ok && rest.starts_with('=') && !rest.starts_with("==") {
                return Some((l, b));
            }
            start = end;
        }
    }
    None
}

/// The first `"item"` or `'item'` at or after `from`.
fn find_item(lines: &[&str], from: (usize, usize), item: &str) -> Option<(usize, usize)> {
    let quoted = [format!("\"{item}\""), format!("'{item}'")];
    for (l, line) in lines.iter().enumerate().skip(from.0) {
        let text = code(line);
        let start = if l == from.0 { from.1 } else { 0 };
        let hit = quoted
            .iter()
            .filter_map(|q| text.get(start..).and_then(|t| t.find(q.as_str())))
            .min();
        if let Some(i) = hit {
            return Some((l, start + i));
        }
    }
    None
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
    use overmind_core::token::TokenClass;

    #[test]
    fn the_hooks_scripts_write_are_the_cores_in_their_order() {
        let core: Vec<&str> = Hook::ALL.iter().map(|h| h.name()).collect();
        for shape in [&HOOKS, &ALIEN_HOOKS, &ABILITY_HOOKS, &TOKEN_HOOKS] {
            let at: Vec<usize> = shape
                .fields
                .iter()
                .map(|f| core.iter().position(|c| *c == f.name).unwrap_or(usize::MAX))
                .collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]), "{}: {at:?}", shape.name);
            assert!(at.iter().all(|i| *i < core.len()), "{}", shape.name);
            assert!(shape.fields.iter().all(|f| matches!(f.rule, Rule::Func)));
        }
        // Every hook runs for some definition: the game's rules or a token's.
        let mut all: Vec<&str> = HOOKS.fields.iter().map(|f| f.name).collect();
        all.extend(TOKEN_HOOKS.fields.iter().map(|f| f.name));
        for c in &core {
            assert!(all.contains(c), "{c}");
        }
    }

    #[test]
    fn the_names_scripts_use_are_the_cores() {
        for c in TOKEN_CLASSES {
            assert_eq!(TokenClass::named(c).map(TokenClass::name), Some(*c));
        }
        for (n, s) in STATUSES {
            assert_eq!(s.name(), *n);
        }
        for (n, s) in STATS {
            assert_eq!(s.name(), *n);
        }
        for (n, s) in SIDES {
            assert_eq!(s.name(), *n);
        }
        // The names the event stream uses for attacks (serde), so scripts and logs agree.
        for (n, k) in ATTACK_KINDS {
            assert_eq!(serde_json::to_value(k).ok(), Some(serde_json::json!(n)));
        }
    }

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

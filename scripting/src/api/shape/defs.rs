//! The definitions scripts write: `behaviour`, `alien_type`, `token`, `ability`, `trigger`, `card`.

use super::hooks::{ABILITY_HOOKS, ALIEN_HOOKS, CARD_HOOKS, HOOKS, TOKEN_HOOKS};
use super::names::{CARD_TARGETS, DECKS, TOKEN_CLASSES};
use super::rule::{Rule, Shape, ShapeField};

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
        ShapeField { name: "xxl", ty: "boolean?", doc: "An XXL model (docs/RULES.md §4.4): its base fills 2×2 squares, named by the top-left one; it moves as a block, is adjacent to whatever touches its base, ignores the four Special Combat Effects and may Destroy Wall (§5.4). Default false.", required: false, rule: Rule::Bool },
        ShapeField { name: "on", ty: "AlienHooks?", doc: "Abilities of the type: triggers that run for its units' moments (a unit of the type activates, steps, is revealed, attacks, is hurt, is killed).", required: false, rule: Rule::Table(&ALIEN_HOOKS) },
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
        ShapeField { name: "class", ty: "TokenClass", doc: "What it is for.", required: true, rule: Rule::OneOf(&TOKEN_CLASSES) },
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
        ShapeField { name: "on", ty: "Hooks?", doc: "What it does, hook by hook: every moment of the hook (not those about a token). A rule has `on`, `resolution` or both.", required: false, rule: Rule::Table(&HOOKS) },
        ShapeField { name: "resolution", ty: "(fun(r: Resolution))?", doc: "A campaign's Resolution Phase, after the core's (docs/RULES.md §16.3): change `r` (the Heroes' Health, XP and Items, the Overmind's Upgrade Nodes) and add lines to `r.log`. Called outside any game: no `game`, no `math.random`.", required: false, rule: Rule::Func },
    ],
};

/// `card { ... }`.
pub static CARD_DEF: Shape = Shape {
    name: "CardDef",
    doc: "What `card { ... }` takes: one card (`cards/*.lua`) of a deck a mission deals (its `decks = [...]`). A `mutation` card is drawn into the Overmind's hand and played (`play CARD [TARGET]`); a `hidden_agenda` is dealt face down, one per game, and acts through its hooks; a `hazard`, `item` or `exploration` card is drawn face up when a Hazard token is destroyed or content calls `game:draw_card`, and its `play` applies at once (docs/RULES.md §15.8).",
    parent: None,
    key: "field",
    fields: &[
        ShapeField { name: "id", ty: "string", doc: "The card's id (commands, `game.storage` and the log name it): `a-z`, `0-9`, `_`.", required: true, rule: Rule::Id },
        NAME,
        TEXT,
        ShapeField { name: "deck", ty: "Deck", doc: "Its deck: `mutation`, `hidden_agenda`, `hazard`, `item` or `exploration`.", required: true, rule: Rule::OneOf(&DECKS) },
        ShapeField { name: "target", ty: "CardTarget?", doc: "What `play` names with it: `none` (the default), `alien` (a revealed Alien Unit), `hero`, or `square`.", required: false, rule: Rule::OneOf(&CARD_TARGETS) },
        ShapeField { name: "copies", ty: "integer?", doc: "Copies of it in its deck, 1 (the default) to 10.", required: false, rule: Rule::Int { min: 1, max: 10 } },
        ShapeField { name: "play", ty: "(fun(game: Game, ctx: PlayContext))?", doc: "What playing it does, run as a hook is (same sandbox, budgets and `game.storage`); an error ends it there (`card_failed` with its `path:line`) and what it did before stands. A `mutation`, `hazard`, `item` or `exploration` card needs `play` or `on`; a drawn card's `ctx.unit` is the unit that drew it and `ctx.at` the square.", required: false, rule: Rule::Func },
        ShapeField { name: "on", ty: "CardHooks?", doc: "Hooks that act while the card is in play (a played card until the end of the round; a Hidden Agenda all game: its `victory_check` or `round_end` may `game:declare_winner(\"overmind\", ...)`).", required: false, rule: Rule::Table(&CARD_HOOKS) },
    ],
};

//! The hooks of `on = { ... }` tables: which moments each kind of definition may act at.

use super::rule::{Rule, Shape, ShapeField};

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
pub(super) fn hooks_of(shape: &Shape) -> &'static str {
    match shape.name {
        "AlienHooks" => "an alien type",
        "AbilityHooks" => "an ability",
        "TokenHooks" => "a token kind",
        "CardHooks" => "a card",
        _ => "a trigger",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use overmind_core::trigger::Hook;

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
}

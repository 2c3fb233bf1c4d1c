//! When a trigger runs and what it belongs to (docs/RULES.md §14), as data: what content and
//! events name.

use crate::data::id::Id;
use serde::{Deserialize, Serialize};

/// When a trigger runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hook {
    /// A round began (round 1: before the first action takes effect).
    RoundStart,
    /// The Overmind phase ended and the round with it.
    RoundEnd,
    /// A side's phase began.
    PhaseStart,
    /// A side's phase ended.
    PhaseEnd,
    /// A unit's activation began.
    ActivationStart,
    /// A unit's activation ended.
    ActivationEnd,
    /// A model entered a square (entering a building is entering its first square).
    Step,
    /// A Blip was revealed and its unit placed.
    Reveal,
    /// An attack is about to roll: a trigger may add a stated modifier.
    BeforeAttack,
    /// A model lost Health.
    AfterDamage,
    /// A model was killed.
    Killed,
    /// A model took the Interact action on or next to a token.
    Interact,
    /// After everything that may end the game: a trigger may declare a winner.
    VictoryCheck,
}

impl Hook {
    /// Every hook, in the order the docs list them.
    pub const ALL: [Hook; 13] = [
        Hook::RoundStart,
        Hook::RoundEnd,
        Hook::PhaseStart,
        Hook::PhaseEnd,
        Hook::ActivationStart,
        Hook::ActivationEnd,
        Hook::Step,
        Hook::Reveal,
        Hook::BeforeAttack,
        Hook::AfterDamage,
        Hook::Killed,
        Hook::Interact,
        Hook::VictoryCheck,
    ];

    /// The name scripts use (`round_start`, ...).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Hook::RoundStart => "round_start",
            Hook::RoundEnd => "round_end",
            Hook::PhaseStart => "phase_start",
            Hook::PhaseEnd => "phase_end",
            Hook::ActivationStart => "activation_start",
            Hook::ActivationEnd => "activation_end",
            Hook::Step => "step",
            Hook::Reveal => "reveal",
            Hook::BeforeAttack => "before_attack",
            Hook::AfterDamage => "after_damage",
            Hook::Killed => "killed",
            Hook::Interact => "interact",
            Hook::VictoryCheck => "victory_check",
        }
    }

    /// The hook a script name means.
    #[must_use]
    pub fn named(name: &str) -> Option<Hook> {
        Hook::ALL.into_iter().find(|h| h.name() == name)
    }
}

/// What a trigger belongs to; it fires only for what its source concerns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Owner {
    /// An Alien Type: events whose unit is of that type.
    Alien(Id),
    /// A hero profile: events whose unit is a Hero of that profile.
    Hero(Id),
    /// A token kind: steps onto, and interacts with, a token of that kind.
    Token(Id),
    /// The whole game (a mission's or a pack's rules): every event of the hook.
    Game,
    /// A card: every event of the hook while the card is in play (docs/RULES.md §15).
    Card(Id),
}

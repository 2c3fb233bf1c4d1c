//! The names scripts use for core's enums: effects, attack kinds, durations, rolls, terrain,
//! statuses, stats, sides, token classes, decks and card targets.

use overmind_core::event::{AttackKind, Roll};
use overmind_core::state::{Stat, StatusName, Until};
use overmind_core::Effect;
use overmind_core::Side;

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

/// Token classes by the names scripts use.
pub static TOKEN_CLASSES: &[&str] = &["hazard", "item", "exploration", "marker"];

/// The decks a card may belong to (`overmind_core::card::Deck`'s names).
pub static DECKS: &[&str] = &["mutation", "hidden_agenda"];

/// What a card may be played on (`overmind_core::card::CardTarget`'s names).
pub static CARD_TARGETS: &[&str] = &["none", "alien", "hero", "square"];

pub(super) fn effect_names() -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use overmind_core::token::TokenClass;

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
}

//! The names scripts use for core's enums, taken from their `ALL` and `name()`.

use overmind_core::card::{CardTarget, Deck};
use overmind_core::event::{AttackKind, Roll};
use overmind_core::map::Terrain;
use overmind_core::state::{Side, Stat, StatusName, Until};
use overmind_core::token::TokenClass;
use overmind_core::Effect;
use std::sync::LazyLock;

/// An enum's values by the names scripts use, in its `ALL` order; built on first use.
pub type Named<T> = LazyLock<Vec<(&'static str, T)>>;

/// The names scripts use for an enum's values, in its `ALL` order; built on first use.
pub type Names = LazyLock<Vec<&'static str>>;

/// Each of `all` with its name.
fn named<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> Vec<(&'static str, T)> {
    all.iter().map(|&t| (name(t), t)).collect()
}

/// The names of `all`.
fn names<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> Vec<&'static str> {
    all.iter().map(|&t| name(t)).collect()
}

/// The value of `table` named `name`.
pub(crate) fn by_name<T: Copy>(table: &[(&'static str, T)], name: &str) -> Option<T> {
    table.iter().find(|(n, _)| *n == name).map(|&(_, t)| t)
}

/// Special Combat Effects by the names scripts use (docs/RULES.md §6.6).
pub static EFFECTS: Named<Effect> = LazyLock::new(|| named(&Effect::ALL, Effect::name));

/// Attack kinds by the names scripts read (`moment.attack`).
pub static ATTACK_KINDS: Named<AttackKind> =
    LazyLock::new(|| named(&AttackKind::ALL, AttackKind::name));

/// How long a stat modifier lasts, by the names scripts use (`game:modify`).
pub static UNTILS: Named<Until> = LazyLock::new(|| named(&Until::ALL, Until::name));

/// What `game:modify_attack` changes, by the names scripts use.
pub static ROLLS: Named<Roll> = LazyLock::new(|| named(&Roll::ALL, Roll::name));

/// The square kinds `game:squares` takes, by their Lua names.
pub static TERRAINS: Named<Terrain> = LazyLock::new(|| named(&Terrain::ALL, Terrain::name));

/// Statuses by the names scripts use (`game:set_status`).
pub static STATUSES: Named<StatusName> =
    LazyLock::new(|| named(&StatusName::ALL, StatusName::name));

/// Stats a modifier may change, by the names scripts use (`game:modify`).
pub static STATS: Named<Stat> = LazyLock::new(|| named(&Stat::ALL, Stat::name));

/// Sides by the names scripts use.
pub static SIDES: Named<Side> = LazyLock::new(|| named(&Side::ALL, Side::name));

/// Token classes by the names scripts use.
pub static TOKEN_CLASSES: Names = LazyLock::new(|| names(&TokenClass::ALL, TokenClass::name));

/// The decks a card may belong to (`overmind_core::card::Deck`'s names).
pub static DECKS: Names = LazyLock::new(|| names(&Deck::ALL, Deck::name));

/// The decks drawn face up, one card at a time (`game:draw_card`).
pub static EVENT_DECKS: Named<Deck> = LazyLock::new(|| named(&Deck::EVENT, Deck::name));

/// What a card may be played on (`overmind_core::card::CardTarget`'s names).
pub static CARD_TARGETS: Names = LazyLock::new(|| names(&CardTarget::ALL, CardTarget::name));

/// The effects' names, for messages.
pub(super) fn effect_names() -> String {
    EFFECTS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The effect named `name`.
pub(crate) fn effect(name: &str) -> Option<Effect> {
    by_name(&EFFECTS, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_finds_its_value_and_no_other_name_finds_one() {
        fn finds<T: Copy + PartialEq + std::fmt::Debug>(table: &[(&'static str, T)]) {
            for &(n, t) in table {
                assert_eq!(by_name(table, n), Some(t), "{n}");
            }
            assert_eq!(by_name(table, "nothing"), None);
            assert_eq!(by_name(table, ""), None);
        }
        finds(&EFFECTS);
        finds(&ATTACK_KINDS);
        finds(&UNTILS);
        finds(&ROLLS);
        finds(&TERRAINS);
        finds(&STATUSES);
        finds(&STATS);
        finds(&SIDES);
        assert_eq!(effect("push_back"), Some(Effect::PushBack));
        assert_eq!(effect("push back"), None);
    }
}

//! The names scripts and files use for core's enums.

use crate::data::event::{AttackKind, Roll};
use crate::data::map::Terrain;
use crate::data::profile::Effect;
use crate::data::state::{Side, Stat, StatusName, Until};
use crate::data::token::TokenClass;

impl AttackKind {
    /// Every kind of attack, in the order the docs list them.
    pub const ALL: [AttackKind; 6] = [
        AttackKind::Melee,
        AttackKind::Shoot,
        AttackKind::Overwatch,
        AttackKind::FreeAttack,
        AttackKind::Fear,
        AttackKind::Psychic,
    ];

    /// The name scripts read (`moment.attack`), the one the event stream writes.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            AttackKind::Melee => "melee",
            AttackKind::Shoot => "shoot",
            AttackKind::Overwatch => "overwatch",
            AttackKind::FreeAttack => "free_attack",
            AttackKind::Fear => "fear",
            AttackKind::Psychic => "psychic",
        }
    }
}

impl Until {
    /// Every duration, in the order the docs list them.
    pub const ALL: [Until; 2] = [Until::ActivationEnd, Until::RoundEnd];

    /// The name scripts use (`game:modify`): what the modifier lasts to the end of.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Until::ActivationEnd => "activation",
            Until::RoundEnd => "round",
        }
    }
}

impl Roll {
    /// Every roll a modifier changes, in the order the docs list them.
    pub const ALL: [Roll; 2] = [Roll::Attack, Roll::Defence];

    /// The name scripts use (`game:modify_attack`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Roll::Attack => "dice",
            Roll::Defence => "defence",
        }
    }
}

impl Terrain {
    /// Every kind of square, in the order the docs list them.
    pub const ALL: [Terrain; 6] = [
        Terrain::Plain,
        Terrain::Red,
        Terrain::Green,
        Terrain::Yellow,
        Terrain::Building,
        Terrain::Solid,
    ];

    /// The name scripts compare terrain with (`game:terrain`, `game:squares`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Terrain::Plain => "plain",
            Terrain::Red => "red",
            Terrain::Green => "green",
            Terrain::Yellow => "yellow",
            Terrain::Building => "building",
            Terrain::Solid => "solid",
        }
    }
}

impl Effect {
    /// Every Special Combat Effect, in the order the docs list them.
    pub const ALL: [Effect; 4] = [
        Effect::KnockDown,
        Effect::PushBack,
        Effect::Shaken,
        Effect::Stun,
    ];

    /// The name scripts and profiles use.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Effect::KnockDown => "knock_down",
            Effect::PushBack => "push_back",
            Effect::Shaken => "shaken",
            Effect::Stun => "stun",
        }
    }
}

impl StatusName {
    /// Every status, in the order the docs list them.
    pub const ALL: [StatusName; 2] = [StatusName::KnockedDown, StatusName::Stunned];
}

impl Stat {
    /// Every stat a modifier changes, in the order the docs list them.
    pub const ALL: [Stat; 4] = [Stat::Movement, Stat::Melee, Stat::Defence, Stat::Shoot];
}

impl Side {
    /// Both sides, the Heroes first.
    pub const ALL: [Side; 2] = [Side::Heroes, Side::Overmind];
}

impl TokenClass {
    /// Every token class, in the order the docs list them.
    pub const ALL: [TokenClass; 4] = [
        TokenClass::Hazard,
        TokenClass::Item,
        TokenClass::Exploration,
        TokenClass::Marker,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::card::{CardTarget, Deck};
    use crate::data::hook::Hook;
    use std::collections::HashSet;

    /// The variants listed, in order, after an exhaustive `match` over them: a variant added
    /// to the enum and not listed here fails to compile.
    macro_rules! every_variant {
        ($t:ident: $($v:ident),+ $(,)?) => {{
            let listed = [$($t::$v),+];
            for x in listed {
                match x {
                    $($t::$v)|+ => {}
                }
            }
            listed
        }};
    }

    /// `all` is `every` (each variant once, in order) and their names are distinct and
    /// non-empty.
    fn check<T: Copy + PartialEq + std::fmt::Debug>(
        all: &[T],
        every: &[T],
        name: fn(T) -> &'static str,
    ) {
        assert_eq!(all, every);
        let names: HashSet<&str> = all.iter().map(|&x| name(x)).collect();
        assert_eq!(names.len(), all.len(), "{all:?}: a name given twice");
        assert!(names.iter().all(|n| !n.is_empty()));
    }

    #[test]
    fn all_lists_every_variant_once_and_every_name_is_distinct() {
        check(
            &AttackKind::ALL,
            &every_variant!(AttackKind: Melee, Shoot, Overwatch, FreeAttack, Fear, Psychic),
            AttackKind::name,
        );
        check(
            &Until::ALL,
            &every_variant!(Until: ActivationEnd, RoundEnd),
            Until::name,
        );
        check(
            &Roll::ALL,
            &every_variant!(Roll: Attack, Defence),
            Roll::name,
        );
        check(
            &Terrain::ALL,
            &every_variant!(Terrain: Plain, Red, Green, Yellow, Building, Solid),
            Terrain::name,
        );
        check(
            &Effect::ALL,
            &every_variant!(Effect: KnockDown, PushBack, Shaken, Stun),
            Effect::name,
        );
        check(
            &StatusName::ALL,
            &every_variant!(StatusName: KnockedDown, Stunned),
            StatusName::name,
        );
        check(
            &Stat::ALL,
            &every_variant!(Stat: Movement, Melee, Defence, Shoot),
            Stat::name,
        );
        check(
            &Side::ALL,
            &every_variant!(Side: Heroes, Overmind),
            Side::name,
        );
        check(
            &TokenClass::ALL,
            &every_variant!(TokenClass: Hazard, Item, Exploration, Marker),
            TokenClass::name,
        );
        check(
            &Deck::ALL,
            &every_variant!(Deck: Mutation, HiddenAgenda, Hazard, Item, Exploration),
            Deck::name,
        );
        check(
            &CardTarget::ALL,
            &every_variant!(CardTarget: None, Alien, Hero, Square),
            CardTarget::name,
        );
        check(
            &Hook::ALL,
            &every_variant!(
                Hook: RoundStart, RoundEnd, PhaseStart, PhaseEnd, ActivationStart, ActivationEnd,
                Step, Reveal, BeforeAttack, AfterDamage, Killed, Interact, VictoryCheck
            ),
            Hook::name,
        );
    }

    #[test]
    fn each_name_means_its_variant() {
        for s in StatusName::ALL {
            assert_eq!(StatusName::named(s.name()), Some(s));
        }
        for s in Stat::ALL {
            assert_eq!(Stat::named(s.name()), Some(s));
        }
        for c in TokenClass::ALL {
            assert_eq!(TokenClass::named(c.name()), Some(c));
        }
        for d in Deck::ALL {
            assert_eq!(Deck::named(d.name()), Some(d));
        }
        for t in CardTarget::ALL {
            assert_eq!(CardTarget::named(t.name()), Some(t));
        }
        for h in Hook::ALL {
            assert_eq!(Hook::named(h.name()), Some(h));
        }
    }

    #[test]
    fn the_names_of_attacks_and_effects_are_the_ones_files_and_logs_use() {
        // serde writes them in the event stream and reads effects from hero profiles.
        for k in AttackKind::ALL {
            assert_eq!(
                serde_json::to_value(k).ok(),
                Some(serde_json::json!(k.name()))
            );
        }
        for e in Effect::ALL {
            assert_eq!(
                serde_json::to_value(e).ok(),
                Some(serde_json::json!(e.name()))
            );
        }
        for t in Terrain::ALL {
            assert_eq!(
                serde_json::to_value(t).ok(),
                Some(serde_json::json!(t.name()))
            );
        }
    }
}

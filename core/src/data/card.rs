//! The decks and card targets (docs/RULES.md §15.1), as data: what states and events name.

use serde::{Deserialize, Serialize};

/// The decks this build deals (docs/RULES.md §15.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Deck {
    /// The Overmind's draw deck: its hand is drawn from it, and it plays them.
    Mutation,
    /// One is dealt face down to the Overmind at setup; it acts through its triggers.
    HiddenAgenda,
    /// Drawn face up when a Hazard token is destroyed; its effect applies at once.
    Hazard,
    /// Drawn face up when content says so (an item token searched); its effect applies at once.
    Item,
    /// Drawn face up when content says so (a building explored); its effect applies at once.
    Exploration,
}

impl Deck {
    /// Every deck, in the order the docs list them.
    pub const ALL: [Deck; 5] = [
        Deck::Mutation,
        Deck::HiddenAgenda,
        Deck::Hazard,
        Deck::Item,
        Deck::Exploration,
    ];

    /// The decks drawn face up, one card at a time, whose card's effect applies at once
    /// (docs/RULES.md §15.8): nobody holds them.
    pub const EVENT: [Deck; 3] = [Deck::Hazard, Deck::Item, Deck::Exploration];

    /// The name packs and missions use.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Deck::Mutation => "mutation",
            Deck::HiddenAgenda => "hidden_agenda",
            Deck::Hazard => "hazard",
            Deck::Item => "item",
            Deck::Exploration => "exploration",
        }
    }

    /// Whether it is drawn face up with its effect applying at once (hazard, item,
    /// exploration).
    #[must_use]
    pub fn is_event(self) -> bool {
        Deck::EVENT.contains(&self)
    }

    /// The deck a name means.
    #[must_use]
    pub fn named(name: &str) -> Option<Deck> {
        Deck::ALL.into_iter().find(|d| d.name() == name)
    }
}

/// What `play CARD [TARGET]` names with the card.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardTarget {
    /// Nothing: `play CARD`.
    None,
    /// A revealed Alien Unit with a model on the map.
    Alien,
    /// A Hero on the map.
    Hero,
    /// A square of the map (`play CARD X,Y`).
    Square,
}

impl CardTarget {
    /// Every kind of target.
    pub const ALL: [CardTarget; 4] = [
        CardTarget::None,
        CardTarget::Alien,
        CardTarget::Hero,
        CardTarget::Square,
    ];

    /// The name packs use.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            CardTarget::None => "none",
            CardTarget::Alien => "alien",
            CardTarget::Hero => "hero",
            CardTarget::Square => "square",
        }
    }

    /// The target kind a name means.
    #[must_use]
    pub fn named(name: &str) -> Option<CardTarget> {
        CardTarget::ALL.into_iter().find(|t| t.name() == name)
    }
}

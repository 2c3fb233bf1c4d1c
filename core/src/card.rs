//! Cards (docs/RULES.md §15): what a pack's `card { ... }` defines — its deck, what it targets,
//! how many copies the deck holds and the code its play runs.

use crate::id::Id;
use crate::trigger::Trigger;
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// The decks this build deals (docs/RULES.md §15.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Deck {
    /// The Overmind's draw deck: its hand is drawn from it, and it plays them.
    Mutation,
    /// One is dealt face down to the Overmind at setup; it acts through its triggers.
    HiddenAgenda,
}

impl Deck {
    /// Every deck, in the order the docs list them.
    pub const ALL: [Deck; 2] = [Deck::Mutation, Deck::HiddenAgenda];

    /// The name packs and missions use.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Deck::Mutation => "mutation",
            Deck::HiddenAgenda => "hidden_agenda",
        }
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

/// Most copies of one card a deck may hold.
pub const MAX_COPIES: u32 = 10;

/// One card as a pack defines it. Its triggers (`on = { ... }`) are in `Content.triggers`
/// with [`crate::trigger::Owner::Card`]: they act while the card is in play (a played card
/// until the end of its round, a Hidden Agenda all game).
#[derive(Clone)]
pub struct CardDef {
    pub id: Id,
    pub name: String,
    /// What it does, shown to players.
    pub text: String,
    pub deck: Deck,
    pub target: CardTarget,
    /// Copies of it in its deck.
    pub copies: u32,
    /// What playing it does (a Lua function in practice); none for a card that only has
    /// triggers.
    pub play: Option<Rc<dyn Trigger>>,
}

impl std::fmt::Debug for CardDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CardDef")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("deck", &self.deck)
            .field("target", &self.target)
            .field("copies", &self.copies)
            .field("play", &self.play.is_some())
            .finish_non_exhaustive()
    }
}

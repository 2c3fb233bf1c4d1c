//! The Overmind's cards as the state holds them (docs/RULES.md §15): piles, hand, agenda.

use crate::data::card::Deck;
use crate::data::id::Id;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What stands for a card the viewer may not know (the Heroes' view of the Overmind's hand,
/// piles and agenda). No card id can be it: ids are `a-z`, `0-9` and `_`.
pub const HIDDEN: &str = "?";

/// The Overmind's cards. In the Heroes' view every card not yet played is [`HIDDEN`], so
/// only the counts show.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cards {
    /// The decks the mission deals.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decks: Vec<Deck>,
    /// The Mutation draw pile, its top last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draw: Vec<Id>,
    /// Discarded and spent Mutation cards.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discard: Vec<Id>,
    /// The Overmind's hand.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hand: Vec<Id>,
    /// The Hidden Agenda dealt to the Overmind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agenda: Option<Id>,
    /// Whether the agenda has been revealed (it acted, or it won).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub agenda_revealed: bool,
    /// Played cards whose triggers act until the end of the round.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub in_play: Vec<Id>,
    /// The Hazard, Item and Exploration decks the mission deals (docs/RULES.md §15.8), drawn
    /// face up one card at a time.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub events: BTreeMap<Deck, Pile>,
}

/// An event deck's piles.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pile {
    /// The draw pile, its top last; face down.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draw: Vec<Id>,
    /// Cards drawn and spent, face up.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discard: Vec<Id>,
}

impl Cards {
    /// Nothing dealt: a mission without decks.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self == &Cards::default()
    }

    /// Whether the mission deals the Overmind a hand (the Mutation deck).
    #[must_use]
    pub fn has_hand(&self) -> bool {
        self.decks.contains(&Deck::Mutation)
    }

    /// Whether `card`'s triggers act now: it is in play, or it is the agenda.
    #[must_use]
    pub fn active(&self, card: &Id) -> bool {
        self.in_play.contains(card) || self.agenda.as_ref() == Some(card)
    }

    /// Whether `card` is the Hidden Agenda, still face down.
    #[must_use]
    pub fn hidden_agenda(&self, card: &Id) -> bool {
        !self.agenda_revealed && self.agenda.as_ref() == Some(card)
    }

    /// The cards as the Heroes may know them: counts, the played ones, a revealed agenda.
    pub(crate) fn hide(&mut self) {
        let hidden = Id::from(HIDDEN);
        for c in self
            .hand
            .iter_mut()
            .chain(self.draw.iter_mut())
            .chain(self.discard.iter_mut())
        {
            *c = hidden;
        }
        if !self.agenda_revealed && self.agenda.is_some() {
            self.agenda = Some(hidden);
        }
        // An event deck's draw pile: the Heroes learn its size, not its order.
        for pile in self.events.values_mut() {
            for c in &mut pile.draw {
                *c = hidden;
            }
        }
    }

    /// Take one copy of `card` from the hand; whether it was there.
    pub(crate) fn take_from_hand(&mut self, card: &Id) -> bool {
        match self.hand.iter().position(|c| c == card) {
            Some(i) => {
                self.hand.remove(i);
                true
            }
            None => false,
        }
    }
}

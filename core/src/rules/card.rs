//! Cards (docs/RULES.md §15): what a pack's `card { ... }` defines — its deck, what it targets,
//! how many copies the deck holds and the code its play runs.

use crate::data::id::Id;
use crate::rules::trigger::Trigger;
use std::rc::Rc;

pub use crate::data::card::{CardTarget, Deck};

/// Most copies of one card a deck may hold.
pub const MAX_COPIES: u32 = 10;

/// One card as a pack defines it. Its triggers (`on = { ... }`) are in `Content.triggers`
/// with [`crate::data::hook::Owner::Card`]: they act while the card is in play (a played card
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

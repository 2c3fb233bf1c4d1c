//! Decks and the Overmind's cards in play (docs/RULES.md §15): the draw and discard piles,
//! the hand, the Hidden Agenda, built from the loaded cards at setup and shuffled with the
//! game's RNG, drawn up to the hand size at the start of each Overmind phase.

use crate::data::card::Deck;
use crate::data::event::Event;
use crate::data::id::Id;
use crate::data::state::Side;
use crate::rules::content::Content;
use crate::rules::engine::Engine;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

pub use crate::data::cards::{Cards, HIDDEN};

/// Why a mission's decks cannot be dealt.
#[must_use]
pub fn deal_problem(decks: &[Deck], content: &Content) -> Option<String> {
    decks
        .iter()
        .find(|d| !content.cards.values().any(|c| c.deck == **d))
        .map(|d| {
            format!(
                "the mission deals the {} deck, but no loaded pack defines a card of it (cards/*.lua with deck = {:?})",
                d.name(),
                d.name()
            )
        })
}

/// The decks of a mission, built from the loaded cards (by id, each card `copies` times) and
/// shuffled with `rng`; one Hidden Agenda dealt when the mission deals them.
pub fn deal(decks: &[Deck], content: &Content, rng: &mut ChaCha8Rng) -> Cards {
    let mut cards = Cards {
        decks: decks.to_vec(),
        ..Cards::default()
    };
    let of = |deck: Deck| -> Vec<Id> {
        content
            .cards
            .values()
            .filter(|c| c.deck == deck)
            .flat_map(|c| std::iter::repeat_n(c.id, c.copies as usize))
            .collect()
    };
    if decks.contains(&Deck::Mutation) {
        cards.draw = of(Deck::Mutation);
        cards.draw.shuffle(rng);
    }
    if decks.contains(&Deck::HiddenAgenda) {
        let mut agendas = of(Deck::HiddenAgenda);
        agendas.dedup();
        agendas.shuffle(rng);
        cards.agenda = agendas.first().copied();
    }
    cards
}

impl Engine<'_> {
    /// The Overmind draws `hand_draw` cards, never holding more than `hand_size`
    /// (docs/RULES.md §15.2): at the start of its phase. An empty draw pile takes the discard
    /// pile, shuffled.
    pub(crate) fn draw_hand(&mut self) {
        if !self.st.cards.has_hand() {
            return;
        }
        let size = self.st.rules.hand_size as usize;
        let mut drawn = 0;
        while self.st.cards.hand.len() < size && drawn < self.st.rules.hand_draw {
            if self.st.cards.draw.is_empty() {
                if self.st.cards.discard.is_empty() {
                    break;
                }
                self.drawn(std::mem::take(&mut drawn));
                let mut pile = std::mem::take(&mut self.st.cards.discard);
                pile.shuffle(&mut self.st.rng);
                self.st.cards.draw = pile;
                self.emit(Event::DeckShuffled {
                    deck: Deck::Mutation,
                    cards: self.st.cards.draw.len() as u32,
                });
            }
            let Some(card) = self.st.cards.draw.pop() else {
                break;
            };
            self.st.cards.hand.push(card);
            drawn += 1;
        }
        self.drawn(drawn);
    }

    /// Say that `cards` were drawn (not which).
    fn drawn(&mut self, cards: u32) {
        if cards > 0 {
            self.emit(Event::CardDrawn {
                side: Side::Overmind,
                deck: Deck::Mutation,
                cards,
                hand: self.st.cards.hand.len() as u32,
            });
        }
    }

    /// Played cards leave play at the end of the round, to the discard pile.
    pub(crate) fn end_cards_in_play(&mut self) {
        for card in std::mem::take(&mut self.st.cards.in_play) {
            self.st.cards.discard.push(card);
            self.emit(Event::CardLeftPlay { card });
        }
    }
}

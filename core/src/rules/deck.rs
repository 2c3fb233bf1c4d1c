//! Decks and the Overmind's cards in play (docs/RULES.md §15): the draw and discard piles,
//! the hand, the Hidden Agenda, built from the loaded cards at setup and shuffled with the
//! game's RNG, drawn up to the hand size at the start of each Overmind phase.

use crate::data::card::Deck;
use crate::data::event::Event;
use crate::data::geom::Pos;
use crate::data::hook::Owner;
use crate::data::id::Id;
use crate::data::state::Side;
use crate::rules::content::Content;
use crate::rules::engine::Engine;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

pub use crate::data::cards::{Cards, Pile, HIDDEN};

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
    // The event decks, after the Overmind's, in the order `Deck::EVENT` lists them.
    for deck in Deck::EVENT.into_iter().filter(|d| decks.contains(d)) {
        let mut draw = of(deck);
        draw.shuffle(rng);
        cards.events.insert(
            deck,
            Pile {
                draw,
                discard: Vec::new(),
            },
        );
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

    /// Played cards leave play at the end of the round, to their deck's discard pile.
    pub(crate) fn end_cards_in_play(&mut self) {
        for card in std::mem::take(&mut self.st.cards.in_play) {
            let deck = self.content.cards.get(card.as_str()).map(|c| c.deck);
            match deck.and_then(|d| self.st.cards.events.get_mut(&d)) {
                Some(pile) => pile.discard.push(card),
                None => self.st.cards.discard.push(card),
            }
            self.emit(Event::CardLeftPlay { card });
        }
    }

    /// Draw the top card of the event deck `deck` face up, because of `unit` at `at`, and
    /// apply it (docs/RULES.md §15.8): announced by `card_turned`, its `play` runs as a
    /// played card's does, with `unit` and `at` in its moment, for the side of `unit` (the
    /// Heroes' when none); a card with hooks stays in play to the end of the round. An empty
    /// draw pile takes the discard pile, shuffled. `None` when the mission does not deal the
    /// deck or it holds no card.
    pub(crate) fn turn_card(
        &mut self,
        deck: Deck,
        unit: Option<Id>,
        at: Option<Pos>,
    ) -> Option<Id> {
        let pile = self.st.cards.events.get_mut(&deck)?;
        if pile.draw.is_empty() && !pile.discard.is_empty() {
            let mut cards = std::mem::take(&mut pile.discard);
            cards.shuffle(&mut self.st.rng);
            let n = cards.len() as u32;
            if let Some(pile) = self.st.cards.events.get_mut(&deck) {
                pile.draw = cards;
            }
            self.emit(Event::DeckShuffled { deck, cards: n });
        }
        let pile = self.st.cards.events.get_mut(&deck)?;
        let card = pile.draw.pop()?;
        let left = pile.draw.len() as u32;
        let content = self.content;
        let def = content.cards.get(card.as_str());
        self.emit(Event::CardTurned {
            deck,
            card,
            name: def.map_or_else(|| card.to_string(), |d| d.name.clone()),
            unit,
            at,
            left,
        });
        let lasting = content
            .triggers
            .iter()
            .any(|t| t.owner == Owner::Card(card));
        if lasting {
            self.st.cards.in_play.push(card);
        } else if let Some(pile) = self.st.cards.events.get_mut(&deck) {
            pile.discard.push(card);
        }
        if let Some(play) = def.and_then(|d| d.play.clone()) {
            let side = unit.and_then(|u| self.side_of(&u)).unwrap_or(Side::Heroes);
            self.run_play(card, &play, unit, at, side);
        }
        self.check_reveals();
        self.check_victory();
        Some(card)
    }
}

impl crate::rules::behaviour::BehaviourCtx<'_, '_> {
    /// An effect: draw the top card of the event deck `deck` (hazard, item or exploration)
    /// face up for `unit` (the unit that drew it, if any) at `at`, and apply it
    /// (docs/RULES.md §15.8). `None` when the mission does not deal that deck.
    ///
    /// # Errors
    /// Not an event deck, no such unit on the map, a square off the map, or the call's last
    /// effect spent.
    pub fn draw_card(
        &mut self,
        deck: Deck,
        unit: Option<&str>,
        at: Option<Pos>,
    ) -> Result<Option<Id>, crate::rules::behaviour::BehaviourError> {
        let fail = |m: String| Err(crate::rules::behaviour::BehaviourError::new(m));
        if !deck.is_event() {
            return fail(format!(
                "the {} deck is not drawn face up: only hazard, item and exploration are",
                deck.name()
            ));
        }
        let unit = match unit {
            None => None,
            Some(u) => match self.state().unit(u).filter(|u| u.alive()) {
                Some(u) => Some(u.id),
                None => return fail(format!("no unit {u} on the map")),
            },
        };
        if let Some(p) = at.filter(|&p| !self.state().map.in_bounds(p)) {
            return fail(format!("{p} is off the map"));
        }
        self.room()?;
        Ok(self.engine().turn_card(deck, unit, at))
    }
}

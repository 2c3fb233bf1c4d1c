//! Interruption (docs/RULES.md §15.4): after each Hero activation that leaves the Hero phase
//! going, an Overmind holding enough cards is offered the chance to discard `interrupt_discard`
//! of them and act — play cards, and activate one Blip or Alien Unit that has not activated this
//! round — before the Heroes go on.

use crate::data::action::{refuse, Refusal, RefusalKind};
use crate::data::event::Event;
use crate::data::id::Id;
use crate::data::state::{GameState, Phase, Side};
use crate::rules::engine::Engine;

pub use crate::data::interrupt::Interrupt;

/// Validation of `interrupt CARD CARD`. Pure.
pub(crate) fn check(st: &GameState, side: Side, discard: &[Id]) -> Result<(), Refusal> {
    if side != Side::Overmind {
        return refuse(
            RefusalKind::NotYours,
            "only the Overmind interrupts the Hero phase",
        );
    }
    if st.interrupt != Some(Interrupt::Offered) {
        return refuse(RefusalKind::Interruption,
            "the Overmind may interrupt only when offered: after a Hero's activation, in the Hero phase",
        );
    }
    let need = st.rules.interrupt_discard as usize;
    if discard.len() != need {
        return refuse(
            RefusalKind::Card,
            format!(
                "interrupting takes {need} cards from the hand, found {}",
                discard.len()
            ),
        );
    }
    let mut hand = st.cards.hand.clone();
    for card in discard {
        match hand.iter().position(|c| c == card) {
            Some(i) => {
                hand.remove(i);
            }
            None => {
                return refuse(
                    RefusalKind::Card,
                    format!("{card} is not in the Overmind's hand (or not that many times)"),
                )
            }
        }
    }
    Ok(())
}

/// Whether the action of `actor` (a unit or Blip id) of `side` may be taken now, as far as
/// interruption goes: while the Overmind is offered it, nothing but `interrupt` and `end`; while
/// it interrupts, one activation; in a game with an Overmind hand, a Hero's activation ends
/// (both actions, or `end`) before another Hero's starts, so the offer comes between them.
pub(crate) fn check_actor(st: &GameState, side: Side, actor: &Id) -> Result<(), Refusal> {
    match (side, st.interrupt) {
        (Side::Overmind, Some(Interrupt::Offered)) => refuse(RefusalKind::Interruption,
            "the Overmind may interrupt the Hero phase (`interrupt CARD CARD`) or let the Heroes go on (`end`)",
        ),
        (Side::Overmind, Some(Interrupt::Acting { unit: Some(u) })) if u != *actor => refuse(RefusalKind::Interruption,
            format!("this interruption is {u}'s activation: `end` it to let the Heroes go on"),
        ),
        (Side::Heroes, None) if st.cards.has_hand() && st.phase == Phase::Heroes => {
            match st.active {
                Some(a) if a != *actor => refuse(RefusalKind::EndActivationFirst, format!(
                    "end {a}'s activation first (`end`): the Overmind may interrupt between Hero activations"
                )),
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

impl Engine<'_> {
    /// A Hero's activation ended: offer the Overmind its interruption when it holds enough
    /// cards (the count is public) and some Hero is still to activate.
    pub(crate) fn offer_interrupt(&mut self) {
        let st = &self.st;
        let due = st.phase == Phase::Heroes
            && st.interrupt.is_none()
            && st.cards.has_hand()
            && st.cards.hand.len() >= st.rules.interrupt_discard as usize
            && st
                .units
                .iter()
                .any(|u| u.side == Side::Heroes && u.alive() && !u.extracted && !u.activated);
        if due && !st.is_over() {
            self.st.interrupt = Some(Interrupt::Offered);
        }
    }

    /// Resolve a validated `interrupt`: the cards go to the discard pile, the Overmind acts.
    pub(crate) fn interrupt(&mut self, discard: &[Id]) {
        for card in discard {
            if self.st.cards.take_from_hand(card) {
                self.st.cards.discard.push(*card);
            }
        }
        self.st.interrupt = Some(Interrupt::Acting { unit: None });
        self.emit(Event::Interrupted {
            discarded: discard.len() as u32,
            hand: self.st.cards.hand.len() as u32,
        });
    }

    /// An Overmind activation starts: during an interruption, it is the interruption's one.
    pub(crate) fn interrupting_with(&mut self, id: Id) {
        if let Some(Interrupt::Acting { unit: None }) = self.st.interrupt {
            self.st.interrupt = Some(Interrupt::Acting { unit: Some(id) });
        }
    }

    /// End an offer (declined) or an interruption (its activation ended, or `end`).
    pub(crate) fn close_interrupt(&mut self) {
        match self.st.interrupt.take() {
            Some(Interrupt::Acting { .. }) => self.emit(Event::InterruptEnded),
            Some(Interrupt::Offered) | None => {}
        }
    }
}

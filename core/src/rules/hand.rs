//! The Overmind's hand (docs/RULES.md §15.3): `play CARD [TARGET]` and `discard CARD` —
//! checked from the Overmind's own view, then resolved: a played card is public, its `play`
//! runs like a trigger (bounded, its failure logged, what it did before failing kept).

use crate::data::action::{refuse, Action, Refusal, RefusalKind};
use crate::data::event::Event;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::state::{GameState, Phase, Side};
use crate::rules::behaviour::{bounded, BehaviourCtx, MAX_REASON_BYTES};
use crate::rules::card::{CardTarget, Deck};
use crate::rules::content::Content;
use crate::rules::engine::Engine;
use crate::rules::trigger::{Moment, Owner};

/// Whether the Overmind may play and discard cards now: in its phase, or while it interrupts
/// the Hero phase (having paid for it).
#[must_use]
pub fn may_use_cards(st: &GameState) -> bool {
    match st.phase {
        Phase::Overmind => true,
        Phase::Heroes => matches!(
            st.interrupt,
            Some(crate::data::interrupt::Interrupt::Acting { .. })
        ),
        Phase::Over => false,
    }
}

/// Validation of a card action (`None` when `action` is not one). Pure.
pub(crate) fn validate(
    st: &GameState,
    content: &Content,
    side: Side,
    action: &Action,
) -> Option<Result<(), Refusal>> {
    let r = match action {
        Action::Play { card, target, at } => check_play(st, content, side, card, *target, *at),
        Action::Discard { card } => check_discard(st, side, card),
        Action::Interrupt { discard } => crate::rules::interrupt::check(st, side, discard),
        _ => return None,
    };
    Some(r)
}

/// Only the Overmind holds cards; the message says nothing of its hand.
fn overmind_only(side: Side, what: &str) -> Result<(), Refusal> {
    if side == Side::Overmind {
        Ok(())
    } else {
        refuse(
            RefusalKind::NotYours,
            format!("only the Overmind {what} cards"),
        )
    }
}

fn in_hand(st: &GameState, card: &Id) -> Result<(), Refusal> {
    if st.cards.hand.contains(card) {
        return Ok(());
    }
    let mut held: Vec<&str> = st.cards.hand.iter().map(Id::as_str).collect();
    held.sort_unstable();
    held.dedup();
    if held.is_empty() {
        refuse(
            RefusalKind::Card,
            format!("{card} is not in the Overmind's hand, which is empty"),
        )
    } else {
        refuse(
            RefusalKind::Card,
            format!(
                "{card} is not in the Overmind's hand; it holds {}",
                held.join(", ")
            ),
        )
    }
}

fn check_play(
    st: &GameState,
    content: &Content,
    side: Side,
    card: &Id,
    target: Option<Id>,
    at: Option<Pos>,
) -> Result<(), Refusal> {
    overmind_only(side, "plays")?;
    if !may_use_cards(st) {
        return refuse(
            RefusalKind::Card,
            if st.interrupt.is_some() {
                "interrupt first (`interrupt CARD CARD`) to play a card in the Hero phase"
            } else {
                "the Overmind plays cards in its own phase, or when it interrupts the Hero phase"
            },
        );
    }
    in_hand(st, card)?;
    let Some(def) = content.cards.get(card.as_str()) else {
        return refuse(
            RefusalKind::Card,
            format!("{card}: no loaded pack defines this card"),
        );
    };
    if def.deck != Deck::Mutation {
        return refuse(
            RefusalKind::Card,
            format!("{card} is a {} card: it is not played", def.deck.name()),
        );
    }
    let named = |what: &str| -> Result<(), Refusal> {
        if target.is_none() && at.is_none() {
            refuse(
                RefusalKind::Card,
                format!("{card} is played on {what}: `play {card} TARGET`"),
            )
        } else {
            Ok(())
        }
    };
    match def.target {
        CardTarget::None => {
            if target.is_some() || at.is_some() {
                return refuse(
                    RefusalKind::Card,
                    format!("{card} takes no target: `play {card}`"),
                );
            }
        }
        CardTarget::Alien | CardTarget::Hero => {
            let (want, what) = if def.target == CardTarget::Alien {
                (Side::Overmind, "a revealed Alien Unit")
            } else {
                (Side::Heroes, "a Hero")
            };
            named(what)?;
            let Some(t) = target else {
                return refuse(
                    RefusalKind::Card,
                    format!("{card} is played on {what}, not a square"),
                );
            };
            let unit = st.unit(&t).or_else(|| st.find_model(&t).map(|(u, _)| u));
            match unit {
                Some(u) if u.side == want && u.alive() && !u.extracted => {}
                Some(_) => {
                    return refuse(
                        RefusalKind::Card,
                        format!("{card} is played on {what}: {t} is not one"),
                    )
                }
                None if st.blip(&t).is_some() => {
                    return refuse(
                        RefusalKind::Card,
                        format!("{card} is played on {what}: {t} is a Blip"),
                    )
                }
                None => return refuse(RefusalKind::Card, format!("{card}: no unit named {t}")),
            }
        }
        CardTarget::Square => {
            named("a square")?;
            let Some(p) = at else {
                return refuse(
                    RefusalKind::Card,
                    format!("{card} is played on a square: `play {card} X,Y`"),
                );
            };
            if !st.map.in_bounds(p) {
                return refuse(RefusalKind::Card, format!("{p} is off the map"));
            }
        }
    }
    Ok(())
}

fn check_discard(st: &GameState, side: Side, card: &Id) -> Result<(), Refusal> {
    overmind_only(side, "discards")?;
    if !may_use_cards(st) {
        return refuse(RefusalKind::Card, "the Overmind discards in its own phase");
    }
    in_hand(st, card)
}

impl Engine<'_> {
    /// Resolve a validated card action (`None` when `action` is not one).
    pub(crate) fn card_act(&mut self, action: &Action) -> Option<()> {
        match action {
            Action::Play { card, target, at } => self.play_card(*card, *target, *at),
            Action::Discard { card } => {
                if self.st.cards.take_from_hand(card) {
                    self.st.cards.discard.push(*card);
                }
                self.emit(Event::CardDiscarded {
                    side: Side::Overmind,
                    cards: 1,
                    hand: self.st.cards.hand.len() as u32,
                });
            }
            Action::Interrupt { discard } => self.interrupt(discard),
            _ => return None,
        }
        Some(())
    }

    fn play_card(&mut self, card: Id, target: Option<Id>, at: Option<Pos>) {
        let content = self.content;
        let Some(def) = content.cards.get(card.as_str()) else {
            return;
        };
        self.st.cards.take_from_hand(&card);
        // The unit a model names.
        let unit = target.map(|t| self.st.find_model(&t).map_or(t, |(u, _)| u.id));
        self.emit(Event::CardPlayed {
            card,
            name: def.name.clone(),
            target: unit,
            at,
            hand: self.st.cards.hand.len() as u32,
        });
        let lasting = content
            .triggers
            .iter()
            .any(|t| t.owner == Owner::Card(card));
        if lasting {
            self.st.cards.in_play.push(card);
        } else {
            self.st.cards.discard.push(card);
        }
        if let Some(play) = def.play.clone() {
            self.run_play(card, &play, unit, at, Side::Overmind);
        }
        self.check_reveals();
        self.check_victory();
    }

    /// Run `card`'s `play` for `side` (whose doing what it uncovers is), on `unit` or `at`: as
    /// a trigger runs, a failure announced by `card_failed` and what it did before standing.
    pub(crate) fn run_play(
        &mut self,
        card: Id,
        play: &std::rc::Rc<dyn crate::rules::trigger::Trigger>,
        unit: Option<Id>,
        at: Option<Pos>,
        side: Side,
    ) {
        let moment = Moment {
            unit,
            at,
            round: self.st.round,
            card: Some(card),
            ..Default::default()
        };
        if self.depth >= self.st.rules.max_behaviour_depth {
            self.emit(Event::CardFailed {
                card,
                reason: "triggers and behaviours are nested too deep (max_behaviour_depth)".into(),
            });
            return;
        }
        let saved_actor = self.actor;
        self.actor = side;
        self.depth += 1;
        let result = {
            let mut ctx = BehaviourCtx::for_trigger(self, unit.unwrap_or_default(), card);
            play.fire(&mut ctx, &moment)
        };
        self.depth -= 1;
        self.actor = saved_actor;
        if let Err(e) = result {
            self.emit(Event::CardFailed {
                card,
                reason: bounded(&e.message, MAX_REASON_BYTES),
            });
        }
    }
}

/// The card actions `side` may try now, before validation: interruptions while one is
/// offered (each different set of cards), else plays on every target of the card's kind (every
/// square for a card played on one) and discards. None for the Heroes.
pub(crate) fn legal(st: &GameState, content: &Content, side: Side) -> Vec<Action> {
    let mut out = Vec::new();
    if side != Side::Overmind {
        return out;
    }
    let mut held: Vec<Id> = st.cards.hand.clone();
    held.sort_unstable();
    if st.interrupt == Some(crate::data::interrupt::Interrupt::Offered) {
        let need = st.rules.interrupt_discard as usize;
        let mut sets = Vec::new();
        choose(&held, need, &mut Vec::new(), &mut sets);
        sets.dedup();
        out.extend(
            sets.into_iter()
                .map(|discard| Action::Interrupt { discard }),
        );
        return out;
    }
    if !may_use_cards(st) {
        return out;
    }
    held.dedup();
    for card in &held {
        let Some(def) = content.cards.get(card.as_str()) else {
            continue;
        };
        let play = |target: Option<Id>, at: Option<Pos>| Action::Play {
            card: *card,
            target,
            at,
        };
        match def.target {
            CardTarget::None => out.push(play(None, None)),
            CardTarget::Alien | CardTarget::Hero => {
                let want = if def.target == CardTarget::Alien {
                    Side::Overmind
                } else {
                    Side::Heroes
                };
                for u in st
                    .units
                    .iter()
                    .filter(|u| u.side == want && u.alive() && !u.extracted)
                {
                    out.push(play(Some(u.id), None));
                }
            }
            CardTarget::Square => {
                for y in 0..st.map.height() {
                    for x in 0..st.map.width() {
                        out.push(play(None, Some(Pos::new(x, y))));
                    }
                }
            }
        }
    }
    out.extend(held.iter().map(|card| Action::Discard { card: *card }));
    out
}

/// Every sorted choice of `k` cards of the sorted `from` (with repeats as they come).
fn choose(from: &[Id], k: usize, pick: &mut Vec<Id>, out: &mut Vec<Vec<Id>>) {
    if pick.len() == k {
        out.push(pick.clone());
        return;
    }
    let mut last: Option<Id> = None;
    for (i, c) in from.iter().enumerate() {
        if last == Some(*c) {
            continue;
        }
        last = Some(*c);
        pick.push(*c);
        choose(&from[i + 1..], k, pick, out);
        pick.pop();
    }
}

//! Triggers (docs/RULES.md §14): scripts that act when something happens — a round or phase
//! begins or ends, an activation starts or ends, a model steps onto a square, a Blip is
//! revealed, an attack is about to roll, damage lands, a model dies, a token is interacted
//! with, victory is checked. Each belongs to a source (an Alien Type, a hero profile, a token
//! kind, a mission or a pack) and runs like a behaviour: bounded, its failure logged, what it
//! did before failing kept.

use crate::data::event::{AttackKind, Event, Modifier};
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::state::Side;
use crate::rules::behaviour::{bounded, BehaviourCtx, BehaviourError, MAX_REASON_BYTES};
use crate::rules::engine::Engine;
use serde::Serialize;

pub use crate::data::hook::{Hook, Owner};
use std::rc::Rc;

/// One registered trigger.
#[derive(Clone)]
pub struct TriggerDef {
    /// The script that acts, as the log names it (its id).
    pub source: Id,
    pub owner: Owner,
    pub hook: Hook,
    pub handler: Rc<dyn Trigger>,
}

impl std::fmt::Debug for TriggerDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TriggerDef")
            .field("source", &self.source)
            .field("owner", &self.owner)
            .field("hook", &self.hook)
            .finish_non_exhaustive()
    }
}

/// What a trigger is told about the moment it fires.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Moment {
    /// The unit the event is about (the activating unit, the mover's unit, the attacker, the
    /// damaged model's unit), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<Id>,
    /// The model it is about, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<Id>,
    /// The square it happened on, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<Pos>,
    /// The side whose phase began or ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// The round.
    pub round: u32,
    /// The token stepped on or interacted with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<Id>,
    /// `before_attack`: the attack's kind and target model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attack: Option<AttackKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Id>,
    /// `after_damage`: Health lost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<u32>,
    /// `killed`: the unit that killed, if a unit did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<Id>,
    /// A card's `play`: the card played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<Id>,
}

/// A trigger's code (a Lua function in practice).
pub trait Trigger {
    /// Act. `ctx` is a behaviour context for the moment's unit (or none, for a game-wide
    /// moment); a failure is logged as `trigger_failed` and what was done before stands.
    ///
    /// # Errors
    /// Why the trigger failed.
    fn fire(&self, ctx: &mut BehaviourCtx<'_, '_>, moment: &Moment) -> Result<(), BehaviourError>;
}

impl Engine<'_> {
    /// Whether anything listens to `hook` (the fast path: most games register few).
    #[must_use]
    pub fn listens(&self, hook: Hook) -> bool {
        self.content.triggers.iter().any(|t| t.hook == hook)
    }

    /// Whether some `step` trigger concerns `model` entering `at`: the game's, an active card's
    /// (face down or not), its type's or profile's, or a token's lying there.
    #[must_use]
    pub fn step_due(&self, model: &Id, at: Pos) -> bool {
        self.content.triggers.iter().any(|t| {
            t.hook == Hook::Step
                && match &t.owner {
                    Owner::Game => true,
                    Owner::Card(c) => self.st.cards.active(c),
                    Owner::Token(kind) => self.st.tokens_at(at).any(|tk| tk.kind == *kind),
                    Owner::Alien(k) | Owner::Hero(k) => {
                        self.st.find_model(model).is_some_and(|(_, m)| m.kind == *k)
                    }
                }
        })
    }

    /// Run every trigger of `hook` whose owner the moment concerns, in the order they were
    /// registered. Nested firing is bounded by `max_behaviour_depth`, shared with behaviours.
    pub fn fire(&mut self, hook: Hook, moment: &Moment) {
        if self.st.is_over() && hook != Hook::VictoryCheck {
            return;
        }
        let due: Vec<TriggerDef> = self
            .content
            .triggers
            .iter()
            .filter(|t| t.hook == hook && self.concerns(&t.owner, moment))
            .cloned()
            .collect();
        for t in due {
            if self.st.is_over() && hook != Hook::VictoryCheck {
                return;
            }
            if self.depth >= self.st.rules.max_behaviour_depth {
                // A face-down card that never ran stays face down, and nameless.
                let source = if self.hidden_card(&t.owner).is_some() {
                    Id::from(crate::data::cards::HIDDEN)
                } else {
                    t.source
                };
                self.emit(Event::TriggerFailed {
                    source,
                    hook,
                    reason: "triggers and behaviours are nested too deep (max_behaviour_depth)"
                        .into(),
                });
                continue;
            }
            // Announced with its first event; a trigger that does nothing leaves no trace. A
            // face-down card that acts is turned up first (docs/RULES.md §15.6).
            let mark = self.announce.len();
            let hidden = self.hidden_card(&t.owner);
            if let Some(reveal) = &hidden {
                self.announce.push(reveal.clone());
            }
            self.announce.push(Event::Triggered {
                source: t.source,
                hook,
                unit: moment.unit,
            });
            let saved_actor = self.actor;
            self.depth += 1;
            let unit = moment.unit.unwrap_or_default();
            let result = {
                let mut ctx = if hidden.is_some() {
                    BehaviourCtx::for_hidden_trigger(self, unit, t.source)
                } else {
                    BehaviourCtx::for_trigger(self, unit, t.source)
                };
                t.handler.fire(&mut ctx, moment)
            };
            self.depth -= 1;
            self.actor = saved_actor;
            let acted = self.announce.len() <= mark;
            self.announce.truncate(mark);
            if let Some(reveal) = hidden {
                if acted {
                    self.st.cards.agenda_revealed = true;
                } else if result.is_err() {
                    self.st.cards.agenda_revealed = true;
                    self.emit(reveal);
                }
            }
            if let Err(e) = result {
                self.emit(Event::TriggerFailed {
                    source: t.source,
                    hook,
                    reason: bounded(&e.message, MAX_REASON_BYTES),
                });
            }
        }
    }

    /// The event that turns up the face-down card `owner` is, if it is one.
    fn hidden_card(&self, owner: &Owner) -> Option<Event> {
        let Owner::Card(card) = owner else {
            return None;
        };
        if !self.st.cards.hidden_agenda(card) {
            return None;
        }
        let name = self
            .content
            .cards
            .get(card.as_str())
            .map_or_else(|| card.to_string(), |c| c.name.clone());
        Some(Event::CardRevealed { card: *card, name })
    }

    /// Whether a trigger of `owner` fires for `moment`.
    fn concerns(&self, owner: &Owner, moment: &Moment) -> bool {
        // A token's triggers fire for moments about that token, the others for the rest.
        if matches!(owner, Owner::Token(_)) != moment.token.is_some() {
            return false;
        }
        match owner {
            Owner::Game => true,
            Owner::Card(c) => self.st.cards.active(c),
            Owner::Token(kind) => moment
                .token
                .and_then(|t| self.st.token(&t))
                .is_some_and(|t| t.kind == *kind),
            Owner::Alien(kind) | Owner::Hero(kind) => {
                let side = if matches!(owner, Owner::Alien(_)) {
                    Side::Overmind
                } else {
                    Side::Heroes
                };
                let Some(u) = moment.unit.and_then(|u| self.st.unit(&u)) else {
                    return false;
                };
                let kind_now = u.models.first().map(|m| m.kind);
                let kind_then = moment.model.and_then(|m| self.killed_kind(&m));
                u.side == side && (kind_then.or(kind_now) == Some(*kind))
            }
        }
    }

    /// The kind of a model, alive or just killed (a `killed` moment names a model no longer on
    /// the map: its kind is found in this action's `model_killed` event's unit).
    fn killed_kind(&self, model: &str) -> Option<Id> {
        if let Some((_, m)) = self.st.find_model(model) {
            return Some(m.kind);
        }
        self.dead_kinds
            .iter()
            .find(|(id, _)| id == model)
            .map(|(_, k)| *k)
    }

    /// The modifiers `before_attack` triggers added, taken for the attack about to roll.
    pub(crate) fn take_attack_modifiers(&mut self) -> Vec<Modifier> {
        std::mem::take(&mut self.attack_mods)
    }
}

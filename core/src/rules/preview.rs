//! Look-ahead without the rules calling the AI (docs/RULES.md §8.1): when a unit chooses
//! among several Alien Behaviours, the deciding controller is handed a [`BehaviourChoice`],
//! which plays any option out on a copy of the game; nothing reaches the real game, its dice,
//! its storage or its replay.

use crate::data::id::Id;
use crate::data::state::{GameState, Side};
use crate::rules::behaviour::BehaviourCtx;
use crate::rules::content::Content;
use crate::rules::decision::Controllers;
use crate::rules::engine::Engine;

/// A unit about to choose which Alien Behaviour it performs, as a look-ahead controller sees
/// it.
pub struct BehaviourChoice<'a> {
    pub(crate) state: &'a GameState,
    pub(crate) content: &'a Content,
    pub(crate) unit: Id,
    /// Whose doing it is, and how deep in nested behaviours (as the real performance).
    pub(crate) actor: Side,
    pub(crate) depth: u32,
}

impl BehaviourChoice<'_> {
    /// The game as it stands before the choice.
    #[must_use]
    pub fn state(&self) -> &GameState {
        self.state
    }

    /// The content the game plays with.
    #[must_use]
    pub fn content(&self) -> &Content {
        self.content
    }

    /// The unit choosing.
    #[must_use]
    pub fn unit(&self) -> Id {
        self.unit
    }

    /// Perform `behaviour` for the unit on `copy` (a copy of [`state`](Self::state), with dice
    /// of its own), its decisions answered by `ctl`: what choosing it would do.
    pub fn preview(&self, copy: &mut GameState, behaviour: Id, ctl: &mut Controllers) {
        let mut sub = Engine::new(copy, self.content, ctl);
        sub.actor = self.actor;
        sub.depth = self.depth;
        sub.perform_chosen(&self.unit, behaviour);
    }

    /// What `behaviour`'s own `ai_score` says of performing it now (run on a copy), if it has
    /// one and it is a number.
    #[must_use]
    pub fn ai_score(&self, behaviour: Id, ctl: &mut Controllers) -> Option<f64> {
        let b = self
            .content
            .behaviours
            .get(behaviour.as_str())
            .filter(|b| b.has_ai_score())
            .cloned()?;
        let mut copy = self.state.clone();
        let mut sub = Engine::new(&mut copy, self.content, ctl);
        sub.actor = Side::Overmind;
        sub.depth = self.depth + 1;
        let mut ctx = BehaviourCtx::for_score(&mut sub, self.unit, behaviour);
        b.ai_score(&mut ctx).filter(|s| s.is_finite())
    }
}

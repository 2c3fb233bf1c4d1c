//! Actions a side can take, and why one can be refused.

use crate::geom::Pos;
use crate::id::Id;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One command of a side. `unit` names a Hero, an Alien Unit, one model of a unit
/// (`a3.2`: moves that model as part of the unit's Move action) or a Blip.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    Move {
        unit: Id,
        to: Pos,
        /// Waypoints the path passes through, in order (`move a1 5,5 via 3,4`); each leg is
        /// a shortest legal path. Empty: any shortest path, the mover's side choosing among
        /// several (decision kind `path`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        via: Vec<Pos>,
    },
    Sprint {
        unit: Id,
        to: Pos,
        /// As for `Move`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        via: Vec<Pos>,
    },
    Shoot {
        unit: Id,
        target: Id,
    },
    Melee {
        unit: Id,
        target: Id,
    },
    Overwatch {
        unit: Id,
    },
    Interact {
        unit: Id,
    },
    Flip {
        unit: Id,
    },
    /// End the current activation; with none under way, end the side's phase.
    End,
    /// The Overmind plays a card from its hand (docs/RULES.md §15.3), on a unit (`target`) or
    /// a square (`at`) when the card names one. Uses no action.
    Play {
        card: Id,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Id>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Pos>,
    },
    /// The Overmind discards a card from its hand. Uses no action.
    Discard {
        card: Id,
    },
    /// The Overmind, offered the chance after a Hero's activation, discards `discard` (as many
    /// cards as `interrupt_discard`) to interrupt the Hero phase and act (docs/RULES.md §15.4).
    Interrupt {
        discard: Vec<Id>,
    },
    /// Author tool (`play --dev`): `unit`, an Overmind unit on the map, performs `behaviour`
    /// now, out of turn, using no action (core/src/dev.rs).
    Perform {
        unit: Id,
        behaviour: Id,
    },
    /// Author tool (`play --dev`): a new Overmind unit of Alien Type `alien`, its first model
    /// on `at` and `models - 1` more placed next to it.
    Spawn {
        alien: Id,
        at: Pos,
        #[serde(default = "one")]
        models: u32,
    },
}

impl Action {
    /// A Move to `to` by any shortest path.
    #[must_use]
    pub fn move_to(unit: impl Into<Id>, to: Pos) -> Action {
        Action::Move {
            unit: unit.into(),
            to,
            via: Vec::new(),
        }
    }

    /// A Sprint to `to` by any shortest path.
    #[must_use]
    pub fn sprint_to(unit: impl Into<Id>, to: Pos) -> Action {
        Action::Sprint {
            unit: unit.into(),
            to,
            via: Vec::new(),
        }
    }

    /// The unit, model or Blip the action names.
    #[must_use]
    pub fn actor(&self) -> Option<&str> {
        match self {
            Action::Move { unit, .. }
            | Action::Sprint { unit, .. }
            | Action::Shoot { unit, .. }
            | Action::Melee { unit, .. }
            | Action::Overwatch { unit }
            | Action::Interact { unit }
            | Action::Flip { unit } => Some(unit),
            Action::End
            | Action::Perform { .. }
            | Action::Spawn { .. }
            | Action::Play { .. }
            | Action::Discard { .. }
            | Action::Interrupt { .. } => None,
        }
    }
}

/// Why an action was refused. The state is unchanged. Messages never describe a face-down
/// Blip's contents.
fn one() -> u32 {
    1
}

#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
#[error("{0}")]
pub struct ActionError(pub String);

impl ActionError {
    pub fn new(msg: impl Into<String>) -> Self {
        ActionError(msg.into())
    }
}

pub(crate) fn refuse<T>(msg: impl Into<String>) -> Result<T, ActionError> {
    Err(ActionError::new(msg))
}

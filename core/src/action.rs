//! Actions a side can take, and why one can be refused.

use crate::geom::Pos;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One command of a side. `unit` names a Hero, an Alien Unit, one model of a unit
/// (`a3.2`: moves that model as part of the unit's Move action) or a Blip.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    Move {
        unit: String,
        to: Pos,
    },
    Sprint {
        unit: String,
        to: Pos,
    },
    Shoot {
        unit: String,
        target: String,
    },
    Melee {
        unit: String,
        target: String,
    },
    Overwatch {
        unit: String,
    },
    Interact {
        unit: String,
    },
    Flip {
        unit: String,
    },
    /// End the current activation; with none under way, end the side's phase.
    End,
}

impl Action {
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
            Action::End => None,
        }
    }
}

/// Why an action was refused. The state is unchanged. Messages never describe a face-down
/// Blip's contents.
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

//! Actions a side can take, and why one can be refused.

use crate::data::geom::Pos;
use crate::data::id::Id;
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
    /// An XXL model's Interact action: destroy a wall of a building it stands against
    /// (docs/RULES.md §5.4); `unit` names the unit or the model.
    DestroyWall {
        unit: Id,
    },
    /// End the current activation; with none under way, end the side's phase.
    End,
    /// Deploy the mission's units by the rules (docs/RULES.md §7.2): the first action of a
    /// mission with `deployment = "rules"`, and the only one legal until it is taken. Each
    /// side chooses its squares as decisions (kind `deploy`).
    Deploy,
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
            | Action::DestroyWall { unit }
            | Action::Flip { unit } => Some(unit),
            Action::End
            | Action::Deploy
            | Action::Perform { .. }
            | Action::Spawn { .. }
            | Action::Play { .. }
            | Action::Discard { .. }
            | Action::Interrupt { .. } => None,
        }
    }
}

fn one() -> u32 {
    1
}

/// Which rule refused an action: hosts match on it (the CLI asks before ending an activation
/// only for [`RefusalKind::EndActivationFirst`]) instead of validating by trial.
#[non_exhaustive]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalKind {
    /// The game is over.
    GameOver,
    /// The action names no unit, model, Blip, target or card in play.
    Unknown,
    /// What it names is the other side's, or the other side's to do.
    NotYours,
    /// The unit has no model left or has left the map.
    Gone,
    /// The unit or Blip has already activated this round.
    AlreadyActivated,
    /// The activation has no action left.
    NoActionLeft,
    /// The activation has taken an action of this kind already: its actions must differ.
    SameAction,
    /// Another Hero's activation is under way and must end first (the Overmind may interrupt
    /// between Hero activations).
    EndActivationFirst,
    /// The interruption rules: answer the offer first, or act with the interrupting unit.
    Interruption,
    /// A status forbids it (Knocked Down, Stunned, Shaken).
    Status,
    /// The move's squares: off the map, no path, too far, already there, too many waypoints.
    Path,
    /// The attack's target cannot be attacked by it now (side, sight, range, adjacency).
    Target,
    /// The actor cannot take this kind of action at all (a Blip that shoots, Overwatch
    /// without a gun, Interact with nothing there).
    Unable,
    /// The card rules: not in hand, wrong phase, wrong target.
    Card,
    /// An author tool used outside `play --dev`, or on the wrong thing.
    AuthorTool,
    /// The units are still to be deployed (`deploy` first), or there is nothing to deploy.
    Deployment,
}

impl RefusalKind {
    /// Its name in the JSON protocol.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            RefusalKind::GameOver => "game_over",
            RefusalKind::Unknown => "unknown",
            RefusalKind::NotYours => "not_yours",
            RefusalKind::Gone => "gone",
            RefusalKind::AlreadyActivated => "already_activated",
            RefusalKind::NoActionLeft => "no_action_left",
            RefusalKind::SameAction => "same_action",
            RefusalKind::EndActivationFirst => "end_activation_first",
            RefusalKind::Interruption => "interruption",
            RefusalKind::Status => "status",
            RefusalKind::Path => "path",
            RefusalKind::Target => "target",
            RefusalKind::Unable => "unable",
            RefusalKind::Card => "card",
            RefusalKind::AuthorTool => "author_tool",
            RefusalKind::Deployment => "deployment",
        }
    }
}

/// Why an action was refused: the rule ([`RefusalKind`]) and a message naming the reason that
/// applies. The state is unchanged. Messages never describe a face-down Blip's contents.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
#[error("{message}")]
pub struct Refusal {
    pub kind: RefusalKind,
    pub message: String,
}

impl Refusal {
    pub fn new(kind: RefusalKind, message: impl Into<String>) -> Self {
        Refusal {
            kind,
            message: message.into(),
        }
    }
}

pub(crate) fn refuse<T>(kind: RefusalKind, message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal::new(kind, message))
}

//! Events: everything that happens, as data, in order, with what each side may see of it.

use crate::dice::Face;
use crate::geom::Pos;
use crate::state::{ActionKind, Overwatch, Side};
use serde::{Deserialize, Serialize};

/// Why a Blip was revealed (docs/RULES.md §7.3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevealCause {
    /// It entered a Hero's Line of Sight during a Hero Player's action.
    Hero,
    /// It entered a Hero's Line of Sight by the Overmind's doing, or the Overmind flipped it.
    Overmind,
    /// Something was about to damage it.
    Damage,
    /// Something needed one of its stats other than Movement.
    Stat,
}

/// One thing that happened. Serialised with an `"event"` field naming the kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    GameStarted {
        mission: String,
        seed: u64,
    },
    RoundStarted {
        round: u32,
    },
    PhaseStarted {
        side: Side,
    },
    ActivationStarted {
        unit: String,
    },
    ActionTaken {
        unit: String,
        action: ActionKind,
    },
    ActivationEnded {
        unit: String,
    },
    /// A model or Blip moved along `path` (its start first).
    Moved {
        unit: String,
        path: Vec<Pos>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        forced: bool,
    },
    MoveStopped {
        unit: String,
        at: Pos,
        reason: String,
    },
    BlipRevealed {
        blip: String,
        at: Pos,
        cause: RevealCause,
        /// Which side's doing it was.
        by: Side,
        triggers_behaviour: bool,
        /// Why it does or does not trigger a behaviour.
        why: String,
        /// Alien Type id; absent for a Decoy and in streams that may not know it.
        #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
        type_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        decoy: Option<bool>,
    },
    DecoyRemoved {
        blip: String,
        at: Pos,
    },
    ModelsPlaced {
        unit: String,
        #[serde(rename = "type")]
        type_id: String,
        models: Vec<PlacedModel>,
    },
    ModelLost {
        unit: String,
        reason: String,
    },
    BehaviourChosen {
        unit: String,
        behaviour: String,
        options: Vec<String>,
    },
    BehaviourPerformed {
        unit: String,
        behaviour: String,
    },
    BehaviourSkipped {
        unit: String,
        reason: String,
    },
    BehaviourFailed {
        unit: String,
        behaviour: String,
        reason: String,
    },
    Attack {
        attacker: String,
        target: String,
        kind: AttackKind,
        /// Combat Value before the cap.
        cv: u32,
        dice: u32,
        penalty: u32,
        faces: Vec<Face>,
        upgraded: u32,
        defence_dice: u32,
        defence_faces: Vec<Face>,
        hits: u32,
        crits: u32,
        shields: u32,
        damage: u32,
    },
    Damage {
        model: String,
        amount: u32,
        health: u32,
    },
    ModelKilled {
        model: String,
        unit: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
    },
    Status {
        model: String,
        status: StatusChange,
    },
    OverwatchSet {
        unit: String,
        mode: Overwatch,
    },
    OverwatchDiscarded {
        unit: String,
    },
    Extracted {
        unit: String,
        at: Pos,
    },
    ObjectiveActivated {
        unit: String,
        at: Pos,
    },
    /// A message a behaviour wrote with `log`.
    Log {
        unit: String,
        message: String,
    },
    /// A behaviour call wrote as much log as one call may; its later lines are dropped.
    LogTruncated {
        unit: String,
        behaviour: String,
        limit: String,
    },
    GameOver {
        winner: Side,
        reason: String,
    },
}

/// What kind of attack.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    Melee,
    Shoot,
    Overwatch,
    FreeAttack,
    Fear,
}

/// A model put on the map when a Blip was flipped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedModel {
    pub id: String,
    pub at: Pos,
    #[serde(rename = "type")]
    pub type_id: String,
}

/// A model gaining or losing a status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StatusChange {
    KnockedDown,
    StoodUp,
    Stunned,
    Recovered,
    Shaken { by: String },
    PushedBack { to: Pos },
}

//! Events: everything that happens, as data, in order, with what each side may see of it.

use crate::data::dice::Face;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::state::{ActionKind, Overwatch, Side};
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
        unit: Id,
    },
    ActionTaken {
        unit: Id,
        action: ActionKind,
    },
    ActivationEnded {
        unit: Id,
    },
    /// A model or Blip moved along `path` (its start first).
    Moved {
        unit: Id,
        path: Vec<Pos>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        forced: bool,
    },
    MoveStopped {
        unit: Id,
        at: Pos,
        reason: String,
    },
    BlipRevealed {
        blip: Id,
        at: Pos,
        cause: RevealCause,
        /// Which side's doing it was.
        by: Side,
        triggers_behaviour: bool,
        /// Why it does or does not trigger a behaviour.
        why: String,
        /// Alien Type id; absent for a Decoy and in streams that may not know it.
        #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
        type_id: Option<Id>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        decoy: Option<bool>,
    },
    DecoyRemoved {
        blip: Id,
        at: Pos,
    },
    /// A Hero or a Blip deployed by the rules (docs/RULES.md §7.2), on its square.
    Deployed {
        unit: Id,
        side: Side,
        at: Pos,
    },
    /// An XXL model destroyed a wall (docs/RULES.md §5.4): each of `edges` (the two squares
    /// on either side of it) is now a Ruined Wall, and `building` (its index) a Ruin.
    WallDestroyed {
        unit: Id,
        model: Id,
        building: u16,
        edges: Vec<[Pos; 2]>,
    },
    ModelsPlaced {
        unit: Id,
        #[serde(rename = "type")]
        type_id: Id,
        models: Vec<PlacedModel>,
    },
    ModelLost {
        unit: Id,
        reason: String,
    },
    /// A unit put on the map by something other than a reveal; `source` names it (`dev` for
    /// the author tool `spawn`).
    UnitSpawned {
        unit: Id,
        #[serde(rename = "type")]
        type_id: Id,
        models: Vec<PlacedModel>,
        source: String,
    },
    BehaviourChosen {
        unit: Id,
        behaviour: Id,
        options: Vec<Id>,
    },
    BehaviourPerformed {
        unit: Id,
        behaviour: Id,
    },
    /// An author asked for this behaviour (`perform`, `play --dev`): no card was drawn.
    BehaviourOnDemand {
        unit: Id,
        behaviour: Id,
    },
    BehaviourSkipped {
        unit: Id,
        reason: String,
    },
    BehaviourFailed {
        unit: Id,
        behaviour: Id,
        reason: String,
    },
    Attack {
        attacker: Id,
        target: Id,
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
        /// Each attacking model's part of `cv` (and, shooting, its range band).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        from: Vec<Contribution>,
        /// Everything that changed the dice or the Defence, with its cause.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        modifiers: Vec<Modifier>,
    },
    Damage {
        model: Id,
        amount: u32,
        health: u32,
    },
    ModelKilled {
        model: Id,
        unit: Id,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<Id>,
    },
    Status {
        model: Id,
        status: StatusChange,
    },
    OverwatchSet {
        unit: Id,
        mode: Overwatch,
    },
    OverwatchDiscarded {
        unit: Id,
    },
    Extracted {
        unit: Id,
        at: Pos,
    },
    ObjectiveActivated {
        unit: Id,
        at: Pos,
    },
    /// A message a behaviour wrote with `log`.
    Log {
        unit: Id,
        message: String,
    },
    /// A behaviour call wrote as much log as one call may; its later lines are dropped.
    LogTruncated {
        unit: Id,
        behaviour: Id,
        limit: String,
    },
    GameOver {
        winner: Side,
        reason: String,
    },
    /// The action was not carried out: round 1's start triggers, which run with the first
    /// action, left it illegal (why).
    ActionVoided {
        reason: String,
    },
    /// A trigger runs (docs/RULES.md §14): `source` is the script, `hook` the moment.
    Triggered {
        source: Id,
        hook: crate::data::hook::Hook,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unit: Option<Id>,
    },
    /// A trigger raised an error: it ended there, and what it did before stands.
    TriggerFailed {
        source: Id,
        hook: crate::data::hook::Hook,
        reason: String,
    },
    /// `cards` cards were drawn into `side`'s hand, now `hand` cards. Never which: the
    /// Overmind reads its hand from its view (docs/RULES.md §15.5).
    CardDrawn {
        side: Side,
        deck: crate::data::card::Deck,
        cards: u32,
        hand: u32,
    },
    /// A card was drawn face up from an event deck (hazard, item, exploration; docs/RULES.md
    /// §15.8), because of `unit` (when a unit drew it) at `at`: its effect applies now.
    CardTurned {
        deck: crate::data::card::Deck,
        card: Id,
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unit: Option<Id>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Pos>,
        /// Cards left in its draw pile.
        left: u32,
    },
    /// A Melee or Shoot attack on a Hazard token (docs/RULES.md §14.1): no defence; two or
    /// more damage, or one critical hit, destroys it.
    HazardAttack {
        attacker: Id,
        token: Id,
        kind: AttackKind,
        at: Pos,
        cv: u32,
        dice: u32,
        faces: Vec<Face>,
        upgraded: u32,
        hits: u32,
        crits: u32,
        damage: u32,
        destroyed: bool,
        from: Vec<Contribution>,
    },
    /// A deck's discard pile became its draw pile, shuffled.
    DeckShuffled {
        deck: crate::data::card::Deck,
        cards: u32,
    },
    /// A card was played from the hand: public from now on.
    CardPlayed {
        card: Id,
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Id>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Pos>,
        hand: u32,
    },
    /// A card's `play` raised an error: it ended there, and what it did before stands.
    CardFailed {
        card: Id,
        reason: String,
    },
    /// `side` discarded `cards` cards face down, leaving `hand`.
    CardDiscarded {
        side: Side,
        cards: u32,
        hand: u32,
    },
    /// A played card's round ended: it left play.
    CardLeftPlay {
        card: Id,
    },
    /// A face-down card (a Hidden Agenda) was turned up: it acted, or it won.
    CardRevealed {
        card: Id,
        name: String,
    },
    /// The Overmind discarded `discarded` cards to interrupt the Hero phase (docs/RULES.md
    /// §15.4).
    Interrupted {
        discarded: u32,
        hand: u32,
    },
    /// The interruption is over: the Heroes go on.
    InterruptEnded,
    /// A script changed the game outside the rules' own steps (docs/RULES.md §14); the usual
    /// events (damage, death, a placed model) follow.
    Effect {
        source: Id,
        #[serde(flatten)]
        change: Change,
    },
}

/// What an effect changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum Change {
    /// Health taken from a model (then `damage`, and `model_killed` at 0).
    Damage { model: Id, amount: u32 },
    /// Health given back, never above the model's starting Health.
    Heal { model: Id, amount: u32, health: u32 },
    /// A status set or cleared.
    Status {
        model: Id,
        status: crate::data::state::StatusName,
        on: bool,
    },
    /// A stat modifier, until the end of the activation or round.
    Modifier {
        model: Id,
        stat: crate::data::state::Stat,
        change: i32,
        until: crate::data::state::Until,
    },
    /// A modifier ran out.
    ModifierEnded {
        model: Id,
        stat: crate::data::state::Stat,
        change: i32,
    },
    /// A new face-down Blip (what it holds is not in this event).
    SpawnBlip { blip: Id, at: Pos },
    /// A token put on a square.
    PlaceToken { token: Id, kind: Id, at: Pos },
    /// A token taken off the map.
    RemoveToken { token: Id, at: Pos },
    /// A model picked a token up (it travels with it).
    TakeToken { token: Id, model: Id },
    /// A carried token put down.
    DropToken { token: Id, at: Pos },
    /// A unit's actions this activation changed: positive gives actions back, negative takes.
    Actions { unit: Id, change: i32 },
    /// A trigger declared the game won.
    Win { winner: Side, reason: String },
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
    /// An ability's attack that needs no Line of Sight, against which the target rolls no
    /// Defence (docs/RULES.md §6.8).
    Psychic,
}

/// One attacking model's part of an attack's Combat Value (docs/RULES.md §6.1–§6.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contribution {
    pub model: Id,
    pub cv: u32,
    /// Shooting: the band its distance falls in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band: Option<RangeBand>,
    /// Shooting: squares to the target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<u32>,
}

/// Short or long range (docs/RULES.md §6.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RangeBand {
    Short,
    Long,
}

/// Which roll a modifier changes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Roll {
    /// The attack dice (a penalty: dice fewer).
    Attack,
    /// The target's Defence.
    Defence,
}

/// Why an attack's dice or its target's Defence changed (docs/RULES.md §6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// An attack made as part of an Alien Behaviour (`behaviour_penalty`, or the script's own).
    Behaviour,
    /// Weak Overwatch (`weak_overwatch_penalty`).
    WeakOverwatch,
    /// Shooting into a building from outside it (`building_penalty`).
    Building,
    /// The target stands on a red square (`red_defence`).
    RedSquare,
    /// Every attacker is beyond a green side of the target's square (`green_defence`).
    GreenSide,
    /// Defence at least 1 once it had any.
    Floor,
    /// A Stunned target has no Defence against Melee.
    Stunned,
    /// A `before_attack` trigger (its script is the `source`).
    Trigger,
    /// The target of a Psychic attack rolls no Defence (docs/RULES.md §6.8).
    Psychic,
}

/// One change to an attack, with its cause.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    pub on: Roll,
    pub cause: Cause,
    /// The change: −1 is one die fewer (or one Defence less), +1 one more.
    pub change: i32,
    /// The behaviour whose attack it was, for [`Cause::Behaviour`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Id>,
}

impl Modifier {
    /// A penalty of `dice` fewer attack dice.
    #[must_use]
    pub fn fewer(cause: Cause, dice: u32, source: Option<Id>) -> Modifier {
        Modifier {
            on: Roll::Attack,
            cause,
            change: -(dice.min(i32::MAX as u32) as i32),
            source,
        }
    }
}

/// A model put on the map when a Blip was flipped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedModel {
    pub id: Id,
    /// Its square; an XXL model's top-left square.
    pub at: Pos,
    #[serde(rename = "type")]
    pub type_id: Id,
    /// An XXL model: its base fills the 2×2 squares from `at` (docs/RULES.md §4.4).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub xxl: bool,
}

/// A model gaining or losing a status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StatusChange {
    KnockedDown,
    StoodUp,
    Stunned,
    Recovered,
    Shaken { by: Id },
    PushedBack { to: Pos },
}

//! The game as plain data: units, Blips, round and phase, the RNG (RULES.md §1, §5).

use crate::geom::Pos;
use crate::los::LineOfSight;
use crate::map::{Map, Obstacles};
use crate::rules::Rules;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The two sides of the table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Heroes,
    Overmind,
}

impl Side {
    #[must_use]
    pub fn other(self) -> Side {
        match self {
            Side::Heroes => Side::Overmind,
            Side::Overmind => Side::Heroes,
        }
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Side::Heroes => "heroes",
            Side::Overmind => "overmind",
        }
    }
}

/// The kinds of action a unit can take in its activation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    Move,
    Sprint,
    Melee,
    Shoot,
    Interact,
    Overwatch,
    Flip,
}

impl ActionKind {
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ActionKind::Move => "move",
            ActionKind::Sprint => "sprint",
            ActionKind::Melee => "melee",
            ActionKind::Shoot => "shoot",
            ActionKind::Interact => "interact",
            ActionKind::Overwatch => "overwatch",
            ActionKind::Flip => "flip",
        }
    }
}

/// Conditions a model can be under (RULES.md §6).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// Next Move action is spent standing up; no attack before.
    #[serde(default, skip_serializing_if = "is_false")]
    pub knocked_down: bool,
    /// Like knocked down, but recovery is an Interact action; cannot defend against melee.
    #[serde(default, skip_serializing_if = "is_false")]
    pub stunned: bool,
    /// Shaken by this unit: may not attack it this round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shaken_by: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Status {
    #[must_use]
    pub fn is_clear(&self) -> bool {
        *self == Status::default()
    }
}

/// One figure on the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Model {
    pub id: String,
    /// Hero profile id or Alien Type id.
    pub kind: String,
    pub pos: Pos,
    pub health: u32,
    pub max_health: u32,
    #[serde(default, skip_serializing_if = "Status::is_clear")]
    pub status: Status,
}

/// Overwatch token: full (both actions) or weak (second action, one die fewer).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Overwatch {
    Full,
    Weak,
}

/// A Hero (one model) or an Alien Unit (one or more models).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: String,
    pub side: Side,
    pub models: Vec<Model>,
    pub activated: bool,
    /// Actions taken in the current activation.
    #[serde(default)]
    pub used: Vec<ActionKind>,
    #[serde(default)]
    pub overwatch: Option<Overwatch>,
    /// Experience: one per kill (Heroes).
    #[serde(default)]
    pub xp: u32,
    /// The Blip this unit came from (Alien Units).
    #[serde(default)]
    pub from_blip: Option<String>,
    /// Left the map by an extraction point.
    #[serde(default)]
    pub extracted: bool,
}

impl Unit {
    #[must_use]
    pub fn alive(&self) -> bool {
        !self.models.is_empty()
    }

    #[must_use]
    pub fn model(&self, id: &str) -> Option<&Model> {
        self.models.iter().find(|m| m.id == id)
    }

    /// The type or profile of the unit (its first model's, or the leader's followers').
    #[must_use]
    pub fn kind(&self) -> Option<&str> {
        self.models.last().map(|m| m.kind.as_str())
    }
}

/// What a Blip Token holds, hidden from the Heroes until it is flipped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "holds")]
pub enum Contents {
    Decoy,
    Unit {
        #[serde(rename = "type")]
        type_id: String,
        size: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        leader: Option<String>,
    },
}

/// A face-down Blip Token on the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blip {
    pub id: String,
    pub pos: Pos,
    /// `None` only in the Heroes' view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contents: Option<Contents>,
    pub activated: bool,
    #[serde(default)]
    pub used: Vec<ActionKind>,
}

/// Whose turn it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Heroes,
    Overmind,
    Over,
}

/// The Heroes' objective (RULES.md §11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum Objective {
    /// No Blips or Alien Units left.
    Eliminate,
    /// `count` Heroes leave by extraction points (Interact on one).
    Extract {
        count: u32,
        /// Extraction squares; empty means every yellow square.
        #[serde(default)]
        squares: Vec<Pos>,
    },
    /// At least one Hero alive when `max_rounds` ends.
    Survive,
    /// Every objective square activated (Interact while standing on it).
    Interact { squares: Vec<Pos> },
}

/// Who won and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Side,
    pub reason: String,
}

/// The whole game state. Change it only through [`crate::Game::apply`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameState {
    pub map: Arc<Map>,
    pub rules: Arc<Rules>,
    pub units: Vec<Unit>,
    pub blips: Vec<Blip>,
    pub round: u32,
    pub max_rounds: u32,
    pub phase: Phase,
    /// The unit or Blip now activating, if any.
    pub active: Option<String>,
    pub objective: Objective,
    /// Objective squares activated so far (for `interact`).
    #[serde(default)]
    pub activated_objectives: Vec<Pos>,
    pub outcome: Option<Outcome>,
    pub rng: ChaCha8Rng,
    /// Models that have moved in the current Move or Sprint action of the active unit.
    #[serde(default)]
    pub moved_this_action: Vec<String>,
    /// Counter for fresh model ids.
    #[serde(default)]
    pub next_id: u32,
    #[serde(skip)]
    obstacles: Option<Obstacles>,
}

impl PartialEq for GameState {
    fn eq(&self, other: &Self) -> bool {
        // The obstacle cache is derived; compare everything else.
        self.map == other.map
            && self.rules == other.rules
            && self.units == other.units
            && self.blips == other.blips
            && self.round == other.round
            && self.max_rounds == other.max_rounds
            && self.phase == other.phase
            && self.active == other.active
            && self.objective == other.objective
            && self.activated_objectives == other.activated_objectives
            && self.outcome == other.outcome
            && self.rng == other.rng
            && self.next_id == other.next_id
            && self.moved_this_action == other.moved_this_action
    }
}

impl GameState {
    /// A state with no units, at round 1, Heroes to play.
    #[must_use]
    pub fn new(
        map: Map,
        rules: Rules,
        objective: Objective,
        max_rounds: u32,
        rng: ChaCha8Rng,
    ) -> Self {
        GameState {
            map: Arc::new(map),
            rules: Arc::new(rules),
            units: Vec::new(),
            blips: Vec::new(),
            round: 1,
            max_rounds,
            phase: Phase::Heroes,
            active: None,
            objective,
            activated_objectives: Vec::new(),
            outcome: None,
            rng,
            moved_this_action: Vec::new(),
            next_id: 0,
            obstacles: None,
        }
    }

    /// Squares holding a model or a Blip.
    pub fn obstacles(&mut self) -> &Obstacles {
        if self.obstacles.is_none() {
            self.obstacles = Some(self.compute_obstacles());
        }
        self.obstacles.get_or_insert_with(Obstacles::default)
    }

    /// Obstacles without caching (for `&self` callers).
    #[must_use]
    pub fn compute_obstacles(&self) -> Obstacles {
        let mut o = Obstacles::new(&self.map);
        for m in self.models() {
            o.insert(m.pos);
        }
        for b in &self.blips {
            o.insert(b.pos);
        }
        o
    }

    /// Forget the obstacle cache after positions changed.
    pub fn moved(&mut self) {
        self.obstacles = None;
    }

    /// Every model on the map.
    pub fn models(&self) -> impl Iterator<Item = &Model> {
        self.units.iter().flat_map(|u| u.models.iter())
    }

    pub fn hero_models(&self) -> impl Iterator<Item = &Model> {
        self.units
            .iter()
            .filter(|u| u.side == Side::Heroes)
            .flat_map(|u| u.models.iter())
    }

    #[must_use]
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }

    pub fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.units.iter_mut().find(|u| u.id == id)
    }

    #[must_use]
    pub fn blip(&self, id: &str) -> Option<&Blip> {
        self.blips.iter().find(|b| b.id == id)
    }

    /// The unit owning model `model_id`, and the model.
    #[must_use]
    pub fn find_model(&self, model_id: &str) -> Option<(&Unit, &Model)> {
        self.units
            .iter()
            .find_map(|u| u.model(model_id).map(|m| (u, m)))
    }

    pub fn model_mut(&mut self, model_id: &str) -> Option<&mut Model> {
        self.units
            .iter_mut()
            .flat_map(|u| u.models.iter_mut())
            .find(|m| m.id == model_id)
    }

    /// Who or what stands on `p`.
    #[must_use]
    pub fn occupant(&self, p: Pos) -> Option<Occupant<'_>> {
        if let Some(b) = self.blips.iter().find(|b| b.pos == p) {
            return Some(Occupant::Blip(b));
        }
        self.units.iter().find_map(|u| {
            u.models
                .iter()
                .find(|m| m.pos == p)
                .map(|m| Occupant::Model(u, m))
        })
    }

    /// Line of Sight between two squares with the current obstacles.
    pub fn los(&mut self, a: Pos, b: Pos) -> bool {
        let rule = self.rules.los;
        let map = Arc::clone(&self.map);
        let obstacles = self.obstacles();
        rule.visible(&map, obstacles, a, b)
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// A fresh id with a prefix, deterministic.
    pub fn fresh_id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}{}", self.next_id)
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug)]
pub enum Occupant<'a> {
    Blip(&'a Blip),
    Model(&'a Unit, &'a Model),
}

//! The game as plain data: units, Blips, round and phase, the RNG (docs/RULES.md §1, §5).

use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::map::{Map, Obstacles};
use crate::data::settings::Rules;
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

/// Conditions a model can be under (docs/RULES.md §6.6).
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// Next Move action is spent standing up; no attack before.
    #[serde(default, skip_serializing_if = "is_false")]
    pub knocked_down: bool,
    /// Like knocked down, but recovery is an Interact action; cannot defend against melee.
    #[serde(default, skip_serializing_if = "is_false")]
    pub stunned: bool,
    /// Shaken by this unit: may not attack it this round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shaken_by: Option<Id>,
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
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Model {
    pub id: Id,
    /// Hero profile id or Alien Type id.
    pub kind: Id,
    pub pos: Pos,
    pub health: u32,
    pub max_health: u32,
    #[serde(default, skip_serializing_if = "Status::is_clear")]
    pub status: Status,
    /// An XXL model: its base fills the 2×2 squares whose top-left square is `pos`
    /// (docs/RULES.md §4.4).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub xxl: bool,
}

impl Model {
    /// The squares its base fills (`pos` first).
    pub fn squares(&self) -> impl Iterator<Item = Pos> + Clone {
        crate::data::geom::footprint(self.pos, self.xxl)
    }

    /// Does its base fill `p`?
    #[must_use]
    pub fn covers(&self, p: Pos) -> bool {
        self.pos == p || (self.xxl && self.squares().any(|q| q == p))
    }
}

/// Overwatch token: full (both actions) or weak (second action, one die fewer).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Overwatch {
    Full,
    Weak,
}

/// A Hero (one model) or an Alien Unit (one or more models).
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: Id,
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
    pub from_blip: Option<Id>,
    /// Left the map by an extraction point.
    #[serde(default)]
    pub extracted: bool,
}

impl Unit {
    /// A unit of `side` made of `models`, new to the map: not activated, no action used, no
    /// Overwatch, no experience.
    #[must_use]
    pub fn new(id: Id, side: Side, models: Vec<Model>) -> Unit {
        Unit {
            id,
            side,
            models,
            activated: false,
            used: Vec::new(),
            overwatch: None,
            xp: 0,
            from_blip: None,
            extracted: false,
        }
    }

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
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "holds")]
pub enum Contents {
    Decoy,
    Unit {
        #[serde(rename = "type")]
        type_id: Id,
        size: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        leader: Option<Id>,
    },
}

/// A face-down Blip Token on the map.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blip {
    pub id: Id,
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

/// The Heroes' objective (docs/RULES.md §11).
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

/// A stat a modifier changes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stat {
    Movement,
    Melee,
    Defence,
    /// The Shoot CV of every band.
    Shoot,
}

impl Stat {
    /// The name scripts use.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Stat::Movement => "movement",
            Stat::Melee => "melee",
            Stat::Defence => "defence",
            Stat::Shoot => "shoot",
        }
    }

    /// The stat a name means.
    #[must_use]
    pub fn named(name: &str) -> Option<Stat> {
        [Stat::Movement, Stat::Melee, Stat::Defence, Stat::Shoot]
            .into_iter()
            .find(|s| s.name() == name)
    }
}

/// A status effects can set and clear.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StatusName {
    KnockedDown,
    Stunned,
}

impl StatusName {
    /// The name scripts use.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            StatusName::KnockedDown => "knocked_down",
            StatusName::Stunned => "stunned",
        }
    }

    /// The status a name means.
    #[must_use]
    pub fn named(name: &str) -> Option<StatusName> {
        [StatusName::KnockedDown, StatusName::Stunned]
            .into_iter()
            .find(|s| s.name() == name)
    }
}

/// How long a stat modifier lasts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Until {
    /// The end of the current (or next) activation of the model's unit.
    ActivationEnd,
    /// The end of the round.
    RoundEnd,
}

/// A stat modifier in force (docs/RULES.md §14).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatMod {
    pub model: Id,
    pub stat: Stat,
    pub change: i32,
    pub until: Until,
    /// The script that made it.
    pub source: Id,
}

/// The whole game state. Change it only through [`crate::Game::apply`].
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    pub map: Arc<Map>,
    pub rules: Arc<Rules>,
    pub units: Vec<Unit>,
    pub blips: Vec<Blip>,
    pub round: u32,
    pub max_rounds: u32,
    pub phase: Phase,
    /// The unit or Blip now activating, if any.
    pub active: Option<Id>,
    pub objective: Objective,
    /// Objective squares activated so far (for `interact`).
    #[serde(default)]
    pub activated_objectives: Vec<Pos>,
    pub outcome: Option<Outcome>,
    pub rng: ChaCha8Rng,
    /// Models that have moved in the current Move or Sprint action of the active unit.
    #[serde(default)]
    pub moved_this_action: Vec<Id>,
    /// Counter for fresh model ids.
    #[serde(default)]
    pub next_id: u32,
    /// What scripts keep between calls (`game.storage`), by script id.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    storage: crate::data::storage::Storage,
    /// Author tools are on (`play --dev`): `perform` and `spawn` are legal (docs/RULES.md §13).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    dev: bool,
    /// Tokens on the map and carried (docs/RULES.md §14).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens: Vec<crate::data::token::Token>,
    /// Stat modifiers in force, each until the end of an activation or a round.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stat_mods: Vec<StatMod>,
    /// The Overmind's cards (docs/RULES.md §15).
    #[serde(default, skip_serializing_if = "crate::data::cards::Cards::is_empty")]
    pub cards: crate::data::cards::Cards,
    /// An interruption of the Hero phase offered or under way (docs/RULES.md §15.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupt: Option<crate::data::interrupt::Interrupt>,
    /// Heroes and Blips still to be deployed by the rules (docs/RULES.md §7.2): until the
    /// `deploy` action, nothing else is legal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploying: Option<crate::data::deploying::Deploying>,
    /// Whether round 1's `round_start` triggers have run (they run with the first action).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub started: bool,
    #[serde(skip)]
    obstacles: Derived<Obstacles>,
    /// A configuration known to have no face-down Blip in a Hero's sight (derived; see
    /// [`GameState::blips_in_sight`]).
    #[serde(skip)]
    sight_memo: Derived<Arc<SightMemo>>,
}

/// A value derived from the rest of the state and kept to save work: never serialised, never
/// part of equality (two states that differ only in what they have worked out are equal).
#[derive(Clone, Debug)]
struct Derived<T>(Option<T>);

impl<T> Default for Derived<T> {
    fn default() -> Self {
        Derived(None)
    }
}

impl<T> PartialEq for Derived<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Hero squares, Blip squares and obstacles for which every (Hero, Blip) pair was checked and
/// found out of sight. A pure fact about the map and those squares, so it stays true whatever
/// the state it is attached to (clones, rolled-back snapshots).
#[derive(Clone, Debug)]
pub(crate) struct SightMemo {
    map: Arc<Map>,
    rule: crate::data::settings::LosRule,
    heroes: Vec<Pos>,
    blips: Vec<Pos>,
    obstacles: Obstacles,
}

impl GameState {
    /// A state with no units, at round 1, Heroes to play: only [`crate::Setup::start`] makes
    /// one, from a setup it has checked (tests build theirs through a `Setup` too).
    #[must_use]
    pub(crate) fn new(
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
            storage: crate::data::storage::Storage::new(),
            dev: false,
            tokens: Vec::new(),
            stat_mods: Vec::new(),
            cards: crate::data::cards::Cards::default(),
            interrupt: None,
            deploying: None,
            started: false,
            obstacles: Derived::default(),
            sight_memo: Derived::default(),
        }
    }

    /// The token with id `id`.
    #[must_use]
    pub fn token(&self, id: &str) -> Option<&crate::data::token::Token> {
        self.tokens.iter().find(|t| t.id == id)
    }

    /// Tokens lying on `p` (not carried).
    pub fn tokens_at(&self, p: Pos) -> impl Iterator<Item = &crate::data::token::Token> {
        self.tokens
            .iter()
            .filter(move |t| t.pos == p && t.carried_by.is_none())
    }

    /// The total change `stat_mods` make to `model`'s `stat`.
    #[must_use]
    pub fn stat_change(&self, model: &str, stat: Stat) -> i32 {
        self.stat_mods
            .iter()
            .filter(|m| m.model == model && m.stat == stat)
            .map(|m| m.change)
            .sum()
    }

    /// Are the author tools on (`perform`, `spawn`)?
    #[must_use]
    pub fn dev(&self) -> bool {
        self.dev
    }

    /// Turn the author tools on or off. Set before the first action: a replay must start
    /// with the same setting.
    pub fn set_dev(&mut self, on: bool) {
        self.dev = on;
    }

    /// Squares holding a model or a Blip.
    pub fn obstacles(&mut self) -> &Obstacles {
        if self.obstacles.0.is_none() {
            self.obstacles.0 = Some(self.compute_obstacles());
        }
        self.obstacles.0.get_or_insert_with(Obstacles::default)
    }

    /// The obstacles, from the cache when it is filled, else computed (for `&self` callers).
    #[must_use]
    pub fn cached_obstacles(&self) -> std::borrow::Cow<'_, Obstacles> {
        match &self.obstacles.0 {
            Some(o) => std::borrow::Cow::Borrowed(o),
            None => std::borrow::Cow::Owned(self.compute_obstacles()),
        }
    }

    /// Obstacles without caching (for `&self` callers).
    #[must_use]
    pub fn compute_obstacles(&self) -> Obstacles {
        let mut o = Obstacles::new(&self.map);
        for m in self.models() {
            for p in m.squares() {
                o.insert(p);
            }
        }
        for b in &self.blips {
            o.insert(b.pos);
        }
        o
    }

    /// Forget the obstacle cache after positions changed.
    pub fn moved(&mut self) {
        self.obstacles.0 = None;
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
                .find(|m| m.covers(p))
                .map(|m| Occupant::Model(u, m))
        })
    }

    /// Ids of the face-down Blips in the Line of Sight of some Hero model, in Blip order.
    ///
    /// Exactly `los(hero, blip)` over all pairs, but pairs that the last all-clear check already
    /// covers are skipped: if the Hero's square and the Blip's square were both checked then,
    /// and no square inside their bounding box has stopped being an obstacle since, the pair
    /// still cannot see (every sight line stays inside the box, the two squares never block,
    /// and adding obstacles never creates sight).
    ///
    /// `visible` is the Line of Sight rule of `rules.los` (the board layer's geometry).
    pub(crate) fn blips_in_sight(
        &mut self,
        visible: impl Fn(&Map, &Obstacles, Pos, Pos) -> bool,
    ) -> Vec<Id> {
        self.obstacles();
        let rule = self.rules.los;
        let Some(obstacles) = self.obstacles.0.as_ref() else {
            return Vec::new();
        };
        let map: &Map = &self.map;
        let heroes: Vec<Pos> = self
            .units
            .iter()
            .filter(|u| u.side == Side::Heroes)
            .flat_map(|u| u.models.iter())
            .map(|m| m.pos)
            .collect();
        let memo = self
            .sight_memo
            .0
            .as_ref()
            .filter(|m| Arc::ptr_eq(&m.map, &self.map) && m.rule == rule);
        // Squares that were obstacles at the memo and are not now.
        let mut vacated: Vec<Pos> = Vec::new();
        if let Some(m) = memo {
            let width = map.width().max(1);
            let old = m.obstacles.words();
            let new = obstacles.words();
            for (i, &w) in old.iter().enumerate() {
                let mut gone = w & !new.get(i).copied().unwrap_or(0);
                while gone != 0 {
                    let b = gone.trailing_zeros() as usize;
                    gone &= gone - 1;
                    let idx = (i * 64 + b) as i32;
                    vacated.push(Pos::new(idx % width, idx / width));
                }
            }
        }
        let mut out = Vec::new();
        for blip in &self.blips {
            let bp = blip.pos;
            let b_known = memo.is_some_and(|m| m.blips.contains(&bp));
            let seen = heroes.iter().any(|&h| {
                let covered = b_known
                    && memo.is_some_and(|m| m.heroes.contains(&h))
                    && !vacated.iter().any(|v| {
                        (h.x.min(bp.x)..=h.x.max(bp.x)).contains(&v.x)
                            && (h.y.min(bp.y)..=h.y.max(bp.y)).contains(&v.y)
                    });
                !covered && visible(map, obstacles, h, bp)
            });
            if seen {
                out.push(blip.id);
            }
        }
        if out.is_empty() {
            let blips: Vec<Pos> = self.blips.iter().map(|b| b.pos).collect();
            self.sight_memo.0 = Some(Arc::new(SightMemo {
                map: Arc::clone(&self.map),
                rule,
                heroes,
                blips,
                obstacles: obstacles.clone(),
            }));
        }
        out
    }

    /// What the script `id` keeps in `game.storage` (`None` before it first stores anything).
    #[must_use]
    pub fn storage(&self, id: &str) -> Option<&crate::data::storage::Value> {
        self.storage.get(id)
    }

    /// Every script's storage, by script id.
    #[must_use]
    pub fn all_storage(&self) -> &crate::data::storage::Storage {
        &self.storage
    }

    /// Forget every script's storage (for views that may not know it).
    pub(crate) fn clear_storage(&mut self) {
        self.storage.clear();
    }

    /// Replace what the script `id` keeps; an empty table forgets it.
    ///
    /// # Errors
    /// The value breaks the storage limits ([`crate::data::storage::Value::check`]).
    pub(crate) fn set_storage(
        &mut self,
        id: &str,
        value: crate::data::storage::Value,
    ) -> Result<(), String> {
        value.check()?;
        // All scripts together (docs/SANDBOX.md): the number of scripts is the packs', so
        // the per-script limits alone do not bound a game.
        let (values, bytes) = self
            .storage
            .iter()
            .filter(|(k, _)| k.as_str() != id)
            .map(|(_, v)| v.measure())
            .fold(value.measure(), |(n, b), (vn, vb)| (n + vn, b + vb));
        let (most_values, most_kib) = (self.rules.max_storage_values, self.rules.max_storage_kib);
        if values > most_values as usize {
            return Err(format!(
                "all scripts' storage together would hold {values} values; a game holds at most \
                 {most_values} (`max_storage_values` in rules.toml)"
            ));
        }
        if bytes > (most_kib as usize).saturating_mul(1024) {
            return Err(format!(
                "all scripts' storage together would hold {bytes} bytes of strings; a game holds \
                 at most {most_kib} KiB (`max_storage_kib` in rules.toml)"
            ));
        }
        if value == crate::data::storage::Value::table() {
            self.storage.remove(id);
        } else {
            self.storage.insert(id.to_string(), value);
        }
        Ok(())
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// A fresh id with a prefix, deterministic.
    pub fn fresh_id(&mut self, prefix: &str) -> Id {
        self.next_id += 1;
        Id::from(&format!("{prefix}{}", self.next_id))
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug)]
pub enum Occupant<'a> {
    Blip(&'a Blip),
    Model(&'a Unit, &'a Model),
}

// Hand-written `Clone`s whose `clone_from` reuses the target's buffers (strings, vectors), so
// a snapshot taken into a spare state allocates next to nothing. Each destructures every
// field, so a field added later cannot be forgotten.

impl Clone for Status {
    fn clone(&self) -> Self {
        let Status {
            knocked_down,
            stunned,
            shaken_by,
        } = self;
        Status {
            knocked_down: *knocked_down,
            stunned: *stunned,
            shaken_by: *shaken_by,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let Status {
            knocked_down,
            stunned,
            shaken_by,
        } = source;
        self.knocked_down = *knocked_down;
        self.stunned = *stunned;
        self.shaken_by.clone_from(shaken_by);
    }
}

impl Clone for Model {
    fn clone(&self) -> Self {
        let Model {
            id,
            kind,
            pos,
            health,
            max_health,
            status,
            xxl,
        } = self;
        Model {
            id: *id,
            kind: *kind,
            pos: *pos,
            health: *health,
            max_health: *max_health,
            status: status.clone(),
            xxl: *xxl,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let Model {
            id,
            kind,
            pos,
            health,
            max_health,
            status,
            xxl,
        } = source;
        self.xxl = *xxl;
        self.id.clone_from(id);
        self.kind.clone_from(kind);
        self.pos = *pos;
        self.health = *health;
        self.max_health = *max_health;
        self.status.clone_from(status);
    }
}

impl Clone for Unit {
    fn clone(&self) -> Self {
        let Unit {
            id,
            side,
            models,
            activated,
            used,
            overwatch,
            xp,
            from_blip,
            extracted,
        } = self;
        Unit {
            id: *id,
            side: *side,
            models: models.clone(),
            activated: *activated,
            used: used.clone(),
            overwatch: *overwatch,
            xp: *xp,
            from_blip: *from_blip,
            extracted: *extracted,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let Unit {
            id,
            side,
            models,
            activated,
            used,
            overwatch,
            xp,
            from_blip,
            extracted,
        } = source;
        self.id.clone_from(id);
        self.side = *side;
        self.models.clone_from(models);
        self.activated = *activated;
        self.used.clone_from(used);
        self.overwatch = *overwatch;
        self.xp = *xp;
        self.from_blip.clone_from(from_blip);
        self.extracted = *extracted;
    }
}

impl Clone for Contents {
    fn clone(&self) -> Self {
        match self {
            Contents::Decoy => Contents::Decoy,
            Contents::Unit {
                type_id,
                size,
                leader,
            } => Contents::Unit {
                type_id: *type_id,
                size: *size,
                leader: *leader,
            },
        }
    }

    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (
                Contents::Unit {
                    type_id,
                    size,
                    leader,
                },
                Contents::Unit {
                    type_id: t,
                    size: n,
                    leader: l,
                },
            ) => {
                type_id.clone_from(t);
                *size = *n;
                leader.clone_from(l);
            }
            (this, source) => *this = source.clone(),
        }
    }
}

impl Clone for Blip {
    fn clone(&self) -> Self {
        let Blip {
            id,
            pos,
            contents,
            activated,
            used,
        } = self;
        Blip {
            id: *id,
            pos: *pos,
            contents: contents.clone(),
            activated: *activated,
            used: used.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let Blip {
            id,
            pos,
            contents,
            activated,
            used,
        } = source;
        self.id.clone_from(id);
        self.pos = *pos;
        self.contents.clone_from(contents);
        self.activated = *activated;
        self.used.clone_from(used);
    }
}

impl Clone for GameState {
    fn clone(&self) -> Self {
        let GameState {
            map,
            rules,
            units,
            blips,
            round,
            max_rounds,
            phase,
            active,
            objective,
            activated_objectives,
            outcome,
            rng,
            moved_this_action,
            next_id,
            storage,
            dev,
            tokens,
            stat_mods,
            cards,
            interrupt,
            deploying,
            started,
            obstacles,
            sight_memo,
        } = self;
        GameState {
            map: Arc::clone(map),
            rules: Arc::clone(rules),
            units: units.clone(),
            blips: blips.clone(),
            round: *round,
            max_rounds: *max_rounds,
            phase: *phase,
            active: *active,
            objective: objective.clone(),
            activated_objectives: activated_objectives.clone(),
            outcome: outcome.clone(),
            rng: rng.clone(),
            moved_this_action: moved_this_action.clone(),
            next_id: *next_id,
            storage: storage.clone(),
            dev: *dev,
            tokens: tokens.clone(),
            stat_mods: stat_mods.clone(),
            cards: cards.clone(),
            interrupt: *interrupt,
            deploying: deploying.clone(),
            started: *started,
            obstacles: obstacles.clone(),
            sight_memo: sight_memo.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let GameState {
            map,
            rules,
            units,
            blips,
            round,
            max_rounds,
            phase,
            active,
            objective,
            activated_objectives,
            outcome,
            rng,
            moved_this_action,
            next_id,
            storage,
            dev,
            tokens,
            stat_mods,
            cards,
            interrupt,
            deploying,
            started,
            obstacles,
            sight_memo,
        } = source;
        self.map.clone_from(map);
        self.rules.clone_from(rules);
        self.units.clone_from(units);
        self.blips.clone_from(blips);
        self.round = *round;
        self.max_rounds = *max_rounds;
        self.phase = *phase;
        self.active.clone_from(active);
        self.objective.clone_from(objective);
        self.activated_objectives.clone_from(activated_objectives);
        self.outcome.clone_from(outcome);
        self.rng.clone_from(rng);
        self.moved_this_action.clone_from(moved_this_action);
        self.next_id = *next_id;
        self.storage.clone_from(storage);
        self.dev = *dev;
        self.tokens.clone_from(tokens);
        self.stat_mods.clone_from(stat_mods);
        self.deploying.clone_from(deploying);
        self.cards.clone_from(cards);
        self.interrupt = *interrupt;
        self.started = *started;
        self.obstacles.clone_from(obstacles);
        self.sight_memo.clone_from(sight_memo);
    }
}

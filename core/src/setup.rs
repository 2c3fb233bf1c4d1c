//! From a mission's setup to a legal starting state (docs/RULES.md §7.2), or clear errors.

use crate::content::Content;
use crate::geom::Pos;
use crate::id::Id;
use crate::los::LineOfSight;
use crate::map::{Map, Obstacles};
use crate::rules::Rules;
use crate::state::{Blip, Contents, GameState, Model, Objective, Side, Status, Unit};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A Hero to deploy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeroSetup {
    pub id: String,
    pub profile: String,
    pub at: Pos,
}

/// A Blip to deploy; `contents: None` draws from the pool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlipSetup {
    pub id: String,
    pub at: Pos,
    pub contents: Option<Contents>,
}

/// An entry of the Overmind's pool: `count` tokens each holding `size` models of a type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolEntry {
    #[serde(rename = "type")]
    pub type_id: String,
    #[serde(default = "one")]
    pub size: u32,
    #[serde(default = "one")]
    pub count: u32,
    #[serde(default)]
    pub leader: Option<String>,
}

fn one() -> u32 {
    1
}

/// Most tokens one pool entry may add (`count`).
pub const MAX_POOL_COUNT: u32 = 100;
/// Most models a pooled token may hold (`size`): no Alien Unit is larger.
pub const MAX_UNIT_SIZE: u32 = 12;
/// Most tokens a pool may hold, its entries' and the Decoys together.
pub const MAX_POOL_TOKENS: u64 = 1000;

impl PoolEntry {
    /// Problems with the numbers, each as `(field, message)`, the message naming the field.
    #[must_use]
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut p = Vec::new();
        if self.count > MAX_POOL_COUNT {
            p.push((
                "count",
                format!(
                    "count: expected 0 to {MAX_POOL_COUNT}, found {}",
                    self.count
                ),
            ));
        }
        if self.size == 0 || self.size > MAX_UNIT_SIZE {
            p.push((
                "size",
                format!("size: expected 1 to {MAX_UNIT_SIZE}, found {}", self.size),
            ));
        }
        p
    }
}

/// The problem with a number of Decoy Tokens, if any.
#[must_use]
pub fn decoys_problem(decoys: u32) -> Option<String> {
    (decoys > crate::rules::MAX_DECOYS).then(|| {
        format!(
            "decoys: expected 0 to {}, found {decoys}",
            crate::rules::MAX_DECOYS
        )
    })
}

/// An unchecked mission setup: what a mission file says, before the rules accept it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub name: String,
    pub map: Map,
    pub rules: Rules,
    pub heroes: Vec<HeroSetup>,
    pub blips: Vec<BlipSetup>,
    pub pool: Vec<PoolEntry>,
    /// Decoy Tokens mixed into the pool (`None` = the rules' default, 2).
    pub decoys: Option<u32>,
    pub objective: Objective,
    pub max_rounds: Option<u32>,
}

/// Why a setup is not a legal game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("{what} {id}: {message}")]
    Unit {
        what: &'static str,
        id: String,
        message: String,
    },
    #[error("{0}")]
    Other(String),
}

/// Longest id of a Hero or Blip: its models' ids add `.N` and must still fit an [`Id`].
pub const MAX_UNIT_ID: usize = Id::MAX_LEN - 4;

fn unit_err(what: &'static str, id: &str, message: impl Into<String>) -> SetupError {
    SetupError::Unit {
        what,
        id: id.to_string(),
        message: message.into(),
    }
}

impl Setup {
    /// Validate and build the starting state, drawing pooled Blip contents with `seed`.
    ///
    /// # Errors
    /// Every problem found, each naming the unit and what is wrong.
    pub fn start(&self, content: &Content, seed: u64) -> Result<GameState, Vec<SetupError>> {
        let mut errors = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let map = &self.map;
        let mut taken: Vec<(Pos, String)> = Vec::new();
        let mut ids: Vec<Id> = Vec::new();
        let mut place = |what: &'static str, id: &str, at: Pos, errors: &mut Vec<SetupError>| {
            if id.len() > MAX_UNIT_ID {
                errors.push(unit_err(
                    what,
                    id,
                    format!(
                        "this id is {} bytes long: expected at most {MAX_UNIT_ID} (its models' \
                         ids add `.N`)",
                        id.len()
                    ),
                ));
            }
            if ids.iter().any(|i| i == id) {
                errors.push(unit_err(what, id, "this id is used twice"));
            }
            ids.push(Id::from(id));
            if !map.in_bounds(at) {
                errors.push(unit_err(
                    what,
                    id,
                    format!("{at} is outside the {}x{} map", map.width(), map.height()),
                ));
            } else if map.is_solid(at) {
                errors.push(unit_err(what, id, format!("{at} is a solid square")));
            } else if let Some((_, other)) = taken.iter().find(|(p, _)| *p == at) {
                errors.push(unit_err(
                    what,
                    id,
                    format!("{at} is already taken by {other}"),
                ));
            }
            taken.push((at, id.to_string()));
        };
        for h in &self.heroes {
            place("hero", &h.id, h.at, &mut errors);
            if h.profile.len() > Id::MAX_LEN {
                errors.push(unit_err(
                    "hero",
                    &h.id,
                    format!(
                        "profile id {:?}: expected at most {} bytes",
                        h.profile,
                        Id::MAX_LEN
                    ),
                ));
            } else if !content.heroes.contains_key(&h.profile) {
                errors.push(unit_err(
                    "hero",
                    &h.id,
                    format!("no hero profile named {:?}", h.profile),
                ));
            }
        }
        for b in &self.blips {
            place("blip", &b.id, b.at, &mut errors);
        }
        // The numbers first, so that no count a file names is allocated before it is checked.
        let decoys = self.decoys.unwrap_or(self.rules.decoys);
        let mut sizes_ok = true;
        if let Some(m) = decoys_problem(decoys) {
            errors.push(SetupError::Other(m));
            sizes_ok = false;
        }
        for p in &self.pool {
            for (_, m) in p.problems() {
                errors.push(SetupError::Other(format!("pool: {}: {m}", p.type_id)));
                sizes_ok = false;
            }
        }
        let total = self.pool.iter().map(|p| u64::from(p.count)).sum::<u64>() + u64::from(decoys);
        if sizes_ok && total > MAX_POOL_TOKENS {
            errors.push(SetupError::Other(format!(
                "the pool holds {total} tokens (pool entries plus Decoys): expected at most \
                 {MAX_POOL_TOKENS}"
            )));
        }
        if !errors.is_empty() && (!sizes_ok || total > MAX_POOL_TOKENS) {
            return Err(errors);
        }
        // The pool: fixed tokens stay; the rest are drawn from pool entries plus Decoys.
        let mut tokens: Vec<Contents> = Vec::new();
        for p in &self.pool {
            for id in std::iter::once(&p.type_id).chain(&p.leader) {
                if id.len() > Id::MAX_LEN {
                    errors.push(SetupError::Other(format!(
                        "pool: Alien Type id {id:?}: expected at most {} bytes",
                        Id::MAX_LEN
                    )));
                }
            }
            if !content.aliens.contains_key(&p.type_id) {
                errors.push(SetupError::Other(format!(
                    "pool: no Alien Type named {:?}",
                    p.type_id
                )));
            }
            for _ in 0..p.count {
                tokens.push(Contents::Unit {
                    type_id: Id::from(&p.type_id),
                    size: p.size,
                    leader: p.leader.clone().map(Id::from),
                });
            }
        }
        // Decoys a mission fixes on the map are some of its Decoy Tokens, not extra ones.
        let decoys = decoys as usize;
        let fixed_decoys = self
            .blips
            .iter()
            .filter(|b| b.contents == Some(Contents::Decoy))
            .count();
        if fixed_decoys > decoys {
            errors.push(SetupError::Other(format!(
                "{fixed_decoys} Blips are fixed as Decoys but the mission has only {decoys} \
                 Decoy Tokens (set `decoys`)"
            )));
        }
        for _ in 0..decoys.saturating_sub(fixed_decoys) {
            tokens.push(Contents::Decoy);
        }
        tokens.shuffle(&mut rng);
        let needed = self.blips.iter().filter(|b| b.contents.is_none()).count();
        if tokens.len() < needed {
            errors.push(SetupError::Other(format!(
                "{needed} Blips draw from the pool but it holds only {} tokens (pool plus decoys)",
                tokens.len()
            )));
        }
        for b in &self.blips {
            if let Some(Contents::Unit {
                type_id,
                size,
                leader,
            }) = &b.contents
            {
                match content.aliens.get(type_id.as_str()) {
                    None => errors.push(unit_err(
                        "blip",
                        &b.id,
                        format!("no Alien Type named {type_id:?}"),
                    )),
                    Some(t) if *size == 0 || *size > t.unit.max => errors.push(unit_err(
                        "blip",
                        &b.id,
                        format!("size {size} is outside 1..={} for {type_id}", t.unit.max),
                    )),
                    _ => {}
                }
                if let Some(l) = leader {
                    if !content.aliens.contains_key(l.as_str()) {
                        errors.push(unit_err(
                            "blip",
                            &b.id,
                            format!("no Alien Type named {l:?} to lead"),
                        ));
                    }
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let rules = self.rules.clone();
        let mut st = GameState::new(
            self.map.clone(),
            rules.clone(),
            self.objective.clone(),
            self.max_rounds.unwrap_or(rules.max_rounds),
            rng,
        );
        let mut drawn = tokens.into_iter();
        for h in &self.heroes {
            let health = content
                .heroes
                .get(&h.profile)
                .map_or(1, |p| p.health.max(1));
            st.units.push(Unit {
                id: Id::from(&h.id),
                side: Side::Heroes,
                models: vec![Model {
                    id: Id::from(&h.id),
                    kind: Id::from(&h.profile),
                    pos: h.at,
                    health,
                    max_health: health,
                    status: Status::default(),
                }],
                activated: false,
                used: Vec::new(),
                overwatch: None,
                xp: 0,
                from_blip: None,
                extracted: false,
            });
        }
        for b in &self.blips {
            let contents = match &b.contents {
                Some(c) => c.clone(),
                None => drawn.next().unwrap_or(Contents::Decoy),
            };
            st.blips.push(Blip {
                id: Id::from(&b.id),
                pos: b.at,
                contents: Some(contents),
                activated: false,
                used: Vec::new(),
            });
        }
        // A Blip may not start in a Hero's Line of Sight.
        let obstacles: Obstacles = st.compute_obstacles();
        let mut seen = Vec::new();
        for b in &st.blips {
            for h in st.hero_models() {
                if st.rules.los.visible(&st.map, &obstacles, h.pos, b.pos) {
                    seen.push(unit_err(
                        "blip",
                        &b.id,
                        format!(
                            "starts at {} in the Line of Sight of hero {} at {}",
                            b.pos, h.id, h.pos
                        ),
                    ));
                    break;
                }
            }
        }
        if !seen.is_empty() {
            return Err(seen);
        }
        Ok(st)
    }
}

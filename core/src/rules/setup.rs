//! From a mission's setup to a legal starting state (docs/RULES.md §7.2), or clear errors.

use crate::board::los::LineOfSight;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::map::{Map, Obstacles};
use crate::data::settings::Rules;
use crate::data::state::{Blip, Contents, GameState, Model, Objective, Side, Status, Unit};
use crate::rules::content::Content;
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
    (decoys > crate::data::settings::MAX_DECOYS).then(|| {
        format!(
            "decoys: expected 0 to {}, found {decoys}",
            crate::data::settings::MAX_DECOYS
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
    /// Tokens the mission lays on the map (docs/RULES.md §14).
    pub tokens: Vec<TokenSetup>,
    /// The decks the mission deals (docs/RULES.md §15).
    #[serde(default)]
    pub decks: Vec<crate::data::card::Deck>,
}

/// A token a mission lays: its kind (a pack's `token { id = ... }`) and square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenSetup {
    pub id: String,
    pub kind: String,
    pub at: Pos,
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

/// Which of its problems [`Setup::start_checked`] reports; all by default. A problem left
/// unreported still refuses the game: it is for callers that reported it themselves (a mission
/// file's parse already places every unit, [`crate::Mission::parse`]) or know it follows from
/// one they reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checks {
    /// Where units stand: on the map, not on a solid square, one to a square, ids unique.
    pub placements: bool,
    /// The pool and the Decoys: their numbers and types, and enough tokens for the Blips
    /// that draw from the pool.
    pub pool: bool,
    /// No Blip starts in a Hero's Line of Sight.
    pub sight: bool,
}

impl Default for Checks {
    fn default() -> Checks {
        Checks {
            placements: true,
            pool: true,
            sight: true,
        }
    }
}

/// What a problem of [`Setup::start_checked`] is about, to report only those asked for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum About {
    Placement,
    Pool,
    Sight,
    /// Ids, hero profiles and Blip contents: always reported.
    Unit,
}

impl Setup {
    /// Validate and build the starting state, drawing pooled Blip contents with `seed`.
    ///
    /// # Errors
    /// Every problem found, each naming the unit and what is wrong.
    pub fn start(&self, content: &Content, seed: u64) -> Result<GameState, Vec<SetupError>> {
        self.start_checked(content, seed, Checks::default())
    }

    /// [`Setup::start`], reporting only the kinds of problem `checks` asks for; every
    /// independent problem is found in one call (a Blip in a Hero's sight as well as a hero of
    /// an unknown profile), while what follows from another problem is left out (no sight is
    /// checked from or to a unit off the map).
    ///
    /// # Errors
    /// Every problem of the kinds asked for. The list is empty when the only problems are of
    /// kinds not asked for: there is still no game.
    pub fn start_checked(
        &self,
        content: &Content,
        seed: u64,
        checks: Checks,
    ) -> Result<GameState, Vec<SetupError>> {
        let mut found: Vec<(About, SetupError)> = Vec::new();
        let finish = |found: Vec<(About, SetupError)>| -> Vec<SetupError> {
            found
                .into_iter()
                .filter(|(about, _)| match about {
                    About::Placement => checks.placements,
                    About::Pool => checks.pool,
                    About::Sight => checks.sight,
                    About::Unit => true,
                })
                .map(|(_, e)| e)
                .collect()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let map = &self.map;
        let mut taken: Vec<(Pos, String)> = Vec::new();
        let mut ids: Vec<Id> = Vec::new();
        // Units whose square is on the map and not solid: the only ones sight is checked for.
        let mut standing: Vec<bool> = Vec::new();
        let mut place =
            |what: &'static str, id: &str, at: Pos, found: &mut Vec<(About, SetupError)>| {
                if id.len() > MAX_UNIT_ID {
                    found.push((
                        About::Unit,
                        unit_err(
                            what,
                            id,
                            format!(
                                "this id is {} bytes long: expected at most {MAX_UNIT_ID} (its \
                                 models' ids add `.N`)",
                                id.len()
                            ),
                        ),
                    ));
                }
                if ids.iter().any(|i| i == id) {
                    found.push((
                        About::Placement,
                        unit_err(what, id, "this id is used twice"),
                    ));
                }
                ids.push(Id::from(id));
                let mut stands = false;
                if !map.in_bounds(at) {
                    found.push((
                        About::Placement,
                        unit_err(
                            what,
                            id,
                            format!("{at} is outside the {}x{} map", map.width(), map.height()),
                        ),
                    ));
                } else if map.is_solid(at) {
                    found.push((
                        About::Placement,
                        unit_err(what, id, format!("{at} is a solid square")),
                    ));
                } else {
                    stands = true;
                    if let Some((_, other)) = taken.iter().find(|(p, _)| *p == at) {
                        found.push((
                            About::Placement,
                            unit_err(what, id, format!("{at} is already taken by {other}")),
                        ));
                    }
                }
                standing.push(stands);
                taken.push((at, id.to_string()));
            };
        for h in &self.heroes {
            place("hero", &h.id, h.at, &mut found);
            if h.profile.len() > Id::MAX_LEN {
                found.push((
                    About::Unit,
                    unit_err(
                        "hero",
                        &h.id,
                        format!(
                            "profile id {:?}: expected at most {} bytes",
                            h.profile,
                            Id::MAX_LEN
                        ),
                    ),
                ));
            } else if !content.heroes.contains_key(&h.profile) {
                found.push((
                    About::Unit,
                    unit_err(
                        "hero",
                        &h.id,
                        format!("no hero profile named {:?}", h.profile),
                    ),
                ));
            }
        }
        for b in &self.blips {
            place("blip", &b.id, b.at, &mut found);
        }
        // The numbers first, so that no count a file names is allocated before it is checked.
        let decoys = self.decoys.unwrap_or(self.rules.decoys);
        let mut sizes_ok = true;
        if let Some(m) = decoys_problem(decoys) {
            found.push((About::Pool, SetupError::Other(m)));
            sizes_ok = false;
        }
        for p in &self.pool {
            for (_, m) in p.problems() {
                found.push((
                    About::Pool,
                    SetupError::Other(format!("pool: {}: {m}", p.type_id)),
                ));
                sizes_ok = false;
            }
        }
        let total = self.pool.iter().map(|p| u64::from(p.count)).sum::<u64>() + u64::from(decoys);
        if sizes_ok && total > MAX_POOL_TOKENS {
            found.push((
                About::Pool,
                SetupError::Other(format!(
                    "the pool holds {total} tokens (pool entries plus Decoys): expected at most \
                     {MAX_POOL_TOKENS}"
                )),
            ));
        }
        // Sight does not depend on the pool: checked here, before a pool too large to draw
        // from ends the checks.
        if standing.iter().any(|s| *s) {
            let (heroes, blips) = standing.split_at(self.heroes.len().min(standing.len()));
            for e in self.sight_problems(heroes, blips) {
                found.push((About::Sight, e));
            }
        }
        if !sizes_ok || total > MAX_POOL_TOKENS {
            return Err(finish(found));
        }
        // The pool: fixed tokens stay; the rest are drawn from pool entries plus Decoys.
        let mut tokens: Vec<Contents> = Vec::new();
        for p in &self.pool {
            for id in std::iter::once(&p.type_id).chain(&p.leader) {
                if id.len() > Id::MAX_LEN {
                    found.push((
                        About::Pool,
                        SetupError::Other(format!(
                            "pool: Alien Type id {id:?}: expected at most {} bytes",
                            Id::MAX_LEN
                        )),
                    ));
                }
            }
            if !content.aliens.contains_key(&p.type_id) {
                found.push((
                    About::Pool,
                    SetupError::Other(format!("pool: no Alien Type named {:?}", p.type_id)),
                ));
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
            found.push((
                About::Pool,
                SetupError::Other(format!(
                    "{fixed_decoys} Blips are fixed as Decoys but the mission has only {decoys} \
                     Decoy Tokens (set `decoys`)"
                )),
            ));
        }
        for _ in 0..decoys.saturating_sub(fixed_decoys) {
            tokens.push(Contents::Decoy);
        }
        tokens.shuffle(&mut rng);
        let needed = self.blips.iter().filter(|b| b.contents.is_none()).count();
        if tokens.len() < needed {
            found.push((
                About::Pool,
                SetupError::Other(format!(
                    "{needed} Blips draw from the pool but it holds only {} tokens (pool plus \
                     decoys)",
                    tokens.len()
                )),
            ));
        }
        for b in &self.blips {
            if let Some(Contents::Unit {
                type_id,
                size,
                leader,
            }) = &b.contents
            {
                match content.aliens.get(type_id.as_str()) {
                    None => found.push((
                        About::Unit,
                        unit_err("blip", &b.id, format!("no Alien Type named {type_id:?}")),
                    )),
                    Some(t) if *size == 0 || *size > t.unit.max => found.push((
                        About::Unit,
                        unit_err(
                            "blip",
                            &b.id,
                            format!("size {size} is outside 1..={} for {type_id}", t.unit.max),
                        ),
                    )),
                    _ => {}
                }
                if let Some(l) = leader {
                    if !content.aliens.contains_key(l.as_str()) {
                        found.push((
                            About::Unit,
                            unit_err("blip", &b.id, format!("no Alien Type named {l:?} to lead")),
                        ));
                    }
                }
            }
        }
        for (i, t) in self.tokens.iter().enumerate() {
            let bad = |m: String| (About::Unit, unit_err("token", &t.id, m));
            if !content.tokens.contains_key(&t.kind) {
                let mut known: Vec<&str> = content.tokens.keys().map(String::as_str).collect();
                known.sort_unstable();
                found.push(bad(format!(
                    "no token kind named {:?} (loaded: {})",
                    t.kind,
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )));
            }
            if !map.in_bounds(t.at) || map.is_solid(t.at) {
                found.push(bad(format!("{} is off the map or solid", t.at)));
            }
            if t.id.len() > Id::MAX_LEN {
                found.push(bad(format!(
                    "expected an id of at most {} bytes",
                    Id::MAX_LEN
                )));
            }
            if self.tokens[..i].iter().any(|o| o.id == t.id) {
                found.push(bad("is laid twice".into()));
            }
        }
        if let Some(m) = crate::rules::deck::deal_problem(&self.decks, content) {
            found.push((About::Unit, SetupError::Other(m)));
        }
        if !found.is_empty() {
            return Err(finish(found));
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
        for t in &self.tokens {
            st.tokens.push(crate::data::token::Token {
                id: Id::from(&t.id),
                kind: Id::from(&t.kind),
                pos: t.at,
                carried_by: None,
                symbol: content.tokens.get(&t.kind).map_or('%', |k| k.symbol),
            });
        }
        if !self.decks.is_empty() {
            st.cards = crate::rules::deck::deal(&self.decks, content, &mut st.rng);
        }
        Ok(st)
    }

    /// A Blip may not start in a Hero's Line of Sight (docs/RULES.md §7.2): checked between
    /// the heroes and Blips standing on the map (`heroes[i]`, `blips[j]`: whether that unit's
    /// square is on the map and not solid), every unit on the map blocking sight as it will in
    /// the game.
    fn sight_problems(&self, heroes: &[bool], blips: &[bool]) -> Vec<SetupError> {
        let on_map = |at: Pos| self.map.in_bounds(at);
        let mut obstacles = Obstacles::new(&self.map);
        for at in self
            .heroes
            .iter()
            .map(|h| h.at)
            .chain(self.blips.iter().map(|b| b.at))
            .filter(|at| on_map(*at))
        {
            obstacles.insert(at);
        }
        let mut seen = Vec::new();
        for (b, _) in self.blips.iter().zip(blips).filter(|(_, s)| **s) {
            for (h, _) in self.heroes.iter().zip(heroes).filter(|(_, s)| **s) {
                if self.rules.los.visible(&self.map, &obstacles, h.at, b.at) {
                    seen.push(unit_err(
                        "blip",
                        &b.id,
                        format!(
                            "starts at {} in the Line of Sight of hero {} at {}",
                            b.at, h.id, h.at
                        ),
                    ));
                    break;
                }
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::map::MapBuilder;

    /// A hero of no known profile, a Blip in its sight and a Blip off the 6x1 map.
    fn three_mistakes() -> Setup {
        let blip = |id: &str, x| BlipSetup {
            id: id.into(),
            at: Pos::new(x, 0),
            contents: Some(Contents::Decoy),
        };
        Setup {
            name: "t".into(),
            map: MapBuilder::new(6, 1).build(),
            rules: Rules::default(),
            heroes: vec![HeroSetup {
                id: "h".into(),
                profile: "nobody".into(),
                at: Pos::new(0, 0),
            }],
            blips: vec![blip("b", 5), blip("off", 9)],
            pool: Vec::new(),
            decoys: Some(2),
            objective: Objective::Eliminate,
            max_rounds: None,
            tokens: Vec::new(),
            decks: Vec::new(),
        }
    }

    fn shown(r: Result<GameState, Vec<SetupError>>) -> Vec<String> {
        match r {
            Ok(_) => panic!("the setup is broken"),
            Err(es) => es.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn independent_problems_are_found_in_one_start() {
        let s = three_mistakes();
        assert_eq!(
            shown(s.start(&Content::default(), 1)),
            vec![
                "hero h: no hero profile named \"nobody\"",
                "blip off: 9,0 is outside the 6x1 map",
                "blip b: starts at 5,0 in the Line of Sight of hero h at 0,0",
            ]
        );
        // A mission's parse reports where units stand: those are left out, and still refuse.
        let checks = Checks {
            placements: false,
            ..Checks::default()
        };
        assert_eq!(
            shown(s.start_checked(&Content::default(), 1, checks)),
            vec![
                "hero h: no hero profile named \"nobody\"",
                "blip b: starts at 5,0 in the Line of Sight of hero h at 0,0",
            ]
        );
        let mut only_off = three_mistakes();
        only_off.heroes.clear();
        only_off.blips.remove(0);
        assert_eq!(
            shown(only_off.start_checked(&Content::default(), 1, checks)),
            Vec::<String>::new(),
            "no game, though nothing is left to report"
        );
    }
}

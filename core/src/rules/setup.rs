//! From a mission's setup to a legal starting state (docs/RULES.md §7.2), or clear errors.

use crate::board::los::LineOfSight;
use crate::data::card::Deck;
use crate::data::deploying::{Deploying, Deployment};
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
    /// Its Health at the start, 1 to its profile's (`None`: the profile's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health: Option<u32>,
}

/// An Alien Unit already revealed at the start: one model per square of `at`, named `id.1`,
/// `id.2`, ... in that order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlienSetup {
    pub id: String,
    #[serde(rename = "type")]
    pub type_id: String,
    pub at: Vec<Pos>,
    /// Each model's Health, 1 to the type's (`None`: the type's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health: Option<u32>,
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
    /// Alien Units already revealed, on the map with the heroes and Blips.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliens: Vec<AlienSetup>,
    /// The Overmind's hand at the start, Mutation card ids: the Overmind then has a hand (the
    /// Mutation deck), whose draw pile is the one `decks` deals, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<String>>,
    /// The Overmind's Hidden Agenda, face down, instead of one dealt: the Hidden Agenda deck
    /// is then in play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agenda: Option<String>,
    /// How the units reach the map (docs/RULES.md §7.2). By the rules, the Heroes are
    /// [`Setup::squad`], `heroes` is empty and each Blip's `at` is a Blip marker.
    #[serde(default, skip_serializing_if = "is_fixed")]
    pub deployment: Deployment,
    /// The Heroes of a mission deployed by the rules, in order, their `at` unused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub squad: Vec<HeroSetup>,
}

fn is_fixed(d: &Deployment) -> bool {
    *d == Deployment::Fixed
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
    /// A problem with one field of one entry of the setup's lists, for callers that place it:
    /// `what` names the list (`hero` for [`Setup::heroes`], `unit` for [`Setup::aliens`]),
    /// `index` the entry and `field` its key (`id`, `type`, `at` or `health`).
    #[error("{what} {id}: {message}")]
    Field {
        what: &'static str,
        index: usize,
        id: String,
        field: &'static str,
        message: String,
    },
    /// A card of the Overmind's starting hand or agenda that is not a loaded card of its deck:
    /// `deck` is the deck it is of, when it is loaded.
    #[error("{}", card_message(.slot, .card, .deck))]
    Card {
        slot: CardSlot,
        card: String,
        deck: Option<Deck>,
    },
    #[error("{0}")]
    Other(String),
}

/// Where a setup puts a card: its place in the Overmind's hand, or the agenda.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardSlot {
    Hand(usize),
    Agenda,
}

impl CardSlot {
    /// The deck a card there must be of.
    #[must_use]
    pub fn deck(self) -> Deck {
        match self {
            CardSlot::Hand(_) => Deck::Mutation,
            CardSlot::Agenda => Deck::HiddenAgenda,
        }
    }
}

fn card_message(slot: &CardSlot, card: &str, deck: &Option<Deck>) -> String {
    let wanted = slot.deck().name();
    match deck {
        Some(d) => format!("card {card:?} is a {} card, not a {wanted} one", d.name()),
        None => format!("no {wanted} card {card:?} is loaded"),
    }
}

/// Longest id of a Hero, Blip or revealed Alien Unit: its models' ids add `.N` and must still fit an [`Id`].
pub const MAX_UNIT_ID: usize = Id::MAX_LEN - 4;

fn unit_err(what: &'static str, id: &str, message: impl Into<String>) -> SetupError {
    SetupError::Unit {
        what,
        id: id.to_string(),
        message: message.into(),
    }
}

/// The problem with a unit's id longer than [`MAX_UNIT_ID`].
fn too_long(id: &str) -> String {
    format!(
        "this id is {} bytes long: expected at most {MAX_UNIT_ID} (its models' ids add `.N`)",
        id.len()
    )
}

/// The problem with a unit's id that holds a control character (ids are printable).
const NOT_PRINTABLE: &str =
    "this id holds a control character (C0, DEL or C1): expected printable text";

/// The heroes or the Blips placed so far: their ids and squares.
#[derive(Default)]
struct Placed {
    ids: Vec<Id>,
    taken: Vec<(Pos, String)>,
    /// Per unit, whether its square is on the map and not solid: the only ones whose sight is
    /// checked.
    standing: Vec<bool>,
}

impl Placed {
    /// Check unit `id` on `at` against the map and those placed before it, and place it.
    fn place(
        &mut self,
        map: &Map,
        what: &'static str,
        id: &str,
        at: Pos,
        found: &mut Vec<(About, SetupError)>,
    ) {
        if id.len() > MAX_UNIT_ID {
            found.push((About::Unit, unit_err(what, id, too_long(id))));
        }
        if crate::data::source::has_control(id) {
            found.push((About::Unit, unit_err(what, id, NOT_PRINTABLE)));
        }
        if self.ids.iter().any(|i| i == id) {
            found.push((
                About::Placement,
                unit_err(what, id, "this id is used twice"),
            ));
        }
        self.ids.push(Id::from(id));
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
            if let Some((_, other)) = self.taken.iter().find(|(p, _)| *p == at) {
                found.push((
                    About::Placement,
                    unit_err(what, id, format!("{at} is already taken by {other}")),
                ));
            }
        }
        self.standing.push(stands);
        self.taken.push((at, id.to_string()));
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

/// A Hero's one-model unit as a setup gives it: its profile's Health unless the setup says.
fn hero_unit(h: &HeroSetup, content: &Content) -> Unit {
    let max_health = content
        .heroes
        .get(&h.profile)
        .map_or(1, |p| p.health.max(1));
    Unit::new(
        Id::from(&h.id),
        Side::Heroes,
        vec![Model {
            id: Id::from(&h.id),
            kind: Id::from(&h.profile),
            pos: h.at,
            health: h.health.unwrap_or(max_health),
            max_health,
            status: Status::default(),
            xxl: false,
        }],
    )
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
        // Heroes, then Blips, each checked against the units of its kind before it; a Blip
        // also against every hero.
        let mut heroes = Placed::default();
        let by_rules = self.deployment == Deployment::Rules;
        if let Some(m) = self.deployment_problem() {
            found.push((About::Placement, SetupError::Other(m)));
        }
        let fixed = self.heroes.len();
        for (i, h) in self.heroes.iter().chain(&self.squad).enumerate() {
            if i < fixed {
                heroes.place(map, "hero", &h.id, h.at, &mut found);
            } else if self.squad[..i - fixed].iter().any(|o| o.id == h.id) {
                found.push((
                    About::Placement,
                    unit_err("hero", &h.id, "this id is used twice"),
                ));
            }
            let profile = if h.profile.len() > Id::MAX_LEN {
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
                None
            } else {
                let p = content.heroes.get(&h.profile);
                if p.is_none() {
                    found.push((
                        About::Unit,
                        unit_err(
                            "hero",
                            &h.id,
                            format!("no hero profile named {:?}", h.profile),
                        ),
                    ));
                }
                p
            };
            if let (Some(p), Some(health)) = (profile, h.health) {
                let max = p.health.max(1);
                if health == 0 || health > max {
                    found.push((
                        About::Unit,
                        SetupError::Field {
                            what: "hero",
                            index: i,
                            id: h.id.clone(),
                            field: "health",
                            message: format!(
                                "health {health}: expected 1 to {max} (the profile's health)"
                            ),
                        },
                    ));
                }
            }
        }
        let mut blips = Placed::default();
        for b in &self.blips {
            if self.heroes.iter().chain(&self.squad).any(|h| h.id == b.id) {
                found.push((
                    About::Placement,
                    unit_err(
                        "blip",
                        &b.id,
                        format!("this id is used twice (hero {} too)", b.id),
                    ),
                ));
            } else if let Some(h) = self.heroes.iter().find(|h| h.at == b.at) {
                found.push((
                    About::Placement,
                    unit_err(
                        "blip",
                        &b.id,
                        format!("{} is already taken by {}", b.at, h.id),
                    ),
                ));
            }
            blips.place(map, "blip", &b.id, b.at, &mut found);
        }
        let aliens = self.place_aliens(content, &mut found);
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
        // By the rules, no Hero stands anywhere yet: the deployment keeps Blips out of sight.
        if !by_rules && heroes.standing.iter().chain(&blips.standing).any(|s| *s) {
            let on_map: Vec<Pos> = aliens
                .iter()
                .flat_map(|(i, _)| {
                    let a = &self.aliens[*i];
                    let xxl = content.aliens.get(&a.type_id).is_some_and(|t| t.xxl);
                    a.at.iter()
                        .flat_map(move |&at| crate::data::geom::footprint(at, xxl))
                })
                .collect();
            for e in self.sight_problems(&heroes.standing, &blips.standing, &on_map) {
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
        let slots = self
            .hand
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, c)| (CardSlot::Hand(i), c))
            .chain(self.agenda.iter().map(|c| (CardSlot::Agenda, c)));
        for (slot, card) in slots {
            let deck = content.cards.get(card).map(|c| c.deck);
            if deck != Some(slot.deck()) {
                found.push((
                    About::Unit,
                    SetupError::Card {
                        slot,
                        card: card.clone(),
                        deck,
                    },
                ));
            }
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
            st.units.push(hero_unit(h, content));
        }
        for (i, max_health) in aliens {
            let a = &self.aliens[i];
            st.units.push(Unit::new(
                Id::from(&a.id),
                Side::Overmind,
                a.at.iter()
                    .enumerate()
                    .map(|(n, &at)| Model {
                        id: Id::from(&format!("{}.{}", a.id, n + 1)),
                        kind: Id::from(&a.type_id),
                        pos: at,
                        health: a.health.unwrap_or(max_health),
                        max_health,
                        status: Status::default(),
                        xxl: content.aliens.get(&a.type_id).is_some_and(|t| t.xxl),
                    })
                    .collect(),
            ));
        }
        for h in &self.squad {
            st.units.push(hero_unit(h, content));
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
        if by_rules {
            // The squad and the Blips wait off the map for the `deploy` action.
            st.deploying = Some(Deploying {
                heroes: st.units.split_off(self.heroes.len()),
                blips: std::mem::take(&mut st.blips),
                markers: self.blips.iter().map(|b| b.at).collect(),
            });
        }
        if !self.decks.is_empty() {
            st.cards = crate::rules::deck::deal(&self.decks, content, &mut st.rng);
        }
        let cards = &mut st.cards;
        if let Some(hand) = &self.hand {
            if !cards.decks.contains(&Deck::Mutation) {
                cards.decks.push(Deck::Mutation);
            }
            cards.hand = hand.iter().map(Id::from).collect();
        }
        if let Some(agenda) = &self.agenda {
            if !cards.decks.contains(&Deck::HiddenAgenda) {
                cards.decks.push(Deck::HiddenAgenda);
            }
            cards.agenda = Some(Id::from(agenda));
            cards.agenda_revealed = false;
        }
        Ok(st)
    }

    /// What keeps the mission from being deployed by the rules, if it says it is: Heroes
    /// placed by the mission, no squad, fewer than two Yellow Squares of the Heroes', or
    /// revealed Alien Units at the start.
    fn deployment_problem(&self) -> Option<String> {
        if self.deployment == Deployment::Fixed {
            return (!self.squad.is_empty()).then(|| {
                "a squad is deployed by the rules: set `deployment = \"rules\"` or give each \
                 Hero its square under [[heroes]]"
                    .to_string()
            });
        }
        if !self.heroes.is_empty() {
            return Some(
                "a mission deployed by the rules lists its Heroes under [[squad]], without \
                 squares, not under [[heroes]]"
                    .into(),
            );
        }
        if self.squad.is_empty() {
            return Some("a mission deployed by the rules needs a [[squad]] of Heroes".into());
        }
        if !self.aliens.is_empty() {
            return Some(
                "a mission deployed by the rules starts with no Alien Unit revealed".into(),
            );
        }
        let markers = Deploying {
            heroes: Vec::new(),
            blips: Vec::new(),
            markers: self.blips.iter().map(|b| b.at).collect(),
        };
        let yellow = markers.hero_squares(&self.map, self.rules.blip_deploy_radius);
        (yellow.len() < 2).then(|| {
            format!(
                "a mission deployed by the rules needs two Yellow Squares farther than \
                 blip_deploy_radius ({}) from every Blip marker, for the Heroes: the map has {}",
                self.rules.blip_deploy_radius,
                yellow.len()
            )
        })
    }

    /// The revealed Alien Units ([`Setup::aliens`]), each checked as a unit (its id, type,
    /// number of models and Health) and then placed square by square, after the heroes and
    /// Blips: one that is not a unit of its type, or whose id is taken, is not placed (its
    /// squares are not checked, and do not take squares of the units after it). Gives the
    /// placed ones, as their index and their type's Health.
    fn place_aliens(
        &self,
        content: &Content,
        found: &mut Vec<(About, SetupError)>,
    ) -> Vec<(usize, u32)> {
        let map = &self.map;
        let mut placed: Vec<(usize, u32)> = Vec::new();
        let mut taken: Vec<Pos> = self
            .heroes
            .iter()
            .map(|h| h.at)
            .chain(self.blips.iter().map(|b| b.at))
            .collect();
        for (i, a) in self.aliens.iter().enumerate() {
            let problem = |field: &'static str, message: String| SetupError::Field {
                what: "unit",
                index: i,
                id: a.id.clone(),
                field,
                message,
            };
            if a.id.len() > MAX_UNIT_ID {
                found.push((About::Unit, problem("id", too_long(&a.id))));
            }
            if crate::data::source::has_control(&a.id) {
                found.push((About::Unit, problem("id", NOT_PRINTABLE.into())));
            }
            let Some(t) = content.aliens.get(&a.type_id) else {
                let known: Vec<&str> = content.aliens.keys().map(String::as_str).collect();
                found.push((
                    About::Unit,
                    problem(
                        "type",
                        format!(
                            "no Alien Type named {:?}; the loaded packs define {}",
                            a.type_id,
                            known.join(", ")
                        ),
                    ),
                ));
                continue;
            };
            if a.at.is_empty() || a.at.len() > t.unit.max as usize {
                found.push((
                    About::Unit,
                    problem(
                        "at",
                        format!(
                            "{} models, expected 1 to {} for {}",
                            a.at.len(),
                            t.unit.max,
                            a.type_id
                        ),
                    ),
                ));
                continue;
            }
            let max_health = t.health.max(1);
            match a.health {
                Some(h) if h == 0 || h > max_health => {
                    found.push((
                        About::Unit,
                        problem(
                            "health",
                            format!("health {h}, expected 1 to {max_health} for {}", a.type_id),
                        ),
                    ));
                    continue;
                }
                _ => {}
            }
            let used = self.heroes.iter().any(|h| h.id == a.id)
                || self.blips.iter().any(|b| b.id == a.id)
                || placed.iter().any(|(j, _)| self.aliens[*j].id == a.id);
            if used {
                found.push((
                    About::Placement,
                    problem("id", "this id is used twice".into()),
                ));
                continue;
            }
            // An XXL model's position is the top-left square of its 2×2 base, which must fit
            // (docs/RULES.md §4.4).
            let squares = |at: Pos| crate::data::geom::footprint(at, t.xxl);
            for (n, &at) in a.at.iter().enumerate() {
                let mut bad = None;
                for q in squares(at) {
                    bad = bad.or(if !map.in_bounds(q) {
                        Some(format!(
                            "{q} is outside the {}x{} map",
                            map.width(),
                            map.height()
                        ))
                    } else if map.is_solid(q) {
                        Some(format!("{q} is a solid square"))
                    } else if taken.contains(&q)
                        || a.at[..n].iter().any(|&p| squares(p).any(|r| r == q))
                    {
                        Some(format!("{q} is already taken"))
                    } else {
                        None
                    });
                }
                if bad.is_none()
                    && t.xxl
                    && !crate::board::movement::fits(map, &Obstacles::new(map), at)
                {
                    bad = Some(format!("a wall runs through the 2×2 base at {at}"));
                }
                if let Some(b) = bad {
                    found.push((
                        About::Placement,
                        problem("at", format!("model {}: {b}", n + 1)),
                    ));
                }
            }
            taken.extend(a.at.iter().flat_map(|&at| squares(at)));
            placed.push((i, max_health));
        }
        placed
    }

    /// A Blip may not start in a Hero's Line of Sight (docs/RULES.md §7.2): checked between
    /// the heroes and Blips standing on the map (`heroes[i]`, `blips[j]`: whether that unit's
    /// square is on the map and not solid), every unit on the map blocking sight as it will in
    /// the game, the revealed Alien Units' models (on `aliens`) too.
    fn sight_problems(&self, heroes: &[bool], blips: &[bool], aliens: &[Pos]) -> Vec<SetupError> {
        let on_map = |at: Pos| self.map.in_bounds(at);
        let mut obstacles = Obstacles::new(&self.map);
        for at in self
            .heroes
            .iter()
            .map(|h| h.at)
            .chain(self.blips.iter().map(|b| b.at))
            .chain(aliens.iter().copied())
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
                health: None,
            }],
            blips: vec![blip("b", 5), blip("off", 9)],
            pool: Vec::new(),
            decoys: Some(2),
            objective: Objective::Eliminate,
            max_rounds: None,
            tokens: Vec::new(),
            decks: Vec::new(),
            aliens: Vec::new(),
            hand: None,
            agenda: None,
            deployment: Default::default(),
            squad: Vec::new(),
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

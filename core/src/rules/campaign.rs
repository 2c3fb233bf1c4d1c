//! The campaign rules (docs/RULES.md §16): checking a Mission Book, the Resolution Phase after a
//! mission, and a mission started with what the campaign carries into it.

use crate::data::campaign::{
    Campaign, CampaignMission, Carry, HeroCarry, Played, Upgrade, ITEMS_FOR_A_WIN, MAX_ITEMS,
    MAX_MISSIONS, MAX_NODES, MAX_XP,
};
use crate::data::event::{Change, Event};
use crate::data::id::Id;
use crate::data::settings::{MAX_DECOYS, MAX_HAND};
use crate::data::state::{GameState, Side};
use crate::data::token::{Token, TokenClass};
use crate::rules::content::Content;
use crate::rules::game::Game;
use crate::rules::setup::{PoolEntry, Setup};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Health the Resolution Phase gives back to every Hero of the squad.
pub const HEAL: u32 = 1;
/// XP each Hero still standing gains when the Heroes win *(our choice)*.
pub const WIN_XP: u32 = 1;

impl Campaign {
    /// The campaign mission played first.
    #[must_use]
    pub fn first(&self) -> Option<&CampaignMission> {
        self.missions.first()
    }

    /// The campaign mission of this id.
    #[must_use]
    pub fn mission(&self, id: &str) -> Option<&CampaignMission> {
        self.missions.iter().find(|m| m.id == id)
    }

    /// The Item kinds the Heroes may be given: the campaign's list, else every loaded token kind
    /// of class `item`, in id order.
    #[must_use]
    pub fn item_kinds(&self, content: &Content) -> Vec<String> {
        if !self.items.is_empty() {
            return self.items.clone();
        }
        content
            .tokens
            .values()
            .filter(|k| k.class == TokenClass::Item)
            .map(|k| k.id.clone())
            .collect()
    }

    /// Every problem of the Mission Book, each as `(key, message)`: missions that are not
    /// loaded (`has_mission` says which are), a next mission not in the book, ids used twice, a
    /// mission no result reaches, a loop (a campaign must end), Items that are not loaded Item
    /// kinds, upgrades of unknown Alien Types, and numbers out of range.
    #[must_use]
    pub fn problems(
        &self,
        content: &Content,
        has_mission: &dyn Fn(&str) -> bool,
    ) -> Vec<(String, String)> {
        let mut p: Vec<(String, String)> = Vec::new();
        if self.missions.is_empty() {
            p.push((
                "missions".into(),
                "a campaign needs at least one [[missions]]".into(),
            ));
        }
        if self.missions.len() > MAX_MISSIONS {
            p.push((
                "missions".into(),
                format!(
                    "expected at most {MAX_MISSIONS} missions, found {}",
                    self.missions.len()
                ),
            ));
        }
        for (i, m) in self.missions.iter().enumerate() {
            let key = |k: &str| format!("missions[{i}].{k}");
            if self.missions[..i].iter().any(|o| o.id == m.id) {
                p.push((key("id"), format!("mission id {:?} is used twice", m.id)));
            }
            if !has_mission(&m.mission) {
                p.push((
                    key("mission"),
                    format!("no mission {:?} is loaded", m.mission),
                ));
            }
            for (k, next) in [
                ("if_heroes_win", &m.if_heroes_win),
                ("if_overmind_wins", &m.if_overmind_wins),
            ] {
                if let Some(n) = next {
                    if self.mission(n).is_none() {
                        p.push((
                            key(k),
                            format!("no mission {n:?} in this campaign's [[missions]]"),
                        ));
                    }
                }
            }
        }
        if p.is_empty() {
            p.extend(self.flow_problems());
        }
        let known = self.item_kinds(content);
        for (i, item) in self.items.iter().enumerate() {
            match content.tokens.get(item) {
                None => p.push((
                    format!("items[{i}]"),
                    format!("no token kind {item:?} is loaded"),
                )),
                Some(k) if k.class != TokenClass::Item => p.push((
                    format!("items[{i}]"),
                    format!("token kind {item:?} is a {}, not an item", k.class.name()),
                )),
                Some(_) => {}
            }
        }
        if known.is_empty() {
            p.push((
                "items".into(),
                "no Item token kind is loaded to give the Heroes when they win".into(),
            ));
        }
        if self.upgrades.len() > MAX_NODES as usize {
            p.push((
                "upgrades".into(),
                format!(
                    "expected at most {MAX_NODES} upgrades, found {}",
                    self.upgrades.len()
                ),
            ));
        }
        for (i, u) in self.upgrades.iter().enumerate() {
            if let Upgrade::Blip { type_id, size } = u {
                if !content.aliens.contains_key(type_id) {
                    p.push((
                        format!("upgrades[{i}].type"),
                        format!("no Alien Type {type_id:?} is loaded"),
                    ));
                }
                let most = crate::rules::setup::MAX_UNIT_SIZE;
                if *size == 0 || *size > most {
                    p.push((
                        format!("upgrades[{i}].size"),
                        format!("expected 1 to {most}, found {size}"),
                    ));
                }
            }
        }
        p
    }

    /// Missions no result reaches from the first, and loops.
    fn flow_problems(&self) -> Vec<(String, String)> {
        let mut p = Vec::new();
        let index = |id: &str| self.missions.iter().position(|m| m.id == id);
        let mut reached = vec![false; self.missions.len()];
        // A depth-first walk; `on_path` finds a loop back to a mission still being walked.
        let mut on_path = vec![false; self.missions.len()];
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        if !self.missions.is_empty() {
            reached[0] = true;
            on_path[0] = true;
        }
        while let Some((at, k)) = stack.last_mut() {
            let m = &self.missions[*at];
            let nexts = [m.if_heroes_win.as_deref(), m.if_overmind_wins.as_deref()];
            if *k >= nexts.len() {
                on_path[*at] = false;
                stack.pop();
                continue;
            }
            let next = nexts[*k].and_then(index);
            *k += 1;
            let from = *at;
            if let Some(n) = next {
                if on_path[n] {
                    p.push((
                        format!("missions[{from}]"),
                        format!(
                            "mission {:?} leads back to {:?}: a campaign must end",
                            self.missions[from].id, self.missions[n].id
                        ),
                    ));
                    return p;
                }
                if !reached[n] {
                    reached[n] = true;
                    on_path[n] = true;
                    stack.push((n, 0));
                }
            }
        }
        for (i, r) in reached.iter().enumerate() {
            if !r {
                p.push((
                    format!("missions[{i}]"),
                    format!(
                        "no result of the missions before it leads to {:?}",
                        self.missions[i].id
                    ),
                ));
            }
        }
        p
    }
}

/// What the Resolution Phase did, as the host shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// The campaign's state for the next mission.
    pub carry: Carry,
    /// One line per thing that changed, in order.
    pub lines: Vec<String>,
}

/// The hero profile of each Hero unit of the mission, by unit id.
fn profiles(setup: &Setup) -> Vec<(Id, String)> {
    setup
        .heroes
        .iter()
        .chain(&setup.squad)
        .map(|h| (Id::from(&h.id), h.profile.clone()))
        .collect()
}

/// Whether the Overmind's Hidden Agenda won the game: it declared the Overmind the winner.
#[must_use]
pub fn agenda_completed(game: &Game) -> bool {
    let Some(agenda) = &game.state.cards.agenda else {
        return false;
    };
    game.log.iter().any(|e| {
        matches!(e, Event::Effect { source, change: Change::Win { winner: Side::Overmind, .. } }
            if source == agenda)
    })
}

/// The Resolution Phase after campaign mission `at`, played from `setup` to the end of `game`
/// (docs/RULES.md §16.2): every Hero of the squad heals [`HEAL`] (a Hero killed comes back
/// with that much), keeps its XP (one per kill) plus [`WIN_XP`] when the Heroes won and it is
/// standing, and the Items it still carries; Heroes who won are given [`ITEMS_FOR_A_WIN`]
/// random Items, dealt in turn to those standing; the Overmind gains an Upgrade Node for a
/// completed Hidden Agenda. Items are drawn with a generator seeded from `seed`, so a campaign
/// replays exactly. Upgrades are bought later, by [`Carry::buy`], after the content's own
/// `resolution` hooks.
#[must_use]
pub fn resolve(
    campaign: &Campaign,
    at: &CampaignMission,
    carry: &Carry,
    setup: &Setup,
    game: &Game,
    content: &Content,
    seed: u64,
) -> Resolution {
    let st = &game.state;
    let mut next = carry.clone();
    let mut lines = Vec::new();
    let (winner, reason) = st
        .outcome
        .as_ref()
        .map_or((Side::Overmind, String::new()), |o| {
            (o.winner, o.reason.clone())
        });
    let mut standing: Vec<String> = Vec::new();
    for (unit_id, profile) in profiles(setup) {
        let Some(unit) = st.unit(&unit_id).or_else(|| {
            st.deploying
                .as_ref()
                .and_then(|d| d.heroes.iter().find(|u| u.id == unit_id))
        }) else {
            continue;
        };
        let max = content.heroes.get(&profile).map_or(1, |p| p.health.max(1));
        let model = unit.models.first();
        let alive = model.is_some();
        let health = model.map_or(0, |m| m.health);
        let mut xp = unit.xp.min(MAX_XP);
        if winner == Side::Heroes && alive {
            xp = (xp + WIN_XP).min(MAX_XP);
        }
        let items: Vec<String> = st
            .tokens
            .iter()
            .filter(|t| t.carried_by.as_ref() == Some(&unit_id))
            .map(|t| t.kind.as_str().to_string())
            .take(MAX_ITEMS)
            .collect();
        let before = carry.heroes.get(&profile).map_or(1, HeroCarry::level);
        let h = HeroCarry {
            health: (health + HEAL).min(max),
            xp,
            items,
        };
        let carried = if h.items.is_empty() {
            String::new()
        } else {
            format!(", still carrying {}", h.items.join(", "))
        };
        let up = if h.level() > before {
            " (level up)"
        } else {
            ""
        };
        lines.push(format!(
            "{profile} ({unit_id}): {} Health, {} XP, level {}{up}{carried}",
            h.health,
            h.xp,
            h.level(),
        ));
        if alive {
            standing.push(profile.clone());
        }
        next.heroes.insert(profile, h);
    }
    if winner == Side::Heroes && !standing.is_empty() {
        let kinds = campaign.item_kinds(content);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7265_736f_6c76_6521);
        for n in 0..ITEMS_FOR_A_WIN as usize {
            let Some(kind) = kinds.choose(&mut rng) else {
                break;
            };
            let profile = &standing[n % standing.len()];
            if let Some(h) = next.heroes.get_mut(profile) {
                if h.items.len() < MAX_ITEMS {
                    h.items.push(kind.clone());
                    lines.push(format!("{profile} is given an Item: {kind}"));
                }
            }
        }
    }
    if agenda_completed(game) && next.upgrade_nodes < MAX_NODES {
        next.upgrade_nodes += 1;
        lines.push("the Overmind completed its Hidden Agenda: 1 Upgrade Node".into());
    }
    next.played.push(Played {
        id: at.id.clone(),
        seed,
        winner,
        reason,
        rounds: st.round,
    });
    Resolution { carry: next, lines }
}

impl Carry {
    /// The Overmind spends its Upgrade Nodes not yet spent on the campaign's upgrades, in
    /// order (a node past the list buys nothing). Gives what was bought.
    pub fn buy(&mut self, campaign: &Campaign) -> Vec<Upgrade> {
        let mut bought = Vec::new();
        while (self.upgrades.len() as u32) < self.upgrade_nodes.min(MAX_NODES) {
            let Some(u) = campaign.upgrades.get(self.upgrades.len()) else {
                break;
            };
            self.upgrades.push(u.clone());
            bought.push(u.clone());
        }
        bought
    }
}

impl Setup {
    /// This mission as a campaign plays it: the Overmind's upgrades applied (a bigger hand,
    /// more Decoys, more tokens in the pool). The Heroes' Health, XP and Items are laid on the
    /// started game by [`carry_into`].
    #[must_use]
    pub fn carrying(&self, carry: &Carry) -> Setup {
        let mut s = self.clone();
        for u in &carry.upgrades {
            match u {
                Upgrade::HandSize => s.rules.hand_size = (s.rules.hand_size + 1).min(MAX_HAND),
                Upgrade::Decoy => {
                    let d = s.decoys.unwrap_or(s.rules.decoys);
                    s.decoys = Some((d + 1).min(MAX_DECOYS));
                }
                Upgrade::Blip { type_id, size } => s.pool.push(PoolEntry {
                    type_id: type_id.clone(),
                    size: *size,
                    count: 1,
                    leader: None,
                }),
            }
        }
        s
    }
}

/// Lay what the campaign carries on a started game of `setup`: each Hero whose profile the
/// campaign knows starts with its carried Health (1 to its profile's), its XP, and its Items,
/// carried (token ids `HERO.iN`). Nothing random: the game replays from its seed.
pub fn carry_into(st: &mut GameState, setup: &Setup, carry: &Carry, content: &Content) {
    let mut laid: Vec<Token> = Vec::new();
    let mut units: Vec<&mut crate::data::state::Unit> = st.units.iter_mut().collect();
    if let Some(d) = st.deploying.as_mut() {
        units.extend(d.heroes.iter_mut());
    }
    for (unit_id, profile) in profiles(setup) {
        let Some(h) = carry.heroes.get(&profile) else {
            continue;
        };
        let Some(unit) = units.iter_mut().find(|u| u.id == unit_id) else {
            continue;
        };
        unit.xp = h.xp.min(MAX_XP);
        let Some(m) = unit.models.first_mut() else {
            continue;
        };
        m.health = h.health.clamp(1, m.max_health.max(1));
        for (n, kind) in h.items.iter().take(MAX_ITEMS).enumerate() {
            let Some(k) = content.tokens.get(kind) else {
                continue;
            };
            laid.push(Token {
                id: Id::from(&format!("{unit_id}.i{}", n + 1)),
                kind: Id::from(kind),
                pos: m.pos,
                carried_by: Some(m.id),
                symbol: k.symbol,
            });
        }
    }
    laid.retain(|t| !st.tokens.iter().any(|o| o.id == t.id));
    st.tokens.extend(laid);
}

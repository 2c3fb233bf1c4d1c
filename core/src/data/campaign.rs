//! Campaigns as data (docs/RULES.md §16): a Mission Book of missions chosen by result, and what
//! one mission leaves the next (Heroes' Health, XP, level and Items; the Overmind's Upgrade
//! Nodes and what they bought).

use crate::data::state::Side;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// XP a Hero needs for each level past the first (docs/RULES.md §16.2) *(our choice)*.
pub const XP_PER_LEVEL: u32 = 3;
/// The highest level a Hero reaches.
pub const MAX_LEVEL: u32 = 5;
/// Items the Heroes are given when they win a mission (the Resolution Phase).
pub const ITEMS_FOR_A_WIN: u32 = 3;
/// Most Items one Hero carries from mission to mission.
pub const MAX_ITEMS: usize = 6;
/// Most missions a campaign lists.
pub const MAX_MISSIONS: usize = 64;
/// Most Upgrade Nodes the Overmind holds, and most upgrades a campaign lists.
pub const MAX_NODES: u32 = 32;
/// Most XP a Hero holds.
pub const MAX_XP: u32 = 1000;

/// A Hero's level for its XP: 1, and one more per [`XP_PER_LEVEL`], up to [`MAX_LEVEL`]. The one
/// place a level is computed.
#[must_use]
pub fn level_for(xp: u32) -> u32 {
    (1 + xp / XP_PER_LEVEL).min(MAX_LEVEL)
}

/// A campaign: its missions in the Mission Book's order, the first one played first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Campaign {
    /// Its id (the file's stem).
    pub id: String,
    /// The name players see.
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub missions: Vec<CampaignMission>,
    /// What each Upgrade Node buys, in the order the Overmind gains them.
    #[serde(default)]
    pub upgrades: Vec<Upgrade>,
    /// The Item token kinds the Heroes may be given; empty: every loaded kind of class `item`.
    #[serde(default)]
    pub items: Vec<String>,
}

/// One mission of a campaign and the one after it, by result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignMission {
    /// Its id in the campaign (a mission may be played at two places of the book).
    pub id: String,
    /// The mission played: a loaded mission's id.
    pub mission: String,
    /// The campaign mission after a Heroes' win; `None`: the campaign ends.
    #[serde(default)]
    pub if_heroes_win: Option<String>,
    /// The campaign mission after an Overmind win; `None`: the campaign ends.
    #[serde(default)]
    pub if_overmind_wins: Option<String>,
}

impl CampaignMission {
    /// The campaign mission after this one when `winner` won it.
    #[must_use]
    pub fn next(&self, winner: Side) -> Option<&str> {
        match winner {
            Side::Heroes => self.if_heroes_win.as_deref(),
            Side::Overmind => self.if_overmind_wins.as_deref(),
        }
    }
}

/// What an Upgrade Node buys the Overmind, for every mission after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "buy", deny_unknown_fields)]
pub enum Upgrade {
    /// One more card in the Overmind's hand (`hand_size`), in missions that deal one.
    HandSize,
    /// One more Decoy Token in the pool.
    Decoy,
    /// One more token in the pool: `size` models of `type`.
    Blip {
        #[serde(rename = "type")]
        type_id: String,
        #[serde(default = "one")]
        size: u32,
    },
}

fn one() -> u32 {
    1
}

impl Upgrade {
    /// How it is shown: `hand_size`, `decoy`, `blip stalker x2`.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Upgrade::HandSize => "hand_size +1".into(),
            Upgrade::Decoy => "decoy +1".into(),
            Upgrade::Blip { type_id, size } => format!("blip {type_id} x{size}"),
        }
    }
}

/// What one Hero carries from mission to mission.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroCarry {
    /// Health at the next mission's start (at least 1: the Resolution Phase heals).
    pub health: u32,
    pub xp: u32,
    /// Item token kinds it starts the next mission carrying.
    #[serde(default)]
    pub items: Vec<String>,
}

impl HeroCarry {
    /// Its level ([`level_for`] its XP).
    #[must_use]
    pub fn level(&self) -> u32 {
        level_for(self.xp)
    }
}

/// A mission played in a campaign.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// The campaign mission's id.
    pub id: String,
    pub seed: u64,
    pub winner: Side,
    pub reason: String,
    pub rounds: u32,
}

/// What the missions played so far leave the next one: the campaign's state between missions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Carry {
    /// By hero profile: a Hero is the same character whatever its id in a mission.
    #[serde(default)]
    pub heroes: BTreeMap<String, HeroCarry>,
    /// Upgrade Nodes the Overmind holds.
    #[serde(default)]
    pub upgrade_nodes: u32,
    /// What the nodes bought, one per node, in order.
    #[serde(default)]
    pub upgrades: Vec<Upgrade>,
    /// The missions played, in order.
    #[serde(default)]
    pub played: Vec<Played>,
}

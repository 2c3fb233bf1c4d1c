//! The balance report of one `simulate` run: what `simulate` prints and `simulate --html` draws.

use crate::stats::{AlienStats, BehaviourStats, CardStats, PerUse, Rate};
use overmind_core::ai::Level;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The summary of one run.
#[derive(Serialize)]
pub struct Report {
    pub mission: String,
    pub packs: Vec<PathBuf>,
    pub games: u64,
    pub first_seed: u64,
    pub overmind_ai: Level,
    pub heroes_ai: Level,
    pub jobs: usize,
    pub wins: Wins,
    pub unfinished: u64,
    pub rounds: Rounds,
    pub behaviours: BTreeMap<String, BehaviourRow>,
    pub behaviours_skipped: u64,
    pub aliens: BTreeMap<String, AlienRow>,
    /// Plays of each card and the Overmind's interruptions (docs/RULES.md §15).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub cards: BTreeMap<String, CardStats>,
    #[serde(skip_serializing_if = "is_zero")]
    pub interrupts: u64,
    pub seconds: f64,
    pub games_per_second: f64,
    /// CPU time of the whole process while the games ran (every thread, loading included).
    pub cpu_seconds: f64,
    pub games_per_cpu_second: f64,
}

/// A behaviour's totals with its damage per use (per time chosen).
#[derive(Serialize)]
pub struct BehaviourRow {
    #[serde(flatten)]
    pub stats: BehaviourStats,
    pub damage_per_use: PerUse,
}

/// An alien type's totals with its damage per use (per revealed unit).
#[derive(Serialize)]
pub struct AlienRow {
    #[serde(flatten)]
    pub stats: AlienStats,
    pub damage_per_use: PerUse,
}

#[derive(Serialize)]
pub struct Wins {
    pub heroes: Rate,
    pub overmind: Rate,
}

#[derive(Serialize)]
pub struct Rounds {
    pub mean: f64,
    pub min: u32,
    pub max: u32,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

//! What a simulation ends with: each run's totals, and what every run of it shares.

use crate::stats::Totals;
use overmind_core::ai::Levels;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What every run of one simulation shares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Meta {
    /// The mission as a save names it (an id, or an absolute path).
    pub(super) mission: String,
    /// Games of the whole run (of every slice).
    pub(super) games: u64,
    pub(super) first_seed: u64,
    pub(super) levels: Levels,
}

/// One run's totals over the seeds it played, and what it took.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// Pack directories in load order, the base pack first.
    pub packs: Vec<PathBuf>,
    pub totals: Totals,
    pub jobs: usize,
    pub seconds: f64,
    pub cpu_seconds: f64,
}

/// The run with the compared pack.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Compared {
    /// The pack added.
    pub pack: PathBuf,
    /// When the mission needs the pack: the `compare:` line saying what was compared. `None`
    /// when the mission is played without the pack and with it.
    pub comparison: Option<String>,
    /// Every item the run without the pack leaves out, as `kind id` (`behaviour lunge`,
    /// `card swarm2`, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
    pub run: Run,
}

/// A whole simulation: one run, or two with `--compare`.
pub(super) struct Outcome {
    pub(super) meta: Meta,
    pub(super) base: Run,
    pub(super) compare: Option<Compared>,
}

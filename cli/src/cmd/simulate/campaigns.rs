//! `simulate --campaign CAMPAIGN --games N`: whole campaigns AI against AI on `--jobs` threads
//! (docs/RULES.md §16): who wins them, and how each campaign mission went.

use super::args::Args;
use crate::campaign::{campaign_winner, play_ai_campaign};
use crate::error::CliError;
use crate::packs;
use overmind_core::ai::Levels;
use overmind_core::data::campaign::Played;
use overmind_core::{Campaign, Side};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// How one campaign mission went over the run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MissionLine {
    pub id: String,
    pub mission: String,
    /// Campaigns that played it.
    pub played: u64,
    pub heroes_wins: u64,
    pub overmind_wins: u64,
    /// Mean rounds when played.
    pub mean_rounds: f64,
}

/// One way through the Mission Book and how often it was taken.
#[derive(Clone, Debug, Serialize)]
pub struct PathLine {
    pub path: Vec<String>,
    pub campaigns: u64,
}

/// The report of `simulate --campaign`.
#[derive(Clone, Debug, Serialize)]
pub struct CampaignReport {
    pub campaign: String,
    pub name: String,
    pub campaigns: u64,
    pub first_seed: u64,
    pub heroes_wins: u64,
    pub overmind_wins: u64,
    /// The Heroes' share of campaigns won, with its 95% interval (Wilson).
    pub heroes_win_rate: f64,
    pub heroes_win_rate_95: [f64; 2],
    pub missions: Vec<MissionLine>,
    pub paths: Vec<PathLine>,
}

/// The Wilson score interval of `k` successes in `n` at 95%.
fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (k, n) = (k as f64, n as f64);
    let z = 1.96_f64;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / d;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Play the campaigns and add them up, in seed order whatever `jobs` is.
///
/// # Errors
/// Pack, campaign or mission problems.
pub fn run(
    args: &Args,
    id: &str,
    dirs: &[PathBuf],
    games: u64,
    jobs: usize,
) -> Result<CampaignReport, CliError> {
    let set = packs::load(dirs)?;
    let campaign = set.campaign(id).map_err(packs::problems)?;
    let levels = Levels {
        heroes: args.heroes_ai,
        overmind: args.overmind_ai,
    };
    let n = usize::try_from(games).unwrap_or(usize::MAX);
    let jobs = jobs.min(n).max(1);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Vec<Played>)>> = Mutex::new(Vec::with_capacity(n));
    let failure: Mutex<Option<CliError>> = Mutex::new(None);
    let fail = |e: CliError| {
        if let Ok(mut f) = failure.lock() {
            f.get_or_insert(e);
        }
    };
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let spawned = std::thread::Builder::new()
                .stack_size(crate::GAME_STACK_BYTES)
                .spawn_scoped(s, || {
                    // A Lua state is not `Send`: each thread loads its own packs.
                    let set = match packs::load(dirs) {
                        Ok(set) => set,
                        Err(e) => return fail(e),
                    };
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= n {
                            break;
                        }
                        let seed = args.seed.wrapping_add(k as u64);
                        match play_ai_campaign(&set, &campaign, seed, levels) {
                            Ok(carry) => mine.push((k, carry.played)),
                            Err(e) => return fail(e),
                        }
                    }
                    if let Ok(mut r) = results.lock() {
                        r.extend(mine);
                    }
                });
            if let Err(e) = spawned {
                fail(CliError::Failed(format!("cannot start a game thread: {e}")));
            }
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(k, _)| *k);
    Ok(add_up(&campaign, id, args.seed, &results))
}

fn add_up(
    campaign: &Campaign,
    id: &str,
    first_seed: u64,
    results: &[(usize, Vec<Played>)],
) -> CampaignReport {
    let mut missions: Vec<MissionLine> = campaign
        .missions
        .iter()
        .map(|m| MissionLine {
            id: m.id.clone(),
            mission: m.mission.clone(),
            ..MissionLine::default()
        })
        .collect();
    let mut rounds = vec![0u64; missions.len()];
    let mut paths: Vec<PathLine> = Vec::new();
    let (mut heroes, mut overmind) = (0, 0);
    for (_, played) in results {
        let carry = overmind_core::Carry {
            played: played.clone(),
            ..Default::default()
        };
        match campaign_winner(&carry) {
            Side::Heroes => heroes += 1,
            Side::Overmind => overmind += 1,
        }
        for p in played {
            if let Some(i) = missions.iter().position(|m| m.id == p.id) {
                let m = &mut missions[i];
                m.played += 1;
                match p.winner {
                    Side::Heroes => m.heroes_wins += 1,
                    Side::Overmind => m.overmind_wins += 1,
                }
                rounds[i] += u64::from(p.rounds);
            }
        }
        let path: Vec<String> = played.iter().map(|p| p.id.clone()).collect();
        match paths.iter_mut().find(|l| l.path == path) {
            Some(l) => l.campaigns += 1,
            None => paths.push(PathLine { path, campaigns: 1 }),
        }
    }
    for (m, r) in missions.iter_mut().zip(&rounds) {
        if m.played > 0 {
            m.mean_rounds = *r as f64 / m.played as f64;
        }
    }
    paths.sort_by(|a, b| b.campaigns.cmp(&a.campaigns).then(a.path.cmp(&b.path)));
    let total = results.len() as u64;
    CampaignReport {
        campaign: id.to_string(),
        name: campaign.name.clone(),
        campaigns: total,
        first_seed,
        heroes_wins: heroes,
        overmind_wins: overmind,
        heroes_win_rate: if total == 0 {
            0.0
        } else {
            heroes as f64 / total as f64
        },
        heroes_win_rate_95: wilson(heroes, total),
        missions,
        paths,
    }
}

impl CampaignReport {
    /// The report as a table.
    #[must_use]
    pub fn text(&self) -> String {
        let pct = |x: f64| format!("{:.1}%", x * 100.0);
        let mut s = format!(
            "campaign {} ({}): {} campaigns, seeds {}..{}\n",
            self.name,
            self.campaign,
            self.campaigns,
            self.first_seed,
            self.first_seed
                .wrapping_add(self.campaigns.saturating_sub(1))
        );
        s.push_str(&format!(
            "campaigns won: Heroes {} ({}, 95% {}..{}), Overmind {}\n\n",
            self.heroes_wins,
            pct(self.heroes_win_rate),
            pct(self.heroes_win_rate_95[0]),
            pct(self.heroes_win_rate_95[1]),
            self.overmind_wins
        ));
        s.push_str(&format!(
            "{:<16} {:<12} {:>7} {:>11} {:>13} {:>7}\n",
            "id", "mission", "played", "heroes won", "overmind won", "rounds"
        ));
        for m in &self.missions {
            s.push_str(&format!(
                "{:<16} {:<12} {:>7} {:>11} {:>13} {:>7.1}\n",
                m.id, m.mission, m.played, m.heroes_wins, m.overmind_wins, m.mean_rounds
            ));
        }
        s.push_str("\npaths through the Mission Book:\n");
        for p in &self.paths {
            s.push_str(&format!("  {:>6}  {}\n", p.campaigns, p.path.join(" -> ")));
        }
        s
    }
}

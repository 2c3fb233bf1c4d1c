//! The command line of `simulate` and `simulate merge`, and `--shard I/N`: a slice of the seeds.

use overmind_core::ai::Level;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "With --shard I/N only the I-th of N slices of the seeds is played (seed s \
    belongs to slice ((s - S) mod N) + 1) and a mergeable JSON report is written, to standard \
    output or to --out FILE; `overmind simulate merge FILE...` adds the N reports up and prints \
    what one run over all the seeds prints."
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Sub>,
    /// How many games.
    #[arg(long, value_name = "N", required = true)]
    pub games: Option<u64>,
    /// Threads (default: every core).
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// The first game's seed; game i plays seed S+i.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// The mission: a pack's mission id or a mission file.
    #[arg(long, value_name = "ID|PATH", default_value = "demo")]
    pub mission: String,
    /// An expansion pack, loaded after the base pack (repeatable).
    #[arg(long = "pack", value_name = "DIR")]
    pub packs: Vec<PathBuf>,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Play the same seeds again with this pack added, and report the difference. When the
    /// mission needs the pack, both runs play it, without and with the pack's behaviours.
    #[arg(long, value_name = "DIR")]
    pub compare: Option<PathBuf>,
    /// Play the same seeds again without this item, loaded from the packs: a behaviour (its
    /// alien types fall back to their other behaviours), a card, a token kind (its tokens do
    /// nothing), an ability or a rule (their hooks do not run); report the difference in the
    /// Heroes' win rate and in each side's damage, with 95% intervals (repeatable: each item
    /// on its own).
    #[arg(long = "compare-item", value_name = "ID", conflicts_with_all = ["compare", "shard"])]
    pub compare_item: Vec<String>,
    /// Play whole campaigns (a pack's campaign id or a campaign file) instead of one mission,
    /// game i from seed S+i, and report who wins them and how each mission went.
    #[arg(long, value_name = "ID|PATH", conflicts_with_all = ["compare", "compare_item", "shard", "html", "mission"])]
    pub campaign: Option<String>,
    /// How well the AI plays the Overmind: greedy, standard or strong.
    #[arg(long = "overmind-ai", value_name = "LEVEL", default_value_t = Level::Standard)]
    pub overmind_ai: Level,
    /// How well the AI plays the Heroes: greedy, standard or strong.
    #[arg(long = "heroes-ai", value_name = "LEVEL", default_value_t = Level::Standard)]
    pub heroes_ai: Level,
    /// Play only the I-th of N slices of the seeds (1 ≤ I ≤ N ≤ 100000) and write that slice's
    /// mergeable JSON report.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Write the shard's report to FILE (atomically: a temporary file beside it, renamed).
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub out: Option<PathBuf>,
    /// Also write the report as one self-contained HTML page of charts (both runs of a
    /// --compare on the same axes).
    #[arg(long, value_name = "OUT.html", conflicts_with = "shard")]
    pub html: Option<PathBuf>,
}

#[derive(clap::Subcommand, Debug)]
pub enum Sub {
    /// Add up the reports of `simulate --shard I/N` (every I from 1 to N, once each) and print
    /// what one `simulate` over all the seeds prints (the timings are the shards' sums).
    Merge(MergeArgs),
}

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The shards' reports.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// The most slices `--shard` cuts the seeds into.
pub const MAX_SHARDS: u64 = 100_000;

/// One slice of the seeds: the `index`-th (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub(super) const ALL: Shard = Shard { index: 1, count: 1 };

    /// How many of `games` games fall in this slice.
    pub(super) fn games(self, games: u64) -> u64 {
        let first = self.index - 1;
        if games > first {
            (games - first - 1) / self.count + 1
        } else {
            0
        }
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let expected = "expected I/N, the I-th of N slices of the seeds (for instance 2/8)";
        let Some((i, n)) = s.split_once('/') else {
            return Err(format!("`{s}` is not I/N: {expected}"));
        };
        let number = |x: &str, what: &str| {
            x.trim()
                .parse::<u64>()
                .map_err(|_| format!("{what} `{x}` is not a whole number: {expected}"))
        };
        let (index, count) = (number(i, "I")?, number(n, "N")?);
        if count == 0 || count > MAX_SHARDS {
            return Err(format!(
                "N must be 1 to {MAX_SHARDS}, found {count}: {expected}"
            ));
        }
        if index == 0 || index > count {
            return Err(format!(
                "I must be 1 to N ({count}), found {index}: {expected}"
            ));
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_range_checked() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(
            "100000/100000".parse::<Shard>().map(|s| s.count),
            Ok(100_000)
        );
        for bad in [
            "0/3", "4/3", "1/0", "1/100001", "x/3", "2", "2/3/4", "-1/3", "",
        ] {
            let e = bad.parse::<Shard>().expect_err(bad);
            assert!(e.contains("I/N"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_slices_cover_every_game_once() {
        for games in [1u64, 2, 7, 24, 25] {
            for count in 1..=30 {
                let total: u64 = (1..=count)
                    .map(|index| Shard { index, count }.games(games))
                    .sum();
                assert_eq!(total, games, "{games} games in {count} slices");
            }
        }
        assert_eq!(Shard { index: 3, count: 3 }.games(24), 8);
        assert_eq!(Shard { index: 3, count: 3 }.games(2), 0);
    }
}

//! Campaigns at the host (docs/RULES.md §16): a campaign's save, each mission's seed, the
//! Resolution Phase with the packs' `resolution` hooks, and what players are told between
//! missions.

use crate::error::CliError;
use crate::json_file;
use crate::packs::{self, PackSet};
use crate::save::Save;
use overmind_core::campaign::resolve;
use overmind_core::data::campaign::Played;
use overmind_core::{Campaign, CampaignMission, Carry, Game, Side};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The campaign save format's version.
pub const VERSION: u32 = 1;
/// Longest campaign save read: its mission in progress is a save of its own.
const MAX_BYTES: u64 = 64 << 20;

/// A campaign saved between missions or within one: enough to go on exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignSave {
    pub version: u32,
    /// Always `"campaign"`, so a game's save is not taken for one.
    pub kind: String,
    /// The campaign as given: a pack's campaign id, or a path.
    pub campaign: String,
    /// Pack directories in load order, the base pack first (absolute).
    pub packs: Vec<PathBuf>,
    /// The campaign's seed: mission n plays [`mission_seed`] of it.
    pub seed: u64,
    /// The campaign mission to play next; `None` once the campaign is over.
    pub at: Option<String>,
    /// What the missions played so far carry into the next.
    pub carry: Carry,
    /// The mission in progress, saved within it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<Save>,
}

impl CampaignSave {
    /// A campaign about to play its first mission.
    #[must_use]
    pub fn new(campaign: &str, c: &Campaign, packs: Vec<PathBuf>, seed: u64) -> CampaignSave {
        CampaignSave {
            version: VERSION,
            kind: "campaign".into(),
            campaign: campaign.to_string(),
            packs,
            seed,
            at: c.first().map(|m| m.id.clone()),
            carry: Carry::default(),
            game: None,
        }
    }

    /// Write atomically, only ever a regular file (as a game's save is written).
    ///
    /// # Errors
    /// The file cannot be written, or is not a regular file; the message names it.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let mut text =
            serde_json::to_string_pretty(self).map_err(|e| format!("{}: {e}", path.display()))?;
        text.push('\n');
        crate::save::write_regular(path, &text, "cannot save to", "a campaign save")
    }

    /// Read and check a campaign save.
    ///
    /// # Errors
    /// `path:line:column: message` for a file that is not a campaign save this build reads.
    pub fn read(path: &Path) -> Result<CampaignSave, CliError> {
        let text = json_file::read_text(path, MAX_BYTES, "a campaign save")?;
        let value: serde_json::Value = json_file::parse(path, &text)?;
        if value.get("kind").and_then(serde_json::Value::as_str) != Some("campaign") {
            return Err(json_file::problem(
                path,
                (1, 1),
                "not a campaign save (expected \"kind\": \"campaign\"; a game's save is \
                 continued with `overmind play --load`)",
            ));
        }
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(v) if v == u64::from(VERSION) => {}
            _ => {
                return Err(json_file::problem(
                    path,
                    json_file::position_of(&text, "\"version\""),
                    &format!("expected campaign save version {VERSION}"),
                ))
            }
        }
        let save: CampaignSave = json_file::parse(path, &text)?;
        if let Some(g) = &save.game {
            // The mission in progress is held to a game save's checks.
            let inner = serde_json::to_string(g).map_err(|e| CliError::Failed(e.to_string()))?;
            Save::parse(path, &inner)?;
        }
        Ok(save)
    }
}

/// The seed of the campaign's `n`-th mission (0 the first): a campaign replays from its seed.
#[must_use]
pub fn mission_seed(seed: u64, n: usize) -> u64 {
    seed ^ (n as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// What the Resolution Phase after a mission did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub carry: Carry,
    pub lines: Vec<String>,
    pub winner: Side,
    /// The campaign mission after it, if any.
    pub next: Option<String>,
}

/// The Resolution Phase after campaign mission `at` (docs/RULES.md §16.2): the core's rules,
/// then each pack's `resolution` hooks in load order, then the Overmind's new Upgrade Nodes
/// spent.
///
/// # Errors
/// The mission cannot be read again.
pub fn resolution(
    set: &PackSet,
    campaign: &Campaign,
    at: &CampaignMission,
    carry: &Carry,
    game: &Game,
    seed: u64,
) -> Result<Resolved, CliError> {
    let setup = set.setup(&at.mission).map_err(packs::problems)?;
    let mut r = resolve(campaign, at, carry, &setup, game, &set.content, seed);
    let winner = game
        .state
        .outcome
        .as_ref()
        .map_or(Side::Overmind, |o| o.winner);
    for line in set.run_resolution(campaign, at, &mut r.carry, game) {
        r.lines.push(line);
    }
    for u in r.carry.buy(campaign) {
        r.lines
            .push(format!("the Overmind's Upgrade Node buys {}", u.describe()));
    }
    Ok(Resolved {
        carry: r.carry,
        lines: r.lines,
        winner,
        next: at.next(winner).map(str::to_string),
    })
}

/// A Hero as the campaign carries it, for players.
#[derive(Clone, Debug, Serialize)]
pub struct HeroLine {
    pub profile: String,
    pub health: u32,
    pub xp: u32,
    pub level: u32,
    pub items: Vec<String>,
}

fn heroes(carry: &Carry) -> Vec<HeroLine> {
    carry
        .heroes
        .iter()
        .map(|(p, h)| HeroLine {
            profile: p.clone(),
            health: h.health,
            xp: h.xp,
            level: h.level(),
            items: h.items.clone(),
        })
        .collect()
}

/// A mission played, as players are told it: without its seed, from which the Heroes could
/// work out what the next missions' Blips hold.
#[derive(Clone, Debug, Serialize)]
pub struct PlayedLine {
    pub id: String,
    pub winner: Side,
    pub reason: String,
    pub rounds: u32,
}

impl From<&Played> for PlayedLine {
    fn from(p: &Played) -> PlayedLine {
        PlayedLine {
            id: p.id.clone(),
            winner: p.winner,
            reason: p.reason.clone(),
            rounds: p.rounds,
        }
    }
}

/// What players are told between missions: one JSON line each in `--json`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum News {
    /// A mission of the campaign begins, with what the campaign carries into it.
    CampaignMission {
        campaign: String,
        /// 1 for the first mission played.
        number: usize,
        id: String,
        mission: String,
        heroes: Vec<HeroLine>,
        upgrade_nodes: u32,
        upgrades: Vec<String>,
    },
    /// The Resolution Phase after a mission.
    Resolution {
        id: String,
        winner: Side,
        lines: Vec<String>,
        heroes: Vec<HeroLine>,
        upgrade_nodes: u32,
        next: Option<String>,
    },
    /// The campaign is over: the winner of its last mission wins it.
    CampaignOver {
        campaign: String,
        winner: Side,
        missions: Vec<PlayedLine>,
    },
}

impl News {
    /// A mission about to begin.
    #[must_use]
    pub fn mission(c: &Campaign, at: &CampaignMission, carry: &Carry) -> News {
        News::CampaignMission {
            campaign: c.name.clone(),
            number: carry.played.len() + 1,
            id: at.id.clone(),
            mission: at.mission.clone(),
            heroes: heroes(carry),
            upgrade_nodes: carry.upgrade_nodes,
            upgrades: carry.upgrades.iter().map(|u| u.describe()).collect(),
        }
    }

    /// A mission's Resolution Phase.
    #[must_use]
    pub fn resolved(at: &CampaignMission, r: &Resolved) -> News {
        News::Resolution {
            id: at.id.clone(),
            winner: r.winner,
            lines: r.lines.clone(),
            heroes: heroes(&r.carry),
            upgrade_nodes: r.carry.upgrade_nodes,
            next: r.next.clone(),
        }
    }

    /// The campaign's end.
    #[must_use]
    pub fn over(c: &Campaign, carry: &Carry) -> News {
        News::CampaignOver {
            campaign: c.name.clone(),
            winner: campaign_winner(carry),
            missions: carry.played.iter().map(PlayedLine::from).collect(),
        }
    }

    /// As a person reads it.
    #[must_use]
    pub fn text(&self) -> String {
        let side = |s: &Side| match s {
            Side::Heroes => "the Heroes",
            Side::Overmind => "the Overmind",
        };
        let hero_lines = |hs: &[HeroLine]| -> String {
            hs.iter()
                .map(|h| {
                    let items = if h.items.is_empty() {
                        String::new()
                    } else {
                        format!(", carrying {}", h.items.join(", "))
                    };
                    format!(
                        "  {}: {} Health, {} XP, level {}{items}\n",
                        h.profile, h.health, h.xp, h.level
                    )
                })
                .collect()
        };
        match self {
            News::CampaignMission {
                campaign,
                number,
                id,
                mission,
                heroes,
                upgrade_nodes,
                upgrades,
            } => {
                let mut s = format!("== {campaign}, mission {number}: {id} ({mission}) ==\n");
                s.push_str(&hero_lines(heroes));
                if *upgrade_nodes > 0 {
                    s.push_str(&format!(
                        "  the Overmind holds {upgrade_nodes} Upgrade Node(s): {}\n",
                        upgrades.join(", ")
                    ));
                }
                s
            }
            News::Resolution {
                id,
                winner,
                lines,
                next,
                ..
            } => {
                let mut s = format!("== Resolution Phase after {id}: {} won ==\n", side(winner));
                for l in lines {
                    s.push_str(&format!("  {l}\n"));
                }
                match next {
                    Some(n) => s.push_str(&format!("  next mission: {n}\n")),
                    None => s.push_str("  the campaign ends here\n"),
                }
                s
            }
            News::CampaignOver {
                campaign,
                winner,
                missions,
            } => {
                let mut s = format!("== {campaign} is over: {} win it ==\n", side(winner));
                for (i, m) in missions.iter().enumerate() {
                    s.push_str(&format!(
                        "  {}. {}: {} won in {} rounds ({})\n",
                        i + 1,
                        m.id,
                        side(&m.winner),
                        m.rounds,
                        m.reason
                    ));
                }
                s
            }
        }
    }
}

/// Who won a finished campaign: the winner of its last mission (the Mission Book's final
/// mission decides, docs/RULES.md §16.1).
#[must_use]
pub fn campaign_winner(carry: &Carry) -> Side {
    carry.played.last().map_or(Side::Overmind, |p| p.winner)
}

/// Most actions one mission of an AI campaign plays before it counts as unfinished.
const MAX_AI_ACTIONS: usize = 20_000;

/// A whole campaign played AI against AI from `seed`: what it carried at its end (its
/// `played` list is every mission's result, in order).
///
/// # Errors
/// A mission that does not start, or cannot be read again for its Resolution Phase.
pub fn play_ai_campaign(
    set: &PackSet,
    campaign: &Campaign,
    seed: u64,
    levels: overmind_core::ai::Levels,
) -> Result<Carry, CliError> {
    let mut carry = Carry::default();
    let mut at = campaign.first();
    while let Some(m) = at {
        let seed = mission_seed(seed, carry.played.len());
        let mut game = set
            .start_carrying(&m.mission, seed, Some(&carry))
            .map_err(packs::problems)?;
        overmind_core::ai::play_ai_game_at(&mut game, &set.content, MAX_AI_ACTIONS, levels);
        let r = resolution(set, campaign, m, &carry, &game, seed)?;
        carry = r.carry;
        at = r.next.as_deref().and_then(|n| campaign.mission(n));
    }
    Ok(carry)
}

//! Campaign files (`campaigns/*.toml`, docs/RULES.md §16): read, checked against the loaded
//! packs, every problem at its `path:line:column`.

use crate::pack::PackSet;
use crate::problem::Problem;
use overmind_core::{Campaign, CampaignMission, Upgrade};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// A campaign file as written: its id is the file's stem.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CampaignFile {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    items: Vec<String>,
    #[serde(default)]
    upgrades: Vec<Upgrade>,
    missions: Vec<MissionFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MissionFile {
    id: String,
    /// The loaded mission played; the campaign mission's id when left out.
    #[serde(default)]
    mission: Option<String>,
    #[serde(default)]
    if_heroes_win: Option<String>,
    #[serde(default)]
    if_overmind_wins: Option<String>,
}

/// Where a key of [`Campaign::problems`] is written: `missions[i].key` and `upgrades[i].key`
/// in the i-th table of their array, `items[i]` at `items`, else the top-level key.
fn key_position(text: &str, key: &str) -> (usize, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let find = |from: usize, name: &str| -> Option<(usize, usize)> {
        lines.iter().enumerate().skip(from).find_map(|(n, l)| {
            let t = l.trim_start();
            let rest = t.strip_prefix(name)?;
            let rest = rest.trim_start();
            (rest.starts_with('=')).then(|| (n + 1, l.len() - t.len() + 1))
        })
    };
    let (head, field) = key.split_once('.').unwrap_or((key, ""));
    let (array, index) = match head.split_once('[') {
        Some((a, i)) => (a, i.trim_end_matches(']').parse::<usize>().ok()),
        None => (head, None),
    };
    let header = format!("[[{array}]]");
    let table = index.and_then(|i| {
        lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.trim() == header)
            .nth(i)
            .map(|(n, _)| n)
    });
    match (table, field) {
        (Some(t), "") => (t + 1, 1),
        (Some(t), f) => find(t + 1, f).unwrap_or((t + 1, 1)),
        (None, _) => find(0, array).unwrap_or((1, 1)),
    }
}

/// Parse a campaign file of id `id`.
///
/// # Errors
/// Every problem of its keys and values.
pub fn campaign_from_toml(id: &str, path: &Path, text: &str) -> Result<Campaign, Vec<Problem>> {
    let file: CampaignFile = toml::from_str(text).map_err(|e| {
        let (line, column) = e
            .span()
            .map_or((1, 1), |s| overmind_core::source::line_col(text, s.start));
        vec![Problem::new(path, line, column, e.message().trim())]
    })?;
    Ok(Campaign {
        id: id.to_string(),
        name: file.name,
        description: file.description,
        items: file.items,
        upgrades: file.upgrades,
        missions: file
            .missions
            .into_iter()
            .map(|m| CampaignMission {
                mission: m.mission.unwrap_or_else(|| m.id.clone()),
                id: m.id,
                if_heroes_win: m.if_heroes_win,
                if_overmind_wins: m.if_overmind_wins,
            })
            .collect(),
    })
}

impl PackSet {
    /// The file of campaign `id_or_path`: a pack's campaign id, or a path.
    ///
    /// # Errors
    /// No such campaign, naming the loaded ones.
    pub fn campaign_path(&self, id_or_path: &str) -> Result<PathBuf, Problem> {
        if let Some(p) = self.campaigns.get(id_or_path) {
            return Ok(p.clone());
        }
        let p = PathBuf::from(id_or_path);
        if p.is_file() {
            return Ok(p);
        }
        let known: Vec<&str> = self.campaigns.keys().map(String::as_str).collect();
        Err(Problem::new(
            &p,
            0,
            0,
            if known.is_empty() {
                format!("no campaign {id_or_path:?}: the loaded packs have none")
            } else {
                format!(
                    "no campaign {id_or_path:?}: give a path or one of {}",
                    known.join(", ")
                )
            },
        ))
    }

    /// Read and check campaign `id_or_path` against these packs: its missions loaded, its
    /// Mission Book ending, its Items and upgrades known.
    ///
    /// # Errors
    /// Every problem, each at its `path:line:column`.
    pub fn campaign(&self, id_or_path: &str) -> Result<Campaign, Vec<Problem>> {
        let path = self.campaign_path(id_or_path).map_err(|p| vec![p])?;
        let mut problems = Vec::new();
        let Some(text) = crate::pack::read_data(&path, &mut problems) else {
            return Err(problems);
        };
        let id = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(id_or_path)
            .to_string();
        let c = campaign_from_toml(&id, &path, &text)?;
        let has = |m: &str| self.missions.contains_key(m);
        let found = c.problems(&self.content, &has);
        if found.is_empty() {
            return Ok(c);
        }
        let mut out: Vec<Problem> = found
            .into_iter()
            .map(|(key, message)| {
                let (l, col) = key_position(&text, &key);
                Problem::new(&path, l, col, format!("{key}: {message}"))
            })
            .collect();
        out.sort_by_key(|p| (p.line, p.column));
        Err(out)
    }

    /// Every campaign of every pack, checked.
    #[must_use]
    pub fn check_campaigns(&self) -> Vec<Problem> {
        self.campaigns
            .keys()
            .filter_map(|id| self.campaign(id).err())
            .flatten()
            .collect()
    }
}

/// Most lines one `resolution` hook adds to the Resolution Phase's report, and their length.
const MAX_LOG_LINES: usize = 20;
const MAX_LOG_CHARS: usize = 200;

/// The number at `key` of `t`: an integer from `low` to `high`.
fn number(t: &mlua::Table, at: &str, low: u32, high: u32) -> Result<u32, String> {
    match t.raw_get::<mlua::Value>(at.rsplit('.').next().unwrap_or(at)) {
        Ok(mlua::Value::Integer(n)) if (i64::from(low)..=i64::from(high)).contains(&n) => {
            Ok(n as u32)
        }
        Ok(mlua::Value::Number(x))
            if x.fract() == 0.0 && (f64::from(low)..=f64::from(high)).contains(&x) =>
        {
            Ok(x as u32)
        }
        Ok(v) => Err(format!(
            "r.{at}: expected an integer from {low} to {high}, found {}",
            crate::api::args::describe(&v)
        )),
        Err(e) => Err(format!("r.{at}: {e}")),
    }
}

impl PackSet {
    /// The Resolution Phase's `resolution` hooks of the packs' rules (`trigger { ... }`), in id
    /// order, each given `r` (the mission's result and what the campaign now carries) and its
    /// changes read back and checked: Health 1 to the profile's, XP 0 to 1000, Items loaded
    /// Item kinds (at most 6 a Hero), Upgrade Nodes 0 to 32. A hook that fails, or leaves a
    /// value out of range, changes nothing; the report says why, naming the script. Gives the
    /// report's lines.
    pub fn run_resolution(
        &self,
        campaign: &Campaign,
        at: &CampaignMission,
        carry: &mut overmind_core::Carry,
        game: &overmind_core::Game,
    ) -> Vec<String> {
        use overmind_core::data::campaign::{MAX_ITEMS, MAX_NODES, MAX_XP};
        let mut lines = Vec::new();
        let outcome = game.state.outcome.clone();
        for rule in self.game_rules.values() {
            if !rule.hooks.has_resolution() {
                continue;
            }
            let before = carry.clone();
            let make = |lua: &mlua::Lua| -> mlua::Result<mlua::Table> {
                let r = lua.create_table()?;
                r.raw_set("campaign", campaign.id.as_str())?;
                r.raw_set("mission", at.id.as_str())?;
                if let Some(o) = &outcome {
                    r.raw_set("winner", o.winner.name())?;
                    r.raw_set("reason", o.reason.as_str())?;
                }
                r.raw_set("rounds", game.state.round)?;
                r.raw_set("upgrade_nodes", before.upgrade_nodes)?;
                let heroes = lua.create_table()?;
                for (profile, h) in &before.heroes {
                    let t = lua.create_table()?;
                    t.raw_set("health", h.health)?;
                    let max = self.content.heroes.get(profile).map_or(1, |p| p.health);
                    t.raw_set("max_health", max)?;
                    t.raw_set("xp", h.xp)?;
                    t.raw_set("level", h.level())?;
                    t.raw_set("items", lua.create_sequence_from(h.items.iter().cloned())?)?;
                    heroes.raw_set(profile.as_str(), t)?;
                }
                r.raw_set("heroes", heroes)?;
                r.raw_set("log", lua.create_table()?)?;
                Ok(r)
            };
            let read = |r: &mlua::Table| -> Result<(overmind_core::Carry, Vec<String>), String> {
                let mut next = before.clone();
                next.upgrade_nodes = number(r, "upgrade_nodes", 0, MAX_NODES)?;
                let heroes: mlua::Table = r
                    .raw_get("heroes")
                    .map_err(|_| "r.heroes: expected a table".to_string())?;
                for (profile, h) in &mut next.heroes {
                    let at = format!("heroes.{profile}");
                    let t: mlua::Table = heroes
                        .raw_get(profile.as_str())
                        .map_err(|_| format!("r.{at}: expected a table"))?;
                    let max = self
                        .content
                        .heroes
                        .get(profile)
                        .map_or(1, |p| p.health.max(1));
                    h.health = number(&t, &format!("{at}.health"), 1, max)?;
                    h.xp = number(&t, &format!("{at}.xp"), 0, MAX_XP)?;
                    let items: mlua::Table = t
                        .raw_get("items")
                        .map_err(|_| format!("r.{at}.items: expected a list of Item kinds"))?;
                    let n = items.raw_len();
                    if n > MAX_ITEMS {
                        return Err(format!(
                            "r.{at}.items: expected at most {MAX_ITEMS} Items, found {n}"
                        ));
                    }
                    h.items.clear();
                    for i in 1..=n {
                        let kind: String = items.raw_get(i).map_err(|_| {
                            format!("r.{at}.items[{i}]: expected an Item kind's id")
                        })?;
                        let item = self
                            .content
                            .tokens
                            .get(&kind)
                            .is_some_and(|k| k.class == overmind_core::token::TokenClass::Item);
                        if !item {
                            return Err(format!(
                                "r.{at}.items[{i}]: no Item token kind {kind:?} is loaded"
                            ));
                        }
                        h.items.push(kind);
                    }
                }
                let log: mlua::Table = r
                    .raw_get("log")
                    .map_err(|_| "r.log: expected a list of lines".to_string())?;
                let mut said = Vec::new();
                for i in 1..=log.raw_len().min(MAX_LOG_LINES) {
                    if let Ok(line) = log.raw_get::<String>(i) {
                        let line: String = line.chars().take(MAX_LOG_CHARS).collect();
                        said.push(overmind_core::source::escape_controls(&line).into_owned());
                    }
                }
                Ok((next, said))
            };
            match rule
                .hooks
                .run_resolution(&self.host, self.rules.lua_instructions, make, read)
            {
                Ok((next, said)) => {
                    *carry = next;
                    lines.extend(said.into_iter().map(|l| format!("{}: {l}", rule.id)));
                }
                Err(m) => lines.push(format!(
                    "resolution hook of {} failed, and changed nothing: {m}",
                    rule.id
                )),
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_found_in_its_table() {
        let text = "name = \"x\"\n[[missions]]\nid = \"a\"\n[[missions]]\nid = \"b\"\n  if_heroes_win = \"z\"\n";
        assert_eq!(key_position(text, "missions[1].if_heroes_win"), (6, 3));
        assert_eq!(key_position(text, "missions[0]"), (2, 1));
        assert_eq!(key_position(text, "name"), (1, 1));
    }

    #[test]
    fn an_unknown_key_is_placed() {
        let e = campaign_from_toml("c", Path::new("c.toml"), "name = \"x\"\nmisions = []\n")
            .expect_err("refused");
        assert_eq!((e[0].line, e[0].column), (2, 1));
        assert!(e[0].message.contains("misions"), "{}", e[0].message);
    }
}

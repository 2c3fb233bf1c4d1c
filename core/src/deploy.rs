//! From a parsed mission file to a game [`Setup`]: hero profiles, Blip contents, the pool,
//! Decoys, the objective, the round limit and rule overrides (docs/MISSIONS.md).

use crate::mission::{ErrorKind, Mission, MissionError, MissionErrors, Placement};
use crate::profile::find_key;
use crate::rules::Rules;
use crate::setup::{BlipSetup, HeroSetup, PoolEntry, Setup};
use crate::state::{Contents, Objective};
use serde::Deserialize;

fn err(m: &Mission, line: usize, column: usize, message: String) -> MissionError {
    MissionError {
        path: m.path.clone(),
        line,
        column,
        kind: ErrorKind::Schema,
        message,
    }
}

fn str_field(p: &Placement, key: &str) -> Result<Option<String>, String> {
    match p.extra.get(key) {
        None => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s.clone())),
        Some(v) => Err(format!("{key}: expected a string, found {}", v.type_str())),
    }
}

fn int_field(p: &Placement, key: &str) -> Result<Option<u32>, String> {
    match p.extra.get(key) {
        None => Ok(None),
        Some(toml::Value::Integer(i)) if (1..=99).contains(i) => Ok(Some(*i as u32)),
        Some(v) => Err(format!(
            "{key}: expected a whole number from 1 to 99, found {v}"
        )),
    }
}

/// Deserialize one top-level key of the mission's extra table.
fn key<T: for<'de> Deserialize<'de>>(
    m: &Mission,
    text: &str,
    name: &str,
    errors: &mut Vec<MissionError>,
) -> Option<T> {
    let v = m.extra.get(name)?;
    match v.clone().try_into::<T>() {
        Ok(t) => Some(t),
        Err(e) => {
            let (l, c) = find_key(text, name);
            errors.push(err(m, l, c, format!("{name}: {}", e.message().trim())));
            None
        }
    }
}

impl Mission {
    /// The game setup this mission describes, over the pack's `rules`. `text` is the mission
    /// file's text, for error positions.
    ///
    /// # Errors
    /// Every problem, each naming `path:line:column`.
    pub fn setup(&self, text: &str, rules: &Rules) -> Result<Setup, MissionErrors> {
        let mut errors = Vec::new();
        let mut heroes = Vec::new();
        for h in &self.heroes {
            match str_field(h, "profile") {
                Ok(Some(profile)) => heroes.push(HeroSetup {
                    id: h.id.clone(),
                    profile,
                    at: h.at,
                }),
                Ok(None) => errors.push(err(
                    self,
                    h.line,
                    1,
                    format!(
                        "hero {}: missing `profile` (the id of a heroes/*.toml profile)",
                        h.id
                    ),
                )),
                Err(e) => errors.push(err(self, h.line, 1, format!("hero {}: {e}", h.id))),
            }
        }
        let mut blips = Vec::new();
        for b in &self.blips {
            let holds = str_field(b, "holds");
            let size = int_field(b, "size");
            let leader = str_field(b, "leader");
            let contents = match (holds, size, leader) {
                (Ok(None), _, _) => None,
                (Ok(Some(h)), _, _) if h == "decoy" => Some(Contents::Decoy),
                (Ok(Some(type_id)), Ok(size), Ok(leader)) => Some(Contents::Unit {
                    type_id,
                    size: size.unwrap_or(1),
                    leader,
                }),
                (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                    errors.push(err(self, b.line, 1, format!("blip {}: {e}", b.id)));
                    None
                }
            };
            blips.push(BlipSetup {
                id: b.id.clone(),
                at: b.at,
                contents,
            });
        }
        let pool: Vec<PoolEntry> = key(self, text, "pool", &mut errors).unwrap_or_default();
        let decoys: Option<u32> = key(self, text, "decoys", &mut errors);
        let objective: Objective =
            key(self, text, "objective", &mut errors).unwrap_or(Objective::Eliminate);
        let max_rounds: Option<u32> = key(self, text, "max_rounds", &mut errors);
        if max_rounds == Some(0) {
            let (l, c) = find_key(text, "max_rounds");
            errors.push(err(self, l, c, "max_rounds: expected at least 1".into()));
        }
        // Mission rule overrides sit on top of the pack's rules.
        let mut merged = rules.clone();
        if let Some(over) = self.extra.get("rules") {
            let base = toml::Value::try_from(rules).ok();
            match (base, over) {
                (Some(toml::Value::Table(mut base)), toml::Value::Table(over)) => {
                    for (k, v) in over {
                        base.insert(k.clone(), v.clone());
                    }
                    match toml::Value::Table(base).try_into::<Rules>() {
                        Ok(r) => merged = r,
                        Err(e) => {
                            let (l, c) = find_key(text, "rules");
                            errors.push(err(self, l, c, format!("rules: {}", e.message().trim())));
                        }
                    }
                }
                _ => {
                    let (l, c) = find_key(text, "rules");
                    errors.push(err(
                        self,
                        l,
                        c,
                        "rules: expected a table of rule settings".into(),
                    ));
                }
            }
        }
        for p in merged.validate() {
            let (l, c) = find_key(text, "rules");
            errors.push(err(self, l, c, format!("rules: {p}")));
        }
        let known = [
            "pool",
            "decoys",
            "objective",
            "max_rounds",
            "rules",
            "description",
        ];
        for k in self.extra.keys() {
            if !known.contains(&k.as_str()) {
                let (l, c) = find_key(text, k);
                errors.push(err(
                    self,
                    l,
                    c,
                    format!(
                        "unknown key `{k}`; expected one of name, map, heroes, blips, {}",
                        known.join(", ")
                    ),
                ));
            }
        }
        if !errors.is_empty() {
            return Err(MissionErrors(errors));
        }
        Ok(Setup {
            name: self.name.clone(),
            map: self.map.clone(),
            rules: merged,
            heroes,
            blips,
            pool,
            decoys,
            objective,
            max_rounds,
        })
    }
}

//! Hero profiles and Alien Types: the stats a unit's models fight with (docs/RULES.md §9).

use serde::{Deserialize, Serialize};

/// One range band of a Shoot attack.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    pub range: u32,
    pub cv: u32,
}

/// Short and long Shoot bands: a target within short range must be shot with the short CV.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shoot {
    pub short: Band,
    pub long: Band,
}

impl Shoot {
    /// The Combat Value at distance `d`, or `None` when out of range.
    #[must_use]
    pub fn cv_at(&self, d: u32) -> Option<u32> {
        if d <= self.short.range {
            Some(self.short.cv)
        } else if d <= self.long.range {
            Some(self.long.cv)
        } else {
            None
        }
    }

    #[must_use]
    pub fn max_range(&self) -> u32 {
        self.long.range.max(self.short.range)
    }
}

/// Special Combat Effects an attack may carry (docs/RULES.md §6.6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    KnockDown,
    PushBack,
    Shaken,
    Stun,
}

/// Stats that change as a Hero's Health dial turns: each step gives the two stats the
/// profile's `dial_stats` name (Melee and Defence unless it says otherwise).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DialStep {
    /// This step applies while Health is at least this.
    pub from: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub melee: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defence: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement: Option<u32>,
}

impl DialStep {
    /// The step's value of `stat`, if it gives one.
    #[must_use]
    pub fn get(&self, stat: crate::data::state::Stat) -> Option<u32> {
        match stat {
            crate::data::state::Stat::Melee => self.melee,
            crate::data::state::Stat::Defence => self.defence,
            crate::data::state::Stat::Movement => self.movement,
            crate::data::state::Stat::Shoot => None,
        }
    }
}

fn default_dial_stats() -> Vec<crate::data::state::Stat> {
    vec![
        crate::data::state::Stat::Melee,
        crate::data::state::Stat::Defence,
    ]
}

fn is_default_dial(v: &[crate::data::state::Stat]) -> bool {
    v == default_dial_stats().as_slice()
}

/// A Hero's card (`heroes/*.toml`). Example numbers unless an owner types in the printed ones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroProfile {
    pub id: String,
    pub name: String,
    #[serde(default = "default_hero_health")]
    pub health: u32,
    pub movement: u32,
    #[serde(default)]
    pub shoot: Option<Shoot>,
    #[serde(default)]
    pub melee_effects: Vec<Effect>,
    #[serde(default)]
    pub shoot_effects: Vec<Effect>,
    /// Health dial, any order; the step with the highest `from` not above current Health
    /// applies.
    pub dial: Vec<DialStep>,
    /// The two stats the dial moves (docs/RULES.md §9.1): `melee`, `defence` or `movement`.
    #[serde(
        default = "default_dial_stats",
        skip_serializing_if = "is_default_dial"
    )]
    pub dial_stats: Vec<crate::data::state::Stat>,
    /// Melee CV when the dial does not move it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub melee: Option<u32>,
    /// Defence CV when the dial does not move it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defence: Option<u32>,
}

fn default_hero_health() -> u32 {
    8
}

impl HeroProfile {
    /// The dial names two different stats of Melee, Defence and Movement; every step gives
    /// exactly those; a stat it does not move and the profile needs (Melee, Defence) is given.
    fn check_dial_stats(&self, p: &mut Vec<String>) {
        use crate::data::state::Stat;
        let names: Vec<&str> = self.dial_stats.iter().map(|s| s.name()).collect();
        if self.dial_stats.len() != 2
            || self.dial_stats[0] == self.dial_stats[1]
            || self.dial_stats.contains(&Stat::Shoot)
        {
            p.push(format!(
                "dial_stats: expected two different stats of melee, defence and movement, found [{}]",
                names.join(", ")
            ));
            return;
        }
        for (i, s) in self.dial.iter().enumerate() {
            for stat in [Stat::Melee, Stat::Defence, Stat::Movement] {
                let named = self.dial_stats.contains(&stat);
                if named != s.get(stat).is_some() {
                    p.push(format!(
                        "dial step {} (from {}): {} `{}` (the dial moves {})",
                        i + 1,
                        s.from,
                        if named { "expected" } else { "unexpected" },
                        stat.name(),
                        names.join(" and ")
                    ));
                }
            }
        }
        for (stat, base) in [(Stat::Melee, self.melee), (Stat::Defence, self.defence)] {
            if !self.dial_stats.contains(&stat) && base.is_none() {
                p.push(format!(
                    "{}: expected a value, since the dial does not move it",
                    stat.name()
                ));
            }
        }
    }

    /// The dial's step at `health`.
    fn step_at(&self, health: u32) -> Option<&DialStep> {
        self.dial
            .iter()
            .filter(|s| s.from <= health)
            .max_by_key(|s| s.from)
            .or_else(|| self.dial.iter().min_by_key(|s| s.from))
    }

    /// Melee and Defence at the given Health (from the dial, or the profile's own when the
    /// dial does not move them).
    #[must_use]
    pub fn dial_at(&self, health: u32) -> (u32, u32) {
        let step = self.step_at(health);
        let melee = step.and_then(|s| s.melee).or(self.melee).unwrap_or(1);
        let defence = step.and_then(|s| s.defence).or(self.defence).unwrap_or(1);
        (melee, defence)
    }

    /// Movement at the given Health: the dial's when it moves Movement, else the profile's.
    #[must_use]
    pub fn movement_at(&self, health: u32) -> u32 {
        self.step_at(health)
            .and_then(|s| s.movement)
            .unwrap_or(self.movement)
    }

    /// Problems with the numbers, each naming the field. The ranges are an Alien Type's
    /// (`scripting`'s `alien_type` shape): Health 1 to 100, Movement 1 to 20, Combat Values 0
    /// to 20, Shoot ranges 0 to 50, at most 100 dial steps.
    pub fn validate(&self) -> Vec<String> {
        let mut p = Vec::new();
        let mut range = |key: &str, v: u32, lo: u32, hi: u32| {
            if !(lo..=hi).contains(&v) {
                p.push(format!("{key}: expected {lo} to {hi}, found {v}"));
            }
        };
        range("health", self.health, 1, 100);
        range("movement", self.movement, 1, 20);
        for s in &self.dial {
            range("dial", s.from, 1, 100);
            for v in [s.melee, s.defence].into_iter().flatten() {
                range("dial", v, 0, 20);
            }
            if let Some(m) = s.movement {
                range("dial", m, 1, 20);
            }
        }
        for v in [self.melee, self.defence].into_iter().flatten() {
            range("melee/defence", v, 0, 20);
        }
        if let Some(s) = &self.shoot {
            range("shoot", s.short.range, 0, 50);
            range("shoot", s.long.range, 0, 50);
            range("shoot", s.short.cv, 0, 20);
            range("shoot", s.long.cv, 0, 20);
        }
        if self.dial.is_empty() {
            p.push("dial: expected at least one step".into());
        }
        if self.dial.len() > 100 {
            p.push(format!(
                "dial: expected at most 100 steps, found {}",
                self.dial.len()
            ));
        }
        if let Some(s) = &self.shoot {
            if s.short.range > s.long.range {
                p.push("shoot: short range must not exceed long range".into());
            }
        }
        self.check_dial_stats(&mut p);
        p
    }
}

/// How a Blip's unit is made up: up to `max` models of the type, optionally led by one model of
/// another type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Makeup {
    pub max: u32,
    #[serde(default)]
    pub leader: Option<String>,
}

/// An Alien Type (filled from a Lua script by the `scripting` crate).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlienType {
    pub id: String,
    pub name: String,
    pub unit: Makeup,
    pub movement: u32,
    pub melee: u32,
    pub defence: u32,
    pub health: u32,
    #[serde(default)]
    pub fear: u32,
    #[serde(default)]
    pub shoot: Option<Shoot>,
    #[serde(default)]
    pub melee_effects: Vec<Effect>,
    #[serde(default)]
    pub shoot_effects: Vec<Effect>,
    /// Ids of the Alien Behaviours this type may perform.
    #[serde(default)]
    pub behaviours: Vec<String>,
    /// XXL models fill 2×2 squares (docs/RULES.md §4.4).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub xxl: bool,
}

impl AlienType {
    /// Problems with the numbers, each naming the field.
    pub fn validate(&self) -> Vec<String> {
        let mut p = Vec::new();
        if self.health == 0 {
            p.push("health: expected at least 1".into());
        }
        if self.unit.max == 0 || self.unit.max > 12 {
            p.push(format!(
                "unit.max: expected 1 to 12, found {}",
                self.unit.max
            ));
        }
        if self.movement > 20 {
            p.push("movement: expected at most 20".into());
        }
        if let Some(s) = &self.shoot {
            if s.short.range > s.long.range {
                p.push("shoot: short range must not exceed long range".into());
            }
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_band_wins_inside_short_range() {
        let s = Shoot {
            short: Band { range: 3, cv: 4 },
            long: Band { range: 8, cv: 2 },
        };
        assert_eq!(s.cv_at(3), Some(4));
        assert_eq!(s.cv_at(4), Some(2));
        assert_eq!(s.cv_at(9), None);
    }

    #[test]
    fn dial_picks_highest_step_reached() {
        let h: HeroProfile = toml::from_str(
            r#"id = "x"
name = "X"
movement = 5
dial = [{ from = 6, melee = 3, defence = 3 }, { from = 1, melee = 1, defence = 2 },
        { from = 3, melee = 2, defence = 2 }]"#,
        )
        .unwrap();
        assert_eq!(h.health, 8);
        assert_eq!(h.dial_at(8), (3, 3));
        assert_eq!(h.dial_at(5), (2, 2));
        assert_eq!(h.dial_at(1), (1, 2));
    }

    /// Issue 14: a Hero's dial names which two stats it moves.
    #[test]
    fn a_dial_may_move_movement_and_the_profile_gives_the_rest() {
        let h: HeroProfile = toml::from_str(
            r#"id = "x"
name = "X"
movement = 5
melee = 2
dial_stats = ["movement", "defence"]
dial = [{ from = 5, movement = 5, defence = 3 }, { from = 1, movement = 3, defence = 2 }]"#,
        )
        .unwrap();
        assert!(h.validate().is_empty(), "{:?}", h.validate());
        assert_eq!(h.movement_at(8), 5);
        assert_eq!(h.movement_at(2), 3);
        assert_eq!(
            h.dial_at(2),
            (2, 2),
            "Melee from the profile, Defence from the dial"
        );
        let bad: HeroProfile = toml::from_str(
            r#"id = "x"
name = "X"
movement = 5
dial_stats = ["movement", "defence"]
dial = [{ from = 1, melee = 3, defence = 2 }]"#,
        )
        .unwrap();
        let p = bad.validate().join("; ");
        assert!(p.contains("expected `movement`"), "{p}");
        assert!(p.contains("unexpected `melee`"), "{p}");
        assert!(p.contains("melee: expected a value"), "{p}");
        let same: HeroProfile = toml::from_str(
            "id = \"x\"\nname = \"X\"\nmovement = 5\ndial_stats = [\"melee\", \"melee\"]\ndial = [{ from = 1, melee = 3 }]",
        )
        .unwrap();
        assert!(same.validate().join(";").contains("two different stats"));
    }
}

/// A problem in a data file, pointing into it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}:{column}: {message}")]
pub struct DataError {
    pub path: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl DataError {
    /// A TOML parse error, placed where `toml` says it is.
    #[must_use]
    pub fn from_toml(path: &str, text: &str, e: &toml::de::Error) -> DataError {
        let (line, column) = e
            .span()
            .map_or((1, 1), |s| crate::data::source::line_col(text, s.start));
        DataError {
            path: path.to_string(),
            line,
            column,
            message: e.message().trim().to_string(),
        }
    }
}

impl HeroProfile {
    /// Parse a Hero profile (`heroes/*.toml`) and check its numbers.
    ///
    /// # Errors
    /// Every problem, each with `path:line:column`.
    pub fn from_toml(path: &str, text: &str) -> Result<HeroProfile, Vec<DataError>> {
        let p: HeroProfile =
            toml::from_str(text).map_err(|e| vec![DataError::from_toml(path, text, &e)])?;
        let problems = p.validate();
        if problems.is_empty() {
            return Ok(p);
        }
        Err(problems
            .into_iter()
            .map(|message| {
                let key = message.split(':').next().unwrap_or("");
                let (line, column) = find_key(text, key);
                DataError {
                    path: path.to_string(),
                    line,
                    column,
                    message,
                }
            })
            .collect())
    }
}

/// Where a top-level key is written (for errors found after parsing); 1:1 if not found.
#[must_use]
pub fn find_key(text: &str, key: &str) -> (usize, usize) {
    for (i, l) in text.lines().enumerate() {
        let t = l.trim_start();
        if !key.is_empty()
            && t.starts_with(key)
            && t[key.len()..].trim_start().starts_with(['=', '.'])
        {
            return (i + 1, l.len() - t.len() + 1);
        }
    }
    (1, 1)
}

#[cfg(test)]
mod file_tests {
    use super::*;

    #[test]
    fn hero_toml_errors_point_into_the_file() {
        let e = HeroProfile::from_toml(
            "h.toml",
            "id = \"a\"\nname = \"A\"\nmovement = \"fast\"\ndial = []\n",
        )
        .unwrap_err();
        assert_eq!((e[0].line, e[0].column), (3, 12), "{}", e[0]);
        let e = HeroProfile::from_toml(
            "h.toml",
            "id = \"a\"\nname = \"A\"\nmovement = 0\ndial = []\n",
        )
        .unwrap_err();
        assert_eq!(e.len(), 2);
        assert!(
            e[0].to_string().starts_with("h.toml:3:1: movement"),
            "{}",
            e[0]
        );
    }
}

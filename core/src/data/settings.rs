//! Every number RULES.md leaves to us, as settings a pack's `rules.toml` can change.

use crate::data::dice::DieFaces;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use toml::de::{DeTable, DeValue, ValueDeserializer};
use toml::Spanned;

/// Most Decoy Tokens a mission may hold (`decoys`, in `rules.toml` or a mission).
pub const MAX_DECOYS: u32 = 100;
/// Most rounds a game may last (`max_rounds`).
pub const MAX_ROUNDS: u32 = 1000;
/// Most nested behaviour performances (`max_behaviour_depth`).
pub const MAX_BEHAVIOUR_DEPTH: u32 = 16;
/// Fewest Lua instructions per call (`lua_instructions`): enough to load a script.
pub const MIN_LUA_INSTRUCTIONS: u64 = 1000;
/// Most Lua instructions per call (`lua_instructions`): a call that spends them all ends
/// within about a second (about 0.3 s of plain Lua, 0.9 s allocating tables, release build;
/// the default 1,000,000 costs 5 to 17 ms).
pub const MAX_LUA_INSTRUCTIONS: u64 = 50_000_000;
/// Most Lua instructions one step of the game may spend on each side of the screen
/// (`lua_step_instructions`): ten calls spending the per-call cap.
pub const MAX_LUA_STEP_INSTRUCTIONS: u64 = 500_000_000;
/// Most memory the Lua state may use, in MiB (`lua_memory_mib`).
pub const MAX_LUA_MEMORY_MIB: u64 = 1024;
/// Most nested Lua calls (`lua_call_depth`).
pub const MAX_LUA_CALL_DEPTH: u32 = 1000;
/// Most squares a distance setting may name (`rush_steps`, `take_cover_steps`,
/// `blip_deploy_radius`): no map is wider.
pub const MAX_STEPS: u32 = 100;
/// Most cards a hand may hold (`hand_size`, `interrupt_discard`).
pub const MAX_HAND: u32 = 10;
/// Highest `max_effects`, `max_tokens`, `max_modifiers` or `max_units` a pack may set: what
/// content can add to a game stays within a few MiB and a step within a second.
pub const MAX_GROWTH: u32 = 10_000;
/// Actions per activation (docs/RULES.md §5.1): the printed game's, not a setting.
pub const ACTIONS_PER_ACTIVATION: u32 = 2;
/// Largest dice penalty or Defence change a setting may name.
pub const MAX_MODIFIER: u32 = 20;

/// The settings `rules.toml` may hold, in `Rules` order.
pub const KEYS: [&str; 29] = [
    "los",
    "overmind_reveal_trigger",
    "die",
    "max_dice",
    "blip_movement",
    "decoys",
    "behaviour_penalty",
    "weak_overwatch_penalty",
    "building_penalty",
    "red_defence",
    "green_defence",
    "rush_steps",
    "take_cover_steps",
    "blip_deploy_radius",
    "max_behaviour_depth",
    "max_rounds",
    "lua_instructions",
    "lua_step_instructions",
    "lua_memory_mib",
    "lua_call_depth",
    "hand_size",
    "hand_draw",
    "interrupt_discard",
    "max_effects",
    "max_tokens",
    "max_modifiers",
    "max_units",
    "max_storage_values",
    "max_storage_kib",
];

/// One problem with a table of rule settings: a byte span of the file the table was read
/// from (the key or value concerned) and what is wrong, starting with the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingError {
    pub span: Range<usize>,
    pub message: String,
}

/// Which LOS rule a pack uses (`los = "exact"` or `"centre"` in `rules.toml`; the board
/// layer's `LineOfSight` gives each its geometry).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LosRule {
    #[default]
    Exact,
    Centre,
}

/// Which Overmind-caused reveals trigger an Alien Behaviour (docs/RULES.md §7.8).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevealTrigger {
    /// Some Hero's long shoot range reaches the revealed unit (LOS ignored).
    #[default]
    HeroShootRange,
    /// The revealed unit's own long shoot range reaches some Hero (LOS ignored).
    UnitShootRange,
    Always,
    Never,
}

/// The pack's rule settings (`rules.toml`). Every field has the RULES.md default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Line of Sight rule: `"exact"` or `"centre"`.
    pub los: LosRule,
    /// Which Overmind-caused reveals trigger a behaviour.
    pub overmind_reveal_trigger: RevealTrigger,
    /// Counts of each face on the 12-sided Combat die (example, not the printed die).
    pub die: DieFaces,
    /// Most Combat dice ever rolled.
    pub max_dice: u32,
    /// Movement of every Blip Token, whatever it holds.
    pub blip_movement: u32,
    /// Decoy Tokens per mission unless the mission says otherwise.
    pub decoys: u32,
    /// Dice fewer for an attack made as part of an Alien Behaviour.
    pub behaviour_penalty: u32,
    /// Dice fewer for a weak Overwatch shot.
    pub weak_overwatch_penalty: u32,
    /// Dice fewer for a Shoot attack from outside an intact building at a model inside.
    pub building_penalty: u32,
    /// Defence change for a model standing on a red square.
    pub red_defence: i32,
    /// Defence change against an attack across a green side.
    pub green_defence: i32,
    /// Steps a RUSH moves.
    pub rush_steps: u32,
    /// Squares within which TAKE COVER finds a Green Square or Building.
    pub take_cover_steps: u32,
    /// Distance (squares) from an Overmind yellow square within which Blips deploy.
    pub blip_deploy_radius: u32,
    /// Most nested behaviour performances (a behaviour's reveal triggering another's).
    pub max_behaviour_depth: u32,
    /// Default round limit when a mission names none.
    pub max_rounds: u32,
    /// Lua budget: VM instructions per behaviour call or script load.
    pub lua_instructions: u64,
    /// Lua budget: VM instructions all the script calls of one game step may spend, counted
    /// apart for calls the Heroes may know of and for face-down cards' hooks, so that what a
    /// hidden hook spends never fails a public one (docs/SANDBOX.md).
    pub lua_step_instructions: u64,
    /// Lua budget: memory for the whole script state, in MiB.
    pub lua_memory_mib: u64,
    /// Lua budget: nested Lua calls.
    pub lua_call_depth: u32,
    /// Most cards the Overmind holds (docs/RULES.md §15.2).
    pub hand_size: u32,
    /// Cards the Overmind draws at the start of its phase, up to `hand_size`.
    pub hand_draw: u32,
    /// Cards the Overmind discards to interrupt the Hero phase (docs/RULES.md §15.4).
    pub interrupt_discard: u32,
    /// Most effects (damage, heals, statuses, modifiers, tokens, spawns, actions) one script
    /// call may cause (docs/SANDBOX.md).
    pub max_effects: u32,
    /// Most tokens a game may hold, on the map and carried: content placing one more is
    /// refused.
    pub max_tokens: u32,
    /// Most stat modifiers in force at once.
    pub max_modifiers: u32,
    /// Most units and Blips a game may hold: content spawning one more is refused.
    pub max_units: u32,
    /// Most values all scripts' `game.storage` may hold together.
    pub max_storage_values: u32,
    /// Most KiB of strings all scripts' `game.storage` may hold together.
    pub max_storage_kib: u32,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            los: LosRule::Exact,
            overmind_reveal_trigger: RevealTrigger::HeroShootRange,
            die: DieFaces::default(),
            max_dice: 5,
            blip_movement: 5,
            decoys: 2,
            behaviour_penalty: 1,
            weak_overwatch_penalty: 1,
            building_penalty: 1,
            red_defence: -1,
            green_defence: 1,
            rush_steps: 5,
            take_cover_steps: 5,
            blip_deploy_radius: 2,
            max_behaviour_depth: 4,
            max_rounds: 12,
            lua_instructions: 1_000_000,
            lua_step_instructions: 10_000_000,
            lua_memory_mib: 64,
            lua_call_depth: 200,
            hand_size: 5,
            hand_draw: 2,
            interrupt_discard: 2,
            max_effects: 1000,
            max_tokens: 500,
            max_modifiers: 500,
            max_units: 200,
            max_storage_values: 100_000,
            max_storage_kib: 8192,
        }
    }
}

impl Rules {
    /// Actions a unit or Blip may take in one activation, which must differ (docs/RULES.md
    /// §5.1). Content gives or takes actions through the actions already used, never by
    /// changing this.
    #[must_use]
    pub fn actions_per_activation(&self) -> u32 {
        ACTIONS_PER_ACTIVATION
    }

    /// Sprint allowance: half Movement, rounded down, at least 1 (docs/RULES.md §4.2).
    #[must_use]
    pub fn sprint(movement: u32) -> u32 {
        (movement / 2).max(1)
    }

    /// Every number with the range it must lie in: `(key, value, lowest, highest)`; a face of
    /// the die is `die.hit` and so on.
    #[must_use]
    pub fn ranges(&self) -> Vec<(&'static str, i128, i128, i128)> {
        let d = &self.die;
        let (m, s) = (i128::from(MAX_MODIFIER), i128::from(MAX_STEPS));
        vec![
            ("die.blank", d.blank.into(), 0, 12),
            ("die.hit", d.hit.into(), 0, 12),
            ("die.double_hit", d.double_hit.into(), 0, 12),
            ("die.critical", d.critical.into(), 0, 12),
            ("die.shield", d.shield.into(), 0, 12),
            ("die.double_shield", d.double_shield.into(), 0, 12),
            ("max_dice", self.max_dice.into(), 1, 20),
            ("blip_movement", self.blip_movement.into(), 1, 20),
            ("decoys", self.decoys.into(), 0, MAX_DECOYS.into()),
            ("behaviour_penalty", self.behaviour_penalty.into(), 0, m),
            (
                "weak_overwatch_penalty",
                self.weak_overwatch_penalty.into(),
                0,
                m,
            ),
            ("building_penalty", self.building_penalty.into(), 0, m),
            ("red_defence", self.red_defence.into(), -m, m),
            ("green_defence", self.green_defence.into(), -m, m),
            ("rush_steps", self.rush_steps.into(), 0, s),
            ("take_cover_steps", self.take_cover_steps.into(), 0, s),
            ("blip_deploy_radius", self.blip_deploy_radius.into(), 0, s),
            (
                "max_behaviour_depth",
                self.max_behaviour_depth.into(),
                1,
                MAX_BEHAVIOUR_DEPTH.into(),
            ),
            ("max_rounds", self.max_rounds.into(), 1, MAX_ROUNDS.into()),
            (
                "lua_instructions",
                self.lua_instructions.into(),
                MIN_LUA_INSTRUCTIONS.into(),
                MAX_LUA_INSTRUCTIONS.into(),
            ),
            (
                "lua_step_instructions",
                self.lua_step_instructions.into(),
                MIN_LUA_INSTRUCTIONS.into(),
                MAX_LUA_STEP_INSTRUCTIONS.into(),
            ),
            (
                "lua_memory_mib",
                self.lua_memory_mib.into(),
                1,
                MAX_LUA_MEMORY_MIB.into(),
            ),
            (
                "lua_call_depth",
                self.lua_call_depth.into(),
                1,
                MAX_LUA_CALL_DEPTH.into(),
            ),
            ("hand_size", self.hand_size.into(), 0, MAX_HAND.into()),
            ("hand_draw", self.hand_draw.into(), 0, MAX_HAND.into()),
            (
                "interrupt_discard",
                self.interrupt_discard.into(),
                1,
                MAX_HAND.into(),
            ),
            ("max_effects", self.max_effects.into(), 1, MAX_GROWTH.into()),
            ("max_tokens", self.max_tokens.into(), 0, MAX_GROWTH.into()),
            (
                "max_modifiers",
                self.max_modifiers.into(),
                0,
                MAX_GROWTH.into(),
            ),
            ("max_units", self.max_units.into(), 1, MAX_GROWTH.into()),
            (
                "max_storage_values",
                self.max_storage_values.into(),
                10_000,
                1_000_000,
            ),
            ("max_storage_kib", self.max_storage_kib.into(), 1024, 65_536),
        ]
    }

    /// Check the numbers make sense: each problem as `(key, message)`, the message starting
    /// with the key (`die.hit` for a face of the die, `die` for their sum).
    #[must_use]
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut problems = Vec::new();
        let mut faces_ok = true;
        for (key, value, lo, hi) in self.ranges() {
            if !(lo..=hi).contains(&value) {
                faces_ok &= !key.starts_with("die.");
                problems.push((key, format!("{key}: expected {lo} to {hi}, found {value}")));
            }
        }
        // Only once every face is in range can their sum not overflow.
        if faces_ok && self.die.total() != 12 {
            problems.insert(
                0,
                (
                    "die",
                    format!(
                        "die: the faces must add up to 12, found {}",
                        self.die.total()
                    ),
                ),
            );
        }
        problems
    }

    /// Check the numbers make sense; each problem is a message naming the key.
    #[must_use]
    pub fn validate(&self) -> Vec<String> {
        self.problems().into_iter().map(|(_, m)| m).collect()
    }

    /// These rules with a TOML table of settings on top, key by key (a `rules.toml`, a
    /// mission's `[rules]`, a scenario's `rules = {...}`): every key known, every value of its
    /// type and in its range ([`Rules::ranges`]). `value` comes from parsing a file with
    /// `toml::de`, so spans point into that file.
    ///
    /// # Errors
    /// Every problem, each at the key or value concerned.
    pub fn overlay(&self, value: &Spanned<DeValue<'_>>) -> Result<Rules, Vec<SettingError>> {
        let DeValue::Table(table) = value.get_ref() else {
            return Err(vec![SettingError {
                span: value.span(),
                message: format!(
                    "expected a table of rule settings, found {}",
                    value.get_ref().type_str()
                ),
            }]);
        };
        let mut merged = match toml::Value::try_from(self) {
            Ok(toml::Value::Table(t)) => t,
            _ => toml::Table::new(),
        };
        let mut errors = Vec::new();
        for (key, v) in table.iter() {
            let k: &str = key.get_ref().as_ref();
            if !KEYS.contains(&k) {
                errors.push(SettingError {
                    span: key.span(),
                    message: format!(
                        "unknown setting `{}`: expected one of {}",
                        k.escape_debug(),
                        KEYS.join(", ")
                    ),
                });
                continue;
            }
            // The key alone, so its type errors point into its value.
            let mut one = DeTable::new();
            one.insert(key.clone(), v.clone());
            let probe = Spanned::new(value.span(), DeValue::Table(one));
            if let Err(e) = Rules::deserialize(ValueDeserializer::from(probe)) {
                errors.push(SettingError {
                    span: e.span().unwrap_or_else(|| v.span()),
                    message: format!("{k}: {}", one_line(e.message())),
                });
                continue;
            }
            match toml::Value::deserialize(ValueDeserializer::from(v.clone())) {
                Ok(plain) => {
                    merged.insert(k.to_string(), plain);
                }
                Err(e) => errors.push(SettingError {
                    span: e.span().unwrap_or_else(|| v.span()),
                    message: format!("{k}: {}", one_line(e.message())),
                }),
            }
        }
        // The settings that were read, checked against their ranges (only those this table
        // sets once some setting could not be read: the rest are the base's).
        let typed = errors.is_empty();
        match toml::Value::Table(merged).try_into::<Rules>() {
            Ok(rules) => {
                for (key, message) in rules.problems() {
                    match setting_span(table, key) {
                        Some(span) => errors.push(SettingError { span, message }),
                        None if typed => errors.push(SettingError {
                            span: value.span(),
                            message,
                        }),
                        None => {}
                    }
                }
                if errors.is_empty() {
                    return Ok(rules);
                }
            }
            Err(e) => errors.push(SettingError {
                span: value.span(),
                message: one_line(e.message()),
            }),
        }
        errors.sort_by_key(|e| e.span.start);
        Err(errors)
    }

    /// These rules with a `rules.toml` on top ([`Rules::overlay`]).
    ///
    /// # Errors
    /// A TOML syntax error, or every problem of the settings, each with its span in `text`.
    pub fn overlay_toml(&self, text: &str) -> Result<Rules, Vec<SettingError>> {
        let (root, syntax) = DeTable::parse_recoverable(text);
        if !syntax.is_empty() {
            return Err(syntax
                .iter()
                .map(|e| SettingError {
                    span: e.span().unwrap_or(0..0),
                    message: format!("invalid TOML: {}", one_line(e.message())),
                })
                .collect());
        }
        let span = root.span();
        self.overlay(&Spanned::new(span, DeValue::Table(root.into_inner())))
    }
}

/// A TOML message on one line.
fn one_line(message: &str) -> String {
    message
        .trim()
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Where a setting is written in a table: the value of `key`, or of `die`'s face for
/// `die.hit`; `None` when the table does not set it.
fn setting_span(table: &DeTable<'_>, key: &str) -> Option<Range<usize>> {
    let (top, face) = match key.split_once('.') {
        Some((t, f)) => (t, Some(f)),
        None => (key, None),
    };
    let (_, v) = table.iter().find(|(k, _)| k.get_ref().as_ref() == top)?;
    let inner = match (face, v.get_ref()) {
        (Some(f), DeValue::Table(t)) => t
            .iter()
            .find(|(k, _)| k.get_ref().as_ref() == f)
            .map(|(_, fv)| fv.span()),
        _ => None,
    };
    Some(inner.unwrap_or_else(|| v.span()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_rules_md() {
        let r = Rules::default();
        assert_eq!(r.blip_movement, 5);
        assert_eq!(r.decoys, 2);
        assert_eq!(r.max_dice, 5);
        assert_eq!(r.overmind_reveal_trigger, RevealTrigger::HeroShootRange);
        assert!(r.validate().is_empty());
    }

    #[test]
    fn sprint_rounds_down_minimum_one() {
        assert_eq!(Rules::sprint(5), 2);
        assert_eq!(Rules::sprint(6), 3);
        assert_eq!(Rules::sprint(1), 1);
    }

    #[test]
    fn keys_are_the_fields() {
        let t = toml::Value::try_from(Rules::default()).expect("rules serialise");
        let keys: Vec<&str> = t
            .as_table()
            .map(|t| t.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let mut want = KEYS.to_vec();
        want.sort_unstable();
        let mut got = keys;
        got.sort_unstable();
        assert_eq!(got, want);
    }

    #[test]
    fn every_budget_is_capped() {
        let text = "lua_instructions = 9223372036854775807\nlua_call_depth = 0\n\
                    max_behaviour_depth = 100000\ndecoys = 4000000000\n";
        let e = Rules::default()
            .overlay_toml(text)
            .expect_err("over the caps");
        let at = |needle: &str| text.find(needle).unwrap_or(usize::MAX);
        let spans: Vec<usize> = e.iter().map(|e| e.span.start).collect();
        assert_eq!(
            spans,
            vec![
                at("9223372036854775807"),
                at("0\n"),
                at("100000\n"),
                at("4000000000"),
            ],
            "{e:?}"
        );
        assert!(e[0]
            .message
            .starts_with("lua_instructions: expected 1000 to 50000000"));
    }

    #[test]
    fn type_errors_point_into_the_value() {
        let text = "rush_steps = \"x\"\n[die]\nhit = \"x\"\n";
        let e = Rules::default()
            .overlay_toml(text)
            .expect_err("wrong types");
        assert_eq!(e.len(), 2, "{e:?}");
        assert_eq!(e[0].span.start, text.find("\"x\"").unwrap_or(0));
        assert!(e[0].message.starts_with("rush_steps: "), "{e:?}");
        assert_eq!(e[1].span.start, text.rfind("\"x\"").unwrap_or(0));
        let e = Rules::default()
            .overlay_toml("die = { blank = 4294967295, hit = 13 }")
            .expect_err("huge faces");
        assert!(e.iter().all(|e| e.message.starts_with("die.")), "{e:?}");
    }

    #[test]
    fn toml_overrides_single_keys() {
        let r: Rules =
            toml::from_str("overmind_reveal_trigger = \"always\"\nlos = \"centre\"").unwrap();
        assert_eq!(r.overmind_reveal_trigger, RevealTrigger::Always);
        assert_eq!(r.los, LosRule::Centre);
        assert_eq!(r.max_dice, 5);
        assert!(toml::from_str::<Rules>("bogus = 1").is_err());
    }
}

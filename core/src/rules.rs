//! Every number RULES.md leaves to us, as settings a pack's `rules.toml` can change.

use crate::dice::DieFaces;
use crate::los::LosRule;
use serde::{Deserialize, Serialize};

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
    /// Lua budget: memory for the whole script state, in MiB.
    pub lua_memory_mib: u64,
    /// Lua budget: nested Lua calls.
    pub lua_call_depth: u32,
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
            lua_memory_mib: 64,
            lua_call_depth: 200,
        }
    }
}

impl Rules {
    /// Sprint allowance: half Movement, rounded down, at least 1 (docs/RULES.md §4.2).
    #[must_use]
    pub fn sprint(movement: u32) -> u32 {
        (movement / 2).max(1)
    }

    /// Check the numbers make sense; each problem is a message naming the key.
    pub fn validate(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if self.die.total() != 12 {
            problems.push(format!(
                "die: the faces must add up to 12, found {}",
                self.die.total()
            ));
        }
        if self.max_dice == 0 || self.max_dice > 20 {
            problems.push(format!(
                "max_dice: expected 1 to 20, found {}",
                self.max_dice
            ));
        }
        if self.blip_movement == 0 || self.blip_movement > 20 {
            problems.push(format!(
                "blip_movement: expected 1 to 20, found {}",
                self.blip_movement
            ));
        }
        if self.lua_instructions < 1000 {
            problems.push("lua_instructions: expected at least 1000".into());
        }
        if self.lua_memory_mib == 0 || self.lua_memory_mib > 4096 {
            problems.push("lua_memory_mib: expected 1 to 4096".into());
        }
        problems
    }
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
    fn toml_overrides_single_keys() {
        let r: Rules =
            toml::from_str("overmind_reveal_trigger = \"always\"\nlos = \"centre\"").unwrap();
        assert_eq!(r.overmind_reveal_trigger, RevealTrigger::Always);
        assert_eq!(r.los, LosRule::Centre);
        assert_eq!(r.max_dice, 5);
        assert!(toml::from_str::<Rules>("bogus = 1").is_err());
    }
}

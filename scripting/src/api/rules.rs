//! `Rules`: the game's rule settings (`rules.toml`), read-only, so behaviours follow a pack's
//! numbers instead of hard-coding RULES.md's defaults.

use super::{Class, Field, FieldDoc};
use mlua::{Lua, Value};
use overmind_core::{LosRule, RevealTrigger, Rules};
use std::sync::Arc;

/// The rules of the game a behaviour runs in.
#[derive(Clone, Debug)]
pub(crate) struct RulesRef(pub(crate) Arc<Rules>);

fn str_value(lua: &Lua, s: &str) -> mlua::Result<Value> {
    Ok(Value::String(lua.create_string(s)?))
}

fn los_name(r: LosRule) -> &'static str {
    match r {
        LosRule::Exact => "exact",
        LosRule::Centre => "centre",
    }
}

fn trigger_name(t: RevealTrigger) -> &'static str {
    match t {
        RevealTrigger::HeroShootRange => "hero_shoot_range",
        RevealTrigger::UnitShootRange => "unit_shoot_range",
        RevealTrigger::Always => "always",
        RevealTrigger::Never => "never",
    }
}

/// The `Rules` class.
pub(crate) static RULES: Class<RulesRef> = Class {
    name: "Rules",
    var: "game.rules",
    doc: "The game's rule settings (the pack's `rules.toml` over RULES.md's defaults; see \
          docs/RULES.md). Read-only.",
    key: |_| "rules".to_string(),
    singleton: None,
    fields: &[
        Field {
            doc: FieldDoc {
                name: "los",
                ty: "\"exact\"|\"centre\"",
                doc: "The Line of Sight rule.",
            },
            get: |lua, r| str_value(lua, los_name(r.0.los)),
        },
        Field {
            doc: FieldDoc {
                name: "overmind_reveal_trigger",
                ty: "\"hero_shoot_range\"|\"unit_shoot_range\"|\"always\"|\"never\"",
                doc: "Which reveals the Overmind causes trigger a behaviour.",
            },
            get: |lua, r| str_value(lua, trigger_name(r.0.overmind_reveal_trigger)),
        },
        Field {
            doc: FieldDoc {
                name: "max_dice",
                ty: "integer",
                doc: "Most Combat dice ever rolled.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.max_dice))),
        },
        Field {
            doc: FieldDoc {
                name: "blip_movement",
                ty: "integer",
                doc: "Movement of every Blip Token.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.blip_movement))),
        },
        Field {
            doc: FieldDoc {
                name: "decoys",
                ty: "integer",
                doc: "Decoy Tokens per mission unless the mission says.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.decoys))),
        },
        Field {
            doc: FieldDoc {
                name: "behaviour_penalty",
                ty: "integer",
                doc: "Dice fewer for an attack made as part of an Alien Behaviour (at least).",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.behaviour_penalty))),
        },
        Field {
            doc: FieldDoc {
                name: "weak_overwatch_penalty",
                ty: "integer",
                doc: "Dice fewer for a weak Overwatch shot.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.weak_overwatch_penalty))),
        },
        Field {
            doc: FieldDoc {
                name: "building_penalty",
                ty: "integer",
                doc: "Dice fewer shooting into a building from outside.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.building_penalty))),
        },
        Field {
            doc: FieldDoc {
                name: "red_defence",
                ty: "integer",
                doc: "Defence change on a red square (negative).",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.red_defence))),
        },
        Field {
            doc: FieldDoc {
                name: "green_defence",
                ty: "integer",
                doc: "Defence change against an attack across a green side.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.green_defence))),
        },
        Field {
            doc: FieldDoc {
                name: "rush_steps",
                ty: "integer",
                doc: "Squares RUSH moves.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.rush_steps))),
        },
        Field {
            doc: FieldDoc {
                name: "take_cover_steps",
                ty: "integer",
                doc: "Reach of TAKE COVER.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.take_cover_steps))),
        },
        Field {
            doc: FieldDoc {
                name: "blip_deploy_radius",
                ty: "integer",
                doc: "How far from a Blip marker a Blip may deploy, in a mission deployed by the rules (docs/RULES.md §7.2).",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.blip_deploy_radius))),
        },
        Field {
            doc: FieldDoc {
                name: "max_behaviour_depth",
                ty: "integer",
                doc: "Most behaviours nested inside behaviours.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.max_behaviour_depth))),
        },
        Field {
            doc: FieldDoc {
                name: "max_rounds",
                ty: "integer",
                doc: "Round limit when a mission names none.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.max_rounds))),
        },
        Field {
            doc: FieldDoc {
                name: "lua_instructions",
                ty: "integer",
                doc: "Lua instruction budget per behaviour call or script load.",
            },
            get: |_, r| {
                Ok(Value::Integer(
                    i64::try_from(r.0.lua_instructions).unwrap_or(i64::MAX),
                ))
            },
        },
        Field {
            doc: FieldDoc {
                name: "lua_step_instructions",
                ty: "integer",
                doc: "Lua instructions all the calls of one game step may spend (public calls and face-down cards' hooks counted apart).",
            },
            get: |_, r| {
                Ok(Value::Integer(
                    i64::try_from(r.0.lua_step_instructions).unwrap_or(i64::MAX),
                ))
            },
        },
        Field {
            doc: FieldDoc {
                name: "lua_memory_mib",
                ty: "integer",
                doc: "Lua memory budget, MiB.",
            },
            get: |_, r| {
                Ok(Value::Integer(
                    i64::try_from(r.0.lua_memory_mib).unwrap_or(i64::MAX),
                ))
            },
        },
        Field {
            doc: FieldDoc {
                name: "lua_call_depth",
                ty: "integer",
                doc: "Lua nested call budget.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.lua_call_depth))),
        },
        Field {
            doc: FieldDoc {
                name: "hand_size",
                ty: "integer",
                doc: "Most cards the Overmind holds.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.hand_size))),
        },
        Field {
            doc: FieldDoc {
                name: "hand_draw",
                ty: "integer",
                doc: "Cards the Overmind draws at the start of its phase, up to `hand_size`.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.hand_draw))),
        },
        Field {
            doc: FieldDoc {
                name: "interrupt_discard",
                ty: "integer",
                doc: "Cards the Overmind discards to interrupt the Hero phase.",
            },
            get: |_, r| Ok(Value::Integer(i64::from(r.0.interrupt_discard))),
        },
    ],
    methods: &[],
};

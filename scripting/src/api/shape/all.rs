//! Every shape, in the order the docs present them.

use super::defs::{
    ABILITY_DEF, ALIEN_TYPE_DEF, BAND, BEHAVIOUR_DEF, CARD_DEF, MAKEUP, SHOOT, TOKEN_DEF,
    TRIGGER_DEF,
};
use super::hooks::{ABILITY_HOOKS, ALIEN_HOOKS, CARD_HOOKS, HOOKS, TOKEN_HOOKS};
use super::moments::{
    ATTACK_MOMENT, DAMAGE_MOMENT, KILLED_MOMENT, MOMENT, PHASE_MOMENT, PLAY_CONTEXT, REVEAL_MOMENT,
    STEP_MOMENT, TOKEN_MOMENT, UNIT_MOMENT,
};
use super::rule::Shape;
use super::values::{ATTACK_OPTIONS, POS, RESOLUTION, RESOLUTION_HERO, SQUARE, TOKEN};

/// Every shape, in the order the docs present them.
pub static SHAPES: &[&Shape] = &[
    &BEHAVIOUR_DEF,
    &ALIEN_TYPE_DEF,
    &MAKEUP,
    &SHOOT,
    &BAND,
    &TOKEN_DEF,
    &ABILITY_DEF,
    &TRIGGER_DEF,
    &CARD_DEF,
    &HOOKS,
    &ALIEN_HOOKS,
    &ABILITY_HOOKS,
    &TOKEN_HOOKS,
    &CARD_HOOKS,
    &MOMENT,
    &PHASE_MOMENT,
    &UNIT_MOMENT,
    &REVEAL_MOMENT,
    &STEP_MOMENT,
    &TOKEN_MOMENT,
    &ATTACK_MOMENT,
    &DAMAGE_MOMENT,
    &KILLED_MOMENT,
    &PLAY_CONTEXT,
    &TOKEN,
    &POS,
    &SQUARE,
    &ATTACK_OPTIONS,
    &RESOLUTION,
    &RESOLUTION_HERO,
];

//! The shapes of the tables scripts write (`behaviour { ... }`, `alien_type { ... }`) and pass
//! (squares, attack options), declared once: the validator checks scripts against them and
//! the doc generator prints them, so the documented fields are exactly the accepted ones.

mod all;
mod check;
mod defs;
mod hooks;
mod locate;
mod moments;
mod names;
mod rule;
mod values;

pub use all::SHAPES;
pub(crate) use check::{array, check, Invalid};
pub use defs::{
    ABILITY_DEF, ALIEN_TYPE_DEF, BAND, BEHAVIOUR_DEF, CARD_DEF, MAKEUP, SHOOT, TOKEN_DEF,
    TRIGGER_DEF,
};
pub use hooks::{ABILITY_HOOKS, ALIEN_HOOKS, CARD_HOOKS, HOOKS, TOKEN_HOOKS};
pub(crate) use locate::position;
pub use moments::{
    ATTACK_MOMENT, DAMAGE_MOMENT, KILLED_MOMENT, MOMENT, PHASE_MOMENT, PLAY_CONTEXT, REVEAL_MOMENT,
    STEP_MOMENT, TOKEN_MOMENT, UNIT_MOMENT,
};
pub(crate) use names::effect;
pub use names::{
    ATTACK_KINDS, CARD_TARGETS, DECKS, EFFECTS, EVENT_DECKS, ROLLS, SIDES, STATS, STATUSES,
    TERRAINS, TOKEN_CLASSES, UNTILS,
};
pub use rule::{Rule, Shape, ShapeField};
pub use values::{ATTACK_OPTIONS, POS, SQUARE, TOKEN};

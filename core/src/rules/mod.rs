//! The rules layer: validation into a checked plan, resolution, the reveal chain, combat,
//! triggers, effects, cards and the numbers a model has now. It never calls the AI.

pub mod behaviour;
pub mod campaign;
pub mod card;
pub(crate) mod combat;
pub mod content;
pub mod decision;
pub mod deck;
pub(crate) mod deploy;
pub mod deployment;
pub mod dev;
pub mod effect;
pub(crate) mod engine;
pub mod game;
pub mod hand;
pub mod hazard;
pub mod interrupt;
pub mod legal;
pub(crate) mod motion;
pub mod native;
pub mod preview;
pub mod psychic;
pub(crate) mod reveal;
pub mod setup;
pub(crate) mod special;
pub mod stats;
pub mod trigger;
pub mod validate;
pub(crate) mod victory;
pub mod wall;

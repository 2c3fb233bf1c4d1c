//! The data layer: ids, squares, the game state, the map, profiles, rule settings, actions,
//! events, and cards, tokens and hooks as data. It imports nothing from the layers above.

pub mod action;
pub mod campaign;
pub mod card;
pub mod cards;
pub mod deploying;
pub mod dice;
pub mod event;
pub mod geom;
pub mod hook;
pub mod id;
pub mod interrupt;
pub mod map;
pub mod mission;
mod names;
pub mod profile;
pub mod settings;
pub mod source;
pub mod state;
pub mod storage;
pub mod token;
pub mod view;

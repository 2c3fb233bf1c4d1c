//! The integration tests of `overmind-core`, built as one test binary: each module was once
//! its own file in `tests/`, and `common` holds their shared fixtures.

mod common;

mod ai_plan;
mod behaviours;
mod blips;
mod bounds;
mod campaign;
mod cards;
mod chain;
mod checked;
mod combat;
mod combat_more;
mod content_bounds;
mod deploy;
mod deployment;
mod dev;
mod games;
mod hazards;
mod hidden_hooks;
mod layers;
mod legal_props;
mod levels;
mod los_props;
mod movement_props;
mod psychic;
mod setup_units;
mod triggers;
mod unit_effects;
mod xxl;

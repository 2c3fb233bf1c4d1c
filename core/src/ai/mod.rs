//! The built-in AI for both sides: legal, sensible, deterministic (no peeking for the Heroes).
//!
//! The greedy AI (the `greedy` level) is in private submodules: `decisions` ([`AiController`]),
//! `plan` (what both sides' planners share), `heroes` ([`HeroAi`]) and `overmind`
//! ([`OvermindAi`]); `levels` has [`Level`] and the [`player`] and [`controller`] of each, and
//! `games` runs AI games. The look-ahead levels are in [`lookahead`], the card AI in [`cards`].

pub mod cards;
pub mod lookahead;

mod decisions;
mod games;
mod heroes;
mod levels;
mod overmind;
mod plan;

pub use decisions::AiController;
pub use games::{ai_step, play_ai_game, play_ai_game_at};
pub use heroes::HeroAi;
pub use levels::{controller, player, Level, Levels, Player};
pub use overmind::OvermindAi;

pub(crate) use overmind::{alien_plan, close_in, overmind_turn};

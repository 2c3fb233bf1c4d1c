//! The look-ahead AI (`standard`, `strong`): each Alien Behaviour option is performed on copies
//! of the state and the results scored; the turn is played with the fixes the greedy AI lacks.
//!
//! Private submodules: `value` ([`overmind_value`], [`budget`] and the behaviours' scores),
//! `controller` ([`Lookahead`]), `overmind` ([`OvermindPlanner`]), `heroes` ([`HeroPlanner`]),
//! `bare` (step counts over the bare map) and `odds` (exact damage odds).

mod bare;
mod controller;
mod heroes;
mod odds;
mod overmind;
mod value;

pub use controller::Lookahead;
pub use heroes::HeroPlanner;
pub use overmind::OvermindPlanner;
pub use value::{budget, overmind_value, Budget};

//! Where an interruption of the Hero phase stands (docs/RULES.md §15.4), as data.

use crate::data::id::Id;
use serde::{Deserialize, Serialize};

/// Where an interruption stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum Interrupt {
    /// The Overmind may interrupt (`interrupt CARD CARD`) or let the Heroes go on (`end`).
    Offered,
    /// The Overmind has paid and acts; `unit` is the one it activated, once it has.
    Acting {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unit: Option<Id>,
    },
}

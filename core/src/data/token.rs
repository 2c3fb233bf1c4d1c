//! Tokens on squares (docs/RULES.md §14): hazards, items, building exploration and markers.
//! Their kinds come from packs (`token { ... }` in Lua), missions place them, effects place,
//! move and remove them, and their triggers act when a model steps onto one or interacts with
//! it. A token never blocks movement or sight.

use crate::data::geom::Pos;
use crate::data::id::Id;
use serde::{Deserialize, Serialize};

/// What a token is for (drawn and listed by class).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenClass {
    /// Harms or hinders what enters its square.
    Hazard,
    /// Something a Hero can pick up and carry (a spanner).
    Item,
    /// A Building Exploration event, resolved on interaction.
    Exploration,
    /// A plain marker scripts place and read.
    Marker,
}

impl TokenClass {
    /// The name scripts and missions use.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TokenClass::Hazard => "hazard",
            TokenClass::Item => "item",
            TokenClass::Exploration => "exploration",
            TokenClass::Marker => "marker",
        }
    }

    /// The class a name means.
    #[must_use]
    pub fn named(name: &str) -> Option<TokenClass> {
        [
            TokenClass::Hazard,
            TokenClass::Item,
            TokenClass::Exploration,
            TokenClass::Marker,
        ]
        .into_iter()
        .find(|c| c.name() == name)
    }
}

/// A kind of token, as a pack defines it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenKind {
    pub id: String,
    pub name: String,
    pub class: TokenClass,
    /// Drawn on the map where no unit stands (one printable ASCII character, not one the
    /// map itself uses).
    pub symbol: char,
    /// What it does, shown to players.
    pub text: String,
}

/// A token in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Token {
    pub id: Id,
    pub kind: Id,
    /// Its square; a carried token's is its carrier's last square.
    pub pos: Pos,
    /// The model carrying it (items), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carried_by: Option<Id>,
    /// How the map draws it: its kind's symbol when it was laid.
    #[serde(default = "default_symbol")]
    pub symbol: char,
}

fn default_symbol() -> char {
    '%'
}

/// Symbols the map already uses, which no token may take.
pub const RESERVED_SYMBOLS: &str = ".rgyb#?|-+=:*X0123456789";

//! Units waiting to be deployed by the rules (docs/RULES.md §7.2): a mission with
//! `deployment = "rules"` starts with its Heroes and Blips off the map, until the first action,
//! `deploy`, puts them on it.

use crate::data::geom::Pos;
use crate::data::map::{Map, Terrain};
use crate::data::state::{Blip, Unit};
use serde::{Deserialize, Serialize};

/// How a mission's units reach the map.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Deployment {
    /// Every Hero and Blip starts where the mission puts it.
    #[default]
    Fixed,
    /// The Heroes choose two Yellow Squares and the squares around them; then the Overmind puts
    /// each Blip within `blip_deploy_radius` of a Blip marker, out of every Hero's sight.
    Rules,
}

/// The units of a mission deployed by the rules, before the `deploy` action. Their squares
/// mean nothing until they are deployed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Deploying {
    /// Heroes in the mission's order: the first goes on the first Yellow Square chosen, the
    /// second on the second, the others around them.
    pub heroes: Vec<Unit>,
    /// Blips in the mission's order, their contents drawn (hidden from the Heroes).
    pub blips: Vec<Blip>,
    /// The mission's Blip markers: the squares its `[[blips]]` name.
    pub markers: Vec<Pos>,
}

impl Deploying {
    /// The Yellow Squares the Heroes may choose from: every yellow square of `map` farther
    /// than `radius` from each Blip marker (those near a marker are the Overmind's).
    #[must_use]
    pub fn hero_squares(&self, map: &Map, radius: u32) -> Vec<Pos> {
        map.squares_of(Terrain::Yellow)
            .filter(|p| self.markers.iter().all(|m| m.distance(*p) > radius))
            .collect()
    }
}

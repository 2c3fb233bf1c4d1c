//! Destroy Wall (docs/RULES.md §5.4): an XXL model's Interact action that opens a building's
//! wall two squares wide, making the building a Ruin.

use crate::data::action::{refuse, Refusal, RefusalKind};
use crate::data::event::Event;
use crate::data::geom::{Dir, Pos};
use crate::data::id::Id;
use crate::data::map::{BuildingId, Map};
use crate::data::state::{GameState, Model};
use crate::rules::decision::{Choice, DecisionKind};
use crate::rules::engine::Engine;
use std::sync::Arc;

/// One wall an XXL model may destroy: the side of its base it faces, the two edges on that
/// side (square and direction) and the building they bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breach {
    pub side: Dir,
    pub edges: [(Pos, Dir); 2],
    pub building: BuildingId,
}

impl Breach {
    /// The name of its side (`north`, `east`, `south`, `west`): the option of a `wall`
    /// decision.
    #[must_use]
    pub fn name(&self) -> &'static str {
        side_name(self.side)
    }
}

/// The name of an orthogonal direction.
#[must_use]
pub fn side_name(d: Dir) -> &'static str {
    match d {
        Dir::N => "north",
        Dir::E => "east",
        Dir::S => "south",
        _ => "west",
    }
}

/// The buildings an edge bounds: those of the squares on either side.
fn bounds(map: &Map, p: Pos, d: Dir) -> [Option<BuildingId>; 2] {
    [map.building(p), map.building(p.offset(d))]
}

/// Every wall the XXL base at `at` stands orthogonally against with both squares of one side
/// (north, east, south, west in that order): both edges on that side hold walls inside the map
/// that bound the same building, not yet ruined there.
#[must_use]
pub fn breaches(map: &Map, at: Pos) -> Vec<Breach> {
    let (a, b, c, d) = (at, at.offset(Dir::E), at.offset(Dir::S), at.offset(Dir::SE));
    let mut out = Vec::new();
    for (side, p, q) in [
        (Dir::N, a, b),
        (Dir::E, b, d),
        (Dir::S, c, d),
        (Dir::W, a, c),
    ] {
        let inside = |s: Pos| map.in_bounds(s) && map.in_bounds(s.offset(side));
        if !(inside(p) && inside(q) && map.wall(p, side) && map.wall(q, side)) {
            continue;
        }
        let (bp, bq) = (bounds(map, p, side), bounds(map, q, side));
        let common = bp
            .into_iter()
            .flatten()
            .find(|x| bq.iter().flatten().any(|y| y == x));
        if let Some(building) = common {
            out.push(Breach {
                side,
                edges: [(p, side), (q, side)],
                building,
            });
        }
    }
    out
}

/// Can `model` Destroy Wall now? The walls it may destroy (at least one), or why not.
///
/// # Errors
/// Not an XXL model, Stunned, or no wall of one building along a whole side of its base.
pub fn check(st: &GameState, model: &Model) -> Result<Vec<Breach>, Refusal> {
    if !model.xxl {
        return refuse(
            RefusalKind::Unable,
            format!(
                "{} is not an XXL model: only XXL models Destroy Wall",
                model.id
            ),
        );
    }
    if model.status.stunned {
        return refuse(
            RefusalKind::Status,
            format!(
                "{} is Stunned: recover with an Interact action first",
                model.id
            ),
        );
    }
    let found = breaches(&st.map, model.pos);
    if found.is_empty() {
        return refuse(
            RefusalKind::Unable,
            format!(
                "{} stands against no wall of one building two squares long",
                model.id
            ),
        );
    }
    Ok(found)
}

impl Engine<'_> {
    /// Destroy one of `walls` (checked by [`check`]): the unit's side chooses when there are
    /// several (decision `wall`). The new map has Ruined Walls on both edges; the sight check
    /// follows at once, so a Blip behind is revealed (docs/RULES.md §7.3).
    pub(crate) fn destroy_wall(&mut self, unit: &str, model: &str, walls: Vec<Breach>) {
        let who = self
            .side_of(unit)
            .unwrap_or(crate::data::state::Side::Overmind);
        let i = if walls.len() > 1 {
            self.ask_about(
                who,
                DecisionKind::Wall,
                Some(unit),
                format!("Which wall does {model} destroy?"),
                walls
                    .iter()
                    .map(|w| Choice::Id(Id::from(w.name())))
                    .collect(),
            )
        } else {
            0
        };
        let Some(w) = walls.get(i).or(walls.first()) else {
            return;
        };
        let map = self.st.map.with_ruined(&w.edges);
        self.st.map = Arc::new(map);
        self.st.moved();
        self.emit(Event::WallDestroyed {
            unit: Id::from(unit),
            model: Id::from(model),
            building: w.building,
            edges: w.edges.iter().map(|&(p, d)| [p, p.offset(d)]).collect(),
        });
        self.check_reveals();
        self.check_victory();
    }
}

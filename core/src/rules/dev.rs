//! Author tools (`play --dev`, docs/RULES.md §13): perform an Alien Behaviour on demand and
//! spawn an alien unit, so a script edit can be tried at once. Legal only in a game whose
//! state has them on; never offered by `legal_actions`, so no AI takes them.

use crate::data::action::{refuse, Action, Refusal, RefusalKind};
use crate::data::event::{Event, PlacedModel};
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::state::{GameState, Model, Side, Status, Unit};
use crate::rules::content::Content;
use crate::rules::decision::DecisionKind;
use crate::rules::engine::Engine;

/// Most models one `spawn` may place.
pub const MAX_SPAWN: u32 = 12;

/// Is `action` an author tool?
#[must_use]
pub fn is_dev(action: &Action) -> bool {
    matches!(action, Action::Perform { .. } | Action::Spawn { .. })
}

/// The checks of an author tool with the tools assumed on (for effects that do the same).
pub(crate) fn check(
    st: &GameState,
    content: &Content,
    action: &Action,
) -> Option<Result<(), Refusal>> {
    validate(st, content, action)
}

/// Validation of an author tool (`None` when `action` is not one). Pure.
pub(crate) fn validate(
    st: &GameState,
    content: &Content,
    action: &Action,
) -> Option<Result<(), Refusal>> {
    let r = match action {
        Action::Perform { unit, behaviour } => check_perform(st, content, unit, behaviour),
        Action::Spawn { alien, at, models } => check_spawn(st, content, alien, *at, *models),
        _ => return None,
    };
    Some(r)
}

fn off() -> Result<(), Refusal> {
    refuse(
        RefusalKind::AuthorTool,
        "perform and spawn are author tools: start the game with `play --dev`",
    )
}

fn check_perform(
    st: &GameState,
    content: &Content,
    unit: &str,
    behaviour: &str,
) -> Result<(), Refusal> {
    if !st.dev() {
        return off();
    }
    if !content.behaviours.contains_key(behaviour) {
        let mut known: Vec<&str> = content.behaviours.keys().map(String::as_str).collect();
        known.sort_unstable();
        return refuse(
            RefusalKind::AuthorTool,
            format!(
                "no loaded behaviour is called {behaviour} (loaded: {})",
                known.join(", ")
            ),
        );
    }
    if st.blip(unit).is_some() {
        return refuse(
            RefusalKind::AuthorTool,
            format!("{unit} is a face-down Blip: flip it (or spawn a unit) to perform a behaviour"),
        );
    }
    match st.unit(unit) {
        None => refuse(RefusalKind::AuthorTool, format!("there is no unit {unit}")),
        Some(u) if u.side != Side::Overmind => refuse(
            RefusalKind::AuthorTool,
            format!("{unit} is a Hero: behaviours are the aliens'"),
        ),
        Some(u) if !u.models.iter().any(|m| m.health > 0) => refuse(
            RefusalKind::AuthorTool,
            format!("{unit} has no model left on the map"),
        ),
        Some(_) => Ok(()),
    }
}

fn check_spawn(
    st: &GameState,
    content: &Content,
    alien: &str,
    at: Pos,
    models: u32,
) -> Result<(), Refusal> {
    if !st.dev() {
        return off();
    }
    let Some(t) = content.aliens.get(alien) else {
        let mut known: Vec<&str> = content.aliens.keys().map(String::as_str).collect();
        known.sort_unstable();
        return refuse(
            RefusalKind::AuthorTool,
            format!(
                "no loaded alien type is called {alien} (loaded: {})",
                known.join(", ")
            ),
        );
    };
    let most = t.unit.max.clamp(1, MAX_SPAWN);
    if !(1..=most).contains(&models) {
        return refuse(
            RefusalKind::AuthorTool,
            format!("a unit of {alien} has 1 to {most} models, not {models}"),
        );
    }
    if !st.map.in_bounds(at) {
        return refuse(
            RefusalKind::AuthorTool,
            format!(
                "{at} is off the map ({}×{} squares, 0,0 to {},{})",
                st.map.width(),
                st.map.height(),
                st.map.width() - 1,
                st.map.height() - 1
            ),
        );
    }
    if st.map.is_solid(at) {
        return refuse(
            RefusalKind::AuthorTool,
            format!("{at} is solid: no model can stand there"),
        );
    }
    if st.cached_obstacles().contains(at) {
        return refuse(
            RefusalKind::AuthorTool,
            format!("{at} holds a model or a Blip already"),
        );
    }
    Ok(())
}

/// The first `s1`, `s2`, ... that names no unit or Blip.
fn fresh_unit_id(st: &GameState) -> Id {
    let mut n = 1u32;
    loop {
        let id = format!("s{n}");
        if st.unit(&id).is_none() && st.blip(&id).is_none() {
            return Id::from(id);
        }
        n += 1;
    }
}

impl Engine<'_> {
    /// Resolve a validated author tool (`None` when `action` is not one).
    pub(crate) fn dev_act(&mut self, action: &Action) -> Option<()> {
        match action {
            Action::Perform { unit, behaviour } => {
                self.emit(Event::BehaviourOnDemand {
                    unit: *unit,
                    behaviour: *behaviour,
                });
                self.perform_chosen(unit, *behaviour);
            }
            Action::Spawn { alien, at, models } => {
                self.spawn_from(*alien, *at, *models, Id::from("dev"));
            }
            _ => return None,
        }
        self.check_reveals();
        self.check_victory();
        Some(())
    }

    /// A new Overmind unit of `alien`: the first model on `at`, the others where the Overmind
    /// places them next to it (as a reveal places them, docs/RULES.md §7.5).
    pub(crate) fn spawn_from(&mut self, alien: Id, at: Pos, count: u32, source: Id) -> Id {
        let unit_id = fresh_unit_id(self.st);
        let max_health = self
            .content
            .aliens
            .get(alien.as_str())
            .map_or(1, |t| t.health.max(1));
        let mut models: Vec<Model> = Vec::new();
        let mut lost = 0;
        let xxl = self.is_xxl(&alien);
        for n in 0..count {
            let square = if n == 0 {
                self.first_square(at, xxl)
            } else {
                let options = self.placement_squares(&models, xxl);
                self.ask_square(
                    Side::Overmind,
                    DecisionKind::Placement,
                    format!("Where does {alien} of {unit_id} go?"),
                    options,
                )
            };
            let Some(square) = square else {
                lost += 1;
                continue;
            };
            models.push(Model {
                id: Id::from(format!("{unit_id}.{}", models.len() + 1)),
                kind: alien,
                pos: square,
                health: max_health,
                max_health,
                status: Status::default(),
                xxl,
            });
        }
        let placed = models
            .iter()
            .map(|m| PlacedModel {
                id: m.id,
                at: m.pos,
                type_id: alien,
                xxl,
            })
            .collect();
        self.st
            .units
            .push(Unit::new(unit_id, Side::Overmind, models));
        self.st.moved();
        self.emit(Event::UnitSpawned {
            unit: unit_id,
            type_id: alien,
            models: placed,
            source: source.to_string(),
        });
        if lost > 0 {
            self.emit(Event::ModelLost {
                unit: unit_id,
                reason: format!("{lost} model(s) had no free square to be placed on"),
            });
        }
        unit_id
    }
}

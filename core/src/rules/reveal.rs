//! Flipping Blip Tokens: when, placing the models, and whether a behaviour follows
//! (docs/RULES.md §7).

use crate::board::movement::{adjacent, base_adjacent, fits};
use crate::data::event::{Event, PlacedModel, RevealCause};
use crate::data::geom::{Dir, Pos};
use crate::data::id::Id;
use crate::data::settings::RevealTrigger;
use crate::data::state::{Contents, Model, Side, Status, Unit};
use crate::rules::decision::{Choice, DecisionKind};
use crate::rules::engine::Engine;

impl Engine<'_> {
    /// Face-down Blips now in the Line of Sight of some Hero model, in id order.
    pub fn visible_blips(&mut self) -> Vec<Id> {
        self.st.blips_seen()
    }

    /// After one step from `vacated`: has any face-down Blip come into a Hero's sight? Only
    /// pairs involving the mover, or whose squares' bounding box holds the vacated square, can
    /// have changed: every sight line between two squares stays strictly inside their bounding
    /// box, and a step only adds an obstacle elsewhere (which never creates sight). Relies on
    /// the invariant that no face-down Blip is in sight once a step has resolved.
    pub fn sight_changed(&mut self, vacated: Pos, mover: &crate::rules::motion::Mover) -> bool {
        let heroes: Vec<(Pos, bool)> = self
            .st
            .units
            .iter()
            .filter(|u| u.side == Side::Heroes)
            .flat_map(|u| u.models.iter())
            .map(|m| (m.pos, *mover == crate::rules::motion::Mover::Model(m.id)))
            .collect();
        let blips: Vec<(Pos, bool)> = self
            .st
            .blips
            .iter()
            .map(|b| (b.pos, *mover == crate::rules::motion::Mover::Blip(b.id)))
            .collect();
        for &(b, b_moved) in &blips {
            for &(h, h_moved) in &heroes {
                let inside = (h.x.min(b.x)..=h.x.max(b.x)).contains(&vacated.x)
                    && (h.y.min(b.y)..=h.y.max(b.y)).contains(&vacated.y);
                if (b_moved || h_moved || inside) && self.los(h, b) {
                    return true;
                }
            }
        }
        false
    }

    /// Reveal every Blip that has entered a Hero's LOS (docs/RULES.md §7.4): all Blips one
    /// cause reveals share that cause and are flipped and placed first, in the Overmind's
    /// order; then the triggered behaviours follow in that same order. Repeats while a
    /// behaviour or a removal brings more Blips into sight.
    pub fn check_reveals(&mut self) {
        // Bounded: each pass removes at least one Blip.
        for _ in 0..=self.st.blips.len() {
            let mut seen = self.visible_blips();
            if seen.is_empty() {
                return;
            }
            let by = self.actor;
            let cause = match by {
                Side::Heroes => RevealCause::Hero,
                Side::Overmind => RevealCause::Overmind,
            };
            let mut triggered: Vec<Id> = Vec::new();
            while !seen.is_empty() {
                let i = if seen.len() > 1 {
                    self.ask(
                        Side::Overmind,
                        DecisionKind::RevealOrder,
                        "Several Blips are revealed at once: which resolves first?".into(),
                        seen.iter().map(|s| Choice::Id(Id::from(s))).collect(),
                    )
                } else {
                    0
                };
                let id = seen.remove(i.min(seen.len() - 1));
                if self.st.blip(&id).is_none() {
                    continue;
                }
                if let Some((unit, true)) = self.reveal(&id, cause, by) {
                    triggered.push(unit);
                }
            }
            for unit in triggered {
                if self.st.is_over() {
                    return;
                }
                if self.st.unit(&unit).is_some_and(|u| u.alive()) {
                    self.perform_behaviour(&unit);
                }
            }
            if self.st.is_over() {
                return;
            }
        }
    }

    /// Flip a Blip: remove a Decoy, or place the unit's models. Returns the new unit's id and
    /// whether it triggers an Alien Behaviour; the caller performs it (after damage, for a
    /// damage-triggered reveal).
    pub fn reveal(&mut self, blip_id: &str, cause: RevealCause, by: Side) -> Option<(Id, bool)> {
        let idx = self.st.blips.iter().position(|b| b.id == blip_id)?;
        let blip = self.st.blips.remove(idx);
        self.st.moved();
        let contents = blip.contents.clone().unwrap_or(Contents::Decoy);
        let (type_id, size, leader) = match contents {
            Contents::Decoy => {
                self.emit(Event::BlipRevealed {
                    blip: blip.id,
                    at: blip.pos,
                    cause,
                    by,
                    triggers_behaviour: false,
                    why: "a Decoy holds no unit".into(),
                    type_id: None,
                    decoy: Some(true),
                });
                self.emit(Event::DecoyRemoved {
                    blip: blip.id,
                    at: blip.pos,
                });
                return None;
            }
            Contents::Unit {
                type_id,
                size,
                leader,
            } => (type_id, size, leader),
        };
        let mut kinds: Vec<Id> = Vec::new();
        if let Some(l) = leader {
            kinds.push(l);
        }
        kinds.extend(std::iter::repeat_n(type_id, size.max(1) as usize));
        let unit_id = blip.id;
        let mut placed: Vec<PlacedModel> = Vec::new();
        let mut models: Vec<Model> = Vec::new();
        let mut lost = 0;
        for (n, kind) in kinds.iter().enumerate() {
            let xxl = self.is_xxl(kind);
            let at = if n == 0 {
                self.first_square(blip.pos, xxl)
            } else {
                let options = self.placement_squares(&models, xxl);
                self.ask_square(
                    Side::Overmind,
                    DecisionKind::Placement,
                    format!("Where does {} of {unit_id} go?", kind),
                    options,
                )
            };
            let Some(at) = at else {
                lost += 1;
                continue;
            };
            let max_health = self
                .content
                .aliens
                .get(kind.as_str())
                .map_or(1, |t| t.health.max(1));
            let id = format!("{unit_id}.{}", models.len() + 1);
            placed.push(PlacedModel {
                id: Id::from(&id),
                at,
                type_id: Id::from(&kind),
                xxl,
            });
            models.push(Model {
                id: Id::from(id),
                kind: Id::from(&kind),
                pos: at,
                health: max_health,
                max_health,
                status: Status::default(),
                xxl,
            });
        }
        // It goes on with the Blip's activation.
        let unit = Unit {
            activated: blip.activated,
            used: blip.used.clone(),
            from_blip: Some(blip.id),
            ..Unit::new(unit_id, Side::Overmind, models)
        };
        // A Blip revealed during its own activation ends the action it was taking: its move
        // stops where it was revealed, and the unit has only the activation's actions left.
        if self.st.active.as_deref() == Some(unit_id.as_str()) {
            for m in &unit.models {
                self.st.moved_this_action.push(m.id);
            }
        }
        self.st.units.push(unit);
        self.st.moved();
        let (triggers, why) = self.reveal_triggers(&unit_id, by);
        self.emit(Event::BlipRevealed {
            blip: blip.id,
            at: blip.pos,
            cause,
            by,
            triggers_behaviour: triggers,
            why,
            type_id: Some(type_id),
            decoy: Some(false),
        });
        self.emit(Event::ModelsPlaced {
            unit: unit_id,
            type_id,
            models: placed,
        });
        if lost > 0 {
            self.emit(Event::ModelLost {
                unit: unit_id,
                reason: format!("{lost} model(s) had no free square to be placed on"),
            });
        }
        if self.listens(crate::data::hook::Hook::Reveal) {
            let moment = crate::rules::trigger::Moment {
                unit: Some(unit_id),
                at: Some(blip.pos),
                round: self.st.round,
                ..Default::default()
            };
            self.fire(crate::data::hook::Hook::Reveal, &moment);
        }
        Some((unit_id, triggers))
    }

    /// Free squares adjacent to an already placed model (through openings, into buildings);
    /// for an XXL model (`xxl`), the top-left squares where its 2×2 base fits and touches a
    /// placed model's base (docs/RULES.md §4.4).
    pub(crate) fn placement_squares(&mut self, placed: &[Model], xxl: bool) -> Vec<Pos> {
        let map = self.map();
        let mut o = self.obstacles();
        for m in placed {
            for p in m.squares() {
                o.insert(p);
            }
        }
        let mut out = Vec::new();
        if !xxl && placed.iter().all(|m| !m.xxl) {
            for m in placed {
                for d in Dir::ALL {
                    let q = m.pos.offset(d);
                    if !map.blocked(&o, q) && adjacent(&map, m.pos, q) && !out.contains(&q) {
                        out.push(q);
                    }
                }
            }
            return out;
        }
        for m in placed {
            for dy in -2..=2 {
                for dx in -2..=2 {
                    let q = Pos::new(m.pos.x + dx, m.pos.y + dy);
                    let free = if xxl {
                        fits(&map, &o, q)
                    } else {
                        !map.blocked(&o, q)
                    };
                    if free && base_adjacent(&map, m.pos, m.xxl, q, xxl) && !out.contains(&q) {
                        out.push(q);
                    }
                }
            }
        }
        out
    }

    /// Where the first model of a revealed or spawned unit goes: on `at`; an XXL model's base
    /// with its top-left square there, else the first of the other bases covering `at` that
    /// fits (docs/RULES.md §4.4). `None`: no room.
    pub(crate) fn first_square(&mut self, at: Pos, xxl: bool) -> Option<Pos> {
        if !xxl {
            return Some(at);
        }
        let map = self.map();
        let o = self.obstacles();
        [(0, 0), (-1, 0), (0, -1), (-1, -1)]
            .into_iter()
            .map(|(dx, dy)| Pos::new(at.x + dx, at.y + dy))
            .find(|&q| fits(&map, &o, q))
    }

    /// Is `kind` an XXL Alien Type?
    pub(crate) fn is_xxl(&self, kind: &str) -> bool {
        self.content.aliens.get(kind).is_some_and(|t| t.xxl)
    }

    /// docs/RULES.md §7.8: a reveal the Heroes caused always triggers; one the Overmind caused only
    /// per `overmind_reveal_trigger`.
    pub fn reveal_triggers(&mut self, unit_id: &str, by: Side) -> (bool, String) {
        if by == Side::Heroes {
            return (true, "revealed by the Hero Players".into());
        }
        let Some(unit) = self.st.unit(unit_id) else {
            return (false, "the unit is gone".into());
        };
        let unit_squares: Vec<Pos> = unit.models.iter().map(|m| m.pos).collect();
        let unit_range = unit
            .models
            .iter()
            .filter_map(|m| self.shoot_of(Side::Overmind, m).map(|s| s.max_range()))
            .max();
        let heroes: Vec<(Pos, Option<u32>)> = self
            .st
            .units
            .iter()
            .filter(|u| u.side == Side::Heroes)
            .flat_map(|u| u.models.iter())
            .map(|m| (m.pos, self.shoot_of(Side::Heroes, m).map(|s| s.max_range())))
            .collect();
        let dist = |a: Pos| {
            unit_squares
                .iter()
                .map(|&b| a.distance(b))
                .min()
                .unwrap_or(u32::MAX)
        };
        match self.st.rules.overmind_reveal_trigger {
            RevealTrigger::Always => (
                true,
                "the Overmind's reveals always trigger (rules.toml)".into(),
            ),
            RevealTrigger::Never => (
                false,
                "the Overmind's reveals never trigger (rules.toml)".into(),
            ),
            RevealTrigger::HeroShootRange => {
                if heroes.iter().any(|&(p, r)| r.is_some_and(|r| dist(p) <= r)) {
                    (
                        true,
                        "revealed by the Overmind within a Hero's Shoot range".into(),
                    )
                } else {
                    (
                        false,
                        "revealed by the Overmind outside every Hero's Shoot range".into(),
                    )
                }
            }
            RevealTrigger::UnitShootRange => match unit_range {
                Some(r) if heroes.iter().any(|&(p, _)| dist(p) <= r) => (
                    true,
                    "revealed by the Overmind with a Hero in its Shoot range".into(),
                ),
                _ => (
                    false,
                    "revealed by the Overmind with no Hero in its Shoot range".into(),
                ),
            },
        }
    }
}

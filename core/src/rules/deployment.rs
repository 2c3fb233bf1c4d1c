//! Deployment by the rules (docs/RULES.md §7.2): the Heroes choose two Yellow Squares and the
//! squares next to them, then the Overmind puts each Blip near a Blip marker, out of every
//! Hero's sight. Each choice is a decision of kind `deploy`.

use crate::board::los::LineOfSight;
use crate::board::movement::adjacent;
use crate::data::event::Event;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::state::{GameState, Side};
use crate::rules::decision::{Choice, DecisionKind};
use crate::rules::engine::Engine;

/// The free squares a Hero may deploy on: for the first two Heroes (in the mission's order) a
/// free Yellow Square of theirs; for the others a free square next to the Yellow Square of
/// their group (the third Hero with the first, the fourth with the second, and so on, so the
/// two groups differ by one at most), or next to the other one when theirs is full.
#[must_use]
pub fn hero_squares(st: &GameState, index: usize, anchors: &[Pos]) -> Vec<Pos> {
    let Some(d) = &st.deploying else {
        return Vec::new();
    };
    let free = |p: &Pos| !st.map.is_solid(*p) && !occupied(st, *p);
    let mut out: Vec<Pos> = if index < 2 {
        d.hero_squares(&st.map, st.rules.blip_deploy_radius)
            .into_iter()
            .filter(|p| free(p) && !anchors.contains(p))
            .collect()
    } else {
        let group = (index - 2) % 2;
        let next_to = |a: Pos| -> Vec<Pos> {
            around(a)
                .filter(|p| st.map.in_bounds(*p) && free(p) && adjacent(&st.map, a, *p))
                .collect()
        };
        let mine = anchors.get(group).map(|&a| next_to(a)).unwrap_or_default();
        if mine.is_empty() {
            anchors.iter().flat_map(|&a| next_to(a)).collect()
        } else {
            mine
        }
    };
    out.sort_by_key(|p| (p.y, p.x));
    out.dedup();
    out
}

/// The squares a Blip may deploy on: within `blip_deploy_radius` of a Blip marker, free, and
/// in no Hero's Line of Sight.
#[must_use]
pub fn blip_squares(st: &mut GameState) -> Vec<Pos> {
    let Some(d) = &st.deploying else {
        return Vec::new();
    };
    let radius = i32::try_from(st.rules.blip_deploy_radius).unwrap_or(i32::MAX);
    let mut near: Vec<Pos> = Vec::new();
    for m in &d.markers {
        for dy in -radius..=radius {
            for dx in -radius..=radius {
                let p = Pos::new(m.x.saturating_add(dx), m.y.saturating_add(dy));
                if st.map.in_bounds(p) && !st.map.is_solid(p) && !occupied(st, p) {
                    near.push(p);
                }
            }
        }
    }
    near.sort_by_key(|p| (p.y, p.x));
    near.dedup();
    let heroes: Vec<Pos> = st.hero_models().map(|m| m.pos).collect();
    let map = std::sync::Arc::clone(&st.map);
    let los = st.rules.los;
    let obstacles = st.obstacles().clone();
    near.retain(|&p| !heroes.iter().any(|&h| los.visible(&map, &obstacles, h, p)));
    near
}

fn occupied(st: &GameState, p: Pos) -> bool {
    st.models().any(|m| m.pos == p) || st.blips.iter().any(|b| b.pos == p)
}

fn around(a: Pos) -> impl Iterator<Item = Pos> {
    (-1..=1).flat_map(move |dy| {
        (-1..=1)
            .filter(move |&dx| dx != 0 || dy != 0)
            .map(move |dx| Pos::new(a.x + dx, a.y + dy))
    })
}

impl Engine<'_> {
    /// The `deploy` action: every Hero, then every Blip, each on the square its side chooses.
    /// A unit with no square left is not deployed, and the log says so.
    pub(crate) fn deploy(&mut self) {
        let Some(pending) = self.st.deploying.clone() else {
            return;
        };
        let mut anchors: Vec<Pos> = Vec::new();
        for (i, mut hero) in pending.heroes.into_iter().enumerate() {
            let squares = hero_squares(self.st, i, &anchors);
            let prompt = if i < 2 {
                format!("Deploy: which Yellow Square for {}?", hero.id)
            } else {
                format!("Deploy: where does {} go?", hero.id)
            };
            let Some(at) = self.choose_square(Side::Heroes, hero.id, prompt, &squares) else {
                self.emit(Event::ModelLost {
                    unit: hero.id,
                    reason: "no free square to deploy on".into(),
                });
                continue;
            };
            if i < 2 {
                anchors.push(at);
            }
            for m in &mut hero.models {
                m.pos = at;
            }
            let id = hero.id;
            self.st.units.push(hero);
            self.placed(id, Side::Heroes, at);
        }
        for mut blip in pending.blips {
            let squares = blip_squares(self.st);
            let prompt = format!("Deploy: where does Blip {} go?", blip.id);
            let Some(at) = self.choose_square(Side::Overmind, blip.id, prompt, &squares) else {
                self.emit(Event::ModelLost {
                    unit: blip.id,
                    reason: "no free square within reach of a Blip marker out of the Heroes' \
                             sight: not deployed"
                        .into(),
                });
                continue;
            };
            blip.pos = at;
            let id = blip.id;
            self.st.blips.push(blip);
            self.placed(id, Side::Overmind, at);
        }
        if let Some(d) = &mut self.st.deploying {
            d.heroes.clear();
            d.blips.clear();
        }
        self.st.deploying = None;
        // Items a campaign's Heroes carry in go where their carriers went (docs/RULES.md §16).
        self.carry_tokens();
        self.st.moved();
    }

    fn choose_square(
        &mut self,
        who: Side,
        subject: Id,
        prompt: String,
        squares: &[Pos],
    ) -> Option<Pos> {
        if squares.is_empty() {
            return None;
        }
        let options = squares.iter().map(|&p| Choice::Square(p)).collect();
        let i = self.ask_about(who, DecisionKind::Deploy, Some(&subject), prompt, options);
        squares.get(i).copied()
    }

    fn placed(&mut self, unit: Id, side: Side, at: Pos) {
        self.st.moved();
        self.emit(Event::Deployed { unit, side, at });
    }
}

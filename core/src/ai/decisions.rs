//! The greedy AI's answers to decisions: placements, destinations, behaviours and paths.

use super::plan::los;
use crate::data::geom::Pos;
use crate::data::state::GameState;
use crate::data::view::View;
use crate::rules::decision::{Choice, Controller, Decision, DecisionKind};

/// Answers decisions sensibly: placements and destinations close to the enemy, the rest first.
#[derive(Clone, Copy, Debug, Default)]
pub struct AiController;

impl Controller for AiController {
    fn decide(&mut self, view: View<'_>, d: &Decision) -> usize {
        let state = view.state();
        let squares = d.options.iter().any(|c| matches!(c, Choice::Square(_)));
        match d.kind {
            // A behaviour's choice among squares (TAKE COVER's cover, or staying) is judged like
            // a destination: the square closest to the enemy.
            DecisionKind::Placement | DecisionKind::Destination | DecisionKind::Choice
                if squares || d.kind != DecisionKind::Choice =>
            {
                let enemies: Vec<Pos> = state
                    .units
                    .iter()
                    .filter(|u| u.side != d.who)
                    .flat_map(|u| u.models.iter().map(|m| m.pos))
                    .collect();
                let near = |p: Pos| enemies.iter().map(|&e| p.distance(e)).min().unwrap_or(0);
                d.options
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| match c {
                        Choice::Square(p) => Some((near(*p), i)),
                        _ => None,
                    })
                    .min()
                    .map_or(0, |(_, i)| i)
            }
            DecisionKind::Deploy => deploy_choice(state, d),
            DecisionKind::Behaviour => behaviour_choice(state, d),
            DecisionKind::Path => path_choice(state, d),
            _ => 0,
        }
    }
}

/// Where to deploy (docs/RULES.md §7.2): the Heroes as far from the Blip markers as they may
/// (the nearest marker counts), the Overmind's Blips about a Blip's Move and a step from the nearest
/// Hero (out of sight, as every option is). Ties go to the first option.
fn deploy_choice(state: &GameState, d: &Decision) -> usize {
    /// How far from the nearest Hero the Overmind likes a Blip to start *(our choice)*.
    const AMBUSH_DISTANCE: i64 = 7;
    let score = |p: Pos| -> i64 {
        match d.who {
            crate::data::state::Side::Heroes => {
                let markers = state.deploying.as_ref().map(|x| x.markers.as_slice());
                markers
                    .unwrap_or_default()
                    .iter()
                    .map(|m| i64::from(p.distance(*m)))
                    .min()
                    .unwrap_or(0)
            }
            // A Blip's Move away from the nearest Hero: close enough to strike in round 1,
            // not so close that the Heroes' first steps reveal it.
            crate::data::state::Side::Overmind => {
                let near = state
                    .hero_models()
                    .map(|m| i64::from(p.distance(m.pos)))
                    .min()
                    .unwrap_or(0);
                -(near - AMBUSH_DISTANCE).abs()
            }
        }
    };
    let mut best: Option<(i64, usize)> = None;
    for (i, c) in d.options.iter().enumerate() {
        if let Choice::Square(p) = c {
            let s = score(*p);
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, i));
            }
        }
    }
    best.map_or(0, |(_, i)| i)
}

/// Pick a behaviour by the situation: shoot when a Hero is in the unit's sight and range,
/// rush when one is within reach, else the defensive ones (cover, protect), else the first.
fn behaviour_choice(state: &GameState, d: &Decision) -> usize {
    let Some(unit) = d.subject.as_deref().and_then(|u| state.unit(u)) else {
        return 0;
    };
    let o = state.compute_obstacles();
    let heroes: Vec<Pos> = state.hero_models().map(|m| m.pos).collect();
    let sees = |range: u32| {
        unit.models.iter().any(|m| {
            heroes
                .iter()
                .any(|&h| m.pos.distance(h) <= range && los(state, &o, m.pos, h))
        })
    };
    let near = unit
        .models
        .iter()
        .flat_map(|m| heroes.iter().map(move |&h| m.pos.distance(h)))
        .min()
        .unwrap_or(u32::MAX);
    let preference: &[&str] = if sees(6) {
        &["quick_shot", "terrifying_presence", "rush"]
    } else if near <= 6 {
        &["rush", "terrifying_presence", "take_cover", "protect"]
    } else {
        &["take_cover", "protect", "rush"]
    };
    preference
        .iter()
        .find_map(|p| {
            d.options
                .iter()
                .position(|c| matches!(c, Choice::Id(id) if id == p))
        })
        .unwrap_or(0)
}

/// How far the AI fears an Overwatch token reaches (a controller is not handed the content,
/// so not the watcher's real Shoot range).
const OVERWATCH_REACH: u32 = 8;

/// The path that crosses the fewest squares an enemy Overwatch could fire on (in the sight and
/// long range of a unit holding an Overwatch token); the first of those.
fn path_choice(state: &GameState, d: &Decision) -> usize {
    let o = state.compute_obstacles();
    let watchers: Vec<(Pos, u32)> = state
        .units
        .iter()
        .filter(|u| u.side != d.who && u.overwatch.is_some())
        .flat_map(|u| u.models.iter())
        .map(|m| (m.pos, OVERWATCH_REACH))
        .collect();
    if watchers.is_empty() {
        return 0;
    }
    let exposed = |p: &Pos| {
        watchers
            .iter()
            .any(|&(w, r)| w.distance(*p) <= r && los(state, &o, w, *p))
    };
    d.options
        .iter()
        .enumerate()
        .min_by_key(|(i, c)| match c {
            Choice::Path(p) => (p.iter().skip(1).filter(|q| exposed(q)).count(), *i),
            _ => (usize::MAX, *i),
        })
        .map_or(0, |(i, _)| i)
}

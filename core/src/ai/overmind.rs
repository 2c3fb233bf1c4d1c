//! The greedy Overmind's AI: cards, then Blips closing in out of sight, then revealed units.

use super::levels::Player;
use super::plan::{attack_action, los, next_of, step_towards};
use crate::board::movement::{reachable, Goal};
use crate::data::action::Action;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::interrupt::Interrupt;
use crate::data::map::Obstacles;
use crate::data::state::{ActionKind, Blip, GameState, Side, Unit};
use crate::data::view::View;
use crate::rules::content::Content;
use crate::rules::stats::Stats;

/// The Overmind's AI: Blips close in out of sight, flip when near, revealed units attack.
#[derive(Clone, Copy, Debug, Default)]
pub struct OvermindAi;

impl Player for OvermindAi {
    fn next_action(&mut self, view: View<'_>, content: &Content) -> Action {
        overmind_turn(
            view.state(),
            content,
            crate::ai::cards::card_action,
            blip_plan,
            alien_plan,
        )
    }
}

/// How a level moves one Blip: the state, obstacles, the Heroes' models and the Blip.
pub(crate) type BlipPlan = fn(&GameState, &Obstacles, &[(Id, Pos)], &Blip) -> Option<Action>;

/// How a level plays one revealed Alien Unit: the state, content, obstacles, the Heroes'
/// models and the unit.
pub(crate) type UnitPlan =
    fn(&GameState, &Content, &Obstacles, &[(Id, Pos)], &Unit) -> Option<Action>;

/// How a level plays its cards: the card action now, or `None` to leave the turn to the plan.
pub(crate) type CardPlan = fn(&GameState, &Content) -> Option<Action>;

/// The Overmind's next action: a card (by `cards`), else Blips first (by `blip`), then revealed
/// units (by `unit`).
pub(crate) fn overmind_turn(
    state: &GameState,
    content: &Content,
    cards: CardPlan,
    blip: BlipPlan,
    unit: UnitPlan,
) -> Action {
    if let Some(a) = cards(state, content) {
        return a;
    }
    let o = state.compute_obstacles();
    let heroes: Vec<(Id, Pos)> = state.hero_models().map(|m| (m.id, m.pos)).collect();
    if heroes.is_empty() {
        return Action::End;
    }
    let blips = state
        .blips
        .iter()
        .filter(|b| !b.activated)
        .map(|b| b.id.as_str());
    let units = state
        .units
        .iter()
        .filter(|u| u.side == Side::Overmind && u.alive() && !u.activated)
        .map(|u| u.id.as_str());
    if matches!(state.interrupt, Some(Interrupt::Acting { unit: None })) && state.active.is_none() {
        // An interruption's one activation, in the Heroes' phase: spent on a unit that attacks a
        // Hero now, before the Heroes can act; any other activation keeps for its own phase.
        return units
            .filter_map(|id| state.unit(id))
            .filter_map(|u| unit(state, content, &o, &heroes, u))
            .find(|a| matches!(a, Action::Melee { .. } | Action::Shoot { .. }))
            .unwrap_or(Action::End);
    }
    next_of(state, blips.chain(units), |id| {
        if let Some(b) = state.blip(id) {
            blip(state, &o, &heroes, b)
        } else {
            state
                .unit(id)
                .and_then(|u| unit(state, content, &o, &heroes, u))
        }
    })
}

/// A Blip flips when a Hero is near, else closes in without entering any Hero's sight.
fn blip_plan(state: &GameState, o: &Obstacles, heroes: &[(Id, Pos)], b: &Blip) -> Option<Action> {
    if !b.used.is_empty() {
        return None;
    }
    let near = heroes
        .iter()
        .map(|(_, h)| h.distance(b.pos))
        .min()
        .unwrap_or(u32::MAX);
    if near <= 3 {
        return Some(Action::Flip { unit: b.id });
    }
    close_in(state, o, heroes, b, near)
}

/// The Blip's move to the square nearest a Hero (nearer than `near`) that no Hero sees, if any.
pub(crate) fn close_in(
    state: &GameState,
    o: &Obstacles,
    heroes: &[(Id, Pos)],
    b: &Blip,
    near: u32,
) -> Option<Action> {
    let mut o2 = o.clone();
    o2.remove(b.pos);
    let mut reach: Vec<(u32, u32, Pos)> =
        reachable(&state.map, o, b.pos, state.rules.blip_movement)
            .into_iter()
            .filter(|&(_, s)| s > 0)
            .map(|(p, s)| {
                let d = heroes.iter().map(|(_, h)| h.distance(p)).min().unwrap_or(0);
                (d, s, p)
            })
            .filter(|&(d, _, _)| d < near)
            .collect();
    reach.sort_by_key(|&(d, s, p)| (d, s, p.y, p.x));
    // Best first, so sight is checked only until the first hidden square.
    reach
        .into_iter()
        .find(|&(_, _, p)| !heroes.iter().any(|(_, h)| los(state, &o2, *h, p)))
        .map(|(_, _, to)| Action::Move {
            unit: b.id,
            to,
            via: Vec::new(),
        })
}

/// A revealed unit attacks what it can, else moves each model towards the nearest Hero.
pub(crate) fn alien_plan(
    state: &GameState,
    content: &Content,
    o: &Obstacles,
    heroes: &[(Id, Pos)],
    u: &Unit,
) -> Option<Action> {
    if crate::rules::stats::no_action_left(state, &u.used) {
        return None;
    }
    if let Some(a) = attack_action(state, content, u, o, heroes) {
        return Some(a);
    }
    let moving = u.used.last() == Some(&ActionKind::Move);
    if u.used.contains(&ActionKind::Move) && !moving {
        return None;
    }
    let goal = Goal::AdjacentTo(heroes.iter().map(|(_, p)| *p).collect());
    for m in &u.models {
        if (moving && state.moved_this_action.contains(&m.id)) || m.status.stunned {
            continue;
        }
        if m.status.knocked_down {
            return Some(Action::Move {
                unit: m.id,
                to: m.pos,
                via: Vec::new(),
            });
        }
        let mv = Stats::movement(state, content, Side::Overmind, m);
        if m.xxl {
            // A 2×2 base plans its own moves; walled off, it breaks the wall (docs/RULES.md
            // §4.4, §5.4).
            let t = crate::board::movement::block_towards(&state.map, o, m.pos, &goal, mv);
            match t.ends.first() {
                Some(&to) if t.steps > 0 && to != m.pos => {
                    return Some(Action::Move {
                        unit: m.id,
                        to,
                        via: Vec::new(),
                    })
                }
                _ => {
                    let breach = Action::DestroyWall { unit: m.id };
                    if crate::rules::validate::is_legal_for(state, content, Side::Overmind, &breach)
                    {
                        return Some(breach);
                    }
                    continue;
                }
            }
        }
        if let Some(to) = step_towards(state, o, m.pos, &goal, mv, Side::Overmind) {
            return Some(Action::Move {
                unit: m.id,
                to,
                via: Vec::new(),
            });
        }
    }
    None
}

//! The greedy Heroes' AI: advance on the objective or the enemy, attack, keep away when hurt.

use super::levels::Player;
use super::plan::{attack_action, next_of, step_towards};
use crate::board::movement::{reachable, Goal};
use crate::data::action::Action;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::map::Obstacles;
use crate::data::state::{ActionKind, GameState, Objective, Side, Unit};
use crate::data::view::View;
use crate::rules::content::Content;
use crate::rules::stats::Stats;

/// The Heroes' AI: advance, shoot or fight what they see, keep out of reach when hurt.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeroAi;

impl Player for HeroAi {
    fn next_action(&mut self, view: View<'_>, content: &Content) -> Action {
        let state = view.state();
        let o = state.compute_obstacles();
        let order = state
            .units
            .iter()
            .filter(|u| u.side == Side::Heroes && u.alive() && !u.extracted && !u.activated)
            .map(|u| u.id.as_str());
        next_of(state, order, |id| {
            state
                .unit(id)
                .and_then(|u| hero_plan(state, content, &o, u))
        })
    }
}

/// What a Hero does next in its activation, if anything.
pub(crate) fn hero_plan(
    state: &GameState,
    content: &Content,
    o: &Obstacles,
    u: &Unit,
) -> Option<Action> {
    {
        let o = o.clone();
        let m = u.models.first()?;
        if crate::rules::stats::no_action_left(state, &u.used) {
            return None;
        }
        if m.status.stunned {
            return (!u.used.contains(&ActionKind::Interact))
                .then_some(Action::Interact { unit: u.id });
        }
        // Objective squares.
        let (goal_squares, interact_here) = match &state.objective {
            Objective::Extract { squares, .. } => {
                let s: Vec<Pos> = if squares.is_empty() {
                    state
                        .map
                        .squares_of(crate::data::map::Terrain::Yellow)
                        .collect()
                } else {
                    squares.clone()
                };
                let here = s.contains(&m.pos);
                (s, here)
            }
            Objective::Interact { squares } => {
                let left: Vec<Pos> = squares
                    .iter()
                    .copied()
                    .filter(|s| !state.activated_objectives.contains(s))
                    .collect();
                let here = left.contains(&m.pos);
                (left, here)
            }
            _ => (Vec::new(), false),
        };
        if interact_here && !u.used.contains(&ActionKind::Interact) {
            return Some(Action::Interact { unit: u.id });
        }
        let enemies: Vec<(Id, Pos)> = state
            .units
            .iter()
            .filter(|e| e.side == Side::Overmind)
            .flat_map(|e| e.models.iter().map(|m| (m.id, m.pos)))
            .chain(state.blips.iter().map(|b| (b.id, b.pos)))
            .collect();
        if let Some(a) = attack_action(state, content, u, &o, &enemies) {
            return Some(a);
        }
        let movement = Stats::movement(state, content, Side::Heroes, m);
        if !u.used.contains(&ActionKind::Move) && !m.status.knocked_down {
            let hurt = m.health * 3 <= m.max_health;
            let dest = if hurt && !enemies.is_empty() && goal_squares.is_empty() {
                // Keep out of reach: the reachable square farthest from every enemy.
                reachable(&state.map, &o, m.pos, movement)
                    .into_iter()
                    .max_by_key(|&(p, s)| {
                        (
                            enemies
                                .iter()
                                .map(|(_, e)| p.distance(*e))
                                .min()
                                .unwrap_or(0),
                            std::cmp::Reverse(s),
                        )
                    })
                    .map(|(p, _)| p)
                    .filter(|&p| p != m.pos)
            } else {
                let goal = if goal_squares.is_empty() {
                    Goal::AdjacentTo(enemies.iter().map(|(_, p)| *p).collect())
                } else {
                    Goal::Squares(goal_squares)
                };
                step_towards(state, &o, m.pos, &goal, movement, Side::Heroes)
            };
            if let Some(to) = dest {
                return Some(Action::Move {
                    unit: u.id,
                    to,
                    via: Vec::new(),
                });
            }
        } else if m.status.knocked_down && !u.used.contains(&ActionKind::Move) {
            return Some(Action::Move {
                unit: u.id,
                to: m.pos,
                via: Vec::new(),
            });
        }
        let can_shoot = content
            .heroes
            .get(m.kind.as_str())
            .is_some_and(|p| p.shoot.is_some());
        (!u.used.contains(&ActionKind::Overwatch) && can_shoot)
            .then_some(Action::Overwatch { unit: u.id })
    }
}

//! The Overmind's turn at `standard` and above: Blips that flip or fall back, units that pick
//! their attacks by worth or lie in wait.

use super::bare::Bare;
use super::odds::with_odds;
use crate::ai::{Level, Player};
use crate::board::los::LineOfSight;
use crate::board::movement::{adjacent, reachable};
use crate::data::action::Action;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::map::Obstacles;
use crate::data::state::{ActionKind, Blip, Contents, GameState, Side, Unit};
use crate::data::view::View;
use crate::rules::content::Content;
use crate::rules::stats::Stats;

/// How near a Hero must be for a Blip holding a unit to flip.
const FLIP_DISTANCE: u32 = 3;

/// The Overmind's turn at `standard` and above: Alien Behaviours by look-ahead (see
/// [`Lookahead`]); a Blip holding a unit closes in unseen and flips when a Hero is within
/// [`FLIP_DISTANCE`]; a Decoy never flips and never walks into sight, it falls back out of
/// every Hero's sight (the Heroes must hunt it down, which costs them rounds: the bluff).
/// Revealed units pick their attacks by what they are worth and lie in wait out of sight
/// (`alien_plan` below).
///
/// [`Lookahead`]: super::Lookahead
#[derive(Clone, Copy, Debug)]
pub struct OvermindPlanner {
    level: Level,
}

impl OvermindPlanner {
    #[must_use]
    pub fn new(level: Level) -> OvermindPlanner {
        OvermindPlanner { level }
    }
}

impl Player for OvermindPlanner {
    fn next_action(&mut self, view: View<'_>, content: &Content) -> Action {
        let _ = self.level;
        crate::ai::overmind_turn(
            view.state(),
            content,
            crate::ai::cards::standard_card_action,
            blip_plan,
            alien_plan,
        )
    }
}

/// A revealed unit at `standard`: of the attacks it can make now it makes the one worth most
/// (the Health it is expected to take, a kill above all: focus on the wounded Hero); one that
/// no Hero sees and no Hero is within reach of lies in wait (the Heroes must come to it, into
/// its reach, and they have rounds to lose); else it plays as the greedy AI does (closes in on
/// the nearest Hero, then attacks). Closing in on the Hero it would hurt most instead, or
/// holding back a shooter once it has shot, lost more games (docs/BENCHMARKS.md).
fn alien_plan(
    state: &GameState,
    content: &Content,
    o: &Obstacles,
    heroes: &[(Id, Pos)],
    u: &Unit,
) -> Option<Action> {
    if crate::rules::stats::no_action_left(state, &u.used) {
        return None;
    }
    if let Some(a) = alien_attack(state, content, o, u) {
        return Some(a);
    }
    // Lie in wait out of sight until a Hero comes within reach: the Heroes must come to it.
    if u.used.is_empty() && lies_in_wait(state, content, o, heroes, u) {
        return None;
    }
    crate::ai::alien_plan(state, content, o, heroes, u)
}

/// Whether no Hero is within the unit's reach (to fight this activation) and none sees it.
fn lies_in_wait(
    state: &GameState,
    content: &Content,
    o: &Obstacles,
    heroes: &[(Id, Pos)],
    u: &Unit,
) -> bool {
    let out_of_reach = u.models.iter().all(|m| {
        let mv = Stats::movement(state, content, Side::Overmind, m);
        if m.xxl {
            // A 2×2 base: its own search, to a square next to each Hero.
            return heroes.iter().all(|(_, h)| {
                let goal = crate::board::movement::Goal::AdjacentTo(vec![*h]);
                crate::board::movement::block_distance(&state.map, o, m.pos, &goal)
                    .is_none_or(|d| d > mv)
            });
        }
        let near = Bare::near(&state.map, m.pos, mv + 2);
        heroes
            .iter()
            .all(|(_, h)| near.get(*h).is_none_or(|d| d > mv + 1))
    });
    out_of_reach
        && u.models.iter().all(|m| {
            heroes.iter().all(|(_, h)| {
                // An XXL model is seen by any of its four squares (docs/RULES.md §4.4).
                !crate::board::los::base_visible(
                    &state.rules.los,
                    &state.map,
                    o,
                    *h,
                    false,
                    m.pos,
                    m.xxl,
                )
            })
        })
}

/// What killing a Hero is worth to the Overmind beyond the Health it takes.
const KILL_WORTH: f64 = 6.0;

/// The unit's best attack now, by its expected worth: the Health it takes, a kill above all.
fn alien_attack(state: &GameState, content: &Content, o: &Obstacles, u: &Unit) -> Option<Action> {
    if u.models
        .iter()
        .all(|m| m.status.knocked_down || m.status.stunned)
    {
        return None;
    }
    let melee_ok = !u.used.contains(&ActionKind::Melee);
    let shoot_ok = !u.used.contains(&ActionKind::Shoot);
    let rules = &state.rules;
    let los = |a: Pos, b: Pos| rules.los.visible(&state.map, o, a, b);
    let mut best: Option<(f64, Action)> = None;
    for h in state
        .units
        .iter()
        .filter(|h| h.side == Side::Heroes && !h.extracted)
    {
        let Some(hm) = h.models.first() else { continue };
        if !content.heroes.contains_key(hm.kind.as_str()) {
            continue;
        }
        let defence = Stats::of(state, content, Side::Heroes, hm).defence;
        let (mut melee, mut shoot) = (0u32, 0u32);
        for m in &u.models {
            if m.status.knocked_down || m.status.stunned {
                continue;
            }
            let Some(t) = content.aliens.get(m.kind.as_str()) else {
                continue;
            };
            let shaken = m.status.shaken_by.is_some();
            if adjacent(&state.map, m.pos, hm.pos) {
                if melee_ok && !shaken && los(m.pos, hm.pos) {
                    melee += t.melee;
                }
            } else if let Some(cv) = t.shoot.and_then(|s| s.cv_at(m.pos.distance(hm.pos))) {
                if shoot_ok && los(m.pos, hm.pos) {
                    shoot += cv;
                }
            }
        }
        for (cv, action) in [
            (
                melee,
                Action::Melee {
                    unit: u.id,
                    target: hm.id,
                },
            ),
            (
                shoot,
                Action::Shoot {
                    unit: u.id,
                    target: hm.id,
                },
            ),
        ] {
            if cv == 0 {
                continue;
            }
            let def = defence.max(1);
            let v = with_odds(rules, cv, def, |odds| {
                odds.p
                    .iter()
                    .enumerate()
                    .map(|(d, p)| {
                        let d = d as u32;
                        p * (f64::from(d.min(hm.health))
                            + if d >= hm.health { KILL_WORTH } else { 0.0 })
                    })
                    .sum::<f64>()
            });
            if best.as_ref().is_none_or(|(b, _)| v > *b + 1e-9) {
                best = Some((v, action));
            }
        }
    }
    let action = best.map(|(_, a)| a)?;
    crate::rules::validate::is_legal_for(state, content, Side::Overmind, &action).then_some(action)
}

fn blip_plan(state: &GameState, o: &Obstacles, heroes: &[(Id, Pos)], b: &Blip) -> Option<Action> {
    if !b.used.is_empty() {
        return None;
    }
    match &b.contents {
        Some(Contents::Unit { .. }) | None => {
            // Flipping as soon as a Hero is this near beat waiting until the unit would have
            // one in reach: the Heroes won 30 % of games against 43 % (docs/BENCHMARKS.md).
            let near = heroes
                .iter()
                .map(|(_, h)| h.distance(b.pos))
                .min()
                .unwrap_or(u32::MAX);
            if near <= FLIP_DISTANCE {
                Some(Action::Flip { unit: b.id })
            } else {
                crate::ai::close_in(state, o, heroes, b, near)
            }
        }
        Some(Contents::Decoy) => fall_back(state, o, heroes, b),
    }
}

/// The square in a Blip's reach farthest from the Heroes that no Hero sees, if it is farther
/// than where the Blip stands.
fn fall_back(state: &GameState, o: &Obstacles, heroes: &[(Id, Pos)], b: &Blip) -> Option<Action> {
    let far = |p: Pos| heroes.iter().map(|(_, h)| h.distance(p)).min().unwrap_or(0);
    let here = far(b.pos);
    let mut o2 = o.clone();
    o2.remove(b.pos);
    let mut reach: Vec<(u32, u32, Pos)> =
        reachable(&state.map, o, b.pos, state.rules.blip_movement)
            .into_iter()
            .filter(|&(p, s)| s > 0 && far(p) > here)
            .map(|(p, s)| (far(p), s, p))
            .collect();
    // Farthest first, fewest steps, then reading order: deterministic.
    reach.sort_by_key(|&(d, s, p)| (std::cmp::Reverse(d), s, p.y, p.x));
    reach
        .into_iter()
        .find(|&(_, _, p)| {
            !heroes
                .iter()
                .any(|(_, h)| state.rules.los.visible(&state.map, &o2, *h, p))
        })
        .map(|(_, _, to)| Action::Move {
            unit: b.id,
            to,
            via: Vec::new(),
        })
}

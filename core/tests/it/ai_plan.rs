//! The AI's planner against the unoptimised one it replaced: the same seeds must give the same
//! event streams. `reference` below is the planner as it was before it reused its searches
//! (`core/src/ai.rs` at 8a88875, types renamed): every `towards` and `reachable` computed afresh
//! on every call. If the AI's choices are changed on purpose, change the reference with them.

use crate::common;

mod reference {
    #![allow(clippy::all, dead_code)]
    use overmind_core::action::Action;
    use overmind_core::ai::Player;
    use overmind_core::content::Content;
    use overmind_core::decision::{Choice, Controller, Decision, DecisionKind};
    use overmind_core::geom::Pos;
    use overmind_core::los::LineOfSight;
    use overmind_core::map::Obstacles;
    use overmind_core::movement::{adjacent, reachable, towards, Goal};
    use overmind_core::state::{ActionKind, Blip, GameState, Objective, Side, Unit};
    use overmind_core::Id;
    use overmind_core::View;

    /// Answers decisions sensibly: placements and destinations close to the enemy, the rest first.
    pub struct RefController;

    impl Controller for RefController {
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
                DecisionKind::Behaviour => behaviour_choice(state, d),
                DecisionKind::Path => path_choice(state, d),
                _ => 0,
            }
        }
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

    fn los(state: &GameState, o: &Obstacles, a: Pos, b: Pos) -> bool {
        state.rules.los.visible(&state.map, o, a, b)
    }

    /// The Heroes' AI: advance, shoot or fight what they see, keep out of reach when hurt.
    pub struct RefHeroAi;

    /// The Overmind's AI: Blips close in out of sight, flip when near, revealed units attack.
    pub struct RefOvermindAi;

    fn attack_action(
        state: &GameState,
        content: &Content,
        u: &Unit,
        o: &Obstacles,
        targets: &[(Id, Pos)],
    ) -> Option<Action> {
        if u.models
            .iter()
            .all(|m| m.status.knocked_down || m.status.stunned)
        {
            return None;
        }
        let shoot_range = |kind: &str| match u.side {
            Side::Heroes => content
                .heroes
                .get(kind)
                .and_then(|p| p.shoot)
                .map(|s| s.max_range()),
            Side::Overmind => content
                .aliens
                .get(kind)
                .and_then(|t| t.shoot)
                .map(|s| s.max_range()),
        };
        let melee_ok = !u.used.contains(&ActionKind::Melee);
        let shoot_ok = !u.used.contains(&ActionKind::Shoot);
        // Melee an adjacent enemy first, else shoot the nearest in range and sight.
        for model in &u.models {
            for (id, p) in targets {
                if melee_ok
                    && adjacent(&state.map, model.pos, *p)
                    && los(state, o, model.pos, *p)
                    && model.status.shaken_by.is_none()
                {
                    return Some(Action::Melee {
                        unit: u.id.clone(),
                        target: Id::from(&id),
                    });
                }
            }
        }
        if shoot_ok {
            let mut best: Option<(u32, Id)> = None;
            for model in &u.models {
                let Some(r) = shoot_range(&model.kind) else {
                    continue;
                };
                for (id, p) in targets {
                    let d = model.pos.distance(*p);
                    if d <= r
                        && !adjacent(&state.map, model.pos, *p)
                        && los(state, o, model.pos, *p)
                        && best.as_ref().is_none_or(|(bd, _)| d < *bd)
                    {
                        best = Some((d, id.clone()));
                    }
                }
            }
            if let Some((_, id)) = best {
                return Some(Action::Shoot {
                    unit: u.id.clone(),
                    target: Id::from(id),
                });
            }
        }
        None
    }

    /// Move `model` up to `steps` towards `goal`; `None` if it cannot get any closer.
    fn step_towards(
        state: &GameState,
        o: &Obstacles,
        from: Pos,
        goal: Goal,
        steps: u32,
    ) -> Option<Pos> {
        let t = towards(&state.map, o, from, goal, steps);
        let end = *t.ends.first()?;
        (t.steps > 0 && end != from).then_some(end)
    }

    /// The active unit's next action, else the first unit (in `order`) with something to do;
    /// `End` when nothing is left worth doing. A unit with nothing to do is skipped, not ended,
    /// since `End` with no activation under way ends the whole phase.
    fn next_of<'a>(
        state: &'a GameState,
        order: impl Iterator<Item = &'a str>,
        mut plan: impl FnMut(&'a str) -> Option<Action>,
    ) -> Action {
        if let Some(id) = state.active.as_deref() {
            return plan(id).unwrap_or(Action::End);
        }
        order.filter_map(&mut plan).next().unwrap_or(Action::End)
    }

    impl Player for RefHeroAi {
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
    fn hero_plan(state: &GameState, content: &Content, o: &Obstacles, u: &Unit) -> Option<Action> {
        {
            let o = o.clone();
            let m = u.models.first()?;
            if u.used.len() >= 2 {
                return None;
            }
            if m.status.stunned {
                return (!u.used.contains(&ActionKind::Interact))
                    .then(|| Action::Interact { unit: u.id.clone() });
            }
            // Objective squares.
            let (goal_squares, interact_here) = match &state.objective {
                Objective::Extract { squares, .. } => {
                    let s: Vec<Pos> = if squares.is_empty() {
                        state
                            .map
                            .squares_of(overmind_core::map::Terrain::Yellow)
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
                return Some(Action::Interact { unit: u.id.clone() });
            }
            let enemies: Vec<(Id, Pos)> = state
                .units
                .iter()
                .filter(|e| e.side == Side::Overmind)
                .flat_map(|e| e.models.iter().map(|m| (m.id.clone(), m.pos)))
                .chain(state.blips.iter().map(|b| (b.id.clone(), b.pos)))
                .collect();
            if let Some(a) = attack_action(state, content, u, &o, &enemies) {
                return Some(a);
            }
            let movement = content
                .heroes
                .get(m.kind.as_str())
                .map_or(4, |p| p.movement);
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
                } else if !goal_squares.is_empty() {
                    step_towards(state, &o, m.pos, Goal::Squares(goal_squares), movement)
                } else {
                    step_towards(
                        state,
                        &o,
                        m.pos,
                        Goal::AdjacentTo(enemies.iter().map(|(_, p)| *p).collect()),
                        movement,
                    )
                };
                if let Some(to) = dest {
                    return Some(Action::Move {
                        unit: u.id.clone(),
                        to,
                        via: Vec::new(),
                    });
                }
            } else if m.status.knocked_down && !u.used.contains(&ActionKind::Move) {
                return Some(Action::Move {
                    unit: u.id.clone(),
                    to: m.pos,
                    via: Vec::new(),
                });
            }
            let can_shoot = content
                .heroes
                .get(m.kind.as_str())
                .is_some_and(|p| p.shoot.is_some());
            (!u.used.contains(&ActionKind::Overwatch) && can_shoot)
                .then(|| Action::Overwatch { unit: u.id.clone() })
        }
    }

    impl Player for RefOvermindAi {
        fn next_action(&mut self, view: View<'_>, content: &Content) -> Action {
            let state = view.state();
            let o = state.compute_obstacles();
            let heroes: Vec<(Id, Pos)> =
                state.hero_models().map(|m| (m.id.clone(), m.pos)).collect();
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
            next_of(state, blips.chain(units), |id| {
                if let Some(b) = state.blip(id) {
                    blip_plan(state, &o, &heroes, b)
                } else {
                    state
                        .unit(id)
                        .and_then(|u| alien_plan(state, content, &o, &heroes, u))
                }
            })
        }
    }

    /// A Blip flips when a Hero is near, else closes in without entering any Hero's sight.
    fn blip_plan(
        state: &GameState,
        o: &Obstacles,
        heroes: &[(Id, Pos)],
        b: &Blip,
    ) -> Option<Action> {
        if !b.used.is_empty() {
            return None;
        }
        let near = heroes
            .iter()
            .map(|(_, h)| h.distance(b.pos))
            .min()
            .unwrap_or(u32::MAX);
        if near <= 3 {
            return Some(Action::Flip { unit: b.id.clone() });
        }
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
                unit: b.id.clone(),
                to,
                via: Vec::new(),
            })
    }

    /// A revealed unit attacks what it can, else moves each model towards the nearest Hero.
    fn alien_plan(
        state: &GameState,
        content: &Content,
        o: &Obstacles,
        heroes: &[(Id, Pos)],
        u: &Unit,
    ) -> Option<Action> {
        if u.used.len() >= 2 {
            return None;
        }
        if let Some(a) = attack_action(state, content, u, o, heroes) {
            return Some(a);
        }
        let moving = u.used.last() == Some(&ActionKind::Move);
        if u.used.contains(&ActionKind::Move) && !moving {
            return None;
        }
        for m in &u.models {
            if (moving && state.moved_this_action.contains(&m.id)) || m.status.stunned {
                continue;
            }
            if m.status.knocked_down {
                return Some(Action::Move {
                    unit: m.id.clone(),
                    to: m.pos,
                    via: Vec::new(),
                });
            }
            let mv = content
                .aliens
                .get(m.kind.as_str())
                .map_or(4, |t| t.movement);
            let goal = Goal::AdjacentTo(heroes.iter().map(|(_, p)| *p).collect());
            if let Some(to) = step_towards(state, o, m.pos, goal, mv) {
                return Some(Action::Move {
                    unit: m.id.clone(),
                    to,
                    via: Vec::new(),
                });
            }
        }
        None
    }
}

use common::{base_like, demo_setup};
use overmind_core::ai::{ai_step, play_ai_game};
use overmind_core::{Controllers, Event, Game};

/// A game of the demo mission played to the end by `play`.
fn game(seed: u64, play: impl FnOnce(&mut Game)) -> Vec<Event> {
    let setup = demo_setup();
    let content = base_like();
    let st = setup.start(&content, seed).expect("the demo starts");
    let mut g = Game::new(st, "demo", seed);
    play(&mut g);
    g.log
}

fn reference_game(seed: u64) -> Vec<Event> {
    let content = base_like();
    game(seed, |g| {
        let mut ctl = Controllers::new(
            Box::new(reference::RefController),
            Box::new(reference::RefController),
        );
        let (mut h, mut o) = (reference::RefHeroAi, reference::RefOvermindAi);
        for _ in 0..20_000 {
            if !ai_step(g, &content, &mut ctl, &mut h, &mut o) {
                break;
            }
        }
    })
}

fn planner_game(seed: u64) -> Vec<Event> {
    let content = base_like();
    game(seed, |g| play_ai_game(g, &content, 20_000))
}

#[test]
fn the_planner_plays_as_the_unoptimised_one_did() {
    for seed in 0..200 {
        let (want, got) = (reference_game(seed), planner_game(seed));
        assert_eq!(want.len(), got.len(), "seed {seed}: event count");
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            assert_eq!(w, g, "seed {seed}, event {i}");
        }
    }
}

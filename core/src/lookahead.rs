//! The look-ahead AI (`standard`, `strong`): each Alien Behaviour option is performed on copies
//! of the state and the results scored; the turn is played with the fixes the greedy AI lacks.

use crate::action::Action;
use crate::ai::{AiController, HeroAi, Level, Player};
use crate::behaviour::BehaviourCtx;
use crate::content::Content;
use crate::decision::{Budget, Controller, Controllers, Decision, DecisionKind};
use crate::engine::Engine;
use crate::geom::Pos;
use crate::id::Id;
use crate::los::LineOfSight;
use crate::map::Obstacles;
use crate::movement::{reachable, Goal};
use crate::state::{ActionKind, Blip, Contents, GameState, Side};
use crate::view::View;
use rand::SeedableRng;

/// The look-ahead on each Alien Behaviour option at each level: `standard` scores the
/// behaviour's own outcome on 2 copies; `strong` plays 12 copies on for 80 more actions each
/// (the rest of the phase and the reply), well inside a second a decision.
#[must_use]
pub fn budget(level: Level) -> Option<Budget> {
    match level {
        Level::Greedy => None,
        Level::Standard => Some(Budget {
            samples: 1,
            playout: 0,
        }),
        Level::Strong => Some(Budget {
            samples: 12,
            playout: 80,
        }),
    }
}

/// What a state is worth to the Overmind: damage and kills on the Heroes, its own losses, how
/// close its units stand to the Heroes, and the game's outcome. Only differences matter.
#[must_use]
pub fn overmind_value(st: &GameState, content: &Content) -> f64 {
    if let Some(o) = &st.outcome {
        return if o.winner == Side::Overmind {
            1e4
        } else {
            -1e4
        };
    }
    let mut v = 0.0;
    let heroes: Vec<crate::geom::Pos> = st.hero_models().map(|m| m.pos).collect();
    for u in &st.units {
        match u.side {
            Side::Heroes => {
                if u.extracted {
                    v -= 30.0;
                    continue;
                }
                match u.models.first() {
                    None => v += 40.0,
                    Some(m) => {
                        v += 10.0 * f64::from(m.max_health.saturating_sub(m.health));
                        if m.status.knocked_down || m.status.stunned {
                            v += 3.0;
                        }
                        if m.status.shaken_by.is_some() {
                            v += 2.0;
                        }
                    }
                }
            }
            Side::Overmind => {
                for m in &u.models {
                    v += 8.0 + 3.0 * f64::from(m.health);
                    let near = heroes.iter().map(|h| m.pos.distance(*h)).min().unwrap_or(0);
                    let ranged = content
                        .aliens
                        .get(m.kind.as_str())
                        .and_then(|t| t.shoot)
                        .map(|s| s.max_range());
                    // Melee units want to be adjacent, shooters within their range.
                    let want = ranged.unwrap_or(1);
                    v -= 0.4 * f64::from(near.saturating_sub(want));
                }
            }
        }
    }
    // Time is on the Overmind's side: Heroes far from the Blips they must find are slow.
    for h in &heroes {
        let near = st
            .blips
            .iter()
            .map(|b| b.pos.distance(*h))
            .min()
            .unwrap_or(0);
        v += 0.3 * f64::from(near);
    }
    v + 4.0 * st.blips.len() as f64
}

/// The seed of one look-ahead sample: the copy rolls its own dice, so the choice never reads
/// the real game's coming rolls, and the real stream is not drawn from.
fn sample_seed(st: &GameState, unit: &str, option: usize, sample: u32) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |x: u64| {
        h ^= x;
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    mix(u64::from(st.round));
    mix(st.rng.get_word_pos() as u64);
    mix(u64::from(st.next_id));
    for b in unit.bytes() {
        mix(u64::from(b));
    }
    mix(option as u64);
    mix(u64::from(sample));
    h
}

/// The mean gain in [`overmind_value`] of performing behaviour `b` for `unit`, over `samples`
/// play-outs on copies, plus what the behaviour's own `ai_score` says (on another copy).
pub(crate) fn score_behaviour(
    eng: &mut Engine<'_>,
    unit: &str,
    b: Id,
    option: usize,
    budget: Budget,
) -> f64 {
    let samples = budget.samples.max(1);
    let content = eng.content;
    let before = overmind_value(eng.st, content);
    let mut total = 0.0;
    for k in 0..samples {
        let mut copy = eng.st.clone();
        copy.rng = rand_chacha::ChaCha8Rng::seed_from_u64(sample_seed(eng.st, unit, option, k));
        let mut ctl = Controllers::new(Box::new(AiController), Box::new(AiController));
        let mut sub = Engine::new(&mut copy, content, &mut ctl);
        sub.actor = eng.actor;
        sub.depth = eng.depth;
        sub.perform_chosen(unit, b);
        drop(sub);
        if budget.playout > 0 {
            copy = play_on(copy, content, budget.playout);
        }
        total += overmind_value(&copy, content) - before;
    }
    let mut score = total / f64::from(samples);
    if let Some(beh) = content
        .behaviours
        .get(b.as_str())
        .filter(|beh| beh.has_ai_score())
        .cloned()
    {
        let mut copy = eng.st.clone();
        let mut ctl = Controllers::new(Box::new(AiController), Box::new(AiController));
        let mut sub = Engine::new(&mut copy, content, &mut ctl);
        sub.actor = Side::Overmind;
        sub.depth = eng.depth + 1;
        let mut ctx = BehaviourCtx::for_score(&mut sub, Id::from(unit), b);
        if let Some(s) = beh.ai_score(&mut ctx) {
            if s.is_finite() {
                score += s;
            }
        }
    }
    score
}

/// `state` played on by the greedy AIs for at most `actions` actions.
fn play_on(state: GameState, content: &Content, actions: u32) -> GameState {
    let mut game = crate::game::Game::new(state, "", 0);
    let mut ctl = Controllers::new(Box::new(AiController), Box::new(AiController));
    let (mut h, mut o) = (HeroAi, crate::ai::OvermindAi);
    for _ in 0..actions {
        if !crate::ai::ai_step(&mut game, content, &mut ctl, &mut h, &mut o) {
            break;
        }
    }
    game.state
}

/// The look-ahead controller: Alien Behaviours by their play-out scores, the rest as the
/// greedy controller answers them.
#[derive(Clone, Copy, Debug)]
pub struct Lookahead {
    level: Level,
}

impl Lookahead {
    #[must_use]
    pub fn new(level: Level) -> Lookahead {
        Lookahead { level }
    }
}

impl Controller for Lookahead {
    fn decide(&mut self, view: View<'_>, d: &Decision) -> usize {
        AiController.decide(view, d)
    }

    fn lookahead(&self) -> Option<Budget> {
        budget(self.level)
    }

    fn decide_scored(&mut self, view: View<'_>, d: &Decision, scores: &[f64]) -> usize {
        if d.kind != DecisionKind::Behaviour || scores.len() != d.options.len() {
            return self.decide(view, d);
        }
        // The best score; the first listed on a tie.
        let mut best = 0;
        for (i, s) in scores.iter().enumerate() {
            if *s > scores[best] + 1e-9 {
                best = i;
            }
        }
        best
    }
}

/// How near a Hero must be for a Blip holding a unit to flip.
const FLIP_DISTANCE: u32 = 3;

/// The Overmind's turn at `standard` and above: Alien Behaviours by look-ahead (see
/// [`Lookahead`]); a Blip holding a unit closes in unseen and flips when a Hero is within
/// [`FLIP_DISTANCE`]; a Decoy never flips and never walks into sight, it falls back out of
/// every Hero's sight (the Heroes must hunt it down, which costs them rounds: the bluff).
/// Revealed units play as the greedy AI plays them.
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
        crate::ai::overmind_turn(view.state(), content, blip_plan)
    }
}

fn blip_plan(state: &GameState, o: &Obstacles, heroes: &[(Id, Pos)], b: &Blip) -> Option<Action> {
    if !b.used.is_empty() {
        return None;
    }
    match &b.contents {
        Some(Contents::Unit { .. }) | None => {
            // Flipping as soon as a Hero is this near beat waiting until the unit would have
            // one in reach: the Heroes won 30 % of games against 43 % (docs/BENCHMARKS.md).
            if heroes
                .iter()
                .any(|(_, h)| h.distance(b.pos) <= FLIP_DISTANCE)
            {
                Some(Action::Flip { unit: b.id })
            } else {
                crate::ai::blip_close_in(state, b)
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

/// The Heroes' turn at `standard` and `strong` (the same today), from the Heroes' view only: as
/// the greedy AI, but the Heroes who can attack act first, and a Hero with nothing to shoot and
/// no revealed alien near Sprints on instead of standing on Overwatch (Decoys that fall back must be hunted down before the
/// round limit). A search over determinized copies of the Heroes' view (face-down Blips given
/// contents sampled from what the Heroes had seen, then played on by the greedy AIs) was tried
/// for `strong` and lost more games than this (docs/BENCHMARKS.md), so it is not used.
#[derive(Clone, Copy, Debug)]
pub struct HeroPlanner {
    level: Level,
}

impl HeroPlanner {
    #[must_use]
    pub fn new(level: Level) -> HeroPlanner {
        HeroPlanner { level }
    }
}

impl Player for HeroPlanner {
    fn next_action(&mut self, view: View<'_>, content: &Content) -> Action {
        let state = view.state();
        // Heroes who can attack now act first: fire before the aliens close in.
        if state.active.is_none() {
            let o = state.compute_obstacles();
            for u in state
                .units
                .iter()
                .filter(|u| u.side == Side::Heroes && u.alive() && !u.extracted && !u.activated)
            {
                if let Some(a @ (Action::Shoot { .. } | Action::Melee { .. })) =
                    crate::ai::hero_plan(state, content, &o, u)
                {
                    return a;
                }
            }
        }
        let action = HeroAi.next_action(view, content);
        let action = match action {
            Action::Overwatch { unit } => sprint_on(view.state(), content, unit).unwrap_or(action),
            a => a,
        };
        let _ = self.level;
        action
    }
}

/// After a Move with nothing to shoot at, a Hero that no revealed alien threatens Sprints on
/// towards the nearest enemy instead of standing on Overwatch: the Heroes must find the Blips
/// before the round limit.
fn sprint_on(state: &GameState, content: &Content, unit: Id) -> Option<Action> {
    let u = state.unit(&unit)?;
    let m = u.models.first()?;
    if u.used.contains(&ActionKind::Sprint) || m.status.knocked_down || m.status.stunned {
        return None;
    }
    let threatened = state
        .units
        .iter()
        .filter(|e| e.side == Side::Overmind)
        .flat_map(|e| e.models.iter())
        .any(|e| e.pos.distance(m.pos) <= 8);
    if threatened {
        return None;
    }
    let movement = content
        .heroes
        .get(m.kind.as_str())
        .map_or(4, |p| p.movement);
    let steps = (movement / 2).max(1);
    let targets: Vec<Pos> = state.blips.iter().map(|b| b.pos).collect();
    if targets.is_empty() {
        return None;
    }
    let o = state.compute_obstacles();
    let to = crate::ai::step_towards(
        state,
        &o,
        m.pos,
        &Goal::AdjacentTo(targets),
        steps,
        Side::Heroes,
    )?;
    let sprint = Action::Sprint {
        unit,
        to,
        via: Vec::new(),
    };
    crate::validate::validate(state, content, Side::Heroes, &sprint)
        .is_ok()
        .then_some(sprint)
}

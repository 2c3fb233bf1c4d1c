//! The built-in AI for both sides: legal, sensible, deterministic (no peeking for the Heroes).

pub mod cards;
pub mod lookahead;

use crate::board::los::LineOfSight;
use crate::board::movement::{adjacent, reachable, Goal, GoalField};
use crate::data::action::Action;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::interrupt::Interrupt;
use crate::data::map::Obstacles;
use crate::data::state::{ActionKind, Blip, GameState, Objective, Side, Unit};
use crate::data::view::{HeroesView, View};
use crate::rules::content::Content;
use crate::rules::decision::{Choice, Controller, Controllers, Decision, DecisionKind};
use crate::rules::game::Game;
use crate::rules::stats::Stats;

/// Chooses a side's next action from that side's view.
pub trait Player {
    /// The next action for the side whose phase it is. `End` is always legal.
    fn next_action(&mut self, view: View<'_>, content: &Content) -> Action;
}

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
#[derive(Clone, Copy, Debug, Default)]
pub struct HeroAi;

/// The Overmind's AI: Blips close in out of sight, flip when near, revealed units attack.
#[derive(Clone, Copy, Debug, Default)]
pub struct OvermindAi;

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
                    unit: u.id,
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
                    best = Some((d, *id));
                }
            }
        }
        if let Some((_, id)) = best {
            return Some(Action::Shoot {
                unit: u.id,
                target: id,
            });
        }
    }
    None
}

thread_local! {
    /// Each side's distances to its goal, kept from one move to the next: a unit's models and a
    /// side's activations move towards the same goal while few squares change in between, so
    /// the field is brought up to date instead of searched afresh for every step of a plan.
    /// [`GoalField::towards`] answers exactly as `towards` does whatever was asked before, so
    /// keeping it per thread changes no choice.
    static FIELDS: std::cell::RefCell<[GoalField; 2]> =
        std::cell::RefCell::new([GoalField::new(), GoalField::new()]);
}

/// Move `model` up to `steps` towards `goal` (for `side`); `None` if it cannot get any closer.
pub(crate) fn step_towards(
    state: &GameState,
    o: &Obstacles,
    from: Pos,
    goal: &Goal,
    steps: u32,
    side: Side,
) -> Option<Pos> {
    let t = FIELDS.with(|f| {
        let slot = match side {
            Side::Heroes => 0,
            Side::Overmind => 1,
        };
        f.borrow_mut()[slot].towards(&state.map, o, from, goal, steps)
    });
    let end = *t.ends.first()?;
    (t.steps > 0 && end != from).then_some(end)
}

/// The active unit's next action, else the first unit (in `order`) with something to do;
/// `End` when nothing is left worth doing. A unit with nothing to do is skipped, not ended,
/// since `End` with no activation under way ends the whole phase.
pub(crate) fn next_of<'a>(
    state: &'a GameState,
    order: impl Iterator<Item = &'a str>,
    mut plan: impl FnMut(&'a str) -> Option<Action>,
) -> Action {
    if let Some(id) = state.active.as_deref() {
        return plan(id).unwrap_or(Action::End);
    }
    order.filter_map(&mut plan).next().unwrap_or(Action::End)
}

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

/// Play one action of the side to move with its AI; a refused action becomes `End`.
pub fn ai_step(
    game: &mut Game,
    content: &Content,
    ctl: &mut Controllers,
    heroes: &mut dyn Player,
    overmind: &mut dyn Player,
) -> bool {
    let Some(side) = game.to_move() else {
        return false;
    };
    let action = match side {
        Side::Heroes => heroes.next_action(View::Heroes(&HeroesView::of(&game.state)), content),
        Side::Overmind => overmind.next_action(View::Overmind(&game.state), content),
    };
    if game.apply(action, content, ctl).is_err() {
        // The AI misjudged; ending the activation is always legal.
        let _ = game.apply(crate::data::action::Action::End, content, ctl);
    }
    true
}

/// Play a whole game AI against AI; at most `max_actions` actions.
pub fn play_ai_game(game: &mut Game, content: &Content, max_actions: usize) {
    let mut ctl = Controllers::new(Box::new(AiController), Box::new(AiController));
    let (mut h, mut o) = (HeroAi, OvermindAi);
    for _ in 0..max_actions {
        if !ai_step(game, content, &mut ctl, &mut h, &mut o) {
            break;
        }
    }
}

/// How hard an AI side plays (`--overmind-ai` / `--heroes-ai`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// The first AI, kept unchanged as the reference opponent.
    Greedy,
    /// Looks ahead one behaviour or action on a copy and plays the whole turn sensibly.
    #[default]
    Standard,
    /// Searches deeper: more samples of the dice and a play-out of the activation.
    Strong,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Greedy, Level::Standard, Level::Strong];

    /// The level's name, as the command line spells it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Greedy => "greedy",
            Level::Standard => "standard",
            Level::Strong => "strong",
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("no AI level `{s}`: expected greedy, standard or strong"))
    }
}

/// The AI levels of both sides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    pub heroes: Level,
    pub overmind: Level,
}

/// A decision controller for a side played at `level`.
#[must_use]
pub fn controller(level: Level) -> Box<dyn Controller> {
    match level {
        Level::Greedy => Box::new(AiController),
        _ => Box::new(crate::ai::lookahead::Lookahead::new(level)),
    }
}

/// An action chooser for `side` played at `level`.
#[must_use]
pub fn player(side: Side, level: Level) -> Box<dyn Player> {
    match (side, level) {
        (Side::Heroes, Level::Greedy) => Box::new(HeroAi),
        (Side::Overmind, Level::Greedy) => Box::new(OvermindAi),
        (Side::Heroes, l) => Box::new(crate::ai::lookahead::HeroPlanner::new(l)),
        (Side::Overmind, l) => Box::new(crate::ai::lookahead::OvermindPlanner::new(l)),
    }
}

/// Play a whole game with each side's AI at its level; at most `max_actions` actions.
pub fn play_ai_game_at(game: &mut Game, content: &Content, max_actions: usize, levels: Levels) {
    let mut ctl = Controllers::new(controller(levels.heroes), controller(levels.overmind));
    let mut h = player(Side::Heroes, levels.heroes);
    let mut o = player(Side::Overmind, levels.overmind);
    for _ in 0..max_actions {
        if !ai_step(game, content, &mut ctl, h.as_mut(), o.as_mut()) {
            break;
        }
    }
}

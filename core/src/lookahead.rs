//! The look-ahead AI (`standard`, `strong`): each Alien Behaviour option is performed on copies
//! of the state and the results scored; the turn is played with the fixes the greedy AI lacks.

use crate::action::Action;
use crate::ai::{AiController, HeroAi, Level, OvermindAi, Player};
use crate::behaviour::BehaviourCtx;
use crate::content::Content;
use crate::decision::{Controller, Controllers, Decision, DecisionKind};
use crate::engine::Engine;
use crate::id::Id;
use crate::los::LineOfSight;
use crate::state::{Contents, GameState, Side};
use crate::view::View;
use rand::SeedableRng;

/// Play-outs per Alien Behaviour option at each level.
#[must_use]
pub fn samples(level: Level) -> u32 {
    match level {
        Level::Greedy => 0,
        Level::Standard => 2,
        Level::Strong => 8,
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
    samples: u32,
) -> f64 {
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
        total += overmind_value(&copy, content) - before;
    }
    let mut score = total / f64::from(samples.max(1));
    if let Some(beh) = content.behaviours.get(b.as_str()).cloned() {
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

    fn lookahead_samples(&self) -> u32 {
        samples(self.level)
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

/// The Overmind's turn at `standard` and above: a Blip holding a unit flips when the unit
/// would have a Hero in reach, a Decoy never flips (it bluffs and blocks instead); the rest as
/// the greedy AI plays it.
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
        let action = OvermindAi.next_action(view, content);
        let state = view.state();
        if let Action::Flip { unit } = &action {
            if let Some(b) = state.blip(unit) {
                if !worth_flipping(state, content, b) {
                    // Keep it face down: close in as the greedy AI does when not flipping.
                    return crate::ai::blip_close_in(state, b).unwrap_or(Action::End);
                }
            }
        }
        action
    }
}

/// Would flipping this Blip now put a Hero in its unit's reach (Movement and one, or its Shoot
/// range in sight)? A Decoy is never worth flipping.
fn worth_flipping(state: &GameState, content: &Content, b: &crate::state::Blip) -> bool {
    let Some(Contents::Unit { type_id, .. }) = &b.contents else {
        return false;
    };
    let Some(t) = content.aliens.get(type_id.as_str()) else {
        return true;
    };
    let o = state.compute_obstacles();
    state.hero_models().any(|h| {
        let d = h.pos.distance(b.pos);
        d <= t.movement + 1
            || t.shoot.is_some_and(|s| {
                d <= s.max_range() && state.rules.los.visible(&state.map, &o, b.pos, h.pos)
            })
    })
}

/// The Heroes' turn at `standard` and above, from the Heroes' view: focus fire on the most
/// hurt enemy in reach; otherwise as the greedy AI plays it.
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
        let _ = self.level;
        let action = HeroAi.next_action(view, content);
        let state = view.state();
        match action {
            Action::Shoot { unit, target } => Action::Shoot {
                unit,
                target: focus(state, content, unit, target, true),
            },
            Action::Melee { unit, target } => Action::Melee {
                unit,
                target: focus(state, content, unit, target, false),
            },
            a => a,
        }
    }
}

/// Of the targets the Hero `unit` may attack as it chose to, the revealed model with the least
/// Health left (kills remove dice from the Overmind); `chosen` when none is better.
fn focus(state: &GameState, content: &Content, unit: Id, chosen: Id, shoot: bool) -> Id {
    let mut best: Option<(u32, Id)> = None;
    for u in &state.units {
        if u.side != Side::Overmind {
            continue;
        }
        for m in &u.models {
            let action = if shoot {
                Action::Shoot { unit, target: m.id }
            } else {
                Action::Melee { unit, target: m.id }
            };
            if crate::validate::validate(state, content, Side::Heroes, &action).is_ok()
                && best.is_none_or(|(h, _)| m.health < h)
            {
                best = Some((m.health, m.id));
            }
        }
    }
    best.map_or(chosen, |(_, id)| id)
}

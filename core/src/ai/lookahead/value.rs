//! What a state is worth to the Overmind, and the look-ahead's scores of Alien Behaviours on
//! copies of the game.

use crate::ai::{AiController, HeroAi, Level};
use crate::data::id::Id;
use crate::data::state::{GameState, Side};
use crate::rules::content::Content;
use crate::rules::decision::Controllers;
use crate::rules::preview::BehaviourChoice;
use rand::SeedableRng;

/// The look-ahead on each Alien Behaviour option at each level: `standard` scores the
/// behaviour's own outcome on one copy per option, `strong` on 12 copies, each rolling its own
/// dice. Playing each copy on (`playout`, by the greedy AIs) won no more games on the demo, 20
/// or 80 actions on, at 10 to 50 times the cost (docs/BENCHMARKS.md "AI levels").
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
            playout: 0,
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
    let heroes: Vec<crate::data::geom::Pos> = st.hero_models().map(|m| m.pos).collect();
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

/// How far a look-ahead looks: `samples` copies per option, each rolling its own dice, and on
/// each copy `playout` more actions played by the greedy AIs before the copy is scored. A count,
/// not a clock, so the same game always chooses the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub samples: u32,
    pub playout: u32,
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

/// The mean gain in [`overmind_value`] of performing behaviour `b` (option `option`) for the
/// choosing unit, over `samples` play-outs on copies, plus what the behaviour's own
/// `ai_score` says (on another copy).
pub(crate) fn score_behaviour(
    choice: &BehaviourChoice<'_>,
    b: Id,
    option: usize,
    budget: Budget,
) -> f64 {
    let samples = budget.samples.max(1);
    let content = choice.content();
    let base: &GameState = choice.state();
    let unit = choice.unit();
    let before = overmind_value(base, content);
    let mut total = 0.0;
    for k in 0..samples {
        let mut copy = base.clone();
        copy.rng = rand_chacha::ChaCha8Rng::seed_from_u64(sample_seed(base, &unit, option, k));
        let mut ctl = Controllers::new(Box::new(AiController), Box::new(AiController));
        choice.preview(&mut copy, b, &mut ctl);
        if budget.playout > 0 {
            copy = play_on(copy, content, budget.playout);
        }
        total += overmind_value(&copy, content) - before;
    }
    let mut score = total / f64::from(samples);
    let mut ctl = Controllers::new(Box::new(AiController), Box::new(AiController));
    if let Some(s) = choice.ai_score(b, &mut ctl) {
        score += s;
    }
    score
}

/// `state` played on by the greedy AIs for at most `actions` actions.
fn play_on(state: GameState, content: &Content, actions: u32) -> GameState {
    let mut game = crate::rules::game::Game::new(state, "", 0);
    let mut ctl = Controllers::new(Box::new(AiController), Box::new(AiController));
    let (mut h, mut o) = (HeroAi, crate::ai::OvermindAi);
    for _ in 0..actions {
        if !crate::ai::ai_step(&mut game, content, &mut ctl, &mut h, &mut o) {
            break;
        }
    }
    game.state
}

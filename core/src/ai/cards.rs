//! The AI's cards (docs/RULES.md §15): the Overmind plays the card whose effect scores best on
//! a copy of the game ([`crate::ai::lookahead::overmind_value`], the copy rolling its own dice),
//! between activations of its phase, and interrupts the Hero phase when a card is worth the two
//! it must discard.

use crate::data::action::Action;
use crate::data::event::{Change, Event};
use crate::data::geom::Pos;
use crate::data::interrupt::Interrupt;
use crate::data::map::Terrain;
use crate::data::state::{GameState, Phase, Side};
use crate::rules::content::Content;
use crate::rules::decision::Controllers;
use crate::rules::game::Game;
use rand::SeedableRng;

/// Least gain for which the `greedy` Overmind plays a card in its phase.
const PLAY_GAIN: f64 = 10.0;
/// Least gain for which the `standard` Overmind does: any card that gains.
const STANDARD_PLAY_GAIN: f64 = 0.5;
/// Least gain for which it discards cards to interrupt the Hero phase and play one.
const INTERRUPT_GAIN: f64 = 8.0;
/// What a lasting stat bonus on an Overmind model that has yet to activate is worth.
const BONUS_GAIN: f64 = 1.0;

/// The `greedy` Overmind's card action now, if it takes one (a play only when it gains
/// [`PLAY_GAIN`]): `None` leaves the turn to the usual plan. Interrupting, it plays cards and
/// then lets the Heroes go on.
#[must_use]
pub fn card_action(state: &GameState, content: &Content) -> Option<Action> {
    let acting = matches!(
        (state.phase, state.interrupt),
        (Phase::Heroes, Some(Interrupt::Acting { unit: None }))
    );
    match card_action_above(state, content, PLAY_GAIN) {
        None if acting && state.cards.has_hand() => Some(Action::End),
        other => other,
    }
}

/// The `standard` level's cards: as [`card_action`], playing every card that gains.
/// Interrupting, once no card gains, `None` leaves the choice of the interruption's one
/// activation to the turn's plan ([`crate::ai`] `overmind_turn`).
#[must_use]
pub fn standard_card_action(state: &GameState, content: &Content) -> Option<Action> {
    card_action_above(state, content, STANDARD_PLAY_GAIN)
}

fn card_action_above(state: &GameState, content: &Content, least: f64) -> Option<Action> {
    if !state.cards.has_hand() {
        return None;
    }
    match (state.phase, state.interrupt) {
        (Phase::Heroes, Some(Interrupt::Offered)) => Some(offered(state, content)),
        (Phase::Heroes, Some(Interrupt::Acting { unit: None })) => best_play(state, content)
            .filter(|(g, _)| *g >= least)
            .map(|(_, a)| a),
        // Weighed at the start of the phase (before any of its activations, again after each
        // card it plays there): a card's worth hardly changes between activations, and every
        // weighing plays each card once more on a copy.
        (Phase::Overmind, None) if state.active.is_none() && phase_unstarted(state) => {
            best_play(state, content)
                .filter(|(g, _)| *g >= least)
                .map(|(_, a)| a)
        }
        _ => None,
    }
}

/// Whether no Blip or Alien Unit has activated yet this phase.
fn phase_unstarted(state: &GameState) -> bool {
    state
        .units
        .iter()
        .filter(|u| u.side == Side::Overmind)
        .all(|u| !u.activated)
        && state.blips.iter().all(|b| !b.activated)
}

/// Offered an interruption: take it when a card is worth it, discarding the least useful.
fn offered(state: &GameState, content: &Content) -> Action {
    let cost = state.rules.interrupt_discard as usize;
    // Only a full hand is worth spending: below it, the cards keep for the Overmind's own
    // phase (and weighing every card at every offer would cost a play-out each).
    if state.cards.hand.len() <= cost || state.cards.hand.len() < state.rules.hand_size as usize {
        return Action::End;
    }
    let mut acting = state.clone();
    acting.interrupt = Some(Interrupt::Acting { unit: None });
    // Each play weighed once: the best one, and what every other card in hand is worth.
    let weighed: Vec<(f64, Action)> = plays(&acting, content)
        .into_iter()
        .map(|a| (gain_of(&acting, content, &a), a))
        .collect();
    let Some((gain, Action::Play { card, .. })) = weighed
        .iter()
        .fold(None::<&(f64, Action)>, |best, w| match best {
            Some(b) if b.0 >= w.0 => Some(b),
            _ => Some(w),
        })
        .cloned()
    else {
        return Action::End;
    };
    if gain < INTERRUPT_GAIN {
        return Action::End;
    }
    // Keep the card to play (one copy) and the best of the rest; discard the others first.
    let mut rest = state.cards.hand.clone();
    if let Some(i) = rest.iter().position(|c| *c == card) {
        rest.remove(i);
    }
    let worth = |c: &crate::data::id::Id| -> f64 {
        weighed
            .iter()
            .filter(|(_, a)| matches!(a, Action::Play { card: p, .. } if p == c))
            .map(|(g, _)| *g)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let mut scored: Vec<(f64, crate::data::id::Id)> = rest.iter().map(|c| (worth(c), *c)).collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let discard = scored.into_iter().take(cost).map(|(_, c)| c).collect();
    Action::Interrupt { discard }
}

/// The most squares a square-target card is weighed on: each one is a play on a copy.
const SQUARE_CANDIDATES: usize = 24;

/// Every legal card play now; a square-target card only on [`square_candidates`].
fn plays(state: &GameState, content: &Content) -> Vec<Action> {
    let game = Game {
        state: state.clone(),
        log: Vec::new(),
        record: Vec::new(),
    };
    let legal = game.legal_card_actions(content);
    let squares = if legal
        .iter()
        .any(|a| matches!(a, Action::Play { at: Some(_), .. }))
    {
        square_candidates(state)
    } else {
        Vec::new()
    };
    legal
        .into_iter()
        .filter(|a| match a {
            Action::Play { at: Some(p), .. } => squares.contains(p),
            Action::Play { .. } => true,
            _ => false,
        })
        .collect()
}

/// The squares a square-target card is weighed on: where a card can matter, since weighing
/// every square of the map would play it once per square. Each Hero's square and the squares
/// around it (a blast, a trap, something thrown at them), each revealed Alien's and face-down
/// Blip's square (what the Overmind has there), and the Overmind's yellow squares (where units
/// enter); at most [`SQUARE_CANDIDATES`], nearest a Hero first, then row by row.
fn square_candidates(state: &GameState) -> Vec<Pos> {
    let map = &state.map;
    let heroes: Vec<Pos> = state.hero_models().map(|m| m.pos).collect();
    let mut squares: Vec<Pos> = Vec::new();
    for h in &heroes {
        for dy in -1..=1 {
            for dx in -1..=1 {
                squares.push(Pos::new(h.x + dx, h.y + dy));
            }
        }
    }
    squares.extend(
        state
            .units
            .iter()
            .filter(|u| u.side == Side::Overmind)
            .flat_map(|u| u.models.iter().map(|m| m.pos)),
    );
    squares.extend(state.blips.iter().map(|b| b.pos));
    for y in 0..map.height() {
        for x in 0..map.width() {
            let p = Pos::new(x, y);
            if map.terrain(p) == Terrain::Yellow {
                squares.push(p);
            }
        }
    }
    squares.retain(|p| map.in_bounds(*p));
    let nearest = |p: &Pos| heroes.iter().map(|h| h.distance(*p)).min().unwrap_or(0);
    squares.sort_by_key(|p| (nearest(p), p.y, p.x));
    squares.dedup();
    squares.truncate(SQUARE_CANDIDATES);
    squares
}

/// The best card play and its gain.
fn best_play(state: &GameState, content: &Content) -> Option<(f64, Action)> {
    let mut best: Option<(f64, Action)> = None;
    for a in plays(state, content) {
        let g = gain_of(state, content, &a);
        if best.as_ref().is_none_or(|(b, _)| g > *b) {
            best = Some((g, a));
        }
    }
    best
}

/// What playing `action` gains the Overmind, on a copy that rolls its own dice.
fn gain_of(state: &GameState, content: &Content, action: &Action) -> f64 {
    let before = crate::ai::lookahead::overmind_value(state, content);
    let mut copy = state.clone();
    let seed = u64::from(state.round) ^ (copy.rng.get_word_pos() as u64).rotate_left(17);
    copy.rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x6361_7264);
    let mut game = Game {
        state: copy,
        log: Vec::new(),
        record: Vec::new(),
    };
    let mut ctl = Controllers::new(
        Box::new(crate::ai::AiController),
        Box::new(crate::ai::AiController),
    );
    let Ok(events) = game.apply(action.clone(), content, &mut ctl) else {
        return f64::NEG_INFINITY;
    };
    let after = crate::ai::lookahead::overmind_value(&game.state, content);
    let bonus: f64 = events
        .iter()
        .filter(|e| match e {
            Event::Effect {
                change: Change::Modifier { model, change, .. },
                ..
            } => {
                *change > 0
                    && game
                        .state
                        .find_model(model)
                        .is_some_and(|(u, _)| u.side == Side::Overmind && !u.activated)
            }
            _ => false,
        })
        .count() as f64;
    if events.iter().any(|e| matches!(e, Event::CardFailed { .. })) {
        return f64::NEG_INFINITY;
    }
    after - before + BONUS_GAIN * bonus
}

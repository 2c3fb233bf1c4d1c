//! Running AI games: one action of the side to move, or a whole game AI against AI.

use super::decisions::AiController;
use super::heroes::HeroAi;
use super::levels::{controller, player, Levels, Player};
use super::overmind::OvermindAi;
use crate::data::state::Side;
use crate::data::view::{HeroesView, View};
use crate::rules::content::Content;
use crate::rules::decision::Controllers;
use crate::rules::game::Game;

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
    if game.state.deploying.is_some() {
        // Deployment by the rules is the first action; the controllers choose the squares.
        return game
            .apply(crate::data::action::Action::Deploy, content, ctl)
            .is_ok();
    }
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

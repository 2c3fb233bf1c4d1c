//! What each side may know (docs/RULES.md §10): the Heroes never see a face-down Blip's
//! contents nor the Overmind's cards, and a Heroes' controller is handed a [`HeroesView`],
//! which has none.

use crate::data::state::{GameState, Side};
use std::ops::Deref;

/// The game as the Heroes may know it. Its only constructor removes every face-down Blip's
/// contents and replaces the RNG (whose stream would let a program predict the Overmind's
/// draws) and script storage (which a script may fill with what it knows): a value of this
/// type holds nothing the Heroes may not know.
#[derive(Clone, Debug, PartialEq)]
pub struct HeroesView(GameState);

impl HeroesView {
    /// The Heroes' view of `state`.
    #[must_use]
    pub fn of(state: &GameState) -> HeroesView {
        let mut v = state.clone();
        for b in &mut v.blips {
            b.contents = None;
        }
        if let Some(d) = &mut v.deploying {
            for b in &mut d.blips {
                b.contents = None;
            }
        }
        use rand::SeedableRng;
        v.rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        v.clear_storage();
        // The Overmind's hand, piles and face-down agenda: counts only (docs/RULES.md §15.5).
        v.cards.hide();
        HeroesView(v)
    }

    /// The view as a state (every Blip's `contents` is `None`).
    #[must_use]
    pub fn state(&self) -> &GameState {
        &self.0
    }
}

impl Deref for HeroesView {
    type Target = GameState;
    fn deref(&self) -> &GameState {
        &self.0
    }
}

/// What a controller is handed with a decision: its own side's view.
#[derive(Clone, Copy, Debug)]
pub enum View<'a> {
    /// The Heroes' view: no face-down Blip's contents.
    Heroes(&'a HeroesView),
    /// The Overmind sees all.
    Overmind(&'a GameState),
}

impl View<'_> {
    /// The state this view shows (for the Heroes, without Blip contents).
    #[must_use]
    pub fn state(&self) -> &GameState {
        match self {
            View::Heroes(v) => v.state(),
            View::Overmind(s) => s,
        }
    }

    /// Whose view it is.
    #[must_use]
    pub fn side(&self) -> Side {
        match self {
            View::Heroes(_) => Side::Heroes,
            View::Overmind(_) => Side::Overmind,
        }
    }
}

impl GameState {
    /// The state as `side` may see it (see [`HeroesView`]).
    #[must_use]
    pub fn view(&self, side: Side) -> GameState {
        match side {
            Side::Heroes => HeroesView::of(self).0,
            Side::Overmind => self.clone(),
        }
    }
}

//! What each side may know (RULES.md §10): the Heroes never see a face-down Blip's contents.

use crate::state::{GameState, Side};

impl GameState {
    /// The state as `side` may see it. For the Heroes every Blip's contents are removed and the
    /// RNG is replaced (its stream would let a program predict the Overmind's draws).
    #[must_use]
    pub fn view(&self, side: Side) -> GameState {
        let mut v = self.clone();
        if side == Side::Heroes {
            for b in &mut v.blips {
                b.contents = None;
            }
            use rand::SeedableRng;
            v.rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        }
        v
    }
}

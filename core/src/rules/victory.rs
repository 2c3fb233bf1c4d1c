//! Who has won (docs/RULES.md §11), checked after everything that can end the game.

use crate::data::event::Event;
use crate::data::state::{Objective, Outcome, Side};
use crate::rules::engine::Engine;

impl Engine<'_> {
    /// End the game if a side has met its objective.
    pub fn check_victory(&mut self) {
        if self.st.is_over() {
            return;
        }
        if self.listens(crate::data::hook::Hook::VictoryCheck) && !self.checking_victory {
            // A `victory_check` trigger's own effects check victory again: not its triggers.
            self.checking_victory = true;
            let moment = crate::rules::trigger::Moment {
                round: self.st.round,
                ..Default::default()
            };
            self.fire(crate::data::hook::Hook::VictoryCheck, &moment);
            self.checking_victory = false;
            if self.st.is_over() {
                return;
            }
        }
        if let Some((winner, reason)) = self.st.winner(false) {
            self.finish(winner, reason);
        }
    }

    pub fn finish(&mut self, winner: Side, reason: String) {
        self.st.outcome = Some(Outcome {
            winner,
            reason: reason.clone(),
        });
        self.st.phase = crate::data::state::Phase::Over;
        self.st.active = None;
        self.emit(Event::GameOver { winner, reason });
    }
}

impl crate::data::state::GameState {
    /// The winner now, if any. `round_limit_passed`: the last round has just ended.
    #[must_use]
    pub fn winner(&self, round_limit_passed: bool) -> Option<(Side, String)> {
        let heroes: Vec<_> = self
            .units
            .iter()
            .filter(|u| u.side == Side::Heroes)
            .collect();
        let alive = heroes.iter().filter(|u| u.alive() && !u.extracted).count() as u32;
        let extracted = heroes.iter().filter(|u| u.extracted).count() as u32;
        match &self.objective {
            Objective::Eliminate => {
                let aliens = self
                    .units
                    .iter()
                    .any(|u| u.side == Side::Overmind && u.alive());
                if !aliens && self.blips.is_empty() {
                    return Some((Side::Heroes, "no Blips or Alien Units are left".into()));
                }
            }
            Objective::Extract { count, .. } => {
                if extracted >= *count {
                    return Some((Side::Heroes, format!("{extracted} Heroes extracted")));
                }
                if alive + extracted < *count {
                    return Some((
                        Side::Overmind,
                        format!("too few Heroes remain to extract {count}"),
                    ));
                }
            }
            Objective::Interact { squares } => {
                if !squares.is_empty()
                    && squares
                        .iter()
                        .all(|s| self.activated_objectives.contains(s))
                {
                    return Some((Side::Heroes, "every objective was activated".into()));
                }
            }
            Objective::Survive => {}
        }
        if alive == 0 {
            return Some((Side::Overmind, "every Hero is dead".into()));
        }
        if round_limit_passed {
            return Some(match self.objective {
                Objective::Survive => (
                    Side::Heroes,
                    format!("{alive} Heroes survived {} rounds", self.max_rounds),
                ),
                _ => (
                    Side::Overmind,
                    format!("the round limit ({}) passed", self.max_rounds),
                ),
            });
        }
        None
    }
}

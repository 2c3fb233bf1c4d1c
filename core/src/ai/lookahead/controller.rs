//! The look-ahead decision controller: Alien Behaviours by their look-ahead scores.

use super::value::{budget, score_behaviour};
use crate::ai::{AiController, Level};
use crate::data::id::Id;
use crate::data::view::View;
use crate::rules::decision::{Controller, Decision, DecisionKind};
use crate::rules::preview::BehaviourChoice;

/// The look-ahead controller: Alien Behaviours by their look-ahead scores (the greedy choice
/// unless another option scores clearly better, by [`LOOKAHEAD_MARGIN`]), the rest as the
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

    fn score_behaviours(
        &mut self,
        choice: &BehaviourChoice<'_>,
        options: &[Id],
    ) -> Option<Vec<f64>> {
        let budget = budget(self.level)?;
        Some(
            options
                .iter()
                .enumerate()
                .map(|(n, &b)| score_behaviour(choice, b, n, budget))
                .collect(),
        )
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
        // One sample of the dice is noisy: the usual choice stands unless another option's
        // look-ahead beats it by a clear margin.
        let usual = self.decide(view, d).min(scores.len() - 1);
        if scores[best] <= scores[usual] + LOOKAHEAD_MARGIN {
            return usual;
        }
        best
    }
}

/// How much better than the usual choice (the greedy AI's) an Alien Behaviour's look-ahead
/// score must be for the look-ahead to choose it: with one sample of the dice, a closer call is
/// noise (choosing by the best score alone lost games on the demo, docs/BENCHMARKS.md).
const LOOKAHEAD_MARGIN: f64 = 1.0;

//! The game-over summary: who won and why, the rounds played, the models each side lost, who
//! killed what, and each Alien Behaviour's use — read off the event log, which both sides saw.

use overmind_core::{Event, Game, Side};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One finished (or abandoned) game, summed up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<Side>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The round the game ended in.
    pub rounds: u32,
    /// Accepted actions.
    pub actions: usize,
    /// Hero models killed.
    pub heroes_lost: u32,
    /// Alien models killed.
    pub aliens_lost: u32,
    /// Kills by the unit that made them.
    pub kills: BTreeMap<String, u32>,
    /// Per behaviour id: how often it was performed, and how often it failed.
    pub behaviours: BTreeMap<String, BehaviourUse>,
}

/// How one behaviour was used.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BehaviourUse {
    pub performed: u32,
    pub failed: u32,
}

impl Summary {
    /// The summary of `game` so far.
    #[must_use]
    pub fn of(game: &Game) -> Summary {
        let mut s = Summary {
            winner: game.state.outcome.as_ref().map(|o| o.winner),
            reason: game.state.outcome.as_ref().map(|o| o.reason.clone()),
            rounds: game.state.round,
            actions: game.record.len(),
            heroes_lost: 0,
            aliens_lost: 0,
            kills: BTreeMap::new(),
            behaviours: BTreeMap::new(),
        };
        for e in &game.log {
            match e {
                Event::ModelKilled { unit, by, .. } => {
                    // A unit stays in the state when its last model dies.
                    if game
                        .state
                        .unit(unit)
                        .is_some_and(|u| u.side == Side::Heroes)
                    {
                        s.heroes_lost += 1;
                    } else {
                        s.aliens_lost += 1;
                    }
                    if let Some(k) = by {
                        *s.kills.entry(k.to_string()).or_default() += 1;
                    }
                }
                Event::BehaviourPerformed { behaviour, .. } => {
                    s.behaviours
                        .entry(behaviour.to_string())
                        .or_default()
                        .performed += 1;
                }
                Event::BehaviourFailed { behaviour, .. } => {
                    s.behaviours
                        .entry(behaviour.to_string())
                        .or_default()
                        .failed += 1;
                }
                _ => {}
            }
        }
        s
    }

    /// The summary as the terminal shows it.
    #[must_use]
    pub fn text(&self) -> String {
        let mut t = String::new();
        match (self.winner, &self.reason) {
            (Some(w), Some(r)) => {
                let _ = writeln!(t, "=== {}: {r} ===", crate::describe::wins(w));
            }
            _ => t.push_str("=== the game did not finish ===\n"),
        }
        let _ = writeln!(
            t,
            "round {}, {} action{}; Heroes lost {} model{}, the Overmind {}",
            self.rounds,
            self.actions,
            if self.actions == 1 { "" } else { "s" },
            self.heroes_lost,
            if self.heroes_lost == 1 { "" } else { "s" },
            self.aliens_lost
        );
        if !self.kills.is_empty() {
            let k: Vec<String> = self
                .kills
                .iter()
                .map(|(who, n)| format!("{who} {n}"))
                .collect();
            let _ = writeln!(t, "kills: {}", k.join(", "));
        }
        if !self.behaviours.is_empty() {
            let b: Vec<String> = self
                .behaviours
                .iter()
                .map(|(id, u)| {
                    if u.failed > 0 {
                        format!("{id} {} ({} failed)", u.performed + u.failed, u.failed)
                    } else {
                        format!("{id} {}", u.performed)
                    }
                })
                .collect();
            let _ = writeln!(t, "behaviours: {}", b.join(", "));
        }
        t
    }
}

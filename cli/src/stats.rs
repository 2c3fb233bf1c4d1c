//! What `overmind simulate` counts: per game, read off the event log (who won, rounds, which
//! behaviours fired and what they achieved, damage by alien type), then summed over games
//! with Wilson confidence intervals for the win rates and normal intervals for the damage per
//! use. Everything summed is an integer (counts, sums, sums of squares), so totals of slices
//! of the seeds add up exactly to the totals of the whole run (`simulate --shard`, `merge`).

use overmind_core::Id;
use overmind_core::{AttackKind, Event, Side};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// One Alien Behaviour's record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BehaviourStats {
    /// Times the Overmind chose it for a revealed unit.
    pub chosen: u64,
    /// Times it ran to the end.
    pub performed: u64,
    /// Times it failed (it ended where it failed; what it did stands).
    pub failed: u64,
    /// Damage Heroes took while it ran.
    pub damage_dealt: u64,
    /// Hero models killed while it ran.
    pub hero_kills: u64,
    /// Damage the performing side's models took while it ran (Overwatch, Free Attacks).
    pub damage_taken: u64,
    /// The sum over its uses (times chosen) of the square of the damage Heroes took during
    /// that use: with `chosen` and `damage_dealt`, the spread of the damage per use.
    pub damage_dealt_sq: u64,
}

/// One Alien Type's record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlienStats {
    /// Units of it revealed.
    pub revealed: u64,
    /// Damage its units' attacks did.
    pub damage_dealt: u64,
    /// Damage its models took.
    pub damage_taken: u64,
    /// Its models killed.
    pub models_lost: u64,
    /// Hero models its units killed.
    pub hero_kills: u64,
    /// The sum over its revealed units of the square of the damage each unit's attacks did:
    /// with `revealed` and `damage_dealt`, the spread of the damage per unit.
    pub damage_dealt_sq: u64,
}

/// One card's record (docs/RULES.md §15): plays, failures, and for a Hidden Agenda the times
/// it was turned up.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardStats {
    pub played: u64,
    pub failed: u64,
    pub revealed: u64,
}

/// What one game came to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameStats {
    pub winner: Option<Side>,
    pub rounds: u32,
    pub behaviours: BTreeMap<String, BehaviourStats>,
    pub skipped: u64,
    pub aliens: BTreeMap<String, AlienStats>,
    pub cards: BTreeMap<String, CardStats>,
    /// Times the Overmind interrupted the Hero phase.
    pub interrupts: u64,
}

impl GameStats {
    /// Read a finished game's log.
    #[must_use]
    pub fn of(log: &[Event], rounds: u32) -> GameStats {
        let mut g = GameStats {
            rounds,
            ..GameStats::default()
        };
        let mut unit_type: HashMap<Id, Id> = HashMap::new();
        let mut model_type: HashMap<Id, Id> = HashMap::new();
        // Each reveal of a unit, with the damage its attacks did since; a unit's latest reveal.
        let mut reveals: Vec<(Id, u64)> = Vec::new();
        let mut unit_reveal: HashMap<Id, usize> = HashMap::new();
        // The behaviours running, innermost last, with the damage dealt during each.
        let mut running: Vec<(String, u64)> = Vec::new();
        for e in log {
            match e {
                Event::ModelsPlaced {
                    unit,
                    type_id,
                    models,
                } => {
                    unit_type.insert(*unit, *type_id);
                    unit_reveal.insert(*unit, reveals.len());
                    reveals.push((*type_id, 0));
                    for m in models {
                        model_type.insert(m.id, m.type_id);
                    }
                    g.aliens.entry(type_id.to_string()).or_default().revealed += 1;
                }
                Event::CardPlayed { card, .. } => {
                    g.cards.entry(card.to_string()).or_default().played += 1;
                }
                Event::CardFailed { card, .. } => {
                    g.cards.entry(card.to_string()).or_default().failed += 1;
                }
                Event::CardRevealed { card, .. } => {
                    g.cards.entry(card.to_string()).or_default().revealed += 1;
                }
                Event::Interrupted { .. } => g.interrupts += 1,
                Event::BehaviourChosen { behaviour, .. } => {
                    g.behaviours
                        .entry(behaviour.to_string())
                        .or_default()
                        .chosen += 1;
                    running.push((behaviour.to_string(), 0));
                }
                Event::BehaviourPerformed { behaviour, .. } => {
                    g.behaviours
                        .entry(behaviour.to_string())
                        .or_default()
                        .performed += 1;
                    g.end_use(running.pop());
                }
                Event::BehaviourFailed { behaviour, .. } => {
                    g.behaviours
                        .entry(behaviour.to_string())
                        .or_default()
                        .failed += 1;
                    g.end_use(running.pop());
                }
                Event::BehaviourSkipped { .. } => g.skipped += 1,
                Event::Attack {
                    attacker,
                    damage,
                    kind,
                    ..
                } if *kind != AttackKind::Fear => {
                    if let Some(t) = unit_type.get(attacker.as_str()) {
                        g.aliens.entry(t.to_string()).or_default().damage_dealt +=
                            u64::from(*damage);
                        if let Some(r) = unit_reveal
                            .get(attacker.as_str())
                            .and_then(|&i| reveals.get_mut(i))
                        {
                            r.1 += u64::from(*damage);
                        }
                    }
                }
                Event::Damage { model, amount, .. } => {
                    let amount = u64::from(*amount);
                    match model_type.get(model.as_str()) {
                        Some(t) => {
                            g.aliens.entry(t.to_string()).or_default().damage_taken += amount;
                            if let Some((b, _)) = running.last() {
                                g.behaviours.entry(b.clone()).or_default().damage_taken += amount;
                            }
                        }
                        None => {
                            if let Some((b, dealt)) = running.last_mut() {
                                g.behaviours.entry(b.clone()).or_default().damage_dealt += amount;
                                *dealt += amount;
                            }
                        }
                    }
                }
                Event::ModelKilled { model, by, .. } => match model_type.get(model.as_str()) {
                    Some(t) => g.aliens.entry(t.to_string()).or_default().models_lost += 1,
                    None => {
                        if let Some(t) = by.as_ref().and_then(|u| unit_type.get(u.as_str())) {
                            g.aliens.entry(t.to_string()).or_default().hero_kills += 1;
                        }
                        if let Some((b, _)) = running.last() {
                            g.behaviours.entry(b.clone()).or_default().hero_kills += 1;
                        }
                    }
                },
                Event::GameOver { winner, .. } => g.winner = Some(*winner),
                _ => {}
            }
        }
        // Behaviours the game ended during are uses too: every `chosen` has its square.
        while let Some(open) = running.pop() {
            g.end_use(Some(open));
        }
        for (t, dealt) in reveals {
            let a = g.aliens.entry(t.to_string()).or_default();
            a.damage_dealt_sq = a
                .damage_dealt_sq
                .saturating_add(dealt.saturating_mul(dealt));
        }
        g
    }

    /// A behaviour's use ended having dealt `dealt` damage.
    fn end_use(&mut self, used: Option<(String, u64)>) {
        if let Some((b, dealt)) = used {
            let s = self.behaviours.entry(b).or_default();
            s.damage_dealt_sq = s
                .damage_dealt_sq
                .saturating_add(dealt.saturating_mul(dealt));
        }
    }
}

/// A mean per use with its 95% interval, mean ± 1.96·sd/√n (the sample standard deviation),
/// computed from the count, the sum and the sum of squares alone.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PerUse {
    /// `None` without any use.
    pub mean: Option<f64>,
    /// `None` with fewer than two uses.
    pub ci95: Option<[f64; 2]>,
}

/// The mean of `n` values summing to `sum` whose squares sum to `sum_sq`, with its interval.
#[must_use]
pub fn per_use(n: u64, sum: u64, sum_sq: u64) -> PerUse {
    if n == 0 {
        return PerUse {
            mean: None,
            ci95: None,
        };
    }
    let mean = sum as f64 / n as f64;
    if n < 2 {
        return PerUse {
            mean: Some(mean),
            ci95: None,
        };
    }
    // n·Σx² − (Σx)² ≥ 0, exact in integers; the variance is that over n(n − 1).
    let (nn, s, q) = (u128::from(n), u128::from(sum), u128::from(sum_sq));
    let spread = (nn * q).saturating_sub(s * s) as f64;
    let var = spread / (n as f64 * (n - 1) as f64);
    let half = 1.96 * (var / n as f64).sqrt();
    PerUse {
        mean: Some(mean),
        ci95: Some([mean - half, mean + half]),
    }
}

/// A win rate with its 95% Wilson score interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rate {
    pub count: u64,
    pub rate: f64,
    pub ci95: [f64; 2],
}

/// The Wilson score interval for `k` successes in `n` trials at z = 1.96.
#[must_use]
pub fn wilson(k: u64, n: u64) -> Rate {
    if n == 0 {
        return Rate {
            count: k,
            rate: 0.0,
            ci95: [0.0, 1.0],
        };
    }
    let z = 1.959_963_984_540_054_f64;
    let (k, nf) = (k as f64, n as f64);
    let p = k / nf;
    let z2 = z * z;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = z * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom;
    // At the ends the bounds are exactly 0 and 1; rounding would leave them a hair off.
    let lo = if k == 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if k == nf {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    Rate {
        count: k as u64,
        rate: p,
        ci95: [lo, hi],
    }
}

/// Many games summed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Totals {
    pub games: u64,
    pub heroes: u64,
    pub overmind: u64,
    pub unfinished: u64,
    pub rounds: u64,
    pub min_rounds: u32,
    pub max_rounds: u32,
    pub behaviours: BTreeMap<String, BehaviourStats>,
    pub skipped: u64,
    pub aliens: BTreeMap<String, AlienStats>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cards: BTreeMap<String, CardStats>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub interrupts: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Totals {
    fn add_cards(&mut self, cards: &BTreeMap<String, CardStats>, interrupts: u64) {
        for (id, c) in cards {
            let t = self.cards.entry(id.clone()).or_default();
            t.played += c.played;
            t.failed += c.failed;
            t.revealed += c.revealed;
        }
        self.interrupts += interrupts;
    }

    pub fn add(&mut self, g: &GameStats) {
        if self.games == 0 || g.rounds < self.min_rounds {
            self.min_rounds = g.rounds;
        }
        self.max_rounds = self.max_rounds.max(g.rounds);
        self.games += 1;
        match g.winner {
            Some(Side::Heroes) => self.heroes += 1,
            Some(Side::Overmind) => self.overmind += 1,
            None => self.unfinished += 1,
        }
        self.rounds += u64::from(g.rounds);
        self.skipped += g.skipped;
        self.add_records(&g.behaviours, &g.aliens);
        self.add_cards(&g.cards, g.interrupts);
    }

    fn add_records(
        &mut self,
        behaviours: &BTreeMap<String, BehaviourStats>,
        aliens: &BTreeMap<String, AlienStats>,
    ) {
        for (id, b) in behaviours {
            let t = self.behaviours.entry(id.clone()).or_default();
            t.chosen += b.chosen;
            t.performed += b.performed;
            t.failed += b.failed;
            t.damage_dealt += b.damage_dealt;
            t.hero_kills += b.hero_kills;
            t.damage_taken += b.damage_taken;
            t.damage_dealt_sq = t.damage_dealt_sq.saturating_add(b.damage_dealt_sq);
        }
        for (id, a) in aliens {
            let t = self.aliens.entry(id.clone()).or_default();
            t.revealed += a.revealed;
            t.damage_dealt += a.damage_dealt;
            t.damage_taken += a.damage_taken;
            t.models_lost += a.models_lost;
            t.hero_kills += a.hero_kills;
            t.damage_dealt_sq = t.damage_dealt_sq.saturating_add(a.damage_dealt_sq);
        }
    }

    /// Add another set of games (another slice of the seeds): the same totals as adding its
    /// games one by one.
    pub fn merge(&mut self, o: &Totals) {
        if o.games > 0 {
            if self.games == 0 || o.min_rounds < self.min_rounds {
                self.min_rounds = o.min_rounds;
            }
            self.max_rounds = self.max_rounds.max(o.max_rounds);
        }
        self.games += o.games;
        self.heroes += o.heroes;
        self.overmind += o.overmind;
        self.unfinished += o.unfinished;
        self.rounds += o.rounds;
        self.skipped += o.skipped;
        self.add_records(&o.behaviours, &o.aliens);
        self.add_cards(&o.cards, o.interrupts);
    }

    #[must_use]
    pub fn mean_rounds(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.rounds as f64 / self.games as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_textbook() {
        // 81 of 263: 0.2553 to 0.3662 (Wilson, 95%).
        let r = wilson(81, 263);
        assert!((r.ci95[0] - 0.2553).abs() < 1e-3, "{r:?}");
        assert!((r.ci95[1] - 0.3662).abs() < 1e-3, "{r:?}");
        let all = wilson(10, 10);
        assert!(all.ci95[1] <= 1.0 && all.ci95[0] > 0.6, "{all:?}");
        assert_eq!(wilson(0, 0).ci95, [0.0, 1.0]);
        assert_eq!(wilson(0, 12).ci95[0], 0.0);
        assert_eq!(wilson(12, 12).ci95[1], 1.0);
    }

    #[test]
    fn a_log_is_counted() {
        use overmind_core::event::PlacedModel;
        use overmind_core::Pos;
        let log = vec![
            Event::ModelsPlaced {
                unit: "b1".into(),
                type_id: "stalker".into(),
                models: vec![PlacedModel {
                    id: "b1.1".into(),
                    at: Pos::new(0, 0),
                    type_id: "stalker".into(),
                    xxl: false,
                }],
            },
            Event::BehaviourChosen {
                unit: "b1".into(),
                behaviour: "rush".into(),
                options: vec!["rush".into()],
            },
            Event::Damage {
                model: "captain".into(),
                amount: 2,
                health: 6,
            },
            Event::Damage {
                model: "b1.1".into(),
                amount: 1,
                health: 1,
            },
            Event::BehaviourPerformed {
                unit: "b1".into(),
                behaviour: "rush".into(),
            },
            Event::ModelKilled {
                model: "b1.1".into(),
                unit: "b1".into(),
                by: Some("captain".into()),
            },
            Event::GameOver {
                winner: Side::Heroes,
                reason: "x".into(),
            },
        ];
        let g = GameStats::of(&log, 3);
        assert_eq!(g.winner, Some(Side::Heroes));
        let rush = &g.behaviours["rush"];
        assert_eq!(
            (
                rush.chosen,
                rush.performed,
                rush.damage_dealt,
                rush.damage_taken
            ),
            (1, 1, 2, 1)
        );
        let s = &g.aliens["stalker"];
        assert_eq!((s.revealed, s.damage_taken, s.models_lost), (1, 1, 1));
        let mut t = Totals::default();
        t.add(&g);
        t.add(&GameStats {
            rounds: 5,
            ..GameStats::default()
        });
        assert_eq!(
            (t.games, t.heroes, t.unfinished, t.min_rounds, t.max_rounds),
            (2, 1, 1, 3, 5)
        );
        assert!((t.mean_rounds() - 4.0).abs() < 1e-9);
        // One use of rush dealing 2: the square is 4; one stalker unit dealing nothing.
        assert_eq!(t.behaviours["rush"].damage_dealt_sq, 4);
        assert_eq!(t.aliens["stalker"].damage_dealt_sq, 0);
    }

    #[test]
    fn the_damage_per_use_interval_is_the_textbook_one() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd 2.138; half-width 1.96·sd/√8.
        let xs = [2u64, 4, 4, 4, 5, 5, 7, 9];
        let (n, sum, sq) = (
            xs.len() as u64,
            xs.iter().sum::<u64>(),
            xs.iter().map(|x| x * x).sum::<u64>(),
        );
        let p = per_use(n, sum, sq);
        assert_eq!(p.mean, Some(5.0));
        let sd = (32.0f64 / 7.0).sqrt();
        let half = 1.96 * sd / 8f64.sqrt();
        let ci = p.ci95.unwrap_or([0.0, 0.0]);
        assert!((ci[0] - (5.0 - half)).abs() < 1e-12, "{p:?}");
        assert!((ci[1] - (5.0 + half)).abs() < 1e-12, "{p:?}");
        assert_eq!(
            per_use(0, 0, 0),
            PerUse {
                mean: None,
                ci95: None
            }
        );
        assert_eq!(per_use(1, 3, 9).ci95, None);
        // Every use alike: no spread.
        assert_eq!(per_use(4, 8, 16).ci95, Some([2.0, 2.0]));
    }

    #[test]
    fn totals_of_slices_merge_to_the_totals_of_the_whole() {
        let game = |rounds: u32, winner: Option<Side>, dealt: u64| {
            let mut g = GameStats {
                rounds,
                winner,
                ..GameStats::default()
            };
            g.behaviours.insert(
                "rush".into(),
                BehaviourStats {
                    chosen: 2,
                    damage_dealt: dealt,
                    damage_dealt_sq: dealt * dealt,
                    ..BehaviourStats::default()
                },
            );
            g.aliens.insert(
                format!("t{}", rounds % 3),
                AlienStats {
                    revealed: 1,
                    damage_dealt: dealt,
                    damage_dealt_sq: dealt * dealt,
                    ..AlienStats::default()
                },
            );
            g
        };
        let games: Vec<GameStats> = (0..10)
            .map(|i| {
                let w = [Some(Side::Heroes), Some(Side::Overmind), None][i % 3];
                game(3 + (i as u32 * 7) % 5, w, i as u64)
            })
            .collect();
        let mut whole = Totals::default();
        games.iter().for_each(|g| whole.add(g));
        for n in 1..=12 {
            let mut merged = Totals::default();
            for i in 0..n {
                let mut slice = Totals::default();
                games.iter().skip(i).step_by(n).for_each(|g| slice.add(g));
                merged.merge(&slice);
            }
            assert_eq!(merged, whole, "{n} slices");
        }
    }
}

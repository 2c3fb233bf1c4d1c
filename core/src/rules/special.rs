//! Special Combat Effects (docs/RULES.md §6.6): Knock Down and Stun on the model hit; Push
//! Back and Shaken on the whole Alien Unit hit, or on the Hero.

use crate::board::movement::{can_step, reachable, shortest_path};
use crate::data::event::{Event, StatusChange};
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::profile::Effect;
use crate::data::state::Side;
use crate::rules::decision::{Choice, DecisionKind};
use crate::rules::engine::Engine;
use crate::rules::motion::Mover;

impl Engine<'_> {
    pub(crate) fn set_status(&mut self, model: &str, change: StatusChange) {
        if let Some(m) = self.st.model_mut(model) {
            match &change {
                StatusChange::KnockedDown => m.status.knocked_down = true,
                StatusChange::StoodUp => m.status.knocked_down = false,
                StatusChange::Stunned => m.status.stunned = true,
                StatusChange::Recovered => m.status.stunned = false,
                StatusChange::Shaken { by } => m.status.shaken_by = Some(*by),
                StatusChange::PushedBack { .. } => {}
            }
        }
        self.emit(Event::Status {
            model: Id::from(model),
            status: change,
        });
    }

    /// The effects of an attack of `by_unit` (its first model at `from`) that hit
    /// `target_model` of `target_unit`, which survives: Knock Down and Stun on that model if it
    /// lives, Push Back and Shaken on every model of an Alien Unit (a Hero is one model).
    pub(crate) fn apply_effects(
        &mut self,
        target_unit: &str,
        target_model: &str,
        effects: Vec<Effect>,
        by_unit: &str,
        from: Pos,
    ) {
        for e in effects {
            if self.st.is_over() || self.st.unit(target_unit).is_none_or(|u| !u.alive()) {
                break;
            }
            // XXL models ignore the four Special Combat Effects (docs/RULES.md §4.4).
            if self.immune_to_effects(target_model) {
                break;
            }
            let model_lives = self.st.find_model(target_model).is_some();
            match e {
                Effect::KnockDown if model_lives => {
                    self.set_status(target_model, StatusChange::KnockedDown);
                }
                Effect::Stun if model_lives => self.set_status(target_model, StatusChange::Stunned),
                Effect::KnockDown | Effect::Stun => {}
                Effect::PushBack => {
                    let key = |p: Pos| std::cmp::Reverse(p.distance(from));
                    for m in self.unit_order(target_unit, target_model, "pushed back", key) {
                        if self.st.is_over() {
                            break;
                        }
                        if self.immune_to_effects(&m) {
                            continue;
                        }
                        self.push_back(&m, from);
                    }
                }
                Effect::Shaken => self.shaken_unit(target_unit, target_model, by_unit),
            }
        }
    }

    /// XXL models ignore the four Special Combat Effects (docs/RULES.md §4.4).
    fn immune_to_effects(&self, model: &str) -> bool {
        self.st.find_model(model).is_some_and(|(_, m)| m.xxl)
    }

    /// The models a unit-wide effect moves, in the owner's order: a Hero's one model, or each
    /// model of an Alien Unit, offered sorted by `key` (the AI's default takes the first).
    fn unit_order<K: Ord>(
        &mut self,
        unit: &str,
        model: &str,
        what: &str,
        key: impl Fn(Pos) -> K,
    ) -> Vec<Id> {
        let Some(u) = self.st.unit(unit) else {
            return Vec::new();
        };
        if u.side != Side::Overmind {
            return self
                .st
                .find_model(model)
                .map(|(_, m)| vec![m.id])
                .unwrap_or_default();
        }
        let mut left: Vec<(Pos, Id)> = u.models.iter().map(|m| (m.pos, m.id)).collect();
        left.sort_by_key(|&(p, id)| (key(p), p.y, p.x, id));
        let mut out = Vec::new();
        while !left.is_empty() {
            let i = self.ask_about(
                Side::Overmind,
                DecisionKind::ModelOrder,
                Some(unit),
                format!("Which model of {unit} is {what} next?"),
                left.iter().map(|&(_, id)| Choice::Id(id)).collect(),
            );
            out.push(left.remove(i.min(left.len() - 1)).1);
        }
        out
    }

    /// Push Back: the owner moves the model to one of the 3 squares away from the attacker;
    /// with none free, it is Stunned instead.
    fn push_back(&mut self, model: &str, from: Pos) {
        let Some((u, m)) = self.st.find_model(model) else {
            return;
        };
        let (owner, at) = (u.side, m.pos);
        let (sx, sy) = ((at.x - from.x).signum(), (at.y - from.y).signum());
        let dirs: Vec<(i32, i32)> = match (sx, sy) {
            (0, 0) => Vec::new(),
            (sx, 0) => vec![(sx, 0), (sx, -1), (sx, 1)],
            (0, sy) => vec![(0, sy), (-1, sy), (1, sy)],
            (sx, sy) => vec![(sx, sy), (sx, 0), (0, sy)],
        };
        let map = self.map();
        let o = self.obstacles();
        let options: Vec<Pos> = dirs
            .into_iter()
            .map(|(dx, dy)| Pos::new(at.x + dx, at.y + dy))
            .filter(|&q| can_step(&map, &o, at, q))
            .collect();
        match self.ask_square(
            owner,
            DecisionKind::PushBack,
            format!("Where is {model} pushed back to?"),
            options,
        ) {
            None => self.set_status(model, StatusChange::Stunned),
            Some(q) => {
                self.set_status(model, StatusChange::PushedBack { to: q });
                self.walk(&Mover::Model(Id::from(model)), &[at, q], true);
            }
        }
    }

    /// Shaken on a unit: every model of an Alien Unit is Shaken by `cause_unit`, then each
    /// flees in the owner's order (the one farthest from the cause offered first); a Hero is
    /// one model.
    fn shaken_unit(&mut self, unit: &str, model: &str, cause_unit: &str) {
        if self.side_of(unit) != Some(Side::Overmind) {
            self.shaken(model, cause_unit);
            return;
        }
        let models: Vec<Id> = self
            .st
            .unit(unit)
            .map(|u| u.models.iter().filter(|m| !m.xxl).map(|m| m.id).collect())
            .unwrap_or_default();
        for m in &models {
            self.set_status(
                m,
                StatusChange::Shaken {
                    by: Id::from(cause_unit),
                },
            );
        }
        let cause = self.cause_squares(cause_unit);
        let far = move |p: Pos| cause.iter().map(|&c| p.distance(c)).min().unwrap_or(0);
        for m in self.unit_order(unit, model, "fleeing", |p| std::cmp::Reverse(far(p))) {
            if self.st.is_over() {
                break;
            }
            if self.immune_to_effects(&m) {
                continue;
            }
            self.flee(&m, cause_unit);
        }
    }

    /// Shaken: at once a Move action as far as possible from the cause; may not attack it this
    /// round.
    pub fn shaken(&mut self, model: &str, cause_unit: &str) {
        self.set_status(
            model,
            StatusChange::Shaken {
                by: Id::from(cause_unit),
            },
        );
        self.flee(model, cause_unit);
    }

    fn cause_squares(&self, cause_unit: &str) -> Vec<Pos> {
        self.st
            .unit(cause_unit)
            .map(|u| u.models.iter().map(|m| m.pos).collect())
            .unwrap_or_default()
    }

    /// A Shaken model's move: as far as possible from `cause_unit`, up to its Movement.
    fn flee(&mut self, model: &str, cause_unit: &str) {
        let Some((u, m)) = self.st.find_model(model) else {
            return;
        };
        let (owner, at) = (u.side, m.pos);
        let movement = self.stats(owner, m).movement;
        let cause = self.cause_squares(cause_unit);
        if cause.is_empty() || movement == 0 {
            return;
        }
        let map = self.map();
        let o = self.obstacles();
        let far = |p: Pos| cause.iter().map(|&c| p.distance(c)).min().unwrap_or(0);
        let reach = reachable(&map, &o, at, movement);
        let best = reach.iter().map(|&(p, _)| far(p)).max().unwrap_or(0);
        let options: Vec<Pos> = reach
            .iter()
            .filter(|&&(p, _)| far(p) == best)
            .map(|&(p, _)| p)
            .collect();
        if options.contains(&at) {
            return;
        }
        if let Some(dest) = self.ask_square(
            owner,
            DecisionKind::Destination,
            format!("{model} is Shaken: where does it flee?"),
            options,
        ) {
            if let Some(path) = shortest_path(&map, &o, at, dest) {
                self.walk(&Mover::Model(Id::from(model)), &path, true);
            }
        }
    }
}

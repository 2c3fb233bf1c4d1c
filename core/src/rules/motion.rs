//! Moving models and Blips step by step, with the interrupts each step can cause
//! (docs/RULES.md §4, §6.5 Overwatch, §7 reveals; their order is §7.4).

use crate::board::movement::{
    base_adjacent, block_path, can_step, can_step_block, shortest_path, shortest_paths,
    MAX_PATH_OPTIONS,
};
use crate::data::event::{AttackKind, Event};
use crate::data::geom::footprint;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::state::Side;
use crate::rules::combat::Target;
use crate::rules::decision::{Choice, DecisionKind};
use crate::rules::engine::Engine;

/// What is moving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mover {
    Model(Id),
    Blip(Id),
}

impl Mover {
    pub fn id(&self) -> &str {
        match self {
            Mover::Model(s) | Mover::Blip(s) => s,
        }
    }
}

impl Engine<'_> {
    /// The Overmind chooses the path of its moves (docs/RULES.md §4.2): `path` is one shortest
    /// path; when other shortest paths lead to the same square, the Overmind picks among them
    /// all (decision kind `path`). The Heroes route their moves with waypoints instead.
    pub fn choose_path(&mut self, mover: &Mover, path: Vec<Pos>) -> Vec<Pos> {
        if self.mover_side(mover) != Side::Overmind || path.len() < 3 || self.mover_xxl(mover) {
            return path;
        }
        let (Some(&from), Some(&to)) = (path.first(), path.last()) else {
            return path;
        };
        let map = self.map();
        let paths = shortest_paths(&map, self.st.obstacles(), from, to, MAX_PATH_OPTIONS);
        self.choose_among(mover, path, paths)
    }

    /// The Overmind's choice among `paths`, the shortest paths to the same square that
    /// validation found (`path` when there is no choice).
    pub fn choose_among(
        &mut self,
        mover: &Mover,
        path: Vec<Pos>,
        mut paths: Vec<Vec<Pos>>,
    ) -> Vec<Pos> {
        if paths.len() < 2 {
            return path;
        }
        let Some(&to) = path.last() else {
            return path;
        };
        let i = self.ask_about(
            Side::Overmind,
            DecisionKind::Path,
            Some(mover.id()),
            format!("Which way does {} go to {to}?", mover.id()),
            paths.iter().map(|p| Choice::Path(p.clone())).collect(),
        );
        if i < paths.len() {
            paths.swap_remove(i)
        } else {
            path
        }
    }

    /// Where the mover stands now, or `None` when it is gone (killed, revealed).
    pub fn mover_pos(&self, m: &Mover) -> Option<Pos> {
        match m {
            Mover::Model(id) => self.st.find_model(id).map(|(_, m)| m.pos),
            Mover::Blip(id) => self.st.blip(id).map(|b| b.pos),
        }
    }

    fn mover_side(&self, m: &Mover) -> Side {
        match m {
            Mover::Model(id) => self
                .st
                .find_model(id)
                .map_or(Side::Overmind, |(u, _)| u.side),
            Mover::Blip(_) => Side::Overmind,
        }
    }

    fn set_pos(&mut self, m: &Mover, p: Pos) {
        match m {
            Mover::Model(id) => {
                if let Some(model) = self.st.model_mut(id) {
                    model.pos = p;
                }
                if self
                    .st
                    .tokens
                    .iter()
                    .any(|t| t.carried_by.as_ref() == Some(id))
                {
                    self.carry_tokens();
                }
            }
            Mover::Blip(id) => {
                if let Some(b) = self.st.blips.iter_mut().find(|b| &b.id == id) {
                    b.pos = p;
                }
            }
        }
        self.st.moved();
    }

    /// Walk `path` (start first). After every step: Overwatch may fire, and any Blip now in a
    /// Hero's LOS is revealed. A revealed Blip's own move ends where it was revealed; any other
    /// mover resumes towards the path's end if it lives, re-planning around new models within
    /// the steps it has left. Forced moves (Push Back, Shaken) give no Free Attacks and trigger
    /// no Overwatch. Returns the steps taken.
    pub fn walk(&mut self, mover: &Mover, path: &[Pos], forced: bool) -> u32 {
        let Some(&dest) = path.last() else {
            return 0;
        };
        let allowance = path.len().saturating_sub(1) as u32;
        let mut queue: std::collections::VecDeque<Pos> = path.iter().skip(1).copied().collect();
        let Some(start) = self.mover_pos(mover) else {
            return 0;
        };
        let mut segment = vec![start];
        let mut taken = 0u32;
        let side = self.mover_side(mover);
        let xxl = self.mover_xxl(mover);
        let mut free_attackers: Vec<Id> = Vec::new();
        while let Some(mut next) = queue.pop_front() {
            if self.st.is_over() {
                break;
            }
            let Some(cur) = self.mover_pos(mover) else {
                break;
            };
            let map = self.map();
            let stepped = if xxl {
                can_step_block(&map, self.st.obstacles(), cur, next)
            } else {
                can_step(&map, self.st.obstacles(), cur, next)
            };
            if !stepped {
                // Something now stands in the way: re-plan within what is left.
                let left = allowance - taken;
                let replanned = if xxl {
                    block_path(&map, self.st.obstacles(), cur, dest)
                } else {
                    shortest_path(&map, self.st.obstacles(), cur, dest)
                };
                match replanned {
                    Some(p) if p.len() >= 2 && (p.len() - 1) as u32 <= left => {
                        queue = p.into_iter().skip(1).collect();
                        match queue.pop_front() {
                            Some(n) => next = n,
                            None => break,
                        }
                    }
                    _ => {
                        self.flush(mover, &mut segment, forced);
                        self.emit(Event::MoveStopped {
                            unit: Id::from(mover.id()),
                            at: cur,
                            reason: format!("the way to {dest} is blocked"),
                        });
                        break;
                    }
                }
            }
            // Free Attacks: stepping away from adjacent enemies.
            if !forced {
                if let Mover::Model(id) = mover {
                    let leaving = self.free_attack_units(side, (cur, next, xxl), &free_attackers);
                    if !leaving.is_empty() {
                        self.flush(mover, &mut segment, forced);
                        for u in leaving {
                            free_attackers.push(u);
                            let _ = self.attack(
                                &u,
                                Target::Model(Id::from(&id)),
                                AttackKind::FreeAttack,
                                Vec::new(),
                            );
                            if self.mover_pos(mover).is_none() || self.st.is_over() {
                                break;
                            }
                        }
                        if self.mover_pos(mover).is_none() || self.st.is_over() {
                            break;
                        }
                    }
                }
            }
            self.set_pos(mover, next);
            taken += 1;
            segment.push(next);
            if !forced {
                self.overwatch_check(mover, side, next, &mut segment);
                if self.mover_pos(mover).is_none() {
                    break;
                }
            }
            if let Mover::Model(id) = mover {
                // Only a step hook that acts interrupts the move's `moved` event: the steps
                // walked so far are held back and announced before its first event, so a hook
                // that does nothing leaves the move one event, as in a game where nothing
                // listens (docs/RULES.md §14); a face-down card's is never told apart from no
                // hook (§15.6).
                if self.step_due(id, next) {
                    let before = self.mover_status(id);
                    let mark = self.pending_moves.len();
                    if segment.len() > 1 {
                        self.pending_moves.push(Event::Moved {
                            unit: Id::from(mover.id()),
                            path: segment.clone(),
                            forced,
                        });
                    }
                    self.step_triggers(id, next);
                    if self.pending_moves.len() > mark {
                        // Nothing was shown: the move goes on as one event.
                        self.pending_moves.truncate(mark);
                    } else if let Some(&last) = segment.last() {
                        // The steps so far were announced: the rest is a new event.
                        segment.clear();
                        segment.push(last);
                    }
                    // A trigger that killed, stunned, knocked down or moved the mover stops
                    // its move there (docs/RULES.md §14); what happened before the triggers
                    // (an Overwatch shot's Push Back) is left to the walk, as when nothing
                    // listens.
                    let stopped = match (before, self.mover_status(id)) {
                        (Some((pos, stunned, down)), Some((pos_now, stunned_now, down_now))) => {
                            pos_now != pos || (stunned_now && !stunned) || (down_now && !down)
                        }
                        _ => true,
                    };
                    if stopped || self.st.is_over() {
                        break;
                    }
                }
            }
            // Every square the mover's base left (docs/RULES.md §4.4).
            let vacated = footprint(cur, xxl).filter(|&v| !footprint(next, xxl).any(|q| q == v));
            if vacated.into_iter().any(|v| self.sight_changed(v, mover)) {
                self.flush(mover, &mut segment, forced);
                self.check_reveals();
                if self.mover_pos(mover).is_none() {
                    break;
                }
            }
        }
        self.flush(mover, &mut segment, forced);
        taken
    }

    /// Where `model` stands, and whether it is Stunned and Knocked Down; `None` once it is gone.
    fn mover_status(&self, model: &Id) -> Option<(Pos, bool, bool)> {
        self.st
            .find_model(model)
            .map(|(_, m)| (m.pos, m.status.stunned, m.status.knocked_down))
    }

    /// `step` triggers for `model` entering `at`: the game's, its type's or profile's, then each
    /// token's lying there.
    fn step_triggers(&mut self, model: &Id, at: Pos) {
        let unit = self.st.find_model(model).map(|(u, _)| u.id);
        let mut moment = crate::rules::trigger::Moment {
            unit,
            model: Some(*model),
            at: Some(at),
            round: self.st.round,
            ..Default::default()
        };
        self.fire(crate::data::hook::Hook::Step, &moment);
        let tokens: Vec<Id> = self.st.tokens_at(at).map(|t| t.id).collect();
        for t in tokens {
            if self.st.find_model(model).is_none_or(|(_, m)| m.pos != at) {
                break;
            }
            moment.token = Some(t);
            self.fire(crate::data::hook::Hook::Step, &moment);
        }
    }

    /// Emit the steps walked since the last interrupt as one `moved` event.
    fn flush(&mut self, mover: &Mover, segment: &mut Vec<Pos>, forced: bool) {
        if segment.len() > 1 {
            let path = std::mem::take(segment);
            let last = path[path.len() - 1];
            self.emit(Event::Moved {
                unit: Id::from(mover.id()),
                path,
                forced,
            });
            segment.push(last);
        } else if let Some(p) = self.mover_pos(mover) {
            segment.clear();
            segment.push(p);
        }
    }

    /// Is the mover an XXL model (docs/RULES.md §4.4)?
    pub(crate) fn mover_xxl(&self, m: &Mover) -> bool {
        match m {
            Mover::Model(id) => self.st.find_model(id).is_some_and(|(_, m)| m.xxl),
            Mover::Blip(_) => false,
        }
    }

    /// Enemy units with a model adjacent to the mover's base on `from` that able to fight,
    /// none adjacent to it on `to` (`xxl`: the mover's base is 2×2).
    fn free_attack_units(
        &self,
        side: Side,
        (from, to, xxl): (Pos, Pos, bool),
        done: &[Id],
    ) -> Vec<Id> {
        let map = &self.st.map;
        let adjacent = |map: &crate::data::map::Map, a: Pos, a_xxl: bool, b: Pos| {
            base_adjacent(map, a, a_xxl, b, xxl)
        };
        self.st
            .units
            .iter()
            .filter(|u| u.side != side && !done.contains(&u.id))
            .filter(|u| {
                let near_from = u.models.iter().any(|m| {
                    adjacent(map, m.pos, m.xxl, from) && !m.status.knocked_down && !m.status.stunned
                });
                let near_to = u.models.iter().any(|m| adjacent(map, m.pos, m.xxl, to));
                near_from && !near_to
            })
            .map(|u| u.id)
            .collect()
    }

    /// Fire every enemy Overwatch whose shooters now see the mover within long range.
    fn overwatch_check(&mut self, mover: &Mover, side: Side, at: Pos, segment: &mut Vec<Pos>) {
        let watchers: Vec<Id> = self
            .st
            .units
            .iter()
            .filter(|u| u.side != side && u.overwatch.is_some())
            .map(|u| u.id)
            .collect();
        for w in watchers {
            if self.mover_pos(mover).is_none() || self.st.is_over() {
                return;
            }
            if self.shooters(&w, at).is_empty() {
                continue;
            }
            let weak = matches!(
                self.st.unit(&w).and_then(|u| u.overwatch),
                Some(crate::data::state::Overwatch::Weak)
            );
            if let Some(u) = self.st.unit_mut(&w) {
                u.overwatch = None;
            }
            self.flush(mover, segment, false);
            let penalty = if weak {
                vec![crate::data::event::Modifier::fewer(
                    crate::data::event::Cause::WeakOverwatch,
                    self.st.rules.weak_overwatch_penalty,
                    None,
                )]
            } else {
                Vec::new()
            };
            let target = match mover {
                Mover::Model(id) => Target::Model(Id::from(&id)),
                Mover::Blip(id) => Target::Blip(Id::from(&id)),
            };
            let mark = self.events.len();
            let _ = self.attack(&w, target, AttackKind::Overwatch, penalty);
            // A shot that never rolled (it flipped a Decoy) still spent the token: say so.
            let shot = self.events[mark.min(self.events.len())..]
                .iter()
                .any(|e| matches!(e, Event::Attack { attacker, .. } if *attacker == w));
            if !shot {
                self.emit(Event::OverwatchDiscarded { unit: w });
            }
        }
    }
}

//! A game in progress: state, event log and the record of inputs; the one entry point
//! [`Game::apply`] through which every change happens (RULES.md §5 activations).

use crate::action::{refuse, Action, ActionError};
use crate::combat::Target;
use crate::content::Content;
use crate::decision::{Answer, Controllers};
use crate::engine::Engine;
use crate::event::{AttackKind, Event};
use crate::geom::Pos;
use crate::motion::Mover;
use crate::movement::shortest_path;
use crate::rules::Rules;
use crate::state::{ActionKind, GameState, Objective, Overwatch, Phase, Side};
use serde::{Deserialize, Serialize};

/// One accepted action with the decisions answered while it resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub side: Side,
    pub action: Action,
    #[serde(default)]
    pub answers: Vec<Answer>,
}

/// A game: the state plus everything that happened and every input that made it happen.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Game {
    pub state: GameState,
    pub log: Vec<Event>,
    pub record: Vec<Record>,
}

impl Game {
    /// Start from a validated state.
    #[must_use]
    pub fn new(state: GameState, mission: &str, seed: u64) -> Game {
        let log = vec![
            Event::GameStarted {
                mission: mission.to_string(),
                seed,
            },
            Event::RoundStarted { round: state.round },
            Event::PhaseStarted { side: Side::Heroes },
        ];
        Game {
            state,
            log,
            record: Vec::new(),
        }
    }

    /// The side whose phase it is (`None` when the game is over).
    #[must_use]
    pub fn to_move(&self) -> Option<Side> {
        match self.state.phase {
            Phase::Heroes => Some(Side::Heroes),
            Phase::Overmind => Some(Side::Overmind),
            Phase::Over => None,
        }
    }

    /// Apply one action of the side whose phase it is. On error nothing changes.
    ///
    /// # Errors
    /// The action is illegal now; the message says why.
    pub fn apply(
        &mut self,
        action: Action,
        content: &Content,
        ctl: &mut Controllers,
    ) -> Result<Vec<Event>, ActionError> {
        let Some(side) = self.to_move() else {
            return refuse("the game is over");
        };
        let first_answer = ctl.answers.len();
        let mut eng = Engine::new(&mut self.state, content, ctl);
        eng.actor = side;
        let r = eng.transaction(|e| e.act(side, &action));
        let events = std::mem::take(&mut eng.events);
        r?;
        let answers = ctl.answers[first_answer..].to_vec();
        self.record.push(Record {
            side,
            action,
            answers,
        });
        self.log.extend(events.iter().cloned());
        Ok(events)
    }
}

impl Game {
    /// Re-run recorded actions from a starting state, answering every decision as recorded.
    /// The result's log equals the original's when the content is the same.
    ///
    /// # Errors
    /// The index and reason of the first recorded action the rules now refuse.
    pub fn replay(
        state: GameState,
        mission: &str,
        seed: u64,
        records: &[Record],
        content: &Content,
    ) -> Result<Game, (usize, ActionError)> {
        let mut g = Game::new(state, mission, seed);
        for (i, r) in records.iter().enumerate() {
            let answers = |who: Side| -> Vec<usize> {
                r.answers
                    .iter()
                    .filter(|a| a.who == who)
                    .map(|a| a.index)
                    .collect()
            };
            let mut ctl = Controllers::new(
                Box::new(crate::decision::Scripted::new(answers(Side::Heroes))),
                Box::new(crate::decision::Scripted::new(answers(Side::Overmind))),
            );
            g.apply(r.action.clone(), content, &mut ctl)
                .map_err(|e| (i, e))?;
        }
        Ok(g)
    }
}

/// What an action names: a Blip, or a unit and one of its models.
enum Actor {
    Blip(String),
    Unit {
        unit: String,
        model: String,
        named_model: bool,
    },
}

impl Engine<'_> {
    fn actor_of(&self, name: &str, side: Side) -> Result<Actor, ActionError> {
        if let Some(b) = self.st.blip(name) {
            if side != Side::Overmind {
                return refuse(format!("{name} is a Blip: only the Overmind moves Blips"));
            }
            return Ok(Actor::Blip(b.id.clone()));
        }
        let (unit, model, named_model) = match self.st.find_model(name) {
            Some((u, m)) => (u, m.id.clone(), true),
            None => match self.st.unit(name) {
                Some(u) => match u.models.first() {
                    Some(m) => (u, m.id.clone(), false),
                    None => return refuse(format!("{name} has no models left")),
                },
                None => return refuse(format!("no unit, model or Blip named {name}")),
            },
        };
        if unit.side != side {
            return refuse(format!("{name} belongs to the {}", unit.side.name()));
        }
        if unit.extracted {
            return refuse(format!("{name} has left the map"));
        }
        Ok(Actor::Unit {
            unit: unit.id.clone(),
            model,
            named_model,
        })
    }

    /// Apply one action; the caller rolls back on error.
    pub(crate) fn act(&mut self, side: Side, action: &Action) -> Result<(), ActionError> {
        let Some(name) = action.actor() else {
            self.end_activation_or_phase(side);
            return Ok(());
        };
        let actor = self.actor_of(name, side)?;
        let id = match &actor {
            Actor::Blip(b) => b.clone(),
            Actor::Unit { unit, .. } => unit.clone(),
        };
        let kind = match action {
            Action::Move { .. } => ActionKind::Move,
            Action::Sprint { .. } => ActionKind::Sprint,
            Action::Shoot { .. } => ActionKind::Shoot,
            Action::Melee { .. } => ActionKind::Melee,
            Action::Overwatch { .. } => ActionKind::Overwatch,
            Action::Interact { .. } => ActionKind::Interact,
            Action::Flip { .. } => ActionKind::Flip,
            Action::End => unreachable_end(),
        };
        // A further model of a unit moving within the same Move/Sprint action.
        let continuing = self.continues_move(&actor, kind);
        if !continuing {
            self.start_action(&id, kind)?;
        }
        match (&actor, action) {
            (Actor::Blip(b), Action::Move { to, .. } | Action::Sprint { to, .. }) => {
                let steps = if kind == ActionKind::Move {
                    self.st.rules.blip_movement
                } else {
                    Rules::sprint(self.st.rules.blip_movement)
                };
                self.move_along(Mover::Blip(b.clone()), *to, steps, kind)?;
            }
            (Actor::Blip(b), Action::Flip { .. }) => {
                let b = b.clone();
                if let Some((unit, triggers)) =
                    self.reveal(&b, crate::event::RevealCause::Overmind, Side::Overmind)
                {
                    if triggers {
                        self.perform_behaviour(&unit);
                    }
                }
            }
            (Actor::Blip(b), _) => {
                return refuse(format!("{b} is a Blip: it can Move, Sprint or Flip"));
            }
            (
                Actor::Unit {
                    model,
                    unit,
                    named_model,
                },
                Action::Move { to, .. } | Action::Sprint { to, .. },
            ) => {
                let model = if *named_model {
                    model.clone()
                } else {
                    self.next_unmoved_model(unit)
                        .unwrap_or_else(|| model.clone())
                };
                self.unit_move(unit, &model, *to, kind)?;
            }
            (
                Actor::Unit { unit, .. },
                Action::Shoot { target, .. } | Action::Melee { target, .. },
            ) => {
                let attack = if kind == ActionKind::Shoot {
                    AttackKind::Shoot
                } else {
                    AttackKind::Melee
                };
                self.unit_attack(unit, target, attack)?;
            }
            (Actor::Unit { unit, .. }, Action::Overwatch { .. }) => self.overwatch(unit)?,
            (Actor::Unit { unit, model, .. }, Action::Interact { .. }) => {
                self.interact(unit, model)?
            }
            (Actor::Unit { .. }, Action::Flip { unit }) => {
                return refuse(format!("{unit} is not a Blip: only Blips Flip"));
            }
            (_, Action::End) => {}
        }
        self.check_reveals();
        self.check_victory();
        self.after_action(&id);
        Ok(())
    }

    fn continues_move(&self, actor: &Actor, kind: ActionKind) -> bool {
        let Actor::Unit {
            unit,
            model,
            named_model,
        } = actor
        else {
            return false;
        };
        if !matches!(kind, ActionKind::Move | ActionKind::Sprint)
            || self.st.active.as_deref() != Some(unit)
        {
            return false;
        }
        let Some(u) = self.st.unit(unit) else {
            return false;
        };
        if u.used.last() != Some(&kind) {
            return false;
        }
        let model = if *named_model {
            Some(model.clone())
        } else {
            self.next_unmoved_model(unit)
        };
        model.is_some_and(|m| !self.st.moved_this_action.contains(&m))
    }

    fn next_unmoved_model(&self, unit: &str) -> Option<String> {
        self.st
            .unit(unit)?
            .models
            .iter()
            .find(|m| !self.st.moved_this_action.contains(&m.id))
            .map(|m| m.id.clone())
    }

    /// Begin an action of `id`: start its activation if needed, check the two-different-actions
    /// rule, and record the action.
    fn start_action(&mut self, id: &str, kind: ActionKind) -> Result<(), ActionError> {
        let (activated, used) = match self.st.unit(id) {
            Some(u) => (u.activated, u.used.clone()),
            None => match self.st.blip(id) {
                Some(b) => (b.activated, b.used.clone()),
                None => return refuse(format!("no unit or Blip {id}")),
            },
        };
        let active = self.st.active.as_deref() == Some(id);
        if activated && !active {
            return refuse(format!("{id} has already activated this round"));
        }
        if active && used.len() >= 2 {
            return refuse(format!("{id} has taken both its actions"));
        }
        if active && used.contains(&kind) {
            return refuse(format!(
                "{id} has already taken a {} action this activation; its two actions must differ",
                kind.name()
            ));
        }
        if !active {
            if let Some(prev) = self.st.active.clone() {
                self.end_activation(&prev);
            }
            self.st.active = Some(id.to_string());
            self.emit(Event::ActivationStarted {
                unit: id.to_string(),
            });
            if let Some(u) = self.st.unit_mut(id) {
                u.activated = true;
                u.used.clear();
                if u.overwatch.take().is_some() {
                    self.emit(Event::OverwatchDiscarded {
                        unit: id.to_string(),
                    });
                }
            } else if let Some(b) = self.st.blips.iter_mut().find(|b| b.id == id) {
                b.activated = true;
                b.used.clear();
            }
        }
        if let Some(u) = self.st.unit_mut(id) {
            u.used.push(kind);
        } else if let Some(b) = self.st.blips.iter_mut().find(|b| b.id == id) {
            b.used.push(kind);
        }
        self.st.moved_this_action.clear();
        self.emit(Event::ActionTaken {
            unit: id.to_string(),
            action: kind,
        });
        Ok(())
    }

    /// Move a Blip or model to `to` by a shortest legal path within `steps`.
    fn move_along(
        &mut self,
        mover: Mover,
        to: Pos,
        steps: u32,
        kind: ActionKind,
    ) -> Result<(), ActionError> {
        let Some(from) = self.mover_pos(&mover) else {
            return refuse("nothing to move");
        };
        let map = self.map();
        if !map.in_bounds(to) {
            return refuse(format!(
                "{to} is off the map ({}x{})",
                map.width(),
                map.height()
            ));
        }
        let o = self.obstacles();
        let Some(path) = shortest_path(&map, &o, from, to) else {
            return refuse(format!("no legal path from {from} to {to}"));
        };
        let need = (path.len() - 1) as u32;
        if need > steps {
            return refuse(format!(
                "{to} is {need} squares away; a {} allows {steps}",
                kind.name()
            ));
        }
        if need == 0 {
            return refuse(format!("{} is already on {to}", mover.id()));
        }
        self.walk(&mover, &path, false);
        Ok(())
    }

    fn unit_move(
        &mut self,
        unit: &str,
        model: &str,
        to: Pos,
        kind: ActionKind,
    ) -> Result<(), ActionError> {
        let Some((u, m)) = self.st.find_model(model) else {
            return refuse(format!("no model {model}"));
        };
        if self.st.moved_this_action.iter().any(|x| x == model) {
            return refuse(format!("{model} has already moved in this action"));
        }
        let stats = self.stats(u.side, m);
        let (knocked, stunned) = (m.status.knocked_down, m.status.stunned);
        if stunned {
            return refuse(format!(
                "{model} is Stunned: recover with an Interact action first"
            ));
        }
        self.st.moved_this_action.push(model.to_string());
        if knocked {
            if kind == ActionKind::Sprint {
                return refuse(format!(
                    "{model} is Knocked Down: its next Move action is spent standing up"
                ));
            }
            if let Some(m) = self.st.model_mut(model) {
                m.status.knocked_down = false;
            }
            self.emit(Event::Status {
                model: model.to_string(),
                status: crate::event::StatusChange::StoodUp,
            });
            let _ = unit;
            return Ok(());
        }
        let steps = if kind == ActionKind::Move {
            stats.movement
        } else {
            Rules::sprint(stats.movement)
        };
        self.move_along(Mover::Model(model.to_string()), to, steps, kind)
    }

    fn target_for(&self, target: &str) -> Result<Target, ActionError> {
        if self.st.blip(target).is_some() {
            return Ok(Target::Blip(target.to_string()));
        }
        match self.resolve_model(target) {
            Some((_, m)) => Ok(Target::Model(m)),
            None => refuse(format!("no target named {target}")),
        }
    }

    fn unit_attack(
        &mut self,
        unit: &str,
        target: &str,
        kind: AttackKind,
    ) -> Result<(), ActionError> {
        let t = self.target_for(target)?;
        if let Some(u) = self.st.unit(unit) {
            if u.models
                .iter()
                .all(|m| m.status.knocked_down || m.status.stunned)
            {
                return refuse(format!("{unit} must stand up or recover before it attacks"));
            }
        }
        // A model may not attack the unit that Shook it this round.
        if let Target::Model(m) = &t {
            if let Some((tu, _)) = self.st.find_model(m) {
                let tu = tu.id.clone();
                if let Some(u) = self.st.unit(unit) {
                    if u.models
                        .iter()
                        .all(|m| m.status.shaken_by.as_deref() == Some(tu.as_str()))
                    {
                        return refuse(format!(
                            "{unit} is Shaken by {tu} and may not attack it this round"
                        ));
                    }
                }
            }
        }
        self.attack(unit, t, kind, 0)
    }

    fn overwatch(&mut self, unit: &str) -> Result<(), ActionError> {
        let Some(u) = self.st.unit(unit) else {
            return refuse(format!("no unit {unit}"));
        };
        let can_shoot = u.models.iter().any(|m| self.shoot_of(u.side, m).is_some());
        if !can_shoot {
            return refuse(format!("{unit} has no Shoot attack to Overwatch with"));
        }
        let mode = if u.used.len() <= 1 {
            Overwatch::Full
        } else {
            Overwatch::Weak
        };
        if let Some(u) = self.st.unit_mut(unit) {
            u.overwatch = Some(mode);
            if mode == Overwatch::Full {
                // Full Overwatch takes both actions.
                u.used.push(ActionKind::Overwatch);
            }
        }
        self.emit(Event::OverwatchSet {
            unit: unit.to_string(),
            mode,
        });
        Ok(())
    }

    fn interact(&mut self, unit: &str, model: &str) -> Result<(), ActionError> {
        let Some((u, m)) = self.st.find_model(model) else {
            return refuse(format!("no model {model}"));
        };
        let (side, at, stunned) = (u.side, m.pos, m.status.stunned);
        if stunned {
            if let Some(m) = self.st.model_mut(model) {
                m.status.stunned = false;
            }
            self.emit(Event::Status {
                model: model.to_string(),
                status: crate::event::StatusChange::Recovered,
            });
            return Ok(());
        }
        if side == Side::Heroes {
            match self.st.objective.clone() {
                Objective::Interact { squares } if squares.contains(&at) => {
                    if self.st.activated_objectives.contains(&at) {
                        return refuse(format!("the objective at {at} is already activated"));
                    }
                    self.st.activated_objectives.push(at);
                    self.emit(Event::ObjectiveActivated {
                        unit: unit.to_string(),
                        at,
                    });
                    return Ok(());
                }
                Objective::Extract { squares, .. } => {
                    let ok = if squares.is_empty() {
                        self.st.map.terrain(at) == crate::map::Terrain::Yellow
                    } else {
                        squares.contains(&at)
                    };
                    if ok {
                        if let Some(u) = self.st.unit_mut(unit) {
                            u.extracted = true;
                            u.models.clear();
                        }
                        self.st.moved();
                        self.emit(Event::Extracted {
                            unit: unit.to_string(),
                            at,
                        });
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        refuse(format!("{model} has nothing to interact with at {at}"))
    }

    /// After an action: end the activation when its actions are spent, then move the round on.
    fn after_action(&mut self, id: &str) {
        if self.st.is_over() {
            return;
        }
        let spent = match self.st.unit(id) {
            Some(u) => u.used.len() >= 2 || !u.alive() || u.extracted,
            None => self.st.blip(id).is_none_or(|b| b.used.len() >= 2),
        };
        if spent && self.st.active.as_deref() == Some(id) {
            self.end_activation(id);
        }
        self.advance();
    }

    fn end_activation(&mut self, id: &str) {
        if self.st.active.as_deref() == Some(id) {
            self.st.active = None;
            self.st.moved_this_action.clear();
            self.emit(Event::ActivationEnded {
                unit: id.to_string(),
            });
        }
    }

    fn end_activation_or_phase(&mut self, side: Side) {
        if let Some(id) = self.st.active.clone() {
            self.end_activation(&id);
        } else {
            // End the phase: every unit not yet activated forgoes its activation.
            for u in self.st.units.iter_mut().filter(|u| u.side == side) {
                u.activated = true;
            }
            if side == Side::Overmind {
                for b in &mut self.st.blips {
                    b.activated = true;
                }
            }
        }
        self.advance();
    }

    /// Whether `side` has anything left to activate this round.
    fn has_pending(&self, side: Side) -> bool {
        let units = self
            .st
            .units
            .iter()
            .any(|u| u.side == side && u.alive() && !u.extracted && !u.activated);
        units || (side == Side::Overmind && self.st.blips.iter().any(|b| !b.activated))
    }

    /// Pass the phase (and the round) on while nothing is left to activate.
    pub(crate) fn advance(&mut self) {
        // Bounded: at most two phase changes and one round change per call.
        for _ in 0..4 {
            if self.st.is_over() || self.st.active.is_some() {
                return;
            }
            match self.st.phase {
                Phase::Heroes if !self.has_pending(Side::Heroes) => {
                    self.st.phase = Phase::Overmind;
                    self.actor = Side::Overmind;
                    self.emit(Event::PhaseStarted {
                        side: Side::Overmind,
                    });
                }
                Phase::Overmind if !self.has_pending(Side::Overmind) => self.end_round(),
                _ => return,
            }
        }
    }

    fn end_round(&mut self) {
        if self.st.round >= self.st.max_rounds {
            if let Some((w, r)) = self.st.winner(true) {
                self.finish(w, r);
                return;
            }
        }
        self.st.round += 1;
        for u in &mut self.st.units {
            u.activated = false;
            u.used.clear();
            for m in &mut u.models {
                m.status.shaken_by = None;
            }
        }
        for b in &mut self.st.blips {
            b.activated = false;
            b.used.clear();
        }
        self.st.phase = Phase::Heroes;
        self.actor = Side::Heroes;
        self.emit(Event::RoundStarted {
            round: self.st.round,
        });
        self.emit(Event::PhaseStarted { side: Side::Heroes });
    }
}

fn unreachable_end() -> ActionKind {
    // `End` has no actor, so `act` returns before asking its kind.
    ActionKind::Interact
}

//! A game in progress: state, event log and the record of inputs; the one entry point
//! [`Game::apply`] through which every change happens (docs/RULES.md §5).

use crate::data::action::{Action, Refusal};
use crate::data::event::{AttackKind, Event};
use crate::data::id::Id;
use crate::data::state::{ActionKind, GameState, Objective, Overwatch, Phase, Side};
use crate::rules::combat::Target;
use crate::rules::content::Content;
use crate::rules::decision::{Answer, Controllers};
use crate::rules::engine::Engine;
use crate::rules::motion::Mover;
use crate::rules::trigger::{Hook, Moment};
use crate::rules::validate::{kind_of, Checked, Paths, Plan, Step};
use serde::{Deserialize, Serialize};

/// One accepted action with the decisions answered while it resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub side: Side,
    pub action: Action,
    #[serde(default)]
    pub answers: Vec<Answer>,
}

/// The kind of an Overwatch or Interact action.
fn kind_or(action: &Action) -> ActionKind {
    kind_of(action).unwrap_or(ActionKind::Interact)
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
            Phase::Heroes if self.state.interrupt.is_some() => Some(Side::Overmind),
            Phase::Heroes => Some(Side::Heroes),
            Phase::Overmind => Some(Side::Overmind),
            Phase::Over => None,
        }
    }

    /// Apply one action of the side whose phase it is: [`Game::check`], then
    /// [`Game::play`]. On error nothing changes; once checked, everything the action does
    /// stands.
    ///
    /// # Errors
    /// The action is illegal now; the refusal says why.
    pub fn apply(
        &mut self,
        action: Action,
        content: &Content,
        ctl: &mut Controllers,
    ) -> Result<Vec<Event>, Refusal> {
        let checked = self.check(content, &action)?;
        self.play(checked, content, ctl)
    }

    /// Carry out an action [`Game::check`] accepted, without validating it again
    /// (shakmaty's `play_unchecked`). A plan checked before the game moved on is checked
    /// again first.
    ///
    /// # Errors
    /// Only for a stale plan that the rules now refuse; nothing changes then.
    pub fn play(
        &mut self,
        checked: Checked,
        content: &Content,
        ctl: &mut Controllers,
    ) -> Result<Vec<Event>, Refusal> {
        let checked = if checked.at == self.moment() && self.to_move() == Some(checked.side) {
            checked
        } else {
            self.check(content, &checked.action)?
        };
        let Checked {
            side, action, plan, ..
        } = checked;
        let first_answer = ctl.answers.len();
        let mut eng = Engine::new(&mut self.state, content, ctl);
        eng.actor = side;
        if action == Action::Deploy {
            // Before round 1 starts: its start triggers run with the first action after it.
            eng.deploy();
            eng.check_victory();
        } else if eng.st.started {
            eng.act(side, &action, plan);
        } else {
            // Round 1's start triggers run with the first action, before it (docs/RULES.md
            // §14); if they leave it illegal, it is voided, and what they did stands.
            // Triggers change the game only through effects, each an event: with none, the
            // plan stands as checked.
            eng.st.started = true;
            let before = eng.events.len();
            eng.round_start_triggers();
            if eng.events.len() == before {
                eng.act(side, &action, plan);
            } else {
                match crate::rules::validate::validate(eng.st, content, side, &action, Paths::All) {
                    Ok(plan) => eng.act(side, &action, plan),
                    Err(e) => eng.emit(Event::ActionVoided { reason: e.message }),
                }
            }
        }
        let events = std::mem::take(&mut eng.events);
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
    ) -> Result<Game, (usize, Refusal)> {
        let mut g = Game::new(state, mission, seed);
        for (i, r) in records.iter().enumerate() {
            g.play_record(r, content).map_err(|e| (i, e))?;
        }
        Ok(g)
    }

    /// Plays one recorded action, answering its decisions as recorded (one step of
    /// [`replay`](Self::replay)).
    ///
    /// # Errors
    /// The rules now refuse the action.
    pub fn play_record(&mut self, r: &Record, content: &Content) -> Result<Vec<Event>, Refusal> {
        let answers = |who: Side| -> Vec<usize> {
            r.answers
                .iter()
                .filter(|a| a.who == who)
                .map(|a| a.index)
                .collect()
        };
        let mut ctl = Controllers::new(
            Box::new(crate::rules::decision::Scripted::new(answers(Side::Heroes))),
            Box::new(crate::rules::decision::Scripted::new(answers(
                Side::Overmind,
            ))),
        );
        self.apply(r.action.clone(), content, &mut ctl)
    }
}

impl Engine<'_> {
    /// Carry out one checked action: what [`crate::rules::validate`] found is not worked out again.
    pub(crate) fn act(&mut self, side: Side, action: &Action, plan: Plan) {
        if self.dev_act(action).is_some() || self.card_act(action).is_some() {
            return;
        }
        let (id, kind, continuing) = match &plan {
            Plan::Action => {
                self.end_activation_or_phase(side);
                return;
            }
            Plan::BlipMove { blip, kind, .. } => (*blip, *kind, false),
            Plan::ModelMove {
                unit,
                kind,
                continuing,
                ..
            } => (*unit, *kind, *continuing),
            Plan::Attack { unit, kind, .. } => (*unit, *kind, false),
            Plan::HazardAttack { unit, kind, .. } => {
                let k = if *kind == AttackKind::Shoot {
                    ActionKind::Shoot
                } else {
                    ActionKind::Melee
                };
                (*unit, k, false)
            }
            Plan::Overwatch { unit }
            | Plan::Interact { unit, .. }
            | Plan::DestroyWall { unit, .. } => (*unit, kind_or(action), false),
            Plan::Flip { blip } => (*blip, ActionKind::Flip, false),
        };
        let mut plan = plan;
        if !continuing {
            if self.begin_activation(&id) {
                // The activation's start triggers changed the game before the action: it is
                // checked again, and voided if they left it illegal (as round 1's, §14).
                match crate::rules::validate::validate(
                    self.st,
                    self.content,
                    side,
                    action,
                    crate::rules::validate::Paths::All,
                ) {
                    Ok(p) => plan = p,
                    Err(e) => {
                        self.emit(Event::ActionVoided { reason: e.message });
                        return;
                    }
                }
            }
            self.take_action(&id, kind);
        }
        match plan {
            Plan::Action => {}
            Plan::BlipMove { path, paths, .. } => {
                let mover = Mover::Blip(id);
                let path = self.choose_among(&mover, path, paths);
                self.walk(&mover, &path, false);
            }
            Plan::Flip { .. } => {
                if let Some((unit, true)) = self.reveal(
                    &id,
                    crate::data::event::RevealCause::Overmind,
                    Side::Overmind,
                ) {
                    self.perform_behaviour(&unit);
                }
            }
            Plan::ModelMove { model, step, .. } => self.unit_move(model, step),
            Plan::Attack { target, kind, .. } => {
                let attack = if kind == ActionKind::Shoot {
                    AttackKind::Shoot
                } else {
                    AttackKind::Melee
                };
                let t = if self.st.blip(&target).is_some() {
                    Target::Blip(target)
                } else {
                    Target::Model(target)
                };
                // Validated: the attack is possible, so nothing refuses it here.
                let r = self.attack(&id, t, attack, Vec::new());
                debug_assert!(r.is_ok(), "a checked attack refused: {r:?}");
            }
            Plan::HazardAttack {
                token,
                kind,
                models,
                ..
            } => self.attack_hazard(&id, &token, kind, &models),
            Plan::Overwatch { .. } => self.overwatch(&id),
            Plan::Interact { model, .. } => self.interact(&id, &model),
            Plan::DestroyWall { model, walls, .. } => self.destroy_wall(&id, &model, walls),
        }
        self.check_reveals();
        self.check_victory();
        self.after_action(&id);
    }

    /// Begin a validated action of `id`: start its activation if needed and record the
    /// action.
    /// Start `id`'s activation unless it is under way: whether its `activation_start`
    /// triggers changed the game (each effect is an event), so that the action is checked
    /// again before it resolves.
    fn begin_activation(&mut self, id: &str) -> bool {
        let active = self.st.active.as_deref() == Some(id);
        let mut changed = false;
        if !active {
            if let Some(prev) = self.st.active {
                self.end_activation(&prev);
            }
            self.st.active = Some(Id::from(id));
            self.interrupting_with(Id::from(id));
            self.emit(Event::ActivationStarted { unit: Id::from(id) });
            let before = self.events.len();
            self.fire_about(Hook::ActivationStart, Some(Id::from(id)), None);
            changed = self.events.len() != before;
            if let Some(u) = self.st.unit_mut(id) {
                u.activated = true;
                u.used.clear();
                if u.overwatch.take().is_some() {
                    self.emit(Event::OverwatchDiscarded { unit: Id::from(id) });
                }
            } else if let Some(b) = self.st.blips.iter_mut().find(|b| b.id == id) {
                b.activated = true;
                b.used.clear();
            }
        }
        changed
    }

    /// Count `kind` as an action of `id`'s activation.
    fn take_action(&mut self, id: &str, kind: ActionKind) {
        if let Some(u) = self.st.unit_mut(id) {
            u.used.push(kind);
        } else if let Some(b) = self.st.blips.iter_mut().find(|b| b.id == id) {
            b.used.push(kind);
        }
        self.st.moved_this_action.clear();
        self.emit(Event::ActionTaken {
            unit: Id::from(id),
            action: kind,
        });
    }

    /// A model's checked Move or Sprint: standing up, or walking its path.
    fn unit_move(&mut self, model: Id, step: Step) {
        self.st.moved_this_action.push(model);
        match step {
            Step::StandUp => {
                if let Some(m) = self.st.model_mut(&model) {
                    m.status.knocked_down = false;
                }
                self.emit(Event::Status {
                    model,
                    status: crate::data::event::StatusChange::StoodUp,
                });
            }
            Step::Path { path, paths } => {
                let mover = Mover::Model(model);
                let path = self.choose_among(&mover, path, paths);
                self.walk(&mover, &path, false);
            }
        }
    }

    fn overwatch(&mut self, unit: &str) {
        let per_activation = crate::rules::stats::actions_per_activation(self.st);
        let Some(u) = self.st.unit_mut(unit) else {
            return;
        };
        let mode = if u.used.len() <= 1 {
            Overwatch::Full
        } else {
            Overwatch::Weak
        };
        u.overwatch = Some(mode);
        if mode == Overwatch::Full {
            // Full Overwatch takes every action of the activation.
            while u.used.len() < per_activation {
                u.used.push(ActionKind::Overwatch);
            }
        }
        self.emit(Event::OverwatchSet {
            unit: Id::from(unit),
            mode,
        });
    }

    /// A validated Interact: recover from Stun, activate an objective, or extract.
    fn interact(&mut self, unit: &str, model: &str) {
        let Some((u, m)) = self.st.find_model(model) else {
            return;
        };
        let (side, at, stunned) = (u.side, m.pos, m.status.stunned);
        if stunned {
            if let Some(m) = self.st.model_mut(model) {
                m.status.stunned = false;
            }
            self.emit(Event::Status {
                model: Id::from(model),
                status: crate::data::event::StatusChange::Recovered,
            });
            return;
        }
        let tokens: Vec<Id> =
            crate::rules::validate::interactive_tokens(self.st, self.content, at, Id::from(model))
                .map(|t| t.id)
                .collect();
        for token in tokens {
            if self.st.find_model(model).is_none() || self.st.is_over() {
                return;
            }
            let moment = Moment {
                unit: Some(Id::from(unit)),
                model: Some(Id::from(model)),
                at: Some(at),
                token: Some(token),
                round: self.st.round,
                ..Default::default()
            };
            self.fire(Hook::Interact, &moment);
        }
        if side != Side::Heroes || self.st.find_model(model).is_none() {
            return;
        }
        match &self.st.objective {
            Objective::Interact { .. } => {
                self.st.activated_objectives.push(at);
                self.emit(Event::ObjectiveActivated {
                    unit: Id::from(unit),
                    at,
                });
            }
            Objective::Extract { .. } => {
                if let Some(u) = self.st.unit_mut(unit) {
                    u.extracted = true;
                    u.models.clear();
                }
                self.st.moved();
                self.emit(Event::Extracted {
                    unit: Id::from(unit),
                    at,
                });
            }
            _ => {}
        }
    }

    /// After an action: end the activation when its actions are spent, then move the round on.
    fn after_action(&mut self, id: &str) {
        if self.st.is_over() {
            return;
        }
        let spent = match self.st.unit(id) {
            Some(u) => {
                crate::rules::stats::no_action_left(self.st, &u.used) || !u.alive() || u.extracted
            }
            None => self
                .st
                .blip(id)
                .is_none_or(|b| crate::rules::stats::no_action_left(self.st, &b.used)),
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
            self.emit(Event::ActivationEnded { unit: Id::from(id) });
            self.end_modifiers(crate::data::state::Until::ActivationEnd, Some(id));
            self.fire_about(Hook::ActivationEnd, Some(Id::from(id)), None);
            match self.st.interrupt {
                Some(crate::data::interrupt::Interrupt::Acting { unit: Some(u) }) if u == id => {
                    self.close_interrupt();
                }
                None if self.st.unit(id).is_some_and(|u| u.side == Side::Heroes) => {
                    self.offer_interrupt();
                }
                _ => {}
            }
        }
    }

    /// Fire `hook` about `unit` (or the phase's `side`), if anything listens.
    fn fire_about(&mut self, hook: Hook, unit: Option<Id>, side: Option<Side>) {
        if self.listens(hook) {
            let moment = Moment {
                unit,
                side,
                round: self.st.round,
                ..Default::default()
            };
            self.fire(hook, &moment);
        }
    }

    /// A round's and its Heroes phase's start triggers.
    pub(crate) fn round_start_triggers(&mut self) {
        self.fire_about(Hook::RoundStart, None, None);
        self.fire_about(Hook::PhaseStart, None, Some(Side::Heroes));
    }

    fn end_activation_or_phase(&mut self, side: Side) {
        if let Some(id) = self.st.active {
            self.end_activation(&id);
        } else if self.st.interrupt.is_some() {
            // The Overmind lets the Heroes go on, or its interruption ends.
            self.close_interrupt();
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
            if self.st.is_over() || self.st.active.is_some() || self.st.interrupt.is_some() {
                return;
            }
            match self.st.phase {
                Phase::Heroes if !self.has_pending(Side::Heroes) => {
                    self.fire_about(Hook::PhaseEnd, None, Some(Side::Heroes));
                    if self.st.is_over() || self.st.active.is_some() {
                        return;
                    }
                    self.st.phase = Phase::Overmind;
                    self.actor = Side::Overmind;
                    self.emit(Event::PhaseStarted {
                        side: Side::Overmind,
                    });
                    self.draw_hand();
                    self.fire_about(Hook::PhaseStart, None, Some(Side::Overmind));
                }
                Phase::Overmind if !self.has_pending(Side::Overmind) => self.end_round(),
                _ => return,
            }
        }
    }

    fn end_round(&mut self) {
        self.fire_about(Hook::PhaseEnd, None, Some(Side::Overmind));
        self.fire_about(Hook::RoundEnd, None, None);
        // A `round_end` trigger may have ended the game: `game_over` is the last event.
        if self.st.is_over() {
            return;
        }
        self.end_modifiers(crate::data::state::Until::RoundEnd, None);
        self.end_cards_in_play();
        if self.st.is_over() {
            return;
        }
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
        self.round_start_triggers();
    }
}

//! The rules engine's working context: one action's state, content, controllers and events.

use crate::data::event::Event;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::map::Obstacles;
use crate::data::profile::Shoot;
use crate::data::state::{GameState, Model, Side};
use crate::rules::content::Content;
use crate::rules::decision::{Choice, Controllers, Decision, DecisionKind};
use std::sync::Arc;

pub(crate) use crate::rules::stats::Stats;

/// Everything one action needs while it resolves. All state changes go through here; its
/// state is the rules layer's alone (look-ahead goes through [`crate::rules::preview`]).
pub(crate) struct Engine<'a> {
    pub(in crate::rules) st: &'a mut GameState,
    pub(in crate::rules) content: &'a Content,
    pub(in crate::rules) ctl: &'a mut Controllers,
    pub(in crate::rules) events: Vec<Event>,
    /// Whose doing the effects now resolving are (docs/RULES.md §7.8 reveal triggers).
    pub(in crate::rules) actor: Side,
    /// Behaviours now performing, nested.
    pub(in crate::rules) depth: u32,
    /// Models killed while this engine ran, with their kinds (for `killed` triggers).
    pub(in crate::rules) dead_kinds: Vec<(Id, Id)>,
    /// Modifiers `before_attack` triggers added to the attack about to roll.
    pub(in crate::rules) attack_mods: Vec<crate::data::event::Modifier>,
    /// `victory_check` triggers are running (they do not fire again from within).
    pub(in crate::rules) checking_victory: bool,
    /// `triggered` events of running triggers that have not acted yet, outermost first.
    pub(in crate::rules) announce: Vec<Event>,
    /// The steps of moves interrupted by `step` triggers that have shown nothing yet, outermost
    /// first: a move is one `moved` event whatever listens to its steps, until something is
    /// shown (docs/RULES.md §14).
    pub(in crate::rules) pending_moves: Vec<Event>,
    /// Lua instructions this step's script calls may still spend: public calls, then face-down
    /// cards' hooks (`lua_step_instructions` each, docs/SANDBOX.md).
    pub(in crate::rules) script_left: [u64; 2],
}

impl<'a> Engine<'a> {
    pub fn new(st: &'a mut GameState, content: &'a Content, ctl: &'a mut Controllers) -> Self {
        let step_pool = st.rules.lua_step_instructions;
        let actor = match st.phase {
            crate::data::state::Phase::Overmind => Side::Overmind,
            _ => Side::Heroes,
        };
        Engine {
            st,
            content,
            ctl,
            events: Vec::new(),
            actor,
            depth: 0,
            dead_kinds: Vec::new(),
            attack_mods: Vec::new(),
            checking_victory: false,
            announce: Vec::new(),
            pending_moves: Vec::new(),
            script_left: [step_pool; 2],
        }
    }

    pub fn emit(&mut self, e: Event) {
        self.acting();
        self.events.push(e);
    }

    /// Something is shown: first the steps walked before it, then the running triggers that
    /// have not been announced yet (docs/RULES.md §14).
    pub(in crate::rules) fn acting(&mut self) {
        self.events.append(&mut self.pending_moves);
        self.events.append(&mut self.announce);
    }

    /// Ask a side to choose; returns the chosen option's index.
    pub fn ask(
        &mut self,
        who: Side,
        kind: DecisionKind,
        prompt: String,
        options: Vec<Choice>,
    ) -> usize {
        self.ask_about(who, kind, None, prompt, options)
    }

    /// Ask a side to choose something about one unit.
    pub fn ask_about(
        &mut self,
        who: Side,
        kind: DecisionKind,
        subject: Option<&str>,
        prompt: String,
        options: Vec<Choice>,
    ) -> usize {
        let d = Decision {
            who,
            kind,
            prompt,
            options,
            subject: subject.map(str::to_string),
        };
        if d.options.len() > 1 {
            self.show_context(who);
        }
        self.ctl.ask(self.st, &d)
    }

    /// Hand `who`'s controller this action's events so far (the roll before the question it
    /// leads to).
    pub(crate) fn show_context(&mut self, who: Side) {
        // A trigger that asks a question has acted.
        self.acting();
        self.ctl.show(who, &self.events);
    }

    /// Ask for one of several squares (sorted for determinism).
    pub fn ask_square(
        &mut self,
        who: Side,
        kind: DecisionKind,
        prompt: String,
        mut squares: Vec<Pos>,
    ) -> Option<Pos> {
        squares.sort_by_key(|p| (p.y, p.x));
        squares.dedup();
        if squares.is_empty() {
            return None;
        }
        let i = self.ask(
            who,
            kind,
            prompt,
            squares.iter().map(|&p| Choice::Square(p)).collect(),
        );
        squares.get(i).copied()
    }

    pub fn obstacles(&mut self) -> Obstacles {
        self.st.obstacles().clone()
    }

    pub fn los(&mut self, a: Pos, b: Pos) -> bool {
        self.st.los(a, b)
    }

    pub fn map(&self) -> Arc<crate::data::map::Map> {
        Arc::clone(&self.st.map)
    }

    /// Current stats of a model of `side` ([`Stats::of`]).
    pub fn stats(&self, side: Side, m: &Model) -> Stats {
        Stats::of(self.st, self.content, side, m)
    }

    /// A model's Shoot bands now ([`Stats::shoot_of`]).
    pub fn shoot_of(&self, side: Side, m: &Model) -> Option<Shoot> {
        Stats::shoot_of(self.st, self.content, side, m)
    }

    /// Stats of a model by id.
    pub fn model_stats(&self, model_id: &str) -> Option<Stats> {
        Stats::of_id(self.st, self.content, model_id)
    }

    /// The unit and model named by `id`: a model id, or a unit id meaning its first model.
    pub fn resolve_model(&self, id: &str) -> Option<(Id, Id)> {
        if let Some((u, m)) = self.st.find_model(id) {
            return Some((u.id, m.id));
        }
        let u = self.st.unit(id)?;
        let m = u.models.first()?;
        Some((u.id, m.id))
    }

    /// Side owning a unit id, if it exists.
    pub fn side_of(&self, unit: &str) -> Option<Side> {
        self.st.unit(unit).map(|u| u.side)
    }
}

//! The rules engine's working context: one action's state, content, controllers and events.

use crate::content::Content;
use crate::decision::{Choice, Controllers, Decision, DecisionKind};
use crate::event::Event;
use crate::geom::Pos;
use crate::id::Id;
use crate::map::Obstacles;
use crate::profile::{Effect, Shoot};
use crate::state::{GameState, Model, Side};
use std::sync::Arc;

/// Stats of one model right now (Hero dial applied).
#[derive(Clone, Debug, Default)]
pub(crate) struct Stats {
    pub movement: u32,
    pub melee: u32,
    pub defence: u32,
    pub fear: u32,
    pub shoot: Option<Shoot>,
    pub melee_effects: Vec<Effect>,
    pub shoot_effects: Vec<Effect>,
}

/// Everything one action needs while it resolves. All state changes go through here.
pub(crate) struct Engine<'a> {
    pub st: &'a mut GameState,
    pub content: &'a Content,
    pub ctl: &'a mut Controllers,
    pub events: Vec<Event>,
    /// Whose doing the effects now resolving are (docs/RULES.md §7.8 reveal triggers).
    pub actor: Side,
    /// Behaviours now performing, nested.
    pub depth: u32,
    /// Models killed while this engine ran, with their kinds (for `killed` triggers).
    pub(crate) dead_kinds: Vec<(Id, Id)>,
    /// Modifiers `before_attack` triggers added to the attack about to roll.
    pub(crate) attack_mods: Vec<crate::event::Modifier>,
    /// `victory_check` triggers are running (they do not fire again from within).
    pub(crate) checking_victory: bool,
    /// `triggered` events of running triggers that have not acted yet, outermost first.
    pub(crate) announce: Vec<Event>,
}

impl<'a> Engine<'a> {
    pub fn new(st: &'a mut GameState, content: &'a Content, ctl: &'a mut Controllers) -> Self {
        let actor = match st.phase {
            crate::state::Phase::Overmind => Side::Overmind,
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
        }
    }

    pub fn emit(&mut self, e: Event) {
        // A trigger is announced only once it does something (docs/RULES.md §14).
        if !self.announce.is_empty() {
            self.events.append(&mut self.announce);
        }
        self.events.push(e);
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
        if !self.announce.is_empty() {
            self.events.append(&mut self.announce);
        }
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

    pub fn map(&self) -> Arc<crate::map::Map> {
        Arc::clone(&self.st.map)
    }

    /// Current stats of a model of `side`, with the stat modifiers in force.
    pub fn stats(&self, side: Side, m: &Model) -> Stats {
        let mut s = self.base_stats(side, m);
        if !self.st.stat_mods.is_empty() {
            let add = |v: u32, stat: crate::state::Stat| -> u32 {
                (i64::from(v) + i64::from(self.st.stat_change(&m.id, stat))).clamp(0, 99) as u32
            };
            s.movement = add(s.movement, crate::state::Stat::Movement);
            s.melee = add(s.melee, crate::state::Stat::Melee);
            s.defence = add(s.defence, crate::state::Stat::Defence);
            if let Some(sh) = s.shoot.as_mut() {
                sh.short.cv = add(sh.short.cv, crate::state::Stat::Shoot);
                sh.long.cv = add(sh.long.cv, crate::state::Stat::Shoot);
            }
        }
        s
    }

    fn base_stats(&self, side: Side, m: &Model) -> Stats {
        match side {
            Side::Heroes => match self.content.heroes.get(m.kind.as_str()) {
                Some(p) => {
                    let (melee, defence) = p.dial_at(m.health);
                    Stats {
                        movement: p.movement_at(m.health),
                        melee,
                        defence,
                        fear: 0,
                        shoot: p.shoot,
                        melee_effects: p.melee_effects.clone(),
                        shoot_effects: p.shoot_effects.clone(),
                    }
                }
                None => Stats::default(),
            },
            Side::Overmind => match self.content.aliens.get(m.kind.as_str()) {
                Some(t) => Stats {
                    movement: t.movement,
                    melee: t.melee,
                    defence: t.defence,
                    fear: t.fear,
                    shoot: t.shoot,
                    melee_effects: t.melee_effects.clone(),
                    shoot_effects: t.shoot_effects.clone(),
                },
                None => Stats::default(),
            },
        }
    }

    /// A model's Shoot profile: `self.stats(side, m).shoot` without building the rest.
    pub fn shoot_of(&self, side: Side, m: &Model) -> Option<Shoot> {
        match side {
            Side::Heroes => self
                .content
                .heroes
                .get(m.kind.as_str())
                .and_then(|p| p.shoot),
            Side::Overmind => self
                .content
                .aliens
                .get(m.kind.as_str())
                .and_then(|t| t.shoot),
        }
    }

    /// Stats of a model by id.
    pub fn model_stats(&self, model_id: &str) -> Option<Stats> {
        let (u, m) = self.st.find_model(model_id)?;
        Some(self.stats(u.side, m))
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

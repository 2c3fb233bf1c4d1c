//! Effects (docs/RULES.md §14): what a script may change outside the rules' own steps — deal
//! and heal damage, set and clear a status, a stat modifier until the end of the activation or
//! round, spawn a unit or a Blip on a legal square, place, move and remove tokens, give or take
//! an action, declare a winner. Each is checked before it changes anything and announced by an
//! `effect` event naming the script; the rules' own events follow.

use crate::data::event::{Cause, Change, Event, Modifier, Roll};
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::state::{Blip, Contents, Side, Stat, StatMod, StatusName, Until};
use crate::data::token::Token;
use crate::rules::behaviour::{BehaviourCtx, BehaviourError};
use crate::rules::engine::Engine;

/// Most Health one effect may deal or heal.
pub const MAX_AMOUNT: u32 = 20;
/// Most a stat modifier may change a stat.
pub const MAX_CHANGE: i32 = 10;

fn err<T>(msg: impl Into<String>) -> Result<T, BehaviourError> {
    Err(BehaviourError::new(msg))
}

impl<'e, 'a> BehaviourCtx<'e, 'a> {
    /// A context for a trigger of script `source` about `unit` (empty: a game-wide moment).
    pub(crate) fn for_trigger(eng: &'e mut Engine<'a>, unit: Id, source: Id) -> Self {
        BehaviourCtx::for_score(eng, unit, source)
    }

    /// A context for a face-down card's hook: its instructions come from the step's hidden
    /// pool.
    pub(crate) fn for_hidden_trigger(eng: &'e mut Engine<'a>, unit: Id, source: Id) -> Self {
        let mut ctx = BehaviourCtx::for_score(eng, unit, source);
        ctx.hidden = true;
        ctx
    }
}

impl<'a> BehaviourCtx<'_, 'a> {
    /// The content the game is played with (token kinds, alien types), for a script host
    /// describing what it sees.
    pub fn content(&mut self) -> &'a crate::rules::content::Content {
        self.engine().content
    }
}

impl BehaviourCtx<'_, '_> {
    /// Room for one more effect in this call (`max_effects`), counted before anything
    /// changes: past it the call fails where it asked (docs/SANDBOX.md).
    pub(in crate::rules) fn room(&mut self) -> Result<(), BehaviourError> {
        let most = self.state().rules.max_effects;
        if self.effects >= most {
            return err(format!(
                "a call may cause at most {most} effects (`max_effects` in rules.toml)"
            ));
        }
        self.effects += 1;
        Ok(())
    }

    /// Room in the game for one more unit or Blip (`max_units`).
    fn unit_room(&mut self) -> Result<(), BehaviourError> {
        let st = self.state();
        let most = st.rules.max_units as usize;
        if st.units.len() + st.blips.len() >= most {
            return err(format!(
                "a game may hold at most {most} units and Blips (`max_units` in rules.toml)"
            ));
        }
        Ok(())
    }

    fn effect(&mut self, change: Change) {
        let source = Id::from(self.behaviour());
        self.engine().emit(Event::Effect { source, change });
    }

    fn living(&self, model: &str) -> Result<(Id, Side, Pos), BehaviourError> {
        match self.state().find_model(model) {
            Some((u, m)) => Ok((u.id, u.side, m.pos)),
            None => err(format!("no model {model} on the map")),
        }
    }

    fn amount(what: &str, n: u32) -> Result<(), BehaviourError> {
        if (1..=MAX_AMOUNT).contains(&n) {
            Ok(())
        } else {
            err(format!("{what}: expected 1 to {MAX_AMOUNT}, found {n}"))
        }
    }

    /// Take `amount` Health from `model` (not allocated: that model), killing it at 0.
    ///
    /// # Errors
    /// No such model, or an amount out of range.
    pub fn deal_damage(&mut self, model: &str, amount: u32) -> Result<(), BehaviourError> {
        self.room()?;
        Self::amount("damage", amount)?;
        let (unit, _, _) = self.living(model)?;
        self.effect(Change::Damage {
            model: Id::from(model),
            amount,
        });
        let eng = self.engine();
        let target = Id::from(model);
        let mut hurt = Vec::new();
        // The named model takes every point: allocation is for attacks (docs/RULES.md §6.4).
        for _ in 0..amount {
            if eng.st.find_model(&target).is_none() {
                break;
            }
            eng.damage_one(&unit, target, None, &mut hurt);
        }
        eng.after_damage(&unit, hurt, None);
        eng.check_victory();
        Ok(())
    }

    /// Give `model` back up to `amount` Health, never above its starting Health.
    ///
    /// # Errors
    /// No such model, or an amount out of range.
    pub fn heal(&mut self, model: &str, amount: u32) -> Result<u32, BehaviourError> {
        self.room()?;
        Self::amount("heal", amount)?;
        self.living(model)?;
        let eng = self.engine();
        let Some(m) = eng.st.model_mut(model) else {
            return err(format!("no model {model} on the map"));
        };
        let before = m.health;
        m.health = (m.health + amount).min(m.max_health);
        let (health, healed) = (m.health, m.health - before);
        self.effect(Change::Heal {
            model: Id::from(model),
            amount: healed,
            health,
        });
        Ok(healed)
    }

    /// Set (`on`) or clear a status of `model`.
    ///
    /// # Errors
    /// No such model.
    pub fn set_status(
        &mut self,
        model: &str,
        status: StatusName,
        on: bool,
    ) -> Result<(), BehaviourError> {
        self.room()?;
        self.living(model)?;
        let eng = self.engine();
        if let Some(m) = eng.st.model_mut(model) {
            match status {
                StatusName::KnockedDown => m.status.knocked_down = on,
                StatusName::Stunned => m.status.stunned = on,
            }
        }
        self.effect(Change::Status {
            model: Id::from(model),
            status,
            on,
        });
        Ok(())
    }

    /// Change `model`'s `stat` by `change` until the end of its unit's activation or of the
    /// round (docs/RULES.md §14: a stat never goes below 0 for it).
    ///
    /// # Errors
    /// No such model, or a change of 0 or beyond ±[`MAX_CHANGE`].
    pub fn modify(
        &mut self,
        model: &str,
        stat: Stat,
        change: i32,
        until: Until,
    ) -> Result<(), BehaviourError> {
        self.room()?;
        if change == 0 || change.abs() > MAX_CHANGE {
            return err(format!(
                "modifier: expected a change of -{MAX_CHANGE} to {MAX_CHANGE}, not 0; found {change}"
            ));
        }
        self.living(model)?;
        let most = self.state().rules.max_modifiers as usize;
        if self.state().stat_mods.len() >= most {
            return err(format!(
                "a game may hold at most {most} stat modifiers in force (`max_modifiers` in rules.toml)"
            ));
        }
        let source = Id::from(self.behaviour());
        self.engine().st.stat_mods.push(StatMod {
            model: Id::from(model),
            stat,
            change,
            until,
            source,
        });
        self.effect(Change::Modifier {
            model: Id::from(model),
            stat,
            change,
            until,
        });
        Ok(())
    }

    /// In a `before_attack` trigger: change the attack about to roll — `Roll::Attack` adds or
    /// takes dice, `Roll::Defence` the target's Defence.
    ///
    /// # Errors
    /// A change of 0 or beyond ±[`MAX_CHANGE`].
    pub fn modify_attack(&mut self, on: Roll, change: i32) -> Result<(), BehaviourError> {
        self.room()?;
        if change == 0 || change.abs() > MAX_CHANGE {
            return err(format!(
                "attack modifier: expected -{MAX_CHANGE} to {MAX_CHANGE}, not 0; found {change}"
            ));
        }
        let source = Some(Id::from(self.behaviour()));
        // The roll will name its source: a face-down card that changes it is turned up first
        // (docs/RULES.md §15.6).
        self.engine().acting();
        self.engine().attack_mods.push(Modifier {
            on,
            cause: Cause::Trigger,
            change,
            source,
        });
        Ok(())
    }

    fn free_square(&self, at: Pos) -> Result<(), BehaviourError> {
        let st = self.state();
        if !st.map.in_bounds(at) {
            return err(format!("{at} is off the map"));
        }
        if st.map.is_solid(at) {
            return err(format!("{at} is solid"));
        }
        if st.cached_obstacles().contains(at) {
            return err(format!("{at} holds a model or a Blip already"));
        }
        Ok(())
    }

    /// A new face-down Blip on the free square `at`, holding `contents` (a Decoy or a unit of
    /// a loaded Alien Type); the event names only its square.
    ///
    /// # Errors
    /// The square is not free, or the type is not loaded.
    pub fn spawn_blip(&mut self, at: Pos, contents: Contents) -> Result<Id, BehaviourError> {
        self.room()?;
        self.unit_room()?;
        self.free_square(at)?;
        if let Contents::Unit { type_id, size, .. } = &contents {
            match self.engine().content.aliens.get(type_id.as_str()) {
                None => return err(format!("no loaded alien type {type_id}")),
                Some(t) if *size == 0 || *size > t.unit.max => {
                    return err(format!(
                        "size {size} is outside 1..={} for {type_id}",
                        t.unit.max
                    ))
                }
                Some(_) => {}
            }
        }
        let eng = self.engine();
        let mut n = eng.st.blips.len() + 1;
        let id = loop {
            let id = format!("e{n}");
            if eng.st.blip(&id).is_none() && eng.st.unit(&id).is_none() {
                break Id::from(id);
            }
            n += 1;
        };
        eng.st.blips.push(Blip {
            id,
            pos: at,
            contents: Some(contents),
            activated: false,
            used: Vec::new(),
        });
        eng.st.moved();
        self.effect(Change::SpawnBlip { blip: id, at });
        self.engine().check_reveals();
        Ok(id)
    }

    /// A new Alien Unit of `alien`, its first model on the free square `at` and `models - 1`
    /// more placed next to it by the Overmind.
    ///
    /// # Errors
    /// The square is not free, the type is not loaded, or the count is out of the type's range.
    pub fn spawn_unit(&mut self, alien: &str, at: Pos, models: u32) -> Result<Id, BehaviourError> {
        self.room()?;
        self.unit_room()?;
        let action = crate::data::action::Action::Spawn {
            alien: Id::from(alien),
            at,
            models,
        };
        let eng = self.engine();
        // The author tool's checks, without its `--dev` switch.
        let was = eng.st.dev();
        eng.st.set_dev(true);
        let ok = crate::rules::dev::check(eng.st, eng.content, &action);
        eng.st.set_dev(was);
        if let Some(Err(e)) = ok {
            return err(e.message);
        }
        let source = Id::from(self.behaviour());
        let eng = self.engine();
        let unit = eng.spawn_from(Id::from(alien), at, models, source);
        eng.check_victory();
        Ok(unit)
    }

    /// Put a token of kind `kind` on `at` (any square on the map that is not solid).
    ///
    /// # Errors
    /// An unknown kind or a square off the map or solid.
    pub fn place_token(&mut self, kind: &str, at: Pos) -> Result<Id, BehaviourError> {
        self.room()?;
        let st = self.state();
        if !st.map.in_bounds(at) || st.map.is_solid(at) {
            return err(format!(
                "{at} is off the map or solid: no token can lie there"
            ));
        }
        if !self.engine().content.tokens.contains_key(kind) {
            return err(format!("no loaded token kind {kind}"));
        }
        let most = self.state().rules.max_tokens as usize;
        if self.state().tokens.len() >= most {
            return err(format!(
                "a game may hold at most {most} tokens (`max_tokens` in rules.toml)"
            ));
        }
        let eng = self.engine();
        // The first free `tN` from the count up, found in one pass over the tokens.
        let taken: std::collections::HashSet<&str> =
            eng.st.tokens.iter().map(|t| t.id.as_str()).collect();
        let id = (eng.st.tokens.len() + 1..)
            .map(|n| format!("t{n}"))
            .find(|id| !taken.contains(id.as_str()))
            .map(Id::from)
            .unwrap_or_default();
        let symbol = eng.content.tokens.get(kind).map_or('%', |k| k.symbol);
        eng.st.tokens.push(Token {
            id,
            kind: Id::from(kind),
            pos: at,
            carried_by: None,
            symbol,
        });
        self.effect(Change::PlaceToken {
            token: id,
            kind: Id::from(kind),
            at,
        });
        Ok(id)
    }

    /// Take token `token` off the map (or out of a model's hands).
    ///
    /// # Errors
    /// No such token.
    pub fn remove_token(&mut self, token: &str) -> Result<(), BehaviourError> {
        self.room()?;
        let eng = self.engine();
        let Some(i) = eng.st.tokens.iter().position(|t| t.id == token) else {
            return err(format!("no token {token}"));
        };
        let t = eng.st.tokens.remove(i);
        self.effect(Change::RemoveToken {
            token: t.id,
            at: t.pos,
        });
        Ok(())
    }

    /// `model` picks up `token`, which lies on its square or next to it; it travels with it.
    ///
    /// # Errors
    /// No such model or token, or the token is carried or too far.
    pub fn take_token(&mut self, model: &str, token: &str) -> Result<(), BehaviourError> {
        self.room()?;
        let (_, _, at) = self.living(model)?;
        let Some(t) = self.state().token(token).cloned() else {
            return err(format!("no token {token}"));
        };
        if t.carried_by.as_deref() == Some(model) {
            // Picking up what it already carries changes nothing.
            return Ok(());
        }
        if t.carried_by.is_some() {
            return err(format!("token {token} is carried already"));
        }
        if t.pos.distance(at) > 1 {
            return err(format!(
                "token {token} at {} is not next to {model} at {at}",
                t.pos
            ));
        }
        if let Some(t) = self.engine().st.tokens.iter_mut().find(|t| t.id == token) {
            t.carried_by = Some(Id::from(model));
            t.pos = at;
        }
        self.effect(Change::TakeToken {
            token: Id::from(token),
            model: Id::from(model),
        });
        Ok(())
    }

    /// Give `unit` back `change` actions this activation (positive) or take them (negative).
    ///
    /// # Errors
    /// No such unit, or a change other than -2 to 2 (not 0).
    pub fn change_actions(&mut self, unit: &str, change: i32) -> Result<(), BehaviourError> {
        self.room()?;
        if change == 0 || change.abs() > 2 {
            return err(format!("actions: expected -2 to 2, not 0; found {change}"));
        }
        let eng = self.engine();
        let per_activation = crate::rules::stats::actions_per_activation(eng.st);
        let Some(u) = eng.st.unit_mut(unit) else {
            return err(format!("no unit {unit}"));
        };
        if change > 0 {
            for _ in 0..change {
                u.used.pop();
            }
        } else {
            for _ in 0..change.unsigned_abs() {
                if u.used.len() < per_activation {
                    u.used.push(crate::data::state::ActionKind::Interact);
                }
            }
        }
        self.effect(Change::Actions {
            unit: Id::from(unit),
            change,
        });
        Ok(())
    }

    /// In a `victory_check` trigger: `winner` wins now, for `reason`.
    pub fn declare_winner(&mut self, winner: Side, reason: &str) {
        if self.state().is_over() {
            return;
        }
        let reason: String = reason.chars().take(200).collect();
        self.effect(Change::Win {
            winner,
            reason: reason.clone(),
        });
        self.engine().finish(winner, reason);
    }
}

impl Engine<'_> {
    /// One point of damage to `target` of `unit`, counted in `hurt`; kills at 0.
    pub(crate) fn damage_one(
        &mut self,
        unit: &str,
        target: Id,
        by: Option<&str>,
        hurt: &mut Vec<(Id, u32)>,
    ) {
        let Some(m) = self.st.model_mut(&target) else {
            return;
        };
        m.health = m.health.saturating_sub(1);
        let health = m.health;
        self.emit(Event::Damage {
            model: target,
            amount: 1,
            health,
        });
        match hurt.iter_mut().find(|(m, _)| *m == target) {
            Some((_, n)) => *n += 1,
            None => hurt.push((target, 1)),
        }
        if health == 0 {
            self.kill(unit, &target, by);
        }
    }

    /// `after_damage` triggers for each model hurt.
    pub(crate) fn after_damage(&mut self, unit: &str, hurt: Vec<(Id, u32)>, by: Option<&str>) {
        if !self.listens(crate::data::hook::Hook::AfterDamage) {
            return;
        }
        for (model, n) in hurt {
            let at = self.st.find_model(&model).map(|(_, m)| m.pos);
            let moment = crate::rules::trigger::Moment {
                unit: Some(Id::from(unit)),
                model: Some(model),
                at,
                amount: Some(n),
                by: by.map(Id::from),
                round: self.st.round,
                ..Default::default()
            };
            self.fire(crate::data::hook::Hook::AfterDamage, &moment);
        }
    }

    /// Put down what `model` carried, on `at`.
    pub(crate) fn drop_carried(&mut self, model: &str, at: Pos, source: Option<Id>) {
        let dropped: Vec<Id> = self
            .st
            .tokens
            .iter_mut()
            .filter(|t| t.carried_by.as_deref() == Some(model))
            .map(|t| {
                t.carried_by = None;
                t.pos = at;
                t.id
            })
            .collect();
        for token in dropped {
            self.emit(Event::Effect {
                source: source.unwrap_or_else(|| Id::from("rules")),
                change: Change::DropToken { token, at },
            });
        }
    }

    /// Carried tokens follow their carriers.
    pub(crate) fn carry_tokens(&mut self) {
        let st = &mut *self.st;
        for t in &mut st.tokens {
            if let Some(m) = t.carried_by {
                if let Some(pos) = st
                    .units
                    .iter()
                    .flat_map(|u| u.models.iter())
                    .find(|x| x.id == m)
                    .map(|x| x.pos)
                {
                    t.pos = pos;
                }
            }
        }
    }

    /// End the modifiers that last `until` (for `unit`'s models, or every model at a round's
    /// end).
    pub(crate) fn end_modifiers(&mut self, until: Until, unit: Option<&str>) {
        if self.st.stat_mods.is_empty() {
            return;
        }
        let models: Vec<Id> = match unit {
            Some(u) => self
                .st
                .unit(u)
                .map(|u| u.models.iter().map(|m| m.id).collect())
                .unwrap_or_default(),
            None => Vec::new(),
        };
        let (ended, kept): (Vec<StatMod>, Vec<StatMod>) = std::mem::take(&mut self.st.stat_mods)
            .into_iter()
            .partition(|m| m.until == until && (unit.is_none() || models.contains(&m.model)));
        self.st.stat_mods = kept;
        for m in ended {
            self.emit(Event::Effect {
                source: m.source,
                change: Change::ModifierEnded {
                    model: m.model,
                    stat: m.stat,
                    change: m.change,
                },
            });
        }
    }
}

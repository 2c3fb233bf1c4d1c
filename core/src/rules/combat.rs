//! Attacks: Melee, Shoot, Overwatch, Free Attacks and Fear, with their effects
//! (docs/RULES.md §6, §4.3).

use crate::data::action::{refuse, Refusal, RefusalKind};
use crate::data::dice::{damage, roll_attack, roll_defence};
use crate::data::event::{
    AttackKind, Cause, Contribution, Event, Modifier, RangeBand, RevealCause, Roll,
};
use crate::data::geom::{Dir, Pos};
use crate::data::id::Id;
use crate::data::map::Terrain;
use crate::data::profile::Effect;
use crate::data::state::Side;
use crate::rules::decision::{Choice, DecisionKind};
use crate::rules::engine::Engine;
use crate::rules::validate;

/// A Psychic attack's numbers (docs/RULES.md §6.8): the ability's Combat Value, and whether
/// the target may roll its Defence (by default it may not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Psychic {
    pub cv: u32,
    pub defends: bool,
}

/// What an attack is aimed at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    Model(Id),
    Blip(Id),
}

impl Engine<'_> {
    /// Models of `unit` that could make a Melee attack on the square `at`.
    pub fn fighters(&mut self, unit: &str, at: Pos, target_unit: Option<&str>) -> Vec<Id> {
        self.st.obstacles();
        let o = self.st.cached_obstacles();
        match self.st.unit(unit) {
            Some(u) => validate::fighters(self.st, &o, u, at, target_unit),
            None => Vec::new(),
        }
    }

    /// Models of `unit` that could make a Shoot attack on the square `at`.
    pub fn shooters(&mut self, unit: &str, at: Pos) -> Vec<Id> {
        self.st.obstacles();
        let o = self.st.cached_obstacles();
        match self.st.unit(unit) {
            Some(u) => validate::shooters(self.st, self.content, &o, u, at),
            None => Vec::new(),
        }
    }

    /// Check an attack could be made now, without changing anything.
    pub fn check_attack(
        &mut self,
        unit: &str,
        target: &Target,
        kind: AttackKind,
    ) -> Result<(), Refusal> {
        self.st.obstacles();
        let o = self.st.cached_obstacles();
        let Some(u) = self.st.unit(unit) else {
            return refuse(RefusalKind::Unknown, format!("no unit {unit}"));
        };
        let t = match target {
            Target::Model(id) | Target::Blip(id) => id,
        };
        validate::check_attack(self.st, self.content, &o, u, t, kind)
    }

    /// Resolve an attack of `unit` on `target`. A Blip target is revealed first and the damage
    /// goes to the revealed unit (docs/RULES.md §7.6); the behaviour, if triggered, follows the
    /// damage.
    pub fn attack(
        &mut self,
        unit: &str,
        target: Target,
        kind: AttackKind,
        penalty: Vec<Modifier>,
    ) -> Result<(), Refusal> {
        self.attack_as(unit, target, kind, penalty, None)
    }

    /// [`Self::attack`], with the Combat Value and defence of a Psychic attack when `kind` is
    /// [`AttackKind::Psychic`] (docs/RULES.md §6.8).
    pub(crate) fn attack_as(
        &mut self,
        unit: &str,
        target: Target,
        kind: AttackKind,
        penalty: Vec<Modifier>,
        psychic: Option<Psychic>,
    ) -> Result<(), Refusal> {
        self.check_attack(unit, &target, kind)?;
        let attacker_side = self.side_of(unit).unwrap_or(Side::Heroes);
        // What an attack uncovers (a removed model no longer blocking sight) is the attacker's
        // doing, even when it fires during the other side's move (Overwatch, Free Attacks).
        let saved_actor = std::mem::replace(&mut self.actor, attacker_side);
        let r = self.attack_inner(unit, target, kind, penalty, attacker_side, psychic);
        self.actor = saved_actor;
        r
    }

    fn attack_inner(
        &mut self,
        unit: &str,
        target: Target,
        kind: AttackKind,
        penalty: Vec<Modifier>,
        attacker_side: Side,
        psychic: Option<Psychic>,
    ) -> Result<(), Refusal> {
        let mut pending_behaviour = None;
        // The models that could make the attack on the Blip: placing the revealed unit's
        // models may block their lines, but the damage lands on the revealed unit anyway
        // (seed; docs/RULES.md §7.6).
        let mut attackers = None;
        let target_model = match target {
            Target::Model(id) => id,
            Target::Blip(id) => {
                if let Some(at) = self.st.blip(&id).map(|b| b.pos) {
                    attackers = Some(self.attackers(unit, at, None, kind));
                }
                match self.reveal(&id, RevealCause::Damage, attacker_side) {
                    // A Decoy: nothing left to damage.
                    None => {
                        self.check_reveals();
                        self.check_victory();
                        return Ok(());
                    }
                    Some((u, triggers)) => {
                        if triggers {
                            pending_behaviour = Some(u);
                        }
                        match self.st.unit(&u).and_then(|u| u.models.first()) {
                            Some(m) => m.id,
                            None => return Ok(()),
                        }
                    }
                }
            }
        };
        self.resolve_attack(unit, &target_model, kind, penalty, attackers, psychic);
        self.check_reveals();
        self.check_victory();
        if let Some(u) = pending_behaviour {
            if !self.st.is_over() && self.st.unit(&u).is_some_and(|u| u.alive()) {
                self.perform_behaviour(&u);
            }
        }
        Ok(())
    }

    /// The models of `unit` that could make an attack of `kind` on the square `at`.
    fn attackers(
        &mut self,
        unit: &str,
        at: Pos,
        target_unit: Option<&str>,
        kind: AttackKind,
    ) -> Vec<Id> {
        match kind {
            AttackKind::Shoot | AttackKind::Overwatch => self.shooters(unit, at),
            AttackKind::Fear | AttackKind::Psychic => self
                .st
                .unit(unit)
                .map(|u| u.models.iter().map(|m| m.id).collect())
                .unwrap_or_default(),
            _ => self.fighters(unit, at, target_unit),
        }
    }

    /// Roll and apply one attack on a model. `attackers` fixes the attacking models (an attack
    /// on a Blip, whose lines were checked before the reveal); `None` finds them now.
    fn resolve_attack(
        &mut self,
        unit: &str,
        target_model: &str,
        kind: AttackKind,
        mut modifiers: Vec<Modifier>,
        attackers: Option<Vec<Id>>,
        psychic: Option<Psychic>,
    ) {
        let Some((tu, tm)) = self.st.find_model(target_model) else {
            return;
        };
        let (target_unit, target_side, at, target_status) =
            (tu.id, tu.side, tm.pos, tm.status.clone());
        let target_stats = self.stats(target_side, tm);
        let Some(attacker_side) = self.side_of(unit) else {
            return;
        };
        let models = match attackers {
            Some(m) => m,
            None => self.attackers(unit, at, Some(&target_unit), kind),
        };
        if models.is_empty() {
            return;
        }
        let (cv, effects, from, parts) = self.contributions(&models, kind, at, psychic);
        let rules = std::sync::Arc::clone(&self.st.rules);
        if matches!(kind, AttackKind::Shoot | AttackKind::Overwatch) {
            if let Some(b) = self.st.map.intact_building(at) {
                if from.iter().all(|&p| self.st.map.building(p) != Some(b))
                    && rules.building_penalty > 0
                {
                    modifiers.push(Modifier::fewer(
                        Cause::Building,
                        rules.building_penalty,
                        None,
                    ));
                }
            }
        }
        if self.listens(crate::data::hook::Hook::BeforeAttack) {
            let moment = crate::rules::trigger::Moment {
                unit: Some(Id::from(unit)),
                model: models.first().copied(),
                at: Some(at),
                attack: Some(kind),
                target: Some(Id::from(target_model)),
                round: self.st.round,
                ..Default::default()
            };
            self.attack_mods.clear();
            self.fire(crate::data::hook::Hook::BeforeAttack, &moment);
            modifiers.extend(self.take_attack_modifiers());
            if self.st.find_model(target_model).is_none() || self.st.is_over() {
                return;
            }
        }
        modifiers.retain(|m| m.change != 0);
        if cv == 0 {
            return;
        }
        let penalty: u32 = modifiers
            .iter()
            .filter(|m| m.on == Roll::Attack)
            .map(|m| m.change.min(0).unsigned_abs())
            .sum();
        let bonus: u32 = modifiers
            .iter()
            .filter(|m| m.on == Roll::Attack)
            .map(|m| m.change.max(0).unsigned_abs())
            .sum();
        let dice_cv = (cv + bonus).saturating_sub(penalty).max(1);
        // Defence: red square, green side, stun against melee.
        let mut def = target_stats.defence as i32;
        // `before_attack` triggers' Defence changes are in `modifiers` already.
        def += modifiers
            .iter()
            .filter(|m| m.on == Roll::Defence && m.cause == Cause::Trigger)
            .map(|m| m.change)
            .sum::<i32>();
        let mut defence = |cause: Cause, change: i32, def: &mut i32| {
            if change != 0 {
                *def += change;
                modifiers.push(Modifier {
                    on: Roll::Defence,
                    cause,
                    change,
                    source: None,
                });
            }
        };
        // A Psychic attack: no defence dice, unless the ability lets the target defend.
        let no_defence = kind == AttackKind::Psychic && !psychic.is_some_and(|p| p.defends);
        if no_defence && def > 0 {
            defence(Cause::Psychic, -def, &mut def);
        }
        if def > 0 {
            if self.st.map.terrain(at) == Terrain::Red {
                defence(Cause::RedSquare, rules.red_defence, &mut def);
            }
            if self.covered_by_green(at, &from) {
                defence(Cause::GreenSide, rules.green_defence, &mut def);
            }
            if def < 1 {
                defence(Cause::Floor, 1 - def, &mut def);
            }
        }
        let melee_like = matches!(kind, AttackKind::Melee | AttackKind::FreeAttack);
        if target_status.stunned && melee_like && def > 0 {
            defence(Cause::Stunned, -def, &mut def);
        }
        let a = roll_attack(dice_cv, rules.max_dice, &rules.die, &mut self.st.rng);
        let d = roll_defence(
            def.max(0) as u32,
            rules.max_dice,
            &rules.die,
            &mut self.st.rng,
        );
        let dmg = damage(&a, &d);
        self.emit(Event::Attack {
            attacker: Id::from(unit),
            target: Id::from(target_model),
            kind,
            cv,
            dice: a.dice,
            penalty,
            faces: a.faces.clone(),
            upgraded: a.upgraded,
            defence_dice: d.dice,
            defence_faces: d.faces.clone(),
            hits: a.hits(),
            crits: a.crits(),
            shields: d.shields(),
            damage: dmg,
            from: parts,
            modifiers,
        });
        if kind == AttackKind::Fear {
            if dmg > 0 {
                self.shaken(target_model, unit);
            }
            return;
        }
        if dmg == 0 {
            return;
        }
        self.apply_damage(&target_unit, target_model, dmg, Some(unit));
        if attacker_side != target_side {
            let attacker_at = from.first().copied().unwrap_or(at);
            self.apply_effects(&target_unit, target_model, effects, unit, attacker_at);
        }
    }

    /// What `models` bring to an attack of `kind` on the square `at`: the Combat Value, the
    /// effects their profiles add (none for Fear and Psychic), where they stand, and each
    /// one's part.
    pub(crate) fn contributions(
        &self,
        models: &[Id],
        kind: AttackKind,
        at: Pos,
        psychic: Option<Psychic>,
    ) -> (u32, Vec<Effect>, Vec<Pos>, Vec<Contribution>) {
        let mut cv = 0u32;
        let mut effects: Vec<Effect> = Vec::new();
        let mut from: Vec<Pos> = Vec::new();
        let mut parts: Vec<Contribution> = Vec::new();
        for id in models {
            let Some((u, m)) = self.st.find_model(id) else {
                continue;
            };
            let s = self.stats(u.side, m);
            from.push(m.pos);
            match kind {
                AttackKind::Shoot | AttackKind::Overwatch => {
                    let d = validate::reach(self.st, m, at);
                    let (part, band) = match s.shoot {
                        Some(sh) if d <= sh.short.range => (sh.short.cv, Some(RangeBand::Short)),
                        Some(sh) if d <= sh.long.range => (sh.long.cv, Some(RangeBand::Long)),
                        _ => (0, None),
                    };
                    cv += part;
                    parts.push(Contribution {
                        model: m.id,
                        cv: part,
                        band,
                        distance: Some(d),
                    });
                    effects.extend(s.shoot_effects.iter().copied());
                }
                // A Psychic attack's Combat Value is the ability's, once for the unit.
                AttackKind::Psychic => {
                    let part = if parts.is_empty() {
                        psychic.map_or(0, |p| p.cv)
                    } else {
                        0
                    };
                    cv += part;
                    parts.push(Contribution {
                        model: m.id,
                        cv: part,
                        band: None,
                        distance: None,
                    });
                }
                AttackKind::Fear => {
                    cv = cv.max(s.fear);
                    parts.push(Contribution {
                        model: m.id,
                        cv: s.fear,
                        band: None,
                        distance: None,
                    });
                }
                _ => {
                    cv += s.melee;
                    parts.push(Contribution {
                        model: m.id,
                        cv: s.melee,
                        band: None,
                        distance: None,
                    });
                    effects.extend(s.melee_effects.iter().copied());
                }
            }
        }
        if matches!(kind, AttackKind::Fear | AttackKind::Psychic) {
            effects.clear();
        }
        effects.sort();
        effects.dedup();
        (cv, effects, from, parts)
    }

    /// +1 Defence when every attacker lies wholly beyond one green side of the target's square.
    fn covered_by_green(&self, at: Pos, from: &[Pos]) -> bool {
        let map = &self.st.map;
        Dir::ORTHOGONAL.iter().any(|&d| {
            map.is_green_side(at, d)
                && !from.is_empty()
                && from.iter().all(|p| match d {
                    Dir::N => p.y < at.y,
                    Dir::S => p.y > at.y,
                    Dir::W => p.x < at.x,
                    Dir::E => p.x > at.x,
                    _ => false,
                })
        })
    }

    /// Take `amount` Health from a unit, the Overmind allocating hits across an Alien Unit's
    /// models, a wounded model first.
    pub fn apply_damage(&mut self, unit: &str, first: &str, amount: u32, by: Option<&str>) {
        let mut target = Id::from(first);
        let mut hurt: Vec<(Id, u32)> = Vec::new();
        self.damage_loop(unit, &mut target, amount, by, &mut hurt);
        self.after_damage(unit, hurt, by);
    }

    fn damage_loop(
        &mut self,
        unit: &str,
        target: &mut Id,
        amount: u32,
        by: Option<&str>,
        hurt: &mut Vec<(Id, u32)>,
    ) {
        for _ in 0..amount {
            let Some(u) = self.st.unit(unit) else {
                return;
            };
            if u.models.is_empty() {
                return;
            }
            if u.models.len() > 1 && u.side == Side::Overmind {
                let wounded: Vec<Id> = u
                    .models
                    .iter()
                    .filter(|m| m.health < m.max_health)
                    .map(|m| m.id)
                    .collect();
                let options: Vec<Id> = if wounded.is_empty() {
                    u.models.iter().map(|m| m.id).collect()
                } else {
                    wounded
                };
                let i = self.ask(
                    Side::Overmind,
                    DecisionKind::HitAllocation,
                    format!("Which model of {unit} takes the next hit?"),
                    options.iter().map(|s| Choice::Id(Id::from(s))).collect(),
                );
                *target = options.get(i).cloned().unwrap_or_else(|| options[0]);
            } else if let Some(m) = u.models.first() {
                *target = m.id;
            }
            if self.st.find_model(target).is_none() {
                return;
            }
            self.damage_one(unit, *target, by, hurt);
        }
    }

    pub(crate) fn kill(&mut self, unit: &str, model: &str, by: Option<&str>) {
        let dead = self.st.find_model(model).map(|(_, m)| (m.kind, m.pos));
        if let Some(u) = self.st.unit_mut(unit) {
            u.models.retain(|m| m.id != model);
        }
        self.st.moved();
        self.emit(Event::ModelKilled {
            model: Id::from(model),
            unit: Id::from(unit),
            by: by.map(str::to_string).map(Id::from),
        });
        if let Some(killer) = by.and_then(|b| self.st.unit_mut(b)) {
            if killer.side == Side::Heroes {
                killer.xp += 1;
            }
        }
        let Some((kind, at)) = dead else {
            return;
        };
        // What it carried stays where it fell; its modifiers end with it.
        self.st.stat_mods.retain(|m| m.model != model);
        self.drop_carried(model, at, None);
        self.dead_kinds.push((Id::from(model), kind));
        if self.listens(crate::data::hook::Hook::Killed) {
            let moment = crate::rules::trigger::Moment {
                unit: Some(Id::from(unit)),
                model: Some(Id::from(model)),
                at: Some(at),
                by: by.map(Id::from),
                round: self.st.round,
                ..Default::default()
            };
            self.fire(crate::data::hook::Hook::Killed, &moment);
        }
    }
}

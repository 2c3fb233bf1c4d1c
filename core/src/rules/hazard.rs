//! Hazards you can shoot (docs/RULES.md §14.1): a Melee or Shoot action may target a Hazard
//! token lying on the map; two or more damage in one attack, or one critical hit, destroys it
//! and draws a Hazard card whose effect applies (§15.8).

use crate::board::movement::adjacent;
use crate::data::action::{refuse, Refusal, RefusalKind};
use crate::data::card::Deck;
use crate::data::dice::roll_attack;
use crate::data::event::{AttackKind, Event};
use crate::data::id::Id;
use crate::data::map::Obstacles;
use crate::data::state::{GameState, Unit};
use crate::data::token::{Token, TokenClass};
use crate::rules::content::Content;
use crate::rules::engine::Engine;
use crate::rules::stats::Stats;
use crate::rules::validate::{fighters, shooters};

/// The Hazard token lying on the map (not carried) that `target` names, if any.
#[must_use]
pub fn hazard_token<'s>(st: &'s GameState, content: &Content, target: &str) -> Option<&'s Token> {
    st.tokens.iter().find(|t| {
        t.id == target
            && t.carried_by.is_none()
            && content
                .tokens
                .get(t.kind.as_str())
                .is_some_and(|k| k.class == TokenClass::Hazard)
    })
}

/// The models of `unit` that could make a Melee (adjacent, in LOS) or Shoot (not adjacent, in
/// range and LOS) attack of `kind` on the Hazard token `token`, or why none can.
pub(crate) fn check_hazard_attack(
    st: &GameState,
    content: &Content,
    o: &Obstacles,
    unit: &Unit,
    token: &Token,
    kind: AttackKind,
) -> Result<Vec<Id>, Refusal> {
    let at = token.pos;
    if unit
        .models
        .iter()
        .all(|m| m.status.knocked_down || m.status.stunned)
    {
        return refuse(
            RefusalKind::Status,
            format!("{} must stand up or recover before it attacks", unit.id),
        );
    }
    let models = if kind == AttackKind::Melee {
        fighters(st, o, unit, at, None)
    } else {
        shooters(st, content, o, unit, at)
    };
    if !models.is_empty() {
        return Ok(models);
    }
    let mut reasons = Vec::new();
    for m in &unit.models {
        let d = m.pos.distance(at);
        let why = if m.status.stunned {
            "is Stunned".to_string()
        } else if m.status.knocked_down {
            "is Knocked Down".to_string()
        } else if kind == AttackKind::Melee && !adjacent(&st.map, m.pos, at) {
            format!("is {d} squares from it, not adjacent")
        } else if kind == AttackKind::Shoot {
            match Stats::shoot_of(st, content, unit.side, m) {
                None => "has no Shoot attack".to_string(),
                Some(_) if d <= 1 && (m.pos == at || adjacent(&st.map, m.pos, at)) => {
                    "is next to it (Melee it instead)".to_string()
                }
                Some(s) if d > s.max_range() => {
                    format!("is {d} squares from it, beyond its range {}", s.max_range())
                }
                Some(_) => "has no Line of Sight to it".to_string(),
            }
        } else {
            "has no Line of Sight to it".to_string()
        };
        reasons.push(format!("{} {why}", m.id));
    }
    refuse(
        RefusalKind::Target,
        format!(
            "{} cannot attack the hazard {} at {at}: {}",
            unit.id,
            token.id,
            reasons.join("; ")
        ),
    )
}

impl Engine<'_> {
    /// Resolve a checked attack of `unit`'s `models` on the Hazard token `token`: the dice
    /// of their Combat Value, no defence; two or more damage, or a critical hit, destroys it
    /// and draws a Hazard card for `unit` on its square.
    pub(crate) fn attack_hazard(
        &mut self,
        unit: &str,
        token: &str,
        kind: AttackKind,
        models: &[Id],
    ) {
        let Some(at) = self
            .st
            .tokens
            .iter()
            .find(|t| t.id == token && t.carried_by.is_none())
            .map(|t| t.pos)
        else {
            return;
        };
        let (cv, _, _, parts) = self.contributions(models, kind, at, None);
        if cv == 0 {
            return;
        }
        let rules = std::sync::Arc::clone(&self.st.rules);
        let a = roll_attack(cv, rules.max_dice, &rules.die, &mut self.st.rng);
        let (hits, crits) = (a.hits(), a.crits());
        let damage = hits + crits;
        let destroyed = damage >= 2 || crits >= 1;
        self.emit(Event::HazardAttack {
            attacker: Id::from(unit),
            token: Id::from(token),
            kind,
            at,
            cv,
            dice: a.dice,
            faces: a.faces.clone(),
            upgraded: a.upgraded,
            hits,
            crits,
            damage,
            destroyed,
            from: parts,
        });
        if !destroyed {
            return;
        }
        self.st.tokens.retain(|t| t.id != token);
        let side = self
            .side_of(unit)
            .unwrap_or(crate::data::state::Side::Heroes);
        let saved_actor = std::mem::replace(&mut self.actor, side);
        self.turn_card(Deck::Hazard, Some(Id::from(unit)), Some(at));
        self.actor = saved_actor;
    }
}

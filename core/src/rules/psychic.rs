//! Psychic attacks (docs/RULES.md §6.8): an ability's attack that needs no Line of Sight and
//! against which the target rolls no Defence, unless the ability lets it.

use crate::data::event::{AttackKind, Cause, Modifier};
use crate::data::state::Side;
use crate::rules::behaviour::{BehaviourCtx, BehaviourError};
use crate::rules::combat::{Psychic, Target};

/// Most dice a Psychic attack's Combat Value may ask for (more than `max_dice` turn blanks into
/// hits, as any attack's do, docs/RULES.md §6.1).
pub const MAX_PSYCHIC_CV: u32 = 20;

fn err<T>(msg: impl Into<String>) -> Result<T, BehaviourError> {
    Err(BehaviourError::new(msg))
}

impl BehaviourCtx<'_, '_> {
    /// A Psychic attack by `unit` on `target` (a model, a unit's first model, or a face-down
    /// Blip, which it reveals and whose unit takes the damage, docs/RULES.md §7.6) with Combat
    /// Value `cv`. No Line of Sight or range is needed; the target rolls its Defence only when
    /// `defends`. Made inside an Alien Behaviour it rolls the behaviour's penalty (§8.2).
    ///
    /// # Errors
    /// A `cv` out of 1 to [`MAX_PSYCHIC_CV`], no such unit on the map, no such target, a target
    /// of the unit's own side, or the call's last effect spent.
    pub fn psychic_attack(
        &mut self,
        unit: &str,
        target: &str,
        cv: u32,
        defends: bool,
    ) -> Result<(), BehaviourError> {
        self.room()?;
        if !(1..=MAX_PSYCHIC_CV).contains(&cv) {
            return err(format!("cv: expected 1 to {MAX_PSYCHIC_CV}, found {cv}"));
        }
        let Some(side) = self
            .state()
            .unit(unit)
            .filter(|u| u.alive())
            .map(|u| u.side)
        else {
            return err(format!("no unit {unit} on the map"));
        };
        let t = if self.state().blip(target).is_some() {
            if side == Side::Overmind {
                return err("the Overmind cannot attack its own Blips");
            }
            Target::Blip(target.into())
        } else {
            match self.engine().resolve_model(target) {
                Some((tu, m)) if self.engine().side_of(&tu) == Some(side) => {
                    return err(format!("{m} is on {unit}'s own side"));
                }
                Some((_, m)) => Target::Model(m),
                None => return err(format!("no model, unit or Blip {target} on the map")),
            }
        };
        let source = crate::data::id::Id::from(self.behaviour());
        let mut penalty = Vec::new();
        if self
            .engine()
            .content
            .behaviours
            .contains_key(source.as_str())
        {
            penalty.push(Modifier::fewer(
                Cause::Behaviour,
                self.rules().behaviour_penalty,
                Some(source),
            ));
        }
        self.engine()
            .attack_as(
                unit,
                t,
                AttackKind::Psychic,
                penalty,
                Some(Psychic { cv, defends }),
            )
            .map_err(|e| BehaviourError::new(e.message))
    }
}

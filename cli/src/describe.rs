//! Events as sentences for the terminal log: rolls with their faces, hits and shields, reveals
//! with their cause, and why a behaviour did or did not follow.

use overmind_core::dice::Face;
use overmind_core::event::StatusChange;
use overmind_core::{AttackKind, Event, RevealCause, Side};

/// Words for a side.
#[must_use]
pub fn side_name(s: Side) -> &'static str {
    match s {
        Side::Heroes => "the Heroes",
        Side::Overmind => "the Overmind",
    }
}

fn face(f: Face) -> &'static str {
    match f {
        Face::Blank => "blank",
        Face::Hit => "HIT",
        Face::DoubleHit => "DOUBLE-HIT",
        Face::Critical => "CRITICAL",
        Face::Shield => "SHIELD",
        Face::DoubleShield => "DOUBLE-SHIELD",
    }
}

fn faces(fs: &[Face]) -> String {
    if fs.is_empty() {
        return "-".to_string();
    }
    fs.iter().map(|&f| face(f)).collect::<Vec<_>>().join(" ")
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn cause(c: RevealCause) -> &'static str {
    match c {
        RevealCause::Hero => "it came into a Hero's sight",
        RevealCause::Overmind => "the Overmind flipped it or moved it into sight",
        RevealCause::Damage => "something was about to damage it",
        RevealCause::Stat => "a script needed one of its stats",
    }
}

fn attack_verb(k: AttackKind) -> &'static str {
    match k {
        AttackKind::Melee => "attacks in melee",
        AttackKind::Shoot => "shoots",
        AttackKind::Overwatch => "fires on Overwatch at",
        AttackKind::FreeAttack => "makes a Free Attack on",
        AttackKind::Fear => "makes a Fear Attack on",
    }
}

/// One event as a line of text, or `None` for bookkeeping not worth a line.
#[must_use]
pub fn event(e: &Event) -> Option<String> {
    Some(match e {
        Event::GameStarted { mission, .. } => format!("Mission: {mission}"),
        Event::RoundStarted { round } => format!("=== Round {round} ==="),
        Event::PhaseStarted { side } => format!("--- {} phase ---", title(*side)),
        Event::ActivationStarted { unit } => format!("{unit} activates"),
        Event::ActionTaken { .. } => return None,
        Event::ActivationEnded { unit } => format!("{unit} is done"),
        Event::Moved { unit, path, forced } => {
            let (from, to) = (path.first()?, path.last()?);
            let steps = path.len().saturating_sub(1) as u32;
            let how = if *forced {
                "is forced from"
            } else {
                "moves from"
            };
            format!(
                "{unit} {how} {from} to {to} ({})",
                plural(steps, "step", "steps")
            )
        }
        Event::MoveStopped { unit, at, reason } => format!("{unit} stops at {at}: {reason}"),
        Event::BlipRevealed {
            blip,
            at,
            cause: c,
            by,
            triggers_behaviour,
            why,
            type_id,
            decoy,
        } => {
            let what = match (decoy, type_id) {
                (Some(true), _) => "a Decoy".to_string(),
                (_, Some(t)) => format!("a unit of {t}"),
                _ => "something".to_string(),
            };
            let follow = if *triggers_behaviour {
                format!("an Alien Behaviour follows ({why})")
            } else {
                format!("no Alien Behaviour ({why})")
            };
            format!(
                "Blip {blip} at {at} is revealed because {} ({}'s doing): {what}; {follow}",
                cause(*c),
                side_name(*by)
            )
        }
        Event::DecoyRemoved { blip, .. } => format!("the Decoy {blip} is removed"),
        Event::ModelsPlaced {
            unit,
            type_id,
            models,
        } => {
            let at: Vec<String> = models
                .iter()
                .map(|m| format!("{} at {}", m.id, m.at))
                .collect();
            format!(
                "{unit}: {} placed: {}",
                plural(models.len() as u32, type_id, type_id),
                at.join(", ")
            )
        }
        Event::UnitSpawned {
            unit,
            type_id,
            models,
            source,
        } => {
            let at: Vec<String> = models
                .iter()
                .map(|m| format!("{} at {}", m.id, m.at))
                .collect();
            format!(
                "{unit}: {} spawned ({source}): {}",
                plural(models.len() as u32, type_id, type_id),
                at.join(", ")
            )
        }
        Event::BehaviourOnDemand { unit, behaviour } => {
            format!("{unit} performs the Alien Behaviour {behaviour} (on demand)")
        }
        Event::ModelLost { unit, reason } => format!("{unit} loses models: {reason}"),
        Event::BehaviourChosen {
            unit,
            behaviour,
            options,
        } => {
            if options.len() > 1 {
                format!("{unit} performs the Alien Behaviour {behaviour} (the Overmind chose it from {})", options.join(", "))
            } else {
                format!("{unit} performs the Alien Behaviour {behaviour}")
            }
        }
        Event::BehaviourPerformed { unit, behaviour } => format!("{unit}: {behaviour} done"),
        Event::BehaviourSkipped { unit, reason } => {
            format!("{unit} performs no Alien Behaviour: {reason}")
        }
        Event::BehaviourFailed {
            unit,
            behaviour,
            reason,
        } => {
            format!("{unit}: the behaviour {behaviour} failed and ended there: {reason}")
        }
        Event::Attack {
            attacker,
            target,
            kind,
            cv,
            dice,
            penalty,
            faces: f,
            upgraded,
            defence_dice,
            defence_faces,
            hits,
            crits,
            shields,
            damage,
        } => {
            let mut roll = format!("{} (CV {cv}", plural(*dice, "die", "dice"));
            if *penalty > 0 {
                roll.push_str(&format!(", {penalty} fewer"));
            }
            if *upgraded > 0 {
                roll.push_str(&format!(", {upgraded} blank made a HIT"));
            }
            roll.push(')');
            format!(
                "{attacker} {} {target}: {roll} [{}] against {} [{}] -> {}, {}, {}: {} damage",
                attack_verb(*kind),
                faces(f),
                plural(*defence_dice, "die", "dice"),
                faces(defence_faces),
                plural(*hits, "hit", "hits"),
                plural(*crits, "critical", "criticals"),
                plural(*shields, "shield", "shields"),
                damage
            )
        }
        Event::Damage {
            model,
            amount,
            health,
        } => format!("{model} loses {amount} Health ({health} left)"),
        Event::ModelKilled { model, by, .. } => match by {
            Some(b) => format!("{model} is killed by {b}"),
            None => format!("{model} is killed"),
        },
        Event::Status { model, status } => match status {
            StatusChange::KnockedDown => format!("{model} is Knocked Down"),
            StatusChange::StoodUp => format!("{model} stands up"),
            StatusChange::Stunned => format!("{model} is Stunned"),
            StatusChange::Recovered => format!("{model} recovers from Stun"),
            StatusChange::Shaken { by } => format!("{model} is Shaken by {by}"),
            StatusChange::PushedBack { to } => format!("{model} is pushed back to {to}"),
        },
        Event::OverwatchSet { unit, mode } => format!(
            "{unit} sets {} Overwatch",
            format!("{mode:?}").to_lowercase()
        ),
        Event::OverwatchDiscarded { unit } => format!("{unit} discards its unused Overwatch token"),
        Event::Extracted { unit, at } => format!("{unit} leaves the map at {at}"),
        Event::ObjectiveActivated { unit, at } => format!("{unit} activates the objective at {at}"),
        Event::Log { unit, message } => format!("{unit} (script): {message}"),
        Event::LogTruncated {
            unit,
            behaviour,
            limit,
        } => format!("{unit} (script): {behaviour} wrote more log than allowed ({limit}); the rest is dropped"),
        Event::GameOver { winner, reason } => {
            format!("GAME OVER: {} win: {reason}", side_name(*winner))
        }
    })
}

/// "Heroes" or "Overmind".
#[must_use]
pub fn title(s: Side) -> &'static str {
    match s {
        Side::Heroes => "Heroes",
        Side::Overmind => "Overmind",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_attack_shows_its_faces() {
        let e = Event::Attack {
            attacker: "captain".into(),
            target: "b3.1".into(),
            kind: AttackKind::Shoot,
            cv: 3,
            dice: 2,
            penalty: 1,
            faces: vec![Face::Hit, Face::Critical],
            upgraded: 0,
            defence_dice: 1,
            defence_faces: vec![Face::Shield],
            hits: 1,
            crits: 1,
            shields: 1,
            damage: 1,
        };
        assert_eq!(
            event(&e).as_deref(),
            Some(
                "captain shoots b3.1: 2 dice (CV 3, 1 fewer) [HIT CRITICAL] against 1 die [SHIELD] -> \
                 1 hit, 1 critical, 1 shield: 1 damage"
            )
        );
    }

    #[test]
    fn a_reveal_says_why() {
        let e = Event::BlipRevealed {
            blip: "b1".into(),
            at: overmind_core::Pos::new(2, 2),
            cause: RevealCause::Hero,
            by: Side::Heroes,
            triggers_behaviour: true,
            why: "revealed by the Hero Players".into(),
            type_id: Some("stalker".into()),
            decoy: Some(false),
        };
        let s = event(&e).unwrap_or_default();
        assert!(
            s.contains("came into a Hero's sight")
                && s.contains("stalker")
                && s.contains("Behaviour follows"),
            "{s}"
        );
    }
}

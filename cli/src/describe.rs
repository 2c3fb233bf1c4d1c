//! Events as sentences for the terminal log: rolls with their faces, hits and shields, reveals
//! with their cause, and why a behaviour did or did not follow.

use overmind_core::dice::Face;
use overmind_core::event::{Cause, Change, Contribution, Modifier, RangeBand, Roll, StatusChange};
use overmind_core::{AttackKind, Event, RevealCause, Side};

/// Words for a side.
#[must_use]
pub fn side_name(s: Side) -> &'static str {
    match s {
        Side::Heroes => "the Heroes",
        Side::Overmind => "the Overmind",
    }
}

/// Which die faces count for which side, for wherever rolls are shown (docs/RULES.md §6.1).
pub const DICE_KEY: &str = "Dice: the attacker counts HIT 1, DOUBLE-HIT 2 and CRITICAL 1 \
(no shield stops a critical); the defender counts SHIELD 1 and DOUBLE-SHIELD 2 (each stops a \
hit); any other face counts nothing";

/// A side's possessive: "the Heroes'" (a plural takes no second s), "the Overmind's".
#[must_use]
pub fn possessive(s: Side) -> &'static str {
    match s {
        Side::Heroes => "the Heroes'",
        Side::Overmind => "the Overmind's",
    }
}

/// The side doing `verb` (a plain verb such as `win`), the verb agreeing with it: "the Heroes
/// win", "the Overmind wins".
#[must_use]
pub fn does(s: Side, verb: &str) -> String {
    match s {
        Side::Heroes => format!("the Heroes {verb}"),
        Side::Overmind => format!("the Overmind {verb}s"),
    }
}

/// "the Heroes win", "the Overmind wins".
#[must_use]
pub fn wins(s: Side) -> String {
    does(s, "win")
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

/// What an effect changed, in words.
fn change_text(c: &Change) -> String {
    match c {
        Change::Damage { model, amount } => format!("{amount} damage to {model}"),
        Change::Heal {
            model,
            amount,
            health,
        } => format!("{model} heals {amount} ({health} Health)"),
        Change::Status { model, status, on } => {
            let what = status.name().replace('_', " ");
            if *on {
                format!("{model} is {what}")
            } else {
                format!("{model} is no longer {what}")
            }
        }
        Change::Modifier {
            model,
            stat,
            change,
            until,
        } => {
            let until = match until {
                overmind_core::state::Until::ActivationEnd => "the end of the activation",
                overmind_core::state::Until::RoundEnd => "the end of the round",
            };
            format!("{model} {} {change:+} until {until}", stat.name())
        }
        Change::ModifierEnded {
            model,
            stat,
            change,
        } => format!("{model}'s {} {change:+} ends", stat.name()),
        Change::SpawnBlip { blip, at } => format!("a new Blip {blip} at {at}"),
        Change::PlaceToken { token, kind, at } => format!("{kind} {token} placed at {at}"),
        Change::RemoveToken { token, at } => format!("token {token} at {at} removed"),
        Change::TakeToken { token, model } => format!("{model} picks up {token}"),
        Change::DropToken { token, at } => format!("{token} dropped at {at}"),
        Change::Actions { unit, change } if *change > 0 => {
            format!("{unit} gets {change} action(s) back")
        }
        Change::Actions { unit, change } => {
            format!("{unit} loses {} action(s)", change.unsigned_abs())
        }
        Change::Win { winner, reason } => format!("{}: {reason}", wins(*winner)),
    }
}

/// Where an attack's CV came from: each model's part, and its range band when shooting.
fn contributions(from: &[Contribution], kind: AttackKind) -> String {
    let band = |c: &Contribution| match (c.band, c.distance) {
        (Some(RangeBand::Short), Some(d)) => format!(" at short range ({d})"),
        (Some(RangeBand::Long), Some(d)) => format!(" at long range ({d})"),
        _ => String::new(),
    };
    match from {
        [] => String::new(),
        [one] if matches!(kind, AttackKind::Shoot | AttackKind::Overwatch) => band(one),
        [_] => String::new(),
        many => {
            let parts: Vec<String> = many
                .iter()
                .map(|c| format!("{} {}{}", c.model, c.cv, band(c)))
                .collect();
            if kind == AttackKind::Fear {
                format!(", the highest of {}", parts.join(", "))
            } else {
                format!(": {}", parts.join(" + "))
            }
        }
    }
}

/// A modifier's cause as the roll line names it.
fn cause_text(m: &Modifier) -> String {
    match m.cause {
        Cause::Behaviour => match m.source {
            Some(b) => format!("behaviour {b}"),
            None => "behaviour".into(),
        },
        Cause::WeakOverwatch => "weak Overwatch".into(),
        Cause::Building => "into a building".into(),
        Cause::RedSquare => "red square".into(),
        Cause::GreenSide => "green side".into(),
        Cause::Floor => "at least 1".into(),
        Cause::Stunned => "Stunned".into(),
        Cause::Trigger => match m.source {
            Some(s) => s.to_string(),
            None => "a trigger".into(),
        },
        Cause::Psychic => "psychic: no defence".into(),
    }
}

fn attack_verb(k: AttackKind) -> &'static str {
    match k {
        AttackKind::Melee => "attacks in melee",
        AttackKind::Shoot => "shoots",
        AttackKind::Overwatch => "fires on Overwatch at",
        AttackKind::FreeAttack => "makes a Free Attack on",
        AttackKind::Fear => "makes a Fear Attack on",
        AttackKind::Psychic => "makes a Psychic attack on",
    }
}

/// One event as a line of text, or `None` for bookkeeping not worth a line. Names and script
/// `log` messages come from files and scripts: their control characters are escaped
/// (`overmind_core::source::escape_controls`), for every front end that shows the line.
#[must_use]
pub fn event(e: &Event) -> Option<String> {
    sentence(e).map(|t| overmind_core::source::escape_controls(&t).into_owned())
}

/// [`event`] before escaping.
fn sentence(e: &Event) -> Option<String> {
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
                "Blip {blip} at {at} is revealed because {} ({} doing): {what}; {follow}",
                cause(*c),
                possessive(*by)
            )
        }
        Event::DecoyRemoved { blip, .. } => format!("the Decoy {blip} is removed"),
        Event::Deployed { unit, side, at } => match side {
            Side::Heroes => format!("{unit} deploys at {at}"),
            Side::Overmind => format!("Blip {unit} deploys at {at}"),
        },
        Event::WallDestroyed { model, edges, .. } => {
            let gap: Vec<String> = edges.iter().map(|[a, b]| format!("{a}|{b}")).collect();
            format!(
                "{model} destroys a wall: Ruined Walls between {}; the building is a Ruin",
                gap.join(" and ")
            )
        }
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
            from,
            modifiers,
        } => {
            let mut roll = format!("{} (CV {cv}", plural(*dice, "die", "dice"));
            roll.push_str(&contributions(from, *kind));
            let fewer: Vec<String> = modifiers
                .iter()
                .filter(|m| m.on == Roll::Attack && m.change < 0)
                .map(|m| format!("{} {}", cause_text(m), m.change.unsigned_abs()))
                .collect();
            let more: Vec<String> = modifiers
                .iter()
                .filter(|m| m.on == Roll::Attack && m.change > 0)
                .map(|m| format!("{} {}", cause_text(m), m.change))
                .collect();
            if !more.is_empty() {
                let n: i32 = modifiers
                    .iter()
                    .filter(|m| m.on == Roll::Attack && m.change > 0)
                    .map(|m| m.change)
                    .sum();
                roll.push_str(&format!(", {n} more: {}", more.join(", ")));
            }
            if *penalty > 0 {
                if fewer.is_empty() {
                    roll.push_str(&format!(", {penalty} fewer"));
                } else {
                    roll.push_str(&format!(", {penalty} fewer: {}", fewer.join(", ")));
                }
                if cv.saturating_sub(*penalty) < 1 {
                    roll.push_str(", but never fewer than 1 die");
                }
            }
            if *upgraded > 0 {
                roll.push_str(&format!(", {upgraded} blank made a HIT"));
            }
            roll.push(')');
            let def_mods: Vec<String> = modifiers
                .iter()
                .filter(|m| m.on == Roll::Defence)
                .map(|m| format!("{:+} {}", m.change, cause_text(m)))
                .collect();
            let defence = if def_mods.is_empty() {
                plural(*defence_dice, "die", "dice")
            } else {
                format!(
                    "{} (Defence {})",
                    plural(*defence_dice, "die", "dice"),
                    def_mods.join(", ")
                )
            };
            format!(
                "{attacker} {} {target}: {roll} [{}] against {defence} [{}] -> {}, {}, {}: {} damage",
                attack_verb(*kind),
                faces(f),
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
            format!("GAME OVER: {}: {reason}", wins(*winner))
        }
        Event::ActionVoided { reason } => {
            format!("the action is void: the round's opening effects left it illegal ({reason})")
        }
        Event::Triggered { source, hook, unit } => match unit {
            Some(u) => format!("{source} acts ({}, {u})", hook.name()),
            None => format!("{source} acts ({})", hook.name()),
        },
        Event::TriggerFailed {
            source,
            hook,
            reason,
        } => format!("{source} ({}) failed: {reason}; what it did before stands", hook.name()),
        Event::Effect { source, change } => format!("{source}: {}", change_text(change)),
        // No event names a card the Heroes may not know (docs/RULES.md §15.5).
        Event::CardDrawn {
            side, cards, hand, ..
        } => format!(
            "{} {} ({hand} in hand)",
            does(*side, "draw"),
            plural(*cards, "card", "cards")
        ),
        Event::DeckShuffled { deck, cards } => {
            format!("The {} deck is shuffled ({cards} cards)", deck.name())
        }
        Event::CardPlayed {
            card,
            name,
            target,
            at,
            hand,
        } => {
            let on = match (target, at) {
                (Some(t), _) => format!(" on {t}"),
                (None, Some(p)) => format!(" on {p}"),
                (None, None) => String::new(),
            };
            format!("The Overmind plays {name} ({card}){on}; {hand} in hand")
        }
        Event::CardFailed { card, reason } => {
            format!("{card} failed: {reason}; what it did before stands")
        }
        Event::CardDiscarded { side, cards, hand } => format!(
            "{} {} ({hand} in hand)",
            does(*side, "discard"),
            plural(*cards, "card", "cards")
        ),
        Event::CardLeftPlay { card } => format!("{card} leaves play"),
        Event::CardRevealed { card, name } => format!("The Overmind reveals {name} ({card})"),
        Event::Interrupted { discarded, hand } => format!(
            "The Overmind discards {} to interrupt the Hero phase ({hand} in hand)",
            plural(*discarded, "card", "cards")
        ),
        Event::InterruptEnded => "The interruption ends; the Heroes go on".to_string(),
        Event::CardTurned {
            deck,
            card,
            name,
            unit,
            at,
            left,
        } => {
            let who = unit.map(|u| format!(" for {u}")).unwrap_or_default();
            let at = at.map(|p| format!(" at {p}")).unwrap_or_default();
            format!(
                "A {} card is drawn{who}{at}: {name} ({card}); {left} left in the deck",
                deck.name()
            )
        }
        Event::HazardAttack {
            attacker,
            token,
            kind,
            at,
            cv,
            faces: f,
            upgraded,
            damage,
            crits,
            destroyed,
            ..
        } => {
            let up = if *upgraded > 0 {
                format!(" (+{upgraded} upgraded)")
            } else {
                String::new()
            };
            let result = if *destroyed {
                "destroyed"
            } else {
                "it holds (two damage or a critical hit destroy it)"
            };
            format!(
                "{attacker} {} the hazard {token} at {at} (CV {cv}): {}{up}; {} and {}: {result}",
                attack_verb(*kind),
                faces(f),
                plural(*damage, "damage", "damage"),
                plural(*crits, "critical", "criticals"),
            )
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
            from: vec![],
            modifiers: vec![],
        };
        assert_eq!(
            event(&e).as_deref(),
            Some(
                "captain shoots b3.1: 2 dice (CV 3, 1 fewer) [HIT CRITICAL] against 1 die [SHIELD] -> \
                 1 hit, 1 critical, 1 shield: 1 damage"
            )
        );
    }

    /// Issue 13: a roll line names each model's part with its range band, and every modifier
    /// with its cause; a penalty that would leave no die says so.
    #[test]
    fn a_roll_names_its_range_bands_and_modifiers() {
        let part = |m: &str, cv: u32, band: RangeBand, d: u32| Contribution {
            model: m.into(),
            cv,
            band: Some(band),
            distance: Some(d),
        };
        let shot = |from: Vec<Contribution>, modifiers: Vec<Modifier>| Event::Attack {
            attacker: "b3".into(),
            target: "captain".into(),
            kind: AttackKind::Shoot,
            cv: 3,
            dice: 1,
            penalty: 3,
            faces: vec![Face::Blank],
            upgraded: 0,
            defence_dice: 3,
            defence_faces: vec![Face::Blank, Face::Blank, Face::Blank],
            hits: 0,
            crits: 0,
            shields: 0,
            damage: 0,
            from,
            modifiers,
        };
        let e = shot(
            vec![
                part("b3.1", 2, RangeBand::Short, 3),
                part("b3.2", 1, RangeBand::Long, 7),
            ],
            vec![
                Modifier::fewer(Cause::Behaviour, 1, Some("quick_shot".into())),
                Modifier::fewer(Cause::Building, 2, None),
                Modifier {
                    on: Roll::Defence,
                    cause: Cause::GreenSide,
                    change: 1,
                    source: None,
                },
            ],
        );
        let line = event(&e).unwrap_or_default();
        assert!(
            line.contains(
                "1 die (CV 3: b3.1 2 at short range (3) + b3.2 1 at long range (7), 3 fewer: \
                 behaviour quick_shot 1, into a building 2, but never fewer than 1 die)"
            ),
            "{line}"
        );
        assert!(
            line.contains("against 3 dice (Defence +1 green side)"),
            "{line}"
        );
        let one = shot(
            vec![part("captain", 2, RangeBand::Short, 2)],
            vec![Modifier::fewer(Cause::WeakOverwatch, 1, None)],
        );
        let line = event(&one).unwrap_or_default();
        assert!(
            line.contains("(CV 3 at short range (2), 3 fewer: weak Overwatch 1"),
            "{line}"
        );
    }

    /// Issue 25: every generated phrase about a side is grammatical.
    #[test]
    fn sides_take_their_own_possessive_and_verb() {
        let reveal = |by| Event::BlipRevealed {
            blip: "b1".into(),
            at: overmind_core::Pos::new(2, 2),
            cause: RevealCause::Hero,
            by,
            triggers_behaviour: false,
            why: "a Decoy holds no unit".into(),
            type_id: None,
            decoy: Some(true),
        };
        let heroes = event(&reveal(Side::Heroes)).unwrap_or_default();
        assert!(heroes.contains("(the Heroes' doing)"), "{heroes}");
        let overmind = event(&reveal(Side::Overmind)).unwrap_or_default();
        assert!(overmind.contains("(the Overmind's doing)"), "{overmind}");
        let over = |winner| Event::GameOver {
            winner,
            reason: "the last round ended".into(),
        };
        assert_eq!(
            event(&over(Side::Overmind)).as_deref(),
            Some("GAME OVER: the Overmind wins: the last round ended")
        );
        assert_eq!(
            event(&over(Side::Heroes)).as_deref(),
            Some("GAME OVER: the Heroes win: the last round ended")
        );
        let declared = Event::Effect {
            source: "agenda".into(),
            change: Change::Win {
                winner: Side::Overmind,
                reason: "the nest grew".into(),
            },
        };
        assert_eq!(
            event(&declared).as_deref(),
            Some("agenda: the Overmind wins: the nest grew")
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

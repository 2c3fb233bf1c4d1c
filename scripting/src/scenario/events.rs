//! The events a scenario can look for: every kind with its fields, and how an expected value matches a field of the JSON event log.

use serde_json::Value as Json;
use toml::Value;

/// Every kind of event with the fields it has, as the event log serialises them (the JSON
/// `event` tag and keys of `overmind_core::Event`).
pub(super) const EVENTS: &[(&str, &[&str])] = &[
    ("game_started", &["mission", "seed"]),
    ("round_started", &["round"]),
    ("phase_started", &["side"]),
    ("activation_started", &["unit"]),
    ("action_taken", &["unit", "action"]),
    ("activation_ended", &["unit"]),
    ("moved", &["unit", "path", "forced"]),
    ("move_stopped", &["unit", "at", "reason"]),
    (
        "blip_revealed",
        &[
            "blip",
            "at",
            "cause",
            "by",
            "triggers_behaviour",
            "why",
            "type",
            "decoy",
        ],
    ),
    ("decoy_removed", &["blip", "at"]),
    ("deployed", &["unit", "side", "at"]),
    ("wall_destroyed", &["unit", "model", "building", "edges"]),
    ("models_placed", &["unit", "type", "models"]),
    ("model_lost", &["unit", "reason"]),
    ("unit_spawned", &["unit", "type", "models", "source"]),
    ("behaviour_chosen", &["unit", "behaviour", "options"]),
    ("behaviour_performed", &["unit", "behaviour"]),
    ("behaviour_on_demand", &["unit", "behaviour"]),
    ("behaviour_skipped", &["unit", "reason"]),
    ("behaviour_failed", &["unit", "behaviour", "reason"]),
    (
        "attack",
        &[
            "attacker",
            "target",
            "kind",
            "cv",
            "dice",
            "penalty",
            "faces",
            "upgraded",
            "defence_dice",
            "defence_faces",
            "hits",
            "crits",
            "shields",
            "damage",
            "from",
            "modifiers",
        ],
    ),
    ("damage", &["model", "amount", "health"]),
    ("model_killed", &["model", "unit", "by"]),
    ("status", &["model", "status"]),
    ("overwatch_set", &["unit", "mode"]),
    ("overwatch_discarded", &["unit"]),
    ("extracted", &["unit", "at"]),
    ("objective_activated", &["unit", "at"]),
    ("log", &["unit", "message"]),
    ("log_truncated", &["unit", "behaviour", "limit"]),
    ("game_over", &["winner", "reason"]),
    ("action_voided", &["reason"]),
    ("triggered", &["source", "hook", "unit"]),
    ("trigger_failed", &["source", "hook", "reason"]),
    ("card_drawn", &["side", "deck", "cards", "hand"]),
    ("deck_shuffled", &["deck", "cards"]),
    ("card_played", &["card", "name", "target", "at", "hand"]),
    ("card_failed", &["card", "reason"]),
    ("card_discarded", &["side", "cards", "hand"]),
    ("card_left_play", &["card"]),
    ("card_revealed", &["card", "name"]),
    ("interrupted", &["discarded", "hand"]),
    ("interrupt_ended", &[]),
    (
        "card_turned",
        &["deck", "card", "name", "unit", "at", "left"],
    ),
    (
        "hazard_attack",
        &[
            "attacker",
            "token",
            "kind",
            "at",
            "cv",
            "dice",
            "faces",
            "upgraded",
            "hits",
            "crits",
            "damage",
            "destroyed",
            "from",
        ],
    ),
    // Every effect has `source` and `effect`; the rest depend on the effect.
    (
        "effect",
        &[
            "source", "effect", "model", "amount", "health", "status", "on", "stat", "change",
            "until", "blip", "at", "token", "kind", "unit", "winner", "reason",
        ],
    ),
];

/// An event kind and field values it must have.
#[derive(Clone, Debug)]
pub(super) struct Pattern {
    pub kind: String,
    pub fields: Vec<(String, Value)>,
}

impl std::fmt::Display for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`", self.kind)?;
        for (i, (k, v)) in self.fields.iter().enumerate() {
            write!(f, "{} {k} = {v}", if i == 0 { " with" } else { "," })?;
        }
        Ok(())
    }
}

impl Pattern {
    /// Is `e` (an event as JSON) of this kind, with these field values?
    pub fn matches(&self, e: &Json) -> bool {
        e.get("event").and_then(Json::as_str) == Some(self.kind.as_str())
            && self.fields.iter().all(|(k, v)| matches(v, e.get(k)))
    }
}

/// Does an expected TOML value match a field of a serialised event? Tables match objects by
/// the keys they give; `{ contains = X }` matches a string containing X or an array holding
/// an element that matches X; `{ len = N }` an array of N elements; a `false` matches a flag
/// the event leaves out.
fn matches(expected: &Value, actual: Option<&Json>) -> bool {
    let Some(actual) = actual else {
        return matches!(expected, Value::Boolean(false));
    };
    match (expected, actual) {
        (Value::String(s), Json::String(a)) => s == a,
        (Value::Integer(i), Json::Number(n)) => n.as_i64() == Some(*i),
        (Value::Float(x), Json::Number(n)) => n.as_f64() == Some(*x),
        (Value::Boolean(b), Json::Bool(a)) => b == a,
        (Value::Array(xs), Json::Array(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| matches(x, Some(y)))
        }
        (Value::Table(t), _) if t.len() == 1 && t.contains_key("contains") => {
            match (t.get("contains"), actual) {
                (Some(Value::String(part)), Json::String(a)) => a.contains(part.as_str()),
                (Some(x), Json::Array(ys)) => ys.iter().any(|y| matches(x, Some(y))),
                _ => false,
            }
        }
        (Value::Table(t), _) if t.len() == 1 && t.contains_key("len") => {
            let len = match actual {
                Json::Array(ys) => ys.len(),
                Json::String(s) => s.chars().count(),
                _ => return false,
            };
            t.get("len")
                .and_then(Value::as_integer)
                .and_then(|n| usize::try_from(n).ok())
                == Some(len)
        }
        (Value::Table(t), Json::Object(o)) => t.iter().all(|(k, v)| matches(v, o.get(k))),
        _ => false,
    }
}

/// `Ok` when `kind` is a kind of event.
pub(super) fn event_kind(kind: &str) -> Result<(), String> {
    if EVENTS.iter().any(|(n, _)| *n == kind) {
        Ok(())
    } else {
        let all: Vec<&str> = EVENTS.iter().map(|(n, _)| *n).collect();
        Err(format!(
            "no event kind `{kind}`: expected one of {}",
            all.join(", ")
        ))
    }
}

/// A pattern written as an inline table (`{ event = "damage", model = "B1.1" }`).
pub(super) fn inline_pattern(v: &Value) -> Result<Pattern, String> {
    let Value::Table(t) = v else {
        return Err(format!(
            "{v}: expected an inline table such as {{ event = \"damage\", model = \"B1.1\" }}"
        ));
    };
    let Some(Value::String(kind)) = t.get("event") else {
        return Err(format!("{v}: expected an `event` key naming the kind"));
    };
    event_kind(kind)?;
    let fields = fields_of(kind);
    let mut out = Vec::new();
    for (k, x) in t.iter().filter(|(k, _)| k.as_str() != "event") {
        if !fields.contains(&k.as_str()) {
            return Err(format!(
                "a `{kind}` event has no field `{k}`: its fields are {}",
                fields.join(", ")
            ));
        }
        out.push((k.clone(), x.clone()));
    }
    Ok(Pattern {
        kind: kind.clone(),
        fields: out,
    })
}

/// The fields of an event kind (none for an unknown kind).
pub(super) fn fields_of(kind: &str) -> &'static [&'static str] {
    EVENTS
        .iter()
        .find(|(n, _)| *n == kind)
        .map_or(&[][..], |(_, f)| *f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use overmind_core::event::{PlacedModel, StatusChange};
    use overmind_core::{AttackKind, Event, RevealCause};
    use overmind_core::{Pos, Side};

    /// The table of kinds and fields above must follow `Event` as it serialises.
    #[test]
    fn the_event_table_follows_the_core_events() {
        let p = Pos::new(1, 2);
        let s = || "x".to_string();
        let all = vec![
            Event::GameStarted {
                mission: s(),
                seed: 1,
            },
            Event::RoundStarted { round: 1 },
            Event::PhaseStarted { side: Side::Heroes },
            Event::ActivationStarted {
                unit: overmind_core::Id::from(s()),
            },
            Event::ActionTaken {
                unit: overmind_core::Id::from(s()),
                action: overmind_core::state::ActionKind::Move,
            },
            Event::ActivationEnded {
                unit: overmind_core::Id::from(s()),
            },
            Event::Moved {
                unit: overmind_core::Id::from(s()),
                path: vec![p],
                forced: true,
            },
            Event::MoveStopped {
                unit: overmind_core::Id::from(s()),
                at: p,
                reason: s(),
            },
            Event::BlipRevealed {
                blip: overmind_core::Id::from(s()),
                at: p,
                cause: RevealCause::Hero,
                by: Side::Heroes,
                triggers_behaviour: true,
                why: s(),
                type_id: Some(overmind_core::Id::from(s())),
                decoy: Some(false),
            },
            Event::DecoyRemoved {
                blip: overmind_core::Id::from(s()),
                at: p,
            },
            Event::Deployed {
                unit: overmind_core::Id::from(s()),
                side: overmind_core::Side::Heroes,
                at: p,
            },
            Event::WallDestroyed {
                unit: overmind_core::Id::from(s()),
                model: overmind_core::Id::from(s()),
                building: 0,
                edges: vec![[p, p]],
            },
            Event::ModelsPlaced {
                unit: overmind_core::Id::from(s()),
                type_id: overmind_core::Id::from(s()),
                models: vec![PlacedModel {
                    id: overmind_core::Id::from(s()),
                    at: p,
                    type_id: overmind_core::Id::from(s()),
                    xxl: false,
                }],
            },
            Event::ModelLost {
                unit: overmind_core::Id::from(s()),
                reason: s(),
            },
            Event::BehaviourChosen {
                unit: overmind_core::Id::from(s()),
                behaviour: overmind_core::Id::from(s()),
                options: vec![],
            },
            Event::BehaviourPerformed {
                unit: overmind_core::Id::from(s()),
                behaviour: overmind_core::Id::from(s()),
            },
            Event::BehaviourSkipped {
                unit: overmind_core::Id::from(s()),
                reason: s(),
            },
            Event::BehaviourFailed {
                unit: overmind_core::Id::from(s()),
                behaviour: overmind_core::Id::from(s()),
                reason: s(),
            },
            Event::Attack {
                attacker: overmind_core::Id::from(s()),
                target: overmind_core::Id::from(s()),
                kind: AttackKind::Melee,
                cv: 1,
                dice: 1,
                penalty: 0,
                faces: vec![],
                upgraded: 0,
                defence_dice: 0,
                defence_faces: vec![],
                hits: 0,
                crits: 0,
                shields: 0,
                damage: 0,
                from: vec![overmind_core::event::Contribution {
                    model: overmind_core::Id::from(s()),
                    cv: 1,
                    band: None,
                    distance: None,
                }],
                modifiers: vec![overmind_core::event::Modifier::fewer(
                    overmind_core::event::Cause::Building,
                    1,
                    None,
                )],
            },
            Event::UnitSpawned {
                unit: overmind_core::Id::from(s()),
                type_id: overmind_core::Id::from(s()),
                models: vec![],
                source: s(),
            },
            Event::BehaviourOnDemand {
                unit: overmind_core::Id::from(s()),
                behaviour: overmind_core::Id::from(s()),
            },
            Event::Damage {
                model: overmind_core::Id::from(s()),
                amount: 1,
                health: 1,
            },
            Event::ModelKilled {
                model: overmind_core::Id::from(s()),
                unit: overmind_core::Id::from(s()),
                by: Some(overmind_core::Id::from(s())),
            },
            Event::Status {
                model: overmind_core::Id::from(s()),
                status: StatusChange::KnockedDown,
            },
            Event::OverwatchSet {
                unit: overmind_core::Id::from(s()),
                mode: overmind_core::state::Overwatch::Full,
            },
            Event::OverwatchDiscarded {
                unit: overmind_core::Id::from(s()),
            },
            Event::Extracted {
                unit: overmind_core::Id::from(s()),
                at: p,
            },
            Event::ObjectiveActivated {
                unit: overmind_core::Id::from(s()),
                at: p,
            },
            Event::Log {
                unit: overmind_core::Id::from(s()),
                message: s(),
            },
            Event::LogTruncated {
                unit: overmind_core::Id::from(s()),
                behaviour: overmind_core::Id::from(s()),
                limit: s(),
            },
            Event::GameOver {
                winner: Side::Heroes,
                reason: s(),
            },
            Event::ActionVoided { reason: s() },
            Event::Triggered {
                source: overmind_core::Id::from(s()),
                hook: overmind_core::trigger::Hook::Step,
                unit: Some(overmind_core::Id::from(s())),
            },
            Event::TriggerFailed {
                source: overmind_core::Id::from(s()),
                hook: overmind_core::trigger::Hook::Step,
                reason: s(),
            },
            Event::Effect {
                source: overmind_core::Id::from(s()),
                change: overmind_core::event::Change::Damage {
                    model: overmind_core::Id::from(s()),
                    amount: 1,
                },
            },
            Event::CardDrawn {
                side: Side::Overmind,
                deck: overmind_core::Deck::Mutation,
                cards: 1,
                hand: 1,
            },
            Event::DeckShuffled {
                deck: overmind_core::Deck::Mutation,
                cards: 3,
            },
            Event::CardPlayed {
                card: overmind_core::Id::from(s()),
                name: s(),
                target: Some(overmind_core::Id::from(s())),
                at: Some(Pos::new(1, 1)),
                hand: 2,
            },
            Event::CardFailed {
                card: overmind_core::Id::from(s()),
                reason: s(),
            },
            Event::CardDiscarded {
                side: Side::Overmind,
                cards: 1,
                hand: 2,
            },
            Event::CardLeftPlay {
                card: overmind_core::Id::from(s()),
            },
            Event::CardRevealed {
                card: overmind_core::Id::from(s()),
                name: s(),
            },
            Event::Interrupted {
                discarded: 2,
                hand: 3,
            },
            Event::InterruptEnded,
            Event::CardTurned {
                deck: overmind_core::Deck::Hazard,
                card: overmind_core::Id::from(s()),
                name: s(),
                unit: Some(overmind_core::Id::from(s())),
                at: Some(Pos::new(1, 1)),
                left: 2,
            },
            Event::HazardAttack {
                attacker: overmind_core::Id::from(s()),
                token: overmind_core::Id::from(s()),
                kind: overmind_core::AttackKind::Shoot,
                at: Pos::new(1, 1),
                cv: 2,
                dice: 2,
                faces: Vec::new(),
                upgraded: 0,
                hits: 1,
                crits: 1,
                damage: 2,
                destroyed: true,
                from: Vec::new(),
            },
        ];
        assert_eq!(all.len(), EVENTS.len(), "one table row per event kind");
        // A new kind of event fails to compile here until it is in the list above.
        for e in &all {
            match e {
                Event::GameStarted { .. }
                | Event::RoundStarted { .. }
                | Event::PhaseStarted { .. }
                | Event::ActivationStarted { .. }
                | Event::ActionTaken { .. }
                | Event::ActivationEnded { .. }
                | Event::Moved { .. }
                | Event::MoveStopped { .. }
                | Event::BlipRevealed { .. }
                | Event::DecoyRemoved { .. }
                | Event::Deployed { .. }
                | Event::WallDestroyed { .. }
                | Event::ModelsPlaced { .. }
                | Event::ModelLost { .. }
                | Event::UnitSpawned { .. }
                | Event::BehaviourChosen { .. }
                | Event::BehaviourPerformed { .. }
                | Event::BehaviourOnDemand { .. }
                | Event::BehaviourSkipped { .. }
                | Event::BehaviourFailed { .. }
                | Event::Attack { .. }
                | Event::Damage { .. }
                | Event::ModelKilled { .. }
                | Event::Status { .. }
                | Event::OverwatchSet { .. }
                | Event::OverwatchDiscarded { .. }
                | Event::Extracted { .. }
                | Event::ObjectiveActivated { .. }
                | Event::Log { .. }
                | Event::LogTruncated { .. }
                | Event::GameOver { .. }
                | Event::ActionVoided { .. }
                | Event::Triggered { .. }
                | Event::TriggerFailed { .. }
                | Event::Effect { .. }
                | Event::CardDrawn { .. }
                | Event::DeckShuffled { .. }
                | Event::CardPlayed { .. }
                | Event::CardFailed { .. }
                | Event::CardDiscarded { .. }
                | Event::CardLeftPlay { .. }
                | Event::CardRevealed { .. }
                | Event::Interrupted { .. }
                | Event::InterruptEnded
                | Event::CardTurned { .. }
                | Event::HazardAttack { .. } => {}
            }
        }
        for e in all {
            let Ok(Json::Object(o)) = serde_json::to_value(&e) else {
                panic!("{e:?} serialises to an object");
            };
            let kind = o.get("event").and_then(Json::as_str).unwrap_or("");
            let Some((_, fields)) = EVENTS.iter().find(|(n, _)| *n == kind) else {
                panic!("event kind {kind} is missing from EVENTS");
            };
            let mut keys: Vec<&str> = o
                .keys()
                .map(String::as_str)
                .filter(|k| *k != "event")
                .collect();
            keys.sort_unstable();
            let mut want: Vec<&str> = fields.to_vec();
            want.sort_unstable();
            if kind == "effect" {
                assert!(
                    keys.iter().all(|k| want.contains(k)),
                    "fields of {kind}: {keys:?}"
                );
            } else {
                assert_eq!(keys, want, "fields of {kind}");
            }
        }
    }

    #[test]
    fn values_match_by_what_they_give() {
        let e = serde_json::json!({"event": "moved", "unit": "B1.1", "path": [[1, 2], [2, 2]], "options": ["rush", "quick_shot"], "why": "revealed by the Hero Players"});
        let t = |s: &str| -> Value {
            toml::from_str::<toml::Table>(&format!("v = {s}"))
                .ok()
                .and_then(|t| t.get("v").cloned())
                .unwrap_or(Value::Boolean(true))
        };
        assert!(matches(&t("\"B1.1\""), e.get("unit")));
        assert!(!matches(&t("\"B1\""), e.get("unit")));
        assert!(matches(&t("[[1, 2], [2, 2]]"), e.get("path")));
        assert!(!matches(&t("[[1, 2]]"), e.get("path")));
        assert!(matches(&t("{ contains = \"Hero\" }"), e.get("why")));
        assert!(matches(&t("{ contains = \"rush\" }"), e.get("options")));
        assert!(
            matches(&t("false"), e.get("forced")),
            "a left-out flag is false"
        );
        assert!(!matches(&t("true"), e.get("forced")));
        assert!(matches(&t("{ len = 2 }"), e.get("path")));
        assert!(!matches(&t("{ len = 3 }"), e.get("path")));
    }
}

//! Whose turn it is and what they may do, in one shape shared by the terminal screen and the
//! JSON `your_turn` event: the round, the phase, the activating unit with its actions left, and
//! the legal actions grouped by unit and kind.

use overmind_core::state::ActionKind;
use overmind_core::Id;
use overmind_core::{Action, Content, Game, Phase, Pos, Side};
use serde::{Deserialize, Serialize};

/// Legal actions of one kind for one unit, model or Blip.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LegalGroup {
    /// The action word, as typed (`move`, `shoot`, … `end`).
    pub action: &'static str,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<Id>,
    /// The card a `play` or `discard` names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<Id>,
    /// Squares a move or sprint may end on (a card: the squares it may be played on).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub to: Vec<Pos>,
    /// Targets an attack (or a card) may name; for `interrupt`, each set of cards it may
    /// discard, space-separated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
}

/// The action words a legal group may hold, for reading a `your_turn` back (`join`).
const ACTION_WORDS: &[&str] = &[
    "move",
    "sprint",
    "shoot",
    "melee",
    "overwatch",
    "interact",
    "destroy",
    "flip",
    "end",
    "play",
    "discard",
    "interrupt",
    "perform",
    "spawn",
];

/// A legal group as JSON gives it back.
#[derive(Deserialize)]
struct LegalIn {
    action: String,
    #[serde(default)]
    unit: Option<Id>,
    #[serde(default)]
    card: Option<Id>,
    #[serde(default)]
    to: Vec<Pos>,
    #[serde(default)]
    targets: Vec<String>,
}

/// Legal groups read back from JSON, each action word one of [`ACTION_WORDS`] (else `?`).
fn legal_groups<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<LegalGroup>, D::Error> {
    let groups = Vec::<LegalIn>::deserialize(d)?;
    Ok(groups
        .into_iter()
        .map(|g| LegalGroup {
            action: ACTION_WORDS
                .iter()
                .find(|a| **a == g.action)
                .copied()
                .unwrap_or("?"),
            unit: g.unit,
            card: g.card,
            to: g.to,
            targets: g.targets,
        })
        .collect())
}

/// The turn, as a player sees it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Turn {
    pub side: Side,
    pub round: u32,
    pub max_rounds: u32,
    /// The unit or Blip now activating.
    pub active: Option<Id>,
    /// Actions the active unit has left (of 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions_left: Option<u32>,
    /// Actions the active unit has taken in this activation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub used: Vec<ActionKind>,
    #[serde(deserialize_with = "legal_groups")]
    pub legal: Vec<LegalGroup>,
    /// The Overmind's hand, on its own turn only (docs/RULES.md §15.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<Id>>,
    /// The Overmind is offered an interruption of the Hero phase (`interrupt` or `end`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupt_offered: bool,
}

impl Turn {
    /// The turn of the side to move, or `None` when the game is over.
    #[must_use]
    pub fn of(game: &Game, content: &Content) -> Option<Turn> {
        if game.state.phase == Phase::Over {
            return None;
        }
        // The Overmind may be to move in the Hero phase: offered, or interrupting.
        let side = game.to_move()?;
        let st = &game.state;
        let used: Vec<ActionKind> = match &st.active {
            Some(id) => st
                .unit(id)
                .map(|u| u.used.clone())
                .or_else(|| st.blip(id).map(|b| b.used.clone()))
                .unwrap_or_default(),
            None => Vec::new(),
        };
        Some(Turn {
            side,
            round: st.round,
            max_rounds: st.max_rounds,
            active: st.active,
            actions_left: st
                .active
                .as_ref()
                .map(|_| overmind_core::stats::actions_left(st, &used) as u32),
            used,
            legal: group(&game.legal_actions(content)),
            hand: (side == Side::Overmind && st.cards.has_hand()).then(|| st.cards.hand.clone()),
            interrupt_offered: st.interrupt == Some(overmind_core::interrupt::Interrupt::Offered),
        })
    }

    /// One line: who is activating and with how many actions left.
    #[must_use]
    pub fn status_line(&self) -> String {
        let phase = crate::describe::title(self.side);
        match (&self.active, self.actions_left) {
            (Some(a), Some(left)) => {
                let used: Vec<&str> = self.used.iter().map(|k| k.name()).collect();
                let used = if used.is_empty() {
                    String::new()
                } else {
                    format!("; used: {}", used.join(", "))
                };
                format!(
                    "Round {}/{} · {phase} phase · {a} is activating: {left} action{} left{used}",
                    self.round,
                    self.max_rounds,
                    if left == 1 { "" } else { "s" }
                )
            }
            _ => format!(
                "Round {}/{} · {phase} phase · choose a unit to activate",
                self.round, self.max_rounds
            ),
        }
    }
}

/// Actions grouped by (word, unit), in the order they came.
#[must_use]
pub fn group(actions: &[Action]) -> Vec<LegalGroup> {
    let mut out: Vec<LegalGroup> = Vec::new();
    for a in actions {
        let mut card = None;
        let (word, unit, to, target) = match a {
            Action::Move { unit, to, .. } => ("move", Some(unit), Some(*to), None),
            Action::Sprint { unit, to, .. } => ("sprint", Some(unit), Some(*to), None),
            Action::Shoot { unit, target } => ("shoot", Some(unit), None, Some(target)),
            Action::Melee { unit, target } => ("melee", Some(unit), None, Some(target)),
            Action::Overwatch { unit } => ("overwatch", Some(unit), None, None),
            Action::Interact { unit } => ("interact", Some(unit), None, None),
            Action::DestroyWall { unit } => ("destroy", Some(unit), None, None),
            Action::Flip { unit } => ("flip", Some(unit), None, None),
            Action::End => ("end", None, None, None),
            Action::Deploy => ("deploy", None, None, None),
            // Author tools are never listed as legal; kept apart if they ever are.
            Action::Perform { unit, .. } => ("perform", Some(unit), None, None),
            Action::Spawn { at, .. } => ("spawn", None, Some(*at), None),
            Action::Play {
                card: c,
                target,
                at,
            } => {
                card = Some(*c);
                ("play", None, *at, target.as_ref())
            }
            Action::Discard { card: c } => {
                card = Some(*c);
                ("discard", None, None, None)
            }
            Action::Interrupt { .. } => ("interrupt", None, None, None),
        };
        let unit = unit.cloned();
        let i = match out
            .iter()
            .position(|g| g.action == word && g.unit == unit && g.card == card)
        {
            Some(i) => i,
            None => {
                out.push(LegalGroup {
                    action: word,
                    unit,
                    card,
                    to: Vec::new(),
                    targets: Vec::new(),
                });
                out.len() - 1
            }
        };
        if let Some(p) = to {
            out[i].to.push(p);
        }
        if let Some(t) = target {
            out[i].targets.push(t.to_string());
        }
        if let Action::Interrupt { discard } = a {
            let set: Vec<String> = discard.iter().map(ToString::to_string).collect();
            out[i].targets.push(set.join(" "));
        }
    }
    out
}

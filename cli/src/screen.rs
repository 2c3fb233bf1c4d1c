//! What the terminal shows of a game: the map with its units drawn on it, the table of units
//! beside it, and the legal actions, all from the state as the viewer may see it (Blips are
//! anonymous `?` to the Heroes).

use crate::describe::title;
use crate::render::{self, hero_symbol, Unit};
use crate::turn::Turn;
use overmind_core::state::Contents;
use overmind_core::Id;
use overmind_core::{GameState, Objective, Pos, Side};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Symbols for the units of a state: heroes numbered in order, Alien Units lettered in order
/// (skipping letters the heroes use), Blips `?`.
#[must_use]
pub fn symbols(state: &GameState) -> HashMap<Id, Unit> {
    let mut out = HashMap::new();
    let mut heroes = 0;
    let hero_count = state
        .units
        .iter()
        .filter(|u| u.side == Side::Heroes)
        .count();
    // Heroes past the ninth take letters from `A`; aliens start after them.
    let mut letter = b'A' + hero_count.saturating_sub(9) as u8;
    for u in &state.units {
        let unit = match u.side {
            Side::Heroes => {
                heroes += 1;
                Unit::Hero(hero_symbol(heroes - 1))
            }
            Side::Overmind => {
                let c = if letter <= b'Z' {
                    char::from(letter)
                } else {
                    '&'
                };
                letter = letter.saturating_add(1);
                Unit::Alien(c)
            }
        };
        out.insert(u.id, unit);
    }
    for b in &state.blips {
        out.insert(b.id, Unit::Blip);
    }
    out
}

/// The map with every model and Blip drawn on it.
#[must_use]
pub fn board(state: &GameState, colour: bool) -> String {
    let syms = symbols(state);
    let mut at: HashMap<Pos, Unit> = HashMap::new();
    for u in &state.units {
        if let Some(&s) = syms.get(u.id.as_str()) {
            // An XXL model across the four squares of its base (docs/RULES.md §4.4).
            for m in &u.models {
                for q in m.squares() {
                    at.insert(q, s);
                }
            }
        }
    }
    for b in &state.blips {
        at.insert(b.pos, Unit::Blip);
    }
    render::marked(&state.map, &at, &token_marks(state), colour)
}

/// The tokens lying on the map, by their symbols (a model or Blip on the square hides it).
#[must_use]
pub fn token_marks(state: &GameState) -> HashMap<Pos, char> {
    state
        .tokens
        .iter()
        .filter(|t| t.carried_by.is_none())
        .map(|t| (t.pos, t.symbol))
        .collect()
}

/// The symbol of each kind of token lying on the map, with the kind's name, for the map's key.
#[must_use]
pub fn token_key(state: &GameState) -> Vec<(char, String)> {
    let mut out: Vec<(char, String)> = Vec::new();
    for t in state.tokens.iter().filter(|t| t.carried_by.is_none()) {
        let entry = (t.symbol, t.kind.replace('_', " "));
        if !out.contains(&entry) {
            out.push(entry);
        }
    }
    out
}

/// What the Heroes must do, in words.
#[must_use]
pub fn objective(o: &Objective) -> String {
    match o {
        Objective::Eliminate => "eliminate every Blip and Alien Unit".into(),
        Objective::Extract { count, .. } => {
            format!("{count} Heroes leave by an extraction point (Interact on it)")
        }
        Objective::Survive => "keep a Hero alive to the last round".into(),
        Objective::Interact { squares } => {
            let s: Vec<String> = squares.iter().map(ToString::to_string).collect();
            format!("activate the objectives at {}", s.join(" "))
        }
    }
}

/// One line per unit and Blip: symbol, id, kind, square, health, status, activation.
#[must_use]
pub fn units(state: &GameState, colour: bool) -> String {
    let syms = symbols(state);
    let mut out = String::new();
    for u in &state.units {
        let sym = syms
            .get(u.id.as_str())
            .map_or_else(String::new, |&s| render::symbol(s, colour));
        let done = if u.extracted {
            " left the map"
        } else if state.active.as_deref() == Some(u.id.as_str()) {
            " ACTIVATING"
        } else if u.activated {
            " activated"
        } else {
            ""
        };
        let ow = u
            .overwatch
            .map(|o| format!(" overwatch:{}", format!("{o:?}").to_lowercase()))
            .unwrap_or_default();
        let xp = if u.xp > 0 {
            format!(" {} XP (1 per kill)", u.xp)
        } else {
            String::new()
        };
        if u.side == Side::Heroes {
            for m in &u.models {
                let _ = writeln!(
                    out,
                    "  {sym} {:<10} {:<8} {:>5}  health {}/{}{}{ow}{xp}{done}",
                    u.id,
                    m.kind,
                    m.pos.to_string(),
                    m.health,
                    m.max_health,
                    status(&m.status)
                );
            }
            if u.models.is_empty() && !u.extracted {
                let _ = writeln!(out, "  {sym} {:<10} dead", u.id);
            }
        } else if u.alive() {
            let kind = u.kind().unwrap_or("?");
            let models: Vec<String> = u
                .models
                .iter()
                .map(|m| {
                    format!(
                        "{} {} {}/{}{}",
                        m.id,
                        m.pos,
                        m.health,
                        m.max_health,
                        status(&m.status)
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "  {sym} {:<10} {kind:<8} {}{ow}{done}",
                u.id,
                models.join(", ")
            );
        }
    }
    // Blips, several to a line: id, square, what it holds (only in the Overmind's view) and
    // whether it has activated.
    let mut line = String::new();
    let mut width = 0;
    let mut first = true;
    for b in &state.blips {
        let holds = match &b.contents {
            None => String::new(),
            Some(Contents::Decoy) => " decoy".into(),
            Some(Contents::Unit {
                type_id,
                size,
                leader,
            }) => {
                let lead = leader.as_ref().map(|l| format!("+{l}")).unwrap_or_default();
                format!(" {size} {type_id}{lead}")
            }
        };
        let done = if state.active.as_deref() == Some(b.id.as_str()) {
            " ACTIVATING"
        } else if b.activated {
            " (activated)"
        } else {
            ""
        };
        let item = format!("{} {}{holds}{done}", b.id, b.pos);
        if width > 0 && width + item.len() > 72 {
            let _ = writeln!(out, "{line}");
            line.clear();
            width = 0;
        }
        if width == 0 && first {
            line.push_str(&format!("  {} Blips: ", render::symbol(Unit::Blip, colour)));
            first = false;
        } else if width == 0 {
            line.push_str("           ");
        } else {
            line.push_str(" · ");
        }
        line.push_str(&item);
        width += item.len() + 3;
    }
    if width > 0 {
        let _ = writeln!(out, "{line}");
    }
    if !state.tokens.is_empty() {
        let items: Vec<String> = state
            .tokens
            .iter()
            .map(|t| match t.carried_by {
                Some(m) => format!("{} {} {} (carried by {m})", t.symbol, t.id, t.kind),
                None => format!("{} {} {} at {}", t.symbol, t.id, t.kind, t.pos),
            })
            .collect();
        let _ = writeln!(out, "  Tokens: {}", items.join(" · "));
    }
    // The Overmind's cards as this view knows them: the Heroes' shows counts only
    // (docs/RULES.md §15.5).
    let cards = &state.cards;
    if cards.has_hand() || cards.agenda.is_some() {
        let hidden = overmind_core::deck::HIDDEN;
        let names: Vec<&str> = cards.hand.iter().map(Id::as_str).collect();
        let held = match names.len() {
            0 => "no cards".to_string(),
            n if names.iter().all(|c| *c == hidden) => {
                format!("{n} card{}", if n == 1 { "" } else { "s" })
            }
            _ => names.join(", "),
        };
        let agenda = match cards.agenda.as_ref().map(Id::as_str) {
            None => String::new(),
            Some(a) if a == hidden => " · Hidden Agenda: face down".to_string(),
            Some(a) if cards.agenda_revealed => format!(" · Hidden Agenda: {a} (revealed)"),
            Some(a) => format!(" · Hidden Agenda: {a} (face down)"),
        };
        let _ = writeln!(out, "  Overmind's hand: {held}{agenda}");
    }
    out
}

fn status(s: &overmind_core::state::Status) -> String {
    let mut v = Vec::new();
    if s.knocked_down {
        v.push("knocked down".to_string());
    }
    if s.stunned {
        v.push("stunned".to_string());
    }
    if let Some(by) = &s.shaken_by {
        v.push(format!("shaken by {by}"));
    }
    if v.is_empty() {
        String::new()
    } else {
        format!(" [{}]", v.join(", "))
    }
}

/// The whole screen for a turn: title, map, key, units, what just happened, whose turn,
/// what may be done.
#[must_use]
pub fn turn_screen(
    name: &str,
    state: &GameState,
    turn: &Turn,
    happened: &str,
    colour: bool,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{name}: {} · {}",
        title(turn.side),
        objective(&state.objective)
    );
    out.push_str(&board(state, colour));
    out.push_str(&render::key(colour, &token_key(state)));
    out.push_str(&units(state, colour));
    if !happened.is_empty() {
        out.push_str("What happened:\n");
        out.push_str(happened);
    }
    let _ = writeln!(out, "{}", turn.status_line());
    out.push_str("You may:\n");
    for l in legal_lines(turn) {
        let _ = writeln!(out, "  {l}");
    }
    out
}

/// The legal actions, one line per unit: `captain: move X,Y (14 squares) · shoot b3|b5 · …`.
#[must_use]
pub fn legal_lines(turn: &Turn) -> Vec<String> {
    let mut lines: Vec<(Option<String>, Vec<String>)> = Vec::new();
    for g in &turn.legal {
        // Models of a unit are listed under the unit.
        let owner = g
            .unit
            .as_deref()
            .map(|u| u.split('.').next().unwrap_or(u).to_string());
        let what = if !g.to.is_empty() {
            let name = g
                .unit
                .as_deref()
                .filter(|u| Some(*u) != owner.as_deref())
                .map(|u| format!(" {u}"))
                .unwrap_or_default();
            if g.to.len() <= 4 {
                let s: Vec<String> = g.to.iter().map(ToString::to_string).collect();
                format!("{}{name} {}", g.action, s.join("|"))
            } else {
                format!("{}{name} X,Y ({} squares)", g.action, g.to.len())
            }
        } else if !g.targets.is_empty() {
            let card = g.card.map(|c| format!(" {c}")).unwrap_or_default();
            format!("{}{card} {}", g.action, g.targets.join("|"))
        } else if let Some(c) = g.card {
            format!("{} {c}", g.action)
        } else {
            g.action.to_string()
        };
        match lines.iter_mut().find(|(o, _)| *o == owner) {
            Some((_, v)) => v.push(what),
            None => lines.push((owner, vec![what])),
        }
    }
    lines
        .into_iter()
        .map(|(o, v)| match o {
            Some(u) => format!("{u}: {}", v.join(" · ")),
            None => format!(
                "{} (end the activation, or the phase when none is under way)",
                v.join(" · ")
            ),
        })
        .collect()
}

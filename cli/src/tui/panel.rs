//! The selected unit's panel: its stats now (Movement, Shoot bands and CVs, Melee CV, Defence,
//! Health), its status and Overwatch token, and what its activation has left; all from the
//! state as the viewer may see it, so a face-down Blip shows the Heroes nothing.

use crate::render::{hero_symbol, Unit as Symbol};
use overmind_core::state::{ActionKind, Contents, Status};
use overmind_core::stats::{Profiles, Stats};
use overmind_core::{AlienType, Content, GameState, HeroProfile, Id, Model, Shoot, Side, Unit};
use std::collections::{BTreeMap, HashMap};

/// The profiles and types the panel reads stats from: a copy, so that a decision (which is
/// handed only a view of the state) can show them too.
#[derive(Clone, Default)]
pub struct Tables {
    heroes: BTreeMap<String, HeroProfile>,
    aliens: BTreeMap<String, AlienType>,
}

impl Profiles for Tables {
    fn hero(&self, id: &str) -> Option<&HeroProfile> {
        self.heroes.get(id)
    }
    fn alien(&self, id: &str) -> Option<&AlienType> {
        self.aliens.get(id)
    }
}

impl Tables {
    #[must_use]
    pub fn of(c: &Content) -> Tables {
        Tables {
            heroes: c.heroes.clone(),
            aliens: c.aliens.clone(),
        }
    }
}

/// Every unit and Blip that can be selected, in map order: Heroes, Alien Units, Blips.
#[must_use]
pub fn selectable(state: &GameState) -> Vec<Id> {
    let units = state
        .units
        .iter()
        .filter(|u| u.alive() && !u.extracted)
        .map(|u| u.id);
    units.chain(state.blips.iter().map(|b| b.id)).collect()
}

/// The squares `id` (a unit, one of its models, or a Blip) stands on (an XXL model's four).
#[must_use]
pub fn squares(state: &GameState, id: &str) -> Vec<overmind_core::Pos> {
    if let Some((_, m)) = state.find_model(id) {
        return m.squares().collect();
    }
    if let Some(u) = state.unit(id) {
        return u.models.iter().flat_map(|m| m.squares()).collect();
    }
    state.blip(id).map(|b| vec![b.pos]).unwrap_or_default()
}

/// The unit a model id belongs to, or the id itself.
#[must_use]
pub fn owner(state: &GameState, id: &str) -> Option<Id> {
    if let Some((u, _)) = state.find_model(id) {
        return Some(u.id);
    }
    state
        .unit(id)
        .map(|u| u.id)
        .or_else(|| state.blip(id).map(|b| b.id))
}

/// The panel for `id`: a title and its lines, or `None` when nothing by that name is on the
/// map.
#[must_use]
pub fn panel(
    state: &GameState,
    t: &Tables,
    id: &str,
    syms: &HashMap<Id, Symbol>,
) -> Option<(String, Vec<String>)> {
    let sym = |id: Id| match syms.get(id.as_str()) {
        Some(Symbol::Hero(c) | Symbol::Alien(c)) => *c,
        Some(Symbol::Blip) => '?',
        None => hero_symbol(usize::MAX),
    };
    if let Some(u) = state.unit(owner(state, id)?.as_str()) {
        let lines = match u.side {
            Side::Heroes => hero(state, t, u),
            Side::Overmind => aliens(state, t, u),
        };
        let name = match u.side {
            Side::Heroes => u
                .models
                .first()
                .and_then(|m| t.heroes.get(m.kind.as_str()))
                .map_or_else(|| "Hero".to_string(), |p| p.name.clone()),
            Side::Overmind => {
                let kind = u.kind().unwrap_or("?");
                let name = t.aliens.get(kind).map_or(kind, |a| a.name.as_str());
                match u.from_blip {
                    Some(b) => format!("{name}, from Blip {b}"),
                    None => name.to_string(),
                }
            }
        };
        return Some((format!("{} {} · {name}", sym(u.id), u.id), lines));
    }
    let b = state.blip(id)?;
    let mut lines = vec![format!(
        "at {} · Movement {}",
        b.pos, state.rules.blip_movement
    )];
    lines.push(match &b.contents {
        // Only the Heroes' view lacks contents.
        None => "face down: what it holds is hidden until it is revealed".into(),
        Some(Contents::Decoy) => "holds a Decoy".into(),
        Some(Contents::Unit {
            type_id,
            size,
            leader,
        }) => {
            let lead = leader
                .as_ref()
                .map(|l| format!(", led by a {l}"))
                .unwrap_or_default();
            format!("holds {size} {type_id}{lead}")
        }
    });
    lines.push(actions(state, b.id, b.activated, &b.used));
    Some((format!("? {} · Blip Token", b.id), lines))
}

fn hero(state: &GameState, t: &Tables, u: &Unit) -> Vec<String> {
    let Some(m) = u.models.first() else {
        return vec!["dead".into()];
    };
    let mut lines = vec![format!(
        "at {} · Health {}/{}",
        m.pos, m.health, m.max_health
    )];
    if t.heroes.contains_key(m.kind.as_str()) {
        // The numbers the rules use now: dial and modifiers applied.
        let s = Stats::of(state, t, Side::Heroes, m);
        lines.push(format!(
            "Movement {} (Sprint {}) · Melee CV {} · Defence {}",
            s.movement, s.sprint, s.melee, s.defence
        ));
        lines.push(shoot(s.shoot.as_ref()));
    } else {
        lines.push(format!("no hero profile `{}` is loaded", m.kind));
    }
    lines.push(status(&m.status, u));
    lines.push(format!("XP {} (experience: a Hero gains 1 per kill)", u.xp));
    lines.push(if u.extracted {
        "left the map".into()
    } else {
        actions(state, u.id, u.activated, &u.used)
    });
    lines
}

fn aliens(state: &GameState, t: &Tables, u: &Unit) -> Vec<String> {
    let mut lines = Vec::new();
    // One stats line per type (a leader's differs from its followers').
    // The first model of each type stands for it (modifiers are per model).
    let mut kinds: Vec<&Model> = Vec::new();
    for m in &u.models {
        if !kinds.iter().any(|k| k.kind == m.kind) {
            kinds.push(m);
        }
    }
    for m in &kinds {
        let k = m.kind.as_str();
        let prefix = if kinds.len() > 1 {
            format!("{k}: ")
        } else {
            String::new()
        };
        if t.aliens.contains_key(k) {
            let s = Stats::of(state, t, Side::Overmind, m);
            let fear = if s.fear > 0 {
                format!(" · Fear {}", s.fear)
            } else {
                String::new()
            };
            lines.push(format!(
                "{prefix}Movement {} (Sprint {}) · Melee CV {} · Defence {}{fear}",
                s.movement, s.sprint, s.melee, s.defence
            ));
            lines.push(format!("{prefix}{}", shoot(s.shoot.as_ref())));
        } else {
            lines.push(format!("no alien type `{k}` is loaded"));
        }
    }
    let models: Vec<String> = u.models.iter().map(model).collect();
    lines.push(format!("Health: {}", models.join(" · ")));
    let ow = overwatch(u);
    if !ow.is_empty() {
        lines.push(ow);
    }
    lines.push(actions(state, u.id, u.activated, &u.used));
    lines
}

fn model(m: &Model) -> String {
    let s = flags(&m.status);
    let s = if s.is_empty() {
        String::new()
    } else {
        format!(" [{}]", s.join(", "))
    };
    format!("{} {} {}/{}{s}", m.id, m.pos, m.health, m.max_health)
}

/// The Shoot bands: the CV out to each band's range.
fn shoot(s: Option<&Shoot>) -> String {
    match s {
        None => "Shoot: none (melee only)".into(),
        Some(s) if s.long.range <= s.short.range => {
            format!("Shoot: CV {} to {} squares", s.short.cv, s.short.range)
        }
        Some(s) => format!(
            "Shoot: CV {} to {} squares, CV {} to {}",
            s.short.cv, s.short.range, s.long.cv, s.long.range
        ),
    }
}

fn flags(s: &Status) -> Vec<String> {
    let mut v = Vec::new();
    if s.knocked_down {
        v.push("Knocked Down".to_string());
    }
    if s.stunned {
        v.push("Stunned".to_string());
    }
    if let Some(by) = &s.shaken_by {
        v.push(format!("Shaken by {by}"));
    }
    v
}

fn overwatch(u: &Unit) -> String {
    match u.overwatch {
        Some(o) => format!("Overwatch: {} token", format!("{o:?}").to_lowercase()),
        None => String::new(),
    }
}

fn status(s: &Status, u: &Unit) -> String {
    let mut v = flags(s);
    let ow = overwatch(u);
    if !ow.is_empty() {
        v.push(ow);
    }
    if v.is_empty() {
        "Status: clear, no Overwatch".into()
    } else {
        format!("Status: {}", v.join(" · "))
    }
}

/// What the unit's activation has left.
fn actions(state: &GameState, id: Id, activated: bool, used: &[ActionKind]) -> String {
    if state.active == Some(id) {
        let left = overmind_core::stats::actions_left(state, used);
        let used: Vec<&str> = used.iter().map(|k| k.name()).collect();
        let used = if used.is_empty() {
            String::new()
        } else {
            format!(" (used: {})", used.join(", "))
        };
        format!(
            "Activating: {left} action{} left{used}",
            if left == 1 { "" } else { "s" }
        )
    } else if activated {
        "Activated this round: no actions left".into()
    } else {
        format!(
            "Not yet activated this round: {} actions",
            overmind_core::stats::actions_per_activation(state)
        )
    }
}

//! What the board shows at each event of a replay: the pieces (models, Blips, tokens) taken
//! from a state as one side may see it, moved on event by event, and the sight line that
//! revealed each Blip (by the exact LOS `explain`, over the board as it stood).

use crate::render::hero_symbol;
use overmind_core::event::{Change, StatusChange};
use overmind_core::los::{self, Explanation};
use overmind_core::state::{Contents, Overwatch};
use overmind_core::{Content, Event, GameState, Id, LosRule, Map, Obstacles, Pos, Side};
use serde::Serialize;

/// A model on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Figure {
    id: Id,
    kind: Id,
    pos: Pos,
    health: u32,
    max_health: u32,
    knocked_down: bool,
    stunned: bool,
    /// An XXL model, drawn across its 2×2 base from `pos`.
    xxl: bool,
}

/// A Hero or an Alien Unit.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Squad {
    id: Id,
    side: Side,
    models: Vec<Figure>,
    overwatch: Option<Overwatch>,
}

/// A token on the map, or carried by a model.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Token {
    id: Id,
    pos: Pos,
    symbol: char,
    kind: String,
    carried_by: Option<Id>,
}

/// A face-down Blip; `holds` only when the view may know it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Face {
    id: Id,
    pos: Pos,
    holds: Option<String>,
}

/// The board at one moment, as one side may know it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    units: Vec<Squad>,
    blips: Vec<Face>,
    tokens: Vec<Token>,
    /// Heroes and Blips still to be deployed by the rules: drawn once `deployed`.
    waiting: (Vec<Squad>, Vec<Face>),
    /// Ruined Walls so far (docs/RULES.md §5.4): each edge's first square and whether the
    /// edge is its east side (else its south side).
    ruins: Vec<(Pos, bool)>,
}

/// One piece as the page draws it, serialised as an array (short, for many frames):
/// `[id, unit, side, label, kind, x, y, health, max_health, flags, holds]`, `side` one of
/// `hero` `alien` `blip` `token`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Piece(
    pub String,
    pub String,
    pub &'static str,
    pub String,
    pub String,
    pub i32,
    pub i32,
    pub u32,
    pub u32,
    pub String,
    pub String,
);

/// What a face-down Blip holds, in words (the Overmind's view only).
fn holds(c: &Contents) -> String {
    match c {
        Contents::Decoy => "decoy".into(),
        Contents::Unit {
            type_id,
            size,
            leader,
        } => match leader {
            Some(l) => format!("{size} {type_id} led by {l}"),
            None => format!("{size} {type_id}"),
        },
    }
}

/// A unit of the state as the board draws it.
fn squad(u: &overmind_core::Unit) -> Squad {
    Squad {
        id: u.id,
        side: u.side,
        models: u
            .models
            .iter()
            .map(|m| Figure {
                id: m.id,
                kind: m.kind,
                pos: m.pos,
                health: m.health,
                max_health: m.max_health,
                knocked_down: m.status.knocked_down,
                stunned: m.status.stunned,
                xxl: m.xxl,
            })
            .collect(),
        overwatch: u.overwatch,
    }
}

/// A Blip of the state as the board draws it.
fn face(b: &overmind_core::Blip) -> Face {
    Face {
        id: b.id,
        pos: b.pos,
        holds: b.contents.as_ref().map(holds),
    }
}

impl Board {
    /// The board of `state`, which must already be the viewer's view of it (the Heroes' view
    /// has no Blip contents, so none get here).
    #[must_use]
    pub fn of(state: &GameState) -> Board {
        Board {
            units: state.units.iter().map(squad).collect(),
            blips: state.blips.iter().map(face).collect(),
            tokens: state
                .tokens
                .iter()
                .map(|t| Token {
                    id: t.id,
                    pos: t.pos,
                    symbol: t.symbol,
                    kind: t.kind.to_string(),
                    carried_by: t.carried_by,
                })
                .collect(),
            waiting: state
                .deploying
                .as_ref()
                .map(|d| {
                    (
                        d.heroes.iter().map(squad).collect(),
                        d.blips.iter().map(face).collect(),
                    )
                })
                .unwrap_or_default(),
            ruins: Vec::new(),
        }
    }

    fn model_mut(&mut self, id: &str) -> Option<&mut Figure> {
        self.units
            .iter_mut()
            .flat_map(|u| u.models.iter_mut())
            .find(|m| m.id == id)
    }

    fn model_pos(&self, id: &str) -> Option<Pos> {
        self.units
            .iter()
            .flat_map(|u| u.models.iter())
            .find(|m| m.id == id)
            .map(|m| m.pos)
    }

    fn place(&mut self, unit: Id, models: &[overmind_core::event::PlacedModel], c: &Content) {
        let figures = models.iter().map(|p| {
            let max = c
                .aliens
                .get(p.type_id.as_str())
                .map_or(1, |t| t.health.max(1));
            Figure {
                id: p.id,
                kind: p.type_id,
                pos: p.at,
                health: max,
                max_health: max,
                knocked_down: false,
                stunned: false,
                xxl: p.xxl,
            }
        });
        match self.units.iter_mut().find(|u| u.id == unit) {
            Some(u) => u.models.extend(figures),
            None => {
                let models = figures.collect();
                self.units.push(Squad {
                    id: unit,
                    side: Side::Overmind,
                    models,
                    overwatch: None,
                });
            }
        }
    }

    /// Carried tokens travel with their carrier.
    fn carry(&mut self, model: Id, to: Pos) {
        for t in &mut self.tokens {
            if t.carried_by == Some(model) {
                t.pos = to;
            }
        }
    }

    /// Move the board on by one event (as the engine changed the state when it recorded it).
    pub fn apply(&mut self, e: &Event, content: &Content) {
        match e {
            Event::WallDestroyed { edges, .. } => {
                for [a, b] in edges {
                    let (first, other) = if (a.y, a.x) <= (b.y, b.x) {
                        (*a, *b)
                    } else {
                        (*b, *a)
                    };
                    self.ruins.push((first, other.x > first.x));
                }
            }
            Event::Moved { unit, path, .. } => {
                let Some(&to) = path.last() else { return };
                if let Some(m) = self.model_mut(unit) {
                    m.pos = to;
                    self.carry(*unit, to);
                } else if let Some(b) = self.blips.iter_mut().find(|b| b.id == *unit) {
                    b.pos = to;
                }
            }
            Event::Deployed { unit, at, .. } => {
                if let Some(i) = self.waiting.0.iter().position(|u| u.id == *unit) {
                    let mut u = self.waiting.0.remove(i);
                    for m in &mut u.models {
                        m.pos = *at;
                    }
                    self.units.push(u);
                } else if let Some(i) = self.waiting.1.iter().position(|b| b.id == *unit) {
                    let mut b = self.waiting.1.remove(i);
                    b.pos = *at;
                    self.blips.push(b);
                }
            }
            Event::BlipRevealed { blip, .. } | Event::DecoyRemoved { blip, .. } => {
                self.blips.retain(|b| b.id != *blip);
            }
            Event::ModelsPlaced { unit, models, .. } | Event::UnitSpawned { unit, models, .. } => {
                self.place(*unit, models, content);
            }
            Event::Damage { model, health, .. } => {
                if let Some(m) = self.model_mut(model) {
                    m.health = *health;
                }
            }
            Event::ModelKilled { model, .. } => {
                for u in &mut self.units {
                    u.models.retain(|m| m.id != *model);
                }
            }
            Event::Status { model, status } => {
                let id = *model;
                let Some(m) = self.model_mut(model) else {
                    return;
                };
                match status {
                    StatusChange::KnockedDown => m.knocked_down = true,
                    StatusChange::StoodUp => m.knocked_down = false,
                    StatusChange::Stunned => m.stunned = true,
                    StatusChange::Recovered => m.stunned = false,
                    StatusChange::Shaken { .. } => {}
                    StatusChange::PushedBack { to } => {
                        m.pos = *to;
                        self.carry(id, *to);
                    }
                }
            }
            Event::OverwatchSet { unit, mode } => {
                if let Some(u) = self.units.iter_mut().find(|u| u.id == *unit) {
                    u.overwatch = Some(*mode);
                }
            }
            // An Overwatch token is spent by the shot it fires.
            Event::Attack {
                attacker,
                kind: overmind_core::AttackKind::Overwatch,
                ..
            }
            | Event::OverwatchDiscarded { unit: attacker } => {
                let unit = attacker;
                if let Some(u) = self.units.iter_mut().find(|u| u.id == *unit) {
                    u.overwatch = None;
                }
            }
            Event::Extracted { unit, .. } => {
                if let Some(u) = self.units.iter_mut().find(|u| u.id == *unit) {
                    u.models.clear();
                }
            }
            Event::Effect { change, .. } => self.change(change, content),
            _ => {}
        }
    }

    fn change(&mut self, c: &Change, content: &Content) {
        match c {
            Change::Heal { model, health, .. } => {
                if let Some(m) = self.model_mut(model) {
                    m.health = *health;
                }
            }
            Change::Status { model, status, on } => {
                if let Some(m) = self.model_mut(model) {
                    match status {
                        overmind_core::state::StatusName::KnockedDown => m.knocked_down = *on,
                        overmind_core::state::StatusName::Stunned => m.stunned = *on,
                    }
                }
            }
            Change::SpawnBlip { blip, at } => self.blips.push(Face {
                id: *blip,
                pos: *at,
                holds: None,
            }),
            Change::PlaceToken { token, kind, at } => self.tokens.push(Token {
                id: *token,
                pos: *at,
                symbol: content.tokens.get(kind.as_str()).map_or('%', |k| k.symbol),
                kind: kind.to_string(),
                carried_by: None,
            }),
            Change::RemoveToken { token, .. } => self.tokens.retain(|t| t.id != *token),
            Change::TakeToken { token, model } => {
                let at = self.model_pos(model);
                if let Some(t) = self.tokens.iter_mut().find(|t| t.id == *token) {
                    t.carried_by = Some(*model);
                    if let Some(at) = at {
                        t.pos = at;
                    }
                }
            }
            Change::DropToken { token, at } => {
                if let Some(t) = self.tokens.iter_mut().find(|t| t.id == *token) {
                    t.carried_by = None;
                    t.pos = *at;
                }
            }
            _ => {}
        }
    }

    /// Every square a model or Blip stands on, with the map's own obstacles (as the engine
    /// computes them for Line of Sight).
    #[must_use]
    pub fn obstacles(&self, map: &Map) -> Obstacles {
        let mut o = Obstacles::new(map);
        for m in self.units.iter().flat_map(|u| u.models.iter()) {
            for q in overmind_core::geom::footprint(m.pos, m.xxl) {
                o.insert(q);
            }
        }
        for b in &self.blips {
            o.insert(b.pos);
        }
        o
    }

    /// The Hero model nearest to `at` that has Line of Sight to it, with the sight line
    /// `explain` gives (in squares: square `x,y` spans `x..x+1`).
    #[must_use]
    pub fn witness(&self, map: &Map, rule: LosRule, at: Pos) -> Option<Witness> {
        // The walls destroyed so far are openings now (docs/RULES.md §5.4).
        let ruined;
        let map = if self.ruins.is_empty() {
            map
        } else {
            let edges: Vec<(Pos, overmind_core::Dir)> = self
                .ruins
                .iter()
                .map(|&(p, east)| {
                    (
                        p,
                        if east {
                            overmind_core::Dir::E
                        } else {
                            overmind_core::Dir::S
                        },
                    )
                })
                .collect();
            ruined = map.with_ruined(&edges);
            &ruined
        };
        let obstacles = self.obstacles(map);
        let mut heroes: Vec<&Figure> = self
            .units
            .iter()
            .filter(|u| u.side == Side::Heroes)
            .flat_map(|u| u.models.iter())
            .collect();
        heroes.sort_by_key(|m| m.pos.distance(at));
        let f = |r: los::Rational| r.numer() as f64 / r.denom() as f64;
        heroes
            .into_iter()
            .find_map(|m| match los::explain(rule, map, &obstacles, m.pos, at) {
                Explanation::Visible { from, to } => Some(Witness {
                    hero: m.id.to_string(),
                    line: [f(from.x), f(from.y), f(to.x), f(to.y)],
                    text: format!(
                        "{} at {} sees {at}: from ({}, {}) to ({}, {})",
                        m.id, m.pos, from.x, from.y, to.x, to.y
                    ),
                }),
                Explanation::Blocked { .. } => None,
            })
    }

    /// The pieces to draw, labelled as the terminal labels them: Heroes numbered in order,
    /// Alien Units lettered in order (after the letters the Heroes use), Blips `?`.
    #[must_use]
    pub fn pieces(&self) -> Vec<Piece> {
        let hero_count = self.units.iter().filter(|u| u.side == Side::Heroes).count();
        let mut letter = b'A' + hero_count.saturating_sub(9) as u8;
        let mut heroes = 0;
        let mut out = Vec::new();
        for u in &self.units {
            let (side, label) = match u.side {
                Side::Heroes => {
                    heroes += 1;
                    ("hero", hero_symbol(heroes - 1))
                }
                Side::Overmind => {
                    let c = if letter <= b'Z' {
                        char::from(letter)
                    } else {
                        '&'
                    };
                    letter = letter.saturating_add(1);
                    ("alien", c)
                }
            };
            let ow = match u.overwatch {
                Some(Overwatch::Full) => " overwatch",
                Some(Overwatch::Weak) => " weak-overwatch",
                None => "",
            };
            for m in &u.models {
                let mut flags = String::from(ow.trim_start());
                for (on, name) in [
                    (m.knocked_down, "knocked-down"),
                    (m.stunned, "stunned"),
                    (m.xxl, "xxl"),
                ] {
                    if on {
                        if !flags.is_empty() {
                            flags.push(' ');
                        }
                        flags.push_str(name);
                    }
                }
                out.push(Piece(
                    m.id.to_string(),
                    u.id.to_string(),
                    side,
                    label.to_string(),
                    m.kind.to_string(),
                    m.pos.x,
                    m.pos.y,
                    m.health,
                    m.max_health,
                    flags,
                    String::new(),
                ));
            }
        }
        // Ruined Walls: openings drawn over the walls the page's map was drawn with.
        for (i, &(p, east)) in self.ruins.iter().enumerate() {
            out.push(Piece(
                format!("ruin{}", i + 1),
                String::new(),
                "ruin",
                String::new(),
                String::new(),
                p.x,
                p.y,
                0,
                0,
                if east { "east" } else { "south" }.to_string(),
                String::new(),
            ));
        }
        for b in &self.blips {
            out.push(Piece(
                b.id.to_string(),
                b.id.to_string(),
                "blip",
                "?".into(),
                String::new(),
                b.pos.x,
                b.pos.y,
                0,
                0,
                String::new(),
                b.holds.clone().unwrap_or_default(),
            ));
        }
        for t in self.tokens.iter().filter(|t| t.carried_by.is_none()) {
            out.push(Piece(
                t.id.to_string(),
                t.id.to_string(),
                "token",
                t.symbol.to_string(),
                t.kind.clone(),
                t.pos.x,
                t.pos.y,
                0,
                0,
                String::new(),
                String::new(),
            ));
        }
        out
    }
}

/// The sight line that revealed a Blip.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Witness {
    /// The Hero model that sees it.
    pub hero: String,
    /// `[x1, y1, x2, y2]` in squares.
    pub line: [f64; 4],
    /// The exact end points, in words.
    pub text: String,
}

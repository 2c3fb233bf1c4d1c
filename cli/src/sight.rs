//! In-game `los A B` and `reach UNIT`: Line of Sight and the squares a Move or Sprint reaches,
//! drawn on the board from the viewer's knowledge (the Heroes' view shows a face-down Blip as
//! a `?` and nothing more: its square, which everyone sees).

use crate::render::{self, Unit};
use crate::screen;
use crate::session::Session;
use overmind_core::los::{self, Blocker, Explanation};
use overmind_core::{Action, GameState, LineOfSight, Pos, Side};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Where a word of a command points: a square `X,Y`, or a unit, model or Blip by id or map
/// label.
fn square_of(st: &GameState, s: &Session, word: &str) -> Result<Pos, String> {
    if let Ok(p) = crate::command::square_of(word) {
        return Ok(p);
    }
    let names = s.names();
    let id = names.label(word).unwrap_or(word);
    if let Some((_, m)) = st.find_model(id) {
        return Ok(m.pos);
    }
    if let Some(u) = st.unit(id) {
        if let Some(m) = u.models.first() {
            return Ok(m.pos);
        }
    }
    if let Some(b) = st.blip(id) {
        return Ok(b.pos);
    }
    Err(format!(
        "`{word}` is neither a square X,Y nor a unit, model or Blip on the map"
    ))
}

/// The top-left square of the XXL model whose base covers `p`, if one does.
fn xxl_base(st: &GameState, p: Pos) -> Option<Pos> {
    st.models().find(|m| m.xxl && m.covers(p)).map(|m| m.pos)
}

/// The board as `view` sees it, with `marks` drawn on squares that hold no unit.
fn board(st: &GameState, marks: &HashMap<Pos, char>, colour: bool) -> String {
    let syms = screen::symbols(st);
    let mut at: HashMap<Pos, Unit> = HashMap::new();
    for u in &st.units {
        if let Some(&sym) = syms.get(u.id.as_str()) {
            for m in &u.models {
                for q in m.squares() {
                    at.insert(q, sym);
                }
            }
        }
    }
    for b in &st.blips {
        at.insert(b.pos, Unit::Blip);
    }
    let mut all = screen::token_marks(st);
    all.extend(marks.iter().map(|(&p, &c)| (p, c)));
    render::marked(&st.map, &at, &all, colour)
}

/// The squares the segment `from`–`to` (in square units) passes through.
fn crossed(from: (f64, f64), to: (f64, f64)) -> Vec<Pos> {
    let steps = 4 * (((to.0 - from.0).abs() + (to.1 - from.1).abs()).ceil() as usize + 1);
    let mut out: Vec<Pos> = Vec::new();
    for i in 0..=steps {
        let t = i as f64 / steps as f64;
        let x = from.0 + (to.0 - from.0) * t;
        let y = from.1 + (to.1 - from.1) * t;
        let p = Pos::new(x.floor() as i32, y.floor() as i32);
        if out.last() != Some(&p) {
            out.push(p);
        }
    }
    out
}

/// `los A B` in a game: visible or blocked by the game's own rule, why, and the board with the
/// sight line (`*`) or what blocks it (`X`).
///
/// # Errors
/// A word that names no square or unit, or a square off the map.
pub fn los_text(s: &Session, view: Side, a: &str, b: &str, colour: bool) -> Result<String, String> {
    let st = s.game.state.view(view);
    let (pa, pb) = (square_of(&st, s, a)?, square_of(&st, s, b)?);
    for p in [pa, pb] {
        if !st.map.in_bounds(p) {
            return Err(format!(
                "{p} is off the map (0,0 to {},{})",
                st.map.width() - 1,
                st.map.height() - 1
            ));
        }
    }
    let rule = st.rules.los;
    let obstacles = st.cached_obstacles();
    // An XXL model is seen by any one of its four squares (docs/RULES.md §4.4): the pair of
    // squares explained is the first that sees, else the named squares.
    let (base_a, base_b) = (xxl_base(&st, pa), xxl_base(&st, pb));
    let squares = |p: Pos, base: Option<Pos>| -> Vec<Pos> {
        base.map_or_else(
            || vec![p],
            |t| overmind_core::geom::footprint(t, true).collect(),
        )
    };
    let (sa, sb) = (squares(pa, base_a), squares(pb, base_b));
    let seeing = sa.iter().find_map(|&x| {
        sb.iter()
            .find(|&&y| rule.visible(&st.map, &obstacles, x, y))
            .map(|&y| (x, y))
    });
    let (pa, pb) = seeing.unwrap_or((pa, pb));
    let visible = seeing.is_some();
    let why = los::explain(rule, &st.map, &obstacles, pa, pb);
    let mut marks = HashMap::new();
    match &why {
        Explanation::Visible { from, to } => {
            let f = |r: los::Rational| r.numer() as f64 / r.denom() as f64;
            for p in crossed((f(from.x), f(from.y)), (f(to.x), f(to.y))) {
                if p != pa && p != pb {
                    marks.insert(p, '*');
                }
            }
        }
        Explanation::Blocked { blockers } => {
            for bl in blockers {
                if let Blocker::Obstacle { at, .. } = bl {
                    marks.insert(*at, 'X');
                }
            }
        }
    }
    let mut text = board(&st, &marks, colour);
    let _ = writeln!(
        text,
        "{pa} to {pb}: {}",
        if visible { "visible" } else { "blocked" }
    );
    for (name, base) in [(a, base_a), (b, base_b)] {
        if let Some(t) = base {
            let all: Vec<String> = overmind_core::geom::footprint(t, true)
                .map(|q| q.to_string())
                .collect();
            let _ = writeln!(
                text,
                "{name} is an XXL model at {t}: Line of Sight to any one of its squares ({}) is \
                 enough; {}",
                all.join(" "),
                if visible {
                    format!("{pa} to {pb} is one that sees")
                } else {
                    "no pair of squares sees".to_string()
                }
            );
        }
    }
    let _ = writeln!(text, "{why}");
    if matches!(why, Explanation::Visible { .. }) {
        text.push_str("(* marks the squares the sight line crosses)\n");
    } else {
        text.push_str("(X marks the squares that block; walls are named above)\n");
    }
    Ok(text)
}

/// `reach UNIT`: the squares a Sprint (`+`) and a Move (`+` and `*`) reach. For the side to
/// move, exactly its legal moves now; for any other unit, the squares its Movement reaches by
/// legal steps with the board as it is.
///
/// # Errors
/// A word that names no unit or Blip.
pub fn reach_text(s: &Session, view: Side, word: &str, colour: bool) -> Result<String, String> {
    let st = s.game.state.view(view);
    let names = s.names();
    let id = names.label(word).unwrap_or(word).to_string();
    let own = names.own.contains(&id);
    let mut moves: Vec<Pos> = Vec::new();
    let mut sprints: Vec<Pos> = Vec::new();
    if own {
        for a in s.game.legal_actions(s.content()) {
            match a {
                Action::Move { unit, to, .. } if actor_is(&st, &unit, &id) => moves.push(to),
                Action::Sprint { unit, to, .. } if actor_is(&st, &unit, &id) => sprints.push(to),
                _ => {}
            }
        }
    } else {
        let (from, movement) = if let Some(b) = st.blip(&id) {
            (b.pos, st.rules.blip_movement)
        } else {
            let m = st
                .find_model(&id)
                .or_else(|| st.unit(&id).and_then(|u| u.models.first().map(|m| (u, m))));
            let Some((u, m)) = m else {
                return Err(format!("no unit, model or Blip named `{word}`"));
            };
            // The Movement the rules use now (dial and modifiers applied).
            let movement = overmind_core::Stats::movement(&st, s.content(), u.side, m);
            (m.pos, movement)
        };
        let obstacles = st.cached_obstacles();
        for (p, d) in overmind_core::movement::reachable(&st.map, &obstacles, from, movement) {
            if d == 0 {
                continue;
            }
            moves.push(p);
            if d <= overmind_core::settings::Rules::sprint(movement) {
                sprints.push(p);
            }
        }
    }
    if moves.is_empty()
        && sprints.is_empty()
        && st.unit(&id).is_none()
        && st.find_model(&id).is_none()
        && st.blip(&id).is_none()
    {
        return Err(format!("no unit, model or Blip named `{word}`"));
    }
    let mut marks: HashMap<Pos, char> = HashMap::new();
    for p in &moves {
        marks.insert(*p, '*');
    }
    // A Sprint goes half as far: its squares are inside the Move's.
    for p in &sprints {
        marks.insert(*p, '+');
    }
    let mut text = board(&st, &marks, colour);
    let how = if own {
        "its legal moves now"
    } else {
        "by its Movement, not counting Overwatch or reveals on the way"
    };
    let _ = writeln!(
        text,
        "{id}: a Sprint reaches {} squares (+), a Move {} (+ and *) ({how})",
        sprints.len(),
        moves.len()
    );
    Ok(text)
}

/// `sees UNIT`: every square the unit's model (a unit's first, a Blip's square) has Line of
/// Sight to (`o`), by the game's rule, with the board as the viewer knows it.
///
/// # Errors
/// A word that names no unit, model or Blip.
pub fn sees_text(s: &Session, view: Side, word: &str, colour: bool) -> Result<String, String> {
    let mut st = s.game.state.view(view);
    let from = square_of(&st, s, word)?;
    if crate::command::square_of(word).is_ok() {
        return Err(format!(
            "`{word}`: name a unit, model or Blip (`los` takes squares)"
        ));
    }
    let mut marks = HashMap::new();
    for y in 0..st.map.height() {
        for x in 0..st.map.width() {
            let p = Pos::new(x, y);
            if p != from && !st.map.is_solid(p) && st.los(from, p) {
                marks.insert(p, 'o');
            }
        }
    }
    let mut text = board(&st, &marks, colour);
    let _ = writeln!(text, "{word} at {from} sees {} squares (o)", marks.len());
    Ok(text)
}

/// Whether the actor of a legal action (a unit, one of its models, or a Blip) is `id` or
/// belongs to it.
fn actor_is(st: &GameState, actor: &str, id: &str) -> bool {
    actor == id
        || st.find_model(actor).is_some_and(|(u, _)| u.id == id)
        || st.find_model(id).is_some_and(|(u, _)| u.id == actor)
}

#[cfg(test)]
mod tests {
    use super::crossed;
    use overmind_core::Pos;

    #[test]
    fn a_line_crosses_the_squares_under_it() {
        let c = crossed((0.5, 0.5), (3.5, 0.5));
        assert_eq!(
            c,
            [
                Pos::new(0, 0),
                Pos::new(1, 0),
                Pos::new(2, 0),
                Pos::new(3, 0)
            ]
        );
        let d = crossed((0.5, 0.5), (2.5, 2.5));
        assert!(
            d.contains(&Pos::new(1, 1)) && d.ends_with(&[Pos::new(2, 2)]),
            "{d:?}"
        );
    }
}

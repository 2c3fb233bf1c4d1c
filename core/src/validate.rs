//! Whether an action is legal now (docs/RULES.md §5): a pure function of the state, which
//! changes nothing, runs no behaviour and asks no decision. [`Game::apply`] is validation, then
//! resolution; [`Game::legal_actions`] is built from validation alone.
//!
//! Nothing here reads what a face-down Blip holds: Blips are known by their square only, so
//! the answer is the same from the Heroes' view and the Overmind's.

use crate::action::{refuse, Action, ActionError};
use crate::content::Content;
use crate::game::Game;
use crate::geom::Pos;
use crate::id::Id;
use crate::los::LineOfSight;
use crate::map::Obstacles;
use crate::movement::{adjacent, shortest_path};
use crate::rules::Rules;
use crate::state::{ActionKind, GameState, Model, Objective, Side, Unit};
use crate::stats::Stats;
use crate::AttackKind;

/// The kind of activation action an action is, `None` for `End`.
#[must_use]
pub fn kind_of(action: &Action) -> Option<ActionKind> {
    Some(match action {
        Action::Move { .. } => ActionKind::Move,
        Action::Sprint { .. } => ActionKind::Sprint,
        Action::Shoot { .. } => ActionKind::Shoot,
        Action::Melee { .. } => ActionKind::Melee,
        Action::Overwatch { .. } => ActionKind::Overwatch,
        Action::Interact { .. } => ActionKind::Interact,
        Action::Flip { .. } => ActionKind::Flip,
        Action::End
        | Action::Perform { .. }
        | Action::Spawn { .. }
        | Action::Play { .. }
        | Action::Discard { .. }
        | Action::Interrupt { .. } => return None,
    })
}

/// What an action names: a Blip, or a unit and one of its models.
pub(crate) enum Actor<'s> {
    Blip(&'s str),
    Unit {
        unit: &'s Unit,
        model: &'s Model,
        /// The action named the model (`a3.2`), not the unit.
        named_model: bool,
    },
}

impl<'s> Actor<'s> {
    pub(crate) fn id(&self) -> Id {
        match self {
            Actor::Blip(b) => Id::from(*b),
            Actor::Unit { unit, .. } => unit.id,
        }
    }
}

/// Models of `unit` that could make a Melee attack on the square `at` (adjacent, in LOS, able
/// to fight, not Shaken by the target's unit).
pub(crate) fn fighters(
    st: &GameState,
    o: &Obstacles,
    unit: &Unit,
    at: Pos,
    target_unit: Option<&str>,
) -> Vec<Id> {
    unit.models
        .iter()
        .filter(|m| adjacent(&st.map, m.pos, at))
        .filter(|m| !m.status.knocked_down && !m.status.stunned)
        .filter(|m| target_unit.is_none() || m.status.shaken_by.as_deref() != target_unit)
        .filter(|m| st.rules.los.visible(&st.map, o, m.pos, at))
        .map(|m| m.id)
        .collect()
}

/// Models of `unit` that could make a Shoot attack on the square `at` (not adjacent, within
/// long range, in LOS, able to fight).
pub(crate) fn shooters(
    st: &GameState,
    content: &Content,
    o: &Obstacles,
    unit: &Unit,
    at: Pos,
) -> Vec<Id> {
    unit.models
        .iter()
        .filter(|m| !m.status.knocked_down && !m.status.stunned)
        .filter(|m| !adjacent(&st.map, m.pos, at) && m.pos != at)
        .filter(|m| {
            Stats::shoot_of(st, content, unit.side, m)
                .is_some_and(|s| m.pos.distance(at) <= s.max_range())
        })
        .filter(|m| st.rules.los.visible(&st.map, o, m.pos, at))
        .map(|m| m.id)
        .collect()
}

/// Who is acting: a Blip, or a unit and the model the action moves.
pub(crate) fn actor_of<'s>(
    st: &'s GameState,
    name: &str,
    side: Side,
) -> Result<Actor<'s>, ActionError> {
    if let Some(b) = st.blip(name) {
        if side != Side::Overmind {
            return refuse(format!("{name} is a Blip: only the Overmind moves Blips"));
        }
        return Ok(Actor::Blip(&b.id));
    }
    let (unit, model, named_model) = match st.find_model(name) {
        Some((u, m)) => (u, m, true),
        None => match st.unit(name) {
            Some(u) => match u.models.first() {
                Some(m) => (u, m, false),
                None => return refuse(format!("{name} has no models left")),
            },
            None => return refuse(format!("no unit, model or Blip named {name}")),
        },
    };
    if unit.side != side {
        return refuse(format!("{name} belongs to the {}", unit.side.name()));
    }
    if unit.extracted {
        return refuse(format!("{name} has left the map"));
    }
    Ok(Actor::Unit {
        unit,
        model,
        named_model,
    })
}

/// The first model of `unit` not yet moved in the current Move or Sprint action.
pub(crate) fn next_unmoved<'s>(st: &GameState, unit: &'s Unit) -> Option<&'s Model> {
    unit.models
        .iter()
        .find(|m| !st.moved_this_action.contains(&m.id))
}

/// Does this Move or Sprint move a further model within the unit's current action (a unit of
/// several models moves model by model in one action)?
pub(crate) fn continues_move(st: &GameState, actor: &Actor<'_>, kind: ActionKind) -> bool {
    let Actor::Unit {
        unit,
        model,
        named_model,
    } = actor
    else {
        return false;
    };
    if !matches!(kind, ActionKind::Move | ActionKind::Sprint)
        || st.active.as_deref() != Some(unit.id.as_str())
        || unit.used.last() != Some(&kind)
    {
        return false;
    }
    let model = if *named_model {
        Some(*model)
    } else {
        next_unmoved(st, unit)
    };
    model.is_some_and(|m| !st.moved_this_action.contains(&m.id))
}

/// The activation rules for starting an action of `kind` by `id` (docs/RULES.md §5.1): once per
/// round, up to two actions, which must differ.
fn check_start(st: &GameState, id: &str, kind: ActionKind) -> Result<(), ActionError> {
    let (activated, used) = match st.unit(id) {
        Some(u) => (u.activated, &u.used),
        None => match st.blip(id) {
            Some(b) => (b.activated, &b.used),
            None => return refuse(format!("no unit or Blip {id}")),
        },
    };
    let active = st.active.as_deref() == Some(id);
    if activated && !active {
        return refuse(format!("{id} has already activated this round"));
    }
    if active && crate::stats::no_action_left(st, used) {
        return refuse(format!("{id} has taken both its actions"));
    }
    if active && used.contains(&kind) {
        return refuse(format!(
            "{id} has already taken a {} action this activation; its two actions must differ",
            kind.name()
        ));
    }
    Ok(())
}

/// A move of up to `steps` from `from` to `to` through the waypoints `via`, each leg a
/// shortest legal path. Returns the whole path (start first).
pub(crate) fn plan_path(
    st: &GameState,
    o: &Obstacles,
    from: Pos,
    via: &[Pos],
    to: Pos,
    steps: u32,
    kind: ActionKind,
) -> Result<Vec<Pos>, ActionError> {
    let map = &st.map;
    for &p in via.iter().chain(std::iter::once(&to)) {
        if !map.in_bounds(p) {
            return refuse(format!(
                "{p} is off the map ({}x{})",
                map.width(),
                map.height()
            ));
        }
    }
    if via.len() > MAX_WAYPOINTS {
        return refuse(format!(
            "a move may name at most {MAX_WAYPOINTS} waypoints, found {}",
            via.len()
        ));
    }
    // Once the mover has left its square, later legs may cross it.
    let freed;
    let o = if via.is_empty() {
        o
    } else {
        let mut f = o.clone();
        f.remove(from);
        freed = f;
        &freed
    };
    let mut path = vec![from];
    let mut at = from;
    for &p in via.iter().chain(std::iter::once(&to)) {
        if p == at {
            continue;
        }
        // Squares already walked stay free for the mover (its own start square is), so a leg
        // may not cross back over the path: shortest legs never need to.
        let Some(leg) = shortest_path(map, o, at, p) else {
            return refuse(if p == to && via.is_empty() {
                format!("no legal path from {from} to {to}")
            } else {
                format!("no legal path from {at} to {p}")
            });
        };
        path.extend(leg.into_iter().skip(1));
        at = p;
    }
    let need = (path.len() - 1) as u32;
    if need > steps {
        return refuse(format!(
            "{to} is {need} squares away{}; a {} allows {steps}",
            if via.is_empty() { "" } else { " that way" },
            kind.name()
        ));
    }
    if need == 0 {
        return refuse(format!("already on {to}"));
    }
    Ok(path)
}

/// Most waypoints a Move or Sprint may name.
pub const MAX_WAYPOINTS: usize = 8;

impl Game {
    /// Whether `action` by the side to move is legal now, and if not, why. Pure: it changes
    /// nothing, runs no behaviour and no script, and asks no decision.
    ///
    /// # Errors
    /// The action is illegal now; the message says why, and never describes what a face-down
    /// Blip holds.
    pub fn validate(&self, content: &Content, action: &Action) -> Result<(), ActionError> {
        let Some(side) = self.to_move() else {
            return refuse("the game is over");
        };
        validate(&self.state, content, side, action)
    }

    /// [`Game::validate`] as a yes/no.
    #[must_use]
    pub fn is_legal(&self, content: &Content, action: &Action) -> bool {
        self.validate(content, action).is_ok()
    }
}

/// Validation of one action of `side` on `st` (see [`Game::validate`]).
pub(crate) fn validate(
    st: &GameState,
    content: &Content,
    side: Side,
    action: &Action,
) -> Result<(), ActionError> {
    if let Some(r) = crate::dev::validate(st, content, action) {
        return r;
    }
    if let Some(r) = crate::hand::validate(st, content, side, action) {
        return r;
    }
    let (Some(name), Some(kind)) = (action.actor(), kind_of(action)) else {
        return Ok(());
    };
    let actor = actor_of(st, name, side)?;
    if !continues_move(st, &actor, kind) {
        check_start(st, &actor.id(), kind)?;
    }
    crate::interrupt::check_actor(st, side, &actor.id())?;
    let o = st.cached_obstacles();
    let o: &Obstacles = &o;
    match (&actor, action) {
        (Actor::Blip(_), Action::Move { to, via, .. } | Action::Sprint { to, via, .. }) => {
            let Some(b) = st.blip(&actor.id()) else {
                return refuse("nothing to move");
            };
            let steps = if kind == ActionKind::Move {
                st.rules.blip_movement
            } else {
                Rules::sprint(st.rules.blip_movement)
            };
            plan_path(st, o, b.pos, via, *to, steps, kind).map(|_| ())
        }
        (Actor::Blip(_), Action::Flip { .. }) => Ok(()),
        (Actor::Blip(b), _) => refuse(format!("{b} is a Blip: it can Move, Sprint or Flip")),
        (
            Actor::Unit {
                unit,
                model,
                named_model,
            },
            Action::Move { to, via, .. } | Action::Sprint { to, via, .. },
        ) => {
            // A unit named without a model moves its next unmoved model within the action,
            // or its first model in a new action.
            let model = if *named_model || !continues_move(st, &actor, kind) {
                *model
            } else {
                next_unmoved(st, unit).unwrap_or(model)
            };
            if model.status.stunned {
                return refuse(format!(
                    "{} is Stunned: recover with an Interact action first",
                    model.id
                ));
            }
            if model.status.knocked_down {
                if kind == ActionKind::Sprint {
                    return refuse(format!(
                        "{} is Knocked Down: its next Move action is spent standing up",
                        model.id
                    ));
                }
                // The Move is spent standing up: it names the model's own square, so that
                // the listed Move and the accepted ones are the same one.
                if *to != model.pos || !via.is_empty() {
                    return refuse(format!(
                        "{} is Knocked Down: its Move is spent standing up where it lies, \
                         `move {} {}`",
                        model.id, name, model.pos
                    ));
                }
                return Ok(());
            }
            let movement = Stats::movement(st, content, unit.side, model);
            let steps = if kind == ActionKind::Move {
                movement
            } else {
                Rules::sprint(movement)
            };
            plan_path(st, o, model.pos, via, *to, steps, kind).map(|_| ())
        }
        (Actor::Unit { unit, .. }, Action::Shoot { target, .. } | Action::Melee { target, .. }) => {
            let attack = if kind == ActionKind::Shoot {
                AttackKind::Shoot
            } else {
                AttackKind::Melee
            };
            check_unit_attack(st, content, o, unit, target, attack)
        }
        (Actor::Unit { unit, .. }, Action::Overwatch { .. }) => {
            if unit
                .models
                .iter()
                .any(|m| Stats::shoot_of(st, content, unit.side, m).is_some())
            {
                Ok(())
            } else {
                refuse(format!("{} has no Shoot attack to Overwatch with", unit.id))
            }
        }
        (Actor::Unit { unit, model, .. }, Action::Interact { .. }) => {
            check_interact(st, content, unit, model)
        }
        (Actor::Unit { .. }, Action::Flip { unit }) => {
            refuse(format!("{unit} is not a Blip: only Blips Flip"))
        }
        (
            _,
            Action::End
            | Action::Perform { .. }
            | Action::Spawn { .. }
            | Action::Play { .. }
            | Action::Discard { .. }
            | Action::Interrupt { .. },
        ) => Ok(()),
    }
}

/// Where an attack's target stands and which unit it belongs to (`None` for a Blip).
pub(crate) fn target_of<'s>(
    st: &'s GameState,
    target: &str,
) -> Result<(Pos, Option<&'s Unit>, Id), ActionError> {
    if let Some(b) = st.blip(target) {
        return Ok((b.pos, None, b.id));
    }
    if let Some((u, m)) = st.find_model(target) {
        return Ok((m.pos, Some(u), m.id));
    }
    match st
        .unit(target)
        .and_then(|u| u.models.first().map(|m| (u, m)))
    {
        Some((u, m)) => Ok((m.pos, Some(u), m.id)),
        None => refuse(format!("no target named {target}")),
    }
}

/// A Shoot or Melee action of `unit` on `target` (docs/RULES.md §6.2).
fn check_unit_attack(
    st: &GameState,
    content: &Content,
    o: &Obstacles,
    unit: &Unit,
    target: &str,
    kind: AttackKind,
) -> Result<(), ActionError> {
    let (_, target_unit, _) = target_of(st, target)?;
    if unit
        .models
        .iter()
        .all(|m| m.status.knocked_down || m.status.stunned)
    {
        return refuse(format!(
            "{} must stand up or recover before it attacks",
            unit.id
        ));
    }
    if let Some(tu) = target_unit {
        if unit
            .models
            .iter()
            .all(|m| m.status.shaken_by.as_deref() == Some(tu.id.as_str()))
        {
            return refuse(format!(
                "{} is Shaken by {} and may not attack it this round",
                unit.id, tu.id
            ));
        }
    }
    check_attack(st, content, o, unit, target, kind)
}

/// Could `unit` make an attack of `kind` on `target` now? Also used for attacks a behaviour
/// makes and for Overwatch and Free Attacks.
pub(crate) fn check_attack(
    st: &GameState,
    content: &Content,
    o: &Obstacles,
    unit: &Unit,
    target: &str,
    kind: AttackKind,
) -> Result<(), ActionError> {
    let (at, target_unit, _) = target_of(st, target)?;
    match target_unit {
        Some(tu) if tu.side == unit.side => return refuse("cannot attack your own side"),
        None if unit.side == Side::Overmind => {
            return refuse("the Overmind cannot attack its own Blips")
        }
        _ => {}
    }
    let ok = match kind {
        AttackKind::Melee | AttackKind::FreeAttack => {
            !fighters(st, o, unit, at, target_unit.map(|u| u.id.as_str())).is_empty()
        }
        AttackKind::Shoot | AttackKind::Overwatch => !shooters(st, content, o, unit, at).is_empty(),
        AttackKind::Fear => true,
    };
    if ok {
        return Ok(());
    }
    let what = match kind {
        AttackKind::Melee | AttackKind::FreeAttack => {
            "no model of it is adjacent to the target with Line of Sight and able to fight"
        }
        _ => "no model of it can shoot the target (Line of Sight, range, not adjacent, able to fight)",
    };
    refuse(format!(
        "{} cannot attack {target} at {at}: {what}",
        unit.id
    ))
}

/// An Interact action (docs/RULES.md §5.2): recover from Stun, activate an objective, extract.
fn check_interact(
    st: &GameState,
    content: &Content,
    unit: &Unit,
    model: &Model,
) -> Result<(), ActionError> {
    if model.status.stunned {
        return Ok(());
    }
    let at = model.pos;
    if unit.side == Side::Heroes {
        match &st.objective {
            Objective::Interact { squares } if squares.contains(&at) => {
                if st.activated_objectives.contains(&at) {
                    return refuse(format!("the objective at {at} is already activated"));
                }
                return Ok(());
            }
            Objective::Extract { squares, .. } => {
                let ok = if squares.is_empty() {
                    st.map.terrain(at) == crate::map::Terrain::Yellow
                } else {
                    squares.contains(&at)
                };
                if ok {
                    return Ok(());
                }
            }
            _ => {}
        }
    }
    if interactive_tokens(st, content, at).next().is_some() {
        return Ok(());
    }
    refuse(format!("{} has nothing to interact with at {at}", model.id))
}

/// Tokens on `at` or next to it whose kind has an `interact` trigger (docs/RULES.md §14).
pub(crate) fn interactive_tokens<'s>(
    st: &'s GameState,
    content: &'s Content,
    at: Pos,
) -> impl Iterator<Item = &'s crate::token::Token> + 's {
    st.tokens.iter().filter(move |t| {
        t.carried_by.is_none()
            && (t.pos == at || crate::movement::adjacent(&st.map, at, t.pos))
            && content.triggers.iter().any(|tr| {
                tr.hook == crate::trigger::Hook::Interact
                    && tr.owner == crate::trigger::Owner::Token(t.kind)
            })
    })
}

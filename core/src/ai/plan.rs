//! What the greedy Hero and Overmind planners share: sight, attacks, steps towards a goal and
//! the next unit to act.

use crate::board::los::LineOfSight;
use crate::board::movement::{adjacent, Goal, GoalField};
use crate::data::action::Action;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::map::Obstacles;
use crate::data::state::{ActionKind, GameState, Side, Unit};
use crate::rules::content::Content;

pub(super) fn los(state: &GameState, o: &Obstacles, a: Pos, b: Pos) -> bool {
    state.rules.los.visible(&state.map, o, a, b)
}

pub(super) fn attack_action(
    state: &GameState,
    content: &Content,
    u: &Unit,
    o: &Obstacles,
    targets: &[(Id, Pos)],
) -> Option<Action> {
    if u.models
        .iter()
        .all(|m| m.status.knocked_down || m.status.stunned)
    {
        return None;
    }
    let shoot_range = |kind: &str| match u.side {
        Side::Heroes => content
            .heroes
            .get(kind)
            .and_then(|p| p.shoot)
            .map(|s| s.max_range()),
        Side::Overmind => content
            .aliens
            .get(kind)
            .and_then(|t| t.shoot)
            .map(|s| s.max_range()),
    };
    let melee_ok = !u.used.contains(&ActionKind::Melee);
    let shoot_ok = !u.used.contains(&ActionKind::Shoot);
    // Melee an adjacent enemy first, else shoot the nearest in range and sight.
    for model in &u.models {
        for (id, p) in targets {
            if melee_ok
                && adjacent(&state.map, model.pos, *p)
                && los(state, o, model.pos, *p)
                && model.status.shaken_by.is_none()
            {
                return Some(Action::Melee {
                    unit: u.id,
                    target: Id::from(&id),
                });
            }
        }
    }
    if shoot_ok {
        let mut best: Option<(u32, Id)> = None;
        for model in &u.models {
            let Some(r) = shoot_range(&model.kind) else {
                continue;
            };
            for (id, p) in targets {
                let d = model.pos.distance(*p);
                if d <= r
                    && !adjacent(&state.map, model.pos, *p)
                    && los(state, o, model.pos, *p)
                    && best.as_ref().is_none_or(|(bd, _)| d < *bd)
                {
                    best = Some((d, *id));
                }
            }
        }
        if let Some((_, id)) = best {
            return Some(Action::Shoot {
                unit: u.id,
                target: id,
            });
        }
    }
    None
}

thread_local! {
    /// Each side's distances to its goal, kept from one move to the next: a unit's models and a
    /// side's activations move towards the same goal while few squares change in between, so
    /// the field is brought up to date instead of searched afresh for every step of a plan.
    /// [`GoalField::towards`] answers exactly as `towards` does whatever was asked before, so
    /// keeping it per thread changes no choice.
    static FIELDS: std::cell::RefCell<[GoalField; 2]> =
        std::cell::RefCell::new([GoalField::new(), GoalField::new()]);
}

/// Move `model` up to `steps` towards `goal` (for `side`); `None` if it cannot get any closer.
pub(crate) fn step_towards(
    state: &GameState,
    o: &Obstacles,
    from: Pos,
    goal: &Goal,
    steps: u32,
    side: Side,
) -> Option<Pos> {
    let t = FIELDS.with(|f| {
        let slot = match side {
            Side::Heroes => 0,
            Side::Overmind => 1,
        };
        f.borrow_mut()[slot].towards(&state.map, o, from, goal, steps)
    });
    let end = *t.ends.first()?;
    (t.steps > 0 && end != from).then_some(end)
}

/// The active unit's next action, else the first unit (in `order`) with something to do;
/// `End` when nothing is left worth doing. A unit with nothing to do is skipped, not ended,
/// since `End` with no activation under way ends the whole phase.
pub(crate) fn next_of<'a>(
    state: &'a GameState,
    order: impl Iterator<Item = &'a str>,
    mut plan: impl FnMut(&'a str) -> Option<Action>,
) -> Action {
    if let Some(id) = state.active.as_deref() {
        return plan(id).unwrap_or(Action::End);
    }
    order.filter_map(&mut plan).next().unwrap_or(Action::End)
}

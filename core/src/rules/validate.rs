//! Whether an action is legal now (docs/RULES.md §5): a pure function of the state, which
//! changes nothing, runs no behaviour and asks no decision. [`Game::apply`] is validation, then
//! resolution; [`Game::legal_actions`] is built from validation alone.
//!
//! Nothing here reads what a face-down Blip holds: Blips are known by their square only, so
//! the answer is the same from the Heroes' view and the Overmind's.

use crate::board::los::base_visible;
use crate::board::movement::{base_adjacent, shortest_path};
use crate::data::action::{refuse, Action, Refusal, RefusalKind};
use crate::data::event::AttackKind;
use crate::data::geom::base_distance;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::map::Obstacles;
use crate::data::settings::Rules;
use crate::data::state::{ActionKind, GameState, Model, Objective, Side, Unit};
use crate::rules::content::Content;
use crate::rules::game::Game;
use crate::rules::stats::Stats;

/// The kind of activation action an action is, `None` for `End`.
#[must_use]
pub fn kind_of(action: &Action) -> Option<ActionKind> {
    Some(match action {
        Action::Move { .. } => ActionKind::Move,
        Action::Sprint { .. } => ActionKind::Sprint,
        Action::Shoot { .. } => ActionKind::Shoot,
        Action::Melee { .. } => ActionKind::Melee,
        Action::Overwatch { .. } => ActionKind::Overwatch,
        Action::Interact { .. } | Action::DestroyWall { .. } => ActionKind::Interact,
        Action::Flip { .. } => ActionKind::Flip,
        Action::End
        | Action::Deploy
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
    let big = xxl_at(st, at);
    unit.models
        .iter()
        .filter(|m| base_adjacent(&st.map, m.pos, m.xxl, at, big))
        .filter(|m| !m.status.knocked_down && !m.status.stunned)
        .filter(|m| target_unit.is_none() || m.status.shaken_by.as_deref() != target_unit)
        .filter(|m| base_visible(&st.rules.los, &st.map, o, m.pos, m.xxl, at, big))
        .map(|m| m.id)
        .collect()
}

/// Is `at` the position (top-left square) of an XXL model (docs/RULES.md §4.4)? Attacks,
/// ranges and sight aimed at it then count every square of its base.
pub(crate) fn xxl_at(st: &GameState, at: Pos) -> bool {
    st.units
        .iter()
        .any(|u| u.models.iter().any(|m| m.xxl && m.pos == at))
}

/// The distance from `m`'s base to what stands on `at` (its base, if an XXL model's).
pub(crate) fn reach(st: &GameState, m: &Model, at: Pos) -> u32 {
    if !m.xxl && !xxl_at(st, at) {
        return m.pos.distance(at);
    }
    base_distance(m.pos, m.xxl, at, xxl_at(st, at))
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
    let big = xxl_at(st, at);
    unit.models
        .iter()
        .filter(|m| !m.status.knocked_down && !m.status.stunned)
        .filter(|m| !base_adjacent(&st.map, m.pos, m.xxl, at, big) && m.pos != at)
        .filter(|m| {
            Stats::shoot_of(st, content, unit.side, m)
                .is_some_and(|s| reach(st, m, at) <= s.max_range())
        })
        .filter(|m| base_visible(&st.rules.los, &st.map, o, m.pos, m.xxl, at, big))
        .map(|m| m.id)
        .collect()
}

/// Who is acting: a Blip, or a unit and the model the action moves.
pub(crate) fn actor_of<'s>(
    st: &'s GameState,
    name: &str,
    side: Side,
) -> Result<Actor<'s>, Refusal> {
    if let Some(b) = st.blip(name) {
        if side != Side::Overmind {
            return refuse(
                RefusalKind::NotYours,
                format!("{name} is a Blip: only the Overmind moves Blips"),
            );
        }
        return Ok(Actor::Blip(&b.id));
    }
    let (unit, model, named_model) = match st.find_model(name) {
        Some((u, m)) => (u, m, true),
        None => match st.unit(name) {
            Some(u) => match u.models.first() {
                Some(m) => (u, m, false),
                None => return refuse(RefusalKind::Gone, format!("{name} has no models left")),
            },
            None => {
                return refuse(
                    RefusalKind::Unknown,
                    format!("no unit, model or Blip named {name}"),
                )
            }
        },
    };
    if unit.side != side {
        return refuse(
            RefusalKind::NotYours,
            format!("{name} belongs to the {}", unit.side.name()),
        );
    }
    if unit.extracted {
        return refuse(RefusalKind::Gone, format!("{name} has left the map"));
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
fn check_start(st: &GameState, id: &str, kind: ActionKind) -> Result<(), Refusal> {
    let (activated, used) = match st.unit(id) {
        Some(u) => (u.activated, &u.used),
        None => match st.blip(id) {
            Some(b) => (b.activated, &b.used),
            None => return refuse(RefusalKind::Unknown, format!("no unit or Blip {id}")),
        },
    };
    let active = st.active.as_deref() == Some(id);
    if activated && !active {
        return refuse(
            RefusalKind::AlreadyActivated,
            format!("{id} has already activated this round"),
        );
    }
    if active && crate::rules::stats::no_action_left(st, used) {
        return refuse(
            RefusalKind::NoActionLeft,
            format!("{id} has taken both its actions"),
        );
    }
    if active && used.contains(&kind) {
        return refuse(
            RefusalKind::SameAction,
            format!(
                "{id} has already taken a {} action this activation; its two actions must differ",
                kind.name()
            ),
        );
    }
    Ok(())
}

/// A move of up to `steps` from `from` to `to` through the waypoints `via`, each leg a
/// shortest legal path (`xxl`: of a 2×2 base, its top-left squares, docs/RULES.md §4.4).
/// Returns the whole path (start first).
#[allow(clippy::too_many_arguments)]
pub(crate) fn plan_path(
    st: &GameState,
    o: &Obstacles,
    from: Pos,
    via: &[Pos],
    to: Pos,
    steps: u32,
    kind: ActionKind,
    xxl: bool,
) -> Result<Vec<Pos>, Refusal> {
    let map = &st.map;
    for &p in via.iter().chain(std::iter::once(&to)) {
        if !map.in_bounds(p) {
            return refuse(
                RefusalKind::Path,
                format!("{p} is off the map ({}x{})", map.width(), map.height()),
            );
        }
    }
    if via.len() > MAX_WAYPOINTS {
        return refuse(
            RefusalKind::Path,
            format!(
                "a move may name at most {MAX_WAYPOINTS} waypoints, found {}",
                via.len()
            ),
        );
    }
    // Once the mover has left its square, later legs may cross it.
    let freed;
    let o = if via.is_empty() {
        o
    } else {
        let mut f = o.clone();
        for p in crate::data::geom::footprint(from, xxl) {
            f.remove(p);
        }
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
        let leg = if xxl {
            crate::board::movement::block_path(map, o, at, p)
        } else {
            shortest_path(map, o, at, p)
        };
        let Some(leg) = leg else {
            return refuse(
                RefusalKind::Path,
                if p == to && via.is_empty() {
                    format!("no legal path from {from} to {to}")
                } else {
                    format!("no legal path from {at} to {p}")
                },
            );
        };
        path.extend(leg.into_iter().skip(1));
        at = p;
    }
    let need = (path.len() - 1) as u32;
    if need > steps {
        return refuse(
            RefusalKind::Path,
            format!(
                "{to} is {need} squares away{}; a {} allows {steps}",
                if via.is_empty() { "" } else { " that way" },
                kind.name()
            ),
        );
    }
    if need == 0 {
        return refuse(RefusalKind::Path, format!("already on {to}"));
    }
    Ok(path)
}

/// [`plan_path`], and when `options` and there are no waypoints, every other shortest path
/// to the same square from the same one search (the Overmind's choice).
#[allow(clippy::too_many_arguments)]
fn plan_paths(
    st: &GameState,
    o: &Obstacles,
    from: Pos,
    via: &[Pos],
    to: Pos,
    steps: u32,
    kind: ActionKind,
    options: bool,
    xxl: bool,
) -> Result<(Vec<Pos>, Vec<Vec<Pos>>), Refusal> {
    if !options || !via.is_empty() || !st.map.in_bounds(to) || from == to || xxl {
        return plan_path(st, o, from, via, to, steps, kind, xxl).map(|p| (p, Vec::new()));
    }
    let mut all = crate::board::movement::shortest_paths(
        &st.map,
        o,
        from,
        to,
        crate::board::movement::MAX_PATH_OPTIONS,
    );
    if all.is_empty() {
        return refuse(
            RefusalKind::Path,
            format!("no legal path from {from} to {to}"),
        );
    }
    let path = all.remove(0);
    let need = (path.len() - 1) as u32;
    if need > steps {
        return refuse(
            RefusalKind::Path,
            format!(
                "{to} is {need} squares away; a {} allows {steps}",
                kind.name()
            ),
        );
    }
    if all.is_empty() || path.len() < 3 {
        return Ok((path, Vec::new()));
    }
    all.insert(0, path.clone());
    Ok((path, all))
}

/// Most waypoints a Move or Sprint may name.
pub const MAX_WAYPOINTS: usize = 8;

/// An action validation accepted, with what validation found (the actor, the model, the
/// path, the target) for resolution to carry out without working any of it out again
/// (shakmaty's `play_unchecked`). Only [`Game::check`] makes one, and it holds for the state
/// it was checked on: [`Game::play`] checks again if the game has moved on since.
#[derive(Clone, Debug)]
pub struct Checked {
    pub(crate) side: Side,
    pub(crate) action: Action,
    pub(crate) plan: Plan,
    /// Where the game stood when this was checked: actions taken, events logged, dice drawn.
    pub(crate) at: (usize, usize, u128),
}

impl Checked {
    /// The action checked.
    #[must_use]
    pub fn action(&self) -> &Action {
        &self.action
    }

    /// The side whose action it is.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }
}

/// What resolution does with a checked action.
#[derive(Clone, Debug)]
pub(crate) enum Plan {
    /// `End`, a card, an interruption or an author tool: resolved from the action itself.
    Action,
    /// A Blip's Move or Sprint along `path`; `paths` are the other shortest paths the
    /// Overmind may choose among (empty when there is no choice to make).
    BlipMove {
        blip: Id,
        kind: ActionKind,
        path: Vec<Pos>,
        paths: Vec<Vec<Pos>>,
    },
    /// A model's Move or Sprint; `continuing` when it moves a further model of the unit in the
    /// same action.
    ModelMove {
        unit: Id,
        model: Id,
        kind: ActionKind,
        continuing: bool,
        step: Step,
    },
    /// A Shoot or Melee action of `unit` on the model or Blip `target`.
    Attack {
        unit: Id,
        target: Id,
        kind: ActionKind,
    },
    /// A Shoot or Melee action of `unit` on the Hazard token `token`, made by `models`.
    HazardAttack {
        unit: Id,
        token: Id,
        kind: AttackKind,
        models: Vec<Id>,
    },
    Overwatch {
        unit: Id,
    },
    Interact {
        unit: Id,
        model: Id,
    },
    /// Destroy Wall: `model` destroys one of `walls` (docs/RULES.md §5.4).
    DestroyWall {
        unit: Id,
        model: Id,
        walls: Vec<crate::rules::wall::Breach>,
    },
    Flip {
        blip: Id,
    },
}

/// How a model's Move goes.
#[derive(Clone, Debug)]
pub(crate) enum Step {
    /// A Knocked Down model spends the Move standing up.
    StandUp,
    /// Along `path` (start first); `paths` as in [`Plan::BlipMove`].
    Path {
        path: Vec<Pos>,
        paths: Vec<Vec<Pos>>,
    },
}

impl Game {
    /// Check `action` by the side to move against the rules now: the checked plan that
    /// [`Game::play`] carries out, or why it is refused. Pure: it changes nothing, runs no
    /// behaviour and no script, and asks no decision.
    ///
    /// # Errors
    /// The action is illegal now; the refusal names the rule and the reason that applies, and
    /// never describes what a face-down Blip holds.
    pub fn check(&self, content: &Content, action: &Action) -> Result<Checked, Refusal> {
        let Some(side) = self.to_move() else {
            return refuse(RefusalKind::GameOver, "the game is over");
        };
        let plan = validate(&self.state, content, side, action, Paths::All)?;
        Ok(Checked {
            side,
            action: action.clone(),
            plan,
            at: self.moment(),
        })
    }

    /// Whether `action` by the side to move is legal now, and if not, why ([`Game::check`]
    /// without keeping the plan).
    ///
    /// # Errors
    /// The action is illegal now; the refusal says why.
    pub fn validate(&self, content: &Content, action: &Action) -> Result<(), Refusal> {
        let Some(side) = self.to_move() else {
            return refuse(RefusalKind::GameOver, "the game is over");
        };
        validate(&self.state, content, side, action, Paths::One).map(|_| ())
    }

    /// Where the game stands, as a [`Checked`] remembers it: a plan is played unchecked only
    /// on the game, at the moment, it was checked on.
    pub(crate) fn moment(&self) -> (usize, usize, u128) {
        (
            self.record.len(),
            self.log.len(),
            self.state.rng.get_word_pos(),
        )
    }

    /// [`Game::validate`] as a yes/no.
    #[must_use]
    pub fn is_legal(&self, content: &Content, action: &Action) -> bool {
        self.validate(content, action).is_ok()
    }
}

/// Whether `side` may take `action` on `st` now (for planners working on a state they hold).
#[must_use]
pub fn is_legal_for(st: &GameState, content: &Content, side: Side, action: &Action) -> bool {
    validate(st, content, side, action, Paths::One).is_ok()
}

/// Whether validation lists the Overmind's other shortest paths (for resolution to offer) or
/// only proves one exists (a legality question).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Paths {
    One,
    All,
}

/// Validation of one action of `side` on `st` (see [`Game::validate`]).
pub(crate) fn validate(
    st: &GameState,
    content: &Content,
    side: Side,
    action: &Action,
    paths: Paths,
) -> Result<Plan, Refusal> {
    // Deployment by the rules comes before everything (docs/RULES.md §7.2).
    match (&st.deploying, action) {
        (Some(_), Action::Deploy) => return Ok(Plan::Action),
        (Some(_), _) => {
            return refuse(
                RefusalKind::Deployment,
                "the units are not deployed yet: deploy first",
            )
        }
        (None, Action::Deploy) => {
            return refuse(RefusalKind::Deployment, "there is nothing to deploy")
        }
        (None, _) => {}
    }
    if let Some(r) = crate::rules::dev::validate(st, content, action) {
        return r.map(|()| Plan::Action);
    }
    if let Some(r) = crate::rules::hand::validate(st, content, side, action) {
        return r.map(|()| Plan::Action);
    }
    let (Some(name), Some(kind)) = (action.actor(), kind_of(action)) else {
        return Ok(Plan::Action);
    };
    let actor = actor_of(st, name, side)?;
    let continuing = continues_move(st, &actor, kind);
    if !continuing {
        check_start(st, &actor.id(), kind)?;
    }
    // "End the active Hero's activation first" is said only of an action that is otherwise
    // legal: any other reason is the one that applies.
    let wait = match crate::rules::interrupt::check_actor(st, side, &actor.id()) {
        Err(r) if r.kind == RefusalKind::EndActivationFirst => Some(r),
        Err(r) => return Err(r),
        Ok(()) => None,
    };
    let plan = plan_action(
        st, content, side, &actor, action, kind, continuing, paths, name,
    )?;
    match wait {
        Some(r) => Err(r),
        None => Ok(plan),
    }
}

/// The plan of a unit's or Blip's action once the activation rules allow it.
#[allow(clippy::too_many_arguments)]
fn plan_action(
    st: &GameState,
    content: &Content,
    side: Side,
    actor: &Actor<'_>,
    action: &Action,
    kind: ActionKind,
    continuing: bool,
    paths: Paths,
    name: &str,
) -> Result<Plan, Refusal> {
    let o = st.cached_obstacles();
    let o: &Obstacles = &o;
    // The Overmind chooses among equal shortest paths (docs/RULES.md §4.2).
    let options = paths == Paths::All && side == Side::Overmind;
    match (actor, action) {
        (Actor::Blip(_), Action::Move { to, via, .. } | Action::Sprint { to, via, .. }) => {
            let Some(b) = st.blip(&actor.id()) else {
                return refuse(RefusalKind::Gone, "nothing to move");
            };
            let steps = if kind == ActionKind::Move {
                st.rules.blip_movement
            } else {
                Rules::sprint(st.rules.blip_movement)
            };
            let (path, paths) = plan_paths(st, o, b.pos, via, *to, steps, kind, options, false)?;
            Ok(Plan::BlipMove {
                blip: b.id,
                kind,
                path,
                paths,
            })
        }
        (Actor::Blip(b), Action::Flip { .. }) => Ok(Plan::Flip { blip: Id::from(*b) }),
        (Actor::Blip(b), _) => refuse(
            RefusalKind::Unable,
            format!("{b} is a Blip: it can Move, Sprint or Flip"),
        ),
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
            let model = if *named_model || !continuing {
                *model
            } else {
                next_unmoved(st, unit).unwrap_or(model)
            };
            if model.status.stunned {
                return refuse(
                    RefusalKind::Status,
                    format!(
                        "{} is Stunned: recover with an Interact action first",
                        model.id
                    ),
                );
            }
            if model.status.knocked_down {
                if kind == ActionKind::Sprint {
                    return refuse(
                        RefusalKind::Status,
                        format!(
                            "{} is Knocked Down: its next Move action is spent standing up",
                            model.id
                        ),
                    );
                }
                // The Move is spent standing up: it names the model's own square, so that
                // the listed Move and the accepted ones are the same one.
                if *to != model.pos || !via.is_empty() {
                    return refuse(
                        RefusalKind::Status,
                        format!(
                            "{} is Knocked Down: its Move is spent standing up where it lies, \
                         `move {} {}`",
                            model.id, name, model.pos
                        ),
                    );
                }
                return Ok(Plan::ModelMove {
                    unit: unit.id,
                    model: model.id,
                    kind,
                    continuing,
                    step: Step::StandUp,
                });
            }
            let movement = Stats::movement(st, content, unit.side, model);
            let steps = if kind == ActionKind::Move {
                movement
            } else {
                Rules::sprint(movement)
            };
            let (path, paths) =
                plan_paths(st, o, model.pos, via, *to, steps, kind, options, model.xxl)?;
            Ok(Plan::ModelMove {
                unit: unit.id,
                model: model.id,
                kind,
                continuing,
                step: Step::Path { path, paths },
            })
        }
        (Actor::Unit { unit, .. }, Action::Shoot { target, .. } | Action::Melee { target, .. }) => {
            let attack = if kind == ActionKind::Shoot {
                AttackKind::Shoot
            } else {
                AttackKind::Melee
            };
            // A Hazard token, when no unit, model or Blip has that name (docs/RULES.md §14.1).
            if target_of(st, target).is_err() {
                if let Some(token) = crate::rules::hazard::hazard_token(st, content, target) {
                    let models = crate::rules::hazard::check_hazard_attack(
                        st, content, o, unit, token, attack,
                    )?;
                    return Ok(Plan::HazardAttack {
                        unit: unit.id,
                        token: token.id,
                        kind: attack,
                        models,
                    });
                }
            }
            check_unit_attack(st, content, o, unit, target, attack)?;
            let (_, _, target) = target_of(st, target)?;
            Ok(Plan::Attack {
                unit: unit.id,
                target,
                kind,
            })
        }
        (Actor::Unit { unit, .. }, Action::Overwatch { .. }) => {
            if unit
                .models
                .iter()
                .any(|m| Stats::shoot_of(st, content, unit.side, m).is_some())
            {
                Ok(Plan::Overwatch { unit: unit.id })
            } else {
                refuse(
                    RefusalKind::Unable,
                    format!("{} has no Shoot attack to Overwatch with", unit.id),
                )
            }
        }
        (Actor::Unit { unit, model, .. }, Action::Interact { .. }) => {
            check_interact(st, content, unit, model)?;
            Ok(Plan::Interact {
                unit: unit.id,
                model: model.id,
            })
        }
        (
            Actor::Unit {
                unit,
                model,
                named_model,
            },
            Action::DestroyWall { .. },
        ) => {
            // The model named, or the unit's first XXL model.
            let model = if model.xxl || *named_model {
                *model
            } else {
                unit.models.iter().find(|m| m.xxl).unwrap_or(model)
            };
            let walls = crate::rules::wall::check(st, model)?;
            Ok(Plan::DestroyWall {
                unit: unit.id,
                model: model.id,
                walls,
            })
        }
        (Actor::Unit { .. }, Action::Flip { unit }) => refuse(
            RefusalKind::Unable,
            format!("{unit} is not a Blip: only Blips Flip"),
        ),
        (
            _,
            Action::End
            | Action::Deploy
            | Action::Perform { .. }
            | Action::Spawn { .. }
            | Action::Play { .. }
            | Action::Discard { .. }
            | Action::Interrupt { .. },
        ) => Ok(Plan::Action),
    }
}

/// Where an attack's target stands and which unit it belongs to (`None` for a Blip).
pub(crate) fn target_of<'s>(
    st: &'s GameState,
    target: &str,
) -> Result<(Pos, Option<&'s Unit>, Id), Refusal> {
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
        None => refuse(RefusalKind::Unknown, format!("no target named {target}")),
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
) -> Result<(), Refusal> {
    let (_, target_unit, _) = target_of(st, target)?;
    if unit
        .models
        .iter()
        .all(|m| m.status.knocked_down || m.status.stunned)
    {
        return refuse(
            RefusalKind::Status,
            format!("{} must stand up or recover before it attacks", unit.id),
        );
    }
    if let Some(tu) = target_unit {
        if unit
            .models
            .iter()
            .all(|m| m.status.shaken_by.as_deref() == Some(tu.id.as_str()))
        {
            return refuse(
                RefusalKind::Status,
                format!(
                    "{} is Shaken by {} and may not attack it this round",
                    unit.id, tu.id
                ),
            );
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
) -> Result<(), Refusal> {
    let (at, target_unit, _) = target_of(st, target)?;
    match target_unit {
        Some(tu) if tu.side == unit.side => {
            return refuse(RefusalKind::Target, "cannot attack your own side")
        }
        None if unit.side == Side::Overmind => {
            return refuse(
                RefusalKind::Target,
                "the Overmind cannot attack its own Blips",
            )
        }
        _ => {}
    }
    let ok = match kind {
        AttackKind::Melee | AttackKind::FreeAttack => {
            !fighters(st, o, unit, at, target_unit.map(|u| u.id.as_str())).is_empty()
        }
        AttackKind::Shoot | AttackKind::Overwatch => !shooters(st, content, o, unit, at).is_empty(),
        // Fear and Psychic attacks need no Line of Sight here: the behaviour or ability that
        // makes them says who (docs/RULES.md §6.7, §6.8).
        AttackKind::Fear | AttackKind::Psychic => true,
    };
    if ok {
        return Ok(());
    }
    let (_, _, target_model) = target_of(st, target)?;
    let why = why_no_attack(st, content, o, unit, target, kind)
        .unwrap_or_else(|| format!("{} cannot attack {target_model} at {at}", unit.id));
    refuse(RefusalKind::Target, why)
}

/// Why no model of `unit` can make an attack of `kind` on `target` now: each model's reason,
/// the first that applies to it (Shaken, Stunned, Knocked Down, not adjacent, no gun,
/// adjacent, out of range, no Line of Sight), or `None` when one of them can.
pub(crate) fn why_no_attack(
    st: &GameState,
    content: &Content,
    o: &Obstacles,
    unit: &Unit,
    target: &str,
    kind: AttackKind,
) -> Option<String> {
    let (at, target_unit, target_model) = target_of(st, target).ok()?;
    let who = unit.id;
    if let Some(tu) = target_unit.filter(|tu| tu.side == unit.side) {
        let whose = match tu.side {
            Side::Overmind => "the Overmind's own side",
            Side::Heroes => "the Heroes' own side",
        };
        return Some(format!(
            "{who} cannot attack {target_model}: it is on {whose}"
        ));
    }
    let target_unit = target_unit.map(|u| u.id);
    let melee = matches!(kind, AttackKind::Melee | AttackKind::FreeAttack);
    let mut reasons = Vec::new();
    for m in &unit.models {
        let (id, pos, status) = (m.id, m.pos, &m.status);
        let shoot = Stats::shoot_of(st, content, unit.side, m);
        let d = reach(st, m, at);
        let big = xxl_at(st, at);
        let why = if melee && target_unit.is_some() && status.shaken_by == target_unit {
            format!(
                "{id} is Shaken by {} and may not attack it this round",
                target_unit.unwrap_or_default()
            )
        } else if status.stunned {
            format!("{id} is Stunned")
        } else if status.knocked_down {
            format!("{id} is Knocked Down")
        } else if melee && !base_adjacent(&st.map, pos, m.xxl, at, big) {
            if d == 1 {
                format!("a wall stands between {id} and {target_model}")
            } else {
                format!("{id} is {d} squares from {target_model}, not adjacent")
            }
        } else if !melee && shoot.is_none() {
            format!("{id} has no Shoot attack")
        } else if !melee && (base_adjacent(&st.map, pos, m.xxl, at, big) || pos == at) {
            format!("{id} is adjacent to {target_model} (no Shoot attack in Melee Combat)")
        } else if let Some(s) = shoot.filter(|s| !melee && d > s.max_range()) {
            format!(
                "{id} is {d} squares from {target_model}, beyond its range {}",
                s.max_range()
            )
        } else if !base_visible(&st.rules.los, &st.map, o, pos, m.xxl, at, big) {
            format!("{id} has no Line of Sight to {target_model}")
        } else {
            continue;
        };
        reasons.push(why);
    }
    if reasons.is_empty() {
        return None;
    }
    Some(format!(
        "{who} cannot attack {target_model} at {at}: {}",
        reasons.join("; ")
    ))
}

/// An Interact action (docs/RULES.md §5.2): recover from Stun, activate an objective, extract.
fn check_interact(
    st: &GameState,
    content: &Content,
    unit: &Unit,
    model: &Model,
) -> Result<(), Refusal> {
    if model.status.stunned {
        return Ok(());
    }
    let at = model.pos;
    if unit.side == Side::Heroes {
        match &st.objective {
            Objective::Interact { squares } if squares.contains(&at) => {
                if st.activated_objectives.contains(&at) {
                    return refuse(
                        RefusalKind::Unable,
                        format!("the objective at {at} is already activated"),
                    );
                }
                return Ok(());
            }
            Objective::Extract { squares, .. } => {
                let ok = if squares.is_empty() {
                    st.map.terrain(at) == crate::data::map::Terrain::Yellow
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
    if interactive_tokens(st, content, at, model.id)
        .next()
        .is_some()
    {
        return Ok(());
    }
    refuse(
        RefusalKind::Unable,
        format!("{} has nothing to interact with at {at}", model.id),
    )
}

/// Tokens whose kind has an `interact` trigger that `model` on `at` reaches (docs/RULES.md
/// §14): those lying on `at` or next to it, and the items it carries (§16).
pub(crate) fn interactive_tokens<'s>(
    st: &'s GameState,
    content: &'s Content,
    at: Pos,
    model: Id,
) -> impl Iterator<Item = &'s crate::data::token::Token> + 's {
    st.tokens.iter().filter(move |t| {
        let reached = match t.carried_by {
            Some(carrier) => carrier == model,
            None => t.pos == at || crate::board::movement::adjacent(&st.map, at, t.pos),
        };
        reached
            && content.triggers.iter().any(|tr| {
                tr.hook == crate::data::hook::Hook::Interact
                    && tr.owner == crate::data::hook::Owner::Token(t.kind)
            })
    })
}

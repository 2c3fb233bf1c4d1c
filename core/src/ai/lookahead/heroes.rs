//! The Heroes' turn at `standard` and `strong`: a one-action look-ahead over each Hero's
//! candidates, scored from the Heroes' view.

use super::bare::{Bare, Near};
use super::odds::with_odds;
use crate::ai::{Level, Player};
use crate::board::los::LineOfSight;
use crate::board::movement::adjacent;
use crate::data::action::Action;
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::map::Obstacles;
use crate::data::state::{ActionKind, GameState, Objective, Side, Unit};
use crate::data::view::View;
use crate::rules::content::Content;
use crate::rules::stats::Stats;

/// The Heroes' turn at `standard` and `strong`, from the Heroes' view only (never a face-down
/// Blip's contents): each Hero's next action is chosen by a one-action look-ahead over its
/// candidates (an attack, a move to each reachable square with the attack or Overwatch that
/// could follow there, Overwatch, a Sprint once moved), each scored by what it is expected to
/// do to the aliens (exact dice odds; wounded and nearly dead units first) and by where it
/// leaves the Hero: the damage the revealed aliens can bring to that square next phase (the
/// models that can reach it, whether it is their nearest Hero, red and green squares), the
/// face-down Blips near it and those it would reveal within their reach, and how far it is
/// from what is left to find (more so as the round limit nears). The Hero with the best attack
/// from where it stands acts first. A search over determinized copies of the Heroes' view
/// (face-down Blips given contents sampled from what the Heroes had seen, played on by the
/// greedy AIs) was tried for `strong` and lost more games (docs/BENCHMARKS.md), so `strong`
/// plays the Heroes as `standard` does.
#[derive(Clone)]
pub struct HeroPlanner {
    level: Level,
    /// What was last worked out about the aliens (see [`FoeSide`]).
    foes: Option<std::rc::Rc<FoeSide>>,
}

impl std::fmt::Debug for HeroPlanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeroPlanner")
            .field("level", &self.level)
            .finish_non_exhaustive()
    }
}

impl HeroPlanner {
    #[must_use]
    pub fn new(level: Level) -> HeroPlanner {
        HeroPlanner { level, foes: None }
    }
}

impl Player for HeroPlanner {
    fn next_action(&mut self, view: View<'_>, content: &Content) -> Action {
        let _ = self.level;
        let state = view.state();
        let scene = Scene::of(state, content, &mut self.foes);
        if let Some(id) = state.active.as_deref() {
            return state
                .unit(id)
                .and_then(|u| scene.best(u))
                .map_or(Action::End, |p| p.action);
        }
        let ready: Vec<&Unit> = state
            .units
            .iter()
            .filter(|u| u.side == Side::Heroes && u.alive() && !u.extracted && !u.activated)
            .collect();
        // The Hero with the best attack from where it stands goes first.
        let mut first: Option<(f64, usize)> = None;
        for (i, u) in ready.iter().enumerate() {
            let Some(m) = u.models.first() else { continue };
            if m.status.knocked_down || m.status.stunned {
                continue;
            }
            let Some(s) = scene.stats(m) else { continue };
            let aims = scene.aims(&s);
            if let Some((v, _, _)) =
                scene.best_attack(m.pos, &aims, true, true, m.status.shaken_by, false)
            {
                if first.is_none_or(|(b, _)| v > b + 1e-9) {
                    first = Some((v, i));
                }
            }
        }
        let order = first
            .map(|(_, i)| i)
            .into_iter()
            .chain((0..ready.len()).filter(|&i| first.is_none_or(|(_, f)| f != i)));
        for i in order {
            if let Some(p) = scene.best(ready[i]) {
                return p.action;
            }
        }
        Action::End
    }
}

/// A candidate action and its score over ending the activation where the Hero stands.
#[derive(Clone, Debug)]
struct Plan {
    action: Action,
    gain: f64,
}

/// A revealed alien model as the Heroes see it.
struct Foe {
    pos: Pos,
    movement: u32,
    melee: u32,
    shoot: Option<crate::data::profile::Shoot>,
    /// Knocked Down or Stunned: attacks only where it lies.
    down: bool,
    /// Steps from the model to the squares near it.
    near: std::rc::Rc<Near>,
}

/// A Hero's numbers now.
#[derive(Clone, Copy)]
struct HeroStats {
    movement: u32,
    melee: u32,
    defence: u32,
    shoot: Option<crate::data::profile::Shoot>,
}

/// Something a Hero may attack: an alien model or a face-down Blip.
struct Target {
    /// The id to name in the action.
    id: Id,
    /// The unit (the Blip itself for a Blip): a Shaken Hero may not attack its cause.
    unit: Id,
    pos: Pos,
    defence: u32,
    /// The unit's models in the order hits reach them (the target first, then the wounded):
    /// Health, and what killing each is worth beyond it.
    victims: Vec<(u32, f64)>,
    /// Worth of killing them all (winning the game, for the last unit).
    wipe: f64,
    /// Worth of any attack on it (revealing a face-down Blip).
    bonus: f64,
}

/// Attack Combat Values and Defences whose values a [`Scene`] keeps.
const VALUE_CV: usize = 12;
const VALUE_DEF: usize = 8;

/// One Hero's attack values on the targets: by Shoot band, by Melee, by Overwatch.
struct Aims<'s, 'a> {
    scene: &'s Scene<'a>,
    shoot: Option<crate::data::profile::Shoot>,
    melee: u32,
}

impl Aims<'_, '_> {
    fn value(&self, k: usize, cv: u32, shooting: bool) -> f64 {
        if cv == 0 {
            0.0
        } else {
            self.scene.attack_value(cv, None, k, shooting)
        }
    }

    fn short(&self, k: usize) -> f64 {
        self.shoot.map_or(0.0, |s| self.value(k, s.short.cv, true))
    }

    fn long(&self, k: usize) -> f64 {
        self.shoot.map_or(0.0, |s| self.value(k, s.long.cv, true))
    }

    fn melee(&self, k: usize) -> f64 {
        self.value(k, self.melee, false)
    }

    /// Overwatch fire at long range: full, or weak (the second action).
    fn overwatch(&self, k: usize, weak: bool) -> f64 {
        let penalty = if weak {
            self.scene.st.rules.weak_overwatch_penalty
        } else {
            0
        };
        self.shoot.map_or(0.0, |s| {
            self.value(k, s.long.cv.saturating_sub(penalty).max(1), true)
        })
    }
}

/// What the Heroes know of the aliens: a pure function of the revealed models and the
/// face-down Blips (and the map, rules and content), kept by the planner while they stay as
/// they are (through most of the Heroes' phase).
struct FoeSide {
    /// What it was worked out from.
    key: Vec<FoeKey>,
    foes: Vec<Foe>,
    /// Each revealed unit's models: a range of `foes` (and of `targets`).
    units: Vec<std::ops::Range<usize>>,
    /// Face-down Blips (the Heroes' view holds no contents).
    blips: Vec<Pos>,
    /// The revealed models (as `foes`), then the face-down Blips (as `blips`).
    targets: Vec<Target>,
    /// Attack values by (target, Combat Value, Defence), worked out on first use (NaN).
    values: std::cell::RefCell<Vec<f64>>,
    /// Expected damage by (Combat Value, Defence), worked out on first use (NaN).
    expected: std::cell::RefCell<Vec<f64>>,
    /// Steps from the nearest enemy (revealed model or Blip) to each square.
    to_enemy: Option<std::rc::Rc<Near>>,
}

/// One revealed model or Blip as a [`FoeSide`] depends on it.
#[derive(Clone, Debug, PartialEq)]
struct FoeKey {
    unit: Id,
    model: Id,
    pos: Pos,
    health: u32,
    max_health: u32,
    down: bool,
    stats: Option<(u32, u32, u32, Option<crate::data::profile::Shoot>)>,
}

/// What the Heroes know, gathered once per decision.
struct Scene<'a> {
    st: &'a GameState,
    content: &'a Content,
    o: Obstacles,
    side: std::rc::Rc<FoeSide>,
    /// By foe: next to a Hero (it fights where it stands rather than walking into Overwatch).
    engaged: Vec<bool>,
    heroes: Vec<(Id, Pos)>,
    /// Objective squares still to reach (extract, interact); empty for the others.
    goal: Vec<Pos>,
    /// How much a step nearer the enemy is worth now.
    pressure: f64,
}

/// One Hero deciding, with what it needs at every square it could end on.
struct Me<'s, 'a> {
    id: Id,
    stats: HeroStats,
    health: u32,
    aims: Aims<'s, 'a>,
    /// What each revealed unit threatens.
    threats: Vec<Threat>,
    /// Overwatch candidates, best first: (value full, value weak, target).
    watch: Vec<(f64, f64, usize)>,
    /// The targets near enough to matter and their attack values (upper bounds): Shoot short,
    /// Shoot long, Melee.
    vals: Vec<(Pos, [f64; 3])>,
    /// The face-down Blips near enough to matter.
    blips: Vec<Pos>,
}

/// What a revealed unit can do to a Hero next phase.
struct Threat {
    /// Steps from its first model.
    near: std::rc::Rc<Near>,
    lead: Pos,
    /// Steps from which it reaches a Hero to fight (its Movement and one).
    reach: u32,
    /// Its best shooter, for when it cannot reach.
    shooter: Option<Shooter>,
    /// Steps from its first model to the nearest other Hero (`u32::MAX`: beyond reach).
    other: u32,
}

/// A shooter's reach and expected damage by the Hero's Defence, short and long.
struct Shooter {
    pos: Pos,
    short: u32,
    long: u32,
    movement: u32,
    near_cv: [f64; 8],
    far_cv: [f64; 8],
}

/// How much a point of expected damage to a Hero costs, by the Hero's Health: losing a Hero
/// loses its guns for the rest of the game.
fn hurt_cost(expected: f64, health: u32) -> f64 {
    expected * (1.0 + 3.0 / f64::from(health.max(1)))
}

/// How much a step nearer the enemy is worth to a Hero, and how much more as the round limit
/// nears (over the rounds left and one): the Heroes must find and kill everything in time.
const PRESSURE: f64 = 0.35;
const PRESSURE_LATE: f64 = 0.6;

/// Overwatch: the share of an attack's worth counted for an alien whose nearest Hero is this
/// one (it will walk into sight), for one going for a Hero this one sees, for a Blip.
const WATCH_LIKELY: f64 = 0.7;
const WATCH_SEEN: f64 = 0.4;
const WATCH_BLIP: f64 = 0.15;

/// How many squares a Hero's move is worked out exactly for (sight, reveals, the attack that
/// would follow), best bound first; the others only bound.
const EXACT_SQUARES: usize = 2;

/// A face-down Blip within this distance of a Hero flips and attacks it this phase.
const BLIP_FLIP_REACH: u32 = 3;
/// Expected damage from a face-down Blip that flips next to a Hero (an average unit's RUSH and
/// attack).
const BLIP_NEAR_THREAT: f64 = 0.75;
/// From one that may close in and flip next round.
const BLIP_FAR_THREAT: f64 = 0.25;
/// A Blip revealed by a Hero's move performs its behaviour at once: within RUSH's reach, a
/// cost.
const REVEAL_NEAR: u32 = 6;
const REVEAL_NEAR_COST: f64 = 1.0;

impl FoeSide {
    fn key(st: &GameState, content: &Content) -> Vec<FoeKey> {
        let models = st
            .units
            .iter()
            .filter(|u| u.side == Side::Overmind)
            .flat_map(|u| u.models.iter().map(move |m| (u.id, m)))
            .map(|(unit, m)| FoeKey {
                unit,
                model: m.id,
                pos: m.pos,
                health: m.health,
                max_health: m.max_health,
                down: m.status.knocked_down || m.status.stunned,
                stats: content.aliens.contains_key(m.kind.as_str()).then(|| {
                    let s = Stats::of(st, content, Side::Overmind, m);
                    (s.movement, s.melee, s.defence, s.shoot)
                }),
            });
        let blips = st.blips.iter().map(|b| FoeKey {
            unit: b.id,
            model: b.id,
            pos: b.pos,
            health: 0,
            max_health: 0,
            down: false,
            stats: None,
        });
        models.chain(blips).collect()
    }

    fn of(st: &GameState, content: &Content, key: Vec<FoeKey>) -> FoeSide {
        let mut foes: Vec<Foe> = Vec::new();
        let mut units = Vec::new();
        let mut targets: Vec<Target> = Vec::new();
        let overmind: Vec<&Unit> = st
            .units
            .iter()
            .filter(|u| u.side == Side::Overmind && u.alive())
            .collect();
        let last_unit = overmind.len() == 1 && st.blips.is_empty();
        for u in &overmind {
            let first = foes.len();
            let mut models: Vec<(u32, u32, f64)> = Vec::new();
            for m in &u.models {
                let (movement, melee, shoot) = if content.aliens.contains_key(m.kind.as_str()) {
                    let s = Stats::of(st, content, Side::Overmind, m);
                    (s.movement, s.melee, s.shoot)
                } else {
                    (4, 2, None)
                };
                foes.push(Foe {
                    pos: m.pos,
                    movement,
                    melee,
                    shoot,
                    down: m.status.knocked_down || m.status.stunned,
                    near: Bare::near(&st.map, m.pos, movement + 2),
                });
                let worth = 1.5 + 0.5 * f64::from(melee + shoot.map_or(0, |s| s.short.cv));
                models.push((m.health, m.max_health, worth));
            }
            units.push(first..foes.len());
            for (k, m) in u.models.iter().enumerate() {
                // Hits go to the target, then to wounded models, then the rest.
                let mut victims = vec![(models[k].0, models[k].2)];
                for wounded in [true, false] {
                    victims.extend(
                        models
                            .iter()
                            .enumerate()
                            .filter(|&(i, g)| i != k && (g.0 < g.1) == wounded)
                            .map(|(_, g)| (g.0, g.2)),
                    );
                }
                targets.push(Target {
                    id: m.id,
                    unit: u.id,
                    pos: m.pos,
                    defence: content.aliens.get(m.kind.as_str()).map_or(2, |t| t.defence),
                    victims,
                    wipe: if last_unit { 30.0 } else { 1.0 },
                    bonus: 0.0,
                });
            }
        }
        let blips: Vec<Pos> = st.blips.iter().map(|b| b.pos).collect();
        // A face-down Blip: a Decoy or an average unit; damage reveals it.
        targets.extend(st.blips.iter().map(|b| Target {
            id: b.id,
            unit: b.id,
            pos: b.pos,
            defence: 2,
            victims: vec![(2, 2.5)],
            wipe: 0.0,
            bonus: 0.6,
        }));
        let values = std::cell::RefCell::new(vec![f64::NAN; targets.len() * VALUE_CV * VALUE_DEF]);
        let expected = std::cell::RefCell::new(vec![f64::NAN; VALUE_CV * VALUE_DEF]);
        let enemies: Vec<Pos> = targets.iter().map(|t| t.pos).collect();
        let to_enemy = (!enemies.is_empty()).then(|| Bare::enemies(&st.map, &enemies));
        FoeSide {
            key,
            foes,
            units,
            blips,
            targets,
            values,
            expected,
            to_enemy,
        }
    }
}

impl<'a> Scene<'a> {
    fn of(
        st: &'a GameState,
        content: &'a Content,
        memo: &mut Option<std::rc::Rc<FoeSide>>,
    ) -> Scene<'a> {
        let o = st.compute_obstacles();
        let heroes: Vec<(Id, Pos)> = st.hero_models().map(|m| (m.id, m.pos)).collect();
        let key = FoeSide::key(st, content);
        let side = match memo.as_ref() {
            Some(side) if side.key == key => side.clone(),
            _ => {
                let side = std::rc::Rc::new(FoeSide::of(st, content, key));
                *memo = Some(side.clone());
                side
            }
        };
        let engaged = side
            .foes
            .iter()
            .map(|f| heroes.iter().any(|(_, h)| adjacent(&st.map, *h, f.pos)))
            .collect();
        let goal = match &st.objective {
            Objective::Extract { squares, .. } => {
                if squares.is_empty() {
                    st.map
                        .squares_of(crate::data::map::Terrain::Yellow)
                        .collect()
                } else {
                    squares.clone()
                }
            }
            Objective::Interact { squares } => squares
                .iter()
                .copied()
                .filter(|s| !st.activated_objectives.contains(s))
                .collect(),
            _ => Vec::new(),
        };
        let rounds_left = f64::from(st.max_rounds.saturating_sub(st.round));
        let pressure = match st.objective {
            Objective::Survive => 0.0,
            _ => PRESSURE + PRESSURE_LATE / (1.0 + rounds_left),
        };
        Scene {
            st,
            content,
            o,
            side,
            engaged,
            heroes,
            goal,
            pressure,
        }
    }

    fn los(&self, a: Pos, b: Pos) -> bool {
        self.st.rules.los.visible(&self.st.map, &self.o, a, b)
    }

    fn stats(&self, m: &crate::data::state::Model) -> Option<HeroStats> {
        if !self.content.heroes.contains_key(m.kind.as_str()) {
            return None;
        }
        let s = Stats::of(self.st, self.content, Side::Heroes, m);
        Some(HeroStats {
            movement: s.movement,
            melee: s.melee,
            defence: s.defence,
            shoot: s.shoot,
        })
    }

    /// The expected damage of an attack of Combat Value `cv` against Defence `def`.
    fn expected(&self, cv: u32, def: u32) -> f64 {
        let slot = ((cv as usize) < VALUE_CV && (def as usize) < VALUE_DEF)
            .then(|| cv as usize * VALUE_DEF + def as usize);
        if let Some(v) = slot.and_then(|i| self.side.expected.borrow().get(i).copied()) {
            if !v.is_nan() {
                return v;
            }
        }
        let v = with_odds(&self.st.rules, cv, def, |o| o.mean);
        if let Some(x) =
            slot.and_then(|i| self.side.expected.borrow_mut().get_mut(i).map(|x| *x = v))
        {
            let () = x;
        }
        v
    }

    /// The Defence a model on `at` rolls against attackers on `from` (red and green squares).
    fn defence_at(&self, base: u32, at: Pos, from: &[Pos]) -> u32 {
        if base == 0 {
            return 0;
        }
        let rules = &self.st.rules;
        let map = &self.st.map;
        let mut d = base as i32;
        match map.terrain(at) {
            crate::data::map::Terrain::Red => d += rules.red_defence,
            crate::data::map::Terrain::Green => {
                let covered = crate::data::geom::Dir::ORTHOGONAL.iter().any(|&dir| {
                    map.is_green_side(at, dir)
                        && !from.is_empty()
                        && from.iter().all(|p| match dir {
                            crate::data::geom::Dir::N => p.y < at.y,
                            crate::data::geom::Dir::S => p.y > at.y,
                            crate::data::geom::Dir::W => p.x < at.x,
                            crate::data::geom::Dir::E => p.x > at.x,
                            _ => false,
                        })
                });
                if covered {
                    d += rules.green_defence;
                }
            }
            _ => {}
        }
        d.max(1) as u32
    }

    /// The Hero `me`, as it decides.
    fn me<'s>(&'s self, id: Id, at: Pos, s: &HeroStats, health: u32) -> Me<'s, 'a> {
        let aims = self.aims(s);
        let rules = &self.st.rules;
        let by_def = |cv: u32| -> [f64; 8] {
            let mut e = [0.0; 8];
            for (d, x) in e.iter_mut().enumerate() {
                *x = if cv == 0 {
                    0.0
                } else {
                    self.expected(cv, d as u32)
                };
            }
            e
        };
        let threats = self
            .side
            .units
            .iter()
            .map(|r| {
                let models = &self.side.foes[r.clone()];
                let lead = &self.side.foes[r.start];
                let standing: Vec<&Foe> = models.iter().filter(|f| !f.down).collect();
                let reach = standing.iter().map(|f| f.movement + 1).max().unwrap_or(1);
                let shooter = standing
                    .iter()
                    .filter_map(|f| f.shoot.map(|sh| (f, sh)))
                    .max_by_key(|(_, sh)| (sh.short.cv, sh.long.cv, sh.long.range))
                    .map(|(f, sh)| Shooter {
                        pos: f.pos,
                        short: sh.short.range,
                        long: sh.long.range,
                        movement: f.movement,
                        near_cv: by_def(sh.short.cv),
                        far_cv: by_def(sh.long.cv),
                    });
                let other = self
                    .heroes
                    .iter()
                    .filter(|(h, _)| *h != id)
                    .filter_map(|(_, p)| lead.near.get(*p))
                    .min()
                    .unwrap_or(u32::MAX);
                Threat {
                    near: lead.near.clone(),
                    lead: lead.pos,
                    reach,
                    shooter,
                    other,
                }
            })
            .collect();
        let mut watch: Vec<(f64, f64, usize)> = Vec::new();
        if s.shoot.is_some() {
            for (k, f) in self.side.foes.iter().enumerate() {
                if !f.down && !self.engaged[k] {
                    watch.push((aims.overwatch(k, false), aims.overwatch(k, true), k));
                }
            }
            for k in self.side.foes.len()..self.side.targets.len() {
                let blip = WATCH_BLIP;
                watch.push((
                    blip * aims.overwatch(k, false),
                    blip * aims.overwatch(k, true),
                    k,
                ));
            }
            watch.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)));
        }
        // What the squares this Hero can reach may be near.
        let steps = s.movement.max(1) + 1;
        let far = BLIP_FLIP_REACH + rules.blip_movement;
        let blips = self
            .side
            .blips
            .iter()
            .copied()
            .filter(|b| b.distance(at) <= far + steps)
            .collect();
        let range = s.shoot.map_or(1, |sh| sh.max_range()).max(1);
        let vals = self
            .side
            .targets
            .iter()
            .enumerate()
            .filter(|(_, t)| t.pos.distance(at) <= range + steps)
            .map(|(k, t)| (t.pos, [aims.short(k), aims.long(k), aims.melee(k)]))
            .collect();
        Me {
            id,
            stats: *s,
            health,
            aims,
            threats,
            watch,
            vals,
            blips,
        }
    }

    /// The Defence change on `at` against attackers on `from` (red and green squares).
    fn cover(&self, at: Pos, from: Pos) -> i32 {
        let rules = &self.st.rules;
        let map = &self.st.map;
        match map.terrain(at) {
            crate::data::map::Terrain::Red => rules.red_defence,
            crate::data::map::Terrain::Green => {
                let beyond = crate::data::geom::Dir::ORTHOGONAL.iter().any(|&dir| {
                    map.is_green_side(at, dir)
                        && match dir {
                            crate::data::geom::Dir::N => from.y < at.y,
                            crate::data::geom::Dir::S => from.y > at.y,
                            crate::data::geom::Dir::W => from.x < at.x,
                            crate::data::geom::Dir::E => from.x > at.x,
                            _ => false,
                        }
                });
                if beyond {
                    rules.green_defence
                } else {
                    0
                }
            }
            _ => 0,
        }
    }

    /// Expected damage the aliens bring to `me` if it ends the phase on `at`: each unit that
    /// can reach it (its models' Melee together) or else its best shooter in range, counted in
    /// full when this Hero is the unit's nearest; the face-down Blips near.
    fn danger(&self, me: &Me<'_, '_>, at: Pos) -> f64 {
        let defence = me.stats.defence as i32;
        let def = |from: Pos| (defence + self.cover(at, from)).clamp(1, 7) as usize;
        let mut expected = 0.0;
        for (t, r) in me.threats.iter().zip(&self.side.units) {
            let mine = t.near.get(at).unwrap_or(u32::MAX);
            let w = if mine <= t.other { 1.0 } else { 0.35 };
            // The models that can reach it fight together.
            let mut cv = 0;
            let mut from = t.lead;
            if mine <= t.reach + 2 {
                for f in &self.side.foes[r.clone()] {
                    let reach = if f.down { 1 } else { f.movement + 1 };
                    if f.near.get(at).is_some_and(|d| d <= reach) {
                        cv += f.melee;
                        from = f.pos;
                    }
                }
            }
            if cv > 0 {
                expected += w * self.expected(cv, def(from) as u32);
            } else if let Some(sh) = &t.shooter {
                let dist = sh.pos.distance(at);
                if dist <= sh.short {
                    expected += w * 0.7 * sh.near_cv[def(sh.pos)];
                } else if dist <= sh.long {
                    expected += w * 0.7 * sh.far_cv[def(sh.pos)];
                } else if dist <= sh.long + sh.movement {
                    expected += w * 0.4 * sh.far_cv[def(sh.pos)];
                }
            }
        }
        let far = BLIP_FLIP_REACH + self.st.rules.blip_movement;
        for b in &me.blips {
            let d = b.distance(at);
            if d <= BLIP_FLIP_REACH {
                expected += BLIP_NEAR_THREAT;
            } else if d <= far {
                expected += BLIP_FAR_THREAT;
            }
        }
        expected
    }

    /// What ending the activation on `at` is worth to `me`, but for the Blips it reveals
    /// ([`Scene::reveal_cost`]): minus the danger there, minus the distance to what is left to
    /// find or reach.
    fn place(&self, me: &Me<'_, '_>, at: Pos) -> f64 {
        self.progress(at) - hurt_cost(self.danger(me, at), me.health)
    }

    /// Minus the distance from `at` to what is left to find or reach, by its worth.
    fn progress(&self, at: Pos) -> f64 {
        if !self.goal.is_empty() {
            let d = self.goal.iter().map(|g| g.distance(at)).min().unwrap_or(0);
            -0.5 * f64::from(d)
        } else if let Some(d) = self.side.to_enemy.as_ref().and_then(|f| f.get(at)) {
            -self.pressure * f64::from(d)
        } else {
            0.0
        }
    }

    /// The cost of the face-down Blips a Hero on `at` would reveal within their reach: each
    /// performs its behaviour at once.
    fn reveal_cost(&self, at: Pos) -> f64 {
        self.side
            .blips
            .iter()
            .filter(|b| b.distance(at) <= REVEAL_NEAR && self.los(at, **b))
            .count() as f64
            * REVEAL_NEAR_COST
    }

    /// The expected worth of an attack of Combat Value `cv` on target `k` from `from`:
    /// the Health it takes, the models and units it kills. With no `from`, the building and
    /// green-side modifiers are left out (an upper bound).
    fn attack_value(&self, cv: u32, from: Option<Pos>, k: usize, shooting: bool) -> f64 {
        let rules = &self.st.rules;
        let Some(t) = self.side.targets.get(k) else {
            return 0.0;
        };
        let mut cv = cv;
        if let (true, Some(from), Some(b)) = (shooting, from, self.st.map.intact_building(t.pos)) {
            if self.st.map.building(from) != Some(b) {
                cv = cv.saturating_sub(rules.building_penalty).max(1);
            }
        }
        let from: &[Pos] = match &from {
            Some(p) => std::slice::from_ref(p),
            None => &[],
        };
        let def = self.defence_at(t.defence, t.pos, from);
        let slot = ((cv as usize) < VALUE_CV && (def as usize) < VALUE_DEF)
            .then(|| (k * VALUE_CV + cv as usize) * VALUE_DEF + def as usize);
        if let Some(v) = slot.and_then(|i| self.side.values.borrow().get(i).copied()) {
            if !v.is_nan() {
                return v;
            }
        }
        let v = with_odds(rules, cv, def, |o| {
            let mut v = t.bonus;
            for (dmg, pk) in o.p.iter().enumerate().skip(1) {
                let mut left = dmg as u32;
                let mut got = 0.0;
                let mut all = true;
                for &(health, worth) in &t.victims {
                    let take = left.min(health);
                    left -= take;
                    got += f64::from(take);
                    if take == health {
                        got += worth;
                    } else {
                        all = false;
                        break;
                    }
                }
                if all {
                    got += t.wipe;
                }
                v += pk * got;
            }
            v
        });
        if let Some(x) = slot.and_then(|i| self.side.values.borrow_mut().get_mut(i).map(|x| *x = v))
        {
            let () = x;
        }
        v
    }

    /// The Hero `s`'s attack values on each target (upper bounds, see
    /// [`Scene::attack_value`]), worked out when first asked.
    fn aims<'s>(&'s self, s: &HeroStats) -> Aims<'s, 'a> {
        Aims {
            scene: self,
            shoot: s.shoot,
            melee: s.melee,
        }
    }

    /// What Overwatch on `at` is expected to bring (`weak`: as the second action): the first
    /// alien to move into its sight and range (if this Hero is its nearest, or it goes for one
    /// this one sees), or a Blip. With `sure`, no sight is checked (an upper bound).
    fn overwatch_value(&self, me: &Me<'_, '_>, at: Pos, weak: bool, sure: bool) -> f64 {
        let Some(shoot) = me.stats.shoot else {
            return 0.0;
        };
        let reach = shoot.max_range();
        let (likely, seen) = (WATCH_LIKELY, WATCH_SEEN);
        let mut best: f64 = 0.0;
        for &(full, weakv, k) in &me.watch {
            let v = if weak { weakv } else { full };
            if v * likely <= best {
                // Sorted by the weak value; the full one is at most a die better.
                if weak {
                    break;
                }
                continue;
            }
            let Some(f) = self.side.foes.get(k) else {
                // A face-down Blip (its factor is in the value).
                let t = &self.side.targets[k];
                if t.pos.distance(at) <= reach + self.st.rules.blip_movement {
                    best = best.max(v);
                }
                continue;
            };
            if f.pos.distance(at) > reach + f.movement {
                continue;
            }
            if sure {
                best = best.max(likely * v);
                continue;
            }
            let mine = f.near.get(at).unwrap_or(u32::MAX);
            let nearest = self
                .heroes
                .iter()
                .filter(|(h, _)| *h != me.id)
                .filter_map(|(_, p)| f.near.get(*p).map(|d| (d, *p)))
                .min();
            match nearest {
                Some((d, p)) if d < mine => {
                    if seen * v > best && p.distance(at) <= reach && self.los(at, p) {
                        best = seen * v;
                    }
                }
                _ => best = best.max(likely * v),
            }
        }
        best
    }

    /// The best attack a Hero on `at` may make (Shoot if `shoot`, Melee if `melee`): (value,
    /// target id, whether it is a Shoot). With `blips`, a face-down Blip counts too: one in
    /// sight of a square a Hero moves to is revealed there, and what it holds can be shot (no
    /// Blip is in sight of where a Hero stands). Targets are tried by their upper bounds, so
    /// sight is checked and the exact value worked out only while one could still be best.
    fn best_attack(
        &self,
        at: Pos,
        aims: &Aims<'_, '_>,
        shoot: bool,
        melee: bool,
        shaken_by: Option<Id>,
        blips: bool,
    ) -> Option<(f64, Id, bool)> {
        let map = &self.st.map;
        // (bound, target, shoots, Combat Value); on the stack for the usual few targets.
        let mut buf = [(0.0f64, 0usize, false, 0u32); 32];
        let mut len = 0;
        let mut spill: Vec<(f64, usize, bool, u32)> = Vec::new();
        let mut push = |o: (f64, usize, bool, u32)| {
            if let Some(slot) = buf.get_mut(len) {
                *slot = o;
                len += 1;
            } else {
                spill.push(o);
            }
        };
        let n = if blips {
            self.side.targets.len()
        } else {
            self.side.foes.len()
        };
        for (k, t) in self.side.targets[..n].iter().enumerate() {
            if shaken_by == Some(t.unit) {
                continue;
            }
            let d = at.distance(t.pos);
            if d <= 1 && adjacent(map, at, t.pos) {
                if melee && aims.melee > 0 {
                    push((aims.melee(k), k, false, aims.melee));
                }
            } else if let (true, Some(sh)) = (shoot, aims.shoot) {
                if let Some(cv) = sh.cv_at(d) {
                    let v = if d <= sh.short.range {
                        aims.short(k)
                    } else {
                        aims.long(k)
                    };
                    push((v, k, true, cv));
                }
            }
        }
        let options: &mut [(f64, usize, bool, u32)] = if spill.is_empty() {
            &mut buf[..len]
        } else {
            spill.extend_from_slice(&buf[..len]);
            &mut spill
        };
        options.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut best: Option<(f64, Id, bool)> = None;
        for &mut (bound, k, shot, cv) in options {
            if best.as_ref().is_some_and(|(b, _, _)| bound <= *b) {
                break;
            }
            let t = &self.side.targets[k];
            if !self.los(at, t.pos) {
                continue;
            }
            let v = self.attack_value(cv, Some(at), k, shot);
            if best.as_ref().is_none_or(|(b, _, _)| v > *b + 1e-9) {
                best = Some((v, t.id, shot));
            }
        }
        best
    }

    /// The best attack's value from `at` without checking sight (an upper bound).
    fn attack_bound(&self, at: Pos, me: &Me<'_, '_>, shoot: bool, melee: bool) -> f64 {
        let map = &self.st.map;
        let (short, long) = match (shoot, me.stats.shoot) {
            (true, Some(sh)) => (sh.short.range, sh.long.range),
            _ => (0, 0),
        };
        let mut best: f64 = 0.0;
        for (p, v) in &me.vals {
            let d = at.distance(*p);
            let x = if d <= 1 && adjacent(map, at, *p) {
                if melee {
                    v[2]
                } else {
                    0.0
                }
            } else if d <= short {
                v[0]
            } else if d <= long {
                v[1]
            } else {
                0.0
            };
            best = best.max(x);
        }
        best
    }

    /// The Hero's best next action, if anything beats ending its activation.
    fn best(&self, u: &Unit) -> Option<Plan> {
        let m = u.models.first()?;
        if crate::rules::stats::no_action_left(self.st, &u.used) {
            return None;
        }
        let id = u.id;
        let free = |k: ActionKind| !u.used.contains(&k);
        if m.status.stunned {
            return free(ActionKind::Interact).then_some(Plan {
                action: Action::Interact { unit: id },
                gain: 1.0,
            });
        }
        if self.goal.contains(&m.pos) && free(ActionKind::Interact) {
            return Some(Plan {
                action: Action::Interact { unit: id },
                gain: 10.0,
            });
        }
        if m.status.knocked_down {
            // Standing up takes the Move; nothing else before it.
            return free(ActionKind::Move).then_some(Plan {
                action: Action::Move {
                    unit: id,
                    to: m.pos,
                    via: Vec::new(),
                },
                gain: 1.0,
            });
        }
        let s = self.stats(m)?;
        let me = self.me(id, m.pos, &s, m.health);
        let first = u.used.is_empty();
        let shaken = m.status.shaken_by;
        let map = &self.st.map;
        let stay = self.place(&me, m.pos);
        let can_shoot = free(ActionKind::Shoot) && s.shoot.is_some();
        let can_melee = free(ActionKind::Melee);
        let can_watch = free(ActionKind::Overwatch) && s.shoot.is_some();
        let mut plans: Vec<Plan> = Vec::new();
        // Where a Move (or, once moved, a Sprint) can take the Hero, valued but for reveals.
        let (kind, steps) = if free(ActionKind::Move) {
            (ActionKind::Move, s.movement)
        } else if free(ActionKind::Sprint) {
            (
                ActionKind::Sprint,
                crate::data::settings::Rules::sprint(s.movement),
            )
        } else {
            (ActionKind::Move, 0)
        };
        // Stepping away from adjacent aliens gives each unit a Free Attack.
        let adjacent_cv: u32 = self
            .side
            .foes
            .iter()
            .zip(&self.engaged)
            .filter(|(f, e)| !f.down && **e && adjacent(map, m.pos, f.pos))
            .map(|(f, _)| f)
            .map(|f| f.melee)
            .sum();
        let leave = if adjacent_cv > 0 {
            hurt_cost(self.expected(adjacent_cv, s.defence), m.health)
        } else {
            0.0
        };
        // The squares a move reaches, valued at first only by nearness to what is left (the
        // danger and the reveals there only lower it, so it bounds), best first.
        let mut squares: Vec<(Pos, f64)> = if steps > 0 {
            Bare::reach(&self.st.map, &self.o, m.pos, steps)
                .into_iter()
                .map(|(p, _)| (p, self.progress(p) - leave))
                .collect()
        } else {
            Vec::new()
        };
        squares.sort_unstable_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then((a.0.y, a.0.x).cmp(&(b.0.y, b.0.x)))
        });
        let hurt = |p: Pos| hurt_cost(self.danger(&me, p), me.health);
        // Attack from here, then move to the best place or stand on Overwatch.
        if let Some((v, target, shot)) =
            self.best_attack(m.pos, &me.aims, can_shoot, can_melee, shaken, false)
        {
            let mut after = stay;
            if first {
                // The best place a move reaches: best bound first, so the danger and sight are
                // worked out only while a square could still beat the best found.
                for &(p, v) in &squares {
                    if v <= after {
                        break;
                    }
                    let v = v - hurt(p);
                    if v > after {
                        after = after.max(v - self.reveal_cost(p));
                    }
                }
                if can_watch {
                    after = after.max(stay + self.overwatch_value(&me, m.pos, true, false));
                }
            }
            let action = if shot {
                Action::Shoot { unit: id, target }
            } else {
                Action::Melee { unit: id, target }
            };
            plans.push(Plan {
                action,
                gain: v + after - stay,
            });
        }
        // Overwatch here: full as the first action, weak as the second.
        if can_watch {
            plans.push(Plan {
                action: Action::Overwatch { unit: id },
                gain: self.overwatch_value(&me, m.pos, !first, false),
            });
        }
        // Move to each square, then the best attack or Overwatch there: best bound first; the
        // danger is worked out while a square could still beat the best found, sight (the
        // attack that would follow, the Blips revealed) for the best few of those.
        let follows = first;
        let mut bounded: Vec<(f64, Pos, f64, f64, f64)> = squares
            .iter()
            .map(|&(p, v)| {
                let (mut atk, mut ow) = (0.0, 0.0);
                if follows {
                    atk = self.attack_bound(p, &me, can_shoot, can_melee);
                    if can_watch {
                        ow = self.overwatch_value(&me, p, true, true);
                    }
                }
                (v + atk.max(ow), p, v, atk, ow)
            })
            .collect();
        bounded.sort_unstable_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then((a.1.y, a.1.x).cmp(&(b.1.y, b.1.x)))
        });
        let mut best_move: Option<(f64, Pos)> = None;
        let mut exact = 0;
        for (bound, p, v, atk, ow) in bounded {
            if best_move.is_some_and(|(b, _)| bound <= b) {
                break;
            }
            let v = v - hurt(p);
            if best_move.is_some_and(|(b, _)| v + atk.max(ow) <= b) {
                continue;
            }
            if exact >= EXACT_SQUARES && best_move.is_some() {
                break;
            }
            exact += 1;
            let mut follow: f64 = 0.0;
            if follows {
                if atk > 0.0 {
                    if let Some((a, _, _)) =
                        self.best_attack(p, &me.aims, can_shoot, can_melee, shaken, true)
                    {
                        follow = a;
                    }
                }
                if can_watch && follow < ow {
                    follow = follow.max(self.overwatch_value(&me, p, true, false));
                }
            }
            let total = v - self.reveal_cost(p) + follow;
            if best_move.is_none_or(|(b, _)| total > b + 1e-9) {
                best_move = Some((total, p));
            }
        }
        if let Some((total, to)) = best_move {
            let action = if kind == ActionKind::Move {
                Action::Move {
                    unit: id,
                    to,
                    via: Vec::new(),
                }
            } else {
                Action::Sprint {
                    unit: id,
                    to,
                    via: Vec::new(),
                }
            };
            plans.push(Plan {
                action,
                gain: total - stay,
            });
        }
        let mut best: Option<Plan> = None;
        for p in plans {
            if best.as_ref().is_none_or(|b| p.gain > b.gain + 1e-9) {
                best = Some(p);
            }
        }
        let best = best.filter(|p| p.gain > 1e-6)?;
        crate::rules::validate::is_legal_for(self.st, self.content, Side::Heroes, &best.action)
            .then_some(best)
    }
}

//! A model's current numbers (docs/RULES.md §9.1, §14): profile, Health dial and stat
//! modifiers worked out in one place, which every rule, AI, script and front end asks.

use crate::data::profile::{AlienType, Effect, HeroProfile, Shoot};
use crate::data::settings::Rules;
use crate::data::state::{ActionKind, GameState, Model, Side, Stat};
use crate::rules::content::Content;

/// Where a model's profile is looked up: the loaded [`Content`], or a copy of its profile
/// tables (a front end's, on another thread).
pub trait Profiles {
    /// The Hero profile with id `id`.
    fn hero(&self, id: &str) -> Option<&HeroProfile>;
    /// The Alien Type with id `id`.
    fn alien(&self, id: &str) -> Option<&AlienType>;
}

impl Profiles for Content {
    fn hero(&self, id: &str) -> Option<&HeroProfile> {
        self.heroes.get(id)
    }
    fn alien(&self, id: &str) -> Option<&AlienType> {
        self.aliens.get(id)
    }
}

/// Highest value a modified stat may reach (a modifier never takes one below 0).
pub const MAX_STAT: u32 = 99;

/// One model's numbers right now: its profile (Alien Type or Hero profile), the Health dial
/// at its Health, then every stat modifier in force.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Squares a Move action may go.
    pub movement: u32,
    /// Squares a Sprint action may go ([`Rules::sprint`] of `movement`).
    pub sprint: u32,
    /// Melee Combat Value.
    pub melee: u32,
    /// Defence.
    pub defence: u32,
    /// Fear (0: no Fear Attack).
    pub fear: u32,
    /// Health now and full.
    pub health: u32,
    pub max_health: u32,
    /// Shoot bands, each Combat Value modified; ranges are the profile's.
    pub shoot: Option<Shoot>,
    pub melee_effects: Vec<Effect>,
    pub shoot_effects: Vec<Effect>,
}

impl Stats {
    /// The numbers of `m`, a model of `side`, now. A model whose type is not loaded has all
    /// zeros (it cannot move or attack) but its own Health.
    #[must_use]
    pub fn of<P: Profiles + ?Sized>(st: &GameState, content: &P, side: Side, m: &Model) -> Stats {
        let mut s = Stats::base(content, side, m);
        if !st.stat_mods.is_empty() {
            let add = |v: u32, stat: Stat| modified(v, st.stat_change(&m.id, stat));
            s.movement = add(s.movement, Stat::Movement);
            s.melee = add(s.melee, Stat::Melee);
            s.defence = add(s.defence, Stat::Defence);
            if let Some(sh) = s.shoot.as_mut() {
                let change = st.stat_change(&m.id, Stat::Shoot);
                sh.short.cv = modified(sh.short.cv, change);
                sh.long.cv = modified(sh.long.cv, change);
            }
        }
        s.sprint = Rules::sprint(s.movement);
        s
    }

    /// The numbers of the model with id `model`, now.
    #[must_use]
    pub fn of_id<P: Profiles + ?Sized>(st: &GameState, content: &P, model: &str) -> Option<Stats> {
        let (u, m) = st.find_model(model)?;
        Some(Stats::of(st, content, u.side, m))
    }

    /// The numbers of `m`'s type before modifiers: the Alien Type's, or a Hero's profile with
    /// the Health dial at the model's Health (what `unit.type` shows scripts).
    #[must_use]
    pub fn base<P: Profiles + ?Sized>(content: &P, side: Side, m: &Model) -> Stats {
        let mut s = match side {
            Side::Heroes => match content.hero(m.kind.as_str()) {
                Some(p) => {
                    let (melee, defence) = p.dial_at(m.health);
                    Stats {
                        movement: p.movement_at(m.health),
                        melee,
                        defence,
                        max_health: p.health,
                        shoot: p.shoot,
                        melee_effects: p.melee_effects.clone(),
                        shoot_effects: p.shoot_effects.clone(),
                        ..Stats::default()
                    }
                }
                None => Stats::default(),
            },
            Side::Overmind => match content.alien(m.kind.as_str()) {
                Some(t) => Stats {
                    movement: t.movement,
                    melee: t.melee,
                    defence: t.defence,
                    fear: t.fear,
                    max_health: t.health,
                    shoot: t.shoot,
                    melee_effects: t.melee_effects.clone(),
                    shoot_effects: t.shoot_effects.clone(),
                    ..Stats::default()
                },
                None => Stats::default(),
            },
        };
        s.health = m.health;
        if s.max_health == 0 {
            s.max_health = m.max_health;
        }
        s.sprint = Rules::sprint(s.movement);
        s
    }

    /// Squares an action of `kind` may move the model: `movement` for a Move, `sprint` for a
    /// Sprint, 0 for anything else.
    #[must_use]
    pub fn steps(&self, kind: ActionKind) -> u32 {
        match kind {
            ActionKind::Move => self.movement,
            ActionKind::Sprint => self.sprint,
            _ => 0,
        }
    }

    /// Squares a Move (or Sprint) may take `m` now, without building the rest.
    #[must_use]
    pub fn movement<P: Profiles + ?Sized>(
        st: &GameState,
        content: &P,
        side: Side,
        m: &Model,
    ) -> u32 {
        let base = match side {
            Side::Heroes => content
                .hero(m.kind.as_str())
                .map_or(0, |p| p.movement_at(m.health)),
            Side::Overmind => content.alien(m.kind.as_str()).map_or(0, |t| t.movement),
        };
        if st.stat_mods.is_empty() {
            return base;
        }
        modified(base, st.stat_change(&m.id, Stat::Movement))
    }

    /// `m`'s Shoot bands now (`Stats::of(..).shoot` without building the rest): `None` when
    /// it has no Shoot attack.
    #[must_use]
    pub fn shoot_of<P: Profiles + ?Sized>(
        st: &GameState,
        content: &P,
        side: Side,
        m: &Model,
    ) -> Option<Shoot> {
        let mut sh = match side {
            Side::Heroes => content.hero(m.kind.as_str()).and_then(|p| p.shoot),
            Side::Overmind => content.alien(m.kind.as_str()).and_then(|t| t.shoot),
        }?;
        if !st.stat_mods.is_empty() {
            let change = st.stat_change(&m.id, Stat::Shoot);
            sh.short.cv = modified(sh.short.cv, change);
            sh.long.cv = modified(sh.long.cv, change);
        }
        Some(sh)
    }
}

/// Actions a unit or Blip may take in one activation (docs/RULES.md §5.1).
#[must_use]
pub fn actions_per_activation(st: &GameState) -> usize {
    st.rules.actions_per_activation() as usize
}

/// Has a unit or Blip that used `used` this activation no action left?
#[must_use]
pub fn no_action_left(st: &GameState, used: &[ActionKind]) -> bool {
    used.len() >= actions_per_activation(st)
}

/// Actions left in an activation that has used `used`.
#[must_use]
pub fn actions_left(st: &GameState, used: &[ActionKind]) -> usize {
    actions_per_activation(st).saturating_sub(used.len())
}

/// `v` changed by `change`, kept within 0 to [`MAX_STAT`].
fn modified(v: u32, change: i32) -> u32 {
    (i64::from(v) + i64::from(change)).clamp(0, i64::from(MAX_STAT)) as u32
}

//! The Alien Behaviour hook (docs/RULES.md §8): the trait behaviours implement, and the validated
//! context through which they act.

use crate::board::movement::{self, Goal};
use crate::data::event::{AttackKind, Event, RevealCause};
use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::map::Terrain;
use crate::data::profile::Shoot;
use crate::data::settings::Rules;
use crate::data::state::{GameState, Side, Status};
use crate::rules::combat::Target;
use crate::rules::decision::{Choice, DecisionKind};
use crate::rules::engine::Engine;
use crate::rules::motion::Mover;
use thiserror::Error;

/// Why a behaviour failed. The behaviour ends where it failed: everything it did before
/// stands (nothing a player has seen is taken back) and play goes on.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct BehaviourError {
    pub message: String,
}

impl BehaviourError {
    pub fn new(message: impl Into<String>) -> Self {
        BehaviourError {
            message: message.into(),
        }
    }
}

/// An Alien Behaviour: native Rust or a script, the engine cannot tell.
pub trait Behaviour {
    /// The name printed on the card, e.g. "RUSH".
    fn name(&self) -> String;
    /// Most squares one model may move during this behaviour; `None` = its Movement.
    fn max_move(&self) -> Option<u32> {
        None
    }
    /// Carry out the behaviour for `ctx.unit()`.
    fn perform(&self, ctx: &mut BehaviourCtx<'_, '_>) -> Result<(), BehaviourError>;
    /// A hint for the look-ahead AI: how much better (positive) or worse this behaviour is for
    /// `ctx.unit()` now than its play-outs show. `ctx` acts on a throw-away copy of the game.
    fn ai_score(&self, ctx: &mut BehaviourCtx<'_, '_>) -> Option<f64> {
        let _ = ctx;
        None
    }
    /// Has it an [`Behaviour::ai_score`]? (So the look-ahead copies the game for it only then.)
    fn has_ai_score(&self) -> bool {
        false
    }
}

/// A model as a behaviour sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelInfo {
    pub id: Id,
    pub unit: Id,
    pub side: Side,
    pub kind: Id,
    pub pos: Pos,
    pub health: u32,
    /// Knocked Down, Stunned, Shaken (docs/RULES.md §6.6).
    pub status: Status,
    /// An XXL model: `pos` is the top-left square of its 2×2 base (docs/RULES.md §4.4).
    pub xxl: bool,
}

impl ModelInfo {
    /// The squares its base fills.
    pub fn squares(&self) -> impl Iterator<Item = Pos> + Clone {
        crate::data::geom::footprint(self.pos, self.xxl)
    }
}

/// The stats a unit's type gives it, as a behaviour reads them: an Alien Unit's Alien Type, or
/// a Hero's profile with Melee and Defence at its Health now (the Health dial).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeStats {
    /// The Alien Type id or Hero profile id.
    pub id: String,
    pub name: String,
    pub movement: u32,
    pub melee: u32,
    pub defence: u32,
    /// The type's full Health (a model's own is `ModelInfo::health`).
    pub health: u32,
    pub fear: u32,
    pub shoot: Option<Shoot>,
}

/// What a behaviour may query and do. Every action is validated by the rules; an illegal one
/// returns an error saying what and why before anything changes, and the behaviour's caller
/// decides whether to raise it (a script error ends the behaviour there; what it did stands).
pub struct BehaviourCtx<'e, 'a> {
    eng: &'e mut Engine<'a>,
    unit: Id,
    behaviour: Id,
    max_move: Option<u32>,
    moved: Vec<(Id, u32)>,
    attacks: Vec<AttackKind>,
    feared: Vec<Id>,
    /// Lines and bytes this call has written with `log`.
    logged: (usize, usize),
    /// Effects this call has caused (at most the `max_effects` setting).
    pub(in crate::rules) effects: u32,
    /// The call is a face-down card's hook: its instructions come from the step's hidden pool.
    pub(in crate::rules) hidden: bool,
}

/// Most `log` lines one behaviour call may write.
pub const MAX_LOG_LINES: usize = 100;
/// Most bytes of `log` messages one behaviour call may write.
pub const MAX_LOG_BYTES: usize = 16 * 1024;
/// Most characters of one `log` message.
pub const MAX_LOG_LINE_CHARS: usize = 500;
/// Most bytes of a failure reason in `behaviour_failed`.
pub const MAX_REASON_BYTES: usize = 1024;

/// `text` cut to at most `max` bytes on a character boundary, ending in "…" when cut.
#[must_use]
pub fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max.saturating_sub('…'.len_utf8());
    while end > 0 && !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

impl Engine<'_> {
    /// Perform one Alien Behaviour for a freshly revealed unit: the Overmind picks among the
    /// unit's behaviours; a failure ends the behaviour where it failed and is logged (what it
    /// did before stands: every call was validated before it changed anything).
    pub fn perform_behaviour(&mut self, unit: &str) {
        let Some(kind) = self
            .st
            .unit(unit)
            .and_then(|u| u.kind())
            .map(str::to_string)
        else {
            return;
        };
        if self.depth >= self.st.rules.max_behaviour_depth {
            self.emit(Event::BehaviourSkipped {
                unit: Id::from(unit),
                reason: "behaviours are nested too deep (max_behaviour_depth)".into(),
            });
            return;
        }
        let listed: Vec<String> = self
            .content
            .aliens
            .get(&kind)
            .map(|t| t.behaviours.clone())
            .unwrap_or_default();
        let known: Vec<Id> = listed
            .iter()
            .filter(|b| self.content.behaviours.contains_key(b.as_str()))
            .map(Id::from)
            .collect();
        if known.is_empty() {
            let reason = if listed.is_empty() {
                format!("{kind} lists no Alien Behaviour")
            } else {
                format!(
                    "none of {kind}'s behaviours ({}) is loaded",
                    listed.join(", ")
                )
            };
            self.emit(Event::BehaviourSkipped {
                unit: Id::from(unit),
                reason,
            });
            return;
        }
        let scores: Option<Vec<f64>> = if known.len() > 1 {
            let choice = crate::rules::preview::BehaviourChoice {
                state: self.st,
                content: self.content,
                unit: Id::from(unit),
                actor: self.actor,
                depth: self.depth,
            };
            self.ctl
                .score_behaviours(Side::Overmind, &choice, &known)
                .filter(|s| s.len() == known.len())
        } else {
            None
        };
        let d = crate::rules::decision::Decision {
            who: Side::Overmind,
            kind: DecisionKind::Behaviour,
            prompt: format!("Which Alien Behaviour does {unit} perform?"),
            options: known.iter().map(|&b| Choice::Id(b)).collect(),
            subject: Some(unit.to_string()),
        };
        if d.options.len() > 1 {
            self.show_context(Side::Overmind);
        }
        let i = self.ctl.ask_scored(self.st, &d, scores.as_deref());
        let id = known.get(i).copied().unwrap_or(known[0]);
        self.emit(Event::BehaviourChosen {
            unit: Id::from(unit),
            behaviour: id,
            options: known.clone(),
        });
        self.perform_chosen(unit, id);
    }

    /// Perform the behaviour `id` for `unit` (chosen already): a failure ends it where it
    /// failed, with `behaviour_failed`.
    pub(crate) fn perform_chosen(&mut self, unit: &str, id: Id) {
        let Some(b) = self.content.behaviours.get(id.as_str()).cloned() else {
            return;
        };
        let saved_actor = self.actor;
        self.actor = Side::Overmind;
        self.depth += 1;
        let result = {
            let mut ctx = BehaviourCtx {
                eng: self,
                unit: Id::from(unit),
                behaviour: id,
                max_move: b.max_move(),
                moved: Vec::new(),
                attacks: Vec::new(),
                feared: Vec::new(),
                logged: (0, 0),
                effects: 0,
                hidden: false,
            };
            b.perform(&mut ctx)
        };
        self.depth -= 1;
        self.actor = saved_actor;
        match result {
            Ok(()) => self.emit(Event::BehaviourPerformed {
                unit: Id::from(unit),
                behaviour: id,
            }),
            Err(e) => {
                self.emit(Event::BehaviourFailed {
                    unit: Id::from(unit),
                    behaviour: id,
                    reason: bounded(&e.message, MAX_REASON_BYTES),
                });
            }
        }
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, BehaviourError> {
    Err(BehaviourError::new(msg))
}

impl<'e, 'a> BehaviourCtx<'e, 'a> {
    /// A context for a behaviour's `ai_score`, on an engine over a throw-away copy.
    pub(crate) fn for_score(eng: &'e mut Engine<'a>, unit: Id, behaviour: Id) -> Self {
        let max_move = eng
            .content
            .behaviours
            .get(behaviour.as_str())
            .and_then(|b| b.max_move());
        BehaviourCtx {
            eng,
            unit,
            behaviour,
            max_move,
            moved: Vec::new(),
            attacks: Vec::new(),
            feared: Vec::new(),
            logged: (0, 0),
            effects: 0,
            hidden: false,
        }
    }
}

impl BehaviourCtx<'_, '_> {
    /// Lua instructions this call may still spend of its step's pool (`lua_step_instructions`):
    /// the public pool, or a face-down card hook's own, so that nothing a hidden hook spends
    /// shows in what a public call may do (docs/SANDBOX.md).
    #[must_use]
    pub fn step_instructions_left(&self) -> u64 {
        self.eng.script_left[usize::from(self.hidden)]
    }

    /// Charges `used` instructions, spent by this call alone (not the calls nested in it), to
    /// its step's pool.
    pub fn spend_step_instructions(&mut self, used: u64) {
        let left = &mut self.eng.script_left[usize::from(self.hidden)];
        *left = left.saturating_sub(used);
    }
}

impl<'a> BehaviourCtx<'_, 'a> {
    /// The engine, for effects (core/src/effect.rs).
    pub(crate) fn engine(&mut self) -> &mut Engine<'a> {
        self.eng
    }
}

impl BehaviourCtx<'_, '_> {
    /// The unit performing the behaviour.
    #[must_use]
    pub fn unit(&self) -> Id {
        self.unit
    }

    /// The id of the behaviour being performed.
    #[must_use]
    pub fn behaviour(&self) -> &str {
        &self.behaviour
    }

    /// The whole state, as the Overmind sees it.
    #[must_use]
    pub fn state(&self) -> &GameState {
        self.eng.st
    }

    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.eng.st.rules
    }

    /// What the performing behaviour's script keeps in `game.storage` (`None`: nothing yet).
    #[must_use]
    pub fn storage(&self) -> Option<&crate::data::storage::Value> {
        self.eng.st.storage(&self.behaviour)
    }

    /// Replace what the performing behaviour's script keeps in `game.storage`.
    ///
    /// # Errors
    /// The value is over the storage limits; nothing changes.
    pub fn set_storage(
        &mut self,
        value: crate::data::storage::Value,
    ) -> Result<(), BehaviourError> {
        let id = self.behaviour;
        self.eng
            .st
            .set_storage(&id, value)
            .map_err(|m| BehaviourError::new(format!("game.storage: {m}")))
    }

    /// The stats of `unit`'s type (the kind of its last model, as a led unit's leader comes
    /// first): its Alien Type, or for a Hero its profile with the dial at its Health now.
    /// `None` when the unit has no model left or its type is not loaded.
    #[must_use]
    pub fn unit_type(&self, unit: &str) -> Option<TypeStats> {
        let u = self.eng.st.unit(unit)?;
        let m = u.models.last()?;
        let content = self.eng.content;
        let (id, name) = match u.side {
            Side::Overmind => content
                .aliens
                .get(m.kind.as_str())
                .map(|t| (t.id.clone(), t.name.clone()))?,
            Side::Heroes => content
                .heroes
                .get(m.kind.as_str())
                .map(|p| (p.id.clone(), p.name.clone()))?,
        };
        let s = crate::rules::stats::Stats::base(content, u.side, m);
        Some(TypeStats {
            id,
            name,
            movement: s.movement,
            melee: s.melee,
            defence: s.defence,
            health: s.max_health,
            fear: s.fear,
            shoot: s.shoot,
        })
    }

    /// Was `model` killed during the action now resolving? `Some(by)` names the killer's unit
    /// (`None` inside when nothing named killed it); `None` when it was not killed.
    #[must_use]
    pub fn killed(&self, model: &str) -> Option<Option<Id>> {
        self.eng.events.iter().rev().find_map(|e| match e {
            Event::ModelKilled { model: m, by, .. } if m == model => Some(*by),
            _ => None,
        })
    }

    fn info(&self, side_filter: Option<Side>) -> Vec<ModelInfo> {
        self.eng
            .st
            .units
            .iter()
            .filter(|u| side_filter.is_none_or(|s| u.side == s))
            .flat_map(|u| {
                u.models.iter().map(move |m| ModelInfo {
                    id: m.id,
                    unit: u.id,
                    side: u.side,
                    kind: m.kind,
                    pos: m.pos,
                    health: m.health,
                    status: m.status.clone(),
                    xxl: m.xxl,
                })
            })
            .collect()
    }

    /// Every model on the map.
    #[must_use]
    pub fn all_models(&self) -> Vec<ModelInfo> {
        self.info(None)
    }

    /// Every Hero model.
    #[must_use]
    pub fn heroes(&self) -> Vec<ModelInfo> {
        self.info(Some(Side::Heroes))
    }

    /// Models of one unit.
    #[must_use]
    pub fn models_of(&self, unit: &str) -> Vec<ModelInfo> {
        self.info(None)
            .into_iter()
            .filter(|m| m.unit == unit)
            .collect()
    }

    /// A model by id.
    #[must_use]
    pub fn model(&self, id: &str) -> Option<ModelInfo> {
        self.info(None).into_iter().find(|m| m.id == id)
    }

    /// Face-down Blips: id and square only (reading anything else is [`Self::reveal_for_stat`]).
    #[must_use]
    pub fn blips(&self) -> Vec<(Id, Pos)> {
        self.eng.st.blips.iter().map(|b| (b.id, b.pos)).collect()
    }

    /// Reveal a Blip because a script needs one of its stats other than Movement. Returns the
    /// revealed unit's id (`None` for a Decoy). A triggered behaviour follows at once.
    pub fn reveal_for_stat(&mut self, blip: &str) -> Result<Option<Id>, BehaviourError> {
        if self.eng.st.blip(blip).is_none() {
            return err(format!("no face-down Blip {blip}"));
        }
        match self.eng.reveal(blip, RevealCause::Stat, Side::Overmind) {
            None => Ok(None),
            Some((u, triggers)) => {
                if triggers {
                    self.eng.perform_behaviour(&u);
                }
                Ok(Some(u))
            }
        }
    }

    #[must_use]
    pub fn terrain(&self, p: Pos) -> Terrain {
        self.eng.st.map.terrain(p)
    }

    #[must_use]
    pub fn in_building(&self, p: Pos) -> bool {
        self.eng.st.map.building(p).is_some()
    }

    pub fn los(&mut self, a: Pos, b: Pos) -> bool {
        self.eng.los(a, b)
    }

    /// Legal-path steps from a model's square to `to` (the model's own square is free).
    pub fn path_distance(&mut self, from: Pos, to: Pos) -> Option<u32> {
        let map = self.eng.map();
        let o = self.eng.obstacles();
        movement::path_distance(&map, &o, from, to)
    }

    /// Steps from `from` to a square adjacent to `to` (for reaching an occupied square).
    pub fn steps_to_adjacent(&mut self, from: Pos, to: Pos) -> Option<u32> {
        let map = self.eng.map();
        let o = self.eng.obstacles();
        let t = movement::towards(&map, &o, from, Goal::AdjacentTo(vec![to]), u32::MAX / 4);
        t.reached().then_some(t.steps)
    }

    /// Hero models some model of `unit` has in Line of Sight.
    pub fn visible_heroes(&mut self, unit: &str) -> Vec<ModelInfo> {
        let own: Vec<(Pos, bool)> = self
            .models_of(unit)
            .iter()
            .map(|m| (m.pos, m.xxl))
            .collect();
        self.heroes()
            .into_iter()
            .filter(|h| {
                own.iter().any(|&(p, big)| {
                    crate::data::geom::footprint(p, big)
                        .any(|q| h.squares().any(|r| self.eng.los(q, r)))
                })
            })
            .collect()
    }

    /// Hero models that have some model of `unit` in Line of Sight (symmetric LOS).
    pub fn heroes_seeing(&mut self, unit: &str) -> Vec<ModelInfo> {
        self.visible_heroes(unit)
    }

    /// The closest of `candidates` to the unit by legal path (to an adjacent square); ties are
    /// the Overmind's choice. `None` when no candidate is given.
    pub fn closest(&mut self, unit: &str, candidates: &[ModelInfo]) -> Option<ModelInfo> {
        self.closest_asking(unit, candidates, None)
    }

    /// [`Self::closest`], asking a tie with the caller's `prompt` (else the default one).
    pub fn closest_asking(
        &mut self,
        unit: &str,
        candidates: &[ModelInfo],
        prompt: Option<&str>,
    ) -> Option<ModelInfo> {
        let models = self.models_of(unit);
        let own: Vec<Pos> = models.iter().filter(|m| !m.xxl).map(|m| m.pos).collect();
        let big: Vec<Pos> = models.iter().filter(|m| m.xxl).map(|m| m.pos).collect();
        let map = self.eng.map();
        let o = self.eng.obstacles();
        // One distance field per own model; a candidate's cost is the fewest steps to a square
        // adjacent to it (0 when already adjacent).
        let fields: Vec<(Pos, movement::DistanceField)> = own
            .iter()
            .map(|&p| (p, movement::DistanceField::from(&map, &o, p)))
            .collect();
        let mut scored: Vec<(u32, ModelInfo)> = Vec::new();
        for c in candidates {
            let mut d = u32::MAX;
            // An XXL model's own search of its 2×2 base (docs/RULES.md §4.4).
            for &p in &big {
                let goal = Goal::AdjacentTo(c.squares().collect());
                if let Some(n) = movement::block_distance(&map, &o, p, &goal) {
                    d = d.min(n);
                }
            }
            for (p, field) in &fields {
                if movement::adjacent(&map, *p, c.pos) {
                    d = 0;
                    break;
                }
                for dir in crate::data::geom::Dir::ALL {
                    let q = c.pos.offset(dir);
                    if movement::adjacent(&map, q, c.pos) {
                        if let Some(n) = field.get(q) {
                            d = d.min(n);
                        }
                    }
                }
            }
            scored.push((d, c.clone()));
        }
        let best = scored.iter().map(|(d, _)| *d).min()?;
        let tied: Vec<ModelInfo> = scored
            .into_iter()
            .filter(|(d, _)| *d == best)
            .map(|(_, m)| m)
            .collect();
        let i = self.choose_kind(
            DecisionKind::Choice,
            prompt.unwrap_or("Several are equally close: which one?"),
            tied.iter().map(|m| Choice::Id(m.id)).collect(),
        );
        tied.get(i).cloned()
    }

    /// Models of the unit in the order the Overmind picks them to act.
    pub fn model_order(&mut self, unit: &str) -> Vec<Id> {
        self.model_order_asking(unit, None)
    }

    /// [`Self::model_order`], asking each pick with the caller's `prompt` (else the default).
    pub fn model_order_asking(&mut self, unit: &str, prompt: Option<&str>) -> Vec<Id> {
        let mut left: Vec<Id> = self.models_of(unit).into_iter().map(|m| m.id).collect();
        let mut out = Vec::new();
        while !left.is_empty() {
            let i = self.choose_kind(
                DecisionKind::ModelOrder,
                prompt.unwrap_or("Which model acts next?"),
                left.iter().map(|s| Choice::Id(Id::from(s))).collect(),
            );
            out.push(left.remove(i.min(left.len() - 1)));
        }
        out
    }

    fn choose_kind(&mut self, kind: DecisionKind, prompt: &str, options: Vec<Choice>) -> usize {
        if options.is_empty() {
            return 0;
        }
        self.eng.ask(
            Side::Overmind,
            kind,
            format!("{}: {prompt}", self.behaviour),
            options,
        )
    }

    /// An Overmind decision: index into `options`.
    pub fn choose(&mut self, prompt: &str, options: Vec<Choice>) -> usize {
        self.choose_kind(DecisionKind::Choice, prompt, options)
    }

    /// A yes/no Overmind decision.
    pub fn confirm(&mut self, prompt: &str) -> bool {
        self.choose_kind(
            DecisionKind::Confirm,
            prompt,
            vec![Choice::Id("yes".into()), Choice::Id("no".into())],
        ) == 0
    }

    /// Write a line into the event log: at most [`MAX_LOG_LINE_CHARS`] characters a line, and
    /// [`MAX_LOG_LINES`] lines or [`MAX_LOG_BYTES`] bytes a call; the first line over is
    /// replaced by one `log_truncated` event and later ones are dropped.
    pub fn log(&mut self, message: &str) {
        let (lines, bytes) = self.logged;
        if lines > MAX_LOG_LINES || bytes > MAX_LOG_BYTES {
            return;
        }
        let message: String = message.chars().take(MAX_LOG_LINE_CHARS).collect();
        let unit = self.unit;
        self.logged = (lines + 1, bytes + message.len());
        if lines + 1 > MAX_LOG_LINES || bytes + message.len() > MAX_LOG_BYTES {
            self.logged = (MAX_LOG_LINES + 1, bytes);
            self.eng.emit(Event::LogTruncated {
                unit,
                behaviour: Id::from(&self.behaviour),
                limit: format!(
                    "{MAX_LOG_LINES} lines or {MAX_LOG_BYTES} bytes of log per behaviour call"
                ),
            });
            return;
        }
        self.eng.emit(Event::Log { unit, message });
    }

    /// A number in `0..n` from the game's RNG (`n >= 1`).
    pub fn random(&mut self, n: u64) -> u64 {
        use rand::Rng;
        self.eng.st.rng.random_range(0..n.max(1))
    }

    /// A raw 64-bit draw from the game's RNG (for `math.random`).
    pub fn random_u64(&mut self) -> u64 {
        use rand::RngCore;
        self.eng.st.rng.next_u64()
    }

    fn own_model(&self, model: &str) -> Result<ModelInfo, BehaviourError> {
        match self.model(model) {
            Some(m) if m.unit == self.unit => Ok(m),
            Some(_) => err(format!("{model} is not a model of {}", self.unit)),
            None => err(format!("no model {model}")),
        }
    }

    /// How many more squares `model` may move in this behaviour.
    pub fn move_left(&self, model: &str) -> u32 {
        let limit = match self.max_move {
            Some(n) => n,
            None => self.eng.model_stats(model).map_or(0, |s| s.movement),
        };
        let used = self
            .moved
            .iter()
            .find(|(m, _)| m == model)
            .map_or(0, |(_, n)| *n);
        limit.saturating_sub(used)
    }

    fn check_steps(&self, model: &str, steps: u32) -> Result<(), BehaviourError> {
        let left = self.move_left(model);
        if steps > left {
            let name = self
                .eng
                .content
                .behaviours
                .get(self.behaviour.as_str())
                .map_or(self.behaviour.to_string(), |b| b.name());
            return err(format!(
                "move: {steps} squares asked, {name} allows {left} for {model}"
            ));
        }
        Ok(())
    }

    fn record_move(&mut self, model: &str, steps: u32) {
        match self.moved.iter_mut().find(|(m, _)| m == model) {
            Some((_, n)) => *n += steps,
            None => self.moved.push((Id::from(model), steps)),
        }
    }

    /// Move a model of the unit up to `steps` squares towards `goal`. Equally good end squares
    /// are the Overmind's choice. Returns the squares actually moved (a reveal or Overwatch can
    /// cut a move short).
    pub fn move_towards(
        &mut self,
        model: &str,
        goal: Goal,
        steps: u32,
    ) -> Result<u32, BehaviourError> {
        self.move_towards_asking(model, goal, steps, None)
    }

    /// [`Self::move_towards`], asking a tie among end squares with the caller's `prompt` (else
    /// the default one). A goal square off the map is an error, before anything moves.
    pub fn move_towards_asking(
        &mut self,
        model: &str,
        goal: Goal,
        steps: u32,
        prompt: Option<&str>,
    ) -> Result<u32, BehaviourError> {
        let m = self.own_model(model)?;
        self.check_steps(model, steps)?;
        let map = self.eng.map();
        if let Goal::Squares(squares) = &goal {
            self.on_map(squares)?;
        }
        let o = self.eng.obstacles();
        let t = if m.xxl {
            movement::block_towards(&map, &o, m.pos, &goal, steps)
        } else {
            movement::towards(&map, &o, m.pos, goal, steps)
        };
        if t.ends.is_empty() {
            return Ok(0);
        }
        let Some(end) = self.ask_end(model, prompt, t.ends.clone()) else {
            return Ok(0);
        };
        let Some(path) = t.path(end) else {
            return Ok(0);
        };
        Ok(self.walk_path(model, path))
    }

    /// Move a model of the unit up to `steps` squares away from `from` (squares: where the
    /// threats stand): to the reachable square farthest from the nearest of them by the game's
    /// distance, with fewest steps (see [`movement::away`]); equally good end squares are the
    /// Overmind's choice, asked with `prompt` when given. Returns the squares actually moved.
    pub fn move_away_from(
        &mut self,
        model: &str,
        from: &[Pos],
        steps: u32,
        prompt: Option<&str>,
    ) -> Result<u32, BehaviourError> {
        let m = self.own_model(model)?;
        self.check_steps(model, steps)?;
        self.on_map(from)?;
        let map = self.eng.map();
        let o = self.eng.obstacles();
        let a = movement::away(&map, &o, m.pos, from, steps);
        let Some(end) = self.ask_end(model, prompt, a.ends.clone()) else {
            return Ok(0);
        };
        if end == m.pos {
            return Ok(0);
        }
        let Some(path) = a.path(end) else {
            return Ok(0);
        };
        Ok(self.walk_path(model, path))
    }

    /// The end squares [`Self::move_away_from`] would choose among, with the steps to each;
    /// changes nothing.
    pub fn reachable_away_from(
        &mut self,
        model: &str,
        from: &[Pos],
        steps: u32,
    ) -> Result<Vec<(Pos, u32)>, BehaviourError> {
        let m = self.own_model(model)?;
        self.check_steps(model, steps)?;
        self.on_map(from)?;
        let map = self.eng.map();
        let o = self.eng.obstacles();
        let a = movement::away(&map, &o, m.pos, from, steps);
        Ok(a.ends.iter().map(|&p| (p, a.steps)).collect())
    }

    /// Every square of a move's goal must be on the map.
    fn on_map(&self, squares: &[Pos]) -> Result<(), BehaviourError> {
        let map = &self.eng.st.map;
        match squares.iter().find(|&&p| !map.in_bounds(p)) {
            Some(p) => err(format!(
                "move: {p} is off the {}x{} map",
                map.width(),
                map.height()
            )),
            None => Ok(()),
        }
    }

    /// The Overmind picks the end square of `model`'s move among `ends`.
    fn ask_end(&mut self, model: &str, prompt: Option<&str>, ends: Vec<Pos>) -> Option<Pos> {
        let prompt = match prompt {
            Some(p) => format!("{}: {p}", self.behaviour),
            None => format!("{}: where does {model} end its move?", self.behaviour),
        };
        self.eng
            .ask_square(Side::Overmind, DecisionKind::Destination, prompt, ends)
    }

    /// Walk `model` along a legal `path` (the Overmind picks among equally short ones) and
    /// count the squares taken (a reveal or Overwatch can cut it short).
    fn walk_path(&mut self, model: &str, path: Vec<Pos>) -> u32 {
        let mover = Mover::Model(Id::from(model));
        let path = self.eng.choose_path(&mover, path);
        let taken = self.eng.walk(&mover, &path, false);
        self.record_move(model, taken);
        taken
    }

    /// Move a model of the unit to `to` by a shortest legal path of at most `steps` squares.
    pub fn move_to(&mut self, model: &str, to: Pos) -> Result<u32, BehaviourError> {
        let m = self.own_model(model)?;
        self.on_map(&[to])?;
        let map = self.eng.map();
        let o = self.eng.obstacles();
        let path = if m.xxl {
            movement::block_path(&map, &o, m.pos, to)
        } else {
            movement::shortest_path(&map, &o, m.pos, to)
        };
        let Some(path) = path else {
            return err(self.no_path(model, to));
        };
        self.check_steps(model, (path.len() - 1) as u32)?;
        Ok(self.walk_path(model, path))
    }

    /// Why `model` has no legal path to `to` (on the map): what stands there, else that walls,
    /// solid squares and models close it off.
    fn no_path(&self, model: &str, to: Pos) -> String {
        let st = &self.eng.st;
        let why = match st.occupant(to) {
            Some(crate::data::state::Occupant::Blip(b)) => format!("Blip {} stands there", b.id),
            Some(crate::data::state::Occupant::Model(_, m)) => format!("{} stands there", m.id),
            None if st.map.terrain(to) == Terrain::Solid => "it is a solid square".to_string(),
            None => "walls, solid squares and models close it off".to_string(),
        };
        format!("move: {model} has no legal path to {to}: {why}")
    }

    /// Squares a model of the unit can reach with the moves it has left, with step counts.
    pub fn reachable(&mut self, model: &str) -> Result<Vec<(Pos, u32)>, BehaviourError> {
        let m = self.own_model(model)?;
        let left = self.move_left(model);
        let map = self.eng.map();
        let o = self.eng.obstacles();
        if m.xxl {
            return Ok(movement::block_reachable(&map, &o, m.pos, left));
        }
        Ok(movement::reachable(&map, &o, m.pos, left))
    }

    /// Destroy Wall (docs/RULES.md §5.4) by `model`, an XXL model of the unit: the walls are
    /// checked as the action's are, the Overmind chooses among several, and the sight check
    /// follows. Not an action of an activation: a behaviour's or ability's own.
    ///
    /// # Errors
    /// Not the unit's model, not XXL, Stunned, or no wall to destroy; nothing changes.
    pub fn destroy_wall(&mut self, model: &str) -> Result<(), BehaviourError> {
        let m = self.own_model(model)?;
        let walls = {
            let Some((_, found)) = self.eng.st.find_model(&m.id) else {
                return err(format!("no model {model}"));
            };
            crate::rules::wall::check(self.eng.st, found)
                .map_err(|r| BehaviourError::new(format!("destroy_wall: {}", r.message)))?
        };
        let unit = self.unit;
        self.eng.destroy_wall(&unit, &m.id, walls);
        Ok(())
    }

    fn target_of(&self, target: &str) -> Result<Target, BehaviourError> {
        if self.eng.st.blip(target).is_some() {
            return err("behaviours cannot attack the Overmind's own Blips");
        }
        match self.eng.resolve_model(target) {
            Some((_, m)) => Ok(Target::Model(m)),
            None => err(format!("no model {target}")),
        }
    }

    fn attack(
        &mut self,
        kind: AttackKind,
        target: &str,
        penalty: u32,
    ) -> Result<(), BehaviourError> {
        if self.attacks.contains(&kind) {
            return err(format!(
                "{}: the unit has already made its {kind:?} attack",
                self.behaviour
            ));
        }
        let t = self.target_of(target)?;
        let unit = self.unit;
        if let Err(e) = self.eng.check_attack(&unit, &t, kind) {
            return err(self.why_no_attack(kind, target).unwrap_or(e.message));
        }
        self.attacks.push(kind);
        // Attacks made as a behaviour are never better than the rules' penalty (seed: −1).
        let penalty = penalty.max(self.eng.st.rules.behaviour_penalty);
        let penalty = vec![crate::data::event::Modifier::fewer(
            crate::data::event::Cause::Behaviour,
            penalty,
            Some(self.behaviour),
        )];
        self.eng
            .attack(&unit, t, kind, penalty)
            .map_err(|e| BehaviourError::new(e.message))
    }

    /// Why the unit cannot make its `kind` attack on `target`, naming the target model and each
    /// model of the unit with its reason (the rules' own check decides; this only explains).
    fn why_no_attack(&mut self, kind: AttackKind, target: &str) -> Option<String> {
        let (_, target_model) = self.eng.resolve_model(target)?;
        let o = self.eng.st.cached_obstacles();
        let own = self.eng.st.unit(&self.unit)?;
        crate::rules::validate::why_no_attack(
            self.eng.st,
            self.eng.content,
            &o,
            own,
            &target_model,
            kind,
        )
    }

    /// Melee attack by the unit on `target` (model or unit id), with at least the behaviour
    /// penalty.
    pub fn melee(&mut self, target: &str, penalty: u32) -> Result<(), BehaviourError> {
        self.attack(AttackKind::Melee, target, penalty)
    }

    /// Shoot attack by the unit on `target`, with at least the behaviour penalty.
    pub fn shoot(&mut self, target: &str, penalty: u32) -> Result<(), BehaviourError> {
        self.attack(AttackKind::Shoot, target, penalty)
    }

    /// Hero models the unit could Melee now.
    pub fn melee_targets(&mut self) -> Vec<ModelInfo> {
        let unit = self.unit;
        self.heroes()
            .into_iter()
            .filter(|h| !self.eng.fighters(&unit, h.pos, Some(&h.unit)).is_empty())
            .collect()
    }

    /// Hero models the unit could Shoot now.
    pub fn shoot_targets(&mut self) -> Vec<ModelInfo> {
        let unit = self.unit;
        self.heroes()
            .into_iter()
            .filter(|h| !self.eng.shooters(&unit, h.pos).is_empty())
            .collect()
    }

    /// Is some model of the unit in Melee Combat (adjacent to a Hero)?
    #[must_use]
    pub fn in_melee(&self) -> bool {
        let map = &self.eng.st.map;
        let heroes = self.heroes();
        self.models_of(&self.unit).iter().any(|m| {
            heroes
                .iter()
                .any(|h| movement::base_adjacent(map, m.pos, m.xxl, h.pos, h.xxl))
        })
    }

    /// Fear Attack by the unit against one Hero model: if any hit remains the Hero is Shaken.
    pub fn fear(&mut self, hero: &str) -> Result<(), BehaviourError> {
        let (unit_id, model) = match self.eng.resolve_model(hero) {
            Some(x) => x,
            None => return err(format!("no Hero {hero}")),
        };
        if self.eng.side_of(&unit_id) != Some(Side::Heroes) {
            return err(format!("{hero} is not a Hero"));
        }
        if self.feared.contains(&model) {
            return err(format!("{hero} has already faced this unit's Fear Attack"));
        }
        let fear = self
            .models_of(&self.unit)
            .iter()
            .filter_map(|m| self.eng.model_stats(&m.id))
            .map(|s| s.fear)
            .max()
            .unwrap_or(0);
        if fear == 0 {
            return err(format!("{} has no Fear", self.unit));
        }
        self.feared.push(Id::from(&model));
        let unit = self.unit;
        self.eng
            .attack(&unit, Target::Model(model), AttackKind::Fear, Vec::new())
            .map_err(|e| BehaviourError::new(e.message))
    }
}

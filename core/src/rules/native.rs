//! The five seed Alien Behaviours written in Rust: the reference the Lua versions are tested
//! and benchmarked against, and what tests use when no scripting is loaded.

use crate::board::movement::Goal;
use crate::data::map::Terrain;
use crate::rules::behaviour::{Behaviour, BehaviourCtx, BehaviourError, ModelInfo};
use crate::rules::content::Content;
use crate::rules::decision::Choice;
use std::rc::Rc;

/// QUICK SHOT: may make a Shoot attack with one die fewer (the Overmind may decline).
pub struct QuickShot;
/// PROTECT: moves at once towards the nearest other Alien Unit, stopping once Adjacent.
pub struct Protect;
/// RUSH: must move 5 squares towards the closest visible Hero; then may (the Overmind's
/// choice) Melee at −1.
pub struct Rush;
/// TAKE COVER: may move at once to a Green Square or Building within 5 squares: the Overmind
/// picks one of those a model can reach, or stays.
pub struct TakeCover;
/// TERRIFYING PRESENCE: a Fear Attack against every Hero that has the unit in LOS.
pub struct TerrifyingPresence;

/// Is the model still on the map? A model killed while its unit performs (Overwatch, a Free
/// Attack) does nothing more; the behaviour goes on with the others.
fn alive(ctx: &BehaviourCtx<'_, '_>, model: &str) -> bool {
    ctx.state().find_model(model).is_some()
}

fn pick(ctx: &mut BehaviourCtx<'_, '_>, prompt: &str, options: &[ModelInfo]) -> Option<ModelInfo> {
    if options.is_empty() {
        return None;
    }
    let i = ctx.choose(prompt, options.iter().map(|m| Choice::Id(m.id)).collect());
    options.get(i).cloned()
}

impl Behaviour for QuickShot {
    fn name(&self) -> String {
        "QUICK SHOT".into()
    }
    fn perform(&self, ctx: &mut BehaviourCtx<'_, '_>) -> Result<(), BehaviourError> {
        let targets = ctx.shoot_targets();
        if targets.is_empty() {
            ctx.log("no Hero to shoot");
            return Ok(());
        }
        // "may make a Shoot attack": the Overmind may decline.
        if !ctx.confirm("Make the Quick Shot?") {
            return Ok(());
        }
        let Some(t) = pick(ctx, "Shoot which Hero?", &targets) else {
            return Ok(());
        };
        ctx.shoot(&t.id, 1)
    }
}

impl Behaviour for Protect {
    fn name(&self) -> String {
        "PROTECT".into()
    }
    fn perform(&self, ctx: &mut BehaviourCtx<'_, '_>) -> Result<(), BehaviourError> {
        let me = ctx.unit();
        let others: Vec<ModelInfo> = ctx
            .all_models()
            .into_iter()
            .filter(|m| m.side == crate::data::state::Side::Overmind && m.unit != me)
            .collect();
        let Some(nearest) = ctx.closest(&me, &others) else {
            ctx.log("no other Alien Unit to protect");
            return Ok(());
        };
        let targets: Vec<_> = ctx.models_of(&nearest.unit).iter().map(|m| m.pos).collect();
        for m in ctx.model_order(&me) {
            if !alive(ctx, &m) {
                continue;
            }
            let steps = ctx.move_left(&m);
            ctx.move_towards(&m, Goal::AdjacentTo(targets.clone()), steps)?;
        }
        Ok(())
    }
}

impl Behaviour for Rush {
    fn name(&self) -> String {
        "RUSH".into()
    }
    fn max_move(&self) -> Option<u32> {
        Some(5)
    }
    fn perform(&self, ctx: &mut BehaviourCtx<'_, '_>) -> Result<(), BehaviourError> {
        let me = ctx.unit();
        let visible = ctx.visible_heroes(&me);
        let Some(hero) = ctx.closest(&me, &visible) else {
            ctx.log("no visible Hero to rush");
            return Ok(());
        };
        let steps = ctx.rules().rush_steps;
        // The move is a "must"; a model killed on the way (Overwatch) simply stops.
        for m in ctx.model_order(&me) {
            if !alive(ctx, &m) {
                continue;
            }
            ctx.move_towards(&m, Goal::AdjacentTo(vec![hero.pos]), steps)?;
        }
        // The Melee attack is a "can": the Overmind may decline it.
        if ctx.in_melee() {
            let targets = ctx.melee_targets();
            if !targets.is_empty() && ctx.confirm("Make the Melee attack?") {
                if let Some(t) = pick(ctx, "Melee which Hero?", &targets) {
                    ctx.melee(&t.id, 1)?;
                }
            }
        }
        Ok(())
    }
}

impl Behaviour for TakeCover {
    fn name(&self) -> String {
        "TAKE COVER".into()
    }
    fn max_move(&self) -> Option<u32> {
        Some(5)
    }
    fn perform(&self, ctx: &mut BehaviourCtx<'_, '_>) -> Result<(), BehaviourError> {
        let me = ctx.unit();
        let steps = ctx.rules().take_cover_steps;
        // Model by model: every Green Square or Building square it can reach within `steps`
        // (nearest first), or staying; the Overmind picks.
        for m in ctx.model_order(&me) {
            if !alive(ctx, &m) {
                continue;
            }
            let cover: Vec<_> = ctx
                .reachable(&m)?
                .into_iter()
                .filter(|&(_, n)| n > 0 && n <= steps)
                .map(|(p, _)| p)
                .filter(|&p| ctx.terrain(p) == Terrain::Green || ctx.in_building(p))
                .collect();
            if cover.is_empty() {
                ctx.log(&format!("{m}: no Green Square or Building within {steps}"));
                continue;
            }
            let mut options: Vec<Choice> = cover.iter().map(|&p| Choice::Square(p)).collect();
            options.push(Choice::Id("stay".into()));
            let i = ctx.choose(&format!("Where does {m} take cover?"), options);
            if let Some(&to) = cover.get(i) {
                ctx.move_to(&m, to)?;
            }
        }
        Ok(())
    }
}

impl Behaviour for TerrifyingPresence {
    fn name(&self) -> String {
        "TERRIFYING PRESENCE".into()
    }
    fn perform(&self, ctx: &mut BehaviourCtx<'_, '_>) -> Result<(), BehaviourError> {
        let me = ctx.unit();
        for h in ctx.heroes_seeing(&me) {
            ctx.fear(&h.id)?;
        }
        Ok(())
    }
}

/// Register the five native behaviours under their seed ids.
pub fn install(content: &mut Content) {
    content.add_behaviour("quick_shot", Rc::new(QuickShot));
    content.add_behaviour("protect", Rc::new(Protect));
    content.add_behaviour("rush", Rc::new(Rush));
    content.add_behaviour("take_cover", Rc::new(TakeCover));
    content.add_behaviour("terrifying_presence", Rc::new(TerrifyingPresence));
}

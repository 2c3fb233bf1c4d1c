//! `game`: the Overmind's view of the game during a behaviour — who is where, Line of Sight,
//! distances and paths, terrain, the rules, and the Overmind's decisions (`choose`, `confirm`).

use super::args::{self, core_err, err, no_more, place, Args, PlaceArg};
use super::blip::BlipRef;
use super::call::{
    charge, los_units, model_units, search_units, sight_units, with_ctx, Calls, MODEL_UNITS,
};
use super::rules::RulesRef;
use super::shape::{EVENT_DECKS, ROLLS, SIDES, STATS, STATUSES, TERRAINS, UNTILS};
use super::storage;
use super::unit::UnitRef;
use super::{method, Class, Field, FieldDoc, FnDoc, Method, Param, Ret};
use mlua::{Lua, MultiValue, Table, Value, Variadic};
use overmind_core::effect::MAX_CHANGE;
use overmind_core::token::{Token, TokenClass};
use overmind_core::trigger::Hook;
use overmind_core::{BehaviourCtx, Contents, Id, ModelInfo, Pos, Side};
use std::rc::Rc;
use std::sync::Arc;

/// The one `game` object; every call reaches the behaviour now running.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GameRef;

fn models_of_side(ctx: &BehaviourCtx<'_, '_>, side: Side) -> Vec<ModelInfo> {
    ctx.all_models()
        .into_iter()
        .filter(|m| m.side == side)
        .collect()
}

fn on_map(ctx: &BehaviourCtx<'_, '_>, func: &str, p: Pos) -> mlua::Result<()> {
    let map = &ctx.state().map;
    if map.in_bounds(p) {
        Ok(())
    } else {
        err(format!(
            "{func}: {p} is off the {}x{} map",
            map.width(),
            map.height()
        ))
    }
}

fn blip_handles(
    lua: &Lua,
    blips: Vec<(overmind_core::Id, Pos)>,
    movement: u32,
) -> mlua::Result<Value> {
    let handles = blips
        .into_iter()
        .map(|(id, pos)| {
            Ok(Value::UserData(lua.create_any_userdata(BlipRef {
                id,
                pos,
                movement,
            })?))
        })
        .collect::<mlua::Result<Vec<Value>>>()?;
    Ok(Value::Table(super::build::list(lua, handles)?))
}

fn heroes(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    Args::new("heroes", a).at_most(0)?;
    let ms = with_ctx(lua, |lua, ctx| {
        charge(lua, model_units(ctx))?;
        Ok(ctx.heroes())
    })?;
    Ok(MultiValue::from_iter([args::models(lua, ms)?]))
}

fn aliens(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    Args::new("aliens", a).at_most(0)?;
    let ms = with_ctx(lua, |lua, ctx| {
        charge(lua, model_units(ctx))?;
        Ok(models_of_side(ctx, Side::Overmind))
    })?;
    Ok(MultiValue::from_iter([args::models(lua, ms)?]))
}

fn blips(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    Args::new("blips", a).at_most(0)?;
    let (bs, movement) = with_ctx(lua, |lua, ctx| {
        charge(lua, model_units(ctx))?;
        Ok((ctx.blips(), ctx.rules().blip_movement))
    })?;
    Ok(MultiValue::from_iter([blip_handles(lua, bs, movement)?]))
}

fn model(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("model", a);
    a.at_most(1)?;
    let id = a.string(0, "id")?;
    match with_ctx(lua, move |lua, ctx| {
        charge(lua, model_units(ctx))?;
        Ok(ctx.model(&id))
    })? {
        Some(m) => Ok(MultiValue::from_iter([args::model(lua, m)?])),
        None => args::one(Value::Nil, lua),
    }
}

fn unit(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("unit", a);
    a.at_most(1)?;
    let id = a.string(0, "id")?;
    match with_ctx(lua, move |lua, ctx| {
        charge(lua, model_units(ctx))?;
        Ok(UnitRef::of(ctx, &id))
    })? {
        Some(u) => args::one(Value::UserData(lua.create_any_userdata(u)?), lua),
        None => args::one(Value::Nil, lua),
    }
}

fn blip(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("blip", a);
    a.at_most(1)?;
    let id = a.string(0, "id")?;
    let found = with_ctx(lua, move |lua, ctx| {
        charge(lua, model_units(ctx))?;
        let movement = ctx.rules().blip_movement;
        Ok(ctx
            .blips()
            .into_iter()
            .find(|(b, _)| *b == id)
            .map(|(id, pos)| BlipRef { id, pos, movement }))
    })?;
    match found {
        Some(b) => args::one(Value::UserData(lua.create_any_userdata(b)?), lua),
        None => args::one(Value::Nil, lua),
    }
}

fn visible_heroes(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("visible_heroes", a);
    a.at_most(1)?;
    let u = a.unit(0, "unit")?;
    let ms = with_ctx(lua, move |lua, ctx| {
        charge(lua, sight_units(ctx, &u))?;
        Ok(ctx.visible_heroes(&u))
    })?;
    Ok(MultiValue::from_iter([args::models(lua, ms)?]))
}

fn heroes_seeing(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("heroes_seeing", a);
    a.at_most(1)?;
    let u = a.unit(0, "unit")?;
    let ms = with_ctx(lua, move |lua, ctx| {
        charge(lua, sight_units(ctx, &u))?;
        Ok(ctx.heroes_seeing(&u))
    })?;
    Ok(MultiValue::from_iter([args::models(lua, ms)?]))
}

fn closest(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("closest", a);
    a.at_most(3)?;
    let u = a.unit(0, "unit")?;
    let candidates = a.models(1, "models")?;
    let prompt = a.opt_string(2, "prompt")?;
    match with_ctx(lua, move |lua, ctx| {
        // One distance field per model of the unit, then each candidate's neighbours.
        let own = u64::try_from(ctx.models_of(&u).len()).unwrap_or(u64::MAX);
        let picks = u64::try_from(candidates.len()).unwrap_or(u64::MAX);
        let units = own
            .saturating_mul(search_units(ctx))
            .saturating_add(own.saturating_mul(picks).saturating_mul(8 * MODEL_UNITS))
            .saturating_add(model_units(ctx));
        charge(lua, units)?;
        Ok(ctx.closest_asking(&u, &candidates, prompt.as_deref()))
    })? {
        Some(m) => Ok(MultiValue::from_iter([args::model(lua, m)?])),
        None => args::one(Value::Nil, lua),
    }
}

fn model_order(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("model_order", a);
    a.at_most(2)?;
    let u = a.unit(0, "unit")?;
    let prompt = a.opt_string(1, "prompt")?;
    let ms = with_ctx(lua, move |lua, ctx| {
        charge(lua, model_units(ctx))?;
        let ids = ctx.model_order_asking(&u, prompt.as_deref());
        Ok(ids
            .iter()
            .filter_map(|id| ctx.model(id))
            .collect::<Vec<_>>())
    })?;
    Ok(MultiValue::from_iter([args::models(lua, ms)?]))
}

type Two = (PlaceArg, PlaceArg, Variadic<Value>);

fn two(func: &str, names: [&str; 2], (a, b, rest): Two) -> mlua::Result<(Pos, Pos)> {
    no_more(func, 2, &rest)?;
    Ok((place(func, names[0], &a)?, place(func, names[1], &b)?))
}

fn los(lua: &Lua, _: &GameRef, args: Two) -> mlua::Result<bool> {
    let (p, q) = two("los", ["a", "b"], args)?;
    with_ctx(lua, move |lua, ctx| {
        on_map(ctx, "los", p)?;
        on_map(ctx, "los", q)?;
        charge(lua, los_units(p, q))?;
        Ok(ctx.los(p, q))
    })
}

fn distance(_: &Lua, _: &GameRef, args: Two) -> mlua::Result<u32> {
    let (p, q) = two("distance", ["a", "b"], args)?;
    Ok(p.distance(q))
}

fn path_distance(lua: &Lua, _: &GameRef, args: Two) -> mlua::Result<Option<u32>> {
    let (p, q) = two("path_distance", ["from", "to"], args)?;
    with_ctx(lua, move |lua, ctx| {
        on_map(ctx, "path_distance", p)?;
        on_map(ctx, "path_distance", q)?;
        charge(lua, search_units(ctx))?;
        Ok(ctx.path_distance(p, q))
    })
}

fn steps_to_adjacent(lua: &Lua, _: &GameRef, args: Two) -> mlua::Result<Option<u32>> {
    let (p, q) = two("steps_to_adjacent", ["from", "to"], args)?;
    with_ctx(lua, move |lua, ctx| {
        on_map(ctx, "steps_to_adjacent", p)?;
        on_map(ctx, "steps_to_adjacent", q)?;
        charge(lua, search_units(ctx))?;
        Ok(ctx.steps_to_adjacent(p, q))
    })
}

fn terrain(
    lua: &Lua,
    _: &GameRef,
    (square, rest): (PlaceArg, Variadic<Value>),
) -> mlua::Result<&'static str> {
    no_more("terrain", 1, &rest)?;
    let p = place("terrain", "square", &square)?;
    Ok(with_ctx(lua, move |_, ctx| Ok(ctx.terrain(p)))?.name())
}

/// Every square of one kind, row by row from the top-left: one call where a loop over the map
/// calling `terrain` would make one per square.
fn squares(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("squares", a);
    a.at_most(1)?;
    let kind = a.one_of(0, "terrain", &TERRAINS)?;
    let found = with_ctx(lua, move |lua, ctx| {
        charge(lua, search_units(ctx))?;
        let map = &ctx.state().map;
        let mut found = Vec::new();
        for y in 0..map.height() {
            for x in 0..map.width() {
                let p = Pos::new(x, y);
                if map.terrain(p) == kind {
                    found.push(p);
                }
            }
        }
        Ok(found)
    })?;
    args::one(super::build::squares(lua, &found)?, lua)
}

fn in_building(
    lua: &Lua,
    _: &GameRef,
    (square, rest): (PlaceArg, Variadic<Value>),
) -> mlua::Result<bool> {
    no_more("in_building", 1, &rest)?;
    let p = place("in_building", "square", &square)?;
    with_ctx(lua, move |_, ctx| Ok(ctx.in_building(p)))
}

fn choose(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("choose", a);
    a.at_most(2)?;
    let prompt = a.string(0, "prompt")?;
    let (mut values, choices) = a.choices(1, "options")?;
    if values.is_empty() {
        return args::one(Value::Nil, lua);
    }
    let i = with_ctx(lua, move |_, ctx| Ok(ctx.choose(&prompt, choices)))?;
    let i = i.min(values.len() - 1);
    Ok(MultiValue::from_iter([values.swap_remove(i)]))
}

fn confirm(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("confirm", a);
    a.at_most(1)?;
    let prompt = a.string(0, "prompt")?;
    let yes = with_ctx(lua, move |_, ctx| Ok(ctx.confirm(&prompt)))?;
    args::one(yes, lua)
}

fn log(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("log", a);
    a.at_most(1)?;
    let message = a.string(0, "message")?;
    let units = u64::try_from(message.len() / 16).unwrap_or(u64::MAX);
    with_ctx(lua, move |lua, ctx| {
        charge(lua, units)?;
        ctx.log(&message);
        Ok(())
    })?;
    args::none()
}

/// The class of token kind `kind`, when it is loaded.
pub(crate) fn token_class(ctx: &mut BehaviourCtx<'_, '_>, kind: &str) -> Option<TokenClass> {
    ctx.content().tokens.get(kind).map(|k| k.class)
}

/// A token as scripts see it: `{ id, kind, class, x, y, carried_by }` (a fresh table).
pub(crate) fn token_table(lua: &Lua, t: &Token, class: Option<TokenClass>) -> mlua::Result<Table> {
    super::build::token(
        lua,
        t.id.as_str(),
        t.kind.as_str(),
        class.map(TokenClass::name),
        t.pos,
        t.carried_by.as_ref().map(|m| m.as_str()),
    )
}

/// Tokens with their classes, for [`token_tables`].
fn classed(ctx: &mut BehaviourCtx<'_, '_>, ts: Vec<Token>) -> Vec<(Token, Option<TokenClass>)> {
    ts.into_iter()
        .map(|t| {
            let class = token_class(ctx, &t.kind);
            (t, class)
        })
        .collect()
}

fn token_tables(lua: &Lua, ts: Vec<(Token, Option<TokenClass>)>) -> mlua::Result<MultiValue> {
    let tables = ts
        .iter()
        .map(|(t, class)| Ok(Value::Table(token_table(lua, t, *class)?)))
        .collect::<mlua::Result<Vec<Value>>>()?;
    args::one(super::build::list(lua, tables)?, lua)
}

/// What listing tokens costs: per token in play.
fn token_units(ctx: &BehaviourCtx<'_, '_>) -> u64 {
    u64::try_from(ctx.state().tokens.len())
        .unwrap_or(u64::MAX)
        .saturating_mul(MODEL_UNITS)
}

fn tokens(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    Args::new("tokens", a).at_most(0)?;
    let ts = with_ctx(lua, |lua, ctx| {
        charge(lua, token_units(ctx))?;
        let all = ctx.state().tokens.clone();
        Ok(classed(ctx, all))
    })?;
    token_tables(lua, ts)
}

fn tokens_at(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("tokens_at", a);
    a.at_most(1)?;
    let p = a.pos(0, "square")?;
    let ts = with_ctx(lua, move |lua, ctx| {
        charge(lua, token_units(ctx))?;
        let here: Vec<Token> = ctx.state().tokens_at(p).cloned().collect();
        Ok(classed(ctx, here))
    })?;
    token_tables(lua, ts)
}

/// Most Health one effect deals or heals, as a script's argument.
const AMOUNT: i64 = overmind_core::effect::MAX_AMOUNT as i64;

fn damage(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("damage", a);
    a.at_most(2)?;
    let model = a.model(0, "model")?;
    let n = a.int(1, "n", 1, AMOUNT)?;
    with_ctx(lua, move |lua, ctx| {
        // Damage may kill, and a kill may end the game: both walk the models.
        charge(lua, model_units(ctx))?;
        ctx.deal_damage(&model, u32::try_from(n).unwrap_or(0))
            .map_err(|e| core_err("damage", &e))
    })?;
    args::none()
}

fn psychic_attack(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("psychic_attack", a);
    a.at_most(3)?;
    let unit = a.unit(0, "unit")?;
    let target = a.target(1, "target")?;
    let (cv, defends) = a.psychic_options(2)?;
    with_ctx(lua, move |lua, ctx| {
        // The damage may kill and reveal: both walk the models.
        charge(lua, model_units(ctx))?;
        ctx.psychic_attack(&unit, &target, cv, defends)
            .map_err(|e| core_err("psychic_attack", &e))
    })?;
    args::none()
}

fn draw_card(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("draw_card", a);
    a.at_most(3)?;
    let deck = a.one_of(0, "deck", &EVENT_DECKS)?;
    let unit = if a.is_nil(1) {
        None
    } else {
        Some(a.unit(1, "unit")?)
    };
    let at = if a.is_nil(2) {
        None
    } else {
        Some(a.pos(2, "square")?)
    };
    let card = with_ctx(lua, move |lua, ctx| {
        // The card's effect may kill and reveal: both walk the models.
        charge(lua, model_units(ctx))?;
        ctx.draw_card(deck, unit.as_deref(), at)
            .map_err(|e| core_err("draw_card", &e))
    })?;
    match card {
        Some(id) => args::one(id.to_string(), lua),
        None => args::one(Value::Nil, lua),
    }
}

fn heal(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("heal", a);
    a.at_most(2)?;
    let model = a.model(0, "model")?;
    let n = a.int(1, "n", 1, AMOUNT)?;
    let healed = with_ctx(lua, move |_, ctx| {
        ctx.heal(&model, u32::try_from(n).unwrap_or(0))
            .map_err(|e| core_err("heal", &e))
    })?;
    args::one(healed, lua)
}

fn set_status(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("set_status", a);
    a.at_most(3)?;
    let model = a.model(0, "model")?;
    let status = a.one_of(1, "status", &STATUSES)?;
    let on = a.boolean(2, "on")?;
    with_ctx(lua, move |_, ctx| {
        ctx.set_status(&model, status, on)
            .map_err(|e| core_err("set_status", &e))
    })?;
    args::none()
}

fn modify(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("modify", a);
    a.at_most(4)?;
    let model = a.model(0, "model")?;
    let stat = a.one_of(1, "stat", &STATS)?;
    let change = a.change(2, "change", i64::from(MAX_CHANGE))?;
    let until = a.one_of(3, "duration", &UNTILS)?;
    with_ctx(lua, move |_, ctx| {
        ctx.modify(&model, stat, change, until)
            .map_err(|e| core_err("modify", &e))
    })?;
    args::none()
}

fn modify_attack(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("modify_attack", a);
    a.at_most(2)?;
    let roll = a.one_of(0, "what", &ROLLS)?;
    let change = a.change(1, "change", i64::from(MAX_CHANGE))?;
    // Outside `before_attack` there is no attack about to roll: the change would wait for
    // whichever attack came next.
    let hook = lua.app_data_ref::<Rc<Calls>>().and_then(|c| c.hook());
    if hook != Some(Hook::BeforeAttack) {
        let now = hook.map_or_else(
            || "a behaviour".to_string(),
            |h| format!("a {} hook", h.name()),
        );
        return err(format!(
            "modify_attack: only a before_attack hook can change an attack (this is {now})"
        ));
    }
    with_ctx(lua, move |_, ctx| {
        ctx.modify_attack(roll, change)
            .map_err(|e| core_err("modify_attack", &e))
    })?;
    args::none()
}

fn spawn_unit(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("spawn_unit", a);
    a.at_most(3)?;
    let kind = a.string(0, "type_id")?;
    let at = a.pos(1, "square")?;
    let n = a.int(2, "n", 1, 12)?;
    let unit = with_ctx(lua, move |lua, ctx| {
        // The Overmind places the other models next to the first: a search of the map.
        charge(lua, search_units(ctx).saturating_add(model_units(ctx)))?;
        let id = ctx
            .spawn_unit(&kind, at, u32::try_from(n).unwrap_or(1))
            .map_err(|e| core_err("spawn_unit", &e))?;
        Ok(UnitRef::of(ctx, &id))
    })?;
    match unit {
        Some(u) => args::one(Value::UserData(lua.create_any_userdata(u)?), lua),
        None => args::one(Value::Nil, lua),
    }
}

fn spawn_blip(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("spawn_blip", a);
    a.at_most(3)?;
    let at = a.pos(0, "square")?;
    let holds = a.string(1, "holds")?;
    let size = if a.is_nil(2) {
        None
    } else {
        Some(a.int(2, "size", 1, 12)?)
    };
    let id = with_ctx(lua, move |lua, ctx| {
        // A Hero that sees the square reveals it at once: Line of Sight from every Hero.
        charge(lua, model_units(ctx).saturating_add(search_units(ctx)))?;
        let contents = if holds == "decoy" {
            Contents::Decoy
        } else {
            let full = ctx.content().aliens.get(holds.as_str()).map(|t| t.unit.max);
            let size = size
                .and_then(|n| u32::try_from(n).ok())
                .or(full)
                .unwrap_or(1);
            Contents::Unit {
                type_id: Id::from(holds.as_str()),
                size,
                leader: None,
            }
        };
        ctx.spawn_blip(at, contents)
            .map_err(|e| core_err("spawn_blip", &e))
    })?;
    args::one(id.as_str(), lua)
}

fn place_token(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("place_token", a);
    a.at_most(2)?;
    let kind = a.string(0, "kind")?;
    let at = a.pos(1, "square")?;
    let placed = with_ctx(lua, move |lua, ctx| {
        // Charged by the tokens its id is found among (bounded by `max_tokens`).
        charge(lua, token_units(ctx))?;
        let id = ctx
            .place_token(&kind, at)
            .map_err(|e| core_err("place_token", &e))?;
        let t = ctx.state().token(&id).cloned();
        Ok(t.map(|t| {
            let class = token_class(ctx, &t.kind);
            (t, class)
        }))
    })?;
    match placed {
        Some((t, class)) => args::one(token_table(lua, &t, class)?, lua),
        None => args::one(Value::Nil, lua),
    }
}

fn remove_token(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("remove_token", a);
    a.at_most(1)?;
    let token = a.token(0, "token")?;
    with_ctx(lua, move |_, ctx| {
        ctx.remove_token(&token)
            .map_err(|e| core_err("remove_token", &e))
    })?;
    args::none()
}

fn take_token(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("take_token", a);
    a.at_most(2)?;
    let model = a.model(0, "model")?;
    let token = a.token(1, "token")?;
    with_ctx(lua, move |_, ctx| {
        ctx.take_token(&model, &token)
            .map_err(|e| core_err("take_token", &e))
    })?;
    args::none()
}

fn actions(lua: &Lua, a: MultiValue, func: &'static str, sign: i32) -> mlua::Result<MultiValue> {
    let a = Args::new(func, a);
    a.at_most(2)?;
    let unit = a.unit(0, "unit")?;
    let n = a.int(1, "n", 1, 2)?;
    let change = sign * i32::try_from(n).unwrap_or(0);
    with_ctx(lua, move |_, ctx| {
        ctx.change_actions(&unit, change)
            .map_err(|e| core_err(func, &e))
    })?;
    args::none()
}

fn give_actions(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    actions(lua, a, "give_actions", 1)
}

fn take_actions(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    actions(lua, a, "take_actions", -1)
}

fn declare_winner(lua: &Lua, _: &GameRef, a: MultiValue) -> mlua::Result<MultiValue> {
    let a = Args::new("declare_winner", a);
    a.at_most(2)?;
    let side = a.one_of(0, "side", &SIDES)?;
    let reason = a.string(1, "reason")?;
    with_ctx(lua, move |_, ctx| {
        ctx.declare_winner(side, &reason);
        Ok(())
    })?;
    args::none()
}

/// `game.storage`: the running call's table, built from the game state on the first read.
fn storage(lua: &Lua) -> mlua::Result<Value> {
    let calls = lua
        .app_data_ref::<Rc<Calls>>()
        .map(|c| Rc::clone(&c))
        .ok_or_else(|| mlua::Error::runtime("internal: the Lua API is not set up"))?;
    let t = calls.storage(|| {
        let saved = with_ctx(lua, |_, ctx| Ok(ctx.storage().cloned()))?;
        storage::to_lua(lua, saved.as_ref())
    })?;
    Ok(Value::Table(t))
}

/// The `Game` class.
pub(crate) static GAME: Class<GameRef> = Class {
    name: "Game",
    var: "game",
    doc: "The Overmind's view of the game, passed to `perform` and to every hook function as \
          `game`. Queries answer from the state as it is now; handles in the results are \
          snapshots. Effects (`damage`, `heal`, `place_token`, ...) change the game outside the \
          rules' own steps: each is checked first and announced by an `effect` event naming \
          the script (docs/RULES.md §14). Arrays come in a \
          defined order (game order: units as they entered the game, models within a unit). \
          Every decision the rules leave to the Overmind goes to its controller (a person, the \
          AI or a test), exactly as native behaviours ask it.",
    key: |_| "game".to_string(),
    singleton: Some(|| GameRef),
    fields: &[
        Field {
            doc: FieldDoc { name: "rules", ty: "Rules", doc: "The game's rule settings." },
            get: |lua, _| {
                let r = with_ctx(lua, |_, ctx| Ok(Arc::clone(&ctx.state().rules)))?;
                Ok(Value::UserData(lua.create_any_userdata(RulesRef(r))?))
            },
        },
        Field {
            doc: FieldDoc {
                name: "storage",
                ty: "table",
                doc: "What this behaviour (or token, ability, alien type or trigger script) \
                      keeps between calls: a table of plain values (nil, \
                      booleans, numbers, strings and tables of these, with integer or string \
                      keys), part of the game state (saved, replayed, copied for look-ahead). \
                      Each script id has its own. Change its contents (`game.storage.n = \
                      (game.storage.n or 0) + 1`); when the call ends, also by an error, it is \
                      checked and kept. Anything else in it (a function, a handle, a table with a \
                      metatable or a cycle, NaN, more than 10,000 values or 1 MiB of strings, \
                      tables deeper than 32) fails the behaviour, and the storage keeps its \
                      earlier contents. Nothing else a script holds outlives the call.",
            },
            get: |lua, _| storage(lua),
        },
        Field {
            doc: FieldDoc { name: "round", ty: "integer", doc: "The current round, from 1." },
            get: |lua, _| Ok(Value::Integer(i64::from(with_ctx(lua, |_, ctx| Ok(ctx.state().round))?))),
        },
        Field {
            doc: FieldDoc { name: "width", ty: "integer", doc: "Columns of the map (x runs 0 to width - 1)." },
            get: |lua, _| Ok(Value::Integer(i64::from(with_ctx(lua, |_, ctx| Ok(ctx.state().map.width()))?))),
        },
        Field {
            doc: FieldDoc { name: "height", ty: "integer", doc: "Rows of the map (y runs 0 to height - 1)." },
            get: |lua, _| Ok(Value::Integer(i64::from(with_ctx(lua, |_, ctx| Ok(ctx.state().map.height()))?))),
        },
    ],
    methods: &[
        Method {
            doc: FnDoc { name: "heroes", params: &[], returns: &[Ret { ty: "Model[]", doc: "Every Hero model on the map." }], doc: "All Heroes." },
            make: |lua| method(lua, heroes),
        },
        Method {
            doc: FnDoc { name: "aliens", params: &[], returns: &[Ret { ty: "Model[]", doc: "Every Alien model on the map, the performing unit's too." }], doc: "All revealed Alien models." },
            make: |lua| method(lua, aliens),
        },
        Method {
            doc: FnDoc { name: "blips", params: &[], returns: &[Ret { ty: "Blip[]", doc: "Every face-down Blip." }], doc: "All Blips still face down." },
            make: |lua| method(lua, blips),
        },
        Method {
            doc: FnDoc {
                name: "model",
                params: &[Param { name: "id", ty: "string", doc: "A model id." }],
                returns: &[Ret { ty: "Model?", doc: "A fresh handle, or nil when no such model is on the map." }],
                doc: "A model by id: the way to see where a model is now.",
            },
            make: |lua| method(lua, model),
        },
        Method {
            doc: FnDoc {
                name: "unit",
                params: &[Param { name: "id", ty: "string", doc: "A unit id (e.g. `model.unit`)." }],
                returns: &[Ret { ty: "Unit?", doc: "nil when there is no such unit." }],
                doc: "A unit by id.",
            },
            make: |lua| method(lua, unit),
        },
        Method {
            doc: FnDoc {
                name: "blip",
                params: &[Param { name: "id", ty: "string", doc: "A Blip id." }],
                returns: &[Ret { ty: "Blip?", doc: "nil when no such Blip is face down." }],
                doc: "A face-down Blip by id.",
            },
            make: |lua| method(lua, blip),
        },
        Method {
            doc: FnDoc {
                name: "visible_heroes",
                params: &[Param { name: "unit", ty: "Unit", doc: "Whose sight." }],
                returns: &[Ret { ty: "Model[]", doc: "Hero models some model of the unit has in Line of Sight." }],
                doc: "The Heroes a unit can see (a unit sees what any of its models sees).",
            },
            make: |lua| method(lua, visible_heroes),
        },
        Method {
            doc: FnDoc {
                name: "heroes_seeing",
                params: &[Param { name: "unit", ty: "Unit", doc: "Who is seen." }],
                returns: &[Ret { ty: "Model[]", doc: "Hero models that have some model of the unit in Line of Sight." }],
                doc: "The Heroes that can see a unit (Line of Sight is symmetric).",
            },
            make: |lua| method(lua, heroes_seeing),
        },
        Method {
            doc: FnDoc {
                name: "closest",
                params: &[
                    Param { name: "unit", ty: "Unit", doc: "Measured from its models." },
                    Param { name: "models", ty: "Model[]", doc: "The candidates." },
                    Param { name: "prompt", ty: "string?", doc: "The question a tie asks the Overmind (default `\"Several are equally close: which one?\"`)." },
                ],
                returns: &[Ret { ty: "Model?", doc: "nil when `models` is empty." }],
                doc: "The candidate closest to the unit by legal path (steps to a square next to \
                      it; 0 when already adjacent). Ties are the Overmind's choice, asked with \
                      `prompt`.",
            },
            make: |lua| method(lua, closest),
        },
        Method {
            doc: FnDoc {
                name: "model_order",
                params: &[
                    Param { name: "unit", ty: "Unit", doc: "Usually the performing unit." },
                    Param { name: "prompt", ty: "string?", doc: "The question each pick asks the Overmind (default `\"Which model acts next?\"`)." },
                ],
                returns: &[Ret { ty: "Model[]", doc: "The unit's models in the order the Overmind picks." }],
                doc: "Asks the Overmind in which order the unit's models act (docs/RULES.md §8.1: a unit \
                      of several models moves model by model in the Overmind's order).",
            },
            make: |lua| method(lua, model_order),
        },
        Method {
            doc: FnDoc {
                name: "los",
                params: &[
                    Param { name: "a", ty: "Model|Blip|Pos", doc: "One square." },
                    Param { name: "b", ty: "Model|Blip|Pos", doc: "The other." },
                ],
                returns: &[Ret { ty: "boolean", doc: "True when a straight line joins them past no wall or obstacle (docs/RULES.md §3)." }],
                doc: "Line of Sight between two squares, with the models and Blips on the map now. \
                      Raises an error for a square off the map.",
            },
            make: |lua| method(lua, los),
        },
        Method {
            doc: FnDoc {
                name: "distance",
                params: &[
                    Param { name: "a", ty: "Model|Blip|Pos", doc: "One square." },
                    Param { name: "b", ty: "Model|Blip|Pos", doc: "The other." },
                ],
                returns: &[Ret { ty: "integer", doc: "King-move count of squares, ignoring terrain: the game's range." }],
                doc: "Distance for ranges (docs/RULES.md §4.1).",
            },
            make: |lua| method(lua, distance),
        },
        Method {
            doc: FnDoc {
                name: "path_distance",
                params: &[
                    Param { name: "from", ty: "Model|Blip|Pos", doc: "Start square (its occupant never blocks)." },
                    Param { name: "to", ty: "Model|Blip|Pos", doc: "Destination square." },
                ],
                returns: &[Ret { ty: "integer?", doc: "Legal steps, or nil when there is no path (an occupied destination has none: use `steps_to_adjacent`)." }],
                doc: "Steps of a shortest legal path between two squares.",
            },
            make: |lua| method(lua, path_distance),
        },
        Method {
            doc: FnDoc {
                name: "steps_to_adjacent",
                params: &[
                    Param { name: "from", ty: "Model|Blip|Pos", doc: "Start square." },
                    Param { name: "to", ty: "Model|Blip|Pos", doc: "The square to end next to (usually occupied)." },
                ],
                returns: &[Ret { ty: "integer?", doc: "Legal steps, or nil when no square next to it can be reached." }],
                doc: "Steps of a shortest legal path to a square adjacent to `to`.",
            },
            make: |lua| method(lua, steps_to_adjacent),
        },
        Method {
            doc: FnDoc {
                name: "terrain",
                params: &[Param { name: "square", ty: "Model|Blip|Pos", doc: "A square." }],
                returns: &[Ret { ty: "Terrain", doc: "Off the map: `\"solid\"`." }],
                doc: "The kind of a square (docs/RULES.md §2).",
            },
            make: |lua| method(lua, terrain),
        },
        Method {
            doc: FnDoc {
                name: "squares",
                params: &[Param { name: "terrain", ty: "Terrain", doc: "Which kind of square." }],
                returns: &[Ret { ty: "Pos[]", doc: "Every square of that kind, row by row from the top-left (`y`, then `x`)." }],
                doc: "The squares of one kind (docs/RULES.md §2): one call, where a loop over the map calling `game:terrain` makes one a square.",
            },
            make: |lua| method(lua, squares),
        },
        Method {
            doc: FnDoc {
                name: "in_building",
                params: &[Param { name: "square", ty: "Model|Blip|Pos", doc: "A square." }],
                returns: &[Ret { ty: "boolean", doc: "True when the square is part of a building." }],
                doc: "Is a square inside a building?",
            },
            make: |lua| method(lua, in_building),
        },
        Method {
            doc: FnDoc {
                name: "choose",
                params: &[
                    Param { name: "prompt", ty: "string", doc: "The question, as the Overmind's controller sees it." },
                    Param { name: "options", ty: "T[]", doc: "Handles, squares, strings or numbers." },
                ],
                returns: &[Ret { ty: "T?", doc: "The chosen option itself, or nil when `options` is empty (nothing is asked)." }],
                doc: "An Overmind decision among options. A single option is taken without asking.",
            },
            make: |lua| method(lua, choose),
        },
        Method {
            doc: FnDoc {
                name: "confirm",
                params: &[Param { name: "prompt", ty: "string", doc: "A yes/no question." }],
                returns: &[Ret { ty: "boolean", doc: "The Overmind's answer." }],
                doc: "A yes/no Overmind decision (for behaviours that say \"may\").",
            },
            make: |lua| method(lua, confirm),
        },
        Method {
            doc: FnDoc {
                name: "log",
                params: &[Param { name: "message", ty: "string", doc: "At most 500 characters are kept." }],
                returns: &[],
                doc: "Writes a line to the game's event log (a `log` event of the performing unit, \
                      or of a hook's moment's unit), e.g. why a behaviour could not be carried out.",
            },
            make: |lua| method(lua, log),
        },
        Method {
            doc: FnDoc {
                name: "tokens",
                params: &[],
                returns: &[Ret { ty: "Token[]", doc: "Every token in play, carried ones too, in the order they came into play." }],
                doc: "All tokens (docs/RULES.md §14).",
            },
            make: |lua| method(lua, tokens),
        },
        Method {
            doc: FnDoc {
                name: "tokens_at",
                params: &[Param { name: "square", ty: "Model|Blip|Pos", doc: "A square." }],
                returns: &[Ret { ty: "Token[]", doc: "The tokens lying there (not those carried)." }],
                doc: "The tokens on a square.",
            },
            make: |lua| method(lua, tokens_at),
        },
        Method {
            doc: FnDoc {
                name: "damage",
                params: &[
                    Param { name: "model", ty: "Model|string", doc: "The model hurt (a handle or its id)." },
                    Param { name: "n", ty: "integer", doc: "Health it loses (1 to 20)." },
                ],
                returns: &[],
                doc: "An effect: `model` loses `n` Health (all of it that model's, not allocated \
                      as an attack's damage is), dying at 0; `after_damage` and `killed` \
                      triggers follow. Raises an error for a model not on the map.",
            },
            make: |lua| method(lua, damage),
        },
        Method {
            doc: FnDoc {
                name: "psychic_attack",
                params: &[
                    Param { name: "unit", ty: "Unit|string", doc: "The attacking unit (a Hero's or an Alien Unit), on the map." },
                    Param { name: "target", ty: "Model|Unit|Blip|string", doc: "A model of the other side (a unit: its first model), or, for a Hero, a face-down Blip." },
                    Param { name: "options", ty: "{ cv: integer, defence: boolean? }", doc: "`cv`: the attack's Combat Value (1 to 20); `defence = true` lets the target roll its Defence." },
                ],
                returns: &[],
                doc: "A Psychic attack (docs/RULES.md §6.8), for abilities: no Line of Sight or \
                      range needed, the target rolls no Defence unless `defence` says it may, \
                      hits allocated as any attack's; an `attack` event of kind `psychic`. On a \
                      Blip it is a damage-triggered reveal: the revealed unit takes the damage, \
                      then its behaviour (§7.6). Made in an Alien Behaviour it rolls the \
                      behaviour penalty. Raises an error for a unit or target not on the map, or a \
                      target of the unit's own side.",
            },
            make: |lua| method(lua, psychic_attack),
        },
        Method {
            doc: FnDoc {
                name: "draw_card",
                params: &[
                    Param { name: "deck", ty: "\"hazard\"|\"item\"|\"exploration\"", doc: "The event deck." },
                    Param { name: "unit", ty: "Unit|string|nil", doc: "The unit that draws it (its card's `ctx.unit`), if any." },
                    Param { name: "square", ty: "Model|Blip|Pos|nil", doc: "Where (its card's `ctx.at`), if anywhere." },
                ],
                returns: &[Ret { ty: "string?", doc: "The card drawn, or nil when the mission deals no such deck (or it holds no card)." }],
                doc: "An effect (docs/RULES.md §15.8): the top card of a Hazard, Item or \
                      Exploration deck is drawn face up (`card_turned`) and its `play(game, ctx)` \
                      runs at once, for the side of `unit` (the Heroes' when none); an empty draw \
                      pile takes its discard pile, shuffled. How an item token or a building \
                      explored draws its card.",
            },
            make: |lua| method(lua, draw_card),
        },
        Method {
            doc: FnDoc {
                name: "heal",
                params: &[
                    Param { name: "model", ty: "Model|string", doc: "The model healed (a handle or its id)." },
                    Param { name: "n", ty: "integer", doc: "Health to give back (1 to 20)." },
                ],
                returns: &[Ret { ty: "integer", doc: "The Health it got back: never above its starting Health, so 0 for an unhurt model." }],
                doc: "An effect: `model` gets back up to `n` Health.",
            },
            make: |lua| method(lua, heal),
        },
        Method {
            doc: FnDoc {
                name: "set_status",
                params: &[
                    Param { name: "model", ty: "Model|string", doc: "The model (a handle or its id)." },
                    Param { name: "status", ty: "StatusName", doc: "Which status." },
                    Param { name: "on", ty: "boolean", doc: "`true` sets it, `false` clears it." },
                ],
                returns: &[],
                doc: "An effect: sets or clears a status of `model` (docs/RULES.md §6.6).",
            },
            make: |lua| method(lua, set_status),
        },
        Method {
            doc: FnDoc {
                name: "modify",
                params: &[
                    Param { name: "model", ty: "Model|string", doc: "The model (a handle or its id)." },
                    Param { name: "stat", ty: "Stat", doc: "Which stat (`shoot`: the CV of every band)." },
                    Param { name: "change", ty: "integer", doc: "How much (-10 to 10, not 0)." },
                    Param { name: "duration", ty: "Until", doc: "`\"activation\"`: until the end of its unit's current (or next) activation; `\"round\"`: until the end of the round." },
                ],
                returns: &[],
                doc: "An effect: a stat modifier (a stat never goes below 0 for it). The log \
                      names it when it is made and when it ends.",
            },
            make: |lua| method(lua, modify),
        },
        Method {
            doc: FnDoc {
                name: "modify_attack",
                params: &[
                    Param { name: "what", ty: "AttackRoll", doc: "`\"dice\"`: the attack's dice; `\"defence\"`: the target's Defence." },
                    Param { name: "change", ty: "integer", doc: "How much (-10 to 10, not 0)." },
                ],
                returns: &[],
                doc: "In a `before_attack` hook only: a stated modifier of the attack about to \
                      roll, which the roll names with this script as its source.",
            },
            make: |lua| method(lua, modify_attack),
        },
        Method {
            doc: FnDoc {
                name: "spawn_unit",
                params: &[
                    Param { name: "type_id", ty: "string", doc: "A loaded Alien Type." },
                    Param { name: "square", ty: "Model|Blip|Pos", doc: "A free square for its first model." },
                    Param { name: "n", ty: "integer", doc: "Models (1 to the type's `unit.max`); the Overmind places the others next to the first." },
                ],
                returns: &[Ret { ty: "Unit?", doc: "The new Alien Unit (nil if it is gone already)." }],
                doc: "An effect: a new Alien Unit enters the game, revealed.",
            },
            make: |lua| method(lua, spawn_unit),
        },
        Method {
            doc: FnDoc {
                name: "spawn_blip",
                params: &[
                    Param { name: "square", ty: "Model|Blip|Pos", doc: "A free square." },
                    Param { name: "holds", ty: "string", doc: "A loaded Alien Type's id, or `\"decoy\"`." },
                    Param { name: "size", ty: "integer?", doc: "Models of the unit it holds (1 to the type's `unit.max`; default `unit.max`)." },
                ],
                returns: &[Ret { ty: "string", doc: "The new Blip's id (a Hero that sees its square reveals it at once)." }],
                doc: "An effect: a new face-down Blip; the log names only its square.",
            },
            make: |lua| method(lua, spawn_blip),
        },
        Method {
            doc: FnDoc {
                name: "place_token",
                params: &[
                    Param { name: "kind", ty: "string", doc: "A loaded token kind (`token { id = ... }`)." },
                    Param { name: "square", ty: "Model|Blip|Pos", doc: "A square on the map that is not solid (a token never blocks)." },
                ],
                returns: &[Ret { ty: "Token", doc: "The new token." }],
                doc: "An effect: puts a token on a square.",
            },
            make: |lua| method(lua, place_token),
        },
        Method {
            doc: FnDoc {
                name: "remove_token",
                params: &[Param { name: "token", ty: "Token|string", doc: "The token (its table or its id)." }],
                returns: &[],
                doc: "An effect: takes a token out of play (off the map or out of a model's hands).",
            },
            make: |lua| method(lua, remove_token),
        },
        Method {
            doc: FnDoc {
                name: "take_token",
                params: &[
                    Param { name: "model", ty: "Model|string", doc: "Who picks it up (a handle or its id)." },
                    Param { name: "token", ty: "Token|string", doc: "A token lying on the model's square or next to it." },
                ],
                returns: &[],
                doc: "An effect: `model` picks `token` up and carries it; it drops it where it dies.",
            },
            make: |lua| method(lua, take_token),
        },
        Method {
            doc: FnDoc {
                name: "give_actions",
                params: &[
                    Param { name: "unit", ty: "Unit|string", doc: "The unit (a handle or its id)." },
                    Param { name: "n", ty: "integer", doc: "Actions (1 or 2)." },
                ],
                returns: &[],
                doc: "An effect: the unit gets back `n` of the actions it used this activation.",
            },
            make: |lua| method(lua, give_actions),
        },
        Method {
            doc: FnDoc {
                name: "take_actions",
                params: &[
                    Param { name: "unit", ty: "Unit|string", doc: "The unit (a handle or its id)." },
                    Param { name: "n", ty: "integer", doc: "Actions (1 or 2)." },
                ],
                returns: &[],
                doc: "An effect: the unit loses `n` of the actions it has left this activation.",
            },
            make: |lua| method(lua, take_actions),
        },
        Method {
            doc: FnDoc {
                name: "declare_winner",
                params: &[
                    Param { name: "side", ty: "Side", doc: "Who wins." },
                    Param { name: "reason", ty: "string", doc: "Why, for the log and the summary (at most 200 characters are kept)." },
                ],
                returns: &[],
                doc: "An effect, for a `victory_check` hook: the game ends now with `side` the \
                      winner. Nothing happens once the game is over.",
            },
            make: |lua| method(lua, declare_winner),
        },
    ],
};

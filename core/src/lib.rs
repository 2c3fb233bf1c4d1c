/*!
Pure rules of the *Chronicle X* Mission game: the map, Line of Sight, movement, Blip Tokens,
rounds, combat and the Alien Behaviour hook.

`core` knows nothing of Lua, terminals or files: behaviours reach it through the
[`Behaviour`] trait, and every decision a player makes is asked of a [`Controller`].
Everything changes through [`Game::apply`] ([`Game::check`], then [`Game::play`]), which
returns the [`Event`]s that happened.

The crate is four layers, each a folder importing only from the ones before it
(docs/ARCHITECTURE.md): [`data`] (ids, state, map, profiles, cards, tokens and hooks as
data) ← [`board`] (Line of Sight, movement and paths) ← [`rules`] (validation, resolution, the
reveal chain, triggers, effects, cards) ← [`ai`] (planners, look-ahead, the card AI), which
uses only the public API. The modules below the layers keep the paths hosts and packs use.
*/

pub mod ai;
pub mod board;
pub mod data;
pub mod rules;

pub use ai::{cards as ai_cards, lookahead};
pub use board::{los, movement};
pub use data::{
    action, dice, event, geom, id, map, mission, profile, settings, source, state, storage, token,
};
pub use rules::{
    behaviour, campaign, card, content, decision, deck, dev, effect, game, hand, hazard, interrupt,
    legal, native, psychic, setup, stats, trigger, validate,
};

pub use action::{Action, Refusal, RefusalKind};
pub use behaviour::{Behaviour, BehaviourCtx, BehaviourError, ModelInfo};
pub use card::{CardDef, CardTarget, Deck};
pub use content::Content;
pub use data::campaign::{Campaign, CampaignMission, Carry, HeroCarry, Upgrade};
pub use data::view::{HeroesView, View};
pub use decision::{
    Answer, Choice, Controller, Controllers, Decision, DecisionKind, FirstOption, Scripted,
};
pub use event::{AttackKind, Event, RevealCause};
pub use game::{Game, Record};
pub use geom::{Dir, Pos};
pub use id::Id;
pub use los::{LineOfSight, LosRule};
pub use map::{BuildingId, Edge, Map, MapBuilder, Obstacles, Terrain};
pub use mission::{Mission, MissionError, MissionErrors, Placement};
pub use movement::{
    adjacent, can_step, path_distance, reachable, shortest_path, towards, DistanceField, Goal,
};
pub use profile::{AlienType, Band, Effect, HeroProfile, Makeup, Shoot};
pub use rules::preview::BehaviourChoice;
pub use settings::{RevealTrigger, Rules};
pub use setup::{
    AlienSetup, BlipSetup, CardSlot, HeroSetup, PoolEntry, Setup, SetupError, TokenSetup,
};
pub use state::{Blip, Contents, GameState, Model, Objective, Outcome, Phase, Side, Unit};
pub use stats::Stats;
pub use validate::Checked;

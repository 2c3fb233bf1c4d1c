/*!
Pure rules of the *Chronicle X* Mission game: the map, Line of Sight, movement, Blip Tokens,
rounds, combat and the Alien Behaviour hook.

`core` knows nothing of Lua, terminals or files: behaviours reach it through the
[`Behaviour`] trait, and every decision a player makes is asked of a [`Controller`].
Everything changes through [`Game::apply`], which returns the [`Event`]s that happened.
*/

pub mod action;
pub mod ai;
pub mod ai_cards;

pub mod behaviour;
pub mod card;
mod combat;
pub mod content;
pub mod decision;
pub mod deck;
mod deploy;
pub mod dev;
pub mod dice;
pub mod effect;
mod engine;
pub mod event;
pub mod game;
pub mod geom;
pub mod hand;
pub mod id;
pub mod interrupt;
pub mod legal;
pub mod lookahead;
pub mod los;
pub mod map;
pub mod mission;
mod motion;
pub mod movement;
pub mod native;
pub mod profile;
mod reveal;
pub mod rules;
pub mod setup;
pub mod source;
pub mod state;
pub mod stats;
pub mod storage;
pub mod token;
pub mod trigger;
pub mod validate;
mod victory;
mod view;
pub use view::{HeroesView, View};
mod names;

pub use action::{Action, Refusal, RefusalKind};
pub use behaviour::{Behaviour, BehaviourCtx, BehaviourError, ModelInfo};
pub use card::{CardDef, CardTarget, Deck};
pub use content::Content;
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
pub use rules::{RevealTrigger, Rules};
pub use setup::{BlipSetup, HeroSetup, PoolEntry, Setup, SetupError, TokenSetup};
pub use state::{Blip, Contents, GameState, Model, Objective, Outcome, Phase, Side, Unit};
pub use stats::Stats;
pub use validate::Checked;

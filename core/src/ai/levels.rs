//! The AI levels and the players and decision controllers that play each side at a level.

use super::decisions::AiController;
use super::heroes::HeroAi;
use super::overmind::OvermindAi;
use crate::data::action::Action;
use crate::data::state::Side;
use crate::data::view::View;
use crate::rules::content::Content;
use crate::rules::decision::Controller;

/// Chooses a side's next action from that side's view.
pub trait Player {
    /// The next action for the side whose phase it is. `End` is always legal.
    fn next_action(&mut self, view: View<'_>, content: &Content) -> Action;
}

/// How hard an AI side plays (`--overmind-ai` / `--heroes-ai`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// The first AI, kept unchanged as the reference opponent.
    Greedy,
    /// Looks ahead one behaviour or action on a copy and plays the whole turn sensibly.
    #[default]
    Standard,
    /// Searches deeper: more samples of the dice and a play-out of the activation.
    Strong,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Greedy, Level::Standard, Level::Strong];

    /// The level's name, as the command line spells it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Greedy => "greedy",
            Level::Standard => "standard",
            Level::Strong => "strong",
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("no AI level `{s}`: expected greedy, standard or strong"))
    }
}

/// The AI levels of both sides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    pub heroes: Level,
    pub overmind: Level,
}

/// A decision controller for a side played at `level`.
#[must_use]
pub fn controller(level: Level) -> Box<dyn Controller> {
    match level {
        Level::Greedy => Box::new(AiController),
        _ => Box::new(crate::ai::lookahead::Lookahead::new(level)),
    }
}

/// An action chooser for `side` played at `level`.
#[must_use]
pub fn player(side: Side, level: Level) -> Box<dyn Player> {
    match (side, level) {
        (Side::Heroes, Level::Greedy) => Box::new(HeroAi),
        (Side::Overmind, Level::Greedy) => Box::new(OvermindAi),
        (Side::Heroes, l) => Box::new(crate::ai::lookahead::HeroPlanner::new(l)),
        (Side::Overmind, l) => Box::new(crate::ai::lookahead::OvermindPlanner::new(l)),
    }
}

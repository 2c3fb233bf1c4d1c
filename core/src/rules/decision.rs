//! Decisions the rules leave to a player, and the controllers that answer them.

use crate::data::geom::Pos;
use crate::data::id::Id;
use crate::data::state::{GameState, Side};
use crate::data::view::{HeroesView, View};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// What a decision is about, so controllers (AI, tests) can answer by kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// Which of a unit's behaviours to perform.
    Behaviour,
    /// Where to put a revealed model.
    Placement,
    /// Which of several simultaneously revealed Blips resolves first.
    RevealOrder,
    /// Which equally good square to end a move on.
    Destination,
    /// Which model of a unit takes the next hit.
    HitAllocation,
    /// Which model of a unit moves next.
    ModelOrder,
    /// Where a pushed-back model goes.
    PushBack,
    /// A behaviour's own question (`game:choose`).
    Choice,
    /// A yes/no question (`game:confirm`): option 0 = yes, 1 = no.
    Confirm,
    /// Which of several shortest paths a move takes to its square (docs/RULES.md §4.2).
    Path,
    /// Where a unit deploys, by the rules (docs/RULES.md §7.2): a Yellow Square, a Hero's
    /// square next to one, a Blip's square.
    Deploy,
    /// Which wall an XXL model destroys, when more than one qualifies (docs/RULES.md §5.4).
    Wall,
}

/// One option of a decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Choice {
    Square(Pos),
    Id(Id),
    /// A whole path, start first.
    Path(Vec<Pos>),
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Choice::Square(p) => write!(f, "{p}"),
            Choice::Id(s) => f.write_str(s),
            Choice::Path(p) => {
                for (i, q) in p.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" → ")?;
                    }
                    write!(f, "{q}")?;
                }
                Ok(())
            }
        }
    }
}

/// A request for a choice: answered with an index into `options`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    pub who: Side,
    pub kind: DecisionKind,
    pub prompt: String,
    pub options: Vec<Choice>,
    /// The unit the decision is about, when there is one (e.g. whose behaviour).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
}

/// Answers decisions for one side. It is handed its side's [`View`]: a Heroes controller gets
/// a [`HeroesView`], which holds no face-down Blip's contents.
pub trait Controller {
    /// Pick one of `decision.options` by index. Out-of-range answers are taken as 0.
    fn decide(&mut self, view: View<'_>, decision: &Decision) -> usize;

    /// Scores for each of `options`, the Alien Behaviours a unit may perform now (higher is
    /// better for the deciding side), when this controller looks ahead before it chooses
    /// (`None`: it does not). `choice` plays any option out on a copy of the game, so nothing
    /// reaches the real game, its storage, its dice or its replay; the scores go to
    /// [`Controller::decide_scored`].
    fn score_behaviours(
        &mut self,
        choice: &crate::rules::preview::BehaviourChoice<'_>,
        options: &[crate::data::id::Id],
    ) -> Option<Vec<f64>> {
        let _ = (choice, options);
        None
    }

    /// Pick an option knowing each one's look-ahead score (higher is better for the deciding
    /// side), one per option.
    fn decide_scored(&mut self, view: View<'_>, decision: &Decision, scores: &[f64]) -> usize {
        let _ = scores;
        self.decide(view, decision)
    }

    /// Everything that has happened so far in the action being resolved, handed over just
    /// before a decision it leads to (the roll before "which model takes the next hit?"), so a
    /// person never answers blind. Later calls in the same action repeat the earlier events
    /// first (show only what is new); the action's full list still comes back from
    /// [`crate::Game::apply`].
    fn context(&mut self, so_far: &[crate::data::event::Event]) {
        let _ = so_far;
    }
}

/// Always the first option: the deterministic fallback.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstOption;

impl Controller for FirstOption {
    fn decide(&mut self, _: View<'_>, _: &Decision) -> usize {
        0
    }
}

/// Answers from a list, in order (replays, tests); then falls back to another controller.
pub struct Scripted<C = FirstOption> {
    pub answers: VecDeque<usize>,
    pub fallback: C,
}

impl Scripted<FirstOption> {
    #[must_use]
    pub fn new(answers: impl IntoIterator<Item = usize>) -> Self {
        Scripted {
            answers: answers.into_iter().collect(),
            fallback: FirstOption,
        }
    }
}

impl<C: Controller> Controller for Scripted<C> {
    fn decide(&mut self, view: View<'_>, d: &Decision) -> usize {
        match self.answers.pop_front() {
            Some(a) => a,
            None => self.fallback.decide(view, d),
        }
    }
}

/// A record of one answered decision, kept for saves and replays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    pub who: Side,
    pub kind: DecisionKind,
    pub index: usize,
}

/// Both sides' controllers, with a record of every answer given.
pub struct Controllers {
    pub heroes: Box<dyn Controller>,
    pub overmind: Box<dyn Controller>,
    pub answers: Vec<Answer>,
}

impl Controllers {
    pub fn new(heroes: Box<dyn Controller>, overmind: Box<dyn Controller>) -> Self {
        Controllers {
            heroes,
            overmind,
            answers: Vec::new(),
        }
    }

    /// The side's controller's look-ahead scores for `options` (see
    /// [`Controller::score_behaviours`]).
    pub fn score_behaviours(
        &mut self,
        side: Side,
        choice: &crate::rules::preview::BehaviourChoice<'_>,
        options: &[crate::data::id::Id],
    ) -> Option<Vec<f64>> {
        match side {
            Side::Heroes => self.heroes.score_behaviours(choice, options),
            Side::Overmind => self.overmind.score_behaviours(choice, options),
        }
    }

    /// Hand `who`'s controller the action's events so far (see [`Controller::context`]).
    pub fn show(&mut self, who: Side, events: &[crate::data::event::Event]) {
        if events.is_empty() {
            return;
        }
        match who {
            Side::Heroes => self.heroes.context(events),
            Side::Overmind => self.overmind.context(events),
        }
    }

    /// Ask the decision's side; a single option is taken without asking.
    pub fn ask(&mut self, state: &GameState, d: &Decision) -> usize {
        self.ask_scored(state, d, None)
    }

    /// [`Controllers::ask`], with look-ahead scores of the options when there are some.
    pub fn ask_scored(&mut self, state: &GameState, d: &Decision, scores: Option<&[f64]>) -> usize {
        if d.options.len() <= 1 {
            return 0;
        }
        let mut i = match (d.who, scores) {
            (Side::Heroes, _) => {
                let view = HeroesView::of(state);
                self.heroes.decide(View::Heroes(&view), d)
            }
            (Side::Overmind, Some(s)) => self.overmind.decide_scored(View::Overmind(state), d, s),
            (Side::Overmind, None) => self.overmind.decide(View::Overmind(state), d),
        };
        if i >= d.options.len() {
            i = 0;
        }
        self.answers.push(Answer {
            who: d.who,
            kind: d.kind,
            index: i,
        });
        i
    }
}

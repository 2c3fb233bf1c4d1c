//! Scenario tests for content authors: small rule situations written in TOML, run against the loaded packs (docs/SCENARIOS.md).
//!
//! A scenario file (`tests/*.toml` in a pack) holds `[[scenario]]` tables. Each sets up a
//! position (a pack's mission or an inline map, with heroes, Blips and revealed Alien Units),
//! forces the dice and the rules it needs, answers the players' decisions from a list, plays a
//! list of actions written as the CLI's commands (`move H 3,4`, `flip B1`, `end`) and checks
//! expectations against the event log and the final state.
//!
//! [`load_file`] reads and checks a file without playing it (what `overmind check` does);
//! [`run_file`] and [`run_packs`] also play every scenario (what `overmind test` does). A
//! file's mistakes are [`Problem`]s (`path:line:column: message`); a scenario whose
//! expectations do not hold is a [`ScenarioResult`] with [`Failure`]s, each saying what was
//! expected, what happened, and the events that show it.

mod events;
mod expect;
mod parse;
mod words;

pub use words::parse_action;

use crate::pack::PackSet;
use crate::problem::Problem;
use expect::{Expect, Observed};
use overmind_core::{
    Action, Content, Controller, Controllers, Decision, Event, FirstOption, Game, GameState, Side,
};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Most lines of the event log a failure shows.
const EXCERPT_LINES: usize = 40;

/// One checked scenario, ready to play any number of times.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Its `name`.
    pub name: String,
    /// The file it is written in.
    pub path: PathBuf,
    /// The line of its `[[scenario]]` header.
    pub line: usize,
    /// The validated starting position.
    state: GameState,
    seed: u64,
    overmind: Vec<Scripted>,
    heroes: Vec<Scripted>,
    fallback: Fallback,
    steps: Vec<Step>,
    expects: Vec<Expect>,
}

/// One answer of the `answers` lists: an option's index or its label, and where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Scripted {
    answer: ScriptedAnswer,
    line: usize,
    column: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ScriptedAnswer {
    Index(usize),
    Label(String),
}

impl fmt::Display for ScriptedAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptedAnswer::Index(i) => write!(f, "{i}"),
            ScriptedAnswer::Label(s) => write!(f, "{s:?}"),
        }
    }
}

/// Who answers once a side's scripted answers run out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Fallback {
    /// Always the first option.
    First,
    /// The built-in AI's answers, at this level.
    Ai(overmind_core::ai::Level),
}

/// One action of the scenario, as written and as parsed.
#[derive(Clone, Debug)]
struct Step {
    action: Action,
    text: String,
    line: usize,
    column: usize,
}

/// What playing one scenario showed.
#[derive(Clone, Debug)]
pub struct ScenarioResult {
    /// The scenario's `name`.
    pub name: String,
    /// The file it is written in.
    pub path: PathBuf,
    /// The line of its `[[scenario]]` header.
    pub line: usize,
    /// Every expectation that did not hold (empty: the scenario passed).
    pub failures: Vec<Failure>,
    /// The whole game as it was played: each event and each decision, one line each.
    pub transcript: Vec<String>,
}

impl ScenarioResult {
    /// Did every expectation hold?
    #[must_use]
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// One expectation that did not hold, or something that went wrong while playing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The file the expectation is written in.
    pub path: PathBuf,
    /// 1-based line of the expectation (or action, or answer) concerned.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was expected and what happened.
    pub message: String,
    /// The lines of the event log (or of the decisions asked) that show what happened.
    pub excerpt: Vec<String>,
}

impl fmt::Display for Failure {
    /// `path:line:column: message`, then the excerpt indented by four spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path.display(),
            self.line,
            self.column,
            self.message
        )?;
        for l in &self.excerpt {
            write!(f, "\n    {l}")?;
        }
        Ok(())
    }
}

/// The scenario files of every loaded pack: each pack's `tests/*.toml`, sorted, packs in load
/// order.
#[must_use]
pub fn files(set: &PackSet) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in &set.packs {
        let mut v: Vec<PathBuf> = std::fs::read_dir(p.dir.join("tests"))
            .map(|rd| {
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| {
                        p.is_file() && p.extension().and_then(|e| e.to_str()) == Some("toml")
                    })
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        out.extend(v);
    }
    out
}

/// Read and check a scenario file against the loaded packs, without playing it: its TOML, its
/// keys, its maps and missions, every unit's placement, its rules, dice, answers, actions and
/// expectations.
///
/// # Errors
/// Every problem found, each as `path:line:column: message`.
pub fn load_file(set: &PackSet, path: &Path) -> Result<Vec<Scenario>, Vec<Problem>> {
    parse::load(set, path)
}

/// Read, check and play every scenario of a file.
///
/// # Errors
/// The file's problems: then no scenario of it is played.
pub fn run_file(set: &PackSet, path: &Path) -> FileResult {
    let scenarios = load_file(set, path)?;
    Ok(scenarios.iter().map(|s| s.run(&set.content)).collect())
}

/// What playing one scenario file gave: the result of each scenario, or the file's problems.
pub type FileResult = Result<Vec<ScenarioResult>, Vec<Problem>>;

/// Every scenario file of every loaded pack ([`files`]), each read, checked and played.
#[must_use]
pub fn run_packs(set: &PackSet) -> Vec<(PathBuf, FileResult)> {
    files(set)
        .into_iter()
        .map(|p| {
            let r = run_file(set, &p);
            (p, r)
        })
        .collect()
}

/// A decision as it was asked and answered, for the transcript.
#[derive(Clone, Debug)]
struct Asked {
    action: usize,
    who: Side,
    decision: Decision,
    answer: usize,
    /// The scenario's answer that was used, if any (else the fallback answered).
    scripted: Option<ScriptedAnswer>,
}

/// What the two answering controllers share with the runner.
#[derive(Default)]
struct Shared {
    /// The 1-based index of the action now resolving.
    action: Cell<usize>,
    asked: RefCell<Vec<Asked>>,
    /// Answers that named no option: (answer, what was asked).
    bad: RefCell<Vec<(Scripted, String)>>,
}

/// Answers one side's decisions from the scenario's list, then from the fallback.
struct Answerer {
    who: Side,
    answers: VecDeque<Scripted>,
    fallback: Box<dyn Controller>,
    shared: Rc<Shared>,
}

impl Controller for Answerer {
    fn score_behaviours(
        &mut self,
        choice: &overmind_core::BehaviourChoice<'_>,
        options: &[overmind_core::Id],
    ) -> Option<Vec<f64>> {
        // A scripted answer needs no look-ahead; the fallback may.
        if self.answers.is_empty() {
            self.fallback.score_behaviours(choice, options)
        } else {
            None
        }
    }

    fn decide_scored(
        &mut self,
        view: overmind_core::View<'_>,
        d: &Decision,
        scores: &[f64],
    ) -> usize {
        if self.answers.is_empty() {
            let answer = self.fallback.decide_scored(view, d, scores);
            self.record(d, answer, None);
            answer
        } else {
            self.decide(view, d)
        }
    }

    fn decide(&mut self, view: overmind_core::View<'_>, d: &Decision) -> usize {
        let labels: Vec<String> = d.options.iter().map(ToString::to_string).collect();
        let (answer, scripted) = match self.answers.pop_front() {
            Some(s) => {
                let found = match &s.answer {
                    ScriptedAnswer::Index(i) => (*i < labels.len()).then_some(*i),
                    ScriptedAnswer::Label(l) => labels
                        .iter()
                        .position(|o| o == l)
                        .or_else(|| labels.iter().position(|o| o.eq_ignore_ascii_case(l))),
                };
                if found.is_none() {
                    let asked = format!(
                        "{} ({}): options {}",
                        d.prompt,
                        kind_name(d),
                        numbered(&labels)
                    );
                    self.shared.bad.borrow_mut().push((s.clone(), asked));
                }
                (found.unwrap_or(0), Some(s.answer))
            }
            None => (self.fallback.decide(view, d), None),
        };
        self.record(d, answer, scripted);
        answer
    }
}

impl Answerer {
    fn record(&self, d: &Decision, answer: usize, scripted: Option<ScriptedAnswer>) {
        self.shared.asked.borrow_mut().push(Asked {
            action: self.shared.action.get(),
            who: self.who,
            decision: d.clone(),
            answer: answer.min(d.options.len().saturating_sub(1)),
            scripted,
        });
    }
}

fn kind_name(d: &Decision) -> String {
    serde_json::to_value(d.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{:?}", d.kind))
}

fn numbered(labels: &[String]) -> String {
    let items: Vec<String> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{i} = {l}"))
        .collect();
    format!("[{}]", items.join(", "))
}

impl Scenario {
    /// Play the scenario with `content` (normally the loaded packs' content) and check its
    /// expectations. Never panics on the scenario's account: an engine or script panic is
    /// reported as a failure.
    #[must_use]
    pub fn run(&self, content: &Content) -> ScenarioResult {
        let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.play(content)));
        let (failures, transcript) = match played {
            Ok(r) => r,
            Err(payload) => {
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                let f = Failure {
                    path: self.path.clone(),
                    line: self.line,
                    column: 1,
                    message: format!("the game panicked while playing this scenario (a bug in the engine or the host, not in the scenario): {what}"),
                    excerpt: Vec::new(),
                };
                (vec![f], Vec::new())
            }
        };
        ScenarioResult {
            name: self.name.clone(),
            path: self.path.clone(),
            line: self.line,
            failures,
            transcript,
        }
    }

    fn failure(
        &self,
        line: usize,
        column: usize,
        message: String,
        excerpt: Vec<String>,
    ) -> Failure {
        Failure {
            path: self.path.clone(),
            line,
            column,
            message,
            excerpt,
        }
    }

    fn controller(
        &self,
        who: Side,
        answers: &[Scripted],
        shared: &Rc<Shared>,
    ) -> Box<dyn Controller> {
        let fallback: Box<dyn Controller> = match self.fallback {
            Fallback::First => Box::new(FirstOption),
            Fallback::Ai(level) => overmind_core::ai::controller(level),
        };
        Box::new(Answerer {
            who,
            answers: answers.iter().cloned().collect(),
            fallback,
            shared: Rc::clone(shared),
        })
    }

    fn play(&self, content: &Content) -> (Vec<Failure>, Vec<String>) {
        let shared = Rc::new(Shared::default());
        let mut ctl = Controllers::new(
            self.controller(Side::Heroes, &self.heroes, &shared),
            self.controller(Side::Overmind, &self.overmind, &shared),
        );
        let mut game = Game::new(self.state.clone(), &self.name, self.seed);
        let mut events: Vec<(usize, Event)> = game.log.iter().cloned().map(|e| (0, e)).collect();
        let mut refusal: Option<(usize, String)> = None;
        for (i, step) in self.steps.iter().enumerate() {
            shared.action.set(i + 1);
            match game.apply(step.action.clone(), content, &mut ctl) {
                Ok(evs) => events.extend(evs.into_iter().map(|e| (i + 1, e))),
                Err(e) => {
                    refusal = Some((i + 1, e.message));
                    break;
                }
            }
        }
        let labels: Vec<String> = self.steps.iter().map(|s| s.text.clone()).collect();
        let json: Vec<(usize, serde_json::Value)> = events
            .iter()
            .map(|(i, e)| {
                (
                    *i,
                    serde_json::to_value(e).unwrap_or(serde_json::Value::Null),
                )
            })
            .collect();
        let log: Vec<String> = json
            .iter()
            .map(|(i, v)| event_line(&labels, *i, v))
            .collect();
        let asked = shared.asked.borrow().clone();
        let decisions: Vec<String> = asked.iter().map(|a| decision_line(&labels, a)).collect();
        let mut transcript = log.clone();
        if !decisions.is_empty() {
            transcript.push("decisions asked:".into());
            transcript.extend(decisions.iter().map(|d| format!("  {d}")));
        }

        let mut failures = Vec::new();
        // Answers that named no option.
        for (s, asked) in shared.bad.borrow().iter() {
            failures.push(self.failure(
                s.line,
                s.column,
                format!(
                    "answer {} names no option of the decision it was given to: {asked}",
                    s.answer
                ),
                decisions.clone(),
            ));
        }
        // Answers never asked for.
        for (who, list) in [
            (Side::Overmind, &self.overmind),
            (Side::Heroes, &self.heroes),
        ] {
            let used = asked
                .iter()
                .filter(|a| a.who == who && a.scripted.is_some())
                .count();
            if let Some(s) = list.get(used) {
                let n = list.len() - used;
                let (side, asked_side) = match who {
                    Side::Heroes => ("heroes", "the Hero side was"),
                    Side::Overmind => ("overmind", "the Overmind was"),
                };
                failures.push(self.failure(
                    s.line,
                    s.column,
                    format!(
                        "{n} of the {} `{side}` answers {} never used, from this one on: {asked_side} asked {used} decision(s) with more than one option (one with a single option is never asked)",
                        list.len(),
                        if n == 1 { "was" } else { "were" },
                    ),
                    or_none(decisions.clone(), "no decision was asked"),
                ));
            }
        }
        let expects_refusal = self.expects.iter().any(Expect::is_refusal);
        if let Some((i, why)) = &refusal {
            if !expects_refusal {
                let step = &self.steps[(*i)
                    .saturating_sub(1)
                    .min(self.steps.len().saturating_sub(1))];
                failures.push(self.failure(
                    step.line,
                    step.column,
                    format!("action {i} `{}` was refused: {why} (the scenario stops here; to expect a refusal, add an expectation `refused = \"...\"`)", step.text),
                    tail(&log),
                ));
                return (failures, transcript);
            }
        }
        let observed = Observed {
            events: &json,
            log: &log,
            state: &game.state,
            refusal: refusal.as_ref(),
            labels: &labels,
        };
        for e in &self.expects {
            if let Some((message, excerpt)) = e.check(&observed) {
                failures.push(self.failure(e.line, e.column, message, excerpt));
            }
        }
        (failures, transcript)
    }
}

/// `#2 move H 3,4: moved {"path":[[3,3],[3,4]],"unit":"H"}`; `start` for the events before the
/// first action.
fn event_line(labels: &[String], action: usize, v: &serde_json::Value) -> String {
    let mut rest = v.clone();
    let kind = match rest.as_object_mut().and_then(|o| o.remove("event")) {
        Some(serde_json::Value::String(k)) => k,
        _ => String::new(),
    };
    let json = format!(
        "{kind} {}",
        serde_json::to_string(&rest).unwrap_or_default()
    );
    match action.checked_sub(1).and_then(|i| labels.get(i)) {
        Some(l) => format!("#{action} {l}: {json}"),
        None => format!("start: {json}"),
    }
}

fn decision_line(labels: &[String], a: &Asked) -> String {
    let options: Vec<String> = a.decision.options.iter().map(ToString::to_string).collect();
    let chosen = options.get(a.answer).cloned().unwrap_or_default();
    let by = match &a.scripted {
        Some(s) => format!("answer {s}"),
        None => "fallback".into(),
    };
    let during = match a.action.checked_sub(1).and_then(|i| labels.get(i)) {
        Some(l) => format!("#{} {l}", a.action),
        None => "start".into(),
    };
    format!(
        "{during}: {} {} \"{}\" {} -> {} = {chosen} ({by})",
        a.who.name(),
        kind_name(&a.decision),
        a.decision.prompt,
        numbered(&options),
        a.answer
    )
}

/// The last lines of the log, at most [`EXCERPT_LINES`].
fn tail(log: &[String]) -> Vec<String> {
    let skip = log.len().saturating_sub(EXCERPT_LINES);
    let mut out = Vec::new();
    if skip > 0 {
        out.push(format!("… {skip} earlier events"));
    }
    out.extend(log[skip..].iter().cloned());
    or_none(out, "no events")
}

/// At most [`EXCERPT_LINES`] lines, the first ones.
fn head(lines: Vec<String>) -> Vec<String> {
    let n = lines.len();
    if n <= EXCERPT_LINES {
        return lines;
    }
    let mut out: Vec<String> = lines.into_iter().take(EXCERPT_LINES).collect();
    out.push(format!("… {} more", n - EXCERPT_LINES));
    out
}

fn or_none(lines: Vec<String>, none: &str) -> Vec<String> {
    if lines.is_empty() {
        vec![format!("({none})")]
    } else {
        lines
    }
}

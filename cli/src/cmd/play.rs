//! `overmind play`: a game at the terminal or over JSON lines, each side a person or the AI,
//! with the pack directories watched so edited scripts go live between actions.

use crate::command::{self, text_of, Command};
use crate::error::CliError;
use crate::human::{Frontend, Human, Input, Note, Shared};
use crate::json::Machine;
use crate::packs;
use crate::session::Session;
use crate::turn::Turn;
use overmind_core::ai::{controller, player, Level, Player};
use overmind_core::{Action, Checked, Controller, Controllers, Refusal, RefusalKind, Side};
use overmind_scripting::reload::Watcher;
use std::cell::RefCell;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The mission: an id of a pack's mission (`demo`, `small`) or a mission file.
    #[arg(long, value_name = "ID|PATH", default_value = "demo")]
    pub mission: String,
    /// An expansion pack, loaded after the base pack (repeatable, in order).
    #[arg(long = "pack", value_name = "DIR")]
    pub packs: Vec<PathBuf>,
    /// Who plays the Heroes.
    #[arg(long, value_enum, default_value_t = Who::Human)]
    pub heroes: Who,
    /// Who plays the Overmind.
    #[arg(long, value_enum, default_value_t = Who::Ai)]
    pub overmind: Who,
    /// How well the AI plays the Overmind, when it does: greedy, standard or strong.
    #[arg(long = "overmind-ai", value_name = "LEVEL", default_value_t = Level::Standard)]
    pub overmind_ai: Level,
    /// How well the AI plays the Heroes, when it does: greedy, standard or strong.
    #[arg(long = "heroes-ai", value_name = "LEVEL", default_value_t = Level::Standard)]
    pub heroes_ai: Level,
    /// The game's seed (dice, Blip contents); random when left out, and kept in saves.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Save the game to PATH when it ends or is quit.
    #[arg(long, value_name = "PATH")]
    pub save: Option<PathBuf>,
    /// Continue a saved game from where it stopped: its mission, packs, seed and author tools
    /// come from the save, every action is replayed exactly, and it is saved back there on
    /// quit unless `--save` names another file.
    #[arg(long, value_name = "SAVE", conflicts_with_all = ["mission", "seed", "packs", "dev"])]
    pub load: Option<PathBuf>,
    /// Read commands line by line and write one JSON event per line (also when standard
    /// input is not a terminal).
    #[arg(long)]
    pub json: bool,
    /// Whose knowledge the output shows. Default: the Heroes' when a person plays them against
    /// the AI, else everything.
    #[arg(long, value_enum)]
    pub view: Option<View>,
    /// Do not watch the pack directories for edited scripts.
    #[arg(long)]
    pub no_watch: bool,
    /// Line mode (the screen scrolls, rustyline edits) instead of the full-screen UI; also
    /// with piped input, which otherwise speaks JSON.
    #[arg(long, conflicts_with = "json")]
    pub plain: bool,
    /// Author tools: `perform UNIT BEHAVIOUR` and `spawn TYPE X,Y [N]` at any prompt, so a
    /// script edit runs at once. Shows everything (refused with `--view heroes`).
    #[arg(long)]
    pub dev: bool,
}

/// Who controls a side.
#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum Who {
    Human,
    Ai,
}

impl Who {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Who::Human => "human",
            Who::Ai => "ai",
        }
    }
}

/// Whose knowledge the output shows.
#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum View {
    Heroes,
    Overmind,
}

/// How often a waiting host looks for edited scripts.
pub(crate) const POLL: Duration = Duration::from_millis(40);

/// Most AI actions in one game: a guard against an AI that never ends its phase.
const MAX_AI_ACTIONS: usize = 100_000;

/// # Errors
/// Pack or mission problems (exit 1), impossible options (exit 2), a save that cannot be
/// written (exit 1).
pub fn run(args: &Args) -> Result<(), CliError> {
    let loaded = match &args.load {
        Some(path) => Some(crate::save::Save::read(path)?),
        None => None,
    };
    let dev = args.dev || loaded.as_ref().is_some_and(|s| s.dev);
    if dev && args.view == Some(View::Heroes) {
        return Err(CliError::Usage(
            "--dev shows and spawns what the Heroes may not know: leave out --view heroes (the \
             author tools play with everything shown)"
                .into(),
        ));
    }
    let view = match args.view {
        None if dev => Side::Overmind,
        Some(View::Heroes) => Side::Heroes,
        Some(View::Overmind) => Side::Overmind,
        None if args.heroes == Who::Human && args.overmind == Who::Ai => Side::Heroes,
        None => Side::Overmind,
    };
    if view == Side::Heroes && args.overmind == Who::Human {
        return Err(CliError::Usage(
            "--view heroes hides what the Overmind's player must see: play the Overmind with \
             --view overmind, or let the AI play it (--overmind ai)"
                .into(),
        ));
    }
    // Piped input speaks JSON, unless `--plain` asks for line mode.
    let machine = args.json || (!args.plain && !std::io::stdin().is_terminal());
    let seats = Seats {
        heroes: args.heroes,
        overmind: args.overmind,
        levels: [args.heroes_ai, args.overmind_ai],
    };
    let frontend = seats.frontend(machine, view, args.view.is_some() || dev, args.plain);
    let dirs = packs::dirs_for(loaded.as_ref(), &args.packs);
    // Watch before loading, so an edit made while the packs load is not missed.
    let watcher = if args.no_watch {
        None
    } else {
        match Watcher::new(&dirs) {
            Ok(w) => Some(w),
            Err(e) => {
                frontend
                    .borrow_mut()
                    .error(&format!("{e}; hot reload is off"), None);
                None
            }
        }
    };
    let ctl = seats.controllers(&frontend);
    let mut session = match (&loaded, &args.load) {
        (Some(save), Some(from)) => Session::resume(save, from, ctl)?,
        _ => {
            let seed = args.seed.unwrap_or_else(random_seed);
            let mut session = Session::start(dirs, &args.mission, seed, ctl)?;
            if args.dev {
                session.enable_dev();
            }
            session
        }
    };
    frontend.borrow_mut().started(&session);
    let sides = [args.heroes, args.overmind];
    let levels = [args.heroes_ai, args.overmind_ai];
    let end = play(&mut session, &frontend, watcher.as_ref(), sides, levels);
    if let Some(reason) = end {
        frontend.borrow_mut().note(Note::Quit, reason);
    } else {
        let summary = crate::summary::Summary::of(&session.game);
        frontend.borrow_mut().game_over(&summary);
    }
    match args.save.as_ref().or(args.load.as_ref()) {
        Some(path) => save(&session, &frontend, path).map_err(CliError::Failed),
        None => Ok(()),
    }
}

/// Who plays each side, and how well the AI plays.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seats {
    pub heroes: Who,
    pub overmind: Who,
    /// The Heroes' AI level, then the Overmind's.
    pub levels: [Level; 2],
}

impl Seats {
    /// The front end: JSON lines for a program, else the full screen or lines. `fixed_view`:
    /// the view was chosen (`--view`, `--dev`), so two people share it rather than each seeing
    /// only their side's knowledge.
    pub(crate) fn frontend(
        self,
        machine: bool,
        view: Side,
        fixed_view: bool,
        plain: bool,
    ) -> Shared {
        let frontend: Box<dyn Frontend> = if machine {
            let sides = (self.heroes.name(), self.overmind.name());
            Box::new(Machine::new(Box::new(std::io::stdout()), view, sides))
        } else {
            let person = self.heroes == Who::Human || self.overmind == Who::Human;
            let hotseat = self.heroes == Who::Human && self.overmind == Who::Human;
            let per_side = hotseat && !fixed_view;
            crate::tui::frontend(view, per_side, hotseat, person, plain)
        };
        Rc::new(RefCell::new(frontend))
    }

    /// The controllers that answer each side's decisions: the person at `frontend`, or the AI.
    pub(crate) fn controllers(self, frontend: &Shared) -> Controllers {
        let decider = |who: Who, level: Level| -> Box<dyn Controller> {
            match who {
                Who::Human => Box::new(Human {
                    frontend: Rc::clone(frontend),
                }),
                Who::Ai => controller(level),
            }
        };
        Controllers::new(
            decider(self.heroes, self.levels[0]),
            decider(self.overmind, self.levels[1]),
        )
    }
}

/// A seed nobody chose: std's per-process random hasher keys, hashed.
pub(crate) fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0x6f76_6572_6d69_6e64);
    h.finish()
}

/// Save the game and say so.
///
/// # Errors
/// The save could not be written (also shown to the player).
fn save(session: &Session, frontend: &Shared, path: &std::path::Path) -> Result<(), String> {
    let mut f = frontend.borrow_mut();
    match session.save().write(path) {
        Ok(()) => {
            f.note(Note::Saved, &path.display().to_string());
            Ok(())
        }
        Err(m) => {
            f.error(&m, None);
            Err(m)
        }
    }
}

/// Play until the game ends (`None`) or the player leaves (`Some(reason)`): also the loop
/// of `overmind serve`, whose front end is the network seats.
pub(crate) fn play(
    session: &mut Session,
    frontend: &Shared,
    watcher: Option<&Watcher>,
    sides: [Who; 2],
    levels: [Level; 2],
) -> Option<&'static str> {
    let mut heroes = player(Side::Heroes, levels[0]);
    let mut overmind = player(Side::Overmind, levels[1]);
    let mut dirty = true;
    let mut ai_actions = 0;
    loop {
        if frontend.borrow().broken() {
            return Some("the output was closed");
        }
        if let Some(w) = watcher {
            reload(session, frontend, w);
        }
        let side = session.game.to_move()?;
        if session.game.state.deploying.is_some() {
            // Deployment by the rules (docs/RULES.md §7.2) is the first action: each side's
            // player, AI or person, is asked for its squares as decisions.
            match session.apply(Action::Deploy) {
                Ok(events) => frontend.borrow_mut().events(session, &events),
                Err(e) => {
                    frontend.borrow_mut().refused(&e, None);
                    return Some("the units could not be deployed");
                }
            }
            dirty = true;
            continue;
        }
        let who = if side == Side::Heroes {
            sides[0]
        } else {
            sides[1]
        };
        if who == Who::Ai {
            ai_actions += 1;
            if ai_actions > MAX_AI_ACTIONS {
                frontend
                    .borrow_mut()
                    .error("the AI took too many actions without the game ending", None);
                return Some("the AI made no progress");
            }
            let ai: &mut dyn Player = if side == Side::Heroes {
                heroes.as_mut()
            } else {
                overmind.as_mut()
            };
            let events = session.ai_step(ai);
            frontend.borrow_mut().events(session, &events);
            dirty = true;
            continue;
        }
        if dirty {
            if let Some(turn) = Turn::of(&session.game, session.content()) {
                frontend.borrow_mut().turn(session, &turn);
            }
            dirty = false;
        }
        let input = frontend.borrow_mut().read(side, POLL);
        let line = match input {
            Input::Idle => continue,
            Input::Eof => return Some("end of input"),
            Input::Invalid(m) => {
                // Said, and the game goes on.
                frontend.borrow_mut().error(&m, None);
                continue;
            }
            Input::Line(l) => l,
        };
        match command::parse(&line, &session.names()) {
            Err(e) => frontend
                .borrow_mut()
                .error(&e.message, e.suggestion.as_deref()),
            Ok(Command::Quit) => return Some("quit"),
            Ok(cmd) => dirty |= handle(session, frontend, side, cmd),
        }
    }
}

/// Carry out one command; true when the game changed.
fn handle(session: &mut Session, frontend: &Shared, side: Side, cmd: Command) -> bool {
    match cmd {
        Command::Act(action) => {
            // Checked once: the plan is what is played, and the refusal's kind is what the
            // questions below go by.
            let checked = session.game.check(session.content(), &action);
            if checked.is_ok() && !ends_phase_ok(session, frontend, side, &action) {
                frontend
                    .borrow_mut()
                    .note(Note::Help, "nothing done: the phase goes on\n");
                return false;
            }
            if !ends_activation_ok(session, frontend, side, &action, &checked) {
                // Refused by the player: said as help text, since nothing happened.
                frontend
                    .borrow_mut()
                    .note(Note::Help, "nothing done: the activation goes on\n");
                return false;
            }
            match checked {
                Ok(checked) => match session.play(checked) {
                    Ok(events) => {
                        frontend.borrow_mut().events(session, &events);
                        return true;
                    }
                    Err(e) => frontend.borrow_mut().refused(&e, None),
                },
                Err(r) if side == Side::Heroes && r.kind == RefusalKind::EndActivationFirst => {
                    // With an Overmind hand, a Hero's activation ends before another's starts
                    // (the Overmind may interrupt between, docs/RULES.md §15.4): the
                    // confirmed switch ends it first.
                    if let Ok(events) = session.apply(Action::End) {
                        frontend.borrow_mut().events(session, &events);
                    }
                    if session.game.to_move() != Some(side) {
                        frontend.borrow_mut().note(
                            Note::Help,
                            "the activation ended; the Overmind may interrupt first: give the command again on your turn\n",
                        );
                        return true;
                    }
                    return handle(session, frontend, side, Command::Act(action));
                }
                Err(e) => {
                    let hint = nearest_legal(session, &action);
                    frontend.borrow_mut().refused(&e, hint.as_deref());
                }
            }
        }
        Command::Answer(_) => frontend.borrow_mut().error(
            "no decision is waiting: a number answers a decision's options",
            None,
        ),
        Command::Help(topic) => frontend
            .borrow_mut()
            .note(Note::Help, &command::help(topic.as_deref())),
        Command::Map => frontend.borrow_mut().map(session),
        Command::Los(a, b) => show_board(session, frontend, side, |s, v, c| {
            crate::sight::los_text(s, v, &a, &b, c)
        }),
        Command::Reach(u) => show_board(session, frontend, side, |s, v, c| {
            crate::sight::reach_text(s, v, &u, c)
        }),
        Command::Sees(u) => show_board(session, frontend, side, |s, v, c| {
            crate::sight::sees_text(s, v, &u, c)
        }),
        Command::Status => frontend.borrow_mut().status(session),
        Command::Log(n) => frontend.borrow_mut().log(session, n),
        Command::Save(path) => {
            // A failed save was shown to the player; the game goes on.
            let _ = save(session, frontend, &path);
        }
        Command::Undo => match session.undo(side) {
            Ok(r) => {
                frontend
                    .borrow_mut()
                    .note(Note::Undone, &text_of(&r.action));
                return true;
            }
            Err(m) => frontend
                .borrow_mut()
                .error(&format!("cannot undo: {m}"), None),
        },
        Command::Quit | Command::Nothing => {}
    }
    false
}

/// A board drawn for the player of `side` from what they may know (`los`, `reach`, `sees`).
fn show_board(
    session: &Session,
    frontend: &Shared,
    side: Side,
    draw: impl FnOnce(&Session, Side, bool) -> Result<String, String>,
) {
    let (view, colour) = {
        let f = frontend.borrow();
        (f.viewer(side), f.colour())
    };
    match draw(session, view, colour) {
        Ok(t) => frontend.borrow_mut().note(Note::Help, &t),
        Err(m) => frontend.borrow_mut().error(&m, None),
    }
}

/// Whether `action` may go ahead: one that would end the current activation, with actions
/// left, by naming another unit asks the player first (a typo must not cost an action).
fn ends_activation_ok(
    session: &Session,
    frontend: &Shared,
    side: Side,
    action: &Action,
    checked: &Result<Checked, Refusal>,
) -> bool {
    let st = &session.game.state;
    let (Some(active), Some(actor)) = (st.active, action.actor()) else {
        return true;
    };
    let unit_of = |id: &str| -> Option<String> {
        st.find_model(id)
            .map(|(u, _)| u.id.to_string())
            .or_else(|| st.unit(id).map(|u| u.id.to_string()))
            .or_else(|| st.blip(id).map(|b| b.id.to_string()))
    };
    let Some(acting) = unit_of(actor) else {
        return true;
    };
    if acting == active.as_str() {
        return true;
    }
    let left = st
        .unit(&active)
        .map(|u| overmind_core::stats::actions_left(st, &u.used))
        .or_else(|| {
            st.blip(&active)
                .map(|b| overmind_core::stats::actions_left(st, &b.used))
        })
        .unwrap_or(0);
    let legal = match checked {
        Ok(_) => true,
        Err(r) => r.kind == RefusalKind::EndActivationFirst,
    };
    if left == 0 || !legal {
        // Nothing to lose, or refused anyway (and the refusal says why).
        return true;
    }
    let question = format!(
        "`{}` ends {active}'s activation with {left} action{} left: go on?",
        text_of(action),
        if left == 1 { "" } else { "s" }
    );
    frontend.borrow_mut().confirm(side, &question)
}

/// Whether `end` may end `side`'s whole phase: with units of its own that could still
/// activate, who would lose their turn this round, it asks the player first (a second `end`
/// typed after the last activation ended the phase must not give a turn away). Declining an
/// interruption is not ending a phase, and is never asked about.
fn ends_phase_ok(session: &Session, frontend: &Shared, side: Side, action: &Action) -> bool {
    let st = &session.game.state;
    if *action != Action::End || st.active.is_some() || st.interrupt.is_some() {
        return true;
    }
    let owner = |id: &str| -> Option<String> {
        st.find_model(id)
            .map(|(u, _)| u.id.to_string())
            .or_else(|| st.unit(id).map(|u| u.id.to_string()))
            .or_else(|| st.blip(id).map(|b| b.id.to_string()))
    };
    // Those the rules would let act now: validation only, nothing is played.
    let mut idle: Vec<String> = Vec::new();
    for a in session.game.legal_actions(session.content()) {
        if let Some(u) = a.actor().and_then(owner) {
            if !idle.contains(&u) {
                idle.push(u);
            }
        }
    }
    if idle.is_empty() {
        return true;
    }
    let (n, names) = (idle.len(), idle.join(", "));
    let question = format!(
        "`end` ends {} phase: {names} {} not activated and lose{} this round's turn: go on?",
        crate::describe::possessive(side),
        if n == 1 { "has" } else { "have" },
        if n == 1 { "s" } else { "" },
    );
    frontend.borrow_mut().confirm(side, &question)
}

/// The legal action most like a refused one: same kind and unit, the nearest square or the
/// first target.
fn nearest_legal(session: &Session, refused: &Action) -> Option<String> {
    let legal = session.game.legal_actions(session.content());
    let same = |a: &Action| {
        std::mem::discriminant(a) == std::mem::discriminant(refused) && a.actor() == refused.actor()
    };
    let to = match refused {
        Action::Move { to, .. } | Action::Sprint { to, .. } => Some(*to),
        _ => None,
    };
    let best = legal
        .iter()
        .filter(|a| same(a))
        .min_by_key(|a| match (a, to) {
            (Action::Move { to: t, .. } | Action::Sprint { to: t, .. }, Some(want)) => {
                t.distance(want)
            }
            _ => 0,
        });
    best.map(text_of)
}

/// Apply edited scripts and show what happened; watcher problems are shown as warnings.
fn reload(session: &mut Session, frontend: &Shared, watcher: &Watcher) {
    let paths = watcher.poll();
    if !paths.is_empty() {
        let outcomes = session.reload(&paths);
        if !outcomes.is_empty() {
            frontend.borrow_mut().reloads(&outcomes);
        }
    }
    for e in watcher.errors() {
        frontend.borrow_mut().error(&format!("warning: {e}"), None);
    }
}

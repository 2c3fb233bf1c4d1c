//! `overmind serve`: host one game with a seat per human side over WebSocket, journalled to a
//! save after every action so that `--resume` restarts a killed server where it was.

use crate::cmd::play::{self, Who};
use crate::error::CliError;
use crate::human::{Frontend, Human, Note, Shared};
use crate::net::seat::{Journal, Seat, Seats};
use crate::net::{self, NetError};
use crate::packs;
use crate::session::Session;
use overmind_core::ai::{controller, Level};
use overmind_core::{Controller, Controllers, Side};
use overmind_scripting::reload::Watcher;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The mission: an id of a pack's mission (`demo`, `small`) or a mission file.
    #[arg(long, value_name = "ID|PATH", default_value = "demo")]
    pub mission: String,
    /// An expansion pack, loaded after the base pack (repeatable, in order).
    #[arg(long = "pack", value_name = "DIR")]
    pub packs: Vec<PathBuf>,
    /// Who plays the Heroes: a person at a seat (`human`, the default) or the AI.
    #[arg(long, value_enum)]
    pub heroes: Option<Who>,
    /// Who plays the Overmind: a person at a seat or the AI (the default).
    #[arg(long, value_enum)]
    pub overmind: Option<Who>,
    /// How well the AI plays the Overmind, when it does: greedy, standard or strong.
    #[arg(long = "overmind-ai", value_name = "LEVEL")]
    pub overmind_ai: Option<Level>,
    /// How well the AI plays the Heroes, when it does: greedy, standard or strong.
    #[arg(long = "heroes-ai", value_name = "LEVEL")]
    pub heroes_ai: Option<Level>,
    /// The game's seed (dice, Blip contents); random when left out, and kept in the save.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// The save the server writes after every accepted action (default `serve-SEED.json`,
    /// which must not exist yet). Its seats (tokens, who plays what, the address) go to
    /// PATH.seats.
    #[arg(long, value_name = "PATH")]
    pub save: Option<PathBuf>,
    /// Restart a server from its save: the game replayed exactly, the same seats and tokens
    /// (from SAVE.seats) on the same address, journalled back to SAVE unless `--save` names
    /// another file. A save without a seats file gets new tokens.
    #[arg(long, value_name = "SAVE", conflicts_with_all = ["mission", "seed", "packs"])]
    pub resume: Option<PathBuf>,
    /// Where to listen: loopback unless you say otherwise (`0.0.0.0:7878` for every
    /// interface). Port 0 takes a free one; the first line printed names it.
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<String>,
    /// Do not watch the pack directories for edited scripts.
    #[arg(long)]
    pub no_watch: bool,
}

/// The default address: loopback only, so nothing is reachable from elsewhere unless asked.
const LISTEN: &str = "127.0.0.1:7878";

/// How long a finished server waits for its clients to take the last lines.
const DRAIN: Duration = Duration::from_secs(5);

/// The most bytes of a seats file.
const MAX_SEATS_BYTES: u64 = 64 * 1024;

/// Who plays a side, kept beside the save.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SideSeat {
    /// `human` (a seat) or `ai`.
    who: String,
    /// The AI's level, when the AI plays it.
    ai: Level,
    /// The seat's token, when a person plays it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    token: Option<String>,
}

/// The seats of a served game (`SAVE.seats`): enough to restart the server as it was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Seating {
    version: u32,
    /// The address the server listened on (with the port it was given).
    listen: String,
    heroes: SideSeat,
    overmind: SideSeat,
}

fn seats_path(save: &Path) -> PathBuf {
    let mut s = save.as_os_str().to_os_string();
    s.push(".seats");
    PathBuf::from(s)
}

fn who_of(name: &str) -> Option<Who> {
    match name {
        "human" => Some(Who::Human),
        "ai" => Some(Who::Ai),
        _ => None,
    }
}

/// Read a seats file, if there is one.
fn read_seating(path: &Path) -> Result<Option<Seating>, CliError> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    let text = crate::json_file::read_text(path, MAX_SEATS_BYTES, "a seats file")?;
    let s: Seating = crate::json_file::parse(path, &text)?;
    let bad = |m: &str| CliError::Problems(vec![format!("{}: {m}", path.display())]);
    if s.version != 1 {
        return Err(bad("not a seats file this overmind reads (version 1)"));
    }
    for side in [&s.heroes, &s.overmind] {
        if who_of(&side.who).is_none() {
            return Err(bad("`who` is `human` or `ai`"));
        }
        if side.token.as_deref().is_some_and(|t| !net::is_token(t)) {
            return Err(bad("a token is 32 lowercase hex digits"));
        }
    }
    Ok(Some(s))
}

/// What one side is: who plays it, the AI's level, and its seat's token.
struct Plan {
    who: Who,
    level: Level,
    token: Option<String>,
}

fn plan(
    given: (Option<Who>, Option<Level>),
    kept: Option<&SideSeat>,
    default: Who,
) -> Result<Plan, NetError> {
    let who = given
        .0
        .or_else(|| kept.and_then(|k| who_of(&k.who)))
        .unwrap_or(default);
    let level = given.1.or(kept.map(|k| k.ai)).unwrap_or_default();
    let token = match who {
        Who::Ai => None,
        Who::Human => match kept.and_then(|k| k.token.clone()) {
            Some(t) => Some(t),
            None => Some(net::new_token()?),
        },
    };
    Ok(Plan { who, level, token })
}

/// # Errors
/// Pack, mission or save problems (exit 1), an address that cannot be listened on (exit 1),
/// impossible options (exit 2).
pub fn run(args: &Args) -> Result<(), CliError> {
    let loaded = match &args.resume {
        Some(path) => Some(crate::save::Save::read(path)?),
        None => None,
    };
    if loaded.as_ref().is_some_and(|s| s.dev) {
        return Err(CliError::Usage(
            "this save was played with the author tools (--dev), which a served game does \
             not offer: resume it with `overmind play --load`"
                .into(),
        ));
    }
    let kept = match &args.resume {
        Some(path) => read_seating(&seats_path(path))?,
        None => None,
    };
    let failed = |e: NetError| CliError::Failed(e.to_string());
    let heroes = plan(
        (args.heroes, args.heroes_ai),
        kept.as_ref().map(|k| &k.heroes),
        Who::Human,
    )
    .map_err(failed)?;
    let overmind = plan(
        (args.overmind, args.overmind_ai),
        kept.as_ref().map(|k| &k.overmind),
        Who::Ai,
    )
    .map_err(failed)?;
    if heroes.who == Who::Ai && overmind.who == Who::Ai {
        return Err(CliError::Usage(
            "the AI plays both sides: there is no seat to serve (`overmind play --heroes ai \
             --overmind ai` plays such a game)"
                .into(),
        ));
    }

    // The journal: named, the resumed save, or a new file that must not overwrite another.
    let seed = args.seed.unwrap_or_else(play::random_seed);
    let journal = match (&args.save, &args.resume) {
        (Some(p), _) | (None, Some(p)) => p.clone(),
        (None, None) => {
            let p = PathBuf::from(format!("serve-{seed}.json"));
            if std::fs::symlink_metadata(&p).is_ok() {
                return Err(CliError::Usage(format!(
                    "{} exists: resume it with --resume {0}, or name the save with --save PATH",
                    p.display()
                )));
            }
            p
        }
    };

    let mut seats = Vec::new();
    let mut receivers = Vec::new();
    for (side, p) in [(Side::Heroes, &heroes), (Side::Overmind, &overmind)] {
        if let Some(token) = &p.token {
            let (seat, rx) = Seat::new(side, token.clone());
            seats.push(Arc::clone(&seat));
            receivers.push((seat, rx));
        }
    }
    let sides = (heroes.who.name(), overmind.who.name());
    let front: Box<dyn Frontend> = Box::new(Seats::new(
        receivers,
        sides,
        Some(Journal::new(journal.clone())),
    ));
    let frontend: Shared = Rc::new(RefCell::new(front));
    let decider = |p: &Plan| -> Box<dyn Controller> {
        match p.who {
            Who::Human => Box::new(Human {
                frontend: Rc::clone(&frontend),
            }),
            Who::Ai => controller(p.level),
        }
    };
    let ctl = Controllers::new(decider(&heroes), decider(&overmind));
    let dirs = packs::dirs_for(loaded.as_ref(), &args.packs);
    let watcher = if args.no_watch {
        None
    } else {
        Watcher::new(&dirs).ok()
    };
    let mut session = match (&loaded, &args.resume) {
        (Some(save), Some(from)) => Session::resume(save, from, ctl)?,
        _ => Session::start(dirs, &args.mission, seed, ctl)?,
    };

    let addr = args
        .listen
        .clone()
        .or_else(|| kept.as_ref().map(|k| k.listen.clone()))
        .unwrap_or_else(|| LISTEN.to_string());
    let listener = net::server::listen(&addr).map_err(failed)?;
    let bound = listener.local_addr().map(|a| a.to_string()).unwrap_or(addr);
    let seating = Seating {
        version: 1,
        listen: bound.clone(),
        heroes: SideSeat {
            who: heroes.who.name().into(),
            ai: heroes.level,
            token: heroes.token.clone(),
        },
        overmind: SideSeat {
            who: overmind.who.name().into(),
            ai: overmind.level,
            token: overmind.token.clone(),
        },
    };
    let text =
        serde_json::to_string_pretty(&seating).map_err(|e| CliError::Failed(e.to_string()))?;
    crate::save::write_regular(
        &seats_path(&journal),
        &format!("{text}\n"),
        "cannot write the seats to",
        "a seats file",
    )
    .map_err(CliError::Failed)?;

    frontend.borrow_mut().started(&session);
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening ws://{bound}")?;
        writeln!(out, "journal {}", journal.display())?;
        for (name, p) in [("heroes", &heroes), ("overmind", &overmind)] {
            if let Some(t) = &p.token {
                writeln!(out, "seat {name} {t}")?;
            }
        }
        out.flush()?;
    }
    let live = net::server::spawn(listener, seats.clone());

    let end = play::play(
        &mut session,
        &frontend,
        watcher.as_ref(),
        [heroes.who, overmind.who],
        [heroes.level, overmind.level],
    );
    match end {
        Some(reason) => frontend.borrow_mut().note(Note::Quit, reason),
        None => {
            let summary = crate::summary::Summary::of(&session.game);
            frontend.borrow_mut().game_over(&summary);
        }
    }
    for s in &seats {
        s.finish();
    }
    // The clients take the last lines; then the process ends and so does the listener.
    let until = Instant::now() + DRAIN;
    while live.count() > 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(())
}

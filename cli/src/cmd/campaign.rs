//! `overmind campaign CAMPAIGN`: a campaign's missions one after another (docs/RULES.md §16),
//! each played as `play` plays a mission, with the Resolution Phase between them; `--save FILE`
//! keeps the campaign there after every mission and on quit, and resumes it from there.

use crate::campaign::{mission_seed, resolution, CampaignSave, News};
use crate::cmd::play::{self, random_seed, Seats, View, Who};
use crate::error::CliError;
use crate::human::{Note, Shared};
use crate::packs;
use crate::session::Session;
use overmind_core::ai::Level;
use overmind_core::Side;
use overmind_scripting::reload::Watcher;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The campaign: a pack's campaign id (`example`) or a campaign file.
    #[arg(value_name = "CAMPAIGN")]
    pub campaign: String,
    /// Keep the campaign in FILE after every mission and when quit; a FILE that holds this
    /// campaign's save is resumed, between missions or within one (the same command goes on).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// An expansion pack, loaded after the base pack (repeatable, in order).
    #[arg(long = "pack", value_name = "DIR")]
    pub packs: Vec<PathBuf>,
    /// Who plays the Heroes.
    #[arg(long, value_enum, default_value_t = Who::Human)]
    pub heroes: Who,
    /// Who plays the Overmind.
    #[arg(long, value_enum, default_value_t = Who::Ai)]
    pub overmind: Who,
    /// How well the AI plays the Overmind: greedy, standard or strong.
    #[arg(long = "overmind-ai", value_name = "LEVEL", default_value_t = Level::Standard)]
    pub overmind_ai: Level,
    /// How well the AI plays the Heroes: greedy, standard or strong.
    #[arg(long = "heroes-ai", value_name = "LEVEL", default_value_t = Level::Standard)]
    pub heroes_ai: Level,
    /// The campaign's seed (each mission's seed follows from it); random when left out.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Read commands line by line and write one JSON event per line (also when standard
    /// input is not a terminal).
    #[arg(long)]
    pub json: bool,
    /// Whose knowledge the output shows (as for `play`).
    #[arg(long, value_enum)]
    pub view: Option<View>,
    /// Do not watch the pack directories for edited scripts.
    #[arg(long)]
    pub no_watch: bool,
    /// Line mode instead of the full-screen UI.
    #[arg(long, conflicts_with = "json")]
    pub plain: bool,
}

/// The campaign to go on with: the save at `--save` when it holds one, else a new one.
fn begin(args: &Args) -> Result<(CampaignSave, bool), CliError> {
    if let Some(path) = args.save.as_ref().filter(|p| p.exists()) {
        let saved = CampaignSave::read(path)?;
        let named = |c: &str| {
            Path::new(c)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or(c)
                .to_string()
        };
        if named(&saved.campaign) != named(&args.campaign) {
            return Err(CliError::Usage(format!(
                "{} holds a save of campaign {:?}, not {:?}: name that campaign, or another \
                 file to start a new one",
                path.display(),
                saved.campaign,
                args.campaign
            )));
        }
        let other_seed = args.seed.is_some_and(|s| s != saved.seed);
        let other_packs = !args.packs.is_empty() && packs::dirs(&args.packs) != saved.packs;
        if other_seed || other_packs {
            return Err(CliError::Usage(format!(
                "{} resumes a campaign with its own seed and packs: leave out --seed and --pack, or \
                 give the save's",
                path.display()
            )));
        }
        return Ok((saved, true));
    }
    let dirs = packs::dirs(&args.packs);
    let set = packs::load(&dirs)?;
    let campaign = set.campaign(&args.campaign).map_err(packs::problems)?;
    let id = if set.campaigns.contains_key(&args.campaign) {
        args.campaign.clone()
    } else {
        packs::absolute(Path::new(&args.campaign))
            .display()
            .to_string()
    };
    let seed = args.seed.unwrap_or_else(random_seed);
    Ok((CampaignSave::new(&id, &campaign, dirs, seed), false))
}

/// # Errors
/// Pack, campaign or mission problems (exit 1), impossible options (exit 2), a save that
/// cannot be written (exit 1).
pub fn run(args: &Args) -> Result<(), CliError> {
    let view = match args.view {
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
    let (mut cs, resumed) = begin(args)?;
    let set = packs::load(&cs.packs)?;
    let campaign = set.campaign(&cs.campaign).map_err(packs::problems)?;
    let machine = args.json || (!args.plain && !std::io::stdin().is_terminal());
    let seats = Seats {
        heroes: args.heroes,
        overmind: args.overmind,
        levels: [args.heroes_ai, args.overmind_ai],
    };
    let person = args.heroes == Who::Human || args.overmind == Who::Human;
    // One stream for a program; a person's screen is made again for each mission, so the
    // Resolution Phase is read between two full screens.
    let shared = machine.then(|| seats.frontend(true, view, args.view.is_some(), args.plain));
    let say = |front: Option<&Shared>, news: &News| match front {
        Some(f) => f.borrow_mut().campaign(news),
        None => crate::output::print(&news.text()).unwrap_or(()),
    };
    if resumed {
        if let Some(path) = &args.save {
            let line = format!(
                "resuming campaign {} from {} ({} mission(s) played)\n",
                campaign.name,
                path.display(),
                cs.carry.played.len()
            );
            match &shared {
                Some(f) => f.borrow_mut().note(Note::Help, line.trim_end()),
                None => crate::output::print(&line)?,
            }
        }
    }
    while let Some(at_id) = cs.at.clone() {
        let Some(at) = campaign.mission(&at_id) else {
            return Err(CliError::Failed(format!(
                "the campaign has no mission {at_id:?} any more: its file changed since the save"
            )));
        };
        let frontend = match &shared {
            Some(f) => f.clone(),
            None => {
                say(None, &News::mission(&campaign, at, &cs.carry));
                seats.frontend(false, view, args.view.is_some(), args.plain)
            }
        };
        if shared.is_some() {
            say(Some(&frontend), &News::mission(&campaign, at, &cs.carry));
        }
        let ctl = seats.controllers(&frontend);
        let watcher = (!args.no_watch)
            .then(|| Watcher::new(&cs.packs).ok())
            .flatten();
        let mut session = match cs.game.take() {
            Some(g) => {
                let from = args.save.clone().unwrap_or_default();
                Session::resume(&g, &from, ctl)?
            }
            None => {
                let seed = mission_seed(cs.seed, cs.carry.played.len());
                Session::start_in(
                    packs::load(&cs.packs)?,
                    cs.packs.clone(),
                    &at.mission,
                    seed,
                    ctl,
                    Some(cs.carry.clone()),
                )?
            }
        };
        frontend.borrow_mut().started(&session);
        let sides = [args.heroes, args.overmind];
        let levels = [args.heroes_ai, args.overmind_ai];
        if let Some(reason) = play::play(&mut session, &frontend, watcher.as_ref(), sides, levels) {
            frontend.borrow_mut().note(Note::Quit, reason);
            cs.game = Some(session.save());
            return keep(&cs, args.save.as_deref(), &frontend);
        }
        let summary = crate::summary::Summary::of(&session.game);
        frontend.borrow_mut().game_over(&summary);
        let r = resolution(
            &session.packs,
            &campaign,
            at,
            &cs.carry,
            &session.game,
            session.seed,
        )?;
        drop(session);
        let news = News::resolved(at, &r);
        cs.carry = r.carry;
        cs.at = r.next;
        // Saved before it is said: whoever reads the Resolution Phase finds the save holding it.
        if let Some(path) = &args.save {
            cs.write(path).map_err(CliError::Failed)?;
        }
        if shared.is_some() {
            say(Some(&frontend), &news);
        } else {
            // The full screen is gone: the Resolution Phase is read in lines.
            drop(frontend);
            crate::tui::restore();
            say(None, &news);
        }
        if cs.at.is_some() && shared.is_none() && person && std::io::stdin().is_terminal() {
            crate::output::print("press Enter for the next mission\n")?;
            let mut line = String::new();
            if std::io::stdin().read_line(&mut line).unwrap_or(0) == 0 {
                return Ok(());
            }
        }
    }
    say(shared.as_ref(), &News::over(&campaign, &cs.carry));
    Ok(())
}

/// Save the campaign within a mission, if asked, and say so.
fn keep(cs: &CampaignSave, path: Option<&Path>, frontend: &Shared) -> Result<(), CliError> {
    let Some(path) = path else {
        return Ok(());
    };
    match cs.write(path) {
        Ok(()) => {
            frontend
                .borrow_mut()
                .note(Note::Saved, &path.display().to_string());
            Ok(())
        }
        Err(m) => {
            frontend.borrow_mut().error(&m, None);
            Err(CliError::Failed(m))
        }
    }
}

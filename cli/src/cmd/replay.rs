//! `overmind replay SAVE`: re-run a saved game from its seed and records in this fresh process
//! and confirm that every action does what it did and the game ends identically (exit 1 if
//! not, naming the first action that differs). With `--html OUT` it also writes the replay as
//! one self-contained page, as `--view` may see it.

use crate::error::CliError;
use crate::packs;
use crate::save::Save;
use overmind_core::Side;
use serde::Serialize;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The saved game (written by `play --save PATH` or the `save PATH` command).
    pub save: PathBuf,
    /// Print the verdict as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also write the replay as one self-contained HTML page (the board, step by step).
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Whose knowledge the page shows: `heroes` writes nothing the Heroes may not know.
    #[arg(long, value_enum, default_value = "overmind", requires = "html")]
    pub view: crate::cmd::play::View,
}

/// The verdict.
#[derive(Serialize)]
struct Verdict {
    identical: bool,
    actions: usize,
    events: usize,
    round: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<Side>,
    /// The first difference, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    difference: Option<String>,
}

/// # Errors
/// A bad save or pack (exit 1), or a replay that differs (exit 1).
pub fn run(args: &Args) -> Result<(), CliError> {
    let save = Save::read(&args.save)?;
    if args.html.is_some() && args.view == crate::cmd::play::View::Heroes && save.dev {
        return Err(CliError::Usage(format!(
            "{} was played with the author tools (play --dev), which show and spawn what the \
             Heroes may not know: leave out --view heroes",
            args.save.display()
        )));
    }
    let mut saved = crate::saved_content::SavedPacks::load(&save)?;
    let mut game = saved
        .set
        .start_carrying(&save.mission, save.seed, save.carry.as_ref())
        .map_err(packs::problems)?;
    game.state.set_dev(save.dev);
    let view = match args.view {
        crate::cmd::play::View::Heroes => Side::Heroes,
        crate::cmd::play::View::Overmind => Side::Overmind,
    };
    let difference = match &args.html {
        Some(out) => crate::html::replay::write(out, &mut game, &save, &mut saved, view)?,
        None => crate::save::replay_into(&mut game, &save, &mut saved, &mut Vec::new()),
    };
    let verdict = Verdict {
        identical: difference.is_none(),
        actions: game.record.len(),
        events: game.log.len(),
        round: game.state.round,
        winner: game.state.outcome.as_ref().map(|o| o.winner),
        difference: difference.clone(),
    };
    let path = args.save.display().to_string();
    let shown = overmind_core::source::escape_controls(&path);
    if args.json {
        let text = serde_json::to_string(&verdict).unwrap_or_default();
        crate::output::print(&format!("{text}\n"))?;
    } else if difference.is_none() {
        let how = match &game.state.outcome {
            Some(o) => format!(
                "{} won ({})",
                crate::describe::side_name(o.winner),
                o.reason
            ),
            None => "the game was still going".to_string(),
        };
        crate::output::print(&format!(
            "{shown}: replays identically: {} actions, {} events, round {}; {how}\n",
            verdict.actions, verdict.events, verdict.round
        ))?;
        if let Some(out) = &args.html {
            crate::output::print(&format!("wrote {} ({} view)\n", out.display(), view.name()))?;
        }
    }
    match difference {
        None => Ok(()),
        Some(d) if args.json => Err(CliError::Failed(format!("{shown}: {d}"))),
        Some(d) => Err(CliError::Failed(format!(
            "{shown}: does not replay identically: {d}"
        ))),
    }
}

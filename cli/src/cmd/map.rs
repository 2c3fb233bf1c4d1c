//! `overmind map MISSION [--pack DIR]... [--plain]`: draw a mission's map, its units and a legend.

use crate::error::CliError;
use crate::{output, render};
use overmind_core::Mission;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The mission: an id of a pack's mission (`demo`, `small`) or a mission file (TOML).
    pub path: String,
    /// A pack to look the mission id up in, besides the base pack (repeatable).
    #[arg(long = "pack", value_name = "DIR")]
    pub packs: Vec<PathBuf>,
    /// No colour: plain text (also when stdout is not a terminal, or NO_COLOR is set).
    #[arg(long)]
    pub plain: bool,
}

/// # Errors
/// The mission's problems (exit 1), or a failed write.
pub fn run(args: &Args) -> Result<(), CliError> {
    let mission = Mission::load(&crate::packs::mission_file(&args.path, &args.packs)?)?;
    let colour = output::use_colour(args.plain);
    let map = &mission.map;
    let mut text = format!(
        "{} ({}×{}): {}\n\n",
        mission.name,
        map.width(),
        map.height(),
        args.path
    );
    text.push_str(&render::map(map, &render::units(&mission), colour));
    text.push('\n');
    text.push_str(&render::legend(&mission, colour));
    output::print(&text)?;
    Ok(())
}

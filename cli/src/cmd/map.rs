//! `overmind map PATH [--plain]`: draw a mission's map, its units and a legend.

use crate::error::CliError;
use crate::{output, render};
use overmind_core::Mission;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The mission file (TOML).
    pub path: PathBuf,
    /// No colour: plain text (also when stdout is not a terminal, or NO_COLOR is set).
    #[arg(long)]
    pub plain: bool,
}

/// # Errors
/// The mission's problems (exit 1), or a failed write.
pub fn run(args: &Args) -> Result<(), CliError> {
    let mission = Mission::load(&args.path)?;
    let colour = output::use_colour(args.plain);
    let map = &mission.map;
    let mut text = format!(
        "{} ({}×{}): {}\n\n",
        mission.name,
        map.width(),
        map.height(),
        args.path.display()
    );
    text.push_str(&render::map(map, &render::units(&mission), colour));
    text.push('\n');
    text.push_str(&render::legend(&mission, colour));
    output::print(&text)?;
    Ok(())
}

//! `overmind map MISSION [--pack DIR]... [--plain]`: draw a mission's map, its units, its tokens and a legend.

use crate::error::CliError;
use crate::{output, packs, render};
use overmind_core::{Mission, Pos};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

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

/// A token the mission lays, as its pack defines it.
struct Laid {
    id: String,
    kind: String,
    at: Pos,
    symbol: char,
    name: String,
    class: &'static str,
}

/// # Errors
/// The mission's problems (exit 1), the packs' when the mission lays tokens, or a failed write.
pub fn run(args: &Args) -> Result<(), CliError> {
    let file = packs::mission_file(&args.path, &args.packs)?;
    let mission = Mission::load(&file)?;
    let laid = tokens(args, &mission, &file)?;
    let colour = output::use_colour(args.plain);
    let map = &mission.map;
    let mut text = format!(
        "{} ({}×{}): {}\n\n",
        mission.name,
        map.width(),
        map.height(),
        args.path
    );
    let marks: HashMap<Pos, char> = laid.iter().map(|t| (t.at, t.symbol)).collect();
    text.push_str(&render::marked(
        map,
        &render::units(&mission),
        &marks,
        colour,
    ));
    text.push('\n');
    text.push_str(&render::legend(&mission, colour));
    if !laid.is_empty() {
        text.push_str("Tokens:\n");
        for t in &laid {
            text.push_str(&format!(
                "  {}  token {:<12} {} ({}, {}) at {}\n",
                t.symbol, t.id, t.kind, t.name, t.class, t.at
            ));
        }
    }
    output::print(&text)?;
    Ok(())
}

/// The tokens `mission` lays (`[[tokens]]`), with their symbols and names. Token kinds are
/// pack content (Lua), so only a mission that lays tokens loads the packs; a kind no pack
/// defines is the mission's problem, named at its line.
fn tokens(args: &Args, mission: &Mission, file: &Path) -> Result<Vec<Laid>, CliError> {
    if !mission.extra.contains_key("tokens") {
        return Ok(Vec::new());
    }
    let set = packs::load(&packs::dirs(&args.packs))?;
    let path = file.to_string_lossy();
    let setup = set.setup(&path).map_err(packs::problems)?;
    // Starting the game checks every kind against the packs, each problem at its line.
    set.start(&path, 0).map_err(packs::problems)?;
    Ok(setup
        .tokens
        .iter()
        .filter_map(|t| {
            let kind = set.content.tokens.get(&t.kind)?;
            Some(Laid {
                id: t.id.clone(),
                kind: t.kind.clone(),
                at: t.at,
                symbol: kind.symbol,
                name: kind.name.clone(),
                class: kind.class.name(),
            })
        })
        .collect())
}

//! `overmind`: the terminal host. Each subcommand lives in `cmd/`; this file only parses the
//! command line, runs the command and reports its error.

mod cmd;
mod error;
mod output;
mod render;

use clap::{Parser, Subcommand};
use error::CliError;
use std::io::Write as _;
use std::process::ExitCode;

/// The Chronicle X Mission game's rules engine and terminal host.
#[derive(Parser, Debug)]
#[command(name = "overmind", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Draw a mission's map with its units and a legend.
    #[command(
        after_help = "Exits 1, listing every problem as path:line:column: message, when \
        the mission file has errors."
    )]
    Map(cmd::map::Args),
    /// Is there Line of Sight between two squares of a mission?
    #[command(
        after_help = "Prints `visible` or `blocked` on the first line and exits 0 either \
        way. Exits 1 when the mission file has errors, 2 when the arguments do (a square that \
        is not X,Y or is off the map)."
    )]
    Los(cmd::los::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Map(args) => cmd::map::run(&args),
        Command::Los(args) => cmd::los::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`overmind map demo.toml | head`) is the reader's choice, not a failure.
        Err(CliError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            // Not `eprintln!`, which panics when stderr is closed.
            let mut stderr = std::io::stderr().lock();
            for line in e.lines() {
                let _ = writeln!(stderr, "error: {line}");
            }
            e.exit_code()
        }
    }
}

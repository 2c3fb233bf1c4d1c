//! `overmind`: the terminal host. Each subcommand lives in `cmd/`; this file only parses the
//! command line, runs the command and reports its error.

mod campaign;
mod cmd;

/// The stack of every thread that plays games: the main thread's (8 MiB on Linux), so a
/// game plays the same on a worker thread as at the terminal.
pub const GAME_STACK_BYTES: usize = 8 << 20;
mod command;
mod describe;
mod error;
#[cfg(test)]
mod fuzz;
mod html;
mod human;
mod json;
mod json_file;
mod net;
mod output;
mod packs;
mod render;
mod report;
mod save;
mod saved_content;
mod screen;
mod session;
mod sight;
mod stats;
mod suggest;
mod summary;
mod terminal;
mod tui;
mod turn;

use clap::{Parser, Subcommand};
use error::CliError;
use std::io::Write as _;
use std::process::ExitCode;

// Games allocate and free many small values (Lua tables, event vectors): mimalloc is faster
// at that than the system allocator (docs/BENCHMARKS.md "Allocator").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// Play a mission: at the terminal, or over JSON lines with --json.
    #[command(
        after_help = "Commands during the game: type `help`. With --json (or when \
        standard input is not a terminal) commands are read line by line and every event is \
        written as one JSON object per line: see docs/PROTOCOL.md."
    )]
    Play(cmd::play::Args),
    /// Play a campaign: its missions one after another, chosen by result, with what each
    /// leaves the next (docs/RULES.md §16).
    #[command(
        after_help = "Each mission is played as `play` plays one (the same commands, the same         JSON lines); between missions the Resolution Phase is shown (with --json: the events         `campaign_mission`, `resolution` and `campaign_over`). With --save FILE the campaign         is kept there after every mission and when quit, and the same command resumes it."
    )]
    Campaign(cmd::campaign::Args),
    /// Host one game with a seat per human side over WebSocket (see `join`).
    #[command(
        after_help = "Prints `listening ws://ADDR:PORT`, `journal SAVE`, then one line per \
        seat: `seat heroes TOKEN` and `seat overmind TOKEN` (a side the AI plays has none). \
        Every accepted action is saved to the journal; `--resume SAVE` restarts the server \
        there. See docs/PLAYING.md, \"Across a network\"."
    )]
    Serve(cmd::serve::Args),
    /// Play a seat of a game `overmind serve` hosts, with its token.
    #[command(
        after_help = "With --json the seat's stream is written exactly as `play --json` \
        writes it for that side (docs/PROTOCOL.md); a lost connection is reopened and the \
        stream starts over from `session`."
    )]
    Join(cmd::join::Args),
    /// Play many games AI against AI and report win rates, behaviour use and damage.
    Simulate(cmd::simulate::Args),
    /// Re-run a saved game and confirm it ends identically (exit 1 if not); --html writes it
    /// as a page to step through in a browser.
    Replay(cmd::replay::Args),
    /// Compile and validate every script, mission, hero and scenario file of the packs.
    #[command(
        after_help = "Prints each problem as path:line:column: message, then a summary \
        line; exits 1 when there is any problem."
    )]
    Check(cmd::check::Args),
    /// Play the packs' scenario tests (docs/SCENARIOS.md).
    #[command(
        after_help = "Prints PASS or FAIL for each scenario, with what was expected and \
        what happened for each failure; exits 1 when any fails."
    )]
    Test(cmd::test::Args),
    /// Print the Lua API as LuaLS type stubs (--lua) or a Markdown reference (--markdown).
    Api(cmd::api::Args),
    /// Make a content pack that checks clean and whose test passes: `new pack DIR`.
    New(cmd::new::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Map(args) => cmd::map::run(&args),
        Command::Los(args) => cmd::los::run(&args),
        Command::Play(args) => cmd::play::run(&args),
        Command::Campaign(args) => cmd::campaign::run(&args),
        Command::Serve(args) => cmd::serve::run(&args),
        Command::Join(args) => cmd::join::run(&args),
        Command::Simulate(args) => cmd::simulate::run(&args),
        Command::Replay(args) => cmd::replay::run(&args),
        Command::New(args) => cmd::new::run(&args),
        // These print their own report and choose their own exit code.
        Command::Check(args) => return cmd::check::run(&args),
        Command::Test(args) => return cmd::test::run(&args),
        Command::Api(args) => return cmd::api::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`overmind map demo.toml | head`) is the reader's choice, not a failure.
        Err(CliError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            // Not `eprintln!`, which panics when stderr is closed.
            let mut stderr = std::io::stderr().lock();
            for line in e.lines() {
                // Messages quote names from files and scripts: no control character goes out raw.
                let line = overmind_core::source::escape_controls(&line);
                let _ = writeln!(stderr, "error: {line}");
            }
            e.exit_code()
        }
    }
}

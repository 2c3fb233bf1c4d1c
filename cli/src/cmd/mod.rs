//! One module per `overmind` subcommand, each with its clap arguments and a `run`.

pub mod los;
pub mod map;

//! One module per `overmind` subcommand, each with its clap arguments and a `run`.

pub mod api;
pub mod campaign;
pub mod check;
pub mod join;
pub mod los;
pub mod map;
pub mod new;
pub mod play;
pub mod replay;
pub mod serve;
pub mod simulate;
pub mod test;

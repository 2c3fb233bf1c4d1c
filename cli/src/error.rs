//! The CLI's error type: what `main` prints and which exit code it gives.

use overmind_core::MissionErrors;
use std::process::ExitCode;

/// Why a command failed. Commands return it; only `main` prints it.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A data file has problems: one `path:line:column: message` each. Exit 1.
    #[error("{0}")]
    Mission(#[from] MissionErrors),
    /// Packs, missions or a save have problems, one `path:line:column: message` each. Exit 1.
    #[error("{}", .0.join("\n"))]
    Problems(Vec<String>),
    /// The command ran and its answer is "no" (a replay that differs). Exit 1.
    #[error("{0}")]
    Failed(String),
    /// The command line asks for something impossible (clap's own usage errors exit the
    /// same way). Exit 2.
    #[error("{0}")]
    Usage(String),
    /// Writing the output failed. Exit 1.
    #[error("writing output: {0}")]
    Output(#[from] std::io::Error),
}

impl CliError {
    #[must_use]
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Usage(_) => ExitCode::from(2),
            CliError::Mission(_)
            | CliError::Problems(_)
            | CliError::Failed(_)
            | CliError::Output(_) => ExitCode::FAILURE,
        }
    }

    /// The lines to print after `error: `, one per problem.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        match self {
            CliError::Mission(errors) => errors.iter().map(ToString::to_string).collect(),
            CliError::Problems(lines) => lines.clone(),
            other => vec![other.to_string()],
        }
    }
}

//! The workspace's integration tests, built as one test binary: each module was once its own
//! file in `tests/tests/`.

mod mission_errors;
mod parser_fuzz;
mod parser_limits;
mod sandbox_attacks;

//! The integration tests of `overmind-scripting`, built as one test binary: each module was
//! once its own file in `tests/`, and `common` holds their shared fixtures.

mod common;

mod api_docs;
mod api_errors;
mod author_api;
mod blip_reveal;
mod cards;
mod hands_leak;
mod hidden_lua;
mod hook_fuzz;
mod load_errors;
mod lua_vs_native;
mod noop_hook;
mod reload;
mod scenarios;
mod storage;
mod triggers;

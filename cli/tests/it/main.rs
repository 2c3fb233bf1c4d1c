//! The end-to-end tests of the `overmind` binary, built as one test binary: each module was
//! once its own file in `tests/`, and `common` holds their shared helpers.

mod common;
mod compare_item;

mod author_loop;
mod campaign;
mod check_all;
mod cli_hardening;
mod cli_leak;
mod cli_map;
mod cli_play;
mod cli_reload;
mod cli_replay;
mod cli_tty;
mod dev_tools;
mod expansion;
mod expansion_live;
mod hazard_play;
mod html_browser;
mod html_replay;
mod html_report;
mod input_lines;
mod inside_pack;
mod landing;
mod legal_replay;
mod net;
mod new_pack;
mod new_pack_names;
mod new_players;
mod reload_save;
mod resume;
mod safe_saves;
mod shard;
mod sight;
mod tty_input;
mod tui;
mod tutorial;

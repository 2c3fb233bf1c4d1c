//! `overmind`: the terminal host.
fn main() {}

//! A seat per side over the network (`overmind serve` / `overmind join`): WebSocket
//! connections carrying the JSON-lines protocol, one text message per line, each seat behind a
//! random token checked in the handshake.

pub mod client;
pub mod seat;
pub mod server;

use overmind_core::Side;

/// Bytes of one message a client may send: a line of the protocol (`human::MAX_LINE`) and its
/// line ending. A longer message (or frame) is refused and the connection closed.
pub const MAX_MESSAGE: usize = crate::human::MAX_LINE + 2;

/// Messages a connection may send at once before it is slowed down.
pub const BURST: u32 = 64;

/// Messages a second a connection may send after its burst: faster ones wait (the server
/// stops reading the socket, so the client's own writes block).
pub const PER_SECOND: u32 = 32;

/// Most connections open at once (handshakes included); more are closed unanswered.
pub const MAX_CONNECTIONS: usize = 32;

/// Bytes waiting to go to one client before the server gives up on it (it stopped reading):
/// it is disconnected and may reconnect for a fresh stream.
pub const MAX_BACKLOG: usize = 16 << 20;

/// The close code for a connection whose seat another connection took.
pub const TAKEN_OVER: u16 = 4000;

/// Why the network failed.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The address could not be listened on.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        addr: String,
        source: std::io::Error,
    },
    /// The operating system's random number generator failed.
    #[error("no random token: {0}")]
    Random(String),
    /// A `ws://` address that is not one.
    #[error("`{0}` is not a server address: expected ws://HOST:PORT")]
    Address(String),
    /// The server could not be reached.
    #[error("cannot connect to {url}: {why}")]
    Connect { url: String, why: String },
    /// The server refused the seat (a wrong token, a seat the AI plays, …).
    #[error("the server refused the {seat} seat: {why}")]
    Refused { seat: &'static str, why: String },
    /// The connection failed while playing.
    #[error("the connection to {url} failed: {why}")]
    Lost { url: String, why: String },
    /// Standard output could not be written.
    #[error("writing output: {0}")]
    Output(#[from] std::io::Error),
}

/// A new seat token: 16 bytes from the operating system's random number generator, as 32
/// lowercase hex digits.
///
/// # Errors
/// The generator failed.
pub fn new_token() -> Result<String, NetError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| NetError::Random(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether a token is one this build makes: 32 lowercase hex digits (a save's seats file is
/// checked with it).
#[must_use]
pub fn is_token(t: &str) -> bool {
    t.len() == 32 && t.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Compare tokens in time independent of where they differ, so a guess learns nothing from
/// how long the refusal took.
#[must_use]
pub fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// A seat's name on the command line and in the handshake path (`/heroes`).
#[must_use]
pub fn seat_name(side: Side) -> &'static str {
    side.name()
}

/// The side a seat name stands for.
#[must_use]
pub fn seat_side(name: &str) -> Option<Side> {
    match name {
        "heroes" => Some(Side::Heroes),
        "overmind" => Some(Side::Overmind),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{is_token, new_token, same_token};

    #[test]
    fn tokens_are_32_hex_digits_and_differ() {
        let (Ok(a), Ok(b)) = (new_token(), new_token()) else {
            panic!("the OS random number generator failed");
        };
        assert!(is_token(&a) && is_token(&b), "{a} {b}");
        assert_ne!(a, b);
        assert!(same_token(&a, &a.clone()));
        assert!(!same_token(&a, &b));
        assert!(!same_token(&a, &a[..31]));
        assert!(!is_token("0123456789ABCDEF0123456789abcdef"));
    }
}

//! The connecting side of `overmind join`: open a seat at a server with its token, then lines
//! in and out until the server closes the connection or it is lost.

use super::{seat_name, NetError, MAX_BACKLOG};
use overmind_core::Side;
use std::net::TcpStream;
use std::time::Duration;
use tungstenite::client::ClientRequestBuilder;
use tungstenite::protocol::WebSocketConfig;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// How long a read waits before the client looks for lines to send.
pub const TICK: Duration = Duration::from_millis(5);

/// A connection to a seat.
pub type Conn = WebSocket<MaybeTlsStream<TcpStream>>;

/// The seat's address at a server: `ws://HOST:PORT` and the seat's path.
///
/// # Errors
/// `url` is not a `ws://` address.
pub fn seat_url(url: &str, side: Side) -> Result<String, NetError> {
    let base = url.trim_end_matches('/');
    let bad = || NetError::Address(url.to_string());
    let rest = base.strip_prefix("ws://").ok_or_else(bad)?;
    if rest.is_empty() || rest.contains(['/', '?', '#', ' ']) {
        return Err(bad());
    }
    Ok(format!("{base}/{}", seat_name(side)))
}

/// Open the seat of `side` at `url` with `token`. The read timeout is set to [`TICK`].
///
/// # Errors
/// The address is not one, the server cannot be reached, or it refused the seat (a wrong
/// token, a side the AI plays), saying why.
pub fn connect(url: &str, side: Side, token: &str) -> Result<Conn, NetError> {
    let target = seat_url(url, side)?;
    let uri: tungstenite::http::Uri = target
        .parse()
        .map_err(|_| NetError::Address(url.to_string()))?;
    let request =
        ClientRequestBuilder::new(uri).with_header("Authorization", format!("Bearer {token}"));
    let config = WebSocketConfig::default()
        .write_buffer_size(0)
        .max_write_buffer_size(MAX_BACKLOG);
    let (ws, _) = tungstenite::client::connect_with_config(request, Some(config), 0).map_err(
        |e| match e {
            tungstenite::Error::Http(resp) => {
                let body = resp
                    .body()
                    .as_deref()
                    .map(|b| String::from_utf8_lossy(b).trim().to_string())
                    .unwrap_or_default();
                NetError::Refused {
                    seat: seat_name(side),
                    why: format!("{} {body}", resp.status()),
                }
            }
            other => NetError::Connect {
                url: url.to_string(),
                why: other.to_string(),
            },
        },
    )?;
    if let MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(TICK))
            .map_err(|e| NetError::Connect {
                url: url.to_string(),
                why: e.to_string(),
            })?;
    }
    Ok(ws)
}

/// What reading the connection gave.
#[derive(Debug)]
pub enum Got {
    /// A line of the stream.
    Line(String),
    /// Nothing yet.
    Idle,
    /// The server closed the connection: its close code (1000 when the game is over or the
    /// client left; [`super::TAKEN_OVER`] when another connection took the seat) and reason.
    Closed(Option<(u16, String)>),
    /// The connection failed (the server was stopped or the network dropped): try again.
    Lost(String),
}

/// Read the next message.
pub fn next(ws: &mut Conn, closing: &mut Option<(u16, String)>) -> Got {
    match ws.read() {
        Ok(Message::Text(t)) => Got::Line(t.to_string()),
        Ok(Message::Close(frame)) => {
            *closing = frame.map(|f| (u16::from(f.code), f.reason.to_string()));
            Got::Idle
        }
        Ok(_) => Got::Idle,
        Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => {
            Got::Closed(closing.clone())
        }
        Err(tungstenite::Error::Io(e))
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            Got::Idle
        }
        Err(e) => match closing.take() {
            // The server said goodbye and then dropped the socket: a close all the same.
            Some(c) => Got::Closed(Some(c)),
            None => Got::Lost(e.to_string()),
        },
    }
}

/// Send one line.
///
/// # Errors
/// The connection failed.
pub fn send(ws: &mut Conn, line: &str) -> Result<(), String> {
    match ws.send(Message::text(line.to_string())) {
        Ok(()) => Ok(()),
        // The server is closing: the close itself says how it ended.
        Err(
            tungstenite::Error::Protocol(tungstenite::error::ProtocolError::SendAfterClosing)
            | tungstenite::Error::AlreadyClosed,
        ) => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::seat_url;
    use overmind_core::Side;

    #[test]
    fn seat_addresses() {
        assert_eq!(
            seat_url("ws://127.0.0.1:7878", Side::Heroes)
                .ok()
                .as_deref(),
            Some("ws://127.0.0.1:7878/heroes")
        );
        assert_eq!(
            seat_url("ws://h:1/", Side::Overmind).ok().as_deref(),
            Some("ws://h:1/overmind")
        );
        assert!(seat_url("http://h:1", Side::Heroes).is_err());
        assert!(seat_url("ws://h:1/x", Side::Heroes).is_err());
        assert!(seat_url("ws://", Side::Heroes).is_err());
    }
}

//! The listening side of `overmind serve`: each connection on a thread of its own, its seat and
//! token checked in the WebSocket handshake (refused with an HTTP error before any game line is
//! sent), then lines out of the seat's stream and commands into its queue, with messages
//! capped in size and rate.

use super::seat::{lines_of, offer, Incoming, Out, Seat};
use super::{
    same_token, seat_name, seat_side, NetError, BURST, MAX_BACKLOG, MAX_CONNECTIONS, MAX_MESSAGE,
    PER_SECOND,
};
use std::collections::VecDeque;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tungstenite::http::StatusCode;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tungstenite::{Message, WebSocket};

/// How long a client has to finish its handshake.
const HANDSHAKE: Duration = Duration::from_secs(5);

/// How long a connection's thread waits for a message before it looks for lines to send.
const TICK: Duration = Duration::from_millis(5);

/// How long a closing connection waits for its client's close frame.
const LINGER: Duration = Duration::from_secs(2);

/// Listen on `addr`.
///
/// # Errors
/// The address cannot be listened on.
pub fn listen(addr: &str) -> Result<TcpListener, NetError> {
    TcpListener::bind(addr).map_err(|source| NetError::Listen {
        addr: addr.to_string(),
        source,
    })
}

/// Connections open now, as the server counts them.
#[derive(Clone, Default)]
pub struct Live(Arc<AtomicUsize>);

impl Live {
    #[must_use]
    pub fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// One open connection in the count, for as long as it lives.
struct Slot(Live);

impl Drop for Slot {
    fn drop(&mut self) {
        (self.0).0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Accept connections for `seats` on a thread of their own, for as long as the process lives.
pub fn spawn(listener: TcpListener, seats: Vec<Arc<Seat>>) -> Live {
    let live = Live::default();
    let counted = live.clone();
    let seats = Arc::new(seats);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let n = (counted.0).fetch_add(1, Ordering::SeqCst);
            let slot = Slot(counted.clone());
            if n >= MAX_CONNECTIONS {
                // Closed unanswered: too many at once.
                drop(stream);
                drop(slot);
                continue;
            }
            let seats = Arc::clone(&seats);
            std::thread::spawn(move || {
                let _slot = slot;
                connection(stream, &seats);
            });
        }
    });
    live
}

fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(16 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(MAX_BACKLOG)
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
}

/// A refusal of the handshake: an HTTP status and why, in words.
fn refusal(status: StatusCode, why: &str) -> ErrorResponse {
    let mut r = ErrorResponse::new(Some(format!("{why}\n")));
    *r.status_mut() = status;
    r
}

/// The token a handshake carries: `Authorization: Bearer TOKEN`, else the query's
/// `token=TOKEN` (for clients that cannot set headers, such as a browser's).
fn token_of(req: &Request) -> Option<String> {
    if let Some(h) = req.headers().get("authorization") {
        let v = h.to_str().ok()?;
        return v.strip_prefix("Bearer ").map(|t| t.trim().to_string());
    }
    req.uri().query().and_then(|q| {
        q.split('&')
            .find_map(|kv| kv.strip_prefix("token="))
            .map(ToString::to_string)
    })
}

/// Check the request's seat and token against `seats`. (The refusal is as large as the
/// library's handshake callback makes it.)
///
/// # Errors
/// The refusal to answer with: 404 for a path that is no seat (or a side the AI plays), 401
/// for a wrong or missing token.
#[allow(clippy::result_large_err)]
fn admit(req: &Request, seats: &[Arc<Seat>]) -> Result<Arc<Seat>, ErrorResponse> {
    let name = req.uri().path().trim_start_matches('/');
    let Some(side) = seat_side(name) else {
        return Err(refusal(
            StatusCode::NOT_FOUND,
            "no such seat: connect to /heroes or /overmind",
        ));
    };
    let Some(seat) = seats.iter().find(|s| s.side == side) else {
        return Err(refusal(
            StatusCode::NOT_FOUND,
            &format!(
                "the AI plays the {}: there is no seat to take",
                seat_name(side)
            ),
        ));
    };
    match token_of(req) {
        Some(t) if same_token(&t, &seat.token) => Ok(Arc::clone(seat)),
        Some(_) => Err(refusal(StatusCode::UNAUTHORIZED, "wrong token")),
        None => Err(refusal(
            StatusCode::UNAUTHORIZED,
            "no token: send `Authorization: Bearer TOKEN`",
        )),
    }
}

/// Serve one connection: the handshake, then the seat's stream until it closes.
// The handshake callback's error type is the library's.
#[allow(clippy::result_large_err)]
fn connection(stream: TcpStream, seats: &[Arc<Seat>]) {
    if stream.set_read_timeout(Some(HANDSHAKE)).is_err()
        || stream.set_write_timeout(Some(HANDSHAKE)).is_err()
    {
        return;
    }
    // The handshake as a whole has HANDSHAKE too: a client trickling bytes is cut off.
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    if let Ok(guard) = stream.try_clone() {
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            std::thread::sleep(HANDSHAKE);
            if !done.load(Ordering::SeqCst) {
                let _ = guard.shutdown(std::net::Shutdown::Both);
            }
        });
    }
    let mut admitted = None;
    let callback = |req: &Request, resp: Response| -> Result<Response, ErrorResponse> {
        let seat = admit(req, seats)?;
        admitted = Some(seat);
        Ok(resp)
    };
    let closer = stream.try_clone().ok();
    let accepted = tungstenite::accept_hdr_with_config(stream, callback, Some(config()));
    done.store(true, Ordering::SeqCst);
    let Ok(mut ws) = accepted else {
        // Refused: the refusal is written; closing now ends the client's read of it.
        if let Some(c) = closer {
            let _ = c.shutdown(std::net::Shutdown::Both);
        }
        return;
    };

    let Some(seat) = admitted else { return };
    if ws.get_ref().set_read_timeout(Some(TICK)).is_err()
        || ws.get_ref().set_write_timeout(Some(TICK)).is_err()
    {
        return;
    }
    let (id, out) = seat.attach();
    play_seat(&mut ws, &seat, id, &out);
    seat.detach(id);
    // The handshake's timer may still hold the socket: shut it, so the client sees the end now.
    if let Some(c) = closer {
        let _ = c.shutdown(std::net::Shutdown::Both);
    }
}

/// Messages a connection may send now: [`BURST`] at once, then [`PER_SECOND`].
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new() -> Bucket {
        Bucket {
            tokens: f64::from(BURST),
            at: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * f64::from(PER_SECOND);
        self.tokens = (self.tokens + refill).min(f64::from(BURST));
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

fn would_block(e: &tungstenite::Error) -> bool {
    matches!(e, tungstenite::Error::Io(io)
        if matches!(io.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut))
}

/// An `error` event of the host's own, for a message refused before it reached the game.
fn error_line(message: &str) -> String {
    serde_json::json!({"event": "error", "message": message}).to_string()
}

/// The seat's lines out and its client's commands in, until either side closes.
fn play_seat(ws: &mut WebSocket<TcpStream>, seat: &Seat, id: u64, out: &Receiver<Out>) {
    let mut bucket = Bucket::new();
    let mut waiting: VecDeque<Incoming> = VecDeque::new();
    loop {
        // Out: everything the seat has for this connection.
        loop {
            match out.try_recv() {
                Ok(Out::Line(l)) => {
                    if let Err(e) = ws.write(Message::text(l.to_string())) {
                        if !would_block(&e) {
                            // The backlog is over its cap, or the connection failed.
                            return;
                        }
                    }
                }
                Ok(Out::Close(code, reason)) => {
                    close(ws, CloseCode::from(code), reason);
                    return;
                }
                Err(TryRecvError::Empty) => break,
                // The seat is gone (the server is stopping).
                Err(TryRecvError::Disconnected) => {
                    close(ws, CloseCode::Away, "the server is stopping");
                    return;
                }
            }
        }
        match ws.flush() {
            Ok(()) => {}
            Err(e) if would_block(&e) => {}
            Err(_) => return,
        }
        // In: lines the game has not taken yet go first; the socket is not read meanwhile.
        while let Some(item) = waiting.pop_front() {
            if let Err(item) = offer(seat, item) {
                waiting.push_front(item);
                break;
            }
        }
        if !waiting.is_empty() || !bucket.take() {
            std::thread::sleep(TICK);
            continue;
        }
        match ws.read() {
            Ok(Message::Text(t)) => {
                waiting.extend(lines_of(t.as_str()).into_iter().map(|l| (id, l)));
            }
            Ok(Message::Binary(_)) => waiting.push_back((
                id,
                Err("a command is a text message: this one is binary".into()),
            )),
            Ok(_) => {
                // Pings are answered by the library; a close is answered on the next flush.
                bucket.tokens += 1.0;
            }
            Err(e) if would_block(&e) => bucket.tokens += 1.0,
            Err(tungstenite::Error::Capacity(_)) => {
                let m = format!(
                    "a message may be at most {MAX_MESSAGE} bytes; this one is longer: the \
                     connection is closed"
                );
                let _ = ws.write(Message::text(error_line(&m)));
                // What is left of the message is not read: the library's buffer is past its
                // cap, and reading on would misread the rest as frames.
                let frame = CloseFrame {
                    code: CloseCode::Size,
                    reason: "message too long".into(),
                };
                let _ = ws.close(Some(frame));
                let until = Instant::now() + LINGER;
                while Instant::now() < until {
                    match ws.flush() {
                        Err(e) if would_block(&e) => std::thread::sleep(TICK),
                        _ => break,
                    }
                }
                let _ = ws.get_ref().shutdown(std::net::Shutdown::Write);
                return;
            }
            Err(_) => return,
        }
    }
}

/// Close the connection with `code`, waiting a little for the client's answer.
fn close(ws: &mut WebSocket<TcpStream>, code: CloseCode, reason: &'static str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    if ws.close(Some(frame)).is_err() {
        return;
    }
    let until = Instant::now() + LINGER;
    while Instant::now() < until {
        match ws.read() {
            Ok(_) => {}
            Err(e) if would_block(&e) => {
                let _ = ws.flush();
            }
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Bucket;

    #[test]
    fn a_burst_then_the_rate() {
        let mut b = Bucket::new();
        let taken = (0..super::BURST + 10).filter(|_| b.take()).count();
        // The burst, and at most what refilled while taking it.
        assert!(taken >= super::BURST as usize && taken < super::BURST as usize + 10);
    }
}

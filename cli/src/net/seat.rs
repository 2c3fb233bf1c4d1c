//! The seats of a served game: each human side's JSON stream (written by a [`Machine`] in that
//! side's view), what a connection that comes (back) is sent first, the lines its client
//! sends, and the [`Seats`] front end that the play loop drives.

use crate::command::{self, Command, Names};
use crate::human::{answer_for, Frontend, Input, Note};
use crate::json::Machine;
use crate::packs::Reload;
use crate::session::Session;
use crate::turn::Turn;
use overmind_core::{Decision, Event, Side, View};
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, Sender, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// What a connection's thread is told to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    /// Send one line of the stream as a text message.
    Line(Arc<str>),
    /// Close the connection with this code and reason, after the lines before it.
    Close(u16, &'static str),
}

/// A line a client sent, from connection number `.0`: the text, or why it is not a command.
pub type Incoming = (u64, Result<String, String>);

/// Lines a seat holds for the game before its connection stops reading more.
const QUEUE: usize = 256;

/// One human side's seat, shared by the game and the connection threads.
pub struct Seat {
    pub side: Side,
    pub token: String,
    state: Mutex<State>,
    incoming: SyncSender<Incoming>,
}

#[derive(Default)]
struct State {
    /// The stream's `session` line.
    session: Option<Arc<str>>,
    /// Every core event so far in this seat's view (and the summary at the end): a connection
    /// that comes is sent the session line, these, then the prompt, as `play --load` starts.
    history: Vec<Arc<str>>,
    /// The `your_turn` or `decision` this seat is waiting on, if any.
    prompt: Option<Arc<str>>,
    /// The connection playing the seat: its number and its thread's queue.
    conn: Option<(u64, Sender<Out>)>,
    /// Connections so far.
    count: u64,
    /// The game is over: connections are sent the stream and closed.
    over: bool,
}

/// The lines of a stream that a connection coming back is not sent again: answers to what its
/// client asked, said once.
const LIVE_ONLY: &[&str] = &[
    "error", "reload", "state", "map", "history", "help", "saved", "undone", "quit",
];

/// The `event` field of a line the host wrote (always its first field).
fn kind_of(line: &str) -> &str {
    line.strip_prefix("{\"event\":\"")
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("")
}

impl Seat {
    /// A seat for `side` behind `token`, and the receiving end of the lines its clients send.
    #[must_use]
    pub fn new(side: Side, token: String) -> (Arc<Seat>, Receiver<Incoming>) {
        let (tx, rx) = sync_channel(QUEUE);
        let seat = Seat {
            side,
            token,
            state: Mutex::new(State::default()),
            incoming: tx,
        };
        (Arc::new(seat), rx)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A thread that panicked holding the lock left plain data: carry on with it.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Where a connection's thread puts the lines its client sends.
    #[must_use]
    pub fn incoming(&self) -> &SyncSender<Incoming> {
        &self.incoming
    }

    /// A new connection takes the seat (closing the one that had it): it is sent the stream
    /// so far as a fresh one starts — `session`, every event, then what the seat is waiting
    /// on — and then everything live. Returns its number and its queue.
    pub fn attach(&self) -> (u64, Receiver<Out>) {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut st = self.lock();
        st.count += 1;
        let id = st.count;
        if let Some((_, old)) = st.conn.take() {
            let _ = old.send(Out::Close(
                super::TAKEN_OVER,
                "another connection took this seat",
            ));
        }
        let first = st.session.iter().chain(&st.history).chain(&st.prompt);
        for line in first {
            let _ = tx.send(Out::Line(Arc::clone(line)));
        }
        if st.over {
            let _ = tx.send(Out::Close(1000, "the game is over"));
        } else {
            st.conn = Some((id, tx));
        }
        (id, rx)
    }

    /// Connection `id` ended: the seat is free (unless another took it meanwhile).
    pub fn detach(&self, id: u64) {
        let mut st = self.lock();
        if st.conn.as_ref().is_some_and(|(c, _)| *c == id) {
            st.conn = None;
        }
    }

    /// Whether connection `id` plays the seat now: lines from any other are dropped.
    fn current(&self, id: u64) -> bool {
        self.lock().conn.as_ref().is_some_and(|(c, _)| *c == id)
    }

    /// Close connection `id` (its client left with `quit`), after what was sent before.
    fn close(&self, id: u64, code: u16, reason: &'static str) {
        let mut st = self.lock();
        if st.conn.as_ref().is_some_and(|(c, _)| *c == id) {
            if let Some((_, tx)) = st.conn.take() {
                let _ = tx.send(Out::Close(code, reason));
            }
        }
    }

    /// The game is over: the connection is closed once it has everything.
    pub fn finish(&self) {
        let mut st = self.lock();
        st.over = true;
        if let Some((_, tx)) = st.conn.take() {
            let _ = tx.send(Out::Close(1000, "the game is over"));
        }
    }

    /// The decision the seat was asked is answered: a connection coming now is not asked it.
    fn answered(&self) {
        let mut st = self.lock();
        if st
            .prompt
            .as_deref()
            .is_some_and(|p| kind_of(p) == "decision")
        {
            st.prompt = None;
        }
    }

    /// Drop the events past the game's log (an action was undone).
    fn truncate(&self, events: usize) {
        self.lock().history.truncate(events);
    }

    /// One line of the seat's stream: kept for connections to come as its kind says, and sent
    /// to the connection now playing.
    fn line(&self, line: &str) {
        let line: Arc<str> = Arc::from(line);
        let mut st = self.lock();
        match kind_of(&line) {
            "session" => st.session = Some(Arc::clone(&line)),
            "your_turn" | "decision" => st.prompt = Some(Arc::clone(&line)),
            k if LIVE_ONLY.contains(&k) => {}
            _ => {
                // The game moved on: whatever was asked has been answered.
                st.prompt = None;
                st.history.push(Arc::clone(&line));
            }
        }
        let gone = match &st.conn {
            Some((_, tx)) => tx.send(Out::Line(line)).is_err(),
            None => false,
        };
        if gone {
            st.conn = None;
        }
    }
}

/// The bytes a seat's [`Machine`] writes, cut into lines for the seat.
struct SeatWriter {
    seat: Arc<Seat>,
    partial: Vec<u8>,
}

impl std::io::Write for SeatWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(i) = self.partial.iter().position(|&b| b == b'\n') {
            let rest = self.partial.split_off(i + 1);
            let line = std::mem::replace(&mut self.partial, rest);
            // The machine writes JSON, which is UTF-8.
            let text = String::from_utf8_lossy(&line[..i]);
            self.seat.line(&text);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Where the served game is saved after every accepted action.
pub struct Journal {
    pub path: PathBuf,
    /// Records in the save last written.
    written: Option<usize>,
}

impl Journal {
    #[must_use]
    pub fn new(path: PathBuf) -> Journal {
        Journal {
            path,
            written: None,
        }
    }

    /// Save the game, atomically, when it changed (or always, with `force`). A save that
    /// fails is reported on the server's standard error and the game goes on.
    pub fn write(&mut self, s: &Session, force: bool) {
        let n = s.game.record.len();
        if !force && self.written == Some(n) {
            return;
        }
        match s.save().write(&self.path) {
            Ok(()) => self.written = Some(n),
            Err(m) => {
                let m = overmind_core::source::escape_controls(&m).into_owned();
                let _ = writeln!(std::io::stderr().lock(), "warning: journal: {m}");
            }
        }
    }
}

/// One human side at the server: its seat, the machine writing its stream, the lines in.
struct Player {
    seat: Arc<Seat>,
    machine: Machine,
    incoming: Receiver<Incoming>,
}

/// The front end of a served game: every human side's stream in its own view, each side's
/// commands read from its own seat. What answers a command (an error, help, a map) goes to the
/// side that sent it only.
pub struct Seats {
    players: [Option<Player>; 2],
    /// The side whose command is being carried out.
    current: Option<Side>,
    journal: Option<Journal>,
}

fn index(side: Side) -> usize {
    match side {
        Side::Heroes => 0,
        Side::Overmind => 1,
    }
}

impl Seats {
    /// The front end for these seats (each with the receiver [`Seat::new`] gave), who plays
    /// each side (`human` or `ai`) for the `session` line, and the journal.
    #[must_use]
    pub fn new(
        seats: Vec<(Arc<Seat>, Receiver<Incoming>)>,
        sides: (&'static str, &'static str),
        journal: Option<Journal>,
    ) -> Seats {
        let mut players: [Option<Player>; 2] = [None, None];
        for (seat, incoming) in seats {
            let out = SeatWriter {
                seat: Arc::clone(&seat),
                partial: Vec::new(),
            };
            let machine = Machine::new(Box::new(out), seat.side, sides);
            let i = index(seat.side);
            players[i] = Some(Player {
                seat,
                machine,
                incoming,
            });
        }
        Seats {
            players,
            current: None,
            journal,
        }
    }

    fn each(&mut self, mut f: impl FnMut(&mut Machine)) {
        for p in self.players.iter_mut().flatten() {
            f(&mut p.machine);
        }
    }

    /// The machine of the side being answered; every machine when none is.
    fn answer(&mut self, mut f: impl FnMut(&mut Machine)) {
        match self.current.and_then(|s| self.players[index(s)].as_mut()) {
            Some(p) => f(&mut p.machine),
            None => self.each(f),
        }
    }

    fn journal(&mut self, s: &Session, force: bool) {
        if let Some(j) = &mut self.journal {
            j.write(s, force);
        }
    }

    /// The next line from `side`'s seat, waiting at most `wait`: lines of a connection that
    /// is gone are dropped; `quit` closes the connection (the game waits for the seat to come
    /// back); `save` is refused (the server keeps the save).
    fn next(&mut self, side: Side, wait: Option<Duration>) -> Input {
        let Some(p) = self.players[index(side)].as_mut() else {
            return Input::Idle;
        };
        let got = match wait {
            Some(w) => p.incoming.recv_timeout(w),
            None => p
                .incoming
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
        };
        let (id, line) = match got {
            Ok(x) => x,
            Err(RecvTimeoutError::Timeout) => return Input::Idle,
            // The seat holds a sender as long as it lives: never the case; wait as for none.
            Err(RecvTimeoutError::Disconnected) => {
                std::thread::sleep(wait.unwrap_or(crate::cmd::play::POLL));
                return Input::Idle;
            }
        };
        if !p.seat.current(id) {
            return Input::Idle;
        }
        let line = match line {
            Ok(l) => l,
            Err(m) => return Input::Invalid(m),
        };
        match command::parse(&line, &Names::default()) {
            Ok(Command::Quit) => {
                p.machine.note(Note::Quit, "quit");
                p.seat
                    .close(id, 1000, "quit: the seat is free until you come back");
                Input::Idle
            }
            Ok(Command::Save(_)) => {
                p.machine.error(
                    "the server keeps this game's save: it saves after every action",
                    None,
                );
                Input::Idle
            }
            _ => Input::Line(line),
        }
    }
}

impl Frontend for Seats {
    fn started(&mut self, s: &Session) {
        self.each(|m| m.started(s));
        self.journal(s, true);
    }

    fn events(&mut self, s: &Session, events: &[Event]) {
        self.each(|m| m.events(s, events));
        self.journal(s, true);
    }

    fn context(&mut self, so_far: &[Event]) {
        // Both streams: the events are the table's, and each machine counts its own.
        self.each(|m| m.context(so_far));
    }

    fn reloads(&mut self, rs: &[Reload]) {
        self.each(|m| m.reloads(rs));
    }

    fn error(&mut self, message: &str, suggestion: Option<&str>) {
        self.answer(|m| m.error(message, suggestion));
    }

    fn refused(&mut self, refusal: &overmind_core::Refusal, suggestion: Option<&str>) {
        self.answer(|m| m.refused(refusal, suggestion));
    }

    fn note(&mut self, kind: Note, text: &str) {
        if kind == Note::Quit {
            // The host stops: everyone is told.
            self.each(|m| m.note(kind, text));
            return;
        }
        self.answer(|m| m.note(kind, text));
    }

    fn turn(&mut self, s: &Session, turn: &Turn) {
        for p in self.players.iter().flatten() {
            p.seat.truncate(s.game.log.len());
        }
        if let Some(p) = self.players[index(turn.side)].as_mut() {
            p.machine.turn(s, turn);
        }
        // An undo changed the game without events: saved here, before the next command.
        self.journal(s, false);
    }

    fn status(&mut self, s: &Session) {
        self.answer(|m| m.status(s));
    }

    fn map(&mut self, s: &Session) {
        self.answer(|m| m.map(s));
    }

    fn log(&mut self, s: &Session, n: Option<usize>) {
        self.answer(|m| m.log(s, n));
    }

    fn read(&mut self, side: Side, wait: Duration) -> Input {
        self.current = Some(side);
        self.next(side, Some(wait))
    }

    fn decide(&mut self, _: View<'_>, d: &Decision) -> usize {
        // `current` stays the side whose command is being carried out: what answers it comes
        // after the decision, and goes to that side (a decision's errors go to `d.who` here).
        let Some(p) = self.players[index(d.who)].as_mut() else {
            // Only a human side's decisions come here.
            return 0;
        };
        p.machine.ask(d);
        loop {
            let problem = match self.next(d.who, None) {
                Input::Line(l) => match answer_for(&l, &d.options) {
                    Ok(i) => {
                        if let Some(p) = &self.players[index(d.who)] {
                            p.seat.answered();
                        }
                        return i;
                    }
                    Err(m) => m,
                },
                Input::Invalid(m) => m,
                Input::Idle | Input::Eof => continue,
            };
            let message = format!("a decision is waiting: {problem}");
            if let Some(p) = self.players[index(d.who)].as_mut() {
                p.machine.error(&message, None);
            }
        }
    }

    fn viewer(&self, side: Side) -> Side {
        side
    }

    fn game_over(&mut self, summary: &crate::summary::Summary) {
        self.each(|m| m.game_over(summary));
    }

    fn broken(&self) -> bool {
        false
    }
}

/// Hand the lines of a text message to the seat's queue: split at newlines (a trailing one
/// ends the last line), each at most `human::MAX_LINE` bytes.
#[must_use]
pub fn lines_of(text: &str) -> Vec<Result<String, String>> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.split('\n')
        .map(|l| {
            let l = l.strip_suffix('\r').unwrap_or(l);
            if l.len() > crate::human::MAX_LINE {
                Err(crate::human::too_long())
            } else {
                Ok(l.to_string())
            }
        })
        .collect()
}

/// Put a line in the seat's queue without waiting; gives it back when the queue is full.
///
/// # Errors
/// The queue is full (the game is not reading this seat now): try again later.
pub fn offer(seat: &Seat, item: Incoming) -> Result<(), Incoming> {
    match seat.incoming().try_send(item) {
        Ok(()) | Err(TrySendError::Disconnected(_)) => Ok(()),
        Err(TrySendError::Full(item)) => Err(item),
    }
}

#[cfg(test)]
mod tests {
    use super::{kind_of, lines_of, Out, Seat};
    use overmind_core::Side;

    #[test]
    fn a_connection_coming_back_gets_the_session_the_events_and_the_prompt() {
        let (seat, _rx) = Seat::new(Side::Heroes, "t".into());
        seat.line(r#"{"event":"session","view":"heroes"}"#);
        seat.line(r#"{"event":"round_started","round":1}"#);
        seat.line(r#"{"event":"your_turn","side":"heroes"}"#);
        seat.line(r#"{"event":"error","message":"no"}"#);
        let (_, first) = seat.attach();
        let got: Vec<Out> = first.try_iter().collect();
        let kinds: Vec<&str> = got
            .iter()
            .map(|o| match o {
                Out::Line(l) => kind_of(l),
                Out::Close(..) => "close",
            })
            .collect();
        assert_eq!(kinds, ["session", "round_started", "your_turn"]);
        // An event answers the prompt; a second connection takes over from the first.
        seat.line(r#"{"event":"moved","unit":"captain"}"#);
        let (_, second) = seat.attach();
        assert_eq!(second.try_iter().count(), 3);
        let old: Vec<Out> = first.try_iter().collect();
        assert!(
            matches!(old.last(), Some(Out::Close(super::super::TAKEN_OVER, _))),
            "{old:?}"
        );
    }

    #[test]
    fn messages_split_into_capped_lines() {
        assert_eq!(lines_of("end"), [Ok("end".to_string())]);
        assert_eq!(
            lines_of("end\r\nstatus\n"),
            [Ok("end".to_string()), Ok("status".to_string())]
        );
        let long = "x".repeat(crate::human::MAX_LINE + 1);
        assert!(lines_of(&long)[0].is_err());
    }
}

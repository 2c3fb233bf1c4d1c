//! The full-screen terminal UI (ratatui on crossterm) for a person at a terminal: the map
//! pinned, the log beside it, the selected unit's panel, the options and the prompt; in
//! hot-seat each side sees only its own view, with a handover screen between the two.

mod ansi;
mod hotseat;
mod input;
mod layout;
mod log;
mod map;
mod panel;

pub use hotseat::Handover;

use crate::describe;
use crate::human::{answer_for, Frontend, Input, Note};
use crate::packs::Reload;
use crate::session::Session;
use crate::turn::Turn;
use crossterm::event::{self, Event as TermEvent, KeyCode, KeyEventKind, KeyModifiers};
use crossterm::{cursor, execute, terminal};
use input::Key;
use overmind_core::{Choice, Decision, Event, GameState, Id, Side, View};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use std::cell::Cell;
use std::collections::VecDeque;
use std::io::{IsTerminal, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The front end for a person at a terminal: the full-screen UI when standard output is a
/// terminal too (and neither `--plain` nor a game of AIs alone asks for lines), else line
/// mode, with a handover between two people.
///
/// `view` is whose knowledge line mode shows; `per_side` has the full-screen UI show each
/// side its own instead (hot-seat without `--view`).
#[must_use]
pub fn frontend(
    view: Side,
    per_side: bool,
    hotseat: bool,
    person: bool,
    plain: bool,
) -> Box<dyn Frontend> {
    let colour = crate::output::use_colour(false);
    if !plain && person && std::io::stdout().is_terminal() {
        let fixed = (!per_side).then_some(view);
        // A terminal that will not go full-screen still plays in lines.
        if let Ok(t) = Tui::start(fixed, hotseat, colour) {
            return Box::new(t);
        }
    }
    let lines = Box::new(crate::terminal::Terminal::new(
        view, per_side, colour, person,
    ));
    if hotseat {
        Box::new(Handover::new(lines))
    } else {
        lines
    }
}

/// Whether the terminal is in raw mode on the alternate screen (set up by [`Tui::start`]).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Leave the alternate screen, show the cursor and end raw mode, once, whatever the path out:
/// drop, error or panic.
pub fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = execute!(
            std::io::stdout(),
            event::DisableBracketedPaste,
            terminal::LeaveAlternateScreen,
            cursor::Show
        );
        let _ = terminal::disable_raw_mode();
    }
}

/// Restore the terminal before a panic's message is printed, so it is readable.
fn panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            before(info);
        }));
    });
}

type Term = ratatui::Terminal<CrosstermBackend<Stdout>>;

/// What the bottom line is asking for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prompt {
    /// Nothing asked (the AI is playing).
    Idle,
    Command(Side),
    /// A yes or no (the question is in `Tui::question`).
    Confirm(Side),
    /// A decision's option, 1 to n.
    Choose(usize),
    /// The game is over: Enter leaves.
    Over,
}

/// What waiting for the terminal gave.
enum Got {
    Event(TermEvent),
    Timeout,
    Failed,
}

/// Lines shown on the normal screen after the UI closes, so the end of the game stays
/// readable.
const TAIL: usize = 12;

/// The full-screen UI.
pub struct Tui {
    term: Option<Term>,
    colour: bool,
    /// Whose knowledge every screen shows; `None`: each side its own (hot-seat).
    fixed: Option<Side>,
    /// Two people share the keyboard: hand it over between them.
    hotseat: bool,
    /// The side at the keyboard, once one is.
    viewer: Option<Side>,
    log: log::Log,
    /// Each side's prompt line and history.
    editors: [input::Editor; 2],
    /// Lines pasted ahead, entered one by one (a line over the cap as its error).
    queued: VecDeque<Input>,
    /// The state as the viewer may see it: what the map and panels draw.
    shown: Option<GameState>,
    tables: panel::Tables,
    mission: String,
    turn: Option<Turn>,
    decision: Option<Decision>,
    /// The unit chosen with Tab, until the next turn.
    selected: Option<Id>,
    /// Squares marked by the last `los` or `reach`, until the next line is entered.
    marks: Vec<(overmind_core::Pos, char)>,
    /// A yes/no question being asked.
    question: Option<String>,
    /// How many of the resolving action's events were shown before a decision.
    early: usize,
    prompt: Prompt,
    /// The person asked to leave: every later read gives this.
    quit: Option<Input>,
    /// The handover screen is up, for this side.
    handing: Option<Side>,
    broken: bool,
    dirty: bool,
    /// The log's rows and its window's height at the last draw, for paging.
    log_rows: Cell<(usize, usize)>,
    /// A part shown over the whole middle of the screen (`map`, F2, F3), until Esc, its key
    /// again, or the next line.
    zoom: layout::Zoom,
    /// How far the map is panned from the focus, in squares (Shift/Alt and the arrows), until
    /// the next turn or selection.
    pan: (i32, i32),
}

impl Tui {
    /// Go full-screen: raw mode, the alternate screen, bracketed paste.
    ///
    /// # Errors
    /// The terminal refused; it is left as it was.
    pub fn start(fixed: Option<Side>, hotseat: bool, colour: bool) -> std::io::Result<Tui> {
        panic_hook();
        terminal::enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        let term = execute!(
            std::io::stdout(),
            terminal::EnterAlternateScreen,
            event::EnableBracketedPaste
        )
        .and_then(|()| ratatui::Terminal::new(CrosstermBackend::new(std::io::stdout())));
        let term = match term {
            Ok(t) => t,
            Err(e) => {
                restore();
                return Err(e);
            }
        };
        let mut tui = Tui {
            term: Some(term),
            colour,
            fixed,
            hotseat,
            viewer: None,
            log: log::Log::default(),
            editors: Default::default(),
            queued: VecDeque::new(),
            shown: None,
            tables: panel::Tables::default(),
            mission: String::new(),
            turn: None,
            decision: None,
            selected: None,
            marks: Vec::new(),
            question: None,
            early: 0,
            prompt: Prompt::Idle,
            quit: None,
            handing: None,
            broken: false,
            dirty: true,
            log_rows: Cell::new((0, 0)),
            zoom: layout::Zoom::None,
            pan: (0, 0),
        };
        tui.draw();
        Ok(tui)
    }

    /// Whose knowledge is on screen.
    fn eyes(&self) -> Side {
        self.fixed.or(self.viewer).unwrap_or(Side::Heroes)
    }

    /// Who may read a line said now: in hot-seat, only the side at the keyboard.
    fn private(&self) -> Option<Side> {
        if self.hotseat {
            self.viewer
        } else {
            None
        }
    }

    fn style(&self, colour: Color, modifier: Modifier) -> Style {
        let s = Style::default().add_modifier(modifier);
        if self.colour {
            s.fg(colour)
        } else {
            s
        }
    }

    fn say(&mut self, text: &str, style: Style) {
        let only = self.private();
        self.log.push(text, style, only);
        self.log.follow();
        self.dirty = true;
    }

    /// Take what a session knows: stats, the mission's name, the state as the viewer sees it.
    fn update(&mut self, s: &Session) {
        self.tables = panel::Tables::of(s.content());
        self.mission = s.shown_name().into_owned();
        self.shown = Some(s.game.state.view(self.eyes()));
        self.dirty = true;
    }

    /// `side` is to see the screen: in hot-seat, after the other side, hand the keyboard over.
    fn show_to(&mut self, side: Side) {
        let before = self.viewer.replace(side);
        if before.is_none_or(|b| b == side) {
            return;
        }
        // Nothing of the other side's screen carries over.
        self.turn = None;
        self.selected = None;
        self.log.follow();
        if let Some(s) = self.shown.take() {
            self.shown = Some(s.view(self.eyes()));
        }
        if self.hotseat {
            self.handover(side);
        }
        self.dirty = true;
    }

    /// The handover screen, on a cleared terminal, until Enter.
    fn handover(&mut self, to: Side) {
        self.handing = Some(to);
        self.clear();
        self.draw();
        loop {
            match self.wait(Duration::from_secs(1)) {
                Got::Timeout => {}
                Got::Failed => {
                    self.quit = Some(Input::Eof);
                    break;
                }
                Got::Event(TermEvent::Key(k)) if k.kind != KeyEventKind::Release => {
                    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
                    match k.code {
                        KeyCode::Enter => break,
                        KeyCode::Char('j') if ctrl => break,
                        KeyCode::Char('c') if ctrl => {
                            self.quit = Some(Input::Line("quit".into()));
                            break;
                        }
                        KeyCode::Char('d') if ctrl => {
                            self.quit = Some(Input::Eof);
                            break;
                        }
                        _ => {}
                    }
                }
                Got::Event(TermEvent::Resize(..)) => self.draw(),
                Got::Event(_) => {}
            }
        }
        self.handing = None;
        self.clear();
    }

    /// Blank the terminal, so the next draw paints every cell. (Not `Terminal::clear`, which
    /// asks the terminal where its cursor is and waits for an answer.)
    fn clear(&mut self) {
        if let Some(t) = self.term.as_mut() {
            let cleared = t
                .size()
                .and_then(|s| t.resize(Rect::new(0, 0, s.width, s.height)));
            if cleared.is_err() {
                self.broken = true;
            }
        }
        self.dirty = true;
    }

    fn wait(&self, timeout: Duration) -> Got {
        match event::poll(timeout) {
            Ok(true) => match event::read() {
                Ok(e) => Got::Event(e),
                Err(_) => Got::Failed,
            },
            Ok(false) => Got::Timeout,
            Err(_) => Got::Failed,
        }
    }

    /// The next line for `side`, waiting until `deadline` (`None`: as long as it takes).
    fn next_line(&mut self, side: Side, deadline: Option<Instant>) -> Input {
        loop {
            if let Some(q) = &self.quit {
                return q.clone();
            }
            if let Some(i) = self.queued.pop_front() {
                if let Input::Line(l) = &i {
                    self.echo(l);
                }
                return i;
            }
            if self.dirty {
                self.draw();
            }
            let left = match deadline {
                Some(d) => d.saturating_duration_since(Instant::now()),
                None => Duration::from_secs(1),
            };
            match self.wait(left) {
                Got::Timeout if deadline.is_some() => return Input::Idle,
                Got::Timeout => {}
                Got::Failed => return Input::Eof,
                Got::Event(e) => {
                    self.on_event(e, side);
                    // Take every key already typed before drawing again.
                    while self.quit.is_none() && matches!(event::poll(Duration::ZERO), Ok(true)) {
                        match event::read() {
                            Ok(e) => self.on_event(e, side),
                            Err(_) => return Input::Eof,
                        }
                    }
                }
            }
        }
    }

    fn echo(&mut self, line: &str) {
        let who = match self.prompt {
            Prompt::Choose(_) => "choose".to_string(),
            Prompt::Command(s) => s.name().to_string(),
            Prompt::Confirm(_) => "y/N".to_string(),
            Prompt::Idle | Prompt::Over => String::new(),
        };
        self.marks.clear();
        self.zoom = layout::Zoom::None;
        let style = Style::default().add_modifier(Modifier::DIM);
        self.say(&format!("{who}> {line}"), style);
    }

    fn on_event(&mut self, e: TermEvent, side: Side) {
        let editor = &mut self.editors[usize::from(side == Side::Overmind)];
        match e {
            TermEvent::Key(k) => match editor.key(k) {
                Key::Submit(l) => self.queued.push_back(Input::Line(l)),
                Key::TooLong => self
                    .queued
                    .push_back(Input::Invalid(crate::human::too_long())),
                Key::Interrupt => self.quit = Some(Input::Line("quit".into())),
                Key::Eof => self.quit = Some(Input::Eof),
                Key::PageUp => {
                    let (total, h) = self.log_rows.get();
                    self.log.page_up(total, h);
                    self.dirty = true;
                }
                Key::PageDown => {
                    let (total, h) = self.log_rows.get();
                    self.log.page_down(total, h);
                    self.dirty = true;
                }
                Key::NextUnit => self.cycle(true),
                Key::PrevUnit => self.cycle(false),
                Key::Redraw => self.clear(),
                Key::Edited => self.dirty = true,
                Key::Pan(dx, dy) => {
                    // A few squares a press: the demo's map crosses in a handful.
                    self.pan = (self.pan.0 + 3 * dx, self.pan.1 + 3 * dy);
                    self.dirty = true;
                }
                Key::ShowLegend => self.toggle(layout::Zoom::Key),
                Key::ShowOptions => self.toggle(layout::Zoom::Options),
                Key::Escape => {
                    self.zoom = layout::Zoom::None;
                    self.dirty = true;
                }
                Key::Nothing => {}
            },
            TermEvent::Paste(text) => {
                let lines = editor.paste(&text);
                self.queued.extend(lines);
                self.dirty = true;
            }
            // ratatui sizes the next frame to the terminal.
            TermEvent::Resize(..) => self.dirty = true,
            _ => {}
        }
    }

    /// Show `z` over the middle of the screen, or go back when it is shown.
    fn toggle(&mut self, z: layout::Zoom) {
        self.zoom = if self.zoom == z {
            layout::Zoom::None
        } else {
            z
        };
        self.dirty = true;
    }

    /// Select the next (or previous) unit on the map.
    fn cycle(&mut self, forward: bool) {
        let Some(state) = &self.shown else {
            return;
        };
        let all = panel::selectable(state);
        if all.is_empty() {
            return;
        }
        let now = self
            .focus(state)
            .and_then(|f| all.iter().position(|&i| i == f));
        let n = all.len();
        let next = match (now, forward) {
            (Some(i), true) => (i + 1) % n,
            (Some(i), false) => (i + n - 1) % n,
            (None, _) => 0,
        };
        self.selected = Some(all[next]);
        self.pan = (0, 0);
        self.dirty = true;
    }

    /// The unit the panel shows: a decision's subject, else the one chosen with Tab, else the
    /// one activating, else the viewer's first that has not activated.
    fn focus(&self, state: &GameState) -> Option<Id> {
        let subject = self
            .decision
            .as_ref()
            .and_then(|d| d.subject.as_deref())
            .and_then(|s| panel::owner(state, s));
        let chosen = self.selected.and_then(|s| panel::owner(state, s.as_str()));
        let active = state.active.and_then(|a| panel::owner(state, a.as_str()));
        let eyes = self.eyes();
        subject.or(chosen).or(active).or_else(|| {
            let unit = state
                .units
                .iter()
                .find(|u| u.side == eyes && u.alive() && !u.extracted && !u.activated)
                .map(|u| u.id);
            let blip = || {
                (eyes == Side::Overmind)
                    .then(|| state.blips.iter().find(|b| !b.activated).map(|b| b.id))
                    .flatten()
            };
            unit.or_else(blip)
        })
    }

    /// Wait at the game-over screen until the person leaves it.
    fn wait_to_leave(&mut self) {
        self.prompt = Prompt::Over;
        self.dirty = true;
        loop {
            if self.dirty {
                self.draw();
            }
            if self.broken {
                return;
            }
            match self.wait(Duration::from_secs(1)) {
                Got::Timeout => {}
                Got::Failed => return,
                Got::Event(TermEvent::Key(k)) if k.kind != KeyEventKind::Release => {
                    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
                    match k.code {
                        KeyCode::Enter | KeyCode::Esc | KeyCode::Char('q') => return,
                        KeyCode::Char('c' | 'd' | 'j') if ctrl => return,
                        KeyCode::PageUp => self.on_event(TermEvent::Key(k), self.eyes()),
                        KeyCode::PageDown => self.on_event(TermEvent::Key(k), self.eyes()),
                        _ => {}
                    }
                }
                Got::Event(TermEvent::Resize(..)) => self.dirty = true,
                Got::Event(_) => {}
            }
        }
    }

    fn draw(&mut self) {
        self.dirty = false;
        let Some(mut term) = self.term.take() else {
            return;
        };
        if term.draw(|f| self.render(f)).is_err() {
            self.broken = true;
        }
        self.term = Some(term);
    }

    fn render(&self, f: &mut Frame<'_>) {
        let size = f.area();
        if let Some(to) = self.handing {
            self.render_handover(f, to);
            return;
        }
        let Some(state) = &self.shown else {
            let text = Paragraph::new("Loading the packs…").alignment(Alignment::Center);
            f.render_widget(text, centre(size, 3));
            return;
        };
        let mut board = map::Board::new(state, self.colour);
        let focus = self.focus(state);
        // A decision's options are marked instead: one highlight at a time.
        if let (Some(id), None) = (focus, &self.decision) {
            for p in panel::squares(state, id.as_str()) {
                board.select(p);
            }
        }
        let mark = self.style(Color::LightYellow, Modifier::REVERSED | Modifier::BOLD);
        if let Some(d) = &self.decision {
            for (i, o) in d.options.iter().enumerate() {
                let ch = char::from_digit(u32::try_from(i + 1).unwrap_or(99), 10);
                let squares = match o {
                    Choice::Square(p) => vec![*p],
                    Choice::Id(id) => panel::squares(state, id.as_str()),
                    Choice::Path(_) => Vec::new(),
                };
                for p in squares {
                    board.mark(p, ch, mark);
                }
            }
        }
        let marked = self.style(Color::LightYellow, Modifier::BOLD);
        for &(p, ch) in &self.marks {
            board.mark(p, Some(ch), marked);
        }
        let syms = crate::screen::symbols(state);
        let panel = focus.and_then(|id| panel::panel(state, &self.tables, id.as_str(), &syms));
        let roster: Vec<String> = crate::screen::units(state, false)
            .lines()
            .map(|l| l.trim_start().to_string())
            .collect();
        let options = self.options(state);
        let tokens = crate::screen::token_key(state);
        let key_rows =
            |w: u16| u16::try_from(map::key(false, &tokens, usize::from(w)).len()).unwrap_or(1);
        let mut wants = layout::Wants {
            zoom: self.zoom,
            map: board.size(),
            key_rows: &key_rows,
            panel: panel
                .as_ref()
                .map_or(0, |p| u16::try_from(p.1.len()).unwrap_or(9)),
            roster: u16::try_from(roster.len()).unwrap_or(u16::MAX),
            options: u16::try_from(options.1.len()).unwrap_or(u16::MAX),
        };
        // Options wrap: lay out once to learn their width, then again for their rows.
        let Some(first) = layout::areas(size, &wants) else {
            let text = format!(
                "Make the terminal at least {}×{} (it is {}×{})",
                layout::MIN.0,
                layout::MIN.1,
                size.width,
                size.height
            );
            f.render_widget(
                Paragraph::new(text)
                    .wrap(Wrap { trim: true })
                    .alignment(Alignment::Center),
                size,
            );
            return;
        };
        let inner = usize::from(first.options.width.max(first.log.width)).saturating_sub(2);
        let option_rows: Vec<String> = options.1.iter().flat_map(|l| log::wrap(l, inner)).collect();
        wants.options = u16::try_from(option_rows.len()).unwrap_or(u16::MAX);
        // The roster wraps too (a long Tokens line is never cut), each row marked with
        // whether its unit is the focus.
        let owner = focus.map(|f| f.to_string());
        let roster: Vec<(String, bool)> = roster
            .iter()
            .flat_map(|l| {
                let mine = owner
                    .as_deref()
                    .is_some_and(|o| l.split_whitespace().nth(1) == Some(o));
                log::wrap(l, inner).into_iter().map(move |r| (r, mine))
            })
            .collect();
        wants.roster = u16::try_from(roster.len()).unwrap_or(u16::MAX);
        // The panel's lines wrap too.
        let panel = panel.map(|(title, lines)| {
            let rows: Vec<String> = lines.iter().flat_map(|l| log::wrap(l, inner)).collect();
            (title, rows)
        });
        wants.panel = panel
            .as_ref()
            .map_or(0, |p| u16::try_from(p.1.len()).unwrap_or(u16::MAX));
        let a = layout::areas(size, &wants).unwrap_or(first);

        self.render_title(f, a.title, state);
        // The map centres on the focus, moved by the pan and kept on the map.
        let (mw, mh) = (state.map.width(), state.map.height());
        let at = focus
            .and_then(|id| panel::squares(state, id.as_str()).first().copied())
            .or(Some(overmind_core::Pos::new(mw / 2, mh / 2)))
            .map(|p| {
                overmind_core::Pos::new(
                    (p.x + self.pan.0).clamp(0, (mw - 1).max(0)),
                    (p.y + self.pan.1).clamp(0, (mh - 1).max(0)),
                )
            });
        board.render(a.map, f.buffer_mut(), at);
        let cut = board.size().1 > a.map.height || board.size().0 > a.map.width;
        if a.key.height > 0 {
            let boxed = a.key_boxed || self.zoom == layout::Zoom::Key;
            let width = usize::from(a.key.width).saturating_sub(if boxed { 2 } else { 0 });
            let mut key: Vec<Line> = map::key(self.colour, &tokens, width)
                .into_iter()
                .map(cells_line)
                .collect();
            if self.zoom == layout::Zoom::Key {
                let more = [
                    describe::DICE_KEY,
                    "XP: experience; a Hero gains 1 per kill.",
                    "Keys: Tab selects a unit · Shift or Alt and the arrows pan the map · \
                     F2 (Ctrl-T) this key · F3 (Ctrl-O) every option · `map` the map alone · \
                     Esc goes back · PageUp/PageDown scroll the log",
                ];
                for l in more {
                    key.push(Line::from(""));
                    key.extend(log::wrap(l, width).into_iter().map(Line::from));
                }
            }
            let para = Paragraph::new(key);
            if boxed {
                let title = if self.zoom == layout::Zoom::Key {
                    "Key · F2 or Esc: back"
                } else {
                    "Key · F2"
                };
                f.render_widget(para.block(Block::bordered().title(title)), a.key);
            } else {
                f.render_widget(para, a.key);
            }
        }
        if let Some((title, lines)) = panel {
            let lines: Vec<Line> = lines.into_iter().map(Line::from).collect();
            let block = Block::bordered().title(Span::styled(
                title,
                Style::default().add_modifier(Modifier::BOLD),
            ));
            f.render_widget(Paragraph::new(lines).block(block), a.panel);
        }
        if a.roster.height > 0 {
            let lines: Vec<Line> = roster
                .into_iter()
                .map(|(l, mine)| {
                    if mine {
                        Line::styled(l, Style::default().add_modifier(Modifier::REVERSED))
                    } else {
                        Line::from(l)
                    }
                })
                .collect();
            f.render_widget(
                Paragraph::new(lines).block(Block::bordered().title("Units · Tab selects")),
                a.roster,
            );
        }
        self.render_log(f, a.log);
        if a.options.height > 0 {
            let more = option_rows.len() + 2 > usize::from(a.options.height);
            let title = match (self.zoom == layout::Zoom::Options, more) {
                (true, _) => format!("{} · F3 or Esc: back", options.0),
                (false, true) => format!("{} · F3: all", options.0),
                (false, false) => options.0,
            };
            let lines: Vec<Line> = option_rows.into_iter().map(Line::from).collect();
            let block = Block::bordered().title(Span::styled(
                title,
                Style::default().add_modifier(Modifier::BOLD),
            ));
            f.render_widget(Paragraph::new(lines).block(block), a.options);
        }
        let status = match (&self.decision, &self.turn) {
            (Some(d), _) => format!(
                "Decision for {}: answer with an option's number",
                describe::side_name(d.who)
            ),
            (None, Some(t)) => t.status_line(),
            (None, None) => String::new(),
        };
        // On a screen too small for everything, how to reach the rest, where it fits.
        let hint = match self.zoom {
            layout::Zoom::Map => Some("the whole map: Shift+arrows pan, Esc back"),
            _ if cut || !a.beside => Some("Shift+arrows pan · F2 key · F3 options"),
            _ => None,
        };
        let status = match hint {
            Some(h)
                if status.chars().count() + h.chars().count() + 3 <= usize::from(size.width) =>
            {
                format!("{status} · {h}")
            }
            Some(h) if self.zoom == layout::Zoom::Map => h.to_string(),
            _ => status,
        };
        f.render_widget(
            Paragraph::new(status).style(Style::default().add_modifier(Modifier::BOLD)),
            a.status,
        );
        self.render_prompt(f, a.prompt);
    }

    fn render_title(&self, f: &mut Frame<'_>, area: Rect, state: &GameState) {
        let side = self.turn.as_ref().map_or(self.eyes(), |t| t.side);
        let left = format!(
            "{}: {} · {}",
            self.mission,
            describe::title(side),
            crate::screen::objective(&state.objective)
        );
        let right = format!(
            "Round {}/{} · you see {}",
            state.round,
            state.max_rounds,
            describe::side_name(self.eyes())
        );
        let bold = Style::default().add_modifier(Modifier::BOLD);
        // The round goes at the right when both fit.
        if left.chars().count() + right.chars().count() < usize::from(area.width) {
            f.render_widget(Paragraph::new(right).alignment(Alignment::Right), area);
        }
        f.render_widget(Paragraph::new(left).style(bold), area);
    }

    fn render_log(&self, f: &mut Frame<'_>, area: Rect) {
        let width = usize::from(area.width).saturating_sub(2);
        let height = usize::from(area.height).saturating_sub(2);
        let rows = self.log.rows(self.eyes(), width);
        self.log_rows.set((rows.len(), height));
        let (top, below) = self.log.window(rows.len(), height);
        let lines: Vec<Line> = rows
            .into_iter()
            .skip(top)
            .take(height)
            .map(|(t, s)| Line::styled(t, s))
            .collect();
        let title = if below > 0 {
            format!("Log · PgUp/PgDn · {below} newer lines below")
        } else {
            "Log · PgUp/PgDn".to_string()
        };
        f.render_widget(
            Paragraph::new(lines).block(Block::bordered().title(title)),
            area,
        );
    }

    fn render_prompt(&self, f: &mut Frame<'_>, area: Rect) {
        let (prompt, editor) = match self.prompt {
            Prompt::Command(s) => (
                format!("{}> ", s.name()),
                Some(&self.editors[usize::from(s == Side::Overmind)]),
            ),
            Prompt::Confirm(s) => (
                {
                    let full = format!("{} [y/N]> ", self.question.as_deref().unwrap_or(""));
                    // A narrow screen keeps room to type: the Confirm box holds the question.
                    if full.chars().count() + 10 > usize::from(area.width) {
                        "[y/N]> ".to_string()
                    } else {
                        full
                    }
                },
                Some(&self.editors[usize::from(s == Side::Overmind)]),
            ),
            Prompt::Choose(n) => (
                format!("choose 1-{n}> "),
                self.viewer
                    .map(|s| &self.editors[usize::from(s == Side::Overmind)]),
            ),
            Prompt::Over => ("Game over — press Enter to leave".to_string(), None),
            Prompt::Idle => (String::new(), None),
        };
        let Some(ed) = editor else {
            f.render_widget(Paragraph::new(prompt), area);
            return;
        };
        let text: Vec<char> = ed.text().chars().collect();
        let width = usize::from(area.width);
        let plen = prompt.chars().count();
        // Scroll a long line so that the cursor stays in view.
        let room = width.saturating_sub(plen + 1).max(1);
        let skip = ed.cursor().saturating_sub(room);
        let shown: String = text.iter().skip(skip).collect();
        f.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(prompt, Style::default().add_modifier(Modifier::BOLD)),
                Span::raw(shown),
            ])),
            area,
        );
        let x = plen + ed.cursor() - skip;
        let x = u16::try_from(x)
            .unwrap_or(u16::MAX)
            .min(area.width.saturating_sub(1));
        f.set_cursor_position((area.x + x, area.y));
    }

    fn render_handover(&self, f: &mut Frame<'_>, to: Side) {
        let text = vec![
            Line::styled("Hot-seat", Style::default().add_modifier(Modifier::BOLD)),
            Line::from(""),
            Line::from(hotseat::handover_text(to)),
            Line::from(""),
            Line::from(format!(
                "Only {} should look at the screen from here on.",
                describe::side_name(to)
            )),
        ];
        let size = f.area();
        f.render_widget(Block::bordered(), size);
        f.render_widget(
            Paragraph::new(text)
                .alignment(Alignment::Center)
                .wrap(Wrap { trim: true }),
            centre(size, 5),
        );
    }

    /// The options box: its title and lines. A decision lists its options; a turn, the legal
    /// actions.
    fn options(&self, state: &GameState) -> (String, Vec<String>) {
        if let Some(q) = &self.question {
            return (
                "Confirm".into(),
                vec![q.clone(), "y: yes · n or Enter: no".into()],
            );
        }
        if let Some(d) = &self.decision {
            let mut items = Vec::new();
            for (i, o) in d.options.iter().enumerate() {
                // A model's Health helps choose which takes a hit.
                let health = match o {
                    Choice::Id(id) => state
                        .find_model(id.as_str())
                        .map(|(_, m)| format!(" ({}/{} at {})", m.health, m.max_health, m.pos))
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                items.push(format!("{}) {o}{health}", i + 1));
            }
            let title = format!("Decision for {}", describe::side_name(d.who));
            return (title, vec![d.prompt.clone(), items.join("   ")]);
        }
        match &self.turn {
            Some(t) => ("You may".to_string(), crate::screen::legal_lines(t)),
            None => (String::new(), Vec::new()),
        }
    }
}

/// A row of styled cells as a line.
fn cells_line(cells: Vec<ansi::Cell>) -> Line<'static> {
    let spans: Vec<Span> = cells
        .into_iter()
        .map(|(c, s)| Span::styled(c.to_string(), s))
        .collect();
    Line::from(spans)
}

/// The middle `height` rows of `area`.
fn centre(area: Rect, height: u16) -> Rect {
    let h = height.min(area.height);
    Rect::new(
        area.x + 1.min(area.width),
        area.y + (area.height - h) / 2,
        area.width.saturating_sub(2),
        h,
    )
}

impl Frontend for Tui {
    fn started(&mut self, s: &Session) {
        let eyes = match self.fixed {
            None => "each side sees only what it may know".to_string(),
            Some(side) => format!("you see the game as {}", describe::side_name(side)),
        };
        let intro = format!(
            "Type `help` for the commands; Tab selects a unit, Shift (or Alt) and the arrows pan \
             the map, F2 shows the key, F3 every option, `map` the map alone, Esc goes back, \
             PageUp/PageDown scroll this log, Ctrl-C leaves; {eyes}."
        );
        let note = self.style(Color::LightYellow, Modifier::empty());
        self.log.push(&intro, note, None);
        for e in &s.game.log {
            self.event_line(e);
        }
        self.update(s);
        self.draw();
    }

    fn events(&mut self, s: &Session, events: &[Event]) {
        // Those shown before a decision during the action are in the log already.
        let events = events
            .get(std::mem::take(&mut self.early)..)
            .unwrap_or_default();
        for e in events {
            self.event_line(e);
        }
        if let Some(side) = events.iter().rev().find_map(|e| match e {
            Event::PhaseStarted { side } => Some(*side),
            _ => None,
        }) {
            self.drop_typed_ahead(side);
        }
        self.log.follow();
        self.update(s);
        self.draw();
    }

    fn reloads(&mut self, rs: &[Reload]) {
        for r in rs {
            let style = if matches!(r, Reload::Failed(_)) {
                self.style(Color::LightRed, Modifier::BOLD)
            } else {
                self.style(Color::LightYellow, Modifier::empty())
            };
            // A reload is about files, not the game: both sides may read it.
            self.log.push(&format!("reload: {r}"), style, None);
        }
        self.log.follow();
        self.draw();
    }

    fn error(&mut self, message: &str, suggestion: Option<&str>) {
        let style = self.style(Color::LightRed, Modifier::BOLD);
        self.say(&format!("error: {message}"), style);
        if let Some(s) = suggestion {
            self.say(&format!("  did you mean: {s}"), Style::default());
        }
        self.draw();
    }

    fn note(&mut self, kind: Note, text: &str) {
        let style = self.style(Color::LightYellow, Modifier::empty());
        match kind {
            Note::Help => {
                let text = self.read_marks(text);
                self.say(&text, Style::default());
            }
            Note::Saved => self.say(&format!("saved to {text}"), style),
            Note::Undone => self.say(&format!("undone: {text}"), style),
            Note::Quit => self.say(text, style),
        }
        self.draw();
    }

    fn turn(&mut self, s: &Session, turn: &Turn) {
        self.show_to(turn.side);
        self.update(s);
        self.turn = Some(turn.clone());
        self.selected = None;
        // The map comes back to the unit acting.
        self.pan = (0, 0);
        self.draw();
    }

    fn status(&mut self, s: &Session) {
        let state = s.game.state.view(self.eyes());
        let mut text = crate::screen::units(&state, false);
        if let Some(t) = Turn::of(&s.game, s.content()) {
            text.push_str(&t.status_line());
        }
        self.say(&text, Style::default());
        self.draw();
    }

    /// The map alone over the middle of the screen, as large as it fits (Shift and the
    /// arrows pan it), until Esc or the next line.
    fn map(&mut self, _: &Session) {
        self.zoom = layout::Zoom::Map;
        self.clear();
        self.draw();
    }

    fn log(&mut self, _: &Session, _: Option<usize>) {
        self.say(
            "This log holds the whole game: PageUp and PageDown scroll it.",
            Style::default(),
        );
        self.draw();
    }

    fn read(&mut self, side: Side, wait: Duration) -> Input {
        if let Some(q) = &self.quit {
            return q.clone();
        }
        self.show_to(side);
        if self.prompt != Prompt::Command(side) {
            self.prompt = Prompt::Command(side);
            self.dirty = true;
        }
        self.next_line(side, Some(Instant::now() + wait))
    }

    fn decide(&mut self, view: View<'_>, d: &Decision) -> usize {
        if self.quit.is_some() {
            return 0;
        }
        self.show_to(d.who);
        if self.quit.is_some() {
            return 0;
        }
        // The map as it is now: a placement question shows where things stand.
        self.shown = Some(view.state().view(self.eyes()));
        self.decision = Some(d.clone());
        self.pan = (0, 0);
        self.zoom = layout::Zoom::None;
        self.prompt = Prompt::Choose(d.options.len());
        self.log.follow();
        self.dirty = true;
        let answer = loop {
            match self.next_line(d.who, None) {
                Input::Line(l) => match answer_for(&l, &d.options) {
                    Ok(i) => break i,
                    Err(m) => self.error(&m, None),
                },
                Input::Invalid(m) => self.error(&m, None),
                // Leaving: the rules' own fallback, and the next read stops the host.
                Input::Eof | Input::Idle => break 0,
            }
        };
        self.decision = None;
        self.prompt = Prompt::Idle;
        self.dirty = true;
        answer
    }

    fn broken(&self) -> bool {
        self.broken
    }

    fn context(&mut self, so_far: &[Event]) {
        let new = so_far.get(self.early..).unwrap_or_default();
        for e in new {
            self.event_line(e);
        }
        self.early = so_far.len();
        self.log.follow();
    }

    fn viewer(&self, side: Side) -> Side {
        self.fixed.unwrap_or(side)
    }

    /// `los` and `reach` answer in plain text, whose board becomes marks on the map.
    fn colour(&self) -> bool {
        false
    }

    fn confirm(&mut self, side: Side, question: &str) -> bool {
        if self.quit.is_some() {
            return false;
        }
        self.question = Some(question.to_string());
        let before = std::mem::replace(&mut self.prompt, Prompt::Confirm(side));
        self.dirty = true;
        let yes = loop {
            match self.next_line(side, None) {
                Input::Line(l) => match l.trim().to_ascii_lowercase().as_str() {
                    "y" | "yes" => break true,
                    "" | "n" | "no" => break false,
                    _ => self.error("answer y or n", None),
                },
                Input::Invalid(m) => self.error(&m, None),
                Input::Eof | Input::Idle => break false,
            }
        };
        self.question = None;
        self.prompt = before;
        self.dirty = true;
        yes
    }

    fn game_over(&mut self, summary: &crate::summary::Summary) {
        let style = self.style(Color::LightYellow, Modifier::BOLD);
        // The summary is read off the log both sides saw.
        self.log.push(&summary.text(), style, None);
        self.log.follow();
        self.turn = None;
        if self.quit.is_none() {
            self.wait_to_leave();
        }
    }
}

impl Tui {
    /// A board drawn by `los` or `reach` at the top of `text` becomes marks on the map; the
    /// rest of the text is what goes to the log.
    fn read_marks(&mut self, text: &str) -> String {
        let Some(state) = &self.shown else {
            return text.to_string();
        };
        match map::Board::new(state, false).marks_in(text) {
            Some((marks, lines)) => {
                self.marks = marks;
                let rest: Vec<&str> = text.lines().skip(lines).collect();
                format!("{}\n(marked on the map)", rest.join("\n"))
            }
            None => text.to_string(),
        }
    }

    /// A phase began: what was typed or pasted before it is not carried into it (an `end`
    /// meant for the last phase must not end this one). Keys already waiting are read and
    /// dropped with the rest; the log says what was dropped.
    fn drop_typed_ahead(&mut self, phase: Side) {
        let side = self.viewer.unwrap_or(phase);
        while matches!(event::poll(Duration::ZERO), Ok(true)) {
            match event::read() {
                // Through the editor, to say which lines they made (and Ctrl-C still leaves).
                Ok(e) => self.on_event(e, side),
                Err(_) => break,
            }
        }
        let mut dropped: Vec<String> = self
            .queued
            .drain(..)
            .filter_map(|i| match i {
                Input::Line(l) if !l.trim().is_empty() => Some(format!("`{}`", l.trim())),
                _ => None,
            })
            .collect();
        for ed in &mut self.editors {
            let half = ed.text();
            if !half.trim().is_empty() {
                dropped.push(format!("`{}` (unfinished)", half.trim()));
            }
            ed.clear();
        }
        if !dropped.is_empty() {
            let style = self.style(Color::LightYellow, Modifier::empty());
            self.say(
                &format!(
                    "not run, typed before the {} phase began: {}",
                    describe::title(phase),
                    dropped.join(", ")
                ),
                style,
            );
        }
    }

    fn event_line(&mut self, e: &Event) {
        let Some(text) = describe::event(e) else {
            return;
        };
        if matches!(e, Event::Attack { .. }) {
            // A roll comes with what its faces mean (dim: it says the same each time).
            let dim = Style::default().add_modifier(Modifier::DIM);
            self.log.push(&text, Style::default(), None);
            self.log.push(describe::DICE_KEY, dim, None);
            self.dirty = true;
            return;
        }
        let style = match e {
            Event::GameOver { .. } => self.style(Color::LightYellow, Modifier::BOLD),
            Event::BlipRevealed { .. } | Event::ModelKilled { .. } => {
                self.style(Color::LightMagenta, Modifier::BOLD)
            }
            Event::BehaviourFailed { .. } => self.style(Color::LightRed, Modifier::BOLD),
            Event::RoundStarted { .. } | Event::PhaseStarted { .. } => {
                self.style(Color::LightCyan, Modifier::BOLD)
            }
            _ => Style::default(),
        };
        // Events are the table's: both sides see them.
        self.log.push(&text, style, None);
        self.dirty = true;
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        self.term = None;
        restore();
        // The end of the game, on the normal screen, once the UI is gone.
        let tail = self.log.tail(self.eyes(), TAIL).join("\n");
        if !tail.is_empty() {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{tail}").and_then(|()| out.flush());
        }
    }
}

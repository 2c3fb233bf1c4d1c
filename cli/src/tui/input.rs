//! The prompt line: editing keys and history as a shell has them, pasted lines queued, and
//! what every other key asks of the screen.

use crate::human::{too_long, Input, MAX_LINE};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// What a key asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// A line was entered.
    Submit(String),
    /// A line longer than [`MAX_LINE`] was entered: it is refused.
    TooLong,
    /// Ctrl-C: leave the game.
    Interrupt,
    /// Ctrl-D on an empty line: the end of input.
    Eof,
    PageUp,
    PageDown,
    /// Tab / Shift-Tab: select the next or previous unit.
    NextUnit,
    PrevUnit,
    /// Ctrl-L: draw the whole screen again.
    Redraw,
    /// Shift or Alt and an arrow: pan the map this way (columns, rows).
    Pan(i32, i32),
    /// F2 or Ctrl-T: the map's key over the middle of the screen, or back.
    ShowLegend,
    /// F3 or Ctrl-O: the options in full over the middle of the screen, or back.
    ShowOptions,
    /// Esc: the line is cleared, and a part shown in full goes back.
    Escape,
    /// The line or the cursor changed.
    Edited,
    /// Nothing to do.
    Nothing,
}

/// A line being typed, with the lines typed before. The line holds at most [`MAX_LINE`]
/// characters: what comes after is dropped, and the line is refused when entered.
#[derive(Default)]
pub struct Editor {
    line: Vec<char>,
    /// Characters were dropped for the cap: entering the line refuses it.
    overflow: bool,
    cursor: usize,
    history: Vec<String>,
    /// The history entry shown, while walking it with Up and Down.
    at: Option<usize>,
    /// What was typed before walking the history, and whether it overflowed.
    draft: (Vec<char>, bool),
}

impl Editor {
    /// The line as typed.
    #[must_use]
    pub fn text(&self) -> String {
        self.line.iter().collect()
    }

    /// The cursor's position, in characters.
    #[must_use]
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Forget the line being typed (the history stays).
    pub fn clear(&mut self) {
        self.line.clear();
        self.cursor = 0;
        self.at = None;
        self.overflow = false;
    }

    fn submit(&mut self) -> Key {
        let text = self.text();
        if self.overflow || text.len() > MAX_LINE {
            self.clear();
            return Key::TooLong;
        }
        if !text.trim().is_empty() && self.history.last() != Some(&text) {
            self.history.push(text.clone());
        }
        self.clear();
        Key::Submit(text)
    }

    fn insert(&mut self, c: char) {
        self.insert_all(std::iter::once(c));
    }

    /// Insert `chars` at the cursor at once (a paste), as far as the cap allows.
    fn insert_all(&mut self, chars: impl Iterator<Item = char>) {
        let room = MAX_LINE.saturating_sub(self.line.len());
        let mut chars = chars.filter(|c| !c.is_control());
        let add: Vec<char> = chars.by_ref().take(room).collect();
        if chars.next().is_some() {
            self.overflow = true;
        }
        let n = add.len();
        self.line.splice(self.cursor..self.cursor, add);
        self.cursor += n;
    }

    fn set(&mut self, (line, overflow): (Vec<char>, bool)) {
        self.cursor = line.len();
        self.line = line;
        self.overflow = overflow;
    }

    fn recall(&mut self, older: bool) -> Key {
        let n = self.history.len();
        let next = match (self.at, older) {
            (None, true) if n > 0 => Some(n - 1),
            (None, _) => return Key::Nothing,
            (Some(i), true) => Some(i.saturating_sub(1)),
            (Some(i), false) if i + 1 < n => Some(i + 1),
            (Some(_), false) => None,
        };
        if self.at.is_none() {
            self.draft = (self.line.clone(), self.overflow);
        }
        self.at = next;
        let line = match next {
            Some(i) => (self.history[i].chars().collect(), false),
            None => std::mem::take(&mut self.draft),
        };
        self.set(line);
        Key::Edited
    }

    /// Handle one key.
    pub fn key(&mut self, k: KeyEvent) -> Key {
        let key = self.edit(k);
        if self.line.is_empty() {
            // Nothing is left of a line that overflowed.
            self.overflow = false;
        }
        key
    }

    fn edit(&mut self, k: KeyEvent) -> Key {
        if k.kind == KeyEventKind::Release {
            return Key::Nothing;
        }
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        let pan = k
            .modifiers
            .intersects(KeyModifiers::SHIFT | KeyModifiers::ALT);
        match k.code {
            KeyCode::Up if pan => Key::Pan(0, -1),
            KeyCode::Down if pan => Key::Pan(0, 1),
            KeyCode::Left if pan => Key::Pan(-1, 0),
            KeyCode::Right if pan => Key::Pan(1, 0),
            KeyCode::F(2) => Key::ShowLegend,
            KeyCode::F(3) => Key::ShowOptions,
            KeyCode::Char('t') if ctrl => Key::ShowLegend,
            KeyCode::Char('o') if ctrl => Key::ShowOptions,
            KeyCode::Enter => self.submit(),
            // In raw mode a bare line feed arrives as Ctrl-J (a pasted or piped `\n`).
            KeyCode::Char('j' | 'm') if ctrl => self.submit(),
            KeyCode::Char('c') if ctrl => Key::Interrupt,
            KeyCode::Char('d') if ctrl && self.line.is_empty() => Key::Eof,
            KeyCode::Char('d') if ctrl => self.delete(),
            KeyCode::Char('l') if ctrl => Key::Redraw,
            KeyCode::Char('a') if ctrl => self.moved(0),
            KeyCode::Char('e') if ctrl => self.moved(self.line.len()),
            KeyCode::Char('b') if ctrl => self.moved(self.cursor.saturating_sub(1)),
            KeyCode::Char('f') if ctrl => self.moved(self.cursor + 1),
            KeyCode::Char('u') if ctrl => {
                self.line.drain(..self.cursor);
                self.moved(0)
            }
            KeyCode::Char('k') if ctrl => {
                self.line.truncate(self.cursor);
                Key::Edited
            }
            KeyCode::Char('w') if ctrl => {
                let mut start = self.cursor;
                while start > 0 && self.line[start - 1] == ' ' {
                    start -= 1;
                }
                while start > 0 && self.line[start - 1] != ' ' {
                    start -= 1;
                }
                self.line.drain(start..self.cursor);
                self.moved(start)
            }
            KeyCode::Char('p') if ctrl => self.recall(true),
            KeyCode::Char('n') if ctrl => self.recall(false),
            KeyCode::Char(_) if ctrl || k.modifiers.contains(KeyModifiers::ALT) => Key::Nothing,
            KeyCode::Char(c) => {
                self.insert(c);
                Key::Edited
            }
            KeyCode::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                self.line.remove(self.cursor);
                Key::Edited
            }
            KeyCode::Delete => self.delete(),
            KeyCode::Left => self.moved(self.cursor.saturating_sub(1)),
            KeyCode::Right => self.moved(self.cursor + 1),
            KeyCode::Home => self.moved(0),
            KeyCode::End => self.moved(self.line.len()),
            KeyCode::Up => self.recall(true),
            KeyCode::Down => self.recall(false),
            KeyCode::PageUp => Key::PageUp,
            KeyCode::PageDown => Key::PageDown,
            KeyCode::Tab => Key::NextUnit,
            KeyCode::BackTab => Key::PrevUnit,
            KeyCode::Esc => {
                self.clear();
                Key::Escape
            }
            _ => Key::Nothing,
        }
    }

    fn delete(&mut self) -> Key {
        if self.cursor < self.line.len() {
            self.line.remove(self.cursor);
        }
        Key::Edited
    }

    fn moved(&mut self, to: usize) -> Key {
        self.cursor = to.min(self.line.len());
        Key::Edited
    }

    /// Pasted text: each whole line it holds is entered, in order (one over the cap as its
    /// error); the rest stays on the line being typed.
    pub fn paste(&mut self, text: &str) -> Vec<Input> {
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        let mut parts: Vec<&str> = text.split('\n').collect();
        let rest = parts.pop().unwrap_or_default();
        let mut lines = Vec::new();
        for p in parts {
            self.insert_all(p.chars());
            match self.submit() {
                Key::Submit(l) => lines.push(Input::Line(l)),
                Key::TooLong => lines.push(Input::Invalid(too_long())),
                _ => {}
            }
        }
        self.insert_all(rest.chars());
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(e: &mut Editor, code: KeyCode) -> Key {
        e.key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    fn ctrl(e: &mut Editor, c: char) -> Key {
        e.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
    }

    fn typed(e: &mut Editor, s: &str) {
        for c in s.chars() {
            press(e, KeyCode::Char(c));
        }
    }

    #[test]
    fn editing_keys_change_the_line_where_the_cursor_is() {
        let e = &mut Editor::default();
        typed(e, "move captian 2,14");
        for _ in 0..6 {
            press(e, KeyCode::Left);
        }
        press(e, KeyCode::Backspace);
        press(e, KeyCode::Backspace);
        typed(e, "ai");
        assert_eq!(e.text(), "move captain 2,14");
        assert_eq!(e.cursor(), 11);
        ctrl(e, 'e');
        ctrl(e, 'w');
        assert_eq!(e.text(), "move captain ");
        ctrl(e, 'w');
        assert_eq!(e.text(), "move ");
        ctrl(e, 'a');
        press(e, KeyCode::Delete);
        assert_eq!(e.text(), "ove ");
        ctrl(e, 'k');
        assert_eq!(e.text(), "");
        assert_eq!(ctrl(e, 'd'), Key::Eof);
        assert_eq!(ctrl(e, 'c'), Key::Interrupt);
    }

    #[test]
    fn up_and_down_walk_the_history_and_come_back_to_the_draft() {
        let e = &mut Editor::default();
        typed(e, "move captain 2,14");
        assert_eq!(
            press(e, KeyCode::Enter),
            Key::Submit("move captain 2,14".into())
        );
        typed(e, "overwatch");
        assert_eq!(ctrl(e, 'j'), Key::Submit("overwatch".into()));
        typed(e, "end");
        press(e, KeyCode::Up);
        assert_eq!(e.text(), "overwatch");
        press(e, KeyCode::Up);
        press(e, KeyCode::Up);
        assert_eq!(e.text(), "move captain 2,14");
        press(e, KeyCode::Down);
        assert_eq!(e.text(), "overwatch");
        press(e, KeyCode::Down);
        assert_eq!(e.text(), "end");
        // An empty line is not remembered.
        e.clear();
        press(e, KeyCode::Enter);
        press(e, KeyCode::Up);
        assert_eq!(e.text(), "overwatch");
    }

    /// Issue 25: Shift or Alt with an arrow pans the map (the line and history stay); F2 and
    /// F3 (or Ctrl-T and Ctrl-O) show the key and the options; Esc goes back.
    #[test]
    fn panning_and_showing_keys_leave_the_line_alone() {
        let e = &mut Editor::default();
        typed(e, "move");
        let shift = |c| KeyEvent::new(c, KeyModifiers::SHIFT);
        assert_eq!(e.key(shift(KeyCode::Up)), Key::Pan(0, -1));
        assert_eq!(
            e.key(KeyEvent::new(KeyCode::Left, KeyModifiers::ALT)),
            Key::Pan(-1, 0)
        );
        assert_eq!(press(e, KeyCode::F(2)), Key::ShowLegend);
        assert_eq!(ctrl(e, 'o'), Key::ShowOptions);
        assert_eq!(e.text(), "move");
        assert_eq!(press(e, KeyCode::Esc), Key::Escape);
        assert_eq!(e.text(), "");
    }

    #[test]
    fn a_paste_of_several_lines_enters_each() {
        let e = &mut Editor::default();
        typed(e, "mo");
        let lines = e.paste("ve captain 2,14\r\nend\nsta");
        assert_eq!(
            lines,
            [
                Input::Line("move captain 2,14".into()),
                Input::Line("end".into())
            ]
        );
        assert_eq!(e.text(), "sta");
    }

    #[test]
    fn a_line_over_the_cap_is_refused_and_the_next_is_entered() {
        let e = &mut Editor::default();
        let long = "x".repeat(30 << 20);
        let lines = e.paste(&format!("{long}\nstatus\n{long}"));
        assert_eq!(
            lines,
            [Input::Invalid(too_long()), Input::Line("status".into())]
        );
        assert!(too_long().contains("65536 bytes"), "{}", too_long());
        // The rest of a paste stays held no further than the cap, and is refused when entered.
        assert_eq!(e.text().len(), MAX_LINE);
        assert_eq!(press(e, KeyCode::Enter), Key::TooLong);
        // Nor does the history keep it.
        press(e, KeyCode::Up);
        assert_eq!(e.text(), "status");
        // Typed one key at a time, a line stops at the cap too; emptied, it is a line again.
        e.clear();
        typed(e, &"y".repeat(MAX_LINE + 10));
        assert_eq!(e.text().len(), MAX_LINE);
        ctrl(e, 'u');
        typed(e, "end");
        assert_eq!(press(e, KeyCode::Enter), Key::Submit("end".into()));
        // A line of exactly the cap is a line.
        e.paste(&"z".repeat(MAX_LINE));
        assert!(matches!(press(e, KeyCode::Enter), Key::Submit(l) if l.len() == MAX_LINE));
    }
}

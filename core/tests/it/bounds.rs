//! What one behaviour call may write is bounded (issue 9): `log` lines and bytes per call, then
//! one `log_truncated`; a failure reason of at most 1 KiB, cut with "…".

use crate::common;

use common::*;
use overmind_core::behaviour::{MAX_LOG_LINES, MAX_REASON_BYTES};
use overmind_core::*;
use std::rc::Rc;

struct Chatty;

impl Behaviour for Chatty {
    fn name(&self) -> String {
        "CHATTY".into()
    }
    fn perform(&self, ctx: &mut BehaviourCtx<'_, '_>) -> Result<(), BehaviourError> {
        for i in 0..10_000 {
            ctx.log(&format!("line {i} {}", "x".repeat(400)));
        }
        Err(BehaviourError::new("é".repeat(125_000)))
    }
}

#[test]
fn one_call_writes_a_bounded_log_and_a_bounded_reason() {
    let mut w = world();
    w.content.add_behaviour("chatty", Rc::new(Chatty));
    w.content
        .aliens
        .insert("talker".into(), alien("talker", 1, 4, &["chatty"]));
    let s = setup(
        &wall_map(),
        &[("T", "trooper", [5, 0])],
        &[("B", [10, 3], unit("talker", 1))],
    );
    let mut g = start(&s, &w);
    let mut c = ctl(vec![]);
    to_overmind(&mut g, &w, &mut c);
    let ev = apply(&mut g, &w, &mut c, Action::Flip { unit: "B".into() });
    let logs = ev.iter().filter(|e| matches!(e, Event::Log { .. })).count();
    assert!(logs <= MAX_LOG_LINES, "{logs} lines");
    let bytes: usize = ev
        .iter()
        .map(|e| match e {
            Event::Log { message, .. } => message.len(),
            _ => 0,
        })
        .sum();
    assert!(bytes <= 16 * 1024, "{bytes} bytes");
    let truncated = ev
        .iter()
        .filter(|e| matches!(e, Event::LogTruncated { behaviour, .. } if behaviour == "chatty"))
        .count();
    assert_eq!(truncated, 1, "one log_truncated event");
    let reason = ev
        .iter()
        .find_map(|e| match e {
            Event::BehaviourFailed { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .expect("failed");
    assert!(reason.len() <= MAX_REASON_BYTES, "{} bytes", reason.len());
    assert!(reason.ends_with('…'));
    let line = serde_json::to_string(&ev).unwrap();
    assert!(line.len() < 64 * 1024, "the whole call's events stay small");
}

/// Ids are `Copy` values of at most 31 bytes: a Hero or Blip id that would not leave room for
/// its models' `.N`, or a profile id too long to be one, is a setup error naming it, never a
/// name silently cut.
#[test]
fn ids_too_long_to_hold_are_setup_errors() {
    let content = base_like();
    let mut setup = demo_setup();
    let long_hero = "h".repeat(overmind_core::setup::MAX_UNIT_ID + 1);
    setup.heroes[0].id = long_hero.clone();
    let long_blip = "b".repeat(40);
    setup.blips[0].id = long_blip.clone();
    let errors = setup.start(&content, 1).expect_err("ids too long");
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(
        text.iter()
            .any(|e| e.starts_with(&format!("hero {long_hero}: this id is 28 bytes long"))),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|e| e.starts_with(&format!("blip {long_blip}: this id is 40 bytes long"))),
        "{text:?}"
    );
    let mut setup = demo_setup();
    setup.heroes[0].profile = "p".repeat(32);
    let errors = setup.start(&content, 1).expect_err("profile id too long");
    assert!(
        errors
            .iter()
            .any(|e| e.to_string().contains("expected at most 31 bytes")),
        "{errors:?}"
    );
    // The longest allowed ids still play.
    let mut setup = demo_setup();
    setup.blips[0].id = "b".repeat(overmind_core::setup::MAX_UNIT_ID);
    assert!(setup.start(&content, 1).is_ok());
}

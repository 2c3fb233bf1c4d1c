//! "Did you mean …?": the known word nearest to a mistyped one, so a typo gets a suggestion
//! instead of a bare refusal.

/// The candidate nearest to `word` (the scripting crate's, so `check` and the prompt suggest
/// alike).
pub use overmind_scripting::problem::nearest;

#[cfg(test)]
mod tests {
    use super::nearest;

    const WORDS: &[&str] = &[
        "move",
        "sprint",
        "shoot",
        "melee",
        "overwatch",
        "end",
        "undo",
    ];

    #[test]
    fn typos_find_their_word() {
        assert_eq!(nearest("mvoe", WORDS.iter().copied()), Some("move"));
        assert_eq!(nearest("shot", WORDS.iter().copied()), Some("shoot"));
        assert_eq!(nearest("SPRNT", WORDS.iter().copied()), Some("sprint"));
        assert_eq!(nearest("over", WORDS.iter().copied()), Some("overwatch"));
        assert_eq!(nearest("captian", ["captain", "medic"]), Some("captain"));
    }

    #[test]
    fn far_words_find_nothing() {
        assert_eq!(nearest("xyzzy", WORDS.iter().copied()), None);
        assert_eq!(nearest("", WORDS.iter().copied()), None);
        assert_eq!(nearest("q", ["captain"]), None);
    }

    #[test]
    fn long_words_find_nothing_and_cost_little() {
        let long = "x".repeat(64 << 10);
        assert_eq!(nearest(&long, WORDS.iter().copied()), None);
        let near = format!("move{}", "e".repeat(2));
        assert_eq!(nearest(&near, WORDS.iter().copied()), Some("move"));
        // Up to 64 characters a word is compared; a longer one is not.
        let id = "a".repeat(64);
        let typo = format!("{}b", "a".repeat(63));
        assert_eq!(nearest(&typo, [id.as_str()]), Some(id.as_str()));
        let longer = format!("{}b", "a".repeat(64));
        assert_eq!(nearest(&longer, [format!("{id}a").as_str()]), None);
    }

    #[test]
    fn ties_go_to_the_first() {
        assert_eq!(nearest("b", ["b1", "b2"]), Some("b1"));
    }
}

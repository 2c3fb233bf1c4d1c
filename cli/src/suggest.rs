//! "Did you mean …?": the known word nearest to a mistyped one, so a typo gets a suggestion
//! instead of a bare refusal.

/// The candidate nearest to `word`: the only one it is a prefix of, else the closest by
/// Damerau–Levenshtein distance (ignoring case) when that is small for the word's length.
/// Ties go to the earlier candidate, so suggestions are deterministic.
#[must_use]
pub fn nearest<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let word = word.to_lowercase();
    if word.is_empty() {
        return None;
    }
    let candidates: Vec<&str> = candidates.into_iter().collect();
    let prefixed: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|c| word.len() >= 2 && c.to_lowercase().starts_with(&word))
        .collect();
    if let [only] = prefixed.as_slice() {
        return Some(only);
    }
    let limit = match word.chars().count() {
        0..=2 => 1,
        3..=5 => 2,
        _ => 3,
    };
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = strsim::damerau_levenshtein(&word, &c.to_lowercase());
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

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
    fn ties_go_to_the_first() {
        assert_eq!(nearest("b", ["b1", "b2"]), Some("b1"));
    }
}

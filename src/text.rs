//! Small text helpers shared by the layers: edit distance for "did you mean" suggestions.

/// Levenshtein distance between two strings, by characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The candidates closest to `word` (distance at most a third of its length, at least 1),
/// nearest first.
pub fn suggestions<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    let mut v: Vec<(usize, &str)> = candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .collect();
    v.sort();
    v.into_iter().map(|(_, c)| c).collect()
}

/// The one "did you mean" for a misspelt name among `candidates`: a name that differs only
/// in case, else (for names of three characters or more: shorter names such as `e` or `a1`
/// are all "near" each other) the nearest by [`suggestions`].
pub fn name_suggestion<'a, S: AsRef<str> + 'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a S> + Clone,
) -> Option<String> {
    if let Some(c) = candidates
        .clone()
        .into_iter()
        .find(|c| c.as_ref().eq_ignore_ascii_case(word))
    {
        return Some(c.as_ref().to_owned());
    }
    if word.chars().count() < 3 {
        return None;
    }
    suggestions(word, candidates.into_iter().map(AsRef::as_ref))
        .first()
        .map(|s| (*s).to_owned())
}

#[cfg(test)]
mod tests {
    #[test]
    fn distances() {
        assert_eq!(super::edit_distance("kitten", "sitting"), 3);
        assert_eq!(
            super::suggestions("ur-randm", ["ur-random", "chess"]),
            ["ur-random"]
        );
        let names = ["Y1".to_owned(), "a1".to_owned(), "north".to_owned()];
        assert_eq!(super::name_suggestion("y1", &names).as_deref(), Some("Y1"));
        assert_eq!(super::name_suggestion("b1", &names), None);
        assert_eq!(
            super::name_suggestion("nrth", &names).as_deref(),
            Some("north")
        );
    }
}

/// `s` with its control characters (escape sequences, line ends) shown escaped (`\u{1b}`,
/// `\n`): text that a program controls, printed one item a line, stays one line and cannot
/// drive the terminal.
pub fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Longest text taken from a program or a file that a message quotes (see [`printable`]).
pub const QUOTED_CHARS: usize = 120;

/// `s` safe to print in a message: control characters (escape sequences, line ends) are
/// shown escaped (`\u{1b}`, `\n`), and text past [`QUOTED_CHARS`] characters is cut with
/// `…`. Text that a program or a file controls goes through it before it reaches a terminal.
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(QUOTED_CHARS) {
        None => escape_controls(s),
        Some((cut, _)) => std::borrow::Cow::Owned(format!("{}…", escape_controls(&s[..cut]))),
    }
}

#[cfg(test)]
mod printable_tests {
    #[test]
    fn control_characters_are_escaped_and_long_text_is_cut() {
        assert_eq!(super::printable("a b"), "a b");
        assert_eq!(super::printable("a\x1b[2Jb\n"), "a\\u{1b}[2Jb\\n");
        assert_eq!(super::escape_controls("a\x1b[2Jb\n"), "a\\u{1b}[2Jb\\n");
        assert_eq!(super::escape_controls(&"y".repeat(500)).len(), 500);
        let long = "x".repeat(500);
        let p = super::printable(&long);
        assert_eq!(p.chars().count(), super::QUOTED_CHARS + 1);
        assert!(p.ends_with('…'));
    }
}

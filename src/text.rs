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

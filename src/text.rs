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

#[cfg(test)]
mod tests {
    #[test]
    fn distances() {
        assert_eq!(super::edit_distance("kitten", "sitting"), 3);
        assert_eq!(
            super::suggestions("ur-randm", ["ur-random", "chess"]),
            ["ur-random"]
        );
    }
}

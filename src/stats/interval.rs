//! Confidence intervals for match scores: Wilson's score interval and its Elo image.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval of a proportion `p` observed over `n` trials (draws count as half
/// a win, the usual approximation for game scores). Returns (low, high); (0, 1) for n = 0.
pub fn wilson(p: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference that gives expected score `s`; `None` at 0 or 1 (infinite).
pub fn elo(s: f64) -> Option<f64> {
    (s > 0.0 && s < 1.0).then(|| -400.0 * (1.0 / s - 1.0).log10())
}

/// Expected score of a player `elo` points stronger.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // 52 of 100: about 0.423 .. 0.615.
        let (lo, hi) = wilson(0.52, 100.0, Z95);
        assert!(
            (lo - 0.4231).abs() < 1e-3 && (hi - 0.6153).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(elo(0.5), Some(0.0));
        assert!((elo(0.75).unwrap() - 190.85).abs() < 0.1);
        assert_eq!(elo(1.0), None);
        assert!((expected_score(elo(0.64).unwrap()) - 0.64).abs() < 1e-12);
    }
}

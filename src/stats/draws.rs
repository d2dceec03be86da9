//! Draw-aware statistics of A's score: the trinomial estimate (per game: wins, draws,
//! losses) and the pentanomial one (per colour-swapped pair: pair scores 0, ½, 1, 1½, 2),
//! each with a 95% interval, its Elo image, the normalized Elo and the likelihood of
//! superiority (LOS).
//!
//! Both take the variance of the score from the sample, so draws narrow the interval (a
//! draw is closer to the mean than a win or a loss) and pairs remove what the two games of
//! a pair share (the first-player advantage, the opening). The interval is
//! `m̃ ± z·s̃/√ñ` where `ñ`, `m̃` and `s̃²` are the number of units (games or pairs), their
//! mean and their variance after adding `z²` pseudo-games, half won and half lost; for
//! pairs, `z²/2` pseudo-pairs distributed as pairs of two such independent games would be
//! (¼ lost twice, ½ split, ¼ won twice). Without draws and pairs this is
//! exactly the Agresti–Coull interval (Agresti & Coull, "Approximate is better than 'exact'
//! for interval estimation of binomial proportions", The American Statistician 52(2),
//! 1998), whose coverage is close to 95% even for a few games; the pseudo-games also keep a
//! short run of equal results from giving an interval of zero width.
//!
//! The LOS is `Φ((m̃ − ½)/(s̃/√ñ))`, the normal probability that A's true score exceeds ½,
//! from the same mean and standard error: it is at least 97.5% exactly when the interval
//! lies above ½. The normalized Elo (Van den Bergh, "Normalized Elo", used by fishtest's
//! SPRT) is `(800/ln 10)·(m − ½)/σ`, with `σ` the standard deviation per game (for pairs
//! `√2` times the standard deviation of the pair score): it measures how easily a
//! difference is detected, whatever the draw rate.

use super::EloDiff;
use super::interval::elo;
use serde::Serialize;

/// How many times each score occurred: the sample distribution of A's score per game (0
/// to 1) or per colour-swapped pair (the mean of its two games' scores, 0 to 1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// (score, count), sorted by score; scores closer than [`Tally::EPS`] are one.
    entries: Vec<(f64, u64)>,
}

impl Tally {
    /// Scores closer than this are counted as one.
    pub const EPS: f64 = 1e-9;

    /// Counts one score.
    pub fn add(&mut self, x: f64) {
        self.add_n(x, 1);
    }

    /// Counts `n` occurrences of score `x`.
    pub fn add_n(&mut self, x: f64, n: u64) {
        if n == 0 || !x.is_finite() {
            return;
        }
        match self.entries.iter().position(|&(v, _)| v >= x - Self::EPS) {
            Some(i) if (self.entries[i].0 - x).abs() <= Self::EPS => self.entries[i].1 += n,
            Some(i) => self.entries.insert(i, (x, n)),
            None => self.entries.push((x, n)),
        }
    }

    /// Adds the counts of `other`.
    pub fn merge(&mut self, other: &Tally) {
        for &(x, n) in &other.entries {
            self.add_n(x, n);
        }
    }

    /// (score, count) in increasing score.
    pub fn entries(&self) -> &[(f64, u64)] {
        &self.entries
    }

    /// How many scores were counted.
    pub fn count(&self) -> u64 {
        self.entries.iter().map(|e| e.1).sum()
    }

    /// How many times `x` occurred.
    pub fn count_of(&self, x: f64) -> u64 {
        self.entries
            .iter()
            .find(|e| (e.0 - x).abs() <= Self::EPS)
            .map_or(0, |e| e.1)
    }

    /// Sum of the scores and of their squares.
    fn sums(&self) -> (f64, f64) {
        self.entries.iter().fold((0.0, 0.0), |(s, q), &(x, n)| {
            (s + x * n as f64, q + x * x * n as f64)
        })
    }

    /// Mean and variance (of the sample, divided by n); (½, 0) when empty.
    pub fn mean_var(&self) -> (f64, f64) {
        let n = self.count() as f64;
        if n == 0.0 {
            return (0.5, 0.0);
        }
        let (s, q) = self.sums();
        let m = s / n;
        (m, (q / n - m * m).max(0.0))
    }
}

/// A's score estimated from a [`Tally`], with its 95% interval (see the module notes).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Mean score per game (of the sample).
    pub score: f64,
    /// Standard deviation of the score per unit (per game, or per pair of the pair score
    /// counted 0..1).
    pub stdev: f64,
    /// The 95% interval of A's true score.
    pub low: f64,
    pub high: f64,
    /// The logistic Elo image of `score`, `low` and `high` (null when infinite).
    pub elo: EloDiff,
    /// Normalized Elo (null when the variance is 0).
    pub normalized_elo: Option<f64>,
    /// Likelihood of superiority: the probability that A's true score exceeds ½.
    pub los: f64,
}

/// `800 / ln 10`: normalized Elo per unit of `(m − ½)/σ`, so that it equals the logistic
/// Elo for small differences without draws.
pub const NELO_PER_T: f64 = 347.435_585_522_601_46;

impl Estimate {
    /// The estimate of a tally of `per_unit` games per unit (1 for games, 2 for pairs) at
    /// the normal quantile `z`.
    pub fn of(t: &Tally, per_unit: f64, z: f64) -> Estimate {
        let n = t.count() as f64;
        let (mean, var) = t.mean_var();
        // z² pseudo-games, half won and half lost: z²/per_unit pseudo-units, with mean ½
        // and mean square ½ (games: half at 0, half at 1) or ⅜ (pairs: ¼ at 0, ½ at ½, ¼
        // at 1).
        let k = z * z / per_unit;
        let mean_square = if per_unit > 1.0 { 0.375 } else { 0.5 };
        let (s, q) = t.sums();
        let nt = n + k;
        let mt = (s + k / 2.0) / nt;
        let vt = ((q + k * mean_square) / nt - mt * mt).max(0.0);
        let se = (vt / nt).sqrt();
        // No unit: nothing is known.
        let (low, high) = if n > 0.0 {
            ((mt - z * se).max(0.0), (mt + z * se).min(1.0))
        } else {
            (0.0, 1.0)
        };
        Estimate {
            score: mean,
            stdev: var.sqrt(),
            low,
            high,
            elo: EloDiff {
                elo: if n > 0.0 { elo(mean) } else { Some(0.0) },
                low: elo(low),
                high: elo(high),
            },
            normalized_elo: (n > 0.0 && var > 0.0)
                .then(|| NELO_PER_T * (mean - 0.5) / (var * per_unit).sqrt()),
            los: if n > 0.0 && se > 0.0 {
                normal_cdf((mt - 0.5) / se)
            } else {
                0.5
            },
        }
    }
}

/// Draw-aware statistics per game.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Trinomial {
    /// Games with a score.
    pub games: u64,
    /// A's wins, draws (games that gave both players points) and losses.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    #[serde(flatten)]
    pub estimate: Estimate,
}

/// The pair scores of a pentanomial count: 0 (both games lost), ½, 1, 1½, 2 (both won),
/// in A's points over the pair.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.5, 1.0, 1.5, 2.0];

/// Draw-aware statistics per colour-swapped pair (games `2k` and `2k + 1`).
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pentanomial {
    /// Complete pairs (both games finished with a score).
    pub pairs: u64,
    /// Pairs by A's points over the pair: 0, ½, 1, 1½, 2 (null when some pair scored
    /// otherwise: games with three or more seats share points in other fractions).
    pub counts: Option<[u64; 5]>,
    /// Games with a score whose partner has none (an error, not played yet): left out.
    pub unpaired: u64,
    /// Per pair, the pair's mean score per game.
    #[serde(flatten)]
    pub estimate: Estimate,
}

impl Pentanomial {
    /// The statistics of pair scores tallied as the mean of the two games (0..1).
    pub fn of(pairs: &Tally, unpaired: u64, z: f64) -> Pentanomial {
        let n = pairs.count();
        let standard = pairs.entries().iter().all(|&(x, _)| {
            PAIR_SCORES
                .iter()
                .any(|p| (p / 2.0 - x).abs() <= Tally::EPS)
        });
        Pentanomial {
            pairs: n,
            counts: standard.then(|| PAIR_SCORES.map(|p| pairs.count_of(p / 2.0))),
            unpaired,
            estimate: Estimate::of(pairs, 2.0, z),
        }
    }
}

/// The standard normal distribution function Φ (absolute error below 1e-14).
pub fn normal_cdf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 0.5 * erfc(-x / std::f64::consts::SQRT_2);
    }
    1.0 - 0.5 * erfc(x / std::f64::consts::SQRT_2)
}

/// The complementary error function for `x ≥ 0`: the Taylor series of erf below 2.5, a
/// continued fraction above.
fn erfc(x: f64) -> f64 {
    let two_over_sqrt_pi = std::f64::consts::FRAC_2_SQRT_PI;
    if x < 2.5 {
        // erf(x) = 2/√π Σ (−1)ⁿ x^(2n+1) / (n! (2n+1))
        let (mut term, mut sum) = (x, x);
        let x2 = x * x;
        for n in 1..200 {
            term *= -x2 / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        1.0 - two_over_sqrt_pi * sum
    } else {
        // erfc(x) = e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))), evaluated
        // from the tail.
        let mut f = x;
        for k in (1..80).rev() {
            f = x + (k as f64 / 2.0) / f;
        }
        (-x * x).exp() / std::f64::consts::PI.sqrt() / f
    }
}

#[cfg(test)]
mod tests {
    use super::super::interval::{Z95, wilson};
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    fn tally(scores: &[(f64, u64)]) -> Tally {
        let mut t = Tally::default();
        for &(x, n) in scores {
            t.add_n(x, n);
        }
        t
    }

    #[test]
    fn normal_cdf_matches_python() {
        // python3: 0.5 * (1 + math.erf(x / math.sqrt(2)))
        for (x, want) in [
            (0.0, 0.5),
            (1.959963984540054, 0.975),
            (-1.0, 0.15865525393145707),
            (2.4, 0.9918024640754038),
            (3.7, 0.9998922002665226),
            (-5.0, 2.866515718791946e-07),
            (0.3, 0.6179114221889526),
        ] {
            assert!(close(normal_cdf(x), want, 1e-14), "{x}: {}", normal_cdf(x));
        }
    }

    #[test]
    fn without_draws_the_interval_is_agresti_coull() {
        // 52 wins, 48 losses: Agresti–Coull p̃ = (52 + z²/2)/(100 + z²) ± z √(p̃(1−p̃)/ñ).
        let e = Estimate::of(&tally(&[(1.0, 52), (0.0, 48)]), 1.0, Z95);
        let z2 = Z95 * Z95;
        let nt = 100.0 + z2;
        let pt = (52.0 + z2 / 2.0) / nt;
        let h = Z95 * (pt * (1.0 - pt) / nt).sqrt();
        assert!(close(e.low, pt - h, 1e-12) && close(e.high, pt + h, 1e-12));
        // Close to Wilson's interval, as it should be.
        let (wl, wh) = wilson(0.52, 100.0, Z95);
        assert!(close(e.low, wl, 2e-3) && close(e.high, wh, 2e-3), "{e:?}");
        assert!(close(e.score, 0.52, 1e-15) && close(e.stdev, 0.4995998, 1e-6));
    }

    #[test]
    fn trinomial_matches_a_hand_computation() {
        // 40 wins, 20 draws, 40 losses. python3:
        //   z=1.959963984540054; k=z*z; n=100+k; m=(50+k/2)/n; v=(45+k/2)/n-m*m
        //   se=(v/n)**.5 -> m-z*se, m+z*se = 0.41358747, 0.58641253
        let e = Estimate::of(&tally(&[(1.0, 40), (0.5, 20), (0.0, 40)]), 1.0, Z95);
        assert!(close(e.score, 0.5, 1e-15));
        assert!(close(e.stdev, 0.2f64.sqrt(), 1e-12));
        assert!(close(e.low, 0.41358747, 1e-7), "{}", e.low);
        assert!(close(e.high, 0.58641253, 1e-7), "{}", e.high);
        assert!(close(e.los, 0.5, 1e-12));
        // Draws narrow the interval: 50 wins and 50 losses give a wider one.
        let wl = Estimate::of(&tally(&[(1.0, 50), (0.0, 50)]), 1.0, Z95);
        assert!(wl.high - wl.low > e.high - e.low);
        // 60 wins, 10 draws, 30 losses: score .65; python3 as above with Σx = 65, Σx² = 62.5:
        //   low 0.55735424, high 0.73154771; LOS = Φ((m−½)/se) = 0.99942424
        let e = Estimate::of(&tally(&[(1.0, 60), (0.5, 10), (0.0, 30)]), 1.0, Z95);
        assert!(close(e.low, 0.55735424, 1e-7), "{}", e.low);
        assert!(close(e.high, 0.73154771, 1e-7), "{}", e.high);
        assert!(close(e.los, 0.99942424, 1e-7), "{}", e.los);
        // Elo of the score and of the interval's ends: −400 log10(1/s − 1).
        assert!(close(e.elo.elo.unwrap(), 107.5381, 1e-3));
        assert!(close(
            e.elo.low.unwrap(),
            -400.0 * (1.0 / e.low - 1.0).log10(),
            1e-9
        ));
        // Normalized Elo: 800/ln10 · (m − ½)/σ, σ² = (60 + 2.5)/100 − .65² = .2025.
        assert!(close(
            e.normalized_elo.unwrap(),
            NELO_PER_T * 0.15 / 0.45,
            1e-9
        ));
    }

    #[test]
    fn pentanomial_matches_a_hand_computation() {
        // Pairs by A's points 0, ½, 1, 1½, 2: [13, 37, 50, 25, 3] (128 pairs). Pair mean
        // score 0.4375, variance per pair 0.0576171875, per game twice that; normalized
        // Elo (800/ln10)(−0.0625)/√0.115234375 = −63.97.
        let mut pairs = Tally::default();
        for (p, n) in PAIR_SCORES.iter().zip([13, 37, 50, 25, 3]) {
            pairs.add_n(p / 2.0, n);
        }
        let p = Pentanomial::of(&pairs, 1, Z95);
        assert_eq!(p.pairs, 128);
        assert_eq!(p.counts, Some([13, 37, 50, 25, 3]));
        let e = p.estimate;
        assert!(close(e.score, 0.4375, 1e-15));
        assert!(close(e.stdev, 0.0576171875f64.sqrt(), 1e-12));
        assert!(close(e.normalized_elo.unwrap(), -63.97, 0.01));
        // python3: k=z*z/2; n=128+k; m=(56+k/2)/n; v=(Σx²+3k/8)/n−m²  (Σx² = 31.875)
        //   -> low 0.39677372, high 0.48007427, LOS 0.00188002
        assert!(close(e.low, 0.39677372, 1e-7), "{}", e.low);
        assert!(close(e.high, 0.48007427, 1e-7), "{}", e.high);
        assert!(close(e.los, 0.00188002, 1e-7), "{}", e.los);
        // A pair score outside 0, ½, …, 2 (three seats) leaves the counts out.
        pairs.add(1.0 / 3.0);
        assert_eq!(Pentanomial::of(&pairs, 0, Z95).counts, None);
    }

    #[test]
    fn equal_results_do_not_give_a_zero_width_interval() {
        let e = Estimate::of(&tally(&[(1.0, 4)]), 1.0, Z95);
        assert!(e.low < 0.6 && e.high == 1.0, "{e:?}");
        let e = Estimate::of(&tally(&[(0.5, 3)]), 2.0, Z95);
        // python3 as in the pentanomial test: 0.30483286 .. 0.69516714.
        assert!(
            close(e.low, 0.30483286, 1e-7) && close(e.high, 0.69516714, 1e-7),
            "{e:?}"
        );
        let empty = Estimate::of(&Tally::default(), 1.0, Z95);
        assert!(empty.low <= 0.0 && empty.high >= 1.0 && empty.los == 0.5);
    }

    #[test]
    fn tally_merges_equal_scores() {
        let mut t = tally(&[(0.5, 2), (1.0, 1)]);
        t.add(0.5 + 1e-12);
        t.add(0.25);
        assert_eq!(t.entries(), &[(0.25, 1), (0.5, 3), (1.0, 1)]);
        let mut u = tally(&[(0.0, 2)]);
        u.merge(&t);
        assert_eq!(u.count(), 7);
        assert_eq!(u.count_of(0.5), 3);
    }
}

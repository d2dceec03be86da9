//! The exact generalized SPRT: the log-likelihood of a multinomial sample (the trinomial of
//! game scores or the pentanomial of pair scores), maximised under a hypothesis about A's
//! expected score.
//!
//! The sample has categories with scores `a_i` in 0..1 and counts `c_i`. Under a hypothesis
//! the probabilities `q_i` are the ones that maximise `Σ c_i ln q_i` subject to the
//! hypothesis, and the LLR is the difference of the two maxima (Van den Bergh, "A practical
//! introduction to the GSPRT", and his notes on normalized Elo). Two kinds of hypotheses:
//!
//! - **the mean** (logistic Elo): `Σ q_i a_i = s`. With a Lagrange multiplier `λ` the
//!   maximum is at `q_i = f_i / (1 + λ (a_i − s))` (`f_i = c_i / N`), where `λ` maximises
//!   the concave `F(λ) = Σ c_i ln(1 + λ (a_i − s))`; the maximised log-likelihood is
//!   `Σ c_i ln f_i − F(λ)`.
//! - **the t-value** (normalized Elo): `(μ − ½)/σ = t`, with `μ` and `σ` the mean and
//!   standard deviation under `q`. For a fixed `u = μ − ½` this is two linear constraints,
//!   `Σ q_i b_i = u` and `Σ q_i b_i² = u² (1 + 1/t²)` with `b_i = a_i − ½`, solved the same
//!   way with a two-dimensional `λ` (Newton's method on a concave function); the result is
//!   then maximised over `u` (a grid, then golden-section search).
//!
//! Every category of the sample space (0, ½, 1 for games; 0, ¼, ½, ¾, 1 for pair scores)
//! gets a pseudo-count of [`PSEUDO_COUNT`], so that a hypothesis needing a result not seen
//! yet keeps a finite likelihood.

/// The pseudo-count added to every category.
pub const PSEUDO_COUNT: f64 = 1e-3;

/// A multinomial sample: category scores (increasing) and counts (all positive).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub scores: Vec<f64>,
    pub counts: Vec<f64>,
}

impl Sample {
    /// The sample over `space` (the standard categories) and the observed `(score, count)`
    /// pairs, each category with [`PSEUDO_COUNT`] added.
    pub fn new(space: &[f64], observed: &[(f64, u64)]) -> Sample {
        let mut s = Sample {
            scores: vec![],
            counts: vec![],
        };
        let mut put = |x: f64, c: f64| match s.scores.iter().position(|&y| (y - x).abs() < 1e-9) {
            Some(i) => s.counts[i] += c,
            None => {
                let i = s
                    .scores
                    .iter()
                    .position(|&y| y > x)
                    .unwrap_or(s.scores.len());
                s.scores.insert(i, x);
                s.counts.insert(i, PSEUDO_COUNT);
                s.counts[i] += c;
            }
        };
        for &x in space {
            put(x, 0.0);
        }
        for &(x, n) in observed {
            put(x, n as f64);
        }
        s
    }
}

/// `max_λ Σ c_i ln(1 + λ g_i)` for one constraint `Σ q_i g_i = 0`; `None` when 0 is not
/// strictly between the smallest and largest `g_i` (the constraint cannot hold).
fn max_dual_1d(g: &[f64], c: &[f64]) -> Option<f64> {
    let (gmin, gmax) = g
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    if gmin >= 0.0 || gmax <= 0.0 {
        return None;
    }
    // F'(λ) = Σ c g/(1 + λ g) decreases from +∞ to −∞ on (−1/gmax, −1/gmin).
    let (mut lo, mut hi) = (-1.0 / gmax, -1.0 / gmin);
    let deriv = |l: f64| -> (f64, f64) {
        g.iter().zip(c).fold((0.0, 0.0), |(d1, d2), (&gi, &ci)| {
            let r = gi / (1.0 + l * gi);
            (d1 + ci * r, d2 - ci * r * r)
        })
    };
    let mut l = 0.0;
    for _ in 0..200 {
        let (d1, d2) = deriv(l);
        if d1 > 0.0 {
            lo = l;
        } else {
            hi = l;
        }
        if d1 == 0.0 || hi - lo <= 1e-15 * (1.0 + l.abs()) {
            break;
        }
        let newton = l - d1 / d2;
        l = if newton > lo && newton < hi && d2 < 0.0 {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if (l - newton).abs() <= 1e-16 * (1.0 + l.abs()) && d1.abs() < 1e-13 {
            break;
        }
    }
    Some(
        g.iter()
            .zip(c)
            .map(|(&gi, &ci)| ci * (1.0 + l * gi).ln())
            .sum(),
    )
}

/// `max_λ Σ c_i ln(1 + λ·g_i)` for two constraints (`g_i` in the plane), by damped Newton
/// steps from `start` (or from 0 when `start` is outside the domain); returns the maximum
/// and the maximising `λ`. The caller checks that the constraints can hold strictly.
fn max_dual_2d(g: &[[f64; 2]], c: &[f64], start: [f64; 2]) -> (f64, [f64; 2]) {
    let value = |l: [f64; 2]| -> Option<f64> {
        let mut f = 0.0;
        for (gi, &ci) in g.iter().zip(c) {
            let w = 1.0 + l[0] * gi[0] + l[1] * gi[1];
            if w <= 0.0 {
                return None;
            }
            f += ci * w.ln();
        }
        Some(f)
    };
    let (mut l, mut f) = match value(start) {
        Some(f) => (start, f),
        None => ([0.0; 2], 0.0),
    };
    for _ in 0..100 {
        let (mut g0, mut g1, mut h00, mut h01, mut h11) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (gi, &ci) in g.iter().zip(c) {
            let w = 1.0 + l[0] * gi[0] + l[1] * gi[1];
            let (r0, r1) = (gi[0] / w, gi[1] / w);
            g0 += ci * r0;
            g1 += ci * r1;
            h00 += ci * r0 * r0;
            h01 += ci * r0 * r1;
            h11 += ci * r1 * r1;
        }
        // Newton ascent: d = (−H)⁻¹ ∇F with −H = [[h00, h01], [h01, h11]].
        let det = h00 * h11 - h01 * h01;
        if det.abs() <= 1e-300 {
            break;
        }
        let d = [(h11 * g0 - h01 * g1) / det, (h00 * g1 - h01 * g0) / det];
        let decrement = g0 * d[0] + g1 * d[1];
        // Stop when converged (or on NaN).
        if decrement.is_nan() || decrement <= 1e-14 {
            break;
        }
        let mut step = 1.0;
        let mut moved = false;
        for _ in 0..80 {
            let t = [l[0] + step * d[0], l[1] + step * d[1]];
            if let Some(ft) = value(t) {
                if ft >= f + 1e-4 * step * decrement {
                    l = t;
                    f = ft;
                    moved = true;
                    break;
                }
            }
            step *= 0.5;
        }
        if !moved {
            break;
        }
    }
    (f, l)
}

/// `Σ c_i ln f_i` minus the maximised log-likelihood under `mean = s`: the smallest
/// "distance" (in log-likelihood) from the sample to the hypothesis. `None` when no
/// distribution over the categories has that mean.
pub fn cost_of_mean(x: &Sample, s: f64) -> Option<f64> {
    let g: Vec<f64> = x.scores.iter().map(|a| a - s).collect();
    max_dual_1d(&g, &x.counts)
}

/// The same under the t-value hypothesis `(μ − ½)/σ = t`.
pub fn cost_of_t(x: &Sample, t: f64) -> Option<f64> {
    if t == 0.0 {
        return cost_of_mean(x, 0.5);
    }
    let b: Vec<f64> = x.scores.iter().map(|a| a - 0.5).collect();
    let (bmin, bmax) = (b[0], b[b.len() - 1]);
    let k = 1.0 + 1.0 / (t * t);
    // (u, k u²) must lie strictly inside the convex hull of the points (b_i, b_i²): below
    // the chord of the extreme points, above the polygon through all of them.
    let feasible = |u: f64| -> bool {
        if u <= bmin || u >= bmax {
            return false;
        }
        let y = k * u * u;
        let upper = (bmin + bmax) * u - bmin * bmax;
        let j = b.windows(2).position(|w| u <= w[1]).unwrap_or(b.len() - 2);
        let lower = (b[j] + b[j + 1]) * u - b[j] * b[j + 1];
        let margin = 1e-12;
        y < upper - margin && y > lower + margin
    };
    // The cost at u, with the maximising λ, Newton warm-started from `from`.
    let solve = |u: f64, from: [f64; 2]| -> Option<(f64, [f64; 2])> {
        if !feasible(u) {
            return None;
        }
        let g: Vec<[f64; 2]> = b.iter().map(|&bi| [bi - u, bi * bi - k * u * u]).collect();
        Some(max_dual_2d(&g, &x.counts, from))
    };
    // u lies on t's side of 0, and below the upper chord: k u² < (bmin + bmax) u − bmin bmax.
    let (p, q) = (bmin + bmax, -bmin * bmax);
    let disc = (p * p + 4.0 * k * q).max(0.0).sqrt();
    let (lo, hi) = if t > 0.0 {
        (0.0, ((p + disc) / (2.0 * k)).min(bmax))
    } else {
        (((p - disc) / (2.0 * k)).max(bmin), 0.0)
    };
    // A grid, then bisection on the sign of the cost's derivative around its best point.
    // By the envelope theorem the derivative is ∂F/∂u at the optimal λ, which is
    // −N (λ₀ + 2 k u λ₁) since Σ c_i / (1 + λ·g_i) = N there.
    const GRID: usize = 24;
    let step = (hi - lo) / GRID as f64;
    let mut best: Option<(f64, f64, [f64; 2])> = None;
    let mut warm = [0.0; 2];
    for i in 0..GRID {
        let u = lo + step * (i as f64 + 0.5);
        if let Some((c, l)) = solve(u, warm) {
            warm = l;
            if best.is_none_or(|(_, b, _)| c < b) {
                best = Some((u, c, l));
            }
        }
    }
    let (mut ub, mut cb, mut lb) = best?;
    let (mut a, mut d) = ((ub - step).max(lo), (ub + step).min(hi));
    for _ in 0..60 {
        if d - a <= 1e-14 * (1.0 + ub.abs()) {
            break;
        }
        let m = 0.5 * (a + d);
        match solve(m, lb) {
            Some((c, l)) => {
                if c < cb {
                    (ub, cb, lb) = (m, c, l);
                }
                // The cost decreases at m when λ₀ + 2 k m λ₁ > 0: the minimum is right.
                if l[0] + 2.0 * k * m * l[1] > 0.0 {
                    a = m;
                } else {
                    d = m;
                }
            }
            // Outside the feasible interval (the cost is infinite): move toward the best
            // point.
            None if m < ub => a = m,
            None => d = m,
        }
    }
    Some(cb)
}

/// The LLR of H1 against H0 given their costs (`None`: the hypothesis is impossible).
pub fn llr_of_costs(c0: Option<f64>, c1: Option<f64>) -> f64 {
    // Finite stand-ins for impossible hypotheses (they cannot occur with pseudo-counts in
    // every category, but the result must stay a finite JSON number).
    const BIG: f64 = 1e6;
    match (c0, c1) {
        (Some(a), Some(b)) => a - b,
        (None, Some(_)) => BIG,
        (Some(_), None) => -BIG,
        (None, None) => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PENTA: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    fn sample(counts: [u64; 5]) -> Sample {
        let obs: Vec<(f64, u64)> = PENTA.iter().copied().zip(counts).collect();
        Sample::new(&PENTA, &obs)
    }

    fn logistic(elo: f64) -> f64 {
        1.0 / (1.0 + 10f64.powf(-elo / 400.0))
    }

    #[test]
    fn published_pentanomial_llrs() {
        // A montytest run: pairs [13, 37, 50, 25, 3], SPRT elo0 = 0, elo1 = 4 in normalized
        // Elo (2.716 in logistic Elo). Published: normalized (exact) −0.54912, logistic
        // (exact) −0.53772.
        let x = sample([13, 37, 50, 25, 3]);
        let t1 = 4.0 / super::super::draws::NELO_PER_T * 2f64.sqrt();
        let llr = llr_of_costs(cost_of_t(&x, 0.0), cost_of_t(&x, t1));
        assert!((llr - -0.54912).abs() < 2e-4, "{llr}");
        let llr = llr_of_costs(
            cost_of_mean(&x, logistic(0.0)),
            cost_of_mean(&x, logistic(2.716)),
        );
        assert!((llr - -0.53772).abs() < 2e-4, "{llr}");
    }

    #[test]
    fn matches_an_independent_python_solver() {
        // python3, with a Lagrange fixed-point iteration (another method) over the same
        // counts plus 0.001 per category, gives these LLRs (the trinomial ones also agree
        // with a brute-force search along the constraint to 1e-6):
        //   pentanomial [2, 10, 30, 14, 4], normalized elo0 = −5, elo1 = 5: 0.36404910
        //   trinomial wins 30, draws 50, losses 20 (0, ½, 1: 20, 50, 30), logistic elo0 = 0,
        //   elo1 = 20: 0.82350140; normalized elo0 = 0, elo1 = 20: 0.64913962
        let x = sample([2, 10, 30, 14, 4]);
        let s = 2f64.sqrt() / super::super::draws::NELO_PER_T;
        let llr = llr_of_costs(cost_of_t(&x, -5.0 * s), cost_of_t(&x, 5.0 * s));
        assert!((llr - 0.36404910).abs() < 1e-6, "{llr}");
        let tri = [0.0, 0.5, 1.0];
        let y = Sample::new(&tri, &[(0.0, 20), (0.5, 50), (1.0, 30)]);
        let llr = llr_of_costs(
            cost_of_mean(&y, logistic(0.0)),
            cost_of_mean(&y, logistic(20.0)),
        );
        assert!((llr - 0.82350140).abs() < 1e-6, "{llr}");
        let t = 20.0 / super::super::draws::NELO_PER_T;
        let llr = llr_of_costs(cost_of_t(&y, 0.0), cost_of_t(&y, t));
        assert!((llr - 0.64913962).abs() < 1e-6, "{llr}");
    }

    #[test]
    fn the_maximum_satisfies_the_constraint() {
        // Recover q from λ and check the mean: q_i = f_i / (1 + λ (a_i − s)) sums to 1.
        let x = sample([0, 3, 9, 2, 0]);
        let c = cost_of_mean(&x, 0.6).unwrap();
        assert!(c > 0.0);
        // The unconstrained mean costs nothing.
        let n: f64 = x.counts.iter().sum();
        let mean = x
            .scores
            .iter()
            .zip(&x.counts)
            .map(|(a, c)| a * c)
            .sum::<f64>()
            / n;
        assert!(cost_of_mean(&x, mean).unwrap().abs() < 1e-9);
        // So does the sample's own t-value.
        let var = x
            .scores
            .iter()
            .zip(&x.counts)
            .map(|(a, c)| c * (a - mean).powi(2))
            .sum::<f64>()
            / n;
        let t = (mean - 0.5) / var.sqrt();
        assert!(
            cost_of_t(&x, t).unwrap().abs() < 1e-7,
            "{:?}",
            cost_of_t(&x, t)
        );
        // A mean outside the scores is impossible.
        assert_eq!(cost_of_mean(&x, 1.5), None);
    }

    #[test]
    fn unseen_results_keep_a_finite_likelihood() {
        // Only wins: H0 (score ½) still has a finite cost, and H1 (a bit above ½) is
        // closer.
        let x = Sample::new(&[0.0, 0.5, 1.0], &[(1.0, 10)]);
        let (c0, c1) = (cost_of_mean(&x, 0.5), cost_of_mean(&x, 0.53));
        let llr = llr_of_costs(c0, c1);
        assert!(llr > 0.0 && llr < 10.0 * 2f64.ln(), "{llr}");
        let llr = llr_of_costs(cost_of_t(&x, 0.0), cost_of_t(&x, 0.05));
        assert!(llr.is_finite() && llr > 0.0, "{llr}");
    }
}

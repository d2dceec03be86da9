//! The sequential probability ratio test used by `--sprt`: does A beat B by `elo1` rather
//! than by `elo0`?
//!
//! **Unit.** When the run swaps colours (the default) the test counts colour-swapped pairs
//! (games `2k`, `2k + 1`): its sample is the pentanomial of pair scores, which removes the
//! first-player advantage from the variance. A pair counts once both its games are
//! finished; a pair with an error game is left out. Without swapping it counts games (the
//! trinomial of game scores).
//!
//! **Elo model** (`model=`), how `elo0` and `elo1` become hypotheses on the sample:
//! - `logistic` (the default, and the only model before): the expected score
//!   `s = 1/(1 + 10^(−elo/400))`; the hypothesis is that the mean score per game is `s`.
//! - `normalized`: normalized Elo (Van den Bergh), `nElo = (800/ln 10)·(μ − ½)/σ` with `σ`
//!   the standard deviation per game (for pairs, √2 times that of the pair score); the
//!   hypothesis is the t-value `(μ − ½)/σ`. Its bounds do not depend on the draw rate.
//!
//! **LLR** (`method=`):
//! - `normal` (the default, as before): the normal approximation of the generalized SPRT,
//!   `LLR = n (s1 − s0)(2 x̄ − s0 − s1) / (2 v)` over `n` units with mean `x̄` and variance
//!   `v`, counting one prior win and one prior loss (for pairs: one pair won twice and one
//!   lost twice) so that a short run of equal results does not decide the test; under the
//!   normalized model `s_i = ½ + t_i √v`.
//! - `gsprt`: the exact generalized SPRT, the log-likelihood ratio of the multinomial
//!   sample maximised under each hypothesis (see [`super::gsprt`]).
//!
//! The test accepts H1 (`elo1`) when `LLR ≥ ln((1−β)/α)` and H0 (`elo0`) when
//! `LLR ≤ ln(β/(1−α))`. The state is a pure function of the games counted, in index order:
//! a run resumed from its records reaches the decision of the run played in one piece.

use super::draws::{NELO_PER_T, Tally};
use super::gsprt::{Sample, cost_of_mean, cost_of_t, llr_of_costs};
use super::interval::expected_score;
use serde::Serialize;
use std::collections::BTreeMap;

/// How `elo0` and `elo1` are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic Elo: a hypothesis on the expected score.
    #[default]
    Logistic,
    /// Normalized Elo: a hypothesis on `(μ − ½)/σ`.
    Normalized,
}

/// How the log-likelihood ratio is computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LlrMethod {
    /// The normal approximation.
    #[default]
    Normal,
    /// The exact generalized SPRT.
    Gsprt,
}

/// The hypotheses and error rates.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
    pub method: LlrMethod,
}

crate::error::message_error!(
    /// A `--sprt` text that cannot be read.
    SprtParseError
);

impl Sprt {
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
    /// Parses `elo0=0 elo1=20 [alpha=0.05] [beta=0.05] [model=logistic|normalized]
    /// [method=normal|gsprt]` (spaces or commas between; `gsprt` alone is
    /// `method=gsprt`).
    pub fn parse(s: &str) -> Result<Sprt, SprtParseError> {
        Self::read(s).map_err(SprtParseError)
    }

    fn read(s: &str) -> Result<Sprt, String> {
        let mut t = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
            method: LlrMethod::Normal,
        };
        for part in s.split([' ', ',']).filter(|p| !p.is_empty()) {
            if part == "gsprt" {
                t.method = LlrMethod::Gsprt;
                continue;
            }
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}`: expected key=value"))?;
            match k {
                "model" => {
                    t.model = match v {
                        "logistic" => EloModel::Logistic,
                        "normalized" => EloModel::Normalized,
                        _ => return Err(format!("`{part}`: model is logistic or normalized")),
                    };
                    continue;
                }
                "method" => {
                    t.method = match v {
                        "normal" => LlrMethod::Normal,
                        "gsprt" => LlrMethod::Gsprt,
                        _ => return Err(format!("`{part}`: method is normal or gsprt")),
                    };
                    continue;
                }
                _ => {}
            }
            let v: f64 = v.parse().map_err(|_| format!("`{part}`: not a number"))?;
            if !v.is_finite() {
                return Err(format!("`{part}`: not a finite number"));
            }
            match k {
                "elo0" => t.elo0 = v,
                "elo1" => t.elo1 = v,
                "alpha" => t.alpha = v,
                "beta" => t.beta = v,
                _ => {
                    return Err(format!(
                        "`{k}`: expected elo0, elo1, alpha, beta, model or method"
                    ));
                }
            }
        }
        if t.elo0.is_nan() || t.elo1.is_nan() {
            return Err("both elo0 and elo1 are needed, e.g. `elo0=0 elo1=20`".to_owned());
        }
        if t.elo1 <= t.elo0 {
            return Err("elo1 must be greater than elo0".to_owned());
        }
        if !(0.0 < t.alpha && t.alpha < 0.5 && 0.0 < t.beta && t.beta < 0.5) {
            return Err("alpha and beta must be between 0 and 0.5".to_owned());
        }
        Ok(t)
    }
}

/// Which hypothesis the test accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// H1: A is stronger by about `elo1`.
    H1,
    /// H0: A is not stronger than `elo0`.
    H0,
}

/// The running test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtState {
    pub test: Sprt,
    /// The unit is the colour-swapped pair (pentanomial), not the game.
    pub paired: bool,
    /// Games counted (with pairs: both games of every complete pair).
    pub games: u64,
    /// Scores per unit (game score, or the pair's mean score), 0..1.
    #[serde(skip)]
    units: Tally,
    /// Games whose pair partner has not been counted yet: pair number → A's score.
    #[serde(skip)]
    halves: BTreeMap<u64, Option<f64>>,
}

impl SprtState {
    /// A test counting games.
    pub fn new(test: Sprt) -> SprtState {
        SprtState {
            test,
            paired: false,
            games: 0,
            units: Tally::default(),
            halves: BTreeMap::new(),
        }
    }

    /// A test counting colour-swapped pairs (games `2k` and `2k + 1`).
    pub fn paired(test: Sprt) -> SprtState {
        SprtState {
            paired: true,
            ..SprtState::new(test)
        }
    }

    /// Counts game `index` with A's score (`None`: an error, no score).
    pub fn add(&mut self, index: u64, score: Option<f64>) {
        if !self.paired {
            if let Some(x) = score {
                self.games += 1;
                self.units.add(x);
            }
            return;
        }
        match self.halves.remove(&(index / 2)) {
            Some(other) => {
                if let (Some(x), Some(y)) = (score, other) {
                    self.games += 2;
                    self.units.add((x + y) / 2.0);
                }
            }
            None => {
                self.halves.insert(index / 2, score);
            }
        }
    }

    /// Complete pairs counted (0 when the unit is the game).
    pub fn pairs(&self) -> u64 {
        if self.paired { self.units.count() } else { 0 }
    }

    /// The log-likelihood ratio so far.
    pub fn llr(&self) -> f64 {
        match self.test.method {
            LlrMethod::Normal => self.llr_normal(),
            LlrMethod::Gsprt => self.llr_exact(),
        }
    }

    /// `t = (μ − ½)/σ` per unit of a normalized Elo.
    fn t_of(&self, nelo: f64) -> f64 {
        let per_unit = if self.paired {
            std::f64::consts::SQRT_2
        } else {
            1.0
        };
        nelo / NELO_PER_T * per_unit
    }

    fn llr_normal(&self) -> f64 {
        if self.units.count() < 2 {
            return 0.0;
        }
        // One prior unit at 1 and one at 0 keep the variance away from 0 in short runs.
        let mut t = self.units.clone();
        t.add(1.0);
        t.add(0.0);
        let n = t.count() as f64;
        let (mean, var) = t.mean_var();
        let var = var.max(1e-6);
        let (s0, s1) = match self.test.model {
            EloModel::Logistic => (
                expected_score(self.test.elo0),
                expected_score(self.test.elo1),
            ),
            EloModel::Normalized => (
                0.5 + self.t_of(self.test.elo0) * var.sqrt(),
                0.5 + self.t_of(self.test.elo1) * var.sqrt(),
            ),
        };
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    fn llr_exact(&self) -> f64 {
        if self.units.count() == 0 {
            return 0.0;
        }
        let space: &[f64] = if self.paired {
            &[0.0, 0.25, 0.5, 0.75, 1.0]
        } else {
            &[0.0, 0.5, 1.0]
        };
        let x = Sample::new(space, self.units.entries());
        match self.test.model {
            EloModel::Logistic => llr_of_costs(
                cost_of_mean(&x, expected_score(self.test.elo0)),
                cost_of_mean(&x, expected_score(self.test.elo1)),
            ),
            EloModel::Normalized => llr_of_costs(
                cost_of_t(&x, self.t_of(self.test.elo0)),
                cost_of_t(&x, self.t_of(self.test.elo1)),
            ),
        }
    }

    pub fn decision(&self) -> Option<Decision> {
        let llr = self.llr();
        if llr >= self.test.upper_bound() {
            Some(Decision::H1)
        } else if llr <= self.test.lower_bound() {
            Some(Decision::H0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds games 0, 1, 2, … with scores from `score(i)` until both tests decide.
    fn run(spec: &str, paired: bool, strong: impl Fn(u64) -> f64, weak: impl Fn(u64) -> f64) {
        let t = Sprt::parse(spec).unwrap();
        let new = || {
            if paired {
                SprtState::paired(t)
            } else {
                SprtState::new(t)
            }
        };
        let (mut s, mut w) = (new(), new());
        let mut i = 0;
        while s.decision().is_none() || w.decision().is_none() {
            if s.decision().is_none() {
                s.add(i, Some(strong(i)));
            }
            if w.decision().is_none() {
                w.add(i, Some(weak(i)));
            }
            i += 1;
            assert!(i < 20_000, "{spec}: undecided");
        }
        assert_eq!(s.decision(), Some(Decision::H1), "{spec}");
        assert_eq!(w.decision(), Some(Decision::H0), "{spec}");
        if paired {
            assert_eq!(s.games, 2 * s.pairs());
        }
    }

    #[test]
    fn decides_both_ways_in_every_model() {
        let strong = |n: u64| if n % 10 < 7 { 1.0 } else { 0.0 };
        let weak = |n: u64| if n % 10 < 4 { 1.0 } else { 0.0 };
        for spec in [
            "elo0=0 elo1=20",
            "elo0=0 elo1=20 model=normalized",
            "elo0=0 elo1=20 gsprt",
            "elo0=0 elo1=20 model=normalized method=gsprt",
        ] {
            run(spec, false, strong, weak);
            run(spec, true, strong, weak);
        }
        let t = Sprt::parse("elo0=0 elo1=20").unwrap();
        assert!((t.upper_bound() - 2.944).abs() < 1e-3);
        assert!(Sprt::parse("elo0=5 elo1=1").is_err());
        assert!(Sprt::parse("elo0=0 elo1=5 model=bayes").is_err());
        assert!(Sprt::parse("elo0=0 elo1=inf").is_err());
    }

    #[test]
    fn the_normal_logistic_llr_is_the_documented_formula() {
        // Games: 6 wins, 2 draws, 2 losses, plus the prior win and loss: n = 12,
        // mean = 8/12, variance = (7 + 0.5)/12 − (8/12)², LLR = n (s1−s0)(2x̄−s0−s1)/(2v).
        let t = Sprt::parse("elo0=0 elo1=50").unwrap();
        let mut st = SprtState::new(t);
        for (i, x) in [1.0, 1.0, 0.5, 1.0, 0.0, 1.0, 0.5, 1.0, 0.0, 1.0]
            .into_iter()
            .enumerate()
        {
            st.add(i as u64, Some(x));
        }
        let (n, m) = (12.0, 8.0 / 12.0);
        let v = 7.5 / 12.0 - m * m;
        let (s0, s1) = (0.5, expected_score(50.0));
        let want = n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v);
        assert!((st.llr() - want).abs() < 1e-12, "{} {want}", st.llr());
        assert_eq!(st.games, 10);
    }

    #[test]
    fn pairs_count_once_both_games_are_in() {
        let t = Sprt::parse("elo0=0 elo1=20 gsprt").unwrap();
        let mut st = SprtState::paired(t);
        st.add(1, Some(1.0));
        assert_eq!((st.games, st.pairs()), (0, 0));
        st.add(0, Some(0.5));
        assert_eq!((st.games, st.pairs()), (2, 1));
        // A pair with an error game is left out.
        st.add(2, None);
        st.add(3, Some(1.0));
        assert_eq!((st.games, st.pairs()), (2, 1));
        // The order in which games arrive does not matter.
        let mut a = SprtState::paired(t);
        let mut b = SprtState::paired(t);
        let scores = [1.0, 0.0, 0.5, 1.0, 1.0, 1.0, 0.0, 0.5];
        for (i, &x) in scores.iter().enumerate() {
            a.add(i as u64, Some(x));
        }
        for (i, &x) in scores.iter().enumerate().rev() {
            b.add(i as u64, Some(x));
        }
        assert_eq!(a.llr(), b.llr());
        assert_eq!(a, b);
    }
}

//! The sequential probability ratio test used by `--sprt`: does A beat B by `elo1` rather
//! than by `elo0`?
//!
//! It is the generalised SPRT with the normal approximation used by chess-engine testing
//! frameworks: after `n` games with mean score `x̄` and score variance `v`,
//! `LLR = n (s1 - s0) (2 x̄ - s0 - s1) / (2 v)` (with one prior win and one prior loss
//! counted, so that a short run of equal results does not decide the test), where `s0`, `s1` are the expected scores at
//! `elo0`, `elo1`. The test accepts H1 (`elo1`) when `LLR ≥ ln((1-β)/α)` and H0 (`elo0`)
//! when `LLR ≤ ln(β/(1-α))`.

use super::interval::expected_score;
use serde::Serialize;

/// The hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
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
    /// Parses `elo0=0 elo1=20 [alpha=0.05] [beta=0.05]` (spaces or commas between).
    pub fn parse(s: &str) -> Result<Sprt, SprtParseError> {
        Self::read(s).map_err(SprtParseError)
    }

    fn read(s: &str) -> Result<Sprt, String> {
        let mut t = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in s.split([' ', ',']).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}`: expected key=value"))?;
            let v: f64 = v.parse().map_err(|_| format!("`{part}`: not a number"))?;
            match k {
                "elo0" => t.elo0 = v,
                "elo1" => t.elo1 = v,
                "alpha" => t.alpha = v,
                "beta" => t.beta = v,
                _ => return Err(format!("`{k}`: expected elo0, elo1, alpha or beta")),
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtState {
    pub test: Sprt,
    pub games: u64,
    sum: f64,
    sum_sq: f64,
}

impl SprtState {
    pub fn new(test: Sprt) -> SprtState {
        SprtState {
            test,
            games: 0,
            sum: 0.0,
            sum_sq: 0.0,
        }
    }
    /// Adds one game's score for A (1, 0.5 or 0).
    pub fn add(&mut self, score: f64) {
        self.games += 1;
        self.sum += score;
        self.sum_sq += score * score;
    }
    /// The log-likelihood ratio so far.
    pub fn llr(&self) -> f64 {
        if self.games < 2 {
            return 0.0;
        }
        // One prior win and one prior loss keep the variance away from 0 in short runs.
        let n = self.games as f64 + 2.0;
        let mean = (self.sum + 1.0) / n;
        let var = ((self.sum_sq + 1.0) / n - mean * mean).max(1e-6);
        let (s0, s1) = (
            expected_score(self.test.elo0),
            expected_score(self.test.elo1),
        );
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
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

    #[test]
    fn decides_both_ways() {
        let t = Sprt::parse("elo0=0 elo1=20").unwrap();
        assert!((t.upper_bound() - 2.944).abs() < 1e-3);
        let mut strong = SprtState::new(t);
        let mut weak = SprtState::new(t);
        let mut n = 0;
        while strong.decision().is_none() || weak.decision().is_none() {
            n += 1;
            strong.add(if n % 10 < 7 { 1.0 } else { 0.0 });
            weak.add(if n % 10 < 4 { 1.0 } else { 0.0 });
            assert!(n < 10_000);
        }
        assert_eq!(strong.decision(), Some(Decision::H1));
        assert_eq!(weak.decision(), Some(Decision::H0));
        assert!(Sprt::parse("elo0=5 elo1=1").is_err());
    }
}

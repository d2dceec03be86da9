//! CI gates with three outcomes, judged on an interval rather than on a point estimate:
//! `--expect-score` of `autoplay` and `dagaz stats compare`.
//!
//! A gate **passes** when the 95% interval lies inside the accepted range, **fails** when
//! it lies outside it (the two do not meet), and is **inconclusive** otherwise: the games
//! played cannot tell, and more games would. The CLI maps the outcomes to exit codes 0, 1
//! and 3.
//!
//! Which interval: for a match score, the pentanomial one when the run has colour-swapped
//! pairs, else the trinomial one (see [`super::draws`]); for a one-seat game, Wilson's
//! interval of the solve rate. `compare` judges the interval of each change, built from the
//! two runs' intervals by the MOVER method ("method of variance estimates recovery": Zou &
//! Donner, "Construction of confidence limits about effect measures", Statistics in
//! Medicine 27, 2008; for two proportions it is Newcombe's square-and-add interval, 1998).

use super::{StatsError, Summary, interval::Z95, interval::wilson};
use serde::Serialize;

/// The outcome of a gate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The interval lies inside the range.
    Pass,
    /// The interval lies outside the range.
    Fail,
    /// The interval and the range overlap without one holding the other.
    Inconclusive,
}

impl Verdict {
    /// The outcome of several gates: a failure if any failed, else inconclusive if any
    /// was, else a pass (also when there is no gate).
    pub fn all(verdicts: impl IntoIterator<Item = Verdict>) -> Verdict {
        let mut out = Verdict::Pass;
        for v in verdicts {
            match v {
                Verdict::Fail => return Verdict::Fail,
                Verdict::Inconclusive => out = Verdict::Inconclusive,
                Verdict::Pass => {}
            }
        }
        out
    }

    /// `pass`, `fail`, `inconclusive`.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

/// Judges the interval `low..high` against the accepted range `from..to` (both closed).
pub fn judge(low: f64, high: f64, from: f64, to: f64) -> Verdict {
    if low >= from && high <= to {
        Verdict::Pass
    } else if high < from || low > to {
        Verdict::Fail
    } else {
        Verdict::Inconclusive
    }
}

crate::error::message_error!(
    /// An `--expect-score` text that cannot be read.
    GateParseError
);

/// `--expect-score P:LOW..HIGH`: player P's score (A or B) is expected in the range.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectScore {
    /// 0 for A, 1 for B.
    pub player: usize,
    pub low: f64,
    pub high: f64,
    /// As given.
    pub text: String,
}

/// The judgement of one gate.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GateResult {
    /// The gate as given (`A:0.6..1.0`).
    pub gate: String,
    pub verdict: Verdict,
    /// What was judged: `score` or `solve rate`.
    pub figure: String,
    /// Which interval: `pentanomial`, `trinomial` or `wilson`.
    pub interval: String,
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    /// One line for people.
    pub message: String,
}

impl ExpectScore {
    /// Parses `A:0.60..1.0` (or `B:…`).
    pub fn parse(s: &str) -> Result<ExpectScore, GateParseError> {
        let err = || {
            GateParseError(format!(
                "--expect-score {s}: expected A:LOW..HIGH or B:LOW..HIGH with 0 <= LOW <= HIGH <= 1, e.g. A:0.60..1.0"
            ))
        };
        let (p, range) = s.split_once(':').ok_or_else(err)?;
        let player = match p.trim() {
            "A" | "a" => 0,
            "B" | "b" => 1,
            _ => return Err(err()),
        };
        let (lo, hi) = range.split_once("..").ok_or_else(err)?;
        let low: f64 = lo.trim().parse().map_err(|_| err())?;
        let high: f64 = hi.trim().parse().map_err(|_| err())?;
        if !(0.0..=1.0).contains(&low) || !(0.0..=1.0).contains(&high) || low > high {
            return Err(err());
        }
        Ok(ExpectScore {
            player,
            low,
            high,
            text: s.to_owned(),
        })
    }

    /// Judges the gate on a match summary.
    pub fn judge(&self, s: &Summary) -> GateResult {
        let name = if self.player == 0 { "A" } else { "B" };
        let (figure, interval, est, lo, hi) = if s.seat_count == 1 {
            // One-seat games: the player's solve rate.
            match s.solo.iter().find(|x| x.player == name) {
                Some(x) => {
                    let r = x.solve_rate;
                    ("solve rate", "wilson", r.score, r.low, r.high)
                }
                None => {
                    return GateResult {
                        gate: self.text.clone(),
                        verdict: Verdict::Inconclusive,
                        figure: "solve rate".to_owned(),
                        interval: "wilson".to_owned(),
                        estimate: f64::NAN,
                        low: 0.0,
                        high: 1.0,
                        message: format!("--expect-score {}: {name} played no game", self.text),
                    };
                }
            }
        } else {
            let (kind, e) = s.gate_estimate();
            if self.player == 0 {
                ("score", kind, e.score, e.low, e.high)
            } else {
                ("score", kind, 1.0 - e.score, 1.0 - e.high, 1.0 - e.low)
            }
        };
        let verdict = judge(lo, hi, self.low, self.high);
        let how = match verdict {
            Verdict::Pass => "lies inside",
            Verdict::Fail => "lies outside",
            Verdict::Inconclusive => "overlaps without lying inside",
        };
        GateResult {
            gate: self.text.clone(),
            verdict,
            figure: figure.to_owned(),
            interval: interval.to_owned(),
            estimate: est,
            low: lo,
            high: hi,
            message: format!(
                "--expect-score {}: {name}'s {figure} {est:.3} (95% CI {lo:.3}..{hi:.3}, {interval}) {how} {}..{}: {}",
                self.text,
                self.low,
                self.high,
                verdict.word()
            ),
        }
    }
}

/// One balance figure compared between two runs.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shift {
    pub figure: String,
    pub before: f64,
    pub after: f64,
    pub change: f64,
    /// The 95% interval of the change.
    pub low: f64,
    pub high: f64,
    pub tolerance: f64,
    pub verdict: Verdict,
    /// The change's interval lies within the tolerance (`verdict` is `pass`).
    pub ok: bool,
}

/// Tolerances of [`compare`]: absolute for the scores and rates, relative for the length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances {
    pub first_player: f64,
    pub draw_rate: f64,
    /// Relative change of the mean length (0.1 = 10%).
    pub mean_length: f64,
}

/// The MOVER interval of `after − before` from each estimate and its interval.
fn difference(before: (f64, f64, f64), after: (f64, f64, f64)) -> (f64, f64) {
    let (b, bl, bh) = before;
    let (a, al, ah) = after;
    let d = a - b;
    (
        d - ((a - al).powi(2) + (bh - b).powi(2)).sqrt(),
        d + ((ah - a).powi(2) + (b - bl).powi(2)).sqrt(),
    )
}

/// Checks that two runs can be compared: the same players (as given) on the same game
/// (the same seats).
pub fn check_comparable(before: &Summary, after: &Summary) -> Result<(), StatsError> {
    if before.players != after.players {
        return Err(StatsError::NotComparable(format!(
            "the runs have different players ({} vs {} before, {} vs {} after): compare runs of the same players",
            before.players[0], before.players[1], after.players[0], after.players[1]
        )));
    }
    let seats = |s: &Summary| -> Vec<String> { s.seats.iter().map(|x| x.seat.clone()).collect() };
    if before.seat_count != after.seat_count || seats(before) != seats(after) {
        return Err(StatsError::NotComparable(format!(
            "the runs are of different games: seats {} before, {} after",
            seats(before).join(", "),
            seats(after).join(", ")
        )));
    }
    Ok(())
}

/// Compares the balance figures of two summaries: the first-player score and the draw
/// rate (absolute changes), the mean game length (relative change). Each change gets a
/// 95% interval and a [`Verdict`] against its tolerance `±tol`. Refuses two runs of
/// different players or games ([`check_comparable`]).
pub fn compare(before: &Summary, after: &Summary, t: Tolerances) -> Result<Vec<Shift>, StatsError> {
    check_comparable(before, after)?;
    let shift = |figure: &str, b: f64, a: f64, change: f64, (low, high): (f64, f64), tol: f64| {
        let verdict = judge(low, high, -tol, tol);
        Shift {
            figure: figure.to_owned(),
            before: b,
            after: a,
            change,
            low,
            high,
            tolerance: tol,
            verdict,
            ok: verdict == Verdict::Pass,
        }
    };
    let (fb, fa) = (
        &before.first_player_trinomial,
        &after.first_player_trinomial,
    );
    let first = shift(
        "first-player score",
        fb.score,
        fa.score,
        fa.score - fb.score,
        difference((fb.score, fb.low, fb.high), (fa.score, fa.low, fa.high)),
        t.first_player,
    );
    let rate = |s: &Summary| -> (f64, f64, f64) {
        let n = s.score_a.games as f64;
        let (l, h) = wilson(s.draw_rate, n, Z95);
        (s.draw_rate, l, h)
    };
    let (db, da) = (rate(before), rate(after));
    let draws = shift(
        "draw rate",
        before.draw_rate,
        after.draw_rate,
        da.0 - db.0,
        difference(db, da),
        t.draw_rate,
    );
    // Mean lengths: normal intervals, and the relative change a/b − 1 by the delta method.
    let games = |s: &Summary| (s.games - s.errors) as f64;
    let (mb, ma) = (before.mean_plies, after.mean_plies);
    let (nb, na) = (games(before), games(after));
    let rel = if mb > 0.0 { ma / mb - 1.0 } else { 0.0 };
    let interval = if mb > 0.0 && nb > 0.0 && na > 0.0 {
        let (vb, va) = (
            before.plies_stdev.powi(2) / nb,
            after.plies_stdev.powi(2) / na,
        );
        let ratio = ma / mb;
        let se = ratio * (va / (ma * ma).max(1e-300) + vb / (mb * mb)).sqrt();
        (rel - Z95 * se, rel + Z95 * se)
    } else {
        (f64::NEG_INFINITY, f64::INFINITY)
    };
    let length = shift(
        "mean length (relative)",
        mb,
        ma,
        rel,
        interval,
        t.mean_length,
    );
    Ok(vec![first, draws, length])
}

/// The overall verdict of a comparison.
pub fn verdict_of(shifts: &[Shift]) -> Verdict {
    Verdict::all(shifts.iter().map(|s| s.verdict))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_outcomes() {
        assert_eq!(judge(0.62, 0.70, 0.6, 1.0), Verdict::Pass);
        assert_eq!(judge(0.40, 0.55, 0.6, 1.0), Verdict::Fail);
        assert_eq!(judge(0.55, 0.65, 0.6, 1.0), Verdict::Inconclusive);
        // An interval wider than the range on both sides.
        assert_eq!(judge(0.3, 0.9, 0.45, 0.55), Verdict::Inconclusive);
        // Touching ends: inside counts, meeting is not disjoint.
        assert_eq!(judge(0.6, 1.0, 0.6, 1.0), Verdict::Pass);
        assert_eq!(judge(0.5, 0.6, 0.6, 1.0), Verdict::Inconclusive);
        assert_eq!(
            Verdict::all([Verdict::Pass, Verdict::Inconclusive]),
            Verdict::Inconclusive
        );
        assert_eq!(
            Verdict::all([Verdict::Inconclusive, Verdict::Fail, Verdict::Pass]),
            Verdict::Fail
        );
        assert_eq!(Verdict::all([]), Verdict::Pass);
    }

    #[test]
    fn expect_score_parses() {
        let e = ExpectScore::parse("B:0.2..0.45").unwrap();
        assert_eq!((e.player, e.low, e.high), (1, 0.2, 0.45));
        for bad in ["C:0.1..0.2", "A:0.5", "A:0.7..0.2", "A:-1..0.5", "A:x..1"] {
            assert!(ExpectScore::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn mover_reduces_to_square_and_add() {
        // Newcombe's hybrid interval for p1 = 56/70 − p2 = 48/80 (his worked example 1998,
        // Wilson intervals): 0.0524 .. 0.3339.
        let (a, b) = (56.0 / 70.0, 48.0 / 80.0);
        let (al, ah) = wilson(a, 70.0, Z95);
        let (bl, bh) = wilson(b, 80.0, Z95);
        let (lo, hi) = difference((b, bl, bh), (a, al, ah));
        assert!(
            (lo - 0.0524).abs() < 1e-4 && (hi - 0.3339).abs() < 1e-4,
            "{lo} {hi}"
        );
    }
}

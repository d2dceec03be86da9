//! Adjudication: ending games that are decided (or dead) before the rules end them
//! (`autoplay --adjudicate`).
//!
//! A referee evaluates every position of a two-seat game where a player is to move (after
//! the opening), with the evaluation terms (`ai weight …`, `ai value …`, `ai zone`,
//! `ai progress`) of one player's variant: A's by default, B's with `eval=B`. The
//! evaluation is a seat's figure minus its opponent's, so it is the same number with the
//! sign changed for the other seat.
//! - `win=SCORE:PLIES`: when a seat's evaluation stays at or below `-SCORE` for `PLIES`
//!   consecutive positions, that seat resigns: the other seat wins.
//! - `draw=SCORE:PLIES[:FROM]`: from ply `FROM` on (default 0), when the evaluation stays
//!   within `-SCORE..=SCORE` for `PLIES` consecutive positions, the game is a draw.
//! - `cap=SCORE`: a game that reaches the ply cap is won by the seat whose evaluation is
//!   above `SCORE` (otherwise it stays a draw at the cap).
//!
//! Plies count as `--max-plies` counts them: random players' plies (dice) included.
//! Records of adjudicated games say `end: "adjudicated"`.

use crate::ai::Game;
use crate::ai::eval::Evaluator;
use std::fmt;

/// The adjudication rules of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AdjudicationSpec {
    /// `(score, plies)`.
    pub win: Option<(f64, u32)>,
    /// `(score, plies, from)`.
    pub draw: Option<(f64, u32, u32)>,
    /// `score`: the lead that wins a game at the ply cap.
    pub cap: Option<f64>,
    /// Whose evaluation the referee uses: 0 = A, 1 = B.
    pub eval: usize,
}

/// Why an `--adjudicate` value is not understood. Each variant but [`NoRule`] carries the
/// rule as written (`win=20`).
///
/// [`NoRule`]: AdjudicationParseError::NoRule
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AdjudicationParseError {
    /// A rule of the wrong shape: no `=`, or the wrong number of `:` parts; `expected` is
    /// the shape wanted, with an example.
    Malformed {
        rule: String,
        expected: &'static str,
    },
    /// A rule whose name is none of `win`, `draw`, `cap` and `eval`.
    UnknownRule { rule: String, name: String },
    /// A SCORE that is not a finite number at least 0.
    Score(String),
    /// A PLIES that is not a whole number at least 1.
    Plies(String),
    /// A FROM (`draw=SCORE:PLIES:FROM`) that is not a ply number.
    From(String),
    /// An `eval=` that is neither A nor B.
    Eval(String),
    /// No `win`, `draw` or `cap` rule.
    NoRule,
}

impl fmt::Display for AdjudicationParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use AdjudicationParseError as E;
        match self {
            E::Malformed { rule, expected } => write!(f, "`{rule}`: expected {expected}"),
            E::UnknownRule { rule, name } => {
                write!(f, "`{rule}`: unknown rule `{name}`; expected {FORMS}")
            }
            E::Score(rule) => write!(
                f,
                "`{rule}`: SCORE must be a number at least 0 (in the evaluation's units)"
            ),
            E::Plies(rule) => write!(f, "`{rule}`: PLIES must be a whole number at least 1"),
            E::From(rule) => write!(f, "`{rule}`: FROM must be a ply number"),
            E::Eval(rule) => write!(f, "`{rule}`: eval is A or B"),
            E::NoRule => write!(f, "no rule given; expected {FORMS}"),
        }
    }
}

impl std::error::Error for AdjudicationParseError {}

const FORMS: &str = "win=SCORE:PLIES, draw=SCORE:PLIES[:FROM], cap=SCORE or eval=A|B";

impl AdjudicationSpec {
    /// Parses the values of `--adjudicate` (each may hold several rules separated by `,`).
    pub fn parse<S: AsRef<str>>(values: &[S]) -> Result<AdjudicationSpec, AdjudicationParseError> {
        let mut spec = AdjudicationSpec::default();
        let malformed = |rule: &str, expected| {
            Err(AdjudicationParseError::Malformed {
                rule: rule.to_owned(),
                expected,
            })
        };
        for v in values {
            for part in v
                .as_ref()
                .split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
            {
                let Some((key, val)) = part.split_once('=') else {
                    return malformed(part, FORMS);
                };
                let nums: Vec<&str> = val.split(':').collect();
                match key.trim() {
                    "win" => {
                        let [s, p] = nums[..] else {
                            return malformed(part, "win=SCORE:PLIES, e.g. win=20:40");
                        };
                        spec.win = Some((score(s, part)?, plies(p, part)?));
                    }
                    "draw" => {
                        let (s, p, from) = match nums[..] {
                            [s, p] => (s, p, "0"),
                            [s, p, f] => (s, p, f),
                            _ => {
                                return malformed(
                                    part,
                                    "draw=SCORE:PLIES[:FROM], e.g. draw=1:60:100",
                                );
                            }
                        };
                        let from = from
                            .trim()
                            .parse::<u32>()
                            .map_err(|_| AdjudicationParseError::From(part.to_owned()))?;
                        spec.draw = Some((score(s, part)?, plies(p, part)?, from));
                    }
                    "cap" => {
                        let [s] = nums[..] else {
                            return malformed(part, "cap=SCORE, e.g. cap=100");
                        };
                        spec.cap = Some(score(s, part)?);
                    }
                    "eval" => {
                        spec.eval = match val.trim() {
                            "A" | "a" => 0,
                            "B" | "b" => 1,
                            _ => return Err(AdjudicationParseError::Eval(part.to_owned())),
                        }
                    }
                    k => {
                        return Err(AdjudicationParseError::UnknownRule {
                            rule: part.to_owned(),
                            name: k.to_owned(),
                        });
                    }
                }
            }
        }
        if spec.win.is_none() && spec.draw.is_none() && spec.cap.is_none() {
            return Err(AdjudicationParseError::NoRule);
        }
        Ok(spec)
    }

    /// The canonical text (stored in the run settings): `win=S:P,draw=S:P:F,eval=A`.
    pub fn canonical(&self) -> String {
        let mut parts = vec![];
        if let Some((s, p)) = self.win {
            parts.push(format!("win={s}:{p}"));
        }
        if let Some((s, p, f)) = self.draw {
            parts.push(format!("draw={s}:{p}:{f}"));
        }
        if let Some(s) = self.cap {
            parts.push(format!("cap={s}"));
        }
        parts.push(format!("eval={}", if self.eval == 0 { "A" } else { "B" }));
        parts.join(",")
    }
}

fn score(s: &str, part: &str) -> Result<f64, AdjudicationParseError> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(AdjudicationParseError::Score(part.to_owned())),
    }
}

fn plies(s: &str, part: &str) -> Result<u32, AdjudicationParseError> {
    match s.trim().parse::<u32>() {
        Ok(x) if x >= 1 => Ok(x),
        _ => Err(AdjudicationParseError::Plies(part.to_owned())),
    }
}

/// The referee of a run: the spec and the evaluation it judges with.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    pub spec: AdjudicationSpec,
    eval: Evaluator,
}

/// What the referee decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The game goes on.
    Continue,
    /// The player (index in the rules) wins.
    Win(usize),
    Draw,
}

impl Adjudicator {
    /// A referee judging with `eval` (built from the chosen player's configuration).
    pub fn new(spec: AdjudicationSpec, eval: Evaluator) -> Adjudicator {
        Adjudicator { spec, eval }
    }

    /// A fresh watch for one game.
    pub fn watch(&self) -> Watch {
        Watch::default()
    }

    /// Looks at the position of `g` (not over, ply `ply` of the game, `seats` its two
    /// seats) and updates the streaks of `w`.
    pub fn judge<G: Game>(&self, g: &G, seats: &[usize], ply: u32, w: &mut Watch) -> Verdict {
        let [s0, s1] = seats[..] else {
            return Verdict::Continue;
        };
        let e = self.eval.evaluate(g, s0, 0.0, None);
        if let Some((score, plies)) = self.spec.win {
            let losing = if e < -score {
                Some(s0)
            } else if -e < -score {
                Some(s1)
            } else {
                None
            };
            if losing.is_some() && losing == w.losing {
                w.loss_streak += 1;
            } else {
                w.losing = losing;
                w.loss_streak = u32::from(losing.is_some());
            }
            if let Some(l) = losing.filter(|_| w.loss_streak >= plies) {
                return Verdict::Win(if l == s0 { s1 } else { s0 });
            }
        }
        if let Some((score, plies, from)) = self.spec.draw {
            if ply >= from && e.abs() <= score {
                w.draw_streak += 1;
            } else {
                w.draw_streak = 0;
            }
            if w.draw_streak >= plies {
                return Verdict::Draw;
            }
        }
        Verdict::Continue
    }

    /// The winner of a game of `g` stopped at the ply cap, by `cap=SCORE` (None: a draw).
    pub fn at_cap<G: Game>(&self, g: &G, seats: &[usize]) -> Option<usize> {
        let (Some(score), [s0, s1]) = (self.spec.cap, seats) else {
            return None;
        };
        let e = self.eval.evaluate(g, *s0, 0.0, None);
        if e > score {
            Some(*s0)
        } else if -e > score {
            Some(*s1)
        } else {
            None
        }
    }
}

/// The streaks of one game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Watch {
    losing: Option<usize>,
    loss_streak: u32,
    draw_streak: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rules_and_refuses_bad_ones() {
        let c = AdjudicationSpec::parse(&["cap=150"]).unwrap();
        assert_eq!(
            (c.cap, c.canonical().as_str()),
            (Some(150.0), "cap=150,eval=A")
        );
        let s = AdjudicationSpec::parse(&["win=20:40", "draw=0.5:60:100,eval=B"]).unwrap();
        assert_eq!(s.win, Some((20.0, 40)));
        assert_eq!(s.draw, Some((0.5, 60, 100)));
        assert_eq!(s.eval, 1);
        assert_eq!(s.canonical(), "win=20:40,draw=0.5:60:100,eval=B");
        let d = AdjudicationSpec::parse(&["draw=0:10"]).unwrap();
        assert_eq!(d.draw, Some((0.0, 10, 0)));
        use AdjudicationParseError as E;
        let forms = "expected win=SCORE:PLIES, draw=SCORE:PLIES[:FROM], cap=SCORE or eval=A|B";
        for (bad, kind, message) in [
            ("", E::NoRule, format!("no rule given; {forms}")),
            (
                "win=20",
                E::Malformed {
                    rule: "win=20".into(),
                    expected: "win=SCORE:PLIES, e.g. win=20:40",
                },
                "`win=20`: expected win=SCORE:PLIES, e.g. win=20:40".into(),
            ),
            (
                "win=-1:4",
                E::Score("win=-1:4".into()),
                "`win=-1:4`: SCORE must be a number at least 0 (in the evaluation's units)".into(),
            ),
            (
                "win=x:4",
                E::Score("win=x:4".into()),
                "`win=x:4`: SCORE must be a number at least 0 (in the evaluation's units)".into(),
            ),
            (
                "win=2:0",
                E::Plies("win=2:0".into()),
                "`win=2:0`: PLIES must be a whole number at least 1".into(),
            ),
            (
                "draw=1:2:3:4",
                E::Malformed {
                    rule: "draw=1:2:3:4".into(),
                    expected: "draw=SCORE:PLIES[:FROM], e.g. draw=1:60:100",
                },
                "`draw=1:2:3:4`: expected draw=SCORE:PLIES[:FROM], e.g. draw=1:60:100".into(),
            ),
            (
                "draw=1:2:x",
                E::From("draw=1:2:x".into()),
                "`draw=1:2:x`: FROM must be a ply number".into(),
            ),
            (
                "cap=1:2",
                E::Malformed {
                    rule: "cap=1:2".into(),
                    expected: "cap=SCORE, e.g. cap=100",
                },
                "`cap=1:2`: expected cap=SCORE, e.g. cap=100".into(),
            ),
            (
                "eval=C",
                E::Eval("eval=C".into()),
                "`eval=C`: eval is A or B".into(),
            ),
            (
                "lose=1:2",
                E::UnknownRule {
                    rule: "lose=1:2".into(),
                    name: "lose".into(),
                },
                format!("`lose=1:2`: unknown rule `lose`; {forms}"),
            ),
            (
                "win",
                E::Malformed {
                    rule: "win".into(),
                    expected: FORMS,
                },
                format!("`win`: {forms}"),
            ),
            ("eval=A", E::NoRule, format!("no rule given; {forms}")),
        ] {
            let e = AdjudicationSpec::parse(&[bad]).unwrap_err();
            assert_eq!((e.to_string(), &e), (message, &kind), "{bad}");
        }
    }
}

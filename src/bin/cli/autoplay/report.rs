//! The reports of a match on stdout: the text (Axiom's lines, the summary, the players,
//! the SPRT and gates), the report of a game without goals, and the `--json` summary.

use dagaz::autoplay::{MatchVerdict, Side};
use dagaz::stats::sprt::{Decision, EloModel, LlrMethod, SprtState};
use dagaz::stats::{Summary, axiom_lines, human};
use dagaz::tournament::record::RunSettings;

/// The report line of an SPRT.
fn sprt_line(st: &SprtState, d: Option<Decision>) -> String {
    let t = &st.test;
    let model = match t.model {
        EloModel::Logistic => "logistic",
        EloModel::Normalized => "normalized",
    };
    let method = match t.method {
        LlrMethod::Normal => "normal approximation",
        LlrMethod::Gsprt => "exact GSPRT",
    };
    let unit = if st.paired {
        format!("{} games ({} colour-swapped pairs)", st.games, st.pairs())
    } else {
        format!("{} games", st.games)
    };
    format!(
        "SPRT elo0={} elo1={} alpha={} beta={} ({model} Elo, {method}): LLR {:.2} (bounds {:.2}..{:.2}) after {unit}: {}\n",
        t.elo0,
        t.elo1,
        t.alpha,
        t.beta,
        st.llr(),
        t.lower_bound(),
        t.upper_bound(),
        match d {
            Some(Decision::H1) => "H1 accepted (A is stronger)",
            Some(Decision::H0) => "H0 accepted (A is not stronger)",
            None => "undecided",
        }
    )
}

/// The report of a game whose rules state no goals: its games can only be drawn, so the
/// usual table would be a table of draws.
fn goalless_report(s: &Summary, pa: &Side, settings: &RunSettings) -> String {
    format!(
        "no result to measure: \"{}\" ({}) states no goals (no win-, loss-, draw- or count-condition; Dagaz ports often keep them in JavaScript), so its games can only end in a draw: by repetition, with no move, or at the ply cap\n{} game(s) played, seed {}: {} by repetition, {} with no move, {} at the ply cap ({} plies); mean length {:.1} plies{}\n",
        pa.title,
        pa.source,
        s.games - s.errors,
        s.run_seed,
        s.ends.repetition,
        s.ends.no_moves,
        s.ends.ply_cap,
        settings.max_plies,
        s.mean_plies,
        if s.errors > 0 {
            format!("; {} game(s) failed (see the records)", s.errors)
        } else {
            String::new()
        }
    )
}

/// Everything the report of a match shows.
pub(super) struct MatchReport<'a> {
    pub summary: &'a Summary,
    pub verdict: &'a MatchVerdict,
    pub interrupted: bool,
    /// Players A and B.
    pub players: [&'a Side; 2],
    /// B was given (else A played every game).
    pub two_players: bool,
    pub settings: &'a RunSettings,
    pub goalless: bool,
    /// The games played, and `-n`.
    pub played: u64,
    pub games: u64,
}

impl MatchReport<'_> {
    /// The report on stdout: text, or the `--json` summary.
    pub(super) fn render(&self, json: bool) -> String {
        if json {
            return self.json();
        }
        let mut t = self.text();
        if self.interrupted {
            t += &format!(
                "interrupted: {} of {} games played\n",
                self.played, self.games
            );
        }
        t
    }

    fn text(&self) -> String {
        let [pa, pb] = self.players;
        let (s, settings) = (self.summary, self.settings);
        if self.goalless {
            return goalless_report(s, pa, settings);
        }
        let mut t = axiom_lines(s);
        t += &human(s);
        if self.two_players {
            t += &format!(
                "A: {}; B: {}\n",
                pa.describe(settings),
                pb.describe(settings)
            );
        } else {
            t += &format!("A: {}\n", pa.describe(settings));
        }
        if let Some((st, d)) = &self.verdict.sprt {
            t += &sprt_line(st, *d);
        }
        for g in &self.verdict.gates {
            t += &format!("gate {}\n", g.message.trim_start_matches("--expect-score "));
        }
        t
    }

    fn json(&self) -> String {
        let MatchReport {
            summary: s,
            verdict: v,
            interrupted,
            players: [pa, pb],
            settings,
            goalless,
            ..
        } = *self;
        let sprt = v.sprt.as_ref().map(|(st, d)| {
            serde_json::json!({
                "elo0": st.test.elo0, "elo1": st.test.elo1, "alpha": st.test.alpha, "beta": st.test.beta,
                "model": st.test.model, "method": st.test.method,
                "unit": if st.paired { "pair" } else { "game" }, "pairs": st.pairs(),
                "games": st.games, "llr": st.llr(), "lower_bound": st.test.lower_bound(),
                "upper_bound": st.test.upper_bound(), "decision": d,
            })
        });
        let v = serde_json::json!({
            "schema_version": dagaz::stats::SUMMARY_SCHEMA_VERSION,
            "seed": s.run_seed,
            "ai": [pa.describe(settings), pb.describe(settings)],
            "summary": s,
            "sprt": sprt,
            "interrupted": interrupted,
            "no_goals": goalless,
            "failed_checks": v.failed,
            "gates": v.gates,
            "verdict": v.verdict,
        });
        let mut t = serde_json::to_string_pretty(&v).unwrap_or_default();
        t.push('\n');
        t
    }
}

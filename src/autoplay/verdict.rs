//! The verdict of a match: its gates (`--expect-score`, judged on intervals) and its SPRT
//! (`--sprt`), with the messages of the checks that failed or stayed inconclusive.

use crate::stats::Summary;
use crate::stats::gate::{ExpectScore, GateResult, Verdict};
use crate::stats::sprt::{Decision, SprtState};

/// What a match's checks say.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct MatchVerdict {
    /// Each gate judged on the summary, in the order given.
    pub gates: Vec<GateResult>,
    /// The SPRT's state and decision (none: undecided), when the run had one.
    pub sprt: Option<(SprtState, Option<Decision>)>,
    /// All checks together: a failure wins over an inconclusive check; no check passes.
    pub verdict: Verdict,
    /// The messages of the checks that failed.
    pub failed: Vec<String>,
    /// The messages of the checks that stayed inconclusive.
    pub inconclusive: Vec<String>,
}

/// Judges the gates `expects` on `summary`, and the SPRT by its final state.
pub fn judge(summary: &Summary, expects: &[ExpectScore], sprt: Option<SprtState>) -> MatchVerdict {
    let gates: Vec<GateResult> = expects.iter().map(|e| e.judge(summary)).collect();
    let sprt = sprt.map(|st| {
        let d = st.decision();
        (st, d)
    });
    let sprt_verdict = sprt.as_ref().map(|(_, d)| match d {
        Some(Decision::H1) => Verdict::Pass,
        Some(Decision::H0) => Verdict::Fail,
        None => Verdict::Inconclusive,
    });
    let verdict = Verdict::all(gates.iter().map(|g| g.verdict).chain(sprt_verdict));
    let messages = |v: Verdict| -> Vec<String> {
        gates
            .iter()
            .filter(|g| g.verdict == v)
            .map(|g| g.message.clone())
            .collect()
    };
    let mut failed = messages(Verdict::Fail);
    if sprt_verdict == Some(Verdict::Fail) {
        failed.push("--sprt: H0 accepted (A is not stronger by elo1)".to_owned());
    }
    let mut inconclusive = messages(Verdict::Inconclusive);
    if sprt_verdict == Some(Verdict::Inconclusive) {
        inconclusive.push(format!(
            "--sprt: undecided after {} games (-n is the most games the test may use)",
            sprt.as_ref().map_or(0, |(st, _)| st.games)
        ));
    }
    MatchVerdict {
        gates,
        sprt,
        verdict,
        failed,
        inconclusive,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::played;
    use super::*;
    use crate::stats::Accumulator;

    #[test]
    fn gates_pass_fail_or_stay_inconclusive() {
        let (records, _, _) = played();
        let mut acc = Accumulator::default();
        for r in &records {
            acc.add(r);
        }
        let summary = acc.summary().expect("four games");
        let gate = |s: &str| ExpectScore::parse(s).expect("a gate");
        // Any score lies in 0..1; four games cannot show A above 99%, nor below 1%.
        let wide = judge(&summary, &[gate("A:0..1")], None);
        assert_eq!(wide.verdict, Verdict::Pass);
        assert!(wide.failed.is_empty() && wide.inconclusive.is_empty());
        let narrow = judge(&summary, &[gate("A:0..1"), gate("A:0.99..1")], None);
        assert_ne!(narrow.verdict, Verdict::Pass);
        assert_eq!(narrow.failed.len() + narrow.inconclusive.len(), 1);
        assert_eq!(judge(&summary, &[], None).verdict, Verdict::Pass);
    }
}

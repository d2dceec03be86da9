//! Results per opening (`autoplay --openings`): how A scored from each book line.

use super::Score;
use crate::record::{GameRecord, GameResult};
use serde::Serialize;
use std::collections::BTreeMap;

/// A's results from one opening of the book.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpeningSummary {
    /// The book line's number.
    pub line: Option<u32>,
    /// The book line (moves or `variant: SPEC`).
    pub name: String,
    /// Finished games with a score.
    pub games: u64,
    pub wins_a: u64,
    pub wins_b: u64,
    pub draws: u64,
    /// A's score with its Wilson 95% interval.
    pub score_a: Score,
    /// Score of the player in the first seat, whoever it was.
    pub first_player: Score,
}

#[derive(Clone, Debug, Default)]
struct Counts {
    games: u64,
    wins_a: u64,
    wins_b: u64,
    draws: u64,
    points_a: f64,
    first_points: f64,
}

/// Per-opening counts, accumulated game by game (keyed by line number and text).
#[derive(Clone, Debug, Default)]
pub(crate) struct OpeningCounts(BTreeMap<(u32, String), Counts>);

impl OpeningCounts {
    /// Counts a finished two-player game (one with a score for A) that started from a book
    /// line.
    pub(crate) fn add(&mut self, r: &GameRecord) {
        let Some(o) = &r.opening else { return };
        let (Some(name), Some(score)) = (&o.name, r.score_a) else {
            return;
        };
        if !r.result.is_finished() {
            return;
        }
        let c = self
            .0
            .entry((o.line.unwrap_or(0), name.clone()))
            .or_default();
        c.games += 1;
        match r.winner.as_deref() {
            Some("A") => c.wins_a += 1,
            Some("B") => c.wins_b += 1,
            _ => {}
        }
        if r.result == GameResult::Draw {
            c.draws += 1;
        }
        c.points_a += score;
        if let Some(p) = r.seats.first().and_then(|s| s.points) {
            c.first_points += p.min(1.0);
        }
    }

    pub(crate) fn merge(&mut self, other: &OpeningCounts) {
        for (k, o) in &other.0 {
            let c = self.0.entry(k.clone()).or_default();
            c.games += o.games;
            c.wins_a += o.wins_a;
            c.wins_b += o.wins_b;
            c.draws += o.draws;
            c.points_a += o.points_a;
            c.first_points += o.first_points;
        }
    }

    /// The summaries, in book order.
    pub(crate) fn summaries(&self) -> Vec<OpeningSummary> {
        self.0
            .iter()
            .map(|((line, name), c)| OpeningSummary {
                line: (*line > 0).then_some(*line),
                name: name.clone(),
                games: c.games,
                wins_a: c.wins_a,
                wins_b: c.wins_b,
                draws: c.draws,
                score_a: Score::of(c.points_a, c.games),
                first_player: Score::of(c.first_points, c.games),
            })
            .collect()
    }
}

//! Summaries of game records: scores with Wilson intervals, Elo differences, draws, game
//! lengths, first-player advantage, per-seat results; merging shards; comparing two runs.
//!
//! Sub-modules: [`interval`] (Wilson, Elo), [`draws`] (draw-aware trinomial and
//! pentanomial intervals, LOS), [`gate`] (gates with three outcomes, `compare`),
//! [`sprt`] (the sequential test), [`gsprt`] (its exact likelihood ratio), [`openings`]
//! (results per book line), [`ratings`] (round robins: crosstables and joint Elo ratings)
//! and [`html`] (the HTML report).
//!
//! # Files
//! This file has the small types the others share ([`Score`], [`EloDiff`], [`StatsError`])
//! and re-exports the items of the private modules below, so that every path stays
//! `stats::X`:
//! - `summary`: the [`Summary`] of a match and its values, the [`Accumulator`] that builds it
//!   game by game, grouping records by match;
//! - `text`: the human-readable summary and Axiom's closing lines;
//! - `csv`: the CSV tables of matches, games, seats, lengths, one-seat results and openings;
//! - `shards`: merging shards, the games they miss, checking that records may be pooled.

mod csv;
pub mod draws;
pub mod gate;
pub mod gsprt;
pub mod html;
pub mod interval;
pub mod openings;
pub mod ratings;
mod shards;
pub mod sprt;
mod summary;
mod text;

pub use csv::{
    CSV_SCHEMA_VERSION, games_csv, lengths_csv, matches_csv, openings_csv, seats_csv, solo_csv,
};
pub use gate::{Shift, Tolerances, compare};
pub use shards::{check_poolable, merge, missing_games, run_games};
pub use summary::{
    Accumulator, Bucket, Ends, SUMMARY_SCHEMA_VERSION, SeatSummary, SoloSummary, Summary,
    group_by_match, length_histogram, summarize,
};
pub use text::{axiom_lines, human};

use interval::{Z95, wilson};
use serde::Serialize;

/// A score with its 95% interval.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Score {
    pub games: u64,
    pub score: f64,
    pub low: f64,
    pub high: f64,
}

impl Score {
    fn of(points: f64, games: u64) -> Score {
        let p = if games == 0 {
            0.5
        } else {
            points / games as f64
        };
        let (low, high) = wilson(p, games as f64, Z95);
        Score {
            games,
            score: p,
            low,
            high,
        }
    }
}

/// Elo difference of A over B with its 95% interval (`None` = infinite).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloDiff {
    pub elo: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// Why records cannot be merged, pooled or written.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StatsError {
    /// Records of different runs (seed, players, settings or identity differ).
    NotOneRun(String),
    /// A game appears twice (the same file given twice, overlapping shards).
    Duplicate(String),
    /// The CSV writer failed.
    Csv(String),
    /// Two runs that `compare` cannot compare (different players or games).
    NotComparable(String),
}

crate::error::message_enum!(StatsError {
    NotOneRun,
    Duplicate,
    Csv,
    NotComparable
});

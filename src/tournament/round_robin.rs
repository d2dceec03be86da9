//! Round robins and gauntlets: more than two players, every game in one parallel pool.
//!
//! The games are numbered by a [`Schedule`] ([`crate::record::schedule`]: the pairings
//! and the game index of game `k` of each); the game's seed is [`super::game_seed`] of the
//! run seed and the index, as in a two-player run, so the records do not depend on `-j`.
//!
//! Openings ([`super::openings`]) are chosen by the game's number `k` in its pairing, not
//! by its index: game `k` of every pairing starts from the same opening (book line and
//! random plies), so every pairing plays the same openings.

use super::adjudication::AdjudicationSpec;
use super::runner::{self, GameIndices, Plan, Tally};
use crate::ai::{AiConfig, AiConfigError, Game};
use crate::record::GameRecord;
pub use crate::record::schedule::{Schedule, ScheduleError};
use crate::stats::Accumulator;
use crate::stats::ratings::PairTally;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

pub use super::runner::Pairing;

/// What a round robin needs besides the game, the players and the pairings.
///
/// Fields will grow: build one with [`Config::new`] and set the fields to change.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    pub seed: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Only games of shard `k` of `n` (see [`super::in_shard`]).
    pub shard: Option<(u64, u64)>,
    /// Game indices already played (resume): skipped.
    pub skip: HashSet<u64>,
    /// Adjudication rules (`--adjudicate`), judged in each pairing with the evaluation of
    /// its player A or B (`spec.eval`).
    pub adjudication: Option<AdjudicationSpec>,
}

impl Config {
    /// Every game of the run seeded with `seed`, on one thread, without adjudication.
    pub fn new(seed: u64) -> Config {
        Config {
            seed,
            threads: 1,
            shard: None,
            skip: HashSet::new(),
            adjudication: None,
        }
    }
}

/// What a round robin produced: the statistics of the games it played, per pairing.
#[non_exhaustive]
#[derive(Debug)]
pub struct Outcome {
    /// Per pairing (schedule order): the summary of its games, accumulated in index order.
    pub summaries: Vec<Accumulator>,
    /// Per pairing: the counts the crosstable and the ratings need.
    pub tallies: Vec<PairTally>,
    /// The run was stopped before all its games were played.
    pub interrupted: bool,
}

/// Plays the games of `schedule` (those of `cfg.shard`, less `cfg.skip`) in one pool of
/// `cfg.threads` workers. `configs[i]` is player `i`'s AI (the run's per-move limits are
/// applied over it); `pairings[p]` is pairing `p` of the schedule. `on_done` is called
/// from the workers after each game, and `stop` ends the run early (games in progress
/// are recorded as interrupted). Records are not kept: the caller streams them.
pub fn run<G: Game + Sync>(
    schedule: &Schedule,
    configs: &[AiConfig],
    pairings: &[Pairing<'_, G>],
    cfg: &Config,
    stop: &AtomicBool,
    on_done: &(dyn Fn(&GameRecord) + Sync),
) -> Result<Outcome, AiConfigError> {
    assert_eq!(configs.len(), schedule.players(), "one AI per player");
    assert_eq!(
        pairings.len(),
        schedule.pairs().len(),
        "one setup per pairing"
    );
    let plan = Plan {
        seed: cfg.seed,
        threads: cfg.threads,
        indices: GameIndices::Schedule(schedule),
        shard: cfg.shard,
        skip: &cfg.skip,
        pairs: schedule.pairs(),
        pairings,
        configs,
        adjudication: cfg.adjudication,
        keep_moves: true,
    };
    let pairs = schedule.pairs().len();
    let tally = PairingTallies {
        summaries: vec![Accumulator::default(); pairs],
        tallies: vec![PairTally::default(); pairs],
    };
    let (tally, end) = runner::run_games(&plan, tally, stop, on_done)?;
    let played: u64 = tally.summaries.iter().map(Accumulator::games).sum();
    Ok(Outcome {
        summaries: tally.summaries,
        tallies: tally.tallies,
        interrupted: played < end.total,
    })
}

/// Every pairing's summary and tally, counted in position order.
struct PairingTallies {
    summaries: Vec<Accumulator>,
    tallies: Vec<PairTally>,
}

impl Tally for PairingTallies {
    fn count(&mut self, pairing: usize, rec: GameRecord) -> bool {
        self.count_late(pairing, rec);
        false
    }

    fn count_late(&mut self, pairing: usize, rec: GameRecord) {
        self.summaries[pairing].add(&rec);
        self.tallies[pairing].add(&rec);
    }
}

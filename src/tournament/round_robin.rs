//! Round robins and gauntlets: more than two players, every game in one parallel pool.
//!
//! The games are numbered by a [`Schedule`] ([`crate::record::schedule`]: the pairings
//! and the game index of game `k` of each); the game's seed is [`super::game_seed`] of the
//! run seed and the index, as in a two-player run, so the records do not depend on `-j`.
//!
//! Openings ([`super::openings`]) are chosen by the game's number `k` in its pairing, not
//! by its index: game `k` of every pairing starts from the same opening (book line and
//! random plies), so every pairing plays the same openings.

use super::adjudication::{AdjudicationSpec, Adjudicator};
use super::openings::OpeningBook;
use super::{GameJob, game_seed, panicked_record, play_job, with_limits};
use crate::ai::{Ai, AiConfig, AiConfigError, Game};
use crate::record::schedule::in_shard;
pub use crate::record::schedule::{Schedule, ScheduleError};
use crate::record::{GameRecord, RunIdentity, RunSettings};
use crate::stats::Accumulator;
use crate::stats::ratings::PairTally;
use std::collections::{BTreeMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// One pairing of a run: the game it is played on, and what its records carry.
pub struct Pairing<'a, G> {
    /// The game, as the pairing's players see it (the same for every pairing of ZRF
    /// players; a two-program match for Axiom programs).
    pub proto: &'a G,
    /// The openings, on this pairing's game.
    pub book: &'a OpeningBook<G>,
    /// The settings of the pairing's records (`players` are the pairing's).
    pub settings: RunSettings,
    /// Copied into every record of the pairing.
    pub identity: Option<RunIdentity>,
}

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
    let limits = &pairings[0].settings;
    let configs: Vec<AiConfig> = configs
        .iter()
        .map(|c| with_limits(c.clone(), limits))
        .collect();
    // Fail early on a bad evaluation, for every pairing's game; each player's AI is then
    // built on the game of the first pairing it plays in.
    let mut home: Vec<Option<usize>> = vec![None; configs.len()];
    for (p, (&[a, b], pairing)) in schedule.pairs().iter().zip(pairings).enumerate() {
        for x in [a, b] {
            Ai::new(pairing.proto, configs[x].clone())?;
            home[x].get_or_insert(p);
        }
    }
    // A referee per pairing, with the evaluation of its player A or B.
    let mut referees: Vec<Option<Adjudicator>> = vec![];
    for (&pair, pairing) in schedule.pairs().iter().zip(pairings) {
        referees.push(match cfg.adjudication {
            Some(spec) => {
                if pairing.proto.seats().len() != 2 {
                    return Err(AiConfigError(
                        "--adjudicate needs a game with two seats".to_owned(),
                    ));
                }
                let c = &configs[pair[spec.eval.min(1)]];
                let eval = crate::ai::eval::Evaluator::new(pairing.proto, c)?;
                Some(Adjudicator::new(spec, eval))
            }
            None => None,
        });
    }
    let new_ai = |x: usize| {
        let proto = pairings[home[x].expect("every player is paired")].proto;
        Ai::new(proto, configs[x].clone()).expect("checked")
    };
    let total = schedule.games_to_play(cfg.shard, &cfg.skip);
    let bound = schedule.index_bound().unwrap_or(0);
    // Indices are handed out lazily in increasing order; `position` numbers them, and the
    // statistics take the games in that order whatever the thread that played them.
    let next = Mutex::new((0u64, 0usize));
    let take = || -> Option<(usize, u64)> {
        let mut n = next.lock().unwrap_or_else(|e| e.into_inner());
        while n.0 < bound {
            let i = n.0;
            n.0 += 1;
            if schedule.locate(i).is_some() && in_shard(i, cfg.shard) && !cfg.skip.contains(&i) {
                n.1 += 1;
                return Some((n.1 - 1, i));
            }
        }
        None
    };
    struct Shared {
        pending: BTreeMap<usize, (usize, GameRecord)>,
        prefix: usize,
        summaries: Vec<Accumulator>,
        tallies: Vec<PairTally>,
    }
    let pairs = schedule.pairs().len();
    let shared = Mutex::new(Shared {
        pending: BTreeMap::new(),
        prefix: 0,
        summaries: vec![Accumulator::default(); pairs],
        tallies: vec![PairTally::default(); pairs],
    });
    let count = |sh: &mut Shared, p: usize, rec: &GameRecord| {
        sh.summaries[p].add(rec);
        sh.tallies[p].add(rec);
    };
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            scope.spawn(|| {
                // One AI per player (a second one for self-play), built when first needed.
                let mut ais: Vec<Option<Ai<G>>> = (0..configs.len()).map(|_| None).collect();
                let mut twins: Vec<Option<Ai<G>>> = (0..configs.len()).map(|_| None).collect();
                let mut buf = G::Moves::default();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some((k, index)) = take() else { break };
                    let (p, game) = schedule.locate(index).expect("taken from the schedule");
                    let [a, b] = schedule.pairs()[p];
                    let pairing = &pairings[p];
                    let ai_a = ais[a].take().unwrap_or_else(|| new_ai(a));
                    let slot_b = if a == b { &mut twins[b] } else { &mut ais[b] };
                    let ai_b = slot_b.take().unwrap_or_else(|| new_ai(b));
                    let mut pair_ais = [ai_a, ai_b];
                    let job = GameJob {
                        run_seed: cfg.seed,
                        index,
                        opening: game,
                        settings: &pairing.settings,
                        stop: Some(stop),
                        book: pairing.book,
                        adjudicator: referees[p].as_ref(),
                        keep_moves: true,
                    };
                    let played = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        play_job(pairing.proto, &mut pair_ais, &mut buf, &job)
                    }));
                    let mut rec = match played {
                        Ok(r) => {
                            let [x, y] = pair_ais;
                            ais[a] = Some(x);
                            if a == b {
                                twins[b] = Some(y);
                            } else {
                                ais[b] = Some(y);
                            }
                            r
                        }
                        Err(e) => {
                            // The AIs are dropped and built again when next needed.
                            buf = G::Moves::default();
                            let msg = e
                                .downcast_ref::<String>()
                                .cloned()
                                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                                .unwrap_or_default();
                            panicked_record(cfg.seed, index, &pairing.settings, msg)
                        }
                    };
                    debug_assert_eq!(rec.game_seed, game_seed(cfg.seed, index));
                    rec.identity = pairing.identity.clone();
                    on_done(&rec);
                    let mut sh = shared.lock().unwrap_or_else(|e| e.into_inner());
                    sh.pending.insert(k, (p, rec));
                    loop {
                        let at = sh.prefix;
                        let Some((p, rec)) = sh.pending.remove(&at) else {
                            break;
                        };
                        sh.prefix += 1;
                        count(&mut sh, p, &rec);
                    }
                }
            });
        }
    });
    let mut sh = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    // Interrupted: the games finished after a gap count too.
    for (_, (p, rec)) in std::mem::take(&mut sh.pending) {
        count(&mut sh, p, &rec);
    }
    let played: u64 = sh.summaries.iter().map(Accumulator::games).sum();
    Ok(Outcome {
        summaries: sh.summaries,
        tallies: sh.tallies,
        interrupted: played < total,
    })
}

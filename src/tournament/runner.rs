//! The one runner behind every match: a two-player match ([`super::run_with`]) is a run of
//! one pairing, a round robin or gauntlet ([`super::round_robin::run`]) a run of several.
//!
//! The runner owns what both share: checking the players' AIs and building the referees,
//! the worker threads (scoped std threads, each with its own AIs and move buffer), handing
//! out game indices lazily in increasing order (those of the shard, less those already
//! played), catching a game's panic (recorded as an error; the run goes on), copying the
//! pairing's identity into each record, the `on_done` callback, and stopping (the stop
//! flag, or a decision of the [`Tally`]).
//!
//! Finished games reach the [`Tally`] in position order (the order the indices were
//! handed out), whatever the thread that played them, so that statistics and an SPRT
//! decision do not depend on `-j`. Games finished after a gap (an interrupted run) are
//! counted at the end; those finished after a decision are dropped.

use super::adjudication::{AdjudicationSpec, Adjudicator};
use super::openings::OpeningBook;
use super::{GameJob, game_seed, panicked_record, play_job, with_limits};
use crate::ai::{Ai, AiConfig, AiConfigError, Game};
use crate::record::schedule::{Schedule, games_to_play, in_shard};
use crate::record::{GameRecord, RunIdentity, RunSettings};
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

/// How the game indices of a run map to its pairings.
#[derive(Clone, Copy)]
pub(super) enum GameIndices<'a> {
    /// A two-player match of `games` games: game `i` is game `i` of its one pairing.
    Match { games: u64 },
    /// A round robin or gauntlet.
    Schedule(&'a Schedule),
}

impl GameIndices<'_> {
    /// One more than the largest index.
    fn bound(self) -> u64 {
        match self {
            GameIndices::Match { games } => games,
            GameIndices::Schedule(s) => s.index_bound().unwrap_or(0),
        }
    }

    /// The pairing and the game's number in it, `None` when `index` is not a game.
    fn locate(self, index: u64) -> Option<(usize, u64)> {
        match self {
            GameIndices::Match { games } => (index < games).then_some((0, index)),
            GameIndices::Schedule(s) => s.locate(index),
        }
    }

    /// How many games a run of `shard` plays, less those in `skip`.
    fn to_play(self, shard: Option<(u64, u64)>, skip: &HashSet<u64>) -> u64 {
        match self {
            GameIndices::Match { games } => games_to_play(games, shard, skip),
            GameIndices::Schedule(s) => s.games_to_play(shard, skip),
        }
    }
}

/// A run to play: its pairings, its players and which of its games to play.
pub(super) struct Plan<'a, G> {
    pub seed: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
    pub indices: GameIndices<'a>,
    pub shard: Option<(u64, u64)>,
    /// Game indices already played: skipped.
    pub skip: &'a HashSet<u64>,
    /// `[A, B]` (indices into `configs`) of each pairing.
    pub pairs: &'a [[usize; 2]],
    pub pairings: &'a [Pairing<'a, G>],
    /// Player `i`'s AI; the per-move limits of `pairings[0].settings` are applied over it.
    pub configs: &'a [AiConfig],
    /// Judged in each pairing with the evaluation of its player A or B (`spec.eval`).
    pub adjudication: Option<AdjudicationSpec>,
    /// Keep each ply's move in the records.
    pub keep_moves: bool,
}

/// What a run does with its finished games, which it is given in position order.
pub(super) trait Tally: Send {
    /// Before the game with index `next` is counted (and before the first game to play,
    /// and with `u64::MAX` after the last): true when the run is decided already, and
    /// that game is dropped.
    fn decided_before(&mut self, _next: u64) -> bool {
        false
    }

    /// Counts the next game in position order, of pairing `pairing`; true when the run is
    /// decided by it.
    fn count(&mut self, pairing: usize, rec: GameRecord) -> bool;

    /// Counts a game that finished after a gap in the positions (an interrupted run).
    fn count_late(&mut self, pairing: usize, rec: GameRecord);

    /// A game that finished after the run was decided.
    fn drop_decided(&mut self, _rec: GameRecord) {}
}

/// What [`run_games`] ends with, besides the tally.
pub(super) struct RunEnd {
    /// The tally decided the run.
    pub decided: bool,
    /// Games the run had to play.
    pub total: u64,
}

/// The players' AIs checked and the pairings' referees built, before any game.
struct Prepared {
    /// Player `i`'s AI, with the run's per-move limits.
    configs: Vec<AiConfig>,
    /// The pairing whose game player `i`'s AI is built on: the first it plays in.
    home: Vec<usize>,
    /// One referee per pairing (`--adjudicate`).
    referees: Vec<Option<Adjudicator>>,
}

/// Fails early on a bad evaluation, for every pairing's game, and builds the referees.
fn prepare<G: Game>(plan: &Plan<'_, G>) -> Result<Prepared, AiConfigError> {
    let limits = &plan.pairings[0].settings;
    let configs: Vec<AiConfig> = plan
        .configs
        .iter()
        .map(|c| with_limits(c.clone(), limits))
        .collect();
    let mut home: Vec<Option<usize>> = vec![None; configs.len()];
    for (p, (&[a, b], pairing)) in plan.pairs.iter().zip(plan.pairings).enumerate() {
        for x in [a, b] {
            Ai::new(pairing.proto, configs[x].clone())?;
            home[x].get_or_insert(p);
        }
    }
    let mut referees: Vec<Option<Adjudicator>> = vec![];
    for (&pair, pairing) in plan.pairs.iter().zip(plan.pairings) {
        referees.push(match plan.adjudication {
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
    Ok(Prepared {
        configs,
        // A player in no pairing is never asked for (its pairing 0 is a placeholder).
        home: home.into_iter().map(|h| h.unwrap_or(0)).collect(),
        referees,
    })
}

/// Hands out the game indices of a run in increasing order, numbering them by position.
struct Dealer<'a> {
    indices: GameIndices<'a>,
    shard: Option<(u64, u64)>,
    skip: &'a HashSet<u64>,
    bound: u64,
    /// (next index to look at, next position). Indices are handed out lazily: memory and
    /// start-up time do not depend on `-n`.
    next: Mutex<(u64, usize)>,
}

impl Dealer<'_> {
    fn plays(&self, index: u64) -> bool {
        self.indices.locate(index).is_some()
            && in_shard(index, self.shard)
            && !self.skip.contains(&index)
    }

    /// The next game to play: its position and index.
    fn take(&self) -> Option<(usize, u64)> {
        let mut n = self.next.lock().unwrap_or_else(|e| e.into_inner());
        while n.0 < self.bound {
            let i = n.0;
            n.0 += 1;
            if self.plays(i) {
                n.1 += 1;
                return Some((n.1 - 1, i));
            }
        }
        None
    }

    /// The first index to play (`u64::MAX` when none), without taking it.
    fn first(&self) -> u64 {
        (0..self.bound).find(|&i| self.plays(i)).unwrap_or(u64::MAX)
    }
}

/// Finished games waiting for the games before them, and the tally of those counted.
struct Shared<T> {
    /// By position: the pairing and the record (at most about one per thread).
    pending: BTreeMap<usize, (usize, GameRecord)>,
    /// Positions counted so far (consecutive from 0).
    prefix: usize,
    tally: T,
    decided: bool,
}

impl<T: Tally> Shared<T> {
    /// Counts the pending games that continue the prefix, until a gap or a decision.
    fn advance(&mut self, decided: &AtomicBool) {
        while !self.decided {
            let Some(index) = self.pending.get(&self.prefix).map(|(_, r)| r.game_index) else {
                break;
            };
            if self.tally.decided_before(index) {
                self.decided = true;
                decided.store(true, Ordering::Relaxed);
                break;
            }
            let Some((p, rec)) = self.pending.remove(&self.prefix) else {
                break;
            };
            self.prefix += 1;
            if self.tally.count(p, rec) {
                self.decided = true;
                decided.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// Plays the games of `plan` on `plan.threads` workers into `tally`. `on_done` is called
/// from the workers after each game; `stop` ends the run early (games in progress are
/// recorded as interrupted). Fails before any game when an AI cannot play or evaluate a
/// pairing's game.
pub(super) fn run_games<G: Game + Sync, T: Tally>(
    plan: &Plan<'_, G>,
    tally: T,
    stop: &AtomicBool,
    on_done: &(dyn Fn(&GameRecord) + Sync),
) -> Result<(T, RunEnd), AiConfigError> {
    let prepared = prepare(plan)?;
    let dealer = Dealer {
        indices: plan.indices,
        shard: plan.shard,
        skip: plan.skip,
        bound: plan.indices.bound(),
        next: Mutex::new((0, 0)),
    };
    let total = plan.indices.to_play(plan.shard, plan.skip);
    let mut start = Shared {
        pending: BTreeMap::new(),
        prefix: 0,
        tally,
        decided: false,
    };
    // Games counted before the run (an SPRT's history) may decide it already.
    start.decided = start.tally.decided_before(dealer.first());
    let decided = AtomicBool::new(start.decided);
    let shared = Mutex::new(start);
    let worker = Worker {
        plan,
        prepared: &prepared,
        dealer: &dealer,
        shared: &shared,
        stop,
        decided: &decided,
        on_done,
    };
    std::thread::scope(|scope| {
        for _ in 0..plan.threads.max(1) {
            scope.spawn(|| worker.work());
        }
    });
    let mut sh = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    // Every game counted in order: what was counted before the run may decide it now.
    if !sh.decided && sh.prefix as u64 == total && sh.tally.decided_before(u64::MAX) {
        sh.decided = true;
    }
    // Interrupted: the games finished after a gap count too (none after a decision).
    for (_, (p, rec)) in std::mem::take(&mut sh.pending) {
        if sh.decided {
            sh.tally.drop_decided(rec);
        } else {
            sh.tally.count_late(p, rec);
        }
    }
    let end = RunEnd {
        decided: sh.decided,
        total,
    };
    Ok((sh.tally, end))
}

/// What every worker thread shares.
struct Worker<'a, G, T> {
    plan: &'a Plan<'a, G>,
    prepared: &'a Prepared,
    dealer: &'a Dealer<'a>,
    shared: &'a Mutex<Shared<T>>,
    stop: &'a AtomicBool,
    decided: &'a AtomicBool,
    on_done: &'a (dyn Fn(&GameRecord) + Sync),
}

/// A worker's AIs: one per player (a second one for self-play), built when first needed.
struct Seats<G: Game> {
    ais: Vec<Option<Ai<G>>>,
    twins: Vec<Option<Ai<G>>>,
}

impl<G: Game + Sync, T: Tally> Worker<'_, G, T> {
    /// Plays games until none is left, the run is stopped or decided.
    fn work(&self) {
        let players = self.prepared.configs.len();
        let mut seats = Seats {
            ais: (0..players).map(|_| None).collect(),
            twins: (0..players).map(|_| None).collect(),
        };
        let mut buf = G::Moves::default();
        loop {
            if self.stop.load(Ordering::Relaxed) || self.decided.load(Ordering::Relaxed) {
                break;
            }
            let Some((k, index)) = self.dealer.take() else {
                break;
            };
            let (p, game) = self.plan.indices.locate(index).expect("dealt from the run");
            let mut rec = self.play(&mut seats, &mut buf, p, index, game);
            debug_assert_eq!(rec.game_seed, game_seed(self.plan.seed, index));
            rec.identity = self.plan.pairings[p].identity.clone();
            (self.on_done)(&rec);
            let mut sh = self.shared.lock().unwrap_or_else(|e| e.into_inner());
            sh.pending.insert(k, (p, rec));
            sh.advance(self.decided);
        }
    }

    /// Plays game `index` (number `game` of pairing `p`); a panic becomes an error record,
    /// and the AIs and buffer it may have left broken are dropped.
    fn play(
        &self,
        seats: &mut Seats<G>,
        buf: &mut G::Moves,
        p: usize,
        index: u64,
        game: u64,
    ) -> GameRecord {
        let [a, b] = self.plan.pairs[p];
        let pairing = &self.plan.pairings[p];
        let ai_a = seats.ais[a].take().unwrap_or_else(|| self.new_ai(a));
        let slot_b = if a == b {
            &mut seats.twins[b]
        } else {
            &mut seats.ais[b]
        };
        let ai_b = slot_b.take().unwrap_or_else(|| self.new_ai(b));
        let mut pair_ais = [ai_a, ai_b];
        let job = GameJob {
            run_seed: self.plan.seed,
            index,
            opening: game,
            settings: &pairing.settings,
            stop: Some(self.stop),
            book: pairing.book,
            adjudicator: self.prepared.referees[p].as_ref(),
            keep_moves: self.plan.keep_moves,
        };
        let played = std::panic::catch_unwind(AssertUnwindSafe(|| {
            play_job(pairing.proto, &mut pair_ais, buf, &job)
        }));
        match played {
            Ok(r) => {
                let [x, y] = pair_ais;
                seats.ais[a] = Some(x);
                if a == b {
                    seats.twins[b] = Some(y);
                } else {
                    seats.ais[b] = Some(y);
                }
                r
            }
            Err(e) => {
                // The AIs are dropped and built again when next needed.
                *buf = G::Moves::default();
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panicked_record(self.plan.seed, index, &pairing.settings, msg)
            }
        }
    }

    /// Player `x`'s AI, on the game of the first pairing it plays in.
    fn new_ai(&self, x: usize) -> Ai<G> {
        let proto = self.plan.pairings[self.prepared.home[x]].proto;
        Ai::new(proto, self.prepared.configs[x].clone()).expect("checked")
    }
}

//! Round robins and gauntlets: more than two players, every game in one parallel pool.
//!
//! A [`Schedule`] lists the pairings of `n` players, each playing `N` games (colour-swapped
//! pairs as in a two-player run):
//!
//! - **round robin**: every pair `(i, j)`, `i < j`, in order `(0,1), (0,2), …, (1,2), …`;
//! - **gauntlet**: the first player against each of the others, `(0,1), (0,2), …`;
//! - **self-play** adds `(i, i)` before the pairings of `i` (in a gauntlet, `(0, 0)` only).
//!
//! Player A of a pairing `(i, j)` is player `i`. Game `k` of pairing `p` (of `P`) has the
//! game index
//!
//! ```text
//! index = (k / 2) · 2P + 2p + (k mod 2)
//! ```
//!
//! so the games are played block by block: block `m` holds the colour-swapped pair `m` of
//! every pairing. An index is a stable identity of the game: it depends on the pairing and
//! the game's number in it, not on `N`, so a larger `-n` extends a run without moving its
//! games; the game's seed is [`super::game_seed`] of the run seed and the index, as in a
//! two-player run, so the records do not depend on `-j`. `index mod 2 = k mod 2` (who moves
//! first alternates as in a two-player run), and `index / 2 = m·P + p` numbers the
//! colour-swapped pairs of all pairings, so [`super::in_shard`] deals them to shards
//! unchanged. With one pairing the index is `k`: a two-player run is the special case
//! `P = 1`. When `N` is odd the last block has only the even games, and its odd indices are
//! not games of the run.
//!
//! Openings ([`super::openings`]) are chosen by the game's number `k` in its pairing, not
//! by its index: game `k` of every pairing starts from the same opening (book line and
//! random plies), so every pairing plays the same openings.

use super::adjudication::{AdjudicationSpec, Adjudicator};
use super::openings::OpeningBook;
use super::{GameJob, game_seed, in_shard, panicked_record, play_job, with_limits};
use crate::ai::{Ai, AiConfig, AiConfigError, Game};
use crate::record::{GameRecord, RunIdentity, RunSettings};
use crate::stats::Accumulator;
use crate::stats::ratings::PairTally;
use std::collections::{BTreeMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

crate::error::message_error!(
    /// A schedule that cannot be made: too few players, or more games than indices.
    ScheduleError
);

/// The pairings of a round robin or gauntlet and the game indices of their games (see the
/// module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    players: usize,
    gauntlet: bool,
    self_play: bool,
    pairs: Vec<[usize; 2]>,
    games_per_pair: u64,
    /// Colour-swapped pairs per pairing: `ceil(N / 2)`.
    blocks: u64,
}

impl Schedule {
    /// The schedule of `players` players (at least two), `games_per_pair` games per pairing.
    pub fn new(
        players: usize,
        gauntlet: bool,
        self_play: bool,
        games_per_pair: u64,
    ) -> Result<Schedule, ScheduleError> {
        if players < 2 {
            return Err(ScheduleError(format!(
                "a round robin or gauntlet needs two or more players, not {players}"
            )));
        }
        let mut pairs = vec![];
        if gauntlet {
            if self_play {
                pairs.push([0, 0]);
            }
            pairs.extend((1..players).map(|j| [0, j]));
        } else {
            for i in 0..players {
                if self_play {
                    pairs.push([i, i]);
                }
                pairs.extend((i + 1..players).map(|j| [i, j]));
            }
        }
        let blocks = games_per_pair.div_ceil(2);
        let s = Schedule {
            players,
            gauntlet,
            self_play,
            pairs,
            games_per_pair,
            blocks,
        };
        if s.index_bound().is_none() {
            return Err(ScheduleError(format!(
                "{games_per_pair} games for each of {} pairings are more than a run can number",
                s.pairs.len()
            )));
        }
        Ok(s)
    }

    /// The schedule of the tournament a game record belongs to, with `games_per_pair`
    /// games per pairing.
    pub fn of(
        t: &crate::record::Tournament,
        games_per_pair: u64,
    ) -> Result<Schedule, ScheduleError> {
        Schedule::new(t.players.len(), t.gauntlet, t.self_play, games_per_pair)
    }

    pub fn players(&self) -> usize {
        self.players
    }

    pub fn gauntlet(&self) -> bool {
        self.gauntlet
    }

    pub fn self_play(&self) -> bool {
        self.self_play
    }

    /// The pairings `[A, B]` (indices of players), in schedule order.
    pub fn pairs(&self) -> &[[usize; 2]] {
        &self.pairs
    }

    pub fn games_per_pair(&self) -> u64 {
        self.games_per_pair
    }

    /// Games in the whole run: games per pairing times pairings.
    pub fn total_games(&self) -> u64 {
        self.games_per_pair * self.pairs.len() as u64
    }

    /// One more than the largest game index (checked in [`Schedule::new`]).
    fn index_bound(&self) -> Option<u64> {
        self.blocks
            .checked_mul(2 * self.pairs.len() as u64)
            .filter(|&b| b.checked_add(1).is_some())
    }

    /// The index of game `game` (counted from 0) of pairing `pair`.
    pub fn index(&self, pair: usize, game: u64) -> u64 {
        (game / 2) * 2 * self.pairs.len() as u64 + 2 * pair as u64 + game % 2
    }

    /// The pairing and the game number of a game index; `None` when the index is not a
    /// game of the run.
    pub fn locate(&self, index: u64) -> Option<(usize, u64)> {
        let (pair, game) = self.split(index);
        (game < self.games_per_pair).then_some((pair, game))
    }

    /// The pairing and the game number that a game index stands for in a run of any
    /// length: [`Schedule::locate`] without the bound of the games per pairing.
    pub fn split(&self, index: u64) -> (usize, u64) {
        let width = 2 * self.pairs.len() as u64;
        let (block, r) = (index / width, index % width);
        ((r / 2) as usize, 2 * block + r % 2)
    }

    /// Every game index of the run, in increasing order.
    pub fn indices(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.index_bound().unwrap_or(0)).filter(|&i| self.locate(i).is_some())
    }

    /// How many games of the run a run of shard `shard` plays, less those in `skip`,
    /// computed without enumerating the indices.
    pub fn games_to_play(&self, shard: Option<(u64, u64)>, skip: &HashSet<u64>) -> u64 {
        let pairs = self.pairs.len() as u64;
        let in_run = match shard {
            None => self.total_games(),
            Some((k, n)) => {
                // Colour-swapped pair `c = index / 2` goes to shard `c mod n + 1`; it has
                // two games, one in the last block when N is odd.
                let r = k - 1;
                let below = |c: u64| c / n + u64::from(c % n > r);
                let all = below(self.blocks * pairs);
                let halves = if self.games_per_pair % 2 == 1 {
                    all - below((self.blocks - 1) * pairs)
                } else {
                    0
                };
                2 * all - halves
            }
        };
        let skipped = skip
            .iter()
            .filter(|&&i| self.locate(i).is_some() && in_shard(i, shard))
            .count() as u64;
        in_run - skipped
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_in_order() {
        let rr = Schedule::new(4, false, false, 10).unwrap();
        assert_eq!(
            rr.pairs(),
            &[[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        assert_eq!(rr.total_games(), 60);
        let g = Schedule::new(4, true, false, 10).unwrap();
        assert_eq!(g.pairs(), &[[0, 1], [0, 2], [0, 3]]);
        let rs = Schedule::new(3, false, true, 10).unwrap();
        assert_eq!(
            rs.pairs(),
            &[[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [2, 2]]
        );
        let gs = Schedule::new(3, true, true, 10).unwrap();
        assert_eq!(gs.pairs(), &[[0, 0], [0, 1], [0, 2]]);
        assert!(Schedule::new(1, false, true, 10).is_err());
        assert!(Schedule::new(3, false, false, u64::MAX).is_err());
    }

    #[test]
    fn indices_number_every_game_once_and_do_not_move_when_n_grows() {
        for players in 2..6 {
            for (gauntlet, self_play) in [(false, false), (true, false), (false, true)] {
                for n in 1..9u64 {
                    let s = Schedule::new(players, gauntlet, self_play, n).unwrap();
                    let mut seen = HashSet::new();
                    for p in 0..s.pairs().len() {
                        for k in 0..n {
                            let i = s.index(p, k);
                            assert_eq!(s.locate(i), Some((p, k)));
                            assert!(seen.insert(i));
                            // Who moves first alternates; pairs stay together.
                            assert_eq!(i % 2, k % 2);
                            assert_eq!(i / 2, s.index(p, k - k % 2) / 2);
                            // The same game keeps its index in a longer run.
                            let longer =
                                Schedule::new(players, gauntlet, self_play, n + 3).unwrap();
                            assert_eq!(longer.index(p, k), i);
                        }
                    }
                    let listed: HashSet<u64> = s.indices().collect();
                    assert_eq!(listed, seen);
                    assert_eq!(s.total_games(), seen.len() as u64);
                }
            }
        }
        // One pairing: the index is the game number, as in a two-player run.
        let one = Schedule::new(2, false, false, 7).unwrap();
        assert_eq!(
            one.indices().collect::<Vec<_>>(),
            (0..7).collect::<Vec<_>>()
        );
        // Block by block: the first colour-swapped pair of every pairing, then the second.
        let s = Schedule::new(3, false, false, 4).unwrap();
        let order: Vec<(usize, u64)> = s.indices().map(|i| s.locate(i).unwrap()).collect();
        assert_eq!(
            order,
            [
                (0, 0),
                (0, 1),
                (1, 0),
                (1, 1),
                (2, 0),
                (2, 1),
                (0, 2),
                (0, 3),
                (1, 2),
                (1, 3),
                (2, 2),
                (2, 3)
            ]
        );
    }

    #[test]
    fn games_to_play_counts_without_enumerating() {
        for players in 2..6 {
            for self_play in [false, true] {
                for n in 1..12u64 {
                    let s = Schedule::new(players, false, self_play, n).unwrap();
                    for shard in [
                        None,
                        Some((1, 1)),
                        Some((1, 2)),
                        Some((2, 2)),
                        Some((2, 3)),
                        Some((3, 3)),
                        Some((4, 7)),
                    ] {
                        let skip: HashSet<u64> = [0, 3, 5, 8, 9, 1000].into_iter().collect();
                        let enumerated = s
                            .indices()
                            .filter(|&i| in_shard(i, shard) && !skip.contains(&i))
                            .count() as u64;
                        assert_eq!(
                            s.games_to_play(shard, &skip),
                            enumerated,
                            "{players} players, -n {n}, {shard:?}"
                        );
                    }
                }
            }
        }
    }
}

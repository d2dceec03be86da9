//! The tournament runner: AutoPlay matches between two AIs, in parallel and reproducible.
//!
//! Game `i` of a run seeded with `seed` draws every random choice (dice, random players,
//! AI tie-breaks) from `Rng::new(game_seed)` where `game_seed =
//! Rng::derive(seed, i).next_u64()`, so a game's record does not depend on the number of
//! threads or on which thread played it. Workers take game indices in increasing order from
//! a shared counter, so that an early stop (SPRT decided, Ctrl-C) leaves an almost
//! complete prefix; an SPRT decision is taken on the first `n` games in index order only,
//! and later games are dropped, so that it is the same for any thread count.
//!
//! Seats (non-random players in turn order) are given to the two players A and B: with
//! `swap`, game `i` gives seat `k` to `(k + i) mod 2` (A first in even games, B first in
//! odd ones: colour-swapped pairs); without it, seat `k` goes to `k mod 2` (Axiom's
//! AutoPlay: A always first). With three or more seats the players alternate over them.
//!
//! A game stops when the rules end it (a goal, threefold repetition, no move), when
//! `max_plies` plies were played (a draw; `unfinished` in a one-seat game), on an error
//! (runaway rule, panic: recorded, and the run goes on), or when the stop flag is set (the
//! game is recorded as `interrupted`). Each record says which (`end`). A one-seat game is
//! solved, failed, drawn or unfinished, with no score (see `finish_record`); with three
//! or more seats every seat gets a place.
//!
//! Before its first move a game may be given an opening (a book line and random plies,
//! [`openings`]); while it runs, a referee may end it early ([`adjudication`]).
//!
//! Sub-modules: [`openings`], [`adjudication`], [`round_robin`] (more than two players:
//! round robins and gauntlets), and `runner`, which plays the games of both (threads,
//! panics, the order in which finished games are counted); game records are in
//! [`crate::record`], and the players it is given (game names and AI specs of the command
//! line) in [`crate::players`].

/// Game records live below both the tournament runner and the statistics
/// ([`crate::record`]); re-exported here, where they were first.
pub use crate::record;
pub mod adjudication;
pub mod openings;
pub mod round_robin;
mod runner;
#[cfg(test)]
mod runner_tests;

use crate::ai::{Ai, AiConfig, AiKind, Game};
use crate::rng::Rng;
use crate::stats::sprt::{Sprt, SprtState};
use adjudication::{AdjudicationSpec, Adjudicator, Verdict};
use openings::OpeningBook;
use record::{GameRecord, GameResult, RECORD_SCHEMA_VERSION, RunSettings, SeatRecord};
use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub use record::DEFAULT_MAX_PLIES;

/// Everything a run needs besides the game and the players.
///
/// Fields will grow: build one with [`RunConfig::new`] and set the fields to change.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RunConfig {
    pub seed: u64,
    pub settings: RunSettings,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Only games of shard `k` of `n` (1-based `k`): pairs `2j, 2j+1` with `j mod n = k-1`.
    pub shard: Option<(u64, u64)>,
    /// Game indices already played (resume): skipped.
    pub skip: HashSet<u64>,
    pub sprt: Option<Sprt>,
    /// With `sprt`: the games already played (`--resume`), as game index and A's score
    /// (`None` for an error). The test counts them in index order among the new games, so
    /// that a resumed run decides as the run played in one piece; those past the decision
    /// are listed in [`RunOutcome::dropped`].
    pub sprt_history: Vec<(u64, Option<f64>)>,
    /// Copied into every record (see [`record::RunIdentity`]).
    pub identity: Option<record::RunIdentity>,
    /// Keep no records in [`RunOutcome::records`], only [`RunOutcome::summary`]: the caller
    /// streams them in `on_done`, and memory does not grow with the number of games.
    pub summary_only: bool,
    /// Write each ply's move in the records (`GameRecord::moves`); without, the records
    /// count the plies all the same, and no move's notation is made (for a run whose
    /// records no one reads move by move: making them took 2% of the instructions of
    /// random Ur games).
    pub keep_moves: bool,
    /// Adjudication rules (`--adjudicate`), judged with the evaluation of player
    /// `spec.eval`'s configuration.
    pub adjudication: Option<AdjudicationSpec>,
}

impl RunConfig {
    /// A run of `settings` from the run seed `seed` on one thread: every game (no shard,
    /// nothing to skip), no SPRT, no run identity in the records, records kept.
    pub fn new(seed: u64, settings: RunSettings) -> RunConfig {
        RunConfig {
            seed,
            settings,
            threads: 1,
            shard: None,
            skip: HashSet::new(),
            sprt: None,
            sprt_history: Vec::new(),
            identity: None,
            summary_only: false,
            keep_moves: true,
            adjudication: None,
        }
    }
}

pub use crate::record::schedule::{games_to_play, in_shard};

/// The game seed of game `index`.
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    Rng::derive(run_seed, index).next_u64()
}

/// What a run produced.
#[non_exhaustive]
#[derive(Debug)]
pub struct RunOutcome {
    /// Records of the games played in this run, by index (empty with
    /// [`RunConfig::summary_only`]).
    pub records: Vec<GameRecord>,
    /// The statistics of the same games, accumulated in index order.
    pub summary: crate::stats::Accumulator,
    /// Game indices that finished but are not kept (played past an SPRT decision),
    /// including games of [`RunConfig::sprt_history`] past the decision.
    pub dropped: Vec<u64>,
    /// The run was interrupted (stop flag) before all its games were played.
    pub interrupted: bool,
    /// The SPRT state over the games kept (when `--sprt`).
    pub sprt: Option<SprtState>,
}

/// Which player (0 = A, 1 = B) holds seat `k` in game `index`.
pub fn player_of_seat(k: usize, index: u64, swap: bool) -> usize {
    if swap {
        (k + (index % 2) as usize) % 2
    } else {
        k % 2
    }
}

/// Plays one game. `ais[p]` is player p's AI (reused between games: its state does not
/// carry over). When `stop` is set during the game, the game is abandoned within a move
/// (searches return early) and recorded as [`GameResult::Interrupted`].
pub fn play_game<G: Game>(
    proto: &G,
    ais: &mut [Ai<G>; 2],
    run_seed: u64,
    index: u64,
    settings: &RunSettings,
    buf: &mut G::Moves,
    stop: Option<&AtomicBool>,
) -> GameRecord {
    let job = GameJob {
        run_seed,
        index,
        opening: index,
        settings,
        stop,
        book: &OpeningBook::default(),
        adjudicator: None,
        keep_moves: true,
    };
    play_job(proto, ais, buf, &job)
}

/// One game to play: its identity, the run's settings, and what shapes it besides the
/// players (its opening and its adjudicator).
struct GameJob<'a, G> {
    run_seed: u64,
    index: u64,
    /// The index whose colour-swapped pair picks the opening: the game index, or in a
    /// round robin the game's number in its pairing (every pairing plays the same
    /// openings).
    opening: u64,
    settings: &'a RunSettings,
    stop: Option<&'a AtomicBool>,
    book: &'a OpeningBook<G>,
    adjudicator: Option<&'a Adjudicator>,
    /// [`RunConfig::keep_moves`].
    keep_moves: bool,
}

/// [`play_game`] with an opening book and an adjudicator.
fn play_job<G: Game>(
    proto: &G,
    ais: &mut [Ai<G>; 2],
    buf: &mut G::Moves,
    job: &GameJob<'_, G>,
) -> GameRecord {
    let (run_seed, index, settings) = (job.run_seed, job.index, job.settings);
    let start = Instant::now();
    let seed = game_seed(run_seed, index);
    let mut rng = Rng::new(seed);
    let opened = job.book.start(proto, run_seed, job.opening, buf);
    let mut g = opened.game;
    g.seed_game(seed);
    let seats = g.seats();
    let mut watch = job.adjudicator.map(|a| a.watch());
    let holder: Vec<Option<usize>> = (0..g.num_players())
        .map(|p| {
            seats
                .iter()
                .position(|&s| s == p)
                .map(|k| player_of_seat(k, index, settings.swap))
        })
        .collect();
    let mut plies = opened.moves.len() as u32;
    let mut moves = if job.keep_moves {
        opened.moves
    } else {
        Vec::new()
    };
    let mut tally = MoveTally::default();
    let end = loop {
        if job.stopped() {
            break Ended::Interrupted;
        }
        g.legal_moves(buf);
        if let Some(e) = g.take_error() {
            break Ended::Error(e);
        }
        if let Some(o) = g.outcome(buf) {
            break Ended::Rules(o);
        }
        if G::num_moves(buf) == 0 {
            break Ended::Error("no legal move and no result".to_owned());
        }
        if let Some(e) = refereed(job, &g, &seats, plies, watch.as_mut()) {
            break e;
        }
        let mover = g.current_player();
        let i = match holder.get(mover).copied().flatten() {
            Some(p) if !g.is_random(mover) => {
                match choose(&mut g, &mut ais[p], p, buf, &mut rng, job, &mut tally) {
                    Ok(i) => i,
                    Err(e) => break e,
                }
            }
            _ => rng.below(G::num_moves(buf)),
        };
        if job.keep_moves {
            moves.push(g.notation(buf, i));
        }
        plies += 1;
        g.play(buf, i);
        if let Some(e) = g.take_error() {
            break Ended::Error(e);
        }
    };
    let played = Played {
        seats: &seats,
        holder: &holder,
        moves,
        plies,
        tally,
    };
    let mut rec = finish_record(&g, end, played);
    rec.opening = opened.record;
    rec.run_seed = run_seed;
    rec.game_index = index;
    rec.game_seed = seed;
    rec.settings = settings.clone();
    rec.time_ms = Some(start.elapsed().as_secs_f64() * 1000.0);
    rec
}

impl<G> GameJob<'_, G> {
    /// The run's stop flag is set.
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// How the referee ends the game before the next move (`--adjudicate`), or the ply cap.
fn refereed<G: Game>(
    job: &GameJob<'_, G>,
    g: &G,
    seats: &[usize],
    plies: u32,
    watch: Option<&mut adjudication::Watch>,
) -> Option<Ended> {
    if let (Some(adj), Some(w)) = (job.adjudicator, watch) {
        match adj.judge(g, seats, plies, w) {
            Verdict::Continue => {}
            Verdict::Win(p) => {
                return Some(Ended::Adjudicated(crate::ai::Outcome::win(
                    g.num_players(),
                    p,
                )));
            }
            Verdict::Draw => {
                return Some(Ended::Adjudicated(crate::ai::Outcome::draw(
                    g.num_players(),
                    seats,
                    crate::ai::Ending::Goal,
                )));
            }
        }
    }
    if plies >= job.settings.max_plies {
        if let Some(p) = job.adjudicator.and_then(|a| a.at_cap(g, seats)) {
            return Some(Ended::Adjudicated(crate::ai::Outcome::win(
                g.num_players(),
                p,
            )));
        }
        return Some(Ended::PlyCap);
    }
    None
}

/// The move of player `p` (0 = A, 1 = B) among the legal moves in `buf` (one or more): its own
/// program's (an Axiom program; with one move it is not asked, as in Axiom) or its AI's.
/// Counts its nodes, captures and cut searches in `tally`; `Err` ends the game.
fn choose<G: Game>(
    g: &mut G,
    ai: &mut Ai<G>,
    p: usize,
    buf: &mut G::Moves,
    rng: &mut Rng,
    job: &GameJob<'_, G>,
    tally: &mut MoveTally,
) -> Result<usize, Ended> {
    if ai.config.kind == AiKind::Program {
        let i = if G::num_moves(buf) == 1 {
            0
        } else {
            let cuts = g.search_cuts(p);
            let i = g.program_move(p, buf, rng).unwrap_or(0);
            if g.search_cuts(p) > cuts {
                tally.search_cuts[p] += 1;
            }
            i
        };
        if let Some(e) = g.take_error() {
            return Err(Ended::Error(e));
        }
        tally.nodes[p] += 1;
        tally.captures[p] += G::captures(buf, i);
        return Ok(i);
    }
    let c = ai.choose_until(g, buf, rng, job.stop);
    if job.stopped() {
        return Err(Ended::Interrupted);
    }
    tally.nodes[p] += c.nodes;
    tally.captures[p] += G::captures(buf, c.index);
    Ok(c.index)
}

/// Per player (0 = A, 1 = B): what its moves took and searched.
#[derive(Default)]
struct MoveTally {
    captures: [u32; 2],
    nodes: [u64; 2],
    search_cuts: [u32; 2],
}

/// How a game loop stopped.
enum Ended {
    Rules(crate::ai::Outcome),
    /// Ended by the referee (`--adjudicate`).
    Adjudicated(crate::ai::Outcome),
    PlyCap,
    Error(String),
    Interrupted,
}

/// What was played, for the record.
struct Played<'a> {
    seats: &'a [usize],
    holder: &'a [Option<usize>],
    /// Empty unless [`GameJob::keep_moves`].
    moves: Vec<String>,
    plies: u32,
    tally: MoveTally,
}

/// The place of each of `points` among them (1 = most; equal points share a place).
fn ranks(points: &[f64]) -> Vec<u32> {
    points
        .iter()
        .map(|&p| 1 + points.iter().filter(|&&q| q > p + 1e-9).count() as u32)
        .collect()
}

fn seat_outcome(r: crate::ai::PlayerResult) -> record::SeatOutcome {
    match r {
        crate::ai::PlayerResult::Win => record::SeatOutcome::Win,
        crate::ai::PlayerResult::Loss => record::SeatOutcome::Loss,
        crate::ai::PlayerResult::Draw => record::SeatOutcome::Draw,
    }
}

/// The record of a played game (identity fields are filled by the caller).
///
/// With two or more seats, A's score is A's share of the seats' points: a game is a win
/// for the player whose seats took all the points. With one seat (a solitaire, or one AI
/// against random players) the game is `solved` (the seat won), `failed` (it lost, had no
/// move or repeated a position), `draw` (a draw goal) or `unfinished` (the ply cap), and has
/// no score. See docs/autoplay.md.
fn finish_record<G: Game>(g: &G, end: Ended, p: Played<'_>) -> GameRecord {
    use record::{GameEnd, SeatOutcome};
    let name = |x: usize| if x == 0 { "A" } else { "B" }.to_owned();
    let n_players = g.num_players();
    let one_seat = p.seats.len() == 1;
    // Per-player results and points (None: no result).
    let (results, points, game_end) = match &end {
        Ended::Rules(o) => {
            let r: Vec<SeatOutcome> = o.results.iter().map(|&r| seat_outcome(r)).collect();
            let e = match o.ending {
                crate::ai::Ending::Goal => GameEnd::Goal,
                crate::ai::Ending::Repetition => GameEnd::Repetition,
                crate::ai::Ending::NoMoves => GameEnd::NoMoves,
            };
            (Some(r), Some(o.points.clone()), e)
        }
        Ended::Adjudicated(o) => (
            Some(o.results.iter().map(|&r| seat_outcome(r)).collect()),
            Some(o.points.clone()),
            GameEnd::Adjudicated,
        ),
        Ended::PlyCap => (
            Some(vec![SeatOutcome::Draw; n_players]),
            Some(crate::ai::Outcome::draw_points(n_players, p.seats)),
            GameEnd::PlyCap,
        ),
        Ended::Error(_) => (None, None, GameEnd::Error),
        Ended::Interrupted => (None, None, GameEnd::Interrupted),
    };
    let seat_points: Vec<f64> = p
        .seats
        .iter()
        .map(|&s| points.as_ref().map_or(0.0, |v| v[s]))
        .collect();
    let seat_ranks = ranks(&seat_points);
    let seat_records: Vec<SeatRecord> = p
        .seats
        .iter()
        .enumerate()
        .map(|(k, &s)| SeatRecord {
            seat: g.player_name(s).to_owned(),
            player: name(p.holder[s].unwrap_or(0)),
            points: points.as_ref().map(|v| v[s]),
            result: results.as_ref().map(|r| r[s]),
            rank: (points.is_some() && p.seats.len() >= 3).then(|| seat_ranks[k]),
        })
        .collect();
    let (result, winner, score_a) = match (&end, &points) {
        (Ended::Interrupted, _) => (GameResult::Interrupted, None, None),
        (Ended::Error(_), _) | (_, None) => (GameResult::Error, None, None),
        (_, Some(_)) if one_seat => {
            let r = results.as_ref().map(|r| r[p.seats[0]]);
            let res = match (&end, r) {
                (Ended::PlyCap, _) => GameResult::Unfinished,
                (_, Some(SeatOutcome::Win)) => GameResult::Solved,
                (Ended::Rules(o), Some(SeatOutcome::Draw))
                    if o.ending == crate::ai::Ending::Goal =>
                {
                    GameResult::Draw
                }
                _ => GameResult::Failed,
            };
            (res, None, None)
        }
        (_, Some(pts)) => {
            let mut per = [0.0f64; 2];
            for &s in p.seats {
                per[p.holder[s].unwrap_or(0)] += pts[s];
            }
            let total = per[0] + per[1];
            let score_a = if total > 0.0 { per[0] / total } else { 0.5 };
            if score_a == 1.0 {
                (GameResult::Win, Some(name(0)), Some(1.0))
            } else if score_a == 0.0 {
                (GameResult::Win, Some(name(1)), Some(0.0))
            } else {
                (GameResult::Draw, None, Some(score_a))
            }
        }
    };
    let error = match end {
        Ended::Error(e) => Some(e),
        _ => None,
    };
    GameRecord {
        schema_version: RECORD_SCHEMA_VERSION,
        run_seed: 0,
        game_index: 0,
        game_seed: 0,
        settings: RunSettings::default(),
        seats: seat_records,
        result,
        winner,
        score_a,
        adjudicated: game_end == GameEnd::PlyCap,
        end: Some(game_end),
        plies: p.plies,
        moves: p.moves,
        captures: p.tally.captures,
        search_cuts: p.tally.search_cuts,
        nodes: p.tally.nodes,
        time_ms: None,
        error,
        identity: None,
        opening: None,
    }
}

/// The record of a game that panicked.
fn panicked_record(run_seed: u64, index: u64, settings: &RunSettings, msg: String) -> GameRecord {
    GameRecord {
        schema_version: RECORD_SCHEMA_VERSION,
        run_seed,
        game_index: index,
        game_seed: game_seed(run_seed, index),
        settings: settings.clone(),
        seats: vec![],
        result: GameResult::Error,
        winner: None,
        score_a: None,
        adjudicated: false,
        end: Some(record::GameEnd::Error),
        plies: 0,
        moves: vec![],
        captures: [0; 2],
        nodes: [0; 2],
        search_cuts: [0; 2],
        time_ms: None,
        error: Some(format!("internal error (panic): {msg}")),
        identity: None,
        opening: None,
    }
}

/// Applies command-line per-move limits over a variant's own.
pub fn with_limits(mut c: AiConfig, s: &RunSettings) -> AiConfig {
    if s.nodes.is_some() {
        c.limits.nodes = s.nodes;
    }
    if s.depth.is_some() {
        c.limits.depth = s.depth;
    }
    if s.time_ms.is_some() {
        c.limits.time_ms = s.time_ms;
    }
    c
}

/// Runs the match. `on_done` is called (from worker threads) after each game; `stop` ends
/// the run early (games in progress finish). See the module documentation.
pub fn run<G: Game + Sync>(
    proto: &G,
    configs: [&AiConfig; 2],
    cfg: &RunConfig,
    stop: &AtomicBool,
    on_done: &(dyn Fn(&GameRecord) + Sync),
) -> Result<RunOutcome, crate::ai::AiConfigError> {
    run_with(proto, configs, cfg, &OpeningBook::default(), stop, on_done)
}

/// [`run`] with openings: every game starts as `book` says (see [`openings`]). Fails
/// when a configuration cannot evaluate the game, or when `cfg.adjudication` is set for a
/// game without exactly two seats.
///
/// The match is a run of one pairing, `[A, B]`, played by the `runner` module.
pub fn run_with<G: Game + Sync>(
    proto: &G,
    configs: [&AiConfig; 2],
    cfg: &RunConfig,
    book: &OpeningBook<G>,
    stop: &AtomicBool,
    on_done: &(dyn Fn(&GameRecord) + Sync),
) -> Result<RunOutcome, crate::ai::AiConfigError> {
    let pairing = runner::Pairing {
        proto,
        book,
        settings: cfg.settings.clone(),
        identity: cfg.identity.clone(),
    };
    let configs = [configs[0].clone(), configs[1].clone()];
    let plan = runner::Plan {
        seed: cfg.seed,
        threads: cfg.threads,
        indices: runner::GameIndices::Match {
            games: cfg.settings.games,
        },
        shard: cfg.shard,
        skip: &cfg.skip,
        pairs: &[[0, 1]],
        pairings: std::slice::from_ref(&pairing),
        configs: &configs,
        adjudication: cfg.adjudication,
        keep_moves: cfg.keep_moves,
    };
    let (mut tally, end) = runner::run_games(&plan, MatchTally::new(cfg), stop, on_done)?;
    // Earlier games past a decision are dropped, as the run in one piece never played them.
    if end.decided {
        tally.dropped.extend(tally.history.drain(..).map(|h| h.0));
    }
    tally.dropped.sort_unstable();
    let interrupted = !end.decided && tally.summary.games() < end.total;
    Ok(RunOutcome {
        records: tally.kept,
        summary: tally.summary,
        dropped: tally.dropped,
        interrupted,
        sprt: tally.sprt,
    })
}

/// A match's finished games: kept in position order, counted by the SPRT, which may
/// decide the match (see [`RunConfig::sprt_history`]).
struct MatchTally {
    /// Games kept, in position order (unless `summary_only`).
    kept: Vec<GameRecord>,
    summary: crate::stats::Accumulator,
    summary_only: bool,
    sprt: Option<SprtState>,
    /// Games already played (resume) not yet counted by the SPRT, by index.
    history: VecDeque<(u64, Option<f64>)>,
    /// Games finished past a decision.
    dropped: Vec<u64>,
}

impl MatchTally {
    fn new(cfg: &RunConfig) -> MatchTally {
        let mut history: Vec<(u64, Option<f64>)> = match cfg.sprt {
            Some(_) => cfg.sprt_history.clone(),
            None => Vec::new(),
        };
        history.sort_by_key(|h| h.0);
        MatchTally {
            kept: Vec::new(),
            summary: Default::default(),
            summary_only: cfg.summary_only,
            sprt: cfg.sprt.map(|t| {
                if cfg.settings.swap {
                    SprtState::paired(t)
                } else {
                    SprtState::new(t)
                }
            }),
            history: history.into(),
            dropped: Vec::new(),
        }
    }

    /// Counts a kept game, and keeps its record unless `summary_only`.
    fn keep(&mut self, rec: GameRecord) {
        self.summary.add(&rec);
        if !self.summary_only {
            self.kept.push(rec);
        }
    }
}

impl runner::Tally for MatchTally {
    /// Counts the earlier games with an index below `next`; true when the test decided.
    fn decided_before(&mut self, next: u64) -> bool {
        let Some(st) = self.sprt.as_mut() else {
            return false;
        };
        while self.history.front().is_some_and(|h| h.0 < next) {
            if let Some((i, x)) = self.history.pop_front() {
                st.add(i, x);
                if st.decision().is_some() {
                    return true;
                }
            }
        }
        false
    }

    fn count(&mut self, _pairing: usize, rec: GameRecord) -> bool {
        let (index, score) = (rec.game_index, rec.score_a);
        self.keep(rec);
        match self.sprt.as_mut() {
            Some(st) => {
                st.add(index, score);
                st.decision().is_some()
            }
            None => false,
        }
    }

    fn count_late(&mut self, _pairing: usize, rec: GameRecord) {
        self.keep(rec);
    }

    fn drop_decided(&mut self, rec: GameRecord) {
        self.dropped.push(rec.game_index);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_to_play_counts_without_enumerating() {
        for games in 0..40u64 {
            for shard in [
                None,
                Some((1, 1)),
                Some((1, 3)),
                Some((2, 3)),
                Some((3, 3)),
                Some((4, 5)),
            ] {
                let skip: HashSet<u64> = [0, 3, 7, 100].into_iter().collect();
                let enumerated = (0..games)
                    .filter(|&i| in_shard(i, shard) && !skip.contains(&i))
                    .count() as u64;
                assert_eq!(
                    games_to_play(games, shard, &skip),
                    enumerated,
                    "{games} {shard:?}"
                );
            }
        }
        assert_eq!(games_to_play(u64::MAX, None, &HashSet::new()), u64::MAX);
    }
}

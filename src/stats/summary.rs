//! The summary of one match: the [`Summary`] and the values it holds, and the
//! [`Accumulator`] that builds it game by game (grouping records by match, length histograms).

use super::interval::{Z95, elo};
use super::{EloDiff, Score, draws, openings};
use crate::record::{GameEnd, GameRecord, GameResult};
use serde::Serialize;
use std::collections::BTreeMap;

/// Version of the summary JSON shape (`--json`, `dagaz stats --format json`). Version 3
/// added the draw-aware fields `trinomial`, `pentanomial`, `first_player_trinomial` and
/// `plies_stdev`, and `openings` and `ends.referee_wins`/`referee_draws`.
pub const SUMMARY_SCHEMA_VERSION: u32 = 3;

/// Results of one seat (e.g. White) over a match.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatSummary {
    pub seat: String,
    pub position: usize,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Score of whoever held the seat.
    pub score: Score,
}

/// One bucket of the game-length histogram: plies in `from..to`.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bucket {
    pub from: u32,
    pub to: u32,
    pub games: u64,
}

/// How the finished games of a match ended.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Ends {
    /// By a goal of the rules.
    pub goal: u64,
    /// Drawn by threefold repetition.
    pub repetition: u64,
    /// The player to move had no move and no goal applied (a draw).
    pub no_moves: u64,
    /// Stopped at the ply cap.
    pub ply_cap: u64,
    /// Records of version 1, which do not say (ply-cap stops are counted above).
    pub unrecorded: u64,
    /// Won by the referee's adjudication (`--adjudicate win=…`: a side resigned).
    pub referee_wins: u64,
    /// Drawn by the referee's adjudication (`--adjudicate draw=…`).
    pub referee_draws: u64,
}

/// One player's results in a one-seat game (a solitaire, or one AI against random
/// players): each game is solved, failed, drawn (a draw goal) or unfinished (ply cap).
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SoloSummary {
    /// `A` or `B`.
    pub player: String,
    /// The seat's name in the rules (`You`).
    pub seat: String,
    /// Finished games this player played.
    pub games: u64,
    pub solved: u64,
    /// Failed by a loss goal.
    pub lost: u64,
    /// Failed with no move left.
    pub stuck: u64,
    /// Failed by threefold repetition.
    pub repeated: u64,
    /// Ended by a draw goal.
    pub drawn: u64,
    /// Stopped at the ply cap.
    pub unfinished: u64,
    /// Solved games over games, with Wilson's 95% interval.
    pub solve_rate: Score,
    /// Mean plies of the solved games (null when none was solved).
    pub mean_plies_solved: Option<f64>,
}

/// The summary of one match (one pair of players and one run seed).
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub schema_version: u32,
    pub run_seed: u64,
    pub players: [String; 2],
    pub titles: [String; 2],
    pub swap: bool,
    /// The run was played with `--repetition off`.
    pub repetition_off: bool,
    /// Records read (errors included, interrupted games not).
    pub games: u64,
    pub errors: u64,
    /// Games stopped by an interruption (not results; `--resume` plays them again).
    pub interrupted: u64,
    /// Seats (AI-played players) of the game: 1 for a one-seat game.
    pub seat_count: usize,
    pub wins_a: u64,
    pub wins_b: u64,
    pub draws: u64,
    /// Draws adjudicated at the ply cap.
    pub adjudicated: u64,
    /// A's score over finished games.
    pub score_a: Score,
    pub elo: EloDiff,
    pub draw_rate: f64,
    pub mean_plies: f64,
    /// Score of the player in the first seat, whoever it was.
    pub first_player: Score,
    pub seats: Vec<SeatSummary>,
    pub lengths: Vec<Bucket>,
    /// How the finished games ended.
    pub ends: Ends,
    /// One-seat games: each player's results (the players who played).
    pub solo: Vec<SoloSummary>,
    /// Games with three or more seats: `ranks[p][r]` counts the seats player `p` (A, B)
    /// held that finished in place `r + 1`.
    pub ranks: Option<[Vec<u64>; 2]>,
    /// A's score per game with its draw-aware (trinomial) interval.
    pub trinomial: draws::Trinomial,
    /// A's score per colour-swapped pair (pentanomial), when the run swaps colours and
    /// has two or more seats.
    pub pentanomial: Option<draws::Pentanomial>,
    /// The first player's score per game with its draw-aware interval.
    pub first_player_trinomial: draws::Estimate,
    /// Standard deviation of the game length (plies), over finished games.
    pub plies_stdev: f64,
    /// A's results per opening of the book (`--openings`), in book order; empty without.
    pub openings: Vec<openings::OpeningSummary>,
    /// Moves of A and of B, over finished games, whose Axiom engine ran out of its step
    /// budget (`--search-steps`) and played what it had found by then.
    pub search_cuts: [u64; 2],
}

impl Summary {
    /// The estimate gates judge A's score on: the pentanomial one when the run has
    /// complete colour-swapped pairs, else the trinomial one; with its name.
    pub fn gate_estimate(&self) -> (&'static str, &draws::Estimate) {
        match &self.pentanomial {
            Some(p) if p.pairs > 0 => ("pentanomial", &p.estimate),
            _ => ("trinomial", &self.trinomial.estimate),
        }
    }
}

/// Groups records by match (run seed and players), in order of first appearance.
pub fn group_by_match(records: &[GameRecord]) -> Vec<Vec<&GameRecord>> {
    let mut keys: Vec<(u64, [String; 2])> = vec![];
    let mut groups: Vec<Vec<&GameRecord>> = vec![];
    for r in records {
        let k = (r.run_seed, r.settings.players.clone());
        match keys.iter().position(|x| *x == k) {
            Some(i) => groups[i].push(r),
            None => {
                keys.push(k);
                groups.push(vec![r]);
            }
        }
    }
    groups
}

/// Histogram of game lengths with about ten buckets of a round width.
pub fn length_histogram(plies: &[u32]) -> Vec<Bucket> {
    let mut counts: BTreeMap<u32, u64> = BTreeMap::new();
    for &p in plies {
        *counts.entry(p).or_default() += 1;
    }
    histogram_of_counts(&counts)
}

/// [`length_histogram`] from how many games had each length.
fn histogram_of_counts(lengths: &BTreeMap<u32, u64>) -> Vec<Bucket> {
    let Some((&max, _)) = lengths.last_key_value() else {
        return vec![];
    };
    let raw = (max / 10).max(1);
    let mag = 10u32.pow(raw.ilog10());
    let width = [1, 2, 5, 10]
        .iter()
        .map(|m| m * mag)
        .find(|&w| w >= raw)
        .unwrap_or(10 * mag);
    let mut counts: BTreeMap<u32, u64> = BTreeMap::new();
    for (&p, &n) in lengths {
        *counts.entry(p / width).or_default() += n;
    }
    counts
        .into_iter()
        .map(|(b, games)| Bucket {
            from: b * width,
            to: (b + 1) * width,
            games,
        })
        .collect()
}

/// Run seed, players, titles, swap and repetition off: what every game of a match shares.
type Head = (u64, [String; 2], [String; 2], bool, bool);

/// What a [`Summary`] needs of one match's games, accumulated game by game: counts and
/// sums, the seats met so far, and how many games had each length (at most one entry per
/// distinct length). Memory does not grow with the number of games.
#[derive(Clone, Debug, Default)]
pub struct Accumulator {
    head: Option<Head>,
    games: u64,
    finished: u64,
    interrupted: u64,
    /// Games with a score for A (two or more seats).
    scored: u64,
    seat_count: usize,
    ends: Ends,
    /// One-seat games, per player A, B.
    solo: [SoloCounts; 2],
    ranks: [Vec<u64>; 2],
    wins_a: u64,
    wins_b: u64,
    draws: u64,
    adjudicated: u64,
    points_a: f64,
    first_points: f64,
    plies_sum: f64,
    search_cuts: [u64; 2],
    seats: Vec<SeatSummary>,
    lengths: BTreeMap<u32, u64>,
    /// A's score per scored game, and the first player's.
    game_scores: draws::Tally,
    first_scores: draws::Tally,
    /// A's mean score per complete colour-swapped pair.
    pair_scores: draws::Tally,
    /// Finished games of swapped runs whose partner is not counted yet: pair number → A's
    /// score (`None`: no score).
    halves: BTreeMap<u64, Option<f64>>,
    /// Games with a score whose partner has none.
    broken_pairs: u64,
    openings: openings::OpeningCounts,
    /// The failed game of lowest index and its message (the same whatever the threads).
    first_error: Option<(u64, String)>,
}

impl Accumulator {
    fn note_error(&mut self, game: u64, message: &str) {
        if self.first_error.as_ref().is_none_or(|(i, _)| game < *i) {
            self.first_error = Some((game, message.to_owned()));
        }
    }

    /// The failed game of lowest index and its message, if a game failed.
    pub fn first_error(&self) -> Option<(u64, &str)> {
        self.first_error.as_ref().map(|(i, m)| (*i, m.as_str()))
    }

    /// Counts one game.
    pub fn add(&mut self, r: &GameRecord) {
        if self.head.is_none() {
            self.head = Some((
                r.run_seed,
                r.settings.players.clone(),
                r.settings.titles.clone(),
                r.settings.swap,
                r.settings.repetition == crate::record::Repetition::Off,
            ));
        }
        if r.result == GameResult::Interrupted {
            self.interrupted += 1;
            return;
        }
        self.games += 1;
        if r.result == GameResult::Error {
            self.note_error(r.game_index, r.error.as_deref().unwrap_or("no message"));
            if r.settings.swap {
                self.add_half(r.game_index / 2, None);
            }
            return;
        }
        self.finished += 1;
        self.seat_count = self.seat_count.max(r.seats.len());
        if r.adjudicated {
            self.adjudicated += 1;
        }
        match r.end {
            Some(GameEnd::Goal) => self.ends.goal += 1,
            Some(GameEnd::Repetition) => self.ends.repetition += 1,
            Some(GameEnd::NoMoves) => self.ends.no_moves += 1,
            Some(GameEnd::PlyCap) => self.ends.ply_cap += 1,
            Some(GameEnd::Adjudicated) if r.result == GameResult::Draw => {
                self.ends.referee_draws += 1
            }
            Some(GameEnd::Adjudicated) => self.ends.referee_wins += 1,
            _ if r.adjudicated => self.ends.ply_cap += 1,
            _ => self.ends.unrecorded += 1,
        }
        self.plies_sum += f64::from(r.plies);
        for (n, &c) in self.search_cuts.iter_mut().zip(&r.search_cuts) {
            *n += u64::from(c);
        }
        *self.lengths.entry(r.plies).or_default() += 1;
        if matches!(
            r.result,
            GameResult::Solved | GameResult::Failed | GameResult::Unfinished
        ) || (r.seats.len() == 1 && r.score_a.is_none())
        {
            self.add_solo(r);
            return;
        }
        self.scored += 1;
        self.openings.add(r);
        for s in &r.seats {
            if let Some(rank) = s.rank {
                let p = usize::from(s.player == "B");
                let v = &mut self.ranks[p];
                let k = rank.max(1) as usize - 1;
                if v.len() <= k {
                    v.resize(k + 1, 0);
                }
                v[k] += 1;
            }
        }
        match r.winner.as_deref() {
            Some("A") => self.wins_a += 1,
            Some("B") => self.wins_b += 1,
            _ => {}
        }
        if r.result == GameResult::Draw {
            self.draws += 1;
        }
        self.points_a += r.score_a.unwrap_or(0.0);
        self.game_scores.add(r.score_a.unwrap_or(0.0));
        if r.settings.swap {
            self.add_half(r.game_index / 2, Some(r.score_a.unwrap_or(0.0)));
        }
        if let Some(p) = r.seats.first().and_then(|s| s.points) {
            self.first_points += p.min(1.0);
        }
        self.first_scores.add(
            r.seats
                .first()
                .and_then(|s| s.points)
                .map_or(0.0, |p| p.min(1.0)),
        );
        for (pos, s) in r.seats.iter().enumerate() {
            let i = match self.seats.iter().position(|x| x.seat == s.seat) {
                Some(i) => i,
                None => {
                    self.seats.push(SeatSummary {
                        seat: s.seat.clone(),
                        position: pos,
                        wins: 0,
                        draws: 0,
                        losses: 0,
                        score: Score::of(0.0, 0),
                    });
                    self.seats.len() - 1
                }
            };
            let p = s.points.unwrap_or(0.0);
            let x = &mut self.seats[i];
            use crate::record::SeatOutcome;
            match s.result {
                Some(SeatOutcome::Win) => x.wins += 1,
                Some(SeatOutcome::Draw) => x.draws += 1,
                Some(SeatOutcome::Loss) => x.losses += 1,
                // Version 1 records.
                None if r.result == GameResult::Draw => x.draws += 1,
                None if p >= 1.0 => x.wins += 1,
                None => x.losses += 1,
            }
        }
    }

    /// Counts one game of colour-swapped pair `pair` (A's score, `None` for an error):
    /// the pair is counted when its other game is.
    fn add_half(&mut self, pair: u64, score: Option<f64>) {
        match self.halves.remove(&pair) {
            Some(other) => match (score, other) {
                (Some(x), Some(y)) => self.pair_scores.add((x + y) / 2.0),
                (Some(_), None) | (None, Some(_)) => self.broken_pairs += 1,
                (None, None) => {}
            },
            None => {
                self.halves.insert(pair, score);
            }
        }
    }

    /// Counts a one-seat game.
    fn add_solo(&mut self, r: &GameRecord) {
        let p = usize::from(r.seats.first().is_some_and(|s| s.player == "B"));
        let c = &mut self.solo[p];
        if c.seat.is_empty() {
            if let Some(s) = r.seats.first() {
                c.seat = s.seat.clone();
            }
        }
        c.games += 1;
        match (r.result, r.end) {
            (GameResult::Solved, _) => {
                c.solved += 1;
                c.solved_plies += f64::from(r.plies);
            }
            (GameResult::Unfinished, _) => c.unfinished += 1,
            (GameResult::Draw, _) => c.drawn += 1,
            (_, Some(GameEnd::NoMoves)) => c.stuck += 1,
            (_, Some(GameEnd::Repetition)) => c.repeated += 1,
            _ => c.lost += 1,
        }
    }

    /// Adds the games counted by `other` (of the same match).
    pub fn merge(&mut self, other: &Accumulator) {
        if self.head.is_none() {
            self.head = other.head.clone();
        }
        if let Some((i, m)) = &other.first_error {
            self.note_error(*i, m);
        }
        self.games += other.games;
        self.finished += other.finished;
        self.interrupted += other.interrupted;
        self.scored += other.scored;
        self.seat_count = self.seat_count.max(other.seat_count);
        self.ends.goal += other.ends.goal;
        self.ends.repetition += other.ends.repetition;
        self.ends.no_moves += other.ends.no_moves;
        self.ends.ply_cap += other.ends.ply_cap;
        self.ends.unrecorded += other.ends.unrecorded;
        self.ends.referee_wins += other.ends.referee_wins;
        self.ends.referee_draws += other.ends.referee_draws;
        self.openings.merge(&other.openings);
        for p in 0..2 {
            self.solo[p].merge(&other.solo[p]);
            let (a, b) = (&mut self.ranks[p], &other.ranks[p]);
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.wins_a += other.wins_a;
        self.wins_b += other.wins_b;
        self.draws += other.draws;
        self.adjudicated += other.adjudicated;
        self.points_a += other.points_a;
        self.first_points += other.first_points;
        self.plies_sum += other.plies_sum;
        for (n, c) in self.search_cuts.iter_mut().zip(other.search_cuts) {
            *n += c;
        }
        for o in &other.seats {
            match self.seats.iter_mut().find(|x| x.seat == o.seat) {
                Some(x) => {
                    x.wins += o.wins;
                    x.draws += o.draws;
                    x.losses += o.losses;
                }
                None => self.seats.push(o.clone()),
            }
        }
        for (&p, &n) in &other.lengths {
            *self.lengths.entry(p).or_default() += n;
        }
        self.game_scores.merge(&other.game_scores);
        self.first_scores.merge(&other.first_scores);
        self.pair_scores.merge(&other.pair_scores);
        self.broken_pairs += other.broken_pairs;
        for (&k, &x) in &other.halves {
            self.add_half(k, x);
        }
    }

    /// Games counted so far (interrupted games not included).
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Interrupted games seen (not counted in [`Accumulator::games`]).
    pub fn interrupted(&self) -> u64 {
        self.interrupted
    }

    /// The summary of the games counted (`None` before the first).
    pub fn summary(&self) -> Option<Summary> {
        let (run_seed, players, titles, swap, repetition_off) = self.head.clone()?;
        let n = self.finished;
        let score_a = Score::of(self.points_a, self.scored);
        let mut seats = self.seats.clone();
        for x in &mut seats {
            let g = x.wins + x.draws + x.losses;
            // In a draw the seat's score counts as a half, whatever the share.
            x.score = Score::of(x.wins as f64 + 0.5 * x.draws as f64, g);
        }
        Some(Summary {
            schema_version: SUMMARY_SCHEMA_VERSION,
            run_seed,
            players,
            titles,
            swap,
            repetition_off,
            games: self.games,
            errors: self.games - n,
            wins_a: self.wins_a,
            wins_b: self.wins_b,
            draws: self.draws,
            adjudicated: self.adjudicated,
            score_a,
            elo: EloDiff {
                elo: elo(score_a.score),
                low: elo(score_a.low),
                high: elo(score_a.high),
            },
            draw_rate: if self.scored == 0 {
                0.0
            } else {
                self.draws as f64 / self.scored as f64
            },
            mean_plies: if n == 0 {
                0.0
            } else {
                self.plies_sum / n as f64
            },
            first_player: Score::of(self.first_points, self.scored),
            seats,
            lengths: histogram_of_counts(&self.lengths),
            interrupted: self.interrupted,
            seat_count: self.seat_count,
            ends: self.ends,
            search_cuts: self.search_cuts,
            solo: ["A", "B"]
                .iter()
                .zip(&self.solo)
                .filter(|(_, c)| c.games > 0)
                .map(|(p, c)| c.summary(p))
                .collect(),
            ranks: (self.seat_count >= 3).then(|| self.ranks.clone()),
            trinomial: draws::Trinomial {
                games: self.scored,
                wins: self.wins_a,
                draws: self.draws,
                losses: self.wins_b,
                estimate: draws::Estimate::of(&self.game_scores, 1.0, Z95),
            },
            pentanomial: (swap && self.seat_count >= 2).then(|| {
                let unpaired =
                    self.broken_pairs + self.halves.values().filter(|x| x.is_some()).count() as u64;
                draws::Pentanomial::of(&self.pair_scores, unpaired, Z95)
            }),
            first_player_trinomial: draws::Estimate::of(&self.first_scores, 1.0, Z95),
            plies_stdev: {
                let mean = if n == 0 {
                    0.0
                } else {
                    self.plies_sum / n as f64
                };
                let ss: f64 = self
                    .lengths
                    .iter()
                    .map(|(&p, &c)| c as f64 * (f64::from(p) - mean).powi(2))
                    .sum();
                if n == 0 { 0.0 } else { (ss / n as f64).sqrt() }
            },
            openings: self.openings.summaries(),
        })
    }
}

/// The counts behind a [`SoloSummary`].
#[derive(Clone, Debug, Default)]
struct SoloCounts {
    seat: String,
    games: u64,
    solved: u64,
    lost: u64,
    stuck: u64,
    repeated: u64,
    drawn: u64,
    unfinished: u64,
    solved_plies: f64,
}

impl SoloCounts {
    fn merge(&mut self, o: &SoloCounts) {
        if self.seat.is_empty() {
            self.seat = o.seat.clone();
        }
        self.games += o.games;
        self.solved += o.solved;
        self.lost += o.lost;
        self.stuck += o.stuck;
        self.repeated += o.repeated;
        self.drawn += o.drawn;
        self.unfinished += o.unfinished;
        self.solved_plies += o.solved_plies;
    }

    fn summary(&self, player: &str) -> SoloSummary {
        SoloSummary {
            player: player.to_owned(),
            seat: self.seat.clone(),
            games: self.games,
            solved: self.solved,
            lost: self.lost,
            stuck: self.stuck,
            repeated: self.repeated,
            drawn: self.drawn,
            unfinished: self.unfinished,
            solve_rate: Score::of(self.solved as f64, self.games),
            mean_plies_solved: (self.solved > 0).then(|| self.solved_plies / self.solved as f64),
        }
    }
}

/// Summarises one match's records (see [`group_by_match`]).
pub fn summarize(records: &[&GameRecord]) -> Summary {
    let mut acc = Accumulator::default();
    for r in records {
        acc.add(r);
    }
    acc.summary().expect("at least one record")
}

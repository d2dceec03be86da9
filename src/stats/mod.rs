//! Summaries of game records: scores with Wilson intervals, Elo differences, draws, game
//! lengths, first-player advantage, per-seat results; merging shards; comparing two runs.
//!
//! Sub-modules: [`interval`] (Wilson, Elo), [`draws`] (draw-aware trinomial and
//! pentanomial intervals, LOS), [`gate`] (gates with three outcomes, `compare`),
//! [`sprt`] (the sequential test), [`gsprt`] (its exact likelihood ratio), [`openings`]
//! (results per book line), [`ratings`] (round robins: crosstables and joint Elo ratings)
//! and [`html`] (the HTML report).

pub mod draws;
pub mod gate;
pub mod gsprt;
pub mod html;
pub mod interval;
pub mod openings;
pub mod ratings;
pub mod sprt;

pub use gate::{Shift, Tolerances, compare};

use crate::record::{GameEnd, GameRecord, GameResult};
use interval::{Z95, elo, wilson};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

/// Version of the summary JSON shape (`--json`, `dagaz stats --format json`). Version 3
/// added the draw-aware fields `trinomial`, `pentanomial`, `first_player_trinomial` and
/// `plies_stdev`, and `openings` and `ends.referee_wins`/`referee_draws`.
pub const SUMMARY_SCHEMA_VERSION: u32 = 3;

/// Version of the CSV tables' columns (`dagaz stats --format csv`), the first column of
/// every row. Version 1 was the tables before they had the column.
pub const CSV_SCHEMA_VERSION: u32 = 2;

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

/// Axiom AutoPlay's closing lines: `Final results:`, one line per player, the draws and
/// `N game(s) played` (§7.4 of the semantics notes).
pub fn axiom_lines(s: &Summary) -> String {
    if s.seat_count == 1 {
        // A one-seat game has no winner between the players: see [`human`].
        return String::new();
    }
    let name = |t: &str| t.replace(' ', "-");
    format!(
        "Final results:\nPlayer 1 \"{}\", wins = {}.\nPlayer 2 \"{}\", wins = {}.\nDraws = {}\n{} game(s) played\n",
        name(&s.titles[0]),
        s.wins_a,
        name(&s.titles[1]),
        s.wins_b,
        s.draws,
        s.score_a.games
    )
}

fn fmt_elo(x: Option<f64>, inf: &str) -> String {
    x.map_or(inf.to_owned(), |e| format!("{e:+.0}"))
}

/// The human summary printed after the Axiom lines.
pub fn human(s: &Summary) -> String {
    if s.seat_count == 1 {
        return human_solo(s);
    }
    let mut o = String::new();
    o += &format!(
        "seed {}; A = {} (\"{}\"), B = {} (\"{}\"); {}\n",
        s.run_seed,
        s.players[0],
        s.titles[0],
        s.players[1],
        s.titles[1],
        if s.swap {
            "colour-swapped pairs"
        } else {
            "no swap: A always moves first"
        }
    );
    let n = s.score_a.games;
    o += &format!(
        "score of A: {:.1}% (95% CI {:.1}%..{:.1}%) over {} games: {} wins, {} losses, {} draws\n",
        100.0 * s.score_a.score,
        100.0 * s.score_a.low,
        100.0 * s.score_a.high,
        n,
        s.wins_a,
        s.wins_b,
        s.draws
    );
    let margin = match (s.elo.low, s.elo.high) {
        (Some(l), Some(h)) => format!(" ± {:.0}", (h - l) / 2.0),
        _ => String::new(),
    };
    o += &format!(
        "Elo difference A - B: {}{} (95% CI {}..{})\n",
        fmt_elo(
            s.elo.elo,
            if s.score_a.score >= 1.0 {
                "+inf"
            } else {
                "-inf"
            }
        ),
        margin,
        fmt_elo(s.elo.low, "-inf"),
        fmt_elo(s.elo.high, "+inf")
    );
    o += &draw_aware_lines(s);
    // Draws the rules' goals gave (a draw goal, or with three or more seats a goal that left
    // both players points).
    let by_goal = s
        .draws
        .saturating_sub(s.adjudicated + s.ends.repetition + s.ends.no_moves + s.ends.referee_draws);
    o += &format!(
        "draws: {} ({:.1}%), of which {} adjudicated at the ply cap, {} by repetition, {} with no move{}{}\n",
        s.draws,
        100.0 * s.draw_rate,
        s.adjudicated,
        s.ends.repetition,
        s.ends.no_moves,
        if s.ends.referee_draws > 0 {
            format!(", {} adjudicated by the referee", s.ends.referee_draws)
        } else {
            String::new()
        },
        if by_goal > 0 && s.ends.unrecorded == 0 {
            format!(", {by_goal} by a goal that gave both players points")
        } else {
            String::new()
        }
    );
    if s.ends.referee_wins > 0 {
        o += &format!(
            "wins adjudicated by the referee (a side resigned): {}\n",
            s.ends.referee_wins
        );
    }
    o += &format!(
        "mean game length: {:.1} plies (dice included)\n",
        s.mean_plies
    );
    o += &format!(
        "first-player score: {:.1}% (95% CI {:.1}%..{:.1}%)\n",
        100.0 * s.first_player.score,
        100.0 * s.first_player.low,
        100.0 * s.first_player.high
    );
    o += &openings_table(&s.openings);
    if let Some(ranks) = &s.ranks {
        o += &format!(
            "{} seats: A and B alternate over them; a game is A's win when A's seats take all the points, and the Elo difference treats each player's seats as a team\n",
            s.seat_count
        );
        for (p, r) in ["A", "B"].iter().zip(ranks) {
            let places: Vec<String> = r
                .iter()
                .enumerate()
                .map(|(k, n)| format!("{} {n}", ordinal(k + 1)))
                .collect();
            o += &format!("places of {p}'s seats: {}\n", places.join(", "));
        }
        for x in &s.seats {
            o += &format!(
                "seat {} ({} to move): {} wins, {} draws, {} losses\n",
                x.seat,
                ordinal(x.position + 1),
                x.wins,
                x.draws,
                x.losses
            );
        }
    }
    o += &tail(s);
    o
}

/// The draw-aware lines of the summary: the trinomial estimate, and the pentanomial one
/// when the run has colour-swapped pairs; the one gates use is marked.
fn draw_aware_lines(s: &Summary) -> String {
    let (gate, _) = s.gate_estimate();
    let est = |e: &draws::Estimate| {
        format!(
            "{:.1}% (95% CI {:.1}%..{:.1}%), Elo {} (95% CI {}..{}), LOS {:.1}%",
            100.0 * e.score,
            100.0 * e.low,
            100.0 * e.high,
            fmt_elo(e.elo.elo, if e.score >= 1.0 { "+inf" } else { "-inf" }),
            fmt_elo(e.elo.low, "-inf"),
            fmt_elo(e.elo.high, "+inf"),
            100.0 * e.los
        )
    };
    let mark = |kind: &str| {
        if kind == gate {
            "; gates judge this interval"
        } else {
            ""
        }
    };
    let mut o = format!(
        "draw-aware, per game (trinomial, {} games): {}{}\n",
        s.trinomial.games,
        est(&s.trinomial.estimate),
        mark("trinomial")
    );
    if let Some(p) = &s.pentanomial {
        let counts = p.counts.map_or(String::new(), |c| {
            format!(
                ": LL {}, LD {}, DD+WL {}, WD {}, WW {}",
                c[0], c[1], c[2], c[3], c[4]
            )
        });
        let unpaired = if p.unpaired > 0 {
            format!(", {} unpaired game(s) left out", p.unpaired)
        } else {
            String::new()
        };
        o += &format!(
            "draw-aware, per pair (pentanomial, {} pairs{counts}{unpaired}): {}{}\n",
            p.pairs,
            est(&p.estimate),
            mark("pentanomial")
        );
    }
    o
}

/// A's results per opening, one line each (empty without openings).
fn openings_table(openings: &[openings::OpeningSummary]) -> String {
    let mut o = String::new();
    if openings.is_empty() {
        return o;
    }
    o += &format!(
        "per opening ({}): score of A, games, A wins / B wins / draws, first-player score\n",
        openings.len()
    );
    for x in openings {
        o += &format!(
            "  {}{}: {:.1}% (95% CI {:.1}%..{:.1}%), {} games, {}/{}/{}, first player {:.1}%\n",
            x.line.map_or(String::new(), |l| format!("line {l} ")),
            x.name,
            100.0 * x.score_a.score,
            100.0 * x.score_a.low,
            100.0 * x.score_a.high,
            x.games,
            x.wins_a,
            x.wins_b,
            x.draws,
            100.0 * x.first_player.score
        );
    }
    o
}

/// The summary of a one-seat game: solve rates.
fn human_solo(s: &Summary) -> String {
    let mut o = String::new();
    let seat = s.solo.first().map_or("", |x| x.seat.as_str());
    let who: Vec<String> = s
        .solo
        .iter()
        .map(|x| {
            let k = usize::from(x.player == "B");
            format!("{} = {} (\"{}\")", x.player, s.players[k], s.titles[k])
        })
        .collect();
    o += &format!(
        "seed {}; {}; one seat{}: each game is solved (a win), failed (a loss, no move, or a repeated position), drawn (a draw goal) or unfinished (the ply cap)\n",
        s.run_seed,
        who.join(", "),
        if seat.is_empty() {
            String::new()
        } else {
            format!(" ({seat})")
        }
    );
    for x in &s.solo {
        o += &format!(
            "{}: {} games: {} solved, {} failed ({} lost, {} with no move, {} by repetition), {} drawn, {} unfinished\n",
            x.player,
            x.games,
            x.solved,
            x.lost + x.stuck + x.repeated,
            x.lost,
            x.stuck,
            x.repeated,
            x.drawn,
            x.unfinished
        );
        o += &format!(
            "solve rate of {}: {:.1}% (95% CI {:.1}%..{:.1}%); mean plies to a solution: {}\n",
            x.player,
            100.0 * x.solve_rate.score,
            100.0 * x.solve_rate.low,
            100.0 * x.solve_rate.high,
            x.mean_plies_solved
                .map_or("none solved".to_owned(), |m| format!("{m:.1}"))
        );
    }
    o += &format!(
        "mean game length: {:.1} plies (random players' plies included)\n",
        s.mean_plies
    );
    if s.solo.iter().any(|x| x.repeated > 0) && !s.repetition_off {
        o += "note: threefold repetition ends a game as in ZoG, which fails a puzzle that revisits a position; --repetition off lets it go on\n";
    }
    o += &tail(s);
    o
}

/// Searches cut short, errors and interruptions, common to both summaries.
fn tail(s: &Summary) -> String {
    let mut o = String::new();
    if s.search_cuts != [0, 0] {
        o += &format!(
            "searches cut short by the step budget (--search-steps): {} move(s) of A, {} of B played from a shallower search or fewer playouts\n",
            s.search_cuts[0], s.search_cuts[1]
        );
    }
    if s.errors > 0 {
        o += &format!(
            "errors: {} game(s) could not be finished (see the game records)\n",
            s.errors
        );
    }
    if s.interrupted > 0 {
        o += &format!(
            "interrupted: {} game(s) stopped by an interruption, not counted (--resume plays them again)\n",
            s.interrupted
        );
    }
    o
}

/// `1st`, `2nd`, `3rd`, `4th`, …
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
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

/// Checks that shards belong to one run (same seed and settings) and do not overlap, and
/// returns the records sorted by game index.
pub fn merge(shards: Vec<(String, Vec<GameRecord>)>) -> Result<Vec<GameRecord>, StatsError> {
    let mut out: Vec<GameRecord> = vec![];
    let mut seen: HashSet<u64> = HashSet::new();
    let mut reference: Option<(String, u64, crate::record::RunSettings)> = None;
    for (name, recs) in shards {
        for r in recs {
            match &reference {
                None => reference = Some((name.clone(), r.run_seed, r.settings.clone())),
                Some((n0, seed, settings)) => {
                    if r.run_seed != *seed {
                        return Err(StatsError::NotOneRun(format!(
                            "{name}: run seed {} differs from {n0}'s {seed}: not shards of one run",
                            r.run_seed
                        )));
                    }
                    // The games of a tournament's pairings differ in their players only.
                    if r.settings.run_part() != settings.run_part() {
                        return Err(StatsError::NotOneRun(format!(
                            "{name}: players or settings differ from {n0}'s: not shards of one run"
                        )));
                    }
                }
            }
            if !seen.insert(r.game_index) {
                return Err(StatsError::Duplicate(format!(
                    "{name}: game {} appears twice (overlapping shards?)",
                    r.game_index
                )));
            }
            out.push(r);
        }
    }
    out.sort_by_key(|r| r.game_index);
    Ok(out)
}

/// The game indices of a merged run that no shard holds (`0..games` of its settings; the
/// indices of every pairing's games in a round robin or gauntlet).
pub fn missing_games(records: &[GameRecord]) -> Vec<u64> {
    let Some(first) = records.first() else {
        return vec![];
    };
    // An interrupted game is not played: its index is missing too.
    let have: HashSet<u64> = records
        .iter()
        .filter(|r| r.result != GameResult::Interrupted)
        .map(|r| r.game_index)
        .collect();
    match &first.settings.tournament {
        Some(t) => crate::record::schedule::Schedule::of(t, first.settings.games)
            .map(|s| s.indices().filter(|i| !have.contains(i)).collect())
            .unwrap_or_default(),
        None => (0..first.settings.games)
            .filter(|i| !have.contains(i))
            .collect(),
    }
}

/// The number of games in the whole run of a record's settings: `games`, or in a round
/// robin or gauntlet `games` per pairing times its pairings.
pub fn run_games(settings: &crate::record::RunSettings) -> u64 {
    match &settings.tournament {
        Some(t) => crate::record::schedule::Schedule::of(t, settings.games)
            .map_or(settings.games, |s| s.total_games()),
        None => settings.games,
    }
}

/// Checks that records may be summarised together: no game appears twice (the same file
/// given twice), and the records of one match (run seed and players) come from one run:
/// the same settings other than the number of games, and the same identity (dagaz version,
/// rules) where the records carry one.
pub fn check_poolable(records: &[GameRecord]) -> Result<(), StatsError> {
    for group in group_by_match(records) {
        let first = group[0];
        for r in &group[1..] {
            if let Some(what) = crate::record::settings_difference(&first.settings, &r.settings) {
                return Err(StatsError::NotOneRun(format!(
                    "games {} and {} of run seed {} differ in `{what}`: records of different runs cannot be pooled",
                    first.game_index, r.game_index, r.run_seed
                )));
            }
            if let Some(why) = first
                .identity
                .as_ref()
                .zip(r.identity.as_ref())
                .and_then(|(a, b)| a.difference(b))
            {
                return Err(StatsError::NotOneRun(format!(
                    "games {} and {} of run seed {} come from different runs ({why}): they cannot be pooled",
                    first.game_index, r.game_index, r.run_seed
                )));
            }
        }
    }
    let mut seen = HashSet::new();
    for r in records {
        if !seen.insert((r.run_seed, r.game_index, r.settings.players.clone())) {
            return Err(StatsError::Duplicate(format!(
                "game {} of run seed {} ({} vs {}) appears twice: the same records were given twice",
                r.game_index, r.run_seed, r.settings.players[0], r.settings.players[1]
            )));
        }
    }
    Ok(())
}

/// Writes a header and rows as CSV text, each row starting with `schema_version`
/// ([`CSV_SCHEMA_VERSION`]).
fn write_csv<R: IntoIterator<Item = String>>(
    header: &[&str],
    rows: impl IntoIterator<Item = R>,
) -> Result<String, StatsError> {
    let err = |e: &dyn std::fmt::Display| StatsError::Csv(e.to_string());
    let mut w = csv::Writer::from_writer(vec![]);
    let version = CSV_SCHEMA_VERSION.to_string();
    w.write_record(std::iter::once("schema_version").chain(header.iter().copied()))
        .map_err(|e| err(&e))?;
    for r in rows {
        w.write_record(std::iter::once(version.clone()).chain(r))
            .map_err(|e| err(&e))?;
    }
    String::from_utf8(w.into_inner().map_err(|e| err(&e))?).map_err(|e| err(&e))
}

/// CSV of match summaries (one row per match).
pub fn matches_csv(summaries: &[Summary]) -> Result<String, StatsError> {
    let f = |x: f64| format!("{x:.4}");
    let o = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:.1}"));
    write_csv(
        &[
            "run_seed",
            "player_a",
            "player_b",
            "games",
            "errors",
            "wins_a",
            "wins_b",
            "draws",
            "score_a",
            "score_a_low",
            "score_a_high",
            "elo",
            "elo_low",
            "elo_high",
            "draw_rate",
            "mean_plies",
            "first_player_score",
            "first_player_low",
            "first_player_high",
            "interrupted",
            "seat_count",
            "ended_by_goal",
            "ended_by_repetition",
            "ended_with_no_move",
            "ended_at_ply_cap",
            "trinomial_low",
            "trinomial_high",
            "trinomial_elo_low",
            "trinomial_elo_high",
            "trinomial_los",
            "pairs",
            "pairs_ll",
            "pairs_ld",
            "pairs_dd_wl",
            "pairs_wd",
            "pairs_ww",
            "unpaired",
            "pentanomial_low",
            "pentanomial_high",
            "pentanomial_elo_low",
            "pentanomial_elo_high",
            "pentanomial_los",
            "gate_interval",
            "normalized_elo",
            "search_cuts_a",
            "search_cuts_b",
        ],
        summaries.iter().map(|s| {
            let t = &s.trinomial.estimate;
            let p = s.pentanomial.as_ref();
            let pe = p.map(|p| &p.estimate);
            let counts = p.and_then(|p| p.counts);
            let count = |k: usize| counts.map_or(String::new(), |c| c[k].to_string());
            let pf = |g: fn(&draws::Estimate) -> f64| pe.map_or(String::new(), |e| f(g(e)));
            let (gate, ge) = s.gate_estimate();
            [
                s.run_seed.to_string(),
                s.players[0].clone(),
                s.players[1].clone(),
                s.games.to_string(),
                s.errors.to_string(),
                s.wins_a.to_string(),
                s.wins_b.to_string(),
                s.draws.to_string(),
                f(s.score_a.score),
                f(s.score_a.low),
                f(s.score_a.high),
                o(s.elo.elo),
                o(s.elo.low),
                o(s.elo.high),
                f(s.draw_rate),
                format!("{:.2}", s.mean_plies),
                f(s.first_player.score),
                f(s.first_player.low),
                f(s.first_player.high),
                s.interrupted.to_string(),
                s.seat_count.to_string(),
                s.ends.goal.to_string(),
                s.ends.repetition.to_string(),
                s.ends.no_moves.to_string(),
                s.ends.ply_cap.to_string(),
                f(t.low),
                f(t.high),
                o(t.elo.low),
                o(t.elo.high),
                f(t.los),
                p.map_or(String::new(), |p| p.pairs.to_string()),
                count(0),
                count(1),
                count(2),
                count(3),
                count(4),
                p.map_or(String::new(), |p| p.unpaired.to_string()),
                pf(|e| e.low),
                pf(|e| e.high),
                pe.map_or(String::new(), |e| o(e.elo.low)),
                pe.map_or(String::new(), |e| o(e.elo.high)),
                pf(|e| e.los),
                gate.to_owned(),
                o(ge.normalized_elo),
                s.search_cuts[0].to_string(),
                s.search_cuts[1].to_string(),
            ]
        }),
    )
}

/// The name serde gives a unit enum variant (`win`, `ply-cap`).
fn serde_word<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// CSV of the games themselves (one row per game, in match order then game index), from
/// the records. `timing`: with the `time_ms` column (the only one that is not
/// reproducible).
pub fn games_csv(records: &[GameRecord], timing: bool) -> Result<String, StatsError> {
    let mut header = vec![
        "run_seed",
        "player_a",
        "player_b",
        "game_index",
        "game_seed",
        "pair",
        "first_player",
        "seats",
        "result",
        "winner",
        "score_a",
        "end",
        "adjudicated",
        "plies",
        "captures_a",
        "captures_b",
        "nodes_a",
        "nodes_b",
    ];
    if timing {
        header.push("time_ms");
    }
    header.push("error");
    // (Added at the end, as the CSV contract allows within a version.)
    header.extend(["search_cuts_a", "search_cuts_b"]);
    let mut groups = group_by_match(records);
    for g in &mut groups {
        g.sort_by_key(|r| r.game_index);
    }
    write_csv(
        &header,
        groups.into_iter().flatten().map(|r| {
            let mut row = vec![
                r.run_seed.to_string(),
                r.settings.players[0].clone(),
                r.settings.players[1].clone(),
                r.game_index.to_string(),
                r.game_seed.to_string(),
                if r.settings.swap {
                    (r.game_index / 2).to_string()
                } else {
                    String::new()
                },
                r.first_player().unwrap_or("").to_owned(),
                r.seats
                    .iter()
                    .map(|x| format!("{}={}", x.seat, x.player))
                    .collect::<Vec<_>>()
                    .join(";"),
                serde_word(&r.result),
                r.winner.clone().unwrap_or_default(),
                r.score_a.map_or(String::new(), |x| x.to_string()),
                r.end.as_ref().map_or(String::new(), serde_word),
                r.adjudicated.to_string(),
                r.plies.to_string(),
                r.captures[0].to_string(),
                r.captures[1].to_string(),
                r.nodes[0].to_string(),
                r.nodes[1].to_string(),
            ];
            if timing {
                row.push(r.time_ms.map_or(String::new(), |t| format!("{t:.3}")));
            }
            row.push(r.error.clone().unwrap_or_default());
            row.extend(r.search_cuts.map(|n| n.to_string()));
            row
        }),
    )
}

/// CSV of one-seat results (one row per match and player who played).
pub fn solo_csv(summaries: &[Summary]) -> Result<String, StatsError> {
    write_csv(
        &[
            "run_seed",
            "player_a",
            "player_b",
            "player",
            "games",
            "solved",
            "lost",
            "stuck",
            "repeated",
            "drawn",
            "unfinished",
            "solve_rate",
            "solve_rate_low",
            "solve_rate_high",
            "mean_plies_solved",
        ],
        summaries.iter().flat_map(|s| {
            s.solo.iter().map(move |x| {
                [
                    s.run_seed.to_string(),
                    s.players[0].clone(),
                    s.players[1].clone(),
                    x.player.clone(),
                    x.games.to_string(),
                    x.solved.to_string(),
                    x.lost.to_string(),
                    x.stuck.to_string(),
                    x.repeated.to_string(),
                    x.drawn.to_string(),
                    x.unfinished.to_string(),
                    format!("{:.4}", x.solve_rate.score),
                    format!("{:.4}", x.solve_rate.low),
                    format!("{:.4}", x.solve_rate.high),
                    x.mean_plies_solved
                        .map_or(String::new(), |m| format!("{m:.2}")),
                ]
            })
        }),
    )
}

/// CSV of A's results per opening (one row per match and book line).
pub fn openings_csv(summaries: &[Summary]) -> Result<String, StatsError> {
    write_csv(
        &[
            "run_seed",
            "player_a",
            "player_b",
            "line",
            "opening",
            "games",
            "wins_a",
            "wins_b",
            "draws",
            "score_a",
            "score_low",
            "score_high",
            "first_player_score",
        ],
        summaries.iter().flat_map(|s| {
            s.openings.iter().map(move |x| {
                [
                    s.run_seed.to_string(),
                    s.players[0].clone(),
                    s.players[1].clone(),
                    x.line.map_or(String::new(), |l| l.to_string()),
                    x.name.clone(),
                    x.games.to_string(),
                    x.wins_a.to_string(),
                    x.wins_b.to_string(),
                    x.draws.to_string(),
                    format!("{:.4}", x.score_a.score),
                    format!("{:.4}", x.score_a.low),
                    format!("{:.4}", x.score_a.high),
                    format!("{:.4}", x.first_player.score),
                ]
            })
        }),
    )
}

/// CSV of per-seat results (one row per match and seat).
pub fn seats_csv(summaries: &[Summary]) -> Result<String, StatsError> {
    write_csv(
        &[
            "run_seed",
            "player_a",
            "player_b",
            "seat",
            "position",
            "wins",
            "draws",
            "losses",
            "score",
            "score_low",
            "score_high",
        ],
        summaries.iter().flat_map(|s| {
            s.seats.iter().map(move |x| {
                [
                    s.run_seed.to_string(),
                    s.players[0].clone(),
                    s.players[1].clone(),
                    x.seat.clone(),
                    x.position.to_string(),
                    x.wins.to_string(),
                    x.draws.to_string(),
                    x.losses.to_string(),
                    format!("{:.4}", x.score.score),
                    format!("{:.4}", x.score.low),
                    format!("{:.4}", x.score.high),
                ]
            })
        }),
    )
}

/// CSV of the game-length histograms (one row per match and bucket).
pub fn lengths_csv(summaries: &[Summary]) -> Result<String, StatsError> {
    write_csv(
        &[
            "run_seed",
            "player_a",
            "player_b",
            "plies_from",
            "plies_to",
            "games",
        ],
        summaries.iter().flat_map(|s| {
            s.lengths.iter().map(move |b| {
                [
                    s.run_seed.to_string(),
                    s.players[0].clone(),
                    s.players[1].clone(),
                    b.from.to_string(),
                    b.to.to_string(),
                    b.games.to_string(),
                ]
            })
        }),
    )
}

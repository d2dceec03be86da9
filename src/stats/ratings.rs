//! Round robins and gauntlets: the crosstable and joint Elo ratings of more than two
//! players.
//!
//! **Model.** The logistic (Bradley–Terry) Elo model: player `i` with rating `r_i` scores
//! `E = 1 / (1 + 10^((r_j − r_i) / 400))` on average against player `j`. A game's score is
//! 1, 0, ½ for a draw (A's share of the points with three or more seats), and the ratings
//! maximise the likelihood `Π E^s (1 − E)^(1−s)` over all games between two different
//! players (self-play says nothing about strength), as Ordo and BayesElo do (BayesElo adds
//! a prior; dagaz does not). Only the games and points of each pairing matter, so the fit
//! does not depend on the number of games. The ratings are anchored on their mean: it is 0.
//!
//! **Intervals.** 95% normal intervals `r ± 1.96·σ`, where `σ²` is the diagonal of the
//! robust ("sandwich") covariance `H⁺ J H⁺` of the estimate: `H` is the observed
//! information (minus the Hessian of the log-likelihood; `H⁺` its pseudo-inverse, which
//! gives the covariance of mean-anchored ratings) and `J = Σ (s − E)² d dᵀ` sums the
//! squared residual of every game's score times its design vector `d = e_i − e_j`. With
//! wins and losses only, `J` is `H` on average and the covariance is the usual `H⁺`;
//! draws make the scores less variable than wins and losses would, and the intervals
//! narrower accordingly. Games are taken as independent (a colour-swapped pair's two
//! games are not paired here).
//!
//! **When no finite ratings exist.** If some players took every point against the others
//! (or lost every point), the likelihood grows without bound as they move apart: the
//! maximum exists only when the graph "`i` scored against `j`" is strongly connected. Then
//! the largest strongly connected group of players (ties: the one with the earliest
//! player) is rated on the games among its members, anchored on its own mean; a player
//! outside it from whom a chain of scored points leads to the group, and none back, is
//! `above` it (rating +∞); one reached from the group and not leading back is `below`
//! (−∞); the others are `unrated` (not comparable: no games, or no chain either way).

use super::csv::write_csv;
use super::{StatsError, Summary, interval::Z95};
use crate::record::{GameRecord, GameResult, Tournament};
use serde::Serialize;

/// Version of the tournament JSON object (`tournament` in `autoplay --json`,
/// `tournaments` in `stats --format json`).
pub const TOURNAMENT_SCHEMA_VERSION: u32 = 1;

/// Elo points per natural-log unit of the odds: `400 / ln 10`.
const ELO_PER_NEPER: f64 = 400.0 / std::f64::consts::LN_10;

/// The results of one pairing, from player A's side: what the crosstable and the ratings
/// need of its games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairTally {
    /// Games with a score (finished games with two or more seats).
    pub games: u64,
    pub wins_a: u64,
    pub wins_b: u64,
    pub draws: u64,
    /// A's points: 1 a win, ½ a draw (A's share with three or more seats).
    pub points_a: f64,
    /// The sum of the squares of A's game scores (the scores' variance).
    pub points_a_sq: f64,
}

impl PairTally {
    /// Counts a game of the pairing (errors, interrupted and one-seat games have no score
    /// and are not counted).
    pub fn add(&mut self, r: &GameRecord) {
        let Some(s) = r.score_a.filter(|s| s.is_finite()) else {
            return;
        };
        if !r.result.is_finished() {
            return;
        }
        self.games += 1;
        self.points_a += s;
        self.points_a_sq += s * s;
        match r.winner.as_deref() {
            Some("A") => self.wins_a += 1,
            Some("B") => self.wins_b += 1,
            _ if r.result == GameResult::Draw => self.draws += 1,
            _ => {}
        }
    }

    /// Adds the games counted by `other` (of the same pairing).
    pub fn merge(&mut self, other: &PairTally) {
        self.games += other.games;
        self.wins_a += other.wins_a;
        self.wins_b += other.wins_b;
        self.draws += other.draws;
        self.points_a += other.points_a;
        self.points_a_sq += other.points_a_sq;
    }
}

/// Whether a player has a finite rating (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A member of the rated group.
    Rated,
    /// Infinitely above the rated group: it (or players it scored against, and so on)
    /// took every point against the group.
    Above,
    /// Infinitely below the rated group.
    Below,
    /// Not comparable with the rated group.
    Unrated,
}

/// One player's rating in Elo, anchored on the rated group's mean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub status: Status,
    /// The rating (rated players only).
    pub elo: Option<f64>,
    /// Its standard error (rated players only).
    pub sd: Option<f64>,
}

/// Joint maximum-likelihood Elo ratings of `players` players from the results of their
/// pairings (`[A, B]` and A's tally), with robust standard errors; see the module
/// documentation. Self-play and pairings naming no player are ignored.
pub fn joint_elo(players: usize, results: &[([usize; 2], PairTally)]) -> Vec<Estimate> {
    let n = players;
    let mut games = vec![vec![0.0f64; n]; n];
    let mut points = vec![vec![0.0f64; n]; n];
    let mut squares = vec![vec![0.0f64; n]; n];
    for &([a, b], t) in results {
        if a == b || a >= n || b >= n || t.games == 0 {
            continue;
        }
        let g = t.games as f64;
        games[a][b] += g;
        games[b][a] += g;
        points[a][b] += t.points_a;
        points[b][a] += g - t.points_a;
        squares[a][b] += t.points_a_sq;
        squares[b][a] += g - 2.0 * t.points_a + t.points_a_sq;
    }
    // reach[i][j]: a chain of players, each of whom scored against the next, leads from i
    // to j.
    let mut reach = vec![vec![false; n]; n];
    for i in 0..n {
        reach[i][i] = true;
        for j in 0..n {
            if games[i][j] > 0.0 && points[i][j] > 0.0 {
                reach[i][j] = true;
            }
        }
    }
    for k in 0..n {
        let via = reach[k].clone();
        for row in reach.iter_mut() {
            if row[k] {
                for (x, &v) in row.iter_mut().zip(&via) {
                    *x |= v;
                }
            }
        }
    }
    let unrated = Estimate {
        status: Status::Unrated,
        elo: None,
        sd: None,
    };
    // The rated group: the largest strongly connected group of players who played, the
    // earliest on a tie.
    let played: Vec<bool> = games.iter().map(|r| r.iter().any(|&g| g > 0.0)).collect();
    let group_of =
        |i: usize| -> Vec<usize> { (0..n).filter(|&j| reach[i][j] && reach[j][i]).collect() };
    let Some(group) =
        (0..n)
            .filter(|&i| played[i])
            .map(group_of)
            .fold(None, |best: Option<Vec<usize>>, g| match best {
                Some(b) if b.len() >= g.len() => Some(b),
                _ => Some(g),
            })
    else {
        return vec![unrated; n];
    };
    let (elo, sd) = fit(&group, &games, &points, &squares);
    let anchor = group[0];
    (0..n)
        .map(|i| match group.iter().position(|&g| g == i) {
            Some(k) => Estimate {
                status: Status::Rated,
                elo: Some(elo[k]),
                sd: Some(sd[k]),
            },
            None if reach[i][anchor] && !reach[anchor][i] => Estimate {
                status: Status::Above,
                ..unrated
            },
            None if reach[anchor][i] && !reach[i][anchor] => Estimate {
                status: Status::Below,
                ..unrated
            },
            None => unrated,
        })
        .collect()
}

/// `ln(1 / (1 + e^(−d)))`, without overflow.
fn log_sigmoid(d: f64) -> f64 {
    if d > 0.0 {
        -(-d).exp().ln_1p()
    } else {
        d - d.exp().ln_1p()
    }
}

fn sigmoid(d: f64) -> f64 {
    1.0 / (1.0 + (-d).exp())
}

/// The maximum-likelihood ratings (Elo, mean 0) of the players in `group` on the games
/// among them, and their robust standard errors. The group is strongly connected, so the
/// maximum exists; Newton's method with step halving finds it (the log-likelihood is
/// concave).
fn fit(
    group: &[usize],
    games: &[Vec<f64>],
    points: &[Vec<f64>],
    squares: &[Vec<f64>],
) -> (Vec<f64>, Vec<f64>) {
    let k = group.len();
    // Pairs within the group: (u, v, games, points of u, squares of u's scores).
    let mut pairs = vec![];
    for u in 0..k {
        for v in u + 1..k {
            let (a, b) = (group[u], group[v]);
            if games[a][b] > 0.0 {
                pairs.push((u, v, games[a][b], points[a][b], squares[a][b]));
            }
        }
    }
    let log_likelihood = |x: &[f64]| -> f64 {
        pairs
            .iter()
            .map(|&(u, v, g, p, _)| {
                let d = x[u] - x[v];
                p * log_sigmoid(d) + (g - p) * log_sigmoid(-d)
            })
            .sum()
    };
    // The information matrix at x, plus 1/k everywhere (which makes it invertible on the
    // ratings' mean without moving the step, orthogonal to it), and its inverse.
    let information = |x: &[f64]| -> Vec<Vec<f64>> {
        let mut h = vec![vec![1.0 / k as f64; k]; k];
        for &(u, v, g, _, _) in &pairs {
            let e = sigmoid(x[u] - x[v]);
            let w = g * e * (1.0 - e);
            h[u][u] += w;
            h[v][v] += w;
            h[u][v] -= w;
            h[v][u] -= w;
        }
        h
    };
    let mut x = vec![0.0f64; k];
    for _ in 0..200 {
        let mut grad = vec![0.0f64; k];
        for &(u, v, g, p, _) in &pairs {
            let r = p - g * sigmoid(x[u] - x[v]);
            grad[u] += r;
            grad[v] -= r;
        }
        let Some(inv) = invert(information(&x)) else {
            break;
        };
        let step: Vec<f64> = inv
            .iter()
            .map(|row| row.iter().zip(&grad).map(|(a, b)| a * b).sum())
            .collect();
        let base = log_likelihood(&x);
        let mut t = 1.0;
        let next = loop {
            let y: Vec<f64> = x.iter().zip(&step).map(|(a, s)| a + t * s).collect();
            if log_likelihood(&y) >= base - 1e-12 * (1.0 + base.abs()) || t < 1e-9 {
                break y;
            }
            t /= 2.0;
        };
        let moved = x
            .iter()
            .zip(&next)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        x = next;
        let mean = x.iter().sum::<f64>() / k as f64;
        x.iter_mut().for_each(|v| *v -= mean);
        if moved < 1e-13 {
            break;
        }
    }
    // H⁺ = (H + 11ᵀ/k)⁻¹ − 11ᵀ/k; covariance H⁺ J H⁺.
    let hp: Vec<Vec<f64>> = match invert(information(&x)) {
        Some(m) => m
            .into_iter()
            .map(|row| row.into_iter().map(|v| v - 1.0 / k as f64).collect())
            .collect(),
        None => vec![vec![0.0; k]; k],
    };
    let mut j = vec![vec![0.0f64; k]; k];
    for &(u, v, g, p, q) in &pairs {
        let e = sigmoid(x[u] - x[v]);
        // Σ (s − e)² over the pair's games, from u's side.
        let r = (q - 2.0 * e * p + g * e * e).max(0.0);
        j[u][u] += r;
        j[v][v] += r;
        j[u][v] -= r;
        j[v][u] -= r;
    }
    let sd = (0..k)
        .map(|i| {
            // (H⁺ J H⁺)_ii = h_iᵀ J h_i with h_i the i-th row of the symmetric H⁺.
            let h = &hp[i];
            let var: f64 = (0..k)
                .map(|a| h[a] * (0..k).map(|b| j[a][b] * h[b]).sum::<f64>())
                .sum();
            ELO_PER_NEPER * var.max(0.0).sqrt()
        })
        .collect();
    (x.iter().map(|v| v * ELO_PER_NEPER).collect(), sd)
}

/// The inverse of a square matrix by Gauss–Jordan elimination with partial pivoting
/// (`None` when it is singular).
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let k = m.len();
    let mut inv: Vec<Vec<f64>> = (0..k)
        .map(|i| (0..k).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for c in 0..k {
        let p = (c..k).max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))?;
        if m[p][c].abs() < 1e-300 || !m[p][c].is_finite() {
            return None;
        }
        m.swap(c, p);
        inv.swap(c, p);
        let d = m[c][c];
        for j in 0..k {
            m[c][j] /= d;
            inv[c][j] /= d;
        }
        for r in 0..k {
            if r != c && m[r][c] != 0.0 {
                let f = m[r][c];
                for j in 0..k {
                    m[r][j] -= f * m[c][j];
                    inv[r][j] -= f * inv[c][j];
                }
            }
        }
    }
    Some(inv)
}

/// One cell of the crosstable: the row's player against the column's.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// Games with a score.
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The row's points.
    pub points: f64,
    /// Points over games.
    pub score: f64,
}

/// A player's games against all others (self-play not counted).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Total {
    pub games: u64,
    pub points: f64,
    /// Points over games (null without games).
    pub score: Option<f64>,
}

/// Every player's results against every other: the crosstable of a round robin or
/// gauntlet, or of matches pooled by player ([`Crosstable::of_matches`]).
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub struct Crosstable {
    /// Specs of the players, as given, and the titles of their variants.
    pub players: Vec<String>,
    pub titles: Vec<String>,
    /// `cells[i][j]`: player `i` against player `j` (`None` on the diagonal and for pairs
    /// without a scored game).
    pub cells: Vec<Vec<Option<Cell>>>,
    /// Each player's games and points against the others.
    pub totals: Vec<Total>,
}

impl Crosstable {
    /// The crosstable of `players` from the results of their pairings (`[A, B]` and A's
    /// tally, in order). Self-play, pairings naming no player and pairings without a
    /// scored game are left out; pairings of the same two players pool.
    pub fn new(
        players: Vec<String>,
        titles: Vec<String>,
        results: &[([usize; 2], PairTally)],
    ) -> Crosstable {
        let n = players.len();
        let mut cells: Vec<Vec<Option<Cell>>> = vec![vec![None; n]; n];
        for &([a, b], x) in results {
            if a == b || a >= n || b >= n || x.games == 0 {
                continue;
            }
            let g = x.games as f64;
            for (row, col, wins, losses, pts) in [
                (a, b, x.wins_a, x.wins_b, x.points_a),
                (b, a, x.wins_b, x.wins_a, g - x.points_a),
            ] {
                let c = cells[row][col].get_or_insert(Cell {
                    games: 0,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                    points: 0.0,
                    score: 0.0,
                });
                c.games += x.games;
                c.wins += wins;
                c.draws += x.draws;
                c.losses += losses;
                c.points += pts;
                c.score = c.points / c.games as f64;
            }
        }
        let totals: Vec<Total> = cells
            .iter()
            .map(|row| {
                let games: u64 = row.iter().flatten().map(|c| c.games).sum();
                let points: f64 = row.iter().flatten().map(|c| c.points).sum();
                Total {
                    games,
                    points,
                    score: (games > 0).then(|| points / games as f64),
                }
            })
            .collect();
        Crosstable {
            players,
            titles,
            cells,
            totals,
        }
    }

    /// The crosstable of `matches` (`stats --html`) when they hold three or more players,
    /// players told apart by their specs, best score first (then most points, then by
    /// name). Matches between the same two players pool; self-play and matches without a
    /// score (one seat, no finished game) are left out. A match's points are A's score
    /// times its games, to the sixth decimal; with three or more seats, A's share of the
    /// seats' points.
    pub fn of_matches(matches: &[Summary]) -> Option<Crosstable> {
        let mut players: Vec<String> = vec![];
        let mut titles: Vec<String> = vec![];
        let mut results: Vec<([usize; 2], PairTally)> = vec![];
        for s in matches {
            if s.seat_count == 1 || s.score_a.games == 0 || s.players[0] == s.players[1] {
                continue;
            }
            let mut index = |k: usize| match players.iter().position(|p| *p == s.players[k]) {
                Some(i) => i,
                None => {
                    players.push(s.players[k].clone());
                    titles.push(s.titles[k].clone());
                    players.len() - 1
                }
            };
            let pair = [index(0), index(1)];
            let games = s.score_a.games;
            // A summary keeps no squares of the scores; the crosstable reads none.
            let tally = PairTally {
                games,
                wins_a: s.wins_a,
                wins_b: s.wins_b,
                draws: s.draws,
                points_a: (s.score_a.score * games as f64 * 1e6).round() / 1e6,
                points_a_sq: 0.0,
            };
            results.push((pair, tally));
        }
        if players.len() < 3 {
            return None;
        }
        let table = Crosstable::new(players, titles, &results);
        let rate = |t: &Total| t.score.unwrap_or(0.0);
        let mut order: Vec<usize> = (0..table.players.len()).collect();
        order.sort_by(|&i, &j| {
            let (x, y) = (&table.totals[i], &table.totals[j]);
            rate(y)
                .total_cmp(&rate(x))
                .then(y.points.total_cmp(&x.points))
                .then(table.players[i].cmp(&table.players[j]))
        });
        Some(table.reordered(&order))
    }

    /// The same table with its players in `order`.
    fn reordered(&self, order: &[usize]) -> Crosstable {
        Crosstable {
            players: order.iter().map(|&i| self.players[i].clone()).collect(),
            titles: order.iter().map(|&i| self.titles[i].clone()).collect(),
            cells: order
                .iter()
                .map(|&i| order.iter().map(|&j| self.cells[i][j]).collect())
                .collect(),
            totals: order.iter().map(|&i| self.totals[i]).collect(),
        }
    }
}

/// One row of the rating table.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerRating {
    /// 1 = best: rated players by rating, those above the rated group first and those
    /// below or unrated last.
    pub rank: usize,
    /// The player's place in the list of players (from 0).
    pub index: usize,
    pub player: String,
    pub status: Status,
    /// Elo, anchored on the mean of the rated players (null unless rated).
    pub elo: Option<f64>,
    /// The 95% interval (null unless rated).
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub games: u64,
    pub points: f64,
    pub score: Option<f64>,
}

/// The joint Elo table.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratings {
    /// `logistic`: the Elo curve of the module documentation.
    pub model: String,
    /// `mean`: the rated players' mean rating is 0.
    pub anchor: String,
    /// `sandwich`: intervals from the robust covariance of the estimate.
    pub interval: String,
    pub confidence: f64,
    /// Rows in rank order.
    pub players: Vec<PlayerRating>,
}

/// A round robin or gauntlet: its crosstable and ratings.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentSummary {
    pub schema_version: u32,
    pub run_seed: u64,
    /// `round-robin` or `gauntlet`.
    pub format: String,
    pub self_play: bool,
    /// Specs of the players, as given, and the titles of their variants.
    pub players: Vec<String>,
    pub titles: Vec<String>,
    pub games_per_pair: u64,
    /// Games with a score between two different players.
    pub games: u64,
    /// `crosstable[i][j]`: player `i` against player `j` (null on the diagonal and for
    /// pairs without a scored game).
    pub crosstable: Vec<Vec<Option<Cell>>>,
    /// Each player's games and points against the others.
    pub totals: Vec<Total>,
    pub ratings: Ratings,
}

impl TournamentSummary {
    /// The crosstable and ratings of the tournament `t` (its `pair` is not used) from
    /// the results of its pairings.
    pub fn new(
        run_seed: u64,
        t: &Tournament,
        games_per_pair: u64,
        results: &[([usize; 2], PairTally)],
    ) -> TournamentSummary {
        let n = t.players.len();
        let Crosstable { cells, totals, .. } =
            Crosstable::new(t.players.clone(), t.titles.clone(), results);
        let est = joint_elo(n, results);
        let mut order: Vec<usize> = (0..n).collect();
        let class = |s: Status| match s {
            Status::Above => 0,
            Status::Rated => 1,
            Status::Below => 2,
            Status::Unrated => 3,
        };
        order.sort_by(|&a, &b| {
            class(est[a].status)
                .cmp(&class(est[b].status))
                .then(
                    est[b]
                        .elo
                        .unwrap_or(0.0)
                        .total_cmp(&est[a].elo.unwrap_or(0.0)),
                )
                .then(
                    totals[b]
                        .score
                        .unwrap_or(0.0)
                        .total_cmp(&totals[a].score.unwrap_or(0.0)),
                )
                .then(a.cmp(&b))
        });
        let players = order
            .iter()
            .enumerate()
            .map(|(r, &i)| {
                let e = est[i];
                let half = e.sd.map(|s| Z95 * s);
                PlayerRating {
                    rank: r + 1,
                    index: i,
                    player: t.players[i].clone(),
                    status: e.status,
                    elo: e.elo,
                    low: e.elo.zip(half).map(|(x, h)| x - h),
                    high: e.elo.zip(half).map(|(x, h)| x + h),
                    games: totals[i].games,
                    points: totals[i].points,
                    score: totals[i].score,
                }
            })
            .collect();
        TournamentSummary {
            schema_version: TOURNAMENT_SCHEMA_VERSION,
            run_seed,
            format: if t.gauntlet {
                "gauntlet"
            } else {
                "round-robin"
            }
            .to_owned(),
            self_play: t.self_play,
            players: t.players.clone(),
            titles: t.titles.clone(),
            games_per_pair,
            games: totals.iter().map(|x| x.games).sum::<u64>() / 2,
            crosstable: cells,
            totals,
            ratings: Ratings {
                model: "logistic".to_owned(),
                anchor: "mean".to_owned(),
                interval: "sandwich".to_owned(),
                confidence: 0.95,
                players,
            },
        }
    }
}

impl TournamentSummary {
    /// How the ratings were computed, naming the players that are not rated: the note
    /// above the rating table of the HTML report (`stats --html`).
    pub fn ratings_note(&self) -> String {
        let mut note = format!(
            "Joint Elo of the {} (seed {}): the logistic model fitted by maximum likelihood to all {} games between different players; the rated players' mean is 0; 95% intervals from the robust (sandwich) covariance.",
            if self.format == "gauntlet" {
                "gauntlet"
            } else {
                "round robin"
            },
            self.run_seed,
            self.games
        );
        let others: Vec<String> = self
            .ratings
            .players
            .iter()
            .filter(|p| p.status != Status::Rated)
            .map(|p| {
                let why = match p.status {
                    Status::Above => "+∞: took every point against the rated players",
                    Status::Below => "−∞: gave up every point to them",
                    _ => "not comparable",
                };
                format!("{} ({why})", p.player)
            })
            .collect();
        if !others.is_empty() {
            note += &format!(" Not rated: {}.", others.join(", "));
        }
        note
    }
}

impl Ratings {
    /// The rows with a finite rating, with that rating, in rank order.
    pub fn rated(&self) -> impl Iterator<Item = (&PlayerRating, f64)> {
        self.players.iter().filter_map(|p| Some((p, p.elo?)))
    }
}

/// The tournaments among `records` (records of round robins and gauntlets, grouped by
/// run seed and tournament, in order of first appearance); two-player records are not
/// part of any.
pub fn tournaments(records: &[GameRecord]) -> Vec<TournamentSummary> {
    let mut keys: Vec<(u64, Tournament, u64)> = vec![];
    let mut tallies: Vec<Vec<([usize; 2], PairTally)>> = vec![];
    for r in records {
        let Some(t) = &r.settings.tournament else {
            continue;
        };
        let key = Tournament {
            pair: [0, 0],
            ..t.clone()
        };
        let g = match keys
            .iter()
            .position(|(seed, k, _)| *seed == r.run_seed && *k == key)
        {
            Some(g) => g,
            None => {
                keys.push((r.run_seed, key, r.settings.games));
                tallies.push(vec![]);
                keys.len() - 1
            }
        };
        let list = &mut tallies[g];
        let i = match list.iter().position(|(p, _)| *p == t.pair) {
            Some(i) => i,
            None => {
                list.push((t.pair, PairTally::default()));
                list.len() - 1
            }
        };
        list[i].1.add(r);
    }
    keys.iter()
        .zip(&tallies)
        .map(|((seed, t, games), list)| TournamentSummary::new(*seed, t, *games, list))
        .collect()
}

/// Points as few digits as they need: `4`, `22.5`, `3.33`.
fn fmt_points(x: f64) -> String {
    if (x * 2.0).fract() == 0.0 {
        format!("{x}")
    } else {
        format!("{x:.2}")
    }
}

/// A rating rounded to a whole Elo with its sign (`+12`, `-3`, `0`).
fn fmt_elo(x: f64) -> String {
    let r = x.round();
    if r == 0.0 {
        "0".to_owned()
    } else {
        format!("{r:+.0}")
    }
}

/// The crosstable and the rating table as text.
pub fn human(t: &TournamentSummary) -> String {
    let n = t.players.len();
    let mut o = String::new();
    let pairings = if t.format == "gauntlet" {
        format!("gauntlet of {} against {} players", t.players[0], n - 1)
    } else {
        format!("round robin of {n} players")
    };
    o += &format!(
        "{pairings}{}, {} games per pairing, seed {}: {} games with a score between different players\n",
        if t.self_play { " with self-play" } else { "" },
        t.games_per_pair,
        t.run_seed,
        t.games
    );
    // The crosstable: numbered rows, columns by number.
    o += "crosstable: the row's points against the column / games\n";
    let label: Vec<String> = (0..n)
        .map(|i| format!("{:>2} {}", i + 1, t.players[i]))
        .collect();
    let cell = |i: usize, j: usize| -> String {
        match (i == j, &t.crosstable[i][j]) {
            (true, _) => "-".to_owned(),
            (false, Some(c)) => format!("{}/{}", fmt_points(c.points), c.games),
            (false, None) => ".".to_owned(),
        }
    };
    let total = |i: usize| -> String {
        let x = &t.totals[i];
        format!("{}/{}", fmt_points(x.points), x.games)
    };
    let score = |i: usize| -> String {
        t.totals[i]
            .score
            .map_or("-".to_owned(), |s| format!("{:.1}%", 100.0 * s))
    };
    let lw = label.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..n)
        .map(|j| {
            (0..n)
                .map(|i| cell(i, j).len())
                .chain([(j + 1).to_string().len()])
                .max()
                .unwrap_or(1)
        })
        .collect();
    let tw = (0..n).map(|i| total(i).len()).max().unwrap_or(5).max(5);
    let mut head = format!("{:lw$}", "");
    for (j, w) in widths.iter().enumerate() {
        head += &format!("  {:>w$}", j + 1);
    }
    head += &format!("  {:>tw$}  {:>6}", "total", "score");
    o += head.trim_end();
    o.push('\n');
    for (i, l) in label.iter().enumerate() {
        let mut line = format!("{l:lw$}");
        for (j, w) in widths.iter().enumerate() {
            line += &format!("  {:>w$}", cell(i, j));
        }
        line += &format!("  {:>tw$}  {:>6}", total(i), score(i));
        o += &line;
        o.push('\n');
    }
    // The rating table.
    let r = &t.ratings;
    o += &format!(
        "joint Elo (logistic model, maximum likelihood over all games; the rated players' mean is 0; {:.0}% intervals):\n",
        100.0 * r.confidence
    );
    let pw = r
        .players
        .iter()
        .map(|p| p.player.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    o += &format!(
        "rank  {:pw$}  {:>6}  {:>15}  {:>6}  {:>6}\n",
        "player", "Elo", "95% CI", "games", "score"
    );
    for p in &r.players {
        let (elo, ci) = match (p.status, p.elo, p.low, p.high) {
            (Status::Rated, Some(e), Some(l), Some(h)) => {
                (fmt_elo(e), format!("{}..{}", fmt_elo(l), fmt_elo(h)))
            }
            (Status::Above, ..) => ("+inf".to_owned(), String::new()),
            (Status::Below, ..) => ("-inf".to_owned(), String::new()),
            _ => ("?".to_owned(), String::new()),
        };
        o += &format!(
            "{:>4}  {:pw$}  {elo:>6}  {ci:>15}  {:>6}  {:>6}\n",
            p.rank,
            p.player,
            p.games,
            p.score
                .map_or("-".to_owned(), |s| format!("{:.1}%", 100.0 * s))
        );
    }
    let rated = r
        .players
        .iter()
        .filter(|p| p.status == Status::Rated)
        .count();
    if rated < n {
        o += &format!(
            "note: no finite ratings fit all games: {rated} of {n} players form the largest group that exchanged points, rated on their games; +inf: took every point against that group (directly or through players who did), -inf: gave up every point to it, ?: not comparable\n"
        );
    }
    o
}

/// CSV of the crosstables: one row per player and opponent who played a scored game.
pub fn crosstable_csv(ts: &[TournamentSummary]) -> Result<String, StatsError> {
    write_csv(
        &[
            "run_seed", "player", "opponent", "games", "wins", "draws", "losses", "points", "score",
        ],
        ts.iter().flat_map(|t| {
            t.crosstable.iter().enumerate().flat_map(move |(i, row)| {
                row.iter().enumerate().filter_map(move |(j, c)| {
                    c.map(|c| {
                        [
                            t.run_seed.to_string(),
                            t.players[i].clone(),
                            t.players[j].clone(),
                            c.games.to_string(),
                            c.wins.to_string(),
                            c.draws.to_string(),
                            c.losses.to_string(),
                            fmt_points(c.points),
                            format!("{:.4}", c.score),
                        ]
                    })
                })
            })
        }),
    )
}

/// CSV of the rating tables: one row per player, in rank order.
pub fn ratings_csv(ts: &[TournamentSummary]) -> Result<String, StatsError> {
    // Rounded first, so that a tiny negative rating is not written `-0.0`.
    let o = |x: Option<f64>| {
        x.map_or(String::new(), |v| {
            format!("{:.1}", (v * 10.0).round() / 10.0 + 0.0)
        })
    };
    write_csv(
        &[
            "run_seed", "rank", "player", "status", "elo", "elo_low", "elo_high", "games",
            "points", "score",
        ],
        ts.iter().flat_map(|t| {
            t.ratings.players.iter().map(move |p| {
                [
                    t.run_seed.to_string(),
                    p.rank.to_string(),
                    p.player.clone(),
                    match p.status {
                        Status::Rated => "rated",
                        Status::Above => "above",
                        Status::Below => "below",
                        Status::Unrated => "unrated",
                    }
                    .to_owned(),
                    o(p.elo),
                    o(p.low),
                    o(p.high),
                    p.games.to_string(),
                    fmt_points(p.points),
                    p.score.map_or(String::new(), |s| format!("{s:.4}")),
                ]
            })
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pairing's tally from wins, draws and losses of A.
    fn wdl(w: u64, d: u64, l: u64) -> PairTally {
        PairTally {
            games: w + d + l,
            wins_a: w,
            wins_b: l,
            draws: d,
            points_a: w as f64 + 0.5 * d as f64,
            points_a_sq: w as f64 + 0.25 * d as f64,
        }
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn four_players_match_an_independent_computation() {
        // Computed in Python with other methods: the ratings by Zermelo's iteration for
        // Bradley–Terry (draws as half points), the covariance from a finite-difference
        // Hessian with player 0 fixed and the per-game score gradients, mapped to mean 0.
        let results = [
            ([0, 1], wdl(6, 2, 2)),
            ([0, 2], wdl(3, 1, 4)),
            ([0, 3], wdl(5, 0, 1)),
            ([1, 2], wdl(5, 4, 3)),
            ([1, 3], wdl(2, 2, 0)),
            ([2, 3], wdl(7, 1, 2)),
        ];
        let elo = [
            95.86050247415753,
            30.971031407712015,
            36.21039758949152,
            -163.04193147136112,
        ];
        let sd = [
            53.75484302460042,
            43.44236046008526,
            46.147559785509124,
            61.91216342237776,
        ];
        let e = joint_elo(4, &results);
        for i in 0..4 {
            assert_eq!(e[i].status, Status::Rated);
            assert!(close(e[i].elo.unwrap(), elo[i], 1e-6), "{i}: {:?}", e[i]);
            assert!(close(e[i].sd.unwrap(), sd[i], 1e-3), "{i}: {:?}", e[i]);
        }
        // B's side of a pairing gives the same fit.
        let flipped: Vec<([usize; 2], PairTally)> = results
            .iter()
            .map(|&([a, b], t)| ([b, a], wdl(t.wins_b, t.draws, t.wins_a)))
            .collect();
        let f = joint_elo(4, &flipped);
        for i in 0..4 {
            assert!(close(f[i].elo.unwrap(), elo[i], 1e-6));
            assert!(close(f[i].sd.unwrap(), sd[i], 1e-3));
        }
    }

    #[test]
    fn two_players_give_the_elo_of_the_score_and_a_draw_aware_interval() {
        // 30 wins, 40 draws, 30 losses... of 120 games: score s = (50 + 20) / 120.
        let t = wdl(50, 40, 30);
        let e = joint_elo(2, &[([0, 1], t)]);
        let s: f64 = 70.0 / 120.0;
        let diff = -400.0 * (1.0 / s - 1.0).log10();
        assert!(close(e[0].elo.unwrap(), diff / 2.0, 1e-9), "{e:?}");
        assert!(close(e[1].elo.unwrap(), -diff / 2.0, 1e-9));
        // Delta method on the difference: var(s) / (n · (s(1-s))²) in nepers², where
        // var(s) is the observed variance of the game scores; each rating has half.
        let n = 120.0;
        let var_s = (50.0 * (1.0 - s).powi(2) + 40.0 * (0.5 - s).powi(2) + 30.0 * s * s) / n;
        let sd_diff = ELO_PER_NEPER * (var_s / n).sqrt() / (s * (1.0 - s));
        assert!(close(e[0].sd.unwrap(), sd_diff / 2.0, 1e-9), "{e:?}");
        // Without draws the same score has the binomial variance, a wider interval.
        let wl = joint_elo(2, &[([0, 1], wdl(70, 0, 50))]);
        assert!(close(wl[0].elo.unwrap(), diff / 2.0, 1e-9));
        let binomial = ELO_PER_NEPER / (n * s * (1.0 - s)).sqrt();
        assert!(close(wl[0].sd.unwrap(), binomial / 2.0, 1e-9));
        assert!(wl[0].sd.unwrap() > e[0].sd.unwrap());
    }

    #[test]
    fn perfect_scores_put_players_above_or_below_the_rated_group() {
        // 0 and 1 exchange points; 2 beats both every time; 3 loses every game.
        let results = [
            ([0, 1], wdl(3, 1, 2)),
            ([0, 2], wdl(0, 0, 4)),
            ([1, 2], wdl(0, 0, 4)),
            ([0, 3], wdl(4, 0, 0)),
            ([3, 1], wdl(0, 0, 4)),
            ([2, 3], wdl(4, 0, 0)),
        ];
        let e = joint_elo(4, &results);
        let st: Vec<Status> = e.iter().map(|x| x.status).collect();
        assert_eq!(
            st,
            [Status::Rated, Status::Rated, Status::Above, Status::Below]
        );
        // The rated pair alone: 3.5 of 6 for player 0.
        let d = -400.0 * (6.0f64 / 3.5 - 1.0).log10();
        assert!(close(e[0].elo.unwrap(), d / 2.0, 1e-9));
        // A gauntlet whose first player wins everything: only it is rated; players who
        // never met stay apart.
        let g = joint_elo(3, &[([0, 1], wdl(2, 0, 0)), ([0, 2], wdl(2, 0, 0))]);
        assert_eq!(g[0].status, Status::Rated);
        assert_eq!(g[0].elo, Some(0.0));
        assert_eq!((g[1].status, g[2].status), (Status::Below, Status::Below));
        // One who lost every game to the rated group is below it, one who won every game
        // against it above; players who never met the group are not comparable.
        let h = joint_elo(
            6,
            &[
                ([0, 1], wdl(1, 1, 1)),
                ([2, 0], wdl(0, 0, 3)),
                ([3, 1], wdl(3, 0, 0)),
                ([4, 5], wdl(1, 0, 1)),
            ],
        );
        let st: Vec<Status> = h.iter().map(|x| x.status).collect();
        assert_eq!(
            st,
            [
                Status::Rated,
                Status::Rated,
                Status::Below,
                Status::Above,
                Status::Unrated,
                Status::Unrated
            ]
        );
        // Nobody played: nobody is rated.
        let none = joint_elo(3, &[([0, 1], PairTally::default())]);
        assert!(none.iter().all(|x| x.status == Status::Unrated));
        // Self-play and bad indices are ignored.
        let s = joint_elo(2, &[([0, 0], wdl(3, 0, 3)), ([0, 5], wdl(1, 0, 0))]);
        assert!(s.iter().all(|x| x.status == Status::Unrated));
    }

    #[test]
    fn crosstable_and_table_from_tallies() {
        let t = Tournament {
            players: vec!["a".into(), "b".into(), "c".into()],
            titles: vec!["A".into(), "B".into(), "C".into()],
            gauntlet: false,
            self_play: true,
            pair: [0, 0],
        };
        let results = [
            ([0, 0], wdl(2, 0, 2)),
            ([0, 1], wdl(3, 1, 0)),
            ([0, 2], wdl(1, 2, 1)),
            ([1, 2], wdl(0, 0, 4)),
        ];
        let s = TournamentSummary::new(9, &t, 4, &results);
        assert_eq!(s.games, 12);
        let c = s.crosstable[1][0].unwrap();
        assert_eq!((c.games, c.wins, c.draws, c.losses), (4, 0, 1, 3));
        assert_eq!(c.points, 0.5);
        assert!(s.crosstable[0][0].is_none());
        assert_eq!(s.totals[0].points, 3.5 + 2.0);
        assert_eq!(s.totals[0].games, 8);
        // Ranks follow the ratings: c beat b more clearly than a did.
        let order: Vec<&str> = s
            .ratings
            .players
            .iter()
            .map(|p| p.player.as_str())
            .collect();
        assert_eq!(order, ["c", "a", "b"]);
        let text = human(&s);
        assert!(text.contains(" 2 b"), "{text}");
        assert!(text.contains("0.5/4"), "{text}");
        let csv = crosstable_csv(std::slice::from_ref(&s)).unwrap();
        assert!(csv.starts_with(
            "schema_version,run_seed,player,opponent,games,wins,draws,losses,points,score\n"
        ));
        assert!(csv.contains("\n2,9,b,a,4,0,1,3,0.5,0.1250\n"), "{csv}");
        let csv = ratings_csv(std::slice::from_ref(&s)).unwrap();
        assert!(csv.starts_with(
            "schema_version,run_seed,rank,player,status,elo,elo_low,elo_high,games,points,score\n"
        ));
        assert_eq!(csv.lines().count(), 4);
    }
}

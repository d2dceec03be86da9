//! The evaluation function: a weighted sum of terms declared by the variant's options.
//!
//! For one player ("me") each term is my figure minus the mean figure of the other seats:
//! - **material**: the value of my pieces on the board and in hand (`ai value TYPE`,
//!   default 1);
//! - **progress**: how far my pieces have come along the progress direction (`ai progress`,
//!   default `next`, followed with each player's symmetry). A piece on a position that is
//!   `k` steps from the end of the direction's chain has made `L - k` steps, where `L` is
//!   one more than the longest chain; pieces in hand have made none;
//! - **zone**: the number of my pieces in the zone named by `ai zone`;
//! - **capture**: pieces captured by me minus pieces captured from me on the path from the
//!   root of the search to the position (for a one-ply search: the move's captures);
//! - **mobility**: the number of legal moves of the player to move (positive when it is me,
//!   negative otherwise).
//!
//! Pieces of random players and piece types of value 0 are ignored by every term. A
//! finished game scores ±[`WIN`] (scaled by points).

use super::config::AiConfig;
use super::game::{Game, Outcome};
use crate::model::PositionId;

/// Score of a won game (far above any sum of terms).
pub const WIN: f64 = 1.0e9;

/// Precomputed tables for one game and one configuration.
#[derive(Clone, Debug)]
pub struct Evaluator {
    weights: super::config::Weights,
    /// Value per piece type.
    values: Vec<f64>,
    zone: Option<usize>,
    /// `progress[player][pos]`: steps made by a piece of `player` on `pos` (0 when the
    /// position is on a cycle).
    progress: Vec<Vec<f64>>,
    random: Vec<bool>,
    seats: Vec<usize>,
}

impl Evaluator {
    /// Builds the tables; fails when a named zone, direction or piece type does not exist.
    pub fn new<G: Game>(game: &G, config: &AiConfig) -> Result<Evaluator, super::AiConfigError> {
        Self::build(game, config).map_err(super::AiConfigError)
    }

    fn build<G: Game>(game: &G, config: &AiConfig) -> Result<Evaluator, String> {
        let w = config.weights.clone();
        let mut values = vec![1.0; game.num_piece_types()];
        for (name, v) in &config.values {
            let t = game
                .piece_type_index(name)
                .ok_or_else(|| format!("option \"ai value {name}\": no piece type `{name}`"))?;
            values[t] = *v;
        }
        let zone = match (&config.zone, w.zone != 0.0) {
            (Some(z), _) => Some(
                game.zone_index(z)
                    .ok_or_else(|| format!("option \"ai zone\": no zone `{z}`"))?,
            ),
            (None, true) => return Err("option \"ai weight zone\" needs \"ai zone\"".to_owned()),
            (None, false) => None,
        };
        let np = game.num_players();
        let mut progress = vec![vec![]; np];
        if w.progress != 0.0 {
            let dir = game
                .direction_index(&config.progress_direction)
                .ok_or_else(|| {
                    format!(
                        "option \"ai progress\": no direction `{}`",
                        config.progress_direction
                    )
                })?;
            let n = game.num_positions();
            for (p, table) in progress.iter_mut().enumerate() {
                // Remaining steps to the end of the chain, or None on a cycle.
                let remaining: Vec<Option<u32>> = (0..n as u32)
                    .map(|start| {
                        let mut pos = PositionId::new(start);
                        let mut k = 0;
                        while let Some(next) = game.link(p, dir, pos) {
                            k += 1;
                            pos = next;
                            if k > n as u32 {
                                return None;
                            }
                        }
                        Some(k)
                    })
                    .collect();
                let longest = remaining.iter().flatten().max().copied().unwrap_or(0) + 1;
                *table = remaining
                    .iter()
                    .map(|r| r.map_or(0.0, |k| (longest - k) as f64))
                    .collect();
            }
        }
        Ok(Evaluator {
            weights: w,
            values,
            zone,
            progress,
            random: (0..np).map(|p| game.is_random(p)).collect(),
            seats: game.seats(),
        })
    }

    /// The static terms (material, progress, zone) summed per player.
    fn per_player<G: Game>(&self, game: &G) -> Vec<f64> {
        let mut sums = vec![0.0; self.random.len()];
        let w = &self.weights;
        game.for_each_piece(&mut |pc| {
            let v = self.values.get(pc.ty).copied().unwrap_or(1.0);
            if self.random[pc.owner] || v == 0.0 {
                return;
            }
            let n = pc.count as f64;
            let mut s = w.material * v * n;
            if let Some(pos) = pc.pos {
                if w.progress != 0.0 {
                    s += w.progress
                        * self.progress[pc.owner]
                            .get(pos.index())
                            .copied()
                            .unwrap_or(0.0)
                        * n;
                }
                if let Some(z) = self.zone {
                    if w.zone != 0.0 && game.in_zone(z, pc.owner, pos) {
                        s += w.zone * n;
                    }
                }
            }
            sums[pc.owner] += s;
        });
        sums
    }

    /// Static evaluation for `me`. `captures` is the capture balance of the path (see the
    /// module documentation); `mobility` the number of legal moves of the player to move,
    /// when known.
    pub fn evaluate<G: Game>(
        &self,
        game: &G,
        me: usize,
        captures: f64,
        mobility: Option<usize>,
    ) -> f64 {
        let sums = self.per_player(game);
        let others: Vec<f64> = self
            .seats
            .iter()
            .filter(|&&s| s != me)
            .map(|&s| sums[s])
            .collect();
        let mean = if others.is_empty() {
            0.0
        } else {
            others.iter().sum::<f64>() / others.len() as f64
        };
        let mut score = sums[me] - mean + self.weights.capture * captures;
        if let (Some(m), true) = (mobility, self.weights.mobility != 0.0) {
            let mover = game.current_player();
            if !self.random[mover] {
                score += self.weights.mobility * if mover == me { m as f64 } else { -(m as f64) };
            }
        }
        score
    }

    /// Score of a finished game for `me`.
    pub fn terminal(&self, outcome: &Outcome, me: usize) -> f64 {
        let others: Vec<f64> = self
            .seats
            .iter()
            .filter(|&&s| s != me)
            .map(|&s| outcome.points.get(s).copied().unwrap_or(0.0))
            .collect();
        let mine = outcome.points.get(me).copied().unwrap_or(0.0);
        if others.is_empty() {
            // One seat: a win (1) is +WIN, a draw (1/2: stuck, repeated) 0, a loss -WIN.
            return (mine - 0.5) * 2.0 * WIN;
        }
        let mean = others.iter().sum::<f64>() / others.len() as f64;
        (mine - mean) * WIN
    }
}

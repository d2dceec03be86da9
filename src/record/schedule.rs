//! The game indices of a run: which games a run, a shard or a round robin's pairing holds.
//!
//! A two-player run numbers its games `0..N`; colour-swapped pair `p` is games `2p` and
//! `2p + 1`, and shards deal out whole pairs ([`in_shard`]). A round robin or gauntlet
//! numbers its games with a [`Schedule`]: the pairings of `n` players, each playing `N`
//! games (colour-swapped pairs as in a two-player run):
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
//! games. `index mod 2 = k mod 2` (who moves first alternates as in a two-player run), and
//! `index / 2 = m·P + p` numbers the colour-swapped pairs of all pairings, so
//! [`in_shard`] deals them to shards unchanged. With one pairing the index is `k`: a
//! two-player run is the special case `P = 1`. When `N` is odd the last block has only the
//! even games, and its odd indices are not games of the run.
//!
//! These are facts of a recorded run (its settings say the players, `-n` and the kind of
//! tournament), so they live with the records: the statistics read them to find the games
//! a merged run is missing, and the tournament plays by them.

use std::collections::HashSet;

/// Is game `index` in shard `k` of `n`? Colour-swapped pairs stay together.
pub fn in_shard(index: u64, shard: Option<(u64, u64)>) -> bool {
    shard.is_none_or(|(k, n)| (index / 2) % n == k - 1)
}

/// How many games of `0..games` a run plays: those of its shard, less those already
/// played (`skip`). Computed without enumerating the indices, so `-n` may be huge.
pub fn games_to_play(games: u64, shard: Option<(u64, u64)>, skip: &HashSet<u64>) -> u64 {
    let in_run = match shard {
        None => games,
        Some((k, n)) => {
            let r = k - 1;
            let full_pairs = games / 2;
            let pairs = full_pairs / n + u64::from(full_pairs % n > r);
            2 * pairs + u64::from(games % 2 == 1 && full_pairs % n == r)
        }
    };
    let skipped = skip
        .iter()
        .filter(|&&i| i < games && in_shard(i, shard))
        .count() as u64;
    in_run - skipped
}

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
    pub fn index_bound(&self) -> Option<u64> {
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

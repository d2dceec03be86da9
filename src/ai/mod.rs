//! The AI players: `random`, `first`, `greedy`, `alphabeta`, `expectimax` and `mcts`,
//! configured by a variant's `(option "ai …" …)` forms (see docs/ai.md).
//!
//! The AIs play through the small [`Game`] trait ([`game`]); [`engine_game`] adapts the
//! engine to it. An [`Ai`] is made for one game and one player and picks a move with
//! [`Ai::choose`]; every random choice comes from the [`Rng`] it is given, so a seed gives
//! the same games on any machine and thread count (unless a time limit is set).
//!
//! Sub-modules: [`config`] (options), `eval` (evaluation terms), `search`
//! (alpha-beta and expectimax), `mcts` (UCT).

pub mod config;
pub mod engine_game;
pub(crate) mod eval;
pub mod game;
pub(crate) mod mcts;
pub(crate) mod search;

pub use config::{AiConfig, AiConfigError, AiKind, Limits};
pub use game::{
    Ending, Game, Outcome, PieceInfo, PlayerResult, PositionId, WrittenMoveError, play_written,
};

use crate::rng::Rng;
use eval::Evaluator;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The ply cap of a game when none is given (`autoplay --max-plies`; Ur games take about
/// 150-250 plies, dice included).
pub const DEFAULT_MAX_PLIES: u32 = 2000;

/// Default depth of `alphabeta` (players' plies).
pub const DEFAULT_ALPHABETA_DEPTH: u32 = 4;
/// Default depth of `expectimax` (players' plies).
pub const DEFAULT_EXPECTIMAX_DEPTH: u32 = 2;

/// A move choice and what it cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Index into the legal moves.
    pub index: usize,
    /// Positions made while choosing.
    pub nodes: u64,
    /// Depth of the last finished search iteration (0 when no search ran).
    pub depth: u32,
}

/// An AI for one game. See the module documentation.
pub struct Ai<G: Game> {
    pub config: AiConfig,
    eval: Evaluator,
    table: search::Table,
    bufs: Vec<G::Moves>,
    orders: Vec<Vec<usize>>,
}

impl<G: Game> Ai<G> {
    /// Builds the AI; fails when the evaluation names a zone, direction or piece type the
    /// game lacks.
    pub fn new(game: &G, config: AiConfig) -> Result<Ai<G>, AiConfigError> {
        let eval = Evaluator::new(game, &config)?;
        Ok(Ai {
            config,
            eval,
            table: search::Table::default(),
            bufs: vec![],
            orders: vec![],
        })
    }

    /// Picks one of `moves` (the legal moves of `game`, at least one) for the player to
    /// move. `game` is left as it was.
    pub fn choose(&mut self, game: &mut G, moves: &G::Moves, rng: &mut Rng) -> Choice {
        self.choose_until(game, moves, rng, None)
    }

    /// Like [`Ai::choose`], but a search returns early (with the best move found so far)
    /// once `stop` is set: a Ctrl-C does not wait for a long search to finish.
    pub fn choose_until(
        &mut self,
        game: &mut G,
        moves: &G::Moves,
        rng: &mut Rng,
        stop: Option<&AtomicBool>,
    ) -> Choice {
        let n = G::num_moves(moves);
        let one = Choice {
            index: 0,
            nodes: 0,
            depth: 0,
        };
        if n <= 1 {
            return one;
        }
        let limits = self.config.limits;
        let deadline = limits
            .time_ms
            .map(|ms| Instant::now() + Duration::from_millis(ms));
        match self.config.kind {
            AiKind::Random => Choice {
                index: rng.below(n),
                ..one
            },
            AiKind::First => one,
            // The game's own engine (the tournament runner passes the player's program;
            // here the first program's). Games without programs play uniformly at random.
            AiKind::Program => Choice {
                index: game
                    .program_move(0, moves, rng)
                    .unwrap_or_else(|| rng.below(n)),
                ..one
            },
            AiKind::Greedy => self.greedy(game, moves, rng, stop),
            AiKind::AlphaBeta | AiKind::Expectimax => {
                let alphabeta = self.config.kind == AiKind::AlphaBeta;
                let default = if alphabeta {
                    DEFAULT_ALPHABETA_DEPTH
                } else {
                    DEFAULT_EXPECTIMAX_DEPTH
                };
                let me = game.current_player();
                let mut s = search::Search::<G> {
                    eval: &self.eval,
                    me,
                    table: &mut self.table,
                    bufs: &mut self.bufs,
                    orders: &mut self.orders,
                    alphabeta,
                    node_limit: limits.nodes,
                    deadline,
                    stop,
                    nodes: 0,
                    aborted: false,
                    capture_weight: self.config.weights.capture,
                };
                let found = s.root(game, moves, limits.depth.unwrap_or(default), rng);
                Choice {
                    index: found.index,
                    nodes: s.nodes,
                    depth: found.depth,
                }
            }
            AiKind::Mcts => {
                if self.bufs.is_empty() {
                    self.bufs.push(G::Moves::default());
                }
                let playouts = limits.playouts.unwrap_or(mcts::DEFAULT_PLAYOUTS);
                let (index, nodes) = mcts::search(
                    game,
                    moves,
                    playouts,
                    mcts::Bounds {
                        node_limit: limits.nodes,
                        deadline,
                        stop,
                    },
                    rng,
                    &mut self.bufs[0],
                );
                Choice {
                    index,
                    nodes,
                    depth: 0,
                }
            }
        }
    }

    /// One ply: the move whose resulting position evaluates best for the mover (the move's
    /// own captures count in the capture term); ties are broken at random.
    fn greedy(
        &mut self,
        game: &mut G,
        moves: &G::Moves,
        rng: &mut Rng,
        stop: Option<&AtomicBool>,
    ) -> Choice {
        if self.bufs.is_empty() {
            self.bufs.push(G::Moves::default());
        }
        let me = game.current_player();
        let n = G::num_moves(moves);
        let mut best = f64::NEG_INFINITY;
        let mut ties = 0;
        let mut index = 0;
        for i in 0..n {
            if i % 64 == 63 && stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
                break;
            }
            let captures = G::captures(moves, i) as f64;
            let undo = game.make(moves, i);
            // The next position's moves tell whether the game is over (and its mobility).
            let buf = &mut self.bufs[0];
            game.legal_moves(buf);
            let v = match game.outcome(buf) {
                Some(o) => self.eval.terminal(&o, me),
                None => self
                    .eval
                    .evaluate(game, me, captures, Some(G::num_moves(buf))),
            };
            game.unmake(moves, i, undo);
            if v > best {
                best = v;
                index = i;
                ties = 1;
            } else if v == best {
                // Reservoir sampling: each of the equal moves is kept with equal chance.
                ties += 1;
                if rng.below(ties) == 0 {
                    index = i;
                }
            }
        }
        Choice {
            index,
            nodes: n as u64,
            depth: 1,
        }
    }
}

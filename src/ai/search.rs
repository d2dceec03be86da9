//! Depth-limited search for `alphabeta` and `expectimax`: iterative deepening over an
//! expectiminimax tree.
//!
//! Values are always from the point of view of the AI's player ("me"): my turns maximise,
//! other seats' turns minimise (the "paranoid" reading for three or more seats), and turns
//! of random players (dice) are chance nodes whose value is the average over the random
//! player's moves, each equally likely. Depth counts the players' plies only.
//!
//! - `alphabeta` prunes at decision nodes, probes a transposition table keyed by the
//!   engine's Zobrist hash, and orders moves: the table's best move, then captures, then
//!   the rest (shuffled at the root, so that equal moves are chosen at random).
//! - `expectimax` searches the same tree and, at chance nodes, merges outcomes that give
//!   the next player the same choices: two throws whose every continuation leads to the
//!   same position (ignoring where the dice lie) are searched once, weighted by their
//!   count. In Ur this turns 16 dice outcomes into at most 5.
//!
//! Node and time limits stop the search between or inside iterations; the move of the last
//! finished iteration is played.

use super::eval::Evaluator;
use super::game::Game;
use crate::rng::Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

const TT_BITS: u32 = 18;

/// The alpha-beta window of a node: values at or below `alpha` or at or above `beta` are
/// already decided by a sibling higher up.
#[derive(Clone, Copy, Debug)]
struct Window {
    alpha: f64,
    beta: f64,
}

impl Window {
    /// No bound: the node's exact value is wanted.
    const FULL: Window = Window {
        alpha: f64::NEG_INFINITY,
        beta: f64::INFINITY,
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    generation: u32,
    depth: u32,
    bound: Bound,
    best: u32,
    /// Value minus the capture term of the path that led here.
    value: f64,
}

/// The transposition table: one entry per slot, replaced when the new one is deeper or
/// newer.
#[derive(Clone, Debug, Default)]
pub struct Table {
    slots: Vec<Option<Entry>>,
    generation: u32,
}

impl Table {
    fn probe(&self, key: u64) -> Option<Entry> {
        let e = (*self.slots.get((key >> (64 - TT_BITS)) as usize)?)?;
        (e.key == key && e.generation == self.generation).then_some(e)
    }
    fn store(&mut self, e: Entry) {
        if self.slots.is_empty() {
            self.slots = vec![None; 1 << TT_BITS];
        }
        let slot = &mut self.slots[(e.key >> (64 - TT_BITS)) as usize];
        if slot.is_none_or(|old| old.generation != e.generation || old.depth <= e.depth) {
            *slot = Some(e);
        }
    }
}

/// What one search needs, borrowed from the [`super::Ai`].
pub struct Search<'a, G: Game> {
    pub eval: &'a Evaluator,
    pub me: usize,
    pub table: &'a mut Table,
    pub bufs: &'a mut Vec<G::Moves>,
    pub orders: &'a mut Vec<Vec<usize>>,
    /// Prune at decision nodes and use the table (alphabeta), or merge chance outcomes
    /// (expectimax).
    pub alphabeta: bool,
    pub node_limit: Option<u64>,
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C): the search stops at once.
    pub stop: Option<&'a AtomicBool>,
    pub nodes: u64,
    pub aborted: bool,
    pub capture_weight: f64,
}

/// Result of a search.
pub struct Found {
    pub index: usize,
    pub depth: u32,
}

impl<G: Game> Search<'_, G> {
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let out_of_nodes = self.node_limit.is_some_and(|l| self.nodes >= l);
        let check = self.nodes % 256 == 0;
        let out_of_time = check && self.deadline.is_some_and(|d| Instant::now() >= d);
        let stopped = check && self.stop.is_some_and(|s| s.load(Ordering::Relaxed));
        self.aborted = out_of_nodes || out_of_time || stopped;
        self.aborted
    }

    fn ensure(&mut self, ply: usize) {
        while self.bufs.len() <= ply {
            self.bufs.push(G::Moves::default());
        }
        while self.orders.len() <= ply {
            self.orders.push(vec![]);
        }
    }

    /// Capture balance change of move `i` made by `mover`.
    fn capture_delta(&self, g: &G, moves: &G::Moves, i: usize, mover: usize) -> f64 {
        if self.capture_weight == 0.0 || g.is_random(mover) {
            return 0.0;
        }
        let c = G::captures(moves, i) as f64;
        if mover == self.me { c } else { -c }
    }

    /// Iterative deepening from the root. `moves` are the root's legal moves.
    pub fn root(&mut self, g: &mut G, moves: &G::Moves, max_depth: u32, rng: &mut Rng) -> Found {
        let n = G::num_moves(moves);
        let mut order: Vec<usize> = (0..n).collect();
        // Shuffle so that equal moves are picked at random (Fisher-Yates).
        for i in (1..n).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut best = Found {
            index: order[0],
            depth: 0,
        };
        if n == 1 {
            return best;
        }
        self.table.generation = self.table.generation.wrapping_add(1);
        let mover = g.current_player();
        for depth in 1..=max_depth.max(1) {
            let mut alpha = f64::NEG_INFINITY;
            let mut iteration_best = order[0];
            let mut scored = vec![];
            for &i in &order {
                let cap = self.capture_delta(g, moves, i, mover);
                let undo = g.make(moves, i);
                let window = Window {
                    alpha,
                    beta: f64::INFINITY,
                };
                let v = self.value(g, 1, depth - 1, window, cap);
                g.unmake(moves, i, undo);
                if self.aborted {
                    break;
                }
                scored.push((i, v));
                if v > alpha {
                    alpha = v;
                    iteration_best = i;
                }
            }
            if self.aborted {
                break;
            }
            best = Found {
                index: iteration_best,
                depth,
            };
            // Best first for the next iteration; the others keep their shuffled order.
            order.retain(|&i| i != iteration_best);
            order.insert(0, iteration_best);
            if alpha.abs() >= super::eval::WIN * 0.5 {
                break; // a forced result: deeper search changes nothing
            }
        }
        best
    }

    /// Value of the current position for `me`, searched `depth` plies deep.
    fn value(&mut self, g: &mut G, ply: usize, depth: u32, window: Window, cap: f64) -> f64 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0.0;
        }
        self.ensure(ply);
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        g.legal_moves(&mut moves);
        let v = self.value_with_moves(g, &moves, ply, depth, window, cap);
        self.bufs[ply] = moves;
        v
    }

    fn value_with_moves(
        &mut self,
        g: &mut G,
        moves: &G::Moves,
        ply: usize,
        depth: u32,
        window: Window,
        cap: f64,
    ) -> f64 {
        let Window {
            mut alpha,
            mut beta,
        } = window;
        if let Some(o) = g.outcome(moves) {
            return self.eval.terminal(&o, self.me);
        }
        let n = G::num_moves(moves);
        let mover = g.current_player();
        if n == 0 || depth == 0 {
            let mobility = (!g.is_random(mover)).then_some(n);
            return self.eval.evaluate(g, self.me, cap, mobility);
        }
        if g.is_random(mover) {
            return self.chance(g, moves, ply, depth, cap);
        }
        let key = g.hash();
        let mut tt_best = None;
        let hit = if self.alphabeta {
            self.table.probe(key)
        } else {
            None
        };
        if let Some(e) = hit {
            tt_best = Some(e.best as usize);
            if e.depth >= depth {
                let v = e.value + self.capture_weight * cap;
                match e.bound {
                    Bound::Exact => return v,
                    Bound::Lower if v >= beta => return v,
                    Bound::Upper if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        let mut order = std::mem::take(&mut self.orders[ply]);
        order.clear();
        if let Some(b) = tt_best.filter(|&b| b < n) {
            order.push(b);
        }
        for i in 0..n {
            if Some(i) != tt_best && G::captures(moves, i) > 0 {
                order.push(i);
            }
        }
        for i in 0..n {
            if Some(i) != tt_best && G::captures(moves, i) == 0 {
                order.push(i);
            }
        }
        let maximise = mover == self.me;
        let (alpha0, beta0) = (alpha, beta);
        let mut best = if maximise {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut best_i = order[0];
        for &i in &order {
            let c = cap + self.capture_delta(g, moves, i, mover);
            let undo = g.make(moves, i);
            let v = self.value(g, ply + 1, depth - 1, Window { alpha, beta }, c);
            g.unmake(moves, i, undo);
            if self.aborted {
                break;
            }
            if maximise {
                if v > best {
                    best = v;
                    best_i = i;
                }
                alpha = alpha.max(v);
            } else {
                if v < best {
                    best = v;
                    best_i = i;
                }
                beta = beta.min(v);
            }
            if self.alphabeta && alpha >= beta {
                break;
            }
        }
        self.orders[ply] = order;
        if self.alphabeta && !self.aborted {
            let bound = if best <= alpha0 {
                Bound::Upper
            } else if best >= beta0 {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table.store(Entry {
                key,
                generation: self.table.generation,
                depth,
                bound,
                best: best_i as u32,
                value: best - self.capture_weight * cap,
            });
        }
        best
    }

    /// A chance node: the average over the random player's moves.
    fn chance(&mut self, g: &mut G, moves: &G::Moves, ply: usize, depth: u32, cap: f64) -> f64 {
        let n = G::num_moves(moves);
        // (representative move, weight)
        let mut groups: Vec<(usize, u64, u32)> = Vec::with_capacity(n);
        if self.alphabeta || n == 1 {
            groups.extend((0..n).map(|i| (i, 0, 1)));
        } else {
            self.ensure(ply + 1);
            let mut next = std::mem::take(&mut self.bufs[ply + 1]);
            let mut keys = vec![];
            for i in 0..n {
                let undo = g.make(moves, i);
                g.legal_moves(&mut next);
                keys.clear();
                for j in 0..G::num_moves(&next) {
                    let u = g.make(&next, j);
                    keys.push(g.board_key());
                    g.unmake(&next, j, u);
                }
                if keys.is_empty() {
                    keys.push(g.board_key());
                }
                keys.sort_unstable();
                let sig = keys.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &k| {
                    (h ^ k).wrapping_mul(0x0100_0000_01b3).rotate_left(17)
                });
                g.unmake(moves, i, undo);
                match groups.iter_mut().find(|(_, s, _)| *s == sig) {
                    Some(gr) => gr.2 += 1,
                    None => groups.push((i, sig, 1)),
                }
            }
            self.bufs[ply + 1] = next;
        }
        let mut sum = 0.0;
        for &(i, _, w) in &groups {
            let undo = g.make(moves, i);
            let v = self.value(g, ply + 1, depth, Window::FULL, cap);
            g.unmake(moves, i, undo);
            if self.aborted {
                return 0.0;
            }
            sum += v * w as f64;
        }
        sum / n as f64
    }
}

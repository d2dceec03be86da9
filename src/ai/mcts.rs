//! Monte-Carlo tree search (UCT) with uniformly random playouts.
//!
//! Each playout walks down the tree from the root: at a player's turn it tries every move
//! once, then picks by UCB1 (exploration constant √2) on the points that player scored;
//! at a random player's turn (dice) it picks a move uniformly, so chance is sampled. Below
//! the tree it plays random moves until the game ends or [`PLAYOUT_CAP`] plies have been
//! played (then every seat gets an equal share). The root move with the most visits is
//! played. The number of playouts is `ai playouts` (default [`DEFAULT_PLAYOUTS`]), also
//! bounded by the node and time limits.

use super::game::Game;
use crate::rng::Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub const DEFAULT_PLAYOUTS: u64 = 300;
/// Plies after which a playout stops and counts as a draw.
pub const PLAYOUT_CAP: u32 = 1000;

const UNEXPANDED: u32 = u32::MAX;

struct Node {
    visits: f64,
    /// Points scored by the player who moved into this node.
    points: f64,
    /// Player who made the move leading here.
    mover: usize,
    children: Vec<u32>,
}

/// When a search must stop before its playouts are done.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bounds<'a> {
    /// Positions made.
    pub node_limit: Option<u64>,
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C).
    pub stop: Option<&'a AtomicBool>,
}

/// Runs the search and returns the chosen root move and the number of positions made.
pub fn search<G: Game>(
    game: &G,
    root_moves: &G::Moves,
    playouts: u64,
    bounds: Bounds<'_>,
    rng: &mut Rng,
    buf: &mut G::Moves,
) -> (usize, u64) {
    let Bounds {
        node_limit,
        deadline,
        stop,
    } = bounds;
    let n_root = G::num_moves(root_moves);
    if n_root == 1 {
        return (0, 0);
    }
    let seats = game.seats();
    let np = game.num_players();
    let mut tree = vec![Node {
        visits: 0.0,
        points: 0.0,
        mover: usize::MAX,
        children: vec![UNEXPANDED; n_root],
    }];
    let mut nodes = 0u64;
    let mut path = vec![];
    for k in 0..playouts {
        if node_limit.is_some_and(|l| nodes >= l)
            || (k % 16 == 0 && deadline.is_some_and(|d| Instant::now() >= d))
            || stop.is_some_and(|s| s.load(Ordering::Relaxed))
        {
            break;
        }
        let mut g = game.clone();
        path.clear();
        path.push(0usize);
        let mut cur = 0usize;
        let mut plies = 0;
        let points: Vec<f64> = loop {
            g.legal_moves(buf);
            if let Some(o) = g.outcome(buf) {
                break o.points;
            }
            let n = G::num_moves(buf);
            if n == 0 || plies >= PLAYOUT_CAP {
                break share(np, &seats);
            }
            let mover = g.current_player();
            let in_tree = cur != usize::MAX;
            let i = if !in_tree || g.is_random(mover) {
                rng.below(n)
            } else {
                let node = &mut tree[cur];
                if node.children.len() != n {
                    node.children = vec![UNEXPANDED; n];
                }
                let untried: Vec<usize> =
                    (0..n).filter(|&i| node.children[i] == UNEXPANDED).collect();
                if !untried.is_empty() {
                    untried[rng.below(untried.len())]
                } else {
                    let ln = tree[cur].visits.max(1.0).ln();
                    let mut best = (f64::NEG_INFINITY, 0);
                    for (i, &c) in tree[cur].children.iter().enumerate() {
                        let ch = &tree[c as usize];
                        let u = ch.points / ch.visits + (2.0 * ln / ch.visits).sqrt();
                        if u > best.0 {
                            best = (u, i);
                        }
                    }
                    best.1
                }
            };
            if in_tree {
                if tree[cur].children.len() != n {
                    tree[cur].children = vec![UNEXPANDED; n];
                }
                let child = tree[cur].children[i];
                if child == UNEXPANDED {
                    tree.push(Node {
                        visits: 0.0,
                        points: 0.0,
                        mover,
                        children: vec![],
                    });
                    let id = tree.len() as u32 - 1;
                    tree[cur].children[i] = id;
                    path.push(id as usize);
                    cur = usize::MAX; // leave the tree: random playout from here
                } else {
                    path.push(child as usize);
                    cur = child as usize;
                }
            }
            g.make(buf, i);
            nodes += 1;
            plies += 1;
        };
        for &id in &path {
            let node = &mut tree[id];
            node.visits += 1.0;
            if node.mover < points.len() {
                node.points += points[node.mover];
            }
        }
    }
    let best = tree[0]
        .children
        .iter()
        .enumerate()
        .filter(|(_, c)| **c != UNEXPANDED)
        .max_by(|a, b| {
            tree[*a.1 as usize]
                .visits
                .total_cmp(&tree[*b.1 as usize].visits)
        })
        .map(|(i, _)| i)
        .unwrap_or(0);
    (best, nodes)
}

fn share(np: usize, seats: &[usize]) -> Vec<f64> {
    super::game::Outcome::draw_points(np, seats)
}

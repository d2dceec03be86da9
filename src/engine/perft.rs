//! Perft: the number of leaves of the legal-move tree, the standard test of a move
//! generator. A whole move (a partial chain, a castling) is one edge; a finished game has no
//! moves. [`Engine::perft`] counts the last ply from the move list ("bulk");
//! [`Engine::perft_full`] also makes and unmakes every leaf move. [`divide`] splits the count
//! by root move and can spread root moves over threads; its result does not depend on the
//! number of threads.

use super::{Engine, MoveList, State};
use rayon::prelude::*;

impl Engine {
    /// Leaves at `depth` plies below `s` (bulk counting at the last ply).
    pub fn perft(&mut self, s: &mut State, depth: u32) -> u64 {
        let mut lists = std::mem::take(&mut self.perft_lists);
        let n = self.perft_rec(s, depth, 0, &mut lists, false);
        self.perft_lists = lists;
        n
    }

    /// Like [`Engine::perft`] but every leaf move is made and unmade.
    pub fn perft_full(&mut self, s: &mut State, depth: u32) -> u64 {
        let mut lists = std::mem::take(&mut self.perft_lists);
        let n = self.perft_rec(s, depth, 0, &mut lists, true);
        self.perft_lists = lists;
        n
    }

    fn perft_rec(
        &mut self,
        s: &mut State,
        depth: u32,
        ply: usize,
        lists: &mut Vec<MoveList>,
        full: bool,
    ) -> u64 {
        if depth == 0 {
            return 1;
        }
        if lists.len() <= ply {
            lists.push(MoveList::new());
        }
        let mut list = std::mem::take(&mut lists[ply]);
        self.legal_moves(s, &mut list);
        let n = if depth == 1 && !full {
            list.len() as u64
        } else {
            let mut n = 0;
            for m in list.iter() {
                let u = self.make(s, m);
                n += if depth == 1 {
                    1
                } else {
                    self.perft_rec(s, depth - 1, ply + 1, lists, full)
                };
                self.unmake(s, m, u);
            }
            n
        };
        lists[ply] = list;
        n
    }
}

/// One root move and the leaves below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivideEntry {
    pub notation: String,
    pub nodes: u64,
}

/// Perft split by root move, in move-generation order. `threads` > 1 spreads root moves
/// over a pool of that many threads.
pub fn divide(
    engine: &Engine,
    s: &State,
    depth: u32,
    threads: usize,
    full: bool,
) -> Vec<DivideEntry> {
    if depth == 0 {
        return vec![];
    }
    let mut e = engine.clone();
    let mut list = MoveList::new();
    e.legal_moves(s, &mut list);
    let moves: Vec<_> = list.iter().cloned().collect();
    let work = |e: &mut Engine, m: &super::Move| {
        let mut st = s.clone();
        let u = e.make(&mut st, m);
        let nodes = if full {
            e.perft_full(&mut st, depth - 1)
        } else {
            e.perft(&mut st, depth - 1)
        };
        e.unmake(&mut st, m, u);
        DivideEntry {
            notation: e.notation(m),
            nodes,
        }
    };
    if threads <= 1 {
        moves.iter().map(|m| work(&mut e, m)).collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
        match pool {
            Ok(pool) => pool.install(|| {
                moves
                    .par_iter()
                    .map_init(|| engine.clone(), |e, m| work(e, m))
                    .collect()
            }),
            Err(_) => moves.iter().map(|m| work(&mut e, m)).collect(),
        }
    }
}

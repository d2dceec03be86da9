//! Perft: the number of leaves of the legal-move tree, the standard test of a move
//! generator. A whole move (a partial chain, a castling) is one edge; a finished game has no
//! moves. [`Engine::perft`] counts the last ply from the move list ("bulk");
//! [`Engine::perft_full`] also makes and unmakes every leaf move. [`divide`] splits the count
//! by root move and can spread root moves over threads; its result does not depend on the
//! number of threads.

use super::{Engine, MoveList, State};
#[cfg(feature = "parallel")]
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
    #[cfg(feature = "parallel")]
    if threads > 1 {
        if let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            return pool.install(|| {
                moves
                    .par_iter()
                    .map_init(|| engine.clone(), |e, m| work(e, m))
                    .collect()
            });
        }
    }
    // One thread (or no `parallel` feature): the same entries, in the same order.
    let _ = threads;
    moves.iter().map(|m| work(&mut e, m)).collect()
}

/// One line of a `.perft` suite: `GAME VARIANT DEPTH EXPECTED`, where VARIANT is a slug or
/// `-` for the game's default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteCase {
    /// 1-based line number in the suite text.
    pub line: usize,
    pub game: String,
    /// `None` for `-`.
    pub variant: Option<String>,
    pub depth: u32,
    pub expected: u64,
}

/// Parses a perft suite: one case per line, `#` starts a comment, blank lines are ignored.
/// A malformed line is an error naming its line number.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteCase>, (usize, String)> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let parsed = match f.as_slice() {
            [game, variant, depth, expected] => depth
                .parse::<u32>()
                .ok()
                .zip(expected.parse::<u64>().ok())
                .map(|(depth, expected)| SuiteCase {
                    line: i + 1,
                    game: (*game).to_owned(),
                    variant: (*variant != "-").then(|| (*variant).to_owned()),
                    depth,
                    expected,
                }),
            _ => None,
        };
        cases.push(
            parsed.ok_or_else(|| (i + 1, "expected `GAME VARIANT DEPTH EXPECTED`".to_owned()))?,
        );
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::parse_suite;

    #[test]
    fn suites_parse_and_malformed_lines_are_located() {
        let cases = parse_suite("# c\n\nchess - 3 8902\nchess kiwipete 1 48 # x\n").unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!((cases[0].line, cases[0].variant.as_deref()), (3, None));
        assert_eq!(cases[1].variant.as_deref(), Some("kiwipete"));
        assert_eq!(parse_suite("chess - x 1\n").unwrap_err().0, 1);
        assert_eq!(parse_suite("ok - 1 1\nchess 3 8902\n").unwrap_err().0, 2);
    }
}

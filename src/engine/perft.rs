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
        self.perft_with_lists(s, depth, false)
    }

    /// Like [`Engine::perft`] but every leaf move is made and unmade.
    pub fn perft_full(&mut self, s: &mut State, depth: u32) -> u64 {
        self.perft_with_lists(s, depth, true)
    }

    /// Runs the count with one move list per ply, kept in the engine between calls.
    fn perft_with_lists(&mut self, s: &mut State, depth: u32, full: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut lists = std::mem::take(&mut self.perft_lists);
        if lists.len() < depth as usize {
            lists.resize_with(depth as usize, MoveList::new);
        }
        let n = self.perft_rec(s, depth, &mut lists, full);
        self.perft_lists = lists;
        n
    }

    /// The count below `s` for `depth` ≥ 1, with `lists[0]` for this ply's moves and the
    /// rest for the plies below (at least `depth` lists).
    fn perft_rec(&mut self, s: &mut State, depth: u32, lists: &mut [MoveList], full: bool) -> u64 {
        let Some((list, below)) = lists.split_first_mut() else {
            return 0;
        };
        self.legal_moves(s, list);
        if depth == 1 && !full {
            return list.len() as u64;
        }
        let mut n = 0;
        for m in list.iter() {
            let u = self.make(s, m);
            n += if depth == 1 {
                1
            } else {
                self.perft_rec(s, depth - 1, below, full)
            };
            self.unmake(s, m, u);
        }
        n
    }
}

/// One root move and the leaves below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivideEntry {
    pub notation: String,
    pub nodes: u64,
}

/// Perft split by root move, in move-generation order. `threads` > 1 spreads the work
/// over a pool of that many threads: the tree is split a few plies deep into at least
/// [`TASKS_PER_THREAD`] tasks per thread (so that a few large root moves do not leave
/// threads idle), whose counts are summed back per root move; the entries are the same for
/// any number of threads.
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
    let count = |e: &mut Engine, st: &mut State, d: u32| {
        if full {
            e.perft_full(st, d)
        } else {
            e.perft(st, d)
        }
    };
    #[cfg(feature = "parallel")]
    if threads > 1 && depth >= 2 {
        if let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            let tasks = split(&mut e, s, &moves, depth, threads * TASKS_PER_THREAD);
            let counts: Vec<(usize, u64)> = pool.install(|| {
                // One task per job (`with_max_len(1)`): rayon otherwise runs a run of
                // neighbouring tasks as one job that no idle thread can take a part of; at
                // the end of a 145 ms chess perft(5), one thread then worked 20–35 ms alone.
                tasks
                    .par_iter()
                    .with_max_len(1)
                    .map_init(
                        || (engine.clone(), s.clone()),
                        |(e, st), (i, path)| {
                            let undo: Vec<_> = path.iter().map(|m| e.make(st, m)).collect();
                            let n = count(e, st, depth - path.len() as u32);
                            for (m, u) in path.iter().zip(undo).rev() {
                                e.unmake(st, m, u);
                            }
                            (*i, n)
                        },
                    )
                    .collect()
            });
            let mut nodes = vec![0u64; moves.len()];
            for (i, n) in counts {
                nodes[i] += n;
            }
            return moves
                .iter()
                .zip(nodes)
                .map(|(m, nodes)| DivideEntry {
                    notation: e.notation(m),
                    nodes,
                })
                .collect();
        }
    }
    // One thread (or no `parallel` feature, or depth 1): the same entries, in the same order.
    let _ = threads;
    let mut st = s.clone();
    moves
        .iter()
        .map(|m| {
            let u = e.make(&mut st, m);
            let nodes = count(&mut e, &mut st, depth - 1);
            e.unmake(&mut st, m, u);
            DivideEntry {
                notation: e.notation(m),
                nodes,
            }
        })
        .collect()
}

/// Tasks per thread that [`divide`] aims for when it splits the tree.
pub const TASKS_PER_THREAD: usize = 32;

/// The tasks of a parallel [`divide`]: (root move index, the moves from the root), in
/// tree order, expanded ply by ply until there are at least `want` of them or the next ply
/// would reach `depth`. A line that ends (no moves) before that is dropped: it has no
/// leaves at `depth`.
#[cfg(feature = "parallel")]
fn split(
    e: &mut Engine,
    s: &State,
    moves: &[super::Move],
    depth: u32,
    want: usize,
) -> Vec<(usize, Vec<super::Move>)> {
    let mut tasks: Vec<(usize, Vec<super::Move>)> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| (i, vec![m.clone()]))
        .collect();
    let mut replies = MoveList::new();
    let mut plies = 1;
    while tasks.len() < want && plies + 1 < depth {
        let mut next = Vec::new();
        for (i, path) in tasks {
            let mut st = s.clone();
            for m in &path {
                e.make(&mut st, m);
            }
            e.legal_moves(&st, &mut replies);
            for r in replies.iter() {
                let mut p = path.clone();
                p.push(r.clone());
                next.push((i, p));
            }
        }
        tasks = next;
        plies += 1;
    }
    tasks
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

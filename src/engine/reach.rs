//! Attack-test pruning: for every move block, player and start square, the set of squares
//! on which the block could possibly capture. It is an over-approximation computed once by
//! exploring the block's bytecode, so skipping a block whose set does not contain the tested
//! square never changes a result.
//!
//! The exploration follows every path a run could take. A condition whose value is unknown
//! at load time (what stands on a square) is taken both ways; a condition the exploration
//! can decide exactly — the square and the mark are concrete in each explored state — is
//! taken only the way it goes: `in-zone?`, `on-board?`, `position?`, `marked?`, a
//! direction without a link, `attacked?`/`defended?` (always false inside an attack run),
//! `true`/`false`. The accumulator is tracked as "unknown", a constant, or "square `c` is
//! (not) empty"; a branch taken on the latter records `c` as known empty on that path.
//!
//! Soundness of the last point: an attack run reads a frozen board (actions are only
//! queued) on which the target square is never empty (a royal piece or a ghost stands on
//! it), so an `add` whose landing square was found empty earlier in the same run cannot
//! land on the target. Captures are still counted wherever they are queued. This is what
//! lets drops written as move blocks (`(while (on-board? d) (if empty? add) d)`) and the
//! quiet part of slides (`(while empty? add d)`) drop out of the table. Drop blocks
//! (`drops`) themselves are never run in attack mode.

use super::Tables;
use crate::fxhash::FxHasher;
use crate::model::{NONE, Op, PlayerId, PosSet, PositionId, Pred, Target};
use std::collections::HashSet;
use std::hash::BuildHasherDefault;

/// One explored state of a run: the instruction, the current square, the mark, the
/// destination set by `to`, the abstract accumulator and a square known to be empty.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Node {
    pc: u32,
    pos: PositionId,
    mark: PositionId,
    to: PositionId,
    acc: Acc,
    /// A square this path found empty, kept only while it is the current square or the
    /// destination ([`PositionId::NONE`]: none).
    empty: PositionId,
}

/// The accumulator as far as the exploration knows it: unknown, a constant, or
/// "square `c` is empty" (possibly negated), encoded as `4 + 2c + negated`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Acc(u32);

impl Acc {
    const UNKNOWN: Acc = Acc(0);
    const FALSE: Acc = Acc(1);
    const TRUE: Acc = Acc(2);

    fn constant(b: bool) -> Acc {
        if b { Acc::TRUE } else { Acc::FALSE }
    }

    fn empty_of(c: PositionId) -> Acc {
        Acc(4 + 2 * c.get())
    }

    fn negate(self, n: bool) -> Acc {
        match self.0 {
            _ if !n => self,
            0 => Acc::UNKNOWN,
            1 => Acc::TRUE,
            2 => Acc::FALSE,
            v => Acc(v ^ 1),
        }
    }

    /// The path on which the accumulator is `value`: `None` when it cannot be, else the
    /// square known empty on it (`empty` unless this assumption proves another one empty).
    fn assume(self, value: bool, empty: PositionId) -> Option<PositionId> {
        match self.0 {
            0 => Some(empty),
            1 | 2 => (value == (self.0 == 2)).then_some(empty),
            v => {
                let (c, negated) = ((v - 4) / 2, v & 1 == 1);
                Some(if value != negated {
                    PositionId::new(c)
                } else {
                    empty
                })
            }
        }
    }
}

/// The abstract value of `pred` on square `c` (not negated) in state `n` of an attack run
/// of the player whose zones are `zones`.
fn test(pred: Pred, c: PositionId, n: &Node, zones: &[PosSet]) -> Acc {
    if c.is_none() {
        return Acc::FALSE;
    }
    let known_empty = c == n.empty;
    match pred {
        Pred::Empty if known_empty => Acc::TRUE,
        Pred::Empty => Acc::empty_of(c),
        Pred::Friend | Pred::Enemy | Pred::Neutral | Pred::Piece(_) | Pred::Attr(_)
            if known_empty =>
        {
            Acc::FALSE
        }
        Pred::OnBoard | Pred::True => Acc::TRUE,
        Pred::False | Pred::Attacked(_) | Pred::Defended(_) => Acc::FALSE,
        Pred::InZone(z) => Acc::constant(zones.get(z as usize).is_some_and(|s| s.contains(c))),
        Pred::Position(q) => Acc::constant(c == q),
        Pred::Marked => Acc::constant(c == n.mark),
        _ => Acc::UNKNOWN,
    }
}

/// Per-block reach sets (see the module documentation).
#[derive(Debug)]
pub(crate) struct Reach {
    npos: usize,
    nblocks: usize,
    words: usize,
    /// Dense block id of each code offset that starts a block ([`NONE`] elsewhere).
    pub block_id: Vec<u32>,
    /// bits[((player * nblocks + block) * npos + from) * words ..]
    bits: Vec<u64>,
    ntypes: usize,
    /// The union over a piece type's move blocks:
    /// type_bits[((player * ntypes + type) * npos + from) * words ..]
    type_bits: Vec<u64>,
}

/// Largest table built (in 64-bit words); bigger games go without pruning.
const MAX_WORDS: usize = 4 << 20;

impl Reach {
    /// True unless the block starting at `pc` certainly cannot capture on `sq` when run by
    /// `player` from `from`.
    #[inline]
    pub fn may_reach(&self, player: PlayerId, pc: u32, from: PositionId, sq: PositionId) -> bool {
        let b = self.block_id[pc as usize] as usize;
        let base = ((player.index() * self.nblocks + b) * self.npos + from.index()) * self.words;
        let sq = sq.get();
        self.bits[base + sq as usize / 64] >> (sq % 64) & 1 == 1
    }

    /// True unless no move block of piece type `ty` can capture on `sq` when run by
    /// `player` from `from` (one lookup instead of one per block).
    #[inline]
    pub fn may_reach_type(
        &self,
        player: PlayerId,
        ty: u32,
        from: PositionId,
        sq: PositionId,
    ) -> bool {
        self.row_has(self.type_row(player, ty, from), sq)
    }

    /// Where the row of [`Reach::may_reach_type`] for (`player`, `ty`, `from`) starts: a
    /// piece's row looked up once, for [`Reach::row_has`] on many squares.
    #[inline]
    pub fn type_row(&self, player: PlayerId, ty: u32, from: PositionId) -> usize {
        ((player.index() * self.ntypes + ty as usize) * self.npos + from.index()) * self.words
    }

    /// [`Reach::may_reach_type`] on `sq` for the row starting at `row` ([`Reach::type_row`]).
    #[inline]
    pub fn row_has(&self, row: usize, sq: PositionId) -> bool {
        let sq = sq.get();
        self.type_bits[row + sq as usize / 64] >> (sq % 64) & 1 == 1
    }

    /// Builds the table; `None` when it would be too big or a block is too wild to bound.
    pub fn compute(t: &Tables) -> Option<Reach> {
        let m = &t.model;
        let npos = m.num_positions();
        let words = npos.div_ceil(64);
        let np = m.players.len();
        let mut block_id = vec![NONE; m.code.len()];
        let mut starts = Vec::new();
        for pt in &m.piece_types {
            for b in &pt.moves {
                if block_id[b.start as usize] == NONE {
                    block_id[b.start as usize] = starts.len() as u32;
                    starts.push(b.start);
                }
            }
        }
        let nblocks = starts.len();
        if np * nblocks.max(m.piece_types.len()) * npos * words > MAX_WORDS {
            return None;
        }
        let mut bits = vec![0u64; np * nblocks * npos * words];
        // Paths meet only where a branch (or a skipped scan) lands: the visited set keeps
        // the states of those instructions only. Every cycle of the code passes through
        // one, so the exploration still ends; between them a state may be explored twice.
        let mut join = vec![false; m.code.len() + 1];
        for op in &m.code {
            if let Op::IfFalse(a) | Op::IfTrue(a) | Op::Goto(a) = *op {
                join[a as usize] = true;
            }
        }
        for sc in &t.scans.list {
            join[sc.resume as usize] = true;
        }
        // Where the accumulator is dead it is forgotten, so that such states merge.
        let acc_dead: Vec<bool> = (0..m.code.len())
            .map(|pc| super::scan::acc_dead(&m.code, pc))
            .collect();
        let mut seen: HashSet<Node, BuildHasherDefault<FxHasher>> = HashSet::default();
        let mut stack: Vec<Node> = Vec::new();
        let mut budget = 20_000_000u64;
        for p in 0..np {
            if t.neutral[p] {
                continue;
            }
            let links = &t.links[p];
            let zones = &m.zone_sets[p];
            for (bi, &start) in starts.iter().enumerate() {
                for fi in 0..npos {
                    let from = PositionId::new(fi as u32);
                    let base = ((p * nblocks + bi) * npos + fi) * words;
                    let mut add = |sq: PositionId| {
                        let sq = sq.get();
                        bits[base + sq as usize / 64] |= 1 << (sq % 64)
                    };
                    seen.clear();
                    stack.clear();
                    // A run starts with the accumulator false and nothing known empty.
                    stack.push(Node {
                        pc: start,
                        pos: from,
                        mark: from,
                        to: PositionId::NONE,
                        acc: Acc::FALSE,
                        empty: PositionId::NONE,
                    });
                    while let Some(mut n) = stack.pop() {
                        // Only a known-empty current square or destination is kept: an
                        // older one would multiply the states of every board walk.
                        if n.empty != n.pos && n.empty != n.to {
                            n.empty = PositionId::NONE;
                        }
                        if acc_dead[n.pc as usize] {
                            n.acc = Acc::UNKNOWN;
                        }
                        if join[n.pc as usize] && !seen.insert(n) {
                            continue;
                        }
                        budget = budget.checked_sub(1)?;
                        let (pc, pos) = (n.pc, n.pos);
                        let next = Node { pc: pc + 1, ..n };
                        let step = |s: u32| links[pos.index() * t.width + s as usize];
                        let resolve = |tg: Target| match tg {
                            Target::Here => pos,
                            Target::Pos(q) => q,
                            Target::Dir(s) => step(s),
                        };
                        match m.code[pc as usize] {
                            Op::Step(s) => {
                                let q = step(s);
                                if !q.is_none() {
                                    stack.push(Node { pos: q, ..next });
                                }
                            }
                            Op::Jump(q) => stack.push(Node { pos: q, ..next }),
                            // A board scan can neither capture nor move, and the
                            // accumulator is dead after it: skip it.
                            Op::Mark if t.scans.at[pc as usize] != NONE => {
                                let si = t.scans.at[pc as usize] as usize;
                                stack.push(Node {
                                    pc: t.scans.list[si].resume,
                                    mark: pos,
                                    acc: Acc::UNKNOWN,
                                    ..n
                                });
                            }
                            Op::Mark => stack.push(Node { mark: pos, ..next }),
                            Op::Back => stack.push(Node {
                                pos: n.mark,
                                ..next
                            }),
                            Op::SetTo => stack.push(Node { to: pos, ..next }),
                            Op::Test {
                                pred,
                                target,
                                negate,
                            } => {
                                let c = resolve(target);
                                let acc = test(pred, c, &n, zones).negate(negate);
                                stack.push(Node { acc, ..next });
                            }
                            Op::Not => stack.push(Node {
                                acc: n.acc.negate(true),
                                ..next
                            }),
                            Op::Verify => {
                                if let Some(e) = n.acc.assume(true, n.empty) {
                                    stack.push(Node { empty: e, ..next });
                                }
                            }
                            Op::IfFalse(a) | Op::IfTrue(a) => {
                                let jump_when = matches!(m.code[pc as usize], Op::IfTrue(_));
                                if let Some(e) = n.acc.assume(!jump_when, n.empty) {
                                    stack.push(Node { empty: e, ..next });
                                }
                                if let Some(e) = n.acc.assume(jump_when, n.empty) {
                                    stack.push(Node {
                                        pc: a,
                                        empty: e,
                                        ..n
                                    });
                                }
                            }
                            Op::Goto(a) => stack.push(Node { pc: a, ..n }),
                            Op::Capture(tg) => {
                                let c = resolve(tg);
                                if !c.is_none() {
                                    add(c);
                                }
                                stack.push(next);
                            }
                            Op::Add { .. } => {
                                // An attack target is never empty: an `add` landing on a
                                // square this run found empty cannot hit it.
                                let dest = if !n.to.is_none() { n.to } else { pos };
                                if dest != n.empty {
                                    add(dest);
                                }
                                stack.push(next);
                            }
                            Op::Cascade => stack.push(Node {
                                to: PositionId::NONE,
                                ..next
                            }),
                            Op::End => {}
                            // `go` may jump anywhere: give up on bounding this game.
                            Op::Go(_) => return None,
                            _ => stack.push(next),
                        }
                    }
                }
            }
        }
        let ntypes = m.piece_types.len();
        let mut type_bits = vec![0u64; np * ntypes * npos * words];
        for p in 0..np {
            for (ty, pt) in m.piece_types.iter().enumerate() {
                for from in 0..npos {
                    let dst = ((p * ntypes + ty) * npos + from) * words;
                    for b in &pt.moves {
                        let bid = block_id[b.start as usize] as usize;
                        let src = ((p * nblocks + bid) * npos + from) * words;
                        for w in 0..words {
                            type_bits[dst + w] |= bits[src + w];
                        }
                    }
                }
            }
        }
        Some(Reach {
            npos,
            nblocks,
            words,
            block_id,
            bits,
            ntypes,
            type_bits,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::Engine;
    use crate::expand::{Limits, load_text};
    use crate::model::{Model, PlayerId, PositionId};

    const GAME: &str = r#"
(game (title "Reach")
  (players A B) (turn-order A B)
  (board (grid (start-rectangle 0 0 1 1)
     (dimensions ("a/b/c" (1 0)) ("3/2/1" (0 1)))
     (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0)))
     (zone (name top) (players A B) (positions a3 b3 c3)))
  (piece (name K) (moves (n (verify not-friend?) add)))
  (piece (name D) (moves
     (a1 (while (on-board? e) (if empty? add) e) (verify empty?) add)
     ((verify (in-zone? top)) s add)
     (n (while empty? add n))
     (e (verify empty?) to w add)))
  (board-setup (A (K b1) (D a1)) (B (K b3)))
  (loss-condition (A B) (checkmated K))
)
"#;

    #[test]
    fn adds_on_squares_found_empty_and_decided_conditions_are_pruned() {
        let loaded = load_text("t.zrf", GAME, Limits::default());
        let m = Model::compile(loaded.default_game().expect("game")).expect("compiles");
        let e = Engine::new(m);
        let t = &e.t;
        let r = t.reach.as_ref().expect("reach table");
        let m = &t.model;
        let pos = |n: &str| m.position(n).expect("position");
        let d = m.piece_types.iter().position(|p| p.name == "D").unwrap();
        let blocks: Vec<u32> = m.piece_types[d].moves.iter().map(|b| b.start).collect();
        let reach = |b: usize, from: &str| -> Vec<PositionId> {
            m.position_ids()
                .filter(|&sq| r.may_reach(PlayerId::new(0), blocks[b], pos(from), sq))
                .collect()
        };
        // The drop-like walk adds only on empty squares: it can never capture.
        assert!(reach(0, "b2").is_empty());
        // `in-zone?` is decided: from outside the zone the block never adds.
        assert!(reach(1, "b2").is_empty());
        assert_eq!(reach(1, "b3"), vec![pos("b2")]);
        // A slide that only adds on empty squares never captures.
        assert!(reach(2, "b1").is_empty());
        // `to` fixed on an empty square keeps it known empty after the cursor moves.
        assert!(reach(3, "a2").is_empty());
        // The king's step still reaches its neighbour.
        let k = m.piece_types.iter().position(|p| p.name == "K").unwrap();
        let kb = m.piece_types[k].moves[0].start;
        assert!(r.may_reach(PlayerId::new(0), kb, pos("b1"), pos("b2")));
    }
}

//! Attack-test pruning: for every move block, player and start square, the set of squares
//! on which the block could possibly capture. It is an over-approximation computed once by
//! exploring the block's bytecode with every condition taken both ways, so skipping a block
//! whose set does not contain the tested square never changes a result.

use super::Tables;
use crate::model::{NONE, Op, Target};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// A small multiplicative hasher for the exploration's visited set.
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
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
    pub fn may_reach(&self, player: u32, pc: u32, from: u32, sq: u32) -> bool {
        let b = self.block_id[pc as usize] as usize;
        let base = ((player as usize * self.nblocks + b) * self.npos + from as usize) * self.words;
        self.bits[base + sq as usize / 64] >> (sq % 64) & 1 == 1
    }

    /// True unless no move block of piece type `ty` can capture on `sq` when run by
    /// `player` from `from` (one lookup instead of one per block).
    #[inline]
    pub fn may_reach_type(&self, player: u32, ty: u32, from: u32, sq: u32) -> bool {
        let base = ((player as usize * self.ntypes + ty as usize) * self.npos + from as usize)
            * self.words;
        self.type_bits[base + sq as usize / 64] >> (sq % 64) & 1 == 1
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
        let mut seen: HashSet<(u32, u32, u32, u32), BuildHasherDefault<FxHasher>> =
            HashSet::default();
        let mut stack: Vec<(u32, u32, u32, u32)> = Vec::new(); // (pc, pos, mark, to)
        let mut budget = 20_000_000u64;
        for p in 0..np {
            if t.neutral[p] {
                continue;
            }
            let links = &t.links[p];
            for (bi, &start) in starts.iter().enumerate() {
                for from in 0..npos as u32 {
                    let base = ((p * nblocks + bi) * npos + from as usize) * words;
                    let mut add = |sq: u32| bits[base + sq as usize / 64] |= 1 << (sq % 64);
                    seen.clear();
                    stack.clear();
                    stack.push((start, from, from, NONE));
                    while let Some((pc, pos, mark, to)) = stack.pop() {
                        if !seen.insert((pc, pos, mark, to)) {
                            continue;
                        }
                        budget = budget.checked_sub(1)?;
                        let next = pc + 1;
                        let step = |s: u32| links[pos as usize * t.width + s as usize];
                        match m.code[pc as usize] {
                            Op::Step(s) => {
                                let n = step(s);
                                if n != NONE {
                                    stack.push((next, n, mark, to));
                                }
                            }
                            Op::Jump(q) => stack.push((next, q, mark, to)),
                            // A board scan can neither capture nor move: skip it.
                            Op::Mark if t.scans.at[pc as usize] != NONE => {
                                let si = t.scans.at[pc as usize] as usize;
                                stack.push((t.scans.list[si].resume, pos, pos, to));
                            }
                            Op::Mark => stack.push((next, pos, pos, to)),
                            Op::Back => stack.push((next, mark, mark, to)),
                            Op::SetTo => stack.push((next, pos, mark, pos)),
                            Op::IfFalse(a) | Op::IfTrue(a) => {
                                stack.push((next, pos, mark, to));
                                stack.push((a, pos, mark, to));
                            }
                            Op::Goto(a) => stack.push((a, pos, mark, to)),
                            Op::Capture(tg) => {
                                let c = match tg {
                                    Target::Here => pos,
                                    Target::Pos(q) => q,
                                    Target::Dir(s) => step(s),
                                };
                                if c != NONE {
                                    add(c);
                                }
                                stack.push((next, pos, mark, to));
                            }
                            Op::Add { .. } => {
                                add(if to != NONE { to } else { pos });
                                stack.push((next, pos, mark, to));
                            }
                            Op::Cascade => stack.push((next, pos, mark, NONE)),
                            Op::End => {}
                            // `go` may jump anywhere: give up on bounding this game.
                            Op::Go(_) => return None,
                            _ => stack.push((next, pos, mark, to)),
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

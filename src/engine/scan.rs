//! Board scans that attack runs may skip.
//!
//! Rules files walk the whole board to change many pieces at once with the idiom
//! `mark [POSITION] (while (on-board? d) d … actions …) back` (Zillions' own king scan,
//! Janggi variants that turn traitors, …). Such a region queues actions on other squares
//! but cannot fail, emit a move, capture, or leave the current square: `back` returns to
//! where `mark` was. An attack run (`attacked?`, king safety) only asks whether some `add`
//! or `capture` hits one square, so the region cannot change its answer — except through
//! the `while` step budget, which the region charges once per iteration. The number of
//! iterations depends only on where the walk starts (the walk ends where the chain of `d`
//! links ends), so it is precomputed per player and square ([`Scans::iterations`]) and
//! charged at once: skipping gives exactly the result of running the region.
//!
//! Recognised shape (compiled code, `i` = the `mark`):
//!
//! ```text
//! i      Mark
//! [i+1   Jump(q)]
//! a      Loop
//! a+1    Test { OnBoard, Dir(s) }
//! a+2    IfFalse(x)
//! a+3    Step(s)
//! …      body: tests, forward branches inside the body, not, and the actions
//!        change-owner, flip, change-type, set-attribute, create (with a type), set-flag
//! x-1    Goto(a)
//! x      Back
//! ```
//!
//! No branch from outside may enter the region, and the accumulator must be dead after
//! `back` (the next instruction that uses it sets it first).
//!
//! A body with `set-flag` changes what comes after `back`, so it is kept only when its body
//! reads no flag: its net effect on the flags then depends only on the board and the start
//! square, and is cached with the actions. An attack run does not skip it but computes that
//! effect (without the cache, since it may run with a ghost piece on the attacked square).

use crate::model::{NONE, Op, PlayerId, PositionId, Pred, Target};

/// What a cacheable scan did on one board from one start: its queued actions
/// (`scan_store[begin..end]`) and its net effect on the move flags (`flags & !flag_mask |
/// flag_values`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ScanEntry {
    pub key: u32,
    pub mover: PlayerId,
    pub start: PositionId,
    pub begin: u32,
    pub end: u32,
    pub flag_mask: u64,
    pub flag_values: u64,
}

/// One skippable scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scan {
    /// The instruction after `back`.
    pub resume: u32,
    /// The position jumped to after `mark` ([`PositionId::NONE`]: the walk starts on the
    /// current square).
    pub start: PositionId,
    /// Index into [`Scans::chains`].
    pub chain: u32,
    /// The direction slot walked.
    pub slot: u32,
    /// The body: `body..body_end` (between the step and the `goto` back).
    pub body: u32,
    pub body_end: u32,
    /// The body reads nothing but the board and the square it is on (no flags, no mark),
    /// so while the board does not change its actions depend only on where the walk starts.
    pub cacheable: bool,
    /// The body sets move flags (`set-flag`): an attack run cannot skip it, since code
    /// after `back` may read them; it takes their values from the cache instead (such a
    /// scan is kept only when it is cacheable).
    pub sets_flags: bool,
    /// Cache key: scans with the same walk and the same body code (macro copies of one scan
    /// in many move blocks) share it, and so share their cached actions.
    pub key: u32,
}

/// The skippable scans of a model.
#[derive(Debug, Default)]
pub(crate) struct Scans {
    /// `at[pc]`: index into `list` of the scan whose `mark` is at `pc`, or [`NONE`].
    pub at: Vec<u32>,
    pub list: Vec<Scan>,
    /// Per distinct slot: `len[player * npos + pos]` = links followed from `pos` before the
    /// chain ends ([`u32::MAX`] when it cycles).
    chains: Vec<Vec<u32>>,
    npos: usize,
}

impl Scans {
    /// `Loop` instructions the scan executes when it starts its walk on `pos` for `player`
    /// (saturating: a cycle never ends).
    #[inline]
    pub fn iterations(&self, scan: &Scan, player: PlayerId, pos: PositionId) -> u32 {
        let p = if !scan.start.is_none() {
            scan.start
        } else {
            pos
        };
        self.chains[scan.chain as usize][player.index() * self.npos + p.index()].saturating_add(1)
    }

    /// Finds the scans of `code`; `links[player][pos * width + slot]`.
    pub fn find(code: &[Op], links: &[Vec<PositionId>], width: usize, npos: usize) -> Scans {
        let mut at = vec![NONE; code.len()];
        let mut list = Vec::new();
        let mut slots: Vec<u32> = Vec::new();
        // Every branch (source, target), to check that nothing enters a region from outside.
        let mut entries: Vec<(u32, u32)> = Vec::new();
        for (pc, op) in code.iter().enumerate() {
            if let Op::IfFalse(t) | Op::IfTrue(t) | Op::Goto(t) = *op {
                entries.push((t, pc as u32));
            }
        }
        entries.sort_unstable();
        for i in 0..code.len() {
            if code[i] != Op::Mark {
                continue;
            }
            let Some((scan_end, slot, start, body)) = shape(code, i) else {
                continue;
            };
            // No branch from outside [i, x] lands in (i, x].
            let lo = entries.partition_point(|&(t, _)| t <= i as u32);
            let entered = entries[lo..]
                .iter()
                .take_while(|&&(t, _)| t <= scan_end as u32)
                .any(|&(_, src)| src < i as u32 || src > scan_end as u32);
            if entered || !acc_dead(code, scan_end + 1) {
                continue;
            }
            let cacheable = (body..scan_end - 1).all(|pc| {
                !matches!(
                    code[pc],
                    Op::Test {
                        pred: Pred::Flag(_) | Pred::PosFlag(_) | Pred::Marked,
                        ..
                    }
                )
            });
            let sets_flags = (body..scan_end - 1).any(|pc| matches!(code[pc], Op::SetFlag(_)));
            if sets_flags && !cacheable {
                continue;
            }
            let chain = match slots.iter().position(|&s| s == slot) {
                Some(c) => c,
                None => {
                    slots.push(slot);
                    slots.len() - 1
                }
            };
            let key = list
                .iter()
                .find(|o: &&Scan| {
                    o.slot == slot
                        && o.start == start
                        && o.body_end - o.body == (scan_end - 1 - body) as u32
                        && same_body(code, o.body as usize, body, scan_end - 1 - body)
                })
                .map_or(list.len() as u32, |o| o.key);
            at[i] = list.len() as u32;
            list.push(Scan {
                sets_flags,
                resume: scan_end as u32 + 1,
                start,
                chain: chain as u32,
                slot,
                body: body as u32,
                body_end: scan_end as u32 - 1,
                cacheable,
                key,
            });
        }
        let chains = slots
            .iter()
            .map(|&s| chain_lengths(links, width, npos, s))
            .collect();
        Scans {
            at,
            list,
            chains,
            npos,
        }
    }
}

/// Matches the shape of the module documentation at the `mark` on `i`: (pc of `back`, slot,
/// start position or [`PositionId::NONE`], pc of the body).
fn shape(code: &[Op], i: usize) -> Option<(usize, u32, PositionId, usize)> {
    let mut a = i + 1;
    let mut start = PositionId::NONE;
    if let Some(&Op::Jump(q)) = code.get(a) {
        start = q;
        a += 1;
    }
    let (
        Some(Op::Loop),
        Some(&Op::Test {
            pred,
            target,
            negate,
        }),
        Some(&Op::IfFalse(x)),
    ) = (code.get(a), code.get(a + 1), code.get(a + 2))
    else {
        return None;
    };
    let (Pred::OnBoard, Target::Dir(s), false) = (pred, target, negate) else {
        return None;
    };
    let x = x as usize;
    if code.get(a + 3) != Some(&Op::Step(s))
        || x < a + 5
        || code.get(x) != Some(&Op::Back)
        || code[x - 1] != Op::Goto(a as u32)
    {
        return None;
    }
    let body_ok = (a + 4..x - 1).all(|pc| match code[pc] {
        Op::Test { pred, .. } => !matches!(pred, Pred::Attacked(_) | Pred::Defended(_)),
        Op::IfFalse(t) | Op::IfTrue(t) | Op::Goto(t) => (t as usize) > pc && (t as usize) < x,
        Op::Not
        | Op::ChangeOwner(_)
        | Op::Flip(_)
        | Op::ChangeType(..)
        | Op::SetAttr { .. }
        | Op::SetFlag(_) => true,
        Op::Create { ty, .. } => !ty.is_none(),
        _ => false,
    });
    body_ok.then_some((x, s, start, a + 4))
}

/// True when the `len` instructions from `a` and from `b` are the same, branch targets
/// compared relative to `a` and `b`.
fn same_body(code: &[Op], a: usize, b: usize, len: usize) -> bool {
    if a + len > code.len() || b + len > code.len() {
        return false;
    }
    (0..len).all(|i| match (code[a + i], code[b + i]) {
        (Op::IfFalse(x), Op::IfFalse(y))
        | (Op::IfTrue(x), Op::IfTrue(y))
        | (Op::Goto(x), Op::Goto(y)) => x as usize - a == y as usize - b,
        (x, y) => x == y,
    })
}

/// True when every path from `pc` sets the accumulator before reading it.
pub(crate) fn acc_dead(code: &[Op], mut pc: usize) -> bool {
    for _ in 0..64 {
        match code.get(pc) {
            None | Some(Op::End) | Some(Op::Test { .. }) => return true,
            Some(
                Op::Verify
                | Op::IfFalse(_)
                | Op::IfTrue(_)
                | Op::Not
                | Op::SetAttr { .. }
                | Op::SetFlag(_)
                | Op::SetPosFlag(..),
            ) => return false,
            Some(Op::Goto(t)) => pc = *t as usize,
            Some(_) => pc += 1,
        }
    }
    false
}

/// Links followed along `slot` from every position, per player (`u32::MAX` on a cycle).
fn chain_lengths(links: &[Vec<PositionId>], width: usize, npos: usize, slot: u32) -> Vec<u32> {
    const UNKNOWN: u32 = u32::MAX - 1;
    const CYCLE: u32 = u32::MAX;
    let mut len = vec![UNKNOWN; links.len() * npos];
    // `on_path[pos] == stamp`: pos is on the walk in progress.
    let mut on_path = vec![0u32; npos];
    let mut stamp = 0u32;
    let mut path = Vec::new();
    for (p, l) in links.iter().enumerate() {
        let base = p * npos;
        for s in 0..npos {
            // Walk until a known length, the end of the chain, or a square of this walk.
            stamp += 1;
            path.clear();
            let mut pos = PositionId::new(s as u32);
            let mut tail = loop {
                let known = len[base + pos.index()];
                if known != UNKNOWN {
                    break known;
                }
                if on_path[pos.index()] == stamp {
                    break CYCLE;
                }
                on_path[pos.index()] = stamp;
                path.push(pos);
                let n = l[pos.index() * width + slot as usize];
                if n.is_none() {
                    break 0;
                }
                pos = n;
            };
            for &q in path.iter().rev() {
                let n = l[q.index() * width + slot as usize];
                tail = if tail == CYCLE {
                    CYCLE
                } else if n.is_none() {
                    0
                } else {
                    tail + 1
                };
                len[base + q.index()] = tail;
            }
        }
    }
    len
}

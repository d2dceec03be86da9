//! The VM's full interpreter: runs a block from any instruction, with every register.
//!
//! The board is frozen while a block runs: every test reads the scratch board as it was
//! before the move. Actions are queued in a frame and turned into cell changes only when
//! `add` emits a move (`emit`), which applies them to the scratch board, records the
//! changes and puts the board back. Execution continues after `add`.
//!
//! In *attack mode* (no output list) the run only asks whether some `add` would capture on
//! the attack target square; it stops at the first one.
//!
//! This module also owns predicates (`test`) and the per-board cache of board scans (the
//! scans themselves are found by `engine::scan`): `cached_scan` and `scan_body`.

use super::{Action, Moving, Regs, Scratch};
use crate::engine::scan::Scan;
use crate::engine::{MoveList, Tables};
use crate::model::{MoveType, NONE, Op, PieceTypeId, PlayerId, PositionId, Pred, Target, piece};

/// Where the fast path hands a run over to the full interpreter: the instruction, the
/// square the mark is on (where the run started), the current square, the accumulator and
/// the `while` steps taken so far.
pub(super) struct Resume {
    pub pc: usize,
    pub start: PositionId,
    pub pos: PositionId,
    pub acc: bool,
    pub steps: u32,
    /// The fast path queued actions in the run's frame (otherwise the frame is cleared
    /// here).
    pub queued: bool,
}

impl Scratch {
    /// The general interpreter: runs `moving`'s block from where `at` says (the mark is
    /// still on `at.start`).
    #[inline(never)]
    pub(super) fn run_in(
        &mut self,
        t: &Tables,
        at: Resume,
        moving: Moving,
        mut out: Option<&mut MoveList>,
    ) -> bool {
        let Resume {
            pc,
            start,
            pos,
            mut acc,
            mut steps,
            queued,
        } = at;
        let Moving {
            mut piece,
            mut from,
            move_type,
        } = moving;
        let k = usize::from(out.is_none());
        if !queued {
            self.frames[k].clear();
        }
        let code = &t.model.code[..];
        let mover = self.mover.index();
        let links = &t.links[mover][..];
        let w = t.width;
        let mut pc = pc;
        let mut r = Regs {
            pos,
            mark: start,
            flags: 0,
            piece,
        };
        let mut to = PositionId::NONE;
        loop {
            match code[pc] {
                Op::Step(s) => {
                    let n = links[r.pos.index() * w + s as usize];
                    if n.is_none() {
                        return false;
                    }
                    r.pos = n;
                }
                Op::Test {
                    pred,
                    target,
                    negate,
                } => {
                    acc = self.test(t, links, pred, target, &r, k) != negate;
                }
                Op::Verify => {
                    if !acc {
                        return false;
                    }
                }
                Op::IfFalse(a) => {
                    if !acc {
                        pc = a as usize;
                        continue;
                    }
                }
                Op::IfTrue(a) => {
                    if acc {
                        pc = a as usize;
                        continue;
                    }
                }
                Op::Goto(a) => {
                    pc = a as usize;
                    continue;
                }
                Op::Not => acc = !acc,
                Op::Loop => {
                    steps += 1;
                    if steps > self.loop_budget {
                        self.loop_overflow = true;
                        return false;
                    }
                }
                op @ Op::Add { .. } => {
                    let dest = if !to.is_none() { to } else { r.pos };
                    match out.as_deref_mut() {
                        None => {
                            let target = self.attack_target;
                            if dest == target
                                || self.frames[1]
                                    .actions
                                    .iter()
                                    .any(|a| matches!(a, Action::Capture(c) if *c == target))
                            {
                                return true;
                            }
                        }
                        Some(o) => {
                            let moving = Moving {
                                piece,
                                from,
                                move_type,
                            };
                            self.add_moves(t, op, moving, dest, o)
                        }
                    }
                }
                Op::Jump(p) => r.pos = p,
                Op::Mark => {
                    r.mark = r.pos;
                    // A board scan (see `scan`): an attack run skips it (or, when it sets
                    // flags, computes only their values), a normal run takes its actions and
                    // flags from the cache when it can; both charge its loop steps.
                    let si = t.scans.at[pc];
                    if si != NONE {
                        let scan = &t.scans.list[si as usize];
                        if k == 1 || scan.cacheable {
                            steps =
                                steps.saturating_add(t.scans.iterations(scan, self.mover, r.pos));
                            if steps > self.loop_budget {
                                self.loop_overflow = true;
                                return false;
                            }
                            if k == 0 || scan.sets_flags {
                                let (mask, values) = self.cached_scan(t, si, r.pos, k == 0);
                                r.flags = (r.flags & !mask) | values;
                            }
                            pc = scan.resume as usize;
                            continue;
                        }
                    }
                }
                Op::Back => r.pos = r.mark,
                Op::SetTo => to = r.pos,
                Op::From => {
                    let v = self.board[r.pos.index()];
                    if v == 0 {
                        return false;
                    }
                    from = r.pos;
                    piece = v;
                    r.piece = v;
                }
                Op::Cascade => {
                    let dest = if !to.is_none() { to } else { r.pos };
                    if piece != 0 {
                        self.frames[k].cascades.push((from, dest, piece));
                    }
                    // The new moving piece is whatever stands here (possibly nothing until
                    // a `from` picks one up).
                    let v = self.board[r.pos.index()];
                    from = r.pos;
                    piece = v;
                    r.piece = v;
                    to = PositionId::NONE;
                }
                Op::Go(g) => {
                    use crate::model::code::GoWhere;
                    let p = match g {
                        GoWhere::From => from,
                        GoWhere::To => to,
                        GoWhere::LastFrom => self.last_from,
                        GoWhere::LastTo => self.last_to,
                        GoWhere::Mark => r.mark,
                    };
                    if p.is_none() {
                        return false;
                    }
                    r.pos = p;
                }
                Op::Capture(tg) => {
                    if let Some(c) = resolve(links, w, r.pos, tg) {
                        self.frames[k].actions.push(Action::Capture(c));
                    }
                }
                Op::Flip(tg) => {
                    if let Some(c) = resolve(links, w, r.pos, tg) {
                        self.frames[k].actions.push(Action::Flip(c));
                    }
                }
                Op::ChangeOwner(tg) => {
                    if let Some(c) = resolve(links, w, r.pos, tg) {
                        self.frames[k].actions.push(Action::ChangeOwner(c));
                    }
                }
                Op::ChangeType(ty, tg) => {
                    if let Some(c) = resolve(links, w, r.pos, tg) {
                        self.frames[k].actions.push(Action::ChangeType(c, ty));
                    }
                }
                Op::Create { owner, ty, target } => {
                    if let Some(c) = resolve(links, w, r.pos, target) {
                        let owner = if owner.is_none() { self.mover } else { owner };
                        // A type left out is the moving piece's (nothing to copy: no piece).
                        let ty = if !ty.is_none() {
                            ty
                        } else if piece != 0 {
                            piece::ty(piece)
                        } else {
                            return false;
                        };
                        let pc = piece::make(ty, owner, t.model.piece_types[ty.index()].attrs);
                        self.frames[k].actions.push(Action::Create(c, pc));
                    }
                }
                Op::SetAttr { attr, target } => {
                    if let Some(c) = resolve(links, w, r.pos, target) {
                        self.frames[k].actions.push(Action::SetAttr(c, attr, acc));
                    }
                }
                Op::SetFlag(i) => {
                    if i < 64 {
                        if acc {
                            r.flags |= 1 << i;
                        } else {
                            r.flags &= !(1 << i);
                        }
                    }
                }
                Op::SetPosFlag(i, tg) => {
                    if let Some(c) = resolve(links, w, r.pos, tg) {
                        let posflags = &mut self.frames[k].posflags;
                        posflags.retain(|&(fi, fc)| !(fi == i && fc == c));
                        if acc {
                            posflags.push((i, c));
                        }
                    }
                }
                Op::End => return false,
            }
            pc += 1;
        }
    }

    /// Queues in `frames[0]` the actions of the cacheable board scan `si` run from `pos`
    /// on the scratch board: from the cache, or by running its body along the walk.
    /// Returns the scan's net effect on the move flags as (mask, values). An attack run
    /// (`actions` false) needs the flags alone, and neither reads nor fills the cache: it
    /// may run with a ghost piece on the attacked square, which the cache does not see.
    fn cached_scan(&mut self, t: &Tables, si: u32, pos: PositionId, actions: bool) -> (u64, u64) {
        let scan = t.scans.list[si as usize];
        let start = if !scan.start.is_none() {
            scan.start
        } else {
            pos
        };
        let mover = self.mover;
        let key = scan.key;
        let hit = if actions {
            self.scan_cache
                .iter()
                .find(|e| e.key == key && e.mover == mover && e.start == start)
                .copied()
        } else {
            None
        };
        let e = match hit {
            Some(e) => e,
            None => {
                let begin = self.scan_store.len() as u32;
                let links = &t.links[mover.index()][..];
                let w = t.width;
                let mut p = start;
                let mut flags = (0u64, 0u64);
                loop {
                    p = links[p.index() * w + scan.slot as usize];
                    if p.is_none() {
                        break;
                    }
                    self.scan_body(t, links, &scan, p, pos, &mut flags);
                }
                if !actions {
                    self.scan_store.truncate(begin as usize);
                    return flags;
                }
                let e = crate::engine::scan::ScanEntry {
                    key,
                    mover,
                    start,
                    begin,
                    end: self.scan_store.len() as u32,
                    flag_mask: flags.0,
                    flag_values: flags.1,
                };
                self.scan_cache.push(e);
                e
            }
        };
        if actions {
            let (store, frames) = (&self.scan_store, &mut self.frames);
            frames[0]
                .actions
                .extend_from_slice(&store[e.begin as usize..e.end as usize]);
        }
        (e.flag_mask, e.flag_values)
    }

    /// Runs a scan's body on `pos` (forward branches, tests and actions only), queueing
    /// its actions in `scan_store`.
    /// Flags it sets are recorded in `flags` as (mask, values), the last write winning.
    fn scan_body(
        &mut self,
        t: &Tables,
        links: &[PositionId],
        scan: &Scan,
        pos: PositionId,
        mark: PositionId,
        flags: &mut (u64, u64),
    ) {
        let code = &t.model.code[..];
        let w = t.width;
        let r = Regs {
            pos,
            mark,
            flags: 0,
            piece: 0,
        };
        let mut acc = true;
        let mut pc = scan.body as usize;
        while pc < scan.body_end as usize {
            let action = match code[pc] {
                Op::Test {
                    pred,
                    target,
                    negate,
                } => {
                    acc = self.test(t, links, pred, target, &r, 0) != negate;
                    None
                }
                Op::IfFalse(a) if !acc => {
                    pc = a as usize;
                    continue;
                }
                Op::IfTrue(a) if acc => {
                    pc = a as usize;
                    continue;
                }
                Op::Goto(a) => {
                    pc = a as usize;
                    continue;
                }
                Op::Not => {
                    acc = !acc;
                    None
                }
                Op::ChangeOwner(tg) => resolve(links, w, pos, tg).map(Action::ChangeOwner),
                Op::Flip(tg) => resolve(links, w, pos, tg).map(Action::Flip),
                Op::ChangeType(ty, tg) => {
                    resolve(links, w, pos, tg).map(|c| Action::ChangeType(c, ty))
                }
                Op::Create { owner, ty, target } => resolve(links, w, pos, target).map(|c| {
                    let owner = if owner.is_none() { self.mover } else { owner };
                    let pc = piece::make(ty, owner, t.model.piece_types[ty.index()].attrs);
                    Action::Create(c, pc)
                }),
                Op::SetAttr { attr, target } => {
                    resolve(links, w, pos, target).map(|c| Action::SetAttr(c, attr, acc))
                }
                Op::SetFlag(i) => {
                    if i < 64 {
                        flags.0 |= 1 << i;
                        if acc {
                            flags.1 |= 1 << i;
                        } else {
                            flags.1 &= !(1 << i);
                        }
                    }
                    None
                }
                _ => None,
            };
            if let Some(a) = action {
                self.scan_store.push(a);
            }
            pc += 1;
        }
    }

    /// the frame of the running block.
    #[inline]
    fn test(
        &mut self,
        t: &Tables,
        links: &[PositionId],
        pred: Pred,
        target: Target,
        r: &Regs,
        k: usize,
    ) -> bool {
        let c = match target {
            Target::Here => r.pos,
            Target::Dir(s) => links[r.pos.index() * t.width + s as usize],
            Target::Pos(p) => p,
        };
        if c.is_none() {
            return false;
        }
        let v = self.board[c.index()];
        match pred {
            Pred::Empty => v == 0,
            Pred::Friend => v != 0 && piece::owner(v) == self.mover,
            Pred::Enemy => {
                v != 0 && piece::owner(v) != self.mover && !t.neutral[piece::owner(v).index()]
            }
            Pred::Neutral => {
                v != 0 && piece::owner(v) != self.mover && t.neutral[piece::owner(v).index()]
            }
            Pred::Piece(ty) => v != 0 && piece::ty(v) == ty,
            Pred::InZone(z) => t.model.zone_sets[self.mover.index()][z as usize].contains(c),
            Pred::Position(p) => c == p,
            Pred::OnBoard => true,
            Pred::Marked => c == r.mark,
            Pred::Flag(i) => i < 64 && r.flags >> i & 1 == 1,
            Pred::PosFlag(i) => self.frames[k].posflags.contains(&(i, c)),
            Pred::Attacked(mt) | Pred::Defended(mt) => {
                if self.in_attack {
                    return false;
                }
                let ghost_ty = if r.piece != 0 {
                    piece::ty(r.piece)
                } else {
                    PieceTypeId::new(0)
                };
                self.attack_move_type = mt;
                let found = if matches!(pred, Pred::Attacked(_)) {
                    let ghost = piece::make(ghost_ty, self.mover, 0);
                    self.attacked_by_others(t, c, self.mover, ghost)
                } else {
                    // Defended: attacked by the mover's side as if an opponent stood there.
                    let opp = (0..t.model.players.len() as u32)
                        .map(PlayerId::new)
                        .find(|&p| p != self.mover && !t.neutral[p.index()])
                        .unwrap_or(self.mover);
                    let ghost = piece::make(ghost_ty, opp, 0);
                    self.attacked_by_others(t, c, opp, ghost)
                };
                self.attack_move_type = MoveType::NONE;
                found
            }
            Pred::LastFrom => c == self.last_from,
            Pred::LastTo => c == self.last_to,
            Pred::Attr(a) => self.has_attr(c, a),
            Pred::True => true,
            Pred::False => false,
        }
    }
}

#[inline]
fn resolve(links: &[PositionId], w: usize, pos: PositionId, t: Target) -> Option<PositionId> {
    let c = match t {
        Target::Here => pos,
        Target::Dir(s) => links[pos.index() * w + s as usize],
        Target::Pos(p) => p,
    };
    (!c.is_none()).then_some(c)
}

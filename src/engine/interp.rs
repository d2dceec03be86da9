//! The block interpreter: runs one compiled move block from one square.
//!
//! The board is frozen while a block runs: every test reads the scratch board as it was
//! before the move. Actions are queued in a frame and turned into cell changes only when
//! `add` emits a move, which applies them to the scratch board, records the changes and
//! puts the board back. Execution continues after `add`.
//!
//! In *attack mode* (no output list) the run only asks whether some `add` would capture on
//! the attack target square; it stops at the first one.
//!
//! Commit order of one emitted move: queued captures; then every origin is emptied (or a
//! hand counter decremented for a drop); then every moving piece lands, capturing whatever
//! stands there (the main piece last, cascaded pieces first in the order they were
//! cascaded); then the other actions in the order they were queued (change-type, flip,
//! change-owner, create, set-attribute), each on the piece standing on its square.

use super::generate::{Action, Frame, Scratch};
use super::scan::Scan;
use super::{Change, MoveList, MoveNote, Tables};
use crate::model::{NONE, Op, Pred, Target, piece};

#[inline]
fn set(board: &mut [u32], changes: &mut Vec<Change>, cell: u32, v: u32) {
    let old = board[cell as usize];
    changes.push(Change { cell, old, new: v });
    board[cell as usize] = v;
}

/// A predicate on the current square that [`Scratch::run`]'s fast path evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SimplePred {
    Empty,
    Friend,
    Enemy,
}

/// The compact form of one instruction for the fast path of [`Scratch::run`]:
/// `Tables::fast[pc]` describes `code[pc]`. Tests look at the current square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FastOp {
    Step(u32),
    /// A simple test directly followed by `Op::Verify`: the pair is done at once (continue
    /// at `pc + 2`).
    Require(SimplePred, bool),
    /// A simple test (`negate` second).
    Test(SimplePred, bool),
    InZone(u32, bool),
    Verify,
    IfFalse(u32),
    IfTrue(u32),
    Goto(u32),
    Not,
    Loop,
    /// `Op::Add` (its operands are read from the code).
    Add,
    End,
    /// Anything else: the general interpreter takes over here.
    Other,
}

/// Builds the [`FastOp`] table of a code vector (one entry per instruction).
pub(crate) fn fast_ops(code: &[Op]) -> Vec<FastOp> {
    let simple = |op: &Op| match *op {
        Op::Test {
            pred,
            target: Target::Here,
            negate,
        } => {
            let p = match pred {
                Pred::Empty => SimplePred::Empty,
                Pred::Friend => SimplePred::Friend,
                Pred::Enemy => SimplePred::Enemy,
                _ => return None,
            };
            Some((p, negate))
        }
        _ => None,
    };
    code.iter()
        .enumerate()
        .map(|(pc, op)| match (*op, simple(op)) {
            (_, Some((p, negate))) if code.get(pc + 1) == Some(&Op::Verify) => {
                FastOp::Require(p, negate)
            }
            (_, Some((p, negate))) => FastOp::Test(p, negate),
            (Op::Step(s), _) => FastOp::Step(s),
            (
                Op::Test {
                    pred: Pred::InZone(z),
                    target: Target::Here,
                    negate,
                },
                _,
            ) => FastOp::InZone(z, negate),
            (Op::Verify, _) => FastOp::Verify,
            (Op::IfFalse(a), _) => FastOp::IfFalse(a),
            (Op::IfTrue(a), _) => FastOp::IfTrue(a),
            (Op::Goto(a), _) => FastOp::Goto(a),
            (Op::Not, _) => FastOp::Not,
            (Op::Loop, _) => FastOp::Loop,
            (Op::Add { .. }, _) => FastOp::Add,
            (Op::End, _) => FastOp::End,
            _ => FastOp::Other,
        })
        .collect()
}

/// Per-run registers handed to [`Scratch::test`].
pub(crate) struct Regs {
    pub pos: u32,
    pub mark: u32,
    pub flags: u64,
    pub piece: u32,
}

impl Scratch {
    /// Runs the block at `pc0` for `piece` starting on `start`. `from` is the origin
    /// ([`NONE`] for a drop). Emits moves into `out`, or in attack mode (`out` = `None`)
    /// returns true as soon as some `add` would capture on the attack target.
    ///
    /// Normal runs queue their work in `frames[0]`, attack runs in `frames[1]`: an attack
    /// run never starts another run, and a normal run starts only attack runs (through
    /// `attacked?`/`defended?`), so the two frames are never in use twice at once.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn run(
        &mut self,
        t: &Tables,
        pc0: u32,
        start: u32,
        piece: u32,
        from: u32,
        move_type: u32,
        mut out: Option<&mut MoveList>,
    ) -> bool {
        // Most blocks (and most runs of the others) use only steps, simple tests, jumps
        // and `add` without queued actions. That part is run here, from the compact copy
        // in `Tables::fast`, without setting up the full interpreter; at the first other
        // instruction the full interpreter resumes in the same state (the mark is still on
        // `start`, `to` unset, no flag set, nothing queued).
        let links = &t.links[self.mover as usize][..];
        let mut pc = pc0 as usize;
        let mut pos = start;
        let mut acc = false;
        let mut steps = 0u32;
        loop {
            match t.fast[pc] {
                FastOp::Step(s) => {
                    pos = links[pos as usize * t.width + s as usize];
                    if pos == NONE {
                        return false;
                    }
                    pc += 1;
                }
                FastOp::Require(pred, negate) => {
                    if self.simple_test(t, pred, pos) == negate {
                        return false;
                    }
                    acc = true;
                    pc += 2;
                }
                FastOp::Test(pred, negate) => {
                    acc = self.simple_test(t, pred, pos) != negate;
                    pc += 1;
                }
                FastOp::InZone(z, negate) => {
                    acc =
                        t.model.zone_sets[self.mover as usize][z as usize].contains(pos) != negate;
                    pc += 1;
                }
                FastOp::Verify => {
                    if !acc {
                        return false;
                    }
                    pc += 1;
                }
                FastOp::IfFalse(a) => pc = if acc { pc + 1 } else { a as usize },
                FastOp::IfTrue(a) => pc = if acc { a as usize } else { pc + 1 },
                FastOp::Goto(a) => pc = a as usize,
                FastOp::Not => {
                    acc = !acc;
                    pc += 1;
                }
                FastOp::Loop => {
                    steps += 1;
                    if steps > self.loop_budget {
                        self.loop_overflow = true;
                        return false;
                    }
                    pc += 1;
                }
                FastOp::Add => {
                    match out.as_deref_mut() {
                        None => {
                            if pos == self.attack_target {
                                return true;
                            }
                        }
                        Some(o) => {
                            self.frames[0].clear();
                            self.add_moves(t, t.model.code[pc], from, piece, pos, move_type, o);
                        }
                    }
                    pc += 1;
                }
                FastOp::End => return false,
                FastOp::Other => break,
            }
        }
        self.run_in(t, pc, start, pos, acc, steps, piece, from, move_type, out)
    }

    /// The general interpreter: runs from `pc` with the current square `pos` and the
    /// accumulator `acc` (the mark is still on `start`).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn run_in(
        &mut self,
        t: &Tables,
        pc: usize,
        start: u32,
        pos: u32,
        mut acc: bool,
        mut steps: u32,
        mut piece: u32,
        mut from: u32,
        move_type: u32,
        mut out: Option<&mut MoveList>,
    ) -> bool {
        let k = usize::from(out.is_none());
        self.frames[k].clear();
        let code = &t.model.code[..];
        let mover = self.mover as usize;
        let links = &t.links[mover][..];
        let w = t.width;
        let mut pc = pc;
        let mut r = Regs {
            pos,
            mark: start,
            flags: 0,
            piece,
        };
        let mut to = NONE;
        loop {
            match code[pc] {
                Op::Step(s) => {
                    let n = links[r.pos as usize * w + s as usize];
                    if n == NONE {
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
                    let dest = if to != NONE { to } else { r.pos };
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
                        Some(o) => self.add_moves(t, op, from, piece, dest, move_type, o),
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
                    let v = self.board[r.pos as usize];
                    if v == 0 {
                        return false;
                    }
                    from = r.pos;
                    piece = v;
                    r.piece = v;
                }
                Op::Cascade => {
                    let dest = if to != NONE { to } else { r.pos };
                    if piece != 0 {
                        self.frames[k].cascades.push((from, dest, piece));
                    }
                    // The new moving piece is whatever stands here (possibly nothing until
                    // a `from` picks one up).
                    let v = self.board[r.pos as usize];
                    from = r.pos;
                    piece = v;
                    r.piece = v;
                    to = NONE;
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
                    if p == NONE {
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
                        let owner = if owner == NONE { self.mover } else { owner };
                        // A type left out is the moving piece's (nothing to copy: no piece).
                        let ty = if ty != NONE {
                            ty
                        } else if piece != 0 {
                            piece::ty(piece)
                        } else {
                            return false;
                        };
                        let pc = piece::make(ty, owner, t.model.piece_types[ty as usize].attrs);
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
    fn cached_scan(&mut self, t: &Tables, si: u32, pos: u32, actions: bool) -> (u64, u64) {
        let scan = t.scans.list[si as usize];
        let start = if scan.start != NONE { scan.start } else { pos };
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
                let links = &t.links[mover as usize][..];
                let w = t.width;
                let mut p = start;
                let mut flags = (0u64, 0u64);
                loop {
                    p = links[p as usize * w + scan.slot as usize];
                    if p == NONE {
                        break;
                    }
                    self.scan_body(t, links, &scan, p, pos, &mut flags);
                }
                if !actions {
                    self.scan_store.truncate(begin as usize);
                    return flags;
                }
                let e = super::scan::ScanEntry {
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
        links: &[u32],
        scan: &Scan,
        pos: u32,
        mark: u32,
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
                    let owner = if owner == NONE { self.mover } else { owner };
                    let pc = piece::make(ty, owner, t.model.piece_types[ty as usize].attrs);
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

    /// Emits the moves of the `add` instruction `op` (one per promotion type, or one
    /// keeping the type) from the queued work in `frames[0]`.
    #[allow(clippy::too_many_arguments)]
    fn add_moves(
        &mut self,
        t: &Tables,
        op: Op,
        from: u32,
        piece: u32,
        dest: u32,
        move_type: u32,
        out: &mut MoveList,
    ) {
        let Op::Add {
            types,
            ntypes,
            copy,
            partial,
        } = op
        else {
            return;
        };
        let f = &self.frames[0];
        // `add` emits one move; `(add T1 … Tn)` one move per type, promoted to it.
        let plain = (ntypes == 0).then_some(NONE);
        let promotions = (types..types + ntypes).map(|i| t.model.type_lists[i as usize]);
        for promote in plain.into_iter().chain(promotions) {
            emit(
                t,
                &mut self.board,
                f,
                self.mover,
                from,
                piece,
                dest,
                promote,
                copy,
                partial,
                move_type,
                out,
            );
        }
    }

    /// Evaluates a [`SimplePred`] on `pos` of the frozen board.
    #[inline(always)]
    fn simple_test(&self, t: &Tables, pred: SimplePred, pos: u32) -> bool {
        let v = self.board[pos as usize];
        match pred {
            SimplePred::Empty => v == 0,
            SimplePred::Friend => v != 0 && piece::owner(v) == self.mover,
            SimplePred::Enemy => {
                v != 0 && piece::owner(v) != self.mover && !t.neutral[piece::owner(v) as usize]
            }
        }
    }

    /// Evaluates a predicate on the frozen board. `links` is the mover's link table and `k`
    /// the frame of the running block.
    #[inline]
    fn test(
        &mut self,
        t: &Tables,
        links: &[u32],
        pred: Pred,
        target: Target,
        r: &Regs,
        k: usize,
    ) -> bool {
        let c = match target {
            Target::Here => r.pos,
            Target::Dir(s) => links[r.pos as usize * t.width + s as usize],
            Target::Pos(p) => p,
        };
        if c == NONE {
            return false;
        }
        let v = self.board[c as usize];
        match pred {
            Pred::Empty => v == 0,
            Pred::Friend => v != 0 && piece::owner(v) == self.mover,
            Pred::Enemy => {
                v != 0 && piece::owner(v) != self.mover && !t.neutral[piece::owner(v) as usize]
            }
            Pred::Neutral => {
                v != 0 && piece::owner(v) != self.mover && t.neutral[piece::owner(v) as usize]
            }
            Pred::Piece(ty) => v != 0 && piece::ty(v) == ty,
            Pred::InZone(z) => t.model.zone_sets[self.mover as usize][z as usize].contains(c),
            Pred::Position(p) => c == p,
            Pred::OnBoard => true,
            Pred::Marked => c == r.mark,
            Pred::Flag(i) => i < 64 && r.flags >> i & 1 == 1,
            Pred::PosFlag(i) => self.frames[k].posflags.contains(&(i, c)),
            Pred::Attacked(mt) | Pred::Defended(mt) => {
                if self.in_attack {
                    return false;
                }
                let ghost_ty = if r.piece != 0 { piece::ty(r.piece) } else { 0 };
                self.attack_move_type = mt;
                let found = if matches!(pred, Pred::Attacked(_)) {
                    let ghost = piece::make(ghost_ty, self.mover, 0);
                    self.attacked_by_others(t, c, self.mover, ghost)
                } else {
                    // Defended: attacked by the mover's side as if an opponent stood there.
                    let opp = (0..t.model.players.len() as u32)
                        .find(|&p| p != self.mover && !t.neutral[p as usize])
                        .unwrap_or(self.mover);
                    let ghost = piece::make(ghost_ty, opp, 0);
                    self.attacked_by_others(t, c, opp, ghost)
                };
                self.attack_move_type = NONE;
                found
            }
            Pred::LastFrom => c == self.last_from,
            Pred::LastTo => c == self.last_to,
            Pred::Attr(a) => v != 0 && piece::attr(v, a),
            Pred::True => true,
            Pred::False => false,
        }
    }

    /// True when a piece of a player other than `defender` (and not neutral) could capture
    /// on `sq`. An empty square is tested with `ghost` standing on it.
    pub(crate) fn attacked_by_others(
        &mut self,
        t: &Tables,
        sq: u32,
        defender: u32,
        ghost: u32,
    ) -> bool {
        let was_empty = self.board[sq as usize] == 0;
        if was_empty {
            self.board[sq as usize] = ghost;
        }
        let mut found = false;
        for cell in 0..t.model.num_positions() as u32 {
            let v = self.board[cell as usize];
            if v == 0 {
                continue;
            }
            let o = piece::owner(v);
            if o == defender || t.neutral[o as usize] {
                continue;
            }
            if self.piece_attacks(t, cell, v, sq) {
                found = true;
                break;
            }
        }
        if was_empty {
            self.board[sq as usize] = 0;
        }
        found
    }

    /// True when the piece `v` on `cell` (moving for its owner) could capture on `sq`.
    pub(crate) fn piece_attacks(&mut self, t: &Tables, cell: u32, v: u32, sq: u32) -> bool {
        let o = piece::owner(v);
        let saved_mover = self.mover;
        let saved_target = self.attack_target;
        let saved_in = self.in_attack;
        self.attack_target = sq;
        self.in_attack = true;
        self.mover = o;
        let mut found = false;
        for b in &t.model.piece_types[piece::ty(v) as usize].moves {
            if self.attack_move_type != NONE && b.move_type != self.attack_move_type {
                continue;
            }
            if let Some(r) = &t.reach
                && !r.may_reach(o, b.start, cell, sq)
            {
                continue;
            }
            if self.run(t, b.start, cell, v, cell, b.move_type, None) {
                found = true;
                break;
            }
        }
        self.mover = saved_mover;
        self.attack_target = saved_target;
        self.in_attack = saved_in;
        found
    }

    /// True when some block of the piece `v` on `cell` might capture on `sq` (always true
    /// without a reach table).
    pub(crate) fn may_attack(&self, t: &Tables, cell: u32, v: u32, sq: u32) -> bool {
        match &t.reach {
            None => true,
            Some(r) => r.may_reach_type(piece::owner(v), piece::ty(v), cell, sq),
        }
    }
}

/// Builds one move from the queued actions and movements (see the module documentation).
#[allow(clippy::too_many_arguments)]
fn emit(
    t: &Tables,
    board: &mut [u32],
    f: &Frame,
    mover: u32,
    from: u32,
    piece_v: u32,
    dest: u32,
    promote: u32,
    copy: bool,
    partial: u32,
    move_type: u32,
    out: &mut MoveList,
) {
    if piece_v == 0 {
        return;
    }
    let m = out.push_slot();
    let recycle = t.model.options.recycle_captures;
    let mut captures = 0u32;
    let mut kings = 0u32;
    let mut capture_at = |board: &mut [u32], changes: &mut Vec<Change>, c: u32| {
        let v = board[c as usize];
        if v != 0 {
            captures += 1;
            if piece::ty(v) != 0 {
                kings += 1;
            }
            set(board, changes, c, 0);
            if recycle {
                let h = t.model.hand_cell(piece::owner(v), piece::ty(v));
                set(board, changes, h, board[h as usize] + 1);
            }
        }
    };
    // A move that stays on its square, or a drop, whose block captures its own landing
    // square removes what lands there: the capture is applied after the landing (ZoG's
    // "remove a piece" idiom `capture add`, see docs/semantics.md).
    let in_place = from == NONE || from == dest;
    let removes_landing = in_place
        && f.actions
            .iter()
            .any(|a| matches!(a, Action::Capture(c) if *c == dest));
    for a in &f.actions {
        if let Action::Capture(c) = *a
            && !(removes_landing && c == dest)
        {
            capture_at(board, &mut m.changes, c);
        }
    }
    // Origins: cascaded pieces, then the main piece (which stays with `copy`).
    let vacate = |board: &mut [u32], changes: &mut Vec<Change>, fr: u32, pc: u32, keep: bool| {
        if fr == NONE {
            if !t.model.unlimited_drops[piece::ty(pc) as usize] {
                let h = t.model.hand_cell(piece::owner(pc), piece::ty(pc));
                let n = board[h as usize];
                set(board, changes, h, n.saturating_sub(1));
            }
        } else if !keep && board[fr as usize] != 0 {
            set(board, changes, fr, 0);
        }
    };
    for &(fr, _, pc) in &f.cascades {
        vacate(board, &mut m.changes, fr, pc, false);
    }
    vacate(board, &mut m.changes, from, piece_v, copy);
    // Landings: cascaded pieces, then the main piece.
    for &(_, to, pc) in &f.cascades {
        capture_at(board, &mut m.changes, to);
        set(board, &mut m.changes, to, pc);
    }
    let landing = if promote != NONE {
        piece::with_type(piece_v, promote)
    } else {
        piece_v
    };
    capture_at(board, &mut m.changes, dest);
    set(board, &mut m.changes, dest, landing);
    if removes_landing {
        capture_at(board, &mut m.changes, dest);
    }
    for a in &f.actions {
        match *a {
            Action::Capture(_) => {}
            Action::ChangeType(c, ty) => {
                let v = board[c as usize];
                if v != 0 {
                    set(board, &mut m.changes, c, piece::with_type(v, ty));
                }
            }
            Action::Flip(c) => {
                let v = board[c as usize];
                if v != 0 {
                    let n = t.model.players.len() as u32;
                    set(
                        board,
                        &mut m.changes,
                        c,
                        piece::with_owner(v, (piece::owner(v) + 1) % n),
                    );
                }
            }
            Action::ChangeOwner(c) => {
                let v = board[c as usize];
                if v != 0 {
                    set(board, &mut m.changes, c, piece::with_owner(v, mover));
                }
            }
            Action::Create(c, pc) => set(board, &mut m.changes, c, pc),
            Action::SetAttr(c, a, val) => {
                let v = board[c as usize];
                if v != 0 {
                    set(board, &mut m.changes, c, piece::with_attr(v, a, val));
                }
            }
        }
    }
    for c in m.changes.iter().rev() {
        board[c.cell as usize] = c.old;
    }
    m.notes.push(MoveNote {
        ty: piece::ty(piece_v),
        from,
        to: dest,
        capture: captures > 0,
        promote,
        cascade: false,
    });
    for &(fr, to, pc) in &f.cascades {
        m.notes.push(MoveNote {
            ty: piece::ty(pc),
            from: fr,
            to,
            capture: false,
            promote: NONE,
            cascade: true,
        });
    }
    m.captures = captures;
    m.king_captures = kings;
    m.last_from = from;
    m.last_to = dest;
    m.move_type = move_type;
    m.partial = partial;
}

#[inline]
fn resolve(links: &[u32], w: usize, pos: u32, t: Target) -> Option<u32> {
    let c = match t {
        Target::Here => pos,
        Target::Dir(s) => links[pos as usize * w + s as usize],
        Target::Pos(p) => p,
    };
    (c != NONE).then_some(c)
}

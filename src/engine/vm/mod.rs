//! The bytecode VM: runs one compiled move block (`model.code`) from one square over a
//! frozen scratch board, and answers attack tests with it.
//!
//! This module owns the VM's state: the [`Scratch`] board and registers, the queued work of
//! a run ([`Frame`], [`Action`]), the registers handed to predicates ([`Regs`]), loading and
//! applying moves on the scratch board, and the attack tests built on runs
//! ([`Scratch::attacked_by_others`], [`Scratch::piece_attacks`]). The sub-modules hold the
//! two execution paths and the move builder:
//!
//! - `fast`: the fast-path table ([`FastOp`], [`fast_ops`]) and [`Scratch::run`], the entry
//!   point, which runs the common instructions from that table and hands over to the full
//!   interpreter at the first other one;
//! - `interp`: the full interpreter (`run_in`), predicates (`test`) and the board-scan cache;
//! - `emit`: `add` — turning a run's queued work into a [`Move`].
//!
//! The legal-move pipeline (`generate`) and goals (`outcome`) call into the VM; the VM
//! calls nothing above it.

mod emit;
mod fast;
mod interp;

pub(crate) use fast::{FastOp, SimplePred, fast_ops, mark_step_skips, plain_blocks};

use super::{Move, State, Tables};
use crate::model::{MoveType, PieceTypeId, PlayerId, PositionId, piece};

/// A queued action of one block run.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Action {
    Capture(PositionId),
    Flip(PositionId),
    ChangeOwner(PositionId),
    ChangeType(PositionId, PieceTypeId),
    Create(PositionId, u32),
    SetAttr(PositionId, u32, bool),
}

/// Queued work of one block run.
#[derive(Default, Debug)]
pub(crate) struct Frame {
    pub actions: Vec<Action>,
    /// Earlier movements of a cascading block: (from, to, piece).
    pub cascades: Vec<(PositionId, PositionId, u32)>,
    /// Position flags set to true: (flag, position).
    pub posflags: Vec<(u32, PositionId)>,
}

impl Frame {
    pub fn clear(&mut self) {
        self.actions.clear();
        self.cascades.clear();
        self.posflags.clear();
    }
}

/// Per-run registers handed to [`Scratch::test`].
pub(crate) struct Regs {
    pub pos: PositionId,
    pub mark: PositionId,
    pub flags: u64,
    pub piece: u32,
}

/// The moving piece of a run: what `add` moves, from where ([`PositionId::NONE`] for a
/// drop), under
/// the block's move type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Moving {
    pub piece: u32,
    pub from: PositionId,
    pub move_type: MoveType,
}

/// The VM's scratch board and registers (one per engine).
pub(crate) struct Scratch {
    /// Working copy of the state's cells (frozen while a block runs).
    pub board: Vec<u32>,
    /// The player whose pieces, zones and symmetry are in use.
    pub mover: PlayerId,
    pub last_from: PositionId,
    pub last_to: PositionId,
    /// `frames[0]`: normal runs, `frames[1]`: attack runs.
    pub frames: [Frame; 2],
    pub attack_target: PositionId,
    /// Only blocks of this move type attack ([`MoveType::NONE`]: all), for
    /// `(attacked? MOVE-TYPE)`.
    pub attack_move_type: MoveType,
    pub in_attack: bool,
    pub loop_budget: u32,
    pub loop_overflow: bool,
    /// Board scans run on the current scratch board (see `scan`). Cleared whenever the
    /// board changes.
    pub scan_cache: Vec<super::scan::ScanEntry>,
    pub scan_store: Vec<Action>,
    /// Squares read by recorded runs (see [`Scratch::run_with`]).
    pub reads: Vec<PositionId>,
    /// A recorded run left the fast path: `reads` is incomplete.
    pub reads_unknown: bool,
    /// The mover's pieces (square, value) and the squares of the other players' pieces,
    /// listed from the loaded board by the first-parts step (the board is the same again
    /// when the king-safety step reads them).
    pub own: Vec<(PositionId, u32)>,
    pub others: Vec<PositionId>,
}

impl Scratch {
    pub(crate) fn new(t: &Tables) -> Scratch {
        Scratch {
            board: vec![0; t.model.num_cells()],
            mover: PlayerId::new(0),
            last_from: PositionId::NONE,
            last_to: PositionId::NONE,
            frames: Default::default(),
            attack_target: PositionId::NONE,
            attack_move_type: MoveType::NONE,
            in_attack: false,
            loop_budget: 10_000,
            loop_overflow: false,
            scan_cache: Vec::new(),
            scan_store: Vec::new(),
            reads: Vec::new(),
            reads_unknown: false,
            own: Vec::new(),
            others: Vec::new(),
        }
    }

    /// Forgets the cached board scans (the scratch board is about to change).
    #[inline]
    pub(crate) fn board_changed(&mut self) {
        self.scan_cache.clear();
        self.scan_store.clear();
    }

    /// Loads a state into the scratch board.
    pub(crate) fn load(&mut self, t: &Tables, s: &State) {
        self.board_changed();
        self.board.copy_from_slice(&s.cells);
        let turn = t.model.turns[s.turn as usize];
        self.mover = turn.pieces_of;
        self.last_from = s.last_from;
        self.last_to = s.last_to;
    }

    /// Plays `m` on the scratch board.
    pub(crate) fn apply(&mut self, m: &Move) {
        self.board_changed();
        for c in &m.changes {
            self.board[c.cell.index()] = c.new;
        }
    }

    /// Takes `m` back on the scratch board.
    pub(crate) fn revert(&mut self, m: &Move) {
        self.board_changed();
        for c in m.changes.iter().rev() {
            self.board[c.cell.index()] = c.old;
        }
    }

    /// True when a piece of a player other than `defender` (and not neutral) could capture
    /// on `sq`. An empty square is tested with `ghost` standing on it.
    pub(crate) fn attacked_by_others(
        &mut self,
        t: &Tables,
        sq: PositionId,
        defender: PlayerId,
        ghost: u32,
    ) -> bool {
        let was_empty = self.board[sq.index()] == 0;
        if was_empty {
            self.board[sq.index()] = ghost;
        }
        let mut found = false;
        for i in 0..t.model.num_positions() {
            let v = self.board[i];
            let cell = PositionId::new(i as u32);
            if v == 0 {
                continue;
            }
            let o = piece::owner(v);
            if o == defender || t.neutral[o.index()] {
                continue;
            }
            if self.piece_attacks(t, cell, v, sq) {
                found = true;
                break;
            }
        }
        if was_empty {
            self.board[sq.index()] = 0;
        }
        found
    }

    /// True when the piece `v` on `cell` (moving for its owner) could capture on `sq`.
    pub(crate) fn piece_attacks(
        &mut self,
        t: &Tables,
        cell: PositionId,
        v: u32,
        sq: PositionId,
    ) -> bool {
        self.piece_attacks_with::<false>(t, cell, v, sq)
    }

    /// [`Scratch::piece_attacks`], and the squares the attack runs read: `Some(result)`
    /// with those squares in `self.reads` (cleared first) when every run stayed on the
    /// fast path, so that the answer is the same on any board that agrees on them (and on
    /// `cell`); `None` when some run went into the interpreter.
    pub(crate) fn piece_attacks_recorded(
        &mut self,
        t: &Tables,
        cell: PositionId,
        v: u32,
        sq: PositionId,
    ) -> Option<bool> {
        self.reads.clear();
        self.reads_unknown = false;
        let found = self.piece_attacks_with::<true>(t, cell, v, sq);
        (!self.reads_unknown).then_some(found)
    }

    #[inline(always)]
    fn piece_attacks_with<const RECORD: bool>(
        &mut self,
        t: &Tables,
        cell: PositionId,
        v: u32,
        sq: PositionId,
    ) -> bool {
        let o = piece::owner(v);
        let saved_mover = self.mover;
        let saved_target = self.attack_target;
        let saved_in = self.in_attack;
        self.attack_target = sq;
        self.in_attack = true;
        self.mover = o;
        let mut found = false;
        for b in &t.model.piece_types[piece::ty(v).index()].moves {
            if !self.attack_move_type.is_none() && b.move_type != self.attack_move_type {
                continue;
            }
            if t.reach
                .as_ref()
                .is_some_and(|r| !r.may_reach(o, b.start, cell, sq))
            {
                continue;
            }
            if self.run_with::<RECORD>(t, b, cell, v, cell, None) {
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
    pub(crate) fn may_attack(&self, t: &Tables, cell: PositionId, v: u32, sq: PositionId) -> bool {
        match &t.reach {
            None => true,
            Some(r) => r.may_reach_type(piece::owner(v), piece::ty(v).get(), cell, sq),
        }
    }
}

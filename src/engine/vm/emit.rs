//! The VM's `add`: turns the queued work of a run into moves.
//!
//! Commit order of one emitted move: queued captures; then every origin is emptied (or a
//! hand counter decremented for a drop); then every moving piece lands, capturing whatever
//! stands there (the main piece last, cascaded pieces first in the order they were
//! cascaded); then the other actions in the order they were queued (change-type, flip,
//! change-owner, create, set-attribute), each on the piece standing on its square (a
//! `set-attribute` that leaves that piece as it is adds no change).

use super::{Action, Moving, Scratch};
use crate::engine::{ActKind, ActNote, Change, MoveList, MoveNote, Shape, Tables};
use crate::model::{CellId, MoveType, Op, PieceTypeId, PlayerId, PositionId, piece};

#[inline]
fn set(board: &mut [u32], changes: &mut Vec<Change>, cell: CellId, v: u32) {
    let old = board[cell.index()];
    changes.push(Change { cell, old, new: v });
    board[cell.index()] = v;
}

impl Scratch {
    /// Emits the moves of the `add` instruction `op` (one per promotion type, or one
    /// keeping the type) from the queued work in `frames[0]`.
    #[inline]
    pub(super) fn add_moves(
        &mut self,
        t: &Tables,
        op: Op,
        moving: Moving,
        dest: PositionId,
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
        // `add` emits one move; `(add T1 … Tn)` one move per type, promoted to it.
        let add = Add {
            moving,
            dest,
            copy,
            partial,
        };
        // Attribute writes alone (a rook or king losing its castling right) keep the move
        // simple: `emit_simple` applies them after the landing, as `emit` does.
        let f = &self.frames[0];
        let simple = f.cascades.is_empty()
            && (f.actions.is_empty() || f.actions.iter().all(|a| matches!(a, Action::SetAttr(..))));
        if ntypes == 0 {
            self.emit_one(t, &add, PieceTypeId::NONE, simple, out);
            return;
        }
        for i in types..types + ntypes {
            self.emit_one(t, &add, t.model.type_lists[i as usize], simple, out);
        }
    }

    /// One move of `add`: [`Scratch::emit_simple`] when the run queued no cascade and no
    /// action but attribute writes (`simple`), else [`Scratch::emit`].
    #[inline(always)]
    fn emit_one(
        &mut self,
        t: &Tables,
        add: &Add,
        promote: PieceTypeId,
        simple: bool,
        out: &mut MoveList,
    ) {
        if simple {
            self.emit_simple(t, add, promote, out);
        } else {
            self.emit(t, add, promote, out);
        }
    }

    /// [`Scratch::emit`] for a run that queued no cascade and no action but attribute
    /// writes: the moving piece leaves its origin (or the hand), captures what stands on
    /// `dest`, lands, and the attributes are written. The changes are the ones `emit` writes for the same run, in the same order;
    /// this only skips the queues and the closures (most moves of most games are such).
    #[inline(never)]
    fn emit_simple(&mut self, t: &Tables, add: &Add, promote: PieceTypeId, out: &mut MoveList) {
        // Field by field: the caller has just stored them one by one, and copying the whole
        // context at once (one 16-byte load) missed store forwarding, a stall that took
        // a fifth of this function's time in chess playouts (perf).
        let piece_v = add.moving.piece;
        if piece_v == 0 {
            return;
        }
        let (from, dest) = (add.moving.from, add.dest);
        let board = &mut self.board[..];
        let m = out.push_slot();
        let changes = &mut m.changes;
        let landing = if !promote.is_none() {
            piece::with_type(piece_v, promote)
        } else {
            piece_v
        };
        let (v, captured);
        if !from.is_none()
            && from != dest
            && self.frames[0].actions.is_empty()
            && !t.model.options.recycle_captures
        {
            // Two distinct board squares and nothing else: the changes are read off the
            // board without writing it (`simple_changes` writes each change so that the
            // next one sees it, then takes them all back).
            let u = board[from.index()];
            if !add.copy && u != 0 {
                changes.push(Change {
                    cell: from.cell(),
                    old: u,
                    new: 0,
                });
            }
            v = board[dest.index()];
            captured = v != 0;
            if captured {
                changes.push(Change {
                    cell: dest.cell(),
                    old: v,
                    new: 0,
                });
            }
            changes.push(Change {
                cell: dest.cell(),
                old: 0,
                new: landing,
            });
            #[cfg(debug_assertions)]
            {
                let mut general = Vec::new();
                let actions = &self.frames[0].actions;
                let r = simple_changes(t, board, add, landing, actions, &mut general);
                assert_eq!(
                    (&general, r),
                    (&*changes, v),
                    "emit_simple's two paths disagree"
                );
            }
        } else {
            v = simple_changes(t, board, add, landing, &self.frames[0].actions, changes);
            captured = v != 0;
        }
        if captured {
            m.captures = 1;
            m.king_captures = u32::from(piece::ty(v) != PieceTypeId::new(0));
        }
        // The attribute writes on a piece after the landing (the others changed nothing
        // and name no piece), for notation.
        for a in &self.frames[0].actions {
            if let Action::SetAttr(c, ..) = *a {
                let on_piece = c == dest || ((add.copy || c != from) && self.board[c.index()] != 0);
                if on_piece {
                    m.acts.push(act_note(a));
                }
            }
        }
        m.notes.push(MoveNote {
            ty: piece::ty(piece_v),
            from,
            to: dest,
            capture: captured,
            promote,
            cascade: false,
        });
        m.last_from = from;
        m.last_to = dest;
        m.move_type = add.moving.move_type;
        m.partial = add.partial;
        // For king safety (games with royal pieces): the board changes are on `from` and
        // `dest` only, unless an attribute was written on a third square that holds a
        // piece (a write on an empty square changes nothing; `from` is empty after the
        // move unless the piece stays there).
        let (board, copy) = (&self.board, add.copy);
        if !t.model.royal_types.is_empty()
            && piece::owner(landing) == self.mover
            && self.frames[0].actions.iter().all(|a| match *a {
                Action::SetAttr(c, ..) => {
                    c == dest || (c == from && !copy) || board[c.index()] == 0
                }
                _ => false,
            })
        {
            let royal = &t.royal;
            m.shape = Shape::Step {
                royal: royal[piece::ty(landing).index()]
                    || royal[piece::ty(piece_v).index()]
                    || (captured && royal[piece::ty(v).index()]),
            };
        }
    }

    /// The move of a plain drop (a block that is `(verify empty?) add` and nothing else,
    /// see `Tables::plain_drops`) of `piece_v` on the empty square `dest`, with `hand` its
    /// hand cell and count when drops of its type are counted: the move `emit_simple`
    /// builds for the block's run (the same changes in the same order), without the run.
    #[inline]
    pub(crate) fn emit_drop(
        piece_v: u32,
        hand: Option<(CellId, u32)>,
        dest: PositionId,
        move_type: MoveType,
        partial: MoveType,
        out: &mut MoveList,
    ) {
        let m = out.push_slot();
        if let Some((h, n)) = hand {
            m.changes.push(Change {
                cell: h,
                old: n,
                new: n.saturating_sub(1),
            });
        }
        m.changes.push(Change {
            cell: dest.cell(),
            old: 0,
            new: piece_v,
        });
        m.notes.push(MoveNote {
            ty: piece::ty(piece_v),
            from: PositionId::NONE,
            to: dest,
            capture: false,
            promote: PieceTypeId::NONE,
            cascade: false,
        });
        m.last_from = PositionId::NONE;
        m.last_to = dest;
        m.move_type = move_type;
        m.partial = partial;
    }

    /// Builds one move of `add`, with the moving piece promoted to `promote`
    /// ([`PieceTypeId::NONE`]:
    /// keeping its type), from the queued work in `frames[0]`; see the module
    /// documentation.
    #[inline(never)]
    fn emit(&mut self, t: &Tables, add: &Add, promote: PieceTypeId, out: &mut MoveList) {
        let Add {
            moving:
                Moving {
                    piece: piece_v,
                    from,
                    move_type,
                },
            dest,
            copy,
            partial,
        } = *add;
        let (board, f, mover) = (&mut self.board[..], &self.frames[0], self.mover);
        if piece_v == 0 {
            return;
        }
        let m = out.push_slot();
        let recycle = t.model.options.recycle_captures;
        let mut captures = 0u32;
        let mut kings = 0u32;
        let mut capture_at = |board: &mut [u32], changes: &mut Vec<Change>, c: PositionId| {
            let v = board[c.index()];
            if v != 0 {
                captures += 1;
                if piece::ty(v) != PieceTypeId::new(0) {
                    kings += 1;
                }
                set(board, changes, c.cell(), 0);
                if recycle {
                    let h = t.model.hand_cell(piece::owner(v), piece::ty(v));
                    set(board, changes, h, board[h.index()] + 1);
                }
            }
        };
        // A move whose block captures a square a piece of it lands on removes what lands
        // there: the capture is applied after the landings (ZoG's "remove a piece" idiom
        // `capture add`, and a strike that captures its target and leaves the striker at
        // home; see docs/semantics.md).
        let lands = |c: PositionId| c == dest || f.cascades.iter().any(|&(_, to, _)| to == c);
        // ZoG's quirk: a piece whose type or an attribute the move changes is not captured
        // by it (docs/semantics.md).
        let changed = |board: &[u32], c: PositionId| {
            let v = board[c.index()];
            v != 0
                && f.actions.iter().any(|a| match *a {
                    Action::SetAttr(q, at, val) => q == c && piece::attr(v, at) != val,
                    Action::ChangeType(q, ty) => q == c && piece::ty(v) != ty,
                    _ => false,
                })
        };
        // (The captures' notes are taken here, where a void one is known; the notation
        // writes captures after the other actions anyway.)
        let mut late = false;
        for a in &f.actions {
            if let Action::Capture(c) = *a {
                if lands(c) {
                    late = true;
                } else if changed(board, c) {
                    continue;
                } else {
                    capture_at(board, &mut m.changes, c);
                }
                m.acts.push(act_note(a));
            }
        }
        // Origins: cascaded pieces, then the main piece (which stays with `copy`).
        let vacate =
            |board: &mut [u32], changes: &mut Vec<Change>, fr: PositionId, pc: u32, keep: bool| {
                if fr.is_none() {
                    if !t.model.unlimited_drops[piece::ty(pc).index()] {
                        let h = t.model.hand_cell(piece::owner(pc), piece::ty(pc));
                        let n = board[h.index()];
                        set(board, changes, h, n.saturating_sub(1));
                    }
                } else if !keep && board[fr.index()] != 0 {
                    set(board, changes, fr.cell(), 0);
                }
            };
        for &(fr, _, pc) in &f.cascades {
            vacate(board, &mut m.changes, fr, pc, false);
        }
        vacate(board, &mut m.changes, from, piece_v, copy);
        // Landings: cascaded pieces, then the main piece.
        for &(_, to, pc) in &f.cascades {
            capture_at(board, &mut m.changes, to);
            set(board, &mut m.changes, to.cell(), pc);
        }
        let landing = if !promote.is_none() {
            piece::with_type(piece_v, promote)
        } else {
            piece_v
        };
        capture_at(board, &mut m.changes, dest);
        set(board, &mut m.changes, dest.cell(), landing);
        if late {
            for a in &f.actions {
                if let Action::Capture(c) = *a {
                    if lands(c) {
                        capture_at(board, &mut m.changes, c);
                    }
                }
            }
        }
        for a in &f.actions {
            // For notation: every other action but an attribute write on an empty square.
            if !matches!(*a, Action::Capture(_))
                && !matches!(*a, Action::SetAttr(c, ..) if board[c.index()] == 0)
            {
                m.acts.push(act_note(a));
            }
            match *a {
                Action::Capture(_) => {}
                Action::ChangeType(c, ty) => {
                    let v = board[c.index()];
                    if v != 0 {
                        set(board, &mut m.changes, c.cell(), piece::with_type(v, ty));
                    }
                }
                Action::Flip(c) => {
                    let v = board[c.index()];
                    if v != 0 {
                        let n = t.model.players.len() as u32;
                        set(
                            board,
                            &mut m.changes,
                            c.cell(),
                            piece::with_owner(v, PlayerId::new((piece::owner(v).get() + 1) % n)),
                        );
                    }
                }
                Action::ChangeOwner(c) => {
                    let v = board[c.index()];
                    if v != 0 {
                        set(board, &mut m.changes, c.cell(), piece::with_owner(v, mover));
                    }
                }
                Action::Create(c, pc) => set(board, &mut m.changes, c.cell(), pc),
                Action::SetAttr(c, a, val) => {
                    let v = board[c.index()];
                    if v != 0 && piece::attr(v, a) != val {
                        set(board, &mut m.changes, c.cell(), piece::with_attr(v, a, val));
                    }
                }
            }
        }
        for c in m.changes.iter().rev() {
            board[c.cell.index()] = c.old;
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
                promote: PieceTypeId::NONE,
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
}

/// The note of a queued action, for notation.
#[inline]
fn act_note(a: &Action) -> ActNote {
    let (kind, pos, arg) = match *a {
        Action::Capture(p) => (ActKind::Capture, p, 0),
        Action::Flip(p) => (ActKind::Flip, p, 0),
        Action::ChangeOwner(p) => (ActKind::ChangeOwner, p, 0),
        Action::ChangeType(p, ty) => (ActKind::ChangeType, p, ty.get()),
        Action::Create(p, pc) => (ActKind::Create, p, pc),
        Action::SetAttr(p, a, v) => (ActKind::SetAttr, p, a | (u32::from(v) << 16)),
    };
    ActNote { kind, pos, arg }
}

/// What one `add` instruction builds its moves from, besides the scratch board and the
/// queued work: the same for every move it emits (one per promotion type).
///
/// `emit` is kept out of line and takes this by reference, beside the scratch board (self),
/// the tables, the promotion and the output: five registers, and the context is written once
/// per `add`, outside the promotion loop. (The 12 scalar arguments it replaces put half of
/// them on the stack; small structs passed by value cost 0.6-0.8% more perft instructions.)
#[derive(Clone, Copy, Debug)]
struct Add {
    moving: Moving,
    /// The landing square of the moving piece.
    dest: PositionId,
    /// The piece stays on its origin (`add-copy`).
    copy: bool,
    /// The move type of the continuation (`add-partial`), or [`MoveType::NONE`].
    partial: MoveType,
}

/// The changes of an `emit_simple` move in the general case (a drop, the same square, hand
/// counters, attribute writes): each change is written on `board` so that the next one sees
/// it, then all are taken back. Returns the piece captured on the destination (0: none).
#[inline(always)]
fn simple_changes(
    t: &Tables,
    board: &mut [u32],
    add: &Add,
    landing: u32,
    actions: &[Action],
    changes: &mut Vec<Change>,
) -> u32 {
    let (piece_v, from, dest) = (add.moving.piece, add.moving.from, add.dest);
    if from.is_none() {
        let ty = piece::ty(piece_v);
        if !t.model.unlimited_drops[ty.index()] {
            let h = t.model.hand_cell(piece::owner(piece_v), ty);
            let n = board[h.index()];
            set(board, changes, h, n.saturating_sub(1));
        }
    } else if !add.copy && board[from.index()] != 0 {
        set(board, changes, from.cell(), 0);
    }
    let v = board[dest.index()];
    if v != 0 {
        set(board, changes, dest.cell(), 0);
        if t.model.options.recycle_captures {
            let h = t.model.hand_cell(piece::owner(v), piece::ty(v));
            set(board, changes, h, board[h.index()] + 1);
        }
    }
    set(board, changes, dest.cell(), landing);
    for a in actions {
        if let Action::SetAttr(c, a, val) = *a {
            let v = board[c.index()];
            if v != 0 && piece::attr(v, a) != val {
                set(board, changes, c.cell(), piece::with_attr(v, a, val));
            }
        }
    }
    for c in changes.iter().rev() {
        board[c.cell.index()] = c.old;
    }
    v
}

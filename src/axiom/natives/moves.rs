//! Move lists: generating them (a record per move, its code and notation compiled as its
//! move word runs), the move actions that record, the board edits a move's code makes, and
//! `$GenerateMoves` and `material-balance`.

use super::{Generation, MAX_NOTATION, Part, Pending, Runtime, n};
use crate::axiom::program::{self, REC_CAPTURES, REC_NOTATION};
use crate::axiom::state;
use crate::forth::error::{FResult, ForthErrorKind as K};
use crate::forth::vm::{CELL, Vm, p};

/// Most arguments of an action compiled into a move (`compile_action`'s callers pass two
/// at most).
const MAX_ACTION_ARGS: usize = 4;

impl Runtime {
    // ----- generation -----

    /// Starts a move list at `HERE` and makes it the current one (`$movesList`).
    pub(crate) fn begin_generation(&mut self, vm: &mut Vm) -> FResult<()> {
        let h = vm.here().div_ceil(CELL) * CELL;
        vm.set_here(h)?;
        vm.comma(0)?;
        vm.comma(0)?;
        vm.comma(0)?;
        vm.set_cell(self.layout.moves_list, h as i32)?;
        vm.set_cell(self.layout.passed, 0)?;
        let priorities = vm.cell(self.layout.move_priorities)? as u32;
        self.generation = Some(Generation {
            tail: h + 8,
            header: h,
            count: 0,
            move_type: 0,
            scanned: false,
            priorities,
            best: i32::MAX,
            kept_from: 0,
            dominated: false,
            pending: None,
            notation: std::mem::take(&mut self.spare),
        });
        Ok(())
    }

    /// Opens a pending record for the move word about to run.
    pub(crate) fn begin_move(&mut self, vm: &mut Vm, move_type: i32) -> FResult<()> {
        let h = vm.here().div_ceil(CELL) * CELL;
        vm.set_here(h)?;
        let l = self.layout;
        let dominated = self.dominates(vm, move_type)?;
        // Hidden cells, then the record: zeros up to the code field, then the code field
        // (written in one go: this runs for every move word a generation tries). A
        // dominated move is never listed, so nothing reads its record: it gets none, and
        // `end_move` still rewinds `HERE` to `h`.
        let rec = if dominated {
            h + REC_NOTATION
        } else {
            let rec = vm.allot_zeroed(2 * CELL + l.rec_cfa)? + 2 * CELL;
            vm.comma(p::DOCOL)?;
            vm.set_cell(rec + l.rec_type, move_type)?;
            rec
        };
        if let Some(g) = self.generation.as_mut() {
            g.move_type = move_type;
            g.dominated = dominated;
            g.notation.clear();
            g.pending = Some(Pending {
                record: rec,
                captures: 0,
            });
        }
        Ok(())
    }

    /// Drops the pending record (the move word ended without `add-move`, or `$Exit`).
    pub(crate) fn end_move(&mut self, vm: &mut Vm) -> FResult<()> {
        if let Some(pending) = self.generation.as_mut().and_then(|g| g.pending.take()) {
            vm.set_here(pending.record - REC_NOTATION)?;
        }
        Ok(())
    }

    /// Ends generation: stores the count; puts the records in `recs` (emptied first), in
    /// order. Returns, with move priorities, the best priority listed and how many moves
    /// were listed before the first of it (see [`Generation::kept_from`]).
    pub(crate) fn finish_generation(
        &mut self,
        vm: &mut Vm,
        recs: &mut Vec<u32>,
    ) -> FResult<Option<(i32, u32)>> {
        recs.clear();
        self.end_move(vm)?;
        let Some(mut g) = self.generation.take() else {
            return Ok(None);
        };
        let best = (g.priorities != 0).then_some((g.best, g.kept_from));
        self.spare = std::mem::take(&mut g.notation);
        recs.reserve(g.count as usize);
        let mut r = vm.cell(g.header + 8)? as u32;
        while r != 0 && recs.len() < g.count as usize {
            recs.push(r);
            r = vm.cell(r)? as u32;
        }
        vm.set_cell(g.header + 4, recs.len() as i32)?;
        Ok(best)
    }

    /// Drops a generation that stopped part-way (its step budget ran out): its pending
    /// move and list are forgotten (the memory is the caller's to take back).
    pub(crate) fn abandon_generation(&mut self) {
        if let Some(mut g) = self.generation.take() {
            self.spare = std::mem::take(&mut g.notation);
        }
    }

    /// Rewrites the current list to `recs` (after filtering by priority).
    pub(crate) fn relink(&self, vm: &mut Vm, recs: &[u32]) -> FResult<()> {
        let header = vm.cell(self.layout.moves_list)? as u32;
        vm.set_cell(header + 4, recs.len() as i32)?;
        let mut tail = header + 8;
        for &r in recs {
            vm.set_cell(tail, r as i32)?;
            tail = r;
        }
        vm.set_cell(tail, 0)
    }

    #[inline]
    pub(super) fn pending(&mut self) -> FResult<&mut Pending> {
        self.generation
            .as_mut()
            .and_then(|g| g.pending.as_mut())
            .ok_or_else(|| K::Host("a move action outside move generation".into()).into())
    }

    pub(super) fn note(&mut self, text: &str) -> FResult<()> {
        self.note_bytes(text.as_bytes())
    }

    pub(super) fn note_bytes(&mut self, text: &[u8]) -> FResult<()> {
        if self.generation.as_ref().is_some_and(|g| g.dominated) {
            return Ok(());
        }
        self.pending()?;
        if let Some(g) = self.generation.as_mut() {
            if g.notation.len() + text.len() + 1 > MAX_NOTATION {
                return Err(K::BufferLimit("a move's notation", MAX_NOTATION).into());
            }
            if !g.notation.is_empty() && text.first() != Some(&b' ') {
                g.notation.push(b' ');
            }
            g.notation.extend_from_slice(text);
        }
        Ok(())
    }

    /// Compiles `LIT a … native` into the pending move's code (nothing when the move is
    /// dominated: its record is dropped at `add-move`).
    pub(super) fn compile_action(&mut self, vm: &mut Vm, args: &[i32], native: u32) -> FResult<()> {
        self.pending()?;
        if self.generation.as_ref().is_some_and(|g| g.dominated) {
            return Ok(());
        }
        let mut code = [0i32; 2 * MAX_ACTION_ARGS + 1];
        let Some(code) = code.get_mut(..2 * args.len() + 1) else {
            return Err(K::Host(format!("an action of {} arguments", args.len())).into());
        };
        for (pair, &a) in code.chunks_exact_mut(2).zip(args) {
            pair.copy_from_slice(&[self.xts.lit as i32, a]);
        }
        code[2 * args.len()] = self.native_xt(native) as i32;
        vm.comma_cells(code).map(|_| ())
    }

    pub(super) fn add_move(&mut self, vm: &mut Vm) -> FResult<()> {
        self.list_pending(vm)?;
        let move_type = self.generation.as_ref().map_or(0, |g| g.move_type);
        self.begin_move(vm, move_type)
    }

    /// `add-move` without opening the next move: lists the pending move (or drops it when
    /// it is dominated), leaving no move pending.
    pub(super) fn list_pending(&mut self, vm: &mut Vm) -> FResult<()> {
        let exit = self.xts.exit;
        let move_type = self.generation.as_ref().map_or(0, |g| g.move_type);
        if self.generation.as_ref().is_some_and(|g| g.dominated) {
            // A better priority is already in the list: this move would be filtered out.
            return self.end_move(vm);
        }
        let Some((g, pending)) = self.generation.as_mut().and_then(|g| {
            let p = g.pending.take()?;
            Some((g, p))
        }) else {
            return Err(K::Host("`add-move` outside move generation".into()).into());
        };
        vm.comma(exit as i32)?;
        // A move that notes nothing is a pass.
        let notation: &[u8] = if g.notation.is_empty() {
            b"Pass"
        } else {
            &g.notation
        };
        // The text and its padding to the next cell: the bytes up to the next record are
        // written, so they do not depend on what the memory above `HERE` held before
        // (which a replay from the move-word cache does not reproduce).
        let len = notation.len() as u32 + 1;
        let padded = len.div_ceil(CELL) * CELL;
        let text = vm.allot(padded)?;
        vm.write_cstr(text, notation)?;
        vm.write_bytes(text + len, &[0; CELL as usize][..(padded - len) as usize])?;
        let r = pending.record;
        vm.set_cell(r - REC_NOTATION, text as i32)?;
        vm.set_cell(r - REC_CAPTURES, pending.captures)?;
        if let Some(off) = self.layout.rec_string {
            vm.set_cell(r + off, text as i32)?;
        }
        self.append_listed(vm, r, move_type)
    }

    /// Appends record `rec`, of a move of `move_type`, to the list being generated: linked
    /// after the last, counted (in the list's header at once: an engine may read it), and
    /// the best priority listed (and the moves listed before it) brought up to date.
    pub(super) fn append_listed(&mut self, vm: &mut Vm, rec: u32, move_type: i32) -> FResult<()> {
        let Some(g) = self.generation.as_mut() else {
            return Ok(());
        };
        if g.priorities != 0 {
            let t = move_type.clamp(0, 127) as u32;
            let p = vm.cell(g.priorities + 4 * t)?;
            if p < g.best {
                g.kept_from = g.count;
                g.best = p;
            }
        }
        vm.set_cell(g.tail, rec as i32)?;
        g.tail = rec;
        g.count += 1;
        vm.set_cell(g.header + 4, g.count as i32)
    }

    /// Adds a pass: a move noted `Pass` that changes nothing.
    pub(crate) fn add_pass(&mut self, vm: &mut Vm) -> FResult<()> {
        self.begin_move(vm, 0)?;
        self.note("Pass")?;
        self.add_move(vm)
    }

    /// Whether a move of `move_type` opened now is dominated: a better priority is already
    /// listed, so the move would be filtered out and is not recorded ([`Generation`]).
    #[inline]
    pub(crate) fn dominates(&self, vm: &Vm, move_type: i32) -> FResult<bool> {
        match self.generation.as_ref() {
            Some(g) if g.priorities != 0 => {
                let t = move_type.clamp(0, 127) as u32;
                Ok(vm.cell(g.priorities + 4 * t)? > g.best)
            }
            _ => Ok(false),
        }
    }

    pub(super) fn set_last(&self, vm: &mut Vm, pos: i32) -> FResult<()> {
        vm.set_cell(self.layout.last_pos, pos)
    }

    pub(super) fn here_pos(&self, vm: &Vm) -> FResult<i32> {
        vm.cell(self.layout.pos)
    }

    /// Whether `pos` holds a piece when the move is generated (for the notation's `x`).
    #[inline]
    pub(super) fn occupied(&self, vm: &Vm, pos: i32) -> FResult<bool> {
        let a = self.cell_addr(vm, pos)?;
        Ok(vm.cell(a).unwrap_or(0) != 0)
    }

    /// Puts `piece` on `pos` (a drop or a created piece), noted `Player piece pos` as
    /// Axiom notes it.
    pub(super) fn create(&mut self, vm: &mut Vm, piece: i32, pos: i32) -> FResult<()> {
        if self.occupied(vm, pos)? {
            self.pending()?.captures += 1;
        }
        self.note_parts(&[Part::Player(piece), Part::Piece(piece), Part::Pos(pos)])?;
        self.compile_action(vm, &[piece, pos], n::DO_PUT)?;
        self.set_last(vm, pos)
    }

    pub(super) fn capture_at(&mut self, vm: &mut Vm, pos: i32) -> FResult<()> {
        if self.occupied(vm, pos)? {
            self.pending()?.captures += 1;
        }
        self.note_parts(&[Part::Text("x"), Part::Pos(pos)])?;
        self.compile_action(vm, &[pos], n::DO_REMOVE)?;
        self.set_last(vm, pos)
    }

    // ----- board edits at apply time -----

    pub(super) fn put(&self, vm: &mut Vm, piece: i32, pos: i32) -> FResult<()> {
        let a = self.cell_addr(vm, pos)?;
        vm.set_cell(a, piece)
    }

    pub(super) fn get(&self, vm: &Vm, pos: i32) -> FResult<i32> {
        let a = self.cell_addr(vm, pos)?;
        vm.cell(a)
    }

    // ----- move lists and material for evaluations -----

    /// `$GenerateMoves ( player opponent? type -- )`: generates, at `HERE`, the legal moves
    /// of `player` (with `opponent?` true, of the next player after `player` in `{players}`
    /// order that is neither random nor neutral), restricted to move type `type` (0: all),
    /// and makes that list the current `$movesList` until `$DeallocateMoves`. The turn's
    /// variables are as they were afterwards. Its primitives count against the caller's
    /// budget.
    pub(super) fn generate_moves(
        &mut self,
        vm: &mut Vm,
        player: i32,
        opponent: bool,
        of_type: i32,
    ) -> FResult<()> {
        if self.generation.is_some() {
            return Err(K::Host("`$GenerateMoves` during move generation".into()).into());
        }
        let l = self.layout;
        let target = if opponent {
            self.next_player(vm, player)?
        } else {
            player
        };
        let vars = program::turn_vars(&l);
        let mut saved = [0; 15];
        for (v, &a) in saved.iter_mut().zip(&vars) {
            *v = vm.cell(a)?;
        }
        let here = vm.here();
        let list = vm.cell(l.moves_list)?;
        vm.set_cell(l.player, target)?;
        vm.set_cell(l.for_player, target)?;
        vm.set_cell(l.of_type, of_type)?;
        let index = ((target & 0xF800) / 2048).max(1) - 1;
        vm.set_cell(l.player_offset, index * CELL as i32)?;
        // Within what is left of the caller's budget (an engine's), which may run out
        // part-way: the turn is put back either way.
        let (generated, _) = state::nested(vm, |vm| state::generate(vm, self));
        self.abandon_generation();
        for (v, &a) in saved.iter().zip(&vars) {
            if a != l.moves_list {
                vm.set_cell(a, *v)?;
            }
        }
        if let Err(e) = generated {
            vm.set_here(here)?;
            vm.set_cell(l.moves_list, list)?;
            return Err(e);
        }
        self.extra_lists.push((list, here));
        Ok(())
    }

    /// The first player after `player` in `{players}` order (cyclically) that is neither
    /// random (`?Dice`) nor neutral; `player` itself when there is none.
    fn next_player(&mut self, vm: &mut Vm, player: i32) -> FResult<i32> {
        let l = self.layout;
        let n = self.info.players.len();
        let table = vm.cell(l.players)? as u32;
        let me = self.info.player_index(player).unwrap_or(0);
        for k in (1..n).map(|d| (me + d) % n) {
            if self.info.is_random(k) {
                continue;
            }
            let depth = vm.stack().len();
            vm.execute(vm.cell(table + 4 * k as u32)? as u32, self)?;
            let v = vm.pop()?;
            vm.ds_truncate(depth);
            if v & 0x400 == 0 {
                return Ok(v);
            }
        }
        Ok(player)
    }

    /// `material-balance ( player -- n )`: the `{value}`s of `player`'s pieces on the board
    /// minus those of the other players' (neutral pieces count for nobody).
    pub(super) fn material_balance(&self, vm: &Vm, player: i32) -> FResult<i32> {
        let l = self.layout;
        let n_pos = vm.cell(l.positions)?.clamp(0, 1 << 16) as u32;
        let board = vm.cell(l.board)? as u32;
        let count = vm.cell(l.piece_count)?.max(0) as u32;
        let table = vm.cell(l.pieces)? as u32;
        let mut sum = 0i32;
        for pos in 0..n_pos {
            let piece = vm.cell(board + 4 * pos)?;
            let ty = (piece & 0x3FF) as u32;
            if piece == 0 || ty == 0 || ty > count || piece & 0x400 != 0 {
                continue;
            }
            let v = vm.cell(table + 16 * (ty - 1) + 12)?;
            sum = if piece & 0xF800 == player & 0xF800 {
                sum.wrapping_add(v)
            } else {
                sum.wrapping_sub(v)
            };
        }
        Ok(sum)
    }
}

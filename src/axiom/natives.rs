//! The host words Axiom's DLL provided, implemented for dagaz: move generation (recording a
//! move's actions as compiled Forth code and its notation), the board edits a move's code
//! performs when it is applied, random numbers from dagaz's seeded generator, the engine's
//! reporting words, repetition and the ring buffer.
//!
//! # Moves in memory
//! A generated move list lives at `HERE`: a header `[0][count][first move]`, then one
//! record per move: `[next][notation][move type][captures][code field: DOCOL][code …]`,
//! so `.moveCFA` (`4 CELLS +`) is an execution token that applies the move. While a move
//! word runs, the actions it calls (`move`, `capture-at`, `create-piece-type-at`, …) and
//! anything it `COMPILE`s are appended to the pending record's code; `add-move` ends the
//! code with `;S`, stores the notation after it, links the record and starts the next.

use super::program::{Layout, REC_CAPTURES, REC_NOTATION};
use crate::forth::error::{FResult, ForthErrorKind as K};
use crate::forth::trace::NativeClass;
use crate::forth::vm::{CELL, Host, NATIVE_BASE, Vm, p};
use crate::rng::Rng;

macro_rules! natives {
    ($( $id:ident $name:literal ),* $(,)?) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(u32)]
        enum Nid { $($id),* }
        #[allow(non_upper_case_globals, dead_code)]
        mod n { $(pub const $id: u32 = super::Nid::$id as u32;)* }
        /// The host words, in the order they are defined (their numbers).
        pub const NATIVES: &[&str] = &[$($name),*];
    };
}

natives! {
    CURRENT_MOVE "CurrentMove!", BEST_MOVE "BestMove!", NODES "Nodes!", SCORE "Score!",
    DEPTH "Depth!", YIELD "$Yield",
    RAND_WITHIN "RAND-WITHIN", RAND64 "$Rand64!", RANDOMIZE "RANDOMIZE", SEED "SEED!",
    SYSTEM_TIME "SYSTEM-TIME", SEED2 "SEED2!",
    NEGAMAX "$NegamaxMove", UCT "$UCTMove", ENGINE_SET_TURN "$EngineSetTurn",
    BOARD "board[]", FRIENDS "OnFriends?",
    ADD_Z "$AddPieceZ", ADD_U "$AddPieceU", REMOVE_Z "$RemovePieceZ", REMOVE_U "$RemovePieceU",
    EXIT "$Exit", STRING "^string", NUMBER "^number", ADD_MOVE "add-move",
    MOVE "move", CAPTURE "capture", CAPTURE_AT "capture-at", DROP "drop",
    CREATE_TYPE "create-piece-type", CREATE_TYPE_AT "create-piece-type-at",
    CREATE_PLAYER_TYPE "create-player-piece-type",
    CREATE_PLAYER_TYPE_AT "create-player-piece-type-at",
    CHANGE_TYPE "change-type", CHANGE_TYPE_AT "change-type-at",
    CHANGE_OWNER "change-owner", CHANGE_OWNER_AT "change-owner-at",
    CREATE "create", CREATE_AT "create-at", CREATE_PLAYER "create-player",
    CREATE_PLAYER_AT "create-player-at", DROP_PIECE "drop-piece", DROP_PIECE_AT "drop-piece-at",
    MOVE_STRING "$MoveString",
    REP_RESET "repetition-reset", REP_PUSH "repetition-push-position",
    REP_POP "repetition-pop-position",
    RING_ADD "ringbuffer-add-item", RING_REMOVE "ringbuffer-remove-item",
    RING_EMPTY "ringbuffer-empty?", RING_CLEAR "ringbuffer-clear",
    RING2_ADD "ringbuffer2-add-item", RING2_REMOVE "ringbuffer2-remove-item",
    RING2_EMPTY "ringbuffer2-empty?", RING2_CLEAR "ringbuffer2-clear",
    DECOMPILE "$DecompileMove", CLONE_BOARD "$CloneBoard", DEALLOCATE_BOARD "$DeallocateBoard",
    PIECE_VALUE "piece-value", STR_EQ "\"=", ADD_PIECE "(add-piece)",
    REMOVE_PIECE "(remove-piece)", GENERATE "OnGenerateMoves",
    GENERATE_MOVES "$GenerateMoves", DEALLOCATE_MOVES "$DeallocateMoves",
    MATERIAL_BALANCE "material-balance", RAND_WITHIN_DEFERRED "$RAND-WITHIN",
    // Internal: the board edits compiled into a move's code.
    DO_MOVE "$dz-move", DO_REMOVE "$dz-remove", DO_PUT "$dz-put",
    DO_TYPE "$dz-change-type", DO_OWNER "$dz-change-owner",
}

/// Stack effects of the host words whose effect does not depend on the data, for lint's
/// stack-effect check: (name, items taken, items left).
pub const EFFECTS: &[(&str, u32, u32)] = &[
    ("CurrentMove!", 1, 0),
    ("BestMove!", 1, 0),
    ("Nodes!", 1, 0),
    ("Score!", 1, 0),
    ("Depth!", 1, 0),
    ("$Yield", 0, 0),
    ("RANDOMIZE", 0, 0),
    ("RAND-WITHIN", 2, 1),
    ("$RAND-WITHIN", 2, 1),
    ("$GenerateMoves", 3, 0),
    ("$DeallocateMoves", 0, 0),
    ("material-balance", 1, 1),
    ("$Rand64!", 1, 0),
    ("SEED!", 1, 0),
    ("SEED2!", 1, 0),
    ("SYSTEM-TIME", 0, 1),
    ("board[]", 1, 1),
    ("OnFriends?", 2, 1),
    ("$AddPieceZ", 2, 0),
    ("$AddPieceU", 2, 0),
    ("$RemovePieceZ", 1, 0),
    ("$RemovePieceU", 1, 0),
    ("^string", 1, 0),
    ("^number", 1, 0),
    ("add-move", 0, 0),
    ("move", 2, 0),
    ("capture", 0, 0),
    ("capture-at", 1, 0),
    ("drop", 0, 0),
    ("create", 0, 0),
    ("create-at", 1, 0),
    ("create-player", 1, 0),
    ("create-player-at", 2, 0),
    ("drop-piece", 1, 0),
    ("drop-piece-at", 2, 0),
    ("create-piece-type", 1, 0),
    ("create-piece-type-at", 2, 0),
    ("create-player-piece-type", 2, 0),
    ("create-player-piece-type-at", 3, 0),
    ("change-type", 1, 0),
    ("change-type-at", 2, 0),
    ("change-owner", 1, 0),
    ("change-owner-at", 2, 0),
    ("$MoveString", 1, 1),
    ("piece-value", 1, 1),
    ("\"=", 2, 1),
    ("(add-piece)", 2, 0),
    ("(remove-piece)", 1, 0),
    ("repetition-reset", 0, 0),
    ("repetition-push-position", 0, 1),
    ("repetition-pop-position", 0, 0),
    ("ringbuffer-add-item", 1, 0),
    ("ringbuffer-remove-item", 0, 1),
    ("ringbuffer-empty?", 0, 1),
    ("ringbuffer-clear", 0, 0),
    ("ringbuffer2-add-item", 1, 0),
    ("ringbuffer2-remove-item", 0, 1),
    ("ringbuffer2-empty?", 0, 1),
    ("ringbuffer2-clear", 0, 0),
];

/// Execution tokens the runtime compiles into move code.
#[derive(Clone, Debug)]
pub struct NativeXts {
    pub lit: u32,
    pub exit: u32,
    /// Execution token of each native, by number.
    pub natives: Vec<u32>,
}

impl NativeXts {
    pub(crate) fn new(vm: &Vm, natives: Vec<u32>) -> FResult<NativeXts> {
        Ok(NativeXts {
            lit: vm.primitive_xt(p::LIT)?,
            exit: vm.primitive_xt(p::EXIT)?,
            natives,
        })
    }
}

/// A word of a move's notation.
#[derive(Clone, Copy)]
enum Part<'a> {
    Pos(i32),
    Piece(i32),
    /// The owner of a piece value.
    Player(i32),
    Text(&'a str),
}

/// The move being recorded (its notation is [`Generation::notation`]).
#[derive(Clone, Copy, Debug, Default)]
struct Pending {
    /// Address of the pending record.
    record: u32,
    captures: i32,
}

/// Move generation in progress.
#[derive(Clone, Debug, Default)]
pub(crate) struct Generation {
    /// The cell to store the next record's address in.
    tail: u32,
    header: u32,
    pub count: u32,
    move_type: i32,
    /// The scan of the pieces' move and drop words has run.
    pub scanned: bool,
    /// `$move-priorities` (0: none) and the best priority added so far: a move of a worse
    /// priority would be filtered out at the end, so it is not recorded at all.
    priorities: u32,
    best: i32,
    /// The moves listed before the one that made `best` what it is: all of a worse
    /// priority (a move of a worse priority than `best` is not listed, one of a better
    /// changes it), the ones the filter at the end drops.
    kept_from: u32,
    /// The pending move's priority is worse than `best`: its actions are not recorded.
    dominated: bool,
    pending: Option<Pending>,
    /// The pending move's notation: one buffer for every move word of the generation.
    notation: Vec<u8>,
}

/// What an engine reported through `BestMove!` and friends.
#[derive(Clone, Debug, Default)]
pub struct EngineReport {
    /// The notation `BestMove!` was given (Axiom 1.50 passes a decompiled copy).
    pub best: Option<Vec<u8>>,
    pub nodes: i64,
    pub score: i32,
    pub depth: i32,
}

/// The host state of one VM: generation, random numbers, repetition, engine reports.
#[derive(Clone)]
pub struct Runtime {
    pub layout: Layout,
    pub(crate) xts: std::sync::Arc<NativeXts>,
    pub info: std::sync::Arc<super::program::GameInfo>,
    pub rng: Rng,
    /// The engines' own generator (Axiom 1.51's second generator, seeded by `SEED2!`):
    /// the time each search gets is drawn from it ([`Runtime::search_budget`]), apart
    /// from the program's `RAND-WITHIN` draws.
    pub rng2: Rng,
    pub(crate) generation: Option<Generation>,
    pub report: EngineReport,
    /// Position keys since the last `repetition-reset`.
    pub history: Vec<u64>,
    /// The two ring buffers.
    ring: [std::collections::VecDeque<i32>; 2],
    /// Depth limit for `$NegamaxMove` (plies).
    pub search_depth: u32,
    /// `$NegamaxMove` searches killer moves, then the others by history, first below the
    /// root (`crate::axiom::search`; off only to test that the moves chosen do not depend
    /// on it).
    pub search_order: bool,
    /// Primitives the engine (`OnSearch`: `$NegamaxMove`, `$UCTMove` or the program's
    /// own) may run for one move: its time limit.
    pub search_steps: u64,
    /// Whether each search's budget varies around `search_steps` ([`Runtime::search_budget`]).
    pub search_variety: bool,
    /// Nodes searched by the last `$NegamaxMove` (every iteration), playouts of the last
    /// `$UCTMove`.
    pub searched: u64,
    /// Searches of `$NegamaxMove` and `$UCTMove` that ran out of `search_steps` (stopped
    /// early: the move they played is that of a shallower search or fewer playouts).
    pub search_cuts: u64,
    /// The move lists `$GenerateMoves` made, newest last: the `$movesList` each replaced
    /// and `HERE` before it, for `$DeallocateMoves`.
    pub(crate) extra_lists: Vec<(i32, u32)>,
    /// Changed ([`Runtime::touch_lists`]) by every generation, move applied and snapshot
    /// restored, to a value no other VM's change gives: while it is unchanged, the memory
    /// of the last move list made is as it was made, in this VM and in its copies (only
    /// reading happened since).
    pub(crate) list_epoch: u64,
    /// Buffers kept between moves (no allocation per move word).
    scratch: Vec<u8>,
    spare: Vec<u8>,
    /// The move-word cache ([`super::memo`]).
    pub memo: super::memo::MoveMemo,
    /// The evaluation cache ([`super::eval_memo`]).
    pub eval_memo: super::eval_memo::EvalMemo,
    /// The same cache for `OnNextTurn`, which every move runs (its answer unused).
    pub turn_memo: super::eval_memo::EvalMemo,
}

/// Memory above `HERE` under which a move word that is not dominated is not replayed by
/// [`Runtime::replay_unlisted`]: opening its record and compiling its actions could fail
/// for want of room, as the long way would.
const UNLISTED_ROOM: u32 = 1 << 16;

/// Bytes of board (and repetition history) a host word that walks them may touch per call
/// before its work is charged ([`crate::forth::vm::BYTES_PER_STEP`]): the boards and
/// histories of real games stay under it, so their step counts, and the searches the
/// budget cuts, are what they were before such words were charged; a program that makes
/// them large pays for every byte above it.
const FREE_BOARD_BYTES: u64 = 1024;

/// Positions the repetition history holds at most (8 MiB of keys): more is an error
/// (`DZ1014`) rather than memory without end.
pub const MAX_HISTORY: usize = 1 << 20;

/// The longest notation a move may have, in bytes (with its separating spaces). Real
/// moves note a few dozen bytes; `$DecompileMove` copies 1,000 at most. A move word that
/// notes more (`^string` of a long string in a loop) fails with `DZ1014` rather than grow
/// the buffer until the process runs out of memory.
pub const MAX_NOTATION: usize = 1 << 16;

/// The largest template of a listed move kept ([`Runtime::template_of`]), in bytes.
const MAX_TEMPLATE: u32 = 512;

/// Most arguments of an action compiled into a move (`compile_action`'s callers pass two
/// at most).
const MAX_ACTION_ARGS: usize = 4;

/// What a replayable host word leaves of a move that is never listed (a better priority
/// dominates it, or its word does not add it: the record, notation and captures of such a
/// move are never read): see [`Runtime::replay_unlisted`].
#[derive(Clone, Copy)]
enum Lasting {
    /// Nothing: `add-move`, the notation words, type and owner changes.
    Nothing,
    /// The last position (`$lastPos`): the word's last argument (`at`, the `-at` words), else
    /// the current position.
    LastPos { at: bool },
    /// `move`: the destination becomes the last position (the origin's cell is read, as
    /// the long way reads it).
    Move,
    /// `repetition-reset`: the repetition history is cleared.
    RepetitionReset,
    /// An immediate board edit: the position (argument 0) emptied.
    Remove,
    /// An immediate board edit: a piece (argument 0) put on a position (argument 1).
    Add,
}

impl Lasting {
    /// What host word `id` leaves; None: the word has no shortcut.
    fn of(id: u32) -> Option<Lasting> {
        Some(match id {
            n::ADD_MOVE
            | n::STRING
            | n::NUMBER
            | n::CHANGE_TYPE
            | n::CHANGE_TYPE_AT
            | n::CHANGE_OWNER
            | n::CHANGE_OWNER_AT => Lasting::Nothing,
            n::CAPTURE_AT
            | n::CREATE_AT
            | n::CREATE_PLAYER_AT
            | n::CREATE_TYPE_AT
            | n::DROP_PIECE_AT
            | n::CREATE_PLAYER_TYPE_AT => Lasting::LastPos { at: true },
            n::CAPTURE
            | n::DROP
            | n::CREATE
            | n::CREATE_PLAYER
            | n::CREATE_TYPE
            | n::DROP_PIECE
            | n::CREATE_PLAYER_TYPE => Lasting::LastPos { at: false },
            n::MOVE => Lasting::Move,
            n::REP_RESET => Lasting::RepetitionReset,
            n::REMOVE_Z | n::REMOVE_U | n::REMOVE_PIECE => Lasting::Remove,
            n::ADD_Z | n::ADD_U | n::ADD_PIECE => Lasting::Add,
            _ => return None,
        })
    }
}

/// The sub-stream of a game's seed that the engines' generator ([`Runtime::rng2`]) draws.
const ENGINE_STREAM: u64 = 2;

impl Runtime {
    /// The primitives the next search may run: [`Runtime::search_steps`] scaled by a
    /// factor drawn from the engines' generator between 3/4 and 5/4 (when
    /// [`Runtime::search_variety`] is on). Axiom's engines have a time limit, and how far
    /// a search gets in that time varies from move to move with the machine: a search cut
    /// by its limit (Ordo's, at every move) plays differently from game to game, as
    /// Axiom's AutoPlay logs show, while a search that finishes (Ur's) plays the same.
    /// Drawn from the seed, the variety is reproducible.
    pub fn search_budget(&mut self) -> u64 {
        let steps = self.search_steps.max(1);
        // (A budget this large is "no limit".)
        if !self.search_variety || steps > u64::MAX / 4 {
            return steps;
        }
        let quarter = steps / 4;
        steps - quarter + self.rng2.next_u64() % (2 * quarter + 1)
    }

    pub fn new(program: &super::program::Program, seed: u64) -> Runtime {
        Runtime {
            layout: program.layout,
            info: program.info.clone(),
            rng: Rng::new(seed),
            rng2: Rng::derive(seed, ENGINE_STREAM),
            memo: super::memo::MoveMemo::comparing(&super::program::turn_vars(&program.layout)),
            ..Runtime::for_loading(program.xts.clone())
        }
    }

    /// The host while a program loads (before its tables exist).
    pub(crate) fn for_loading(xts: std::sync::Arc<NativeXts>) -> Runtime {
        Runtime {
            layout: Layout::default(),
            xts,
            info: Default::default(),
            rng: Rng::new(0x5eed),
            rng2: Rng::derive(0x5eed, ENGINE_STREAM),
            generation: None,
            report: EngineReport::default(),
            history: Vec::new(),
            ring: Default::default(),
            search_depth: super::DEFAULT_SEARCH_DEPTH,
            search_order: true,
            search_steps: super::state::SEARCH_STEPS,
            search_variety: true,
            searched: 0,
            search_cuts: 0,
            extra_lists: Vec::new(),
            list_epoch: 0,
            scratch: Vec::new(),
            spare: Vec::new(),
            memo: Default::default(),
            eval_memo: Default::default(),
            turn_memo: super::eval_memo::EvalMemo::for_turns(),
        }
    }

    /// Marks the memory of the move lists as maybe written ([`Runtime::list_epoch`]).
    pub(crate) fn touch_lists(&mut self) {
        static EPOCHS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        self.list_epoch = EPOCHS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    fn native_xt(&self, id: u32) -> u32 {
        self.xts.natives.get(id as usize).copied().unwrap_or(0)
    }

    /// Address of board cell `pos` (unchecked against the board size).
    #[inline]
    fn cell_addr(&self, vm: &Vm, pos: i32) -> FResult<u32> {
        let board = vm.cell(self.layout.board)?;
        Ok(board.wrapping_add(pos.wrapping_mul(4)) as u32)
    }

    /// Appends the name of position `pos` (`#n` when it has none) to `out`.
    fn push_position(&self, out: &mut Vec<u8>, pos: i32) {
        match usize::try_from(pos)
            .ok()
            .and_then(|p| self.info.positions.get(p))
        {
            Some(n) => out.extend_from_slice(n.as_bytes()),
            None => out.extend_from_slice(format!("#{pos}").as_bytes()),
        }
    }

    /// Appends the name of `piece`'s type to `out`.
    fn push_piece(&self, out: &mut Vec<u8>, piece: i32) {
        let t = (piece & 0x3FF) as usize;
        match t.checked_sub(1).and_then(|t| self.info.pieces.get(t)) {
            Some(n) => out.extend_from_slice(n.as_bytes()),
            None => out.extend_from_slice(format!("#{t}").as_bytes()),
        }
    }

    /// Appends words to the pending move's notation: each part is a position (`Pos`), a
    /// piece type (`Piece`) or text.
    fn note_parts(&mut self, parts: &[Part]) -> FResult<()> {
        if self.generation.as_ref().is_some_and(|g| g.dominated) {
            return Ok(());
        }
        let mut buf = std::mem::take(&mut self.scratch);
        buf.clear();
        for (k, part) in parts.iter().enumerate() {
            if k > 0 {
                buf.push(b' ');
            }
            match *part {
                Part::Pos(p) => self.push_position(&mut buf, p),
                Part::Piece(p) => self.push_piece(&mut buf, p),
                Part::Player(p) => match self.info.player_index(p) {
                    Some(k) => buf.extend_from_slice(self.info.players[k].as_bytes()),
                    None => buf.extend_from_slice(b"?"),
                },
                Part::Text(t) => buf.extend_from_slice(t.as_bytes()),
            }
        }
        let r = self.note_bytes(&buf);
        self.scratch = buf;
        r
    }

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
    fn pending(&mut self) -> FResult<&mut Pending> {
        self.generation
            .as_mut()
            .and_then(|g| g.pending.as_mut())
            .ok_or_else(|| K::Host("a move action outside move generation".into()).into())
    }

    fn note(&mut self, text: &str) -> FResult<()> {
        self.note_bytes(text.as_bytes())
    }

    fn note_bytes(&mut self, text: &[u8]) -> FResult<()> {
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
    fn compile_action(&mut self, vm: &mut Vm, args: &[i32], native: u32) -> FResult<()> {
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

    fn add_move(&mut self, vm: &mut Vm) -> FResult<()> {
        self.list_pending(vm)?;
        let move_type = self.generation.as_ref().map_or(0, |g| g.move_type);
        self.begin_move(vm, move_type)
    }

    /// Replays `events`, the effects of a move word whose move is opened (as
    /// [`MemoStats::replayed`](super::memo::MemoStats) counts them), then drops what is
    /// left of its move (`end_move`). When the last event is `add-move`, the move it opens
    /// for the word's next actions is not opened at all: the word has none, and opening it
    /// and dropping it leaves nothing but `HERE` aligned, which the listing leaves it.
    pub(crate) fn replay_move(
        &mut self,
        vm: &mut Vm,
        events: &[crate::forth::trace::Event],
    ) -> FResult<()> {
        match Self::before_add_move(events) {
            Some(rest) => {
                super::memo::apply_effects(rest, vm, self)?;
                self.list_pending(vm)?;
            }
            None => super::memo::apply_effects(events, vm, self)?,
        }
        self.end_move(vm)
    }

    /// `add-move` without opening the next move: lists the pending move (or drops it when
    /// it is dominated), leaving no move pending.
    fn list_pending(&mut self, vm: &mut Vm) -> FResult<()> {
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
    fn append_listed(&mut self, vm: &mut Vm, rec: u32, move_type: i32) -> FResult<()> {
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

    /// Replays, in place of opening a move of `move_type`, calling the replayable host
    /// words of `events` and dropping the move, the effects of a move word whose move
    /// is never listed: it would be dominated, or `events` never call `add-move`. Returns
    /// false (and does nothing) when the move could be listed, or an event has no
    /// shortcut: the caller then goes the long way.
    ///
    /// A dominated move stays dominated to its word's end (the best priority listed only
    /// changes when a move is recorded), and nothing reads its record, notation or
    /// captures: `add-move` drops it and opens the next, equally dominated. A move word
    /// that does not call `add-move` leaves its move to be dropped at its end, unread too.
    /// What outlives such a move is what the host words do besides: the last position
    /// (`$lastPos`, which the capture, drop and create words set), board edits, and
    /// `repetition-reset`. Reads that can fail are made as the long way makes them; a
    /// move that is not dominated is opened the long way when the memory left is short
    /// (where opening it could fail). Tested against the long way by playing with the
    /// move cache on and off.
    pub(crate) fn replay_unlisted(
        &mut self,
        vm: &mut Vm,
        move_type: i32,
        events: &[crate::forth::trace::Event],
    ) -> FResult<bool> {
        use crate::forth::trace::Event;
        let dominated = self.dominates(vm, move_type)?;
        if !dominated
            && (vm.room() < UNLISTED_ROOM
                || events.iter().any(|e| {
                    matches!(
                        *e,
                        Event::Native {
                            id: n::ADD_MOVE,
                            ..
                        }
                    )
                }))
        {
            return Ok(false);
        }
        if !events.iter().all(|e| match *e {
            Event::Native { id, .. } => Lasting::of(id).is_some(),
            Event::Write { .. } => true,
        }) {
            return Ok(false);
        }
        // What `begin_move` and `end_move` leave of a dominated move: `HERE` aligned.
        let h = vm.here().div_ceil(CELL) * CELL;
        vm.set_here(h)?;
        if let Some(g) = self.generation.as_mut() {
            g.move_type = move_type;
            g.dominated = dominated;
            g.notation.clear();
            g.pending = None;
        }
        for e in events {
            match *e {
                Event::Write { addr, value } => vm.set_cell(addr, value)?,
                Event::Native { id, args, n } => {
                    let args = &args[..n as usize];
                    let arg = |k: usize| {
                        args.get(k).copied().ok_or_else(|| {
                            crate::forth::ForthError::from(K::Host(format!(
                                "host word {id} without argument {k}"
                            )))
                        })
                    };
                    match Lasting::of(id) {
                        Some(Lasting::LastPos { at: true }) => {
                            self.set_last(vm, arg(args.len().wrapping_sub(1))?)?
                        }
                        Some(Lasting::LastPos { at: false }) => {
                            let pos = self.here_pos(vm)?;
                            self.set_last(vm, pos)?;
                        }
                        Some(Lasting::Move) => {
                            self.get(vm, arg(0)?)?;
                            self.set_last(vm, arg(1)?)?;
                        }
                        Some(Lasting::RepetitionReset) => self.history.clear(),
                        Some(Lasting::Remove) => self.put(vm, 0, arg(0)?)?,
                        Some(Lasting::Add) => self.put(vm, arg(0)?, arg(1)?)?,
                        Some(Lasting::Nothing) | None => {}
                    }
                }
            }
        }
        Ok(true)
    }

    /// Whether replaying `events` as an unlisted move ([`Runtime::replay_unlisted`]) right
    /// after the same replay, at another position, changes nothing but the cursor: every
    /// event sets something (a cell, the last position, a board square, the history) to a
    /// value given by its own arguments, so the second replay sets each to what it already
    /// holds, and no event writes one of the `cursor` cells the generator sets before each
    /// word. Some(true): the events set the last position (a cursor cell), which then
    /// holds their value, not the word's position. (The current position's variant of the
    /// last-position words reads the cursor, which differs from word to word: None.)
    pub(crate) fn repeat_of(events: &[crate::forth::trace::Event], cursor: &[u32]) -> Option<bool> {
        use crate::forth::trace::Event;
        let mut sets_last = false;
        for e in events {
            match *e {
                Event::Native { id, .. } => match Lasting::of(id)? {
                    Lasting::LastPos { at: true } | Lasting::Move => sets_last = true,
                    Lasting::LastPos { at: false } => return None,
                    Lasting::Nothing
                    | Lasting::RepetitionReset
                    | Lasting::Remove
                    | Lasting::Add => {}
                },
                Event::Write { addr, .. } => {
                    if cursor.iter().any(|&c| addr < c + 4 && c < addr + 4) {
                        return None;
                    }
                }
            }
        }
        Some(sets_last)
    }

    /// Whether a move listed by replaying `events` leaves what the last unlisted replay
    /// set ([`Runtime::replay_unlisted`]: cells, board squares, the history, the last
    /// position) as it was, so that replaying that one's effects again still changes
    /// nothing but the cursor ([`Runtime::repeat_of`]): its events write no cell and edit
    /// no square, and may only set the last position (which the cursor of the repeat
    /// sets again) or clear the history (which the repeated effects leave alone or
    /// clear). A listing's own writes (its record, the list) are to memory no unlisted
    /// replay sets.
    pub(crate) fn leaves_unlisted(events: &[crate::forth::trace::Event]) -> bool {
        use crate::forth::trace::Event;
        events.iter().all(|e| match *e {
            Event::Native { id, .. } => matches!(
                Lasting::of(id),
                Some(
                    Lasting::Nothing
                        | Lasting::LastPos { .. }
                        | Lasting::Move
                        | Lasting::RepetitionReset
                )
            ),
            Event::Write { .. } => false,
        })
    }

    /// Whether a move word whose replay had `events` and listed one move can be listed
    /// again by copying that move's record ([`Runtime::relist`]) when its word replays
    /// the same `events` next, with nothing run or replayed in between: the events are
    /// `capture-at` and `repetition-reset` calls, then one `add-move`. Those record
    /// nothing that depends on the cursor the generator sets before each word: the
    /// notation and code of `capture-at` come from its argument, and the captures it
    /// counts from that position's cell, which nothing writes in between (no event writes
    /// memory; `capture-at` only compiles its removal). Some(true): the events set the
    /// last position (to `capture-at`'s argument).
    pub(crate) fn relistable(events: &[crate::forth::trace::Event]) -> Option<bool> {
        use crate::forth::trace::Event;
        let mut sets_last = false;
        for e in Self::before_add_move(events)? {
            match e {
                Event::Native {
                    id: n::CAPTURE_AT, ..
                } => sets_last = true,
                Event::Native {
                    id: n::REP_RESET, ..
                } => {}
                _ => return None,
            }
        }
        Some(sets_last)
    }

    /// The events before the last, when the last is an `add-move`.
    fn before_add_move(
        events: &[crate::forth::trace::Event],
    ) -> Option<&[crate::forth::trace::Event]> {
        match events.split_last() {
            Some((
                crate::forth::trace::Event::Native {
                    id: n::ADD_MOVE, ..
                },
                rest,
            )) => Some(rest),
            _ => None,
        }
    }

    /// Whether a move word whose replay had `events` and listed one move lists, at the
    /// same position for the same piece, the same record, code and text whenever it does
    /// so again, but for what [`Runtime::list_template`] redoes: the events are `drop`,
    /// `capture-at` and `repetition-reset` calls, then one `add-move`. `drop` notes and
    /// compiles the piece and position the generator set (the same for the same slot),
    /// `capture-at` its argument; their captures count from the board, which the
    /// template's use counts again.
    pub(crate) fn templatable(events: &[crate::forth::trace::Event]) -> bool {
        use crate::forth::trace::Event;
        Self::before_add_move(events).is_some_and(|rest| {
            rest.iter().all(|e| {
                matches!(
                    e,
                    Event::Native {
                        id: n::DROP | n::CAPTURE_AT | n::REP_RESET,
                        ..
                    }
                )
            })
        })
    }

    /// The record, code and text of the move listed last, as a template for
    /// [`Runtime::list_template`], when the generation has listed `before + 1` moves
    /// (see [`Runtime::listed_one`]).
    pub(crate) fn template_of(
        &self,
        vm: &Vm,
        before: u32,
    ) -> FResult<Option<super::memo::Template>> {
        let Some((rec, end)) = self.listed_one(vm, before)? else {
            return Ok(None);
        };
        let from = rec - REC_NOTATION;
        let size = (end.div_ceil(CELL) * CELL).wrapping_sub(from);
        let text_at = (vm.cell(from)? as u32).wrapping_sub(from);
        if size > MAX_TEMPLATE || text_at >= size {
            return Ok(None);
        }
        Ok(Some(super::memo::Template {
            bytes: vm.bytes(from, size)?.into(),
            text_at,
        }))
    }

    /// Lists, for a move word of `move_type` at `pos` replaying `events` (see
    /// [`Runtime::templatable`]) whose replay listed `template` before, the same move as
    /// replaying them the long way would, without running its host words: the template
    /// at `HERE` with its text pointers moved, its captures counted again from the board
    /// (a `drop` at `pos`, a `capture-at` at its argument, onto a piece), linked and
    /// counted; then the last position the events set, and the history cleared when they
    /// clear it. Returns false (and does nothing) when the move would be dominated or the
    /// memory left is short: the caller then goes the long way.
    pub(crate) fn list_template(
        &mut self,
        vm: &mut Vm,
        move_type: i32,
        template: &super::memo::Template,
        events: &[crate::forth::trace::Event],
        pos: i32,
    ) -> FResult<bool> {
        use crate::forth::trace::Event;
        let size = template.bytes.len() as u32;
        if self.dominates(vm, move_type)? || vm.room() < UNLISTED_ROOM.saturating_add(size) {
            return Ok(false);
        }
        if self.generation.is_none() {
            return Ok(false);
        }
        // What the host words would count and leave.
        let (mut captures, mut last, mut reset) = (0i32, None, false);
        for e in events {
            if let Event::Native { id, args, .. } = *e {
                let at = match id {
                    n::DROP => pos,
                    n::CAPTURE_AT => args[0],
                    n::REP_RESET => {
                        reset = true;
                        continue;
                    }
                    _ => continue,
                };
                if self.occupied(vm, at)? {
                    captures += 1;
                }
                last = Some(at);
            }
        }
        let h0 = vm.here().div_ceil(CELL) * CELL;
        let rec = h0 + REC_NOTATION;
        let text = h0 + template.text_at;
        let mut buf = std::mem::take(&mut self.scratch);
        buf.clear();
        buf.extend_from_slice(&template.bytes);
        place_copy(&mut buf, self.layout.rec_string, text, 0);
        let c = (REC_NOTATION - REC_CAPTURES) as usize;
        buf[c..c + 4].copy_from_slice(&captures.to_le_bytes());
        let written = vm.write_bytes(h0, &buf);
        self.scratch = buf;
        written?;
        vm.set_here(h0 + size)?;
        if let Some(g) = self.generation.as_mut() {
            g.move_type = move_type;
            g.dominated = false;
            g.pending = None;
        }
        self.append_listed(vm, rec, move_type)?;
        if let Some(p) = last {
            self.set_last(vm, p)?;
        }
        if reset {
            self.history.clear();
        }
        Ok(true)
    }

    /// The move listed last (its record and the end of its notation's text), when the
    /// generation has listed `before + 1` moves: the word just replayed listed one.
    pub(crate) fn listed_one(&self, vm: &Vm, before: u32) -> FResult<Option<(u32, u32)>> {
        let Some(g) = self.generation.as_ref() else {
            return Ok(None);
        };
        if g.count != before.wrapping_add(1) || g.pending.is_some() {
            return Ok(None);
        }
        let rec = g.tail;
        let text = vm.cell(rec - REC_NOTATION)? as u32;
        let end = text + vm.cstr(text)?.len() as u32 + 1;
        // The record, its code and its text, in one piece just below `HERE`.
        let ok = rec >= REC_NOTATION && text > rec && vm.here() == end.div_ceil(CELL) * CELL;
        Ok(ok.then_some((rec, end)))
    }

    /// Moves listed so far in the generation.
    pub(crate) fn listed_count(&self) -> u32 {
        self.generation.as_ref().map_or(0, |g| g.count)
    }

    /// Lists, for the move word replaying the events of the move listed last (`rec`, its
    /// text ending at `end`; see [`Runtime::relistable`]), the same move again, as
    /// replaying them the long way would: a copy of its record, code and text at `HERE`
    /// with its pointers moved, linked after it and counted, the history cleared when the
    /// events clear it. The last position is left to the caller
    /// (the cursor it defers). Returns the new record and text end; None (nothing done)
    /// when the move would not be listed (a better priority is listed) or memory is short.
    pub(crate) fn relist(
        &mut self,
        vm: &mut Vm,
        move_type: i32,
        listed: (u32, u32),
        events: &[crate::forth::trace::Event],
    ) -> FResult<Option<(u32, u32)>> {
        Ok(self
            .relist_run(vm, move_type, listed, events, 1, &[])?
            .map(|(_, last)| last))
    }

    /// [`Runtime::relist`] `times` times in a row, each copy made of the one before, as
    /// many move words replaying the same events one after the other would list them; stops
    /// where one would not be listed. Returns how many were listed and the last copy.
    /// Nothing is done (None) when the copies would write a cell the VM watches, or one
    /// of `kept` (reads the words between are known to hold by): the words between would
    /// then no longer be known to do what they did.
    pub(crate) fn relist_run(
        &mut self,
        vm: &mut Vm,
        move_type: i32,
        (rec, end): (u32, u32),
        events: &[crate::forth::trace::Event],
        times: u64,
        kept: &[crate::forth::trace::Read],
    ) -> FResult<Option<(u64, (u32, u32))>> {
        use crate::forth::trace::Event;
        if times == 0 || self.dominates(vm, move_type)? || vm.room() < UNLISTED_ROOM {
            return Ok(None);
        }
        let header = match self.generation.as_ref() {
            Some(g) if g.tail == rec && g.pending.is_none() && vm.cell(rec)? == 0 => g.header,
            _ => return Ok(None),
        };
        let h0 = vm.here().div_ceil(CELL) * CELL;
        if times > 1 {
            // What the copies write: the records at `HERE` (all of one size), the link of
            // the record before the first, the list's count (and `HERE`, which no trace
            // reads).
            let size = (end.div_ceil(CELL) * CELL).wrapping_sub(rec - REC_NOTATION);
            let span = u32::try_from(times)
                .ok()
                .and_then(|t| t.checked_mul(size))
                .filter(|s| h0.checked_add(*s).is_some());
            let Some(span) = span else {
                return Ok(None);
            };
            let written = [(h0, span), (rec, CELL), (header + 4, CELL)];
            let touched = |a: u32, len: u32| {
                let e = a.saturating_add(len);
                written
                    .iter()
                    .any(|&(w, l)| a < w.saturating_add(l) && w < e)
            };
            if written.iter().any(|&(a, len)| vm.watches(a, len))
                || kept.iter().any(|r| touched(r.addr, r.width as u32))
            {
                return Ok(None);
            }
        }
        // Each copy is the one before (the first: the listed record, with its code and
        // text padded to the next cell) moved up by its size: its text pointer moved with
        // it, its link 0, and the link of the one before pointing at it. They are made in
        // a buffer and written at once.
        let from = rec - REC_NOTATION;
        let Some(size) = (end.div_ceil(CELL) * CELL).checked_sub(from) else {
            return Ok(None);
        };
        let text_at = (vm.cell(from)? as u32).wrapping_sub(from);
        // (The first copy's room is checked above; the next ones' as each would be: copy
        // `i`, at `h0 + i * size`, fits when it starts at most `UNLISTED_ROOM` below the
        // end.)
        let top = u64::from(vm.mem_len()).saturating_sub(u64::from(UNLISTED_ROOM));
        let fitting = top.saturating_sub(u64::from(h0)) / u64::from(size.max(1)) + 1;
        let listed = times.min(fitting);
        let rec_string = self.layout.rec_string;
        let place = |i: u32, copy: &mut [u8]| {
            let at = h0 + i * size;
            let text = at.wrapping_add(text_at);
            let next = if u64::from(i) + 1 < listed {
                at + size + REC_NOTATION
            } else {
                0
            };
            place_copy(copy, rec_string, text, next);
        };
        // (`listed` fits in a u32: the copies fit in the memory.)
        if !vm.write_copies((from, size), h0, listed as u32, place) {
            let mut buf = std::mem::take(&mut self.scratch);
            buf.clear();
            let template = vm.bytes(from, size)?;
            for i in 0..listed as u32 {
                let o = buf.len();
                buf.extend_from_slice(template);
                place(i, &mut buf[o..]);
            }
            let written = vm.write_bytes(h0, &buf);
            self.scratch = buf;
            written?;
        }
        vm.set_cell(rec, (h0 + REC_NOTATION) as i32)?;
        let last = h0 + (listed as u32 - 1) * size;
        let (prev, prev_end) = (last + REC_NOTATION, end.wrapping_add(last - from));
        // `add-move` ends by opening the next record, which the word's end drops: that
        // leaves `HERE` aligned (and the generation's pending move as it was after the
        // copied one; memory above `HERE` is not reproduced, as elsewhere in the cache).
        vm.set_here(last + size)?;
        if let Some(g) = self.generation.as_mut() {
            g.tail = prev;
            g.count = g.count.wrapping_add(listed as u32);
            vm.set_cell(header + 4, g.count as i32)?;
        }
        if events.iter().any(|e| {
            matches!(
                e,
                Event::Native {
                    id: n::REP_RESET,
                    ..
                }
            )
        }) {
            self.history.clear();
        }
        Ok(Some((listed, (prev, prev_end))))
    }

    fn set_last(&self, vm: &mut Vm, pos: i32) -> FResult<()> {
        vm.set_cell(self.layout.last_pos, pos)
    }

    fn here_pos(&self, vm: &Vm) -> FResult<i32> {
        vm.cell(self.layout.pos)
    }

    /// Whether `pos` holds a piece when the move is generated (for the notation's `x`).
    #[inline]
    fn occupied(&self, vm: &Vm, pos: i32) -> FResult<bool> {
        let a = self.cell_addr(vm, pos)?;
        Ok(vm.cell(a).unwrap_or(0) != 0)
    }

    /// Puts `piece` on `pos` (a drop or a created piece), noted `Player piece pos` as
    /// Axiom notes it.
    fn create(&mut self, vm: &mut Vm, piece: i32, pos: i32) -> FResult<()> {
        if self.occupied(vm, pos)? {
            self.pending()?.captures += 1;
        }
        self.note_parts(&[Part::Player(piece), Part::Piece(piece), Part::Pos(pos)])?;
        self.compile_action(vm, &[piece, pos], n::DO_PUT)?;
        self.set_last(vm, pos)
    }

    fn capture_at(&mut self, vm: &mut Vm, pos: i32) -> FResult<()> {
        if self.occupied(vm, pos)? {
            self.pending()?.captures += 1;
        }
        self.note_parts(&[Part::Text("x"), Part::Pos(pos)])?;
        self.compile_action(vm, &[pos], n::DO_REMOVE)?;
        self.set_last(vm, pos)
    }

    // ----- board edits at apply time -----

    fn put(&self, vm: &mut Vm, piece: i32, pos: i32) -> FResult<()> {
        let a = self.cell_addr(vm, pos)?;
        vm.set_cell(a, piece)
    }

    fn get(&self, vm: &Vm, pos: i32) -> FResult<i32> {
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
    fn generate_moves(
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
        let vars = super::program::turn_vars(&l);
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
        let (generated, _) = super::state::nested(vm, |vm| super::state::generate(vm, self));
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
    fn material_balance(&self, vm: &Vm, player: i32) -> FResult<i32> {
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

    // ----- positions for repetition -----

    /// A key of the position: the board memory (cells and `{variable}`s) and the turn.
    pub fn position_key(&self, vm: &Vm) -> FResult<u64> {
        let board = vm.cell(self.layout.board)? as u32;
        let size = vm.cell(self.layout.board_size)?.max(0) as u32;
        let bytes = vm.bytes(board, size)?;
        // Eight bytes at a time (the board is hashed at every ply), in four lanes that do
        // not wait for each other (one chain of multiplies took a board of Ur's size 200
        // cycles), then mixed.
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut lanes: [u64; 4] = [0xcbf2_9ce4_8422_2325 ^ size as u64, 1, 2, 3];
        let mut blocks = bytes.chunks_exact(32);
        for b in &mut blocks {
            for (l, w) in lanes.iter_mut().zip(b.chunks_exact(8)) {
                let w = u64::from_le_bytes(w.try_into().unwrap_or_default());
                *l = (l.rotate_left(23) ^ w).wrapping_mul(K);
            }
        }
        let mut tail = [0u8; 32];
        tail[..blocks.remainder().len()].copy_from_slice(blocks.remainder());
        for (l, w) in lanes.iter_mut().zip(tail.chunks_exact(8)) {
            let w = u64::from_le_bytes(w.try_into().unwrap_or_default());
            *l = (l.rotate_left(23) ^ w).wrapping_mul(K);
        }
        let mut h = lanes[0];
        for l in &lanes[1..] {
            h = (h.rotate_left(23) ^ l).wrapping_mul(K);
        }
        let turn = vm.cell(self.layout.turn_offset)? as u32 as u64;
        h = (h.rotate_left(23) ^ turn).wrapping_mul(K);
        h ^= h >> 32;
        Ok(h)
    }
}

impl Host for Runtime {
    /// Which host words a traced move word may call ([`crate::forth::trace`]): the ones
    /// that only read the VM's memory (through its noting readers), and the move actions
    /// and notation words, which add to the move being recorded from their arguments and
    /// the live state and leave nothing on the stack.
    fn native_class(&self, id: u32) -> NativeClass {
        match id {
            n::BOARD
            | n::FRIENDS
            | n::PIECE_VALUE
            | n::EXIT
            | n::YIELD
            | n::RANDOMIZE
            | n::CURRENT_MOVE
            | n::ENGINE_SET_TURN => NativeClass::Pure,
            n::ADD_MOVE | n::CAPTURE | n::DROP | n::CREATE | n::REP_RESET => NativeClass::Replay(0),
            n::STRING
            | n::NUMBER
            | n::CAPTURE_AT
            | n::CREATE_AT
            | n::CREATE_PLAYER
            | n::CREATE_TYPE
            | n::DROP_PIECE
            | n::CHANGE_TYPE
            | n::CHANGE_OWNER
            | n::REMOVE_Z
            | n::REMOVE_U
            | n::REMOVE_PIECE => NativeClass::Replay(1),
            n::MOVE
            | n::CREATE_PLAYER_AT
            | n::CREATE_TYPE_AT
            | n::DROP_PIECE_AT
            | n::CREATE_PLAYER_TYPE
            | n::CHANGE_TYPE_AT
            | n::CHANGE_OWNER_AT
            | n::ADD_Z
            | n::ADD_U
            | n::ADD_PIECE => NativeClass::Replay(2),
            n::CREATE_PLAYER_TYPE_AT => NativeClass::Replay(3),
            _ => NativeClass::Opaque,
        }
    }

    fn native(&mut self, vm: &mut Vm, id: u32) -> FResult<()> {
        match id {
            n::CURRENT_MOVE => {
                vm.pop()?;
            }
            n::BEST_MOVE => {
                let s = vm.pop()? as u32;
                self.report.best = Some(vm.charged_cstr(s)?.to_vec());
            }
            n::NODES => self.report.nodes = vm.pop()? as i64,
            n::SCORE => self.report.score = vm.pop()?,
            n::DEPTH => self.report.depth = vm.pop()?,
            n::YIELD | n::RANDOMIZE => {}
            n::RAND_WITHIN | n::RAND_WITHIN_DEFERRED => {
                let hi = vm.pop()?;
                let lo = vm.pop()?;
                let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
                let span = (hi as i64 - lo as i64 + 1) as u64;
                let r = lo as i64 + (self.rng.next_u64() % span) as i64;
                vm.push(r as i32)?;
            }
            n::RAND64 => {
                let a = vm.pop()? as u32;
                let r = self.rng.next_u64();
                vm.set_cell(a, r as u32 as i32)?;
                vm.set_cell(a + 4, (r >> 32) as u32 as i32)?;
            }
            n::SEED => {
                let s = vm.pop()?;
                self.rng = Rng::new(s as u32 as u64);
            }
            n::SEED2 => {
                let s = vm.pop()?;
                self.rng2 = Rng::derive(s as u32 as u64, ENGINE_STREAM);
            }
            n::SYSTEM_TIME => {
                // Reproducibility: a clock that counts primitives run, not wall time.
                vm.push((vm.steps() / 1000) as i32)?;
            }
            n::NEGAMAX => super::search::negamax_engine(self, vm)?,
            n::UCT => super::search::uct_engine(self, vm)?,
            n::ENGINE_SET_TURN => {
                vm.pop()?;
            }
            n::BOARD => {
                let pos = vm.pop()?;
                let board = vm.read_cell(self.layout.board)?;
                vm.push(board.wrapping_add(pos.wrapping_mul(4)))?;
            }
            n::FRIENDS => {
                let b = vm.pop()?;
                let a = vm.pop()?;
                vm.push_flag(a & 0xF800 == b & 0xF800)?;
            }
            n::ADD_Z | n::ADD_U => {
                let pos = vm.pop()?;
                let piece = vm.pop()?;
                self.put(vm, piece, pos)?;
            }
            n::REMOVE_Z | n::REMOVE_U => {
                let pos = vm.pop()?;
                self.put(vm, 0, pos)?;
            }
            n::EXIT => return Err(K::ExitMove.into()),
            n::STRING => {
                let a = vm.pop()? as u32;
                // (A string that does not end in memory notes nothing, as ever; its scan
                // is charged all the same.)
                let s = match vm.charged_cstr(a) {
                    Ok(s) => String::from_utf8_lossy(s).into_owned(),
                    Err(e) if matches!(e.kind, K::StepBudget(_)) => return Err(e),
                    Err(_) => String::new(),
                };
                self.note(&s)?;
            }
            n::NUMBER => {
                let v = vm.pop()?;
                self.note(&v.to_string())?;
            }
            n::ADD_MOVE => self.add_move(vm)?,
            n::MOVE => {
                let to = vm.pop()?;
                let from = vm.pop()?;
                let piece = self.get(vm, from)?;
                let sign = if self.occupied(vm, to)? && to != from {
                    self.pending()?.captures += 1;
                    "x"
                } else {
                    "-"
                };
                self.note_parts(&[
                    Part::Piece(piece),
                    Part::Pos(from),
                    Part::Text(sign),
                    Part::Pos(to),
                ])?;
                self.compile_action(vm, &[from, to], n::DO_MOVE)?;
                self.set_last(vm, to)?;
            }
            n::CAPTURE => {
                let pos = self.here_pos(vm)?;
                self.capture_at(vm, pos)?;
            }
            n::CAPTURE_AT => {
                let pos = vm.pop()?;
                self.capture_at(vm, pos)?;
            }
            n::DROP => {
                let pos = self.here_pos(vm)?;
                let piece = vm.cell(self.layout.piece)?;
                self.create(vm, piece, pos)?;
            }
            // The words without a type create the moving piece's type (as ZRF's `create`
            // without one does); `drop-piece[-at]` drops a given type as `drop` drops the
            // moving piece. Owners as for `create-piece-type` and `create-player-piece-type`.
            n::CREATE | n::CREATE_AT | n::CREATE_PLAYER | n::CREATE_PLAYER_AT => {
                let pos = if matches!(id, n::CREATE_AT | n::CREATE_PLAYER_AT) {
                    vm.pop()?
                } else {
                    self.here_pos(vm)?
                };
                let player = if matches!(id, n::CREATE_PLAYER | n::CREATE_PLAYER_AT) {
                    vm.pop()?
                } else {
                    vm.cell(self.layout.for_player)?
                };
                let ty = vm.cell(self.layout.piece)? & 0x3FF;
                self.create(vm, ty | (player & 0xFC00), pos)?;
            }
            n::CREATE_TYPE | n::CREATE_TYPE_AT | n::DROP_PIECE | n::DROP_PIECE_AT => {
                let pos = if matches!(id, n::CREATE_TYPE_AT | n::DROP_PIECE_AT) {
                    vm.pop()?
                } else {
                    self.here_pos(vm)?
                };
                let ty = vm.pop()?;
                // The owner is the player the turn moves for (`{for-player}`), as a
                // `drop` is: see docs/axiom.md.
                let player = vm.cell(self.layout.for_player)?;
                self.create(vm, (ty & 0x3FF) | (player & 0xFC00), pos)?;
            }
            n::CREATE_PLAYER_TYPE | n::CREATE_PLAYER_TYPE_AT => {
                let pos = if id == n::CREATE_PLAYER_TYPE_AT {
                    vm.pop()?
                } else {
                    self.here_pos(vm)?
                };
                let ty = vm.pop()?;
                let player = vm.pop()?;
                self.create(vm, (ty & 0x3FF) | (player & 0xFC00), pos)?;
            }
            n::CHANGE_TYPE | n::CHANGE_TYPE_AT => {
                let pos = if id == n::CHANGE_TYPE_AT {
                    vm.pop()?
                } else {
                    vm.cell(self.layout.last_pos)?
                };
                let ty = vm.pop()?;
                self.note_parts(&[Part::Text("="), Part::Piece(ty)])?;
                self.compile_action(vm, &[ty, pos], n::DO_TYPE)?;
            }
            n::CHANGE_OWNER | n::CHANGE_OWNER_AT => {
                let pos = if id == n::CHANGE_OWNER_AT {
                    vm.pop()?
                } else {
                    vm.cell(self.layout.last_pos)?
                };
                let player = vm.pop()?;
                self.compile_action(vm, &[player, pos], n::DO_OWNER)?;
            }
            n::MOVE_STRING => {
                let m = vm.pop()? as u32;
                let s = vm.cell(m.wrapping_sub(REC_NOTATION))?;
                vm.push(s)?;
            }
            n::DECOMPILE => {
                let buffer = vm.pop()? as u32;
                let m = vm.pop()? as u32;
                let s = vm.cell(m.wrapping_sub(REC_NOTATION))? as u32;
                let text = vm.charged_cstr(s)?.to_vec();
                let text = &text[..text.len().min(1000)];
                vm.write_cstr(buffer, text)?;
            }
            n::CLONE_BOARD => {
                // Push the board: a link to the current one, then a copy of it, at HERE.
                let l = self.layout;
                let board = vm.cell(l.board)?;
                let size = vm.cell(l.board_size)?.max(0) as u32;
                vm.comma(board)?;
                let copy = vm.allot(size)?;
                vm.charge_bytes((size as u64).saturating_sub(FREE_BOARD_BYTES))?;
                let bytes = vm.bytes(board as u32, size)?.to_vec();
                vm.write_bytes(copy, &bytes)?;
                vm.set_cell(l.board, copy as i32)?;
            }
            n::DEALLOCATE_BOARD => {
                let l = self.layout;
                let board = vm.cell(l.board)? as u32;
                let link = board.wrapping_sub(CELL);
                let previous = vm.cell(link)?;
                if previous == 0 {
                    return Err(K::Host("`$DeallocateBoard` without `$CloneBoard`".into()).into());
                }
                vm.set_here(link)?;
                vm.set_cell(l.board, previous)?;
            }
            n::PIECE_VALUE => {
                let piece = vm.pop()?;
                let ty = (piece & 0x3FF) as u32;
                let count = vm.read_cell(self.layout.piece_count)?.max(0) as u32;
                let v = if ty == 0 || ty > count {
                    0
                } else {
                    let table = vm.read_cell(self.layout.pieces)? as u32;
                    vm.read_cell(table + 16 * (ty - 1) + 12)?
                };
                vm.push(v)?;
            }
            n::STR_EQ => {
                let b = vm.pop()? as u32;
                let a = vm.pop()? as u32;
                vm.charged_cstr(a)?;
                vm.charged_cstr(b)?;
                let eq = vm.cstr(a)?.eq_ignore_ascii_case(vm.cstr(b)?);
                vm.push_flag(eq)?;
            }
            n::ADD_PIECE => {
                let pos = vm.pop()?;
                let piece = vm.pop()?;
                self.put(vm, piece, pos)?;
            }
            n::GENERATE => {
                // Axiom 1.50's default `OnGenerateMoves`: the scan itself (a game's override
                // may call it between its own bookkeeping).
                if self.generation.as_ref().is_some_and(|g| !g.scanned) {
                    super::state::scan(vm, self)?;
                }
            }
            n::GENERATE_MOVES => {
                let of_type = vm.pop()?;
                let opponent = vm.pop()? != 0;
                let player = vm.pop()?;
                self.generate_moves(vm, player, opponent, of_type)?;
            }
            n::DEALLOCATE_MOVES => {
                let Some((list, here)) = self.extra_lists.pop() else {
                    return Err(
                        K::Host("`$DeallocateMoves` without `$GenerateMoves`".into()).into(),
                    );
                };
                vm.set_here(here)?;
                vm.set_cell(self.layout.moves_list, list)?;
            }
            n::MATERIAL_BALANCE => {
                let player = vm.pop()?;
                // A cell read per position (the count is the program's to set, up to
                // 65,536).
                let n_pos = vm.cell(self.layout.positions)?.clamp(0, 1 << 16) as u64;
                vm.charge_bytes((n_pos * CELL as u64).saturating_sub(FREE_BOARD_BYTES))?;
                let v = self.material_balance(vm, player)?;
                vm.push(v)?;
            }
            n::REMOVE_PIECE => {
                let pos = vm.pop()?;
                self.put(vm, 0, pos)?;
            }
            n::REP_RESET => self.history.clear(),
            n::REP_PUSH => {
                if self.history.len() >= MAX_HISTORY {
                    return Err(K::BufferLimit(
                        "the repetition history",
                        MAX_HISTORY * std::mem::size_of::<u64>(),
                    )
                    .into());
                }
                // The board hashed and the history scanned: a loop of pushes costs steps
                // as the history grows, not one step each.
                let size = vm.cell(self.layout.board_size)?.max(0) as u64;
                let work = size + 8 * self.history.len() as u64;
                vm.charge_bytes(work.saturating_sub(FREE_BOARD_BYTES))?;
                let k = self.position_key(vm)?;
                self.history.push(k);
                let count = self.history.iter().filter(|&&h| h == k).count();
                vm.push(count as i32)?;
            }
            n::REP_POP => {
                self.history.pop();
            }
            n::RING_ADD | n::RING2_ADD => {
                let k = usize::from(id == n::RING2_ADD);
                let v = vm.pop()?;
                if self.ring[k].len() >= 1 << 16 {
                    return Err(K::Host("ring buffer full (65,536 items)".into()).into());
                }
                self.ring[k].push_back(v);
            }
            n::RING_REMOVE | n::RING2_REMOVE => {
                let k = usize::from(id == n::RING2_REMOVE);
                let v = self.ring[k].pop_front().ok_or_else(|| {
                    crate::forth::ForthError::new(K::Host(
                        "removing an item from an empty ring buffer".into(),
                    ))
                })?;
                vm.push(v)?;
            }
            n::RING_EMPTY | n::RING2_EMPTY => {
                let k = usize::from(id == n::RING2_EMPTY);
                vm.push_flag(self.ring[k].is_empty())?;
            }
            n::RING_CLEAR | n::RING2_CLEAR => {
                let k = usize::from(id == n::RING2_CLEAR);
                self.ring[k].clear();
            }
            n::DO_MOVE => {
                let to = vm.pop()?;
                let from = vm.pop()?;
                let piece = self.get(vm, from)?;
                self.put(vm, 0, from)?;
                self.put(vm, piece, to)?;
            }
            n::DO_REMOVE => {
                let pos = vm.pop()?;
                self.put(vm, 0, pos)?;
            }
            n::DO_PUT => {
                let pos = vm.pop()?;
                let piece = vm.pop()?;
                self.put(vm, piece, pos)?;
            }
            n::DO_TYPE => {
                let pos = vm.pop()?;
                let ty = vm.pop()?;
                let old = self.get(vm, pos)?;
                // Changing the type of an empty cell does nothing (there is no piece).
                if old != 0 {
                    self.put(vm, (old & !0x3FF) | (ty & 0x3FF), pos)?;
                }
            }
            n::DO_OWNER => {
                let pos = vm.pop()?;
                let player = vm.pop()?;
                let old = self.get(vm, pos)?;
                if old != 0 {
                    self.put(vm, (old & !0xFC00) | (player & 0xFC00), pos)?;
                }
            }
            other => {
                return Err(K::Host(format!(
                    "host word {} is not implemented",
                    vm.native_name(other)
                ))
                .into());
            }
        }
        Ok(())
    }
}

/// Points a move's record copied at the start of `copy` (its hidden cells first) at its new
/// place: its text pointers (the hidden cell and the record's string field, when the
/// layout has one) at `text`, its link at `next`.
fn place_copy(copy: &mut [u8], rec_string: Option<u32>, text: u32, next: u32) {
    copy[..4].copy_from_slice(&text.to_le_bytes());
    let link = REC_NOTATION as usize;
    copy[link..link + 4].copy_from_slice(&next.to_le_bytes());
    if let Some(cell) = rec_string.and_then(|off| {
        let s = link + off as usize;
        copy.get_mut(s..s + 4)
    }) {
        cell.copy_from_slice(&text.to_le_bytes());
    }
}

/// Code-field value of native `id` (for tests).
#[allow(dead_code)]
pub(crate) fn code_of(id: u32) -> i32 {
    NATIVE_BASE + id as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::axiom::state::State;
    use crate::forth::trace::{Event, MAX_REPLAY_ARGS};

    fn started() -> State {
        let file = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/axiom/capture/Capture.4th");
        let p = super::super::Program::load(&file, None).unwrap();
        State::new(&p, 1).unwrap()
    }

    fn value(s: &mut State, src: &str) -> i32 {
        s.vm.clear_stacks();
        s.vm.interpret_str("t.4th", src, &mut s.rt).unwrap();
        let v = s.vm.pop().unwrap();
        s.vm.clear_stacks();
        v
    }

    fn native(id: u32, args: &[i32]) -> Event {
        let mut a = [0; MAX_REPLAY_ARGS];
        a[..args.len()].copy_from_slice(args);
        Event::Native {
            id,
            args: a,
            n: args.len() as u8,
        }
    }

    /// Sets the cursor as the generator does before a move word at `pos` for `piece`.
    fn cursor(s: &mut State, pos: i32, piece: i32) {
        let l = s.rt.layout;
        for (a, v) in [
            (l.from, pos),
            (l.pos, pos),
            (l.piece, piece),
            (l.last_pos, pos),
        ] {
            s.vm.set_cell(a, v).unwrap();
        }
    }

    /// A move listed from a template is the one the long way lists: the same memory,
    /// `HERE`, last position, repetition history and list, with its captures counted
    /// again from the board as it is now.
    #[test]
    fn a_template_lists_what_the_long_way_lists() {
        let mut s = started();
        let (b2, c3, a1) = (
            value(&mut s, "b2"),
            value(&mut s, "c3"),
            value(&mut s, "a1"),
        );
        let board = s.vm.cell(s.rt.layout.board).unwrap() as u32;
        let b1 = value(&mut s, "b1");
        let pawn = s.vm.cell(board + 4 * b1 as u32).unwrap();
        let shapes = [
            vec![native(n::DROP, &[]), native(n::ADD_MOVE, &[])],
            vec![
                native(n::CAPTURE_AT, &[c3]),
                native(n::REP_RESET, &[]),
                native(n::ADD_MOVE, &[]),
            ],
            vec![
                native(n::DROP, &[]),
                native(n::CAPTURE_AT, &[a1]),
                native(n::ADD_MOVE, &[]),
            ],
        ];
        for events in &shapes {
            assert!(Runtime::templatable(events));
            for occupied in [false, true] {
                let mut s = started();
                s.rt.history.extend([7, 8]);
                s.rt.begin_generation(&mut s.vm).unwrap();
                // The template: the move listed once the long way, at b2.
                cursor(&mut s, b2, pawn);
                s.rt.begin_move(&mut s.vm, 0).unwrap();
                s.rt.replay_move(&mut s.vm, events).unwrap();
                let t = s.rt.template_of(&s.vm, 0).unwrap().expect("a template");
                // The board as it is at the next listing (`c3` and `b2` taken or not), and
                // positions since the last reset.
                s.rt.history.push(9);
                for p in [b2, c3] {
                    s.vm.set_cell(board + 4 * p as u32, if occupied { pawn } else { 0 })
                        .unwrap();
                }
                let (mut long, mut short) = (s.clone(), s);
                for st in [&mut long, &mut short] {
                    cursor(st, b2, pawn);
                }
                long.rt.begin_move(&mut long.vm, 0).unwrap();
                long.rt.replay_move(&mut long.vm, events).unwrap();
                assert!(
                    short
                        .rt
                        .list_template(&mut short.vm, 0, &t, events, b2)
                        .unwrap()
                );
                assert_eq!(long.vm.here(), short.vm.here());
                let here = long.vm.here();
                assert!(long.vm.bytes(0, here).unwrap() == short.vm.bytes(0, here).unwrap());
                assert_eq!(long.rt.history, short.rt.history);
                assert_eq!(
                    long.rt.history.is_empty(),
                    events.len() == 3 && events[1] == native(n::REP_RESET, &[])
                );
                for st in [&mut long, &mut short] {
                    st.rt.finish_generation(&mut st.vm, &mut st.moves).unwrap();
                }
                assert_eq!(long.moves, short.moves);
                assert_eq!(long.moves.len(), 2);
                let captures = (0..2).map(|i| short.captures(i)).collect::<Vec<_>>();
                let notes = (0..2).map(|i| short.notation(i)).collect::<Vec<_>>();
                assert_eq!(
                    captures,
                    (0..2).map(|i| long.captures(i)).collect::<Vec<_>>()
                );
                assert_eq!(notes, (0..2).map(|i| long.notation(i)).collect::<Vec<_>>());
                if occupied {
                    assert!(captures[1] > 0, "{events:?}");
                }
            }
        }
    }
}

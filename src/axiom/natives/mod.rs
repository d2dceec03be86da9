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
//!
//! # Files
//! This file has the host's state ([`Runtime`]) and its dispatch of the host words; `moves`
//! generates the move lists and `trace` replays move words from their traces (the move-word
//! cache).

mod moves;
mod trace;

use super::program::{Layout, REC_NOTATION};
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
    /// Whether the program seeded `rng` (`SEED!`) and `rng2` (`SEED2!`) itself (in
    /// `OnNewGame`): [`Runtime::seed_game`] then leaves that generator alone.
    pub(crate) seeded: (bool, bool),
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

    /// Seeds the generators for one game of a match, from the game's seed: the games of a
    /// match are copies of one prototype, and Axiom's programs seed theirs from the clock
    /// (`RANDOMIZE` in `OnNewGame`), so each game draws its own numbers. A generator the
    /// program seeded itself with `SEED!` or `SEED2!` is left as the program set it.
    pub fn seed_game(&mut self, seed: u64) {
        if !self.seeded.0 {
            self.rng = Rng::new(seed);
        }
        if !self.seeded.1 {
            self.rng2 = Rng::derive(seed, ENGINE_STREAM);
        }
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
            seeded: (false, false),
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
                self.seeded.0 = true;
            }
            n::SEED2 => {
                let s = vm.pop()?;
                self.rng2 = Rng::derive(s as u32 as u64, ENGINE_STREAM);
                self.seeded.1 = true;
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

/// Code-field value of native `id` (for tests).
#[allow(dead_code)]
pub(crate) fn code_of(id: u32) -> i32 {
    NATIVE_BASE + id as i32
}

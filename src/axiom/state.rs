//! One running Axiom game in one VM: setting up the board, generating the legal moves
//! through the program's own move words, applying a move by running its code, advancing the
//! turn, and asking the program whether the game is over.
//!
//! # The turn, as dagaz plays it
//! 1. Generate: for every position holding a piece of the player the turn moves for
//!    (`$forPlayer`), in position order, run the piece type's `{moves}` words in block
//!    order; then for every piece type with `{drops}`, in type order, run its drop words at
//!    every position. Moves of another type than the turn's `{of-type}` are skipped. With
//!    `{move-priorities}`, only the moves of the best priority present are kept. When no
//!    move exists and `$passTurnForced` is on, a pass is the one move. A move word whose
//!    inputs did not change since its last run is replayed from that run's trace instead
//!    of running ([`super::memo`]).
//! 2. Ask `OnIsGameOver` (the player to move's view; not on a random player's turn):
//!    `#WinScore` / `#LossScore` / `#DrawScore` end the game; with no move and no result the
//!    game is a draw (ZoG's rule).
//! 3. Apply the chosen move (its code), then, unless the move was partial, `OnNextTurn`.
//!    Threefold repetition of a position (board memory and turn) since the last
//!    `repetition-reset` ends the game in a draw.

use super::eval_memo::{EvalMemo, EvalPlan};
use super::memo::{Cursor, Listed, MoveMemo, Outcome, Sweep, Table};
use super::natives::Runtime;
use super::program::{Program, REC_CAPTURES, REC_NOTATION, is_exit, turn_vars};
use crate::forth::error::FResult;
use crate::forth::vm::CELL;
use crate::forth::{ForthError, Vm};

pub const WIN_SCORE: i32 = 2_130_000_000;
pub const LOSS_SCORE: i32 = -2_130_000_000;
pub const DRAW_SCORE: i32 = 0;
pub const UNKNOWN_SCORE: i32 = -2_140_000_000;

/// How the program scored the position for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Loss,
    Draw,
    Unknown,
}

impl Verdict {
    pub fn of(score: i32) -> Verdict {
        match score {
            WIN_SCORE => Verdict::Win,
            LOSS_SCORE => Verdict::Loss,
            UNKNOWN_SCORE => Verdict::Unknown,
            DRAW_SCORE => Verdict::Draw,
            _ => Verdict::Unknown,
        }
    }
}

/// Primitives allowed for one generation, one move application or one event.
pub const TURN_STEPS: u64 = 50_000_000;
/// Runs `f` (a generation, a move or an event inside a search, or `$GenerateMoves` inside
/// a program's engine) on a turn's budget of its own ([`TURN_STEPS`]), or on what is left
/// of the caller's budget when that is less, then counts the primitives it ran against the
/// caller's budget. So a search never runs past its budget, even by part of a generation.
/// Returns `f`'s result, or the caller's [`StepBudget`] error when its budget ran out
/// inside `f`, and whether it did. When it did, `f` stopped part-way: the caller must
/// drop what `f` left half done.
///
/// [`StepBudget`]: crate::forth::ForthErrorKind::StepBudget
pub(crate) fn nested<T>(vm: &mut Vm, f: impl FnOnce(&mut Vm) -> FResult<T>) -> (FResult<T>, bool) {
    let budget @ (steps, limit) = vm.budget_state();
    vm.set_step_budget(TURN_STEPS.min(limit.saturating_sub(steps)));
    let r = f(vm);
    let used = vm.steps();
    match vm.set_budget_state(budget, used) {
        Ok(()) => (r, false),
        Err(e) => (Err(e), true),
    }
}

/// Primitives a program's engine (`OnSearch`) may run for one move: its time limit. When
/// they run out, `$NegamaxMove` plays the best move of its deepest finished iteration,
/// `$UCTMove` the most visited move of its finished playouts, and a program's own engine
/// the move it reported last with `BestMove!` ([`super::search`]).
///
/// Axiom's limit is a time; this budget is sized so that the published games search as
/// deep as Axiom's logs show: Ordo's depth-1 search (about 85 root moves, each valued by
/// an evaluation that generates the moves of both sides, ~3 M primitives a generation)
/// needs about 500 M primitives, and Axiom's AutoPlay finished it at most moves (its logs
/// print "using first move" at about one move in twenty). Cheap games stop at the depth
/// limit long before (Ur's depth-3 searches finish within 50 M).
pub const SEARCH_STEPS: u64 = 1_000_000_000;

/// A game in progress.
#[derive(Clone)]
pub struct State {
    pub vm: Vm,
    pub rt: Runtime,
    /// `HERE` after set-up: each turn's move list starts here.
    pub base: u32,
    /// The current move list (record addresses).
    pub moves: Vec<u32>,
    /// Primitives allowed for one generation, one move or one event
    /// ([`Program::turn_steps`]).
    pub turn_steps: u64,
}

/// A snapshot of everything a move changes.
#[derive(Clone, Debug)]
pub struct Snapshot {
    here: u32,
    board_at: i32,
    board: Vec<u8>,
    vars: [i32; 15],
    history: usize,
}

impl State {
    /// A new game of `program`: the board set up and the first player to move.
    pub fn new(program: &Program, seed: u64) -> Result<State, ForthError> {
        let mut vm = program.vm.clone();
        let mut rt = Runtime::new(program, seed);
        vm.set_step_budget(program.turn_steps);
        let l = program.layout;
        vm.execute(l.new_game, &mut rt)?;
        // The board set-up: (player name, piece name, position name) triples.
        let setup = vm.cell(l.board_setup)? as u32;
        if setup != 0 {
            let count = vm.cell(setup)?.clamp(0, 1 << 16) as u32;
            for k in 0..count {
                let mut vals = [0i32; 3];
                for (j, v) in vals.iter_mut().enumerate() {
                    let name_at = vm.cell(setup + 4 + 12 * k + 4 * j as u32)? as u32;
                    let name = vm.cstr(name_at)?.to_vec();
                    let nfa = vm.find(&name).ok_or_else(|| {
                        ForthError::new(crate::forth::ForthErrorKind::UndefinedWord(
                            String::from_utf8_lossy(&name).into_owned(),
                        ))
                    })?;
                    vm.execute(nfa + 12, &mut rt)?;
                    *v = vm.pop()?;
                }
                let [player, ty, pos] = vals;
                // The piece was stored as a name (it may be a deferred word): what it
                // gives now must be a declared piece.
                if ty < 1 || ty as usize > program.info.pieces.len() {
                    let name_at = vm.cell(setup + 4 + 12 * k + 4)? as u32;
                    let name = String::from_utf8_lossy(vm.cstr(name_at)?).into_owned();
                    return Err(ForthError::new(crate::forth::ForthErrorKind::Host(
                        format!(
                            "{{setup}} entry {}: `{}` gives {ty}, not a piece",
                            k + 1,
                            crate::text::printable(&name)
                        ),
                    )));
                }
                vm.push(player)?;
                vm.push(ty)?;
                vm.push(pos)?;
                vm.execute(l.on_edit_add, &mut rt)?;
            }
        }
        vm.execute(l.on_new_game, &mut rt)?;
        vm.clear_stacks();
        let base = vm.here();
        // Traced runs take the game's tables as fixed (`crate::forth::frozen`), not what
        // every turn changes: the board, the turn's variables and the dictionary pointer.
        vm.freeze_data_below(base);
        let board_at = vm.cell(l.board)?.max(0) as u32;
        let board_size = vm.cell(l.board_size)?.max(0) as u32;
        vm.mark_mutable(board_at, board_size);
        for a in turn_vars(&l) {
            vm.mark_mutable(a, CELL);
        }
        vm.mark_mutable(crate::forth::vm::A_DP, CELL);
        let mut s = State {
            vm,
            rt,
            base,
            moves: Vec::new(),
            turn_steps: program.turn_steps,
        };
        s.rt.history.clear();
        let key = s.rt.position_key(&s.vm)?;
        s.rt.history.push(key);
        Ok(s)
    }

    fn cell(&self, a: u32) -> FResult<i32> {
        self.vm.cell(a)
    }

    /// The player to move (its value, `k * 2048`).
    pub fn player_value(&self) -> i32 {
        self.cell(self.rt.layout.player).unwrap_or(0)
    }

    /// The player to move, 0-based.
    pub fn player(&self) -> usize {
        self.rt.info.player_index(self.player_value()).unwrap_or(0)
    }

    /// Generates the legal moves of the position into `self.moves` (and `$movesList`).
    pub fn generate(&mut self) -> FResult<()> {
        // Lists an engine made with `$GenerateMoves` and left behind are gone with the turn.
        self.rt.extra_lists.clear();
        self.vm.set_step_budget(self.turn_steps);
        generate_in(&mut self.vm, &mut self.rt, &mut self.moves)
    }

    /// The notation of move `i` of the current list.
    pub fn notation(&self, i: usize) -> String {
        self.moves
            .get(i)
            .and_then(|&r| self.vm.cell(r - REC_NOTATION).ok())
            .map(|s| self.vm.cstring(s as u32))
            .unwrap_or_default()
    }

    /// Pieces move `i` captures.
    pub fn captures(&self, i: usize) -> u32 {
        self.moves
            .get(i)
            .and_then(|&r| self.vm.cell(r - REC_CAPTURES).ok())
            .unwrap_or(0)
            .max(0) as u32
    }

    /// `OnIsGameOver` for the player to move (the current move list must be generated).
    pub fn verdict(&mut self) -> FResult<Verdict> {
        self.vm.set_step_budget(self.turn_steps);
        verdict(&mut self.vm, &mut self.rt)
    }

    /// `OnEvaluate` for the player to move.
    pub fn evaluate(&mut self) -> FResult<i32> {
        self.vm.set_step_budget(self.turn_steps);
        evaluate(&mut self.vm, &mut self.rt)
    }

    /// Plays move `i`: runs its code, then advances the turn unless it was partial.
    /// Returns whether the turn advanced.
    pub fn apply(&mut self, i: usize) -> FResult<bool> {
        let rec = *self.moves.get(i).ok_or_else(|| {
            ForthError::new(crate::forth::ForthErrorKind::Host(format!(
                "move {i} does not exist"
            )))
        })?;
        self.vm.set_step_budget(self.turn_steps);
        apply_record(&mut self.vm, &mut self.rt, rec)
    }

    /// Forgets the move list (the next generation reuses its memory). Only in play: a
    /// search keeps the lists of the nodes above.
    pub fn reset_here(&mut self) -> FResult<()> {
        self.vm.set_here(self.base)
    }

    /// Counts the current position in the repetition history; true on the third time.
    pub fn record_position(&mut self) -> FResult<bool> {
        let key = self.rt.position_key(&self.vm)?;
        self.rt.history.push(key);
        Ok(self.rt.history.iter().filter(|&&h| h == key).count() >= 3)
    }

    /// Saves what a move can change.
    pub fn snapshot(&self) -> FResult<Snapshot> {
        snapshot(&self.vm, &self.rt)
    }

    /// Restores a snapshot.
    pub fn restore(&mut self, s: &Snapshot) -> FResult<()> {
        restore(&mut self.vm, &mut self.rt, s)
    }

    /// Saves the program's memory below the move lists: its variables and tables, which a
    /// move word may write on its way (Ordo's `set-size`). An engine's search can stop
    /// inside a generation, leaving them as no finished generation does;
    /// [`State::restore_data`] puts them back.
    pub fn data_snapshot(&self) -> FResult<Vec<u8>> {
        Ok(self.vm.bytes(0, self.base)?.to_vec())
    }

    /// Puts back what [`State::data_snapshot`] saved, writing only the cells that differ.
    pub fn restore_data(&mut self, saved: &[u8]) -> FResult<()> {
        let now = self.vm.bytes(0, saved.len() as u32)?;
        let mut runs = Vec::new();
        let mut i = 0;
        while i < saved.len() {
            if now[i] == saved[i] {
                i += 1;
                continue;
            }
            let start = i;
            while i < saved.len() && now[i] != saved[i] {
                i += 1;
            }
            runs.push(start..i);
        }
        for r in runs {
            self.vm.write_bytes(r.start as u32, &saved[r])?;
        }
        Ok(())
    }
}

/// Generates the legal moves of the position (see the module documentation); returns the
/// move records, also linked as `$movesList`.
pub(crate) fn generate(vm: &mut Vm, rt: &mut Runtime) -> FResult<Vec<u32>> {
    let mut recs = Vec::new();
    generate_in(vm, rt, &mut recs)?;
    Ok(recs)
}

/// [`generate`] into `recs` (emptied first; its room is kept from turn to turn).
pub(crate) fn generate_in(vm: &mut Vm, rt: &mut Runtime, recs: &mut Vec<u32>) -> FResult<()> {
    let l = rt.layout;
    rt.touch_lists();
    rt.begin_generation(vm)?;
    // `OnGenerateMoves`: Axiom 1.40's hook (empty by default) or 1.50's generator (a host
    // word a game may wrap); the scan runs once either way.
    let depth = vm.stack().len();
    vm.execute(l.on_generate_moves, rt)?;
    vm.ds_truncate(depth);
    if rt.generation.as_ref().is_some_and(|g| !g.scanned) {
        scan(vm, rt)?;
    }
    let listed = rt.finish_generation(vm, recs)?;
    // Move priorities: keep the moves of the best priority present.
    let prio = vm.cell(l.move_priorities)? as u32;
    if prio != 0 && !recs.is_empty() {
        let p_of = |vm: &Vm, r: u32| -> FResult<i32> {
            let t = vm.cell(r + l.rec_type)?.clamp(0, 127) as u32;
            vm.cell(prio + 4 * t)
        };
        // The moves listed from the first of the best priority on are the ones kept
        // (`Generation::kept_from`), as the two ends of that run show.
        let run = match listed {
            Some((best, from)) if (from as usize) < recs.len() => {
                let from = from as usize;
                let starts = p_of(vm, recs[from])? == best
                    && p_of(vm, recs[recs.len() - 1])? == best
                    && (from == 0 || p_of(vm, recs[from - 1])? > best);
                starts.then_some(from)
            }
            _ => None,
        };
        let dropped = match run {
            Some(from) => {
                recs.drain(..from);
                from > 0
            }
            None => {
                let mut best = i32::MAX;
                for &r in recs.iter() {
                    best = best.min(p_of(vm, r)?);
                }
                let mut kept = 0;
                for i in 0..recs.len() {
                    let r = recs[i];
                    if p_of(vm, r)? == best {
                        recs[kept] = r;
                        kept += 1;
                    }
                }
                let dropped = kept != recs.len();
                recs.truncate(kept);
                dropped
            }
        };
        if dropped {
            rt.relink(vm, recs)?;
        }
    }
    if recs.is_empty() && vm.cell(l.pass_turn_forced)? != 0 {
        rt.begin_generation(vm)?;
        rt.add_pass(vm)?;
        rt.finish_generation(vm, recs)?;
    }
    Ok(())
}

/// Runs every friendly piece's move words and every drop word (see the module
/// documentation), adding to the move list being generated.
pub(crate) fn scan(vm: &mut Vm, rt: &mut Runtime) -> FResult<()> {
    let l = rt.layout;
    if let Some(g) = rt.generation.as_mut() {
        g.scanned = true;
    }
    let for_player = vm.cell(l.for_player)?;
    let of_type = vm.cell(l.of_type)?;
    let mut n_pos = vm.cell(l.positions)?.clamp(0, 1 << 16);
    let board = vm.cell(l.board)? as u32;
    let mut n_pieces = vm.cell(l.piece_count)?.clamp(0, 1024) as u32;
    // Axiom 1.50 can restrict the scan (`{dummy-positions}`, `{dummy-pieces}`).
    if let Some(a) = l.scan_positions {
        let v = vm.cell(a)?;
        if v > 0 {
            n_pos = n_pos.min(v);
        }
    }
    if let Some(a) = l.scan_pieces {
        let v = vm.cell(a)?;
        if v > 0 {
            n_pieces = n_pieces.min(v as u32);
        }
    }
    let table = vm.cell(l.pieces)? as u32;
    // Axiom does not check its data stack, and published move words rely on it (Splut's
    // `push-stone` drops three cells where it holds two): the words run on a cushion of
    // zero cells, and after each word the stack is put back to its depth.
    let base = vm.stack().len();
    // The move-word cache, out of the runtime while the scan lends the runtime to the VM
    // (a scan inside a move word, which `$GenerateMoves` allows, finds one that is off:
    // it must not touch the cells the VM watches for this one).
    let mut memo = std::mem::replace(&mut rt.memo, MoveMemo::disabled());
    memo.begin_scan(vm);
    vm.push_cushion(STACK_CUSHION);
    let r = scan_blocks(
        vm,
        rt,
        &mut memo,
        (table, board, n_pos, n_pieces),
        (for_player, of_type, base),
    );
    // The cursor the last replayed word left unwritten, whatever happened.
    let flushed = memo.flush_cursor(vm);
    rt.memo = memo;
    vm.ds_truncate(base);
    r.and(flushed)
}

/// The loops of [`scan`]: friendly pieces' move words, then drop words.
fn scan_blocks(
    vm: &mut Vm,
    rt: &mut Runtime,
    memo: &mut MoveMemo,
    (table, board, n_pos, n_pieces): (u32, u32, i32, u32),
    (for_player, of_type, base): (i32, i32, usize),
) -> FResult<()> {
    let l = &rt.layout;
    let word = Word {
        of_type,
        base,
        cursor: [l.from, l.pos, l.piece, l.last_pos],
        record_room: 3 * CELL + l.rec_cfa,
    };
    let friendly = |piece: i32| {
        let ty = (piece & 0x3FF) as u32;
        piece != 0 && ty != 0 && ty <= n_pieces && piece & 0xF800 == for_player & 0xF800
    };
    let mut pos = 0;
    while pos < n_pos {
        pos = next_friendly(vm, board, (pos, n_pos), friendly);
        if pos >= n_pos {
            break;
        }
        // (Read again as a cell: past the memory's end, this is the error.)
        let piece = vm.cell(board.wrapping_add(4 * pos as u32))?;
        if friendly(piece) {
            let ty = (piece & 0x3FF) as u32;
            let block = vm.cell(table + 16 * (ty - 1) + 4)?;
            if block != 0 {
                let t = block_table(vm, memo, block as u32, piece, n_pos)?;
                run_block(vm, rt, memo, block as u32, t, (pos..pos + 1, piece), word)?;
            }
        }
        pos += 1;
    }
    for ty in 1..=n_pieces {
        let block = vm.cell(table + 16 * (ty - 1) + 8)?;
        if block == 0 {
            continue;
        }
        let piece = ty as i32 | (for_player & 0xFC00);
        let t = block_table(vm, memo, block as u32, piece, n_pos)?;
        run_block(vm, rt, memo, block as u32, t, (0..n_pos, piece), word)?;
    }
    Ok(())
}

/// The first position from `pos` (below `n_pos`) whose board cell holds a piece that
/// `friendly` takes, found in one pass over the board's bytes (most cells of a board hold
/// no piece of the player to move; [`scan_blocks`] read them one by one). Stops at the
/// first cell past the memory's end, which the caller then reads as a cell, with its error.
pub(super) fn next_friendly(
    vm: &Vm,
    board: u32,
    (pos, n_pos): (i32, i32),
    friendly: impl Fn(i32) -> bool,
) -> i32 {
    let at = board.wrapping_add(4 * pos as u32);
    let cells = (vm.mem_len().saturating_sub(at) / 4).min((n_pos - pos) as u32);
    let Ok(bytes) = vm.bytes(at, 4 * cells) else {
        return pos;
    };
    let skipped = bytes
        .chunks_exact(4)
        .position(|c| <[u8; 4]>::try_from(c).is_ok_and(|c| friendly(i32::from_le_bytes(c))))
        .unwrap_or(cells as usize);
    pos + skipped as i32
}

/// The cache's entries for the words of `block` played by `piece` ([`MoveMemo::table`]).
fn block_table(vm: &Vm, memo: &mut MoveMemo, block: u32, piece: i32, n_pos: i32) -> FResult<Table> {
    let count = vm.cell(block + 4)?.clamp(0, 1024) as u32;
    Ok(memo.table(block, piece, count, n_pos.max(0) as u32))
}

/// `OnIsGameOver` for the player to move (the move list must be generated). A random
/// player's turn (`?Dice`) is not asked: ZoG plays those turns itself, and a result from
/// their view has no side to give it to (see docs/axiom.md).
pub(crate) fn verdict(vm: &mut Vm, rt: &mut Runtime) -> FResult<Verdict> {
    let mover = vm.cell(rt.layout.player)?;
    if rt.info.is_random_value(mover) {
        return Ok(Verdict::Unknown);
    }
    let score = value_of(vm, rt, rt.layout.on_is_game_over, false)?;
    Ok(Verdict::of(score))
}

/// `OnEvaluate` for the player to move, answered from the evaluation cache when one of
/// its traces holds ([`super::eval_memo`]).
pub(crate) fn evaluate(vm: &mut Vm, rt: &mut Runtime) -> FResult<i32> {
    let word = rt.layout.on_evaluate;
    cached_event(vm, rt, word, |rt| &mut rt.eval_memo)
}

/// `OnNextTurn`, or its effects replayed from the turn cache when one of its traces holds
/// (an evaluation cache whose answer is not used: [`super::eval_memo`]). It runs as the
/// event words that answer a value do ([`value_of`]): on a cushion of zero cells, the
/// stack put back to its depth after it.
fn next_turn(vm: &mut Vm, rt: &mut Runtime) -> FResult<()> {
    let word = rt.layout.on_next_turn;
    cached_event(vm, rt, word, |rt| &mut rt.turn_memo).map(drop)
}

/// Runs event `word` through the cache `memo_of` picks ([`evaluate_with`]), the cache
/// out of the runtime meanwhile.
fn cached_event(
    vm: &mut Vm,
    rt: &mut Runtime,
    word: u32,
    memo_of: fn(&mut Runtime) -> &mut EvalMemo,
) -> FResult<i32> {
    let base = vm.stack().len();
    let mut memo = std::mem::take(memo_of(rt));
    let r = evaluate_with(vm, rt, &mut memo, word, base);
    *memo_of(rt) = memo;
    r
}

fn evaluate_with(
    vm: &mut Vm,
    rt: &mut Runtime,
    memo: &mut EvalMemo,
    word: u32,
    base: usize,
) -> FResult<i32> {
    let traced = match memo.plan(vm, rt, word, base)? {
        EvalPlan::Answer(v) => return Ok(v),
        EvalPlan::Run { traced } => traced,
    };
    let v = value_of(vm, rt, word, traced)?;
    if traced {
        memo.store(vm, v);
    }
    Ok(v)
}

/// Runs an event word that answers a value (`OnIsGameOver`, `OnEvaluate`) as Axiom's
/// unchecked stack lets it run: on a cushion of zero cells, the answer is the top of the
/// stack whatever the depth it leaves (Tsumego's `OnIsGameOver` takes one cell more than
/// it is given on one path), and the stack is then put back to its depth. `traced`: the
/// run is traced ([`Vm::trace`] then holds what it did).
fn value_of(vm: &mut Vm, rt: &mut Runtime, word: u32, traced: bool) -> FResult<i32> {
    let base = vm.stack().len();
    vm.push_cushion(STACK_CUSHION);
    let run = if traced {
        let area = vm.here().div_ceil(CELL) * CELL;
        vm.execute_traced(word, rt, area)
    } else {
        vm.execute(word, rt)
    };
    let r = run.and_then(|()| vm.pop());
    if r.is_ok() {
        vm.ds_restore(base);
    }
    r
}

/// Saves what a move can change.
pub(crate) fn snapshot(vm: &Vm, rt: &Runtime) -> FResult<Snapshot> {
    let l = &rt.layout;
    let board_at = vm.cell(l.board)?;
    let size = vm.cell(l.board_size)?.max(0) as u32;
    let mut vars = [0; 15];
    for (v, a) in vars.iter_mut().zip(turn_vars(l)) {
        *v = vm.cell(a)?;
    }
    Ok(Snapshot {
        here: vm.here(),
        board_at,
        board: vm.bytes(board_at as u32, size)?.to_vec(),
        vars,
        history: rt.history.len(),
    })
}

/// Restores a snapshot.
pub(crate) fn restore(vm: &mut Vm, rt: &mut Runtime, s: &Snapshot) -> FResult<()> {
    let l = rt.layout;
    rt.touch_lists();
    vm.set_cell(l.board, s.board_at)?;
    vm.write_bytes(s.board_at as u32, &s.board)?;
    for (v, a) in s.vars.iter().zip(turn_vars(&l)) {
        vm.set_cell(a, *v)?;
    }
    vm.set_here(s.here)?;
    rt.history.truncate(s.history);
    Ok(())
}

/// What every move word of a scan shares: the move type the turn is restricted to
/// (`{of-type}`, 0: none), the data stack's depth under the cushion, the cursor's cells
/// (origin, current position, piece, last position: see [`Cursor`]) and the room a
/// move's record needs above `HERE`. (Taken from the layout once per scan, not copied
/// from it for every word.)
#[derive(Clone, Copy)]
struct Word {
    of_type: i32,
    base: usize,
    cursor: [u32; 4],
    record_room: u32,
}

/// Runs the move words of one `{moves}` block for `piece` at the positions `positions`
/// (position by position, each position's words in order), or replays them from the
/// cache ([`MoveMemo`]): runs of words the cache does nothing for are walked over by
/// [`MoveMemo::sweep`], the others go word by word ([`run_word`]).
fn run_block(
    vm: &mut Vm,
    rt: &mut Runtime,
    memo: &mut MoveMemo,
    block: u32,
    table: Table,
    (positions, piece): (std::ops::Range<i32>, i32),
    word: Word,
) -> FResult<()> {
    let pfa = block + 4;
    if word.of_type != 0 && !has_word_of_type(vm, pfa, word.of_type) {
        // No word of the turn's type: each would return at once (`run_word`), and as
        // nothing runs, the block cannot change meanwhile.
        return Ok(());
    }
    let sweep = Sweep {
        pfa,
        of_type: word.of_type,
        piece,
        cursor: word.cursor,
        record_room: word.record_room,
    };
    let (mut pos, mut k) = (positions.start, 0);
    while pos < positions.end {
        (pos, k) = memo.sweep(vm, rt, &table, &sweep, (pos, k), positions.end)?;
        if pos >= positions.end {
            break;
        }
        let count = vm.cell(pfa)?.clamp(0, 1024) as u32;
        if k < count {
            run_word(vm, rt, memo, &table, (pfa, k), (pos, piece), word)?;
            k += 1;
        }
        if k >= count {
            pos += 1;
            k = 0;
        }
    }
    Ok(())
}

/// Whether the block whose parameter field is at `pfa` has a word of move type `ty`
/// (true when a cell cannot be read: the words then go the long way, and fail there).
fn has_word_of_type(vm: &Vm, pfa: u32, ty: i32) -> bool {
    let Ok(count) = vm.cell(pfa) else {
        return true;
    };
    (0..count.clamp(0, 1024) as u32).any(|k| !matches!(vm.cell(pfa + 8 + 8 * k), Ok(t) if t != ty))
}

/// Runs word `k` of the block whose parameter field is at `pfa`, for `piece` at `pos`,
/// or replays it from the cache.
fn run_word(
    vm: &mut Vm,
    rt: &mut Runtime,
    memo: &mut MoveMemo,
    table: &Table,
    (pfa, k): (u32, u32),
    (pos, piece): (i32, i32),
    Word {
        of_type,
        base,
        cursor: [from_at, pos_at, piece_at, last_at],
        record_room,
    }: Word,
) -> FResult<()> {
    let cursor: Cursor = [
        (from_at, pos),
        (pos_at, pos),
        (piece_at, piece),
        (last_at, pos),
    ];
    let word = vm.cell(pfa + 4 + 8 * k)? as u32;
    let ty = vm.cell(pfa + 8 + 8 * k)?;
    if of_type != 0 && ty != of_type {
        return Ok(());
    }
    let slot = table.slot(k, pos);
    let traced = match memo.check(vm, table, slot, word) {
        Outcome::Replay { effects: false, .. } if vm.room() >= record_room => {
            // (Opening the record needs room for it: with less, the word goes the long
            // way and fails as running it would.)
            done_without_effects(vm, memo, cursor)?;
            return Ok(());
        }
        Outcome::Replay { effects: false, .. } => {
            memo.set_last_unlisted(None);
            memo.put_cursor(vm, &cursor)?;
            rt.begin_move(vm, ty)?;
            rt.end_move(vm)?;
            memo.sync(vm);
            return Ok(());
        }
        Outcome::Replay {
            slot,
            effects: true,
        } => {
            // The same harmless effects as the unlisted replay just before, nothing
            // between: the move is unlisted again (the best priority listed is the
            // same), and the effects change nothing (a pass at every position).
            if let Some(last) = memo.repeats_unlisted(slot, ty) {
                let mut c = cursor;
                if let Some(p) = last {
                    c[3].1 = p;
                }
                memo.defer_cursor(c);
                memo.stats.unlisted += 1;
                memo.stats.repeated += 1;
                return Ok(());
            }
            // The same effects as the listed replay just before, nothing between: the
            // same move listed again, by a copy of its record.
            if let Some(l) = memo.repeats_listed(slot, ty) {
                if let Some(record) = rt.relist(vm, ty, l.record, memo.events(slot))? {
                    let mut c = cursor;
                    if let Some(p) = l.last_pos {
                        c[3].1 = p;
                    }
                    memo.defer_cursor(c);
                    memo.set_last_listed(Listed { slot, record, ..l });
                    memo.stats.relisted += 1;
                    memo.sync(vm);
                    return Ok(());
                }
            }
            memo.replay_effects(vm, rt, slot, ty, &cursor)?;
            return Ok(());
        }
        Outcome::Run { traced } => traced,
    };
    memo.set_last_unlisted(None);
    memo.put_cursor(vm, &cursor)?;
    let area = vm.here().div_ceil(CELL) * CELL;
    rt.begin_move(vm, ty)?;
    let caught = vm.set_exit_caught(true);
    let r = if traced {
        vm.execute_traced(word, rt, area)
    } else {
        vm.execute(word, rt)
    };
    vm.set_exit_caught(caught);
    match r {
        Ok(()) => {}
        Err(e) if is_exit(&e) => {}
        Err(e) => return Err(e),
    }
    if traced {
        memo.store(vm, table, slot, word, &cursor);
    }
    // Back to the depth it started at, the cushion refilled with zeros ([`scan`]).
    vm.ds_restore(base);
    vm.push_cushion(STACK_CUSHION);
    rt.end_move(vm)?;
    memo.sync(vm);
    Ok(())
}

/// What a replayed word without effects leaves: nothing but what opening and dropping its
/// move's record would have left, `HERE` aligned and the cursor set (written when
/// something reads it: [`MoveMemo::defer_cursor`]).
fn done_without_effects(vm: &mut Vm, memo: &mut MoveMemo, cursor: Cursor) -> FResult<()> {
    memo.defer_cursor(cursor);
    let h = vm.here();
    if h % CELL != 0 {
        vm.set_here(h.div_ceil(CELL) * CELL)?;
    }
    Ok(())
}

/// Zero cells under the move words ([`scan`]) and the events that answer a value
/// ([`value_of`]).
pub(crate) const STACK_CUSHION: usize = 16;

/// Runs a move record's code, then `OnNextTurn` unless the move was partial.
pub(crate) fn apply_record(vm: &mut Vm, rt: &mut Runtime, rec: u32) -> FResult<bool> {
    let l = rt.layout;
    rt.touch_lists();
    vm.set_cell(l.partial, 0)?;
    vm.execute(rec + l.rec_cfa, rt)?;
    let ty = vm.cell(rec + l.rec_type)?;
    vm.set_cell(l.last_move_type, ty)?;
    if vm.cell(l.partial)? != 0 {
        return Ok(false);
    }
    next_turn(vm, rt)?;
    let t = vm.cell(l.turn_number)?;
    vm.set_cell(l.turn_number, t.wrapping_add(1))?;
    Ok(true)
}

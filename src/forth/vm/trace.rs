//! Traced runs and watched cells: what a traced run reads, writes and runs as code, the data
//! cells it takes as frozen, and the writes to cells that code, the dictionary index or a
//! host watches.

use super::{CELL, Host, Vm, any_bit, clear_bit, has_bit, p, set_bit, set_bits};
use crate::forth::error::FResult;
use crate::forth::frozen::FrozenCells;
use crate::forth::trace::{MAX_REPLAY_ARGS, NativeClass, Trace};
use std::sync::atomic::{AtomicBool, Ordering};

impl Vm {
    // ----- tracing (see [`crate::forth::trace`]) -----

    /// Notes a write of `len` bytes at `a` (`cell`: the value, when one cell) in a traced
    /// run.
    #[inline(always)]
    pub(super) fn note_write(&mut self, a: u32, len: u32, cell: Option<i32>) {
        if self.tracing {
            self.trace.write(a, len, cell);
        }
        self.note_watched_write(a, len);
    }

    /// A read of a string or a range: the Forth code of a traced run may not make one.
    #[inline(always)]
    pub(super) fn note_string_read(&self) {
        if self.tracing {
            self.unnoted_read();
        }
    }

    /// An effect no trace can replay (output, compiling, text input…).
    #[inline(always)]
    pub(super) fn note_effect(&mut self, why: &'static str) {
        if self.tracing && !self.trace.in_native {
            self.trace.taint(why);
        }
    }

    /// Runs `xt` as [`Vm::execute`] does, tracing what it reads and does; the trace is
    /// then [`Vm::trace`]. `area`: where the run's compiled output goes (writes at or
    /// above it are not replayable).
    pub fn execute_traced(&mut self, xt: u32, host: &mut dyn Host, area: u32) -> FResult<()> {
        if self.tracing {
            // A scan inside a traced word: the outer trace cannot vouch for it.
            self.trace.taint("a traced run inside another");
            return self.execute(xt, host);
        }
        self.trace.start(area);
        self.unnoted.0.store(false, Ordering::Relaxed);
        let before = self.steps;
        self.tracing = true;
        let r = self.execute(xt, host);
        self.tracing = false;
        let t = &mut self.trace;
        if self.unnoted.0.load(Ordering::Relaxed) {
            t.taint("a read the trace could not note");
        }
        match self.steps.checked_sub(before) {
            Some(n) => t.steps = n,
            None => t.taint("a new step budget"),
        }
        r
    }

    /// The last traced run's trace.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// Counts `n` steps as a replayed run's; false (and nothing counted) when they do
    /// not fit in the budget, where running the code would fail.
    pub fn add_steps(&mut self, n: u64) -> bool {
        match self.steps.checked_add(n) {
            Some(s) if s <= self.step_limit => {
                self.steps = s;
                true
            }
            _ => false,
        }
    }

    /// A traced run read `v` in the cell at `a`: noted, or, when the cell may be frozen
    /// ([`crate::forth::frozen`]), marked as code.
    #[inline(always)]
    pub(super) fn traced_cell_read(&mut self, a: u32, v: i32) {
        if self.trace.read(a, 4, v, self.frozen.may_freeze(a)) {
            self.freeze_cell(a);
        }
    }

    /// Marks the cell at `a` (aligned, below the frozen bound) as frozen data: code.
    #[cold]
    #[inline(never)]
    fn freeze_cell(&mut self, a: u32) {
        if self.is_code(a) {
            return;
        }
        let c = a / CELL;
        self.frozen.freeze(c);
        set_bit(&mut self.code_bits, c);
        set_bit(&mut self.watch_bits, c);
    }

    /// From now on, traced runs take the data cells below `limit` that they read as fixed
    /// until one is seen to change ([`crate::forth::frozen`]); 0 stops freezing new cells. The
    /// host marks the cells it knows change with [`Vm::mark_mutable`].
    pub fn freeze_data_below(&mut self, limit: u32) {
        self.frozen.below = limit;
    }

    /// Notes that the cells of the bytes `a .. a + len` change: they are never frozen.
    pub fn mark_mutable(&mut self, a: u32, len: u32) {
        if len == 0 {
            return;
        }
        let last = a.saturating_add(len - 1) / CELL;
        for c in a / CELL..=last {
            self.thaw(c);
        }
    }

    /// Cell `c` is to change: it is known to be mutable from now on; if it was frozen, it
    /// is data again and the code epoch changes (traces made since it froze may assume its
    /// value).
    #[cold]
    #[inline(never)]
    fn thaw(&mut self, c: u32) {
        if !self.frozen.learn_mutable(c) {
            return;
        }
        self.code_epoch += 1;
        clear_bit(&mut self.code_bits, c);
        if !has_bit(&self.dict_bits, c) && !has_bit(&self.journal.bits, c) {
            clear_bit(&mut self.watch_bits, c);
        }
    }

    /// What this VM learned about its data cells ([`crate::forth::frozen`]): the frozen ones with
    /// their values, and the ones known to change. Another VM of the same program can take
    /// it over ([`Vm::adopt_frozen`]).
    pub fn frozen_data(&self) -> FrozenCells {
        FrozenCells {
            frozen: self
                .frozen
                .frozen_cells()
                .filter_map(|c| Some((c, self.raw_cell(c.wrapping_mul(CELL)).ok()?)))
                .collect(),
            mutable: self.frozen.mutable_bits().to_vec(),
        }
    }

    /// Takes over what another VM of the same program learned about its data cells
    /// ([`Vm::frozen_data`]): its mutable cells are mutable here too, and its frozen cells
    /// are frozen here when they hold the same value, below this VM's bound. False when one
    /// does not (it is then known to be mutable): the traces made in that VM may assume
    /// its value, and cannot serve here.
    pub fn adopt_frozen(&mut self, cells: &FrozenCells) -> bool {
        self.frozen.add_mutable(&cells.mutable);
        let mut all = true;
        for &(c, v) in &cells.frozen {
            let a = c.wrapping_mul(CELL);
            if self.frozen.may_freeze(a) && self.raw_cell(a).ok() == Some(v) {
                self.freeze_cell(a);
            } else {
                self.mark_mutable(a, CELL);
                all = false;
            }
        }
        all
    }

    /// The cell at `a`, noted as read when `T` (the inner interpreter of a traced run).
    #[inline(always)]
    pub(super) fn rd<const T: bool>(&mut self, a: u32) -> FResult<i32> {
        let v = self.raw_cell(a)?;
        if T {
            self.traced_cell_read(a, v);
        }
        Ok(v)
    }

    /// The cell at `a` read as code: when `T`, marked as code ([`Vm::code_epoch`]).
    #[inline(always)]
    pub(super) fn code_rd<const T: bool>(&mut self, a: u32) -> FResult<i32> {
        let v = self.raw_cell(a)?;
        if T && !self.is_code(a) {
            self.mark_code(a);
        }
        Ok(v)
    }

    /// Whether the cell at `a` (aligned) is marked as code.
    #[inline(always)]
    fn is_code(&self, a: u32) -> bool {
        let c = a / CELL;
        a % CELL == 0
            && self
                .code_bits
                .get((c / 64) as usize)
                .is_some_and(|bits| bits & (1 << (c % 64)) != 0)
    }

    /// Marks the cells of the four bytes at `a` as code.
    #[cold]
    #[inline(never)]
    fn mark_code(&mut self, a: u32) {
        if a.saturating_add(CELL) > self.trace.area {
            // Code in the memory the run compiles into: not code that stays.
            self.trace.taint("running code the run compiles into");
            return;
        }
        for c in [a / CELL, a.div_ceil(CELL)] {
            set_bit(&mut self.code_bits, c);
            set_bit(&mut self.watch_bits, c);
        }
    }

    /// The cells marked as code ([`Vm::code_epoch`]), by cell number (address / 4), each
    /// with its value: what traces made in this VM take as fixed. Another VM of the same
    /// program can take them over ([`Vm::adopt_code`]).
    pub fn code_cells(&self) -> Vec<(u32, i32)> {
        let mut out = Vec::new();
        for (i, &word) in self.code_bits.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let c = i as u32 * 64 + bits.trailing_zeros();
                bits &= bits - 1;
                if self.frozen.is_frozen(c) {
                    continue; // (data: [`Vm::frozen_data`])
                }
                if let Ok(v) = self.raw_cell(c.wrapping_mul(CELL)) {
                    out.push((c, v));
                }
            }
        }
        out
    }

    /// Marks `cells` ([`Vm::code_cells`] of another VM) as code here, when each holds the
    /// value given: from then on a write to one of them changes [`Vm::code_epoch`], as it
    /// would in the VM they come from. Answers false, and marks nothing, when one differs
    /// (that VM's code is not this one's).
    pub fn adopt_code(&mut self, cells: &[(u32, i32)]) -> bool {
        if cells
            .iter()
            .any(|&(c, v)| self.raw_cell(c.wrapping_mul(CELL)).ok() != Some(v))
        {
            return false;
        }
        for &(c, _) in cells {
            set_bit(&mut self.code_bits, c);
            set_bit(&mut self.watch_bits, c);
        }
        true
    }

    /// Notes a write of `len` bytes at `a` against the watched cells (code, and the cells
    /// the dictionary index depends on).
    #[inline(always)]
    fn note_watched_write(&mut self, a: u32, len: u32) {
        let c = a / CELL;
        if len == CELL && a % CELL == 0 {
            // One aligned cell: the common case (variables, the board), one bit test.
            if let Some(bits) = self.watch_bits.get((c / 64) as usize) {
                if bits & (1 << (c % 64)) != 0 {
                    self.watched_write(a, len);
                }
            }
            return;
        }
        let hi = self.watch_bits.len() as u64 * 64 * CELL as u64;
        if (a as u64) < hi && len > 0 {
            self.watched_write(a, len);
        }
    }

    /// Notes a store of `v` in the cell at `a` (in memory) against the watched cells, as
    /// [`Vm::note_watched_write`] does; storing a cell's own value changes nothing a
    /// watcher could see, and is not noted (compared only for watched cells).
    #[inline(always)]
    pub(super) fn note_cell_write(&mut self, a: u32, v: i32) {
        let c = a / CELL;
        let watched = if a % CELL == 0 {
            self.watch_bits
                .get((c / 64) as usize)
                .is_some_and(|bits| bits & (1 << (c % 64)) != 0)
        } else {
            (a as u64) < self.watch_bits.len() as u64 * 64 * CELL as u64
        };
        if watched && self.raw_cell(a).ok() != Some(v) {
            self.watched_write(a, 4);
        }
    }

    /// A write that may touch a watched cell: code changes [`Vm::code_epoch`], the
    /// dictionary's chain the dictionary epoch ([`crate::forth::dict`]).
    #[cold]
    #[inline(never)]
    pub(super) fn watched_write(&mut self, a: u32, len: u32) {
        if any_bit(&self.code_bits, a, len) {
            self.code_epoch += 1;
            // (A frozen cell that changes is data again: [`Vm::thaw`].)
            if self.frozen.any_frozen(a, len) {
                let last = a.saturating_add(len - 1) / CELL;
                for c in a / CELL..=last {
                    self.thaw(c);
                }
            }
        }
        if any_bit(&self.dict_bits, a, len) {
            self.dict_epoch += 1;
        }
        if self.journal.watching() {
            self.journal.note(a, len);
        }
    }

    /// Whether a write of `len` bytes at `a` may touch a watched cell (a cell a trace
    /// read, or code): such a write is journaled (see the `journal` module).
    pub fn watches(&self, a: u32, len: u32) -> bool {
        any_bit(&self.watch_bits, a, len)
    }

    /// Watches the cells of the bytes `a .. a + len` for writes (see the module documentation, "Watched data").
    pub fn watch_data(&mut self, a: u32, len: u32) {
        set_bits(&mut self.journal.bits, a, len);
        set_bits(&mut self.watch_bits, a, len);
    }

    /// Moves the numbers (address / 4) of the watched cells written since the last drain
    /// into `out`, possibly with repeats; false when there were too many to list: any
    /// watched cell may have changed.
    pub fn drain_written(&mut self, out: &mut Vec<u32>) -> bool {
        self.journal.drain_into(out)
    }

    /// Whether a watched cell was written since the last drain.
    #[inline]
    pub fn any_written(&self) -> bool {
        !self.journal.is_empty()
    }

    /// Stops watching data cells, and forgets the writes noted.
    pub fn unwatch_data(&mut self) {
        if self.journal.watching() {
            self.journal.reset();
            self.rebuild_watch_bits();
        }
    }

    /// `watch_bits` from the three sets it is made of.
    pub(super) fn rebuild_watch_bits(&mut self) {
        self.watch_bits.clone_from(&self.code_bits);
        for bits in [&self.dict_bits, &self.journal.bits] {
            if self.watch_bits.len() < bits.len() {
                self.watch_bits.resize(bits.len(), 0);
            }
            for (w, d) in self.watch_bits.iter_mut().zip(bits) {
                *w |= d;
            }
        }
    }

    /// Changes whenever a cell that traced runs read as code is written.
    pub fn code_epoch(&self) -> u64 {
        self.code_epoch
    }

    /// A read through `&self` in a traced run: unless a replayable host word runs (its
    /// reads are its own), the trace cannot be trusted.
    #[cold]
    pub(super) fn unnoted_read(&self) {
        if !self.trace.in_native {
            self.unnoted.0.store(true, Ordering::Relaxed);
        }
    }

    /// Notes the call of host word `id` in a traced run (see [`NativeClass`]).
    #[cold]
    pub(super) fn trace_native(&mut self, id: u32, host: &dyn Host) {
        let t = &mut self.trace;
        match host.native_class(id) {
            NativeClass::Pure => {}
            NativeClass::Replay(n) => {
                let n = n as usize;
                match self.ds.len().checked_sub(n) {
                    Some(at) if n <= MAX_REPLAY_ARGS => {
                        t.native(id, &self.ds[at..]);
                        t.in_native = true;
                    }
                    _ => t.taint("a host word without its arguments"),
                }
            }
            NativeClass::Opaque => t.taint("a host word that cannot be replayed"),
        }
    }
}

/// The flag [`Vm::cell`] and the other `&self` readers raise in a traced run (an atomic,
/// so that a VM can be shared between threads).
#[derive(Debug, Default)]
pub(super) struct UnnotedRead(AtomicBool);

impl Clone for UnnotedRead {
    fn clone(&self) -> Self {
        UnnotedRead(AtomicBool::new(self.0.load(Ordering::Relaxed)))
    }
}

/// Whether a traced run may run primitive `code` (those that only compute, move the
/// stacks and read or write cells).
pub(super) fn replayable_primitive(code: i32) -> bool {
    !matches!(
        code,
        p::COLON
            | p::SEMI
            | p::IMMEDIATE
            | p::LBRACKET
            | p::RBRACKET
            | p::BUILDS
            | p::DOESC
            | p::CREATE
            | p::HEADER
            | p::WORD
            | p::MFIND
            | p::NUMBERSTR
            | p::LOAD
            | p::UNDEFINED
            | p::ERROR
            | p::ABORT
            | p::EMIT
            | p::TYPE
            | p::DOT
            | p::UDOT
            | p::FDOT
            | p::SCOUNT
            | p::SMOVE
            | p::CMOVE
            | p::FILL
            | p::CCOMMA
            | p::UNDEF
    )
}

//! The data and return stacks, and the step budget that primitives and host words count
//! against.

use super::memory::nul_position;
use super::{BYTES_PER_STEP, Vm};
use crate::forth::error::{FResult, ForthError, ForthErrorKind as K};

impl Vm {
    // ----- stacks -----

    /// Pushes a cell on the data stack.
    #[inline(always)]
    pub fn push(&mut self, v: i32) -> FResult<()> {
        if self.ds.len() >= self.limits.data_stack {
            return Err(K::StackOverflow.into());
        }
        self.ds.push(v);
        Ok(())
    }

    /// Pops a cell from the data stack.
    #[inline(always)]
    pub fn pop(&mut self) -> FResult<i32> {
        match self.ds.pop() {
            Some(v) => Ok(v),
            None => Err(ForthError::new(K::StackUnderflow)),
        }
    }

    /// Pops a boolean (non-zero is true).
    pub fn pop_flag(&mut self) -> FResult<bool> {
        Ok(self.pop()? != 0)
    }

    /// Pushes a Forth flag (true is -1).
    pub fn push_flag(&mut self, b: bool) -> FResult<()> {
        self.push(if b { -1 } else { 0 })
    }

    /// The data stack, bottom first.
    pub fn stack(&self) -> &[i32] {
        &self.ds
    }

    /// Whether the bottom `depth` cells of the data stack are `cells` (false when the
    /// stack is shallower). The caches ask it once or twice a ply, almost always of an
    /// empty stack: that case is answered without calling the library's `memcmp`, whose
    /// AVX-512 version compares zero bytes by a masked load at the empty slice's dangling
    /// address. On an AMD EPYC (Zen 5) such a load took hundreds of cycles (a fault
    /// suppressed by microcode, by all signs): 6% of a published Ur match's time.
    pub fn stack_is(&self, depth: usize, cells: &[i32]) -> bool {
        depth == cells.len() && self.ds.len() >= depth && (depth == 0 || self.ds[..depth] == *cells)
    }

    /// Cuts the data stack down to `depth` items (no effect when it is shorter).
    pub fn ds_truncate(&mut self, depth: usize) {
        self.ds.truncate(depth);
    }

    /// Brings the data stack to exactly `depth` items: cut down, or filled up with zeros
    /// when the code that ran took more than it was given (see [`Vm::push_cushion`]).
    pub fn ds_restore(&mut self, depth: usize) {
        self.ds.resize(depth.min(self.limits.data_stack), 0);
    }

    /// Pushes `n` zero cells (as far as the stack's limit allows): a cushion under code
    /// that may take more than it is given, as Axiom's unchecked stack allows.
    pub fn push_cushion(&mut self, n: usize) {
        let room = self.limits.data_stack.saturating_sub(self.ds.len());
        let new_len = self.ds.len() + n.min(room);
        self.ds.resize(new_len, 0);
    }

    /// Empties both stacks.
    pub fn clear_stacks(&mut self) {
        self.ds.clear();
        self.rs.clear();
        self.rs_floor = 0;
    }

    #[inline(always)]
    pub(super) fn rpush(&mut self, v: i32) -> FResult<()> {
        if self.rs.len() >= self.limits.return_stack {
            return Err(K::ReturnStack.into());
        }
        self.rs.push(v);
        Ok(())
    }

    #[inline(always)]
    pub(super) fn rpop(&mut self) -> FResult<i32> {
        if self.rs.len() <= self.rs_floor {
            return Err(K::ReturnStack.into());
        }
        self.rs.pop().ok_or_else(|| ForthError::new(K::ReturnStack))
    }

    #[inline(always)]
    pub(super) fn rpeek(&self, depth: usize) -> FResult<i32> {
        let n = self.rs.len();
        if n < self.rs_floor + depth + 1 {
            return Err(K::ReturnStack.into());
        }
        Ok(self.rs[n - 1 - depth])
    }

    // ----- step budget -----

    /// Allows `n` more primitives before [`ForthErrorKind::StepBudget`].
    ///
    /// [`ForthErrorKind::StepBudget`]: crate::forth::error::ForthErrorKind::StepBudget
    pub fn set_step_budget(&mut self, n: u64) {
        self.steps = 0;
        self.step_limit = n;
    }

    /// The step count and its limit, for a host word that runs nested work under a budget
    /// of its own and then puts the caller's back ([`Vm::set_budget_state`]).
    pub fn budget_state(&self) -> (u64, u64) {
        (self.steps, self.step_limit)
    }

    /// Puts back a budget saved by [`Vm::budget_state`], with `used` more steps counted;
    /// fails when that exceeds the limit.
    pub fn set_budget_state(&mut self, (steps, limit): (u64, u64), used: u64) -> FResult<()> {
        self.steps = steps.saturating_add(used);
        self.step_limit = limit;
        if self.steps > limit {
            return Err(K::StepBudget(limit).into());
        }
        Ok(())
    }

    /// Primitives run since the budget was set.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Counts `n` more steps; fails with [`ForthErrorKind::StepBudget`] when that exceeds
    /// the budget (a host word's own work, counted before or as it is done).
    ///
    /// [`ForthErrorKind::StepBudget`]: crate::forth::error::ForthErrorKind::StepBudget
    #[inline]
    pub fn charge_steps(&mut self, n: u64) -> FResult<()> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.step_limit {
            return Err(K::StepBudget(self.step_limit).into());
        }
        Ok(())
    }

    /// Counts bulk work of `bytes` bytes: one step per [`BYTES_PER_STEP`].
    #[inline]
    pub fn charge_bytes(&mut self, bytes: u64) -> FResult<()> {
        match bytes / BYTES_PER_STEP {
            0 => Ok(()),
            n => self.charge_steps(n),
        }
    }

    /// [`Vm::cstr`], its scan charged ([`Vm::charge_bytes`]): the bytes up to the NUL, or
    /// to the end of the memory when there is none.
    pub fn charged_cstr(&mut self, a: u32) -> FResult<&[u8]> {
        let i = a as usize;
        let (scanned, len) = match self.mem.get(i..) {
            Some(rest) => match nul_position(rest) {
                Some(n) => (n + 1, Some(n)),
                None => (rest.len(), None),
            },
            None => (0, None),
        };
        self.charge_bytes(scanned as u64)?;
        match len.and_then(|n| self.mem.get(i..i + n)) {
            Some(s) => {
                self.note_string_read();
                Ok(s)
            }
            // (The error `cstr` gives.)
            None => self.cstr(a),
        }
    }
}

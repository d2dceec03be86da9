//! The write journal: which watched data cells were written since a host last looked.
//!
//! A host that keeps results computed from memory (the move-word cache,
//! `crate::axiom::memo`) watches the cells those results read ([`Vm::watch_data`]), and
//! the VM notes here every write that may change one of them. Draining the journal then
//! names every watched cell whose value may differ from when it was last drained: a cell
//! that is not named has not been written with another value. The journal errs on the
//! side of naming: a write of a cell's own value is left out only where the writer
//! compares (one-cell stores and [`Vm::write_bytes`]); other wide writes (`CMOVE`, `FILL`,
//! compiling) name every watched cell they touch. When more cells are written than the
//! journal holds between two drains, it overflows and then names every cell.
//!
//! [`Vm::watch_data`]: super::Vm::watch_data
//! [`Vm::write_bytes`]: super::Vm::write_bytes

use super::vm::CELL;

/// Cells the journal holds between two drains before it overflows.
const CAPACITY: usize = 4096;

/// The watched data cells and the writes to them (see the module documentation).
#[derive(Clone, Debug, Default)]
pub(crate) struct Journal {
    /// One bit per cell: the cell is watched.
    pub(crate) bits: Vec<u64>,
    /// Cell numbers (address / 4) written since the last drain, in order, with repeats.
    cells: Vec<u32>,
    /// More were written than `cells` holds: every cell counts as written.
    overflow: bool,
}

impl Journal {
    /// Whether any cell is watched.
    #[inline]
    pub(crate) fn watching(&self) -> bool {
        !self.bits.is_empty()
    }

    /// Notes a write of the bytes `a .. a + len`: every watched cell among them.
    pub(crate) fn note(&mut self, a: u32, len: u32) {
        if len == 0 || self.overflow {
            return;
        }
        let last = a.saturating_add(len - 1) / CELL;
        for c in a / CELL..=last {
            let Some(w) = self.bits.get((c / 64) as usize) else {
                return;
            };
            if w & (1 << (c % 64)) != 0 {
                if self.cells.len() >= CAPACITY {
                    self.overflow = true;
                    self.cells.clear();
                    return;
                }
                self.cells.push(c);
            }
        }
    }

    /// Moves the cells noted since the last drain into `out` (numbers: address / 4,
    /// possibly with repeats); false when the journal overflowed: every watched cell may
    /// have changed. The journal is then empty.
    pub(crate) fn drain_into(&mut self, out: &mut Vec<u32>) -> bool {
        if std::mem::take(&mut self.overflow) {
            self.cells.clear();
            return false;
        }
        out.append(&mut self.cells);
        true
    }

    /// Whether writes were noted since the last drain.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.cells.is_empty() && !self.overflow
    }

    /// Watches nothing any more, and forgets the noted writes.
    pub(crate) fn reset(&mut self) {
        self.bits.clear();
        self.cells.clear();
        self.overflow = false;
    }
}

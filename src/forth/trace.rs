//! Tracing one run of a word, so that a host can replay it instead of running it again.
//!
//! While [`Vm::execute_traced`](super::vm::Vm::execute_traced) runs, the VM notes every memory read the Forth code makes
//! (instruction cells included) with the value read, every cell it writes, and every host
//! word it calls that the host declares [`NativeClass::Replay`] (a word that leaves nothing
//! on the stack and whose effect the host redoes from its arguments and the live memory).
//! Anything else that changes state outside the data stack taints the trace: byte stores,
//! compiling, text input and output, writes at or above the trace's `area` (the memory
//! the run compiles into), reads of cells a host word wrote, and host words of class
//! [`NativeClass::Opaque`].
//!
//! An untainted trace is exact: run again from a memory in which every noted read gives
//! the same value, with the same data stack below it, the code takes the same path, so
//! applying the [`Event`]s in order (writes, and calls of the same host words with the
//! same arguments) has the effect running it would have. The move generator uses this to
//! skip move words whose inputs did not change (`crate::axiom::memo`).

use super::vm::{A_DP, CELL};

/// How a traced run may treat a host word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NativeClass {
    /// Reads VM memory (through the VM's accessors, so the reads are noted) and the
    /// host's immutable data, changes nothing, and may push results.
    Pure,
    /// Takes this many cells, leaves nothing, and has an effect that calling it again
    /// with the same arguments on the same memory reproduces. Its own reads are not noted
    /// (it is called again at replay); its writes make later reads of them taint the trace.
    Replay(u8),
    /// Anything else: calling it taints the trace.
    Opaque,
}

/// Most arguments a [`NativeClass::Replay`] word may take.
pub const MAX_REPLAY_ARGS: usize = 4;

/// Most reads and events a trace keeps before it gives up (a word that reads more is not
/// worth replaying).
pub const MAX_TRACE_READS: usize = 512;
pub const MAX_TRACE_EVENTS: usize = 64;

/// A memory read: the address, the width in bytes (4 or 1), and the value read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Read {
    pub addr: u32,
    pub width: u8,
    pub value: i32,
}

/// An effect of the traced run, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// The code stored `value` in the cell at `addr`.
    Write { addr: u32, value: i32 },
    /// The code called host word `id` with `args[..n]` on top of the stack (deepest
    /// first).
    Native {
        id: u32,
        args: [i32; MAX_REPLAY_ARGS],
        n: u8,
    },
}

/// What a traced run did (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub reads: Vec<Read>,
    pub events: Vec<Event>,
    /// Why the trace cannot be replayed, if it cannot.
    pub tainted: Option<&'static str>,
    /// Primitives the run counted.
    pub steps: u64,
    /// Writes at or above this address taint the trace.
    pub(crate) area: u32,
    /// A [`NativeClass::Replay`] word is running.
    pub(crate) in_native: bool,
    /// Cells the Forth code wrote (reads of them are its own business).
    written: Vec<u32>,
    /// Byte ranges replayable host words wrote below `area`.
    native_written: Vec<(u32, u32)>,
    /// Bit `c % 64` set for every cell `c` in `written` (most reads are of other cells,
    /// and skip the search: [`cell_bits`]).
    written_bits: u64,
    /// The same for the cells of `native_written`.
    native_bits: u64,
}

/// The bits of a filter that the cells of the bytes `addr..end` set: bit
/// `c % 64` for each cell `c`, every bit for a range of 64 cells or more.
#[inline(always)]
fn cell_bits(addr: u32, end: u32) -> u64 {
    if end <= addr {
        return 0;
    }
    let (first, last) = (addr / CELL, (end - 1) / CELL);
    if last - first >= 63 {
        return u64::MAX;
    }
    let run = (1u64 << (last - first + 1)) - 1;
    run.rotate_left(first % 64)
}

impl Trace {
    /// Starts a trace of a run whose compiled output goes at or above `area`.
    pub(crate) fn start(&mut self, area: u32) {
        self.reads.clear();
        self.events.clear();
        self.written.clear();
        self.native_written.clear();
        self.written_bits = 0;
        self.native_bits = 0;
        self.tainted = None;
        self.steps = 0;
        self.area = area;
        self.in_native = false;
    }

    pub(crate) fn taint(&mut self, why: &'static str) {
        if self.tainted.is_none() {
            self.tainted = Some(why);
        }
    }

    /// Notes a read of `width` bytes at `addr` that gave `value`. When `frozen` (the VM may
    /// take the cell as fixed: `super::frozen`), a read that would be noted is not, and
    /// the answer is true: the VM then marks the cell as code.
    pub(crate) fn read(&mut self, addr: u32, width: u8, value: i32, frozen: bool) -> bool {
        if self.in_native || self.tainted.is_some() {
            return false;
        }
        let end = addr.saturating_add(width as u32);
        if end > self.area {
            self.taint("a read of the memory the run compiles into");
            return false;
        }
        if addr < A_DP + CELL && A_DP < end {
            // Opening a move's record moves it: a replay is checked before that.
            self.taint("a read of the dictionary pointer");
            return false;
        }
        let bits = cell_bits(addr, end);
        if self.native_bits & bits != 0
            && self
                .native_written
                .iter()
                .any(|&(a, e)| addr < e && a < end)
        {
            self.taint("a read of memory a host word wrote");
            return false;
        }
        if self.written_bits & bits != 0 {
            for &w in &self.written {
                if w == addr && width == 4 {
                    return false; // its own value
                }
                if addr < w + 4 && w < end {
                    self.taint("a read that overlaps a cell the run wrote");
                    return false;
                }
            }
        }
        if frozen {
            return true;
        }
        if self.reads.len() >= MAX_TRACE_READS {
            self.taint("too many reads");
            return false;
        }
        self.reads.push(Read { addr, width, value });
        false
    }

    /// Notes a write of `len` bytes at `addr`; `cell` is the value when it is one cell.
    pub(crate) fn write(&mut self, addr: u32, len: u32, cell: Option<i32>) {
        if self.tainted.is_some() {
            return;
        }
        let end = addr.saturating_add(len);
        if self.in_native {
            let end = end.min(self.area);
            if addr < end {
                self.native_written.push((addr, end));
                self.native_bits |= cell_bits(addr, end);
            }
            return;
        }
        if end > self.area {
            return self.taint("a write to the memory the run compiles into");
        }
        let Some(value) = cell.filter(|_| len == 4) else {
            return self.taint("a write of other than one cell");
        };
        if self.events.len() >= MAX_TRACE_EVENTS {
            return self.taint("too many effects");
        }
        if !self.written.contains(&addr) {
            self.written.push(addr);
            self.written_bits |= cell_bits(addr, end);
        }
        self.events.push(Event::Write { addr, value });
    }

    /// Notes a call of a replayable host word with `args` on top of the stack.
    pub(crate) fn native(&mut self, id: u32, args: &[i32]) {
        if self.tainted.is_some() {
            return;
        }
        if self.events.len() >= MAX_TRACE_EVENTS {
            return self.taint("too many effects");
        }
        let mut a = [0; MAX_REPLAY_ARGS];
        a[..args.len()].copy_from_slice(args);
        self.events.push(Event::Native {
            id,
            args: a,
            n: args.len() as u8,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::cell_bits;

    #[test]
    fn cell_bits_sets_one_bit_per_cell_modulo_64() {
        assert_eq!(cell_bits(0, 4), 1);
        assert_eq!(cell_bits(4, 8), 2);
        assert_eq!(cell_bits(5, 6), 2);
        assert_eq!(cell_bits(2, 6), 0b11);
        assert_eq!(cell_bits(256 + 4, 256 + 8), 2);
        assert_eq!(cell_bits(252, 260), 1 << 63 | 1);
        assert_eq!(cell_bits(0, 252), u64::MAX >> 1);
        assert_eq!(cell_bits(0, 256), u64::MAX);
        assert_eq!(cell_bits(8, 8 + 4096), u64::MAX);
        assert_eq!(cell_bits(8, 8), 0);
    }
}

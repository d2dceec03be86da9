//! Memory: cells and bytes with their bounds checks, strings, `HERE`, allocation and
//! compiling cells, and the system variables read from memory (`STATE`, `BASE`).

use super::{A_BASE, A_DP, A_STATE, CELL, Vm, any_bit};
use crate::forth::error::{FResult, ForthError, ForthErrorKind as K};

impl Vm {
    // ----- memory -----

    /// Writes a cell during set-up (addresses known to be valid).
    pub(super) fn poke(&mut self, a: u32, v: i32) {
        self.note_write(a, 4, Some(v));
        let a = a as usize;
        if let Some(b) = self.mem.range_mut(a..a + 4) {
            b.copy_from_slice(&v.to_le_bytes());
        }
    }

    /// The cell at `a`.
    #[inline(always)]
    pub fn cell(&self, a: u32) -> FResult<i32> {
        if self.tracing {
            self.unnoted_read();
        }
        self.raw_cell(a)
    }

    /// The cell at `a`, noted as read in a traced run: the reader of primitives and of the
    /// host words that declare themselves [`NativeClass::Pure`].
    ///
    /// [`NativeClass::Pure`]: crate::forth::trace::NativeClass::Pure
    #[inline(always)]
    pub fn read_cell(&mut self, a: u32) -> FResult<i32> {
        let v = self.raw_cell(a)?;
        if self.tracing {
            self.traced_cell_read(a, v);
        }
        Ok(v)
    }

    /// The cell at `a`, never noted.
    #[inline(always)]
    pub(super) fn raw_cell(&self, a: u32) -> FResult<i32> {
        let i = a as usize;
        // One bounds check and one 32-bit load (indexing the slice byte by byte made the
        // compiler assemble the cell from four loads on the interpreter's hot path).
        match self
            .mem
            .get(i..i + 4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
        {
            Some(b) => Ok(i32::from_le_bytes(b)),
            None => Err(K::Memory(a as i64).into()),
        }
    }

    /// Stores a cell at `a`.
    #[inline(always)]
    pub fn set_cell(&mut self, a: u32, v: i32) -> FResult<()> {
        let i = a as usize;
        if i + 4 <= self.mem.len() {
            if self.tracing {
                self.trace.write(a, 4, Some(v));
                // A cell a traced run writes is not one to freeze (a frozen one is thawed
                // below, if the write changes it).
                if self.frozen.below != 0 && !self.frozen.is_frozen(a / CELL) {
                    self.frozen.learn_mutable(a / CELL);
                }
            }
            self.note_cell_write(a, v);
        }
        match self.mem.range_mut(i..i + 4) {
            Some(b) => {
                b.copy_from_slice(&v.to_le_bytes());
                Ok(())
            }
            None => Err(K::Memory(a as i64).into()),
        }
    }

    /// The byte at `a`.
    pub fn byte(&self, a: u32) -> FResult<u8> {
        if self.tracing {
            self.unnoted_read();
        }
        self.mem
            .get(a as usize)
            .copied()
            .ok_or_else(|| K::Memory(a as i64).into())
    }

    /// The byte at `a`, noted as read in a traced run.
    pub fn read_byte(&mut self, a: u32) -> FResult<u8> {
        let v = self
            .mem
            .get(a as usize)
            .copied()
            .ok_or_else(|| ForthError::new(K::Memory(a as i64)))?;
        if self.tracing {
            self.trace.read(a, 1, v as i32, false);
        }
        Ok(v)
    }

    /// Stores a byte at `a`.
    pub fn set_byte(&mut self, a: u32, v: u8) -> FResult<()> {
        self.note_write(a, 1, None);
        match self.mem.byte_mut(a as usize) {
            Some(b) => {
                *b = v;
                Ok(())
            }
            None => Err(K::Memory(a as i64).into()),
        }
    }

    /// `len` bytes at `a`.
    pub fn bytes(&self, a: u32, len: u32) -> FResult<&[u8]> {
        self.note_string_read();
        let i = a as usize;
        self.mem
            .get(i..i + len as usize)
            .ok_or_else(|| K::Memory(a as i64).into())
    }

    /// The NUL-terminated string at `a` (without the NUL).
    pub fn cstr(&self, a: u32) -> FResult<&[u8]> {
        self.note_string_read();
        let rest = self
            .mem
            .get(a as usize..)
            .ok_or_else(|| ForthError::new(K::Memory(a as i64)))?;
        match nul_position(rest) {
            Some(n) => Ok(&rest[..n]),
            None => Err(K::Memory(self.mem.len() as i64).into()),
        }
    }

    /// The NUL-terminated string at `a`, as text.
    pub fn cstring(&self, a: u32) -> String {
        self.cstr(a)
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default()
    }

    /// Writes `s` and a NUL at `a`.
    pub fn write_cstr(&mut self, a: u32, s: &[u8]) -> FResult<()> {
        self.note_write(a, s.len() as u32 + 1, None);
        let i = a as usize;
        let dst = self
            .mem
            .range_mut(i..i + s.len() + 1)
            .ok_or_else(|| ForthError::new(K::Memory(a as i64)))?;
        dst[..s.len()].copy_from_slice(s);
        dst[s.len()] = 0;
        Ok(())
    }

    /// Writes `b` at `a`.
    pub fn write_bytes(&mut self, a: u32, b: &[u8]) -> FResult<()> {
        let i = a as usize;
        if self.mem.get(i..i + b.len()).is_none() {
            self.note_write(a, b.len() as u32, None);
            return Err(K::Memory(a as i64).into());
        }
        if self.tracing {
            self.trace.write(a, b.len() as u32, None);
        }
        // Only the cells whose bytes change are written, as far as watchers can see
        // (restoring a snapshot rewrites the whole board, mostly with its own values).
        if any_bit(&self.watch_bits, a, b.len() as u32) && self.mem[i..i + b.len()] != *b {
            let first = a / CELL;
            let last = (a + b.len() as u32 - 1) / CELL;
            for c in first..=last {
                // Unwatched cells (most of a copy) are not compared.
                let watched = self
                    .watch_bits
                    .get((c / 64) as usize)
                    .is_some_and(|bits| bits & (1 << (c % 64)) != 0);
                if !watched {
                    continue;
                }
                let lo = (c * CELL).max(a);
                let hi = ((c + 1) * CELL).min(a + b.len() as u32);
                let (o, n) = ((lo - a) as usize, (hi - a) as usize);
                if self.mem[i + o..i + n] != b[o..n] {
                    self.watched_write(lo, hi - lo);
                }
            }
        }
        if let Some(d) = self.mem.range_mut(i..i + b.len()) {
            d.copy_from_slice(b);
        }
        Ok(())
    }

    /// Writes `times` copies of the `size` bytes at `src` one after the other from `dst`,
    /// then lets `place` change copy `i` (its bytes) as it must differ: what writing the
    /// copies, each placed, with [`Vm::write_bytes`] does, with the bytes copied in place
    /// (a run of a move's records, `crate::axiom`'s copies of a pass). Returns false, having
    /// written nothing, when it cannot do so that way: a trace runs, a watched cell is in
    /// the way, or the ranges overlap or leave the memory (the caller then writes them
    /// with [`Vm::write_bytes`], which sees to all that).
    pub fn write_copies(
        &mut self,
        (src, size): (u32, u32),
        dst: u32,
        times: u32,
        mut place: impl FnMut(u32, &mut [u8]),
    ) -> bool {
        let Some(total) = size.checked_mul(times).filter(|&t| t > 0) else {
            return false;
        };
        let (s, d, n, t) = (src as usize, dst as usize, size as usize, total as usize);
        let fits = s.checked_add(n).is_some_and(|e| e <= d)
            && d.checked_add(t).is_some_and(|e| e <= self.mem.len());
        if !fits || self.tracing || any_bit(&self.watch_bits, dst, total) {
            return false;
        }
        let Some(m) = self.mem.range_mut(s..d + t) else {
            return false;
        };
        let d = d - s;
        m.copy_within(0..n, d);
        // Each pass copies what is done so far: the run doubles.
        let mut done = n;
        while done < t {
            let more = done.min(t - done);
            m.copy_within(d..d + more, d + done);
            done += more;
        }
        for (i, copy) in m[d..d + t].chunks_exact_mut(n).enumerate() {
            place(i as u32, copy);
        }
        true
    }

    /// The dictionary pointer (`HERE`).
    #[inline]
    pub fn here(&self) -> u32 {
        self.cell(A_DP).unwrap_or(0) as u32
    }

    /// The size of the memory, in bytes.
    #[inline]
    pub fn mem_len(&self) -> u32 {
        self.mem.len() as u32
    }

    /// Bytes free above `HERE`.
    #[inline]
    pub fn room(&self) -> u32 {
        (self.mem.len() as u32).saturating_sub(self.here())
    }

    /// Sets the dictionary pointer.
    #[inline]
    pub fn set_here(&mut self, a: u32) -> FResult<()> {
        if a as usize > self.mem.len() {
            return Err(K::DictionaryFull.into());
        }
        self.set_cell(A_DP, a as i32)
    }

    /// Reserves `n` bytes at `HERE`.
    pub fn allot(&mut self, n: u32) -> FResult<u32> {
        let h = self.here();
        let end = h
            .checked_add(n)
            .ok_or_else(|| ForthError::new(K::DictionaryFull))?;
        if end as usize > self.mem.len() {
            return Err(K::DictionaryFull.into());
        }
        self.set_cell(A_DP, end as i32)?;
        Ok(h)
    }

    /// Compiles `cells` at `HERE` (as many `,`s, with one bounds check and one update of
    /// the dictionary pointer); returns the address of the first.
    #[inline]
    pub fn comma_cells(&mut self, cells: &[i32]) -> FResult<u32> {
        let h = self.here();
        let end = (h as usize).saturating_add(cells.len() * CELL as usize);
        self.note_write(h, (end as u32).wrapping_sub(h), None);
        let Some(dst) = self.mem.range_mut(h as usize..end) else {
            return Err(K::DictionaryFull.into());
        };
        for (d, v) in dst.chunks_exact_mut(CELL as usize).zip(cells) {
            d.copy_from_slice(&v.to_le_bytes());
        }
        self.set_cell(A_DP, end as i32)?;
        Ok(h)
    }

    /// Reserves `n` bytes at `HERE`, zeroed (one bounds check and one update of the
    /// dictionary pointer); returns their address.
    #[inline]
    pub fn allot_zeroed(&mut self, n: u32) -> FResult<u32> {
        let h = self.here();
        let end = (h as usize).saturating_add(n as usize);
        self.note_write(h, n, None);
        let Some(dst) = self.mem.range_mut(h as usize..end) else {
            return Err(K::DictionaryFull.into());
        };
        dst.fill(0);
        self.set_cell(A_DP, end as i32)?;
        Ok(h)
    }

    /// Compiles a cell at `HERE` (`,`).
    #[inline(always)]
    pub fn comma(&mut self, v: i32) -> FResult<()> {
        let h = self.here();
        if h as usize + 4 > self.mem.len() {
            return Err(K::DictionaryFull.into());
        }
        self.set_cell(h, v)?;
        self.set_cell(A_DP, (h + 4) as i32)
    }

    pub(super) fn align_here(&mut self) -> FResult<()> {
        let h = self.here();
        let a = h.div_ceil(CELL) * CELL;
        self.set_here(a)
    }

    /// `STATE`: true while compiling.
    pub fn compiling(&self) -> bool {
        self.cell(A_STATE).unwrap_or(0) != 0
    }

    pub(crate) fn set_state(&mut self, on: bool) {
        let _ = self.set_cell(A_STATE, if on { 1 } else { 0 });
    }

    /// `BASE`.
    pub fn base(&self) -> u32 {
        let b = self.cell(A_BASE).unwrap_or(10);
        if (2..=36).contains(&b) { b as u32 } else { 10 }
    }
}

/// Where the first NUL of `b` is. Eight bytes at a time: a program may scan megabytes (a
/// string without its end, `"COUNT` in a loop), and the scan is what the step budget
/// charges by the byte ([`BYTES_PER_STEP`]), so it must be about as fast as a copy.
///
/// [`BYTES_PER_STEP`]: super::BYTES_PER_STEP
#[inline]
pub(super) fn nul_position(b: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().unwrap_or([1; 8]));
        // (A word has a zero byte iff this is non-zero.)
        if w.wrapping_sub(LO) & !w & HI != 0 {
            return c.iter().position(|&x| x == 0).map(|n| at + n);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&x| x == 0)
        .map(|n| at + n)
}

#[cfg(test)]
mod bit_tests {
    use super::*;

    /// `write_copies` leaves what writing each placed copy leaves, for runs of every length
    /// up to past a doubling; it writes nothing where it cannot (a watched cell in the way,
    /// overlapping or outside ranges, a trace running).
    #[test]
    fn write_copies_is_each_copy_written() {
        let mut vm = Vm::new(crate::forth::Limits::default());
        let src = vm.here() + 64;
        let size = 12u32;
        let pattern: Vec<u8> = (0..size as u8).map(|b| b.wrapping_mul(13) ^ 0x3c).collect();
        vm.write_bytes(src, &pattern).unwrap();
        let dst = src + 40;
        let place =
            |i: u32, copy: &mut [u8]| copy[4..8].copy_from_slice(&(i * 3 + 1).to_le_bytes());
        for times in 1..=9u32 {
            vm.write_bytes(dst, &[0xee; 12 * 10]).unwrap();
            let mut want = [0xee; 12 * 10];
            for i in 0..times {
                let copy = &mut want[(i * size) as usize..((i + 1) * size) as usize];
                copy.copy_from_slice(&pattern);
                place(i, copy);
            }
            assert!(vm.write_copies((src, size), dst, times, place), "{times}");
            assert_eq!(vm.bytes(dst, 12 * 10).unwrap(), &want[..], "{times} copies");
        }
        let before = vm.bytes(src, 200).unwrap().to_vec();
        let end = vm.mem.len() as u32;
        assert!(!vm.write_copies((src, size), src + 4, 2, place), "overlap");
        assert!(
            !vm.write_copies((src, size), end - 20, 2, place),
            "past the end"
        );
        assert!(!vm.write_copies((src, size), dst, 0, place), "no copies");
        vm.watch_data(dst + 30, 4);
        assert!(
            !vm.write_copies((src, size), dst, 3, place),
            "a watched cell"
        );
        assert!(vm.write_copies((src, size), dst + 36, 3, place), "past it");
        vm.unwatch_data();
        vm.tracing = true;
        assert!(
            !vm.write_copies((src, size), dst, 3, place),
            "a trace running"
        );
        vm.tracing = false;
        assert_eq!(&vm.bytes(src, 36).unwrap(), &&before[..36]);
    }

    /// `nul_position` eight bytes at a time finds what a byte-by-byte search finds, at
    /// every offset of a word and in the tail.
    #[test]
    fn nul_position_is_the_first_zero_byte() {
        for len in 0..40usize {
            for zero in (0..len).map(Some).chain([None]) {
                let mut b: Vec<u8> = (0..len).map(|i| (i as u8 % 255) + 1).collect();
                if let Some(z) = zero {
                    b[z] = 0;
                    // A second zero later, and bytes with the high bit set before.
                    if z + 3 < len {
                        b[z + 3] = 0;
                    }
                    for x in &mut b[..z] {
                        *x |= 0x80;
                    }
                }
                assert_eq!(
                    nul_position(&b),
                    b.iter().position(|&x| x == 0),
                    "{len} {zero:?}"
                );
            }
        }
    }
}

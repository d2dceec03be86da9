//! The VM's dictionary memory: its bytes, and how far they were ever written.
//!
//! Every byte at or above the high-water mark is zero, so a copy of a VM (a game's state
//! made from its loaded program, once per game) copies only the bytes below it; the rest
//! of the copy is fresh zeroed memory, which the system hands out as it is touched. Reads
//! go through [`std::ops::Deref`] to the bytes; every write goes through a method here
//! that moves the mark, so the invariant cannot be bypassed (there is no `DerefMut`).
//!
//! A dropped memory zeroes its bytes below the mark and stays with its thread for the next
//! copy ([`SPARE`]): a match makes a VM per game, and a fresh allocation of the same size
//! was either a reused heap chunk the allocator zeroed whole (megabytes, when a game used
//! a few kilobytes) or new pages, each a fault when first touched.

use std::cell::RefCell;
use std::ops::Range;

thread_local! {
    /// Zeroed byte buffers of memories dropped on this thread (at most [`SPARE_CAP`]).
    static SPARE: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
}

/// Buffers a thread keeps for the next copies (a match's game and its copies in flight).
const SPARE_CAP: usize = 2;

/// `len` zero bytes: a spare buffer of that size, or a new one.
fn zeroed_bytes(len: usize) -> Vec<u8> {
    let spare = SPARE.try_with(|s| {
        let mut s = s.try_borrow_mut().ok()?;
        let i = s.iter().position(|b| b.len() == len)?;
        Some(s.swap_remove(i))
    });
    spare.ok().flatten().unwrap_or_else(|| vec![0; len])
}

/// Dictionary memory (see the module documentation).
pub(crate) struct Mem {
    bytes: Vec<u8>,
    /// Every byte at or above is zero.
    high: usize,
}

impl Mem {
    /// `len` zero bytes.
    pub(crate) fn zeroed(len: usize) -> Mem {
        Mem {
            bytes: zeroed_bytes(len),
            high: 0,
        }
    }

    /// The bytes of `r`, to write (None when `r` is outside the memory).
    #[inline(always)]
    pub(crate) fn range_mut(&mut self, r: Range<usize>) -> Option<&mut [u8]> {
        let end = r.end;
        let b = self.bytes.get_mut(r)?;
        self.high = self.high.max(end);
        Some(b)
    }

    /// The byte at `i`, to write.
    #[inline]
    pub(crate) fn byte_mut(&mut self, i: usize) -> Option<&mut u8> {
        let b = self.bytes.get_mut(i)?;
        self.high = self.high.max(i + 1);
        Some(b)
    }

    /// Copies `n` bytes from `s` to `d` byte by byte, front to back (`CMOVE`: a propagating
    /// fill when the ranges overlap upwards). Both ranges must be inside the memory.
    pub(crate) fn cmove(&mut self, s: usize, d: usize, n: usize) {
        if d > s && d < s + n {
            for k in 0..n {
                self.bytes[d + k] = self.bytes[s + k];
            }
        } else {
            self.bytes.copy_within(s..s + n, d);
        }
        self.high = self.high.max(d + n);
    }
}

impl std::ops::Deref for Mem {
    type Target = [u8];

    #[inline(always)]
    fn deref(&self) -> &[u8] {
        &self.bytes
    }
}

impl Clone for Mem {
    /// Copies the bytes below the high-water mark; the others are zero in the copy too.
    fn clone(&self) -> Mem {
        let mut bytes = zeroed_bytes(self.bytes.len());
        bytes[..self.high].copy_from_slice(&self.bytes[..self.high]);
        Mem {
            bytes,
            high: self.high,
        }
    }
}

impl Drop for Mem {
    /// Keeps the bytes, zeroed, for the next memory of this thread (when it has room).
    fn drop(&mut self) {
        let mut bytes = std::mem::take(&mut self.bytes);
        // (A thread being torn down keeps nothing.)
        let _ = SPARE.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut() {
                if s.len() < SPARE_CAP && !bytes.is_empty() {
                    bytes[..self.high].fill(0);
                    s.push(bytes);
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{Mem, SPARE};

    #[test]
    fn a_copy_has_every_byte_written_before() {
        let mut m = Mem::zeroed(64);
        m.range_mut(4..8).unwrap().copy_from_slice(&[1, 2, 3, 4]);
        *m.byte_mut(20).unwrap() = 9;
        m.cmove(4, 30, 4);
        let c = m.clone();
        assert_eq!(&c[..], &m[..]);
        assert_eq!(c.high, 34);
        assert!(m.range_mut(60..65).is_none());
        assert_eq!(m.high, 34, "a failed write moves nothing");
        m.range_mut(60..64).unwrap().fill(7);
        assert_eq!(&m.clone()[60..64], &[7; 4]);
    }

    /// A memory made after another was dropped on the same thread reuses its buffer, and
    /// is all zeros all the same; so is a copy made into a reused buffer, above the bytes
    /// it copies.
    #[test]
    fn a_dropped_memory_is_reused_zeroed() {
        SPARE.with(|s| s.borrow_mut().clear());
        let len = 4096 + 17;
        let dirty = |m: &mut Mem| {
            m.range_mut(100..200).unwrap().fill(0xAB);
            *m.byte_mut(len - 1).unwrap() = 1;
        };
        let mut m = Mem::zeroed(len);
        dirty(&mut m);
        let addr = m.bytes.as_ptr();
        drop(m);
        let mut n = Mem::zeroed(len);
        assert_eq!(n.bytes.as_ptr(), addr, "the dropped buffer is reused");
        assert!(n.iter().all(|&b| b == 0));
        assert_eq!(n.high, 0);
        // A copy into the buffer dropped again: the source's bytes, zeros above them.
        let mut src = Mem::zeroed(len);
        src.range_mut(0..4).unwrap().fill(5);
        dirty(&mut n);
        drop(n);
        let c = src.clone();
        assert_eq!(c.bytes.as_ptr(), addr, "the copy takes the spare buffer");
        assert_eq!(&c[..], &src[..]);
    }
}

//! The VM's dictionary memory: its bytes, and how far they were ever written.
//!
//! Every byte at or above the high-water mark is zero, so a copy of a VM (a game's state
//! made from its loaded program, once per game) copies only the bytes below it; the rest
//! of the copy is fresh zeroed memory, which the system hands out as it is touched. Reads
//! go through [`std::ops::Deref`] to the bytes; every write goes through a method here
//! that moves the mark, so the invariant cannot be bypassed (there is no `DerefMut`).

use std::ops::Range;

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
            bytes: vec![0; len],
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
        let mut bytes = vec![0; self.bytes.len()];
        bytes[..self.high].copy_from_slice(&self.bytes[..self.high]);
        Mem {
            bytes,
            high: self.high,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Mem;

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
}

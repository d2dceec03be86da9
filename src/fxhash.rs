//! A small multiplicative hasher for hash maps keyed by integers on hot paths (the
//! standard SipHash is built to resist chosen keys, which these maps do not face).

use std::hash::{BuildHasherDefault, Hasher};

/// The hasher: each word is rotated in and multiplied by an odd constant.
#[derive(Default)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Builds [`FxHasher`]s for `HashMap::with_hasher` and friends.
pub type FxBuild = BuildHasherDefault<FxHasher>;

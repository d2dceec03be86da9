//! The name tables that move blocks ([`super::code`]) and goals ([`super::goals`]) are
//! compiled against: positions, directions, piece types, zones, attributes and players, each
//! mapped to its index, in hash maps with a cheap hash.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

use super::PositionId;

/// A small multiplicative hash for name look-ups: compiling a large expansion looks names up
/// millions of times (directions, positions, piece types for every predicate), and SipHash
/// dominated the compile of such files.
#[derive(Default, Clone, Copy)]
pub struct NameHasher(u64);

impl std::hash::Hasher for NameHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let mut last = 0u64;
        for (i, &b) in chunks.remainder().iter().enumerate() {
            last |= (b as u64) << (8 * i);
        }
        self.write_u64(last ^ ((bytes.len() as u64) << 56));
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Names to indices, hashed with [`NameHasher`].
pub type NameMap<T = u32> = HashMap<String, T, BuildHasherDefault<NameHasher>>;

/// A set of names, hashed with [`NameHasher`].
pub type NameSet = HashSet<String, BuildHasherDefault<NameHasher>>;

/// A [`NameMap`] with the entries of a standard map (the model keeps standard maps).
pub fn name_map<T: Copy>(m: &HashMap<String, T>) -> NameMap<T> {
    m.iter().map(|(k, &v)| (k.clone(), v)).collect()
}

/// A [`NameMap`] of names by their position in `names`.
pub fn index_of<'a>(names: impl IntoIterator<Item = &'a String>) -> NameMap {
    names
        .into_iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i as u32))
        .collect()
}

/// Every name a move block or a goal may refer to, with its index.
#[derive(Default)]
pub struct Names {
    pub positions: NameMap<PositionId>,
    pub directions: NameMap,
    pub types: NameMap,
    pub zones: NameMap,
    pub attributes: NameMap,
    pub players: NameMap,
}

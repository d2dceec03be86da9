//! Zobrist keys, computed by mixing rather than looked up: the key of a cell holding value
//! `v` is a 64-bit mix of (cell, v), and 0 for an empty cell or an empty hand. A state's hash
//! is the XOR of its cells' keys and the key of its turn index, so a change of one cell
//! updates it with two keys.

use crate::model::CellId;

#[inline]
fn mix(mut z: u64) -> u64 {
    // splitmix64 finaliser.
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Key of `cell` holding `value` (0 when the value is 0).
#[inline]
pub fn cell_key(cell: CellId, value: u32) -> u64 {
    if value == 0 {
        0
    } else {
        mix(((cell.get() as u64) << 32) | value as u64)
    }
}

/// Key of the turn index.
#[inline]
pub fn turn_key(turn: u32) -> u64 {
    mix(0xdead_beef_0000_0000 ^ turn as u64)
}

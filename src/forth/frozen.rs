//! Frozen data: data cells that traced runs take as fixed, as they take code.
//!
//! A traced run ([`super::trace`]) notes every data cell it reads with the value read, and
//! a host compares those reads before it replays the trace. Much of what a game's words
//! read never changes once the game is set up: the tables its board, directions and
//! pieces were compiled into, the addresses variables hold. Comparing such a read at
//! every replay is work for nothing. A VM that freezes data ([`super::Vm::freeze_data_below`])
//! treats a traced read of such a cell as it treats a read of code: the read is not noted,
//! the cell is marked as code, and a later write that changes it changes the VM's code
//! epoch, which invalidates every trace (hosts compare the epoch before they replay).
//!
//! Which cells never change cannot be known before the game is played, so it is learned:
//! - a cell is frozen only below a bound (the dictionary as the game was set up: not the
//!   memory above it that move generation compiles into), when it is one aligned cell,
//!   and when it is not known to be mutable;
//! - a cell is known to be mutable when the host says so (the board, the turn's
//!   variables), when a traced run writes it, or when a write changes it while it is
//!   frozen: it is then thawed (no longer code) and never frozen again by this VM.
//!
//! A wrong guess costs one invalidation of every trace; it can happen once per cell.
//! What was learned goes with a cache that another VM of the same program takes over
//! ([`super::Vm::frozen_data`], [`super::Vm::adopt_frozen`]).

use super::vm::{CELL, clear_bit, has_bit as bit, set_bit};

/// The frozen cells of a VM, and the cells it learned are mutable (one bit per cell,
/// cell = address / 4).
#[derive(Clone, Debug, Default)]
pub(crate) struct FrozenData {
    /// Cells at or above this address are never frozen (0: nothing is).
    pub(crate) below: u32,
    /// Cells known to change.
    mutable: Vec<u64>,
    /// Cells frozen: marked as code although they hold data.
    frozen: Vec<u64>,
}

/// The learned state of a VM's frozen data, which another VM of the same program can
/// take over ([`super::Vm::frozen_data`], [`super::Vm::adopt_frozen`]).
#[derive(Clone, Debug, Default)]
pub struct FrozenCells {
    /// The frozen cells, by cell number, each with its value.
    pub(crate) frozen: Vec<(u32, i32)>,
    /// The cells known to be mutable (one bit per cell).
    pub(crate) mutable: Vec<u64>,
}

impl FrozenData {
    /// Whether a traced read of the cell at `a` may freeze it.
    #[inline(always)]
    pub(crate) fn may_freeze(&self, a: u32) -> bool {
        a % CELL == 0 && a < self.below && !bit(&self.mutable, a / CELL)
    }

    /// Whether cell `c` is frozen.
    #[inline(always)]
    pub(crate) fn is_frozen(&self, c: u32) -> bool {
        bit(&self.frozen, c)
    }

    /// Notes cell `c` as frozen.
    pub(crate) fn freeze(&mut self, c: u32) {
        set_bit(&mut self.frozen, c);
    }

    /// Notes cell `c` as mutable, thawing it if it was frozen; true if it was.
    pub(crate) fn learn_mutable(&mut self, c: u32) -> bool {
        if self.below == 0 {
            return false;
        }
        set_bit(&mut self.mutable, c);
        let was = bit(&self.frozen, c);
        if was {
            clear_bit(&mut self.frozen, c);
        }
        was
    }

    /// Whether any cell of the bytes `a .. a + len` is frozen.
    pub(crate) fn any_frozen(&self, a: u32, len: u32) -> bool {
        if len == 0 || self.frozen.is_empty() {
            return false;
        }
        let last = a.saturating_add(len - 1) / CELL;
        (a / CELL..=last).any(|c| bit(&self.frozen, c))
    }

    /// The frozen cells, by cell number (without their values).
    pub(crate) fn frozen_cells(&self) -> impl Iterator<Item = u32> + '_ {
        self.frozen.iter().enumerate().flat_map(|(i, &w)| {
            let mut bits = w;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let c = i as u32 * 64 + bits.trailing_zeros();
                    bits &= bits - 1;
                    c
                })
            })
        })
    }

    /// The mutable bits, to hand to another VM.
    pub(crate) fn mutable_bits(&self) -> &[u64] {
        &self.mutable
    }

    /// Takes over the cells another VM learned are mutable.
    pub(crate) fn add_mutable(&mut self, bits: &[u64]) {
        if self.mutable.len() < bits.len() {
            self.mutable.resize(bits.len(), 0);
        }
        for (m, b) in self.mutable.iter_mut().zip(bits) {
            *m |= b;
        }
    }

    /// Whether cell `c` is known to be mutable.
    #[cfg(test)]
    pub(crate) fn is_mutable(&self, c: u32) -> bool {
        bit(&self.mutable, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_learned_mutable_is_thawed_and_never_frozen_again() {
        let mut f = FrozenData {
            below: 400,
            ..Default::default()
        };
        assert!(f.may_freeze(100) && !f.may_freeze(101) && !f.may_freeze(400));
        f.freeze(25);
        assert!(f.is_frozen(25) && f.any_frozen(98, 4) && !f.any_frozen(104, 4));
        assert!(f.learn_mutable(25));
        assert!(!f.is_frozen(25) && !f.may_freeze(100) && f.is_mutable(25));
        assert!(!f.learn_mutable(25));
        f.freeze(3);
        f.freeze(70);
        assert_eq!(f.frozen_cells().collect::<Vec<_>>(), [3, 70]);
        let mut g = FrozenData {
            below: 400,
            ..Default::default()
        };
        g.add_mutable(f.mutable_bits());
        assert!(!g.may_freeze(100) && g.may_freeze(104));
        // Off (no bound): nothing is learned.
        let mut off = FrozenData::default();
        assert!(!off.learn_mutable(5) && !off.may_freeze(20));
    }
}

//! A Forth virtual machine for Axiom's ForthScript: the language Axiom games
//! (`CORE.4TH`, `axiom.4th`, the game and its AI variants) are written in.
//!
//! - [`vm`]: memory, stacks, headers and the inner interpreter;
//! - [`interp`]: the text interpreter and `LOAD`;
//! - [`dict`]: the hash index that finds words without walking every header;
//! - [`error`]: failures with stable codes, the word and the source place;
//! - [`lint`]: lint mode, which records findings and goes on loading;
//! - [`trace`]: traced runs, which a host can replay instead of running the code again;
//! - [`frozen`]: data cells traced runs take as fixed, as they take code, until one changes.
//!
//! The VM runs the published `CORE.4TH` unmodified; [`PRELUDE`] is dagaz's own equivalent,
//! used when no `CORE.4TH` is given (and by the tests). Differences from Axiom that had to be
//! decided are listed in `docs/axiom.md`.

pub mod dict;
pub mod error;
pub mod frozen;
pub mod interp;
mod journal;
pub mod lint;
mod mem;
pub mod trace;
pub mod vm;

pub use error::{FResult, ForthError, ForthErrorKind};
pub use vm::{Host, Limits, NoHost, Vm};

/// dagaz's own prelude: control structures, defining words and text words over the kernel.
pub const PRELUDE: &str = include_str!("prelude.4th");

impl Vm {
    /// A VM with the kernel and dagaz's [`PRELUDE`].
    pub fn with_prelude(limits: Limits) -> FResult<Vm> {
        let mut vm = Vm::new(limits);
        vm.interpret_str("<prelude>", PRELUDE, &mut NoHost)?;
        Ok(vm)
    }
}

#[cfg(test)]
mod tests;

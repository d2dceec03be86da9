//! Axiom games (ForthScript) headless: load an Axiom program (a variant file, its game and
//! the runtime files `CORE.4TH` and `axiom.4th`) into the Forth VM, generate and apply
//! moves through the program's own words, and let its engines choose moves.
//!
//! - [`program`]: loading, and where the runtime keeps its tables in VM memory;
//! - [`contract`]: which words dagaz defines for Axiom programs, which words of Axiom's
//!   runtime files it leaves out and why, and reading the words a runtime file names;
//! - [`folder`]: which files of an Axiom folder are variants, parts and the runtime;
//! - [`natives`]: the host words of Axiom's DLL (move recording, board edits, random
//!   numbers, engine reports, repetition);
//! - [`state`]: one game in progress: set-up, generation, application, game end;
//! - [`memo`]: the move-word cache, which replays a move word whose inputs did not change;
//! - [`search`]: the `$NegamaxMove` engine;
//! - [`perft`]: leaf counts of the move tree;
//! - [`game`]: a two-program match state for the tournament runner ([`crate::ai::Game`]).
//!
//! What dagaz had to decide where Axiom's behaviour is not documented is listed in
//! `docs/axiom.md`.

pub mod contract;
pub mod eval_memo;
pub mod folder;
pub mod game;
pub mod memo;
pub mod natives;
pub mod perft;
pub mod program;
pub mod search;
pub mod state;

pub use game::AxiomGame;

/// The ply cap of an Axiom program when none is given. Axiom's AutoPlay never stops a game,
/// and its dice take several plies a turn: the published Ur's random games last about 1,540
/// plies, and 3% of them pass 2,000.
pub const AXIOM_DEFAULT_MAX_PLIES: u32 = 20_000;
pub use program::{GameInfo, NotAVariant, Program};
pub use state::{State, Verdict};

use crate::forth::ForthError;

/// Plies of the players `$NegamaxMove` searches by default (Axiom's `#DepthLimit`).
pub const DEFAULT_SEARCH_DEPTH: u32 = 3;

/// dagaz's own Axiom layer, used when a program's folder has no `axiom.4th`.
pub mod layer {
    /// The layer's source.
    pub const LAYER: &str = include_str!("layer.4th");
}

/// Why an Axiom program cannot be loaded or played.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AxiomError {
    /// The Forth code failed (with its word and place).
    Forth(ForthError),
    /// The runtime lacks a word or variable dagaz needs (its name).
    Missing(String),
    /// The game's declarations are unusable.
    Game(String),
    /// The two programs of a match do not play the same game.
    Mismatch(String),
}

impl AxiomError {
    /// The stable code of this error.
    pub fn code(&self) -> crate::diagnostics::Code {
        use crate::forth::error::codes;
        match self {
            AxiomError::Forth(e) => e.kind.code(),
            AxiomError::Missing(_) => codes::AXIOM_MISSING,
            AxiomError::Game(_) => codes::AXIOM_GAME,
            AxiomError::Mismatch(_) => codes::AXIOM_MISMATCH,
        }
    }

    /// The message without its code.
    pub fn message(&self) -> String {
        match self {
            AxiomError::Forth(e) => e.to_string(),
            AxiomError::Missing(n) => {
                format!("the Axiom runtime defines no `{n}` (is axiom.4th complete?)")
            }
            AxiomError::Game(m) | AxiomError::Mismatch(m) => m.clone(),
        }
    }

    /// As a diagnostic (a Forth error keeps its place).
    pub fn to_diagnostic(&self) -> crate::diagnostics::Diagnostic {
        match self {
            AxiomError::Forth(e) => e.to_diagnostic(),
            e => crate::diagnostics::Diagnostic::error(e.code(), e.message()),
        }
    }
}

impl std::fmt::Display for AxiomError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AxiomError::Forth(e) => write!(f, "{e}"),
            e => write!(f, "error[{}]: {}", e.code().id, e.message()),
        }
    }
}

impl std::error::Error for AxiomError {}

#[cfg(test)]
mod compat_tests;
#[cfg(test)]
mod hostile_tests;
#[cfg(test)]
mod layer_tests;
#[cfg(test)]
mod tests;

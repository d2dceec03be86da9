//! dagaz: a toolchain and headless engine for Zillions of Games rules files (ZRF).
//!
//! Layers, each depending only on the ones before it (see `ARCHITECTURE.md`):
//! - [`source`], [`diagnostics`]: files, decoding, positions and findings;
//! - [`syntax`]: the lossless tree, the pest-based parser, the ZRF printer;
//! - [`expand`]: includes, macros and variants, giving playable games;
//! - [`convert`]: the XML and JSON tree formats, and the ZRF → Axiom converter;
//! - [`model`]: a game compiled to indices, bitsets and move bytecode;
//! - [`engine`]: states, legal moves, make/unmake, hashing, results, perft;
//! - [`ai`]: the AI players and their evaluation terms;
//! - [`players`]: game names and player specs of the command line, resolved to games and AIs;
//! - [`record`]: game records and the game indices of a run;
//! - [`tournament`], [`stats`]: parallel seeded AutoPlay matches, summaries;
//! - [`autoplay`]: a match as the command line runs it (resume, verdict).
//!
//! The library never prints and never exits: everything is returned as values.

// The layers. Inside them, what only the library uses is `pub(crate)` (the VM, the
// legal-move pipeline, the model compiler, the AI search internals, …); the error-type
// macro (`error`) and the span types (re-exported by `source`) are crate-private too.
pub mod ai;
pub mod autoplay;
pub mod axiom;
pub mod confine;
pub mod convert;
pub mod diagnostics;
pub mod engine;
pub(crate) mod error;
pub mod expand;
pub mod forth;
pub mod fxhash;
pub mod games;
#[cfg(test)]
mod layer_tests;
pub mod lint;
pub mod model;
pub mod players;
pub mod record;
pub mod replay;
pub mod rng;
pub mod source;
pub(crate) mod span;
pub mod stats;
pub mod syntax;
#[cfg(test)]
mod test_corpus;
pub mod tournament;
pub mod zsg;

// Helpers of the `dagaz` binary (a separate crate, so they must be `pub`): atomic file
// writes, the diagnostics printer and name suggestions. Not part of the library's API.
#[doc(hidden)]
pub mod fsutil;
#[doc(hidden)]
pub mod render;
#[doc(hidden)]
pub mod text;

// The types an embedding program needs (a GUI, a binding, a research harness): load a game,
// play it on the engine, ask an AI, read the result. See `examples/`.
pub use ai::engine_game::EngineGame;
pub use ai::{Ai, AiConfig};
pub use diagnostics::Diagnostic;
pub use engine::{
    Engine, IllegalMove, Move, MoveList, MovePart, Outcome, Piece, PlayerResult, State,
};
pub use model::{Model, PlayerId, PositionId};
pub use rng::Rng;

/// Why [`load_game`] could not give a playable game.
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadError {
    /// The name is not a file, a bundled game or a bundled variant (the message says what
    /// was tried and suggests near names), or the file cannot be read or has errors.
    Spec(players::spec::SpecError),
    /// The game was found but does not compile: its error diagnostics.
    Invalid {
        game: String,
        diagnostics: Vec<Diagnostic>,
    },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Spec(e) => e.fmt(f),
            LoadError::Invalid { game, diagnostics } => {
                let msgs: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
                write!(f, "`{game}` cannot be played: {}", msgs.join("; "))
            }
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Spec(e) => Some(e),
            LoadError::Invalid { .. } => None,
        }
    }
}

/// Loads and compiles a game: a bundled game (`chess`), a bundled variant's slug
/// (`ur-simple`), `path/to/game.zrf` (its default variant) or `path/to/game.zrf:variant`,
/// as `dagaz autoplay` names players. The AI options of the variant are in
/// [`ai_config`].
pub fn load_game(name: &str) -> Result<Model, LoadError> {
    let spec = players::spec::resolve(name).map_err(LoadError::Spec)?;
    Model::compile(&spec.game).map_err(|diagnostics| LoadError::Invalid {
        game: name.to_owned(),
        diagnostics,
    })
}

/// The AI that a game's variant declares with its `(option "ai …")` forms (docs/ai.md);
/// the default (random) when it declares none; with `@AI[:key=value,…]` after the name
/// (`checkers@alphabeta:depth=4`), the AI that names.
pub fn ai_config(name: &str) -> Result<AiConfig, LoadError> {
    Ok(players::spec::resolve(name).map_err(LoadError::Spec)?.ai)
}

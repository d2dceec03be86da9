//! dagaz: a toolchain and headless engine for Zillions of Games rules files (ZRF).
//!
//! Layers, each depending only on the ones before it (see `ARCHITECTURE.md`):
//! - [`source`], [`diagnostics`]: files, decoding, positions and findings;
//! - [`syntax`]: the lossless tree, the pest-based parser, the ZRF printer;
//! - [`expand`]: includes, macros and variants, giving playable games;
//! - [`convert`]: the XML and JSON tree formats;
//! - [`model`]: a game compiled to indices, bitsets and move bytecode;
//! - [`engine`]: states, legal moves, make/unmake, hashing, results, perft;
//! - [`ai`]: the AI players and their evaluation terms;
//! - [`tournament`], [`stats`]: parallel seeded AutoPlay matches, game records, summaries.
//!
//! The library never prints and never exits: everything is returned as values.

pub mod ai;
pub mod convert;
pub mod diagnostics;
pub mod engine;
pub mod expand;
pub mod fsutil;
pub mod games;
pub mod lint;
pub mod model;
pub mod record;
pub mod render;
pub mod rng;
pub mod source;
pub mod span;
pub mod stats;
pub mod syntax;
pub mod text;
pub mod tournament;

//! The players of a match, from the command line's words to loaded games and AIs.
//!
//! [`resolve`] turns a game name (a bundled game or variant, a path, `FILE:VARIANT`, an
//! Axiom variant file) into a located game, and [`spec`] a player spec
//! (`GAME[:VARIANT][@AI[:key=value,…]]`) into the game and the AI configuration it names.
//! This layer sits below the tournament, which plays what it resolves, and above the
//! engines it loads (ZRF models and Axiom programs).

pub mod resolve;
pub mod spec;

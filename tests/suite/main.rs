//! dagaz's integration tests, in one test binary: one link of the library instead of one per
//! file, which is most of the test build's time on a two-core machine. Each module is one
//! area; run one with `cargo test --test suite MODULE::` (`cargo test --test suite lint::`),
//! and the long `#[ignore]`d runs with `cargo test --release --test suite -- --ignored`.

mod common;
/// A toy dice race that tests the AIs and the tournament runner without the engine.
mod toy;

mod autoplay;
mod cli_docs;
mod convert;
mod engine;
mod hostile;
mod lint;
mod robustness;

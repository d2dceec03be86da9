//! The bundled games: every `games/*.zrf` of the source tree, embedded at build time by
//! `build.rs`, with its perft suite (`games/NAME.perft`) when there is one.

include!(concat!(env!("OUT_DIR"), "/bundled_games.rs"));

/// A bundled rules file.
#[derive(Clone, Copy, Debug)]
pub struct Bundled {
    /// File stem, e.g. `chess`.
    pub name: &'static str,
    /// The ZRF text.
    pub text: &'static str,
    /// The perft suite text (empty when there is none).
    pub perft: &'static str,
}

/// All bundled games, sorted by name.
pub fn all() -> impl Iterator<Item = Bundled> {
    BUNDLED
        .iter()
        .map(|&(name, text, perft)| Bundled { name, text, perft })
}

/// The bundled game called `name`.
pub fn find(name: &str) -> Option<Bundled> {
    all().find(|g| g.name == name)
}

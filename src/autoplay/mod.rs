//! A match as `dagaz autoplay` runs it, above the tournament runner and the players: what
//! the command line decides besides playing the games.
//!
//! - [`resume`]: which games of a records file a run may take over (`--resume`);
//! - [`verdict`]: the verdict of a match's gates (`--expect-score`) and SPRT (`--sprt`),
//!   which the binary maps to its exit code;
//! - [`plan`]: the games of a match or round robin from its players' sources (ZRF rules,
//!   Axiom programs, ZRF rules with an Axiom engine), its sides and opening book;
//! - [`zsg_out`]: each game written as a Zillions saved game (`--zsg-out`).
//!
//! The games file itself is [`crate::record::GamesFile`].

pub mod plan;
pub mod resume;
pub mod verdict;
pub mod zsg_out;

pub use plan::{Games, Lineup, Plan, Side, SourceError, SourceSettings};
pub use resume::{ResumeError, resume_round_robin, resume_run};
pub use verdict::{MatchVerdict, judge};
pub use zsg_out::ZsgOut;

#[cfg(test)]
pub(crate) mod tests {
    use crate::ai::AiConfig;
    use crate::ai::engine_game::EngineGame;
    use crate::record::{GameRecord, RunIdentity, RunSettings};
    use crate::tournament::{RunConfig, run};

    /// Four random tic-tac-toe games of run seed 3, with their settings and identity.
    pub(crate) fn played() -> (Vec<GameRecord>, RunSettings, RunIdentity) {
        let model = crate::load_game("tic-tac-toe").expect("bundled");
        let proto = EngineGame::new(model);
        let settings = RunSettings::new(["a".into(), "b".into()], ["A".into(), "B".into()], 4);
        let identity = RunIdentity::new("rules", "rules", &settings);
        let mut cfg = RunConfig::new(3, settings.clone());
        cfg.identity = Some(identity.clone());
        let ai = AiConfig::default();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let out = run(&proto, [&ai, &ai], &cfg, &stop, &|_| {}).expect("run");
        (out.records, settings, identity)
    }
}

//! What a match and a round robin share while they run: the settings of their records,
//! the threads, the records of `--resume`, and what is written as each game finishes.

use super::progress::{Progress, game_done, stop_on_signals};
use super::{Args, RunFlags};
use crate::common::CliError;
use dagaz::autoplay::{Plan, Side, ZsgOut};
use dagaz::record::GamesFile;
use dagaz::tournament::record::{GameRecord, RunSettings, read_run};
use std::path::Path;
use std::sync::Mutex;

/// The settings recorded with the games of `x` against `y`.
pub(super) fn run_settings<G>(
    a: &Args,
    [x, y]: [&Side; 2],
    max_plies: u32,
    plan: &Plan<G>,
    run: &RunFlags,
) -> RunSettings {
    let mut s = RunSettings::new(
        [x.spec.clone(), y.spec.clone()],
        [x.title.clone(), y.title.clone()],
        a.games,
    );
    // With one player, A plays every game.
    s.swap = !a.no_swap && a.b().is_some();
    s.max_plies = max_plies;
    s.nodes = a.nodes;
    s.depth = a.depth;
    s.time_ms = a.time_ms;
    s.search_steps = a.search_steps;
    s.repetition = run.repetition;
    s.openings = plan.book_setting.clone();
    s.random_plies = plan.book(0).random_plies;
    s.adjudicate = run.adjudication.map(|x| x.canonical());
    s
}

/// `-j`, or every core.
pub(super) fn threads(a: &Args) -> usize {
    a.jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// The records of `--resume FILE` and the file's name; warns of a last record cut short.
pub(super) fn read_resumed(path: &Path) -> Result<(Vec<GameRecord>, String), String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{name}`: {e}"))?;
    let (records, dropped) = read_run(&text, &name)?;
    if let Some(w) = dropped {
        eprintln!("warning: {w}");
    }
    Ok((records, name))
}

/// What a run writes as its games finish: the progress, the games file (appended and
/// flushed game by game) and the saved games.
pub(super) struct Output<'a> {
    bar: Progress,
    games_file: Option<GamesFile>,
    zsg: Option<&'a ZsgOut>,
    write_error: Mutex<Option<String>>,
}

impl<'a> Output<'a> {
    /// Sets the signal handler and opens the games file (`--games-out`, else `--resume`),
    /// locked and filled with the resumed games before the first game, so that a bad path
    /// fails at once and a kill loses only the games in progress.
    pub(super) fn open(
        a: &Args,
        bar: Progress,
        previous: &[GameRecord],
        zsg: Option<&'a ZsgOut>,
    ) -> Result<Output<'a>, CliError> {
        stop_on_signals();
        let out_path = a.games_out.as_ref().or(a.resume.as_ref());
        let games_file = out_path
            .map(|p| GamesFile::open(p, previous, a.no_timing))
            .transpose()
            .map_err(String::from)?;
        Ok(Output {
            bar,
            games_file,
            zsg,
            write_error: Mutex::new(None),
        })
    }

    /// After each game.
    pub(super) fn done(&self, r: &GameRecord) {
        let file = self.games_file.as_ref();
        game_done(&self.bar, file, self.zsg, &self.write_error, r);
    }

    /// Ends the progress, fails with the first write error, and rewrites the games file in
    /// game order without the games `dropped` (past an SPRT's decision).
    pub(super) fn finish(self, dropped: &[u64]) -> Result<(), CliError> {
        self.bar.finish();
        if let Some(e) = self
            .write_error
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
        {
            return Err(e.into());
        }
        if let Some(f) = self.games_file {
            f.finish(dropped).map_err(String::from)?;
        }
        Ok(())
    }
}

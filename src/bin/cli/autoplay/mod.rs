//! `dagaz autoplay`: AI-vs-AI matches, Axiom AutoPlay done properly (see docs/autoplay.md).
//!
//! Flags → plan → run → print. The library builds the games of the players' sources
//! (`dagaz::autoplay::plan`), plays them (`dagaz::tournament`), checks a resumed file and
//! judges gates and SPRT; this module reads the flags, shows the progress, prints the
//! reports and picks the exit code. `args` holds the flags, `progress` the progress and
//! signals, `run` what a match and a round robin share while they run, `report` the texts
//! of a match, `round_robin` three or more players.

mod args;
mod progress;
mod report;
mod round_robin;
mod run;

use crate::common::{CliError, INCONCLUSIVE, OK, PROBLEMS, write_output};
use args::parse_shard;
pub use args::{Args, RepetitionArg};
use dagaz::ai::Game;
use dagaz::autoplay::{
    Games, Lineup, MatchVerdict, Plan, SourceError, SourceSettings, judge, resume_run,
};
use dagaz::players::resolve::ResolveOptions;
use dagaz::stats::Accumulator;
use dagaz::stats::gate::{ExpectScore, Verdict};
use dagaz::stats::sprt::Sprt;
use dagaz::tournament::adjudication::AdjudicationSpec;
use dagaz::tournament::record::{
    GameRecord, Repetition, RunIdentity, RunSettings, read_run, write_records,
};
use dagaz::tournament::{RunConfig, run_with as run_match};
use progress::{Progress, STOP};
use report::MatchReport;
use run::{Output, read_resumed, run_settings, threads};
use std::path::Path;

pub fn run(mut a: Args) -> u8 {
    a.json |= a.format == crate::common::OutFormat::Json;
    match run_inner(a) {
        Ok(code) => code,
        Err(e) => e.report(),
    }
}

/// The flags of a run that its games and records take, besides [`Args`].
struct RunFlags {
    shard: Option<(u64, u64)>,
    repetition: Repetition,
    adjudication: Option<AdjudicationSpec>,
}

fn run_inner(a: Args) -> Result<u8, CliError> {
    let shard = a.shard.as_deref().map(parse_shard).transpose()?;
    let expects = a
        .expect_score
        .iter()
        .map(|s| ExpectScore::parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    let sprt = a
        .sprt
        .as_deref()
        .map(|s| Sprt::parse(s).map_err(|e| format!("--sprt: {e}")))
        .transpose()?;
    let adjudication = (!a.adjudicate.is_empty())
        .then(|| AdjudicationSpec::parse(&a.adjudicate).map_err(|e| format!("--adjudicate: {e}")))
        .transpose()?;
    check_counts(&a, shard)?;
    if let Some(r) = a.resume.as_ref().filter(|_| a.repair) {
        return repair(r);
    }
    let repetition = match a.repetition {
        RepetitionArg::Draw => Repetition::Draw,
        RepetitionArg::Off => Repetition::Off,
    };
    if a.players.len() < 2 && (a.gauntlet || a.self_play) {
        return Err(CliError::from(
            "--gauntlet and --self-play need two or more players".to_owned(),
        ));
    }
    let run = RunFlags {
        shard,
        repetition,
        adjudication,
    };
    if a.is_tournament() {
        if a.zsg_out.is_some() {
            return Err(CliError::from(
                "--zsg-out writes the games of one pairing; a round robin is not supported yet"
                    .to_owned(),
            ));
        }
        let checks = !expects.is_empty() || sprt.is_some();
        return round_robin::run(a, run, checks);
    }
    let lineup = Lineup::resolve(&a.players, &resolve_options(&a), false).map_err(source_error)?;
    match build(lineup, &[[0, 1]], &a, repetition, false)? {
        Games::Rules(plan) => play(a, plan, run, expects, sprt),
        Games::Axiom(plan) => play(a, plan, run, expects, sprt),
    }
}

/// `-n`, `-j`, `--max-plies` and `--shard` of a match.
fn check_counts(a: &Args, shard: Option<(u64, u64)>) -> Result<(), CliError> {
    if a.games == 0 {
        return Err(CliError::from("-n must be at least 1".to_owned()));
    }
    if a.jobs == Some(0) {
        return Err(CliError::from("-j must be at least 1".to_owned()));
    }
    if a.max_plies == Some(0) {
        return Err(CliError::from("--max-plies must be at least 1".to_owned()));
    }
    if let Some((k, n)) = shard.filter(|&(k, _)| !a.is_tournament() && (k - 1) * 2 >= a.games) {
        return Err(CliError::from(format!(
            "--shard {k}/{n} holds no game of -n {} (shards take colour-swapped pairs in turn)",
            a.games
        )));
    }
    Ok(())
}

/// `--resume FILE --repair`: drops a last record cut short and sorts the records.
fn repair(r: &Path) -> Result<u8, CliError> {
    let text =
        std::fs::read_to_string(r).map_err(|e| format!("cannot read `{}`: {e}", r.display()))?;
    let (records, dropped) = read_run(&text, &r.display().to_string())?;
    dagaz::fsutil::write_atomic(r, write_records(&records).as_bytes())
        .map_err(|e| format!("cannot write `{}`: {e}", r.display()))?;
    eprintln!(
        "repaired `{}`: {} record(s) kept{}",
        r.display(),
        records.len(),
        dropped.map(|w| format!("; {w}")).unwrap_or_default()
    );
    Ok(OK)
}

fn resolve_options(a: &Args) -> ResolveOptions {
    ResolveOptions::with_include_dirs(&a.include_dir)
}

/// A player that cannot be named or played exits 1 when its rules or program have errors,
/// else 2.
fn source_error(e: SourceError) -> CliError {
    match e {
        SourceError::Spec(e) => CliError::of_spec(e),
        SourceError::Unplayable(m) => CliError::Problems(m),
        e => CliError::Usage(e.to_string()),
    }
}

/// Prints the lineup's warnings, builds the games of `pairs` and prints the plan's.
fn build(
    lineup: Lineup,
    pairs: &[[usize; 2]],
    a: &Args,
    repetition: Repetition,
    round_robin: bool,
) -> Result<Games, CliError> {
    for w in lineup.warnings() {
        eprintln!("{w}");
    }
    let mut s = SourceSettings::new(a.seed);
    s.repetition = repetition;
    s.depth = a.depth;
    s.search_steps = a.search_steps;
    s.nodes = a.nodes;
    s.time_ms = a.time_ms;
    s.move_cache = a.move_cache == "on";
    s.include_dirs = a.include_dir.clone();
    s.openings = a.openings.clone();
    s.random_plies = a.random_plies;
    s.zsg_out = a.zsg_out.clone();
    let games = lineup.build(pairs, &s, round_robin).map_err(source_error)?;
    let warnings = match &games {
        Games::Rules(p) => &p.warnings,
        Games::Axiom(p) => &p.warnings,
    };
    for w in warnings {
        eprintln!("{w}");
    }
    Ok(games)
}

/// The settings of a match's records, after checking that its game fits the flags.
fn match_settings<G: Game>(
    a: &Args,
    plan: &Plan<G>,
    run: &RunFlags,
    sprt: bool,
) -> Result<RunSettings, CliError> {
    let (pa, seats) = (&plan.sides[0], plan.proto(0).seats().len());
    if a.b().is_none() && seats != 1 {
        return Err(CliError::from(format!(
            "`{}` has {seats} seats: give two players (the same one twice for self-play)",
            pa.spec,
        )));
    }
    if seats == 1 && sprt {
        return Err(CliError::from(
            "--sprt needs two players on two or more seats: a one-seat game has no winner between them"
                .to_owned(),
        ));
    }
    let max_plies = a.max_plies(plan.proto(0))?;
    let settings = run_settings(a, [pa, &plan.sides[1]], max_plies, plan, run);
    if run.adjudication.is_some() && seats != 2 {
        return Err(CliError::from(format!(
            "--adjudicate needs a game with two seats; `{}` has {seats}",
            pa.spec,
        )));
    }
    Ok(settings)
}

/// Plays a match of two players (or of one on a one-seat game) and reports it.
fn play<G: Game + Sync>(
    a: Args,
    plan: Plan<G>,
    run: RunFlags,
    expects: Vec<ExpectScore>,
    sprt: Option<Sprt>,
) -> Result<u8, CliError> {
    let settings = match_settings(&a, &plan, &run, sprt.is_some())?;
    let [pa, pb] = [&plan.sides[0], &plan.sides[1]];
    let identity = RunIdentity::new(&pa.identity, &pb.identity, &settings);
    let mut previous: Vec<GameRecord> = vec![];
    if let Some(r) = a.resume.as_ref().filter(|r| r.exists()) {
        let (records, name) = read_resumed(r)?;
        previous = resume_run(records, &name, a.seed, &settings, &identity)?;
    }
    let mut cfg = RunConfig::new(a.seed, settings.clone());
    cfg.threads = threads(&a);
    cfg.shard = run.shard;
    cfg.skip = previous.iter().map(|r| r.game_index).collect();
    cfg.sprt = sprt;
    if sprt.is_some() {
        cfg.sprt_history = previous.iter().map(|r| (r.game_index, r.score_a)).collect();
    }
    cfg.identity = Some(identity);
    // Only the statistics stay in memory; the moves are read only from the games file.
    cfg.summary_only = true;
    cfg.keep_moves = a.games_out.is_some() || a.resume.is_some() || plan.zsg.is_some();
    cfg.adjudication = run.adjudication;
    let todo = dagaz::tournament::games_to_play(a.games, run.shard, &cfg.skip);
    let out = Output::open(&a, Progress::new(todo), &previous, plan.zsg.as_ref())?;
    let mut summary = Accumulator::default();
    for r in &previous {
        summary.add(r);
    }
    // With an SPRT, earlier games past its decision are dropped: keep what the summary
    // needs of them (not their moves) to count them out.
    let previous: Vec<GameRecord> = match sprt {
        Some(_) => previous
            .into_iter()
            .map(|mut r| {
                r.moves = Vec::new();
                r
            })
            .collect(),
        None => Vec::new(),
    };
    let on_done = |r: &GameRecord| out.done(r);
    let ais = [&pa.ai, &pb.ai];
    let outcome = run_match(plan.proto(0), ais, &cfg, plan.book(0), &STOP, &on_done)?;
    out.finish(&outcome.dropped)?;
    let dropped: std::collections::HashSet<u64> = outcome.dropped.iter().copied().collect();
    if previous.iter().any(|r| dropped.contains(&r.game_index)) {
        summary = Accumulator::default();
        for r in previous.iter().filter(|r| !dropped.contains(&r.game_index)) {
            summary.add(r);
        }
    }
    drop(previous);
    summary.merge(&outcome.summary);
    let Some(s) = summary.summary() else {
        return Err(CliError::from("no game was played".to_owned()));
    };
    let verdict = judge(&s, &expects, outcome.sprt);
    let report = MatchReport {
        summary: &s,
        verdict: &verdict,
        interrupted: outcome.interrupted,
        players: [pa, pb],
        two_players: a.b().is_some(),
        settings: &settings,
        goalless: plan.goalless,
        played: summary.games(),
        games: a.games,
    };
    write_output(None, report.render(a.json).as_bytes())?;
    if let Some((game, message)) = summary.first_error() {
        // What went wrong, without a records file to look it up in.
        eprintln!("error in game {}: {message}", game + 1);
    }
    let MatchVerdict {
        verdict,
        failed,
        inconclusive,
        ..
    } = verdict;
    for f in &failed {
        eprintln!("check failed: {f}");
    }
    for f in &inconclusive {
        eprintln!("check inconclusive: {f}");
    }
    Ok(match verdict {
        _ if outcome.interrupted => 130,
        Verdict::Pass => OK,
        Verdict::Fail => PROBLEMS,
        Verdict::Inconclusive => INCONCLUSIVE,
    })
}

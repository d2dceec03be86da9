//! `dagaz autoplay P1 P2 P3 …`: round robins and gauntlets (docs/autoplay.md, "More than
//! two players"): every pairing's games in one pool, one games file, per-pairing
//! summaries, a crosstable and joint Elo ratings. The games come from the same plan as a
//! match's, one per pairing.

use super::{
    Args, Output, Progress, RunFlags, STOP, build, read_resumed, resolve_options, run_settings,
    source_error, threads,
};
use crate::common::{CliError, OK, write_output};
use dagaz::ai::Game;
use dagaz::autoplay::{Games, Lineup, Plan, Side, resume_round_robin};
use dagaz::stats::ratings::{PairTally, TournamentSummary, human as tournament_text};
use dagaz::stats::{Accumulator, human};
use dagaz::tournament::record::{GameRecord, RunIdentity, RunSettings, Tournament};
use dagaz::tournament::round_robin::{self, Pairing, Schedule};

/// Runs a round robin or gauntlet: checks the players, builds the game of every pairing,
/// and plays. `checks`: `--expect-score` or `--sprt` were given (refused: they judge A
/// against B).
pub(super) fn run(a: Args, run: RunFlags, checks: bool) -> Result<u8, CliError> {
    if checks {
        return Err(CliError::from(
            "--expect-score and --sprt judge player A against player B: give two players (a round robin reports ratings instead)"
                .to_owned(),
        ));
    }
    if let Some((i, p)) = a
        .players
        .iter()
        .enumerate()
        .find(|(i, p)| a.players[..*i].contains(p))
    {
        return Err(CliError::from(format!(
            "`{p}` is given twice (players {} and {}): a round robin needs distinct players (--self-play lets each meet itself)",
            a.players.iter().position(|x| x == p).unwrap_or(0) + 1,
            i + 1
        )));
    }
    let schedule = Schedule::new(a.players.len(), a.gauntlet, a.self_play, a.games)?;
    if let Some((k, n)) = run
        .shard
        .filter(|&s| schedule.games_to_play(Some(s), &Default::default()) == 0)
    {
        return Err(CliError::from(format!(
            "--shard {k}/{n} holds no game of -n {} (shards take colour-swapped pairs in turn)",
            a.games
        )));
    }
    let lineup = Lineup::resolve(&a.players, &resolve_options(&a), true).map_err(source_error)?;
    match build(lineup, schedule.pairs(), &a, run.repetition, true)? {
        Games::Rules(plan) => play(a, &schedule, plan, run),
        Games::Axiom(plan) => play(a, &schedule, plan, run),
    }
}

/// The pairings of the round robin: each one's game, book, settings and identity.
fn pairings<'p, G: Game>(
    a: &Args,
    schedule: &Schedule,
    plan: &'p Plan<G>,
    run: &RunFlags,
    head: &Tournament,
) -> Result<Vec<Pairing<'p, G>>, CliError> {
    let (sides, seats) = (&plan.sides, plan.proto(0).seats().len());
    if seats < 2 {
        return Err(CliError::from(format!(
            "`{}` has one seat: a round robin needs a game with two or more seats (compare one-seat players two at a time, by their solve rates)",
            sides[0].spec
        )));
    }
    if run.adjudication.is_some() && seats != 2 {
        return Err(CliError::from(format!(
            "--adjudicate needs a game with two seats; `{}` has {seats}",
            sides[0].spec
        )));
    }
    let max_plies = a.max_plies(plan.proto(0))?;
    let pairing = |(p, &[i, j]): (usize, &[usize; 2])| {
        let mut s = run_settings(a, [&sides[i], &sides[j]], max_plies, plan, run);
        s.tournament = Some(Tournament {
            pair: [i, j],
            ..head.clone()
        });
        let identity = RunIdentity::new(&sides[i].identity, &sides[j].identity, &s);
        Pairing {
            proto: plan.proto(p),
            book: plan.book(p),
            settings: s,
            identity: Some(identity),
        }
    };
    Ok(schedule.pairs().iter().enumerate().map(pairing).collect())
}

/// Plays the round robin and reports it.
fn play<G: Game + Sync>(
    a: Args,
    schedule: &Schedule,
    plan: Plan<G>,
    run: RunFlags,
) -> Result<u8, CliError> {
    let sides = &plan.sides;
    let head = Tournament {
        players: sides.iter().map(|s| s.spec.clone()).collect(),
        titles: sides.iter().map(|s| s.title.clone()).collect(),
        gauntlet: schedule.gauntlet(),
        self_play: schedule.self_play(),
        pair: [0, 0],
    };
    let pairings = pairings(&a, schedule, &plan, &run, &head)?;
    let pairs = schedule.pairs();
    // Resume: the games already played, checked against the pairing each belongs to.
    let mut previous: Vec<GameRecord> = vec![];
    if let Some(r) = a.resume.as_ref().filter(|r| r.exists()) {
        let (records, name) = read_resumed(r)?;
        let expected: Vec<(&RunSettings, Option<&RunIdentity>)> = pairings
            .iter()
            .map(|p| (&p.settings, p.identity.as_ref()))
            .collect();
        previous = resume_round_robin(records, &name, a.seed, a.games, schedule, &expected)?;
    }
    let mut summaries = vec![Accumulator::default(); pairs.len()];
    let mut tallies = vec![PairTally::default(); pairs.len()];
    for r in &previous {
        if let Some((p, _)) = schedule.locate(r.game_index) {
            summaries[p].add(r);
            tallies[p].add(r);
        }
    }
    let mut cfg = round_robin::Config::new(a.seed);
    cfg.threads = threads(&a);
    cfg.shard = run.shard;
    cfg.skip = previous.iter().map(|r| r.game_index).collect();
    cfg.adjudication = run.adjudication;
    let todo = schedule.games_to_play(run.shard, &cfg.skip);
    let out = Output::open(&a, Progress::round_robin(todo), &previous, None)?;
    drop(previous);
    let on_done = |r: &GameRecord| out.done(r);
    let configs: Vec<_> = sides.iter().map(|s| s.ai.clone()).collect();
    let outcome = round_robin::run(schedule, &configs, &pairings, &cfg, &STOP, &on_done)?;
    out.finish(&[])?;
    for (p, (s, t)) in outcome.summaries.iter().zip(&outcome.tallies).enumerate() {
        summaries[p].merge(s);
        tallies[p].merge(t);
    }
    let played: u64 = summaries.iter().map(Accumulator::games).sum();
    if played == 0 {
        return Err(CliError::from("no game was played".to_owned()));
    }
    let results: Vec<([usize; 2], PairTally)> =
        pairs.iter().copied().zip(tallies.iter().copied()).collect();
    let table = TournamentSummary::new(a.seed, &head, a.games, &results);
    let report = Report {
        players: &head.players,
        matches: &summaries,
        table: &table,
        sides,
        settings: &pairings[0].settings,
        interrupted: outcome
            .interrupted
            .then(|| (played, schedule.total_games())),
    };
    write_output(None, report.render(&a).as_bytes())?;
    Ok(if outcome.interrupted { 130 } else { OK })
}

/// The report of a round robin.
struct Report<'a> {
    /// The specs of the players, as given.
    players: &'a [String],
    /// Each pairing's games.
    matches: &'a [Accumulator],
    table: &'a TournamentSummary,
    sides: &'a [Side],
    /// The settings of the first pairing (for the AIs as they play).
    settings: &'a RunSettings,
    /// When interrupted: the games played, of how many.
    interrupted: Option<(u64, u64)>,
}

impl Report<'_> {
    /// The text, or the `--json` summary.
    fn render(&self, a: &Args) -> String {
        let matches: Vec<_> = self
            .matches
            .iter()
            .filter_map(Accumulator::summary)
            .collect();
        let ai: Vec<String> = self
            .sides
            .iter()
            .map(|s| s.describe(self.settings))
            .collect();
        if a.json {
            let v = serde_json::json!({
                "schema_version": dagaz::stats::SUMMARY_SCHEMA_VERSION,
                "seed": a.seed,
                "players": self.players,
                "ai": ai,
                "matches": matches,
                "tournament": self.table,
                "interrupted": self.interrupted.is_some(),
            });
            return serde_json::to_string_pretty(&v).unwrap_or_default() + "\n";
        }
        let mut t = matches.iter().map(human).collect::<Vec<_>>().join("\n");
        t += "\nplayers:\n";
        for (i, (s, d)) in self.sides.iter().zip(&ai).enumerate() {
            t += &format!("{:>2} {} (\"{}\"): {d}\n", i + 1, s.spec, s.title);
        }
        t += &tournament_text(self.table);
        if let Some((played, total)) = self.interrupted {
            t += &format!("interrupted: {played} of {total} games played\n");
        }
        t
    }
}

//! `dagaz autoplay P1 P2 P3 …`: round robins and gauntlets (docs/autoplay.md, "More than
//! two players"): every pairing's games in one pool, one games file, per-pairing
//! summaries, a crosstable and joint Elo ratings.

use super::{
    Args, Conduct, Progress, STOP, Side, compile, game_done, no_setup_variants, opening_book,
    program_ai, setup_variant_game, stop_on_signals, zrf_axiom,
};
use crate::common::{CliError, OK, write_output};
use dagaz::ai::engine_game::EngineGame;
use dagaz::autoplay::resume_round_robin;
use dagaz::axiom::{AxiomGame, Program};
use dagaz::players::resolve::ResolveOptions;
use dagaz::players::spec::{Player, PlayerSpec, resolve_player, same_rules};
use dagaz::record::GamesFile;
use dagaz::stats::ratings::{PairTally, TournamentSummary, human as tournament_text};
use dagaz::stats::{Accumulator, human};
use dagaz::tournament::adjudication::AdjudicationSpec;
use dagaz::tournament::openings::OpeningBook;
use dagaz::tournament::record::{
    GameRecord, Repetition, RunIdentity, RunSettings, Tournament, read_run,
};
use dagaz::tournament::round_robin::{self, Pairing, Schedule};
use std::path::Path;
use std::sync::Mutex;

/// Runs a round robin or gauntlet: resolves the players, builds the game of every
/// pairing, and plays. `checks`: `--expect-score` or `--sprt` were given (refused: they
/// judge A against B).
pub(super) fn run(
    a: Args,
    shard: Option<(u64, u64)>,
    checks: bool,
    repetition: Repetition,
    adjudication: Option<AdjudicationSpec>,
) -> Result<u8, CliError> {
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
    if let Some((k, n)) =
        shard.filter(|&s| schedule.games_to_play(Some(s), &Default::default()) == 0)
    {
        return Err(CliError::from(format!(
            "--shard {k}/{n} holds no game of -n {} (shards take colour-swapped pairs in turn)",
            a.games
        )));
    }
    let opts = ResolveOptions::with_include_dirs(&a.include_dir);
    let players = a
        .players
        .iter()
        .map(|p| resolve_player(p, &opts).map_err(CliError::of_spec))
        .collect::<Result<Vec<_>, _>>()?;
    let axiom = players
        .iter()
        .filter(|p| matches!(p, Player::Axiom(_)))
        .count();
    if axiom > 0 && axiom < players.len() {
        return Err(CliError::from("some players are Axiom programs (.4th) and others ZRF games: all must be of the same game".to_owned()));
    }
    let mut programs = vec![];
    let mut sides = vec![];
    let mut specs: Vec<PlayerSpec> = vec![];
    for p in players {
        match p {
            Player::Axiom(x) => {
                sides.push(Side::axiom(&x.spec, &x.program, &x.ai, a.search_steps));
                programs.push(x.program);
            }
            Player::Rules(s) => specs.push(s),
        }
    }
    for w in specs.iter().flat_map(|s| &s.warnings) {
        eprintln!("{w}");
    }
    // A ZRF game whose moves come from Axiom plays through its variants' `.4th` files,
    // with the programs' own engines unless a spec names an AI.
    if let Some(first) = specs.first().and_then(|p| zrf_axiom(p, &a.include_dir)) {
        let first = first?;
        for p in &specs {
            let (f, dir) = zrf_axiom(p, &a.include_dir).unwrap_or_else(|| Ok(first.clone()))?;
            let program = Program::load(&f, Some(&dir))
                .map_err(|e| format!("`{}` cannot be played: {e}", f.display()))?;
            let ai = match &p.ai_spec {
                Some(_) => p.ai.clone(),
                None => program_ai(),
            };
            sides.push(Side::axiom(&p.spec, &program, &ai, a.search_steps));
            programs.push(program);
        }
    }
    if !programs.is_empty() {
        // A two-program match per pairing, each with its own book.
        let mut protos = vec![];
        for &[i, j] in schedule.pairs() {
            let mut g = AxiomGame::new(&programs[i], &programs[j], a.seed)
                .map_err(|e| CliError::Problems(e.to_string()))?;
            crate::autoplay::configure_axiom(&mut g, &a, repetition);
            protos.push(g);
        }
        let mut books = vec![];
        let mut book_setting = None;
        for g in &protos {
            let (book, setting) = opening_book(&a, g, no_setup_variants)?;
            books.push(book);
            book_setting = setting;
        }
        let protos: Vec<&AxiomGame> = protos.iter().collect();
        let books: Vec<&OpeningBook<AxiomGame>> = books.iter().collect();
        let conduct = Conduct {
            book: (OpeningBook::default(), book_setting),
            adjudication,
            zsg: None,
        };
        return play(
            a, &schedule, &protos, &books, sides, repetition, conduct, shard,
        );
    }
    let first = &specs[0];
    if let Some(p) = specs.iter().find(|p| !same_rules(first, p)) {
        return Err(CliError::from(format!(
            "`{}` (\"{}\", {}) and `{}` (\"{}\", {}) are not variants of the same rules: they differ in more than titles and \"ai\" options",
            first.spec, first.title, first.source, p.spec, p.title, p.source
        )));
    }
    let model = compile(first)?;
    if model.goals.is_empty() {
        return Err(CliError::from(format!(
            "\"{}\" ({}) states no goals: its games can only be drawn, so a round robin has nothing to rate (two players show how the games end)",
            first.title, first.source
        )));
    }
    let rule = match repetition {
        Repetition::Draw => dagaz::engine::RepetitionRule::Draw,
        Repetition::Off => dagaz::engine::RepetitionRule::Off,
    };
    let mut proto = EngineGame::new(model);
    proto.engine.repetition = rule;
    // A book line `variant: SPEC` starts from that variant's position.
    let setup_variant = |spec: &str| setup_variant_game(spec, &opts, first, rule);
    let (book, book_setting) = opening_book(&a, &proto, setup_variant)?;
    let sides = specs.iter().map(Side::zrf).collect();
    let pairs = schedule.pairs().len();
    let protos = vec![&proto; pairs];
    let books = vec![&book; pairs];
    let conduct = Conduct {
        book: (OpeningBook::default(), book_setting),
        adjudication,
        zsg: None,
    };
    play(
        a, &schedule, &protos, &books, sides, repetition, conduct, shard,
    )
}

/// Plays the round robin and reports it (everything after the players are known).
/// `conduct` carries the book setting and the adjudication (the books themselves, one per
/// pairing's game, are in `books`).
#[allow(clippy::too_many_arguments)]
fn play<G: dagaz::ai::Game + Sync>(
    a: Args,
    schedule: &Schedule,
    protos: &[&G],
    books: &[&OpeningBook<G>],
    sides: Vec<Side>,
    repetition: Repetition,
    conduct: Conduct<G>,
    shard: Option<(u64, u64)>,
) -> Result<u8, CliError> {
    super::warn_unused_limits(&a, &sides);
    let Conduct {
        book: (_, book_setting),
        adjudication,
        ..
    } = conduct;
    let seats = dagaz::ai::Game::seats(protos[0]).len();
    if seats < 2 {
        return Err(CliError::from(format!(
            "`{}` has one seat: a round robin needs a game with two or more seats (compare one-seat players two at a time, by their solve rates)",
            sides[0].spec
        )));
    }
    let head = Tournament {
        players: sides.iter().map(|s| s.spec.clone()).collect(),
        titles: sides.iter().map(|s| s.title.clone()).collect(),
        gauntlet: schedule.gauntlet(),
        self_play: schedule.self_play(),
        pair: [0, 0],
    };
    let pairs = schedule.pairs();
    if adjudication.is_some() && seats != 2 {
        return Err(CliError::from(format!(
            "--adjudicate needs a game with two seats; `{}` has {seats}",
            sides[0].spec
        )));
    }
    let random_plies = books.first().map_or(0, |b| b.random_plies);
    let max_plies = a.max_plies(protos[0])?;
    let pairings: Vec<Pairing<'_, G>> = pairs
        .iter()
        .zip(protos.iter().zip(books))
        .map(|(&[i, j], (&proto, &book))| {
            let mut s = RunSettings::new(
                [sides[i].spec.clone(), sides[j].spec.clone()],
                [sides[i].title.clone(), sides[j].title.clone()],
                a.games,
            );
            s.swap = !a.no_swap;
            s.max_plies = max_plies;
            s.nodes = a.nodes;
            s.depth = a.depth;
            s.time_ms = a.time_ms;
            s.search_steps = a.search_steps;
            s.repetition = repetition;
            s.openings = book_setting.clone();
            s.random_plies = random_plies;
            s.adjudicate = adjudication.map(|x| x.canonical());
            s.tournament = Some(Tournament {
                pair: [i, j],
                ..head.clone()
            });
            let identity = RunIdentity::new(&sides[i].identity, &sides[j].identity, &s);
            Pairing {
                proto,
                book,
                settings: s,
                identity: Some(identity),
            }
        })
        .collect();
    // Resume: the games already played, checked against the pairing each belongs to.
    let mut previous: Vec<GameRecord> = vec![];
    if let Some(r) = a.resume.as_ref().filter(|r| r.exists()) {
        previous = resumed(r, &a, schedule, &pairings)?;
    }
    let mut summaries = vec![Accumulator::default(); pairs.len()];
    let mut tallies = vec![PairTally::default(); pairs.len()];
    for r in &previous {
        if let Some((p, _)) = schedule.locate(r.game_index) {
            summaries[p].add(r);
            tallies[p].add(r);
        }
    }
    let threads = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let mut cfg = round_robin::Config::new(a.seed);
    cfg.threads = threads;
    cfg.shard = shard;
    cfg.skip = previous.iter().map(|r| r.game_index).collect();
    cfg.adjudication = adjudication;
    let todo = schedule.games_to_play(shard, &cfg.skip);
    let bar = Progress::round_robin(todo);
    stop_on_signals();
    let out_path = a.games_out.as_ref().or(a.resume.as_ref());
    let games_file = out_path
        .map(|p| GamesFile::open(p, &previous, a.no_timing))
        .transpose()
        .map_err(String::from)?;
    drop(previous);
    let write_error: Mutex<Option<String>> = Mutex::new(None);
    let on_done = |r: &GameRecord| game_done(&bar, games_file.as_ref(), None, &write_error, r);
    let configs: Vec<_> = sides.iter().map(|s| s.ai.clone()).collect();
    let outcome = round_robin::run(schedule, &configs, &pairings, &cfg, &STOP, &on_done)?;
    bar.finish();
    if let Some(e) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e.into());
    }
    if let Some(f) = games_file {
        f.finish(&[]).map_err(String::from)?;
    }
    for (p, (s, t)) in outcome.summaries.iter().zip(&outcome.tallies).enumerate() {
        summaries[p].merge(s);
        tallies[p].merge(t);
    }
    let played: u64 = summaries.iter().map(Accumulator::games).sum();
    if played == 0 {
        return Err(CliError::from("no game was played".to_owned()));
    }
    let matches: Vec<_> = summaries.iter().filter_map(Accumulator::summary).collect();
    let results: Vec<([usize; 2], PairTally)> =
        pairs.iter().copied().zip(tallies.iter().copied()).collect();
    let table = TournamentSummary::new(a.seed, &head, a.games, &results);
    let ai: Vec<String> = sides
        .iter()
        .map(|s| s.describe(&pairings[0].settings))
        .collect();
    let text = if a.json {
        let v = serde_json::json!({
            "schema_version": dagaz::stats::SUMMARY_SCHEMA_VERSION,
            "seed": a.seed,
            "players": head.players,
            "ai": ai,
            "matches": matches,
            "tournament": table,
            "interrupted": outcome.interrupted,
        });
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    } else {
        let mut t = matches.iter().map(human).collect::<Vec<_>>().join("\n");
        t += "\nplayers:\n";
        for (i, (s, d)) in sides.iter().zip(&ai).enumerate() {
            t += &format!("{:>2} {} (\"{}\"): {d}\n", i + 1, s.spec, s.title);
        }
        t += &tournament_text(&table);
        if outcome.interrupted {
            t += &format!(
                "interrupted: {played} of {} games played\n",
                schedule.total_games()
            );
        }
        t
    };
    write_output(None, text.as_bytes())?;
    Ok(if outcome.interrupted { 130 } else { OK })
}

/// The finished games of the run recorded in `path` ([`resume_round_robin`]).
fn resumed<G>(
    path: &Path,
    a: &Args,
    schedule: &Schedule,
    pairings: &[Pairing<'_, G>],
) -> Result<Vec<GameRecord>, String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{name}`: {e}"))?;
    let (records, dropped) = read_run(&text, &name)?;
    if let Some(w) = dropped {
        eprintln!("warning: {w}");
    }
    let expected: Vec<(&RunSettings, Option<&RunIdentity>)> = pairings
        .iter()
        .map(|p| (&p.settings, p.identity.as_ref()))
        .collect();
    Ok(resume_round_robin(
        records, &name, a.seed, a.games, schedule, &expected,
    )?)
}

//! `dagaz autoplay`: AI-vs-AI matches, Axiom AutoPlay done properly (see docs/autoplay.md).

use crate::common::{CliError, INCONCLUSIVE, OK, PROBLEMS, write_output};
use dagaz::ai::engine_game::EngineGame;
use dagaz::ai::{AiConfig, AiKind};
use dagaz::autoplay::{MatchVerdict, judge, resume_run};
use dagaz::axiom::{AxiomGame, Program};
use dagaz::model::Model;
use dagaz::players::resolve::ResolveOptions;
use dagaz::players::spec::{
    Player, PlayerSpec, describe_program, resolve_player, same_rules, same_rules_but_setup,
};
use dagaz::record::GamesFile;
use dagaz::stats::gate::{ExpectScore, GateResult, Verdict};
use dagaz::stats::sprt::{Decision, EloModel, LlrMethod, Sprt, SprtState};
use dagaz::stats::{Summary, axiom_lines, human};
use dagaz::tournament::adjudication::AdjudicationSpec;
use dagaz::tournament::openings::{Opening, OpeningBook, parse_book};
use dagaz::tournament::record::{
    GameRecord, Repetition, RunIdentity, RunSettings, read_run, write_records,
};
use dagaz::tournament::{RunConfig, run_with as run_match, with_limits};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by Ctrl-C, SIGTERM or SIGHUP: workers stop taking new games; what finished is
/// already in the games file.
static STOP: AtomicBool = AtomicBool::new(false);

/// Round robins and gauntlets (three or more players).
#[path = "autoplay_rr.rs"]
mod round_robin;

/// Play AI against AI: variants of the same rules, many games, with statistics.
///
/// A player is GAME[:VARIANT][@AI[:key=value,...]]: GAME a bundled game or variant slug
/// (`dagaz games` lists them), a path to a .zrf file, or an Axiom variant file (.4th);
/// VARIANT a slug of the file (`dagaz games FILE`); @AI an AI with settings, named as in the
/// `(option "ai ...")` forms (docs/ai.md), instead of the variant's own AI. A path that
/// exists wins over reading `:` and `@` as separators. Games run in parallel; every random
/// choice comes from --seed, so results do not depend on -j (unless --time-ms is set).
/// By default sides are swapped every game (colour-swapped pairs); --no-swap reproduces
/// Axiom's AutoPlay, where player A always moves first. Three or more players play a round
/// robin (--gauntlet: the first against each of the others), -n games per pairing, and
/// get a crosstable and joint Elo ratings.
///
/// Examples:
///   dagaz autoplay ur-random ur-simple -n 4
///   dagaz autoplay ur-random ur-simple ur-aggressive -n 2
///   dagaz autoplay tic-tac-toe@random tic-tac-toe@alphabeta:depth=2,material=1 -n 4
///   dagaz autoplay ur-simple ur-random -n 4 --seed 7 --json
///   dagaz autoplay checkers checkers -n 2 --zsg-out saved
///   dagaz autoplay ur-aggressive ur-random -n 4 --no-swap --games-out games.jsonl
///   dagaz autoplay ur-random ur-random -n 4 --shard 1/2 --games-out shard1.jsonl
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// players A (Axiom's "Player 1") and B ("Player 2"), each GAME[:VARIANT][@AI[:key=value,...]];
    /// B may be left out for a one-seat game (a solitaire, or one AI against random
    /// players): A then plays every game. Three or more players play a round robin
    #[arg(required = true, value_name = "PLAYER")]
    pub players: Vec<String>,
    /// number of games in the whole run (all shards); in a round robin or gauntlet, of
    /// each pairing
    #[arg(short = 'n', long = "games", default_value_t = 100)]
    pub games: u64,
    /// with three or more players: the first player meets each of the others only
    /// (default: every pair meets)
    #[arg(long)]
    pub gauntlet: bool,
    /// every player also meets itself (in a gauntlet, the first player): the first-player
    /// score of these games is the rules' first-seat advantage at that player's level
    #[arg(long)]
    pub self_play: bool,
    /// worker threads (default: all cores)
    #[arg(short = 'j', long = "jobs", visible_aliases = ["concurrency", "threads"])]
    pub jobs: Option<usize>,
    /// run seed; game i uses Rng::derive(seed, i)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A always takes the first seat (Axiom's AutoPlay); default: swap every game
    #[arg(long)]
    pub no_swap: bool,
    /// plies (dice included) after which a game is stopped and adjudicated a draw [default:
    /// 2000; 20000 for Axiom programs]
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// per-move node limit for searching AIs (overrides "ai nodes" and @AI:nodes=)
    #[arg(long)]
    pub nodes: Option<u64>,
    /// per-move depth for searching AIs and Axiom's $NegamaxMove (overrides "ai depth" and
    /// @AI:depth=)
    #[arg(long)]
    pub depth: Option<u32>,
    /// primitives an Axiom program's engine ($NegamaxMove, $UCTMove or its own OnSearch)
    /// may run per move: its time limit, reproducible (default 1000000000; each search
    /// gets between 3/4 and 5/4 of it, drawn from the seed, as a time limit varies); when
    /// they run out, $NegamaxMove plays the best move of its deepest finished iteration, $UCTMove
    /// its most visited move, a program's own engine its last BestMove! (else the first
    /// move); the summary counts the searches cut
    #[arg(long, value_name = "N")]
    pub search_steps: Option<u64>,
    /// Axiom programs: replay move words and OnNextTurn, and answer OnEvaluate, from
    /// traces of earlier runs whose inputs did not change (on by default; the results are
    /// identical either way, off is only slower)
    #[arg(long, value_name = "on|off", default_value = "on", value_parser = ["on", "off"])]
    pub move_cache: String,
    /// per-move time limit in milliseconds (overrides "ai time" and @AI:time=); makes
    /// results depend on machine load
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// what threefold repetition does when no `repetition` goal of the rules assigns it:
    /// end the game in a draw (ZoG's rule) or let the game go on
    #[arg(long, value_enum, default_value_t = RepetitionArg::Draw)]
    pub repetition: RepetitionArg,
    /// print a JSON summary (schema_version 3) instead of the text (= `--format json`)
    #[arg(long)]
    pub json: bool,
    /// text or json (the summary on stdout)
    #[arg(long, value_enum, default_value = "text")]
    pub format: crate::common::OutFormat,
    /// write one JSON record per game (JSON Lines): each game is appended and flushed as it
    /// finishes, and the file is rewritten in game order at the end
    #[arg(long, value_name = "FILE")]
    pub games_out: Option<PathBuf>,
    /// write each game as a Zillions saved game, DIR/game-NNNNNN.zsg (by game index), that
    /// ZoG opens and `dagaz replay` follows (ZRF games, and ZRF games played by their
    /// Axiom engine)
    #[arg(long, value_name = "DIR")]
    pub zsg_out: Option<PathBuf>,
    /// play only slice K of N of the game indices (pairs stay together), e.g. 2/8
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// continue (or extend, with a larger -n) the run recorded in FILE: skip the games it
    /// holds, and write there unless --games-out is given
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// a folder where the includes of a player's rules file may also be read (after the
    /// including file's own folder); repeatable
    #[arg(long = "include-dir", value_name = "DIR")]
    pub include_dir: Vec<PathBuf>,
    /// with --resume: only repair FILE (drop a last record cut short by a kill, sort the
    /// records by game index) and exit, without playing
    #[arg(long, requires = "resume")]
    pub repair: bool,
    /// gate on a player's score, e.g. A:0.60..1.0: exit 0 when its 95% interval lies
    /// inside the range, 1 when outside, 3 when it overlaps (inconclusive)
    #[arg(long, value_name = "P:LOW..HIGH")]
    pub expect_score: Vec<String>,
    /// sequential test on A's strength, e.g. "elo0=0 elo1=20" (alpha, beta default 0.05;
    /// model=logistic|normalized; method=normal|gsprt); stops when decided; exit 0 for
    /// H1, 1 for H0, 3 when undecided
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// leave the wall-clock time (`time_ms`) out of the game records, so that two runs
    /// give byte-identical files
    #[arg(long)]
    pub no_timing: bool,
    /// opening book: one opening per line, moves separated by `;` (`X Man a1; O Man b2`) or
    /// `variant: SPEC` (another start position); colour-swapped pair p plays line p mod N
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// K random plies after the opening, shared by both games of a colour-swapped pair
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub random_plies: u32,
    /// end decided games early (two seats): win=SCORE:PLIES (a side whose evaluation stays
    /// below -SCORE for PLIES plies resigns), draw=SCORE:PLIES[:FROM], cap=SCORE (at the ply
    /// cap, a lead above SCORE wins), eval=A|B (whose evaluation terms the referee uses;
    /// default A); repeatable or comma-separated
    #[arg(long, value_name = "RULES")]
    pub adjudicate: Vec<String>,
}

impl Args {
    /// The ply cap of games of `game`: `--max-plies`, or the game's default. Errors when
    /// `--random-plies` leaves no ply to play under it.
    pub(crate) fn max_plies<G: dagaz::ai::Game>(&self, game: &G) -> Result<u32, String> {
        let cap = self.max_plies.unwrap_or_else(|| game.default_max_plies());
        if self.random_plies >= cap {
            return Err(format!(
                "--random-plies {} leaves no ply to play under --max-plies {cap}",
                self.random_plies
            ));
        }
        Ok(cap)
    }

    /// Player A.
    fn a(&self) -> &str {
        &self.players[0]
    }

    /// Player B, when given.
    fn b(&self) -> Option<&str> {
        self.players.get(1).map(String::as_str)
    }

    /// A round robin or gauntlet: three or more players, or two with self-play.
    fn is_tournament(&self) -> bool {
        self.players.len() >= 3 || (self.players.len() == 2 && self.self_play)
    }
}

/// `--repetition`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RepetitionArg {
    Draw,
    Off,
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (k, n) = s.split_once('/').ok_or("--shard: expected K/N, e.g. 1/4")?;
    let k: u64 = k.trim().parse().map_err(|_| "--shard: K is not a number")?;
    let n: u64 = n.trim().parse().map_err(|_| "--shard: N is not a number")?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("--shard {s}: need 1 <= K <= N"));
    }
    Ok((k, n))
}

fn compile(p: &PlayerSpec) -> Result<Model, CliError> {
    Model::compile(&p.game).map_err(|diags| {
        let msgs: Vec<String> = diags.iter().map(|d| d.message.clone()).collect();
        CliError::Problems(format!(
            "`{}` cannot be played: {}",
            p.spec,
            msgs.join("; ")
        ))
    })
}

pub fn run(mut a: Args) -> u8 {
    a.json |= a.format == crate::common::OutFormat::Json;
    match run_inner(a) {
        Ok(code) => code,
        Err(e) => e.report(),
    }
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
    if let Some(r) = a.resume.as_ref().filter(|_| a.repair) {
        let text = std::fs::read_to_string(r)
            .map_err(|e| format!("cannot read `{}`: {e}", r.display()))?;
        let (records, dropped) = read_run(&text, &r.display().to_string())?;
        dagaz::fsutil::write_atomic(r, write_records(&records).as_bytes())
            .map_err(|e| format!("cannot write `{}`: {e}", r.display()))?;
        eprintln!(
            "repaired `{}`: {} record(s) kept{}",
            r.display(),
            records.len(),
            dropped.map(|w| format!("; {w}")).unwrap_or_default()
        );
        return Ok(OK);
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
    if a.is_tournament() {
        if a.zsg_out.is_some() {
            return Err(CliError::from(
                "--zsg-out writes the games of one pairing; a round robin is not supported yet"
                    .to_owned(),
            ));
        }
        let checks = !expects.is_empty() || sprt.is_some();
        return round_robin::run(a, shard, checks, repetition, adjudication);
    }
    let opts = ResolveOptions::with_include_dirs(&a.include_dir);
    let pa = resolve_player(a.a(), &opts).map_err(CliError::of_spec)?;
    let pb = match a.b() {
        Some(b) => resolve_player(b, &opts).map_err(CliError::of_spec)?,
        None => pa.clone(),
    };
    let (pa, pb) = match (pa, pb) {
        (Player::Rules(pa), Player::Rules(pb)) => (pa, pb),
        (Player::Axiom(pa), Player::Axiom(pb)) => {
            let mut proto =
                AxiomGame::new(&pa.program, &pb.program, a.seed).map_err(|e| CliError::Problems(e.to_string()))?;
            configure_axiom(&mut proto, &a, repetition);
            let sides = [
                Side::axiom(&pa.spec, &pa.program, &pa.ai, a.search_steps),
                Side::axiom(&pb.spec, &pb.program, &pb.ai, a.search_steps),
            ];
            let book = opening_book(&a, &proto, no_setup_variants)?;
            no_zsg_out(&a)?;
            let conduct = Conduct {
                book,
                adjudication,
                zsg: None,
            };
            return play(a, proto, sides, false, shard, expects, sprt, repetition, conduct);
        }
        _ => return Err(CliError::from("one player is an Axiom program (.4th) and the other a ZRF game: both must be of the same game".to_owned())),
    };
    for w in pa.warnings.iter().chain(&pb.warnings) {
        eprintln!("{w}");
    }
    // A ZRF game whose moves come from Axiom plays through its variant's `.4th` file, with
    // the program's own engines unless the spec names an AI.
    if let Some(ra) = zrf_axiom(&pa, &a.include_dir) {
        let (fa, dir_a) = ra?;
        let (fb, dir_b) =
            zrf_axiom(&pb, &a.include_dir).unwrap_or_else(|| Ok((fa.clone(), dir_a.clone())))?;
        let load = |f: &Path, d: &Path| {
            Program::load(f, Some(d))
                .map_err(|e| format!("`{}` cannot be played: {e}", f.display()))
        };
        let (xa, xb) = (load(&fa, &dir_a)?, load(&fb, &dir_b)?);
        let mut proto =
            AxiomGame::new(&xa, &xb, a.seed).map_err(|e| CliError::Problems(e.to_string()))?;
        configure_axiom(&mut proto, &a, repetition);
        let ai_of = |p: &PlayerSpec| match &p.ai_spec {
            Some(_) => p.ai.clone(),
            None => program_ai(),
        };
        let sides = [
            Side::axiom(&pa.spec, &xa, &ai_of(&pa), a.search_steps),
            Side::axiom(&pb.spec, &xb, &ai_of(&pb), a.search_steps),
        ];
        let book = opening_book(&a, &proto, no_setup_variants)?;
        // The saved games' moves are read by A's program (both play the same rules).
        let start =
            AxiomGame::new(&xa, &xa, a.seed).map_err(|e| CliError::Problems(e.to_string()))?;
        let zsg = ZsgOut::new(a.zsg_out.as_deref(), &pa, ZsgWriter::Program(start))?;
        let conduct = Conduct {
            book,
            adjudication,
            zsg,
        };
        return play(
            a, proto, sides, false, shard, expects, sprt, repetition, conduct,
        );
    }
    if !same_rules(&pa, &pb) {
        return Err(CliError::from(format!(
            "`{}` (\"{}\", {}) and `{}` (\"{}\", {}) are not variants of the same rules: they differ in more than titles and \"ai\" options",
            pa.spec, pa.title, pa.source, pb.spec, pb.title, pb.source
        )));
    }
    let model = compile(&pa)?;
    let zsg = ZsgOut::new(
        a.zsg_out.as_deref(),
        &pa,
        ZsgWriter::Engine(Box::new(dagaz::Engine::new(model.clone()))),
    )?;
    let goalless = model.goals.is_empty();
    let rule = match repetition {
        Repetition::Draw => dagaz::engine::RepetitionRule::Draw,
        Repetition::Off => dagaz::engine::RepetitionRule::Off,
    };
    let mut proto = EngineGame::new(model);
    proto.engine.repetition = rule;
    // A book line `variant: SPEC` starts from that variant's position.
    let setup_variant = |spec: &str| setup_variant_game(spec, &opts, &pa, rule);
    let book = opening_book(&a, &proto, setup_variant)?;
    let sides = [Side::zrf(&pa), Side::zrf(&pb)];
    let conduct = Conduct {
        book,
        adjudication,
        zsg,
    };
    play(
        a, proto, sides, goalless, shard, expects, sprt, repetition, conduct,
    )
}

/// The start position of a book line `variant: SPEC`: that variant of `player`'s rules,
/// which may differ from them only in its `board-setup`.
pub(crate) fn setup_variant_game(
    spec: &str,
    opts: &ResolveOptions,
    player: &PlayerSpec,
    rule: dagaz::engine::RepetitionRule,
) -> Result<EngineGame, String> {
    let v = match resolve_player(spec, opts).map_err(|e| e.to_string())? {
        Player::Rules(v) => v,
        Player::Axiom(_) => {
            return Err(format!("`{spec}` is an Axiom program, not a ZRF variant"));
        }
    };
    if !same_rules_but_setup(player, &v) {
        return Err(format!(
            "`{spec}` (\"{}\") is not a start position of `{}`: its rules differ in more than the board-setup",
            v.title, player.spec
        ));
    }
    let mut g = EngineGame::new(compile(&v).map_err(|e| e.message())?);
    g.engine.repetition = rule;
    Ok(g)
}

/// How the games of a run start and may be ended early.
struct Conduct<G> {
    /// The book and random plies, with the setting recorded for them (`name#hash`).
    book: (OpeningBook<G>, Option<String>),
    adjudication: Option<AdjudicationSpec>,
    /// `--zsg-out`.
    zsg: Option<ZsgOut>,
}

/// Where `--zsg-out` writes each game as a Zillions saved game.
pub(crate) struct ZsgOut {
    dir: PathBuf,
    /// What turns a record's moves into the saved game's lines: the engine (a ZRF game)
    /// or the program at its start position (a ZRF game played by its Axiom engine).
    writer: Mutex<ZsgWriter>,
    rules_file: String,
    variant: String,
}

enum ZsgWriter {
    Engine(Box<dagaz::Engine>),
    Program(AxiomGame),
}

impl ZsgOut {
    /// For the game of `p` (its rules named relative to `dir`), or `None` without
    /// `--zsg-out`.
    fn new(
        dir: Option<&Path>,
        p: &PlayerSpec,
        writer: ZsgWriter,
    ) -> Result<Option<ZsgOut>, String> {
        let Some(dir) = dir else { return Ok(None) };
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("--zsg-out: cannot make `{}`: {e}", dir.display()))?;
        let rules_file = match p.source.strip_prefix("bundled:") {
            Some(name) => format!("{name}.zrf"),
            None => relative_to(dir, Path::new(&p.source)),
        };
        Ok(Some(ZsgOut {
            dir: dir.to_path_buf(),
            writer: Mutex::new(writer),
            rules_file,
            variant: p.title.clone(),
        }))
    }

    fn write(&self, r: &GameRecord) -> Result<(), String> {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let (rules, variant) = (&self.rules_file, &self.variant);
        let game = match &mut *w {
            ZsgWriter::Engine(e) => dagaz::replay::saved_game(e, rules, variant, &r.moves),
            ZsgWriter::Program(g) => {
                dagaz::replay::saved_game_of(&mut g.clone(), rules, variant, &r.moves)
            }
        }
        .map_err(|e| format!("--zsg-out: game {}: {e}", r.game_index))?;
        let path = self.dir.join(format!("game-{:06}.zsg", r.game_index));
        dagaz::fsutil::write_atomic(&path, dagaz::zsg::write(&game).as_bytes())
            .map_err(|e| format!("--zsg-out: cannot write `{}`: {e}", path.display()))
    }
}

/// `file` as a path relative to the folder `dir`, with `\\` between its parts as ZoG
/// writes them (the file's name alone when the two share no root).
fn relative_to(dir: &Path, file: &Path) -> String {
    let (Ok(d), Ok(f)) = (dir.canonicalize(), file.canonicalize()) else {
        return file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
    };
    let dc: Vec<_> = d.components().collect();
    let fc: Vec<_> = f.components().collect();
    let common = dc.iter().zip(&fc).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
    }
    let mut parts: Vec<String> = vec!["..".to_owned(); dc.len() - common];
    parts.extend(
        fc[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("\\")
}

/// `--zsg-out` is for ZRF games: an Axiom program's moves are its own notation.
fn no_zsg_out(a: &Args) -> Result<(), String> {
    match a.zsg_out {
        Some(_) => {
            Err("--zsg-out writes ZRF games; Axiom programs are not supported yet".to_owned())
        }
        None => Ok(()),
    }
}

fn no_setup_variants<G>(_: &str) -> Result<G, String> {
    Err(
        "`variant:` lines need a ZRF game (an Axiom program has no variants to start from)"
            .to_owned(),
    )
}

/// Reads and checks `--openings` (and takes `--random-plies`); `setup_variant` gives the
/// start position of a `variant: SPEC` line.
fn opening_book<G: dagaz::ai::Game>(
    a: &Args,
    proto: &G,
    setup_variant: impl Fn(&str) -> Result<G, String>,
) -> Result<(OpeningBook<G>, Option<String>), String> {
    let mut book = OpeningBook {
        random_plies: a.random_plies,
        ..OpeningBook::default()
    };
    let Some(path) = &a.openings else {
        return Ok((book, None));
    };
    let name = path.display().to_string();
    let size = std::fs::metadata(path)
        .map_err(|e| format!("--openings: cannot read `{name}`: {e}"))?
        .len();
    if size > dagaz::tournament::openings::MAX_BOOK_BYTES as u64 {
        return Err(format!(
            "--openings: `{name}` is {size} bytes; an opening book may hold at most {}",
            dagaz::tournament::openings::MAX_BOOK_BYTES
        ));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("--openings: cannot read `{name}`: {e}"))?;
    for line in parse_book(&text, &name).map_err(|e| format!("--openings: {e}"))? {
        let start = match &line.variant {
            Some(v) => Some(
                setup_variant(v).map_err(|e| format!("--openings: {name}:{}: {e}", line.line))?,
            ),
            None => None,
        };
        book.openings.push(Opening { line, start });
    }
    book.check(proto, &name)
        .map_err(|e| format!("--openings: {e}"))?;
    let hash = dagaz::tournament::record::hash_hex(&text);
    Ok((book, Some(format!("{name}#{hash}"))))
}

/// What the report and the records need to know of a player.
struct Side {
    spec: String,
    title: String,
    source: String,
    ai: AiConfig,
    /// The program's engines, when the AI is the program's own ([`AiKind::Program`]).
    program: Option<Program>,
    /// The text that identifies the player's rules in the records.
    identity: String,
    /// `--search-steps`, for naming a program's own search engine.
    search_steps: Option<u64>,
}

impl Side {
    fn zrf(p: &PlayerSpec) -> Side {
        Side {
            spec: p.spec.clone(),
            title: p.title.clone(),
            source: p.source.clone(),
            ai: p.ai.clone(),
            program: None,
            identity: dagaz::syntax::print::print_compact(&p.game.form),
            search_steps: None,
        }
    }

    fn axiom(spec: &str, p: &Program, ai: &AiConfig, search_steps: Option<u64>) -> Side {
        let mut identity = String::new();
        for f in [&p.runtime.0, &p.runtime.1, &Some(p.path.clone())]
            .into_iter()
            .flatten()
        {
            identity += &std::fs::read_to_string(f).unwrap_or_default();
        }
        Side {
            spec: spec.to_owned(),
            title: p.info.name.clone(),
            source: p.path.display().to_string(),
            ai: ai.clone(),
            program: (ai.kind == AiKind::Program).then(|| p.clone()),
            identity,
            search_steps,
        }
    }

    /// The AI as it plays: after `--depth`, `--nodes` and `--time-ms`.
    fn describe(&self, settings: &RunSettings) -> String {
        match &self.program {
            Some(p) => describe_program(p, settings.depth, self.search_steps),
            None => with_limits(self.ai.clone(), settings).describe(),
        }
    }
}

/// Warns (on stderr) when `--nodes` or `--time-ms` is given and a side plays with an Axiom
/// program's own engines, which those limits do not reach (`--depth` and `--search-steps`
/// do).
fn warn_unused_limits(a: &Args, sides: &[Side]) {
    let given: Vec<&str> = [a.nodes.map(|_| "--nodes"), a.time_ms.map(|_| "--time-ms")]
        .into_iter()
        .flatten()
        .collect();
    if !given.is_empty() && sides.iter().any(|s| s.program.is_some()) {
        let verb = if given.len() == 1 { "does" } else { "do" };
        eprintln!(
            "warning: {} {verb} not limit an Axiom program's own engines; --depth and --search-steps do",
            given.join(" and ")
        );
    }
}

/// The AI of a player that plays with its program's own engines.
fn program_ai() -> AiConfig {
    let mut ai = AiConfig::default();
    ai.kind = AiKind::Program;
    ai
}

/// The Axiom variant file and engine folder of a ZRF player whose game names an Axiom
/// engine.
pub(crate) fn zrf_axiom(
    p: &PlayerSpec,
    include_dirs: &[PathBuf],
) -> Option<Result<(PathBuf, PathBuf), String>> {
    if p.source.starts_with("bundled:") {
        return None;
    }
    dagaz::axiom::program::zrf_engine_variant(
        &p.game.form,
        &p.title,
        Path::new(&p.source),
        include_dirs,
    )
    .map(|r| r.map_err(|e| format!("`{}`: {e}", p.spec)))
}

/// The progress of a run: a bar with the running score on a terminal; elsewhere (a CI log)
/// a line about every [`PROGRESS_EVERY`] on stderr, with the games done and the running
/// score: A's wins-losses-draws and the Elo difference it implies in a match, the players'
/// points so far (best first) in a round robin or gauntlet.
pub(crate) struct Progress {
    bar: ProgressBar,
    todo: u64,
    terminal: bool,
    state: Mutex<ProgressState>,
}

struct ProgressState {
    done: u64,
    score: RunningScore,
    last_line: std::time::Instant,
}

/// The running score a progress line shows.
enum RunningScore {
    /// A match: A's wins, losses and draws.
    Match([u64; 3]),
    /// A round robin: each player's points and games, in order of first appearance.
    Standings(Vec<(String, f64, u64)>),
}

impl RunningScore {
    /// Counts a game of `players` (A, B) in which A scored `score_a` (none: unfinished).
    fn add(&mut self, players: &[String; 2], score_a: Option<f64>) {
        let Some(a) = score_a else { return };
        match self {
            RunningScore::Match(wld) => match a {
                x if x > 0.75 => wld[0] += 1,
                x if x < 0.25 => wld[1] += 1,
                _ => wld[2] += 1,
            },
            RunningScore::Standings(rows) => {
                for (name, points) in players.iter().zip([a, 1.0 - a]) {
                    match rows.iter_mut().find(|row| &row.0 == name) {
                        Some(row) => {
                            row.1 += points;
                            row.2 += 1;
                        }
                        None => rows.push((name.clone(), points, 1)),
                    }
                }
            }
        }
    }

    fn text(&self) -> String {
        match self {
            RunningScore::Match([w, l, d]) => {
                let played = w + l + d;
                if played == 0 {
                    return String::new();
                }
                let s = (*w as f64 + 0.5 * *d as f64) / played as f64;
                let elo = if s <= 0.0 || s >= 1.0 {
                    "±inf".to_owned()
                } else {
                    format!("{:+.0}", -400.0 * (1.0 / s - 1.0).log10())
                };
                format!("A {w}-{l}-{d} ({:.1}%, Elo {elo})", 100.0 * s)
            }
            RunningScore::Standings(rows) => {
                let mut order: Vec<&(String, f64, u64)> = rows.iter().collect();
                // Best share of points first; equal shares in order of appearance.
                order.sort_by(|x, y| (y.1 / y.2 as f64).total_cmp(&(x.1 / x.2 as f64)));
                let shown: Vec<String> = order
                    .iter()
                    .map(|(name, points, games)| format!("{name} {points}/{games}"))
                    .collect();
                if shown.is_empty() {
                    String::new()
                } else {
                    format!("points: {}", shown.join(", "))
                }
            }
        }
    }
}

/// How often a run without a terminal prints its progress line.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

impl Progress {
    /// The progress of a match of `todo` games.
    pub(crate) fn new(todo: u64) -> Progress {
        Progress::with_score(todo, RunningScore::Match([0; 3]))
    }

    /// The progress of a round robin or gauntlet of `todo` games.
    pub(crate) fn round_robin(todo: u64) -> Progress {
        Progress::with_score(todo, RunningScore::Standings(vec![]))
    }

    fn with_score(todo: u64, score: RunningScore) -> Progress {
        Progress {
            bar: progress_bar(todo),
            todo,
            terminal: std::io::stderr().is_terminal(),
            state: Mutex::new(ProgressState {
                done: 0,
                score,
                last_line: std::time::Instant::now(),
            }),
        }
    }

    /// Counts a finished game.
    fn game(&self, r: &GameRecord) {
        self.bar.inc(1);
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.done += 1;
        st.score.add(&r.settings.players, r.score_a);
        let score = st.score.text();
        if self.terminal {
            self.bar.set_message(score);
        } else if st.last_line.elapsed() >= PROGRESS_EVERY {
            st.last_line = std::time::Instant::now();
            eprintln!("progress: {}/{} games; {score}", st.done, self.todo);
        }
    }

    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The progress bar of a run of `todo` games, on stderr when it is a terminal.
fn progress_bar(todo: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(todo),
        if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} games ({per_sec}, eta {eta}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// After each game: advances the bar and appends the record to the games file; a failed
/// write stops the run (the first error is kept in `write_error`).
fn game_done(
    progress: &Progress,
    games_file: Option<&GamesFile>,
    zsg: Option<&ZsgOut>,
    write_error: &Mutex<Option<String>>,
    r: &GameRecord,
) {
    progress.game(r);
    let zsg = zsg.map(|z| z.write(r)).unwrap_or(Ok(()));
    if let Some(Err(e)) = games_file
        .map(|f| f.append(r).map_err(String::from))
        .or(Some(zsg))
    {
        STOP.store(true, Ordering::SeqCst);
        write_error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(e);
    }
}

/// Ctrl-C, SIGTERM and SIGHUP set [`STOP`]; a second one quits at once (exit 130). ctrlc
/// gives one portable handler (Unix signals and the Windows console) without unsafe code.
pub(crate) fn stop_on_signals() {
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!(
            "\ninterrupted: stopping the games in progress, recorded as interrupted (Ctrl-C again to quit now)"
        );
    });
}

/// Plays the match and reports it (everything after the players are known).
#[allow(clippy::too_many_arguments)]
fn play<G: dagaz::ai::Game + Sync>(
    a: Args,
    proto: G,
    sides: [Side; 2],
    goalless: bool,
    shard: Option<(u64, u64)>,
    expects: Vec<ExpectScore>,
    sprt: Option<Sprt>,
    repetition: Repetition,
    conduct: Conduct<G>,
) -> Result<u8, CliError> {
    let [pa, pb] = &sides;
    warn_unused_limits(&a, &sides);
    let Conduct {
        book: (book, book_setting),
        adjudication,
        zsg,
    } = conduct;
    let seats = dagaz::ai::Game::seats(&proto);
    let one_seat = seats.len() == 1;
    if a.b().is_none() && !one_seat {
        return Err(CliError::from(format!(
            "`{}` has {} seats: give two players (the same one twice for self-play)",
            pa.spec,
            seats.len()
        )));
    }
    if one_seat && sprt.is_some() {
        return Err(CliError::from(
            "--sprt needs two players on two or more seats: a one-seat game has no winner between them"
                .to_owned(),
        ));
    }
    let mut settings = RunSettings::new(
        [pa.spec.clone(), pb.spec.clone()],
        [pa.title.clone(), pb.title.clone()],
        a.games,
    );
    // With one player, A plays every game.
    settings.swap = !a.no_swap && a.b().is_some();
    settings.max_plies = a.max_plies(&proto)?;
    settings.nodes = a.nodes;
    settings.depth = a.depth;
    settings.time_ms = a.time_ms;
    settings.search_steps = a.search_steps;
    settings.repetition = repetition;
    settings.openings = book_setting;
    settings.random_plies = book.random_plies;
    settings.adjudicate = adjudication.map(|s| s.canonical());
    if adjudication.is_some() && seats.len() != 2 {
        return Err(CliError::from(format!(
            "--adjudicate needs a game with two seats; `{}` has {}",
            pa.spec,
            seats.len()
        )));
    }
    let identity = RunIdentity::new(&pa.identity, &pb.identity, &settings);
    // Resume: the games already played.
    let mut previous: Vec<GameRecord> = vec![];
    if let Some(r) = a.resume.as_ref().filter(|r| r.exists()) {
        let text = std::fs::read_to_string(r)
            .map_err(|e| format!("cannot read `{}`: {e}", r.display()))?;
        let name = r.display().to_string();
        let (records, dropped) = read_run(&text, &name)?;
        if let Some(w) = dropped {
            eprintln!("warning: {w}");
        }
        previous = resume_run(records, &name, a.seed, &settings, &identity)?;
    }
    let threads = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let mut cfg = RunConfig::new(a.seed, settings.clone());
    cfg.threads = threads;
    cfg.shard = shard;
    cfg.skip = previous.iter().map(|r| r.game_index).collect();
    cfg.sprt = sprt;
    cfg.sprt_history = match sprt {
        Some(_) => previous.iter().map(|r| (r.game_index, r.score_a)).collect(),
        None => Vec::new(),
    };
    cfg.identity = Some(identity);
    cfg.summary_only = true;
    // The moves are read only from the games file.
    cfg.keep_moves = a.games_out.is_some() || a.resume.is_some() || zsg.is_some();
    cfg.adjudication = adjudication;
    let todo = dagaz::tournament::games_to_play(a.games, shard, &cfg.skip);
    let bar = Progress::new(todo);
    stop_on_signals();
    // The games file is opened, locked and filled with the resumed games before the first
    // game, so that a bad path fails at once and a kill loses only games in progress.
    let out_path = a.games_out.as_ref().or(a.resume.as_ref());
    let games_file = out_path
        .map(|p| GamesFile::open(p, &previous, a.no_timing))
        .transpose()
        .map_err(String::from)?;
    // Only the statistics stay in memory (the run keeps no records: `summary_only`); the
    // games file is rewritten from its own lines at the end.
    let mut summary_acc = dagaz::stats::Accumulator::default();
    for r in &previous {
        summary_acc.add(r);
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
    let write_error: Mutex<Option<String>> = Mutex::new(None);
    let on_done =
        |r: &GameRecord| game_done(&bar, games_file.as_ref(), zsg.as_ref(), &write_error, r);
    let outcome = run_match(&proto, [&pa.ai, &pb.ai], &cfg, &book, &STOP, &on_done)?;
    bar.finish();
    if let Some(e) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e.into());
    }
    let dropped: std::collections::HashSet<u64> = outcome.dropped.iter().copied().collect();
    if previous.iter().any(|r| dropped.contains(&r.game_index)) {
        summary_acc = dagaz::stats::Accumulator::default();
        for r in previous.iter().filter(|r| !dropped.contains(&r.game_index)) {
            summary_acc.add(r);
        }
    }
    drop(previous);
    summary_acc.merge(&outcome.summary);
    if let Some(f) = games_file {
        f.finish(&outcome.dropped).map_err(String::from)?;
    }
    let Some(summary) = summary_acc.summary() else {
        return Err(CliError::from("no game was played".to_owned()));
    };
    let MatchVerdict {
        gates,
        sprt: decision,
        verdict,
        failed,
        inconclusive,
        ..
    } = judge(&summary, &expects, outcome.sprt);
    let text = if a.json {
        JsonReport {
            summary: &summary,
            decision: &decision,
            interrupted: outcome.interrupted,
            failed: &failed,
            gates: &gates,
            verdict,
            players: [pa, pb],
            settings: &settings,
            goalless,
        }
        .render()
    } else if goalless {
        goalless_report(&summary, pa, &settings)
    } else {
        let mut t = axiom_lines(&summary);
        t += &human(&summary);
        if a.b().is_some() {
            t += &format!(
                "A: {}; B: {}\n",
                pa.describe(&settings),
                pb.describe(&settings)
            );
        } else {
            t += &format!("A: {}\n", pa.describe(&settings));
        }
        if let Some((st, d)) = &decision {
            t += &sprt_line(st, *d);
        }
        for g in &gates {
            t += &format!("gate {}\n", g.message.trim_start_matches("--expect-score "));
        }
        t
    };
    let text = if outcome.interrupted && !a.json {
        format!(
            "{text}interrupted: {} of {} games played\n",
            summary_acc.games(),
            a.games
        )
    } else {
        text
    };
    write_output(None, text.as_bytes())?;
    if let Some((game, message)) = summary_acc.first_error() {
        // What went wrong, without a records file to look it up in.
        eprintln!("error in game {}: {message}", game + 1);
    }
    for f in &failed {
        eprintln!("check failed: {f}");
    }
    for f in &inconclusive {
        eprintln!("check inconclusive: {f}");
    }
    Ok(if outcome.interrupted {
        130
    } else {
        match verdict {
            Verdict::Pass => OK,
            Verdict::Fail => PROBLEMS,
            Verdict::Inconclusive => INCONCLUSIVE,
        }
    })
}

/// The report line of an SPRT.
fn sprt_line(st: &SprtState, d: Option<Decision>) -> String {
    let t = &st.test;
    let model = match t.model {
        EloModel::Logistic => "logistic",
        EloModel::Normalized => "normalized",
    };
    let method = match t.method {
        LlrMethod::Normal => "normal approximation",
        LlrMethod::Gsprt => "exact GSPRT",
    };
    let unit = if st.paired {
        format!("{} games ({} colour-swapped pairs)", st.games, st.pairs())
    } else {
        format!("{} games", st.games)
    };
    format!(
        "SPRT elo0={} elo1={} alpha={} beta={} ({model} Elo, {method}): LLR {:.2} (bounds {:.2}..{:.2}) after {unit}: {}\n",
        t.elo0,
        t.elo1,
        t.alpha,
        t.beta,
        st.llr(),
        t.lower_bound(),
        t.upper_bound(),
        match d {
            Some(Decision::H1) => "H1 accepted (A is stronger)",
            Some(Decision::H0) => "H0 accepted (A is not stronger)",
            None => "undecided",
        }
    )
}

/// The report of a game whose rules state no goals: its games can only be drawn, so the
/// usual table would be a table of draws.
fn goalless_report(s: &Summary, pa: &Side, settings: &RunSettings) -> String {
    format!(
        "no result to measure: \"{}\" ({}) states no goals (no win-, loss-, draw- or count-condition; Dagaz ports often keep them in JavaScript), so its games can only end in a draw: by repetition, with no move, or at the ply cap\n{} game(s) played, seed {}: {} by repetition, {} with no move, {} at the ply cap ({} plies); mean length {:.1} plies{}\n",
        pa.title,
        pa.source,
        s.games - s.errors,
        s.run_seed,
        s.ends.repetition,
        s.ends.no_moves,
        s.ends.ply_cap,
        settings.max_plies,
        s.mean_plies,
        if s.errors > 0 {
            format!("; {} game(s) failed (see the records)", s.errors)
        } else {
            String::new()
        }
    )
}

/// Everything the `--json` report of a run shows.
struct JsonReport<'a> {
    summary: &'a Summary,
    decision: &'a Option<(SprtState, Option<Decision>)>,
    interrupted: bool,
    failed: &'a [String],
    gates: &'a [GateResult],
    verdict: Verdict,
    /// Players A and B.
    players: [&'a Side; 2],
    settings: &'a RunSettings,
    goalless: bool,
}

impl JsonReport<'_> {
    fn render(&self) -> String {
        let JsonReport {
            summary: s,
            decision,
            interrupted,
            failed,
            gates,
            verdict,
            players: [pa, pb],
            settings,
            goalless,
        } = *self;
        let sprt = decision.as_ref().map(|(st, d)| {
            serde_json::json!({
                "elo0": st.test.elo0, "elo1": st.test.elo1, "alpha": st.test.alpha, "beta": st.test.beta,
                "model": st.test.model, "method": st.test.method,
                "unit": if st.paired { "pair" } else { "game" }, "pairs": st.pairs(),
                "games": st.games, "llr": st.llr(), "lower_bound": st.test.lower_bound(),
                "upper_bound": st.test.upper_bound(), "decision": d,
            })
        });
        let v = serde_json::json!({
            "schema_version": dagaz::stats::SUMMARY_SCHEMA_VERSION,
            "seed": s.run_seed,
            "ai": [pa.describe(settings), pb.describe(settings)],
            "summary": s,
            "sprt": sprt,
            "interrupted": interrupted,
            "no_goals": goalless,
            "failed_checks": failed,
            "gates": gates,
            "verdict": verdict,
        });
        let mut t = serde_json::to_string_pretty(&v).unwrap_or_default();
        t.push('\n');
        t
    }
}

/// The settings of the command line that an Axiom match takes: repetition, the depth of
/// `$NegamaxMove`, the engines' step budget and the move-word cache.
pub(crate) fn configure_axiom(g: &mut AxiomGame, a: &Args, repetition: Repetition) {
    g.repetition = repetition == Repetition::Draw;
    if let Some(d) = a.depth {
        g.set_search_depth(d);
    }
    if let Some(n) = a.search_steps {
        g.set_search_steps(n);
    }
    g.set_move_cache(a.move_cache == "on");
}

#[cfg(test)]
mod tests {
    use super::RunningScore;

    #[test]
    fn running_scores_of_a_match_and_of_a_round_robin() {
        let ab = ["a".to_owned(), "b".to_owned()];
        let mut m = RunningScore::Match([0; 3]);
        assert_eq!(m.text(), "");
        for s in [Some(1.0), Some(0.5), Some(1.0), None] {
            m.add(&ab, s);
        }
        assert_eq!(m.text(), "A 2-0-1 (83.3%, Elo +280)");
        let mut rr = RunningScore::Standings(vec![]);
        let bc = ["b".to_owned(), "c".to_owned()];
        rr.add(&ab, Some(0.0));
        rr.add(&bc, Some(0.5));
        rr.add(&ab, Some(0.5));
        assert_eq!(rr.text(), "points: b 2/3, c 0.5/1, a 0.5/2");
    }
}

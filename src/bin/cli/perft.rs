//! `dagaz perft`: counts the leaves of the legal-move tree of a game, checks them against
//! expected values, or runs a whole `.perft` suite.

use crate::common::{CliError, DiagFormat, OK, PROBLEMS, print_diagnostics, write_output};
use dagaz::ai::engine_game::EngineGame;
use dagaz::ai::{Game, play_written};
use dagaz::engine::perft::{DivideEntry, divide};
use dagaz::engine::split_written;
use dagaz::engine::{Engine, State};
use dagaz::expand::Loaded;
use dagaz::model::Model;
use dagaz::players::resolve::{self, GameName, ResolveOptions, Source, choose_game};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Version of the `--json` output of perft (documented in docs/cli.md).
const PERFT_SCHEMA_VERSION: u32 = 1;

/// Count the leaves of the legal-move tree (perft) of a game.
///
/// GAME is a bundled game (`chess`, `tictactoe`), a bundled variant's slug (`kiwipete`,
/// `tic-tac-toe`), a path to a .zrf file, `FILE:VARIANT`, or an Axiom variant file (.4th;
/// also without the extension). A suite file has one case per line,
/// `GAME VARIANT DEPTH EXPECTED` (VARIANT `-` = the default game), `#` starting a comment;
/// `--suite NAME` with a bundled game's name runs its own suite.
///
/// Examples:
///   dagaz perft chess --depth 3
///   dagaz perft chess 3
///   dagaz perft chess --variant kiwipete --depth 2 --divide
///   dagaz perft kiwipete --depth 2
///   dagaz perft checkers --depth 6 --expect 36768 -j 2
///   dagaz perft chess 2 --moves "e2-e4 e7-e5"
///   dagaz perft --suite tictactoe
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// a bundled game or variant, a .zrf file (FILE:VARIANT), an Axiom .4th file
    pub game: Option<String>,
    /// a folder where includes may also be read (after the including file's own folder);
    /// repeatable. Includes never leave the main file's folder and these folders
    #[arg(long = "include-dir", value_name = "DIR")]
    pub include_dir: Vec<PathBuf>,
    /// plies to search
    #[arg(long, short = 'd')]
    pub depth: Option<u32>,
    /// plies to search, given after GAME (`dagaz perft chess 4`, as other perft tools take it)
    #[arg(value_name = "DEPTH", conflicts_with = "depth")]
    pub depth_arg: Option<u32>,
    /// game or variant (title or slug); `-` for the default game
    #[arg(long)]
    pub variant: Option<String>,
    /// print the count below each root move (Stockfish style)
    #[arg(long)]
    pub divide: bool,
    /// exit with 1 unless the count equals this
    #[arg(long, value_name = "N")]
    pub expect: Option<u64>,
    /// print one JSON object instead of text (`--format json` does too)
    #[arg(long)]
    pub json: bool,
    /// threads over root moves (results do not depend on it)
    #[arg(short = 'j', long = "jobs", visible_aliases = ["concurrency", "threads"], default_value_t = 1)]
    pub jobs: usize,
    /// run a suite file, or the bundled suite of the named game
    #[arg(long, value_name = "FILE")]
    pub suite: Option<String>,
    /// count from the position these moves reach from the start: separated by `;` in
    /// dagaz notation (`Pawn e2 - e4; Pawn e7 - e5`, as `--divide` prints them), or short
    /// forms separated by spaces (`e2-e4 e7-e5`)
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// make and unmake every leaf move too (slower; same counts)
    #[arg(long)]
    pub full: bool,
    /// human, or json: the result on stdout as one JSON object and diagnostics on stderr
    /// as JSON lines
    #[arg(long, value_enum, default_value = "human")]
    pub format: DiagFormat,
}

/// Locates GAME (a bundled game or variant, a path, `path:variant`, an Axiom file) with the
/// library's resolver.
fn locate(spec: &str, base: Option<&Path>, a: &Args) -> Result<GameName, CliError> {
    let mut opts = ResolveOptions::with_include_dirs(&a.include_dir);
    opts.base = base.map(Path::to_path_buf);
    resolve::locate(spec, &opts)
        .and_then(|g| g.without_ai("perft"))
        .map_err(|e| CliError::of_spec_in(e, a.format))
}

/// Reads the rules of a located game; prints their diagnostics.
fn load(name: &GameName, include_dirs: &[PathBuf], format: DiagFormat) -> Result<Loaded, CliError> {
    let loaded = name
        .load(&ResolveOptions::with_include_dirs(include_dirs))
        .map_err(|e| CliError::of_spec_in(e, format))?;
    print_diagnostics(&loaded.diagnostics, &loaded.sources, format);
    if loaded.has_errors() {
        return Err(CliError::ProblemsShown);
    }
    Ok(loaded)
}

/// The variant to count: `--variant` (or a suite's VARIANT column; `-` is the default game)
/// or the one the name gives (`kiwipete`, `file.zrf:slug`). Both at once must agree.
fn variant_of<'a>(name: &'a GameName, flag: Option<&'a str>) -> Result<Option<&'a str>, CliError> {
    match (flag.filter(|f| *f != "-"), name.variant.as_deref()) {
        (None, v) => Ok(v),
        (Some(f), None) => Ok(Some(f)),
        (Some(f), Some(v)) if f == v => Ok(Some(v)),
        (Some(f), Some(v)) => Err(CliError::Usage(format!(
            "`{}` names the variant `{v}`, and --variant names `{f}`: give one",
            name.spec
        ))),
    }
}

/// Compiles the chosen game of a loaded file.
fn engine_for(
    loaded: &Loaded,
    variant: Option<&str>,
    shown: &str,
    format: DiagFormat,
) -> Result<(Engine, String), CliError> {
    let (game, warning) =
        choose_game(loaded, variant, shown).map_err(|e| CliError::of_spec_in(e, format))?;
    if let Some(w) = warning {
        eprintln!("{w}");
    }
    match Model::compile(game) {
        Ok(m) => {
            print_diagnostics(&crate::common::model_findings(&m), &loaded.sources, format);
            let title = m.title.clone();
            Ok((Engine::new(m), title))
        }
        Err(d) => {
            print_diagnostics(&d, &loaded.sources, format);
            Err(CliError::ProblemsShown)
        }
    }
}

fn count(
    engine: &Engine,
    state: &State,
    depth: u32,
    jobs: usize,
    full: bool,
    want_divide: bool,
) -> (u64, Vec<DivideEntry>) {
    if want_divide || jobs > 1 {
        let d = divide(engine, state, depth, jobs, full);
        let total = if depth == 0 {
            1
        } else {
            d.iter().map(|e| e.nodes).sum()
        };
        (total, d)
    } else {
        let mut e = engine.clone();
        let mut s = state.clone();
        let n = if full {
            e.perft_full(&mut s, depth)
        } else {
            e.perft(&mut s, depth)
        };
        (n, vec![])
    }
}

pub fn run(a: Args) -> u8 {
    match run_inner(a) {
        Ok(c) => c,
        Err(e) => e.report(),
    }
}

fn run_inner(mut a: Args) -> Result<u8, CliError> {
    a.json |= a.format == DiagFormat::Json;
    if a.jobs == 0 {
        return Err(CliError::Usage("-j needs at least 1".into()));
    }
    if let Some(suite) = &a.suite {
        if a.moves.is_some() {
            return Err(CliError::Usage(
                "--moves counts from one game's position: not with --suite".into(),
            ));
        }
        return run_suite(suite, &a);
    }
    let (Some(game), Some(depth)) = (&a.game, a.depth.or(a.depth_arg)) else {
        return Err(CliError::Usage(
            "give GAME and a depth (`--depth N` or `GAME N`), or --suite".into(),
        ));
    };
    let name = locate(game, None, &a)?;
    let variant = variant_of(&name, a.variant.as_deref())?;
    if let Source::Axiom(path) = &name.source {
        if let Some(v) = variant {
            return Err(CliError::Usage(format!(
                "`{game}` is an Axiom variant file: it has no variant `{v}` (name its own .4th file)"
            )));
        }
        return run_axiom(path, depth, &a);
    }
    let loaded = load(&name, &a.include_dir, a.format)?;
    let shown = name.source.name();
    // A ZRF game whose moves come from Axiom: perft of its variant's `.4th` file.
    if let Source::File(path) = &name.source {
        let found = choose_game(&loaded, variant, &shown)
            .ok()
            .and_then(|(g, _)| {
                dagaz::axiom::program::zrf_engine_variant(&g.form, &g.title, path, &a.include_dir)
            });
        if let Some(r) = found {
            let (file, dir) = r.map_err(|e| CliError::show_axiom(&e))?;
            return run_axiom_in(&file, Some(&dir), depth, &a);
        }
    }
    let (engine, title) = engine_for(&loaded, variant, &shown, a.format)?;
    let mut game = EngineGame::from_engine(engine);
    let played = play_moves(&mut game, &a)?;
    let EngineGame { engine, state, .. } = game;
    let start = Instant::now();
    let (nodes, entries) = count(&engine, &state, depth, a.jobs, a.full, a.divide);
    let secs = start.elapsed().as_secs_f64();
    let entries: Vec<(String, u64)> = entries.into_iter().map(|e| (e.notation, e.nodes)).collect();
    report(&a, &title, depth, nodes, secs, &entries, &played)
}

/// Plays `--moves` on a game at its start position; returns the texts of the moves played.
/// An illegal or ambiguous move is an error (exit 1), printed with the legal moves.
fn play_moves<G: Game>(g: &mut G, a: &Args) -> Result<Vec<String>, CliError> {
    let Some(list) = &a.moves else {
        return Ok(vec![]);
    };
    let moves = split_written(list);
    let mut buf = G::Moves::default();
    play_written(g, &moves, &mut buf).map_err(|e| CliError::Problems(format!("--moves: {e}")))
}

/// Prints a perft result (the count, or the divide, or JSON) on stdout and the speed on
/// stderr; checks `--expect` (a mismatch is an error: exit 1).
fn report(
    a: &Args,
    title: &str,
    depth: u32,
    nodes: u64,
    secs: f64,
    entries: &[(String, u64)],
    played: &[String],
) -> Result<u8, CliError> {
    let ok = a.expect.is_none_or(|e| e == nodes);
    let mut out = String::new();
    if a.json {
        let v = serde_json::json!({
            "schema_version": PERFT_SCHEMA_VERSION,
            "game": title,
            "depth": depth,
            "moves": played,
            "nodes": nodes,
            "expected": a.expect,
            "ok": ok,
            "seconds": secs,
            "nodes_per_second": nodes as f64 / secs.max(1e-9),
            "divide": a.divide.then(|| entries.iter().map(|(m, n)| serde_json::json!({"move": m, "nodes": n})).collect::<Vec<_>>()),
        });
        out = v.to_string() + "\n";
    } else if a.divide {
        for (m, n) in entries {
            // A program writes its own notations: nothing of them may drive the terminal.
            out.push_str(&format!("{}: {n}\n", dagaz::text::escape_controls(m)));
        }
        out.push_str(&format!("\nNodes searched: {nodes}\n"));
    } else {
        out.push_str(&format!("{nodes}\n"));
    }
    write_output(None, out.as_bytes())?;
    if !a.json {
        let after = match played.len() {
            0 => String::new(),
            // A program writes its own notations: nothing of them may drive the terminal.
            n => {
                dagaz::text::escape_controls(&format!(" after {n} move(s) ({})", played.join("; ")))
                    .into_owned()
            }
        };
        eprintln!(
            "{title}{after}: depth {depth}, {nodes} leaves in {secs:.3}s ({:.0} leaves/s)",
            nodes as f64 / secs.max(1e-9)
        );
    }
    if !ok {
        return Err(CliError::Problems(format!(
            "expected {}, got {nodes}",
            a.expect.unwrap_or(0)
        )));
    }
    Ok(OK)
}

/// Runs a suite: a mismatch is a result (exit 1), the lines on stdout say which.
fn run_suite(spec: &str, a: &Args) -> Result<u8, CliError> {
    let (text, base) = if Path::new(spec).is_file() {
        let t = std::fs::read_to_string(spec)
            .map_err(|e| CliError::Usage(format!("cannot read `{spec}`: {e}")))?;
        (t, Path::new(spec).parent().map(Path::to_path_buf))
    } else if let Some(b) = dagaz::games::find(spec) {
        if b.perft.is_empty() {
            return Err(CliError::Usage(format!(
                "bundled game `{spec}` has no perft suite"
            )));
        }
        (b.perft.to_owned(), None)
    } else {
        return Err(CliError::Usage(format!(
            "`{spec}` is neither a suite file nor a bundled game"
        )));
    };
    let mut failures = 0;
    let mut results = Vec::new();
    let mut cache: Vec<(String, String, Engine)> = Vec::new();
    let cases = dagaz::engine::perft::parse_suite(&text)
        .map_err(|(line, msg)| CliError::Usage(format!("{spec}:{line}: {msg}")))?;
    for case in cases {
        let (game, depth, expected) = (case.game.as_str(), case.depth, case.expected);
        let variant = case.variant.as_deref().unwrap_or("-");
        if a.depth.is_some_and(|d| depth > d) {
            continue;
        }
        let engine = match cache.iter().find(|(g, v, _)| g == game && v == variant) {
            Some((_, _, e)) => e.clone(),
            None => {
                let name = locate(game, base.as_deref(), a)?;
                if matches!(name.source, Source::Axiom(_)) {
                    return Err(CliError::Usage(format!(
                        "{spec}: `{game}` is an Axiom program; suites count ZRF games"
                    )));
                }
                let loaded = load(&name, &a.include_dir, a.format)?;
                let chosen = variant_of(&name, Some(variant))?;
                let (e, _) = engine_for(&loaded, chosen, &name.source.name(), a.format)?;
                cache.push((game.to_string(), variant.to_string(), e.clone()));
                e
            }
        };
        let state = engine.initial_state();
        let start = Instant::now();
        let (nodes, _) = count(&engine, &state, depth, a.jobs, a.full, false);
        let secs = start.elapsed().as_secs_f64();
        let ok = nodes == expected;
        if !ok {
            failures += 1;
        }
        if a.json {
            results.push(serde_json::json!({
                "game": game, "variant": variant, "depth": depth, "nodes": nodes,
                "expected": expected, "ok": ok, "seconds": secs,
            }));
        } else {
            let line = format!(
                "{game} {variant} {depth}: got {nodes} expected {expected} {} {secs:.3}s\n",
                if ok { "ok" } else { "MISMATCH" }
            );
            write_output(None, line.as_bytes())?;
        }
    }
    if a.json {
        let doc = serde_json::json!({"schema_version": PERFT_SCHEMA_VERSION, "cases": results, "failures": failures});
        write_output(None, format!("{doc}\n").as_bytes())?;
    }
    Ok(if failures > 0 { PROBLEMS } else { OK })
}

/// Perft of an Axiom program.
fn run_axiom(path: &Path, depth: u32, a: &Args) -> Result<u8, CliError> {
    run_axiom_in(path, None, depth, a)
}

/// Perft of an Axiom program whose runtime files may also be in `engine_dir`.
fn run_axiom_in(
    path: &Path,
    engine_dir: Option<&Path>,
    depth: u32,
    a: &Args,
) -> Result<u8, CliError> {
    if !path.is_file() {
        return Err(CliError::Usage(format!(
            "cannot read `{}`: no such file",
            path.display()
        )));
    }
    let program = dagaz::axiom::Program::load_in(path, engine_dir, &a.include_dir)
        .map_err(|e| CliError::show_axiom(&e))?;
    let mut g = dagaz::axiom::AxiomGame::new(&program, &program, 1)
        .map_err(|e| CliError::show_axiom(&e))?;
    let played = play_moves(&mut g, a)?;
    let start = Instant::now();
    let (nodes, entries) = if a.divide {
        let e = dagaz::axiom::perft::divide(&mut g, depth).map_err(CliError::of_axiom_perft)?;
        (e.iter().map(|x| x.nodes).sum(), e)
    } else {
        let n = dagaz::axiom::perft::perft(&mut g, depth).map_err(CliError::of_axiom_perft)?;
        (n, vec![])
    };
    let secs = start.elapsed().as_secs_f64();
    let entries: Vec<(String, u64)> = entries.into_iter().map(|e| (e.notation, e.nodes)).collect();
    report(a, &program.info.name, depth, nodes, secs, &entries, &played)
}

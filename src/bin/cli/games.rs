//! `dagaz games`: the bundled games (or the games of rules files), their variants, slugs,
//! seats and the AI each variant plays.

use crate::common::{CliError, OK, write_output};
use dagaz::ai::AiConfig;
use dagaz::expand::{GameDef, Limits, Loaded, load_text};
use dagaz::players::resolve::{self, ResolveOptions, Source, choose_game};
use dagaz::players::spec::{Player, resolve_player};
use std::path::{Path, PathBuf};

/// List the variants of the bundled games, or of rules files, with their slugs (usable as
/// autoplay and perft players: `file.zrf:slug`), their seats and AIs.
///
/// A file's variants are sorted by slug; variants that share a title get distinct slugs
/// (`-2`, `-3`, … in file order) and a warning. A name is read as autoplay reads players:
/// `FILE:VARIANT` or a bundled variant's slug lists that variant, and `@AI[:key=value,...]`
/// shows the AI it gives. A folder is read as an Axiom folder: its variant files (`.4th`),
/// with each player's engine.
///
/// Examples:
///   dagaz games
///   dagaz games --json
///   dagaz games chess
///   dagaz games checkers@alphabeta:depth=4,material=1
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// rules files, game names (GAME[:VARIANT][@AI]) or Axiom folders to list (default:
    /// the bundled games)
    pub files: Vec<PathBuf>,
    /// JSON instead of text (= `--format json`)
    #[arg(long)]
    pub json: bool,
    /// text or json
    #[arg(long, value_enum, default_value = "text")]
    pub format: crate::common::OutFormat,
}

/// One listed variant.
struct Row {
    game: String,
    slug: String,
    title: String,
    default: bool,
    ai: String,
    seats: Option<Vec<String>>,
}

fn rows_of(game: &str, loaded: &Loaded, with_seats: bool) -> Vec<Row> {
    loaded
        .games
        .iter()
        .map(|g: &GameDef| Row {
            game: game.to_owned(),
            slug: g.slug.clone(),
            title: g.title.clone(),
            default: g.is_default,
            ai: AiConfig::from_form(&g.form)
                .map(|c| c.describe())
                .unwrap_or_else(|e| format!("invalid: {e}")),
            seats: with_seats.then(|| seats_of(g)).flatten(),
        })
        .collect()
}

/// The seats (non-random players that take turns) of a game, when it compiles.
fn seats_of(g: &GameDef) -> Option<Vec<String>> {
    let model = dagaz::Model::compile(g).ok()?;
    let game = dagaz::EngineGame::new(model);
    let m = game.engine.model();
    Some(
        dagaz::ai::Game::seats(&game)
            .iter()
            .map(|&p| m.players[p].name.clone())
            .collect(),
    )
}

/// The warning for an Axiom program that declares no piece type (`dagaz lint`'s DZ1033).
fn no_pieces_warning(p: &dagaz::axiom::Program) -> Option<String> {
    p.info.pieces.is_empty().then(|| {
        format!(
            "warning: `{}` declares no pieces: no side can ever move (DZ1033)",
            p.path.display()
        )
    })
}

/// The row of an Axiom program: each player's engine.
fn axiom_row(game: &str, p: &dagaz::axiom::Program, ai: Option<String>) -> Row {
    let g = dagaz::axiom::AxiomGame::new(p, p, 1).ok();
    let seats = g.as_ref().map(|g| {
        dagaz::ai::Game::seats(g)
            .iter()
            .map(|&s| p.info.players[s].clone())
            .collect()
    });
    let engines = p.engines();
    let own = p
        .info
        .players
        .iter()
        .zip(&engines)
        .map(|(pl, e)| format!("{pl} {e}"))
        .collect::<Vec<_>>()
        .join(", ");
    Row {
        game: game.to_owned(),
        slug: p.info.name.clone(),
        title: p.info.name.clone(),
        default: false,
        ai: ai.unwrap_or(own),
        seats,
    }
}

/// The rows of one argument: an Axiom folder, or a name the resolver knows (a rules file, a
/// bundled game or variant, `FILE:VARIANT`, an Axiom file; with `@AI`, the AI it gives).
/// Every error is about usage (exit 2), a name's rules with errors too: `games` lists what
/// it can read.
fn rows_of_arg(f: &Path, rows: &mut Vec<Row>, warnings: &mut Vec<String>) -> Result<(), CliError> {
    let name = f.display().to_string();
    if f.is_dir() {
        // An Axiom folder: its variant files.
        let (programs, skipped) = dagaz::axiom::Program::variants_in(f)
            .map_err(|e| format!("cannot read `{name}`: {e}"))?;
        let parts: Vec<&str> = skipped
            .iter()
            .filter(|s| s.part)
            .map(|s| s.name.as_str())
            .collect();
        let failures: Vec<String> = skipped
            .iter()
            .filter(|s| !s.part)
            .map(|s| format!("`{}` does not load: {}", s.name, s.reason))
            .collect();
        if programs.is_empty() {
            let mut msg = format!(
                "`{name}` holds no Axiom variant file (a .4th file that loads with its folder's runtime)"
            );
            for f in &failures {
                msg.push_str(&format!("\n  {f}"));
            }
            return Err(CliError::Usage(msg));
        }
        if !parts.is_empty() {
            warnings.push(format!(
                "note: {} file(s) of `{name}` are parts that other files LOAD: {}",
                parts.len(),
                parts.join(", ")
            ));
        }
        warnings.extend(failures.into_iter().map(|f| format!("warning: {f}")));
        warnings.extend(programs.iter().filter_map(no_pieces_warning));
        rows.extend(programs.iter().map(|p| axiom_row(&name, p, None)));
        return Ok(());
    }
    let opts = ResolveOptions::default();
    let located = resolve::locate(&name, &opts)?;
    if let Source::Axiom(_) = &located.source {
        let player = match resolve_player(&name, &opts)? {
            Player::Axiom(p) => p,
            Player::Rules(_) => {
                return Err(CliError::Usage(format!("`{name}` is not an Axiom program")));
            }
        };
        let ai = player.ai_spec.is_some().then(|| player.ai.describe());
        warnings.extend(no_pieces_warning(&player.program));
        rows.push(axiom_row(&name, &player.program, ai));
        return Ok(());
    }
    let loaded = located.load(&opts)?;
    let game = match &located.source {
        Source::Bundled(b) => b.name.to_owned(),
        other => other.name(),
    };
    if loaded.games.is_empty() {
        // A file that is no rules file (a README, a records file) parses as ZRF text with
        // no game in it: say so rather than list nothing.
        return Err(CliError::Usage(format!(
            "`{name}` defines no game: it is not a rules file (a .zrf with a `(game …)`), a game name or an Axiom folder"
        )));
    }
    let mut these = rows_of(&game, &loaded, true);
    // Sorted by slug: the same list whatever the order of the variants in the file.
    these.sort_by(|x, y| x.slug.cmp(&y.slug));
    for r in these.iter().filter(|_| located.variant.is_none()) {
        let same: Vec<&Row> = these.iter().filter(|x| x.title == r.title).collect();
        if same.len() > 1 && std::ptr::eq(same[0], r) {
            let slugs: Vec<&str> = same.iter().map(|x| x.slug.as_str()).collect();
            warnings.push(format!(
                "warning: `{game}` has {} variants titled \"{}\": select them as {}",
                same.len(),
                r.title,
                slugs.join(", ")
            ));
        }
    }
    if located.variant.is_some() || located.ai.is_some() {
        // One variant, with the AI the name gives it.
        let (g, warning) = choose_game(&loaded, located.variant.as_deref(), &game)?;
        warnings.extend(warning);
        these.retain(|r| r.slug == g.slug);
        if located.ai.is_some() {
            if let Player::Rules(p) = resolve_player(&name, &opts)? {
                for r in &mut these {
                    r.ai = p.ai.describe();
                }
            }
        }
    }
    rows.extend(these);
    Ok(())
}

pub fn run(a: Args) -> u8 {
    match run_inner(a) {
        Ok(c) => c,
        Err(e) => e.report(),
    }
}

fn run_inner(mut a: Args) -> Result<u8, CliError> {
    a.json |= a.format == crate::common::OutFormat::Json;
    let mut rows = vec![];
    let mut warnings = vec![];
    if a.files.is_empty() {
        for b in dagaz::games::all() {
            let loaded = load_text(&format!("{}.zrf", b.name), b.text, Limits::default());
            rows.extend(rows_of(b.name, &loaded, false));
        }
    } else {
        for f in &a.files {
            if let Err(e) = rows_of_arg(f, &mut rows, &mut warnings) {
                for w in &warnings {
                    eprintln!("{w}");
                }
                return Err(e);
            }
        }
    }
    let data = if a.json {
        let v: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                let mut o = serde_json::json!({"game": r.game, "slug": r.slug, "title": r.title, "default": r.default, "ai": r.ai});
                if let Some(s) = &r.seats {
                    o["seats"] = s.clone().into();
                }
                o
            })
            .collect();
        serde_json::to_string_pretty(&serde_json::json!({"schema_version": 1, "variants": v}))
            .unwrap_or_default()
            + "\n"
    } else {
        let mut text = String::new();
        let mut last = None;
        for r in &rows {
            if last != Some(&r.game) {
                text += &format!("{}\n", r.game);
                last = Some(&r.game);
            }
            let seats = r.seats.as_ref().map_or(String::new(), |s| {
                format!(
                    "  [{} seat{}: {}]",
                    s.len(),
                    if s.len() == 1 { "" } else { "s" },
                    s.join(", ")
                )
            });
            text += &format!(
                "  {:<24} {:<28} {}{}\n",
                r.slug,
                format!("\"{}\"", r.title),
                r.ai,
                seats
            );
        }
        text
    };
    for w in &warnings {
        eprintln!("{w}");
    }
    write_output(None, data.as_bytes())?;
    Ok(OK)
}

//! Survey: seeded random games of every playable game and variant in a folder of rules
//! files, with the plies per second of each. Slow games stand out against the median of the
//! same run, so the figures compare across machines.
//!
//! Run with `cargo bench --bench survey` (the shared corpus, `../shared/corpus/dagaz`), or
//! over another folder: `cargo bench --bench survey -- DIR` or `DAGAZ_SURVEY_DIR=DIR`.
//! `DAGAZ_SURVEY_GAMES` (default 10), `DAGAZ_SURVEY_PLIES` (ply cap, default 400) and
//! `DAGAZ_SURVEY_SEED` (default 1) change the games played; `DAGAZ_SURVEY_SECONDS` (default
//! 10) caps the time spent on one game or variant (its rate is then over the plies played).
//!
//! A ply is one legal-move generation, one outcome test and one move made, as a random
//! player plays; loading (parsing, compiling, engine tables) is timed separately.

mod common;

use dagaz::engine::{Engine, MoveList};
use dagaz::expand::{Limits, load_path};
use dagaz::model::Model;
use dagaz::rng::Rng;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Games more than this many times slower per ply than the median are flagged.
const FLAG_RATIO: f64 = 20.0;

struct Row {
    name: String,
    plies: u64,
    /// Legal moves generated over the plies (the branching factor times the plies).
    moves: u64,
    seconds: f64,
    load: f64,
    capped: bool,
}

impl Row {
    fn rate(&self) -> f64 {
        self.plies as f64 / self.seconds.max(1e-9)
    }

    /// Legal moves generated per second: the cost of one move, whatever the branching.
    fn move_rate(&self) -> f64 {
        self.moves as f64 / self.seconds.max(1e-9)
    }

    fn moves_per_position(&self) -> f64 {
        self.moves as f64 / (self.plies.max(1)) as f64
    }
}

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What one game's random games measured.
struct Played {
    plies: u64,
    moves: u64,
    seconds: f64,
    /// Stopped by the time cap.
    capped: bool,
}

/// Plays `games` random games.
fn play(engine: &mut Engine, games: u64, cap: u64, seed: u64, limit: Duration) -> Played {
    let mut list = MoveList::new();
    let mut plies = 0u64;
    let mut moves = 0u64;
    let t0 = Instant::now();
    let done = |plies, moves, capped| Played {
        plies,
        moves,
        seconds: t0.elapsed().as_secs_f64(),
        capped,
    };
    for g in 0..games {
        let mut rng = Rng::derive(seed, g);
        let mut s = engine.initial_state();
        for _ in 0..cap {
            engine.legal_moves(&s, &mut list);
            if engine.outcome_given_moves(&s, !list.is_empty()).is_some() || list.is_empty() {
                break;
            }
            moves += list.len() as u64;
            let m = list.get(rng.below(list.len())).expect("a move");
            engine.make(&mut s, m);
            plies += 1;
            if plies % 64 == 0 && t0.elapsed() > limit {
                return done(plies, moves, true);
            }
        }
        if t0.elapsed() > limit {
            return done(plies, moves, g + 1 < games);
        }
    }
    done(plies, moves, false)
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

fn main() {
    let arg = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from);
    let dir = arg
        .or_else(|| std::env::var_os("DAGAZ_SURVEY_DIR").map(PathBuf::from))
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/dagaz"));
    let games = env_num("DAGAZ_SURVEY_GAMES", 10);
    let cap = env_num("DAGAZ_SURVEY_PLIES", 400);
    let seed = env_num("DAGAZ_SURVEY_SEED", 1);
    let limit = Duration::from_secs(env_num("DAGAZ_SURVEY_SECONDS", 10));

    let mut files = Vec::new();
    common::files(&dir, &mut files);
    files.sort();
    let mut rows = Vec::new();
    let mut unplayable = 0usize;
    for f in &files {
        let rel = f.strip_prefix(&dir).unwrap_or(f).display().to_string();
        let t_load = Instant::now();
        let Ok(loaded) = load_path(f, &rel, Limits::default()) else {
            unplayable += 1;
            continue;
        };
        let parse = t_load.elapsed().as_secs_f64();
        for game in &loaded.games {
            let t = Instant::now();
            let Ok(model) = Model::compile(game) else {
                unplayable += 1;
                continue;
            };
            let mut engine = Engine::new(model);
            let load = parse + t.elapsed().as_secs_f64();
            let p = play(&mut engine, games, cap, seed, limit);
            if p.plies == 0 {
                unplayable += 1;
                continue;
            }
            rows.push(Row {
                name: format!("{rel}:{}", game.slug),
                plies: p.plies,
                moves: p.moves,
                seconds: p.seconds,
                load,
                capped: p.capped,
            });
        }
    }

    let mut rates: Vec<f64> = rows.iter().map(Row::rate).collect();
    rates.sort_by(f64::total_cmp);
    let median = percentile(&rates, 0.5);
    let p10 = percentile(&rates, 0.1);
    println!(
        "survey of {}: {} files, {} games and variants played, {} unplayable or without a move",
        dir.display(),
        files.len(),
        rows.len(),
        unplayable
    );
    println!("{games} games each, ply cap {cap}, seed {seed}; plies per second (single thread)");
    println!(
        "median {median:.0}  p10 {p10:.0}  (p10/median = 1/{:.1})",
        median / p10.max(1e-9)
    );
    rows.sort_by(|a, b| a.rate().total_cmp(&b.rate()));
    println!("slowest 10 (x = times slower per ply than the median; ! = more than {FLAG_RATIO}x):");
    println!(
        "{:<60} {:>8} {:>12} {:>8} {:>8}",
        "game:variant", "plies", "plies/s", "x", "load s"
    );
    for r in rows.iter().take(10) {
        let x = median / r.rate();
        println!(
            "{:<60} {:>8} {:>12.0} {:>8.1} {:>8.3}{}{}",
            r.name,
            r.plies,
            r.rate(),
            x,
            r.load,
            if x > FLAG_RATIO { " !" } else { "" },
            if r.capped { " (time cap)" } else { "" }
        );
    }
    let flagged: Vec<&Row> = rows
        .iter()
        .filter(|r| median / r.rate() > FLAG_RATIO)
        .collect();
    // A flagged game is explained by its branching factor when its cost per legal move is
    // ordinary (within FLAG_RATIO of the median's); otherwise each move itself is slow.
    let mut move_rates: Vec<f64> = rows.iter().map(Row::move_rate).collect();
    move_rates.sort_by(f64::total_cmp);
    let median_moves = percentile(&move_rates, 0.5);
    let mut bf: Vec<f64> = rows.iter().map(Row::moves_per_position).collect();
    bf.sort_by(f64::total_cmp);
    println!(
        "{} flagged (more than {FLAG_RATIO}x slower than the median); median {:.0} legal moves/s, \
         {:.1} moves/position",
        flagged.len(),
        median_moves,
        percentile(&bf, 0.5)
    );
    println!(
        "{:<60} {:>8} {:>10} {:>12} {:>8}  cause",
        "game:variant", "x", "moves/pos", "moves/s", "x moves"
    );
    for r in &flagged {
        let xm = median_moves / r.move_rate().max(1e-9);
        println!(
            "{:<60} {:>8.1} {:>10.1} {:>12.0} {:>8.1}  {}",
            r.name,
            median / r.rate(),
            r.moves_per_position(),
            r.move_rate(),
            xm,
            if xm <= FLAG_RATIO {
                "branching factor"
            } else {
                "cost per move"
            }
        );
    }
    let mut by_load: Vec<&Row> = rows.iter().collect();
    by_load.sort_by(|a, b| b.load.total_cmp(&a.load));
    println!("slowest loads (parse + compile + tables, seconds):");
    for r in by_load.iter().take(5) {
        println!("{:<60} {:>8.3}", r.name, r.load);
    }
}

//! `dagaz stats`: summaries of game records, shard merging, balance comparison.

use crate::common::{CliError, INCONCLUSIVE, OK, PROBLEMS, write_output};
use dagaz::stats::gate::{Verdict, verdict_of};
use dagaz::stats::html::HtmlReport;
use dagaz::stats::ratings::{crosstable_csv, human as tournament_text, ratings_csv, tournaments};
use dagaz::stats::{
    Summary, Tolerances, compare, games_csv, group_by_match, human, lengths_csv, matches_csv,
    merge, seats_csv, solo_csv, summarize,
};
use dagaz::tournament::record::{GameRecord, read_records, write_records};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Csv,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Table {
    /// one row per match
    Matches,
    /// one row per match and seat
    Seats,
    /// game-length histogram: one row per match and bucket
    Lengths,
    /// one-seat games (solitaires): one row per match and player, with solve rates
    Solo,
    /// round robins and gauntlets: one row per player and opponent
    Crosstable,
    /// round robins and gauntlets: joint Elo ratings, one row per player
    Ratings,
    /// one row per game: seeds, seats, result, score of A, plies, end, time
    Games,
    /// results per opening (`autoplay --openings`): one row per match and book line
    Openings,
}

/// Summarise game records written by `autoplay --games-out`; merge shards; compare runs.
///
/// Examples:
///   dagaz autoplay ur-simple ur-random -n 4 --games-out games.jsonl
///   dagaz stats games.jsonl
///   dagaz stats games.jsonl --format csv --table seats
///   dagaz autoplay ur-random ur-simple ur-aggressive -n 2 --games-out rr.jsonl
///   dagaz stats rr.jsonl --format csv --table ratings
///   dagaz stats games.jsonl --format csv --table games --no-timing
///   dagaz stats games.jsonl --html report.html
///   dagaz stats merge games.jsonl -o merged.jsonl
///   dagaz stats compare games.jsonl merged.jsonl --first-player 0.6 --draw-rate 0.6 --mean-length 0.6
#[derive(clap::Args)]
#[command(verbatim_doc_comment, args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Sub>,
    /// game-record files (JSON Lines)
    pub files: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// the same as `--format json`
    #[arg(long)]
    pub json: bool,
    /// which table, with --format csv
    #[arg(long, value_enum, default_value = "matches")]
    pub table: Table,
    /// write here (atomically) instead of stdout
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// leave the wall-clock time out (the `time_ms` column of `--table games`), so that
    /// the output of two runs can be diffed byte for byte
    #[arg(long)]
    pub no_timing: bool,
    /// also write a self-contained HTML report (charts inline, nothing loaded) to FILE
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

#[derive(clap::Subcommand)]
pub enum Sub {
    /// Join the shards of one run (same seed and players, disjoint games) into one file.
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// write the merged records even when some games of the run are in no shard
        /// (otherwise: exit 1, naming the missing games)
        #[arg(long)]
        allow_partial: bool,
        /// write here (atomically) instead of stdout
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
    },
    /// Gate the balance of two runs: exit 0, 1 (moved) or 3 (inconclusive).
    ///
    /// Each figure's change gets a 95% interval: the gate passes when every interval lies
    /// within its tolerance, fails when one lies beyond it, and is inconclusive otherwise.
    /// The runs must be of the same players (and game); otherwise exit 2.
    Compare {
        before: PathBuf,
        after: PathBuf,
        /// largest allowed change of the first-player score (absolute)
        #[arg(long, default_value_t = 0.05)]
        first_player: f64,
        /// largest allowed change of the draw rate (absolute)
        #[arg(long, default_value_t = 0.05)]
        draw_rate: f64,
        /// largest allowed relative change of the mean game length
        #[arg(long, default_value_t = 0.10)]
        mean_length: f64,
        /// JSON instead of text (= `--format json`)
        #[arg(long)]
        json: bool,
        /// text or json
        #[arg(long, value_enum, default_value = "text")]
        format: crate::common::OutFormat,
    },
}

fn read(p: &PathBuf) -> Result<Vec<GameRecord>, String> {
    let text =
        std::fs::read_to_string(p).map_err(|e| format!("cannot read `{}`: {e}", p.display()))?;
    let r = read_records(&text, &p.display().to_string())?;
    if r.is_empty() {
        return Err(format!("`{}` holds no game record", p.display()));
    }
    Ok(r)
}

/// The same file named twice would count its games twice.
fn distinct_files(files: &[PathBuf]) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for f in files {
        let real = std::fs::canonicalize(f).unwrap_or_else(|_| f.clone());
        if !seen.insert(real) {
            return Err(format!("`{}` is given twice", f.display()));
        }
    }
    Ok(())
}

fn summaries(records: &[GameRecord]) -> Vec<Summary> {
    group_by_match(records)
        .iter()
        .map(|g| summarize(g))
        .collect()
}

fn one_summary(p: &PathBuf) -> Result<Summary, String> {
    let r = read(p)?;
    let mut s = summaries(&r);
    if s.len() != 1 {
        return Err(format!(
            "`{}` holds {} matches; compare needs one",
            p.display(),
            s.len()
        ));
    }
    Ok(s.remove(0))
}

pub fn run(a: Args) -> u8 {
    match run_inner(a) {
        Ok(c) => c,
        Err(e) => e.report(),
    }
}

fn run_inner(mut a: Args) -> Result<u8, CliError> {
    if a.json {
        a.format = Format::Json;
    }
    match a.command {
        Some(Sub::Merge {
            files,
            output,
            allow_partial,
        }) => {
            distinct_files(&files)?;
            let shards = files
                .iter()
                .map(|f| Ok((f.display().to_string(), read(f)?)))
                .collect::<Result<Vec<_>, String>>()?;
            let merged = merge(shards).map_err(|e| format!("cannot merge: {e}"))?;
            let missing = dagaz::stats::missing_games(&merged);
            if !missing.is_empty() && !allow_partial {
                let shown: Vec<String> = missing.iter().take(10).map(u64::to_string).collect();
                eprintln!(
                    "error: {} of {} games are in no shard (games {}{}): a shard is missing; --allow-partial merges anyway",
                    missing.len(),
                    dagaz::stats::run_games(&merged[0].settings),
                    shown.join(", "),
                    if missing.len() > 10 { ", …" } else { "" }
                );
                return Ok(PROBLEMS);
            }
            write_output(output.as_deref(), write_records(&merged).as_bytes())?;
            Ok(OK)
        }
        Some(Sub::Compare {
            before,
            after,
            first_player,
            draw_rate,
            mean_length,
            json,
            format,
        }) => {
            let json = json || format == crate::common::OutFormat::Json;
            let (b, f) = (one_summary(&before)?, one_summary(&after)?);
            let shifts = compare(
                &b,
                &f,
                Tolerances {
                    first_player,
                    draw_rate,
                    mean_length,
                },
            )
            .map_err(|e| {
                format!(
                    "cannot compare `{}` and `{}`: {e}",
                    before.display(),
                    after.display()
                )
            })?;
            let verdict = verdict_of(&shifts);
            let ok = verdict == Verdict::Pass;
            let text = if json {
                serde_json::to_string_pretty(&serde_json::json!({
                    "schema_version": 2, "ok": ok, "verdict": verdict, "figures": shifts
                }))
                .unwrap_or_default()
                    + "\n"
            } else {
                let mut t = String::new();
                for s in &shifts {
                    t += &format!(
                        "{:<24} before {:>8.3}  after {:>8.3}  change {:>+8.3} (95% CI {:+.3}..{:+.3})  tolerance ±{:.3}  {}\n",
                        s.figure,
                        s.before,
                        s.after,
                        s.change,
                        s.low,
                        s.high,
                        s.tolerance,
                        match s.verdict {
                            Verdict::Pass => "pass",
                            Verdict::Fail => "MOVED",
                            Verdict::Inconclusive => "inconclusive",
                        }
                    );
                }
                t += &format!("verdict: {}\n", verdict.word());
                t
            };
            write_output(None, text.as_bytes())?;
            Ok(match verdict {
                Verdict::Pass => OK,
                Verdict::Fail => PROBLEMS,
                Verdict::Inconclusive => INCONCLUSIVE,
            })
        }
        None => {
            if a.files.is_empty() {
                return Err("give game-record files (from `dagaz autoplay --games-out`)".into());
            }
            distinct_files(&a.files)?;
            let mut records = vec![];
            for f in &a.files {
                records.extend(read(f)?);
            }
            dagaz::stats::check_poolable(&records)?;
            let s = summaries(&records);
            // Round robins and gauntlets among the records: crosstables and ratings.
            let t = tournaments(&records);
            let data = match a.format {
                Format::Text => {
                    let mut text = s.iter().map(human).collect::<Vec<_>>().join("\n");
                    for x in &t {
                        text += "\n";
                        text += &tournament_text(x);
                    }
                    text
                }
                Format::Json => {
                    let mut v = serde_json::json!({"schema_version": dagaz::stats::SUMMARY_SCHEMA_VERSION, "matches": s});
                    if !t.is_empty() {
                        v["tournaments"] = serde_json::json!(t);
                    }
                    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
                }
                Format::Csv => match a.table {
                    Table::Matches => matches_csv(&s)?,
                    Table::Seats => seats_csv(&s)?,
                    Table::Lengths => lengths_csv(&s)?,
                    Table::Solo => solo_csv(&s)?,
                    Table::Crosstable => crosstable_csv(&t)?,
                    Table::Ratings => ratings_csv(&t)?,
                    Table::Games => games_csv(&records, !a.no_timing)?,
                    Table::Openings => dagaz::stats::openings_csv(&s)?,
                },
            };
            if let Some(path) = &a.html {
                let sources = a.files.iter().map(|f| f.display().to_string()).collect();
                let mut report = HtmlReport::new(s, sources);
                // One round robin or gauntlet: its joint ratings.
                if let [x] = t.as_slice() {
                    report.tournament = Some(x.clone());
                }
                let page = report.render();
                dagaz::fsutil::write_atomic(path, page.as_bytes())
                    .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
            }
            write_output(a.output.as_deref(), data.as_bytes())?;
            Ok(OK)
        }
    }
}

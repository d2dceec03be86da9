//! `dagaz replay`: follows Zillions saved games (`.zsg`) move by move on dagaz's engine.

use crate::common::{CliError, OK, OutFormat, PROBLEMS, write_output};
use dagaz::PlayerResult;
use dagaz::replay::{FileReplay, ReplayOptions, replay_file};
use serde_json::{Value, json};
use std::fmt::Write;
use std::path::PathBuf;

/// Replay Zillions saved games (.zsg) and check that every move is legal.
///
/// Each file's rules file (`RulesFile=`, matched without regard to case) is looked for
/// beside the saved game, then in each --rules-dir, then among the bundled games; its
/// variant is the one titled as `VariantName=`. Every move is played in turn (each step of
/// a partial chain as one step, the edit lines applied); a move matches a legal one by its
/// text or, when the texts differ, by the pieces it leaves on the board. A rules file whose
/// moves come from an Axiom engine is played by the variant's program, moves matched by
/// text. The first move that is not legal stops the file, with the legal moves nearest to
/// it. The move notation and the JSON shape: docs/formats.md.
///
/// Exit codes: 0 every file replayed to the end; 1 a file stopped, or its rules cannot be
/// found or played; 2 a file cannot be read or is not a saved game.
///
/// Examples:
///   dagaz replay saved/game-000000.zsg saved/game-000001.zsg
///   dagaz replay saved/game-000000.zsg --rules-dir . --format json
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// saved games to replay
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// a folder to look for rules files in, after the saved game's own (repeatable)
    #[arg(long = "rules-dir", value_name = "DIR")]
    pub rules_dirs: Vec<PathBuf>,
    /// JSON instead of text (= `--format json`)
    #[arg(long)]
    pub json: bool,
    /// text or json
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutFormat,
    /// print only the summary line and the files that stop
    #[arg(long, short)]
    pub quiet: bool,
    /// also list the moves matched by their effects, with the text dagaz writes for each
    #[arg(long)]
    pub differences: bool,
}

pub fn run(a: Args) -> u8 {
    match run_inner(a) {
        Ok(c) => c,
        Err(e) => e.report(),
    }
}

/// A file that stops or cannot be replayed does not end the run: its error is in the
/// report, and the exit code is the worst of the files' ([`CliError::of_replay`]).
fn run_inner(a: Args) -> Result<u8, CliError> {
    let json = a.json || a.format == OutFormat::Json;
    let mut opts = ReplayOptions::default();
    opts.rules_dirs = a.rules_dirs.clone();
    let mut code = OK;
    let mut text = String::new();
    let mut files = Vec::new();
    let (mut complete, mut moves, mut replayed) = (0usize, 0usize, 0usize);
    for f in &a.files {
        let name = f.display().to_string();
        match replay_file(f, &opts) {
            Ok(r) => {
                moves += r.report.moves;
                replayed += r.report.replayed;
                if r.report.complete() {
                    complete += 1;
                } else {
                    code = code.max(PROBLEMS);
                }
                if json {
                    files.push(file_json(&name, &r));
                } else if !a.quiet || !r.report.complete() {
                    file_text(&name, &r, &mut text);
                    if a.differences {
                        differences(&r, &mut text);
                    }
                }
            }
            Err(e) => {
                code = code.max(CliError::of_replay(&e).exit_code());
                if json {
                    files.push(json!({"file": name, "error": e.message()}));
                } else {
                    let _ = writeln!(text, "{name}: error: {e}");
                }
            }
        }
    }
    let total = a.files.len();
    let data = if json {
        let v = json!({
            "schema_version": 1,
            "files": files,
            "summary": {
                "files": total,
                "complete": complete,
                "moves": moves,
                "replayed": replayed,
            },
        });
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    } else {
        let _ = writeln!(
            text,
            "{complete} of {total} saved game{} replayed to the end; {replayed} of {moves} moves",
            if total == 1 { "" } else { "s" }
        );
        text
    };
    write_output(None, data.as_bytes())?;
    Ok(code)
}

fn to_move(r: &FileReplay) -> String {
    // The player whose turn it is in the final state, by the turn order's index.
    r.report
        .to_move
        .and_then(|p| r.players.get(p).cloned())
        .unwrap_or_default()
}

fn pieces(r: &FileReplay) -> Vec<(String, String, String)> {
    r.report
        .pieces
        .iter()
        .map(|&(pos, ty, owner)| {
            (
                r.positions[pos].clone(),
                r.piece_types[ty].clone(),
                r.players[owner].clone(),
            )
        })
        .collect()
}

fn result_text(r: &FileReplay) -> Option<String> {
    let results = r.report.results.as_ref()?;
    let winners: Vec<&str> = results
        .iter()
        .enumerate()
        .filter(|(_, x)| **x == PlayerResult::Win)
        .map(|(i, _)| r.players[i].as_str())
        .collect();
    Some(if winners.is_empty() {
        "a draw".to_owned()
    } else {
        format!("{} wins", winners.join(" and "))
    })
}

fn file_text(name: &str, r: &FileReplay, out: &mut String) {
    let rep = &r.report;
    let _ = writeln!(
        out,
        "{name}: {}/{} moves replayed ({}, variant `{}`; {} written as dagaz writes them{})",
        rep.replayed,
        rep.moves,
        r.rules,
        r.title,
        rep.same_text,
        if rep.edits > 0 {
            format!(", {} edits", rep.edits)
        } else {
            String::new()
        }
    );
    if let Some(s) = &rep.stop {
        let _ = writeln!(out, "  line {}: `{}`: {}", s.line, s.text, s.reason);
        if !s.nearest.is_empty() {
            let _ = writeln!(out, "  nearest legal: {}", s.nearest.join(" | "));
        }
    }
    if rep.unfinished_chain {
        let _ = writeln!(
            out,
            "  the file ends inside a partial chain that must go on"
        );
    }
    let ps: Vec<String> = pieces(r)
        .into_iter()
        .map(|(pos, ty, owner)| format!("{owner} {ty} {pos}"))
        .collect();
    if r.positions.is_empty() {
        // A game played by an Axiom program: its board is the program's.
        let _ = writeln!(out, "  {} to move", to_move(r));
    } else {
        let _ = writeln!(
            out,
            "  position ({} to move): {}",
            to_move(r),
            ps.join(", ")
        );
    }
    match result_text(r) {
        Some(res) => {
            let _ = writeln!(out, "  result: {res}");
        }
        None => {
            let _ = writeln!(out, "  the game is not over");
        }
    }
}

/// The moves matched by their effects: the line as saved, and dagaz's text.
fn differences(r: &FileReplay, out: &mut String) {
    for (line, ours) in &r.report.other_text {
        let saved = r
            .game
            .lines
            .iter()
            .find(|l| l.line == *line)
            .map(|l| l.to_text())
            .unwrap_or_default();
        let _ = writeln!(out, "  line {line}: `{saved}`; dagaz writes `{ours}`");
    }
}

fn file_json(name: &str, r: &FileReplay) -> Value {
    let rep = &r.report;
    let stop = rep
        .stop
        .as_ref()
        .map(|s| json!({"line": s.line, "text": s.text, "reason": s.reason, "nearest": s.nearest}));
    let result = rep.results.as_ref().map(|results| {
        let per: serde_json::Map<String, Value> = results
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let v = match x {
                    PlayerResult::Win => "win",
                    PlayerResult::Loss => "loss",
                    PlayerResult::Draw => "draw",
                };
                (r.players[i].clone(), Value::from(v))
            })
            .collect();
        Value::Object(per)
    });
    let pieces: Vec<Value> = pieces(r)
        .into_iter()
        .map(|(pos, ty, owner)| json!({"pos": pos, "type": ty, "owner": owner}))
        .collect();
    json!({
        "file": name,
        "rules": r.rules.clone(),
        "variant": r.title,
        "moves": rep.moves,
        "replayed": rep.replayed,
        "same_text": rep.same_text,
        "other_text": rep
            .other_text
            .iter()
            .map(|(line, text)| json!({"line": line, "dagaz": text}))
            .collect::<Vec<_>>(),
        "edits": rep.edits,
        "complete": rep.complete(),
        "stop": stop,
        "unfinished_chain": rep.unfinished_chain,
        "to_move": to_move(r),
        "pieces": pieces,
        "result": result,
    })
}

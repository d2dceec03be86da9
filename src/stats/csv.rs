//! The CSV tables (`dagaz stats --format csv`): matches, games, one-seat results, openings,
//! seats and lengths, each row starting with the schema version.

use super::{StatsError, Summary, draws, group_by_match};
use crate::record::GameRecord;
use serde::Serialize;

/// Version of the CSV tables' columns (`dagaz stats --format csv`), the first column of
/// every row. Version 1 was the tables before they had the column.
pub const CSV_SCHEMA_VERSION: u32 = 2;

/// Writes a header and rows as CSV text, each row starting with `schema_version`
/// ([`CSV_SCHEMA_VERSION`]).
pub(super) fn write_csv<R: IntoIterator<Item = String>>(
    header: &[&str],
    rows: impl IntoIterator<Item = R>,
) -> Result<String, StatsError> {
    let err = |e: &dyn std::fmt::Display| StatsError::Csv(e.to_string());
    let mut w = csv::Writer::from_writer(vec![]);
    let version = CSV_SCHEMA_VERSION.to_string();
    w.write_record(std::iter::once("schema_version").chain(header.iter().copied()))
        .map_err(|e| err(&e))?;
    for r in rows {
        w.write_record(std::iter::once(version.clone()).chain(r))
            .map_err(|e| err(&e))?;
    }
    String::from_utf8(w.into_inner().map_err(|e| err(&e))?).map_err(|e| err(&e))
}

/// CSV of match summaries (one row per match).
pub fn matches_csv(summaries: &[Summary]) -> Result<String, StatsError> {
    let f = |x: f64| format!("{x:.4}");
    let o = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:.1}"));
    write_csv(
        &[
            "run_seed",
            "player_a",
            "player_b",
            "games",
            "errors",
            "wins_a",
            "wins_b",
            "draws",
            "score_a",
            "score_a_low",
            "score_a_high",
            "elo",
            "elo_low",
            "elo_high",
            "draw_rate",
            "mean_plies",
            "first_player_score",
            "first_player_low",
            "first_player_high",
            "interrupted",
            "seat_count",
            "ended_by_goal",
            "ended_by_repetition",
            "ended_with_no_move",
            "ended_at_ply_cap",
            "trinomial_low",
            "trinomial_high",
            "trinomial_elo_low",
            "trinomial_elo_high",
            "trinomial_los",
            "pairs",
            "pairs_ll",
            "pairs_ld",
            "pairs_dd_wl",
            "pairs_wd",
            "pairs_ww",
            "unpaired",
            "pentanomial_low",
            "pentanomial_high",
            "pentanomial_elo_low",
            "pentanomial_elo_high",
            "pentanomial_los",
            "gate_interval",
            "normalized_elo",
            "search_cuts_a",
            "search_cuts_b",
        ],
        summaries.iter().map(|s| {
            let t = &s.trinomial.estimate;
            let p = s.pentanomial.as_ref();
            let pe = p.map(|p| &p.estimate);
            let counts = p.and_then(|p| p.counts);
            let count = |k: usize| counts.map_or(String::new(), |c| c[k].to_string());
            let pf = |g: fn(&draws::Estimate) -> f64| pe.map_or(String::new(), |e| f(g(e)));
            let (gate, ge) = s.gate_estimate();
            [
                s.run_seed.to_string(),
                s.players[0].clone(),
                s.players[1].clone(),
                s.games.to_string(),
                s.errors.to_string(),
                s.wins_a.to_string(),
                s.wins_b.to_string(),
                s.draws.to_string(),
                f(s.score_a.score),
                f(s.score_a.low),
                f(s.score_a.high),
                o(s.elo.elo),
                o(s.elo.low),
                o(s.elo.high),
                f(s.draw_rate),
                format!("{:.2}", s.mean_plies),
                f(s.first_player.score),
                f(s.first_player.low),
                f(s.first_player.high),
                s.interrupted.to_string(),
                s.seat_count.to_string(),
                s.ends.goal.to_string(),
                s.ends.repetition.to_string(),
                s.ends.no_moves.to_string(),
                s.ends.ply_cap.to_string(),
                f(t.low),
                f(t.high),
                o(t.elo.low),
                o(t.elo.high),
                f(t.los),
                p.map_or(String::new(), |p| p.pairs.to_string()),
                count(0),
                count(1),
                count(2),
                count(3),
                count(4),
                p.map_or(String::new(), |p| p.unpaired.to_string()),
                pf(|e| e.low),
                pf(|e| e.high),
                pe.map_or(String::new(), |e| o(e.elo.low)),
                pe.map_or(String::new(), |e| o(e.elo.high)),
                pf(|e| e.los),
                gate.to_owned(),
                o(ge.normalized_elo),
                s.search_cuts[0].to_string(),
                s.search_cuts[1].to_string(),
            ]
        }),
    )
}

/// The name serde gives a unit enum variant (`win`, `ply-cap`).
fn serde_word<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// CSV of the games themselves (one row per game, in match order then game index), from
/// the records. `timing`: with the `time_ms` column (the only one that is not
/// reproducible).
pub fn games_csv(records: &[GameRecord], timing: bool) -> Result<String, StatsError> {
    let mut header = vec![
        "run_seed",
        "player_a",
        "player_b",
        "game_index",
        "game_seed",
        "pair",
        "first_player",
        "seats",
        "result",
        "winner",
        "score_a",
        "end",
        "adjudicated",
        "plies",
        "captures_a",
        "captures_b",
        "nodes_a",
        "nodes_b",
    ];
    if timing {
        header.push("time_ms");
    }
    header.push("error");
    // (Added at the end, as the CSV contract allows within a version.)
    header.extend(["search_cuts_a", "search_cuts_b"]);
    let mut groups = group_by_match(records);
    for g in &mut groups {
        g.sort_by_key(|r| r.game_index);
    }
    write_csv(
        &header,
        groups.into_iter().flatten().map(|r| {
            let mut row = vec![
                r.run_seed.to_string(),
                r.settings.players[0].clone(),
                r.settings.players[1].clone(),
                r.game_index.to_string(),
                r.game_seed.to_string(),
                if r.settings.swap {
                    (r.game_index / 2).to_string()
                } else {
                    String::new()
                },
                r.first_player().unwrap_or("").to_owned(),
                r.seats
                    .iter()
                    .map(|x| format!("{}={}", x.seat, x.player))
                    .collect::<Vec<_>>()
                    .join(";"),
                serde_word(&r.result),
                r.winner.clone().unwrap_or_default(),
                r.score_a.map_or(String::new(), |x| x.to_string()),
                r.end.as_ref().map_or(String::new(), serde_word),
                r.adjudicated.to_string(),
                r.plies.to_string(),
                r.captures[0].to_string(),
                r.captures[1].to_string(),
                r.nodes[0].to_string(),
                r.nodes[1].to_string(),
            ];
            if timing {
                row.push(r.time_ms.map_or(String::new(), |t| format!("{t:.3}")));
            }
            row.push(r.error.clone().unwrap_or_default());
            row.extend(r.search_cuts.map(|n| n.to_string()));
            row
        }),
    )
}

/// CSV of one-seat results (one row per match and player who played).
pub fn solo_csv(summaries: &[Summary]) -> Result<String, StatsError> {
    write_csv(
        &[
            "run_seed",
            "player_a",
            "player_b",
            "player",
            "games",
            "solved",
            "lost",
            "stuck",
            "repeated",
            "drawn",
            "unfinished",
            "solve_rate",
            "solve_rate_low",
            "solve_rate_high",
            "mean_plies_solved",
        ],
        summaries.iter().flat_map(|s| {
            s.solo.iter().map(move |x| {
                [
                    s.run_seed.to_string(),
                    s.players[0].clone(),
                    s.players[1].clone(),
                    x.player.clone(),
                    x.games.to_string(),
                    x.solved.to_string(),
                    x.lost.to_string(),
                    x.stuck.to_string(),
                    x.repeated.to_string(),
                    x.drawn.to_string(),
                    x.unfinished.to_string(),
                    format!("{:.4}", x.solve_rate.score),
                    format!("{:.4}", x.solve_rate.low),
                    format!("{:.4}", x.solve_rate.high),
                    x.mean_plies_solved
                        .map_or(String::new(), |m| format!("{m:.2}")),
                ]
            })
        }),
    )
}

/// CSV of A's results per opening (one row per match and book line).
pub fn openings_csv(summaries: &[Summary]) -> Result<String, StatsError> {
    write_csv(
        &[
            "run_seed",
            "player_a",
            "player_b",
            "line",
            "opening",
            "games",
            "wins_a",
            "wins_b",
            "draws",
            "score_a",
            "score_low",
            "score_high",
            "first_player_score",
        ],
        summaries.iter().flat_map(|s| {
            s.openings.iter().map(move |x| {
                [
                    s.run_seed.to_string(),
                    s.players[0].clone(),
                    s.players[1].clone(),
                    x.line.map_or(String::new(), |l| l.to_string()),
                    x.name.clone(),
                    x.games.to_string(),
                    x.wins_a.to_string(),
                    x.wins_b.to_string(),
                    x.draws.to_string(),
                    format!("{:.4}", x.score_a.score),
                    format!("{:.4}", x.score_a.low),
                    format!("{:.4}", x.score_a.high),
                    format!("{:.4}", x.first_player.score),
                ]
            })
        }),
    )
}

/// CSV of per-seat results (one row per match and seat).
pub fn seats_csv(summaries: &[Summary]) -> Result<String, StatsError> {
    write_csv(
        &[
            "run_seed",
            "player_a",
            "player_b",
            "seat",
            "position",
            "wins",
            "draws",
            "losses",
            "score",
            "score_low",
            "score_high",
        ],
        summaries.iter().flat_map(|s| {
            s.seats.iter().map(move |x| {
                [
                    s.run_seed.to_string(),
                    s.players[0].clone(),
                    s.players[1].clone(),
                    x.seat.clone(),
                    x.position.to_string(),
                    x.wins.to_string(),
                    x.draws.to_string(),
                    x.losses.to_string(),
                    format!("{:.4}", x.score.score),
                    format!("{:.4}", x.score.low),
                    format!("{:.4}", x.score.high),
                ]
            })
        }),
    )
}

/// CSV of the game-length histograms (one row per match and bucket).
pub fn lengths_csv(summaries: &[Summary]) -> Result<String, StatsError> {
    write_csv(
        &[
            "run_seed",
            "player_a",
            "player_b",
            "plies_from",
            "plies_to",
            "games",
        ],
        summaries.iter().flat_map(|s| {
            s.lengths.iter().map(move |b| {
                [
                    s.run_seed.to_string(),
                    s.players[0].clone(),
                    s.players[1].clone(),
                    b.from.to_string(),
                    b.to.to_string(),
                    b.games.to_string(),
                ]
            })
        }),
    )
}

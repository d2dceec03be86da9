//! The human-readable summary of a match (two or more seats, or one seat: solve rates) and
//! Axiom AutoPlay's closing lines.

use super::{Summary, draws, openings};

/// Axiom AutoPlay's closing lines: `Final results:`, one line per player, the draws and
/// `N game(s) played` (§7.4 of the semantics notes).
pub fn axiom_lines(s: &Summary) -> String {
    if s.seat_count == 1 {
        // A one-seat game has no winner between the players: see [`human`].
        return String::new();
    }
    let name = |t: &str| t.replace(' ', "-");
    format!(
        "Final results:\nPlayer 1 \"{}\", wins = {}.\nPlayer 2 \"{}\", wins = {}.\nDraws = {}\n{} game(s) played\n",
        name(&s.titles[0]),
        s.wins_a,
        name(&s.titles[1]),
        s.wins_b,
        s.draws,
        s.score_a.games
    )
}

fn fmt_elo(x: Option<f64>, inf: &str) -> String {
    x.map_or(inf.to_owned(), |e| format!("{e:+.0}"))
}

/// The human summary printed after the Axiom lines.
pub fn human(s: &Summary) -> String {
    if s.seat_count == 1 {
        return human_solo(s);
    }
    let mut o = String::new();
    o += &format!(
        "seed {}; A = {} (\"{}\"), B = {} (\"{}\"); {}\n",
        s.run_seed,
        s.players[0],
        s.titles[0],
        s.players[1],
        s.titles[1],
        if s.swap {
            "colour-swapped pairs"
        } else {
            "no swap: A always moves first"
        }
    );
    let n = s.score_a.games;
    o += &format!(
        "score of A: {:.1}% (95% CI {:.1}%..{:.1}%) over {} games: {} wins, {} losses, {} draws\n",
        100.0 * s.score_a.score,
        100.0 * s.score_a.low,
        100.0 * s.score_a.high,
        n,
        s.wins_a,
        s.wins_b,
        s.draws
    );
    let margin = match (s.elo.low, s.elo.high) {
        (Some(l), Some(h)) => format!(" ± {:.0}", (h - l) / 2.0),
        _ => String::new(),
    };
    o += &format!(
        "Elo difference A - B: {}{} (95% CI {}..{})\n",
        fmt_elo(
            s.elo.elo,
            if s.score_a.score >= 1.0 {
                "+inf"
            } else {
                "-inf"
            }
        ),
        margin,
        fmt_elo(s.elo.low, "-inf"),
        fmt_elo(s.elo.high, "+inf")
    );
    o += &draw_aware_lines(s);
    // Draws the rules' goals gave (a draw goal, or with three or more seats a goal that left
    // both players points).
    let by_goal = s
        .draws
        .saturating_sub(s.adjudicated + s.ends.repetition + s.ends.no_moves + s.ends.referee_draws);
    o += &format!(
        "draws: {} ({:.1}%), of which {} adjudicated at the ply cap, {} by repetition, {} with no move{}{}\n",
        s.draws,
        100.0 * s.draw_rate,
        s.adjudicated,
        s.ends.repetition,
        s.ends.no_moves,
        if s.ends.referee_draws > 0 {
            format!(", {} adjudicated by the referee", s.ends.referee_draws)
        } else {
            String::new()
        },
        if by_goal > 0 && s.ends.unrecorded == 0 {
            format!(", {by_goal} by a goal that gave both players points")
        } else {
            String::new()
        }
    );
    if s.ends.referee_wins > 0 {
        o += &format!(
            "wins adjudicated by the referee (a side resigned): {}\n",
            s.ends.referee_wins
        );
    }
    o += &format!(
        "mean game length: {:.1} plies (dice included)\n",
        s.mean_plies
    );
    o += &format!(
        "first-player score: {:.1}% (95% CI {:.1}%..{:.1}%)\n",
        100.0 * s.first_player.score,
        100.0 * s.first_player.low,
        100.0 * s.first_player.high
    );
    o += &openings_table(&s.openings);
    if let Some(ranks) = &s.ranks {
        o += &format!(
            "{} seats: A and B alternate over them; a game is A's win when A's seats take all the points, and the Elo difference treats each player's seats as a team\n",
            s.seat_count
        );
        for (p, r) in ["A", "B"].iter().zip(ranks) {
            let places: Vec<String> = r
                .iter()
                .enumerate()
                .map(|(k, n)| format!("{} {n}", ordinal(k + 1)))
                .collect();
            o += &format!("places of {p}'s seats: {}\n", places.join(", "));
        }
        for x in &s.seats {
            o += &format!(
                "seat {} ({} to move): {} wins, {} draws, {} losses\n",
                x.seat,
                ordinal(x.position + 1),
                x.wins,
                x.draws,
                x.losses
            );
        }
    }
    o += &tail(s);
    o
}

/// The draw-aware lines of the summary: the trinomial estimate, and the pentanomial one
/// when the run has colour-swapped pairs; the one gates use is marked.
fn draw_aware_lines(s: &Summary) -> String {
    let (gate, _) = s.gate_estimate();
    let est = |e: &draws::Estimate| {
        format!(
            "{:.1}% (95% CI {:.1}%..{:.1}%), Elo {} (95% CI {}..{}), LOS {:.1}%",
            100.0 * e.score,
            100.0 * e.low,
            100.0 * e.high,
            fmt_elo(e.elo.elo, if e.score >= 1.0 { "+inf" } else { "-inf" }),
            fmt_elo(e.elo.low, "-inf"),
            fmt_elo(e.elo.high, "+inf"),
            100.0 * e.los
        )
    };
    let mark = |kind: &str| {
        if kind == gate {
            "; gates judge this interval"
        } else {
            ""
        }
    };
    let mut o = format!(
        "draw-aware, per game (trinomial, {} games): {}{}\n",
        s.trinomial.games,
        est(&s.trinomial.estimate),
        mark("trinomial")
    );
    if let Some(p) = &s.pentanomial {
        let counts = p.counts.map_or(String::new(), |c| {
            format!(
                ": LL {}, LD {}, DD+WL {}, WD {}, WW {}",
                c[0], c[1], c[2], c[3], c[4]
            )
        });
        let unpaired = if p.unpaired > 0 {
            format!(", {} unpaired game(s) left out", p.unpaired)
        } else {
            String::new()
        };
        o += &format!(
            "draw-aware, per pair (pentanomial, {} pairs{counts}{unpaired}): {}{}\n",
            p.pairs,
            est(&p.estimate),
            mark("pentanomial")
        );
    }
    o
}

/// A's results per opening, one line each (empty without openings).
fn openings_table(openings: &[openings::OpeningSummary]) -> String {
    let mut o = String::new();
    if openings.is_empty() {
        return o;
    }
    o += &format!(
        "per opening ({}): score of A, games, A wins / B wins / draws, first-player score\n",
        openings.len()
    );
    for x in openings {
        o += &format!(
            "  {}{}: {:.1}% (95% CI {:.1}%..{:.1}%), {} games, {}/{}/{}, first player {:.1}%\n",
            x.line.map_or(String::new(), |l| format!("line {l} ")),
            x.name,
            100.0 * x.score_a.score,
            100.0 * x.score_a.low,
            100.0 * x.score_a.high,
            x.games,
            x.wins_a,
            x.wins_b,
            x.draws,
            100.0 * x.first_player.score
        );
    }
    o
}

/// The summary of a one-seat game: solve rates.
fn human_solo(s: &Summary) -> String {
    let mut o = String::new();
    let seat = s.solo.first().map_or("", |x| x.seat.as_str());
    let who: Vec<String> = s
        .solo
        .iter()
        .map(|x| {
            let k = usize::from(x.player == "B");
            format!("{} = {} (\"{}\")", x.player, s.players[k], s.titles[k])
        })
        .collect();
    o += &format!(
        "seed {}; {}; one seat{}: each game is solved (a win), failed (a loss, no move, or a repeated position), drawn (a draw goal) or unfinished (the ply cap)\n",
        s.run_seed,
        who.join(", "),
        if seat.is_empty() {
            String::new()
        } else {
            format!(" ({seat})")
        }
    );
    for x in &s.solo {
        o += &format!(
            "{}: {} games: {} solved, {} failed ({} lost, {} with no move, {} by repetition), {} drawn, {} unfinished\n",
            x.player,
            x.games,
            x.solved,
            x.lost + x.stuck + x.repeated,
            x.lost,
            x.stuck,
            x.repeated,
            x.drawn,
            x.unfinished
        );
        o += &format!(
            "solve rate of {}: {:.1}% (95% CI {:.1}%..{:.1}%); mean plies to a solution: {}\n",
            x.player,
            100.0 * x.solve_rate.score,
            100.0 * x.solve_rate.low,
            100.0 * x.solve_rate.high,
            x.mean_plies_solved
                .map_or("none solved".to_owned(), |m| format!("{m:.1}"))
        );
    }
    o += &format!(
        "mean game length: {:.1} plies (random players' plies included)\n",
        s.mean_plies
    );
    if s.solo.iter().any(|x| x.repeated > 0) && !s.repetition_off {
        o += "note: threefold repetition ends a game as in ZoG, which fails a puzzle that revisits a position; --repetition off lets it go on\n";
    }
    o += &tail(s);
    o
}

/// Searches cut short, errors and interruptions, common to both summaries.
fn tail(s: &Summary) -> String {
    let mut o = String::new();
    if s.search_cuts != [0, 0] {
        o += &format!(
            "searches cut short by the step budget (--search-steps): {} move(s) of A, {} of B played from a shallower search or fewer playouts\n",
            s.search_cuts[0], s.search_cuts[1]
        );
    }
    if s.errors > 0 {
        o += &format!(
            "errors: {} game(s) could not be finished (see the game records)\n",
            s.errors
        );
    }
    if s.interrupted > 0 {
        o += &format!(
            "interrupted: {} game(s) stopped by an interruption, not counted (--resume plays them again)\n",
            s.interrupted
        );
    }
    o
}

/// `1st`, `2nd`, `3rd`, `4th`, …
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

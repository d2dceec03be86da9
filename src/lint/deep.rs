//! `dagaz lint --deep`: seeded random playouts of every game on the engine, looking for
//! what only shows at run time:
//! - runtime failures (a `while` that exceeds its step budget, a partial chain that
//!   explodes), as the engine reports them;
//! - positions where the player to move has no legal move and no goal decides the game
//!   (ZoG then declares a draw, which is rarely what the designer meant);
//! - games that do not end within the ply bound;
//! - moves that remove a piece of the mover's own side;
//! - board positions no piece ever stands on, and piece types that never move.
//!
//! Every finding names the playout seed and ply, so it can be replayed.

use super::rules::codes;
use crate::diagnostics::{Diagnostic, Severity};
use crate::engine::{Engine, Move, MoveList};
use crate::expand::GameDef;
use crate::model::{Model, PlayerId, piece};
use crate::rng::Rng;

/// Settings of the deep checks.
#[derive(Clone, Copy, Debug)]
pub struct DeepOptions {
    /// Random playouts per game or variant.
    pub playouts: u32,
    /// Plies after which a playout counts as never ending.
    pub max_plies: u32,
    /// Seed of the first playout; playout i uses `Rng::derive(seed, i)`.
    pub seed: u64,
}

impl Default for DeepOptions {
    fn default() -> Self {
        DeepOptions {
            playouts: 20,
            max_plies: 1000,
            seed: 1,
        }
    }
}

/// True when `m` removes a piece of `player` that is not the piece that moves.
fn captures_friend(m: &Move, player: PlayerId, board_cells: u32) -> bool {
    m.changes.iter().any(|c| {
        c.cell.index() < board_cells as usize
            && c.old != 0
            && piece::owner(c.old) == player
            && (c.new == 0 || piece::owner(c.new) != player)
            && !m.notes.iter().any(|n| n.from.cell() == c.cell)
    })
}

/// Runs the deep checks on one game. `model` is its compiled model.
pub fn check_game(g: &GameDef, model: Model, opts: &DeepOptions) -> Vec<Diagnostic> {
    let span = g.form.span;
    let mut out: Vec<Diagnostic> = Vec::new();
    let np = model.num_positions() as u32;
    let ntypes = model.piece_types.len();
    let dummy: Vec<bool> = model
        .position_ids()
        .map(|p| model.dummy_positions.contains(p))
        .collect();
    let type_names: Vec<String> = model.piece_types.iter().map(|t| t.name.clone()).collect();
    // Types without move blocks (walls, markers, drop-only pieces) are not expected to move.
    let static_type: Vec<bool> = model
        .piece_types
        .iter()
        .map(|t| t.moves.is_empty())
        .collect();
    // Chess-like games declare only `checkmated`: their stalemate is a draw by design.
    let stalemate_is_draw = model
        .goals
        .iter()
        .any(|g| matches!(g.cond, crate::model::GoalCond::Checkmated(_)));
    let players_in_game = model.players.len();
    let mut engine = Engine::new(model);
    let mut occupied = vec![false; np as usize];
    let mut moved = vec![false; ntypes];
    let mut present = vec![false; ntypes];
    let mut list = MoveList::new();
    let (mut unfinished, mut deadlocks, mut friendly) = (0u32, 0u32, 0u32);
    let mut first_deadlock = None;
    let mut first_friendly = None;
    let mut runtime: Vec<Diagnostic> = Vec::new();
    for i in 0..opts.playouts {
        let mut rng = Rng::derive(opts.seed, i as u64);
        let mut s = engine.initial_state();
        let mut ended = false;
        for ply in 0..opts.max_plies {
            for p in 0..np {
                let c = s.cells[p as usize];
                if c != 0 {
                    occupied[p as usize] = true;
                    present[piece::ty(c).index()] = true;
                }
            }
            engine.legal_moves(&s, &mut list);
            for d in engine.take_diagnostics() {
                if runtime.len() < 3 && !runtime.iter().any(|r| r.code == d.code) {
                    runtime.push(d.with_note(format!(
                        "seen in playout seed {} ({i}), ply {ply}",
                        opts.seed
                    )));
                }
            }
            let player = PlayerId::new(engine.current_player(&s) as u32);
            if list.is_empty() {
                match engine.outcome_given_moves(&s, false) {
                    Some(o)
                        if o.goal.is_none()
                            && !stalemate_is_draw
                            && !engine.model().goals.is_empty()
                            && engine.repetitions(&s) < 3 =>
                    {
                        deadlocks += 1;
                        first_deadlock.get_or_insert((
                            i,
                            ply,
                            engine.model().players[player.index()].name.clone(),
                        ));
                    }
                    _ => {}
                }
                ended = true;
                break;
            }
            let m = list.get(rng.below(list.len())).cloned().unwrap_or_default();
            for n in &m.notes {
                if !n.from.is_none() && n.ty.index() < ntypes {
                    moved[n.ty.index()] = true;
                }
            }
            // In a one-player game (a solitaire) every capture removes the mover's own piece.
            if players_in_game > 1 && captures_friend(&m, player, np) {
                friendly += 1;
                first_friendly.get_or_insert((i, ply, engine.notation(&m)));
            }
            engine.make(&mut s, &m);
        }
        if !ended {
            unfinished += 1;
        }
    }
    let seed = opts.seed;
    out.extend(runtime.into_iter().map(|d| {
        if d.span.is_none() {
            d.with_span(span)
        } else {
            d
        }
    }));
    if let Some((i, ply, who)) = first_deadlock {
        out.push(
            Diagnostic::warning(
                codes::DEEP_NO_MOVE_NO_GOAL,
                format!("`{}`: {who} has no legal move and no goal decides the game ({deadlocks} of {} playouts); ZoG calls it a draw", g.title, opts.playouts),
            )
            .with_span(span)
            .with_note(format!("first seen in playout {i} (seed {seed}) at ply {ply}; add a `stalemated` goal or a pass option if this is not a draw")),
        );
    }
    if unfinished > 0 {
        out.push(
            Diagnostic::warning(
                codes::DEEP_NEVER_ENDS,
                format!(
                    "`{}`: {unfinished} of {} random playouts did not end within {} plies",
                    g.title, opts.playouts, opts.max_plies
                ),
            )
            .with_span(span),
        );
    }
    if let Some((i, ply, note)) = first_friendly {
        out.push(
            Diagnostic::warning(
                codes::DEEP_FRIENDLY_CAPTURE,
                format!("`{}`: a move removes a piece of the mover's own side ({friendly} times), e.g. `{note}`", g.title),
            )
            .with_span(span)
            .with_note(format!("playout {i} (seed {seed}), ply {ply}; guard the final `add` with `(verify not-friend?)`")),
        );
    }
    let never: Vec<&str> = (0..np as usize)
        .filter(|&p| !occupied[p] && !dummy[p])
        .map(|p| engine.model().positions[p].as_str())
        .collect();
    if !never.is_empty() && never.len() < np as usize {
        let shown: Vec<&str> = never.iter().take(12).copied().collect();
        out.push(
            Diagnostic::new(
                codes::DEEP_UNREACHED_POSITION,
                Severity::Note,
                format!(
                    "`{}`: {} position(s) never held a piece in {} playouts: {}{}",
                    g.title,
                    never.len(),
                    opts.playouts,
                    shown.join(" "),
                    if never.len() > shown.len() {
                        " …"
                    } else {
                        ""
                    }
                ),
            )
            .with_span(span),
        );
    }
    let idle: Vec<&str> = (0..ntypes)
        .filter(|&t| present[t] && !moved[t] && !static_type[t])
        .map(|t| type_names[t].as_str())
        .collect();
    if !idle.is_empty() {
        out.push(
            Diagnostic::new(
                codes::DEEP_PIECE_NEVER_MOVES,
                Severity::Note,
                format!(
                    "`{}`: piece type(s) {} were on the board but never moved in {} playouts",
                    g.title,
                    idle.join(", "),
                    opts.playouts
                ),
            )
            .with_span(span),
        );
    }
    out
}

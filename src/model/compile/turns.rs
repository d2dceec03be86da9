//! The `turn-order` section: whose turn comes when, whose pieces they move (`(P Q)`) and
//! which move type they are limited to (`(P type)`), and where the cycle repeats from.

use super::Ctx;
use super::pieces::unknown_move_type;
use crate::diagnostics::{Diagnostic, codes};
use crate::model::code::Compiler;
use crate::model::{Player, PlayerId, Turn};
use crate::syntax::Node;

/// Reads the last `turn-order` section (each player in turn when there is none): returns the
/// turns and the index of the first turn of the repeated cycle. Move types are interned in
/// `compiler`.
pub(super) fn turn_order(
    cx: &mut Ctx<'_>,
    players: &[Player],
    compiler: &mut Compiler<'_>,
) -> (Vec<Turn>, usize) {
    let mut turns = Vec::new();
    let mut repeat_from = 0;
    if let Some(t) = cx.sections("turn-order").last() {
        for item in t.args() {
            if item.atom() == Some("repeat") {
                repeat_from = turns.len();
                continue;
            }
            let ws: Vec<&Node> = if item.is_list() {
                item.items.iter().collect()
            } else {
                vec![item]
            };
            let Some(pname) = ws.first().and_then(|n| n.word()) else {
                continue;
            };
            let Some(p) = compiler.names.players.get(pname).map(|&p| PlayerId::new(p)) else {
                cx.diags.push(
                    Diagnostic::error(
                        codes::UNKNOWN_PLAYER,
                        format!("unknown player `{pname}` in the turn order"),
                    )
                    .with_span(ws[0].span),
                );
                continue;
            };
            let mut turn = Turn {
                player: p,
                pieces_of: p,
                move_type: None,
            };
            for wn in &ws[1..] {
                let w = wn.word().unwrap_or("");
                match compiler.names.players.get(w) {
                    Some(&q) => turn.pieces_of = PlayerId::new(q),
                    None => {
                        if !compiler.declared_move_types().contains(w) {
                            cx.soft.push(unknown_move_type(
                                wn,
                                "the turn order",
                                true,
                                compiler.declared_move_types(),
                                players,
                            ));
                        }
                        turn.move_type = Some(compiler.move_type(w));
                    }
                }
            }
            turns.push(turn);
        }
        if repeat_from >= turns.len() && !turns.is_empty() {
            cx.diags.push(
                Diagnostic::warning(
                    codes::BAD_TURN_ORDER,
                    "`repeat` ends the turn order; ignored",
                )
                .with_span(t.span),
            );
            repeat_from = 0;
        }
    }
    if turns.is_empty() {
        turns = (0..players.len() as u32)
            .map(PlayerId::new)
            .map(|p| Turn {
                player: p,
                pieces_of: p,
                move_type: None,
            })
            .collect();
    }
    (turns, repeat_from)
}

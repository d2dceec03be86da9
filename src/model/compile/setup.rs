//! The `board-setup` section: the pieces on the board at the start and the pieces in hand
//! (`off N`), and which types can be dropped without limit.

use super::Ctx;
use crate::diagnostics::{Diagnostic, codes};
use crate::model::board::Board;
use crate::model::names::Names;
use crate::model::{PieceType, PieceTypeId, PlayerId, PositionId, piece};
use crate::syntax::Node;
use crate::text::name_suggestion;

/// The starting pieces.
#[derive(Default)]
pub(super) struct Setup {
    /// Pieces on the board: (position, packed piece).
    pub on_board: Vec<(PositionId, u32)>,
    /// Pieces in hand: (player, type, count).
    pub in_hand: Vec<(PlayerId, u32, u32)>,
}

impl Setup {
    /// Per type: no `off N` count names it, so its drops are unlimited (docs/semantics.md).
    pub fn unlimited_drops(&self, num_types: usize) -> Vec<bool> {
        let mut unlimited = vec![true; num_types];
        for &(_, ty, _) in &self.in_hand {
            unlimited[ty as usize] = false;
        }
        unlimited
    }
}

/// Reads the last `board-setup` section. Unknown players and types are errors; a position
/// that is not on the board leaves its piece out.
pub(super) fn board_setup(
    cx: &mut Ctx<'_>,
    names: &Names,
    board: &Board,
    types: &[PieceType],
) -> Setup {
    let mut setup = Setup::default();
    let Some(s) = cx.sections("board-setup").last() else {
        return setup;
    };
    for pl in s.args() {
        let Some(pname) = pl.head().or_else(|| pl.items.first().and_then(Node::word)) else {
            continue;
        };
        let Some(p) = names.players.get(pname).map(|&p| PlayerId::new(p)) else {
            cx.diags.push(
                Diagnostic::error(
                    codes::UNKNOWN_PLAYER,
                    format!("unknown player `{pname}` in the setup"),
                )
                .with_span(pl.items.first().map_or(pl.span, |n| n.span)),
            );
            continue;
        };
        for tl in pl.args() {
            let Some(tname) = tl.head() else { continue };
            let Some(&ty) = names.types.get(tname) else {
                cx.diags.push(
                    Diagnostic::error(
                        codes::UNKNOWN_PIECE,
                        format!("unknown piece type `{tname}` in the setup"),
                    )
                    .with_span(tl.items[0].span),
                );
                continue;
            };
            let args = tl.args();
            let mut i = 0;
            while i < args.len() {
                let w = args[i].word().unwrap_or("");
                if w == "off" {
                    let n = args
                        .get(i + 1)
                        .and_then(Node::word)
                        .and_then(|w| w.parse::<u32>().ok())
                        .unwrap_or(0);
                    setup.in_hand.push((p, ty, n));
                    i += 2;
                    continue;
                }
                match board.position_index.get(w) {
                    Some(&pos) => setup
                        .on_board
                        .push((pos, piece::make(PieceTypeId::new(ty), p, types[ty as usize].attrs))),
                    None if board.killed.contains(w) => cx.diags.push(
                        Diagnostic::warning(
                            codes::UNKNOWN_POSITION,
                            format!(
                                "setup names position `{w}`, which `kill-positions` removes; the piece is left out"
                            ),
                        )
                        .with_span(args[i].span),
                    ),
                    None => {
                        let mut d = Diagnostic::error(
                            codes::UNKNOWN_POSITION,
                            format!(
                                "setup names position `{w}`, which is not on the board; the piece is left out"
                            ),
                        )
                        .with_span(args[i].span);
                        if let Some(sg) = name_suggestion(w, &board.positions) {
                            d = d.with_note(format!("did you mean `{sg}`?"));
                        }
                        cx.soft.push(d);
                    }
                }
                i += 1;
            }
        }
    }
    setup
}

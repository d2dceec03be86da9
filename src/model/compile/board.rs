//! The `board` sections: positions, directions and links (read by
//! [`BoardBuilder`](crate::model::board::BoardBuilder)), with the checks that the board is
//! usable at all.

use super::{Ctx, Stop};
use crate::diagnostics::codes;
use crate::model::board::{Board, BoardBuilder};

/// Reads every `board` section into one board; a game without a board, with no positions or
/// with too many, cannot be compiled.
pub(super) fn board(cx: &mut Ctx<'_>) -> Result<Board, Stop> {
    let boards: Vec<_> = cx.sections("board").collect();
    if boards.is_empty() {
        return Err(cx.stop_at_game(codes::NO_BOARD, "the game has no board"));
    }
    let mut builder = BoardBuilder::default();
    for b in &boards {
        builder.read_board(b, &mut cx.diags, &mut cx.soft);
    }
    let board = builder.finish();
    if board.positions.is_empty() {
        return Err(cx.stop_at_game(codes::NO_BOARD, "the board has no positions"));
    }
    if board.positions.len() >= (1 << 20) {
        return Err(cx.stop_at_game(codes::TOO_MANY_POSITIONS, "too many positions"));
    }
    Ok(board)
}

//! The `players` section: the players in order, random players (`?Dice`) marked; the last
//! `players` section wins.

use super::{Ctx, Stop};
use crate::diagnostics::{Diagnostic, codes};
use crate::model::{MAX_PLAYERS, Player};

/// Reads the players; a game without players, or with too many, cannot be compiled.
pub(super) fn players(cx: &mut Ctx<'_>) -> Result<Vec<Player>, Stop> {
    let mut players: Vec<Player> = Vec::new();
    for s in cx.sections("players") {
        players.clear();
        for n in s.args() {
            let Some(w) = n.word() else { continue };
            if players.iter().any(|p| p.name == w) {
                cx.diags.push(
                    Diagnostic::error(
                        codes::DUPLICATE_NAME,
                        format!("player `{w}` is listed twice in `players`"),
                    )
                    .with_span(n.span),
                );
                continue;
            }
            players.push(Player {
                name: w.to_owned(),
                random: w.starts_with('?'),
            });
        }
    }
    if players.is_empty() {
        return Err(cx.stop_at_game(codes::NO_PLAYERS, "the game declares no players"));
    }
    if players.len() > MAX_PLAYERS {
        return Err(cx.stop_at_game(codes::TOO_MANY_PLAYERS, "too many players"));
    }
    Ok(players)
}

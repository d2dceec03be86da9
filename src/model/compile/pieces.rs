//! The `piece` sections: piece types and their attributes, the move types their
//! `(move-type …)` markers declare, compiling their `moves` and `drops` blocks, and setting
//! aside the blocks of types that never come into play.

use super::setup::Setup;
use super::{Ctx, Stop};
use crate::diagnostics::{Diagnostic, Severity, codes};
use crate::model::code::Compiler;
use crate::model::names::NameSet;
use crate::model::{
    Block, MAX_ATTRIBUTES, MAX_PIECE_TYPES, MoveType, Op, PieceType, PieceTypeId, Player, piece,
};
use crate::syntax::Node;
use crate::text::name_suggestion;
use std::collections::HashMap;
use std::ops::Range;

/// The piece types of a game, before their blocks are compiled.
pub(super) struct Pieces<'g> {
    /// The `piece` sections, in order.
    pub forms: Vec<&'g Node>,
    /// Piece types, by index (a type defined twice keeps its first index, last definition).
    pub types: Vec<PieceType>,
    pub type_index: HashMap<String, u32>,
    /// Attribute names, by index (bit).
    pub attributes: Vec<String>,
}

/// Reads the piece types and their attributes (no blocks yet); too many of either cannot be
/// compiled.
pub(super) fn piece_types<'g>(cx: &mut Ctx<'g>) -> Result<Pieces<'g>, Stop> {
    let forms: Vec<&Node> = cx.sections("piece").collect();
    let mut type_index: HashMap<String, u32> = HashMap::new();
    let mut types: Vec<PieceType> = Vec::new();
    let mut attributes: Vec<String> = Vec::new();
    for p in &forms {
        let Some(name) = p.name_value().and_then(Node::word) else {
            cx.diags.push(
                Diagnostic::error(codes::MALFORMED_FORM, "a piece needs a name").with_span(p.span),
            );
            continue;
        };
        if type_index.contains_key(name) {
            // An error (what follows from it shows far away), but the game still compiles
            // as ZoG loads it: the last definition wins.
            cx.soft.push(
                Diagnostic::error(
                    codes::DUPLICATE_NAME,
                    format!("piece `{name}` is defined twice; the last one wins"),
                )
                .with_span(p.child_form("name").map_or(p.span, |n| n.args()[0].span)),
            );
        }
        let mut attrs = 0u32;
        for a in p.args().iter().filter(|s| s.head() == Some("attribute")) {
            let (Some(an), v) = (
                a.args().first().and_then(Node::word),
                a.args().get(1).and_then(Node::word),
            ) else {
                continue;
            };
            let i = match attributes.iter().position(|x| x == an) {
                Some(i) => i,
                None => {
                    attributes.push(an.to_owned());
                    attributes.len() - 1
                }
            };
            if i >= MAX_ATTRIBUTES {
                cx.diags.push(
                    Diagnostic::error(
                        codes::TOO_MANY_ATTRIBUTES,
                        format!("more than {MAX_ATTRIBUTES} attributes"),
                    )
                    .with_span(a.args()[0].span),
                );
                return Err(Stop);
            }
            if v == Some("true") {
                attrs |= 1 << i;
            }
        }
        let ty = PieceType {
            name: name.to_owned(),
            notation: p
                .child_form("notation")
                .and_then(|n| n.args().first())
                .and_then(Node::word)
                .map(str::to_owned),
            attrs,
            moves: vec![],
            drops: vec![],
            dummy: p.child_form("dummy").is_some()
                || p.args().iter().any(|a| a.atom() == Some("dummy")),
        };
        match type_index.get(name) {
            Some(&i) => types[i as usize] = ty,
            None => {
                type_index.insert(name.to_owned(), types.len() as u32);
                types.push(ty);
            }
        }
    }
    if types.len() > MAX_PIECE_TYPES {
        return Err(cx.stop_at_game(codes::TOO_MANY_PIECE_TYPES, "too many piece types"));
    }
    Ok(Pieces {
        forms,
        types,
        type_index,
        attributes,
    })
}

/// The move type a `(move-type …)` marker selects for the blocks after it (`""`, the
/// default type, when it names none).
fn move_type_marker_name(marker: &Node) -> &str {
    marker.args().first().and_then(Node::word).unwrap_or("")
}

/// The move types that the `(move-type …)` markers in the pieces' `moves` and `drops`
/// declare: what the turn order, `move-priorities`, `add-partial` and `attacked?` may name.
pub(super) fn declared_move_types(pieces: &[&Node]) -> NameSet {
    pieces
        .iter()
        .flat_map(|p| p.args())
        .filter(|s| matches!(s.head(), Some("moves" | "drops")))
        .flat_map(|s| s.args())
        .filter(|b| b.head() == Some("move-type"))
        .map(|b| move_type_marker_name(b).to_owned())
        .collect()
}

/// The move types the pieces' `(move-type …)` markers name, in the order they first
/// appear.
pub(super) fn move_type_marker_order(pieces: &[&Node]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in pieces {
        for sect in p
            .args()
            .iter()
            .filter(|s| matches!(s.head(), Some("moves" | "drops")))
        {
            for b in sect.args().iter().filter(|b| b.head() == Some("move-type")) {
                let name = move_type_marker_name(b);
                if !out.iter().any(|n| n == name) {
                    out.push(name.to_owned());
                }
            }
        }
    }
    out
}

/// Which of the compiler's diagnostics each piece type's blocks produced: (type, range).
pub(super) type DiagsByType = Vec<(usize, Range<usize>)>;

/// Compiles the `moves` and `drops` blocks of every named piece into `compiler`, each with
/// the move type of the marker before it.
pub(super) fn compile_blocks(pieces: &mut Pieces<'_>, compiler: &mut Compiler<'_>) -> DiagsByType {
    let mut by_type = Vec::new();
    for p in &pieces.forms {
        let Some(name) = p.name_value().and_then(Node::word) else {
            continue;
        };
        let ti = pieces.type_index[name] as usize;
        let first_diag = compiler.diags.len();
        for (kind, is_drop) in [("moves", false), ("drops", true)] {
            for sect in p.args().iter().filter(|s| s.head() == Some(kind)) {
                let mut mt = MoveType::DEFAULT;
                for b in sect.args() {
                    if b.head() == Some("move-type") {
                        mt = compiler.move_type(move_type_marker_name(b));
                        continue;
                    }
                    let start = compiler.block(b, mt);
                    let block = Block {
                        start,
                        move_type: mt,
                    };
                    if is_drop {
                        pieces.types[ti].drops.push(block);
                    } else {
                        pieces.types[ti].moves.push(block);
                    }
                }
            }
        }
        by_type.push((ti, first_diag..compiler.diags.len()));
    }
    by_type
}

/// A move-type that no move block declares (in `place`); in a turn-order entry the word may
/// also have meant a player.
pub(super) fn unknown_move_type(
    n: &Node,
    place: &str,
    or_player: bool,
    declared: &NameSet,
    players: &[Player],
) -> Diagnostic {
    let msg = if or_player {
        format!(
            "`{}` in {place} is neither a player nor a move-type of any move block",
            n.text
        )
    } else {
        format!("move-type `{}` in {place} has no move block", n.text)
    };
    let mut d = Diagnostic::error(codes::UNKNOWN_MOVE_TYPE, msg).with_span(n.span);
    let mut names: Vec<&str> = declared.iter().map(String::as_str).collect();
    names.sort_unstable();
    if or_player {
        names.extend(players.iter().map(|p| p.name.as_str()));
    }
    if let Some(s) = name_suggestion(&n.text, &names) {
        d = d.with_note(format!("did you mean `{s}`?"));
    }
    d
}

/// A piece type that can never be on the board (not set up, not in hand, not droppable,
/// never added, promoted to or created by a piece that can) cannot affect play: errors in
/// its blocks (a variant's board without the directions of a base piece it no longer uses)
/// become warnings, and its blocks are dropped (docs/semantics.md).
pub(super) fn ignore_types_out_of_play(
    types: &mut [PieceType],
    by_type: &DiagsByType,
    code_diags: &mut [Diagnostic],
    setup: &Setup,
    unlimited_drops: &[bool],
    code: &[Op],
    type_lists: &[PieceTypeId],
) {
    let in_play = types_in_play(types, setup, unlimited_drops, code, type_lists);
    for (ti, range) in by_type {
        if in_play[*ti] || !code_diags[range.clone()].iter().any(Diagnostic::is_error) {
            continue;
        }
        let name = &types[*ti].name;
        for d in &mut code_diags[range.clone()] {
            if d.severity == Severity::Error {
                d.severity = Severity::Warning;
                d.notes.push(format!(
                    "piece `{name}` never comes into play (not set up, not dropped, never created or promoted to): its moves are ignored"
                ));
            }
        }
        types[*ti].moves.clear();
        types[*ti].drops.clear();
    }
}

/// Which piece types can ever stand on the board: those set up on it or in a hand, those
/// with drop blocks and drops available, and, transitively, those that the blocks of such a
/// type add, promote to (`add T`, `add-partial T …`, `change-type T`) or create.
fn types_in_play(
    types: &[PieceType],
    setup: &Setup,
    unlimited_drops: &[bool],
    code: &[Op],
    type_lists: &[PieceTypeId],
) -> Vec<bool> {
    let mut in_play = vec![false; types.len()];
    let mut todo: Vec<usize> = Vec::new();
    let mark = |t: usize, in_play: &mut Vec<bool>, todo: &mut Vec<usize>| {
        if t < in_play.len() && !in_play[t] {
            in_play[t] = true;
            todo.push(t);
        }
    };
    for &(_, pc) in &setup.on_board {
        mark(piece::ty(pc).index(), &mut in_play, &mut todo);
    }
    for &(_, t, n) in &setup.in_hand {
        if n > 0 {
            mark(t as usize, &mut in_play, &mut todo);
        }
    }
    for (t, ty) in types.iter().enumerate() {
        if !ty.drops.is_empty() && unlimited_drops[t] {
            mark(t, &mut in_play, &mut todo);
        }
    }
    while let Some(t) = todo.pop() {
        for b in types[t].moves.iter().chain(&types[t].drops) {
            for op in &code[b.start as usize..] {
                match *op {
                    Op::End => break,
                    Op::Add { types, ntypes, .. } => {
                        for &u in &type_lists[types as usize..(types + ntypes) as usize] {
                            mark(u.index(), &mut in_play, &mut todo);
                        }
                    }
                    Op::ChangeType(u, _) => mark(u.index(), &mut in_play, &mut todo),
                    Op::Create { ty, .. } if !ty.is_none() => {
                        mark(ty.index(), &mut in_play, &mut todo)
                    }
                    _ => {}
                }
            }
        }
    }
    in_play
}

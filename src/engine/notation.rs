//! Move notation as Zillions of Games writes it in its move list and saved games
//! (docs/formats.md, "Move notation"):
//!
//! - the movements of a part, in the order they happened (a cascade's earlier pieces
//!   first): `Pawn e2 - e4`, `Pawn e4 x d5` when a piece stood on the destination;
//!   `King e1 - g1 Rook h1 - f1`;
//! - a promotion by `add`, right after its movement: `Pawn e7 - e8 = Queen`;
//! - then the other effects, in the order they were made: `x b4` (a capture elsewhere),
//!   `White Bishop c4` (a piece created), `= Ball on c5` (a type changed), `= Black` (the
//!   moved piece changes owner) or `flip b3` (another piece does), `@ h7 0 0` (attribute
//!   0 of the piece on h7 set to 0);
//! - a pass: `Pass`.
//!
//! Each part of a partial chain is written on its own: a saved game gives it its own
//! line, `partial N` in front ([`Engine::part_notation`]); a whole chain's notation is its
//! parts' joined by a space.
//!
//! The text is derived from the move's cell changes, so an effect that changes nothing
//! (a `change-type` to the same type, a `set-attribute` to the value it has) is not
//! written, where ZoG writes it; `dagaz replay` matches such moves by their effects.

use super::{Engine, Move, MovePart};
use crate::model::{Model, PositionId, piece};
use std::fmt::Write;

impl Engine {
    /// The move in ZoG's notation (see the module documentation).
    pub fn notation(&self, m: &Move) -> String {
        if m.pass {
            return "Pass".to_owned();
        }
        let mut out = String::new();
        for i in 0..m.num_parts() {
            if let Some(p) = m.part(i) {
                // (`write_part` puts the space before each word group.)
                write_part(&self.t.model, p, &mut out);
            }
        }
        out
    }

    /// One part of a move (the whole move when it is not a chain) in ZoG's notation.
    pub fn part_notation(&self, p: MovePart<'_>) -> String {
        if p.pass {
            return "Pass".to_owned();
        }
        let mut out = String::new();
        write_part(&self.t.model, p, &mut out);
        out
    }
}

fn write_part(model: &Model, p: MovePart<'_>, out: &mut String) {
    let np = model.num_positions();
    let name = |pos: PositionId| model.positions[pos.index()].as_str();
    let ty_name = |v: u32| model.piece_types[piece::ty(v).index()].name.as_str();
    // The value of a position before the part, where the part changes it.
    let before = |pos: PositionId| {
        p.changes
            .iter()
            .find(|c| c.cell.index() == pos.index())
            .map_or(0, |c| c.old)
    };
    // Movements in the order they happened: the cascaded pieces, then the main one.
    let mut moves: Vec<_> = p.notes.iter().filter(|n| n.cascade).collect();
    moves.extend(p.notes.iter().filter(|n| !n.cascade));
    let mut landed: Vec<PositionId> = Vec::new();
    for n in &moves {
        if !out.is_empty() {
            out.push(' ');
        }
        if n.from.is_none() {
            // A drop is written as a piece put on the board: with its owner.
            let owner = p
                .changes
                .iter()
                .find(|c| c.cell.index() == n.to.index() && c.new != 0)
                .map(|c| piece::owner(c.new));
            if let Some(o) = owner {
                out.push_str(&model.players[o.index()].name);
                out.push(' ');
            }
            out.push_str(&model.piece_types[n.ty.index()].name);
            out.push(' ');
            out.push_str(name(n.to));
        } else {
            out.push_str(&model.piece_types[n.ty.index()].name);
            out.push(' ');
            out.push_str(name(n.from));
            let taken = n.to != n.from && before(n.to) != 0;
            out.push_str(if taken { " x " } else { " - " });
            out.push_str(name(n.to));
        }
        if !n.promote.is_none() && n.promote != n.ty {
            out.push_str(" = ");
            out.push_str(&model.piece_types[n.promote.index()].name);
        }
        landed.push(n.to);
    }
    let origins: Vec<PositionId> = moves.iter().map(|n| n.from).collect();
    let last_to = moves.last().map(|n| n.to);
    // The other effects: each changed position's net change, in the order of its last
    // change.
    let mut cells: Vec<(usize, PositionId)> = Vec::new();
    for (i, c) in p.changes.iter().enumerate() {
        if c.cell.index() >= np {
            continue;
        }
        let pos = c.cell.position();
        match cells.iter_mut().find(|(_, q)| *q == pos) {
            Some(e) => e.0 = i,
            None => cells.push((i, pos)),
        }
    }
    cells.sort_by_key(|&(i, _)| i);
    for (i, pos) in cells {
        let old = before(pos);
        let new = p.changes[i].new;
        let landing = landed.iter().rev().find(|&&q| q == pos).copied();
        // What the movements alone leave on the square: on a landing square, the piece
        // that landed (the first change to a piece there), on an origin nothing.
        let moved = match landing {
            Some(_) => p
                .changes
                .iter()
                .find(|c| c.cell.index() == pos.index() && c.new != 0)
                .map_or(0, |c| c.new),
            None if origins.contains(&pos) => 0,
            None => old,
        };
        if new == moved {
            continue;
        }
        let sep = |out: &mut String| {
            if !out.is_empty() {
                out.push(' ');
            }
        };
        if new == 0 {
            sep(out);
            let _ = write!(out, "x {}", name(pos));
        } else if moved == 0 {
            sep(out);
            let owner = &model.players[piece::owner(new).index()].name;
            let _ = write!(out, "{owner} {} {}", ty_name(new), name(pos));
        } else {
            if piece::owner(new) != piece::owner(moved) {
                sep(out);
                if landing.is_some() && Some(pos) == last_to {
                    let owner = &model.players[piece::owner(new).index()].name;
                    let _ = write!(out, "= {owner}");
                } else {
                    let _ = write!(out, "flip {}", name(pos));
                }
            }
            if piece::ty(new) != piece::ty(moved) {
                sep(out);
                let _ = write!(out, "= {} on {}", ty_name(new), name(pos));
            }
            for a in 0..model.attributes.len() as u32 {
                if piece::attr(new, a) != piece::attr(moved, a) {
                    sep(out);
                    let _ = write!(out, "@ {} {a} {}", name(pos), u8::from(piece::attr(new, a)));
                }
            }
        }
    }
}

/// A move's text compared without case and extra spaces.
pub fn normalise(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The text without its attribute writes (`@ POS A V` groups), normalised: how a text
/// written by hand or by an older dagaz (which left them out) is matched when no move has
/// it exactly.
pub fn without_attribute_writes(s: &str) -> String {
    let w: Vec<&str> = s.split_whitespace().collect();
    let mut out: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < w.len() {
        if w[i] == "@" {
            i += 2;
            while i + 1 < w.len() && w[i].parse::<u32>().is_ok() && w[i + 1].parse::<u32>().is_ok()
            {
                i += 2;
            }
            continue;
        }
        out.push(w[i]);
        i += 1;
    }
    out.join(" ").to_lowercase()
}

/// The index of the text in `texts` that `written` names: the one equal to it (runs of
/// spaces aside), else the one equal to it without case, else, when `written` writes no attribute, the first equal to it once
/// attribute writes are left out of both.
pub fn find_notation<S: AsRef<str>>(written: &str, texts: &[S]) -> Option<usize> {
    // Exactly first: some games have position names that differ only in case.
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let exact = squash(written);
    if let Some(i) = texts.iter().position(|t| squash(t.as_ref()) == exact) {
        return Some(i);
    }
    let want = normalise(written);
    if let Some(i) = texts.iter().position(|t| normalise(t.as_ref()) == want) {
        return Some(i);
    }
    if written.split_whitespace().any(|w| w == "@") {
        return None;
    }
    texts
        .iter()
        .position(|t| without_attribute_writes(t.as_ref()) == want)
}

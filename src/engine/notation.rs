//! Move notation as Zillions of Games writes it in its move list and saved games
//! (docs/formats.md, "Move notation"):
//!
//! - the movements of a part, in the order they happened (a cascade's earlier pieces
//!   first): `Pawn e2 - e4`, `Pawn e4 x d5` when a piece stood on the destination;
//!   `King e1 - g1 Rook h1 - f1`;
//! - a promotion by `(add TYPE)`, right after its movement: `Pawn e7 - e8 = Queen`;
//! - then the other effects, in the order the blocks queued them, captures last (the last
//!   queued first): `x b4` (a capture elsewhere),
//!   `White Bishop c4` (a piece created), `= Ball on c5` (a type changed; the squares of
//!   consecutive changes to one type after one `on`: `= EV on 1F 19J`), `= Black` (the
//!   moved piece changes owner) or `flip b3` (another piece does), `@ h7 0 0` (attribute
//!   0 of the piece on h7 set to 0; ZoG numbers the attributes from the last declared, so
//!   0 is the last);
//! - a pass: `Pass`.
//!
//! Each part of a partial chain is written on its own: a saved game gives it its own
//! line, `partial N` in front ([`Engine::part_notation`]); a whole chain's notation is its
//! parts' joined by a space.
//!
//! The movements come from the move's notes, the other effects from the actions its
//! blocks queued ([`super::ActNote`]), in their order, whether they changed the board or
//! not (ZoG writes a `set-attribute` to the value the piece has too).

use super::{ActKind, ActNote, Engine, Move, MovePart};
use crate::model::{Model, PieceTypeId, PositionId, piece};
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
    let name = |pos: PositionId| model.positions[pos.index()].as_str();
    let ty_name = |ty: PieceTypeId| model.piece_types[ty.index()].name.as_str();
    let player = |v: u32| model.players[piece::owner(v).index()].name.as_str();
    // The value of a position before the part, where the part changes it.
    let before = |pos: PositionId| {
        p.changes
            .iter()
            .find(|c| c.cell.index() == pos.index())
            .map_or(0, |c| c.old)
    };
    // The value after the part.
    let after = |pos: PositionId| {
        p.changes
            .iter()
            .rev()
            .find(|c| c.cell.index() == pos.index())
            .map(|c| c.new)
    };
    let sep = |out: &mut String| {
        if !out.is_empty() {
            out.push(' ');
        }
    };
    // Movements in the order they happened: the cascaded pieces, then the main one.
    let mut moves: Vec<_> = p.notes.iter().filter(|n| n.cascade).collect();
    moves.extend(p.notes.iter().filter(|n| !n.cascade));
    for n in &moves {
        sep(out);
        if n.from.is_none() {
            // A drop is written as a piece put on the board: with its owner.
            let owner = p
                .changes
                .iter()
                .find(|c| c.cell.index() == n.to.index() && c.new != 0)
                .map(|c| c.new);
            if let Some(v) = owner {
                let _ = write!(out, "{} ", player(v));
            }
            let _ = write!(out, "{} {}", ty_name(n.ty), name(n.to));
        } else {
            let taken = n.to != n.from && before(n.to) != 0;
            let _ = write!(
                out,
                "{} {} {} {}",
                ty_name(n.ty),
                name(n.from),
                if taken { "x" } else { "-" },
                name(n.to)
            );
        }
        if !n.promote.is_none() {
            let _ = write!(out, " = {}", ty_name(n.promote));
        }
    }
    let last_to = moves.last().map(|n| n.to);
    // The actions the blocks queued: captures last, the last queued first (as ZoG's saved
    // games show), the others in order.
    let others = p.acts.iter().filter(|a| a.kind != ActKind::Capture);
    let captures = p.acts.iter().rev().filter(|a| a.kind == ActKind::Capture);
    let n_attrs = model.attributes.len() as u32;
    let mut prev: Option<&ActNote> = None;
    for a in others.chain(captures) {
        let pos = a.pos;
        let last = prev.replace(a);
        let prev = last;
        match a.kind {
            ActKind::Capture => {
                // A capture of an empty square that nothing lands on takes nothing. (A
                // capture of a landing square removes the piece that lands: written too.)
                let landing = moves.iter().any(|n| n.to == pos);
                if !landing && before(pos) == 0 {
                    continue;
                }
                sep(out);
                let _ = write!(out, "x {}", name(pos));
            }
            ActKind::Flip => {
                sep(out);
                let _ = write!(out, "flip {}", name(pos));
            }
            ActKind::ChangeOwner => {
                let Some(v) = after(pos).filter(|&v| v != 0) else {
                    continue;
                };
                sep(out);
                let _ = write!(out, "= {}", player(v));
                if Some(pos) != last_to {
                    let _ = write!(out, " on {}", name(pos));
                }
            }
            ActKind::ChangeType => {
                // A change to the same type as the one just written adds its square.
                if prev.is_some_and(|q: &ActNote| q.kind == ActKind::ChangeType && q.arg == a.arg) {
                    let _ = write!(out, " {}", name(pos));
                } else {
                    sep(out);
                    let _ = write!(
                        out,
                        "= {} on {}",
                        ty_name(PieceTypeId::new(a.arg)),
                        name(pos)
                    );
                }
            }
            ActKind::Create => {
                sep(out);
                let _ = write!(
                    out,
                    "{} {} {}",
                    player(a.arg),
                    ty_name(piece::ty(a.arg)),
                    name(pos)
                );
            }
            ActKind::SetAttr => {
                sep(out);
                // ZoG numbers the attributes from the last declared.
                let index = n_attrs.saturating_sub(1 + (a.arg & 0xffff));
                let _ = write!(out, "@ {} {index} {}", name(pos), a.arg >> 16);
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

/// What a move written by hand names among the legal moves' texts ([`find_written`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    /// The one move it names (index into the texts).
    One(usize),
    /// A short form that fits several moves (their indices, in order).
    Several(Vec<usize>),
    /// No legal move.
    Nothing,
}

/// The legal move that a move written by hand names: first as [`find_notation`] finds it
/// (the whole text, `Pawn e2 - e4`), else by its *short form*: positions joined by `-`
/// (or by `x` when there is no `-`) and no space, `e2-e4`, `e4xd5`, `a1`; it names the
/// moves whose text holds those words in that order (case aside), and it must name one.
pub fn find_written<S: AsRef<str>>(written: &str, texts: &[S]) -> Written {
    if let Some(i) = find_notation(written, texts) {
        return Written::One(i);
    }
    let Some(words) = short_form(written) else {
        return Written::Nothing;
    };
    let fits: Vec<usize> = (0..texts.len())
        .filter(|&i| {
            let text = texts[i].as_ref().to_lowercase();
            let mut tokens = text.split_whitespace();
            words.iter().all(|w| tokens.any(|t| t == w))
        })
        .collect();
    match fits.len() {
        0 => Written::Nothing,
        1 => Written::One(fits[0]),
        _ => Written::Several(fits),
    }
}

/// The lowercase words of a short-form move (`e2-e4`: `e2`, `e4`), or `None` when the text
/// is not one (it has a space, or an empty word).
fn short_form(written: &str) -> Option<Vec<String>> {
    let w = written.trim();
    if w.is_empty() || w.chars().any(char::is_whitespace) {
        return None;
    }
    let sep = if w.contains('-') { '-' } else { 'x' };
    let words: Vec<String> = w.split(sep).map(str::to_lowercase).collect();
    if words.iter().any(String::is_empty) {
        return None;
    }
    Some(words)
}

/// Splits a list of moves written by hand: at `;` when it has one (`Pawn e2 - e4; Pawn e7 -
/// e5`); else at spaces when every word is a short form with a `-` or an `x` between two
/// positions (`e2-e4 e7-e5`); else the whole text is one move. Empty moves (a trailing `;`)
/// are dropped.
pub fn split_written(list: &str) -> Vec<String> {
    let trimmed = list.trim();
    if trimmed.contains(';') {
        return trimmed
            .split(';')
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(str::to_owned)
            .collect();
    }
    let words: Vec<&str> = trimmed.split_whitespace().collect();
    let all_short = words
        .iter()
        .all(|w| short_form(w).is_some_and(|parts| parts.len() > 1));
    if words.len() > 1 && all_short {
        return words.into_iter().map(str::to_owned).collect();
    }
    if trimmed.is_empty() {
        vec![]
    } else {
        vec![trimmed.to_owned()]
    }
}

#[cfg(test)]
mod written_tests {
    use super::*;

    const CHESS: [&str; 4] = [
        "Pawn e2 - e4",
        "Pawn e2 - e3",
        "Knight g1 - f3",
        "Pawn e7 - e8 = Queen",
    ];

    #[test]
    fn whole_texts_then_short_forms() {
        assert_eq!(find_written("pawn  E2 - e4", &CHESS), Written::One(0));
        assert_eq!(find_written("e2-e4", &CHESS), Written::One(0));
        assert_eq!(find_written("G1-F3", &CHESS), Written::One(2));
        assert_eq!(find_written("g1xf3", &CHESS), Written::One(2));
        assert_eq!(find_written("e7-e8", &CHESS), Written::One(3));
        assert_eq!(find_written("e2", &CHESS), Written::Several(vec![0, 1]));
        assert_eq!(find_written("e2-e5", &CHESS), Written::Nothing);
        assert_eq!(
            find_written("e4-e2", &CHESS),
            Written::Nothing,
            "order counts"
        );
        assert_eq!(find_written("Pawn e2 - e5", &CHESS), Written::Nothing);
        assert_eq!(find_written("e2--e4", &CHESS), Written::Nothing);
    }

    #[test]
    fn lists_split_at_semicolons_or_between_short_forms() {
        assert_eq!(split_written("e2-e4 e7-e5"), ["e2-e4", "e7-e5"]);
        assert_eq!(
            split_written("Pawn e2 - e4; Pawn e7 - e5;"),
            ["Pawn e2 - e4", "Pawn e7 - e5"]
        );
        assert_eq!(split_written("Pawn e2 - e4"), ["Pawn e2 - e4"]);
        assert_eq!(split_written("X Man a1"), ["X Man a1"]);
        assert_eq!(split_written("e4xd5 a1-a2"), ["e4xd5", "a1-a2"]);
        assert!(split_written("  ").is_empty());
    }
}

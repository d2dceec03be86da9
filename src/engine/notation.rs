//! Move notation in the style of Zillions' move list.
//!
//! - a move: `Pawn e2 - e4`; a capture: `Pawn e4 x d5` (`x` whenever the part captured
//!   something, also en passant and jumps);
//! - a promotion: `Pawn e7 - e8 = Queen`;
//! - a drop: `Pawn a1` (no origin);
//! - cascaded pieces follow the main one: `King e1 - g1 Rook h1 - f1`;
//! - the parts of a partial chain are joined; when a part continues from the previous
//!   destination only the new step is written: `Man c3 x e5 x c7`;
//! - a pass: `pass`.
//!
//! Pieces are written with their type name.

use super::{Engine, Move};
use crate::model::PositionId;

impl Engine {
    /// The move in Zillions-like notation (see the module documentation).
    pub fn notation(&self, m: &Move) -> String {
        if m.pass {
            return "pass".to_owned();
        }
        let model = &self.t.model;
        let name = |p: PositionId| model.positions[p.index()].as_str();
        let mut out = String::new();
        let mut last_to = PositionId::NONE;
        for n in &m.notes {
            let sep = if n.capture { " x " } else { " - " };
            if !n.cascade && !n.from.is_none() && n.from == last_to {
                out.push_str(sep);
                out.push_str(name(n.to));
            } else {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(&model.piece_types[n.ty.index()].name);
                out.push(' ');
                if n.from.is_none() {
                    out.push_str(name(n.to));
                } else {
                    out.push_str(name(n.from));
                    out.push_str(sep);
                    out.push_str(name(n.to));
                }
            }
            if !n.promote.is_none() && n.promote != n.ty {
                out.push_str(" = ");
                out.push_str(&model.piece_types[n.promote.index()].name);
            }
            if !n.cascade {
                last_to = n.to;
            }
        }
        out
    }
}

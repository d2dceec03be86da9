//! The sections that choose among the generated moves or change the rules' details:
//! `move-priorities` (which move types come first) and the options (`pass turn`,
//! `pass partial`, `recycle captures`, `include off-pieces`, `maximal captures`), in both
//! spellings (`(option "name" v)` and ZoG 1.x's `(maximal-captures v)`).

use super::Ctx;
use super::pieces::unknown_move_type;
use crate::diagnostics::{Diagnostic, codes};
use crate::model::code::Compiler;
use crate::model::{MaximalCaptures, MoveType, Options, PassTurn, Player};
use crate::syntax::Node;

/// Reads the last `move-priorities` section: the move types in priority order (interned in
/// `compiler`), empty when there is none.
pub(super) fn move_priorities(
    cx: &mut Ctx<'_>,
    players: &[Player],
    compiler: &mut Compiler<'_>,
) -> Vec<MoveType> {
    let mut priorities: Vec<MoveType> = Vec::new();
    for s in cx.sections("move-priorities") {
        priorities.clear();
        for wn in s.args() {
            let Some(w) = wn.word() else { continue };
            if !compiler.declared_move_types().contains(w) {
                cx.soft.push(unknown_move_type(
                    wn,
                    "`move-priorities`",
                    false,
                    compiler.declared_move_types(),
                    players,
                ));
            }
            priorities.push(compiler.move_type(w));
        }
    }
    priorities
}

/// The rank of each of `num_move_types` move types (lower = higher priority): its first
/// place in `priorities`, after all of them when it is not listed.
pub(super) fn priority_rank(priorities: &[MoveType], num_move_types: usize) -> Vec<u32> {
    let mut rank = vec![priorities.len() as u32; num_move_types];
    for (i, &m) in priorities.iter().enumerate() {
        rank[m.index()] = rank[m.index()].min(i as u32);
    }
    rank
}

/// Reads the options that change move generation or results; a later setting wins.
pub(super) fn options(cx: &mut Ctx<'_>) -> Options {
    let mut options = Options::default();
    for s in cx.game.args() {
        let Some(o) = crate::expand::options::option_section(s) else {
            continue;
        };
        let name = o.name;
        let value = o.value.and_then(Node::word).unwrap_or("");
        let bad_value = |diags: &mut Vec<Diagnostic>| {
            diags.push(
                Diagnostic::warning(
                    codes::BAD_OPTION_VALUE,
                    format!("option `{name}`: unexpected value `{value}`"),
                )
                .with_span(s.span),
            )
        };
        let bool_value = |diags: &mut Vec<Diagnostic>| match value {
            "true" => true,
            "false" => false,
            _ => {
                bad_value(diags);
                false
            }
        };
        match name {
            "pass turn" => {
                options.pass_turn = match value {
                    "true" => PassTurn::Always,
                    "forced" | "2" => PassTurn::Forced,
                    "false" => PassTurn::Never,
                    _ => {
                        bad_value(&mut cx.diags);
                        PassTurn::Never
                    }
                }
            }
            "pass partial" => options.pass_partial = bool_value(&mut cx.diags),
            "recycle captures" => options.recycle_captures = bool_value(&mut cx.diags),
            "include off-pieces" => options.include_off_pieces = bool_value(&mut cx.diags),
            "maximal captures" => {
                options.maximal_captures = match value {
                    "true" => MaximalCaptures::Most,
                    "2" => MaximalCaptures::MostKingsFirst,
                    _ => {
                        bool_value(&mut cx.diags);
                        MaximalCaptures::Off
                    }
                }
            }
            // Other options (ZoG's display options, Dagaz extensions, typos) do not change
            // play; `dagaz lint` reports the unknown ones (DZ0850, DZ0851).
            _ => {}
        }
    }
    options
}

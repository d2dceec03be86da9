//! Goals: `win-condition`, `loss-condition`, `draw-condition`, `count-condition`, and the
//! conditions they test (see docs/semantics.md for the decisions taken where ZoG's rule is
//! unknown).

use super::names::Names;
use super::{PieceTypeId, PositionId};
use crate::diagnostics::{Diagnostic, codes};
use crate::syntax::Node;

/// What happens to the tested player when the condition holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalKind {
    Win,
    Loss,
    Draw,
    /// The player with more pieces wins; equal counts draw.
    Count,
}

/// A goal condition, tested from one player's point of view.
#[derive(Clone, Debug, PartialEq)]
pub enum GoalCond {
    /// The player is to move and has no legal move.
    Stalemated,
    /// The player is to move, has no legal move, and one of these pieces is attacked.
    Checkmated(Vec<PieceTypeId>),
    /// The position has occurred for the third time (tested for the player who just moved).
    Repetition,
    /// The player has exactly `n` pieces (of these types, when any are given).
    PiecesRemaining {
        n: u32,
        types: Vec<PieceTypeId>,
    },
    /// All players together have exactly `n` pieces (of these types).
    TotalPieceCount {
        n: u32,
        types: Vec<PieceTypeId>,
    },
    /// The player has lost a piece of one of these types (fewer on board and in hand than at
    /// the start).
    Captured(Vec<PieceTypeId>),
    /// A square matching `occupants` on the listed positions (all of them, see
    /// `any_position`) and in the listed zones (one cell each).
    AbsoluteConfig {
        occupants: Occupants,
        positions: Vec<PositionId>,
        zones: Vec<u32>,
        any_position: bool,
    },
    /// A chain: a square matching `steps[0]`, step `dirs[0]`, a square matching
    /// `steps[1]`, …
    RelativeConfig {
        steps: Vec<Occupants>,
        dirs: Vec<u32>,
    },
    And(Vec<GoalCond>),
    Or(Vec<GoalCond>),
    Not(Box<GoalCond>),
    True,
    False,
}

impl GoalCond {
    /// True when evaluating the condition needs to know whether the player can move.
    pub fn needs_moves(&self) -> bool {
        match self {
            GoalCond::Stalemated | GoalCond::Checkmated(_) => true,
            GoalCond::And(v) | GoalCond::Or(v) => v.iter().any(GoalCond::needs_moves),
            GoalCond::Not(c) => c.needs_moves(),
            _ => false,
        }
    }
    /// Every type named in a `checkmated` condition.
    pub fn royal_types(&self, out: &mut Vec<PieceTypeId>) {
        match self {
            GoalCond::Checkmated(t) => out.extend(t),
            GoalCond::And(v) | GoalCond::Or(v) => v.iter().for_each(|c| c.royal_types(out)),
            GoalCond::Not(c) => c.royal_types(out),
            _ => {}
        }
    }
}

/// Whose piece an occupant test looks for, relative to the player the goal is tested for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The tested player's own piece (a bare type name).
    Own,
    /// A piece of any other player: `(opponent T)`.
    Opponent,
    /// A piece of any player: `(any-owner T)`.
    Any,
}

/// One occupant test of `absolute-config` and `relative-config`: the square holds a piece of
/// one of `types` (any type when empty) owned as `owner`. With `negate` (`(not T)`) the test
/// is inverted: the square holds no such piece (it may be empty).
#[derive(Clone, Debug, PartialEq)]
pub struct Occupant {
    pub types: Vec<PieceTypeId>,
    pub owner: Owner,
    pub negate: bool,
}

/// The occupant tests of one item: a square matches when any of them does.
pub type Occupants = Vec<Occupant>;

/// One goal.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    pub kind: GoalKind,
    pub players: Vec<u32>,
    pub cond: GoalCond,
}

fn flat_words(nodes: &[Node]) -> Vec<&Node> {
    let mut out = Vec::new();
    for n in nodes {
        if n.is_list() {
            out.extend(flat_words(&n.items));
        } else {
            out.push(n);
        }
    }
    out
}

/// Compiles one goal section (`(win-condition (P …) C)`).
pub fn compile_goal(section: &Node, names: &Names, diags: &mut Vec<Diagnostic>) -> Option<Goal> {
    let kind = match section.head()? {
        "win-condition" => GoalKind::Win,
        "loss-condition" => GoalKind::Loss,
        "draw-condition" => GoalKind::Draw,
        "count-condition" => GoalKind::Count,
        _ => return None,
    };
    let args = section.args();
    if args.len() < 2 {
        diags.push(
            Diagnostic::error(codes::BAD_GOAL, "a goal needs players and a condition")
                .with_span(section.span),
        );
        return None;
    }
    let mut players = Vec::new();
    for p in flat_words(&args[..1]) {
        let w = p.word().unwrap_or("");
        match names.players.get(w) {
            Some(&i) => players.push(i),
            None => diags.push(
                Diagnostic::error(codes::UNKNOWN_PLAYER, format!("unknown player `{w}`"))
                    .with_span(p.span),
            ),
        }
    }
    let conds: Vec<GoalCond> = args[1..]
        .iter()
        .filter_map(|c| cond(c, names, diags))
        .collect();
    if conds.len() != args.len() - 1 {
        return None;
    }
    let cond = if conds.len() == 1 {
        conds.into_iter().next().unwrap()
    } else {
        GoalCond::And(conds)
    };
    Some(Goal {
        kind,
        players,
        cond,
    })
}

fn types_of(
    nodes: &[Node],
    names: &Names,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<PieceTypeId>> {
    let mut out = Vec::new();
    for n in flat_words(nodes) {
        let w = n.word().unwrap_or("");
        match names.types.get(w) {
            Some(&t) => out.push(PieceTypeId::new(t)),
            None => {
                diags.push(
                    Diagnostic::error(codes::UNKNOWN_PIECE, format!("unknown piece type `{w}`"))
                        .with_span(n.span),
                );
                return None;
            }
        }
    }
    Some(out)
}

/// Reads the piece-type items of `absolute-config` (or one item of `relative-config`):
/// bare type names (the tested player's pieces) and the occupier forms `(opponent T …)`,
/// `(any-owner T …)` and `(not T …)`, which may nest (`(not (opponent T))`). A plain list
/// of type names groups alternatives.
fn occupants(nodes: &[Node], names: &Names, diags: &mut Vec<Diagnostic>) -> Option<Occupants> {
    let mut out: Occupants = Vec::new();
    let mut own = Vec::new();
    collect_occupants(nodes, (Owner::Own, false), &mut own, &mut out, names, diags)?;
    if !own.is_empty() || out.is_empty() {
        out.insert(
            0,
            Occupant {
                types: own,
                owner: Owner::Own,
                negate: false,
            },
        );
    }
    Some(out)
}

fn collect_occupants(
    nodes: &[Node],
    (owner, negate): (Owner, bool),
    plain: &mut Vec<PieceTypeId>,
    out: &mut Occupants,
    names: &Names,
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    for n in nodes {
        let wrapper = match n.head() {
            Some("opponent") => Some((Owner::Opponent, negate)),
            Some("any-owner") => Some((Owner::Any, negate)),
            Some("not") => Some((owner, !negate)),
            _ => None,
        };
        if let Some((o, neg)) = wrapper {
            if n.args().is_empty() {
                diags.push(
                    Diagnostic::error(
                        codes::BAD_GOAL,
                        format!("`({} …)` needs a piece type", n.head().unwrap_or("")),
                    )
                    .with_span(n.span),
                );
                return None;
            }
            let mut types = Vec::new();
            collect_occupants(n.args(), (o, neg), &mut types, out, names, diags)?;
            if !types.is_empty() {
                out.push(Occupant {
                    types,
                    owner: o,
                    negate: neg,
                });
            }
        } else if n.is_list() {
            collect_occupants(&n.items, (owner, negate), plain, out, names, diags)?;
        } else {
            plain.extend(types_of(std::slice::from_ref(n), names, diags)?);
        }
    }
    Some(())
}

fn cond(n: &Node, names: &Names, diags: &mut Vec<Diagnostic>) -> Option<GoalCond> {
    if let Some(w) = n.atom() {
        return Some(match w {
            "stalemated" => GoalCond::Stalemated,
            "repetition" => GoalCond::Repetition,
            "true" => GoalCond::True,
            "false" => GoalCond::False,
            _ => {
                diags.push(
                    Diagnostic::error(codes::UNKNOWN_GOAL, format!("unknown goal `{w}`"))
                        .with_span(n.span),
                );
                return None;
            }
        });
    }
    let Some(h) = n.head() else {
        diags.push(
            Diagnostic::error(codes::UNKNOWN_GOAL, "malformed goal condition").with_span(n.span),
        );
        return None;
    };
    let args = n.args();
    let count = |a: Option<&Node>| a.and_then(Node::word).and_then(|w| w.parse::<u32>().ok());
    Some(match h {
        "and" | "or" => {
            let v: Option<Vec<GoalCond>> = args.iter().map(|c| cond(c, names, diags)).collect();
            if h == "and" {
                GoalCond::And(v?)
            } else {
                GoalCond::Or(v?)
            }
        }
        "not" => GoalCond::Not(Box::new(cond(args.first()?, names, diags)?)),
        "stalemated" => GoalCond::Stalemated,
        "repetition" => GoalCond::Repetition,
        "checkmated" => GoalCond::Checkmated(types_of(args, names, diags)?),
        "captured" => GoalCond::Captured(types_of(args, names, diags)?),
        "pieces-remaining" | "total-piece-count" => {
            let Some(c) = count(args.first()) else {
                diags.push(
                    Diagnostic::error(codes::BAD_GOAL, format!("`{h}` needs a count"))
                        .with_span(n.span),
                );
                return None;
            };
            let types = types_of(&args[1..], names, diags)?;
            if h == "pieces-remaining" {
                GoalCond::PiecesRemaining { n: c, types }
            } else {
                GoalCond::TotalPieceCount { n: c, types }
            }
        }
        "absolute-config" => {
            let Some((last, ts)) = args.split_last() else {
                diags.push(
                    Diagnostic::error(
                        codes::BAD_GOAL,
                        "`absolute-config` needs types and positions",
                    )
                    .with_span(n.span),
                );
                return None;
            };
            let occupants = occupants(ts, names, diags)?;
            let mut positions = Vec::new();
            let mut zones = Vec::new();
            for item in flat_words(std::slice::from_ref(last)) {
                let w = item.word().unwrap_or("");
                if let Some(&p) = names.positions.get(w) {
                    positions.push(p);
                } else if let Some(&z) = names.zones.get(w) {
                    zones.push(z);
                } else {
                    diags.push(
                        Diagnostic::error(
                            codes::UNKNOWN_POSITION,
                            format!("`{w}` is neither a position nor a zone"),
                        )
                        .with_span(item.span),
                    );
                    return None;
                }
            }
            GoalCond::AbsoluteConfig {
                occupants,
                positions,
                zones,
                any_position: false,
            }
        }
        "relative-config" => {
            let mut steps = Vec::new();
            let mut dirs = Vec::new();
            for (i, a) in args.iter().enumerate() {
                if i % 2 == 0 {
                    steps.push(occupants(std::slice::from_ref(a), names, diags)?);
                } else {
                    let w = a.word().unwrap_or("");
                    match names.directions.get(w) {
                        Some(&d) => dirs.push(d),
                        None => {
                            diags.push(
                                Diagnostic::error(
                                    codes::UNKNOWN_DIRECTION,
                                    format!("unknown direction `{w}`"),
                                )
                                .with_span(a.span),
                            );
                            return None;
                        }
                    }
                }
            }
            if steps.len() != dirs.len() + 1 {
                diags.push(
                    Diagnostic::error(
                        codes::BAD_GOAL,
                        "`relative-config` alternates types and directions",
                    )
                    .with_span(n.span),
                );
                return None;
            }
            GoalCond::RelativeConfig { steps, dirs }
        }
        _ => {
            diags.push(
                Diagnostic::error(codes::UNKNOWN_GOAL, format!("unknown goal `{h}`"))
                    .with_span(n.items[0].span),
            );
            return None;
        }
    })
}

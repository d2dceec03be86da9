//! The goal sections (`win-condition`, `loss-condition`, `draw-condition`,
//! `count-condition`, compiled by [`compile_goal`]), the `absolute-config` reading that
//! depends on the setup, and the royal types that `checkmated` goals protect.

use super::Ctx;
use super::setup::Setup;
use crate::model::goals::{Goal, GoalCond, Occupant, Owner, compile_goal};
use crate::model::names::Names;
use crate::model::{PieceTypeId, piece};

/// Compiles the goals in order; returns them and the royal types (sorted, once each).
pub(super) fn goals(
    cx: &mut Ctx<'_>,
    names: &Names,
    setup: &Setup,
) -> (Vec<Goal>, Vec<PieceTypeId>) {
    let mut goals = Vec::new();
    for s in cx.game.args() {
        if let Some(goal) = compile_goal(s, names, &mut cx.diags) {
            goals.push(goal);
        }
    }
    // absolute-config: "all named positions" unless the player cannot fill them all.
    for goal in &mut goals {
        fix_absolute(&mut goal.cond, &goal.players, setup);
    }
    let mut royal_types = Vec::new();
    for goal in &goals {
        goal.cond.royal_types(&mut royal_types);
    }
    royal_types.sort_unstable();
    royal_types.dedup();
    (goals, royal_types)
}

/// Decides, per `absolute-config`, whether every named position must be filled (the
/// default) or one is enough: one is enough when no listed player starts with as many
/// matching pieces as there are named positions (docs/semantics.md). Pieces that match are
/// those of the occupant tests: the player's own (bare types), the other players'
/// (`opponent`) or everybody's (`any-owner`); a negated test (`(not T)`) can always be met,
/// so it keeps "all".
fn fix_absolute(c: &mut GoalCond, players: &[u32], setup: &Setup) {
    match c {
        GoalCond::AbsoluteConfig {
            occupants,
            positions,
            any_position,
            ..
        } => {
            if occupants.iter().any(|o| o.negate) {
                *any_position = false;
                return;
            }
            let owned = |o: &Occupant, p: u32, owner: u32| match o.owner {
                Owner::Own => owner == p,
                Owner::Opponent => owner != p,
                Owner::Any => true,
            };
            let most = players
                .iter()
                .map(|&p| {
                    let on_board = setup
                        .on_board
                        .iter()
                        .filter(|&&(_, pc)| {
                            occupants.iter().any(|o| {
                                owned(o, p, piece::owner(pc).get())
                                    && (o.types.is_empty() || o.types.contains(&piece::ty(pc)))
                            })
                        })
                        .count();
                    let in_hand: u32 = setup
                        .in_hand
                        .iter()
                        .filter(|&&(hp, t, _)| {
                            occupants.iter().any(|o| {
                                owned(o, p, hp.get())
                                    && (o.types.is_empty()
                                        || o.types.contains(&PieceTypeId::new(t)))
                            })
                        })
                        .map(|&(_, _, n)| n)
                        .sum();
                    on_board + in_hand as usize
                })
                .max()
                .unwrap_or(0);
            *any_position = most < positions.len();
        }
        GoalCond::And(v) | GoalCond::Or(v) => {
            v.iter_mut().for_each(|c| fix_absolute(c, players, setup))
        }
        GoalCond::Not(c) => fix_absolute(c, players, setup),
        _ => {}
    }
}

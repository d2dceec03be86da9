//! `$NegamaxMove`: the default Axiom engine, a depth-limited alpha-beta search over the
//! program's own move generation, `OnIsGameOver` and `OnEvaluate`.
//!
//! Axiom's DLL is closed; what dagaz does where its behaviour had to be inferred (see
//! docs/axiom.md):
//! - the depth is [`Runtime::search_depth`] plies of the players (default
//!   [`super::DEFAULT_SEARCH_DEPTH`], Axiom's `#DepthLimit`); there is no time limit, so a
//!   search gives the same move on every machine;
//! - `OnEvaluate` scores the position for the player to move there; a won position is worth
//!   `#WinScore` minus the depth at which it is reached (faster wins first);
//! - a random player's turn (`?Dice`) is a chance node: the average over its moves;
//! - a partial move keeps the same player to move, so its value is not negated;
//! - other players minimise the searching player's value (the "paranoid" reading of
//!   negamax with more than two players);
//! - among equal root moves the first generated is kept.

use super::natives::Runtime;
use super::state::{Verdict, apply_record, evaluate, generate, restore, snapshot, verdict};
use crate::forth::Vm;
use crate::forth::error::FResult;

const WIN: i64 = 2_000_000_000;

/// The engine word: picks the best move of `$movesList` and reports it with `BestMove!`.
pub(crate) fn negamax_engine(rt: &mut Runtime, vm: &mut Vm) -> FResult<()> {
    let l = rt.layout;
    let header = vm.cell(l.moves_list)? as u32;
    let mut recs = Vec::new();
    let mut r = vm.cell(header + 8)? as u32;
    while r != 0 && recs.len() < 1 << 16 {
        recs.push(r);
        r = vm.cell(r)? as u32;
    }
    if recs.is_empty() {
        return Ok(());
    }
    let me = vm.cell(l.player)?;
    let depth = rt.search_depth.max(1);
    rt.searched = 0;
    let mut best = recs[0];
    let mut best_value = i64::MIN;
    let mut alpha = -WIN - 1;
    let beta = WIN + 1;
    for &rec in &recs {
        let snap = snapshot(vm, rt)?;
        apply_record(vm, rt, rec)?;
        rt.searched += 1;
        let v = value(rt, vm, me, depth - 1, 1, alpha, beta)?;
        restore(vm, rt, &snap)?;
        if v > best_value {
            best_value = v;
            best = rec;
        }
        alpha = alpha.max(v);
    }
    let s = vm.cell(best - super::program::REC_NOTATION)? as u32;
    rt.report.best = Some(vm.cstr(s)?.to_vec());
    rt.report.score = best_value.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    rt.report.depth = depth as i32;
    rt.report.nodes = rt.searched as i64;
    Ok(())
}

/// The value of the position for player value `me` (alpha-beta window from `me`'s view).
fn value(
    rt: &mut Runtime,
    vm: &mut Vm,
    me: i32,
    depth: u32,
    ply: u32,
    mut alpha: i64,
    mut beta: i64,
) -> FResult<i64> {
    let l = rt.layout;
    let recs = generate(vm, rt)?;
    let mover = vm.cell(l.player)?;
    let sign = if mover & 0xF800 == me & 0xF800 { 1 } else { -1 };
    match verdict(vm, rt)? {
        Verdict::Win => return Ok(sign * (WIN - ply as i64)),
        Verdict::Loss => return Ok(-sign * (WIN - ply as i64)),
        Verdict::Draw => return Ok(0),
        Verdict::Unknown => {}
    }
    if recs.is_empty() {
        return Ok(0);
    }
    let random = rt
        .info
        .player_index(mover)
        .is_some_and(|p| rt.info.is_random(p));
    if depth == 0 && !random {
        return Ok(sign * evaluate(vm, rt)? as i64);
    }
    if random {
        let mut sum = 0i64;
        for &rec in &recs {
            let snap = snapshot(vm, rt)?;
            apply_record(vm, rt, rec)?;
            rt.searched += 1;
            sum += value(rt, vm, me, depth, ply + 1, -WIN - 1, WIN + 1)?;
            restore(vm, rt, &snap)?;
        }
        return Ok(sum / recs.len() as i64);
    }
    let maximise = sign == 1;
    let mut best = if maximise { i64::MIN } else { i64::MAX };
    for &rec in &recs {
        let snap = snapshot(vm, rt)?;
        apply_record(vm, rt, rec)?;
        rt.searched += 1;
        let v = value(rt, vm, me, depth - 1, ply + 1, alpha, beta)?;
        restore(vm, rt, &snap)?;
        if maximise {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    Ok(best)
}

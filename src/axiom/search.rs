//! `$NegamaxMove` and `$UCTMove`: Axiom's two engines, searches over the program's own
//! move generation, `OnIsGameOver` and `OnEvaluate`.
//!
//! Axiom's DLL is closed; what dagaz does where its behaviour had to be inferred (see
//! docs/axiom.md):
//! - `$NegamaxMove` deepens iteratively, one ply at a time up to [`Runtime::search_depth`]
//!   plies (default [`super::DEFAULT_SEARCH_DEPTH`], Axiom's `#DepthLimit`), every turn
//!   counted, a random player's included, as a plain negamax over the turn order counts
//!   them;
//! - its time limit is a budget of primitives, [`Runtime::search_steps`] for the whole
//!   search (everything it runs counts, the program's generations, moves and events alike,
//!   also when the trace caches answer them): when the budget runs out, the best move of
//!   the deepest iteration that finished is played (of the first iteration, the best of the
//!   moves it had valued; the first move if none), so a search gives the same move on
//!   every machine;
//! - `OnEvaluate` scores the position for the player to move there; a won position is worth
//!   `#WinScore` minus the depth at which it is reached (faster wins first);
//! - a random player's turn (`?Dice`) is a chance node: the average over its moves;
//! - a partial move keeps the same player to move, so its value is not negated;
//! - other players minimise the searching player's value (the "paranoid" reading of
//!   negamax with more than two players);
//! - among equal best root moves one is drawn from the engines' generator (Ordo's AutoPlay
//!   logs: of two mirror-image openings, equal at every depth, Axiom played each about
//!   half the time); with the variety off, the first generated.
//!
//! Below the root, moves that refuted another line at the same ply (*killer moves*, known
//! by their notation) are searched first, then the others by *history* (how often and how
//! deep each refuted a line, for either side; generation order among equals), both kept
//! from one iteration to the next. Alpha-beta's value of each root move does not depend on
//! the order of the moves below it (a value inside the window is exact, one outside is a
//! bound on the right side), and the root keeps its order, so the move chosen and its
//! score at a depth are those of the search in generation order: only the nodes searched
//! differ (fewer). Tested by playing with the order on and off. (When the budget cuts an
//! iteration, which iteration finished can depend on the order, as it depends on the
//! budget.)

use super::natives::Runtime;
use super::state::{Verdict, apply_record, evaluate, generate, nested, restore, snapshot, verdict};
use crate::forth::Vm;
use crate::forth::error::FResult;

const WIN: i64 = 2_000_000_000;

/// The engine word: picks the best move of `$movesList` and reports it with `BestMove!`.
pub(crate) fn negamax_engine(rt: &mut Runtime, vm: &mut Vm) -> FResult<()> {
    let l = rt.layout;
    let recs = root_moves(vm, l.moves_list)?;
    let Some(&first) = recs.first() else {
        return Ok(());
    };
    let me = vm.cell(l.player)?;
    let depth = rt.search_depth.max(1);
    rt.searched = 0;
    let mut search = Search {
        me,
        order: MoveOrder::new(rt.search_order),
        meter: Meter::default(),
    };
    if let Some(a) = l.depth_limit {
        vm.set_cell(a, depth as i32)?;
    }
    let root = snapshot(vm, rt)?;
    // The root moves' values in the deepest iteration that finished (or in the first
    // iteration, the moves it valued before the budget ran out), and that depth.
    let mut values: Vec<Option<i64>> = Vec::new();
    let mut reached = 0;
    for d in 1..=depth {
        if let Some(a) = l.iteration_depth {
            vm.set_cell(a, d as i32)?;
        }
        let mut this: Vec<Option<i64>> = vec![None; recs.len()];
        match iteration(rt, vm, &mut search, &recs, d, &mut this) {
            Ok(()) => (values, reached) = (this, d),
            Err(_) if search.meter.out_of_steps => {
                // The search's time is up: back to the root, and the last finished
                // iteration decides (the first one's values so far when none did).
                restore(vm, rt, &root)?;
                if reached == 0 {
                    values = this;
                }
                rt.search_cuts += 1;
                break;
            }
            Err(e) => return Err(e),
        }
    }
    let (best, value) = choose(rt, &recs, &values).unwrap_or((first, 0));
    let s = vm.cell(best - super::program::REC_NOTATION)? as u32;
    rt.report.best = Some(vm.cstr(s)?.to_vec());
    rt.report.score = value.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    rt.report.depth = reached as i32;
    rt.report.nodes = rt.searched as i64;
    Ok(())
}

/// The records of the move list whose header is at `list` (at most 65,536).
fn root_moves(vm: &Vm, list: u32) -> FResult<Vec<u32>> {
    let header = vm.cell(list)? as u32;
    let mut recs = Vec::new();
    let mut r = vm.cell(header + 8)? as u32;
    while r != 0 && recs.len() < 1 << 16 {
        recs.push(r);
        r = vm.cell(r)? as u32;
    }
    Ok(recs)
}

/// The root move to play among `recs` valued `values`: one of the best, drawn from the
/// engines' generator when several are equal and [`Runtime::search_variety`] is on (the
/// first of them when it is off); `None` when no move was valued.
fn choose(rt: &mut Runtime, recs: &[u32], values: &[Option<i64>]) -> Option<(u32, i64)> {
    let best = values.iter().flatten().max().copied()?;
    let equal = values.iter().filter(|v| **v == Some(best)).count();
    let mut pick = if rt.search_variety && equal > 1 {
        rt.rng2.below(equal)
    } else {
        0
    };
    for (&rec, v) in recs.iter().zip(values) {
        if *v == Some(best) {
            if pick == 0 {
                return Some((rec, best));
            }
            pick -= 1;
        }
    }
    None
}

/// One iteration of `$NegamaxMove` to `depth` plies over the root moves `recs` in their
/// order, each move's value put in its slot of `values` as it is known. The window's lower
/// bound stays one below the best value so far, so a move worth as much as the best gets
/// its exact value (a move worth less, a value below the best): equal moves are known.
fn iteration(
    rt: &mut Runtime,
    vm: &mut Vm,
    search: &mut Search,
    recs: &[u32],
    depth: u32,
    values: &mut [Option<i64>],
) -> FResult<()> {
    let mut alpha = -WIN - 1;
    let beta = WIN + 1;
    for (&rec, slot) in recs.iter().zip(values.iter_mut()) {
        let snap = snapshot(vm, rt)?;
        search
            .meter
            .charged(rt, vm, |vm, rt| apply_record(vm, rt, rec))?;
        rt.searched += 1;
        let v = value(rt, vm, search, depth - 1, 1, (alpha, beta))?;
        restore(vm, rt, &snap)?;
        *slot = Some(v);
        alpha = alpha.max(v - 1);
    }
    Ok(())
}

/// What a search carries down its tree.
struct Search {
    /// The searching player's value.
    me: i32,
    /// Killers and history.
    order: MoveOrder,
    /// The search's budget.
    meter: Meter,
}

/// Counts what a search runs against its budget of primitives.
#[derive(Default)]
struct Meter {
    /// The budget ran out (the error on its way up is that).
    out_of_steps: bool,
}

impl Meter {
    /// Runs `f` (a generation, a move or an event) as [`nested`] does, within what is
    /// left of the search's budget (the caller's); when that runs out, notes it and drops
    /// what `f` left half done (the search then goes back to its root).
    fn charged<T>(
        &mut self,
        rt: &mut Runtime,
        vm: &mut Vm,
        f: impl FnOnce(&mut Vm, &mut Runtime) -> FResult<T>,
    ) -> FResult<T> {
        let depth = vm.stack().len();
        let (r, out) = nested(vm, |vm| f(vm, rt));
        if out {
            self.out_of_steps = true;
            rt.abandon_generation();
            vm.ds_restore(depth);
        }
        r
    }
}

/// How the search orders moves below the root (see the module documentation): by ply, the
/// notation of the last two moves that made a cut-off there (the killers, newest first);
/// and for every move that made one, how often and how deep (the history: the square of
/// the depth left, summed). `on` false: generation order.
struct MoveOrder {
    on: bool,
    by_ply: Vec<[Vec<u8>; 2]>,
    history: std::collections::HashMap<Vec<u8>, u64, crate::fxhash::FxBuild>,
    /// Reused by [`MoveOrder::order`] (no allocation per node).
    keyed: Vec<(std::cmp::Reverse<u64>, u32)>,
}

impl MoveOrder {
    fn new(on: bool) -> MoveOrder {
        MoveOrder {
            on,
            by_ply: Vec::new(),
            history: Default::default(),
            keyed: Vec::new(),
        }
    }

    /// `recs` with the killers of `ply` first (in their order), the others after by their
    /// history, the most first (generation order among equals).
    fn order(&mut self, vm: &Vm, ply: u32, recs: &mut [u32]) -> FResult<()> {
        if !self.on {
            return Ok(());
        }
        if !self.history.is_empty() {
            let keyed = &mut self.keyed;
            keyed.clear();
            for &r in recs.iter() {
                let h = self.history.get(notation(vm, r)?).copied().unwrap_or(0);
                keyed.push((std::cmp::Reverse(h), r));
            }
            // Stable: generation order among equals.
            keyed.sort_by_key(|&(h, _)| h);
            for (slot, &(_, r)) in recs.iter_mut().zip(keyed.iter()) {
                *slot = r;
            }
        }
        let Some(kill) = self.by_ply.get(ply as usize) else {
            return Ok(());
        };
        let mut front = 0;
        for k in kill.iter().filter(|k| !k.is_empty()) {
            for i in front..recs.len() {
                if notation(vm, recs[i])? == k.as_slice() {
                    // Keep the rest in generation order.
                    recs[front..=i].rotate_right(1);
                    front += 1;
                    break;
                }
            }
        }
        Ok(())
    }

    /// Notes that `rec` made a cut-off at `ply`, `depth` plies from the leaves.
    fn cut(&mut self, vm: &Vm, ply: u32, depth: u32, rec: u32) -> FResult<()> {
        if !self.on {
            return Ok(());
        }
        let text = notation(vm, rec)?;
        let d = u64::from(depth);
        match self.history.get_mut(text) {
            Some(h) => *h = h.saturating_add(d * d),
            None => {
                self.history.insert(text.to_vec(), d * d);
            }
        }
        let ply = ply as usize;
        if self.by_ply.len() <= ply {
            self.by_ply.resize_with(ply + 1, Default::default);
        }
        let kill = &mut self.by_ply[ply];
        if kill[0] != text {
            kill.swap(0, 1);
            kill[0].clear();
            kill[0].extend_from_slice(text);
        }
        Ok(())
    }
}

/// The notation of the move whose record is `rec`.
fn notation(vm: &Vm, rec: u32) -> FResult<&[u8]> {
    let s = vm.cell(rec - super::program::REC_NOTATION)? as u32;
    vm.cstr(s)
}

/// The value of the position for the searching player (alpha-beta window from its view),
/// `depth` plies from the leaves and `ply` plies from the root.
fn value(
    rt: &mut Runtime,
    vm: &mut Vm,
    search: &mut Search,
    depth: u32,
    ply: u32,
    (mut alpha, mut beta): (i64, i64),
) -> FResult<i64> {
    let l = rt.layout;
    let mut recs = search.meter.charged(rt, vm, generate)?;
    let mover = vm.cell(l.player)?;
    let sign = if mover & 0xF800 == search.me & 0xF800 {
        1
    } else {
        -1
    };
    match search.meter.charged(rt, vm, verdict)? {
        Verdict::Win => return Ok(sign * (WIN - ply as i64)),
        Verdict::Loss => return Ok(-sign * (WIN - ply as i64)),
        Verdict::Draw => return Ok(0),
        Verdict::Unknown => {}
    }
    if recs.is_empty() {
        return Ok(0);
    }
    let random = rt.info.is_random_value(mover);
    if depth == 0 {
        return Ok(sign * search.meter.charged(rt, vm, evaluate)? as i64);
    }
    if random {
        let mut sum = 0i64;
        for &rec in &recs {
            let snap = snapshot(vm, rt)?;
            search
                .meter
                .charged(rt, vm, |vm, rt| apply_record(vm, rt, rec))?;
            rt.searched += 1;
            sum += value(rt, vm, search, depth - 1, ply + 1, (-WIN - 1, WIN + 1))?;
            restore(vm, rt, &snap)?;
        }
        return Ok(sum / recs.len() as i64);
    }
    let maximise = sign == 1;
    let mut best = if maximise { i64::MIN } else { i64::MAX };
    search.order.order(vm, ply, &mut recs)?;
    for &rec in &recs {
        let snap = snapshot(vm, rt)?;
        search
            .meter
            .charged(rt, vm, |vm, rt| apply_record(vm, rt, rec))?;
        rt.searched += 1;
        let v = value(rt, vm, search, depth - 1, ply + 1, (alpha, beta))?;
        restore(vm, rt, &snap)?;
        if maximise {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            search.order.cut(vm, ply, depth, rec)?;
            break;
        }
    }
    Ok(best)
}

/// Playouts per move of `$UCTMove`.
pub const UCT_PLAYOUTS: u32 = 300;
/// Plies after which a playout stops and `OnEvaluate` decides it (its sign).
pub const UCT_PLAYOUT_PLIES: u32 = 200;

/// A node of the UCT tree: visits, total reward for the searching player, and children
/// (move index, node) once expanded.
struct UctNode {
    visits: u32,
    reward: f64,
    children: Vec<(usize, usize)>,
    expanded: bool,
}

/// `$UCTMove`: UCT (Monte-Carlo tree search with the UCB1 rule, c = √2) over the program's
/// own moves. Random players' turns are sampled uniformly; a playout ends with the game,
/// or after [`UCT_PLAYOUT_PLIES`] plies where the sign of `OnEvaluate` for the searching
/// player decides it. Rewards: 1 for a win, ½ for a draw. All randomness comes from the
/// runtime's seeded generator, so a search is reproducible.
pub(crate) fn uct_engine(rt: &mut Runtime, vm: &mut Vm) -> FResult<()> {
    let l = rt.layout;
    let roots = root_moves(vm, l.moves_list)?;
    if roots.is_empty() {
        return Ok(());
    }
    let me = vm.cell(l.player)?;
    let mut tree = vec![UctNode {
        visits: 0,
        reward: 0.0,
        children: (0..roots.len()).map(|i| (i, usize::MAX)).collect(),
        expanded: true,
    }];
    let root_snap = snapshot(vm, rt)?;
    let mut meter = Meter::default();
    rt.searched = 0;
    for _ in 0..UCT_PLAYOUTS {
        match uct_playout(rt, vm, &mut meter, &mut tree, &roots, me) {
            Ok(()) => {}
            Err(_) if meter.out_of_steps => {
                // The search's time is up: the playouts that finished decide.
                restore(vm, rt, &root_snap)?;
                rt.search_cuts += 1;
                break;
            }
            Err(e) => return Err(e),
        }
        restore(vm, rt, &root_snap)?;
        rt.searched += 1;
    }
    // The most visited root move (the first when none was visited).
    let mut best = 0;
    let mut best_visits = 0;
    for &(mv, child) in &tree[0].children {
        if child != usize::MAX && tree[child].visits > best_visits {
            best_visits = tree[child].visits;
            best = mv;
        }
    }
    let s = vm.cell(roots[best] - super::program::REC_NOTATION)? as u32;
    rt.report.best = Some(vm.cstr(s)?.to_vec());
    rt.report.nodes = rt.searched as i64;
    Ok(())
}

/// One playout of `$UCTMove` from the root (whose moves are `roots`): selection and
/// expansion in `tree`, a random playout, and its reward counted along the path. Leaves
/// the game where the playout ended.
fn uct_playout(
    rt: &mut Runtime,
    vm: &mut Vm,
    meter: &mut Meter,
    tree: &mut Vec<UctNode>,
    roots: &[u32],
    me: i32,
) -> FResult<()> {
    let l = rt.layout;
    let mut path = vec![0usize];
    let mut node = 0usize;
    let mut recs = roots.to_vec();
    let mut result: Option<f64> = None;
    // Selection and expansion.
    loop {
        let mover = vm.cell(l.player)?;
        let random = rt.info.is_random_value(mover);
        let n = tree[node].children.len();
        if n == 0 {
            result = Some(0.5);
            break;
        }
        let k = if random {
            (rt.rng.next_u64() % n as u64) as usize
        } else {
            let parent = tree[node].visits.max(1) as f64;
            let mine = mover & 0xF800 == me & 0xF800;
            let mut best = 0;
            let mut best_score = f64::MIN;
            for (j, &(_, child)) in tree[node].children.iter().enumerate() {
                let score = if child == usize::MAX || tree[child].visits == 0 {
                    f64::MAX
                } else {
                    let c = &tree[child];
                    let q = c.reward / c.visits as f64;
                    let q = if mine { q } else { 1.0 - q };
                    q + (2.0 * parent.ln() / c.visits as f64).sqrt()
                };
                if score > best_score {
                    best_score = score;
                    best = j;
                }
            }
            best
        };
        let (mv, child) = tree[node].children[k];
        let rec = recs[mv];
        meter.charged(rt, vm, |vm, rt| apply_record(vm, rt, rec))?;
        let child = if child == usize::MAX {
            tree.push(UctNode {
                visits: 0,
                reward: 0.0,
                children: vec![],
                expanded: false,
            });
            let c = tree.len() - 1;
            tree[node].children[k].1 = c;
            c
        } else {
            child
        };
        path.push(child);
        node = child;
        recs = meter.charged(rt, vm, generate)?;
        let mover = vm.cell(l.player)?;
        match meter.charged(rt, vm, verdict)? {
            Verdict::Unknown if recs.is_empty() => result = Some(0.5),
            Verdict::Unknown => {}
            v => result = Some(reward_of(v, mover, me)),
        }
        if result.is_some() || !tree[node].expanded {
            if result.is_none() {
                tree[node].expanded = true;
                tree[node].children = (0..recs.len()).map(|i| (i, usize::MAX)).collect();
            }
            break;
        }
    }
    // Playout.
    let reward = match result {
        Some(r) => r,
        None => playout(rt, vm, meter, me, recs)?,
    };
    for &p in &path {
        tree[p].visits += 1;
        tree[p].reward += reward;
    }
    Ok(())
}

/// Reward for player value `me` of a verdict given for `mover`.
fn reward_of(v: Verdict, mover: i32, me: i32) -> f64 {
    let mine = mover & 0xF800 == me & 0xF800;
    match (v, mine) {
        (Verdict::Win, true) | (Verdict::Loss, false) => 1.0,
        (Verdict::Win, false) | (Verdict::Loss, true) => 0.0,
        _ => 0.5,
    }
}

/// Random moves from the current position (whose moves are `recs`) to the end of the game
/// or the ply limit.
fn playout(
    rt: &mut Runtime,
    vm: &mut Vm,
    meter: &mut Meter,
    me: i32,
    mut recs: Vec<u32>,
) -> FResult<f64> {
    let l = rt.layout;
    let base = vm.here();
    for _ in 0..UCT_PLAYOUT_PLIES {
        let k = (rt.rng.next_u64() % recs.len() as u64) as usize;
        let rec = recs[k];
        meter.charged(rt, vm, |vm, rt| apply_record(vm, rt, rec))?;
        // The list just played from is dead: the next one reuses its memory.
        vm.set_here(base)?;
        recs = meter.charged(rt, vm, generate)?;
        let mover = vm.cell(l.player)?;
        match meter.charged(rt, vm, verdict)? {
            Verdict::Unknown if recs.is_empty() => return Ok(0.5),
            Verdict::Unknown => {}
            v => return Ok(reward_of(v, mover, me)),
        }
    }
    let mover = vm.cell(l.player)?;
    let e = meter.charged(rt, vm, evaluate)? as i64;
    let e = if mover & 0xF800 == me & 0xF800 { e } else { -e };
    Ok(match e.signum() {
        1 => 1.0,
        -1 => 0.0,
        _ => 0.5,
    })
}

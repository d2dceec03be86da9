//! Symmetry and zones, the per-player views of the board: `symmetry` maps a player's
//! directions to absolute ones, `zone` names sets of positions for some or all players. Both
//! are read in one pass, in the order written: the board sections' own declarations first,
//! then the game level's.

use super::Ctx;
use crate::diagnostics::{Diagnostic, codes};
use crate::model::board::Board;
use crate::model::names::{NameMap, Names};
use crate::model::{Player, PosSet};
use crate::syntax::Node;
use crate::text::name_suggestion;

/// The zones of a game.
pub(super) struct Zones {
    /// Zone names, by index.
    pub names: Vec<String>,
    /// `sets[player][zone]`: the zone's positions for that player.
    pub sets: Vec<Vec<PosSet>>,
}

/// Reads the `symmetry` and `zone` declarations: returns `symmetry[player][dir]` (identity
/// where nothing is declared) and the zones; the zone names go into `names.zones`.
pub(super) fn symmetry_and_zones(
    cx: &mut Ctx<'_>,
    players: &[Player],
    board: &Board,
    names: &mut Names,
) -> (Vec<Vec<u32>>, Zones) {
    let nd = board.directions.len();
    let mut symmetry: Vec<Vec<u32>> = vec![(0..nd as u32).collect(); players.len()];
    let mut zones = Zones {
        names: Vec::new(),
        sets: vec![Vec::new(); players.len()],
    };
    let game = cx.game;
    let places: Vec<&Node> = cx
        .sections("board")
        .flat_map(|b| b.args())
        .chain(game.args())
        .collect();
    for s in places {
        match s.head() {
            Some("symmetry") => read_symmetry(cx, s, names, &mut symmetry),
            Some("zone") => read_zone(cx, s, players, board, names, &mut zones),
            _ => {}
        }
    }
    for v in &mut zones.sets {
        v.resize(zones.names.len(), PosSet::new(board.positions.len()));
    }
    (symmetry, zones)
}

/// `(symmetry P (a b) …)`: for player `P`, direction `a` means `b`.
fn read_symmetry(cx: &mut Ctx<'_>, s: &Node, names: &Names, symmetry: &mut [Vec<u32>]) {
    let args = s.args();
    let Some(pname) = args.first().and_then(Node::word) else {
        return;
    };
    let Some(&p) = names.players.get(pname) else {
        cx.diags.push(
            Diagnostic::error(codes::UNKNOWN_PLAYER, format!("unknown player `{pname}`"))
                .with_span(args[0].span),
        );
        return;
    };
    for pair in &args[1..] {
        let (Some(a), Some(b)) = (
            pair.items.first().and_then(Node::word),
            pair.items.get(1).and_then(Node::word),
        ) else {
            continue;
        };
        match (names.directions.get(a), names.directions.get(b)) {
            (Some(&a), Some(&b)) => symmetry[p as usize][a as usize] = b,
            (ia, _) => {
                // The caret on the first unknown name.
                let at = if ia.is_none() { 0 } else { 1 };
                cx.diags.push(
                    Diagnostic::warning(
                        codes::UNKNOWN_DIRECTION,
                        format!("symmetry names an unknown direction (`{a}` or `{b}`)"),
                    )
                    .with_span(pair.items[at].span),
                )
            }
        }
    }
}

/// `(zone (name Z) (players …) (positions …))`: adds the positions to zone `Z` of each listed
/// player (of every player when none are listed). Unknown positions and players are left
/// out.
fn read_zone(
    cx: &mut Ctx<'_>,
    s: &Node,
    players: &[Player],
    board: &Board,
    names: &mut Names,
    zones: &mut Zones,
) {
    let Some(name) = s.name_value().and_then(Node::word) else {
        cx.diags.push(
            Diagnostic::error(codes::MALFORMED_FORM, "a zone needs a name").with_span(s.span),
        );
        return;
    };
    let z = zone_index(&mut names.zones, &mut zones.names, name);
    let zone_name = &zones.names[z as usize];
    let npos = board.positions.len();
    let mut set = PosSet::new(npos);
    if let Some(ps) = s.child_form("positions") {
        // Positions removed by `kill-positions` are known names: skipped quietly.
        let mut unknown: Vec<&Node> = Vec::new();
        for w in ps.args() {
            let name = w.word().unwrap_or("");
            match board.position_index.get(name) {
                Some(&p) => set.insert(p),
                None if board.killed.contains(name) => {}
                None => unknown.push(w),
            }
        }
        if let Some(first) = unknown.first() {
            let listed: Vec<String> = unknown.iter().map(|w| format!("`{}`", w.text)).collect();
            let mut d = Diagnostic::error(
                codes::UNKNOWN_POSITION,
                format!(
                    "zone `{zone_name}` names {} not on the board: {}",
                    if unknown.len() == 1 {
                        "a position"
                    } else {
                        "positions"
                    },
                    listed.join(", ")
                ),
            )
            .with_span(first.span);
            for w in &unknown {
                if let Some(sg) = name_suggestion(&w.text, &board.positions) {
                    d = d.with_note(format!("`{}`: did you mean `{sg}`?", w.text));
                }
            }
            cx.soft.push(d);
        }
    }
    let zone_players: Vec<u32> = match s.child_form("players") {
        Some(pl) => pl
            .args()
            .iter()
            .filter_map(|w| {
                let name = w.word()?;
                let p = names.players.get(name).copied();
                if p.is_none() {
                    cx.soft.push(unknown_player(
                        w,
                        &format!("in zone `{zone_name}`"),
                        players,
                    ));
                }
                p
            })
            .collect(),
        None => (0..players.len() as u32).collect(),
    };
    for p in zone_players {
        let v = &mut zones.sets[p as usize];
        if v.len() <= z as usize {
            v.resize(z as usize + 1, PosSet::new(npos));
        }
        for q in set.iter() {
            v[z as usize].insert(q);
        }
    }
}

/// The index of zone `name`, declared now if it is new.
fn zone_index(index: &mut NameMap, names: &mut Vec<String>, name: &str) -> u32 {
    *index.entry(name.to_owned()).or_insert_with(|| {
        names.push(name.to_owned());
        (names.len() - 1) as u32
    })
}

/// An unknown player named by `n` (in a zone's `players`), with a did-you-mean.
fn unknown_player(n: &Node, place: &str, players: &[Player]) -> Diagnostic {
    let mut d = Diagnostic::error(
        codes::UNKNOWN_PLAYER,
        format!("unknown player `{}` {place}", n.text),
    )
    .with_span(n.span);
    if let Some(s) = name_suggestion(&n.text, players.iter().map(|p| &p.name)) {
        d = d.with_note(format!("did you mean `{s}`?"));
    }
    d
}

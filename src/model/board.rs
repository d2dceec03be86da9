//! The board: grids, explicit positions, links, `unlink`, `kill-positions`, `dummy`
//! positions, `opposite` directions, per-player `symmetry` and zones.
//!
//! Grid position names join one label per dimension in dimension order; the last dimension
//! is enumerated outermost (z2j's order, which only affects move-list order). Directions are
//! index deltas per dimension; a link exists only when the target is inside the grid on
//! every axis.

use super::{NONE, PosSet, PositionId};
use crate::diagnostics::{Diagnostic, codes};
use crate::syntax::Node;
use std::collections::HashMap;

/// The board under construction.
#[derive(Default)]
pub struct BoardBuilder {
    pub positions: Vec<String>,
    pub index: HashMap<String, u32>,
    pub directions: Vec<String>,
    pub dir_index: HashMap<String, u32>,
    /// (from, dir) → to.
    pub links: HashMap<(u32, u32), u32>,
    pub killed: Vec<bool>,
    pub dummy: Vec<u32>,
    /// Screen rectangle of each position, when the file gives one (see [`Rect`]).
    pub rects: Vec<Option<Rect>>,
}

/// Where a position is drawn on the board image, in the file's pixels: left, top, right,
/// bottom. From `(positions (a1 x1 y1 x2 y2) …)` or a grid's `start-rectangle` moved by each
/// dimension's offset times the label's index (ZoG's layout).
pub type Rect = [i32; 4];

/// The finished board: names, indices, the flat link table, dummy positions.
pub struct Board {
    pub positions: Vec<String>,
    pub position_index: HashMap<String, PositionId>,
    pub directions: Vec<String>,
    pub direction_index: HashMap<String, u32>,
    /// `links[pos * directions.len() + dir]`.
    pub links: Vec<PositionId>,
    pub dummy: PosSet,
    /// Names of positions that `kill-positions` removed: known to the board, but gone.
    pub killed: std::collections::HashSet<String>,
    /// Screen rectangle of each position, by index.
    pub rects: Vec<Option<Rect>>,
}

/// The integers of `items`, if they all are integers.
fn int_args(items: &[Node]) -> Option<Vec<i32>> {
    items
        .iter()
        .map(|n| n.word().and_then(|w| w.parse::<i32>().ok()))
        .collect()
}

/// A rectangle from four integers.
fn rect_of(items: &[Node]) -> Option<Rect> {
    match int_args(items)?.as_slice() {
        &[a, b, c, d] => Some([a, b, c, d]),
        _ => None,
    }
}

/// Words of a list's arguments (atoms, numbers, strings).
fn words(n: &Node) -> Vec<&str> {
    n.args().iter().filter_map(Node::word).collect()
}

impl BoardBuilder {
    pub fn add_position(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.positions.len() as u32;
        self.positions.push(name.to_owned());
        self.index.insert(name.to_owned(), i);
        self.killed.push(false);
        self.rects.push(None);
        i
    }

    pub fn direction(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.dir_index.get(name) {
            return i;
        }
        let i = self.directions.len() as u32;
        self.directions.push(name.to_owned());
        self.dir_index.insert(name.to_owned(), i);
        i
    }

    fn pos_or_err(&self, n: &Node, diags: &mut Vec<Diagnostic>) -> Option<u32> {
        let name = n.word()?;
        match self.index.get(name) {
            Some(&p) => Some(p),
            None => {
                diags.push(
                    Diagnostic::error(
                        codes::UNKNOWN_POSITION,
                        format!("unknown position `{name}`"),
                    )
                    .with_span(n.span),
                );
                None
            }
        }
    }

    /// A link's end: an unknown name is an error for lint that the engine recovers from by
    /// skipping the link (`soft`, docs/semantics.md "Lenient board reading").
    fn pos_or_soft(&self, n: &Node, soft: &mut Vec<Diagnostic>) -> Option<u32> {
        let name = n.word().unwrap_or("(…)");
        let p = self.index.get(name).copied();
        if p.is_none() {
            let mut d = Diagnostic::error(
                codes::UNKNOWN_POSITION,
                format!("link names an unknown position `{name}`; the link is ignored"),
            )
            .with_span(n.span);
            if let Some(s) = crate::text::name_suggestion(name, self.positions.iter()) {
                d = d.with_note(format!("did you mean `{s}`?"));
            }
            soft.push(d);
        }
        p
    }

    /// Reads one `(board …)` section's structure (grids, positions, links, kills, dummies).
    /// Symmetry and zones are read later, by the compiler (`symmetry` and `zone` forms). Errors the
    /// engine recovers from (a link to an unknown position is skipped) go to `soft`.
    pub fn read_board(
        &mut self,
        board: &Node,
        diags: &mut Vec<Diagnostic>,
        soft: &mut Vec<Diagnostic>,
    ) {
        // Positions first (grids, positions, dummy); then `links` and `unlink` in the order
        // written (an `unlink` cuts the links made before it, docs/semantics.md "Links and
        // unlinks in order"); then `kill-positions`.
        for s in board.args() {
            match s.head() {
                Some("grid") => self.read_grid(s, diags),
                Some("positions") => {
                    for p in s.args() {
                        if let Some(name) = p.items.first().and_then(Node::word) {
                            let i = self.add_position(name);
                            if let Some(r) = rect_of(&p.items[1..]) {
                                self.rects[i as usize] = Some(r);
                            }
                        } else if let Some(name) = p.word() {
                            self.add_position(name);
                        }
                    }
                }
                Some("dummy") => {
                    for w in words(s) {
                        let p = self.add_position(w);
                        self.dummy.push(p);
                    }
                }
                _ => {}
            }
        }
        // Directions named by `links` are known before any `unlink` (for `(unlink (a dir))`),
        // in the order they are first written.
        for s in board.args() {
            if s.head() == Some("links") {
                if let Some(dname) = s.args().first().and_then(Node::word) {
                    self.direction(dname);
                }
            }
        }
        for s in board.args() {
            if s.head() == Some("unlink") {
                self.unlink(s, diags);
            } else if s.head() == Some("links") {
                let Some(dname) = s.args().first().and_then(Node::word) else {
                    diags.push(
                        Diagnostic::error(codes::MALFORMED_FORM, "`links` needs a direction")
                            .with_span(s.span),
                    );
                    continue;
                };
                let d = self.direction(dname);
                for pair in &s.args()[1..] {
                    if pair.items.len() != 2 {
                        diags.push(
                            Diagnostic::error(
                                codes::MALFORMED_FORM,
                                "a link is a pair `(from to)`",
                            )
                            .with_span(pair.span),
                        );
                        continue;
                    }
                    let (Some(a), Some(b)) = (
                        self.pos_or_soft(&pair.items[0], soft),
                        self.pos_or_soft(&pair.items[1], soft),
                    ) else {
                        continue;
                    };
                    self.links.insert((a, d), b);
                }
            }
        }
        for s in board.args() {
            if s.head() == Some("kill-positions") {
                for item in s.args() {
                    // Unknown names in kill lists are common (shared macros); ignore them.
                    if let Some(&p) = item.word().and_then(|w| self.index.get(w)) {
                        self.killed[p as usize] = true;
                    }
                }
            }
        }
    }

    /// Applies one `(unlink …)` form to the links made so far.
    fn unlink(&mut self, s: &Node, diags: &mut Vec<Diagnostic>) {
        for item in s.args() {
            if item.is_list() {
                if item.items.len() != 2 {
                    continue;
                }
                // `(unlink (a dir))`: cut one link of a position.
                let first = item.items[0].word().and_then(|w| self.index.get(w));
                let second = item.items[1].word().unwrap_or("");
                if let (Some(&a), Some(&d), false) = (
                    first,
                    self.dir_index.get(second),
                    self.index.contains_key(second),
                ) {
                    self.links.remove(&(a, d));
                    continue;
                }
                let (Some(a), Some(b)) = (
                    self.pos_or_err(&item.items[0], diags),
                    self.pos_or_err(&item.items[1], diags),
                ) else {
                    continue;
                };
                // Cuts both ways (docs/semantics.md).
                self.links
                    .retain(|&(f, _), t| !((f == a && *t == b) || (f == b && *t == a)));
            } else if let Some(p) = self.pos_or_err(item, diags) {
                self.links.retain(|&(f, _), t| f != p && *t != p);
            }
        }
    }

    fn read_grid(&mut self, grid: &Node, diags: &mut Vec<Diagnostic>) {
        let mut dims: Vec<Vec<String>> = Vec::new();
        // Screen layout: the first cell's rectangle and each dimension's offset.
        let mut start_rect: Option<Rect> = None;
        let mut offsets: Vec<Option<(i32, i32)>> = Vec::new();
        let mut dirs: Vec<(String, Vec<i64>, &Node)> = Vec::new();
        for s in grid.args() {
            match s.head() {
                Some("dimensions") => {
                    for d in s.args() {
                        let labels = d.items.first().and_then(Node::word);
                        match labels {
                            Some(l) => {
                                dims.push(l.split('/').map(str::to_owned).collect());
                                offsets.push(d.items.get(1).and_then(|o| {
                                    let v = int_args(&o.items)?;
                                    (v.len() == 2).then(|| (v[0], v[1]))
                                }));
                            }
                            None => diags.push(
                                Diagnostic::error(
                                    codes::BAD_GRID,
                                    "a dimension starts with its labels, as in `\"a/b/c\"`",
                                )
                                .with_span(d.span),
                            ),
                        }
                    }
                }
                Some("start-rectangle") => start_rect = rect_of(s.args()),
                Some("directions") => {
                    for d in s.args() {
                        let Some(name) = d.items.first().and_then(Node::word) else {
                            continue;
                        };
                        let deltas: Option<Vec<i64>> = d.items[1..]
                            .iter()
                            .map(|n| n.word().and_then(|w| w.parse().ok()))
                            .collect();
                        match deltas {
                            Some(v) => dirs.push((name.to_owned(), v, d)),
                            None => diags.push(
                                Diagnostic::error(
                                    codes::BAD_GRID,
                                    format!("direction `{name}` needs integer deltas"),
                                )
                                .with_span(d.span),
                            ),
                        }
                    }
                }
                _ => {}
            }
        }
        if dims.is_empty() {
            diags.push(
                Diagnostic::error(codes::BAD_GRID, "grid without dimensions").with_span(grid.span),
            );
            return;
        }
        let sizes: Vec<usize> = dims.iter().map(Vec::len).collect();
        let total: usize = sizes.iter().product();
        if total > 1 << 16 {
            diags.push(
                Diagnostic::error(codes::TOO_MANY_POSITIONS, "grid too large").with_span(grid.span),
            );
            return;
        }
        // Enumerate with the last dimension outermost: coordinate 0 varies fastest.
        let mut ids = vec![0u32; total];
        let mut coord = vec![0usize; dims.len()];
        let flat = |c: &[usize]| -> usize {
            let mut f = 0;
            for k in (0..c.len()).rev() {
                f = f * sizes[k] + c[k];
            }
            f
        };
        for (i, id) in ids.iter_mut().enumerate() {
            let mut r = i;
            for k in 0..dims.len() {
                coord[k] = r % sizes[k];
                r /= sizes[k];
            }
            let name: String = (0..dims.len())
                .map(|k| dims[k][coord[k]].as_str())
                .collect();
            *id = self.add_position(&name);
            if let Some([x1, y1, x2, y2]) =
                start_rect.filter(|_| offsets.iter().all(Option::is_some))
            {
                let (mut dx, mut dy) = (0i64, 0i64);
                for (k, o) in offsets.iter().enumerate() {
                    let (ox, oy) = o.unwrap_or_default();
                    dx += coord[k] as i64 * i64::from(ox);
                    dy += coord[k] as i64 * i64::from(oy);
                }
                let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
                self.rects[*id as usize] = Some([
                    clamp(i64::from(x1) + dx),
                    clamp(i64::from(y1) + dy),
                    clamp(i64::from(x2) + dx),
                    clamp(i64::from(y2) + dy),
                ]);
            }
        }
        for (name, delta, node) in &mut dirs {
            if delta.len() < dims.len() {
                diags.push(
                    Diagnostic::warning(
                        codes::BAD_GRID,
                        format!(
                            "direction `{name}` has {} deltas for {} dimensions; the missing ones are 0",
                            delta.len(),
                            dims.len()
                        ),
                    )
                    .with_span(node.span),
                );
                delta.resize(dims.len(), 0);
            }
            if delta.len() != dims.len() {
                diags.push(
                    Diagnostic::error(
                        codes::BAD_GRID,
                        format!(
                            "direction `{name}` has {} deltas for {} dimensions",
                            delta.len(),
                            dims.len()
                        ),
                    )
                    .with_span(node.span),
                );
                continue;
            }
            let d = self.direction(name);
            for i in 0..total {
                let mut r = i;
                let mut ok = true;
                let mut target = vec![0usize; dims.len()];
                for k in 0..dims.len() {
                    let c = (r % sizes[k]) as i64 + delta[k];
                    r /= sizes[k];
                    if c < 0 || c >= sizes[k] as i64 {
                        ok = false;
                        break;
                    }
                    target[k] = c as usize;
                }
                if ok {
                    self.links.insert((ids[i], d), ids[flat(&target)]);
                }
            }
        }
    }

    /// Removes killed positions and renumbers.
    pub fn finish(self) -> Board {
        let mut remap = vec![NONE; self.positions.len()];
        let mut names = Vec::new();
        for (i, n) in self.positions.iter().enumerate() {
            if !self.killed[i] {
                remap[i] = names.len() as u32;
                names.push(n.clone());
            }
        }
        let nd = self.directions.len();
        let mut links = vec![PositionId::NONE; names.len() * nd];
        for (&(f, d), &t) in &self.links {
            let (f, t) = (remap[f as usize], remap[t as usize]);
            if f != NONE && t != NONE {
                links[f as usize * nd + d as usize] = PositionId::new(t);
            }
        }
        let index = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), PositionId::new(i as u32)))
            .collect();
        let mut rects = vec![None; names.len()];
        for (i, r) in self.rects.iter().enumerate() {
            if remap[i] != NONE {
                rects[remap[i] as usize] = *r;
            }
        }
        let mut dummy = PosSet::new(names.len());
        for p in self.dummy {
            if remap[p as usize] != NONE {
                dummy.insert(PositionId::new(remap[p as usize]));
            }
        }
        let killed = self
            .positions
            .iter()
            .zip(&self.killed)
            .filter(|(_, k)| **k)
            .map(|(n, _)| n.clone())
            .collect();
        Board {
            killed,
            positions: names,
            position_index: index,
            directions: self.directions,
            direction_index: self.dir_index,
            links,
            dummy,
            rects,
        }
    }
}

/// The opposite of each direction: x is the opposite of d when every link a→b along d has a
/// link b→a along x (and d has at least one link). Prefers a direction whose reverse is also
/// exact. [`NONE`] when there is none.
pub fn opposites(links: &[PositionId], npos: usize, nd: usize) -> Vec<u32> {
    let mut opp = vec![NONE; nd];
    let reverses = |d: usize, x: usize| -> bool {
        let mut any = false;
        for a in 0..npos {
            let b = links[a * nd + d];
            if !b.is_none() {
                any = true;
                if links[b.index() * nd + x] != PositionId::new(a as u32) {
                    return false;
                }
            }
        }
        any
    };
    for (d, o) in opp.iter_mut().enumerate() {
        let cands: Vec<usize> = (0..nd).filter(|&x| x != d && reverses(d, x)).collect();
        *o = cands
            .iter()
            .find(|&&x| reverses(x, d))
            .or(cands.first())
            .map_or(NONE, |&x| x as u32);
    }
    opp
}

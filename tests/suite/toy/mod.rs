//! A tiny dice race for testing the AIs and the tournament runner without the engine.
//!
//! Two seats, `A` and `B`, and a random player `?Die` take turns `?Die A ?Die B`. The die
//! shows 1, 2 or 3. Each seat has [`MEN`] men in hand; a man enters on track square
//! `roll - 1` or moves `roll` squares along the shared track of [`TRACK`] squares, and
//! bears off past its end (onto the seat's home, position `TRACK + seat`). Landing on an
//! enemy man sends it back to its owner's hand, except on the safe square 3 (where it is
//! not allowed). The first seat to bear off all its men wins. No move: a pass.

use dagaz::ai::{Game, Outcome, PieceInfo, PositionId};

pub const TRACK: u32 = 8;
pub const MEN: u32 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToyMove {
    Roll(u8),
    Enter { to: u32, capture: bool },
    Step { from: u32, to: u32, capture: bool },
    Pass,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toy {
    pub board: [Option<u8>; TRACK as usize],
    pub hand: [u32; 2],
    pub home: [u32; 2],
    pub roll: u8,
    pub turn: u8,
}

impl Default for Toy {
    fn default() -> Self {
        Toy {
            board: [None; TRACK as usize],
            hand: [MEN; 2],
            home: [0; 2],
            roll: 0,
            turn: 0,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct ToyUndo(Toy_);
type Toy_ = ([Option<u8>; TRACK as usize], [u32; 2], [u32; 2], u8, u8);

impl Toy {
    fn snapshot(&self) -> Toy_ {
        (self.board, self.hand, self.home, self.roll, self.turn)
    }
    fn key(&self, with_roll: bool) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut eat = |x: u64| h = (h ^ x).wrapping_mul(0x0100_0000_01b3);
        for c in self.board {
            eat(c.map_or(9, u64::from));
        }
        for x in self.hand.iter().chain(&self.home) {
            eat(u64::from(*x));
        }
        if with_roll {
            eat(u64::from(self.roll));
            eat(u64::from(self.turn));
        }
        h
    }
    fn landing(&self, seat: u8, to: u32) -> Option<bool> {
        if to >= TRACK {
            return Some(false);
        }
        match self.board[to as usize] {
            None => Some(false),
            Some(o) if o != seat && to != 3 => Some(true),
            _ => None,
        }
    }
}

impl Game for Toy {
    type Moves = Vec<ToyMove>;
    type Undo = ToyUndo;

    fn num_players(&self) -> usize {
        3
    }
    fn player_name(&self, p: usize) -> &str {
        ["A", "B", "?Die"][p]
    }
    fn is_random(&self, p: usize) -> bool {
        p == 2
    }
    fn seats(&self) -> Vec<usize> {
        vec![0, 1]
    }
    fn current_player(&self) -> usize {
        [2, 0, 2, 1][self.turn as usize]
    }
    fn legal_moves(&mut self, out: &mut Vec<ToyMove>) {
        out.clear();
        let p = self.current_player();
        if p == 2 {
            out.extend([ToyMove::Roll(1), ToyMove::Roll(2), ToyMove::Roll(3)]);
            return;
        }
        let seat = p as u8;
        let r = u32::from(self.roll);
        if self.hand[p] > 0
            && let Some(capture) = self.landing(seat, r - 1)
        {
            out.push(ToyMove::Enter { to: r - 1, capture });
        }
        for from in 0..TRACK {
            if self.board[from as usize] == Some(seat)
                && let Some(capture) = self.landing(seat, from + r)
            {
                out.push(ToyMove::Step {
                    from,
                    to: (from + r).min(TRACK),
                    capture,
                });
            }
        }
        if out.is_empty() {
            out.push(ToyMove::Pass);
        }
    }
    fn num_moves(moves: &Vec<ToyMove>) -> usize {
        moves.len()
    }
    fn make(&mut self, moves: &Vec<ToyMove>, i: usize) -> ToyUndo {
        let undo = ToyUndo(self.snapshot());
        let p = self.current_player();
        let land = |s: &mut Toy, to: u32| {
            if to >= TRACK {
                s.home[p] += 1;
            } else {
                if let Some(o) = s.board[to as usize] {
                    s.hand[o as usize] += 1;
                }
                s.board[to as usize] = Some(p as u8);
            }
        };
        match moves[i] {
            ToyMove::Roll(r) => self.roll = r,
            ToyMove::Enter { to, .. } => {
                self.hand[p] -= 1;
                land(self, to);
            }
            ToyMove::Step { from, to, .. } => {
                self.board[from as usize] = None;
                land(self, to);
            }
            ToyMove::Pass => {}
        }
        self.turn = (self.turn + 1) % 4;
        undo
    }
    fn unmake(&mut self, _moves: &Vec<ToyMove>, _i: usize, u: ToyUndo) {
        (self.board, self.hand, self.home, self.roll, self.turn) = u.0;
    }
    fn outcome(&mut self, _moves: &Vec<ToyMove>) -> Option<Outcome> {
        (0..2)
            .find(|&s| self.home[s] == MEN)
            .map(|s| Outcome::win(3, s))
    }
    fn hash(&self) -> u64 {
        self.key(true)
    }
    fn board_key(&self) -> u64 {
        self.key(false)
    }
    fn notation(&self, moves: &Vec<ToyMove>, i: usize) -> String {
        let sq = |p: u32| {
            if p >= TRACK {
                "home".to_owned()
            } else {
                format!("t{p}")
            }
        };
        match moves[i] {
            ToyMove::Roll(r) => format!("Die {r}"),
            ToyMove::Enter { to, .. } => format!("Man {}", sq(to)),
            ToyMove::Step { from, to, capture } => {
                format!(
                    "Man {} {} {}",
                    sq(from),
                    if capture { "x" } else { "-" },
                    sq(to)
                )
            }
            ToyMove::Pass => "pass".to_owned(),
        }
    }
    fn captures(moves: &Vec<ToyMove>, i: usize) -> u32 {
        match moves[i] {
            ToyMove::Enter { capture, .. } | ToyMove::Step { capture, .. } => u32::from(capture),
            _ => 0,
        }
    }
    fn for_each_piece(&self, f: &mut dyn FnMut(PieceInfo)) {
        for (pos, c) in self.board.iter().enumerate() {
            if let Some(o) = c {
                f(PieceInfo {
                    pos: Some(PositionId::new(pos as u32)),
                    owner: *o as usize,
                    ty: 0,
                    count: 1,
                });
            }
        }
        for s in 0..2 {
            if self.hand[s] > 0 {
                f(PieceInfo {
                    pos: None,
                    owner: s,
                    ty: 0,
                    count: self.hand[s],
                });
            }
            if self.home[s] > 0 {
                f(PieceInfo {
                    pos: Some(PositionId::new(TRACK + s as u32)),
                    owner: s,
                    ty: 0,
                    count: self.home[s],
                });
            }
        }
    }
    fn piece_type_index(&self, name: &str) -> Option<usize> {
        (name == "Man").then_some(0)
    }
    fn num_piece_types(&self) -> usize {
        1
    }
    fn num_positions(&self) -> usize {
        TRACK as usize + 2
    }
    fn zone_index(&self, name: &str) -> Option<usize> {
        (name == "safe").then_some(0)
    }
    fn in_zone(&self, _zone: usize, _player: usize, pos: PositionId) -> bool {
        pos == PositionId::new(3)
    }
    fn direction_index(&self, name: &str) -> Option<usize> {
        (name == "next").then_some(0)
    }
    fn link(&self, player: usize, _dir: usize, pos: PositionId) -> Option<PositionId> {
        match pos.get() {
            p if p + 1 < TRACK => Some(PositionId::new(p + 1)),
            p if p + 1 == TRACK => Some(PositionId::new(TRACK + player as u32)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dagaz::ai::{AiConfig, AiKind};
    use dagaz::tournament::record::RunSettings;
    use dagaz::tournament::{RunConfig, run};
    use std::sync::atomic::AtomicBool;

    fn cfg(kind: &str, extra: &[(&str, &str)]) -> AiConfig {
        let mut o = vec![("ai".to_owned(), kind.to_owned())];
        o.extend(extra.iter().map(|(a, b)| (a.to_string(), b.to_string())));
        AiConfig::from_options(&o).unwrap()
    }

    fn settings(games: u64, swap: bool) -> RunSettings {
        let mut s = RunSettings::new(["a".into(), "b".into()], ["A".into(), "B".into()], games);
        s.swap = swap;
        s.max_plies = 500;
        s
    }

    fn score(
        a: &AiConfig,
        b: &AiConfig,
        games: u64,
        threads: usize,
    ) -> (f64, Vec<dagaz::tournament::record::GameRecord>) {
        let mut rc = RunConfig::new(7, settings(games, true));
        rc.threads = threads;
        let out = run(
            &Toy::default(),
            [a, b],
            &rc,
            &AtomicBool::new(false),
            &|_| {},
        )
        .unwrap();
        let s: f64 = out.records.iter().filter_map(|r| r.score_a).sum();
        (s / out.records.len() as f64, out.records)
    }

    #[test]
    fn every_ai_beats_random_in_the_dice_race() {
        let random = cfg("random", &[]);
        let progress = [
            ("ai weight progress", "1"),
            ("ai weight capture", "3"),
            ("ai weight material", "0"),
        ];
        for (kind, games) in [
            ("greedy", 400),
            ("alphabeta", 200),
            ("expectimax", 200),
            ("mcts", 100),
        ] {
            let c = cfg(kind, &progress);
            let (s, recs) = score(&c, &random, games, 2);
            assert!(recs.iter().all(|r| r.error.is_none()));
            assert!(s > 0.54, "{kind} scored {s} against random");
        }
        assert_eq!(cfg("first", &[]).kind, AiKind::First);
    }

    #[test]
    fn records_do_not_depend_on_the_thread_count() {
        let a = cfg("expectimax", &[("ai weight progress", "1")]);
        let b = cfg("random", &[]);
        let (_, r1) = score(&a, &b, 40, 1);
        let (_, r2) = score(&a, &b, 40, 2);
        let strip = |v: &[dagaz::tournament::record::GameRecord]| {
            v.iter().map(|r| r.without_time()).collect::<Vec<_>>()
        };
        assert_eq!(strip(&r1), strip(&r2));
        // Colour-swapped pairs: A holds the first seat in even games only.
        assert!(
            r1.iter()
                .all(|r| (r.first_player() == Some("A")) == (r.game_index % 2 == 0))
        );
    }

    #[test]
    fn sprt_stops_early_at_the_same_game_for_any_thread_count() {
        let a = cfg(
            "greedy",
            &[("ai weight progress", "1"), ("ai weight capture", "3")],
        );
        let b = cfg("random", &[]);
        let mut kept = vec![];
        for threads in [1, 2] {
            let mut rc = RunConfig::new(3, settings(5000, true));
            rc.threads = threads;
            rc.sprt = Some(dagaz::stats::sprt::Sprt::parse("elo0=0 elo1=50").unwrap());
            let out = run(
                &Toy::default(),
                [&a, &b],
                &rc,
                &AtomicBool::new(false),
                &|_| {},
            )
            .unwrap();
            let st = out.sprt.unwrap();
            assert_eq!(st.decision(), Some(dagaz::stats::sprt::Decision::H1));
            assert!(out.records.len() < 1000);
            kept.push(out.records.len());
        }
        assert_eq!(kept[0], kept[1]);
    }

    #[test]
    fn shards_partition_the_games() {
        let a = cfg("random", &[]);
        let mut all = vec![];
        for k in 1..=3 {
            let mut rc = RunConfig::new(1, settings(20, true));
            rc.shard = Some((k, 3));
            let out = run(
                &Toy::default(),
                [&a, &a],
                &rc,
                &AtomicBool::new(false),
                &|_| {},
            )
            .unwrap();
            all.push((format!("shard{k}"), out.records));
        }
        let merged = dagaz::stats::merge(all.clone()).unwrap();
        assert_eq!(
            merged.iter().map(|r| r.game_index).collect::<Vec<_>>(),
            (0..20).collect::<Vec<_>>()
        );
        let dup = all[0].1[0].clone();
        all[1].1.push(dup);
        assert!(dagaz::stats::merge(all).is_err());
    }
}

//! Tests of dagaz's own Axiom layer (`layer.4th`): it loads over the kernel, a prelude and
//! the host words in either order; on the fixture games of `tests/fixtures/axiom` it builds
//! the tables the runtime reads (positions, directions, players, engines, turn order, move
//! types and priorities, moves blocks, pieces, set-up) with the layout of
//! the comments of `layer.4th`; its words behave as docs/axiom.md says; and whole games run through
//! the runtime with it.

use super::natives::NATIVES;
use super::state::{State, Verdict};
use super::{Program, layer::LAYER};
use crate::forth::{Limits, NoHost, PRELUDE, Vm};
use std::path::PathBuf;

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/axiom")
        .join(rel)
}

fn load(rel: &str) -> Program {
    let p = Program::load(&fixture(rel), None).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(p.runtime.1.is_none(), "{rel} must run on dagaz's layer");
    p
}

/// A started game: `$NewGame`, the set-up and `OnNewGame` done.
fn start(rel: &str) -> State {
    State::new(&load(rel), 1).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn pfa(vm: &Vm, name: &str) -> u32 {
    vm.find(name.as_bytes())
        .unwrap_or_else(|| panic!("no word `{name}`"))
        + 16
}

fn var(vm: &Vm, name: &str) -> i32 {
    vm.cell(pfa(vm, name)).unwrap()
}

fn cfa(vm: &Vm, name: &str) -> i32 {
    pfa(vm, name) as i32 - 4
}

fn name_of_cfa(vm: &Vm, cfa: i32) -> String {
    vm.name_of(cfa as u32 - 12)
}

fn cells(vm: &Vm, at: u32, n: u32) -> Vec<i32> {
    (0..n).map(|i| vm.cell(at + 4 * i).unwrap()).collect()
}

fn strings(vm: &Vm, at: u32, n: u32) -> Vec<String> {
    cells(vm, at, n)
        .into_iter()
        .map(|a| vm.cstring(a as u32))
        .collect()
}

/// Runs `src` in a started game; returns the data stack.
fn run(s: &mut State, src: &str) -> Vec<i32> {
    s.vm.clear_stacks();
    s.vm.interpret_str("test.4th", src, &mut s.rt)
        .unwrap_or_else(|e| panic!("`{src}`: {e}"));
    let out = s.vm.stack().to_vec();
    s.vm.clear_stacks();
    out
}

/// Interprets `src` on a fresh VM with the layer; returns the error text.
fn layer_error(src: &str) -> String {
    let mut vm = layer_vm(false);
    vm.interpret_str("test.4th", src, &mut NoHost)
        .expect_err(src)
        .to_string()
}

/// The kernel, a prelude, the host words and the layer: host words after the prelude, or
/// (`natives_first`) before it, as `Program::load` does.
fn layer_vm(natives_first: bool) -> Vm {
    let mut vm = Vm::new(Limits::default());
    if natives_first {
        for n in NATIVES {
            vm.define_native(n).unwrap();
        }
    }
    vm.interpret_str("<prelude>", PRELUDE, &mut NoHost).unwrap();
    if !natives_first {
        for n in NATIVES {
            vm.define_native(n).unwrap();
        }
    }
    vm.interpret_str("layer.4th", LAYER, &mut NoHost)
        .unwrap_or_else(|e| panic!("the layer does not load: {e}"));
    assert!(vm.stack().is_empty(), "the layer leaves {:?}", vm.stack());
    vm
}

#[test]
fn layer_defines_the_interface() {
    for natives_first in [false, true] {
        let vm = layer_vm(natives_first);
        let names = "#UnknownScore #LossScore #DrawScore #WinScore #PlayerBase #Neutral \
            #PieceType #Player #PlayerNumber #NoPriority #TurnOrderCells #PieceCells \
            $rows $columns $positions $boardSize $board $posNames $directions \
            $directionCount $pieces $pieceCount $playerCount $players $playerName \
            $playerOffset $engines $turnOrder $turnOffset $turnLimit $repeatOffset $ofType \
            $forPlayer $turnNumber $movesList $lastMoveType $from $pos $piece $player \
            $partial $passed $lastPos $move-priorities $boardSetup $passTurnForced \
            $moveType $priority $flipGrid \
            {board board} {grid} {position} {variable} {array} {directions directions} \
            {direction} {link} {players players} {player} {neutral} {random} {first} \
            {search-engine} {symmetries symmetries} {symmetry} {asymmetry} {turn-order turn-order} \
            {turn} {for-player} {of-type} {repeat} {moves moves} {move} {move-type} \
            {move-priorities move-priorities} {move-priority} {pieces pieces} {piece} \
            {moves} {drops} {value} {board-setup board-setup} {setup} \
            from home here to back last current-piece current-piece-type piece piece-at \
            piece-type piece-type-at not-piece-type? not-piece-type-at? current-player \
            for-player player player-at empty? empty-at? not-empty? not-empty-at? friend? \
            enemy? friend-at? enemy-at? friend-of? enemy-of? neutral-piece? \
            neutral-piece-at? verify move-count turn-number stalemate? partial \
            partial-move-type Pass PassNoPartial piece-value next-player turn-offset \
            next-turn-offset turn-offset-to-player $FirstMove $NextMove .moveString \
            .moveType .moveCFA $CloneBoard $DeallocateBoard $RandomMoveEngine \
            $FirstMoveEngine OnSearch OnNewGame OnGenerateMoves OnIsGameOver OnEvaluate \
            OnNextTurn OnRetractMove OnIsTerminal? OnEditAdd OnEditRemove $NewGame $SetTurn";
        for name in names.split_whitespace() {
            let nfa = vm.find(name.as_bytes());
            assert!(nfa.is_some(), "no `{name}`");
            // Exactly this spelling: the layer's own word, not a host word of another case.
            assert_eq!(vm.name_of(nfa.unwrap()), name);
        }
        let mut vm = vm;
        vm.interpret_str(
            "t",
            "#UnknownScore #LossScore #WinScore #PlayerBase #Neutral #PieceType #Player \
             #PlayerNumber #NoPriority #TurnOrderCells #PieceCells \
             0 .moveString 0 .moveType 0 .moveCFA",
            &mut NoHost,
        )
        .unwrap();
        assert_eq!(
            vm.stack(),
            [
                -2140000000,
                -2130000000,
                2130000000,
                2048,
                1024,
                0x3FF,
                0xFC00,
                0xF800,
                1000,
                3,
                4,
                4,
                8,
                16
            ]
        );
    }
}

#[test]
fn capture_tables() {
    let p = load("capture/Capture.4th");
    let vm = &p.vm;
    // The grid: a4 is index 0 (row 1 at the bottom), names are constants of their index.
    assert_eq!(
        (
            var(vm, "$positions"),
            var(vm, "$rows"),
            var(vm, "$columns"),
            var(vm, "$boardSize")
        ),
        (16, 4, 4, 64)
    );
    let names = strings(vm, var(vm, "$posNames") as u32, 16);
    assert_eq!(
        names,
        [
            "a4", "b4", "c4", "d4", "a3", "b3", "c3", "d3", "a2", "b2", "c2", "d2", "a1", "b1",
            "c1", "d1"
        ]
    );
    for (i, n) in names.iter().enumerate() {
        assert_eq!(var(vm, n), i as i32, "{n}");
    }
    assert_eq!(p.info.positions, names);
    let board = var(vm, "$board") as u32;
    assert_ne!(board, 0);
    assert_eq!(vm.cell(board - 4).unwrap(), 0, "the board stack ends here");
    // Directions, in declaration order, with their link tables.
    assert_eq!(var(vm, "$directionCount"), 8);
    let dirs = cells(vm, var(vm, "$directions") as u32, 8);
    let dir_names: Vec<String> = dirs.iter().map(|&c| name_of_cfa(vm, c)).collect();
    assert_eq!(dir_names, ["n", "s", "e", "w", "ne", "nw", "se", "sw"]);
    let table = |d: usize| cells(vm, dirs[d] as u32 + 4, 16);
    assert_eq!(
        table(0),
        [-1, -1, -1, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    );
    assert_eq!(
        table(4),
        [-1, -1, -1, -1, 1, 2, 3, -1, 5, 6, 7, -1, 9, 10, 11, -1]
    );
    // sw: one row down, one column left.
    assert_eq!(
        table(7),
        [-1, 4, 5, 6, -1, 8, 9, 10, -1, 12, 13, 14, -1, -1, -1, -1]
    );
    // Players and their engines.
    assert_eq!(var(vm, "$playerCount"), 2);
    let players = cells(vm, var(vm, "$players") as u32, 2);
    assert_eq!(players, [cfa(vm, "White"), cfa(vm, "Black")]);
    assert_eq!((var(vm, "White"), var(vm, "Black")), (2048, 4096));
    let engines = cells(vm, var(vm, "$engines") as u32, 2);
    assert_eq!(engines, [cfa(vm, "$NegamaxMove"); 2]);
    // Turn order: [player][for-player][of-type], repeating from the top.
    assert_eq!((var(vm, "$turnLimit"), var(vm, "$repeatOffset")), (24, 0));
    let (w, b) = (cfa(vm, "White"), cfa(vm, "Black"));
    assert_eq!(
        cells(vm, var(vm, "$turnOrder") as u32, 6),
        [w, w, 0, b, b, 0]
    );
    // Move types (made on first use) and priorities (takes first).
    assert_eq!(
        (
            var(vm, "step-type"),
            var(vm, "take-type"),
            var(vm, "$moveType")
        ),
        (1, 2, 2)
    );
    assert_eq!(
        cells(vm, var(vm, "$move-priorities") as u32, 3),
        [1000, 2, 1]
    );
    // Moves blocks: [count] then [word][type] entries.
    assert_eq!(
        cells(vm, pfa(vm, "pawn-moves"), 7),
        [
            3,
            cfa(vm, "pawn-step"),
            1,
            cfa(vm, "pawn-take-left"),
            2,
            cfa(vm, "pawn-take-right"),
            2
        ]
    );
    let guard = cells(vm, pfa(vm, "guard-moves"), 33);
    assert_eq!(guard[0], 16);
    assert_eq!(&guard[1..3], [cfa(vm, "guard-n"), 1]);
    assert_eq!(&guard[31..33], [cfa(vm, "guard-take-sw"), 2]);
    // Pieces: [piece][moves][drops][value] per type.
    assert_eq!(var(vm, "$pieceCount"), 2);
    assert_eq!(
        cells(vm, var(vm, "$pieces") as u32, 8),
        [
            cfa(vm, "Pawn"),
            cfa(vm, "pawn-moves"),
            0,
            1,
            cfa(vm, "Guard"),
            cfa(vm, "guard-moves"),
            0,
            3
        ]
    );
    assert_eq!(p.info.pieces, ["Pawn", "Guard"]);
    // Set-up: [count] then the names of player, piece and position.
    let setup = var(vm, "$boardSetup") as u32;
    assert_eq!(vm.cell(setup).unwrap(), 8);
    assert_eq!(strings(vm, setup + 4, 3), ["White", "Guard", "a1"]);
    assert_eq!(strings(vm, setup + 4 + 12 * 7, 3), ["Black", "Guard", "d4"]);
}

#[test]
fn capture_words() {
    let mut s = start("capture/Capture.4th");
    let board = var(&s.vm, "$board") as u32;
    // The set-up is on the board; White is to move.
    assert_eq!(
        s.vm.cell(board + 4 * 12).unwrap(),
        2048 | 2,
        "White Guard a1"
    );
    assert_eq!(s.vm.cell(board + 4 * 2).unwrap(), 4096 | 1, "Black Pawn c4");
    assert_eq!(s.vm.cell(board + 4 * 5).unwrap(), 0);
    assert_eq!(
        run(
            &mut s,
            "current-player for-player $playerOffset @ turn-offset $ofType @ turn-number"
        ),
        [2048, 2048, 0, 0, 0, 0]
    );
    assert_eq!(s.vm.cstring(var(&s.vm, "$playerName") as u32), "White");
    // Direction words move `here` along their links, or fail and leave it.
    assert_eq!(run(&mut s, "a1 to n here"), [-1, 8]);
    assert_eq!(run(&mut s, "a4 to n here"), [0, 0]);
    assert_eq!(run(&mut s, "a1 to ne here"), [-1, 9]);
    assert_eq!(run(&mut s, "d1 to e here"), [0, 15]);
    assert_eq!(run(&mut s, "b2 to sw here"), [-1, 12]);
    // Pieces, owners and relations.
    assert_eq!(
        run(
            &mut s,
            "a1 to piece-type player friend? enemy? empty? not-empty? neutral-piece?"
        ),
        [2, 2048, -1, 0, 0, -1, 0]
    );
    assert_eq!(
        run(
            &mut s,
            "b2 empty-at? b2 not-empty-at? a4 enemy-at? a4 friend-at? d1 friend-at? \
             b1 piece-type-at a4 player-at c4 piece-at"
        ),
        [-1, 0, -1, 0, -1, 1, 4096, 4097]
    );
    assert_eq!(
        run(
            &mut s,
            "b4 to enemy? Pawn not-piece-type? Guard not-piece-type? Guard a4 not-piece-type-at? \
             a4 Black friend-of? a4 White enemy-of? b2 White enemy-of? a1 neutral-piece-at?"
        ),
        [-1, 0, -1, 0, -1, -1, 0, 0]
    );
    assert_eq!(
        run(&mut s, "b1 home c2 to from here back here last"),
        [13, 10, 13, 0]
    );
    assert_eq!(
        run(
            &mut s,
            "Pawn piece-value Guard piece-value Guard Black OR piece-value 0 piece-value 3 piece-value"
        ),
        [1, 3, 3, 0, 0]
    );
    assert_eq!(run(&mut s, "my-pieces OnEvaluate"), [4, 0]);
    // The move list and its accessors.
    s.generate().unwrap();
    assert_eq!(run(&mut s, "move-count stalemate?"), [6, 0]);
    let first = s.moves[0] as i32;
    assert_eq!(run(&mut s, "$FirstMove"), [first]);
    assert_eq!(run(&mut s, "$FirstMove $NextMove"), [s.moves[1] as i32]);
    let notation = run(&mut s, "$FirstMove .moveString @")[0];
    assert_eq!(s.vm.cstring(notation as u32), "Guard a1 - a2");
    assert_eq!(run(&mut s, "$FirstMove .moveType @"), [1]);
    // Turns: Black is next, then White again; Black's `n` is south.
    assert_eq!(
        run(
            &mut s,
            "next-turn-offset next-player 12 turn-offset-to-player"
        ),
        [12, 4096, 4096]
    );
    run(&mut s, "OnNextTurn");
    assert_eq!(
        run(
            &mut s,
            "current-player $playerOffset @ turn-offset next-turn-offset"
        ),
        [4096, 4, 12, 0]
    );
    assert_eq!(s.vm.cstring(var(&s.vm, "$playerName") as u32), "Black");
    assert_eq!(run(&mut s, "a2 to n here"), [-1, 12]);
    assert_eq!(run(&mut s, "b3 to ne here"), [-1, 10]);
    assert_eq!(run(&mut s, "b3 to nw here"), [-1, 8]);
    assert_eq!(run(&mut s, "b2 to s here"), [-1, 5]);
    assert_eq!(run(&mut s, "b2 to e here"), [-1, 10]);
    assert_eq!(run(&mut s, "my-pieces OnEvaluate"), [4, 0]);
    run(&mut s, "OnNextTurn");
    assert_eq!(run(&mut s, "current-player turn-offset"), [2048, 0]);
    // The board stack.
    run(&mut s, "$CloneBoard");
    let clone = var(&s.vm, "$board") as u32;
    assert_ne!(clone, board);
    assert_eq!(s.vm.cell(clone - 4).unwrap(), board as i32);
    assert_eq!(
        s.vm.bytes(clone, 64).unwrap(),
        s.vm.bytes(board, 64).unwrap()
    );
    run(&mut s, "0 a1 board[] !");
    assert_eq!(s.vm.cell(clone + 48).unwrap(), 0);
    assert_eq!(s.vm.cell(board + 48).unwrap(), 2050);
    run(&mut s, "OnRetractMove");
    assert_eq!(var(&s.vm, "$board") as u32, board);
    assert_eq!(s.vm.here(), clone - 4, "deallocating frees the clone");
    s.vm.clear_stacks();
    let e =
        s.vm.interpret_str("t", "$DeallocateBoard", &mut s.rt)
            .expect_err("the first board cannot be freed");
    assert!(e.to_string().contains("no cloned board"), "{e}");
    // Board edits.
    run(
        &mut s,
        "b2 OnEditRemove a1 OnEditRemove Black Pawn b2 OnEditAdd",
    );
    assert_eq!(run(&mut s, "a1 piece-at b2 piece-at"), [0, 4097]);
}

/// Leaf nodes of the move tree, stopping at finished games.
fn perft(s: &mut State, depth: u32) -> u64 {
    s.generate().unwrap();
    if s.verdict().unwrap() != Verdict::Unknown {
        return 0;
    }
    if depth <= 1 {
        return if depth == 0 { 1 } else { s.moves.len() as u64 };
    }
    let moves = s.moves.clone();
    let mut total = 0;
    for i in 0..moves.len() {
        let snap = s.snapshot().unwrap();
        s.moves = moves.clone();
        s.apply(i).unwrap();
        total += perft(s, depth - 1);
        s.restore(&snap).unwrap();
    }
    total
}

#[test]
fn capture_perft_and_priorities() {
    let mut s = start("capture/Capture.4th");
    s.generate().unwrap();
    let root: Vec<String> = (0..s.moves.len()).map(|i| s.notation(i)).collect();
    assert_eq!(
        root,
        [
            "Guard a1 - a2",
            "Guard a1 - b2",
            "Pawn b1 - b2",
            "Pawn c1 - c2",
            "Guard d1 - d2",
            "Guard d1 - c2"
        ]
    );
    let counts: Vec<u64> = (1..=4)
        .map(|d| perft(&mut start("capture/Capture.4th"), d))
        .collect();
    assert_eq!(counts, [6, 36, 120, 310]);
    // Taking is compulsory: after b1-b2 c4-c3, White's only moves take on c3.
    let mut s = start("capture/Capture.4th");
    for m in ["Pawn b1 - b2", "Pawn c4 - c3"] {
        s.generate().unwrap();
        let i = (0..s.moves.len()).find(|&i| s.notation(i) == m).unwrap();
        s.apply(i).unwrap();
    }
    s.generate().unwrap();
    let moves: Vec<String> = (0..s.moves.len()).map(|i| s.notation(i)).collect();
    assert_eq!(moves, ["Pawn b2 x c3"]);
}

#[test]
fn capture_game_ends() {
    // White's last Pawn takes Black's last piece: Black, to move, has lost.
    let mut s = start("capture/Capture.4th");
    run(
        &mut s,
        "a1 OnEditRemove c1 OnEditRemove d1 OnEditRemove \
         a4 OnEditRemove b4 OnEditRemove c4 OnEditRemove d4 OnEditRemove \
         Black Guard c2 OnEditAdd",
    );
    s.generate().unwrap();
    assert_eq!(s.verdict().unwrap(), Verdict::Unknown);
    assert_eq!(s.notation(0), "Pawn b1 x c2");
    assert_eq!(s.moves.len(), 1, "taking comes first");
    s.apply(0).unwrap();
    s.generate().unwrap();
    assert_eq!(run(&mut s, "current-player my-pieces"), [4096, 0]);
    assert_eq!(s.verdict().unwrap(), Verdict::Loss);
    // Pieces but no move: a draw.
    let mut s = start("capture/Capture.4th");
    run(
        &mut s,
        "a1 OnEditRemove b1 OnEditRemove c1 OnEditRemove d1 OnEditRemove \
         a4 OnEditRemove b4 OnEditRemove c4 OnEditRemove d4 OnEditRemove \
         White Pawn a4 OnEditAdd Black Pawn a1 OnEditAdd",
    );
    s.generate().unwrap();
    assert!(s.moves.is_empty());
    assert_eq!(s.verdict().unwrap(), Verdict::Draw);
}

#[test]
fn race_tables() {
    let p = load("race/Race.4th");
    let vm = &p.vm;
    assert_eq!((var(vm, "$positions"), var(vm, "$rows")), (12, 0));
    assert_eq!(
        p.info.positions,
        [
            "w1", "w2", "w3", "b1", "b2", "b3", "m1", "m2", "m3", "m4", "die1", "die2"
        ]
    );
    // Four board variables after the twelve position cells.
    assert_eq!(var(vm, "$boardSize"), 64);
    let board = var(vm, "$board");
    let mut s = start("race/Race.4th");
    let b = var(&s.vm, "$board");
    assert_eq!(
        run(&mut s, "white-waiting black-waiting white-home black-home"),
        [b + 48, b + 52, b + 56, b + 60]
    );
    assert_ne!(board, 0);
    // {link} directions.
    assert_eq!(var(vm, "$directionCount"), 2);
    let dirs = cells(vm, var(vm, "$directions") as u32, 2);
    assert_eq!(name_of_cfa(vm, dirs[0]), "path");
    assert_eq!(name_of_cfa(vm, dirs[1]), "black-path");
    assert_eq!(
        cells(vm, dirs[0] as u32 + 4, 12),
        [1, 6, -1, -1, -1, -1, 7, 8, 9, 2, -1, -1]
    );
    assert_eq!(
        cells(vm, dirs[1] as u32 + 4, 12),
        [-1, -1, -1, 4, 6, -1, 7, 8, 9, 5, -1, -1]
    );
    // Players, engines, and the dice turns with their move types.
    assert_eq!(p.info.players, ["White", "Black", "?Dice"]);
    assert_eq!(
        (var(vm, "White"), var(vm, "Black"), var(vm, "?Dice")),
        (2048, 4096, 6144)
    );
    let engines: Vec<String> = cells(vm, var(vm, "$engines") as u32, 3)
        .into_iter()
        .map(|c| name_of_cfa(vm, c))
        .collect();
    assert_eq!(
        engines,
        ["$NegamaxMove", "$NegamaxMove", "$RandomMoveEngine"]
    );
    assert_eq!(
        (var(vm, "race"), var(vm, "first-die"), var(vm, "second-die")),
        (1, 2, 3)
    );
    assert_eq!(var(vm, "$turnLimit"), 72);
    let (w, bl, d) = (cfa(vm, "White"), cfa(vm, "Black"), cfa(vm, "?Dice"));
    assert_eq!(
        cells(vm, var(vm, "$turnOrder") as u32, 18),
        [w, w, 1, d, d, 2, d, d, 3, bl, bl, 1, d, d, 2, d, d, 3]
    );
    // Pieces with drops blocks and values.
    assert_eq!(
        cells(vm, var(vm, "$pieces") as u32, 12),
        [
            cfa(vm, "Runner"),
            cfa(vm, "runner-moves"),
            cfa(vm, "runner-drops"),
            1,
            cfa(vm, "Low"),
            0,
            cfa(vm, "dice-drops"),
            1,
            cfa(vm, "High"),
            0,
            cfa(vm, "dice-drops"),
            2
        ]
    );
    assert_eq!(
        cells(vm, pfa(vm, "dice-drops"), 5),
        [2, cfa(vm, "throw-first"), 2, cfa(vm, "throw-second"), 3]
    );
    assert_eq!(var(vm, "$move-priorities"), 0);
    let setup = var(vm, "$boardSetup") as u32;
    assert_eq!(vm.cell(setup).unwrap(), 2);
    assert_eq!(
        strings(vm, setup + 4, 6),
        ["?Dice", "Low", "die1", "?Dice", "High", "die2"]
    );
}

#[test]
fn race_variants_replace_the_players() {
    for (file, engine) in [
        ("race/Race-[random].4th", "$RandomMoveEngine"),
        ("race/Race-[first].4th", "$FirstMoveEngine"),
    ] {
        let p = load(file);
        let vm = &p.vm;
        assert_eq!(p.info.players, ["White", "Black", "?Dice"], "{file}");
        let engines: Vec<String> = cells(vm, var(vm, "$engines") as u32, 3)
            .into_iter()
            .map(|c| name_of_cfa(vm, c))
            .collect();
        assert_eq!(engines, [engine, engine, "$RandomMoveEngine"], "{file}");
        // The game's turn order stays, naming players of the same values.
        assert_eq!(var(vm, "$turnLimit"), 72);
        let first = vm.cell(var(vm, "$turnOrder") as u32).unwrap();
        assert_eq!(vm.cell(first as u32 + 4).unwrap(), 2048);
    }
}

#[test]
fn race_words() {
    let mut s = start("race/Race.4th");
    // OnNewGame filled the waiting counters; the first throw, Low + High, is set up.
    assert_eq!(
        run(
            &mut s,
            "throw white-waiting @ black-waiting @ $passTurnForced @ $ofType @"
        ),
        [3, 3, 3, -1, 1]
    );
    // `path` is Black's own path on Black's turns (a symmetry), White's otherwise.
    assert_eq!(
        run(&mut s, "w2 to path here m4 to path here w3 to path here"),
        [-1, 6, -1, 2, 0, 2]
    );
    run(&mut s, "4 $playerOffset !");
    assert_eq!(
        run(&mut s, "b2 to path here m4 to path here w1 to path here"),
        [-1, 6, -1, 5, 0, 0]
    );
    run(&mut s, "8 $playerOffset !");
    assert_eq!(run(&mut s, "m4 to path here"), [-1, 2]);
    run(&mut s, "0 $playerOffset !");
    // The turn order goes round and starts over.
    let mut seen = Vec::new();
    for _ in 0..7 {
        run(&mut s, "OnNextTurn");
        seen.push(run(
            &mut s,
            "current-player #PlayerBase / $ofType @ turn-offset",
        ));
    }
    assert_eq!(
        seen,
        [
            [3, 2, 12],
            [3, 3, 24],
            [2, 1, 36],
            [3, 2, 48],
            [3, 3, 60],
            [1, 1, 0],
            [3, 2, 12]
        ]
    );
    // The game's end: the player to move loses once the other has borne off all three.
    assert_eq!(
        run(
            &mut s,
            "OnIsGameOver 0 $SetTurn OnIsGameOver 3 black-home ! OnIsGameOver OnEvaluate"
        ),
        [-2140000000, -2140000000, -2130000000, -30]
    );
}

#[test]
fn race_moves() {
    let mut s = start("race/Race.4th");
    let notations =
        |s: &State| -> Vec<String> { (0..s.moves.len()).map(|i| s.notation(i)).collect() };
    let play = |s: &mut State, m: &str| {
        s.generate().unwrap();
        let i = (0..s.moves.len())
            .find(|&i| s.notation(i) == m)
            .unwrap_or_else(|| panic!("no `{m}` in {:?}", notations(s)));
        s.apply(i).unwrap();
    };
    // White throws 3: a runner enters on m1.
    s.generate().unwrap();
    assert_eq!(notations(&s), ["White Runner m1"]);
    play(&mut s, "White Runner m1");
    assert_eq!(run(&mut s, "white-waiting @"), [2]);
    // ?Dice throws for Black: one die at a time.
    s.generate().unwrap();
    assert_eq!(notations(&s), ["?Dice Low die1", "?Dice High die1"]);
    play(&mut s, "?Dice High die1");
    s.generate().unwrap();
    assert_eq!(notations(&s), ["?Dice Low die2", "?Dice High die2"]);
    play(&mut s, "?Dice High die2");
    // Black throws 4: entering lands on m2.
    play(&mut s, "Black Runner m2");
    play(&mut s, "?Dice High die1");
    play(&mut s, "?Dice High die2");
    // White throws 4: m1 runs to w3, or a new runner enters on m2 and hits Black's.
    s.generate().unwrap();
    assert_eq!(notations(&s), ["Runner m1 - w3", "x m2 White Runner m2"]);
    play(&mut s, "x m2 White Runner m2");
    assert_eq!(
        run(&mut s, "white-waiting @ black-waiting @ m2 piece-at"),
        [1, 3, 2048 | 1]
    );
    play(&mut s, "?Dice Low die1");
    play(&mut s, "?Dice Low die2");
    // Black throws 2: enters on b2 (no runner on the board to move).
    play(&mut s, "Black Runner b2");
    play(&mut s, "?Dice High die1");
    play(&mut s, "?Dice High die2");
    // White: m2 + 4 is past w3: the runner is borne off.
    s.generate().unwrap();
    assert_eq!(notations(&s), ["Runner m1 - w3", "x m2"]);
    play(&mut s, "x m2");
    assert_eq!(run(&mut s, "white-home @ m2 piece-at"), [1, 0]);
}

#[test]
fn race_games_finish() {
    for file in [
        "race/Race.4th",
        "race/Race-[random].4th",
        "race/Race-[first].4th",
    ] {
        let p = load(file);
        let mut losers = [0u32; 2];
        for g in 0..12u64 {
            let mut s = State::new(&p, g).unwrap();
            let mut rng = crate::rng::Rng::new(g);
            let mut plies = 0;
            loop {
                s.reset_here().unwrap();
                s.generate().unwrap();
                let v = s.verdict().unwrap();
                if v != Verdict::Unknown {
                    assert_eq!(v, Verdict::Loss, "{file}");
                    losers[s.player()] += 1;
                    break;
                }
                assert!(!s.moves.is_empty(), "{file}: a forced pass is always there");
                // Every other game, the program's engine chooses (OnSearch).
                let i = if g % 2 == 0 {
                    s.rt.report = Default::default();
                    let snap = s.snapshot().unwrap();
                    let moves = s.moves.clone();
                    let on_search = s.rt.layout.on_search;
                    s.vm.execute(on_search, &mut s.rt)
                        .unwrap_or_else(|e| panic!("{file}: {e}"));
                    s.restore(&snap).unwrap();
                    s.moves = moves;
                    let best = s.rt.report.best.take().expect("the engine chose");
                    (0..s.moves.len())
                        .find(|&i| s.notation(i).as_bytes() == best.as_slice())
                        .expect("the chosen move is in the list")
                } else {
                    rng.below(s.moves.len())
                };
                s.apply(i).unwrap();
                plies += 1;
                assert!(plies < 2000, "{file}: game {g} does not end");
            }
        }
        assert_eq!(losers[0] + losers[1], 12, "{file}: {losers:?}");
    }
}

#[test]
fn declarations_reject_mistakes() {
    for (src, want) in [
        (
            "{board {position} a {variable} v {position} b board}",
            "before the first board variable",
        ),
        (
            "{board 2 2 {grid} {position} x 2 2 {grid} board}",
            "must come before",
        ),
        ("{board board}", "no positions"),
        ("{position} x", "belong between"),
        (
            "{board {position} a board} {directions {link} d a zz directions}",
            "zz",
        ),
        (
            "{board {position} a board} {directions {link} d a d directions}",
            "expected the name of a position",
        ),
        ("{board {position} a board} {players players}", "no player"),
        ("{turn-order {turn} Nobody turn-order}", "Nobody"),
        (
            "{board {position} a board} {players {player} P players} \
             {turn-order {turn} a turn-order}",
            "expected the name of a player",
        ),
        (
            "{board {position} a board} {players {player} P players} \
             {turn-order {turn} P {repeat} turn-order}",
            "{repeat}",
        ),
        (
            "{board {position} a board} {directions {link} d a a directions} \
             {players {player} P players} {symmetries P {symmetry} d q symmetries}",
            "unknown word",
        ),
        ("{move-type} t", "{move-type} follows"),
        ("{pieces {value} pieces}", "follows a {piece}"),
        (
            "{board {position} a board} {players {player} P players} \
             {pieces {piece} X pieces} {board-setup {setup} P X P board-setup}",
            "expected the name of a position",
        ),
    ] {
        let e = layer_error(src);
        assert!(e.contains(want), "`{src}`: {e}");
    }
}

#[test]
fn other_declarations() {
    let mut vm = layer_vm(false);
    vm.interpret_str(
        "t",
        "$flipGrid ON {board 2 3 {grid} 3 {array} arr {variable} v board}
         {directions 1 0 {direction} up directions}
         {players {player} A {neutral} N {player} B {search-engine} $FirstMoveEngine players}
         {move-priorities {move-priority} late-b {move-priority} late-a move-priorities}
         : mv ; {moves blk {move} mv {move-type} later {move} mv moves}",
        &mut NoHost,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // Under $flipGrid, a1 is index 0 and rows grow with the index.
    let names = strings(&vm, var(&vm, "$posNames") as u32, 6);
    assert_eq!(names, ["a1", "b1", "c1", "a2", "b2", "c2"]);
    let board = var(&vm, "$board");
    assert_eq!(var(&vm, "$boardSize"), 40);
    let up = cells(&vm, var(&vm, "$directions") as u32, 1)[0];
    assert_eq!(cells(&vm, up as u32 + 4, 6), [3, 4, 5, -1, -1, -1]);
    vm.interpret_str(
        "t",
        "0 arr 2 arr v A N B late-b late-a later $moveType @",
        &mut NoHost,
    )
    .unwrap();
    assert_eq!(
        vm.stack(),
        [
            board + 24,
            board + 32,
            board + 36,
            2048,
            4096 | 1024,
            6144,
            1,
            2,
            3,
            3
        ]
    );
    vm.clear_stacks();
    // A neutral player takes no turn when the game declares no turn order.
    assert_eq!(var(&vm, "$turnLimit"), 24);
    let (a, b) = (cfa(&vm, "A"), cfa(&vm, "B"));
    assert_eq!(
        cells(&vm, var(&vm, "$turnOrder") as u32, 6),
        [a, a, 0, b, b, 0]
    );
    let engines = cells(&vm, var(&vm, "$engines") as u32, 3);
    assert_eq!(name_of_cfa(&vm, engines[2]), "$FirstMoveEngine");
    // A move type made after the priorities gets #NoPriority.
    assert_eq!(
        cells(&vm, var(&vm, "$move-priorities") as u32, 4),
        [1000, 1, 2, 1000]
    );
    assert_eq!(
        cells(&vm, pfa(&vm, "blk"), 5),
        [2, cfa(&vm, "mv"), 3, cfa(&vm, "mv"), 0]
    );
}

/// `{asymmetry}` maps one direction for one player and leaves the other as it was;
/// `{symmetry}` swaps both. The dispatching word's body is [plain][one per player].
#[test]
fn symmetries_and_asymmetries() {
    let mut vm = layer_vm(false);
    vm.interpret_str(
        "t",
        "{board 1 3 {grid} board}
         {directions 0 1 {direction} e 0 -1 {direction} w 1 0 {direction} s directions}
         {players {player} A {player} B {player} C players}
         {symmetries B {symmetry} e w C {asymmetry} e s C {asymmetry} s w symmetries}",
        &mut NoHost,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(vm.stack().is_empty());
    let raw = cells(&vm, var(&vm, "$directions") as u32, 3);
    let table = |name: &str| -> Vec<String> {
        cells(&vm, pfa(&vm, name) + 4, 3)
            .into_iter()
            .map(|c| name_of_cfa(&vm, c))
            .collect()
    };
    assert_eq!(table("e"), ["e", "w", "s"]);
    assert_eq!(table("w"), ["w", "e", "w"]);
    assert_eq!(table("s"), ["s", "s", "w"]);
    assert_eq!(vm.cell(pfa(&vm, "s")).unwrap(), raw[2]);
}

/// Runs `src` as one generation from the first position: the notations of the moves it
/// lists.
fn generate(s: &mut State, src: &str) -> Vec<String> {
    s.rt.begin_generation(&mut s.vm).unwrap();
    s.rt.begin_move(&mut s.vm, 0).unwrap();
    run(s, src);
    s.rt.finish_generation(&mut s.vm, &mut s.moves).unwrap();
    (0..s.moves.len()).map(|i| s.notation(i)).collect()
}

#[test]
fn partial_moves_and_passes() {
    let mut s = start("capture/Capture.4th");
    let moves = generate(
        &mut s,
        "b1 b2 move partial add-move \
         a1 a2 move take-type partial-move-type partial add-move \
         Pass Pass PassNoPartial",
    );
    assert_eq!(
        moves,
        ["Pawn b1 - b2 partial", "Guard a1 - a2 partial", "Pass"],
        "one pass per generation"
    );
    let snap = s.snapshot().unwrap();
    let list = s.moves.clone();
    // A partial move keeps the turn; `partial-move-type` sets the type of what follows.
    assert!(!s.apply(0).unwrap());
    assert_eq!(
        run(&mut s, "$partial @ current-player $ofType @"),
        [-1, 2048, 0]
    );
    // While a partial move goes on, PassNoPartial adds nothing; Pass still does.
    assert!(generate(&mut s, "PassNoPartial").is_empty());
    assert_eq!(generate(&mut s, "Pass"), ["Pass"]);
    s.restore(&snap).unwrap();
    s.moves = list.clone();
    assert!(!s.apply(1).unwrap());
    assert_eq!(
        run(&mut s, "$partial @ current-player $ofType @"),
        [-1, 2048, 2]
    );
    s.restore(&snap).unwrap();
    s.moves = list;
    assert!(s.apply(2).unwrap());
    assert_eq!(
        run(&mut s, "$partial @ current-player $ofType @ b1 piece-at"),
        [0, 4096, 0, 2049]
    );
}

#[test]
fn move_lists_and_material_for_evaluations() {
    let mut s = start("capture/Capture.4th");
    // Material: both sides have two Guards (3) and two Pawns (1).
    assert_eq!(
        run(&mut s, "White material-balance Black material-balance"),
        [0, 0]
    );
    run(&mut s, "a1 OnEditRemove");
    assert_eq!(
        run(&mut s, "White material-balance Black material-balance"),
        [-3, 3]
    );
    let mut s = start("capture/Capture.4th");
    s.generate().unwrap();
    let (white_moves, here) = (s.moves.len() as i32, s.vm.here() as i32);
    let turn = "$player @ $forPlayer @ $ofType @ $playerOffset @ $movesList @";
    let before = run(&mut s, turn);
    // White's own list again, Black's (the player after White), and Black's by name: each
    // replaces the current list until `$DeallocateMoves`, which puts it and `HERE` back.
    assert_eq!(
        run(
            &mut s,
            "White FALSE 0 $GenerateMoves move-count $DeallocateMoves \
             White TRUE 0 $GenerateMoves move-count $DeallocateMoves \
             Black FALSE 0 $GenerateMoves move-count $DeallocateMoves \
             move-count HERE"
        ),
        [white_moves, 6, 6, white_moves, here]
    );
    assert_eq!(
        run(&mut s, turn),
        before,
        "the turn's variables are unchanged"
    );
    // After b1-b2, Black has the move: `Black FALSE` lists what the game generates for
    // Black, in the same order, and nested lists come off in order.
    let i = (0..s.moves.len())
        .find(|&i| s.notation(i) == "Pawn b1 - b2")
        .unwrap();
    s.apply(i).unwrap();
    s.generate().unwrap();
    let black: Vec<i32> = s.moves.iter().map(|&r| r as i32).collect();
    let listed = run(
        &mut s,
        "Black FALSE 0 $GenerateMoves move-count $FirstMove $MoveString \
         Black TRUE 0 $GenerateMoves move-count $DeallocateMoves move-count $DeallocateMoves",
    );
    assert_eq!(listed[0], black.len() as i32);
    let first = s.vm.cstring(listed[1] as u32);
    assert_eq!(first, s.notation(0));
    let white_after = run(
        &mut s,
        "White FALSE 0 $GenerateMoves move-count $DeallocateMoves",
    );
    assert_eq!(listed[2..], [white_after[0], black.len() as i32]);
    // A move type restricts the list: only White's takes (none yet, then c3's).
    assert_eq!(
        run(
            &mut s,
            "White FALSE take-type $GenerateMoves move-count $DeallocateMoves"
        ),
        [0]
    );
    // Unbalanced use is an error, not a crash.
    s.vm.clear_stacks();
    let e =
        s.vm.interpret_str("test.4th", "$DeallocateMoves", &mut s.rt)
            .unwrap_err();
    assert!(e.to_string().contains("without `$GenerateMoves`"), "{e}");
}

/// Records one move from the words `src` (which end with `add-move`) as a move word would,
/// as the only move of a generation, and applies it.
fn play_recorded(s: &mut State, src: &str) {
    s.rt.begin_generation(&mut s.vm).unwrap();
    s.rt.begin_move(&mut s.vm, 0).unwrap();
    run(s, src);
    s.rt.finish_generation(&mut s.vm, &mut s.moves).unwrap();
    assert_eq!(s.moves.len(), 1);
    s.apply(0).unwrap();
}

/// A fresh folder of the system's temporary directory for one test's files.
pub(super) fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn created_pieces_belong_to_the_player_moved_for() {
    let mut s = start("capture/Capture.4th");
    // White's turn, moving for Black (as `{turn} White {for-player} Black` sets it).
    run(&mut s, "Black $forPlayer !");
    play_recorded(
        &mut s,
        "b2 to Pawn create-piece-type Guard b3 create-piece-type-at \
         White Guard c2 create-player-piece-type-at add-move",
    );
    assert_eq!(
        run(&mut s, "b2 piece-at b3 piece-at c2 piece-at"),
        [4096 | 1, 4096 | 2, 2048 | 2],
        "the default owner is `$forPlayer`; `create-player-piece-type` names its own"
    );
}

#[test]
fn a_random_players_turn_is_not_asked_whether_the_game_is_over() {
    // The race, with an `OnIsGameOver` that calls every ?Dice turn a loss.
    let dir = scratch_dir("dagaz-dice-verdict");
    std::fs::copy(fixture("race/Race.4th"), dir.join("Race.4th")).unwrap();
    std::fs::write(
        dir.join("Dice.4th"),
        "LOAD Race.4th\n\
         : OnIsGameOver ( -- score ) current-player ?Dice = IF #LossScore ELSE #UnknownScore THEN ;\n",
    )
    .unwrap();
    let p = Program::load(&dir.join("Dice.4th"), None).unwrap();
    let mut s = State::new(&p, 1).unwrap();
    let mut dice_turns = 0;
    for _ in 0..12 {
        s.reset_here().unwrap();
        s.generate().unwrap();
        let dice = run(&mut s, "current-player ?Dice =") == [-1];
        if dice {
            dice_turns += 1;
            // The program's word says "lost"; the game does not ask it on a ?Dice turn.
            assert_eq!(run(&mut s, "OnIsGameOver"), [super::state::LOSS_SCORE]);
        }
        assert_eq!(s.verdict().unwrap(), Verdict::Unknown);
        s.apply(0).unwrap();
    }
    assert!(dice_turns >= 6, "{dice_turns}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn move_words_may_take_more_than_they_are_given() {
    // Axiom's stack is unchecked: a move word that drops more cells than it pushed (as
    // Splut's `push-stone` does) still lists its moves; far below, it is an error.
    let dir = scratch_dir("dagaz-cushion");
    let game = |extra_drops: usize| {
        format!(
            "{{board 3 1 {{grid}} board}}\n\
             {{players {{player}} White {{player}} Black players}}\n\
             {{turn-order {{turn}} White {{turn}} Black turn-order}}\n\
             : place ( -- ) 7 8 DROP DROP {} empty? verify drop add-move ;\n\
             {{moves man-drops {{move}} place moves}}\n\
             {{pieces {{piece}} man {{drops}} man-drops pieces}}\n",
            "DROP ".repeat(extra_drops)
        )
    };
    std::fs::write(dir.join("Over.4th"), game(3)).unwrap();
    std::fs::write(dir.join("Far.4th"), game(40)).unwrap();
    let p = Program::load(&dir.join("Over.4th"), None).unwrap();
    let mut s = State::new(&p, 1).unwrap();
    for expected in [3, 2, 1] {
        s.reset_here().unwrap();
        s.generate().unwrap();
        assert_eq!(s.moves.len(), expected);
        assert!(s.vm.stack().is_empty(), "{:?}", s.vm.stack());
        s.apply(0).unwrap();
    }
    let p = Program::load(&dir.join("Far.4th"), None).unwrap();
    let mut s = State::new(&p, 1).unwrap();
    s.reset_here().unwrap();
    let e = s.generate().unwrap_err();
    assert_eq!(e.kind, crate::forth::ForthErrorKind::StackUnderflow);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn create_and_drop_words_without_a_type_or_owner() {
    // A White Guard's move (the piece `run_block` sets), moving for White.
    let mut s = start("capture/Capture.4th");
    run(&mut s, "White Guard OR $piece !  White $forPlayer !");
    play_recorded(
        &mut s,
        "b2 to create  c2 create-at  a2 to Black create-player  Black c3 create-player-at \
         a3 to Pawn drop-piece  Pawn b3 drop-piece-at  add-move",
    );
    let (white, black) = (2048, 4096);
    assert_eq!(
        run(
            &mut s,
            "b2 piece-at c2 piece-at a2 piece-at c3 piece-at a3 piece-at b3 piece-at"
        ),
        [
            white | 2,
            white | 2,
            black | 2,
            black | 2,
            white | 1,
            white | 1
        ],
        "the moving piece's type unless a type is given; the player moved for unless one is named"
    );
}

#[test]
fn a_loaded_part_without_pieces_is_not_a_variant() {
    let dir = scratch_dir("dagaz-parts");
    std::fs::write(
        dir.join("Common.4th"),
        "{board 3 1 {grid} board}\n\
         {players {player} White {player} Black players}\n\
         {turn-order {turn} White {turn} Black turn-order}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("Game.4th"),
        "LOAD Common.4th\n\
         : place ( -- ) empty? verify drop add-move ;\n\
         {moves man-drops {move} place moves}\n\
         {pieces {piece} man {drops} man-drops pieces}\n",
    )
    .unwrap();
    // Loaded by nobody, a program without pieces stays a variant (lint warns about it).
    std::fs::write(dir.join("Alone.4th"), "LOAD Common.4th\n").unwrap();
    let (programs, skipped) = Program::variants_in(&dir).unwrap();
    let names: Vec<&str> = programs.iter().map(|p| p.info.name.as_str()).collect();
    assert_eq!(names, ["Alone", "Game"]);
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0].name, "Common.4th");
    assert!(skipped[0].part, "{}", skipped[0].reason);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_event_that_takes_more_than_it_is_given_still_answers() {
    // As Tsumego's `OnIsGameOver` does on one path: `2DROP` where one cell is left.
    let dir = scratch_dir("dagaz-event-cushion");
    std::fs::copy(fixture("race/Race.4th"), dir.join("Race.4th")).unwrap();
    std::fs::write(
        dir.join("Over.4th"),
        "LOAD Race.4th\n\
         : OnIsGameOver ( -- score ) 7 2DROP #LossScore ;\n\
         : OnEvaluate ( -- score ) 1 2 2DROP DROP DROP 42 ;\n",
    )
    .unwrap();
    let p = Program::load(&dir.join("Over.4th"), None).unwrap();
    let mut s = State::new(&p, 1).unwrap();
    s.reset_here().unwrap();
    s.generate().unwrap();
    assert_eq!(
        run(&mut s, "current-player ?Dice ="),
        [0],
        "White moves first"
    );
    assert_eq!(s.verdict().unwrap(), Verdict::Loss);
    assert!(s.vm.stack().is_empty(), "{:?}", s.vm.stack());
    assert_eq!(super::state::evaluate(&mut s.vm, &mut s.rt).unwrap(), 42);
    assert!(s.vm.stack().is_empty(), "{:?}", s.vm.stack());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A move's notation text is padded with zeros to the next cell: the bytes between two
/// records do not depend on what the memory above `HERE` held before (the move-word
/// cache does not reproduce that memory, so a stale byte there made states differ with
/// the cache on and off in a published Chase variant).
#[test]
fn move_texts_are_padded_with_zeros() {
    let mut s = start("capture/Capture.4th");
    let here = s.vm.here();
    s.vm.write_bytes(here, &[0xAB; 4096]).unwrap();
    s.generate().unwrap();
    assert!(!s.moves.is_empty());
    for &r in &s.moves {
        let text = s.vm.cell(r - super::program::REC_NOTATION).unwrap() as u32;
        let len = s.vm.cstring(text).len() as u32 + 1;
        let padded = len.div_ceil(4) * 4;
        let pad: Vec<u8> = (text + len..text + padded)
            .map(|a| s.vm.byte(a).unwrap())
            .collect();
        assert!(
            pad.iter().all(|&b| b == 0),
            "{:?}: {pad:?}",
            s.vm.cstring(text)
        );
    }
}

/// Work nested in a search (`state::nested`) runs within what is left of the search's
/// budget, not on a whole turn's: it stops at the search's last step, and the search
/// learns that its budget ran out; with enough left, its steps are counted against it.
#[test]
fn nested_work_stops_at_the_callers_last_step() {
    let mut s = start("capture/Capture.4th");
    run(&mut s, ": burn 0 BEGIN 1+ DUP 5000 = UNTIL DROP ;");
    let burn = cfa(&s.vm, "burn") as u32;
    s.vm.set_step_budget(100_000);
    let (r, out) = super::state::nested(&mut s.vm, |vm| vm.execute(burn, &mut s.rt));
    assert!(r.is_ok() && !out, "{r:?}");
    let used = s.vm.steps();
    assert!((15_000..100_000).contains(&used), "{used} steps");
    assert_eq!(s.vm.budget_state().1, 100_000, "the caller's limit is back");
    // 1,000 steps left: `burn` stops after them, not after its ~20,000.
    s.vm.set_step_budget(100_000);
    s.vm.set_budget_state((99_000, 100_000), 0).unwrap();
    let (r, out) = super::state::nested(&mut s.vm, |vm| vm.execute(burn, &mut s.rt));
    assert!(out);
    let e = r.expect_err("out of steps");
    assert!(
        matches!(e.kind, crate::forth::ForthErrorKind::StepBudget(100_000)),
        "{e}"
    );
    assert_eq!(s.vm.steps(), 100_001);
    s.vm.clear_stacks();
}

/// Axiom's system constants and directives, with Axiom's values: a program may read them
/// and set the directives (which dagaz accepts and ignores).
#[test]
fn axiom_constants_and_directives() {
    let mut vm = layer_vm(false);
    vm.interpret_str(
        "t",
        "#Version #Directions #Moves #MaxPriorities #Turns #Players #Pieces #DepthLimit \
         #ForeverDepth #KeepSearching #StopSoon #StopNow #NoMoveType #movesCell #DropsCell \
         #ValueCell #PiecePlayer #PlayerShift #Empty ??",
        &mut NoHost,
    )
    .unwrap();
    assert_eq!(
        vm.stack(),
        [
            151, 128, 128, 128, 256, 32, 1024, 3, 10, 0, 1, 2, 0, 1, 2, 3, 0xFFFF, 11, 0, -1
        ]
    );
    vm.clear_stacks();
    vm.interpret_str(
        "t",
        "$gameLog @ $shareMovesList @ $combinePartial @ $gameResultBug @ $authoring @ \
         $searchTime @ $variety @ $depthLimit @ $iterationDepth @ $searching @ \
         $playerToMove @ $add-move @ \
         $gameLog ON $authoring ON 5000 $searchTime ! 10 $variety ! $gameLog @",
        &mut NoHost,
    )
    .unwrap();
    assert_eq!(vm.stack(), [0, -1, -1, -1, 0, 0, 0, 3, 0, 0, 0, 0, -1]);
}

/// `{carray}`, `{dummy-positions}`, `{dummy-pieces}` and the counts the declarations keep.
#[test]
fn byte_arrays_and_the_scanned_part_of_the_board() {
    let mut vm = layer_vm(false);
    vm.interpret_str(
        "t",
        "{board 2 2 {grid} {position} x {dummy-positions} {position} y \
           6 {carray} bytes {variable} v board}
         {pieces {piece} P {dummy-pieces} {piece} Q pieces}",
        &mut NoHost,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(var(&vm, "$positions"), 6);
    assert_eq!(var(&vm, "$scanPositions"), 5, "x is scanned, y is not");
    assert_eq!(var(&vm, "$posCount"), 2);
    assert_eq!(var(&vm, "$lastPosNFA") as u32, vm.find(b"y").unwrap());
    // 6 position cells, 6 bytes rounded up to 8, then the variable.
    assert_eq!(var(&vm, "$boardSize"), 6 * 4 + 8 + 4);
    assert_eq!(var(&vm, "$scanPieceCount"), 1);
    assert_eq!(var(&vm, "$pieceCount"), 2);
    let board = var(&vm, "$board");
    vm.interpret_str(
        "t",
        "0 bytes 3 bytes v 77 3 bytes C! 3 bytes C@",
        &mut NoHost,
    )
    .unwrap();
    assert_eq!(vm.stack(), [board + 24, board + 27, board + 32, 77]);
    vm.clear_stacks();
    // Without {dummy-…}, the scan covers every position and piece type.
    vm.interpret_str(
        "t",
        "{board 1 3 {grid} board} {pieces {piece} R {piece} S pieces} \
         $scanPositions @ $scanPieceCount @",
        &mut NoHost,
    )
    .unwrap();
    assert_eq!(vm.stack(), [3, 2]);
}

/// The user words axiom.4th 1.50 and 1.51 add: `of-type`, `piece-index`,
/// `player-index`, `player-count`, `searching?`, `player-to-move`, `^"`,
/// `remove-from-reserve`, the ring buffers' dumps, `$OutputMoves`, and
/// `partial-move-type` making the move partial.
#[test]
fn axiom_150_user_words() {
    let mut s = start("capture/Capture.4th");
    assert_eq!(
        run(
            &mut s,
            "7 $ofType ! of-type Guard piece-index Pawn piece-index Black player-index \
             White player-index player-count searching? player-to-move"
        ),
        [7, 1, 0, 1, 0, 2, 0, 0]
    );
    run(&mut s, "0 $ofType !");
    // OnSearch: the engine runs with `searching?` true and `player-to-move` its player.
    run(
        &mut s,
        "VARIABLE seen VARIABLE who \
         : spy ( -- ) searching? seen ! player-to-move who ! ; \
         ' spy $engines @ $playerOffset @ + ! OnSearch",
    );
    assert_eq!(run(&mut s, "seen @ who @ searching?"), [-1, 2048, 0]);
    // ^" notes text in the move being generated; outside a definition it prints.
    s.vm.output.clear();
    run(
        &mut s,
        ": note ( -- ) ^\"  tag\" ; ^\" hello\" \
         VARIABLE stock 5 stock ! ' stock _amount-in-reserve ! \
         : take ( -- ) b1 b2 move remove-from-reserve note add-move ;",
    );
    assert_eq!(String::from_utf8_lossy(&s.vm.output), "hello");
    let snap = s.snapshot().unwrap();
    assert_eq!(generate(&mut s, "take"), ["Pawn b1 - b2 tag"]);
    assert_eq!(run(&mut s, "stock @"), [5], "taken when the move is made");
    assert!(s.apply(0).unwrap());
    assert_eq!(run(&mut s, "stock @"), [4]);
    // `partial-move-type` alone makes the move partial, as in every axiom.4th.
    s.restore(&snap).unwrap();
    generate(&mut s, "a1 a2 move take-type partial-move-type add-move");
    assert!(!s.apply(0).unwrap(), "the turn goes on");
    assert_eq!(run(&mut s, "$partial @ $ofType @"), [-1, 2]);
    // The ring buffers' dumps print their items and empty them.
    s.vm.output.clear();
    assert_eq!(
        run(
            &mut s,
            "3 ringbuffer-add-item 4 ringbuffer-add-item ringbuffer-dump ringbuffer-empty? \
             5 ringbuffer2-add-item ringbuffer2-dump ringbuffer2-empty?"
        ),
        [-1, -1]
    );
    let out = String::from_utf8_lossy(&s.vm.output).into_owned();
    assert!(
        out.contains('3') && out.contains('4') && out.contains('5'),
        "{out:?}"
    );
    // RANDOMIZE2 seeds the engines' generator; axiomFence does nothing.
    assert!(run(&mut s, "RANDOMIZE2 axiomFence").is_empty());
    // $OutputMoves: one `[notation]` line per listed move.
    s.restore(&snap).unwrap();
    s.generate().unwrap();
    s.vm.output.clear();
    run(&mut s, "$OutputMoves");
    let out = String::from_utf8_lossy(&s.vm.output).into_owned();
    assert_eq!(out.lines().count(), s.moves.len());
    assert_eq!(
        out.lines().next(),
        Some(format!("[{}]", s.notation(0)).as_str())
    );
}

/// `$NegamaxMove` writes its depth limit to `$depthLimit` and the depth of the iteration
/// under way to `$iterationDepth`.
#[test]
fn negamax_reports_its_depths() {
    let mut s = start("capture/Capture.4th");
    s.rt.search_depth = 2;
    s.generate().unwrap();
    run(&mut s, "0 $depthLimit ! 0 $iterationDepth !");
    let on_search = s.rt.layout.on_search;
    s.vm.execute(on_search, &mut s.rt).unwrap();
    assert_eq!(run(&mut s, "$depthLimit @ $iterationDepth @"), [2, 2]);
}

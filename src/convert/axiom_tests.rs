//! Tests of the ZRF → Axiom converter: the `{grid}` detection; a hand-written fixture with
//! two variants and a random player against its golden output; and round trips, where the
//! generated files load in dagaz's Axiom runtime ([`crate::axiom::Program`], on dagaz's own
//! layer) with the positions, links, symmetries, players, pieces, turn order and setup of
//! the ZRF model, over the bundled games and the shared corpus (a fixed sample here, the
//! whole corpus in an ignored test). A file that cannot load must carry a
//! `to-axiom-bad-name` error that says why.

use super::*;
use crate::axiom::Program;
use crate::diagnostics::Severity;
use crate::expand::{Limits, load_path, load_text};
use crate::forth::Vm;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn names(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn grids_are_found_as_the_layer_makes_them() {
    let g = |rows, columns, flipped| {
        Some(Grid {
            rows,
            columns,
            flipped,
        })
    };
    assert_eq!(find_grid(&names("a2 b2 c2 a1 b1 c1")), g(2, 3, false));
    assert_eq!(find_grid(&names("a1 b1 c1 a2 b2 c2 x")), g(2, 3, true));
    // One row: both readings agree; the plain one is kept.
    assert_eq!(find_grid(&names("a1 b1 c1")), g(1, 3, false));
    // A prefix: the grid first, then other positions.
    assert_eq!(find_grid(&names("a2 b2 a1 b1 off1 off2")), g(2, 2, false));
    // Other orders and names are no grid.
    assert_eq!(find_grid(&names("a1 a2 b1 b2")), None);
    // One column is a grid only when it is the whole board.
    assert_eq!(find_grid(&names("a1 a2 a3")), g(3, 1, true));
    assert_eq!(find_grid(&names("b2 a2 b1 a1")), None);
    assert_eq!(find_grid(&names("A2 B2 A1 B1")), None);
    assert_eq!(find_grid(&names("a02 b02 a01 b01")), None);
    assert_eq!(find_grid(&names("a1")), None);
    assert_eq!(find_grid(&names("a3 b3 c3 d3 g3 h3 a2 b2")), None);
    // Column names and targets as `$GridTarget` computes them.
    let gr = Grid {
        rows: 3,
        columns: 2,
        flipped: false,
    };
    assert_eq!(
        (0..6).map(|i| gr.name(i)).collect::<Vec<_>>(),
        names("a3 b3 a2 b2 a1 b1")
    );
    assert_eq!(gr.target(-1, 0, 2), Some(0));
    assert_eq!(gr.target(1, 1, 4), None);
    assert_eq!(gr.target(0, 1, 4), Some(5));
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/convert")
}

/// The diagnostics as one line each: `file:line:col: severity[code/name]: message`.
fn diagnostics_text(loaded: &Loaded, diags: &[Diagnostic]) -> String {
    let mut s = String::new();
    for d in diags {
        let at = d.span.map_or_else(String::new, |sp| {
            let f = loaded.sources.get(sp.file);
            let name = Path::new(&f.display)
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned());
            format!("{name}:{}:{}: ", sp.line, sp.col)
        });
        let _ = writeln!(
            s,
            "{at}{}[{}/{}]: {}",
            d.severity.as_str(),
            d.code.id,
            d.code.name,
            d.message
        );
    }
    s
}

/// Compares `got` with the golden file `name` of the fixture folder (rewritten with
/// `DAGAZ_BLESS=1`).
fn golden(name: &str, got: &str) {
    let path = fixture_dir().join(name);
    if std::env::var("DAGAZ_BLESS").as_deref() == Ok("1") {
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("no golden file {}", path.display()));
    assert_eq!(
        got,
        want,
        "{} differs (DAGAZ_BLESS=1 rewrites it)",
        path.display()
    );
}

#[test]
fn the_fixture_converts_to_its_golden_files() {
    let path = fixture_dir().join("tiny-race.zrf");
    let loaded = load_path(&path, "tiny-race.zrf", Limits::default()).unwrap();
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let c = to_axiom(&loaded);
    let files: Vec<&str> = c.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        files.len(),
        3,
        "{}",
        diagnostics_text(&loaded, &c.diagnostics)
    );
    assert_eq!(
        files,
        [
            "Tiny-Race.4th",
            "Tiny-Race-[random].4th",
            "Tiny-Race-[small].4th"
        ]
    );
    assert_eq!(c.files[1].loads.as_deref(), Some("Tiny-Race.4th"));
    assert_eq!(c.files[2].loads, None);
    golden("tiny-race.expected", &listing(&c.files));
    golden(
        "tiny-race.diagnostics",
        &diagnostics_text(&loaded, &c.diagnostics),
    );
    // Deterministic: the same text from anywhere, every time.
    let again = to_axiom(&load_text(
        "elsewhere/tiny-race.zrf",
        &std::fs::read_to_string(&path).unwrap(),
        Limits::default(),
    ));
    assert_eq!(listing(&again.files), listing(&c.files));
    // And they load, with the model's board.
    let outcomes = round_trip(&loaded, &c, "tiny-race");
    assert!(
        outcomes.iter().all(|o| *o == Outcome::Loaded),
        "{outcomes:?}"
    );
}

/// Names that two kinds share, names that are numbers or words of the layer, a title that
/// is no file name, a cycle of directions as a symmetry, a direction without links.
#[test]
fn names_and_odd_declarations() {
    let text = r#"(game (title "Clash/Test") (players A B)
      (board
        (grid (dimensions ("a" (1 0)) ("1" (0 1))) (directions (n 0 -1)))
        (positions (1 0 0 1 1) (2 0 0 1 1) (King 0 0 1 1))
        (links up (a1 1) (1 2)) (links back (2 1)) (links side (1 King))
        (symmetry B (up back) (back side) (side up)))
      (piece (name King)) (piece (name Piece))
      (board-setup (A (Piece a1))))
      (variant (title "Clash/Test"))"#;
    let loaded = load_text("clash.zrf", text, Limits::default());
    let c = to_axiom(&loaded);
    let got = diagnostics_text(&loaded, &c.diagnostics);
    for want in [
        "error[DZ1104/to-axiom-bad-name]: `King` names both a position and a piece",
        "warning[DZ1105/to-axiom-name-hides-word]: position `1` hides the number 1",
        "warning[DZ1105/to-axiom-name-hides-word]: direction `back` hides the word `back`",
        "warning[DZ1105/to-axiom-name-hides-word]: piece `Piece` hides the word `piece`",
        "warning[DZ1106/to-axiom-file-name]: the title `Clash/Test` is not a plain file name: its file is written as `Clash_Test.4th`",
        "names the same file as an earlier game or variant: written as `Clash_Test-2.4th`",
    ] {
        assert!(got.contains(want), "{want}\n{got}");
    }
    let names: Vec<&str> = c.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["Clash_Test.4th", "Clash_Test-2.4th"]);
    let base = &c.files[0].text;
    // With numbers hidden, no literal follows the board.
    assert!(
        base.contains("\t$rows @ FALSE {direction}\tn\t\\ no link\n"),
        "{base}"
    );
    for line in [
        "\tB\t{asymmetry}\tup\tback\n",
        "\tB\t{asymmetry}\tside\tup\n",
    ] {
        assert!(base.contains(line), "{base}");
    }
    assert!(c.files[1].text.contains("LOAD Clash_Test.4th"));
    // The clash does not stop these declarations from loading: no setup names `King`.
    assert_eq!(round_trip(&loaded, &c, "clash"), [Outcome::Loaded; 2]);
    // A variant written before its game's form follows it too.
    let loaded = load_text(
        "early.zrf",
        r#"(variant (title "Early")) (game (title "Base") (players A) (board (positions (p 0 0 1 1))) (piece (name X)))"#,
        Limits::default(),
    );
    let c = to_axiom(&loaded);
    assert_eq!(round_trip(&loaded, &c, "early"), [Outcome::Loaded; 2]);
}

/// What became of one game or variant in a round trip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    /// Its file loads, with the model's positions, links, players, pieces, turn order,
    /// symmetries and setup.
    Loaded,
    /// It does not compile to a model: the first error's code.
    NoModel(&'static str),
    /// Its file does not load, as a `to-axiom-bad-name` error said.
    NotLoadable,
}

fn var(vm: &Vm, name: &str) -> i32 {
    let nfa = vm
        .find_exact(name.as_bytes())
        .unwrap_or_else(|| panic!("no `{name}`"));
    vm.cell(nfa + 16).unwrap()
}

fn cells(vm: &Vm, at: u32, n: u32) -> Vec<i32> {
    (0..n).map(|i| vm.cell(at + 4 * i).unwrap()).collect()
}

fn name_of_cfa(vm: &Vm, cfa: i32) -> String {
    vm.name_of(cfa as u32 - 12)
}

/// Checks that `p` declares what `m` compiles to; the first difference is the error.
fn compare(p: &Program, m: &Model) -> Result<(), String> {
    let vm = &p.vm;
    let check = |what: &str, ok: bool| if ok { Ok(()) } else { Err(what.to_owned()) };
    check("positions", p.info.positions == m.positions)?;
    let players: Vec<&str> = m.players.iter().map(|p| p.name.as_str()).collect();
    check("players", p.info.players == players)?;
    let pieces: Vec<&str> = m.piece_types.iter().map(|t| t.name.as_str()).collect();
    check("pieces", p.info.pieces == pieces)?;
    // Directions: names in order and link tables.
    let n = m.num_positions() as u32;
    let count = var(vm, "$directionCount") as u32;
    check("direction count", count as usize == m.num_directions())?;
    let dirs = if count == 0 {
        vec![]
    } else {
        cells(vm, var(vm, "$directions") as u32, count)
    };
    for (d, &cfa) in dirs.iter().enumerate() {
        check("direction name", name_of_cfa(vm, cfa) == m.directions[d])?;
        let want: Vec<i32> = m
            .position_ids()
            .map(|q| {
                m.link(q, d as u32)
                    .to_option()
                    .map_or(-1, |t| t.get() as i32)
            })
            .collect();
        let got = cells(vm, cfa as u32 + 4, n);
        if got != want {
            return Err(format!("links of `{}`", m.directions[d]));
        }
    }
    // Symmetries: each player's meaning of each direction.
    let sym_code = var(vm, "$symCode");
    for (d, dname) in m.directions.iter().enumerate() {
        let nfa = vm.find_exact(dname.as_bytes()).ok_or("a direction word")?;
        let dispatcher = vm.cell(nfa + 12).unwrap() == sym_code;
        for (k, sym) in m.symmetry.iter().enumerate() {
            let means = if dispatcher {
                let cfa = vm.cell(nfa + 16 + 4 + 4 * k as u32).unwrap();
                dirs.iter()
                    .position(|&c| c == cfa)
                    .ok_or("a raw direction")?
            } else {
                d
            };
            if means != sym[d] as usize {
                return Err(format!("symmetry of `{dname}` for player {k}"));
            }
        }
    }
    // Turn order: players, for-players, whether a move type is set, where it repeats.
    let turns = var(vm, "$turnOrder") as u32;
    let limit = var(vm, "$turnLimit") as u32;
    check("turn count", limit as usize == 12 * m.turns.len())?;
    for (i, t) in m.turns.iter().enumerate() {
        let c = cells(vm, turns + 12 * i as u32, 3);
        check(
            "turn player",
            name_of_cfa(vm, c[0]) == players[t.player.index()],
        )?;
        check(
            "turn for-player",
            name_of_cfa(vm, c[1]) == players[t.pieces_of.index()],
        )?;
        check("turn type", (c[2] != 0) == t.move_type.is_some())?;
    }
    check(
        "repeat",
        var(vm, "$repeatOffset") as usize == 12 * m.repeat_from,
    )?;
    // Setup, by names.
    let setup = var(vm, "$boardSetup") as u32;
    let got: Vec<String> = if setup == 0 {
        vec![]
    } else {
        let k = vm.cell(setup).unwrap() as u32;
        cells(vm, setup + 4, 3 * k)
            .into_iter()
            .map(|a| vm.cstring(a as u32))
            .collect()
    };
    let want: Vec<String> = m
        .setup
        .iter()
        .flat_map(|&(pos, pc)| {
            [
                players[piece::owner(pc).index()].to_owned(),
                pieces[piece::ty(pc).index()].to_owned(),
                m.positions[pos.index()].clone(),
            ]
        })
        .collect();
    check("setup", got == want)?;
    // Random players play at random.
    for (k, e) in p.engines().iter().enumerate() {
        if m.players[k].random {
            check("random engine", e == "random")?;
        }
    }
    check(
        "pass turn forced",
        (var(vm, "$passTurnForced") != 0)
            == (m.options.pass_turn == crate::model::PassTurn::Forced),
    )
}

/// Writes the conversion's files to a fresh folder and loads each one: it must load and
/// declare its model, or carry an error that says why it cannot.
fn round_trip(loaded: &Loaded, c: &Conversion, what: &str) -> Vec<Outcome> {
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("dagaz-to-axiom-{}-{k}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in &c.files {
        std::fs::write(dir.join(&f.name), &f.text).unwrap();
    }
    let not_loadable = c
        .diagnostics
        .iter()
        .any(|d| d.code == codes::AXIOM_BAD_NAME && d.severity == Severity::Error);
    let mut out = Vec::new();
    for (gi, g) in loaded.games.iter().enumerate() {
        let Some(f) = c.files.iter().find(|f| f.game == gi) else {
            let err = Model::compile_zrf_part(g).expect_err("a game without a file has errors");
            let first = err.iter().find(|d| d.is_error()).expect("an error");
            assert!(
                c.diagnostics.iter().any(|d| d.code == first.code
                    && d.span == first.span
                    && d.message == first.message
                    && d.notes.iter().any(|n| n.starts_with("no .4th file"))),
                "{what} [{}]: the model's error is reported",
                g.title
            );
            out.push(Outcome::NoModel(first.code.name));
            continue;
        };
        let m = Model::compile_zrf_part(g).unwrap();
        let result = Program::load(&dir.join(&f.name), None)
            .map_err(|e| e.to_string())
            .and_then(|p| {
                assert!(p.runtime.1.is_none(), "runs on dagaz's layer");
                compare(&p, &m)
            });
        match result {
            Ok(()) => out.push(Outcome::Loaded),
            Err(_) if not_loadable => out.push(Outcome::NotLoadable),
            Err(e) => panic!(
                "{what} [{}]: `{}` does not declare the model: {e}\n{}",
                g.title, f.name, f.text
            ),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn bundled_games_round_trip() {
    let mut seen = 0;
    for b in crate::games::all() {
        let loaded = load_text(&format!("{}.zrf", b.name), b.text, Limits::default());
        let c = to_axiom(&loaded);
        let outcomes = round_trip(&loaded, &c, b.name);
        assert!(
            outcomes.iter().all(|o| *o == Outcome::Loaded),
            "{}: {outcomes:?}",
            b.name
        );
        seen += outcomes.len();
    }
    assert!(seen >= 10, "{seen} games and variants");
}

#[test]
fn the_dice_race_fixture_round_trips() {
    // An Axiom game's ZRF: `(engine "axiom.dll")`, no moves.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/axiom/race");
    let loaded = load_path(&dir.join("race.zrf"), "race.zrf", Limits::default()).unwrap();
    let c = to_axiom(&loaded);
    assert_eq!(round_trip(&loaded, &c, "race"), [Outcome::Loaded; 3]);
    assert!(
        c.files[0].text.contains("\t1 4 {grid}\n"),
        "{}",
        c.files[0].text
    );
    assert_eq!(
        c.files[1]
            .text
            .lines()
            .filter(|l| !l.starts_with('\\'))
            .collect::<Vec<_>>(),
        [
            "",
            "LOAD Race.4th",
            "",
            "{players",
            "\t{player}\tWhite",
            "\t{player}\tBlack",
            "\t{player}\t?Dice\t{random}",
            "players}",
        ]
    );
}

/// Writes the converted bundled Ur with the hand-written move words of
/// `tests/fixtures/convert/Ur-moves.4th` (the workflow of docs/cli.md): `Ur.4th` `LOAD`s them
/// before its `{pieces` block, whose lines name the blocks. Returns the folder.
fn finished_ur(tag: &str) -> PathBuf {
    let b = crate::games::find("ur").expect("the bundled Ur");
    let loaded = load_text("ur.zrf", b.text, Limits::default());
    let c = to_axiom(&loaded);
    let dir = std::env::temp_dir().join(format!("dagaz-to-axiom-ur-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in &c.files {
        let mut text = f.text.clone();
        if f.name == "Ur.4th" {
            text = text.replace("{pieces\n", "LOAD Ur-moves.4th\n\n{pieces\n");
            let piece_line = |text: &str, piece: &str, blocks: &str| -> String {
                let start = text
                    .find(&format!("\t{{piece}}\t{piece}\t\\"))
                    .expect(piece);
                let end = start + text[start..].find('\n').unwrap();
                format!(
                    "{}\t{{piece}}\t{piece}\t{blocks}{}",
                    &text[..start],
                    &text[end..]
                )
            };
            text = piece_line(&text, "Man", "{moves} man-moves {drops} man-drops");
            text = piece_line(&text, "Die", "{moves} die-moves");
        }
        std::fs::write(dir.join(&f.name), text).unwrap();
    }
    std::fs::copy(fixture_dir().join("Ur-moves.4th"), dir.join("Ur-moves.4th")).unwrap();
    dir
}

/// Plays `games` games of `a` against `b` with their own engines; the winners by seat, and
/// the plies.
fn play_out(a: &Program, b: &Program, games: u64, depth: Option<u32>) -> ([u32; 2], usize) {
    use crate::ai::game::Game;
    let mut wins = [0u32; 2];
    let mut plies = 0;
    for g in 0..games {
        let mut rng = crate::rng::Rng::new(g);
        let mut game = crate::axiom::AxiomGame::new(a, b, 7 + g).expect("set-up");
        if let Some(d) = depth {
            game.set_search_depth(d);
        }
        let seats = game.seats();
        let mut moves = Default::default();
        loop {
            game.legal_moves(&mut moves);
            assert_eq!(game.take_error(), None);
            if let Some(o) = game.outcome(&moves) {
                let w = o.winner().expect("Ur has no draw");
                wins[seats.iter().position(|&s| s == w).unwrap()] += 1;
                break;
            }
            let n = crate::axiom::AxiomGame::num_moves(&moves);
            let mover = game.current_player();
            let i = if game.is_random(mover) || n == 1 {
                rng.below(n)
            } else {
                let slot = seats.iter().position(|&s| s == mover).unwrap();
                game.program_move(slot, &moves, &mut rng).unwrap()
            };
            game.play(&moves, i);
            plies += 1;
            assert!(plies < 100_000, "game {g} does not end");
        }
    }
    (wins, plies)
}

/// The workflow end to end: the converted bundled Ur, with its move words written by hand,
/// loads in every variant file and plays whole games; its moves are those of the ZRF game.
#[test]
fn converted_ur_plays_with_hand_written_move_words() {
    let dir = finished_ur("play");
    let load = |n: &str| Program::load(&dir.join(n), None).unwrap_or_else(|e| panic!("{n}: {e}"));
    let random = load("Ur-[random].4th");
    assert_eq!(random.engines(), ["random", "random", "random"]);
    let expectimax = load("Ur-[expectimax].4th");
    assert_eq!(expectimax.engines(), ["negamax", "negamax", "random"]);
    let (wins, plies) = play_out(&random, &random, 4, None);
    assert_eq!(wins[0] + wins[1], 4);
    assert!(plies > 4 * 100, "{plies} plies");
    // The default search plays too (one ply deep, to stay quick).
    let (wins, _) = play_out(&expectimax, &random, 1, Some(1));
    assert_eq!(wins[0] + wins[1], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The hand-finished Ur makes the ZRF game's moves: random games played on both in
/// lockstep, the same move chosen by its notation, compare the move lists at every ply and
/// the results.
#[test]
fn converted_ur_moves_are_the_zrf_games() {
    use crate::ai::game::Game;
    use crate::axiom::AxiomGame;
    let dir = finished_ur("lockstep");
    let program = Program::load(&dir.join("Ur-[random].4th"), None).unwrap();
    let b = crate::games::find("ur").unwrap();
    let loaded = load_text("ur.zrf", b.text, Limits::default());
    let mut engine = crate::Engine::new(Model::compile(&loaded.games[0]).unwrap());
    let mut plies = 0;
    for g in 0..3u64 {
        let mut rng = crate::rng::Rng::new(g);
        let mut game = AxiomGame::new(&program, &program, g).unwrap();
        let mut s = engine.initial_state();
        let mut list = crate::MoveList::new();
        let mut moves = Default::default();
        loop {
            engine.legal_moves(&s, &mut list);
            game.legal_moves(&mut moves);
            assert_eq!(game.take_error(), None);
            if let Some(o) = engine.outcome(&s) {
                // Axiom asks only the players whether the game is over: a ?Dice turn may
                // come first.
                let mut axiom = game.outcome(&moves);
                while axiom.is_none() && game.is_random(game.current_player()) {
                    let n = AxiomGame::num_moves(&moves);
                    game.play(&moves, rng.below(n));
                    game.legal_moves(&mut moves);
                    axiom = game.outcome(&moves);
                }
                let winner = o
                    .results
                    .iter()
                    .position(|r| *r == crate::PlayerResult::Win);
                assert_eq!(axiom.map(|a| a.winner()), Some(winner), "game {g}");
                break;
            }
            assert!(game.outcome(&moves).is_none(), "game {g}, ply {plies}");
            let mut zrf: Vec<String> = list.as_slice().iter().map(|m| engine.notation(m)).collect();
            let axiom: Vec<String> = (0..AxiomGame::num_moves(&moves))
                .map(|i| game.notation(&moves, i))
                .collect();
            let i = rng.below(zrf.len());
            let chosen = zrf[i].clone();
            let j = axiom.iter().position(|t| *t == chosen);
            zrf.sort();
            let mut sorted = axiom.clone();
            sorted.sort();
            assert_eq!(zrf, sorted, "game {g}, ply {plies}");
            engine.make(&mut s, &list.as_slice()[i]);
            game.play(&moves, j.unwrap());
            plies += 1;
        }
    }
    assert!(plies > 300, "{plies} plies");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `.zrf` files of the shared corpus, sorted.
fn corpus() -> Vec<PathBuf> {
    crate::test_corpus::files()
}

/// Round trips of the corpus files whose index `pick` accepts; the outcomes counted, and
/// the converter's findings by code.
fn corpus_round_trips(
    pick: impl Fn(usize) -> bool,
) -> (BTreeMap<Outcome, usize>, BTreeMap<&'static str, usize>) {
    let mut counts = BTreeMap::new();
    let mut codes = BTreeMap::new();
    for (k, path) in corpus().iter().enumerate().filter(|(k, _)| pick(*k)) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(loaded) = load_path(path, &name, Limits::default()) else {
            continue;
        };
        if loaded.has_errors() {
            continue;
        }
        let c = to_axiom(&loaded);
        for d in &c.diagnostics {
            if std::env::var("DZDUMP").as_deref() == Ok(d.code.id) {
                eprintln!("{}: {}", path.display(), d.message);
            }
            *codes.entry(d.code.name).or_insert(0) += 1;
        }
        for o in round_trip(&loaded, &c, &format!("{k}: {}", path.display())) {
            *counts.entry(o).or_insert(0) += 1;
        }
    }
    (counts, codes)
}

/// Every third file of the corpus (the whole corpus: the ignored test below).
#[test]
fn corpus_sample_round_trips() {
    let (counts, _) = corpus_round_trips(|k| k % 3 == 0);
    let loaded = counts.get(&Outcome::Loaded).copied().unwrap_or(0);
    assert!(loaded >= 200, "{counts:?}");
}

/// `cargo test --lib convert::axiom -- --ignored --nocapture`: every corpus file.
#[test]
#[ignore = "the whole corpus: a few seconds more"]
fn corpus_round_trips_all() {
    let (counts, codes) = corpus_round_trips(|_| true);
    eprintln!("{counts:?}\n{codes:?}");
    assert!(counts.get(&Outcome::Loaded).copied().unwrap_or(0) >= 300);
}

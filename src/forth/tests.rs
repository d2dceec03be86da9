//! Tests of the Forth VM: every kernel word with its expected stack, memory or output, the
//! prelude's control structures, and contained failures.

use super::*;

fn vm() -> Vm {
    Vm::with_prelude(Limits::default()).expect("prelude loads")
}

/// Runs `src` on a fresh VM and returns the data stack.
fn stack(src: &str) -> Vec<i32> {
    let mut vm = vm();
    vm.interpret_str("test.4th", src, &mut NoHost)
        .unwrap_or_else(|e| panic!("{src}: {e}"));
    vm.stack().to_vec()
}

/// Runs `src` and returns what it printed.
fn output(src: &str) -> String {
    let mut vm = vm();
    vm.interpret_str("test.4th", src, &mut NoHost)
        .unwrap_or_else(|e| panic!("{src}: {e}"));
    String::from_utf8(vm.output.clone()).unwrap()
}

/// Runs `src` and returns the error.
fn error(src: &str) -> ForthError {
    let mut vm = vm();
    vm.interpret_str("test.4th", src, &mut NoHost)
        .expect_err("must fail")
}

fn f(x: f32) -> i32 {
    x.to_bits() as i32
}

#[test]
fn stack_words() {
    assert_eq!(stack("1 2 DUP"), [1, 2, 2]);
    assert_eq!(stack("1 2 DROP"), [1]);
    assert_eq!(stack("1 2 SWAP"), [2, 1]);
    assert_eq!(stack("1 2 OVER"), [1, 2, 1]);
    assert_eq!(stack("1 2 3 ROT"), [2, 3, 1]);
    assert_eq!(stack("1 2 3 -ROT"), [3, 1, 2]);
    assert_eq!(stack("1 2 NIP"), [2]);
    assert_eq!(stack("1 2 TUCK"), [2, 1, 2]);
    assert_eq!(stack("0 ?DUP 5 ?DUP"), [0, 5, 5]);
    assert_eq!(stack("1 2 2DUP"), [1, 2, 1, 2]);
    assert_eq!(stack("1 2 3 2DROP"), [1]);
    assert_eq!(stack("1 2 3 4 2SWAP"), [3, 4, 1, 2]);
    assert_eq!(stack("1 2 3 4 2OVER"), [1, 2, 3, 4, 1, 2]);
    assert_eq!(stack("10 20 30 0 PICK 2 PICK"), [10, 20, 30, 30, 20]);
    assert_eq!(stack("10 20 30 2 ROLL"), [20, 30, 10]);
    assert_eq!(stack("7 7 DEPTH"), [7, 7, 2]);
}

/// `Vm::stack_is`, which the caches ask of the stack under their words.
#[test]
fn stack_is_compares_the_bottom_cells() {
    let mut vm = vm();
    assert!(vm.stack_is(0, &[]));
    // (An empty stack is not the stack some cells were kept of.)
    assert!(!vm.stack_is(0, &[4]));
    vm.interpret_str("test.4th", "4 5 6", &mut NoHost).unwrap();
    assert!(vm.stack_is(0, &[]));
    assert!(vm.stack_is(2, &[4, 5]));
    assert!(vm.stack_is(3, &[4, 5, 6]));
    assert!(!vm.stack_is(2, &[4, 6]));
    assert!(!vm.stack_is(2, &[4]));
    assert!(!vm.stack_is(1, &[]));
    assert!(!vm.stack_is(4, &[4, 5, 6, 0]));
}

#[test]
fn return_stack_words() {
    assert_eq!(stack(": t 5 >R R R@ R> ; t"), [5, 5, 5]);
    assert_eq!(
        stack(": t 3 0 DO 2 0 DO J I LOOP LOOP ; t"),
        [0, 0, 0, 1, 1, 0, 1, 1, 2, 0, 2, 1]
    );
    // EXIT as Axiom's CORE defines it: drops its own return address.
    assert_eq!(stack(": t 1 EXIT 2 ; t 3"), [1, 3]);
}

#[test]
fn arithmetic() {
    assert_eq!(stack("7 3 + 7 3 - 7 3 *"), [10, 4, 21]);
    assert_eq!(stack("-7 2 / -7 2 MOD -7 2 /MOD"), [-3, -1, -1, -3]);
    assert_eq!(stack("1000 3 4 */"), [750]);
    assert_eq!(
        stack("5 1+ 5 1- 5 2+ 5 2- 5 2* -5 2/"),
        [6, 4, 7, 3, 10, -3]
    );
    assert_eq!(stack("5 NEGATE -5 ABS 3 9 MIN 3 9 MAX"), [-5, 5, 3, 9]);
    assert_eq!(
        stack("12 10 AND 12 10 OR 12 10 XOR 0 INVERT"),
        [8, 14, 6, -1]
    );
    assert_eq!(stack("1 4 LSHIFT -1 28 RSHIFT 1 40 LSHIFT"), [16, 15, 0]);
    assert_eq!(stack("2147483647 1 +"), [i32::MIN]);
}

#[test]
fn comparisons_give_forth_flags() {
    assert_eq!(stack("1 1 = 1 2 = 1 2 <>"), [-1, 0, -1]);
    assert_eq!(stack("1 2 < 2 1 > 2 2 <= 1 2 >="), [-1, -1, -1, 0]);
    assert_eq!(stack("0 0= 5 0= 5 0<> -1 0< 1 0>"), [-1, 0, -1, -1, -1]);
    assert_eq!(stack("-1 1 U< TRUE FALSE 0 NOT 7 NOT"), [0, -1, 0, -1, 0]);
}

#[test]
fn memory_words() {
    assert_eq!(stack("VARIABLE v 42 v ! v @"), [42]);
    assert_eq!(stack("VARIABLE v 5 v ! 3 v +! v ++ v ++ v -- v @"), [9]);
    assert_eq!(stack("HERE 65 C, C@"), [65]);
    assert_eq!(stack("HERE 7 , @ HERE 0 , HERE SWAP -"), [7, 4]);
    assert_eq!(
        stack("HERE 16 ALLOT DUP 8 7 FILL DUP 7 + C@ SWAP 8 + C@"),
        [7, 0]
    );
    assert_eq!(
        stack("HERE 8 ALLOT DUP 1 SWAP C! DUP DUP 1+ 7 CMOVE 7 + C@"),
        [1]
    );
    assert_eq!(stack("PAD 0<> STATE @ BASE @"), [-1, 0, 10]);
    assert_eq!(stack("DP @ HERE = CURRENT @ CONTEXT @ ="), [-1, -1]);
}

#[test]
fn control_structures() {
    assert_eq!(stack(": t IF 1 ELSE 2 ENDIF ; 0 t 5 t"), [2, 1]);
    assert_eq!(stack(": t IF 1 THEN ; 0 t 5 t"), [1]);
    assert_eq!(stack(": t BEGIN 1- DUP 0= UNTIL ; 3 t"), [0]);
    assert_eq!(
        stack(": t BEGIN DUP WHILE DUP 1- REPEAT ; 3 t"),
        [3, 2, 1, 0]
    );
    assert_eq!(stack(": t 0 10 0 DO I + 2 +LOOP ; t"), [20]);
    assert_eq!(stack(": t 0 0 10 DO I + -3 +LOOP ; t"), [10 + 7 + 4 + 1]);
    assert_eq!(
        stack(": t 10 0 DO I I 3 = IF LEAVE THEN LOOP ; t"),
        [0, 1, 2, 3]
    );
    assert_eq!(stack(": t DUP 1 > IF DUP 1- RECURSE * THEN ; 5 t"), [120]);
}

#[test]
fn defining_words() {
    assert_eq!(stack("12 CONSTANT dozen dozen dozen +"), [24]);
    assert_eq!(
        stack(": pair <BUILDS , , DOES> DUP @ SWAP CELLSIZE + @ ; 1 2 pair p p"),
        [2, 1]
    );
    assert_eq!(stack("CREATE t 3 , 4 , t @ t CELL+ @"), [3, 4]);
    assert_eq!(stack("DEFER d : one 1 ; ' one IS d d"), [1]);
    assert_eq!(stack(": two 2 ; DEFER d : set ['] two IS d ; set d"), [2]);
    assert_eq!(stack(": t [ 2 3 * ] LITERAL ; t"), [6]);
    // HEADER names a word by a string address, as axiom.4th does for position names.
    assert_eq!(
        stack(": mk BL WORD PAD HEADER , DOES> @ ; 66 mk foo foo"),
        [66]
    );
    // A word is hidden until its definition ends: the old meaning is used inside.
    assert_eq!(stack(": x 1 ; : x x 10 + ; x"), [11]);
    // Lookup ignores case.
    assert_eq!(stack(": Foo 9 ; foo FOO"), [9, 9]);
    // `-FIND` finds a word spelled exactly so (a program asks it whether a name is
    // defined yet: Splut's `{move-type} continue-type` beside its `CONTINUE-TYPE`).
    assert_eq!(stack(": Foo 9 ; -FIND foo -FIND Foo 0<>"), [0, -1]);
    assert_eq!(stack("' DUP CFA>PFA ' DUP - "), [4]);
    assert_eq!(stack(": t ; LATEST NFA>CFA ' t ="), [-1]);
}

#[test]
fn immediate_and_compile() {
    assert_eq!(
        stack(": lit5 5 COMPILE-LITERAL ; IMMEDIATE : t lit5 ; t"),
        [5]
    );
    assert_eq!(stack(": t [COMPILE] ( 7 ; t"), [7]);
    assert_eq!(stack(": t ASCII A ; t ASCII b"), [65, 98]);
}

#[test]
fn strings_and_output() {
    assert_eq!(output(": t .\" hello\" CR ; t"), "hello\n");
    assert_eq!(output(".\" now\""), "now");
    assert_eq!(output("-12 . 255 HEX . DECIMAL"), "-12 FF ");
    assert_eq!(output("-1 U."), "4294967295 ");
    assert_eq!(output(": t S\" abc\" TYPE ; t 72 EMIT SPACE"), "abcH ");
    assert_eq!(stack(": t S\" abcd\" \"COUNT ; t"), [4]);
    assert_eq!(
        output("S\" x\" : t S\" word\" PAD \"MOVE PAD TYPE ; t"),
        "word"
    );
    assert_eq!(output(": t (NUMBER) PAD TYPE ; -345 t"), "-345");
    assert_eq!(output("1.5 F."), "1.5 ");
    // Comments.
    assert_eq!(stack("1 ( 2 ) 3 \\ 4\n5"), [1, 3, 5]);
}

#[test]
fn numbers() {
    assert_eq!(stack("HEX FF 03FF DECIMAL 10"), [255, 1023, 10]);
    assert_eq!(stack("-2140000000"), [-2140000000]);
    assert_eq!(stack("0. 1.5"), [f(0.0), f(1.5)]);
    assert_eq!(super::interp::parse_number(b"-", 10), None);
    assert_eq!(super::interp::parse_number(b"12x", 10), None);
    assert_eq!(super::interp::parse_number(b"FFFFFFFF", 16), Some(-1));
}

#[test]
fn floats() {
    assert_eq!(stack("1.5 2.25 F+"), [f(3.75)]);
    assert_eq!(
        stack("1.5 2. F- 3. 2. F* 3. 2. F/"),
        [f(-0.5), f(6.0), f(1.5)]
    );
    assert_eq!(
        stack("1. 2. F< 1. 2. F> 2. 2. F= -1. F0< 0. F0="),
        [-1, 0, -1, -1, -1]
    );
    assert_eq!(stack("7 S>F F>S 2.7 F>S"), [7, 2]);
    assert_eq!(stack("1. 2. FSWAP FDROP FDUP 3. FOVER F2DUP"), {
        let (a, b) = (f(2.0), f(3.0));
        vec![a, a, b, a, b, a]
    });
    assert_eq!(stack("2.5 FNEGATE FABS"), [f(2.5)]);
}

#[test]
fn errors_are_contained_and_placed() {
    let e = error("1 2 +\n  nosuchword");
    assert_eq!(e.kind, ForthErrorKind::UndefinedWord("nosuchword".into()));
    let place = e.place.clone().unwrap();
    assert_eq!((place.span.line, place.span.col), (2, 3));
    assert_eq!(e.kind.code().id, "DZ1001");

    let e = error(": inner DROP ;\n: outer inner ;\nouter");
    assert_eq!(e.kind, ForthErrorKind::StackUnderflow);
    assert_eq!(e.word.as_deref(), Some("inner"));
    assert_eq!(e.place.as_ref().unwrap().span.line, 1);

    let e = error("1 0 /");
    assert_eq!(e.kind, ForthErrorKind::DivisionByZero);
    let e = error("-5 @");
    assert!(matches!(e.kind, ForthErrorKind::Memory(_)), "{e}");
    let e = error("123456789 EXECUTE");
    assert!(matches!(e.kind, ForthErrorKind::BadXt(_)), "{e}");
    let e = error(": t R> R> R> ; t");
    assert_eq!(e.kind, ForthErrorKind::ReturnStack);
    let e = error(": t RECURSE ; t");
    assert_eq!(e.kind, ForthErrorKind::ReturnStack);
    let e = error(": t BEGIN 1 AGAIN ; t");
    assert_eq!(e.kind, ForthErrorKind::StackOverflow);
    let e = error("1 ABORT\" bad thing\"");
    assert_eq!(e.kind, ForthErrorKind::Abort("bad thing".into()));
    let e = error(": t 0 ABORT\" fine\" 1 ABORT\" inside\" ; t");
    assert_eq!(e.kind, ForthErrorKind::Abort("inside".into()));
    assert!(e.to_string().contains("DZ1009"), "{e}");
    let e = error(":");
    assert!(matches!(e.kind, ForthErrorKind::Compile(_)), "{e}");
    let e = error("LOAD no-such-file.4th");
    assert!(matches!(e.kind, ForthErrorKind::Load(_)), "{e}");
}

/// Every word that reads the return stack checks that the cells it needs are there, above
/// the running word's floor: used outside its structure, it fails with DZ1004 (never an
/// index out of bounds).
#[test]
fn return_stack_words_outside_their_structure_fail_cleanly() {
    for src in [
        ": x LEAVE ; x",
        "LEAVE",
        "I",
        "J",
        ": x J ; x",
        "R>",
        "R@",
        "R",
        "(LOOP)",
        "1 (+LOOP)",
        ";S",
        ": x R> R> ; x",
        ": x R> DROP LEAVE ; x",
    ] {
        let e = error(src);
        assert_eq!(e.kind, ForthErrorKind::ReturnStack, "{src}: {e}");
        assert_eq!(e.kind.code().id, "DZ1004", "{src}");
    }
    // Inside a loop they work as before.
    assert_eq!(
        stack(": t 5 0 DO I DUP 2 = IF LEAVE THEN LOOP ; t"),
        [0, 1, 2]
    );
    // A head cell pointed at the top of the address range: the header arithmetic wraps
    // (no overflow), as it does in a release build.
    let mut vm = vm();
    vm.interpret_str(
        "t.4th",
        ": t ['] IMMEDIATE -1 36 ! EXECUTE ; t",
        &mut NoHost,
    )
    .unwrap();
}

#[test]
fn step_budget_stops_runaway_loops() {
    let mut vm = vm();
    vm.interpret_str("t.4th", ": spin BEGIN 0 UNTIL ;", &mut NoHost)
        .unwrap();
    vm.set_step_budget(10_000);
    let e = vm
        .interpret_str("t2.4th", "spin", &mut NoHost)
        .expect_err("runaway");
    assert_eq!(e.kind, ForthErrorKind::StepBudget(10_000));
    assert_eq!(e.word.as_deref(), Some("spin"));
}

/// Words that touch many bytes at once count one step more per `BYTES_PER_STEP` bytes,
/// so that a loop of them stops at the step budget as soon as a loop of cheap words does.
#[test]
fn bulk_words_are_charged_by_the_bytes_they_touch() {
    // A string of 65,536 bytes at S, and room for a copy at S + 70,000.
    let setup = "HERE 1024 + CONSTANT S  S 65536 65 FILL  0 S 65536 + C!";
    let per_64k = 65_536 / vm::BYTES_PER_STEP;
    for word in [
        "S 65536 0 FILL",
        "S S 70000 + 65536 CMOVE",
        "S TYPE",
        "S \"COUNT DROP",
        "S S 70000 + \"MOVE",
    ] {
        let mut m = vm();
        m.interpret_str("t.4th", setup, &mut NoHost).unwrap();
        m.set_step_budget(u64::MAX);
        m.interpret_str("t2.4th", word, &mut NoHost)
            .unwrap_or_else(|e| panic!("{word}: {e}"));
        let steps = m.steps();
        assert!(
            (per_64k..per_64k + 20).contains(&steps),
            "{word}: {steps} steps"
        );
    }
    // A loop of them stops at the budget after a few passes.
    let mut m = vm();
    m.interpret_str(
        "t.4th",
        &format!("{setup} : f BEGIN S 65536 0 FILL 0 UNTIL ;"),
        &mut NoHost,
    )
    .unwrap();
    m.set_step_budget(10 * per_64k);
    let e = m
        .interpret_str("t2.4th", "f", &mut NoHost)
        .expect_err("runaway");
    assert_eq!(e.kind.code().id, "DZ1007", "{e}");
    // Short strings cost nothing more than the word's step.
    let mut m = vm();
    m.interpret_str("t.4th", ": t S\" a short name\" \"COUNT ;", &mut NoHost)
        .unwrap();
    m.set_step_budget(u64::MAX);
    m.interpret_str("t2.4th", "t", &mut NoHost).unwrap();
    assert_eq!(m.steps(), 20, "the steps of `t` before words were charged");
}

#[test]
fn dictionary_full_is_an_error() {
    let mut vm = Vm::with_prelude(Limits {
        memory: 64 * 1024,
        ..Limits::default()
    })
    .unwrap();
    let e = vm
        .interpret_str("t.4th", ": t BEGIN 0 , AGAIN ; t", &mut NoHost)
        .expect_err("full");
    assert_eq!(e.kind, ForthErrorKind::DictionaryFull);
}

#[test]
fn load_is_relative_to_the_loading_file() {
    let dir = std::env::temp_dir().join(format!("dagaz-forth-load-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    // `B.4TH` is found as `b.4th` (Windows-made programs spell names in any case).
    std::fs::write(dir.join("sub/a.4th"), "LOAD B.4TH\n: a b 1+ ;").unwrap();
    std::fs::write(dir.join("sub/b.4th"), ": b 41 ;").unwrap();
    std::fs::write(dir.join("loop.4th"), "LOAD loop.4th").unwrap();
    let mut vm = vm();
    vm.root = dir.clone();
    vm.interpret_str("main.4th", "LOAD sub/a.4th a", &mut NoHost)
        .unwrap();
    assert_eq!(vm.stack(), [42]);
    let e = vm
        .interpret_str("main2.4th", "LOAD loop.4th", &mut NoHost)
        .expect_err("endless LOAD");
    assert!(matches!(e.kind, ForthErrorKind::Load(_)), "{e}");
    let e = vm
        .interpret_str("main3.4th", "LOAD sub/none.4th", &mut NoHost)
        .expect_err("no such file");
    assert!(
        e.to_string().contains("LOAD cannot find `sub/none.4th`"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A host with one native word, to test the calling convention.
struct Doubler {
    calls: u32,
}

impl Host for Doubler {
    fn native(&mut self, vm: &mut Vm, id: u32) -> FResult<()> {
        assert_eq!(vm.native_name(id), "double");
        self.calls += 1;
        let v = vm.pop()?;
        vm.push(v * 2)
    }
}

#[test]
fn host_words() {
    let mut vm = vm();
    vm.define_native("double").unwrap();
    let mut host = Doubler { calls: 0 };
    vm.interpret_str(
        "t.4th",
        ": t double 1+ ; 5 t ' double 3 SWAP EXECUTE",
        &mut host,
    )
    .unwrap();
    assert_eq!(vm.stack(), [11, 6]);
    assert_eq!(host.calls, 2);
    let e = vm
        .interpret_str("t2.4th", "1 double", &mut NoHost)
        .expect_err("no host");
    assert!(matches!(e.kind, ForthErrorKind::Host(_)), "{e}");
}

#[test]
fn clones_are_independent() {
    let mut a = vm();
    a.interpret_str("t.4th", "VARIABLE v 1 v !", &mut NoHost)
        .unwrap();
    let mut b = a.clone();
    b.interpret_str("t2.4th", "2 v ! : w 5 ;", &mut NoHost)
        .unwrap();
    a.interpret_str("t3.4th", "v @", &mut NoHost).unwrap();
    assert_eq!(a.stack(), [1]);
    assert!(a.find(b"w").is_none());
    assert!(b.find(b"w").is_some());
}

/// A host whose one native leaves the move word, as Axiom's `$Exit` does.
struct Exiter;

impl Host for Exiter {
    fn native(&mut self, _: &mut Vm, _: u32) -> FResult<()> {
        Err(ForthErrorKind::ExitMove.into())
    }
}

#[test]
fn a_caught_exit_is_not_annotated_and_a_stray_one_is() {
    let mut vm = vm();
    vm.define_native("leave").unwrap();
    vm.interpret_str("t.4th", ": mover 1 leave 2 ;", &mut Exiter)
        .unwrap();
    // Outside a move generator: an error naming the word that ran it.
    let e = vm
        .interpret_str("t2.4th", "mover", &mut Exiter)
        .expect_err("stray exit");
    assert_eq!(e.kind, ForthErrorKind::ExitMove);
    assert_eq!(e.word.as_deref(), Some("mover"));
    // Caught by the caller: left as it is (the generator drops it at once).
    vm.clear_stacks();
    assert!(!vm.set_exit_caught(true));
    let e = vm
        .interpret_str("t3.4th", "mover", &mut Exiter)
        .expect_err("caught exit");
    assert!(vm.set_exit_caught(false));
    assert_eq!(e.kind, ForthErrorKind::ExitMove);
    assert_eq!(e.word, None);
    assert_eq!(vm.stack(), [1]);
}

/// `VAR @` runs in one dispatch but counts the two steps it stands for, and gives what the
/// two words give apart.
#[test]
fn a_variable_fetch_counts_two_steps() {
    let mut vm = vm();
    vm.interpret_str(
        "t.4th",
        "VARIABLE v 7 v ! : fused v @ ; : apart v DUP DROP @ ;",
        &mut NoHost,
    )
    .unwrap();
    let mut steps = |word: &str| {
        vm.set_step_budget(u64::MAX);
        vm.interpret_str("run.4th", word, &mut NoHost).unwrap();
        let n = vm.steps();
        assert_eq!(vm.stack(), [7], "{word}");
        vm.clear_stacks();
        n
    };
    let (fused, apart) = (steps("fused"), steps("apart"));
    assert_eq!(apart - fused, 2);
}

#[test]
fn a_variable_reader_counts_its_four_steps() {
    // `: reader v @ ;` runs in one dispatch; its count must stay docol, `v`, `@` and `;S`.
    let mut vm = vm();
    vm.interpret_str(
        "t.4th",
        "VARIABLE v 7 v ! : reader v @ ; : twice reader reader ; : inline v @ v @ ; \
         : more v @ 1+ ; : twice-more more more ;",
        &mut NoHost,
    )
    .unwrap();
    let mut steps = |word: &str, expect: &[i32]| {
        vm.set_step_budget(u64::MAX);
        vm.interpret_str("run.4th", word, &mut NoHost).unwrap();
        let n = vm.steps();
        assert_eq!(vm.stack(), expect, "{word}");
        vm.clear_stacks();
        n
    };
    let (twice, inline) = (steps("twice", &[7, 7]), steps("inline", &[7, 7]));
    assert_eq!(twice - inline, 4, "two calls: a docol and a `;S` each");
    // A longer body is not the shape: it runs as written, one step more per call.
    assert_eq!(steps("twice-more", &[8, 8]) - twice, 2);
}

#[test]
fn an_error_in_the_runtime_files_names_the_programs_call() {
    let mut vm = vm();
    vm.interpret_str("kit/CORE.4TH", ": boom 1 0 / ;", &mut NoHost)
        .unwrap();
    vm.interpret_str("Game.4th", ": inner boom ;\n: outer  inner ;", &mut NoHost)
        .unwrap();
    let e = vm
        .interpret_str("run.4th", "outer", &mut NoHost)
        .unwrap_err();
    assert_eq!(e.kind, ForthErrorKind::DivisionByZero);
    assert_eq!(
        e.place.as_ref().map(|p| p.file.as_str()),
        Some("kit/CORE.4TH")
    );
    // The innermost call in the program's own files: `boom` in `inner`.
    assert_eq!(
        e.to_string(),
        "kit/CORE.4TH:1:12: error[DZ1006]: division by zero (in `boom`), \
         called from Game.4th:1:9 (in `inner`)"
    );
    // An error in the program's own files needs no such note.
    vm.clear_stacks();
    vm.interpret_str("Game2.4th", ": own 1 0 / ;", &mut NoHost)
        .unwrap();
    let e = vm.interpret_str("run.4th", "own", &mut NoHost).unwrap_err();
    assert!(e.called_from.is_none(), "{e}");
}

/// A host for traced runs: `note` (replayable, one argument) records its argument, `peek`
/// (pure) reads a cell through the noting reader, `poke` (replayable, two arguments)
/// stores a cell, `opaque` does nothing but cannot be replayed.
#[derive(Default)]
struct Tracer {
    noted: Vec<i32>,
}

impl Host for Tracer {
    fn native(&mut self, vm: &mut Vm, id: u32) -> FResult<()> {
        match vm.native_name(id) {
            "note" => self.noted.push(vm.pop()?),
            "peek" => {
                let a = vm.pop()? as u32;
                let v = vm.read_cell(a)?;
                vm.push(v)?;
            }
            "poke" => {
                let a = vm.pop()? as u32;
                let v = vm.pop()?;
                vm.set_cell(a, v)?;
            }
            _ => {}
        }
        Ok(())
    }

    fn native_class(&self, id: u32) -> trace::NativeClass {
        match id {
            0 => trace::NativeClass::Replay(1),
            1 => trace::NativeClass::Pure,
            2 => trace::NativeClass::Replay(2),
            _ => trace::NativeClass::Opaque,
        }
    }
}

/// Defines `src` (after the tracer's host words), then runs `word` traced; returns the
/// VM, the host and the run's result.
fn traced(src: &str, word: &str) -> (Vm, Tracer, FResult<()>) {
    let mut vm = vm();
    for name in ["note", "peek", "poke", "opaque"] {
        vm.define_native(name).unwrap();
    }
    let mut host = Tracer::default();
    vm.interpret_str("t.4th", src, &mut host)
        .unwrap_or_else(|e| panic!("{src}: {e}"));
    let xt = vm.find(word.as_bytes()).unwrap() + 12;
    let area = vm.here() + 64;
    let r = vm.execute_traced(xt, &mut host, area);
    (vm, host, r)
}

fn pfa_of(vm: &Vm, name: &str) -> u32 {
    vm.find(name.as_bytes()).unwrap() + 16
}

#[test]
fn a_traced_run_notes_data_reads_writes_and_replayable_host_words() {
    let (vm, host, r) = traced(
        "VARIABLE a VARIABLE b VARIABLE c 5 a ! 7 c ! \
         : w a @ 1+ b ! b @ note c peek 3 c poke ;",
        "w",
    );
    r.unwrap();
    assert_eq!(host.noted, [6]);
    let t = vm.trace();
    assert_eq!(t.tainted, None);
    let (a, b, c) = (pfa_of(&vm, "a"), pfa_of(&vm, "b"), pfa_of(&vm, "c"));
    // `a` and `c` as they were (the pure host word's read included); `b` holds the run's
    // own value. Code cells are not reads: they are marked as code.
    let reads: Vec<(u32, i32)> = t.reads.iter().map(|r| (r.addr, r.value)).collect();
    assert_eq!(reads, [(a, 5), (c, 7)]);
    assert!(t.steps > 10, "{}", t.steps);
    assert_eq!(
        t.events,
        [
            trace::Event::Write { addr: b, value: 6 },
            trace::Event::Native {
                id: 0,
                args: [6, 0, 0, 0],
                n: 1
            },
            trace::Event::Native {
                id: 2,
                args: [3, c as i32, 0, 0],
                n: 2
            },
        ]
    );
}

#[test]
fn what_a_trace_cannot_replay_taints_it() {
    let defs = "VARIABLE c CREATE buf 8 ALLOT ";
    for (word, why) in [
        (
            ": w 3 c poke c @ DROP ;",
            "a read of memory a host word wrote",
        ),
        (": w 1 buf C! ;", "a write of other than one cell"),
        (
            ": w 65 EMIT ;",
            "a primitive that compiles, reads text or writes output",
        ),
        (": w opaque ;", "a host word that cannot be replayed"),
        (": w DP @ DROP ;", "a read of the dictionary pointer"),
        (": w HERE @ DROP ;", "a read the trace could not note"),
        (
            ": w 1 HERE 100 + ! ;",
            "a write to the memory the run compiles into",
        ),
        (
            ": w 4 c ! c 1+ C@ DROP ;",
            "a read that overlaps a cell the run wrote",
        ),
        (
            ": w 4 buf 4 + ! buf 2 + @ DROP ;",
            "a read that overlaps a cell the run wrote",
        ),
    ] {
        let (vm, _, r) = traced(&format!("{defs}{word}"), "w");
        r.unwrap();
        assert_eq!(vm.trace().tainted, Some(why), "{word}");
    }
    // Untainted: the run's own writes read back, and a pure host word's read.
    let (vm, _, r) = traced(&format!("{defs}: w 4 c ! c @ 1+ c ! c peek DROP ;"), "w");
    r.unwrap();
    assert_eq!(vm.trace().tainted, None);
    assert!(vm.trace().reads.is_empty(), "{:?}", vm.trace().reads);
    // Cells 64 cells away from the ones written (the same bit of the trace's filters)
    // are read and noted as any other.
    let (vm, _, r) = traced(
        "VARIABLE c CREATE far 300 ALLOT 3 c poke \
         : w 5 far ! 2 c poke far 256 + @ DROP c 256 + @ DROP ;",
        "w",
    );
    r.unwrap();
    assert_eq!(vm.trace().tainted, None);
    let (c, far) = (pfa_of(&vm, "c"), pfa_of(&vm, "far"));
    let reads: Vec<u32> = vm.trace().reads.iter().map(|r| r.addr).collect();
    assert_eq!(reads, [far + 256, c + 256]);
}

#[test]
fn writing_code_that_a_traced_run_ran_changes_the_code_epoch() {
    let (mut vm, _, r) = traced("VARIABLE v : k 1 ; : w k v ! ;", "w");
    r.unwrap();
    let e = vm.code_epoch();
    // Data writes leave it.
    let v = pfa_of(&vm, "v");
    vm.set_cell(v, 9).unwrap();
    assert_eq!(vm.code_epoch(), e);
    // `k`'s literal is code the run read.
    let lit = pfa_of(&vm, "k") + 4;
    assert_eq!(vm.cell(lit).unwrap(), 1);
    vm.set_cell(lit, 2).unwrap();
    assert_ne!(vm.code_epoch(), e);
}

/// Names the dictionary tests look up, in several spellings.
const LOOKED_UP: &[&str] = &[
    "DUP", "dup", "Dup", "foo", "FOO", "Foo", "fOO", "bar", "BAR", "baz", "zoo", "ZOO", "w1",
    "nowhere", "DROP", "drop", "+", "CONSTANT",
];

/// Asserts that, once the dictionary index is built, every lookup answers as the walk
/// does, exact and folded.
fn assert_index_agrees(vm: &mut Vm, when: &str) {
    for _ in 0..=dict::WALKS_BEFORE_REBUILD {
        vm.sync_dict_index();
    }
    assert!(vm.dict_index_answers(), "{when}: the index is built");
    let voc = vm.cell(vm::A_CONTEXT).unwrap() as u32;
    for name in LOOKED_UP {
        let n = name.as_bytes();
        assert_eq!(
            vm.find(n),
            vm.walk_dictionary(voc, n, true),
            "{when}: find {name}"
        );
        assert_eq!(
            vm.find_exact(n),
            vm.walk_dictionary(voc, n, false),
            "{when}: find_exact {name}"
        );
    }
}

#[test]
fn the_dictionary_index_finds_what_the_walk_finds() {
    let mut vm = vm();
    let run = |vm: &mut Vm, src: &str| {
        vm.interpret_str("t.4th", src, &mut NoHost)
            .unwrap_or_else(|e| panic!("{src}: {e}"))
    };
    assert_index_agrees(&mut vm, "the prelude");
    // Case: an exact spelling wins over a later folded one; the latest folded one wins.
    run(
        &mut vm,
        ": foo 1 ; : FOO 2 ; : Foo 3 ; : dup 4 ; VARIABLE w1",
    );
    assert_index_agrees(&mut vm, "new words (added to the index)");
    assert_eq!(vm.find(b"fOO"), vm.find(b"Foo"), "the latest folded match");
    assert_ne!(vm.find(b"FOO"), vm.find(b"Foo"));
    let foo = vm.find(b"Foo").unwrap();
    let upper = vm.find(b"FOO").unwrap();
    // A hidden word is skipped (its flags are read at each lookup, not watched).
    let flags = vm.cell(foo + 4).unwrap();
    vm.set_cell(foo + 4, flags | vm::FLAG_HIDDEN).unwrap();
    assert!(vm.dict_index_answers(), "flags are not watched");
    assert_index_agrees(&mut vm, "a hidden word");
    vm.set_cell(foo + 4, flags).unwrap();
    // Renaming a word in memory (its name's bytes) makes the index stale.
    let name_at = vm.cell(upper).unwrap() as u32;
    vm.set_byte(name_at, b'Z').unwrap();
    assert!(!vm.dict_index_answers(), "a name's bytes are watched");
    assert_index_agrees(&mut vm, "a renamed word");
    assert_eq!(vm.find(b"ZOO"), Some(upper));
    // Splicing a word out of the chain through a link.
    let latest = vm.latest();
    let link = vm.cell(foo + 8).unwrap();
    vm.set_cell(foo + 8, vm.cell(link as u32 + 8).unwrap())
        .unwrap();
    assert!(!vm.dict_index_answers(), "links are watched");
    assert_index_agrees(&mut vm, "a spliced chain");
    // Forgetting: the head cell moved back.
    vm.set_cell(vm::A_VOCABULARY, foo as i32).unwrap();
    assert_index_agrees(&mut vm, "a forgotten tail");
    assert_ne!(vm.find(b"w1"), Some(latest));
    // Another vocabulary: CONTEXT names a cell holding a chain of its own.
    run(&mut vm, ": bar 5 ; VARIABLE voc2");
    let voc2 = vm.find(b"voc2").unwrap() + 16;
    let bar = vm.find(b"bar").unwrap();
    vm.set_cell(voc2, bar as i32).unwrap();
    vm.set_cell(vm::A_CONTEXT, voc2 as i32).unwrap();
    assert!(!vm.dict_index_answers(), "CONTEXT is watched");
    assert_index_agrees(&mut vm, "another vocabulary");
    // A chain the walk stops on is walked, not indexed.
    vm.set_cell(bar + 8, -64).unwrap();
    for _ in 0..=dict::WALKS_BEFORE_REBUILD {
        vm.sync_dict_index();
    }
    assert!(!vm.dict_index_answers(), "a bad link is not indexed");
    assert_eq!(vm.find(b"bar"), Some(bar));
    assert_eq!(vm.find(b"DUP"), None, "the walk stops on the bad link");
    // A cycle is walked up to the guard, as before.
    vm.set_cell(bar + 8, bar as i32).unwrap();
    assert_eq!(vm.find(b"DUP"), None);
}

/// A header linked to itself (`36 @ 36 @ 8 + !`) makes the chain of words loop: the next
/// lookup that walks it fails with DZ1015 after a few headers, where each walked a million
/// (and the word was then reported undefined).
#[test]
fn a_dictionary_chain_that_loops_is_an_error() {
    for src in [
        ": a ; 36 @ 36 @ 8 + ! DUP",
        ": a ; : b ; : c ; 36 @  36 @ 8 + @ 8 + @ 8 + ! nosuchword",
        ": t -FIND ; : a ; 36 @ 36 @ 8 + ! t DUP",
    ] {
        let mut m = vm();
        m.set_step_budget(1_000_000);
        let e = m.interpret_str("t.4th", src, &mut NoHost).expect_err(src);
        assert_eq!(e.kind.code().id, "DZ1015", "{src}: {e}");
        assert!(e.to_string().contains("loops back"), "{e}");
        // The host's own lookups and the error's annotation end too.
        assert_eq!(m.find(b"nosuchword"), None);
        assert!(m.words().len() < 10);
        assert_eq!(m.word_containing(vm::DICT_START), None);
    }
    // The word the walk meets before the loop is still found.
    let mut m = vm();
    m.interpret_str("t.4th", ": a 7 ; 36 @ 36 @ 8 + ! a", &mut NoHost)
        .unwrap();
    assert_eq!(m.stack(), [7]);
}

#[test]
fn a_clone_shares_the_index_until_it_defines_a_word() {
    let mut a = vm();
    assert_index_agrees(&mut a, "the original");
    let mut b = a.clone();
    assert!(b.dict_index_answers());
    b.interpret_str("t.4th", ": foo 7 ; : zoo foo ;", &mut NoHost)
        .unwrap();
    assert_index_agrees(&mut b, "the clone");
    assert!(a.find(b"foo").is_none() && b.find(b"foo").is_some());
    assert_index_agrees(&mut a, "the original after the clone defined words");
}

/// The write journal names every watched cell written with another value, and only those:
/// stores of a cell's own value, unwatched cells and unchanged bytes of a wide write are
/// left out; `CMOVE` names what it touches; too many writes overflow into "all".
#[test]
fn the_journal_names_the_watched_cells_written_with_another_value() {
    let mut vm = vm();
    // Three cells side by side.
    let src = "CREATE a 12 ALLOT : b a 4 + ; : c a 8 + ; 5 a ! 6 b ! 0 c !";
    vm.interpret_str("t.4th", src, &mut NoHost).unwrap();
    let a = vm.find(b"a").unwrap() + 16;
    let (b, c) = (a + 4, a + 8);
    let mut out = Vec::new();
    // Nothing watched: nothing noted.
    vm.interpret_str("t.4th", "7 a !", &mut NoHost).unwrap();
    assert!(!vm.any_written());
    vm.watch_data(a, 4);
    vm.watch_data(b, 1);
    // Own values, and an unwatched cell.
    vm.interpret_str("t.4th", "7 a ! 6 b ! 9 c !", &mut NoHost)
        .unwrap();
    assert!(!vm.any_written());
    // Another value, by `!`, `+!` and the host; the byte store names its cell.
    vm.interpret_str("t.4th", "8 a ! 1 b +!", &mut NoHost)
        .unwrap();
    vm.set_cell(a, 0).unwrap();
    vm.set_byte(b + 2, 1).unwrap();
    assert!(vm.any_written());
    assert!(vm.drain_written(&mut out));
    assert_eq!(out, [a / 4, b / 4, a / 4, b / 4]);
    assert!(!vm.any_written());
    // A wide write: only the cells whose bytes change.
    let mut bytes = vm.bytes(a, 12).unwrap().to_vec();
    vm.write_bytes(a, &bytes).unwrap();
    assert!(!vm.any_written());
    bytes[5] ^= 1; // b
    bytes[9] ^= 1; // c, unwatched
    vm.write_bytes(a, &bytes).unwrap();
    out.clear();
    assert!(vm.drain_written(&mut out));
    assert_eq!(out, [b / 4]);
    assert_eq!(vm.cell(c).unwrap(), 9 ^ (1 << 8));
    assert_eq!(vm.cell(b).unwrap(), (7 | 1 << 16) ^ (1 << 8));
    // CMOVE names every watched cell it touches.
    vm.interpret_str("t.4th", &format!("{c} {a} 8 CMOVE"), &mut NoHost)
        .unwrap();
    out.clear();
    assert!(vm.drain_written(&mut out));
    assert_eq!(out, [a / 4, b / 4]);
    // Overflow: everything may have changed.
    vm.interpret_str("t.4th", ": flip 10000 0 DO I a ! LOOP ; flip", &mut NoHost)
        .unwrap();
    out.clear();
    assert!(!vm.drain_written(&mut out));
    assert!(out.is_empty() && !vm.any_written());
    // Unwatched again: nothing noted.
    vm.unwatch_data();
    vm.interpret_str("t.4th", "1 a ! 2 b !", &mut NoHost)
        .unwrap();
    assert!(!vm.any_written());
}

/// The code a traced run marked can be taken over by another VM of the same program: a
/// write to it then changes that VM's code epoch too. A VM whose code differs refuses it.
#[test]
fn another_vm_with_the_same_code_takes_over_its_code_marks() {
    let src = "VARIABLE a 5 a ! : w a @ 1+ a ! ;";
    let (vm, _, r) = traced(src, "w");
    r.unwrap();
    let code = vm.code_cells();
    let body = pfa_of(&vm, "w") - 4;
    assert!(
        code.iter().any(|&(c, _)| c == body / 4),
        "w's body is marked: {code:?}"
    );
    // A fresh VM of the same source has the same code, unmarked.
    let fresh = || {
        let mut v = super::tests::vm();
        for name in ["note", "peek", "poke", "opaque"] {
            v.define_native(name).unwrap();
        }
        v.interpret_str("t.4th", src, &mut Tracer::default())
            .unwrap();
        v
    };
    let mut other = fresh();
    let epoch = other.code_epoch();
    other.set_cell(body + 4, 0).unwrap();
    assert_eq!(other.code_epoch(), epoch, "not code in this VM yet");
    let mut other = fresh();
    assert!(other.adopt_code(&code));
    other.set_cell(body + 4, 0).unwrap();
    assert_ne!(other.code_epoch(), epoch, "code once adopted");
    // Different code: refused, nothing marked.
    let mut changed = fresh();
    changed.set_cell(body + 4, 0).unwrap();
    assert!(!changed.adopt_code(&code));
    let e = changed.code_epoch();
    changed.set_cell(body + 8, 0).unwrap();
    assert_eq!(changed.code_epoch(), e);
}

/// Frozen data (`super::frozen`): below the bound, a traced run takes a data cell it
/// reads as code (no read noted) unless the cell is known to change; a write that changes
/// a frozen cell changes the code epoch and thaws it, and so does the host's word or a
/// traced run's write that it changes. Another VM of the same program takes over what was
/// learned, and refuses a frozen cell whose value differs.
#[test]
fn frozen_data_is_taken_as_code_until_it_changes() {
    let src = "VARIABLE a VARIABLE b VARIABLE c VARIABLE d 5 a ! 7 b ! \
               : r a @ b @ + c @ + ; : w 3 d ! ; : rd d @ ;";
    let mut host = Tracer::default();
    let mut vm = vm();
    for name in ["note", "peek", "poke", "opaque"] {
        vm.define_native(name).unwrap();
    }
    vm.interpret_str("t.4th", src, &mut host).unwrap();
    let (a, b, c, d) = (
        pfa_of(&vm, "a"),
        pfa_of(&vm, "b"),
        pfa_of(&vm, "c"),
        pfa_of(&vm, "d"),
    );
    let fresh = vm.clone();
    let run = |vm: &mut Vm, word: &str| -> Vec<u32> {
        let xt = vm.find(word.as_bytes()).unwrap() + 12;
        let area = vm.here() + 64;
        vm.execute_traced(xt, &mut Tracer::default(), area).unwrap();
        vm.clear_stacks();
        vm.trace().reads.iter().map(|r| r.addr).collect()
    };
    // Not freezing: every read noted.
    assert_eq!(run(&mut vm.clone(), "r"), [a, b, c]);
    vm.freeze_data_below(vm.here());
    vm.mark_mutable(b, 4);
    assert_eq!(run(&mut vm, "r"), [b], "a and c frozen, b known to change");
    let learned = vm.frozen_data();
    assert_eq!(learned.frozen.len(), 2);
    // Storing a frozen cell's own value changes nothing; another value changes the epoch.
    let e = vm.code_epoch();
    vm.set_cell(a, 5).unwrap();
    assert_eq!(vm.code_epoch(), e);
    vm.set_cell(a, 6).unwrap();
    assert_ne!(vm.code_epoch(), e);
    assert_eq!(run(&mut vm, "r"), [a, b], "a thawed: noted from now on");
    let e = vm.code_epoch();
    vm.set_cell(a, 9).unwrap();
    assert_eq!(
        vm.code_epoch(),
        e,
        "a is data again: its writes are not code's"
    );
    // A cell a traced run writes is not frozen by a later run.
    assert!(run(&mut vm, "w").is_empty());
    assert_eq!(run(&mut vm, "rd"), [d]);
    // The host's word that a cell changes thaws it if frozen (traces made meanwhile may
    // assume its value: the epoch changes).
    let e = vm.code_epoch();
    vm.mark_mutable(c, 4);
    assert_ne!(vm.code_epoch(), e);
    assert_eq!(run(&mut vm, "r"), [a, b, c]);
    // Another VM of the same program: the learned cells are frozen there too…
    let mut other = fresh.clone();
    other.freeze_data_below(other.here());
    assert!(other.adopt_frozen(&learned));
    assert_eq!(run(&mut other, "r"), [b]);
    let e = other.code_epoch();
    other.set_cell(c, 1).unwrap();
    assert_ne!(other.code_epoch(), e);
    // …unless one holds another value: refused, and that cell is known to change.
    let mut changed = fresh.clone();
    changed.set_cell(c, 4).unwrap();
    changed.freeze_data_below(changed.here());
    assert!(!changed.adopt_frozen(&learned));
    assert_eq!(run(&mut changed, "r"), [b, c]);
    // Above the bound nothing is frozen.
    let mut low = fresh;
    low.freeze_data_below(c);
    assert_eq!(run(&mut low, "r"), [c]);
}

/// The words of Axiom 1.51's CORE.4TH that the prelude has too.
#[test]
fn prelude_has_core_151_words() {
    assert_eq!(stack("BINARY 101 OCTAL 17 DECIMAL"), [5, 15]);
    assert_eq!(output("TAB"), "\t");
    assert_eq!(stack("TIMER t 1 t ! 2 t CELL+ ! t @ t CELL+ @"), [1, 2]);
    assert_eq!(
        output(
            "CREATE buf 32 ALLOT \
             : t S\" ab\" buf \"MOVE S\" cd\" buf \"APPEND buf TYPE ; t"
        ),
        "abcd"
    );
    assert_eq!(output("1 2 3 .S"), "1 2 3 ");
    assert_eq!(stack(".S DEPTH"), [0]);
    assert_eq!(
        stack("1 2 3 .S"),
        [1, 2, 3],
        ".S leaves the stack as it was"
    );
    assert_eq!(
        stack("1.5 FCONSTANT x x 2 FCELLS HERE 2.5 F, @ 1.5 2.5 FMIN 1.5 2.5 FMAX"),
        [f(1.5), 8, f(2.5), f(1.5), f(2.5)]
    );
}

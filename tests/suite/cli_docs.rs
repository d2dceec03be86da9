//! The help texts and the documents cannot drift from the tool: every example shown in a
//! subcommand's `--help` and every command of the `sh` blocks of the README and of
//! `docs/*.md` is run (or listed, with the reason, among those that are not), and must exit
//! as the document says. Document examples run from the project root; help examples run in
//! an empty temporary folder (they use bundled games only).

use assert_cmd::Command;

fn dagaz() -> Command {
    Command::cargo_bin("dagaz").unwrap()
}

/// Splits an example line into words (double quotes group words), dropping any trailing
/// `# comment`.
fn split(line: &str) -> Vec<String> {
    let line = line.trim();
    let mut out = vec![];
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            '#' if !quoted && cur.is_empty() => break,
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// The arguments of a `dagaz …` example line.
fn words(line: &str) -> Vec<String> {
    let mut out = split(line);
    assert_eq!(out.first().map(String::as_str), Some("dagaz"), "{line}");
    out.remove(0);
    out
}

fn subcommands() -> Vec<String> {
    let out = dagaz().arg("--help").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_help_example_runs() {
    let dir = std::env::temp_dir().join(format!("dagaz-help-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let subs = subcommands();
    assert!(subs.contains(&"convert".to_owned()), "{subs:?}");
    let mut ran = 0;
    for sub in subs {
        let help = dagaz()
            .args([sub.as_str(), "--help"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let help = String::from_utf8(help).unwrap();
        let examples: Vec<&str> = help
            .lines()
            .skip_while(|l| !l.starts_with("Examples:"))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .filter(|l| l.trim_start().starts_with("dagaz "))
            .collect();
        assert!(
            !examples.is_empty(),
            "`dagaz {sub} --help` shows no examples"
        );
        for ex in examples {
            dagaz().current_dir(&dir).args(words(ex)).assert().success();
            ran += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ran >= 4);
}

/// The documents whose `sh` blocks are run: the README, every page of `docs/` and the
/// stylesheets' README.
fn documents(root: &std::path::Path) -> Vec<String> {
    let mut docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    docs.insert(0, "README.md".to_owned());
    docs.push("xslt-equivalents/README.md".to_owned());
    docs
}

/// The commands of a document's `sh` blocks (fences may be indented, as in a list), with
/// their line numbers: comment lines dropped, lines ending in `\` joined with the next.
fn sh_commands(text: &str) -> Vec<(usize, String)> {
    let mut out = vec![];
    let mut in_sh = false;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(lang) = line.strip_prefix("```") {
            in_sh = !in_sh && lang == "sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let (n, mut cmd) = pending.take().unwrap_or((i + 1, String::new()));
        if cmd.is_empty() && (line.is_empty() || line.starts_with('#')) {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(head) => {
                cmd.push_str(head);
                pending = Some((n, cmd));
            }
            None => {
                cmd.push_str(line);
                out.push((n, cmd));
            }
        }
    }
    out
}

/// Lines of the documents' `sh` blocks that are not run, as (document, text the line
/// contains, why). Every other line must be a command the test runs; every entry must
/// match a line, so that the list stays exact.
const NOT_RUN: &[(&str, &str, &str)] = &[
    (
        "README.md",
        "cargo install --path .",
        "installs dagaz into ~/.cargo/bin: it changes the machine",
    ),
    (
        "README.md",
        "cargo build --release",
        "builds the project this test is part of",
    ),
    (
        "README.md",
        "cargo run --release -- autoplay ur-random ur-simple -n 100",
        "builds the project this test is part of; the README runs the same match as \
         `dagaz autoplay ur-random ur-simple -n 100`",
    ),
    (
        "README.md",
        "bash .ci/run",
        "runs this test suite, and installs packages",
    ),
    (
        "docs/autoplay.md",
        "mygame.zrf",
        "a rules file of the reader's own",
    ),
    (
        "docs/autoplay.md",
        "ur-expectimax",
        "minutes of depth-3 expectimax games (a Slurm array's task: 100,000 games)",
    ),
    (
        "docs/autoplay.md",
        ".jsonl",
        "game records of the reader's own (docs/cli.md runs `stats` on records it writes)",
    ),
    (
        "docs/axiom.md",
        "",
        "runs in a published Axiom folder (`cd path/to/Axiom/Ur`), outside the repository",
    ),
];

/// Whether `xsltproc` runs here; without it the XSLT examples are skipped, unless
/// `DAGAZ_REQUIRE_XSLTPROC=1` (as `.ci/run` sets) makes that a failure.
fn have_xsltproc() -> bool {
    let ok = std::process::Command::new("xsltproc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("DAGAZ_REQUIRE_XSLTPROC").as_deref() != Ok("1"),
            "xsltproc is required (DAGAZ_REQUIRE_XSLTPROC=1) but does not run"
        );
        eprintln!("skipping the documents' xsltproc examples: xsltproc is not installed");
    }
    ok
}

/// Every command of the `sh` blocks of the README and of the documentation runs from the
/// project's root as written and exits 0 (or the code of a trailing `# exit N`): `dagaz`
/// lines, and the `xsltproc` lines that make a file from a `dagaz` one. Every other line
/// is listed in [`NOT_RUN`] with the reason. The documents run in order, one line after
/// the other, so that a line may read what an earlier one of its document wrote.
#[test]
fn every_documented_example_runs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let xsltproc = have_xsltproc();
    let mut used = vec![false; NOT_RUN.len()];
    let mut ran = std::collections::BTreeMap::<String, usize>::new();
    for doc in documents(root) {
        let text = std::fs::read_to_string(root.join(&doc)).unwrap();
        for (n, cmd) in sh_commands(&text) {
            let at = format!("{doc}:{n}: {cmd}");
            if let Some(k) = NOT_RUN
                .iter()
                .position(|(d, pat, _)| *d == doc && cmd.contains(pat))
            {
                used[k] = true;
                continue;
            }
            let expect: i32 = cmd
                .split("# exit ")
                .nth(1)
                .and_then(|c| c.trim().parse().ok())
                .unwrap_or(0);
            let mut args = split(&cmd);
            let program = args.remove(0);
            match program.as_str() {
                "dagaz" => {}
                "xsltproc" if !xsltproc => continue,
                "xsltproc" => {}
                _ => panic!("{at}\nneither run by this test nor listed in NOT_RUN with a reason"),
            }
            assert!(
                !args
                    .iter()
                    .any(|a| ["|", ">", ">>", "<", "&&", ";"].contains(&a.as_str())),
                "{at}\nshell operators are not run: write the example with -o and one command a line"
            );
            let out = if program == "dagaz" {
                dagaz().current_dir(root).args(&args).output().unwrap()
            } else {
                std::process::Command::new(&program)
                    .args(&args)
                    .current_dir(root)
                    .output()
                    .unwrap()
            };
            assert_eq!(
                out.status.code(),
                Some(expect),
                "{at}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            *ran.entry(doc.clone()).or_default() += 1;
        }
    }
    for (k, (doc, pat, why)) in NOT_RUN.iter().enumerate() {
        assert!(
            used[k],
            "NOT_RUN entry ({doc}, {pat:?}: {why}) matches no line: remove it"
        );
    }
    assert!(ran.get("README.md").copied().unwrap_or(0) >= 6, "{ran:?}");
    assert!(
        ran.get("docs/cli.md").copied().unwrap_or(0) >= 40,
        "{ran:?}"
    );
    assert!(
        ran.get("docs/autoplay.md").copied().unwrap_or(0) >= 5,
        "{ran:?}"
    );
}

/// An example program of `examples/` (built by `cargo test` beside the test binaries).
fn example(name: &str) -> std::process::Command {
    let exe = std::env::current_exe().unwrap();
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .unwrap()
        .join("examples");
    let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.is_file(), "{} was not built", path.display());
    std::process::Command::new(path)
}

/// Runs an example with `input` on stdin; returns its stdout.
fn run_example(name: &str, args: &[&str], input: &str) -> String {
    use std::io::Write;
    let mut child = example(name)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{name} failed");
    String::from_utf8(out.stdout).unwrap()
}

/// The text interface plays a whole game of tic-tac-toe against the AI: moves by number and
/// by notation, a wrong move explained, and the result at the end.
#[test]
fn the_text_example_plays_a_game() {
    let out = run_example(
        "play",
        &["tic-tac-toe", "--seed", "3"],
        "x man b2\nnonsense\n1\n1\n1\n1\n1\n",
    );
    assert!(out.starts_with("Tic-Tac-Toe: you play X (seat 1)"), "{out}");
    assert!(out.contains("X plays X Man b2"), "{out}");
    assert!(
        out.contains("no legal move `nonsense`; legal moves:"),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("game over: x ")), "{out}");
}

/// The JSON-lines protocol: load, moves, play (refusing an illegal move), the AI, the
/// result; bad requests get an error and the session goes on.
#[test]
fn the_json_lines_example_drives_a_game() {
    let mut input = String::from(
        "{\"cmd\":\"moves\"}\n{\"cmd\":\"load\",\"game\":\"tic-tac-toe\",\"seed\":5}\n{\"cmd\":\"play\",\"move\":\"X Man b2\"}\n{\"cmd\":\"play\",\"move\":\"O Man b2\"}\nnot json\n",
    );
    for _ in 0..8 {
        input += "{\"cmd\":\"ai\"}\n";
    }
    input += "{\"cmd\":\"state\"}\n{\"cmd\":\"quit\"}\n{\"cmd\":\"state\"}\n";
    let out = run_example("serve", &[], &input);
    let replies: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies[0]["ok"], false, "no game loaded yet");
    assert_eq!(replies[1]["title"], "Tic-Tac-Toe");
    assert_eq!(replies[1]["positions"].as_array().unwrap().len(), 9);
    assert_eq!(replies[1]["rects"][0], serde_json::json!([4, 4, 104, 104]));
    assert_eq!(replies[2]["played"], "X Man b2");
    assert_eq!(replies[2]["to_move"], "O");
    assert_eq!(replies[3]["ok"], false, "b2 is taken");
    assert_eq!(replies[4]["ok"], false, "not JSON");
    // The AI plays until the game ends; once it is over, `ai` is refused.
    let last_state = &replies[replies.len() - 2];
    assert_eq!(last_state["over"], true, "{out}");
    let results = last_state["results"].as_object().unwrap();
    assert_eq!(results.len(), 2);
    assert!(
        replies.iter().any(|r| r["error"] == "the game is over"),
        "{out}"
    );
    assert_eq!(replies.last().unwrap()["ok"], true, "quit ends the session");
}

/// The conventions users of other tools type: `lint` with no path lints the current folder
/// and `-` reads standard input (as ruff); `perft GAME DEPTH`; `--concurrency` and
/// `--threads` for `-j`; `games` on a file that is no rules file says so and exits 2.
#[test]
fn cli_conventions_of_the_tools_users_know() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = assert_cmd::cargo::cargo_bin("dagaz");
    let run = |args: &[&str], dir: &std::path::Path, stdin: &str| {
        let mut c = std::process::Command::new(&bin);
        c.args(args).current_dir(dir);
        c.stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = c.spawn().unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), stdin.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let games = root.join("games");
    let (code, _, err) = run(&["lint"], &games, "");
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("6 file(s) checked"), "{err}");
    let (code, out, _) = run(&["lint", "--format", "concise", "-"], root, "(game (title");
    assert_eq!(code, Some(1));
    assert!(out.starts_with("<stdin>:1:1: error[DZ0101"), "{out}");
    let ttt = std::fs::read_to_string(games.join("tictactoe.zrf")).unwrap();
    assert_eq!(run(&["lint", "-"], root, &ttt).0, Some(0));
    let (code, out, err) = run(&["perft", "tictactoe", "3"], root, "");
    assert_eq!((code, out.as_str()), (Some(0), "504\n"), "{err}");
    let (code, out, _) = run(
        &["perft", "tictactoe", "--depth", "3", "--concurrency", "2"],
        root,
        "",
    );
    assert_eq!((code, out.as_str()), (Some(0), "504\n"));
    assert_eq!(
        run(&["perft", "tictactoe", "3", "--threads", "2"], root, "").0,
        Some(0)
    );
    let (code, out, _) = run(&["lint", "--list-rules"], root, "");
    assert_eq!(code, Some(0));
    assert!(
        out.lines()
            .any(|l| l.starts_with("DZ1016 forth-load-outside-project")),
        "{out}"
    );
    let (code, out, _) = run(&["lint", "--statistics", "-"], root, "(game (title");
    assert_eq!(
        (code, out.trim()),
        (Some(1), "1 DZ0101 unclosed-list (error)")
    );
    // `--format json` everywhere the output is data, `--json` its alias.
    for args in [
        &["perft", "tictactoe", "2", "--format", "json"][..],
        &["perft", "tictactoe", "2", "--json"],
        &["games", "chess", "--format", "json"],
    ] {
        let (code, out, err) = run(args, root, "");
        assert_eq!(code, Some(0), "{args:?}: {err}");
        let v: serde_json::Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"));
        assert!(v["schema_version"].is_number(), "{args:?}: {out}");
    }
    let (code, out, err) = run(&["games", "README.md"], root, "");
    assert_eq!(code, Some(2), "{out}");
    assert!(err.contains("defines no game"), "{err}");
}

/// The JSON-lines protocol plays a partial chain step by step: `steps` lists the first
/// steps, `step` plays one and shows the board between steps, and the move is made when
/// no step can follow; a wrong step is refused and the chain goes on.
#[test]
fn the_json_lines_example_plays_a_chain_step_by_step() {
    let game =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/replay/effects.zrf");
    let input = [
        format!(r#"{{"cmd":"load","game":"{}"}}"#, game.display()),
        r#"{"cmd":"steps"}"#.to_owned(),
        r#"{"cmd":"step","move":"Man a2 - a4 x a3"}"#.to_owned(),
        r#"{"cmd":"step","move":"Man a4 - a5"}"#.to_owned(),
        r#"{"cmd":"stop"}"#.to_owned(),
        r#"{"cmd":"step","move":"Man a4 - a6 x a5"}"#.to_owned(),
        r#"{"cmd":"quit"}"#.to_owned(),
    ]
    .join("\n");
    let out = run_example("serve", &[], &input);
    let r: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(r[0]["ok"], true, "{out}");
    let first = r[1]["steps"].as_array().unwrap();
    assert!(first.contains(&"Man a2 - a4 x a3".into()), "{out}");
    assert!(first.contains(&"Pass".into()), "{out}");
    // Between the steps: the jumped Man is gone, the turn has not passed.
    assert_eq!(
        r[2]["steps"],
        serde_json::json!(["Man a4 - a6 x a5"]),
        "{out}"
    );
    assert_eq!(
        (r[2]["depth"].as_u64(), &r[2]["can_stop"]),
        (Some(1), &false.into())
    );
    let on = |v: &serde_json::Value, pos: &str| {
        v["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["pos"] == pos)
    };
    assert!(
        on(&r[2], "a4") && !on(&r[2], "a3") && !on(&r[2], "a2"),
        "{out}"
    );
    assert_eq!(r[3]["ok"], false, "no such step: {out}");
    assert_eq!(r[4]["ok"], false, "the chain must go on: {out}");
    assert_eq!(r[5]["played"], "Man a2 - a4 x a3 Man a4 - a6 x a5", "{out}");
    assert_eq!(r[5]["to_move"], "Black");
}

/// `autoplay --zsg-out` writes saved games that `replay` follows to the end; `replay`
/// stops at a move that is not legal (exit 1) and refuses a file that is not a saved game
/// (exit 2).
#[test]
fn autoplay_saved_games_replay_and_an_illegal_move_stops() {
    let dir = std::env::temp_dir().join(format!("dagaz-zsg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("dagaz");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(&bin)
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, _, err) = run(&[
        "autoplay",
        "checkers",
        "checkers",
        "-n",
        "3",
        "--seed",
        "4",
        "--zsg-out",
        "saved",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let files: Vec<String> = (0..3).map(|i| format!("saved/game-{i:06}.zsg")).collect();
    let mut args = vec!["replay", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = run(&args);
    assert_eq!(code, Some(0), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["summary"]["complete"], 3, "{out}");
    assert_eq!(v["files"][0]["rules"], "bundled:checkers");
    assert!(v["files"][0]["moves"].as_u64().unwrap() > 10);
    // A recorded move made illegal: the file stops there, with the nearest moves.
    let text = std::fs::read_to_string(dir.join(&files[0])).unwrap();
    let bad = text.replacen("4. ", "4. Man a1 - h8\r\n4. ", 1);
    std::fs::write(dir.join("bad.zsg"), bad).unwrap();
    let (code, out, _) = run(&["replay", "bad.zsg"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("`4. Man a1 - h8`: no legal move"), "{out}");
    assert!(out.contains("nearest legal: "), "{out}");
    std::fs::write(dir.join("notes.zsg"), "hello\n").unwrap();
    let (code, out, _) = run(&["replay", "notes.zsg"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("not a Zillions saved game"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

//! The help texts and the README cannot drift from the tool: every example shown in a
//! subcommand's `--help` and every `dagaz …` line in the README's `sh` blocks is run, and
//! must succeed (exit 0). README examples run from the project root; help examples run in
//! an empty temporary folder (they use bundled games only).

use assert_cmd::Command;

fn dagaz() -> Command {
    Command::cargo_bin("dagaz").unwrap()
}

/// Splits an example line into arguments (double quotes group words), dropping the leading
/// `dagaz` and any trailing `# comment`.
fn words(line: &str) -> Vec<String> {
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

#[test]
fn every_readme_example_runs() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let mut in_sh = false;
    let mut ran = 0;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        if in_sh && line.starts_with("dagaz ") {
            let expect: i32 = line
                .split("# exit ")
                .nth(1)
                .and_then(|c| c.trim().parse().ok())
                .unwrap_or(0);
            dagaz()
                .current_dir(root)
                .args(words(line))
                .assert()
                .code(expect);
            ran += 1;
        }
    }
    assert!(ran >= 3, "only {ran} README examples found");
}

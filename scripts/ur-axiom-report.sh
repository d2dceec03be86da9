#!/usr/bin/env bash
# Regenerates reports/ur-axiom.md: the Royal Game of Ur's published Axiom programs, run by
# dagaz, beside Axiom's own AutoPlay counts.
#
#   GAMES=1000 JOBS=2 bash scripts/ur-axiom-report.sh DIR [DIR...]
#   KEEP=DATA GAMES=1000 bash scripts/ur-axiom-report.sh DIR...  # keeps the runs' summaries
#   RENDER=DATA bash scripts/ur-axiom-report.sh                  # the report again, no games
#   OUT=reports/other.md …                                       # another output file
#   RESUME=1 KEEP=DATA …                                         # plays only what DATA lacks
#
# Each DIR is an Axiom Ur folder: CORE.4TH, axiom.4th, Ur.4th and Ur-[…].4th variant files
# (GlukKazan/ZoG, Axiom/Ur, at some commit; never part of this repository). The report names
# each folder by the last component of its DIR argument only (`ur150` for path/to/ur150), so
# that it names no folder of the machine it ran on. docs/axiom.md
# says which folders the committed report used and how to rebuild them from that
# repository's history. In each folder, every pairing of Axiom's counts whose two variant
# files exist is played GAMES times (default 1000) in AutoPlay's seating (--no-swap: Player 1
# always moves first) and GAMES times in colour-swapped pairs. The counts are the seven rows
# of ../shared/docs/reference-numbers.md and the `first` rows of the repository's
# Axiom/Ur/results.txt. Every number and every explanation in the report is computed from
# the runs, from `dagaz games` on each folder and from the files' sizes and md5 sums.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || [ -n "${RENDER:-}" ] || { echo "usage: GAMES=1000 JOBS=2 [KEEP=DIR] bash scripts/ur-axiom-report.sh DIR [DIR...]" >&2; exit 2; }
# The runs' summaries go to a folder per DIR in $work: KEEP=DATA keeps them, RENDER=DATA
# writes the report from them again without building or playing.
f=0
if [ -n "${RENDER:-}" ]; then
  work=$RENDER
  games=$(cat "$work/games")
  f=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*' | wc -l)
  set --
else
  games=${GAMES:-1000}
  jobs=${JOBS:-$(nproc)}
  cargo build --release --quiet
  bin=$PWD/target/release/dagaz
  work=${KEEP:-$(mktemp -d)}
  [ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
  mkdir -p "$work"
  # RESUME=1 keeps the summaries already in DATA (an interrupted run) and plays the rest.
  [ -n "${RESUME:-}" ] || rm -rf "$work"/[0-9]*
  if [ -n "${RESUME:-}" ] && [ -f "$work/games" ] && [ "$(cat "$work/games")" != "$games" ]; then
    echo "RESUME: $work holds runs of $(cat "$work/games") games, not $games" >&2; exit 2
  fi
  echo "$games" > "$work/games"
fi
# Axiom's counts: Player 1, Player 2, P1 wins, P2 wins, draws, source.
pairings="random random 52 48 0 table
random simple-evaluation 50 50 0 table
simple-evaluation random 87 13 0 table
random aggressive 25 75 0 table
aggressive random 90 10 0 table
simple-evaluation aggressive 73 27 0 table
aggressive simple-evaluation 64 36 0 table
first first 92 8 0 results
first random 89 11 0 results
random first 60 40 0 results"
for d in "$@"; do
  f=$((f + 1))
  dir=$(cd "$d" && pwd)
  mkdir -p "$work/$f"
  basename "$dir" > "$work/$f/folder"
  "$bin" games "$dir" --json > "$work/$f/games.json" 2>/dev/null
  (cd "$dir" && for x in *.4th *.4TH; do [ -f "$x" ] || continue; printf '%s %s %s\n' "$(wc -c < "$x")" "$(md5sum < "$x" | cut -c1-32)" "$x"; done) \
    > "$work/$f/files.txt"
  i=0
  while read -r a b w1 w2 d src; do
    i=$((i + 1))
    [ -f "$dir/Ur-[$a].4th" ] && [ -f "$dir/Ur-[$b].4th" ] || continue
    for mode in noswap swap; do
      flag=""; [ "$mode" = noswap ] && flag="--no-swap"
      run="$work/$f/$i-$mode.json"
      # A summary counts when it is whole: not interrupted, every game played.
      if [ -n "${RESUME:-}" ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d.get("interrupted") or d["summary"]["games"] != int(sys.argv[2]))' "$run" "$games" 2>/dev/null; then
        continue
      fi
      (cd "$dir" && "$bin" autoplay "Ur-[$a]" "Ur-[$b]" -n "$games" -j "$jobs" --seed "$i" --max-plies 20000 $flag --json) \
        > "$run.tmp"
      mv "$run.tmp" "$run"
    done
    grep -qs "^$i " "$work/$f/pairings.txt" || echo "$i $a $b $w1 $w2 $d $src" >> "$work/$f/pairings.txt"
    echo "$(basename "$dir"): pairing $i done: Ur-[$a] vs Ur-[$b]" >&2
  done <<< "$pairings"
done
out=${OUT:-reports/ur-axiom.md}
python3 - "$work" "$games" "$f" > "$out.tmp" <<'PY'
import json, math, os, sys
work, games, nfolders = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
SOURCES = {
    "table": "the AutoPlay table of ../shared/docs/reference-numbers.md",
    "results": "GlukKazan/ZoG, Axiom/Ur/results.txt (commit 8688d8c)",
}

def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)

# Facts about Axiom's own runs: the `Ur.4th` of commit 8688d8c (that of results.txt), and the
# md5 of the rebuilt 4a709e8-era `Ur-[simple-evaluation].4th` (docs/axiom.md).
RESULTS_UR = ("7423", "29282a20d0d2394dcd63046e6acc0790")
REBUILT_SIMPLE = "797404ef2c2cb650ecd962bc0d174dbb"
# The 8688d8c `Ur-[simple-evaluation].4th` (38 bytes): `LOAD Ur.4th` and nothing else.
LOAD_ONLY_SIMPLE = "9427d7068591216662e144bbb7f0da58"

def pct(x):
    return f"{100 * x:.1f}%"

print("# The Royal Game of Ur: Axiom's programs run by dagaz\n")
print("Generated by `bash scripts/ur-axiom-report.sh` from Axiom Ur folders (CORE.4TH, axiom.4th, Ur.4th and")
print("its variant files; not part of this repository). docs/axiom.md (\"The Ur folders of the report\")")
print("says which commit of GlukKazan/ZoG each folder reproduces and how to rebuild it.")
print(f"{games} games per row. Axiom's counts are 100-game AutoPlay runs (Player 1 always first) from")
print(f"{SOURCES['table']} (`table`) and from {SOURCES['results']} (`results`).")
print("Scores are Player 1's (wins + draws/2), with Wilson 95% intervals; z compares dagaz's score with")
print("Axiom's (two-proportion test; |z| > 1.96: the rows disagree). AutoPlay rows are the comparison;")
print("colour-swapped rows show the same pairing without the first-move advantage, and are not compared\n(Axiom never swapped).\n")
summary = []
for f in range(1, nfolders + 1):
    base = f"{work}/{f}"
    folder = open(f"{base}/folder").read().strip()
    name = os.path.basename(folder)
    engines = {v["slug"]: v["ai"] for v in json.load(open(f"{base}/games.json"))["variants"]}
    rows, notes = [], []
    agree_n = total_n = 0
    files = {}
    for line in open(f"{base}/files.txt"):
        size, md5, fname = line.rstrip("\n").split(" ", 2)
        files[fname] = (size, md5)
    if os.path.exists(f"{base}/pairings.txt"):
        lines = open(f"{base}/pairings.txt").read().split("\n")
    else:
        lines = []
    for line in filter(None, lines):
        i, a, b, w1, w2, d, src = line.split()
        w1, w2, d = int(w1), int(w2), int(d)
        ax_n = w1 + w2 + d
        ax_p = (w1 + d / 2) / ax_n
        ax_lo, ax_hi = wilson(w1 + d / 2, ax_n)
        for mode in ("noswap", "swap"):
            run = json.load(open(f"{base}/{i}-{mode}.json"))
            s = run["summary"]
            if run.get("interrupted") or s["games"] != games:
                sys.exit(f"{base}/{i}-{mode}.json is incomplete ({s['games']} of {games} games): "
                         "play the rest with RESUME=1 KEEP=DATA")
            n = s["games"] - s["errors"]
            sa = s["score_a"]
            p, lo, hi = sa["score"], sa["low"], sa["high"]
            se = math.sqrt(p * (1 - p) / max(n, 1) + ax_p * (1 - ax_p) / ax_n)
            z = (p - ax_p) / se if se > 0 else 0.0
            agree = abs(z) <= 1.96
            seating = "AutoPlay (no swap)" if mode == "noswap" else "colour-swapped"
            # Axiom's counts are AutoPlay's seating: only those rows are compared with them.
            if mode == "noswap":
                total_n += 1
                agree_n += agree
                axiom = f"{w1}–{w2}–{d}: {pct(ax_p)} ({pct(ax_lo)}..{pct(ax_hi)}) `{src}`"
                verdict = f"{z:+.1f} | {'yes' if agree else '**no**'}"
            else:
                axiom, verdict = "—", "— | —"
            rows.append(
                f"| Ur-[{a}] | Ur-[{b}] | {seating} | {s['wins_a']}–{s['wins_b']}–{s['draws']}"
                f" | {pct(p)} ({pct(lo)}..{pct(hi)}) | {axiom} | {verdict} | {s['mean_plies']:.0f} | {s['errors']} |"
            )
            if not agree and mode == "noswap":
                why = [
                    f"dagaz's Player 1 scores {pct(p)} over {n} games where Axiom's scored {pct(ax_p)} over {ax_n} (z = {z:+.1f}).",
                    f"Here `Ur-[{a}]` plays {engines.get(f'Ur-[{a}]', '?')}; `Ur-[{b}]` plays {engines.get(f'Ur-[{b}]', '?')}.",
                ]
                if engines.get(f"Ur-[{a}]") == engines.get(f"Ur-[{b}]") and a != b:
                    why.append("Both variants play the same engines in this folder, so only the seating separates them: the files Axiom's run used differed from these.")
                if "negamax" in (engines.get(f"Ur-[{a}]", "") + engines.get(f"Ur-[{b}]", "")):
                    why.append("A side plays `$NegamaxMove`, whose search dagaz infers (docs/axiom.md): a difference here may be the search's, not the rules'.")
                if "search-engine" in (engines.get(f"Ur-[{a}]", "") + engines.get(f"Ur-[{b}]", "")):
                    why.append("A side plays its own Forth engine, whose time limit dagaz counts in primitives (docs/axiom.md: `--search-steps`), where Axiom's was a clock.")
                if "simple-evaluation" in (a, b) and files.get("Ur-[simple-evaluation].4th", ("", ""))[1] == REBUILT_SIMPLE:
                    why.append("This folder's `Ur-[simple-evaluation].4th` is the rebuilt one (docs/axiom.md): the file Axiom ran is not stored anywhere dagaz could read.")
                if "simple-evaluation" in (a, b) and files.get("Ur-[simple-evaluation].4th", ("", ""))[1] == LOAD_ONLY_SIMPLE:
                    why.append("This folder's `Ur-[simple-evaluation].4th` only loads `Ur.4th`: its `OnEvaluate` is axiom.4th's constant 0, so the search plays the first move, as `Ur-[first]` does, and this pairing is the `first` one, which Axiom's `results.txt` counted 60 of 100 for `random` against `first` (docs/axiom.md).")
                ur = files.get("Ur.4th")
                if src == "results" and ur and ur[1] != RESULTS_UR[1]:
                    why.append(f"Axiom's `results` counts were taken at commit 8688d8c, whose `Ur.4th` has {RESULTS_UR[0]} bytes (md5 `{RESULTS_UR[1]}`); this folder's has {ur[0]} bytes (md5 `{ur[1]}`): another program, so its row is not the one to compare (the folder with that `Ur.4th` is).")
                notes.append(f"- **Ur-[{a}] vs Ur-[{b}]:** " + " ".join(why))
    summary.append((name, agree_n, total_n))
    print(f"## Folder `{name}`\n")
    print("Its files (bytes, md5):\n")
    for line in open(f"{base}/files.txt"):
        size, md5, fname = line.rstrip("\n").split(" ", 2)
        print(f"- `{fname}`: {size} bytes, md5 `{md5}`")
    print("\nThe engines each variant file declares (`dagaz games` on the folder):\n")
    for k in sorted(engines):
        print(f"- `{k}`: {engines[k]}")
    print()
    if not rows:
        print("No pairing of Axiom's counts has both its variant files in this folder.\n")
        continue
    print("| Player 1 | Player 2 | seating | dagaz W–L–D | dagaz score (95% CI) | Axiom W–L–D: score (95% CI), source | z | agree | mean plies | errors |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(r)
    print()
    if notes:
        print(f"AutoPlay rows that disagree in `{name}`:\n")
        for n_ in notes:
            print(n_)
        print()
    else:
        print(f"Every AutoPlay row of `{name}` agrees with Axiom's counts within the intervals.\n")
print("## Summary\n")
for name, a, t in summary:
    print(f"- `{name}`: {a} of {t} AutoPlay rows agree with Axiom's counts.")
PY
mv "$out.tmp" "$out"
echo "wrote $out" >&2

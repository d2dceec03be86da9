#!/usr/bin/env bash
# Builds dagaz with profile-guided optimisation (PGO): an instrumented build plays a
# training run, and the compiler lays out and inlines the code by what that run did.
# The binary is target/pgo/release/dagaz (target/release/dagaz, the plain build, is left
# alone). Random Ur games of the published Axiom programs run about 1.1-1.2x as fast
# (docs/performance.md, "Axiom runtime"); what it plays is the same, move for move (the compiler changes how
# the code runs, not what it computes).
#
#   bash scripts/pgo-build.sh                        # trained on dagaz's own games
#   bash scripts/pgo-build.sh "path/to/Axiom/Ur/Ur-[random].4th"   # and on these variant files
#   BENCH=1 bash scripts/pgo-build.sh [FILES…]       # then `cargo bench --bench forth`, with PGO
#
# The training run: random and searching games of dagaz's own Axiom fixtures (a dice race
# and a capture game), an Ur match and a perft of the bundled ZRF games, then each
# variant file given played against itself (400 games): the more the training looks like
# the runs to be made, the more they gain. It needs rustup's llvm-tools component (for
# llvm-profdata), which it adds when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/target/pgo
files=("$@")
for f in "${files[@]}"; do
  [ -f "$f" ] || { echo "pgo-build: no such file: $f" >&2; exit 2; }
done

sysroot=$(rustc --print sysroot)
profdata=$(find "$sysroot" -name llvm-profdata -type f 2>/dev/null | head -n 1)
if [ -z "$profdata" ]; then
  echo "pgo-build: adding rustup's llvm-tools component (for llvm-profdata)" >&2
  rustup component add llvm-tools >&2
  profdata=$(find "$sysroot" -name llvm-profdata -type f | head -n 1)
fi
[ -n "$profdata" ] || { echo "pgo-build: llvm-profdata not found under $sysroot" >&2; exit 2; }

rm -rf "$work/data" "$work/merged.profdata"
echo "pgo-build: instrumented build" >&2
RUSTFLAGS="-Cprofile-generate=$work/data" \
  cargo build --release --locked --quiet --bin dagaz --target-dir "$work/gen"
gen=$work/gen/release/dagaz

echo "pgo-build: training run" >&2
fixtures=$root/tests/fixtures/axiom
train() { "$gen" "$@" >/dev/null 2>&1 || { echo "pgo-build: training step failed: dagaz $*" >&2; exit 1; }; }
(
  cd "$work"
  train autoplay "$fixtures/race/Race-[random].4th" "$fixtures/race/Race-[random].4th" -n 2000
  train autoplay "$fixtures/race/Race.4th" "$fixtures/race/Race-[random].4th" -n 40
  train autoplay "$fixtures/capture/Capture.4th" "$fixtures/capture/Capture.4th" -n 40
  train autoplay ur-random ur-simple -n 40
  train perft chess --depth 3
  train perft checkers --depth 5
  for f in "${files[@]}"; do
    train autoplay "$f" "$f" -n 400
  done
)
"$profdata" merge -o "$work/merged.profdata" "$work/data"

echo "pgo-build: optimised build" >&2
export RUSTFLAGS="-Cprofile-use=$work/merged.profdata"
cargo build --release --locked --quiet --bin dagaz --target-dir "$work"
echo "$work/release/dagaz"
if [ -n "${BENCH:-}" ]; then
  cargo bench --locked --bench forth --target-dir "$work"
fi

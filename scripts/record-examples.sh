#!/usr/bin/env bash
# Records the example runs of runs/examples/ (tests/e2e/examples_test.cpp replays each one):
#   scripted  licm, 2 iterations, the scripted model of scripts/example-model.py: an incorrect
#             candidate (single-precision damping), its failed repair, then a real win;
#   local     licm, 1 iteration, the default local model (scripts/setup-local-model.sh);
# and, when given a folder of a finished run, copies it in as a third (a run a capable model
# drove through the manual or exec: backend):
#   scripts/record-examples.sh [RUN_FOLDER...]
# Re-record them when a benchmark, a prompt or the record's format changes: a replay checks the
# loop against them. They replace the examples of the same kind.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh >/dev/null
out=runs/examples
mkdir -p "$out"
record() {  # KIND ARGS...: records one run and names its folder after KIND
  local kind=$1
  shift
  local tmp
  tmp="$(mktemp -d)"
  ./build/kopt run licm "$@" --out "$tmp" || true
  local run
  run=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n 1)
  [ -n "$run" ] || { echo "record-examples: the $kind run left no record" >&2; exit 1; }
  rm -rf "$out"/*-"$kind" "$run/lock"
  mv "$run" "$out/$(basename "$run")-$kind"
  rm -rf "$tmp"
  echo "record-examples: $out/$(basename "$run")-$kind"
}
record scripted --llm "exec:python3 scripts/example-model.py" --iterations 2 --timing-budget 2
./scripts/setup-local-model.sh >/dev/null
record local --llm local --iterations 1 --timing-budget 2 --seed 1
for given in "$@"; do
  [ -f "$given/run.json" ] || { echo "record-examples: $given is not a run folder" >&2; exit 2; }
  rm -f "$given/lock"
  cp -r "$given" "$out/$(basename "$given")"
  echo "record-examples: $out/$(basename "$given")"
done

#!/usr/bin/env bash
# Installs what is missing, builds, and runs a short optimization campaign on the default
# benchmark with the default model backend (a small local model; no key needed).
#   scripts/demo.sh [BENCHMARK] [ITERATIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${1:-licm}
iterations=${2:-2}
./scripts/setup.sh
./scripts/build.sh
./scripts/setup-local-model.sh
kopt=./build/kopt
dir=$($kopt list --paths | awk -v b="$bench" '$1 == b {print $3}')
test -n "$dir" || { echo "demo: no benchmark named $bench (kopt list shows them)" >&2; exit 2; }
echo "== the suite"
$kopt list
echo "== the human version against the original"
$kopt bench "$bench" --budget 5 || true
echo "== an optimization campaign on $bench with the local model"
$kopt campaign "$dir" --llm local --iterations "$iterations" --timing-budget 5
run=$($kopt runs | awk -v b="$bench" 'NR > 1 && $2 == b {last = $1} END {print last}')
$kopt show "$run"
echo "== report: $($kopt report "$run")"
# What the campaign showed, in one line, from kopt's own verdicts (summary.json).
python3 scripts/run-outcome.py "${KOPT_RUNS:-runs}/$run/summary.json"

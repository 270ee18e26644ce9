#!/usr/bin/env bash
# Installs what is missing, builds, and runs a short optimization campaign on the default
# benchmark with the default model backend (a small local model; no key needed).
#   scripts/demo.sh [BENCHMARK] [ITERATIONS] [CANDIDATES]
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${1:-licm}
iterations=${2:-2}
candidates=${3:-3}
./scripts/setup.sh
./scripts/build.sh
./scripts/setup-local-model.sh
kopt=./build/kopt
dir=$($kopt list --paths | awk -v b="$bench" '$1 == b {print $3}')
test -n "$dir" || { echo "demo: no benchmark named $bench (kopt list shows them)" >&2; exit 2; }
echo "== the suite"
$kopt list
echo "== the human version against the original"
$kopt bench "$bench" --timing-budget 5 || true
echo "== an optimization campaign on $bench with the local model"
# The local model is asked with the guided strategy (one knowledge-base technique per
# iteration, no tools) for three candidates per iteration: docs/local-model.md has the figures.
campaign="${KOPT_RUNS:-runs}/demo-$(date -u +%Y%m%d-%H%M%S)"
$kopt campaign "$dir" --llm local --iterations "$iterations" --candidates "$candidates" \
  --timing-budget 5 --into "$campaign" || true
run=$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).readlines()[-1])["run"])' \
  "$campaign/index.jsonl")
$kopt show "$run" --out "$campaign"
echo "== report: $($kopt report "$run" --out "$campaign")"
# What the campaign showed, in one line, from kopt's own verdicts (summary.json).
python3 scripts/run-outcome.py "$campaign/$run/summary.json"

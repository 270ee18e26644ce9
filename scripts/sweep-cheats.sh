#!/usr/bin/env bash
# Evaluates every check-only cheat of tests/cheats with several evaluation seeds (each seed draws
# other sizes, parameters and inputs) and lists every cheat that one of them let through: a cheat
# caught only by a lucky draw is a hole of the check and a flaky test of CI.
#   scripts/sweep-cheats.sh [SEEDS] [FILTER]
# SEEDS (default 5) evaluations per cheat; FILTER a substring of the cheats' paths (default all).
# Cheats marked '// needs: timing' are left out (they need the timing to be caught). Prints one
# line per evaluation that did not end in the expected category, then a summary; exits 1 if any.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-5}
filter=${2:-}
kopt=./build/kopt
test -x "$kopt" || ./scripts/build.sh
echo "== $(date -u +%Y-%m-%dT%H:%MZ) on $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) CPUs)"

evaluations=0
escaped=0
for file in tests/cheats/*/*.c*; do
  [[ -z "$filter" || "$file" == *"$filter"* ]] || continue
  grep -q '^// needs: timing' "$file" && continue
  expect=$(sed -n 's|^// expect: *||p' "$file" | head -1)
  [[ -n "$expect" ]] || continue
  bench=$(basename "$(dirname "$file")")
  [[ -d "benchmarks/cpu/$bench" ]] || continue  # Fixtures and GPU benchmarks: the tests' own.
  for _ in $(seq "$seeds"); do
    seed=$(( $(od -An -N4 -tu4 /dev/urandom) ))
    category=$($kopt eval "$bench" --variant "$file" --no-time --json --seed "$seed" 2>/dev/null |
      python3 -c 'import json,sys
try: v = json.loads(sys.stdin.read())["verdict"]; print(v.get("category") or v["status"])
except Exception: print("no-document")' || true)
    evaluations=$((evaluations + 1))
    if [[ "|$expect|" != *"|$category|"* ]]; then
      escaped=$((escaped + 1))
      echo "ESCAPED $file --seed $seed: $category (expected $expect)"
    fi
  done
done
echo "== $evaluations evaluations, $escaped not in the expected category"
[[ $escaped -eq 0 ]]

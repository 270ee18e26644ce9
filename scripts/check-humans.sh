#!/usr/bin/env bash
# Checks every CPU benchmark's human version against its original, untimed, with one seed: after
# a change to the check (its sizes, placements, edge cases), the human versions must all still
# pass. Usage: scripts/check-humans.sh [SEED] [BENCH...]; prints one line per benchmark and the
# seconds it took, and exits 1 if any did not pass.
set -euo pipefail
cd "$(dirname "$0")/.."
seed=${1:-$RANDOM}
shift || true
benches=("$@")
if [ ${#benches[@]} -eq 0 ]; then
  for dir in benchmarks/cpu/*/; do
    [ -f "$dir/human.cpp" ] && benches+=("$(basename "$dir")")
  done
fi
failed=0
for bench in "${benches[@]}"; do
  start=$(date +%s)
  verdict=$(./build/kopt eval "$bench" --variant human --no-time --seed "$seed" 2>&1 |
    grep '^verdict' || echo "verdict    (no verdict)")
  printf '%-18s %4ss  %s\n' "$bench" "$(($(date +%s) - start))" "${verdict#verdict    }" | cut -c1-200
  case "$verdict" in *"verdict    correct"*) ;; *) failed=1 ;; esac
done
echo "seed $seed"
exit "$failed"

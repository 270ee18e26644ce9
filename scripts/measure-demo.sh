#!/usr/bin/env bash
# Measures how often the demo's campaign finds a real win with the local model: runs the loop on
# one benchmark once per seed and prints, per run, the candidates that were correct, whether one
# was a significant win over the original (kopt's own verdict), the best speedup and the wall time.
#   scripts/measure-demo.sh [BENCHMARK] [ITERATIONS] [SEEDS...]
# Defaults: licm, the demo's iteration count, seeds 1 2 3 4 5. Needs a built kopt and the local
# model (scripts/demo.sh or scripts/setup-local-model.sh); writes its runs under a fresh folder.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${1:-licm}
# The demo's defaults, read from its "name=${N:-DEFAULT}" lines.
demo_default() { sed -n "s/^$1=\${[0-9]:-\([0-9]*\)}.*/\1/p" scripts/demo.sh | head -n 1; }
iterations=${2:-$(demo_default iterations)}
candidates=$(demo_default candidates)
shift $(($# < 2 ? $# : 2))
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3 4 5)
kopt=${KOPT_BIN:-./build/kopt}  # KOPT_BIN: a copy of kopt, so that a rebuild meanwhile cannot touch it
out="$(mktemp -d "${TMPDIR:-/tmp}/kopt-measure-demo.XXXXXX")"
echo "measure-demo: $bench, $iterations iterations of $candidates candidates, seeds ${seeds[*]}; runs in $out"
echo "measure-demo: $(date -u +%Y-%m-%dT%H:%MZ), $(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %-9s %-8s %-22s %-8s %s\n' seed correct win best wall_s stop
for seed in "${seeds[@]}"; do
  start=$(date +%s)
  $kopt run "$bench" --llm local --iterations "$iterations" --candidates "$candidates" \
    --seed "$seed" --timing-budget 5 \
    --out "$out/seed-$seed" > "$out/seed-$seed.log" 2>&1 || true
  wall=$(($(date +%s) - start))
  summary=$(find "$out/seed-$seed" -name summary.json 2>/dev/null | head -n 1 || true)
  if [ -z "$summary" ]; then
    printf '%-5s %s\n' "$seed" "no summary (see $out/seed-$seed.log)"
    continue
  fi
  python3 scripts/run-outcome.py "$summary" --row "$seed" "$wall"
done

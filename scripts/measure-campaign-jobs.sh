#!/usr/bin/env bash
# Measures what `kopt campaign --jobs N` gains in wall time: the same campaign (every benchmark of
# a suite, the echo model of scripts/echo-model.py: every candidate built, checked and timed, no
# model time) once per N, each with a cache of its own (so that none reuses another's builds),
# one after the other. Prints, per N, the wall time and the runs finished.
#   scripts/measure-campaign-jobs.sh [SUITE] [JOBS...]
# Defaults: benchmarks/cpu, jobs 1 2 1 (N=1 again last, to bracket the machine's drift).
# MODEL_DELAY=SECONDS: the model answers after that pause, as a hosted model would (default 0).
set -euo pipefail
cd "$(dirname "$0")/.."
suite=${1:-benchmarks/cpu}
shift $(($# < 1 ? $# : 1))
jobs=("$@")
[ ${#jobs[@]} -gt 0 ] || jobs=(1 2 1)
kopt=${KOPT_BIN:-./build/kopt}  # KOPT_BIN: a copy of kopt, so that a rebuild meanwhile cannot touch it
out="$(mktemp -d "${TMPDIR:-/tmp}/kopt-measure-jobs.XXXXXX")"
delay=${MODEL_DELAY:-0}
echo "measure-campaign-jobs: $suite, jobs ${jobs[*]}, model delay ${delay} s; campaigns in $out"
echo "measure-campaign-jobs: $(date -u +%Y-%m-%dT%H:%MZ), $(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-8s %-10s %s\n' jobs wall_s finished campaign
for i in "${!jobs[@]}"; do
  n=${jobs[$i]}
  folder="$out/jobs$n-$i"
  start=$(date +%s.%N)
  KOPT_CACHE_DIR="$out/cache-$i" $kopt campaign "$suite" --llm "exec:python3 scripts/echo-model.py --delay $delay" \
    --iterations 1 --timing-budget 2 --jobs "$n" --into "$folder" > "$folder.log" 2>&1 || true
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  finished=$(grep -c '"status":"finished"' "$folder/index.jsonl" 2>/dev/null || true)
  printf '%-6s %-8.0f %-10s %s\n' "$n" "$wall" "${finished:-0}" "$folder"
done

#!/usr/bin/env bash
# An experiment as a user runs one: three models x two strategies x four benchmarks (24 runs of
# one iteration), with the scripted model of scripts/echo-model.py answering after 1, 2 or 3 s
# (three "models"; every candidate is built, checked and timed like a real one).
#   1. Through Slurm (scripts/setup-slurm.sh's one-node cluster), the allocation cancelled once
#      a quarter of the runs have finished; the same command again resumes it. Then
#      `kopt compare` and `kopt report` on the campaign folder.
#   2. The same experiment on this machine with --jobs 1, then --jobs 2: the wall times.
#   scripts/measure-experiment.sh [BENCHMARKS=licm,spmv,histogram,transpose] [PARTS="slurm jobs"]
set -euo pipefail
cd "$(dirname "$0")/.."
benches=${1:-licm,spmv,histogram,transpose}
parts=${2:-slurm jobs}
kopt=$(realpath "${KOPT_BIN:-build/kopt}")
out=$(mktemp -d "${TMPDIR:-/tmp}/kopt-experiment.XXXXXX")
matrix=(--only "$benches" --strategy direct --strategy marco --iterations 1 --timing-budget 2)
for delay in 1 2 3; do matrix+=(--llm "exec:python3 $PWD/scripts/echo-model.py --delay $delay"); done
total=$((3 * 2 * $(tr ',' '\n' <<<"$benches" | wc -l)))
finished() {
  local n
  n=$(grep -c '"status":"finished"' "$1/index.jsonl" 2>/dev/null) || true
  echo "${n:-0}"
}
now() { date +%s.%N; }
echo "measure-experiment: $total runs; $(date -u +%Y-%m-%dT%H:%MZ), $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); in $out"

if [[ " $parts " == *" slurm "* ]]; then
  ./scripts/setup-slurm.sh
  folder="$out/slurm"
  start=$(now)
  KOPT_SLURM_POLL_S=1 "$kopt" campaign benchmarks/cpu "${matrix[@]}" --executor slurm --jobs 2 \
    --into "$folder" >"$out/slurm-1.log" 2>&1 &
  campaign=$!
  until [ "$(finished "$folder")" -ge $((total / 4)) ] || ! kill -0 $campaign 2>/dev/null; do sleep 2; done
  job=$(head -1 "$folder/slurm/jobs.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["job"])')
  scancel "$job"
  wait $campaign || true
  cut=$(finished "$folder")
  echo "slurm: job $job cancelled with $cut of $total runs finished; kopt said: $(grep -m1 'CANCELLED' "$out/slurm-1.log" || echo '(nothing)')"
  KOPT_SLURM_POLL_S=1 "$kopt" campaign benchmarks/cpu "${matrix[@]}" --executor slurm --jobs 2 \
    --into "$folder" >"$out/slurm-2.log" 2>&1
  echo "slurm: the same command again: $(finished "$folder") of $total finished," \
    "$(grep -c 'finished before' "$out/slurm-2.log") kept from before, wall $(printf '%.0f' "$(echo "$(now) - $start" | bc)") s in all"
  "$kopt" compare "$folder" | tee "$out/compare.txt"
  "$kopt" report "$folder" | tail -1
fi

if [[ " $parts " == *" jobs "* ]]; then
  for n in 1 2; do
    start=$(now)
    KOPT_CACHE_DIR="$out/cache-jobs$n" "$kopt" campaign benchmarks/cpu "${matrix[@]}" --jobs $n \
      --into "$out/jobs$n" >"$out/jobs$n.log" 2>&1 || true
    echo "local --jobs $n: wall $(printf '%.0f' "$(echo "$(now) - $start" | bc)") s, $(finished "$out/jobs$n") of $total finished"
  done
fi

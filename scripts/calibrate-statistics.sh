#!/usr/bin/env bash
# Calibrates the timing decision: how often a kernel against itself is called a significant win
# or loss (must be <= 5%), and how often a true ~10% win is found (must be >= 95%).
#   scripts/calibrate-statistics.sh [SELF_LICM] [SELF_SPMV] [WIN_LICM] [BUDGET]
# Defaults: 40 self-evaluations on licm, 20 on spmv, 20 of the calibrated win
# (scripts/calibration/licm_faster_rows.cpp), each with the default timing budget. Prints the
# machine, its load before and after, every verdict, and the rates.
set -euo pipefail
cd "$(dirname "$0")/.."
self_licm=${1:-40}
self_spmv=${2:-20}
win_licm=${3:-20}
budget=${4:-20}
kopt=./build/kopt
test -x "$kopt" || ./scripts/build.sh
# The evaluations' documents stay in $KOPT_CALIBRATION_OUT when it is set.
if [ -n "${KOPT_CALIBRATION_OUT:-}" ]; then
  out=$KOPT_CALIBRATION_OUT
  mkdir -p "$out"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi

echo "== $(date -u +%Y-%m-%dT%H:%MZ) on $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) CPUs)"
echo "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"

run() {  # BENCH VARIANT COUNT LABEL: COUNT evaluations, one JSON document per line
  local bench=$1 variant=$2 count=$3 label=$4
  for i in $(seq "$count"); do
    $kopt eval "$bench" --variant "$variant" --json --timing-budget "$budget" 2>/dev/null |
      python3 -c 'import json,sys; print(json.dumps(json.loads(sys.stdin.read())))' || true
    echo "   $label $i/$count load $(cut -d' ' -f1 /proc/loadavg)" >&2
  done >"$out/$label.jsonl"
}

summarize() {  # LABEL EXPECTED (none|win)
  python3 - "$out/$1.jsonl" "$1" "$2" <<'PY'
import json, statistics, sys
path, label, expected = sys.argv[1:]
docs = [json.loads(line) for line in open(path) if line.strip()]
status = [d["verdict"]["status"] for d in docs]
speedups = [d["timing"]["speedup"] for d in docs if d.get("timing")]
pairs = [d["timing"]["rounds"] for d in docs if d.get("timing")]
wins, losses = status.count("faster"), status.count("slower")
print(f"== {label}: {len(docs)} evaluations: {wins} faster, {losses} slower, "
      f"{status.count('not-faster')} not-faster, {len(docs) - wins - losses - status.count('not-faster')} other")
for d in docs:  # Anything but a verdict on the timing: say what it was.
    v = d["verdict"]
    if v["status"] not in ("faster", "slower", "not-faster"):
        print(f"   other: {v['status']}: {str(v.get('reason', ''))[:300]}")
if speedups:
    print(f"   speedup median {statistics.median(speedups):.3f} [min {min(speedups):.3f}, "
          f"max {max(speedups):.3f}], pairs median {statistics.median(pairs)}, "
          f"seconds median {statistics.median(d['seconds'] for d in docs):.1f}")
if expected == "none":
    rate = (wins + losses) / max(1, len(docs))
    print(f"   called significant: {rate:.1%} (goal <= 5%): {'PASS' if rate <= 0.05 else 'FAIL'}")
else:
    rate = wins / max(1, len(docs))
    print(f"   found the win: {rate:.1%} (goal >= 95%): {'PASS' if rate >= 0.95 else 'FAIL'}")
PY
}

win=$(mktemp --suffix=.cpp)
cp scripts/calibration/licm_faster_rows.cpp "$win"
run licm original "$self_licm" self-licm
run spmv original "$self_spmv" self-spmv
run licm "$win" "$win_licm" win-licm
rm -f "$win"
echo "   load after: $(cut -d' ' -f1-3 /proc/loadavg)"
summarize self-licm none
summarize self-spmv none
summarize win-licm win

#!/usr/bin/env bash
# How often does each promotion rule end a run with the truly fastest candidate? Three kernels
# of licm whose order is known by construction (scripts/promotion/licm_slower.cpp.in: the same
# hoisted kernel recomputing its scale on 8%, 4% and 0% of each row) are handed in one after
# another by scripts/sequence-model.py, in runs of three iterations under each rule, the rules
# alternating run by run so that both meet the same noise. The fastest is the third.
#   scripts/measure-promotion.sh [REPETITIONS=10] [TIMING_BUDGET_S=3]
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-10}
budget=${2:-3}
kopt=${KOPT:-build/kopt}
out=$(mktemp -d /tmp/kopt-promotion-XXXXXX)
kernels=()
for percent in 8 4 0; do
  sed "s/SLOW_PERCENT/$percent/" scripts/promotion/licm_slower.cpp.in >"$out/slow$percent.cpp"
  kernels+=("$out/slow$percent.cpp")
done
declare -A fastest=([head-to-head]=0 [interval]=0)
echo "rule          rep  best   speedup over the original"
for rep in $(seq 1 "$reps"); do
  for rule in head-to-head interval; do
    rm -f "$out/state"
    "$kopt" run licm --strategy direct --iterations 3 --patience 3 --timing-budget "$budget" \
      --promotion "$rule" --out "$out/$rule" \
      --llm "exec:python3 scripts/sequence-model.py --state $out/state ${kernels[*]}" \
      >"$out/last.txt" 2>&1 || { cat "$out/last.txt"; exit 1; }
    best=$(sed -n 's/^best     \([0-9a-z]*\).*/\1/p' "$out/last.txt")
    line=$(sed -n 's/^best     //p' "$out/last.txt")
    printf "%-13s %3d  %s\n" "$rule" "$rep" "$line"
    [ "$best" = 0003 ] && fastest[$rule]=$((fastest[$rule] + 1))
  done
done
echo
echo "runs that ended with the fastest (0003): head-to-head ${fastest[head-to-head]}/$reps," \
  "interval ${fastest[interval]}/$reps"
echo "(runs kept in $out; $(date -u +%FT%TZ); $(lscpu | sed -n 's/^Model name: *//p'))"

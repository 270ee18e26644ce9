#!/usr/bin/env bash
# kopt predict's CUDA time model against measured times, on a machine with an NVIDIA GPU:
#   1. kopt machine --gpu: the calibration sweep (OUT/calibration.json);
#   2. kopt predict on every CUDA benchmark, --variant both, once with the default efficiencies
#      (--uncalibrated, OUT/predicted-default.json) and once calibrated (predicted-calibrated.json);
#   3. kopt bench on every CUDA benchmark (OUT/measured.json: the median time of one call of the
#      original and of the human version);
#   4. a table (OUT/summary.txt): measured, predicted and the error per variant, and the MAPE
#      over the originals, the human versions and all, for both sets of efficiencies.
# Each part goes on when an earlier one fails; stderr of every part is in OUT/log.txt; six
# files at most. About 5 minutes on an H200 (2026-11-28: sweep 6 s, predictions 31 s).
#
# Usage: scripts/measure-predict-gpu.sh [OUT]
#   KOPT_BUILD=DIR        the kopt build to use (default: build); with scripts/gpu-bundle.sh:
#                         source .gpu-bundle/enter.sh && KOPT_BUILD=.gpu-bundle/build scripts/measure-predict-gpu.sh OUT
#   KOPT_BUDGET=SECONDS   kopt bench's timing budget per benchmark (default 1)
#   KOPT_BENCH_SECONDS=S  the wall-clock limit of all the kopt bench runs together (default 250)
#   KOPT_BENCH_EACH=S     the most one benchmark's kopt bench may take of it (default 90; on an
#                         H200 stencil2d_cuda's check and timing took more, 2026-11-28)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/gpu-predict-results}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$root"
build=$(cd "${KOPT_BUILD:-build}" && pwd)
kopt=$build/kopt
log=$out/log.txt
say() { echo "measure-predict-gpu: $*" | tee -a "$out/summary.txt"; }

if [[ ! -e /dev/nvidiactl ]]; then
  echo "measure-predict-gpu: no NVIDIA GPU here (no /dev/nvidiactl)" >&2
  exit 2
fi
: >"$out/summary.txt"
say "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n1), $(date -u +%FT%TZ), kopt $(git rev-parse --short HEAD 2>/dev/null)"

start=$SECONDS
timeout 90 "$kopt" machine --gpu --refresh --json >"$out/calibration.json" 2>>"$log"
say "1. kopt machine --gpu: exit $? in $((SECONDS - start)) s"
timeout 90 "$kopt" machine --gpu 2>>"$log" | tee -a "$out/summary.txt"

mapfile -t cuda < <("$kopt" list | awk '$2 == "cuda" {print $1}')
# One kopt predict per benchmark, eight at a time (each builds its PTX and its launch tracer
# with nvcc); the defaults first, so that the calibrated pass finds the traces cached.
predict_all() {  # predict_all NAME [FLAGS...]: OUT/predicted-NAME.json, an array of documents
  local name=$1 parts=$out/parts-$1
  shift
  mkdir -p "$parts"
  printf '%s\n' "${cuda[@]}" | timeout 170 xargs -P 8 -I{} sh -c \
    'k=$0 p=$1; shift; "$k" predict {} --variant both --json "$@" >"$p/{}.json" 2>>"$p/{}.log"' \
    "$kopt" "$parts" "$@"
  local rc=$?
  cat "$parts"/*.log >>"$log" 2>/dev/null
  python3 - "$parts" >"$out/predicted-$name.json" <<'PY'
import glob, json, sys
docs = []
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    try:
        doc = json.load(open(path))
    except Exception as e:
        docs.append({"file": path, "error": f"unreadable: {e}"})
        continue
    docs.extend(doc if isinstance(doc, list) else [doc])
json.dump(docs, sys.stdout, indent=1)
PY
  rm -rf "$parts"
  return $rc
}
start=$SECONDS
predict_all default --uncalibrated
say "2a. kopt predict (default efficiencies): exit $? in $((SECONDS - start)) s"
start=$SECONDS
predict_all calibrated
say "2b. kopt predict (calibrated): exit $? in $((SECONDS - start)) s"

# One kopt bench per benchmark, in turn, within one deadline for all (KOPT_BENCH_SECONDS): a
# benchmark that runs past its share loses its own row only. The 1 GiB outputs of stencil2d,
# transpose and triad cost time in the file protocol, so those three go last. (A benchmark
# whose human version fails the check, as spmv_csr_cuda's did on an H200, gets no timing.)
start=$SECONDS
deadline=$((SECONDS + ${KOPT_BENCH_SECONDS:-250}))
mkdir -p "$out/parts-bench"
for b in $(printf '%s\n' "${cuda[@]}" | grep -v -E '^(stencil2d|transpose|triad)_cuda$') \
         $(printf '%s\n' "${cuda[@]}" | grep -E '^(stencil2d|transpose|triad)_cuda$'); do
  each=${KOPT_BENCH_EACH:-90}
  limit=$((deadline - SECONDS < each ? deadline - SECONDS : each))
  ((limit >= 10)) || { echo "kopt bench $b: no time left" >>"$log"; continue; }
  timeout "$limit" "$kopt" bench "$b" --json --timing-budget "${KOPT_BUDGET:-1}" \
    >"$out/parts-bench/$b.json" 2>>"$log" || echo "kopt bench $b: exit $?" >>"$log"
done
python3 - "$out/parts-bench" >"$out/measured.json" <<'PY'
import glob, json, sys
docs = []
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    try:
        doc = json.load(open(path))
    except Exception:
        continue
    docs.extend(doc if isinstance(doc, list) else [doc])
json.dump(docs, sys.stdout, indent=1)
PY
rm -rf "$out/parts-bench"
timed=$(python3 -c 'import json,sys; print(sum(1 for d in json.load(open(sys.argv[1])) if (d.get("timing") or {}).get("ok")))' "$out/measured.json" 2>>"$log")
say "3. kopt bench: ${timed:-no} timings of ${#cuda[@]} benchmarks in $((SECONDS - start)) s"

python3 - "$out" <<'PY' 2>>"$log" | tee -a "$out/summary.txt"
import json, os, sys
out = sys.argv[1]
def load(name):
    try:
        doc = json.load(open(os.path.join(out, name)))
    except Exception as e:
        print(f"(no {name}: {e})")
        return []
    return doc if isinstance(doc, list) else [doc]
measured = {}
for e in load("measured.json"):
    t = e.get("timing") or {}
    if not t.get("ok"): continue
    name = e["benchmark"]["name"] if isinstance(e["benchmark"], dict) else e["benchmark"]
    measured[(name, "original")] = t["baseline"]["median"]
    if t.get("candidate"): measured[(name, "human")] = t["candidate"]["median"]
models = {m: {(d["benchmark"], d["variant"]): d["prediction"] for d in load(f"predicted-{m}.json")
              if "prediction" in d} for m in ("default", "calibrated")}
print(f"{'benchmark':<16} {'variant':<9} {'measured ms':>11} {'default ms':>10} {'error':>7} "
      f"{'calibrated ms':>13} {'error':>7}  bound (calibrated)")
errors = {m: {"original": [], "human": []} for m in models}
for key in sorted(set(measured) | set(models["default"]) | set(models["calibrated"])):
    real = measured.get(key)
    row = f"{key[0]:<16} {key[1]:<9} " + (f"{real*1e3:>11.4f}" if real else f"{'-':>11}")
    for m, width in (("default", 10), ("calibrated", 13)):
        p = models[m].get(key)
        if p is None:
            row += f" {'-':>{width}} {'-':>7}"
            continue
        if not real:
            row += f" {p['seconds']*1e3:>{width}.4f} {'-':>7}"
            continue
        err = abs(p["seconds"] - real) / real
        errors[m][key[1]].append(err)
        row += f" {p['seconds']*1e3:>{width}.4f} {err*100:>6.0f}%"
    c = models["calibrated"].get(key)
    print(row + f"  {c['bound'] if c else ''}")
def mape(values): return f"{100*sum(values)/len(values):.0f}% ({len(values)})" if values else "-"
def median(values):
    v = sorted(values)
    return f"{100*(v[len(v)//2] if len(v) % 2 else (v[len(v)//2 - 1] + v[len(v)//2]) / 2):.0f}%" if v else "-"
for m in models:
    e = errors[m]
    within = sum(1 for v in e["original"] + e["human"] if v <= 0.5)
    print(f"MAPE {m:<10} originals {mape(e['original'])}, human versions {mape(e['human'])}, "
          f"all {mape(e['original'] + e['human'])}; median {median(e['original'] + e['human'])}; "
          f"within 50%: {within} of "
          f"{len(e['original']) + len(e['human'])}")
PY
say "done; files: $(cd "$out" && ls | tr '\n' ' ')"

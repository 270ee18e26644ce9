#!/usr/bin/env bash
# kopt predict against kopt's own measurements: every CPU kernel benchmark of the suite, its
# original and its human version timed side by side by `kopt bench --json` (the median time of
# one call on each side), then predicted by `kopt predict --all --variant both --json` (and by
# a model through --method llm when LLM_SPEC is given). Prints one row per variant and the mean
# absolute percentage error (MAPE) of each method over the originals, the human versions and
# all; keeps the documents in OUT.
# Usage: scripts/measure-predict.sh [OUT] [LLM_SPEC] [BUDGET]   (BUDGET: kopt bench's
#        --timing-budget, default 5 s)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/kopt-predict-$(date +%Y%m%d-%H%M%S)}
llm=${2:-}
budget=${3:-5}
kopt=${KOPT:-./build/kopt}
mkdir -p "$out"
echo "measure-predict: $(date -u +%FT%TZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/conditions.txt"
"$kopt" predict --all --variant both --json >"$out/predicted.json"
mapfile -t cpu < <(python3 -c 'import json,sys; [print(d["benchmark"]) for d in json.load(open(sys.argv[1])) if "prediction" in d and d["variant"] == "original"]' "$out/predicted.json")
[ -s "$out/measured.json" ] || "$kopt" bench "${cpu[@]}" --json --timing-budget "$budget" >"$out/measured.json" || true
if [ -n "$llm" ]; then
  "$kopt" predict --all --variant both --method llm --llm "$llm" --json >"$out/llm.json" || true
fi
echo "measure-predict: load at the end $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/conditions.txt"
python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
def load(name):
    path = os.path.join(out, name)
    if not os.path.exists(path): return []
    doc = json.load(open(path))
    return doc if isinstance(doc, list) else [doc]
measured = {}
for e in load("measured.json"):
    t = e.get("timing") or {}
    if not t.get("ok"): continue
    name = e["benchmark"]["name"] if isinstance(e["benchmark"], dict) else e["benchmark"]
    measured[(name, "original")] = t["baseline"]["median"]
    measured[(name, "human")] = t["candidate"]["median"]
methods = {"model": load("predicted.json"), "llm": load("llm.json")}
predicted = {m: {(d["benchmark"], d["variant"]): d["prediction"]["seconds"]
                 for d in docs if "prediction" in d} for m, docs in methods.items()}
bounds = {(d["benchmark"], d["variant"]): d["prediction"].get("bound", "")
          for d in methods["model"] if "prediction" in d}
print(f"{'benchmark':<20} {'variant':<9} {'measured ms':>12} {'model ms':>10} {'error':>8}  bound"
      + (f" {'llm ms':>10} {'error':>8}" if predicted["llm"] else ""))
errors = {m: {"original": [], "human": []} for m in methods}
for key in sorted(measured):
    real = measured[key]
    row = f"{key[0]:<20} {key[1]:<9} {real*1e3:>12.3f}"
    for m in ("model", "llm"):
        if m == "llm" and not predicted["llm"]: continue
        p = predicted[m].get(key)
        if p is None:
            row += f" {'-':>10} {'-':>8}" + ("  -" if m == "model" else "")
            continue
        err = abs(p - real) / real
        errors[m][key[1]].append(err)
        row += f" {p*1e3:>10.3f} {err*100:>7.0f}%" + (f"  {bounds.get(key, '')}" if m == "model" else "")
    print(row)
for m in methods:
    if not predicted[m]: continue
    parts = []
    for v in ("original", "human"):
        e = errors[m][v]
        if e: parts.append(f"{v} {100*sum(e)/len(e):.0f}% ({len(e)})")
    both = errors[m]["original"] + errors[m]["human"]
    if both:
        within = sum(1 for e in both if e <= 0.5)
        print(f"MAPE {m}: " + ", ".join(parts) + f", all {100*sum(both)/len(both):.0f}% ({len(both)}); "
              f"within 50%: {within} of {len(both)}")
PY

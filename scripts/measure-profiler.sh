#!/usr/bin/env bash
# Measures kopt's profiler and roofline predictor and prints markdown tables (the figures in
# docs/profiling.md come from this script):
#   1. the profiler's overhead: median call time of the same driver with and without perf;
#   2. the roofline class of every CPU benchmark (original and human) by each method, and each
#      method's accuracy against the measured class;
#   3. the static class of the CUDA benchmarks (their measured class needs a GPU);
#   4. the RTX 3080 data set: every label reproduced from the raw counters.
#
# Usage: scripts/measure-profiler.sh [BENCH ...]
#   KOPT=path/to/kopt      the binary (default: build/kopt)
#   KOPT_LLM=SPEC          also run the llm method through this backend (e.g. openai:gpt-4o)
#   KOPT_HARDWARE=NAME     GPU for the CUDA static classes (default: h100)
#   SKIP_OVERHEAD=1        skip part 1
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
kopt=${KOPT:-$root/build/kopt}
[ -x "$kopt" ] || { echo "measure-profiler: no kopt at $kopt (build first or set KOPT)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpu=()
cuda=()
while read -r name lang _; do
  [ "$name" = BENCHMARK ] && continue
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  if [ "$lang" = cuda ]; then cuda+=("$name"); else cpu+=("$name"); fi
done < <("$kopt" list)

echo "kopt: $("$kopt" --version 2>/dev/null || echo "$kopt"); host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs), $(nproc) CPUs"
echo
echo "## Machine model"
"$kopt" machine | sed 's/^/    /'

if [ -z "${SKIP_OVERHEAD:-}" ]; then
  for b in "${cpu[@]}"; do
    "$kopt" profile "$b" --overhead --json > "$work/profile-$b.json" 2> "$work/profile-$b.err" || true
  done
fi

for b in "${cpu[@]}"; do
  for v in original human; do
    for m in measured static ${KOPT_LLM:+llm}; do
      "$kopt" roofline "$b" --variant "$v" --method "$m" --json > "$work/roofline-$b-$v-$m.json" \
        2> "$work/roofline-$b-$v-$m.err" || true
    done
  done
done
for b in "${cuda[@]}"; do
  for v in original human; do
    "$kopt" roofline "$b" --variant "$v" --method static --hardware "${KOPT_HARDWARE:-h100}" --json \
      > "$work/cuda-$b-$v.json" 2> "$work/cuda-$b-$v.err" || true
  done
done

python3 - "$work" "${KOPT_LLM:-}" "${KOPT_HARDWARE:-h100}" "${cpu[@]}" -- "${cuda[@]}" <<'EOF'
import json, os, statistics, sys

work, llm, gpu = sys.argv[1], sys.argv[2], sys.argv[3]
rest = sys.argv[4:]
split = rest.index("--")
cpu, cuda = rest[:split], rest[split + 1:]

def load(name):
    path = os.path.join(work, name)
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        err = path[:-5] + ".err"
        reason = open(err).read().strip().splitlines()[-1:] if os.path.exists(err) else []
        return {"error": reason[0] if reason else "no output"}

def binary(cls):
    return "compute" if cls == "compute-bound" else "bandwidth"

def fp_only(doc):
    p = doc["point"]
    ai, b = p["intensity"], p["balance"]
    above = any((ai[k] or 0) >= b[k] for k in ("fp64", "fp32"))
    return "compute" if above else "bandwidth"

overheads = []
if cpu and os.path.exists(os.path.join(work, "profile-%s.json" % cpu[0])):
    print("\n## Profiler overhead (perf record -e cpu-clock:u -F 999 --call-graph dwarf)\n")
    print("| benchmark | samples | kernel share | plain ms/call | profiled ms/call | overhead |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for b in cpu:
        d = load("profile-%s.json" % b)
        o = d.get("overhead")
        if not o or not o.get("plain_seconds"):
            print("| %s | | | | | %s |" % (b, d.get("error", "n/a")))
            continue
        overheads.append(o["fraction"])
        kernel = d["by_place"].get("kernel", 0) / max(d["total"], 1)
        print("| %s | %d | %.0f%% | %.3f | %.3f | %+.1f%% |" % (b, d["total"], 100 * kernel,
              1e3 * o["plain_seconds"], 1e3 * o["profiled_seconds"], 100 * o["fraction"]))
    if overheads:
        print("\nmedian overhead %+.1f%% per call (min %+.1f%%, max %+.1f%%) over %d benchmarks" % (
            100 * statistics.median(overheads), 100 * min(overheads), 100 * max(overheads), len(overheads)))

methods = ["static"] + (["llm"] if llm else [])
print("\n## Roofline classes on this host (CPU benchmarks)\n")
print("| benchmark | variant | measured (3-way) | achieved BW | measured | static | static, flops only |%s" %
      (" llm |" if llm else ""))
print("| --- | --- | --- | ---: | --- | --- | --- |%s" % (" --- |" if llm else ""))
hits = {"static": [0, 0], "static-fp": [0, 0], "llm": [0, 0]}
for b in cpu:
    for v in ("original", "human"):
        m = load("roofline-%s-%s-measured.json" % (b, v))
        s = load("roofline-%s-%s-static.json" % (b, v))
        if "error" in m:
            print("| %s | %s | %s | | | | |" % (b, v, m["error"]))
            continue
        truth = binary(m["point"]["class_by_intensity"])
        row = [b, v, m["point"]["class"], "%.0f%%" % (100 * m["point"].get("bandwidth_fraction", 0)), truth]
        if "error" in s:
            row += ["error", "error"]
        else:
            for key, cls in (("static", binary(s["point"]["class_by_intensity"])), ("static-fp", fp_only(s))):
                hits[key][0] += cls == truth
                hits[key][1] += 1
                row.append(cls + ("" if cls == truth else " ✗"))
        if llm:
            l = load("roofline-%s-%s-llm.json" % (b, v))
            cls = "error" if "error" in l else binary(l["point"]["class"])
            if cls != "error":
                hits["llm"][0] += cls == truth
                hits["llm"][1] += 1
            row.append(cls + ("" if cls in (truth, "error") else " ✗"))
        print("| " + " | ".join(row) + " |")

print("\n## Accuracy against the measured class (compute- vs bandwidth-bound)\n")
print("| method | correct | cases | accuracy |")
print("| --- | ---: | ---: | ---: |")
names = {"static": "static (fp64, fp32 and integer intensities)", "static-fp": "static (floating point only, as the manifest counts)", "llm": "llm (%s)" % llm}
for key in ("static", "static-fp") + (("llm",) if llm else ()):
    ok, n = hits[key]
    if n:
        print("| %s | %d | %d | %.0f%% |" % (names[key], ok, n, 100.0 * ok / n))

if cuda:
    print("\n## CUDA benchmarks: static class on %s (the measured class needs a GPU)\n" % gpu)
    print("| benchmark | variant | static | fp32 AI | fp64 AI | int AI |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for b in cuda:
        for v in ("original", "human"):
            d = load("cuda-%s-%s.json" % (b, v))
            if "error" in d:
                print("| %s | %s | %s | | | |" % (b, v, d["error"]))
                continue
            ai = d["point"]["intensity"]
            print("| %s | %s | %s | %.3g | %.3g | %.3g |" % (b, v, d["point"]["class"], ai["fp32"] or 0,
                  ai["fp64"] or 0, ai["int"] or 0))
EOF

echo
echo "## RTX 3080 data set (gpuFLOPBench, MIT): the paper's labels from the raw counters"
echo
"$kopt" roofline --counters-csv "$root/tests/fixtures/rtx3080-profiling.csv" --hardware rtx3080 | sed 's/^/    /'

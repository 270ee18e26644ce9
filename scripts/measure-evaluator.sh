#!/usr/bin/env bash
# Measures kopt's own cost per evaluation: everything except the kernel's timed calls, with a
# cold build cache and a warm one (the default budget and --timing-budget 0); then the spread of
# repeated `kopt bench` speedups. Prints the machine and its load, since both move the figures.
#   scripts/measure-evaluator.sh [BENCH] [REPEATS]
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${1:-licm}
repeats=${2:-5}
kopt=${KOPT:-./build/kopt}  # KOPT=path measures another build
test -x "$kopt" || ./scripts/build.sh
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT

overhead() {  # reads an evaluation document, prints one line of its cost breakdown
  python3 -c '
import json, sys
e = json.load(sys.stdin)
t = e["timing"]
if "timed_seconds" in t:  # sessions: kopt clocks every block of calls
    timed = t["timed_seconds"]
    processes = 2
else:  # the file protocol (before sessions): per-call samples, two processes a round
    timed = sum(sum(run) for side in ("baseline", "candidate") for run in t["samples"][side])
    processes = 2 * t["rounds"] + 2 + 2 * len(e["check"]["cases"]) + 1
total = e["seconds"]
build, check = e["build"]["seconds"], e["check"]["seconds"]
outside, rounds = t["seconds"] - timed, t["rounds"]
print(f"{sys.argv[1]:<6} total {total:6.2f} s = timed calls {timed:6.2f} s + kopt {total - timed:6.2f} s "
      f"(build {build:.2f} s, check {check:.2f} s, timing outside the calls {outside:.2f} s, "
      f"{processes} driver processes, {rounds} rounds/pairs)")
' "$1"
}

echo "== $(date -u +%Y-%m-%dT%H:%MZ) on $(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== kopt's overhead per evaluation of $bench (human against original)"
KOPT_CACHE_DIR=$cache $kopt eval "$bench" --variant human --json 2>/dev/null | overhead cold
KOPT_CACHE_DIR=$cache $kopt eval "$bench" --variant human --json 2>/dev/null | overhead warm
KOPT_CACHE_DIR=$cache $kopt eval "$bench" --variant human --json --timing-budget 0 2>/dev/null | overhead b=0

echo "== spread of $repeats repeated 'kopt bench $bench'"
for i in $(seq "$repeats"); do
  KOPT_CACHE_DIR=$cache $kopt bench "$bench" --json 2>/dev/null
done | python3 -c '
import json, sys, statistics
text = sys.stdin.read()
docs, decoder, at = [], json.JSONDecoder(), 0
while at < len(text):
    while at < len(text) and text[at].isspace(): at += 1
    if at >= len(text): break
    doc, at = decoder.raw_decode(text, at)
    docs.extend(doc)
s = [d["timing"]["speedup"] for d in docs]
for d in docs:
    t = d["timing"]
    status = d["verdict"]["status"]
    speedup, low, high, p = t["speedup"], t["ci_low"], t["ci_high"], t["p_value"]
    print(f"  {speedup:.3f}x [{low:.3f}, {high:.3f}] p={p:.1g} {status}")
print(f"  median {statistics.median(s):.3f}x, min {min(s):.3f}x, max {max(s):.3f}x, "
      f"relative spread (max-min)/median {(max(s) - min(s)) / statistics.median(s):.1%}")
'

#!/usr/bin/env bash
# Everything that only an NVIDIA GPU can prove, in one go, written under OUT (default: gpu-results):
#   1. kopt bench on every CUDA benchmark: the markdown table for benchmarks/README.md;
#   2. the GPU tests (device tests, GPU cheats, CUPTI fixtures) through ctest;
#   3. new CUPTI fixtures (scripts/record-cupti-fixtures.sh), copied into tests/fixtures/cupti;
#   4. kopt profile and kopt roofline --method measured on every CUDA benchmark.
# Each part goes on when an earlier one fails; what failed is in OUT/*.log.
#
# Usage: scripts/measure-gpu.sh [OUT]
#   KOPT_BUDGET=SECONDS   timing budget per benchmark (default 10)
#   KOPT_HARDWARE=NAME    the hardware table's name of this GPU for the roofline (default: h100,
#                         or h200 when nvidia-smi names one)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/gpu-results}
build=$root/build-gpu
mkdir -p "$out"
cd "$root"

if [[ ! -e /dev/nvidiactl ]]; then
  echo "measure-gpu: no NVIDIA GPU here (no /dev/nvidiactl)" >&2
  exit 2
fi
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
hardware=${KOPT_HARDWARE:-$([[ $gpu == *H200* ]] && echo h200 || echo h100)}
echo "measure-gpu: $gpu (roofline hardware $hardware), results in $out"

./scripts/setup.sh >"$out/setup.log" 2>&1 || echo "measure-gpu: setup failed, see setup.log"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKOPT_WERROR=OFF >/dev/null &&
  ninja -C "$build" >"$out/build.log" 2>&1 || { echo "measure-gpu: build failed, see build.log"; exit 1; }
kopt=$build/kopt
nvidia-smi >"$out/nvidia-smi.txt"

mapfile -t cuda < <("$kopt" list | awk '$2 == "cuda" {print $1}')
"$kopt" bench "${cuda[@]}" --markdown --timing-budget "${KOPT_BUDGET:-10}" >"$out/bench.md" 2>"$out/bench.log"
"$kopt" bench "${cuda[@]}" --json --timing-budget "${KOPT_BUDGET:-10}" >"$out/bench.json" 2>>"$out/bench.log"
echo "measure-gpu: bench done ($(grep -c '|' "$out/bench.md") table lines)"

(cd "$build" && ctest -R 'Gpu|Cupti|Cubin|cuda_benchmarks_build' --output-on-failure) >"$out/gpu-tests.log" 2>&1
echo "measure-gpu: GPU tests: $(grep -E 'tests passed|tests failed' "$out/gpu-tests.log" | tail -n1)"

./scripts/record-cupti-fixtures.sh "$build" >"$out/fixtures.log" 2>&1
echo "measure-gpu: fixtures: $(tail -n1 "$out/fixtures.log")"

for b in "${cuda[@]}"; do
  for v in original human; do
    "$kopt" profile "$b" --variant "$v" >"$out/profile-$b-$v.txt" 2>&1
    "$kopt" roofline "$b" --variant "$v" --method measured --hardware "$hardware" --json \
      >"$out/roofline-$b-$v.json" 2>"$out/roofline-$b-$v.err"
  done
done
echo "measure-gpu: profiles and rooflines written"

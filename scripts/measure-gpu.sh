#!/usr/bin/env bash
# Everything that only an NVIDIA GPU can prove, in one go, written under OUT (default: gpu-results):
#   1. the GPU tests (device tests, GPU cheats), recording new CUPTI fixtures into
#      OUT/fixtures.tar.gz (unpack into tests/fixtures/cupti to keep them);
#   2. kopt bench on every CUDA benchmark (OUT/bench.md, the table for benchmarks/README.md);
#   3. kopt profile and kopt roofline --method measured on every CUDA benchmark;
#   4. unless KOPT_BUILD is given, the CUDA benchmarks' build check (scripts/build-cuda-benchmarks.sh).
# Each part goes on when an earlier one fails; OUT/summary.txt has one line per part and at most
# eight files are written, each whole when a part is cut off.
#
# Usage: scripts/measure-gpu.sh [OUT]
#   KOPT_BUILD=DIR        use this kopt build (kopt, tests/kopt_gpu_tests, the injection library)
#                         instead of setting up and building into build-gpu; see
#                         scripts/gpu-bundle.sh for a machine that cannot build kopt
#   KOPT_BUDGET=SECONDS   timing budget per benchmark (default 10)
#   KOPT_HARDWARE=NAME    the hardware table's name of this GPU for the roofline (default: h100,
#                         or h200 when nvidia-smi names one)
#   KOPT_PARTS="..."      which of tests, bench, profiles to run (default: all three)
#   KOPT_BENCHMARKS="..." the CUDA benchmarks for bench and profiles (default: every one)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/gpu-results}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$root"

if [[ ! -e /dev/nvidiactl ]]; then
  echo "measure-gpu: no NVIDIA GPU here (no /dev/nvidiactl)" >&2
  exit 2
fi
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
hardware=${KOPT_HARDWARE:-$([[ $gpu == *H200* ]] && echo h200 || echo h100)}
say() { echo "measure-gpu: $*" | tee -a "$out/summary.txt"; }
say "$gpu (roofline hardware $hardware), $(date -u +%Y-%m-%dT%H:%M:%SZ), kopt $(git rev-parse --short HEAD 2>/dev/null)"

if [[ -n ${KOPT_BUILD:-} ]]; then
  build=$(cd "$KOPT_BUILD" && pwd)
else
  build=$root/build-gpu
  ./scripts/setup.sh >"$out/setup.log" 2>&1 || say "setup failed, see setup.log"
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKOPT_WERROR=OFF >/dev/null &&
    ninja -C "$build" >"$out/build.log" 2>&1 || { say "build failed, see build.log"; exit 1; }
fi
kopt=$build/kopt
nvidia-smi >>"$out/summary.txt"

parts=${KOPT_PARTS:-tests bench profiles}
mapfile -t cuda < <("$kopt" list | awk '$2 == "cuda" {print $1}')
[[ -z ${KOPT_BENCHMARKS:-} ]] || read -r -a cuda <<<"$KOPT_BENCHMARKS"

if [[ " $parts " == *" tests "* ]]; then
# The device tests record the CUPTI fixtures where KOPT_RECORD_CUPTI_FIXTURES points.
KOPT_RECORD_CUPTI_FIXTURES=$out/fixtures timeout 200 "$build/tests/kopt_gpu_tests" --gtest_color=no \
  --gtest_output="xml:$out/gpu-tests.xml" >"$out/gpu-tests.log" 2>&1
say "GPU tests: exit $? ($(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$out/gpu-tests.log" | tr '\n' ' '))"
# Counters and PC sampling are often kept to administrators, and the sandbox runs the benchmark
# as nobody: as root, the device tests then run once more outside the sandbox for the fixtures.
if grep -q '^\[  FAILED  \] GpuDeviceTest' "$out/gpu-tests.log" && [[ $(id -u) == 0 ]]; then
  rm -rf "$out/fixtures"
  KOPT_GPU_TESTS_NO_SANDBOX=1 KOPT_RECORD_CUPTI_FIXTURES=$out/fixtures timeout 100 \
    "$build/tests/kopt_gpu_tests" --gtest_color=no --gtest_filter='GpuDeviceTest.*' \
    >>"$out/gpu-tests.log" 2>&1
  say "GPU device tests outside the sandbox: exit $?"
fi
[[ -d $out/fixtures ]] && tar -C "$out" -czf "$out/fixtures.tar.gz" fixtures && rm -rf "$out/fixtures"
fi

if [[ " $parts " == *" bench "* ]]; then
timeout 150 "$kopt" bench "${cuda[@]}" --markdown --timing-budget "${KOPT_BUDGET:-10}" >"$out/bench.md" 2>&1
say "bench: exit $? on ${#cuda[@]} benchmarks"
fi

if [[ " $parts " == *" profiles "* ]]; then

# One file each for the profiles and the rooflines, so that a cut-off run still leaves them.
for b in "${cuda[@]}"; do
  for v in original human; do
    { echo "=== kopt profile $b --variant $v"; timeout 60 "$kopt" profile "$b" --variant "$v" 2>&1; } >>"$out/profiles.txt"
    { echo "=== kopt roofline $b --variant $v --method measured"
      timeout 60 "$kopt" roofline "$b" --variant "$v" --method measured --hardware "$hardware" --json 2>&1; } \
      >>"$out/rooflines.txt"
  done
done
say "profiles and rooflines: $(grep -c '^===' "$out/profiles.txt") each"
fi
[[ -z ${KOPT_BUILD:-} ]] || exit 0
KOPT_CUDA_ARCH=sm_90 ./scripts/build-cuda-benchmarks.sh >"$out/cuda-build.log" 2>&1
say "CUDA build check: exit $? ($(tail -n1 "$out/cuda-build.log"))"

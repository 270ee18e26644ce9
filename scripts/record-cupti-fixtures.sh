#!/usr/bin/env bash
# Records the CUPTI fixtures of tests/fixtures/cupti on a machine with an NVIDIA GPU (an H100 or
# H200): builds kopt with the injection library, runs the GPU device tests, which build
# benchmarks/cuda/triad and run it under PC sampling and under the range profiler, keeps what the
# injection library wrote, and copies it into tests/fixtures/cupti/triad. Then it runs the
# fixture tests on the new files. See docs/gpu-profiling.md.
#
# Usage: scripts/record-cupti-fixtures.sh [BUILD_DIR]      (default: build-gpu)
# The GPU's performance counters must be open to the user the benchmark runs as. The sandbox runs
# it as an unprivileged user without capabilities, so either load the nvidia module with
# NVreg_RestrictProfilingToAdminUsers=0, or run this script as root with
# KOPT_GPU_TESTS_NO_SANDBOX=1.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-gpu}
fixtures=$root/tests/fixtures/cupti

if [[ ! -e /dev/nvidiactl ]] || ! command -v nvidia-smi >/dev/null; then
  echo "record-cupti-fixtures: no NVIDIA GPU here (no /dev/nvidiactl or nvidia-smi)" >&2
  exit 2
fi

cmake -S "$root" -B "$build" -G Ninja -DKOPT_WERROR=OFF >/dev/null
if ! grep -q '^KOPT_CUPTI_LIBRARY:FILEPATH=/' "$build/CMakeCache.txt"; then
  echo "record-cupti-fixtures: CMake found no CUPTI; install the CUDA toolkit's CUPTI" >&2
  exit 2
fi
ninja -C "$build" kopt_gpu_tests kopt_cupti_inject

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
KOPT_RECORD_CUPTI_FIXTURES=$scratch "$build/tests/kopt_gpu_tests" \
  --gtest_filter='GpuDeviceTest.*' --gtest_color=no | tee "$scratch/device-tests.log"

if [[ ! -s $scratch/triad/pcsampling/pcsampling.jsonl ]]; then
  echo "record-cupti-fixtures: no PC samples were recorded; see the log above" >&2
  cat "$scratch/triad/pcsampling/error.json" 2>/dev/null >&2 || true
  exit 1
fi

rm -rf "$fixtures/triad"
mkdir -p "$fixtures/triad"
cp "$scratch/triad/recorded.json" "$scratch/triad/kernel.cu" "$fixtures/triad/"
for what in pcsampling counters; do
  [[ -d $scratch/triad/$what ]] || continue
  mkdir -p "$fixtures/triad/$what"
  cp -r "$scratch/triad/$what/." "$fixtures/triad/$what/"
  rm -f "$fixtures/triad/$what"/*.tmp*
done
{
  echo "recorded: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "kopt commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv
  "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" --version | tail -n 2
} >"$fixtures/triad/machine.txt"

"$build/tests/kopt_gpu_tests" --gtest_filter='CuptiFixtureTest.*' --gtest_color=no
echo "record-cupti-fixtures: fixtures in $fixtures/triad ($(du -sh "$fixtures/triad" | cut -f1))"

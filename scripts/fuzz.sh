#!/usr/bin/env bash
# Builds every libFuzzer target (fuzz/, Clang with ASan and UBSan) into build-fuzz/ and runs each
# for SECONDS (default 60) on a copy of its committed seed corpus, with a per-input time limit and
# a memory limit. Exits non-zero when any target finds a crash, a leak, a hang, an out-of-memory
# or a sanitizer report; the input that did it is kept in build-fuzz/findings/TARGET/.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: text_tools chat_json sse ...)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
root=$PWD
build=${KOPT_FUZZ_BUILD:-build-fuzz}
if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found (scripts/setup.sh --fuzz installs it)" >&2
  exit 2
fi
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" -DKOPT_FUZZ=ON -DKOPT_SANITIZE=address,undefined >/dev/null
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for source in fuzz/*_fuzz.cpp; do
    name=$(basename "$source" _fuzz.cpp)
    targets+=("$name")
  done
fi
if [ -z "${KOPT_FUZZ_NO_BUILD:-}" ]; then
  ninja -C "$build" -j "$(nproc)" "${targets[@]/#/fuzz_}" | grep -v "^ninja: no work to do" || true
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
for name in "${targets[@]}"; do
  binary=$build/fuzz/fuzz_$name
  test -x "$binary" || { echo "fuzz: $binary was not built" >&2; exit 2; }
  corpus=$build/corpus/$name findings=$build/findings/$name
  mkdir -p "$corpus" "$findings"
  cp -n fuzz/corpus/"$name"/* "$corpus"/ 2>/dev/null || true
  options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/")
  test -f "fuzz/dict/$name.dict" && options+=(-dict="fuzz/dict/$name.dict")
  echo "fuzz: $name for ${seconds}s"
  if ! (cd "$root" && "$binary" "${options[@]}" "$corpus" >"$build/fuzz-$name.log" 2>&1); then
    failed+=("$name")
    echo "fuzz: $name FAILED; the input is in $findings/, the report in $build/fuzz-$name.log:"
    grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$build/fuzz-$name.log" | head -5
  else
    grep -E "stat::number_of_executed_units|cov:" "$build/fuzz-$name.log" | tail -2
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in: ${failed[*]}"
  exit 1
fi
echo "fuzz: no findings in ${#targets[@]} targets, ${seconds}s each"

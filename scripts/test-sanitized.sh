#!/usr/bin/env bash
# Builds kopt and its tests with sanitizers and runs ctest there; any sanitizer report fails
# its test. By default AddressSanitizer + UndefinedBehaviorSanitizer over the whole suite in
# build-sanitized/; KOPT_SANITIZERS=thread builds with ThreadSanitizer in build-tsan/ instead
# (give it the tests that use threads, e.g. -R 'Llm|Stream|Retry|Campaign|Executor|Slurm').
# Usage: scripts/test-sanitized.sh [ctest arguments]      CXX=clang++ for Clang (default: GCC)
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizers=${KOPT_SANITIZERS:-address,undefined}
default_build=build-sanitized
[ "$sanitizers" = thread ] && default_build=build-tsan
build=${KOPT_SANITIZED_BUILD:-$default_build}
# Warnings are not errors here: GCC 12's -Wmaybe-uninitialized misfires inside libstdc++'s
# <regex> under -fsanitize=address at -O1. The warning-clean builds are scripts/build.sh and
# scripts/check-builds.sh; this one looks for what happens at run time.
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
    -DKOPT_WERROR=OFF -DKOPT_SANITIZE="$sanitizers" >/dev/null
fi
ninja -C "$build" -j "$(nproc)" | grep -v "^ninja: no work to do" || true
test -x "$build/kopt"
# Leaks are reported too; a sanitizer report aborts the process, so the test fails.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
cd "$build"
ctest --output-on-failure -j "$(nproc)" "$@"

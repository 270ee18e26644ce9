#!/usr/bin/env bash
# Configures (once) and builds kopt into build/. Quick when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/.."
# Release (no debug information): a quarter less compile time than RelWithDebInfo, keeping CI
# within its time on two cores; configure build/ yourself for another type (README, "Building").
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DKOPT_WERROR=ON >/dev/null
else
  # Warnings are errors in our scripts and CI, where the compiler is known.
  cmake -DKOPT_WERROR=ON build >/dev/null
fi
jobs=$(nproc)
ninja -C build -j "$jobs" | grep -v "^ninja: no work to do" || true
test -x build/kopt

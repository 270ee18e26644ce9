#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# The local model's end-to-end tests skip, with the reason, when it cannot be installed.
./scripts/setup-local-model.sh || echo "test: the local model is not installed; its tests will skip"
./scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)" "$@"

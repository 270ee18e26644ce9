#!/usr/bin/env bash
# Installs what is missing, builds, and shows kopt at work on the default benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
bench=${1:-licm}
./build/kopt list
./build/kopt bench "$bench"

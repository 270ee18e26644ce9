#!/usr/bin/env bash
# Builds llama.cpp's `llama-server` from source for THIS machine's CPU (GGML_NATIVE) and prints
# the path of the binary on stdout. The sources come from the llama-cpp-python source
# distribution on the Python package index (it vendors llama.cpp), pinned by version and sha256.
#
# The binary is cached under <kopt cache>/llama-server/<version>-<key>/, where the key hashes the
# CPU's identity (vendor, family, model, every flag in /proc/cpuinfo), the compiler and the build
# options: a machine with another CPU gets its own build and never runs one made for different
# instructions. Built once (19 CPU-minutes measured on a loaded 2-core machine), then reused in
# well under a second.
#   scripts/build-llama-server.sh PYTHON [--force]
# PYTHON is a python with pip (setup-local-model.sh passes its virtual environment's).
set -euo pipefail

log() { echo "build-llama-server: $*" >&2; }
die() { echo "build-llama-server: error: $*" >&2; exit 1; }

[ $# -ge 1 ] || die "usage: scripts/build-llama-server.sh PYTHON [--force]"
python="$1"
force=0
[ "${2:-}" = "--force" ] && force=1

sources_pkg="llama-cpp-python"
sources_ver="0.3.36"
sources_sha="832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"
cmake_options=(
  -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON -DBUILD_SHARED_LIBS=OFF -DGGML_CCACHE=OFF
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=ON -DLLAMA_OPENSSL=OFF
)

for tool in cmake c++ cc tar sha256sum; do
  command -v "$tool" >/dev/null || die "'$tool' is missing (scripts/setup.sh installs it)"
done
[ -r /proc/cpuinfo ] || die "/proc/cpuinfo is not readable: cannot tell which CPU to build for"

cpu_identity="$("$(dirname "$0")/cpu-identity.sh")"
compiler="$(c++ --version | head -n 1)"
key="$(printf '%s\n%s\n%s\n' "$cpu_identity" "$compiler" "${cmake_options[*]}" | sha256sum | cut -c1-16)"

cache_root="${KOPT_CACHE_DIR:-}"
if [ -z "$cache_root" ]; then
  if [ -n "${XDG_CACHE_HOME:-}" ]; then cache_root="$XDG_CACHE_HOME/kopt"
  elif [ -n "${HOME:-}" ]; then cache_root="$HOME/.cache/kopt"
  else cache_root="${TMPDIR:-/tmp}/kopt-cache"; fi
fi
entry="$cache_root/llama-server/$sources_ver-$key"
binary="$entry/llama-server"

mkdir -p "$cache_root/llama-server"
exec 9>"$cache_root/llama-server/.lock"
flock 9  # Two set-ups at once (a test run and a demo) build once.

if [ "$force" = 0 ] && [ -x "$binary" ] && [ "$(cat "$entry/cpu.txt" 2>/dev/null)" = "$cpu_identity" ]; then
  echo "$binary"
  exit 0
fi

work="$(mktemp -d "$cache_root/llama-server/.build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
log "building llama-server $sources_ver for this CPU ($(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo)); tens of CPU-minutes, once"
echo "$sources_pkg==$sources_ver --hash=sha256:$sources_sha" > "$work/sources.txt"
"$python" -m pip download -q --disable-pip-version-check --no-input --no-deps --no-binary=:all: \
  --require-hashes -d "$work/dist" -r "$work/sources.txt" >/dev/null 2>"$work/pip.log" ||
  { tail -n 5 "$work/pip.log" >&2; die "pip could not download $sources_pkg==$sources_ver (the llama.cpp sources) from the package index"; }
archive="$(find "$work/dist" -maxdepth 1 -name "*.tar.gz" | head -n 1)"
[ -n "$archive" ] || die "the $sources_pkg source distribution was not downloaded"
tar -xzf "$archive" -C "$work" --wildcards '*/vendor/llama.cpp/*' ||
  die "could not unpack the llama.cpp sources from $archive"
src="$(find "$work" -maxdepth 3 -type d -path '*/vendor/llama.cpp' | head -n 1)"
[ -n "$src" ] || die "$archive has no vendor/llama.cpp"

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
jobs="$(nproc 2>/dev/null || echo 2)"
if ! cmake -S "$src" -B "$work/build" "${generator[@]}" "${cmake_options[@]}" >"$work/build.log" 2>&1 ||
   ! cmake --build "$work/build" --target llama-server -j "$jobs" >>"$work/build.log" 2>&1; then
  grep -m 5 -iE "error|fatal" "$work/build.log" >&2 || tail -n 20 "$work/build.log" >&2
  die "building llama-server failed (the whole log was $work/build.log)"
fi
built="$(find "$work/build" -type f -name llama-server -perm -u+x | head -n 1)"
[ -n "$built" ] || die "the build finished without a llama-server binary"

rm -rf "$entry"
mkdir -p "$entry.partial"
cp "$built" "$entry.partial/llama-server"
printf '%s' "$cpu_identity" > "$entry.partial/cpu.txt"
printf '%s\n%s\n' "$compiler" "${cmake_options[*]}" > "$entry.partial/build.txt"
mv "$entry.partial" "$entry"
log "built $binary"
echo "$binary"

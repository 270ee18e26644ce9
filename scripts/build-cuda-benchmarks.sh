#!/usr/bin/env bash
# The build check of the CUDA benchmarks, for machines with or without a GPU. For every
# benchmarks/cuda/<name>/: compiles original.cu, human.cu and driver.cu with nvcc
# (-O3 -lineinfo -arch=$KOPT_CUDA_ARCH, default sm_90, -Xptxas -v), links the original and the
# human program, checks that the kernel files define no global symbol beyond the manifest's
# "functions", and prints the ptxas resource report. Then it runs one driver: with a GPU it
# must pass a small check run; without one it must exit 87 with one "no CUDA device" line.
# Exits 77 (ctest: skipped) when nvcc is absent. Builds go to a temporary folder, at most
# KOPT_CUDA_JOBS (default and maximum 2) compiles at a time.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
suite="$root/benchmarks/cuda"
arch=${KOPT_CUDA_ARCH:-sm_90}
jobs=${KOPT_CUDA_JOBS:-2}
[ "$jobs" -ge 1 ] && [ "$jobs" -le 2 ] || jobs=2

nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
  echo "cuda-build: skipped: nvcc not found (set NVCC or put the CUDA toolkit's bin on PATH)"
  exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/kopt-cuda-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

benchmarks=()
for dir in "$suite"/*/; do
  [ -f "$dir/benchmark.json" ] && benchmarks+=("$(basename "$dir")")
done
if [ ${#benchmarks[@]} -eq 0 ]; then
  echo "cuda-build: FAILED: no benchmark under $suite" >&2
  exit 1
fi

# compile NAME FILE: one nvcc -c, its output kept in a log; prints a line only on failure.
compile() {
  local name=$1 file=$2
  local out="$work/$name/${file%.cu}"
  mkdir -p "$work/$name"
  if ! "$nvcc" -O3 -lineinfo -arch="$arch" -Xptxas -v -Xcompiler -Wall,-Wextra \
      -I"$root/benchmarks/common" -I"$suite/$name" -c "$suite/$name/$file" -o "$out.o" \
      >"$out.log" 2>&1; then
    echo "cuda-build: FAILED to compile $name/$file:" >&2
    cat "$out.log" >&2
    return 1
  fi
  if grep -q "warning" "$out.log"; then
    echo "cuda-build: FAILED: warnings compiling $name/$file:" >&2
    grep "warning" "$out.log" >&2
    return 1
  fi
}
export -f compile
export nvcc arch root suite work

echo "cuda-build: ${#benchmarks[@]} benchmarks, nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), -arch=$arch, $jobs jobs"
for name in "${benchmarks[@]}"; do
  for file in original.cu human.cu driver.cu; do printf '%s %s\n' "$name" "$file"; done
done | xargs -P "$jobs" -n 2 bash -c 'compile "$0" "$1"' || {
  echo "cuda-build: FAILED: see the compiler output above" >&2
  exit 1
}

failed=0
for name in "${benchmarks[@]}"; do
  allowed=$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["functions"]))' \
    "$suite/$name/benchmark.json")
  for version in original human; do
    if ! "$nvcc" -arch="$arch" "$work/$name/driver.o" "$work/$name/$version.o" \
        -o "$work/$name/$version" >"$work/$name/$version.link.log" 2>&1; then
      echo "cuda-build: FAILED to link $name/$version:" >&2
      cat "$work/$name/$version.link.log" >&2
      failed=1
    fi
    # Global symbols the kernel file defines (weak ones are compiler-generated), by bare name.
    for symbol in $(nm -C -g --defined-only "$work/$name/$version.o" |
        awk '$2 ~ /^[A-UXYZ]$/ { $1 = ""; $2 = ""; print }' | sed 's/^ *//; s/(.*//' | tr ' ' '_'); do
      if [[ " $allowed " != *" $symbol "* ]]; then
        echo "cuda-build: FAILED: $name/$version.cu defines '$symbol', not in the manifest's functions ($allowed)" >&2
        failed=1
      fi
    done
  done
done
[ "$failed" -eq 0 ] || exit 1

echo "cuda-build: ptxas resources per kernel:"
for name in "${benchmarks[@]}"; do
  for version in original human; do
    c++filt <"$work/$name/$version.log" | awk -v where="$name/$version" '
      /Compiling entry function/ { kernel = $0; sub(/.*function ./, "", kernel); sub(/\(.*/, "", kernel) }
      /bytes stack frame/ { spills = $5 + $9 }
      /Used [0-9]+ registers/ {
        regs = $0; sub(/.*Used /, "", regs); sub(/ registers.*/, "", regs)
        smem = 0; if (match($0, /[0-9]+ bytes smem/)) smem = substr($0, RSTART, RLENGTH - 11)
        printf "  %-20s %-24s %4s registers %6s B shared %4s B spilled\n", where, kernel, regs, smem, spills
      }'
  done
done

# The harness's host side: bad arguments exit 64; no GPU exits 87 with one line; a GPU passes.
probe="$work/${benchmarks[0]}/original"
set +e
"$probe" --mode check --size 10 >/dev/null 2>"$work/usage.err"
usage_status=$?
"$probe" --mode check --size 1000 --seeds 1,2 --out "$work/out.bin" --report "$work/report.json" \
  >/dev/null 2>"$work/run.err"
run_status=$?
set -e
if [ "$usage_status" -ne 64 ]; then
  echo "cuda-build: FAILED: a driver without --seed exited $usage_status, not 64" >&2
  exit 1
fi
if [ "$run_status" -eq 87 ]; then
  if [ "$(wc -l <"$work/run.err")" -ne 1 ] || ! grep -q '^kopt-harness: no CUDA device: ' "$work/run.err"; then
    echo "cuda-build: FAILED: exit 87 without the one 'no CUDA device' line:" >&2
    cat "$work/run.err" >&2
    exit 1
  fi
  echo "cuda-build: no GPU here; the drivers say so: $(cat "$work/run.err")"
elif [ "$run_status" -eq 0 ]; then
  if [ "$(head -c 8 "$work/out.bin")" != KOPTOUT1 ] ||
      ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/report.json"; then
    echo "cuda-build: FAILED: the check run wrote a bad output file or report" >&2
    exit 1
  fi
  echo "cuda-build: a GPU is present; a check run of ${benchmarks[0]} passed"
else
  echo "cuda-build: FAILED: check run of ${benchmarks[0]} exited $run_status:" >&2
  cat "$work/run.err" >&2
  exit 1
fi
echo "cuda-build: OK, ${#benchmarks[@]} benchmarks built in $(($(date +%s) - start)) s"

#!/usr/bin/env bash
# Packs what scripts/measure-gpu.sh needs to run on a GPU machine that cannot build kopt (no
# package registry, none of the build's libraries): kopt, the GPU test binary and the CUPTI
# injection library from an existing build, the shared libraries they load that a bare CUDA
# image lacks, and bubblewrap. Binaries are copied stripped; nothing is built for this CPU
# (kopt's own build uses no -march). The GPU machine then runs, from this repository's root:
#   source BUNDLE/enter.sh && KOPT_BUILD=BUNDLE/build scripts/measure-gpu.sh OUT
#
# Usage: scripts/gpu-bundle.sh [BUILD_DIR] [BUNDLE_DIR]   (defaults: build, .gpu-bundle)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
bundle=${2:-$root/.gpu-bundle}
binaries=("$build/kopt" "$build/tests/kopt_gpu_tests" "$build/libkopt_cupti_inject.so")
for binary in "${binaries[@]}"; do
  [[ -f $binary ]] || { echo "gpu-bundle: $binary is missing: build kopt first" >&2; exit 2; }
done
# The build's absolute paths (the sources, the fixtures) name the folder it was configured from.
source_root=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
bwrap=$(command -v bwrap) || { echo "gpu-bundle: bubblewrap is not installed" >&2; exit 2; }

rm -rf "$bundle"
mkdir -p "$bundle/build/tests" "$bundle/lib" "$bundle/bin"
# The programs sit in bin/ (kopt finds the injection library beside itself); build/ holds, at
# the build's own paths, wrappers that load the bundled libraries for these programs alone, so
# that no other program on that machine sees them.
for binary in "${binaries[@]}"; do
  name=$(basename "$binary") relative=${binary#"$build"/}
  strip -o "$bundle/bin/$name" "$binary"
  if [[ $name == *.so ]]; then
    cp "$bundle/bin/$name" "$bundle/build/$relative"
    continue
  fi
  {
    echo '#!/bin/sh'
    echo 'bundle=$(dirname "$(readlink -f "$0")"); bundle=${bundle%/build*}'
    echo "LD_LIBRARY_PATH=\"\$bundle/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\" exec \"\$bundle/bin/$name\" \"\$@\""
  } >"$bundle/build/$relative"
  chmod +x "$bundle/build/$relative"
done
strip -o "$bundle/bin/bwrap" "$bwrap"

# Every library they load but the C library's own, the C++ runtime (a newer one reads older
# binaries) and the GPU's (the machine has its own, matching its driver and toolkit).
ldd "${binaries[@]}" "$bwrap" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
  grep -Ev '/(libc|libm|libdl|librt|libpthread|libutil|libresolv|libnsl|libanl|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda|libcupti|libcudart)\.so' |
  while read -r library; do cp -L "$library" "$bundle/lib/"; done

cat >"$bundle/enter.sh" <<EOF
# Sourced on the GPU machine from the repository's root: the build's absolute paths
# ($source_root) lead to this copy, and kopt's sandbox uses the bundled bubblewrap.
here=\$(pwd)
if [[ "\$here" != "$source_root" ]]; then
  [[ ! -e "$source_root" || -L "$source_root" ]] ||
    { echo "enter: $source_root exists and is not a link" >&2; return 1; }
  mkdir -p "$(dirname "$source_root")"
  ln -sfn "\$here" "$source_root"
fi
ln -sfn "\$here/$(basename "$bundle")/build" "\$here/build"
export KOPT_BWRAP="\$here/$(basename "$bundle")/bin/bwrap"
# Tests start kopt with a clean environment: a machine without bubblewrap gets it on the PATH.
command -v bwrap >/dev/null || install -m 755 "\$KOPT_BWRAP" /usr/local/bin/bwrap
export PATH="/usr/local/cuda/bin:\$PATH"
EOF
echo "gpu-bundle: $(du -sh "$bundle" | cut -f1) in $bundle ($(ls "$bundle/lib" | wc -l) libraries)"

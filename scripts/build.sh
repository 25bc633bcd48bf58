#!/usr/bin/env bash
# Builds the native project (core, CLI, tests, benchmarks) and the WebAssembly module from the one
# CMakeLists.txt. Incremental: CMake rebuilds only what changed.
#   scripts/build.sh [native|wasm|all]
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
jobs="$(nproc 2>/dev/null || echo 2)"

build_native() {
  if [ ! -f build/native/CMakeCache.txt ]; then
    cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  cmake --build build/native -j "$jobs"
}

build_wasm() {
  # Debian's Emscripten 3.1.6 needs NODE_PATH for its JS optimiser (acorn).
  export NODE_PATH=/usr/share/nodejs
  if [ ! -f build/wasm/CMakeCache.txt ]; then
    emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DEigen3_DIR=/usr/share/eigen3/cmake >/dev/null
  fi
  cmake --build build/wasm -j "$jobs"
  local out=web/src/engine/generated
  echo "wasm: $(stat -c %s $out/oblique.wasm) bytes oblique.wasm, $(stat -c %s $out/oblique.js) bytes glue" \
       "($(gzip -9c $out/oblique.wasm | wc -c) + $(gzip -9c $out/oblique.js | wc -c) gzipped)"
}

case "$what" in
  native) build_native ;;
  wasm) build_wasm ;;
  all) build_native && build_wasm ;;
  *) echo "usage: scripts/build.sh [native|wasm|all]" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Builds the native project (core, CLI, tests, benchmarks) and the WebAssembly module from the one
# CMakeLists.txt. Incremental: CMake rebuilds only what changed.
#   scripts/build.sh [start|native|wasm|all]
#     start   what `npm start` serves: the wasm module, and the `oblique` CLI
#     native  the CLI, the tests and the benchmarks;  wasm  the module;  all  both
#     bench   what `npm run bench` runs: the native and the wasm benchmark kernels, the scene writer and (when
#             Box2D is installed) the Box2D comparison
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
jobs="$(nproc 2>/dev/null || echo 2)"

# Configuring again is cheap and picks up new files and newly installed packages (GoogleTest).
configure_native() {
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
}

build_native() {
  configure_native
  cmake --build build/native -j "$jobs" "$@"
}

# The wasm targets given (default: the module the page and the JS API load).
build_wasm() {
  # Debian's Emscripten 3.1.6 needs NODE_PATH for its JS optimiser (acorn).
  export NODE_PATH=/usr/share/nodejs
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DEigen3_DIR=/usr/share/eigen3/cmake >/dev/null
  cmake --build build/wasm -j "$jobs" --target "${@:-oblique_wasm}"
  local out=web/src/engine/generated
  echo "wasm: $(stat -c %s $out/oblique.wasm) bytes oblique.wasm, $(stat -c %s $out/oblique.js) bytes glue" \
       "($(gzip -9c $out/oblique.wasm | wc -c) + $(gzip -9c $out/oblique.js | wc -c) gzipped)"
}

case "$what" in
  start) build_native --target oblique && build_wasm ;;
  native) build_native ;;
  wasm) build_wasm ;;
  bench) build_native --target oblique_bench oblique_bench_tools && build_wasm oblique_wasm oblique_bench_wasm ;;
  all) build_native && build_wasm ;;
  *) echo "usage: scripts/build.sh [start|native|wasm|bench|all]" >&2; exit 2 ;;
esac

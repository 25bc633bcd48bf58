#!/usr/bin/env bash
# Builds the native project (core, CLI, tests, benchmarks) and the WebAssembly module from the one
# CMakeLists.txt. Incremental: CMake rebuilds only what changed.
#   scripts/build.sh [start|native|sanitize|wasm|wasm-tests|test|bench|sweep|all]
#     start       what `npm start` serves: the wasm module, and the `oblique` CLI
#     native      build/native (Release): the CLI, the tests and the benchmarks
#     sanitize    build/sanitize (Clang, ASan + UBSan, -O1, line tables): the core, the CLI, the scene writer and the
#                 fuzzers instrumented; the tests
#     wasm        the module;  wasm-tests  the module and the GoogleTest suite as wasm (build/wasm)
#     test        what `npm test` runs: sanitize (whose CLI the JS tests compare with) and wasm-tests
#     bench       what `npm run bench` runs: the native and the wasm benchmark kernels, the scene writer and
#                 (when Box2D is installed) the Box2D comparison
#     sweep       what `npm run sweep` runs: the property sweep in build/native (Release)
#     all         native, sanitize and wasm-tests
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
jobs="$(nproc 2>/dev/null || echo 2)"

# Ninja (scripts/setup.sh installs it): it starts a target's objects while the libraries it links are still
# being built, where Make waits for each target before the next, leaving a core idle at every target's
# slowest file. A build folder that Make configured is configured again (its objects rebuilt).
generator() {
  local dir="$1"
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt"; then
    echo "build: $dir was configured for another generator: configuring it again for Ninja" >&2
    rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  fi
  echo -G Ninja
}

# Configuring again is cheap and picks up new files and newly installed packages (GoogleTest).
configure_native() {
  cmake -S . -B build/native $(generator build/native) -DCMAKE_BUILD_TYPE=Release >/dev/null
}

build_native() {
  configure_native
  cmake --build build/native -j "$jobs" "$@"
}

# The sanitized and the wasm builds compile the C++ test files in batches (OBLIQUE_UNITY_TESTS), where no
# two files may declare the same name at namespace scope: said before the compiler says it less clearly.
check_test_batches() {
  node scripts/test-batch-names.mjs
}

# One build of the C++ tests, with the sanitizers (ASan + UBSan, stopping at the first error) and Eigen's
# assertions on; the fuzzers share its core. Clang, for libFuzzer. The core in batches (OBLIQUE_UNITY_CORE).
build_sanitize() {
  check_test_batches
  cmake -S . -B build/sanitize $(generator build/sanitize) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG= -DCMAKE_CXX_COMPILER=clang++ \
        -DOBLIQUE_SANITIZE=ON -DOBLIQUE_FUZZ=ON -DOBLIQUE_UNITY_TESTS=ON -DOBLIQUE_UNITY_CORE=ON >/dev/null
  cmake --build build/sanitize -j "$jobs" "$@"
}

# The wasm targets given (default: the module the page and the JS API load). The GoogleTest suite
# (oblique_tests_wasm) is configured when GoogleTest's sources are installed (scripts/setup.sh test). The
# core in batches (OBLIQUE_UNITY_CORE), as in the sanitizer build: half the compiler time, the same module
# bits (wasm has no fused multiply-add to contract into, and -ffp-contract=off says so).
build_wasm() {
  # Debian's Emscripten 3.1.6 needs NODE_PATH for its JS optimiser (acorn).
  export NODE_PATH=/usr/share/nodejs
  local tests=OFF
  [ -f /usr/src/googletest/CMakeLists.txt ] && tests=ON
  if [ "$tests" = ON ] && [[ " $* " == *" oblique_tests_wasm "* ]]; then check_test_batches; fi
  emcmake cmake -S . -B build/wasm $(generator build/wasm) -DCMAKE_BUILD_TYPE=Release -DEigen3_DIR=/usr/share/eigen3/cmake \
          -DOBLIQUE_WASM_TESTS=$tests -DOBLIQUE_UNITY_TESTS=ON -DOBLIQUE_UNITY_CORE=ON >/dev/null
  cmake --build build/wasm -j "$jobs" --target "${@:-oblique_wasm}"
  local out=web/src/engine/generated
  echo "wasm: $(stat -c %s $out/oblique.wasm) bytes oblique.wasm (before the first frame)," \
       "$(stat -c %s $out/oblique.deferred.wasm) bytes oblique.deferred.wasm, $(stat -c %s $out/oblique.js) bytes glue" \
       "($(gzip -9c $out/oblique.wasm | wc -c) + $(gzip -9c $out/oblique.deferred.wasm | wc -c)" \
       "+ $(gzip -9c $out/oblique.js | wc -c) gzipped)"
}

# Each piece is timed on standard error, so that `npm test` shows where its time goes: the wall clock, and
# the CPU time of its compilers (both cores busy: about twice the wall clock; less on a shared machine).
cpu_seconds() {
  # This shell's children's user and system time (fields 16 and 17 of /proc/PID/stat), in clock ticks.
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f", ($16 + $17) / hz }' "/proc/$$/stat"
}
timed() {
  local start=$SECONDS cpu
  cpu=$(cpu_seconds)
  "$@"
  echo "build: $* took $((SECONDS - start)) s ($(( $(cpu_seconds) - cpu )) CPU-s)" >&2
}

case "$what" in
  start) build_native --target oblique && build_wasm ;;
  native) build_native ;;
  sanitize) timed build_sanitize ;;
  wasm) build_wasm ;;
  wasm-tests) timed build_wasm oblique_wasm oblique_tests_wasm ;;
  test) timed build_sanitize && timed build_wasm oblique_wasm oblique_tests_wasm ;;
  bench) build_native --target oblique_bench oblique_bench_tools && build_wasm oblique_wasm oblique_bench_wasm ;;
  sweep) build_native --target oblique_property_sweep ;;
  all) build_native && build_sanitize && build_wasm oblique_wasm oblique_tests_wasm ;;
  *) echo "usage: scripts/build.sh [start|native|sanitize|wasm|wasm-tests|test|bench|sweep|all]" >&2; exit 2 ;;
esac

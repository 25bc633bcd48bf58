#!/usr/bin/env bash
# The C++ tests (`npm run test:cpp`): the sanitized suite of build/sanitize (with the fuzzers' replays) and
# the wasm-built suite of build/wasm, run by one ctest on both cores, so that each fills the time the other
# leaves: the four wasm shards, the longest tests, start first (their COST in CMakeLists.txt), the many
# short sanitized tests after them. Extra arguments go to ctest (`-R <regex>` for some tests).
set -euo pipefail
cd "$(dirname "$0")/.."

for dir in build/sanitize build/wasm; do
  if [ ! -f "$dir/CTestTestfile.cmake" ]; then
    echo "test-cpp: $dir has no tests: run bash scripts/build.sh test first" >&2
    exit 1
  fi
done
both=build/cpp-tests
mkdir -p "$both"
printf 'subdirs("%s")\nsubdirs("%s")\n' "$PWD/build/sanitize" "$PWD/build/wasm" > "$both/CTestTestfile.cmake"
ctest --test-dir "$both" --output-on-failure -j 2 "$@"

#!/usr/bin/env bash
# Set-up for `npm start` and `npm test` on a fresh Debian machine: installs the missing Debian packages
# (as root; otherwise prints the one command to run) and the npm packages. Idempotent and quick when
# everything is already there.
#   scripts/setup.sh start   what building and serving needs
#   scripts/setup.sh test    that, plus what the test suites need (GoogleTest, Chromium, Clang with its
#                            sanitizer and libFuzzer runtimes)
#   scripts/setup.sh fuzz    what `npm run fuzz` needs (the same)
#   scripts/setup.sh bench   what `npm run bench` needs: building, Google Benchmark, Chromium (the page's
#                            load) and Box2D (the comparison); the browser peers (Rapier 2D, planck,
#                            matter-js) are npm devDependencies, installed by `npm ci` below
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-start}"

# binaryen: wasm-split, which splits the page's wasm in two (scripts/split-wasm.mjs; emscripten depends on it too).
packages=(build-essential cmake ninja-build libeigen3-dev nlohmann-json3-dev emscripten binaryen)
if [ "$mode" = "test" ] || [ "$mode" = "bench" ] || [ "$mode" = "fuzz" ]; then
  packages+=(googletest libgtest-dev libbenchmark-dev chromium)
fi
if [ "$mode" = "test" ] || [ "$mode" = "fuzz" ]; then
  packages+=(clang llvm libclang-rt-14-dev)
fi
if [ "$mode" = "bench" ]; then
  packages+=(libbox2d-dev)
fi

# Debian packages: install what is missing.
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing Debian packages. Run:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# npm packages: `npm ci` when node_modules is missing or older than the lock file.
stamp=node_modules/.oblique-lock-stamp
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > "$stamp"
fi

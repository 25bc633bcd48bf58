// What the libFuzzer targets share: the input as text, and an invariant check that stops the run.
//
// A target returns normally for every input the library handles as documented (a result, or a documented
// exception with a message); anything else — a crash, a sanitizer report, an undocumented exception, or a
// broken invariant checked with `require` — stops libFuzzer, which keeps the input (scripts/fuzz.sh puts
// it in fuzz/regressions/<target>/, which ctest replays).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace oblique::fuzz {

/// The fuzzer's bytes as a string (any bytes: the readers must cope with invalid UTF-8 too).
inline std::string input_text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// Stops the run with `what` on standard error when `holds` is false: an invariant of the target is broken.
inline void require(bool holds, const std::string& what) {
  if (holds) return;
  std::fprintf(stderr, "\n==== invariant broken: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace oblique::fuzz

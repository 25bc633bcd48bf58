// What the libFuzzer targets share: running one input as text, and the check of an invariant.
//
// A target returns normally for every input the library handles as documented (a result, or a documented
// exception with a message); anything else — a crash, a sanitizer report, an undocumented exception, or a
// broken invariant checked with `require` — stops libFuzzer, which keeps the input (scripts/fuzz.sh puts
// it in fuzz/regressions/<target>/, which ctest replays).
#pragma once

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

namespace oblique::fuzz {

/// Thrown by `require` in a run that goes on after findings (see require).
struct InvariantBroken {};

namespace detail {
inline std::string current_input;        // the input being run, kept when it breaks an invariant
inline std::set<std::string> signatures;  // the findings of this run, by signature

/// `what` with every run of digits written "#", cut at its first line: the same finding with other values.
inline std::string signature(const std::string& what) {
  std::string out;
  for (std::size_t i = 0; i < what.size() && what[i] != '\n' && out.size() < 120; ++i) {
    const bool digit = std::isdigit(static_cast<unsigned char>(what[i])) != 0;
    if (!digit) out += what[i];
    else if (out.empty() || out.back() != '#') out += '#';
  }
  return out;
}

/// FNV-1a of `text`, in hex: a stable file name for a signature.
inline std::string hex_hash(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(h));
  return buffer;
}
}  // namespace detail

/// Runs one input: the body of LLVMFuzzerTestOneInput. `test` takes the input as text (any bytes: the
/// readers must cope with invalid UTF-8 too).
template <class Test>
int run_input(const std::uint8_t* data, std::size_t size, Test&& test) {
  detail::current_input.assign(reinterpret_cast<const char*>(data), size);
  try {
    test(detail::current_input);
  } catch (const InvariantBroken&) {
    // Kept and reported by require; the run goes on.
  }
  return 0;
}

/// Checks an invariant of the target. When it is broken: by default (a replay), `what` on standard error
/// and an abort, which stops libFuzzer and keeps the input. When the environment variable
/// OBLIQUE_FUZZ_KEEP_GOING names a folder (scripts/fuzz.sh does), the run goes on with the next input,
/// and the first input of each new kind of finding (its signature: `what` without its numbers) is written
/// there as finding-<hash>.json, so that one run lists every kind it met (scripts/fuzz.sh then fails).
/// Sanitizer reports still stop the run.
inline void require(bool holds, const std::string& what) {
  if (holds) return;
  const char* folder = std::getenv("OBLIQUE_FUZZ_KEEP_GOING");
  if (folder == nullptr || *folder == '\0') {
    std::fprintf(stderr, "\n==== invariant broken: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
  }
  const std::string signature = detail::signature(what);
  const std::string hash = detail::hex_hash(signature);
  if (detail::signatures.insert(signature).second) {
    const std::string path = std::string(folder) + "/finding-" + hash + ".json";
    std::ofstream(path, std::ios::binary) << detail::current_input;
    std::fprintf(stderr, "\n==== invariant broken, going on (input kept as %s): %s\n", path.c_str(), what.c_str());
    std::fflush(stderr);
  }
  throw InvariantBroken{};
}

}  // namespace oblique::fuzz

// The subcommands of the `oblique` CLI. Each takes its arguments (without the subcommand name), writes
// its result to `out`, and returns the process exit status: 0 on success, 2 on bad input or usage, with
// one line on `err` that names the offending field.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "oblique/io/json_io.hpp"

namespace oblique::cli {

using Args = std::vector<std::string>;

int run_impact(const Args& args, std::istream& in, std::ostream& out, std::ostream& err);
int run_check(const Args& args, std::istream& in, std::ostream& out, std::ostream& err);
int run_simulate(const Args& args, std::istream& in, std::ostream& out, std::ostream& err);

/// Largest document read (bytes), the limit of parse_json (json_io.hpp), the same as in the browser.
inline constexpr std::size_t kMaxDocumentBytes = kMaxJsonBytes;

/// Parses the arguments of a command that takes "[FILE]" (`required` false) or "FILE": sets `path` and
/// returns nullopt, or returns the exit status to stop with — 0 after printing `help` for -h/--help, 2 with
/// one line on `err` for an unknown option, a second FILE or a missing one.
std::optional<int> parse_file_argument(const Args& args, const char* command, const char* help, bool required,
                                       std::ostream& out, std::ostream& err, std::string& path);

/// Reads a whole file, or standard input for "" or "-" (named `stdin_name` in messages), at most
/// kMaxDocumentBytes. Throws std::invalid_argument naming the file.
std::string read_input(const std::string& path, std::istream& in, const std::string& stdin_name = "input");

}  // namespace oblique::cli

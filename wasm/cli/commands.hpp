// The subcommands of the `oblique` CLI. Each takes its arguments (without the subcommand name), writes
// its result to `out`, and returns the process exit status: 0 on success, 2 on bad input or usage, with
// one line on `err` that names the offending field.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace oblique::cli {

using Args = std::vector<std::string>;

int run_impact(const Args& args, std::istream& in, std::ostream& out, std::ostream& err);
int run_check(const Args& args, std::istream& in, std::ostream& out, std::ostream& err);
int run_simulate(const Args& args, std::istream& in, std::ostream& out, std::ostream& err);

/// Reads a whole file, or standard input for "" or "-". Throws std::invalid_argument naming the file.
std::string read_input(const std::string& path, std::istream& in);

}  // namespace oblique::cli

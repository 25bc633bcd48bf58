// Runs the built `oblique` executable as a user would, capturing exit status, stdout and stderr.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace oblique::testing {

struct CliRun {
  int status = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

/// Runs `oblique <arguments>` with `input` on standard input (arguments are passed to the shell as is);
/// `cli` is the program (default: the CLI of this build).
inline CliRun run_cli(const std::string& arguments, const std::string& input = "",
                      const std::string& cli = OBLIQUE_CLI_PATH) {
  const std::string base = ::testing::TempDir() + "oblique_cli_" + std::to_string(::getpid());
  const std::string in_path = base + ".in", out_path = base + ".out", err_path = base + ".err";
  std::ofstream(in_path) << input;
  const std::string command = cli + " " + arguments + " < " + in_path + " > " +
                              out_path + " 2> " + err_path;
  const int raw = std::system(command.c_str());
  CliRun run;
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  run.out = slurp(out_path);
  run.err = slurp(err_path);
  std::remove(in_path.c_str());
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return run;
}

/// Number of lines of `text` (a trailing newline does not start a new line).
inline int line_count(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n';
  return lines + (!text.empty() && text.back() != '\n');
}

}  // namespace oblique::testing

// Input helpers shared by the commands: the FILE argument, and reading a document with a size bound.
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "commands.hpp"

namespace oblique::cli {

namespace {

/// The whole of `in`, or throws "<source>: too large" beyond kMaxDocumentBytes.
std::string read_bounded(std::istream& in, const std::string& source) {
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxDocumentBytes) {
      throw JsonError(source, "", too_large_reason());
    }
  }
  return text;
}

}  // namespace

std::optional<int> parse_file_argument(const Args& args, const char* command, const char* help, bool required,
                                       std::ostream& out, std::ostream& err, std::string& path) {
  const std::string name = std::string("oblique ") + command;
  for (const std::string& arg : args) {
    if (arg == "-h" || arg == "--help") {
      out << help;
      return 0;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      err << name << ": unknown option " << arg << " (see " << name << " --help)\n";
      return 2;
    }
    if (!path.empty()) {
      err << name << ": expected " << (required ? "one" : "at most one") << " FILE, got " << path << " and "
          << arg << "\n";
      return 2;
    }
    path = arg;
  }
  if (required && path.empty()) {
    err << name << ": expected a FILE (or - for standard input); see " << name << " --help\n";
    return 2;
  }
  return std::nullopt;
}

std::string read_input(const std::string& path, std::istream& in, const std::string& stdin_name) {
  if (path.empty() || path == "-") return read_bounded(in, stdin_name);
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::invalid_argument(path + ": cannot open file");
  return read_bounded(file, path);
}

}  // namespace oblique::cli

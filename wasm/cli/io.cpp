#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "commands.hpp"

namespace oblique::cli {

std::string read_input(const std::string& path, std::istream& in) {
  if (path.empty() || path == "-") {
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::invalid_argument(path + ": cannot open file");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace oblique::cli

// The `oblique` command-line tool: dispatches to one subcommand per file in this folder.
#include <iostream>
#include <string>

#include "commands.hpp"

namespace {

const char* const kUsage = R"(usage: oblique <command> [arguments]

Nonsmooth multibody mechanics by linear projection (Aghili).

commands:
  impact [FILE]                     solve one impact given M, A, qd and e or E (JSON in, JSON out)
  check FILE                        validate a scenario document; name each problem by JSON pointer
  simulate FILE [options]           run a scenario; samples of q, qd, energy, drift and the impact log

Run "oblique <command> --help" for the details of a command.
)";

}  // namespace

int main(int argc, char** argv) {
  using oblique::cli::Args;
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = argv[1];
  const Args args(argv + 2, argv + argc);
  if (command == "-h" || command == "--help" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "impact") return oblique::cli::run_impact(args, std::cin, std::cout, std::cerr);
  if (command == "check") return oblique::cli::run_check(args, std::cin, std::cout, std::cerr);
  if (command == "simulate") return oblique::cli::run_simulate(args, std::cin, std::cout, std::cerr);
  std::cerr << "oblique: unknown command '" << command << "' (see oblique --help)\n";
  return 2;
}

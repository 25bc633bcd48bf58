// `oblique check FILE`: validates a scenario document and names every problem with a JSON pointer.
#include <iostream>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "oblique/io/scenario_json.hpp"

namespace oblique::cli {

namespace {

const char* const kCheckHelp = R"help(usage: oblique check FILE

Validates a scenario document (format version 1; see docs/scenarios.md, and
web/scenarios/scenario.schema.json). FILE "-" reads standard input.

Valid:   prints "ok: <title> (<bodies> bodies, <planes> planes, <joints> joints, <contacts> contacts)"
         and exits 0.
Invalid: prints one line per problem on stderr, "<file>:<pointer>: <message>", where <pointer> is the
         JSON pointer (RFC 6901) of the offending value, e.g. "/bodies/2/mass"; a problem with the whole
         document is "<file>: <message>". Exits 2. At most 100 problems are listed.
         Text that is not JSON, or is beyond the limits of a document (32 MiB, 64 levels of nesting,
         docs/limits.md, "Reading documents"), is one line at the pointer where reading stopped.

example: oblique check web/scenarios/bouncing-ball.json
)help";

std::string count(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

int run_check(const Args& args, std::istream& in, std::ostream& out, std::ostream& err) {
  std::string path;
  if (const auto stop = parse_file_argument(args, "check", kCheckHelp, true, out, err, path)) return *stop;

  // Read and parse the document.
  const bool from_stdin = path == "-";
  const std::string source = from_stdin ? "<stdin>" : path;
  Json document;
  try {
    document = parse_json(read_input(path, in, source), source);
  } catch (const std::invalid_argument& e) {
    err << e.what() << "\n";
    return 2;
  }

  // One line per issue.
  const std::vector<ScenarioIssue> issues = check_scenario(document);
  if (!issues.empty()) {
    for (const ScenarioIssue& issue : issues) {
      err << source << (issue.pointer.empty() ? "" : ":" + issue.pointer) << ": " << issue.message << "\n";
    }
    return 2;
  }

  // The summary of a valid scenario.
  const Scenario s = parse_scenario(document);
  std::string summary = count(s.bodies.size(), "body", "bodies") + ", " + count(s.planes.size(), "plane", "planes") +
                        ", " + count(s.joints.size(), "joint", "joints") + ", " +
                        count(s.contacts.size(), "contact", "contacts");
  if (!s.forces.empty()) summary += ", " + count(s.forces.size(), "force", "forces");
  if (!s.impulses.empty()) summary += ", " + count(s.impulses.size(), "impulse", "impulses");
  out << "ok: " << (s.title.empty() ? "(untitled)" : s.title) << " (" << summary << ")\n";
  return 0;
}

}  // namespace oblique::cli

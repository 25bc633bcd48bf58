// `oblique impact [FILE]`: one impact, JSON in, JSON out (see impact_io.hpp and docs/cli.md).
#include <iostream>
#include <stdexcept>

#include "commands.hpp"
#include "oblique/io/impact_io.hpp"

namespace oblique::cli {

namespace {

const char* const kImpactHelp = R"(usage: oblique impact [FILE]

Solves one impact with the projection method of Aghili and prints every result as JSON.
Reads one JSON object from FILE, or from standard input when FILE is absent or "-":

  M           inertia matrix, an array of rows (symmetric positive definite)
  A           constraint Jacobian of the impact, an array of rows ([] for none; any rank)
  qd          pre-impact velocity
  e           global restitution coefficient in [0, 1]          (or)
  E           one restitution coefficient per row of A, in [0, 1]
  iu          optional external impulse (default 0)
  nu          optional virtual mass (default: the one minimising cond(Mc))
  unilateral  optional booleans, one per row of A: rows that may be flagged (default all)

Writes: n, m, rank, nu, nu_range, cond_Mc, P, Mc, S, R, E_tilde, Q, qd_plus, i_f, i_lambda,
phid_minus, phid_plus, K_minus, K_plus, W_loss, W_constraint, gamma, qmi_max_eig, energy_consistent,
newton_residual, restitution, flags, identities.
At most 256 coordinates (rows of M) and 512 rows of A; documents up to 32 MiB, nested at most
64 levels (docs/limits.md, "Reading documents").
Exit status 2, with one line on stderr naming the field, on bad input.

example: echo '{"M":[[1,0],[0,2]],"A":[[-1,1]],"qd":[3,-1],"e":0.8}' | oblique impact
)";

}  // namespace

int run_impact(const Args& args, std::istream& in, std::ostream& out, std::ostream& err) {
  std::string path;
  if (const auto stop = parse_file_argument(args, "impact", kImpactHelp, false, out, err, path)) return *stop;
  try {
    const Json input = parse_json(read_input(path, in), path.empty() || path == "-" ? "input" : path);
    out << format_json(analyze_impact_json(input)) << "\n";
    return 0;
  } catch (const std::invalid_argument& e) {
    err << "oblique impact: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace oblique::cli

// The activation rule Γ of an impact (paper §4; docs/paper-notes.md): which unilateral rows take part in the
// impact map q̇⁺ = q̇⁻ − S(Ẽ + I)q̇⁻ + Mo⁺i_u, and with which restitution.
//
// A = [joint rows; the rows of every point in the set] (a sticking point brings its tangential row with its
// normal row), with per-row restitution E: 0 for joints and tangential rows, e_i for a unilateral row, 0 for
// a point slower than its rest speed (the Zeno rule: a slow impact is plastic). A point's rest speed is
// rest_speed, or, for a point nearly resting in a stack, max(rest_speed, v_rest) with
// v_rest = √(2 ε |g| L) (nearly_resting_speed, below: ImpactPoint::nearly_resting_speed). The set starts as the active
// points plus Γ*, the candidates of the impact. Then, pass after pass (at most max_passes), the impact is
// solved from q̇⁻ and
//   1. a touching point outside the set that was at rest before the impact (|φ̇⁻| ≤ its speed tolerance
//      v_tol) and approaches after it (φ̇⁺ < −v_tol) joins it, plastic (e.g. the next ball of a
//      touching row). A touching point that was separating before (φ̇⁻ > v_tol) never
//      joins: forcing it to stop from q̇⁻ would push on a row moving apart — positive work, an impact that
//      creates energy. If it approaches after this impact, the simulator gives it an impact of its own from
//      q̇⁺ (a sequential sub-impact, with its own e), as if its gap had not been within the tolerance;
//   2. otherwise the unilateral row with the most tensile impulse (i_λ < 0) leaves it — the contact
//      separates (e.g. the trailing spoke of a rimless wheel) — unless the pull is below the impulse that
//      would move the row at its rest speed (m_eff·v, m_eff = 1/(A_k M⁻¹ A_kᵀ), v the point's rest speed:
//      rest_speed, or in a stack its nearly-resting speed; resting-contact business), or another split of i_f over the rows has no unilateral row pulling (redundant rows);
// until nothing changes: the impact is consistent. A point leaving a second time means the rule cycles
// (redundant contacts can make it), and running out of passes means it did not settle: then, as when
// asked from the start (the Zeno guard), the fallback is taken — every touching point that is not
// separating in the set, every row plastic, no release. None of them approaches after it
// (A q̇⁺ = −A A⁺ E A q̇⁻ = 0), though an impulse may pull, which its flags then show; a separating point
// left out that approaches after it takes a sequential sub-impact of its own.
// A pass whose impact creates energy out of all proportion — the constraints do positive work and K⁺
// exceeds 4 times the kinetic energy at stake, K⁻ + ½ i_uᵀM⁻¹i_u — with no frictional point takes the
// fallback at once. With every e ≤ 1 only rows nearly dependent do that: with one e the constraint impulse
// moves at most (1 + e)² ≤ 4 times K⁻, but unequal e on rows σ from dependent ask for velocities the rows
// can hardly tell apart, and their solve multiplies that by up to about (Δe/σ)². Boxes face to face in a
// row of dominoes (rows 1e-12 from dependent, which the dense rank rule keeps; one nearly parallel face
// contact plastic by the Zeno rule, the other with e = 0.2) took K from 0.011 J to 3.5·10¹⁵ J; of 60 runs
// with one domino nudged by k·1e-7 m, 9 went so on the dense path and 14 on the sparse one; in a pile in a
// bin, a disk's normal row with e = 0.2 beside the plastic rows of a box sticking on two faces took K from
// 0.052 J to 1.34 J. The fallback's plastic rows ask for no such velocities. The paper's energetically
// inconsistent restitution sets (λ_max(EQE − Q) > 0) gain a fraction of K⁻: those impacts are kept, and
// flagged; so are Coulomb friction's gains (Kane's paradox).
//
// The rule knows nothing of bodies: it asks an ActivationSystem for the rows of a set of points, for the
// normal velocity of a point, and to solve one impact; the Simulator answers from its Model, the tests from
// fixed rows.
#pragma once

#include <functional>
#include <vector>

#include "oblique/math/impact.hpp"
#include "oblique/math/impact_solution.hpp"
#include "oblique/model/model.hpp"
#include "oblique/math/projection.hpp"

namespace oblique {

/// Approaching / separating: normal velocities beyond a point's speed tolerance (ImpactPoint::
/// speed_tolerance); within it a point is at rest. The simulator sets it relative to the scene
/// (Simulator::speed_tolerance, simulator.hpp); this is the default, and the former fixed value (m/s).
inline constexpr double kContactSpeedTolerance = 1e-9;
/// Γ-rule passes of one impact before the fallback.
inline constexpr int kMaxImpactPasses = 64;
/// ε of the nearly-resting rule: an impact inside a stack whose bounce would rise less than ε × L (L the
/// size of the smaller of the point's two bodies) is plastic. Such a bounce, a thousandth of the body's
/// size, is far below what a viewer sees or a rigid-body model resolves, while a pile settling under gravity
/// makes thousands of them (inelastic collapse): each would be one more impact of the whole island.
inline constexpr double kNearlyRestingHeight = 1e-3;

/// The rest speed of a point nearly resting in a stack: the approach speed whose bounce rises
/// kNearlyRestingHeight × `size` against gravity |g| = `gravity`,
///   v_rest = √(2 ε |g| L),
/// 0 without gravity (then the rule is the scenario's rest speed alone). `gravity` in m/s², `size` in m.
double nearly_resting_speed(double gravity, double size);

/// Where each point's rows sit in a stack of constraint rows: the joint rows first, then per point, in the
/// order given, its unilateral (normal) row and, when it sticks, its tangential row right after.
struct RowLayout {
  int joint_rows = 0;            ///< rows of the joints that lead the stack
  /// Those joints, ascending, when they are not every joint of the model (an impact of some islands,
  /// island_set.hpp); empty when every joint's rows lead the stack.
  std::vector<int> joints;
  std::vector<int> normal_rows;  ///< per listed point: the index of its unilateral row
  std::vector<char> tangent;     ///< per listed point: whether its tangential row follows
  int rows = 0;                  ///< rows of the whole stack

  /// Lays out `points`; `has_tangent(point)` says whether a point brings a tangential row.
  template <typename HasTangent>
  static RowLayout of(int joint_rows, const std::vector<int>& points, HasTangent&& has_tangent) {
    RowLayout layout;
    layout.joint_rows = joint_rows;
    layout.normal_rows.reserve(points.size());
    layout.tangent.reserve(points.size());
    int row = joint_rows;
    for (int point : points) {
      const bool tangent = has_tangent(point);
      layout.normal_rows.push_back(row);
      layout.tangent.push_back(tangent ? 1 : 0);
      row += tangent ? 2 : 1;
    }
    layout.rows = row;
    return layout;
  }
  /// The rows that may not pull (the normal rows), as solve_impact's `unilateral` mask.
  std::vector<bool> unilateral_mask() const {
    std::vector<bool> mask(static_cast<std::size_t>(rows), false);
    for (int row : normal_rows) mask[static_cast<std::size_t>(row)] = true;
    return mask;
  }
};

/// One contact point as the rule sees it at the instant of the impact.
struct ImpactPoint {
  bool touching = false;     ///< gap ≤ its gap tolerance (simulator.hpp): it may join the set
  bool in_set = false;       ///< in the set at the start: active, or a candidate of the impact (Γ*)
  bool sticks = false;       ///< brings its tangential row with its normal row
  double approach = 0.0;     ///< φ̇⁻, its normal velocity before the impact (m/s)
  double restitution = 0.0;  ///< e_i of its contact
  /// At rest within this normal speed, approaching below −it, separating above it (m/s).
  double speed_tolerance = kContactSpeedTolerance;
  /// v_rest of a point nearly resting in a stack (nearly_resting_speed), 0 for any other point: it is
  /// plastic when |φ̇⁻| < max(ActivationInput::rest_speed, this), and a pull of its row below
  /// m_eff · max(...) does not release it (rule 2) (m/s).
  double nearly_resting_speed = 0.0;
};

/// The rest speed a point's plasticity uses: max(`rest_speed`, its nearly-resting speed) (m/s).
inline double point_rest_speed(const ImpactPoint& point, double rest_speed) {
  return point.nearly_resting_speed > rest_speed ? point.nearly_resting_speed : rest_speed;
}

/// Everything the rule decides from, besides the system.
struct ActivationInput {
  std::vector<ImpactPoint> points;  ///< every contact point, by index
  int joint_rows = 0;               ///< bilateral rows, first in every A
  Vector qd_minus;                  ///< q̇⁻
  Vector external_impulse;          ///< i_u (empty: none)
  Vector mass_diagonal;             ///< diag(M) (M is diagonal in absolute coordinates)
  double rest_speed = 0.0;          ///< impacts slower than this (m/s) are plastic (the scenario's)
  double force_scale = 0.0;         ///< Σ m · 1 m/s²: the floor of the impulse tolerance (· 1e-15 s)
  bool fallback = false;            ///< take the fallback from the first pass (the Zeno guard)
  int max_passes = kMaxImpactPasses;
};

/// What the rule asks of the mechanical system at the impact configuration.
struct ActivationSystem {
  /// Writes the rows [joints; per point its normal row and, if it sticks, its tangential row] of `points`
  /// (ascending) into `rows`, laid out as RowLayout::of says.
  std::function<void(const std::vector<int>& points, ConstraintRows& rows)> rows;
  /// φ̇ of `point` at velocity q̇.
  std::function<double(int point, const Vector& qd)> normal_velocity;
  /// Solves the impact of q̇⁻ and i_u on the rows' A (dense or in compressed rows, as `rows` wrote it;
  /// ConstraintRows::dense_jacobian gives it dense) with per-row restitution E and the unilateral rows marked.
  std::function<ImpactSolution(ConstraintRows& rows, const Vector& restitution, const std::vector<bool>& unilateral)>
      solve;
  /// Whether the impulse i_f can be carried by the rows' A with no unilateral row pulling: some split λ
  /// with Aᵀλ = i_f (to `tolerance`) and λ ≥ 0 on those rows (non-negative least squares). Optional: when
  /// empty, the rule solves it itself.
  std::function<bool(ConstraintRows& rows, const Vector& impulse, const std::vector<bool>& unilateral,
                     double tolerance)>
      carried_without_pull;
};

/// The consistent impact the rule settled on.
struct ActivationOutcome {
  std::vector<int> points;  ///< the points whose rows are in A, ascending
  RowLayout layout;         ///< where their rows are in A
  std::vector<double> rest_speeds;  ///< per point of A: the rest speed its plasticity used (point_rest_speed)
  ConstraintRows rows;      ///< A of that set (in compressed rows when the system wrote it so)
  ImpactSolution solution;  ///< the impact on it
  int passes = 0;           ///< impacts solved (1 when the first was consistent)
  bool fallback = false;    ///< the fallback was taken (a cycle, no settling, energy out of proportion, or asked for)
};

/// Runs the rule (header comment): reads the points, q̇⁻, i_u, diag(M) and the tolerances ⇒ returns the set
/// of points in A, A and its impact. Asks `system` for rows, normal velocities and solutions.
ActivationOutcome apply_activation_rule(const ActivationInput& input, const ActivationSystem& system);

}  // namespace oblique

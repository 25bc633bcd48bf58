// The planar multibody model of a scenario, in absolute coordinates (Scenario → Model → Projection →
// Simulator). No JSON here: the model reads the plain structs of scenario.hpp.
//
// Body i owns q[3i..3i+2] = (xᵢ, yᵢ, θᵢ). With R(θ) the rotation and perp(v) = (−v_y, v_x), a point r fixed
// in body i is at p = xᵢ + R(θᵢ) r, moves with ṗ = ẋᵢ + θ̇ᵢ perp(R r), and has the convective acceleration
// p̈|_{q̈=0} = −θ̇ᵢ² R r. In these coordinates
//
//   M = blockdiag(mᵢ, mᵢ, Iᵢ)   constant (no Coriolis terms), so its factorisation is computed once
//   h = −(mᵢ g, 0)              gravity, in the convention M q̈ + h = u + f of dynamics.hpp
//   u = Σ (F, τ)                the scenario's constant forces and torques
//   V = −Σ mᵢ g·xᵢ − Σ (F·x + τ θ)   potential of gravity and of the constant forces (both conservative)
//
// Every constraint row k has a value φ_k(q), a Jacobian row A_k = ∂φ_k/∂q and a convective term
// (Ȧq̇)_k = φ̈_k at q̈ = 0, all in closed form (test_model.cpp checks them against finite differences):
//
//   pin       φ = p_b − p_a                                              2 rows
//   distance  φ = |p_b − p_a| − L                                         1 row
//   slider    φ = n·(p_b − p_a), n = perp(R_a axis);   θ_b − θ_a − θ_ref  2 rows
//   weld      φ = p_b − p_a;   θ_b − θ_a − θ_ref                          3 rows
//
// θ_ref is the relative angle of the initial state. Unilateral contacts are expanded into contact points
// (one ContactDef gives one point per disk, per box corner, per rod end, per wheel spoke tip), each with a
// gap φ ≥ 0 measured in metres:
//
//   body–plane  φ = n·(p − p₀) − ρ        p the feature centre, ρ its radius, n the plane normal
//   disk–disk   φ = |x_b − x_a| − r_a − r_b
//   rope        φ = L − |p_b − p_a|
//
// A `stick` contact adds, while active, a tangential row: the tangential velocity of the material points
// that touch, t·(ṗ_b − ṗ_a) with t = perp(n). It is a velocity-level row (its φ is reported as 0): for a
// body on a plane it is the derivative of t·p − ρθ, for two disks it is not integrable.
#pragma once

#include <stdexcept>
#include <vector>

#include "oblique/math/projection.hpp"
#include "oblique/scenario/scenario.hpp"
#include "oblique/sparse/sparse_rows.hpp"

namespace oblique {

/// One contact point, expanded from a ContactDef.
struct ContactFeature {
  int contact = 0;               ///< index of its ContactDef in Scenario::contacts
  int feature = 0;               ///< which point of that ContactDef (box corner, rod end, spoke), from 0
  ContactDef::Type type = ContactDef::Type::BodyPlane;
  int body_a = kWorld;           ///< the body (body–plane), first disk, or rope end a
  int body_b = kWorld;           ///< second disk, or rope end b; kWorld for body–plane
  int plane = -1;                ///< body–plane: index into Scenario::planes
  Vec2 local_a = Vec2::Zero();   ///< body–plane: feature centre in body_a's frame; rope: anchor on body_a
  Vec2 local_b = Vec2::Zero();   ///< rope: anchor on body_b
  double radius_a = 0.0;         ///< body–plane: feature radius ρ; disk–disk: r_a
  double radius_b = 0.0;         ///< disk–disk: r_b
  double length = 0.0;           ///< rope length
  bool stick = false;            ///< adds a tangential row while active
  /// Coulomb's μ: the contact's `mu` or the scenario's; +∞ when it sticks, 0 for a rope (docs/friction.md).
  double mu = 0.0;
};

/// Where a contact point is at one configuration.
struct ContactFrame {
  double gap = 0.0;              ///< φ: positive when separated, negative when penetrating (m)
  Vec2 point = Vec2::Zero();     ///< world point of contact (body–plane: on the plane; disk–disk: the
                                 ///< middle of the gap; rope: the anchor on body_b)
  Vec2 normal = Vec2::UnitY();   ///< unit direction in which the gap opens for the feature's body (body–plane:
                                 ///< the plane normal; disk–disk: from a to b; rope: from anchor b to anchor a)
  Vec2 tangent = -Vec2::UnitX(); ///< perp(normal), the direction of the tangential row
};

/// A stack of constraint rows at one state: φ, A (one row each, n columns) and Ȧq̇. The caller sizes it
/// (resize for a dense A, resize_sparse for a compressed one) and the writers (the model,
/// contact_geometry.hpp) start each row in order and add its entries; buffers are reused from step to step.
struct ConstraintRows {
  Vector phi;
  Matrix jacobian;  ///< A, when dense; when sparse, only after dense_jacobian()
  Vector adot_qd;
  /// A, when sparse: rows in order, entries summed in the order they came, exact zeros left out (finish).
  SparseRowsBuilder sparse_rows;
  bool sparse = false;        ///< A goes to sparse_rows
  bool dense_ready = true;    ///< jacobian holds A

  /// Sizes for `rows` rows of `dofs` columns with a dense A, zeroing it (every writer zeroes its rows too).
  void resize(int rows, int dofs) {
    phi.resize(rows);
    jacobian.resize(rows, dofs);
    jacobian.setZero();
    adot_qd.resize(rows);
    sparse = false;
    dense_ready = true;
  }
  /// Sizes for `rows` rows of `dofs` columns with A in compressed rows, written from row 0 on in order.
  void resize_sparse(int rows, int dofs) {
    phi.resize(rows);
    adot_qd.resize(rows);
    sparse_rows.start(dofs);
    sparse = true;
    dense_ready = false;
  }
  /// Starts row `row` of A, zero (when sparse, `row` must be the next one).
  void start_row(int row) {
    if (!sparse) {
      jacobian.row(row).setZero();
    } else if (sparse_rows.new_row() != row) {
      throw std::logic_error("ConstraintRows: sparse rows must be written in order");
    }
  }
  /// A(row, col) += value; `row` is the row started last.
  void add(int row, int col, double value) {
    if (sparse) {
      sparse_rows.add(col, value);
    } else {
      jacobian(row, col) += value;
    }
  }
  /// Ends a sparse assembly: A in compressed rows, exactly to_sparse of the same rows written densely.
  const SparseJacobian& finish_sparse() { return sparse_rows.finish(SparseRowsBuilder::Zeros::Drop); }
  /// A as a dense matrix: `jacobian`, filled from the compressed rows the first time it is asked for.
  const Matrix& dense_jacobian() {
    if (!dense_ready) {
      to_dense(sparse_rows.matrix(), jacobian);
      dense_ready = true;
    }
    return jacobian;
  }
  /// The same rows as `other`, copied: A from where it is stored (a sparse A's dense view is made again
  /// when asked for).
  void assign(const ConstraintRows& other) {
    phi = other.phi;
    adot_qd = other.adot_qd;
    sparse = other.sparse;
    if (sparse) {
      sparse_rows = other.sparse_rows;
      dense_ready = false;
    } else {
      jacobian = other.jacobian;
      dense_ready = true;
    }
  }
  int rows() const { return static_cast<int>(phi.size()); }
  int cols() const { return sparse ? sparse_rows.cols() : static_cast<int>(jacobian.cols()); }
};

/// Moment of inertia about the centre of mass of a uniform body of `shape` and `mass`
/// (disk ½mr², box m(w² + h²)/12, rod (thin) mL²/12, point ½mr² with its drawing radius,
/// wheel mr²/3: its mass spread evenly along thin spokes of length r).
double shape_inertia(const Shape& shape, double mass);
/// What one row of a stack of constraint rows measures. Rows are stacked as the simulator assembles them
/// (the header comment above): every joint's rows in order, then per contact point its unilateral (normal)
/// row and, for a sticking point, its tangential row.
struct ConstraintRowInfo {
  enum class Kind { Joint, Normal, Tangent };
  Kind kind = Kind::Joint;
  int joint = -1;        ///< Joint: index in Scenario::joints
  const char* part = "";  ///< Joint: the component ("x", "y", "θ", "⊥"; "" for a distance joint's one row)
  int point = -1;        ///< Normal, Tangent: the contact point
  int contact = -1;      ///< Normal, Tangent: its ContactDef index
  int feature = 0;       ///< Normal, Tangent: which point of that ContactDef
};

/// The mechanics of one scenario: inertia, forces, energy, and every constraint row in closed form.
class Model {
 public:
  /// Builds the model of a valid scenario: throws std::invalid_argument("<pointer>: <message>") with the
  /// first problem of check_scenario_values(scenario, ScenarioUse::Model) (scenario_check.hpp), e.g.
  /// "/bodies/1/mass: must be positive, got 0", the same message and JSON pointer as the document reader's.
  /// The initial state may overlap: the rows are functions of any q (the Simulator refuses such a start).
  explicit Model(const Scenario& scenario);

  int body_count() const { return body_count_; }
  int dofs() const { return 3 * body_count_; }

  Matrix mass_matrix() const { return mass_diagonal_.asDiagonal(); }  ///< M (constant, diagonal), formed n×n
  const Vector& mass_diagonal() const { return mass_diagonal_; }  ///< diag(M)
  const Vector& bias_force() const { return bias_force_; }        ///< h = −(m g, 0) per body
  const Vector& applied_force() const { return applied_force_; }  ///< u, the constant forces and torques
  const Vector& free_acceleration() const { return free_acceleration_; }  ///< q̈* = M⁻¹(u − h), constant

  Vector initial_positions() const;   ///< q of the scenario's initial state
  Vector initial_velocities() const;  ///< q̇ of the scenario's initial state

  double kinetic_energy(const Vector& qd) const;   ///< ½ q̇ᵀ M q̇
  double potential_energy(const Vector& q) const;  ///< V, gravity plus the constant forces (header comment)

  // --- bilateral joints ---------------------------------------------------------------------------------
  int joint_count() const { return static_cast<int>(joints_.size()); }
  int joint_row_count(int joint) const;   ///< rows of one joint: pin 2, distance 1, slider 2, weld 3
  /// The component each row of `joint` measures, in row order: pin x, y; distance ""; slider ⊥ (across the
  /// axis), θ; weld x, y, θ.
  std::vector<const char*> joint_row_parts(int joint) const;
  /// What each row measures of the stack [every joint; each of `points` with its tangential row when
  /// `with_tangents` and the point sticks] (the rows of an impact's A).
  std::vector<ConstraintRowInfo> row_layout(const std::vector<int>& points, bool with_tangents) const;
  int joint_row_total() const { return joint_row_total_; }  ///< rows of all joints
  /// Writes the rows of `joint` into `out` from row `row` on (φ, A, Ȧq̇ at (q, q̇)).
  void joint_rows(int joint, const Vector& q, const Vector& qd, int row, ConstraintRows& out) const;
  /// Writes the rows of every joint, in order, from row `row` on.
  void all_joint_rows(const Vector& q, const Vector& qd, int row, ConstraintRows& out) const;

  // --- unilateral contact points ------------------------------------------------------------------------
  int contact_point_count() const { return static_cast<int>(points_.size()); }
  const std::vector<ContactFeature>& contact_points() const { return points_; }
  /// Gap, world point and normal of contact point `point` at q.
  ContactFrame contact_frame(int point, const Vector& q) const;
  /// Gap only (cheaper; used by event detection).
  double contact_gap(int point, const Vector& q) const;
  /// Writes the unilateral row of `point` (φ = gap) at `row`.
  void contact_normal_row(int point, const Vector& q, const Vector& qd, int row, ConstraintRows& out) const;
  /// Writes the tangential (stick) row of `point` at `row`; φ is written as 0 (a velocity-level row).
  void contact_tangent_row(int point, const Vector& q, const Vector& qd, int row, ConstraintRows& out) const;
  /// φ̇ = A_k q̇ of the unilateral row of `point`.
  double contact_normal_velocity(int point, const Vector& q, const Vector& qd) const;

 private:
  struct JointData {
    JointDef::Type type;
    int body_a, body_b;
    Vec2 anchor_a, anchor_b, axis;
    double length;          // distance joint
    double reference_angle; // slider and weld: θ_b − θ_a of the initial state
  };

  int body_count_ = 0;
  Vector mass_diagonal_;
  Vector bias_force_;
  Vector applied_force_;
  Vector free_acceleration_;
  Vector initial_q_;
  Vector initial_qd_;
  Vec2 gravity_ = Vec2::Zero();
  std::vector<JointData> joints_;
  int joint_row_total_ = 0;
  std::vector<PlaneDef> planes_;
  std::vector<ContactFeature> points_;
};

}  // namespace oblique

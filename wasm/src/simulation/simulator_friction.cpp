// The Simulator's Coulomb friction (simulator.hpp, "Friction"; contact_friction.hpp; docs/friction.md):
// which points of an impact are frictional pairs, the smooth dynamics with sliding friction, the stick/slip
// events and switches, and the Painlevé way out. Members of Simulator, kept apart from simulator.cpp.
#include <algorithm>
#include <cmath>
#include <limits>

#include "friction/oblique_multipliers.hpp"
#include "math/checks.hpp"
#include "oblique/friction/contact_friction.hpp"
#include "oblique/friction/frictional_impact_solution.hpp"
#include "oblique/friction/painleve_check.hpp"
#include "oblique/math/scaled_projection.hpp"
#include "oblique/simulation/simulator.hpp"
#include "oblique/sparse/sparse_dynamics.hpp"
#include "oblique/sparse/sparse_path.hpp"
#include "oblique/sparse/sparse_rows.hpp"
#include "simulation/simulator_internal.hpp"

namespace oblique {

namespace {

/// A x of A in compressed rows, summed as Eigen 3.4's dense column-major product Matrix(A) · x sums
/// (general_matrix_vector_product): per row, the terms of each block of columns (all of them below 128
/// columns, else 16, or 4 when a column of the dense A spans 32000 bytes or more) from +0 in column order,
/// then the blocks' sums in turn onto +0. The dense A's zeros add ±0 to a sum that is never −0 (it starts
/// at +0), which changes nothing: the same bits, when x is finite (0 · ∞ is NaN), without forming A dense.
Vector dense_order_product(const SparseJacobian& a, const Vector& x) {
  if (!x.allFinite()) return Matrix(a) * x;
  const Eigen::Index cols = a.cols();
  const Eigen::Index block =
      cols < 128 ? std::max<Eigen::Index>(cols, 1) : (a.rows() * static_cast<Eigen::Index>(sizeof(double)) < 32000 ? 16 : 4);
  Vector out(a.rows());
  for (Eigen::Index i = 0; i < a.outerSize(); ++i) {
    double sum = 0.0, part = 0.0;
    Eigen::Index part_block = -1;
    for (SparseJacobian::InnerIterator entry(a, i); entry; ++entry) {
      const Eigen::Index b = entry.index() / block;
      if (b != part_block) {
        sum = part + sum;
        part = 0.0;
        part_block = b;
      }
      part = part + entry.value() * x(entry.index());
    }
    out(i) = part + sum;
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// Changing μ during a run (docs/friction.md, "Changing μ during a run")
// ---------------------------------------------------------------------------------------------------------

void Simulator::set_friction(double mu) {
  detail::check_friction(mu, kMaxFrictionCoefficient, "mu");
  const std::vector<double> before = point_frictions();
  // Every contact but ropes, the scenario's default and every body (its automatic contacts), as the
  // scenario would state them: `stick` for +∞, `mu` otherwise.
  const bool stick = std::isinf(mu);
  if (!stick) scenario_.mu = mu;
  for (std::size_t c = 0; c < scenario_.contacts.size(); ++c) {
    ContactDef& contact = scenario_.contacts[c];
    if (contact.type == ContactDef::Type::Rope) continue;
    contact.stick = stick;
    contact.mu = stick ? std::nullopt : std::optional<double>(mu);
    contact_friction_[c] = mu;
  }
  for (std::size_t b = 0; b < scenario_.bodies.size(); ++b) {
    BodyDef& body = scenario_.bodies[b];
    body.stick = stick;
    if (stick || body.mu) body.mu = stick ? std::nullopt : std::optional<double>(mu);
    automatic_.set_body_friction(static_cast<int>(b), mu);
  }
  apply_friction_change(before);
}

void Simulator::set_contact_friction(int contact, double mu) {
  if (contact < 0 || contact >= static_cast<int>(contact_friction_.size())) {
    detail::fail("contact", contact_friction_.empty()
                                ? "the scenario has no contacts"
                                : "must be a contact index in 0.." + std::to_string(contact_friction_.size() - 1) +
                                      ", got " + std::to_string(contact));
  }
  const std::string field = "contacts[" + std::to_string(contact) + "].mu";
  ContactDef& def = scenario_.contacts[static_cast<std::size_t>(contact)];
  if (def.type == ContactDef::Type::Rope) detail::fail(field, "a rope has no friction");
  detail::check_friction(mu, kMaxFrictionCoefficient, field);
  const std::vector<double> before = point_frictions();
  def.stick = std::isinf(mu);
  def.mu = def.stick ? std::nullopt : std::optional<double>(mu);
  contact_friction_[static_cast<std::size_t>(contact)] = mu;
  apply_friction_change(before);
}

void Simulator::reset_friction() {
  const std::vector<double> before = point_frictions();
  // The scenario's `mu` and `stick` of the document, every contact's from the model (built from it).
  scenario_.mu = document_friction_.mu;
  for (std::size_t c = 0; c < scenario_.contacts.size(); ++c) {
    scenario_.contacts[c].stick = document_friction_.contacts[c].stick;
    scenario_.contacts[c].mu = document_friction_.contacts[c].mu;
  }
  for (const ContactFeature& point : model_.contact_points()) contact_friction_[static_cast<std::size_t>(point.contact)] = point.mu;
  for (std::size_t b = 0; b < scenario_.bodies.size(); ++b) {
    const BodyDef& body = document_friction_.bodies[b];
    scenario_.bodies[b].stick = body.stick;
    scenario_.bodies[b].mu = body.mu;
    // The body's μ as the document gives it (the mean of a pair with a body that does not stick uses it),
    // then its stick.
    automatic_.set_body_friction(static_cast<int>(b), body.mu.value_or(document_friction_.mu));
    if (body.stick) automatic_.set_body_friction(static_cast<int>(b), std::numeric_limits<double>::infinity());
  }
  apply_friction_change(before);
}

void Simulator::detect_friction() {
  // Whether some point may have 0 < μ < ∞ (the friction of contact_friction.hpp runs only then).
  has_friction_ = false;
  for (const double mu : contact_friction_) has_friction_ = has_friction_ || (mu > 0.0 && std::isfinite(mu));
  if (scenario_.collide_all) {
    has_friction_ = has_friction_ || scenario_.mu > 0.0;
    for (const BodyDef& body : scenario_.bodies) has_friction_ = has_friction_ || body.mu.value_or(0.0) > 0.0;
  }
}

std::vector<double> Simulator::point_frictions() const {
  std::vector<double> mu(static_cast<std::size_t>(contact_point_count()));
  for (std::size_t k = 0; k < mu.size(); ++k) mu[k] = friction_of(static_cast<int>(k));
  return mu;
}

void Simulator::apply_friction_change(const std::vector<double>& before) {
  // reads the committed state and the μ before and now ⇒ writes state.sliding of the active points whose μ
  // changed, the dynamics (settle) and, for a point made `stick` while it slips, the sticking impact.
  detect_friction();
  work_.replay.clear();
  bool changed = false;
  for (std::size_t k = 0; k < before.size(); ++k) changed = changed || friction_of(static_cast<int>(k)) != before[k];
  if (!changed) return;
  // At the very start of the run (nothing shown past t = 0, nothing logged) the new μ is the scenario's: the
  // run starts again with it, exactly as a run of the scenario with that μ.
  if (state_.shown_time == 0.0 && log_.logged() == 0) {
    initialize();
    return;
  }
  work_.budget.start(std::numeric_limits<double>::infinity());
  // A restored state's q̈ and λ, if still to come: the change acts on them.
  if (derived_.pending) derive_restored();
  // Each active point whose μ changed: frictionless (no slip state), frictional (it slides in the direction
  // of its slip, or sticks at rest and settle() applies the cone, as at the start of a run), or `stick`.
  bool stops_slip = false;
  for (int k : derived_.active_points) {
    const std::size_t i = static_cast<std::size_t>(k);
    const double mu = friction_of(k);
    if (mu == before[i]) continue;
    if (!(mu > 0.0)) {
      state_.sliding[i] = 0;
    } else if (std::isfinite(mu)) {
      state_.sliding[i] = slide_code(slip_speed(k, state_.q, state_.qd), kContactSpeedTolerance);
    } else if (std::abs(slip_speed(k, state_.q, state_.qd)) > kContactSpeedTolerance) {
      stops_slip = true;
    } else {
      state_.sliding[i] = 0;
    }
  }
  // A `stick` point that slips stops: the impact of the active set with its tangential rows (logged, as a
  // sticking point touching while it slips is at an impact); then the Γ rule and the cone (settle).
  if (stops_slip) {
    collect_active_points();
    resolve_impact({}, Vector(), false);
  }
  settle();
  commit_transaction();
  update_views();
}

bool Simulator::frictional(int point) const {
  const double mu = friction_of(point);
  return mu > 0.0 && std::isfinite(mu);
}

std::vector<FrictionPair> Simulator::friction_pairs(const std::vector<int>& points, const RowLayout& layout) const {
  // The points with a tangential row and a finite μ > 0 (a `stick` point's row is simply plastic).
  std::vector<FrictionPair> pairs;
  for (std::size_t j = 0; j < points.size(); ++j) {
    const double mu = friction_of(points[j]);
    if (layout.tangent[j] && std::isfinite(mu)) pairs.push_back({layout.normal_rows[j], layout.normal_rows[j] + 1, mu});
  }
  return pairs;
}

ImpactSolution Simulator::frictional_impact(const SparseJacobian& jacobian, const Vector& qd_minus,
                                            const Vector& restitution, const Vector& impulse,
                                            const std::vector<bool>& unilateral, const std::vector<FrictionPair>& pairs) {
  // reads (M, A in compressed rows), q̇⁻, E, i_u and the frictional pairs ⇒ returns Aghili's stick/slip
  // impact, solved on the parts of the system in motion alone: M is diagonal, so the bodies that no
  // row of A links are apart in every projection, and a part whose rows are at rest (|A q̇⁻| within the
  // scene's tightest speed tolerance) and that no external impulse touches takes no impulse — its pairs
  // stick with i = 0, the guess of every search. The rest is solved on the coordinates it touches.
  const int m = static_cast<int>(jacobian.rows());
  const int bodies = model_.body_count();
  // The parts: bodies linked by a row (union by the smaller root, for a fixed answer).
  std::vector<int> root(static_cast<std::size_t>(bodies));
  for (int b = 0; b < bodies; ++b) root[static_cast<std::size_t>(b)] = b;
  const auto find = [&](int b) {
    while (root[static_cast<std::size_t>(b)] != b) b = root[static_cast<std::size_t>(b)] = root[static_cast<std::size_t>(root[static_cast<std::size_t>(b)])];
    return b;
  };
  // Each row's non-zero columns, ascending (the compressed rows keep no zero).
  std::vector<int> row_body(static_cast<std::size_t>(m), -1);
  for (int r = 0; r < m; ++r) {
    int first = -1;
    for (SparseJacobian::InnerIterator entry(jacobian, r); entry; ++entry) {
      const int b = find(static_cast<int>(entry.index()) / 3);
      if (first < 0) {
        first = b;
      } else if (b != first) {
        root[static_cast<std::size_t>(std::max(b, first))] = std::min(b, first);
        first = std::min(b, first);
      }
    }
    row_body[static_cast<std::size_t>(r)] = first;
  }
  // A part moves when a row of it does, or an external impulse touches it.
  const double at_rest = std::max(kMinSpeedTolerance, kRelativeSpeedTolerance *
                                                           std::max(std::sqrt(gravity_norm_ * smallest_body_size_), speed_scale_));
  const Vector speeds = dense_order_product(jacobian, qd_minus);
  std::vector<char> moving(static_cast<std::size_t>(bodies), 0);
  for (int r = 0; r < m; ++r) {
    if (row_body[static_cast<std::size_t>(r)] >= 0 && std::abs(speeds(r)) > at_rest) moving[static_cast<std::size_t>(find(row_body[static_cast<std::size_t>(r)]))] = 1;
  }
  if (impulse.size() > 0) {
    for (int c = 0; c < n_; ++c) {
      if (impulse(c) != 0.0) moving[static_cast<std::size_t>(find(c / 3))] = 1;
    }
  }
  // The moving parts, each with its rows, in the order of their smallest row.
  std::vector<int> part_of_root(static_cast<std::size_t>(bodies), -1);
  std::vector<std::vector<int>> part_rows;
  for (int r = 0; r < m; ++r) {
    const int b = row_body[static_cast<std::size_t>(r)];
    if (b < 0 || !moving[static_cast<std::size_t>(find(b))]) continue;
    int& part = part_of_root[static_cast<std::size_t>(find(b))];
    if (part < 0) {
      part = static_cast<int>(part_rows.size());
      part_rows.emplace_back();
    }
    part_rows[static_cast<std::size_t>(part)].push_back(r);
  }
  // Each part on the coordinates its rows touch, with its frictional pairs renumbered.
  struct Part {
    std::vector<int> rows, coordinates;
    std::vector<FrictionPair> pairs;
  };
  std::vector<Part> parts(part_rows.size());
  std::vector<int> new_row(static_cast<std::size_t>(m), -1);
  std::vector<char> touched(static_cast<std::size_t>(n_), 0);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    Part& part = parts[i];
    part.rows = std::move(part_rows[i]);
    for (std::size_t j = 0; j < part.rows.size(); ++j) new_row[static_cast<std::size_t>(part.rows[j])] = static_cast<int>(j);
    for (int r : part.rows) {
      for (SparseJacobian::InnerIterator entry(jacobian, r); entry; ++entry) {
        const int c = static_cast<int>(entry.index());
        if (!touched[static_cast<std::size_t>(c)]) {
          touched[static_cast<std::size_t>(c)] = 1;
          part.coordinates.push_back(c);
        }
      }
    }
    std::sort(part.coordinates.begin(), part.coordinates.end());
    for (const FrictionPair& pair : pairs) {
      const int normal = new_row[static_cast<std::size_t>(pair.normal_row)];
      const bool in_part = normal >= 0 && normal < static_cast<int>(part.rows.size()) && part.rows[static_cast<std::size_t>(normal)] == pair.normal_row;
      if (in_part) part.pairs.push_back({normal, new_row[static_cast<std::size_t>(pair.tangent_row)], pair.mu});
    }
  }
  // Each part solved alone; everything in motion as one part is the whole system as it is.
  const bool whole = parts.size() == 1 && static_cast<int>(parts[0].rows.size()) == m &&
                     static_cast<int>(parts[0].coordinates.size()) == n_;
  const Vector& mass = model_.mass_diagonal();
  ImpactSolution out;
  ImpactResult& r = out.result;
  r.restitution = restitution;
  r.global_restitution = false;
  r.qd_minus = qd_minus;
  r.external_impulse = impulse;
  r.impulse = Vector::Zero(n_);
  r.impulse_multipliers = Vector::Zero(m);
  // The parts at rest and the free bodies: q̇⁺ = q̇⁻ + M⁻¹i_u.
  r.qd_plus = qd_minus;
  if (impulse.size() > 0) r.qd_plus += impulse.cwiseQuotient(mass);
  r.constraint_work = 0.0;
  r.newton_residual = 0.0;
  r.qmi_max_eig = -std::numeric_limits<double>::infinity();
  r.energy_consistent = true;
  // Each moving part on its own (no row couples two parts, and M is diagonal: the impact of the whole is
  // theirs side by side), so that the mode search of one part does not multiply with another's.
  std::vector<int> column_in_part(static_cast<std::size_t>(n_), -1);
  SparseRowsBuilder part_rows_builder;
  for (const Part& part : parts) {
    const int n_kept = static_cast<int>(part.coordinates.size());
    // Its rows on its coordinates (the whole A when the part is the whole system).
    for (int c = 0; c < n_kept; ++c) column_in_part[static_cast<std::size_t>(part.coordinates[static_cast<std::size_t>(c)])] = c;
    if (!whole) {
      part_rows_builder.start(n_kept);
      for (int row : part.rows) {
        part_rows_builder.new_row();
        for (SparseJacobian::InnerIterator entry(jacobian, row); entry; ++entry) {
          part_rows_builder.add(column_in_part[static_cast<std::size_t>(entry.index())], entry.value());
        }
      }
      part_rows_builder.finish();
    }
    const SparseJacobian& sub = whole ? jacobian : part_rows_builder.matrix();
    Vector sub_mass(n_kept), sub_qd(n_kept), sub_impulse(impulse.size() > 0 ? n_kept : 0), sub_restitution(sub.rows());
    for (int c = 0; c < n_kept; ++c) {
      const int i = part.coordinates[static_cast<std::size_t>(c)];
      sub_mass(c) = mass(i);
      sub_qd(c) = qd_minus(i);
      if (impulse.size() > 0) sub_impulse(c) = impulse(i);
    }
    std::vector<bool> sub_unilateral;
    for (std::size_t j = 0; j < part.rows.size(); ++j) {
      sub_restitution(static_cast<int>(j)) = restitution(part.rows[j]);
      sub_unilateral.push_back(unilateral.empty() || unilateral[static_cast<std::size_t>(part.rows[j])]);
    }
    ImpactSolution solved = frictional_part(sub_mass, sub, sub_qd, sub_restitution, sub_impulse, sub_unilateral, part.pairs);
    if (whole) return solved;
    const ImpactResult& p = solved.result;
    for (int c = 0; c < n_kept; ++c) {
      const int i = part.coordinates[static_cast<std::size_t>(c)];
      r.qd_plus(i) = p.qd_plus(c);
      r.impulse(i) = p.impulse(c);
    }
    for (std::size_t j = 0; j < part.rows.size(); ++j) {
      r.impulse_multipliers(part.rows[j]) = p.impulse_multipliers(static_cast<int>(j));
      r.restitution(part.rows[j]) = p.restitution(static_cast<int>(j));
    }
    r.constraint_work += p.constraint_work;
    r.newton_residual = std::max(r.newton_residual, p.newton_residual);
    // A part solved sparse left λ_max(EQE − Q) to its record (NaN): so does the whole.
    r.qmi_max_eig = std::isnan(r.qmi_max_eig) || std::isnan(p.qmi_max_eig) ? std::numeric_limits<double>::quiet_NaN()
                                                                           : std::max(r.qmi_max_eig, p.qmi_max_eig);
    r.energy_consistent = r.energy_consistent && p.energy_consistent;
    r.flags.energy_gain = r.flags.energy_gain || p.flags.energy_gain;
    for (int row : p.flags.tensile_impulse) r.flags.tensile_impulse.push_back(part.rows[static_cast<std::size_t>(row)]);
    for (int row : p.flags.approach_after_impact) r.flags.approach_after_impact.push_back(part.rows[static_cast<std::size_t>(row)]);
    out.modes_consistent = out.modes_consistent && solved.modes_consistent;
    for (ContactFriction c : solved.friction) {
      c.normal_row = part.rows[static_cast<std::size_t>(c.normal_row)];
      out.friction.push_back(c);
    }
  }
  if (parts.empty()) r.qmi_max_eig = 0.0;
  // In row order, as for the whole system.
  std::sort(r.flags.tensile_impulse.begin(), r.flags.tensile_impulse.end());
  std::sort(r.flags.approach_after_impact.begin(), r.flags.approach_after_impact.end());
  std::stable_sort(out.friction.begin(), out.friction.end(),
                   [](const ContactFriction& a, const ContactFriction& b) { return a.normal_row < b.normal_row; });
  r.normal_velocity_minus = speeds;
  r.normal_velocity_plus = dense_order_product(jacobian, r.qd_plus);
  r.kinetic_minus = model_.kinetic_energy(qd_minus);
  r.kinetic_plus = model_.kinetic_energy(r.qd_plus);
  r.kinetic_energy_change = r.kinetic_plus - r.kinetic_minus;
  r.energy_ratio = r.kinetic_minus > 0.0 ? r.kinetic_plus / r.kinetic_minus : std::numeric_limits<double>::quiet_NaN();
  return out;
}

ImpactSolution Simulator::frictional_part(const Vector& mass, const SparseJacobian& jacobian, const Vector& qd_minus,
                                          const Vector& restitution, const Vector& impulse,
                                          const std::vector<bool>& unilateral, const std::vector<FrictionPair>& pairs) {
  // reads one part of a frictional impact (its M, A in compressed rows, q̇⁻, E, i_u and pairs) ⇒ returns its
  // stick/slip impact (frictional_impact.hpp) on the projections of the coordinates it touches, solved step
  // by step — the projections, the sticking impact, then one mode combination a step — each step charged
  // before it runs. Where the budget stops the call the search is kept as it stands, and the next call
  // takes it up from there; the part solved is kept whole.
  const double t = static_cast<double>(jacobian.cols()), rows = static_cast<double>(jacobian.rows());
  // Keyed by all it depends on, its masses included.
  detail::InputKey input(detail::kImpactEvaluation);
  input.add(mass).add(jacobian).add(qd_minus).add(restitution).add(impulse).add(unilateral);
  for (const FrictionPair& pair : pairs) input.add(pair.normal_row).add(pair.mu);
  const std::uint64_t key = input.value();
  if (work_.replay.upcoming(key)) return *replayed(key, static_cast<int>(jacobian.rows()))->solution;
  const std::size_t start = work_.replay.position();
  const std::uint64_t search_key = detail::InputKey(detail::kFrictionSearchEvaluation).add_key(key).value();
  std::optional<FrictionalImpactSearch> search;
  if (const detail::Evaluation* known = replayed(search_key, 0)) search = *known->search;
  // A large part takes the sparse search (no n×n operator; ν plays no part in its impact).
  const bool sparse = jacobian.cols() >= sparse_friction_threshold_;
  if (!search && sparse) {
    search.emplace(mass, jacobian, qd_minus, Restitution::rows(restitution), pairs, impulse, unilateral);
  } else if (!search) {
    // A new search: its projections charged before they are made, on A dense.
    work_.budget.begin(work::projection(t, rows));
    search.emplace(std::make_shared<const Projection>(Inertia::from_diagonal(mass, "bodies"), Matrix(jacobian), nu_),
                   qd_minus, Restitution::rows(restitution), pairs, impulse, unilateral);
  }
  while (!search->done()) {
    // Each step charged before it runs (a sparse step what its gate cannot stop, the rest piece by piece);
    // stopped here or inside a sparse step, the search is kept as it stands, with the step's progress.
    try {
      work_.budget.begin(sparse ? search->next_step_flops(true) : work::impact_solve(t, rows));
      search->step(sparse ? budget_gate() : WorkGate());
    } catch (const WorkBudget::Exhausted&) {
      detail::Evaluation evaluation;
      evaluation.key = search_key;
      evaluation.search = std::make_shared<const FrictionalImpactSearch>(std::move(*search));
      work_.replay.record_in_place_of(start, std::move(evaluation));
      throw;
    }
  }
  ImpactSolution solved = summarise_frictional_impact(search->result());
  detail::Evaluation evaluation;
  evaluation.key = key;
  evaluation.solution = solved;
  work_.replay.record_in_place_of(start, std::move(evaluation));
  return solved;
}

void Simulator::assemble_sliding(const Vector& q, const Vector& qd) {
  // reads (q, q̇) ⇒ writes the tangential rows t of the sliding frictional points into work.sliding_rows.
  work_.sliding_solve.charged_system.reset();
  const int k = static_cast<int>(derived_.sliding.size());
  if (k == 0) return;
  // In compressed rows where the sliding dynamics is solved on them.
  ConstraintRows& rows = work_.sliding_rows;
  const bool sparse = sparse_sliding();
  if (sparse) {
    rows.resize_sparse(k, n_);
  } else if (rows.sparse || rows.rows() != k || rows.jacobian.cols() != n_) {
    rows.resize(k, n_);
  }
  for (int i = 0; i < k; ++i) tangent_row_of(derived_.sliding[static_cast<std::size_t>(i)].point, q, qd, i, rows);
  if (sparse) rows.finish_sparse();
}

bool Simulator::sparse_sliding() const {
  // The sliding friction's smooth phase on compressed rows from the coordinates of the sparse frictional
  // search (kSparseFrictionCoordinates): the friction built-ins keep the dense one.
  return n_ >= sparse_friction_threshold_;
}

ConstrainedDynamics Simulator::sliding_dynamics(Vector* velocity) {
  // reads work.rows and work.sliding_rows ⇒ returns q̈, f = Bᵀλ and λ with the sliding friction
  // (contact_friction.hpp); with `velocity`, first (I − S)q̇ as smooth_dynamics does (the M-orthogonal
  // projection onto N(A), friction or not). On compressed rows for a large scene, else (or where those are
  // not accurate) dense.
  const Vector& mass = model_.mass_diagonal();
  if (sparse_sliding()) {
    if (std::optional<ConstrainedDynamics> d = sparse_sliding_dynamics(velocity)) return std::move(*d);
    // The dense solve, on top of the sparse one charged.
    work_.budget.add(dense_projection_work(work_.rows.dense_jacobian()));
  }
  if (velocity) {
    *velocity = ScaledProjection(mass, work_.rows.dense_jacobian()).project_velocity(*velocity);
    assemble(state_.q, *velocity, derived_.active_points, derived_.layout, work_.rows);
  }
  SlidingDynamics s = sliding_friction_dynamics(mass, work_.rows.dense_jacobian(), work_.sliding_rows.dense_jacobian(),
                                                derived_.sliding, work_.rows.adot_qd, model_.free_acceleration());
  return std::move(s.dynamics);
}

detail::ObliqueSystem Simulator::sliding_system() {
  // A and T in compressed rows; B: the normal row of each sliding point with μ > 0 turned to n − μ s t.
  detail::ObliqueSystem system;
  SparseJacobian converted;
  system.a = detail::compressed_jacobian(work_.rows, converted);
  system.tangents = detail::compressed_jacobian(work_.sliding_rows, converted);
  for (std::size_t k = 0; k < derived_.sliding.size(); ++k) {
    const SlidingContact& c = derived_.sliding[k];
    const double factor = -(c.mu * static_cast<double>(c.direction));
    if (factor != 0.0) system.slipping.push_back({c.normal_row, static_cast<Eigen::Index>(k), factor});
  }
  system.b = detail::oblique_rows(system.a, system.tangents, system.slipping);
  return system;
}

detail::SparseStepProgress& Simulator::sliding_progress(const detail::ObliqueSystem& system) {
  // The solve in progress is this system's when its inputs are its inputs; else a new one.
  detail::InputKey input(detail::kSlidingSolveEvaluation);
  input.add(model_.mass_diagonal()).add(system.a).add(system.tangents);
  for (const detail::SlippingRow& row : system.slipping) input.add(static_cast<int>(row.position)).add(row.factor);
  detail::SlidingSolveWorkspace& solve = work_.sliding_solve;
  if (!solve.progress || solve.key != input.value()) {
    solve.progress = std::make_shared<detail::SparseStepProgress>();
    solve.key = input.value();
  }
  return *solve.progress;
}

std::optional<ConstrainedDynamics> Simulator::sparse_sliding_dynamics(Vector* velocity) {
  // reads work.rows and work.sliding_rows ⇒ returns q̈, f = Bᵀλ and λ from the oblique multipliers on
  // compressed rows (oblique_multipliers.hpp), each of their pieces told to the budget; nothing (and
  // `velocity` as it came) when the factorisations are not accurate.
  const Vector& mass = model_.mass_diagonal();
  // The system projection_work charged for this evaluation, with its solve's progress already keyed; else
  // built here.
  std::shared_ptr<detail::ObliqueSystem> charged = std::move(work_.sliding_solve.charged_system);
  work_.sliding_solve.charged_system.reset();
  const detail::ObliqueSystem system = charged ? std::move(*charged) : sliding_system();
  const SparseJacobian& a = system.a;
  detail::SparseStepProgress& progress = charged ? *work_.sliding_solve.progress : sliding_progress(system);
  const WorkGate gate = budget_gate();
  // F = A M⁻¹Aᵀ: the velocity's projection (I − S)q̇ and Ȧq̇ at it, as the frictionless sparse path. A
  // certified F is trusted; from kDroppedRowTrustCoordinates, one whose only doubt is a dropped row (boxes
  // face to face) is trusted when what it solves meets that row too (sparse_solution_meets_rows).
  DelassusFactorization& rows = progress.rows;
  rows.factorize_as_new(a, mass, gate);
  if (!smooth_phase_solves_sparse(rows, n_)) return std::nullopt;
  const bool certified = sparse_solve_accurate(rows);
  Vector unprojected;
  if (velocity) {
    // (I − S)q̇ meets A q̇ = 0 on every row, at the size of q̇.
    Vector projected = project_velocity_sparse(rows, *velocity);
    if (!certified && !sparse_solution_meets_rows(rows, projected, Vector::Zero(rows.rows()), detail::max_abs(*velocity))) {
      return std::nullopt;
    }
    unprojected = *velocity;
    *velocity = std::move(projected);
    reassemble_rates(*velocity);
  }
  // λ = G⁺r with r = −Ȧq̇ − A q̈*, a solution that meets a doubtful dropped row trusted as the frictionless
  // smooth phase trusts one; then f = Bᵀλ and q̈ = q̈* + M⁻¹f.
  const Vector& free_acceleration = model_.free_acceleration();
  const Vector rhs = -work_.rows.adot_qd - a * free_acceleration;
  const std::optional<Vector> lambda =
      detail::oblique_multipliers(mass, a, system.b, system.tangents, system.slipping, rhs, progress, gate,
                                  n_ >= kDroppedRowTrustCoordinates);
  if (!lambda) {
    // The velocity as it came; the dense solve that follows assembles the rows at it again.
    if (velocity) *velocity = std::move(unprojected);
    return std::nullopt;
  }
  ConstrainedDynamics d;
  d.multipliers = *lambda;
  d.force = system.b.transpose() * d.multipliers;
  d.qdd_free = free_acceleration;
  d.qdd = free_acceleration + d.force.cwiseQuotient(mass);
  d.qdd_normal = Vector::Zero(free_acceleration.size());
  return d;
}

double Simulator::slip_speed(int point, const Vector& q, const Vector& qd) {
  // v_t = t q̇ of one point at (q, q̇), for comparisons with a tolerance (row_dot: the sign of a zero aside).
  return row_dot(point_row(point, RowKind::Tangent, q, qd), qd);
}

double Simulator::friction_event_value(std::size_t j, const Vector& q, const Vector& qd, double normal,
                                       const Vector& multipliers) {
  // Active point j of the active set: μ λ_n − |λ_t| + tolerance while it sticks (negative beyond the cone),
  // s v_t + its speed tolerance while it slides (negative once the slip changed sign); +∞ without
  // friction (the normal event alone).
  const int k = derived_.active_points[j];
  if (!frictional(k)) return std::numeric_limits<double>::infinity();
  const char code = state_.sliding[static_cast<std::size_t>(k)];
  if (code == 0) {
    const int row = derived_.layout.normal_rows[j] + 1;
    if (!derived_.layout.tangent[j] || row >= multipliers.size()) return std::numeric_limits<double>::infinity();
    const double tangential = multipliers(row);
    return friction_of(k) * normal - std::abs(tangential) + work_.lambda_tolerance;
  }
  return static_cast<double>(slide_direction(code)) * slip_speed(k, q, qd) + speed_tolerance(k);
}

int Simulator::friction_inconsistency(double tolerance) {
  // reads the committed state and its λ ⇒ returns the first active frictional point beyond its cone
  // (sticking) or whose slip changed sign (sliding), −1 if none.
  for (std::size_t j = 0; j < derived_.active_points.size(); ++j) {
    const int k = derived_.active_points[j];
    if (!frictional(k)) continue;
    const char code = state_.sliding[static_cast<std::size_t>(k)];
    if (code == 0) {
      const int row = derived_.layout.normal_rows[j] + 1;
      if (!derived_.layout.tangent[j] || row >= derived_.multipliers.size()) continue;
      const double normal = derived_.point_multiplier[static_cast<std::size_t>(k)];
      const double tangential = derived_.multipliers(row);
      if (friction_of(k) * normal - std::abs(tangential) + tolerance < 0.0) return k;
    } else if (static_cast<double>(slide_direction(code)) * slip_speed(k, state_.q, state_.qd) +
                   speed_tolerance(k) < 0.0) {
      return k;
    }
  }
  return -1;
}

double Simulator::tangential_multiplier(int point) const {
  // λ_t of an active sticking point at the committed state (0 when it has no tangential row).
  for (std::size_t j = 0; j < derived_.active_points.size(); ++j) {
    const int row = derived_.layout.normal_rows[j] + 1;
    if (derived_.active_points[j] == point && derived_.layout.tangent[j] && row < derived_.multipliers.size()) {
      return derived_.multipliers(row);
    }
  }
  return 0.0;
}

void Simulator::switch_friction(int point) {
  // reads the committed state (refreshed) ⇒ writes state.sliding of one frictional point.
  // Stick → slip: the friction at the cone's edge keeps the sign of λ_t, so the slip starts in the direction
  // s = −sign(λ_t). Slip → stick when sticking is consistent (|λ_t| ≤ μ λ_n with the tangential row back in A),
  // otherwise the slip reverses (s → −s: a block on a slope steeper than its friction angle).
  const std::size_t k = static_cast<std::size_t>(point);
  const char was = state_.sliding[k];
  if (was == 0) {
    state_.sliding[k] = tangential_multiplier(point) > 0.0 ? kSlidesBackward : kSlidesForward;
    return;
  }
  state_.sliding[k] = 0;
  // The other sliding points whose slip changed sign too (the other corner of the same face) stick with it.
  for (const SlidingContact& c : derived_.sliding) {
    if (static_cast<double>(c.direction) * slip_speed(c.point, state_.q, state_.qd) + speed_tolerance(c.point) < 0.0) {
      state_.sliding[static_cast<std::size_t>(c.point)] = 0;
    }
  }
  collect_active_points();
  refresh();
  const double normal = derived_.point_multiplier[k];
  if (friction_of(point) * normal - std::abs(tangential_multiplier(point)) + multiplier_tolerance() >= 0.0) return;
  state_.sliding[k] = was == kSlidesForward ? kSlidesBackward : kSlidesForward;
}

void Simulator::friction_event(int point) {
  // reads the state at a located event of a frictional point (refreshed) ⇒ writes its flags: it separates
  // if it pulls, a sticking point slides, a sliding point whose slip changed sign sticks or reverses.
  const std::size_t k = static_cast<std::size_t>(point);
  // A Painlevé state: the tangential impact, not a lift-off (one of the several solutions).
  if (painleve_at_state()) {
    tangential_impact();
    return;
  }
  if (derived_.point_multiplier[k] + multiplier_tolerance() < 0.0) {
    state_.active[k] = 0;
    state_.sliding[k] = 0;
    return;
  }
  if (state_.sliding[k] == 0 ||
      static_cast<double>(slide_direction(state_.sliding[k])) * slip_speed(point, state_.q, state_.qd) +
              speed_tolerance(point) < 0.0) {
    switch_friction(point);
  }
}

bool Simulator::painleve_at_state() {
  // reads the committed state ⇒ whether the sliding problem has no unique solution (contact_friction.hpp).
  if (derived_.sliding.empty()) return false;
  // Only a point that does slip counts: one held at v_t = 0 by other rows (a corner in a valley, a face
  // whose other corner sticks) is at the edge of its cone, not sliding, and has no paradox.
  bool slipping = false;
  for (const SlidingContact& c : derived_.sliding) {
    slipping = slipping || std::abs(slip_speed(c.point, state_.q, state_.qd)) > speed_tolerance(c.point);
  }
  if (!slipping) return false;
  // The verdict of a step taken again after the budget stopped it, from memory: the check costs a
  // factorisation at least, and a settle asks for it at the end of every pass that changed nothing.
  detail::InputKey key(detail::kPainleveEvaluation);
  key.add(state_.q).add(state_.qd).add(state_.active).add(state_.sliding);
  if (const detail::Evaluation* known = replayed(key.value(), 0)) return known->values.front() != 0.0;
  const bool sparse = sparse_sliding();
  assemble(state_.q, state_.qd, derived_.active_points, derived_.layout, work_.rows, sparse);
  assemble_sliding(state_.q, state_.qd);
  const Vector& mass = model_.mass_diagonal();
  const int sliding = static_cast<int>(derived_.sliding.size());
  std::optional<bool> painleve;
  // W from compressed rows (painleve_check.hpp), then its minors, charged before they run.
  if (sparse) {
    const SparseJacobian& a = work_.rows.sparse_rows.matrix();
    work_.budget.begin(sliding_schur_complement_sparse_flops(n_, static_cast<int>(a.rows()), static_cast<int>(a.nonZeros()), sliding) +
                       painleve_verdict_flops(sliding));
    if (const std::optional<Matrix> w = sliding_schur_complement_sparse(mass, a, work_.sliding_rows.sparse_rows.matrix(), derived_.sliding)) {
      painleve = painleve_verdict(*w).painleve;
    }
  }
  // Else, or where A_R's factorisation is not accurate, dense: the decomposition of A M⁻¹Bᵀ, then W's minors
  // (after the sparse try, on top of it: a second piece that could stop the call would stop it again each
  // time it is taken).
  if (!painleve) {
    const Matrix& a = work_.rows.dense_jacobian();
    const double dense_work = dense_projection_work(a) + painleve_verdict_flops(sliding);
    if (sparse) {
      work_.budget.add(dense_work);
    } else {
      work_.budget.begin(dense_work);
    }
    painleve = sliding_friction_dynamics(mass, a, work_.sliding_rows.dense_jacobian(), derived_.sliding, work_.rows.adot_qd,
                                         model_.free_acceleration())
                   .painleve;
  }
  detail::Evaluation verdict;
  verdict.key = key.value();
  verdict.values.assign(1, *painleve ? 1.0 : 0.0);
  work_.replay.record(std::move(verdict));
  return *painleve;
}

void Simulator::tangential_impact() {
  // reads a Painlevé state ⇒ writes state.q̇ and the flags after a tangential impact (an impact without
  // collision, Génot and Brogliato's way out): every active point in A with its tangential row, e = 0,
  // each frictional point with its μ (frictional_impact.hpp decides stick or slip). Should it leave the
  // points in a Painlevé state still, they jam instead: every tangential row plastic (μ = +∞). Logged with
  // `painleve`.
  const std::vector<int> points = derived_.active_points;
  const std::vector<double> rest_speeds = rest_speeds_of(points);
  const RowLayout layout = layout_of(points, Tangents::All);
  ConstraintRows rows;
  assemble(state_.q, state_.qd, points, layout, rows);
  const Vector qd_minus = state_.qd;
  const Vector plastic = Vector::Zero(rows.rows());
  const std::vector<bool> unilateral = layout.unilateral_mask();
  ImpactSolution solution = solve_impact_on(rows, qd_minus, plastic, Vector(), unilateral,
                                            friction_pairs(points, layout));
  auto apply = [&](const ImpactSolution& s) {
    state_.qd = s.result.qd_plus;
    for (std::size_t j = 0; j < points.size(); ++j) {
      const std::size_t i = static_cast<std::size_t>(points[j]);
      const double tolerance = speed_tolerance(points[j]);
      state_.active[i] = s.result.normal_velocity_plus(layout.normal_rows[j]) <= tolerance ? 1 : 0;
      const double slip = layout.tangent[j] ? s.result.normal_velocity_plus(layout.normal_rows[j] + 1) : 0.0;
      state_.sliding[i] = state_.active[i] && layout.tangent[j] ? slide_code(slip, tolerance) : 0;
    }
    collect_active_points();
  };
  apply(solution);
  if (painleve_at_state()) {
    solution = solve_impact_on(rows, qd_minus, plastic, Vector(), unilateral);
    apply(solution);
  }
  for (int k : points) state_.impacting[static_cast<std::size_t>(k)] = 1;
  record_impact(points, layout, rows, std::move(solution), rest_speeds, 1, false, true);
}

void Simulator::friction_view(int point, ContactPoint& view) const {
  // reads the committed state's flags and λ ⇒ writes the view's slip direction and tangential force.
  const char code = state_.sliding[static_cast<std::size_t>(point)];
  view.slip = slide_direction(code);
  if (code != 0) {
    view.friction = -friction_of(point) * static_cast<double>(view.slip) * derived_.point_multiplier[static_cast<std::size_t>(point)];
  } else {
    view.friction = tangential_multiplier(point);
  }
}

}  // namespace oblique

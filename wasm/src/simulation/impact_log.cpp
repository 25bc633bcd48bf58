#include "oblique/simulation/impact_log.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

#include "oblique/math/scaled_projection.hpp"

namespace oblique {

namespace {

/// Whether x is +0.0, bit for bit (−0.0 is kept: it is not the matrix's default entry).
bool is_positive_zero(double x) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return bits == 0;
}

std::size_t vector_bytes(const Vector& v) { return sizeof(double) * static_cast<std::size_t>(v.size()); }

template <typename T>
std::size_t vector_bytes(const std::vector<T>& v) {
  return sizeof(T) * v.capacity();
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// SparseRows
// ---------------------------------------------------------------------------------------------------------

SparseRows::SparseRows(const Matrix& dense)
    : rows_(static_cast<int>(dense.rows())), cols_(static_cast<int>(dense.cols())) {
  row_start_.reserve(static_cast<std::size_t>(rows_) + 1);
  for (int i = 0; i < rows_; ++i) {
    row_start_.push_back(static_cast<int>(values_.size()));
    for (int j = 0; j < cols_; ++j) {
      if (is_positive_zero(dense(i, j))) continue;
      columns_.push_back(j);
      values_.push_back(dense(i, j));
    }
  }
  row_start_.push_back(static_cast<int>(values_.size()));
  columns_.shrink_to_fit();
  values_.shrink_to_fit();
}

SparseRows::SparseRows(const SparseJacobian& compressed)
    : rows_(static_cast<int>(compressed.rows())), cols_(static_cast<int>(compressed.cols())) {
  row_start_.reserve(static_cast<std::size_t>(rows_) + 1);
  for (int i = 0; i < rows_; ++i) {
    row_start_.push_back(static_cast<int>(values_.size()));
    for (SparseJacobian::InnerIterator entry(compressed, i); entry; ++entry) {
      if (is_positive_zero(entry.value())) continue;
      columns_.push_back(static_cast<int>(entry.col()));
      values_.push_back(entry.value());
    }
  }
  row_start_.push_back(static_cast<int>(values_.size()));
  columns_.shrink_to_fit();
  values_.shrink_to_fit();
}

Matrix SparseRows::dense() const {
  Matrix out = Matrix::Zero(rows_, cols_);
  for (int i = 0; i < rows_; ++i) {
    for (int k = row_start_[static_cast<std::size_t>(i)]; k < row_start_[static_cast<std::size_t>(i) + 1]; ++k) {
      out(i, columns_[static_cast<std::size_t>(k)]) = values_[static_cast<std::size_t>(k)];
    }
  }
  return out;
}

std::size_t SparseRows::bytes() const { return vector_bytes(row_start_) + vector_bytes(columns_) + vector_bytes(values_); }

// ---------------------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------------------

namespace {

/// The record of an impact whose A is already in the record's rows.
ImpactRecord make_record(double time, std::shared_ptr<const Inertia> inertia, SparseRows&& jacobian,
                         std::optional<double> nu_setting, ImpactSolution&& solution) {
  ImpactRecord record;
  record.time = time;
  record.inertia = std::move(inertia);
  record.jacobian = std::move(jacobian);
  record.nu_setting = nu_setting;
  record.result = std::move(solution.result);
  record.friction = std::move(solution.friction);
  record.modes_consistent = solution.modes_consistent;
  // The matrices go (recomputed when shown), and i_u when it is zero (solve_impact reads none as zero).
  record.result.restitution_transfer = Matrix();
  record.result.consistency_matrix = Matrix();
  const Vector& impulse = record.result.external_impulse;
  bool zero = true;
  for (Eigen::Index i = 0; i < impulse.size(); ++i) zero = zero && is_positive_zero(impulse(i));
  if (zero) record.result.external_impulse = Vector();
  return record;
}

}  // namespace

ImpactRecord make_impact_record(double time, std::shared_ptr<const Inertia> inertia, const Matrix& jacobian,
                                std::optional<double> nu_setting, ImpactSolution&& solution) {
  SparseRows rows(jacobian.rows() > 0 ? jacobian : Matrix(0, inertia->size()));
  return make_record(time, std::move(inertia), std::move(rows), nu_setting, std::move(solution));
}

ImpactRecord make_impact_record(double time, std::shared_ptr<const Inertia> inertia, const SparseJacobian& jacobian,
                                std::optional<double> nu_setting, ImpactSolution&& solution) {
  SparseRows rows = jacobian.rows() > 0 ? SparseRows(jacobian) : SparseRows(Matrix(0, inertia->size()));
  return make_record(time, std::move(inertia), std::move(rows), nu_setting, std::move(solution));
}

const ProjectionScalars& ImpactRecord::projection_scalars() const {
  if (!projection_scalars_) compute_from_touched_block();
  return *projection_scalars_;
}

const EnergyConsistency& ImpactRecord::energy_consistency() const {
  if (energy_consistency_) return *energy_consistency_;
  // Established by the impact's solve: its own numbers.
  if (!std::isnan(result.qmi_max_eig)) {
    energy_consistency_ = EnergyConsistency{result.qmi_max_eig, result.energy_consistent};
    return *energy_consistency_;
  }
  compute_from_touched_block();
  return *energy_consistency_;
}

void ImpactRecord::compute_from_touched_block() const {
  // M is diagonal in the simulator's coordinates; its diagonal, A and ν are the inputs the impact had.
  const Vector mass = inertia->diagonal();
  const TouchedBlock block = touched_block(mass, jacobian.dense());
  // One projection of the block serves both (a summary asks for both: building it twice was a third of a
  // command-line run of the chain of 32).
  std::optional<Projection> projection;
  if (!block.touched.empty()) projection.emplace(Matrix(block.mass.asDiagonal()), block.jacobian, nu_setting);
  const Projection* block_projection = projection ? &*projection : nullptr;
  if (!projection_scalars_) {
    projection_scalars_ = unscaled_projection_scalars(mass, block, block_projection, nu_setting);
  }
  // λ_max(EQE − Q) where the impact's solve left it: S and A⁺ vanish in the rows of the coordinates A does
  // not touch, so Q = GᵀMG is the block's.
  if (!energy_consistency_ && std::isnan(result.qmi_max_eig)) {
    Matrix q = Matrix::Zero(block.jacobian.rows(), block.jacobian.rows());
    if (block_projection != nullptr) q = consistency_matrix(*block_projection);
    energy_consistency_ = oblique::energy_consistency(q, result.restitution);
  }
}

Projection ImpactRecord::projection() const { return Projection(*inertia, jacobian.dense(), nu_setting); }

std::vector<bool> ImpactRecord::unilateral() const {
  std::vector<bool> mask(static_cast<std::size_t>(jacobian.rows()), false);
  for (int row : normal_rows) mask[static_cast<std::size_t>(row)] = true;
  return mask;
}

ImpactResult ImpactRecord::full_result(const Projection& projection) const {
  // The impact solved again on its own inputs gives the same Ẽ and Q; the rest is the record's.
  ImpactResult again = solve_impact(projection, result.qd_minus, Restitution::rows(result.restitution),
                                    result.external_impulse, unilateral());
  ImpactResult full = result;
  full.restitution_transfer = std::move(again.restitution_transfer);
  full.consistency_matrix = std::move(again.consistency_matrix);
  // An impact solved on the sparse path left λ_max(EQE − Q) (NaN): the numbers its summary shows.
  if (std::isnan(full.qmi_max_eig)) {
    full.qmi_max_eig = energy_consistency().qmi_max_eig;
    full.energy_consistent = energy_consistency().consistent;
  }
  if (full.external_impulse.size() == 0) full.external_impulse = std::move(again.external_impulse);
  return full;
}

std::size_t ImpactRecord::bytes() const {
  const ImpactResult& r = result;
  return sizeof(ImpactRecord) + vector_bytes(points) + vector_bytes(contacts) + vector_bytes(normal_rows) + vector_bytes(joints) +
         vector_bytes(positions) + vector_bytes(normals) + vector_bytes(rest_speeds) + vector_bytes(nearly_resting) +
         jacobian.bytes() + vector_bytes(r.restitution) +
         vector_bytes(r.qd_minus) + vector_bytes(r.qd_plus) + vector_bytes(r.impulse) +
         vector_bytes(r.impulse_multipliers) + vector_bytes(r.external_impulse) + vector_bytes(r.normal_velocity_minus) +
         vector_bytes(r.normal_velocity_plus) + vector_bytes(r.flags.tensile_impulse) +
         vector_bytes(r.flags.approach_after_impact) + vector_bytes(friction);
}

// ---------------------------------------------------------------------------------------------------------
// The log
// ---------------------------------------------------------------------------------------------------------

void ImpactLog::push(ImpactRecord&& record) {
  const std::size_t size = record.bytes();
  while (!records_.empty() && (records_.size() >= max_records_ || bytes_ + size > byte_budget_)) drop_front();
  bytes_ += size;
  records_.push_back(std::move(record));
}

void ImpactLog::drop_front() {
  bytes_ -= records_.front().bytes();
  records_.pop_front();
  ++dropped_;
}

void ImpactLog::cut_back_to(std::size_t count) {
  if (count < dropped_ || count > logged()) {
    clear();
    dropped_ = count;
    return;
  }
  while (logged() > count) {
    bytes_ -= records_.back().bytes();
    records_.pop_back();
  }
}

void ImpactLog::clear() {
  records_.clear();
  dropped_ = 0;
  bytes_ = 0;
}

}  // namespace oblique

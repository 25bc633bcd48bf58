// The evaluations of a step that its work budget interrupted (work_budget.hpp), kept so that the next call,
// which takes the step again from its start, replays them instead of computing them again. The step is
// deterministic, so its k-th evaluation has the same inputs as before: each is checked against a key of
// its inputs, and the first mismatch (the step took another path: the caller asked for another end time,
// say) drops what is left, which is then computed afresh. Used by the Simulator.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "oblique/friction/frictional_impact.hpp"
#include "oblique/simulation/activation_rule.hpp"
#include "oblique/math/projection.hpp"
#include "oblique/math/scaled_projection.hpp"
#include "oblique/sparse/sparse_rows.hpp"

namespace oblique::detail {

/// Kinds of evaluation, the first word of their keys (InputKey).
enum EvaluationKind : int {
  kDynamicsEvaluation = 1,
  kRefreshEvaluation,
  kPositionEvaluation,
  kImpactEvaluation,
  kSplitEvaluation,
  kPassiveSolveEvaluation,      ///< one passive solve of a split, keyed by the split's key and its index
  kDenseImpactEvaluation,       ///< an impact's sparse factorisation found not accurate: the dense fallback
  kImpactProjectionEvaluation,  ///< the dense fallback's projections, before its impact solve
  kFrictionSearchEvaluation,    ///< a frictional impact's stick/slip search where the budget stopped it
  kRestoredEvaluation,          ///< q̈ and λ of a restored state, left by the restore to the next call
  kPositionPassEvaluation,      ///< one Gauss–Newton pass of a position correction, keyed by its q and index
  kSlidingSolveEvaluation,      ///< the inputs of a smooth phase's oblique solve with sliding friction
  kPainleveEvaluation,          ///< Painlevé's check at a state (its verdict, 1 or 0, in `values`)
  kSettleEntry,                 ///< a settle's entry: the key its passes' resume points are kept under
  kLoadRoundsEntry,             ///< the start's load rounds' entry (activate_at_rest), the same for its rounds
};

/// A 64-bit key of an evaluation's inputs, over the bits of its numbers: each word is xored into the
/// running hash, which MurmurHash3's 64-bit finaliser then stirs (a bijection: two word sequences of one
/// length that differ in one word never meet). A vector's words go first into four lanes in turn, each
/// lane's step h ← rotl((h ⊕ w)·c, 31) a bijection of h, injective in w — four independent chains the
/// processor overlaps, where one finaliser per word is a chain of dependent multiplies —, and the lanes
/// then into the running hash: two vectors of one length that differ in one word still never meet. A
/// matrix is keyed by its shape and by its entries whose bits are not zero, with their positions: A has a
/// few entries per row, and hashing its zeros one byte at a time cost a quarter of a resting pile's time.
class InputKey {
 public:
  explicit InputKey(int kind) { add(kind); }
  InputKey& add(double x) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    return mix(bits);
  }
  InputKey& add(int x) { return mix(static_cast<std::uint64_t>(static_cast<std::int64_t>(x))); }
  /// Another key's value (an evaluation inside another: a split's passive solve).
  InputKey& add_key(std::uint64_t key) { return mix(key); }
  InputKey& add(const Vector& v) {
    add(static_cast<int>(v.size()));
    return add_lanes(v.size(), [&v](Eigen::Index i) {
      std::uint64_t bits = 0;
      const double x = v(i);
      std::memcpy(&bits, &x, sizeof bits);
      return bits;
    });
  }
  InputKey& add(const Matrix& a) {
    add(static_cast<int>(a.rows()));
    add(static_cast<int>(a.cols()));
    for (Eigen::Index i = 0; i < a.size(); ++i) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, a.data() + i, sizeof bits);
      if (bits == 0) continue;
      mix(static_cast<std::uint64_t>(i));
      mix(bits);
    }
    return *this;
  }
  /// A in compressed rows: its shape, and each stored entry whose bits are not zero with its position
  /// (row-major order; a key of its own, not that of the same matrix dense).
  InputKey& add(const SparseJacobian& a) {
    add(static_cast<int>(a.rows()));
    add(static_cast<int>(a.cols()));
    for (int i = 0; i < a.outerSize(); ++i) {
      for (SparseJacobian::InnerIterator entry(a, i); entry; ++entry) {
        const double value = entry.value();
        std::uint64_t bits = 0;
        std::memcpy(&bits, &value, sizeof bits);
        if (bits == 0) continue;
        mix(static_cast<std::uint64_t>(entry.col()) * static_cast<std::uint64_t>(a.rows()) + static_cast<std::uint64_t>(i));
        mix(bits);
      }
    }
    return *this;
  }
  template <typename T>
  InputKey& add(const std::vector<T>& values) {
    add(static_cast<int>(values.size()));
    return add_lanes(static_cast<Eigen::Index>(values.size()), [&values](Eigen::Index i) {
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<int>(values[static_cast<std::size_t>(i)])));
    });
  }
  std::uint64_t value() const { return hash_; }

 private:
  // `count` words word(0..count−1), word i into lane i mod 4 (header comment); each lane then mixed in.
  template <typename Word>
  InputKey& add_lanes(Eigen::Index count, const Word& word) {
    std::uint64_t lane[4] = {0x9e3779b97f4a7c15ull, 0xbf58476d1ce4e5b9ull, 0x94d049bb133111ebull, 0x2545f4914f6cdd1dull};
    const auto step = [](std::uint64_t h, std::uint64_t w) {
      h = (h ^ w) * 0x9e3779b97f4a7c15ull;
      return (h << 31) | (h >> 33);
    };
    Eigen::Index i = 0;
    for (; i + 4 <= count; i += 4) {
      lane[0] = step(lane[0], word(i));
      lane[1] = step(lane[1], word(i + 1));
      lane[2] = step(lane[2], word(i + 2));
      lane[3] = step(lane[3], word(i + 3));
    }
    for (; i < count; ++i) lane[i % 4] = step(lane[i % 4], word(i));
    for (std::uint64_t h : lane) mix(h);
    return *this;
  }
  InputKey& mix(std::uint64_t bits) {
    std::uint64_t h = hash_ ^ bits;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    hash_ = h;
    return *this;
  }
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

/// What one evaluation produced; each kind uses the fields its caller names.
struct Evaluation {
  std::uint64_t key = 0;
  Vector first, second, third, fourth;
  std::vector<double> values;
  double drift = 0.0;
  std::optional<ImpactSolution> solution;
  std::shared_ptr<const ScaledProjection> projection;  ///< a dense impact's projections, made before its solve
  std::shared_ptr<const FrictionalImpactSearch> search;  ///< a stick/slip search as the budget left it
};

/// The evaluations of the interrupted step, in order, and where the replay is.
class EvaluationReplay {
 public:
  /// The evaluation recorded at the cursor if its key matches (moving on); otherwise nullptr, after
  /// dropping the recorded evaluations from the cursor on.
  const Evaluation* next(std::uint64_t key) {
    if (cursor_ < evaluations_.size()) {
      if (evaluations_[cursor_].key == key) return &evaluations_[cursor_++];
      evaluations_.resize(cursor_);
      ++generation_;
    }
    return nullptr;
  }
  /// Whether the evaluation recorded at the cursor has this key (nothing is dropped or moved).
  bool upcoming(std::uint64_t key) const { return cursor_ < evaluations_.size() && evaluations_[cursor_].key == key; }
  /// Records an evaluation just made; returns the record, which stays in place until the evaluations are
  /// dropped (clear, or a mismatch or a record_in_place_of at or before it).
  const Evaluation& record(Evaluation&& evaluation) {
    evaluations_.push_back(std::move(evaluation));
    cursor_ = evaluations_.size();
    return evaluations_.back();
  }
  /// Where the next evaluation is recorded or replayed.
  std::size_t position() const { return cursor_; }
  /// Changes whenever recorded evaluations are dropped for a mismatch or cleared: a position taken under
  /// the same generation, and not beyond the evaluations recorded, still has the evaluations before it that
  /// it had (a record in place of parts drops only those after the position it was made at).
  std::uint64_t generation() const { return generation_; }
  /// Whether the replay can go on from `position` taken under `generation` (above).
  bool holds(std::size_t position, std::uint64_t generation) const {
    return generation == generation_ && position <= evaluations_.size();
  }
  /// Moves the cursor to `position` (holds() true): the evaluations between are skipped, kept as they are.
  void seek(std::size_t position) { cursor_ = position; }
  /// Records an evaluation just made in place of those recorded from `start` on (its own parts, kept while
  /// it could still be interrupted: a split's passive solves), so that a replay takes it whole.
  void record_in_place_of(std::size_t start, Evaluation&& evaluation) {
    evaluations_.resize(start);
    record(std::move(evaluation));
  }
  /// The step starts again from its beginning.
  void rewind() { cursor_ = 0; }
  /// The step completed, or the state or the settings changed: nothing to replay.
  void clear() {
    evaluations_.clear();
    cursor_ = 0;
    ++generation_;
  }

 private:
  // A deque: recording does not move the evaluations recorded before, whose fields a caller may still be
  // reading (a split's force taken from a replayed evaluation, while the split records its passive solves).
  std::deque<Evaluation> evaluations_;
  std::size_t cursor_ = 0;
  std::uint64_t generation_ = 0;
};

}  // namespace oblique::detail

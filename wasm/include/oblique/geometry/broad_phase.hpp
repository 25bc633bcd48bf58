// The broad phase: which pairs of bodies may touch, from axis-aligned bounding boxes, in near-linear time
// and in the same order on every run and every build.
//
// Each body is a proxy: its box (the shape's contact features, inflated), whether it collides at all, and
// a category and a mask of collision bits (Box2D's filter: A and B may touch when A's category meets B's
// mask and B's category meets A's mask). Two proxies are a pair when both collide, their filters accept
// each other and their closed boxes overlap (touching edges count).
//
// Method: a uniform grid, sorted instead of hashed. The cell is the median of the boxes' largest sides, so
// a typical box covers at most 2 × 2 cells; every (cell, proxy) entry is put in one array, sorted by cell
// then proxy, and each run of one cell is tested pair by pair. A pair met in several cells is reported only
// from the cell holding the lower-left corner of the two boxes' intersection, which both boxes cover, so it
// is found once with no set. A box spanning more than kMaxCellsPerProxy cells (a long wall among pebbles) is
// tested against every proxy instead, so no proxy floods the grid. The cost is O(n log n) for n proxies of
// comparable size at a bounded density (the benchmark in bench/native measures it), and at worst O(n²)
// when everything crowds into a few cells, as a pile does.
//
// Why a grid and not sort-and-sweep on one axis: in a plane the boxes that overlap a body along one axis
// grow like √n at a constant density, so a one-axis sweep costs O(n^1.5); the grid keeps the candidates of
// a body to its neighbours.
//
// Determinism: no hashing, no randomness; std::sort on keys that are all distinct, so every implementation
// gives the same order, and the pairs come out sorted by (a, b).
//
// Planes are not proxies: a body is tested against every plane directly by the narrow phase (a few
// circles per body and plane, at most 32 planes).
#pragma once

#include <cstdint>
#include <vector>

#include "oblique/geometry/contact_geometry.hpp"

namespace oblique {

/// A closed axis-aligned box.
struct Aabb {
  Vec2 lower = Vec2::Zero();
  Vec2 upper = Vec2::Zero();
};

/// Closed boxes overlap (touching edges or corners count).
inline bool aabbs_overlap(const Aabb& a, const Aabb& b) {
  return a.lower.x() <= b.upper.x() && b.lower.x() <= a.upper.x() && a.lower.y() <= b.upper.y() &&
         b.lower.y() <= a.upper.y();
}

/// The box of a shape's contact features at a pose, grown by `inflation` (m, ≥ 0) on every side: the disk;
/// the box's corners; the rod's two end circles; the point's centre; the wheel's spoke tips (its spokes do
/// not collide). Two shapes within a distance d of each other have overlapping boxes when inflated by d/2
/// each, so the narrow phase's margin halved is the inflation to use.
Aabb shape_aabb(const Shape& shape, const Pose& pose, double inflation);

/// One body in the broad phase.
struct BroadPhaseProxy {
  Aabb box;
  bool collides = true;               ///< false: in no pair at all
  std::uint32_t category = 1;         ///< the collision bits this body has
  std::uint32_t mask = 0xFFFFFFFFu;   ///< the collision bits this body touches
};

/// Both collide and each one's category meets the other's mask.
inline bool proxies_may_touch(const BroadPhaseProxy& a, const BroadPhaseProxy& b) {
  return a.collides && b.collides && (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

/// A pair of proxy indices, a < b.
struct BodyPair {
  int a = 0, b = 0;
  friend bool operator==(const BodyPair& x, const BodyPair& y) { return x.a == y.a && x.b == y.b; }
  friend bool operator<(const BodyPair& x, const BodyPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; }
};

/// A box covering more cells than this is tested against every proxy rather than entered in the grid.
inline constexpr long kMaxCellsPerProxy = 64;

/// Finds the pairs; keeps its buffers from call to call, so a simulator calling it every step does not
/// allocate once they have grown.
class BroadPhase {
 public:
  /// Writes to `pairs` (cleared first) every pair of proxies that may touch and whose boxes overlap,
  /// sorted by (a, b). Throws std::invalid_argument naming "proxies[i].box" when a box is not finite or
  /// not ordered (lower ≤ upper), and "proxies" beyond 2³¹ − 1 proxies.
  void find_pairs(const std::vector<BroadPhaseProxy>& proxies, std::vector<BodyPair>& pairs);

  /// The cell side of the last call (m); 0 before the first call or when no proxy collides.
  double cell_size() const { return cell_size_; }
  /// Proxies of the last call tested against every proxy for covering too many cells.
  int oversize_count() const { return static_cast<int>(oversize_.size()); }

 private:
  struct Entry {
    std::int64_t cell;
    int proxy;
  };
  std::vector<Entry> entries_;
  std::vector<int> oversize_;
  std::vector<double> sides_;
  double cell_size_ = 0.0;
};

}  // namespace oblique

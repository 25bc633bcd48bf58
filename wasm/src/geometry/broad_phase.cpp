#include "oblique/geometry/broad_phase.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <string>

#include "math/checks.hpp"
#include "math/thread_local_storage.hpp"
#include "model/rigid_points.hpp"

namespace oblique {

using detail::fail;

namespace {

/// At most this many cells along an axis: cell indices and keys stay small exact integers.
constexpr double kMaxCellsPerAxis = 1 << 20;
/// Key of cell (ix, iy): ix · kCellStride + iy, with iy < kCellStride.
constexpr std::int64_t kCellStride = std::int64_t{1} << 22;

/// Index of the cell holding coordinate x along an axis starting at `origin`.
inline std::int64_t cell_index(double x, double origin, double cell) {
  return static_cast<std::int64_t>(std::floor((x - origin) / cell));
}

/// Counts of a counting sort, kept from call to call so that a simulator calling every step does not
/// allocate.
std::vector<std::size_t>& sort_counts() {
  static OBLIQUE_THREAD_LOCAL std::vector<std::size_t> counts;
  return counts;
}

/// Reorders `items` stably by bucket(item) in [0, buckets): a counting sort into `scratch`.
template <class Item, class Bucket>
void counting_sort(std::vector<Item>& items, std::vector<Item>& scratch, std::size_t buckets, Bucket bucket) {
  std::vector<std::size_t>& counts = sort_counts();
  counts.assign(buckets + 1, 0);
  for (const Item& item : items) ++counts[bucket(item) + 1];
  for (std::size_t b = 0; b < buckets; ++b) counts[b + 1] += counts[b];
  scratch.resize(items.size());
  for (const Item& item : items) scratch[counts[bucket(item)]++] = item;
  items.swap(scratch);
}

/// Sorts entries by (cell, proxy), all distinct. The entries come in increasing proxy order, so a stable
/// sort by cell alone gives that order: a counting sort over the grid's cells (numbered x · cells_y + y,
/// in the order of the keys x · kCellStride + y) when they are not many more than the entries, else
/// std::sort.
template <class Entry>
void sort_entries(std::vector<Entry>& entries, std::int64_t cells_x, std::int64_t cells_y) {
  const double cells = static_cast<double>(cells_x) * static_cast<double>(cells_y);
  if (cells > 4.0 * static_cast<double>(entries.size()) + 1024.0) {
    std::sort(entries.begin(), entries.end(),
              [](const Entry& p, const Entry& q) { return p.cell != q.cell ? p.cell < q.cell : p.proxy < q.proxy; });
    return;
  }
  static OBLIQUE_THREAD_LOCAL std::vector<Entry> scratch;
  counting_sort(entries, scratch, static_cast<std::size_t>(cells), [cells_y](const Entry& e) {
    return static_cast<std::size_t>((e.cell / kCellStride) * cells_y + e.cell % kCellStride);
  });
}

/// Sorts pairs of proxies below n by (a, b): stably by b, then stably by a.
void sort_pairs(std::vector<BodyPair>& pairs, std::size_t n) {
  static OBLIQUE_THREAD_LOCAL std::vector<BodyPair> scratch;
  counting_sort(pairs, scratch, n, [](const BodyPair& p) { return static_cast<std::size_t>(p.b); });
  counting_sort(pairs, scratch, n, [](const BodyPair& p) { return static_cast<std::size_t>(p.a); });
}

}  // namespace

Aabb shape_aabb(const Shape& shape, const Pose& pose, double inflation) {
  if (!std::isfinite(inflation) || inflation < 0.0) {
    fail("inflation", "must be a finite number ≥ 0, got " + detail::format_number(inflation));
  }
  if (!pose.position.allFinite() || !std::isfinite(pose.angle)) fail("pose", "must be finite numbers");
  // The box of the shape's circles (its core's vertices, each with its radius), then inflated.
  const CosSin rotation = cos_sin(pose.angle);
  const double inf = std::numeric_limits<double>::infinity();
  Aabb box{Vec2(inf, inf), Vec2(-inf, -inf)};
  for (int k = 0; k < circle_count(shape); ++k) {
    const Feature circle = circle_feature(shape, k);
    const Vec2 centre = pose.position + detail::rotate(rotation, circle.point);
    const Vec2 reach = Vec2::Constant(circle.radius + inflation);
    box.lower = box.lower.cwiseMin(centre - reach);
    box.upper = box.upper.cwiseMax(centre + reach);
  }
  return box;
}

void BroadPhase::find_pairs(const std::vector<BroadPhaseProxy>& proxies, std::vector<BodyPair>& pairs) {
  if (proxies.size() > static_cast<std::size_t>(INT_MAX)) fail("proxies", "too many proxies");
  const int n = static_cast<int>(proxies.size());
  pairs.clear();
  entries_.clear();
  oversize_.clear();
  sides_.clear();
  cell_size_ = 0.0;

  // Checked boxes; the origin and span of the colliding ones, and their largest sides.
  const double inf = std::numeric_limits<double>::infinity();
  Vec2 origin(inf, inf), far(-inf, -inf);
  for (int i = 0; i < n; ++i) {
    const Aabb& box = proxies[static_cast<std::size_t>(i)].box;
    if (!box.lower.allFinite() || !box.upper.allFinite() || !(box.lower.array() <= box.upper.array()).all()) {
      fail("proxies[" + std::to_string(i) + "].box", "must be finite numbers with lower ≤ upper");
    }
    if (!proxies[static_cast<std::size_t>(i)].collides) continue;
    origin = origin.cwiseMin(box.lower);
    far = far.cwiseMax(box.upper);
    sides_.push_back((box.upper - box.lower).maxCoeff());
  }
  if (sides_.empty()) return;

  // The cell: the median largest side, but no more than kMaxCellsPerAxis cells across the scene.
  const auto middle = sides_.begin() + static_cast<std::ptrdiff_t>(sides_.size() / 2);
  std::nth_element(sides_.begin(), middle, sides_.end());
  double cell = std::max(*middle, (far - origin).maxCoeff() / kMaxCellsPerAxis);
  if (!(cell > 0.0)) cell = 1.0;  // every box is the same point
  cell_size_ = cell;

  // One entry per covered cell; boxes covering too many cells are set aside.
  for (int i = 0; i < n; ++i) {
    const BroadPhaseProxy& proxy = proxies[static_cast<std::size_t>(i)];
    if (!proxy.collides) continue;
    const std::int64_t x0 = cell_index(proxy.box.lower.x(), origin.x(), cell);
    const std::int64_t x1 = cell_index(proxy.box.upper.x(), origin.x(), cell);
    const std::int64_t y0 = cell_index(proxy.box.lower.y(), origin.y(), cell);
    const std::int64_t y1 = cell_index(proxy.box.upper.y(), origin.y(), cell);
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > kMaxCellsPerProxy) {
      oversize_.push_back(i);
      continue;
    }
    for (std::int64_t x = x0; x <= x1; ++x) {
      for (std::int64_t y = y0; y <= y1; ++y) entries_.push_back(Entry{x * kCellStride + y, i});
    }
  }
  sort_entries(entries_, cell_index(far.x(), origin.x(), cell) + 1, cell_index(far.y(), origin.y(), cell) + 1);

  // Each cell's run, pair by pair; a pair counts only in the cell of its boxes' intersection's lower-left
  // corner (which both boxes cover), so a pair sharing several cells is reported once.
  for (std::size_t begin = 0; begin < entries_.size();) {
    std::size_t end = begin + 1;
    while (end < entries_.size() && entries_[end].cell == entries_[begin].cell) ++end;
    for (std::size_t i = begin; i < end; ++i) {
      const BroadPhaseProxy& p = proxies[static_cast<std::size_t>(entries_[i].proxy)];
      for (std::size_t j = i + 1; j < end; ++j) {
        const BroadPhaseProxy& q = proxies[static_cast<std::size_t>(entries_[j].proxy)];
        if (!proxies_may_touch(p, q) || !aabbs_overlap(p.box, q.box)) continue;
        const Vec2 corner = p.box.lower.cwiseMax(q.box.lower);
        const std::int64_t home =
            cell_index(corner.x(), origin.x(), cell) * kCellStride + cell_index(corner.y(), origin.y(), cell);
        if (home == entries_[begin].cell) pairs.push_back(BodyPair{entries_[i].proxy, entries_[j].proxy});
      }
    }
    begin = end;
  }

  // Oversize boxes against every colliding proxy (a pair of two oversize boxes once, from the first).
  for (std::size_t k = 0; k < oversize_.size(); ++k) {
    const int o = oversize_[k];
    for (int i = 0; i < n; ++i) {
      if (i == o || !proxies[static_cast<std::size_t>(i)].collides) continue;
      if (i < o && std::binary_search(oversize_.begin(), oversize_.end(), i)) continue;
      const BroadPhaseProxy& p = proxies[static_cast<std::size_t>(o)];
      const BroadPhaseProxy& q = proxies[static_cast<std::size_t>(i)];
      if (proxies_may_touch(p, q) && aabbs_overlap(p.box, q.box)) pairs.push_back(BodyPair{std::min(o, i), std::max(o, i)});
    }
  }
  sort_pairs(pairs, proxies.size());
}

}  // namespace oblique

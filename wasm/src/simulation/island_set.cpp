#include "oblique/simulation/island_set.hpp"

#include <stdexcept>
#include <string>

namespace oblique {

IslandSet::IslandSet(int body_count) { reset(body_count); }

void IslandSet::reset(int body_count) {
  if (body_count < 0) throw std::invalid_argument("body_count: must be ≥ 0, got " + std::to_string(body_count));
  parent_.resize(static_cast<std::size_t>(body_count));
  for (int b = 0; b < body_count; ++b) parent_[static_cast<std::size_t>(b)] = b;
}

int IslandSet::root_of(int body) {
  if (body >= body_count()) {
    throw std::out_of_range("body: " + std::to_string(body) + " is not below the body count " +
                            std::to_string(body_count()));
  }
  // Path halving: every node on the way points to its grandparent.
  std::size_t b = static_cast<std::size_t>(body);
  while (parent_[b] != static_cast<int>(b)) {
    const std::size_t up = static_cast<std::size_t>(parent_[b]);
    parent_[b] = parent_[up];
    b = static_cast<std::size_t>(parent_[b]);
  }
  return static_cast<int>(b);
}

void IslandSet::join(int a, int b) {
  // The world (and anything fixed to it) is no node: an edge to it links nothing.
  if (a < 0 || b < 0) {
    if (a >= 0) root_of(a);  // still checks the index
    if (b >= 0) root_of(b);
    return;
  }
  const int ra = root_of(a), rb = root_of(b);
  if (ra == rb) return;
  // The smaller root stays the root: every island's root is its smallest body index.
  if (ra < rb) {
    parent_[static_cast<std::size_t>(rb)] = ra;
  } else {
    parent_[static_cast<std::size_t>(ra)] = rb;
  }
}

int IslandSet::island_of(int body) {
  if (body < 0) throw std::out_of_range("body: the world (" + std::to_string(body) + ") is in no island");
  return root_of(body);
}

std::vector<int> IslandSet::labels() {
  std::vector<int> out(parent_.size());
  for (std::size_t b = 0; b < parent_.size(); ++b) out[b] = root_of(static_cast<int>(b));
  return out;
}

std::vector<char> IslandSet::covered_by(const std::vector<int>& seeds) {
  // The roots of the seeds' islands, then every body whose root is one of them.
  std::vector<char> seeded_root(parent_.size(), 0);
  for (int seed : seeds) {
    if (seed >= 0) seeded_root[static_cast<std::size_t>(root_of(seed))] = 1;
  }
  std::vector<char> covered(parent_.size(), 0);
  for (std::size_t b = 0; b < parent_.size(); ++b) covered[b] = seeded_root[static_cast<std::size_t>(root_of(static_cast<int>(b)))];
  return covered;
}

}  // namespace oblique

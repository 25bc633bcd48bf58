// Contact islands: the bodies of a scene split into groups that no constraint row links.
//
// An island is a connected component of the graph whose nodes are the bodies and whose edges are the rows
// that can carry an impulse between two bodies at an impact: every joint, every contact point that touches
// (the active ones among them), and the impact's candidates. The world — the planes and every body fixed to
// it (kWorld) — is no node: a floor that two disks stand on does not link them, since a row against the
// world has non-zero entries in the columns of its one body only.
//
// Why an impact may be solved island by island. Order the coordinates by island and the rows likewise;
// each row of A has non-zero entries in the columns of its own island only, so A, M (diagonal) and
// K = A M⁻¹ Aᵀ are block diagonal, and so are A⁺ (the pseudoinverse of a block-diagonal matrix is the
// block-diagonal matrix of the blocks' pseudoinverses), S = A⁺A (paper eq. (9)), Mo⁺ = (I − S)M⁻¹ and the
// impact map q̇⁺ = q̇⁻ − S(Ẽ + I)q̇⁻ + Mo⁺i_u (eq. (27); Ẽ = A⁺EA is block diagonal too). An island whose
// rows have no restitution to apply and no impulse to take — at rest on its rows, A_I q̇⁻_I = 0, i_u = 0
// on it — is left as it is: S_I q̇⁻_I = A_I⁺ A_I q̇⁻_I = 0. So the impact of the whole system equals, to
// round-off, the impact of the islands of its candidates and of the bodies an impulse acts on, with every
// other body's velocity unchanged; the Γ rule (activation_rule.hpp), which adds touching points and removes
// pulling ones, only ever adds a touching point, an edge of the islands already.
//
// IslandSet is the union–find (disjoint-set forest) of those components, with path compression (path
// halving) and deterministic labels: the root of every island is its smallest body index, so the labels
// do not depend on the order in which edges were joined.
#pragma once

#include <vector>

namespace oblique {

class IslandSet {
 public:
  IslandSet() = default;
  /// `body_count` bodies (≥ 0, names "body_count"), each an island of its own.
  explicit IslandSet(int body_count);

  /// Back to `body_count` bodies each on its own (keeps its storage).
  void reset(int body_count);
  int body_count() const { return static_cast<int>(parent_.size()); }

  /// Joins the islands of bodies `a` and `b` (the edge of one joint or contact point). A negative index —
  /// kWorld, a plane, a body fixed to the world — joins nothing. An index past body_count() throws
  /// std::out_of_range naming "body".
  void join(int a, int b);

  /// The island of `body`: the smallest body index in it (its label). Compresses the path it walks.
  int island_of(int body);

  /// Per body its island's label (island_of of each body, in body order).
  std::vector<int> labels();

  /// Per body whether it lies in the island of one of `seeds` (negative seeds are ignored).
  std::vector<char> covered_by(const std::vector<int>& seeds);

 private:
  int root_of(int body);
  std::vector<int> parent_;
};

}  // namespace oblique

#include "oblique/geometry/scenario_overlaps.hpp"

#include <algorithm>
#include <utility>

#include "oblique/geometry/broad_phase.hpp"
#include "oblique/geometry/shape_distance.hpp"
#include "model/rigid_points.hpp"

namespace oblique {

namespace {

bool usable(const std::vector<char>& flags, int i) {
  return i >= 0 && static_cast<std::size_t>(i) < flags.size() && flags[static_cast<std::size_t>(i)] != 0;
}

Pose pose_of(const BodyDef& body) { return Pose{body.position, body.angle}; }

/// The world point of an anchor at the initial state.
Vec2 anchor_point(const Scenario& s, int body, const Vec2& local) {
  if (body == kWorld) return local;
  const BodyDef& b = s.bodies[static_cast<std::size_t>(body)];
  return b.position + detail::rotate(b.angle, local);
}

/// Order of the overlaps: by body, planes before bodies, then by index; ropes last by contact.
int rank(InitialOverlap::Kind kind) {
  switch (kind) {
    case InitialOverlap::Kind::Plane: return 0;
    case InitialOverlap::Kind::Body:
    case InitialOverlap::Kind::ThinRods: return 1;
    case InitialOverlap::Kind::Rope: return 2;
  }
  return 3;
}

}  // namespace

OverlapSearch find_initial_overlaps(const Scenario& s, const OverlapInputs& usable_items) {
  OverlapSearch search;
  const int body_count = static_cast<int>(s.bodies.size());
  const auto body_ok = [&](int i) { return usable(usable_items.bodies, i); };
  const auto plane_ok = [&](int p) { return usable(usable_items.planes, p); };

  // The pairs that exist: declared contacts; with "collide": "all", the automatic ones, less the pairs with
  // a declared contact and the bodies joined by a joint (automatic_contacts.hpp).
  std::vector<std::pair<int, int>> plane_pairs, body_pairs, joined;
  for (std::size_t c = 0; c < s.contacts.size(); ++c) {
    const ContactDef& contact = s.contacts[c];
    if (!usable(usable_items.contacts, static_cast<int>(c))) continue;
    if (contact.type == ContactDef::Type::BodyPlane) plane_pairs.emplace_back(contact.body_a, contact.plane);
    if (contact.type == ContactDef::Type::DiskDisk) {
      body_pairs.emplace_back(std::min(contact.body_a, contact.body_b), std::max(contact.body_a, contact.body_b));
    }
  }
  for (std::size_t j = 0; j < s.joints.size(); ++j) {
    const JointDef& joint = s.joints[j];
    if (!usable(usable_items.joints, static_cast<int>(j)) || joint.body_a == kWorld || joint.body_b == kWorld) continue;
    joined.emplace_back(std::min(joint.body_a, joint.body_b), std::max(joint.body_a, joint.body_b));
  }
  std::sort(joined.begin(), joined.end());
  if (s.collide_all) {
    for (int i = 0; i < body_count; ++i) {
      if (!body_ok(i) || !s.bodies[static_cast<std::size_t>(i)].collides) continue;
      for (int p = 0; p < static_cast<int>(s.planes.size()); ++p) plane_pairs.emplace_back(i, p);
    }
    // Bodies whose closed boxes meet (touching counts): the broad phase, not every pair.
    std::vector<BroadPhaseProxy> proxies(static_cast<std::size_t>(body_count));
    for (int i = 0; i < body_count; ++i) {
      const BodyDef& body = s.bodies[static_cast<std::size_t>(i)];
      BroadPhaseProxy& proxy = proxies[static_cast<std::size_t>(i)];
      proxy.collides = body_ok(i) && body.collides;
      if (proxy.collides) proxy.box = shape_aabb(body.shape, pose_of(body), 0.0);
    }
    std::vector<BodyPair> found;
    BroadPhase().find_pairs(proxies, found);
    for (const BodyPair& pair : found) {
      if (!std::binary_search(joined.begin(), joined.end(), std::make_pair(pair.a, pair.b))) {
        body_pairs.emplace_back(pair.a, pair.b);
      }
    }
  }
  std::sort(plane_pairs.begin(), plane_pairs.end());
  plane_pairs.erase(std::unique(plane_pairs.begin(), plane_pairs.end()), plane_pairs.end());
  std::sort(body_pairs.begin(), body_pairs.end());
  body_pairs.erase(std::unique(body_pairs.begin(), body_pairs.end()), body_pairs.end());

  // Each body against its planes.
  for (const auto& [i, p] : plane_pairs) {
    if (!body_ok(i) || !plane_ok(p)) continue;
    const BodyDef& body = s.bodies[static_cast<std::size_t>(i)];
    const double distance = shape_plane_signed_distance(body.shape, pose_of(body), s.planes[static_cast<std::size_t>(p)]);
    ++search.plane_pairs_measured;
    if (distance < -kInitialPenetration) {
      search.overlaps.push_back({InitialOverlap::Kind::Plane, i, p, -distance});
    }
  }
  // Each pair of bodies, reported at the later one.
  for (const auto& [a, b] : body_pairs) {
    if (!body_ok(a) || !body_ok(b)) continue;
    const BodyDef& first = s.bodies[static_cast<std::size_t>(a)];
    const BodyDef& second = s.bodies[static_cast<std::size_t>(b)];
    const double distance = shape_signed_distance(first.shape, pose_of(first), second.shape, pose_of(second));
    ++search.body_pairs_measured;
    if (distance < -kInitialPenetration) {
      search.overlaps.push_back({InitialOverlap::Kind::Body, b, a, -distance});
      continue;
    }
    const double common =
        thin_rods_common_length(first.shape, pose_of(first), second.shape, pose_of(second), kInitialPenetration);
    if (common > 0.0) search.overlaps.push_back({InitialOverlap::Kind::ThinRods, b, a, common});
  }
  // Ropes stretched beyond their length.
  for (std::size_t c = 0; c < s.contacts.size(); ++c) {
    const ContactDef& rope = s.contacts[c];
    if (rope.type != ContactDef::Type::Rope || !usable(usable_items.contacts, static_cast<int>(c))) continue;
    if ((rope.body_a != kWorld && !body_ok(rope.body_a)) || (rope.body_b != kWorld && !body_ok(rope.body_b))) continue;
    const double stretch = (anchor_point(s, rope.body_b, rope.anchor_b) - anchor_point(s, rope.body_a, rope.anchor_a)).norm() -
                           rope.length;
    if (stretch > kInitialPenetration) {
      search.overlaps.push_back({InitialOverlap::Kind::Rope, -1, static_cast<int>(c), stretch});
    }
  }

  std::stable_sort(search.overlaps.begin(), search.overlaps.end(), [](const InitialOverlap& x, const InitialOverlap& y) {
    const bool x_rope = x.kind == InitialOverlap::Kind::Rope, y_rope = y.kind == InitialOverlap::Kind::Rope;
    if (x_rope != y_rope) return y_rope;
    if (x.body != y.body) return x.body < y.body;
    if (rank(x.kind) != rank(y.kind)) return rank(x.kind) < rank(y.kind);
    return x.other < y.other;
  });
  return search;
}

}  // namespace oblique

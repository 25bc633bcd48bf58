#include "oblique/geometry/automatic_contacts.hpp"

#include <algorithm>
#include <cstring>
#include <cmath>
#include <limits>
#include <string>

#include "math/checks.hpp"
#include "oblique/model/model.hpp"
#include "model/rigid_points.hpp"

namespace oblique {

using detail::fail;

namespace {

/// Whether a sorted list of pairs holds (a, b).
bool holds(const std::vector<std::pair<int, int>>& list, int a, int b) {
  return std::binary_search(list.begin(), list.end(), std::make_pair(a, b));
}

/// Flops of the narrow phase between two shapes, roughly (each circle against each circle and face).
double narrow_work(const Shape& a, const Shape& b) {
  const double ca = circle_count(a), cb = circle_count(b);
  return 60.0 * (ca * cb + ca * face_count(b) + cb * face_count(a)) + 200.0;
}

}  // namespace

double shape_reach(const Shape& shape) {
  double reach = 0.0;
  for (int k = 0; k < circle_count(shape); ++k) {
    const Feature circle = circle_feature(shape, k);
    reach = std::max(reach, circle.point.norm() + circle.radius);
  }
  return reach;
}

AutomaticContacts::AutomaticContacts(const Scenario& scenario) : enabled_(scenario.collide_all) {
  const std::size_t bodies = scenario.bodies.size();
  planes_ = scenario.planes;
  for (std::size_t i = 0; i < bodies; ++i) {
    const BodyDef& body = scenario.bodies[i];
    shapes_.push_back(body.shape);
    collides_.push_back(body.collides ? 1 : 0);
    stick_.push_back(body.stick ? 1 : 0);
    body_restitution_.push_back(body.restitution.value_or(scenario.restitution));
    body_friction_.push_back(body.mu.value_or(scenario.mu));
    reach_.push_back(shape_reach(body.shape));
    // Free acceleration: gravity plus the constant force over the mass.
    Vec2 force = Vec2::Zero();
    for (const ForceDef& f : scenario.forces) {
      if (f.body == static_cast<int>(i)) force += f.force;
    }
    acceleration_.push_back((scenario.gravity + force / body.mass).norm());
  }
  // Pairs with a declared contact, and bodies joined by a joint, are left out.
  for (const ContactDef& c : scenario.contacts) {
    if (c.type == ContactDef::Type::BodyPlane) excluded_planes_.emplace_back(c.body_a, c.plane);
    if (c.type == ContactDef::Type::DiskDisk) {
      excluded_bodies_.emplace_back(std::min(c.body_a, c.body_b), std::max(c.body_a, c.body_b));
    }
  }
  for (const JointDef& j : scenario.joints) {
    if (j.body_a != kWorld && j.body_b != kWorld) {
      excluded_bodies_.emplace_back(std::min(j.body_a, j.body_b), std::max(j.body_a, j.body_b));
    }
  }
  std::sort(excluded_planes_.begin(), excluded_planes_.end());
  std::sort(excluded_bodies_.begin(), excluded_bodies_.end());
  placed_.resize(bodies);
  for (std::size_t p = 0; p < planes_.size(); ++p) plane_faces_.push_back(plane_feature(planes_[p], static_cast<int>(p)));
}

Aabb AutomaticContacts::placed_aabb(int i, const Pose& pose, double inflation) {
  if (!std::isfinite(inflation) || inflation < 0.0) {
    fail("inflation", "must be a finite number ≥ 0, got " + detail::format_number(inflation));
  }
  if (!pose.position.allFinite() || !std::isfinite(pose.angle)) fail("pose", "must be finite numbers");
  // shape_aabb's box, from the centres of the circles placed once: the same operations in the same order.
  const PlacedShape& placed = placed_at(i, pose);
  const double inf = std::numeric_limits<double>::infinity();
  Aabb box{Vec2(inf, inf), Vec2(-inf, -inf)};
  for (const ShapeCore& core : placed.cores()) {
    for (int k = 0; k < core.count; ++k) {
      const Vec2 reach = Vec2::Constant(core.circle[k].radius + inflation);
      box.lower = box.lower.cwiseMin(core.vertex[k] - reach);
      box.upper = box.upper.cwiseMax(core.vertex[k] + reach);
    }
  }
  return box;
}

const PlacedShape& AutomaticContacts::placed_at(int i, const Pose& pose) {
  PlacedShape& placed = placed_[static_cast<std::size_t>(i)];
  if (!placed.placed_at(i, pose)) placed.place(i, shapes_[static_cast<std::size_t>(i)], pose);
  return placed;
}

bool AutomaticContacts::LastFind::same(const Vector& q_now, const Vector& qd_now, double step_now,
                                       const std::vector<ContactKey>& previous_now,
                                       const std::vector<double>* floor_now) const {
  const auto same_doubles = [](const double* a, const double* b, std::size_t count) {
    return count == 0 || std::memcmp(a, b, count * sizeof(double)) == 0;
  };
  return valid && q.size() == q_now.size() && qd.size() == qd_now.size() &&
         std::memcmp(&step, &step_now, sizeof(double)) == 0 &&
         same_doubles(q.data(), q_now.data(), static_cast<std::size_t>(q.size())) &&
         same_doubles(qd.data(), qd_now.data(), static_cast<std::size_t>(qd.size())) && previous == previous_now &&
         has_floor == (floor_now != nullptr) &&
         (!floor_now || (floor.size() == floor_now->size() && same_doubles(floor.data(), floor_now->data(), floor.size())));
}

double AutomaticContacts::find(const Vector& q, const Vector& qd, double step, const std::vector<FeaturePair>& previous,
                               std::vector<FeaturePair>& out, const std::vector<double>* margin_floor) {
  out.clear();
  if (!enabled_) {
    watched_.clear();
    return 0.0;
  }
  previous_keys_.clear();
  for (const FeaturePair& pair : previous) previous_keys_.push_back(contact_key(pair));
  // The inputs of the last find, bit for bit (a step taken again after the work budget stopped a call):
  // its points, and its watched pairs and margins still kept, are a function of them alone; the work is
  // the comparison's.
  if (last_.same(q, qd, step, previous_keys_, margin_floor)) {
    out = last_.out;
    return 2.0 * static_cast<double>(q.size() + qd.size() + previous.size());
  }
  watched_.clear();
  const int bodies = static_cast<int>(shapes_.size());
  double work = 0.0;
  // Each body's margin δᵢ and its inflated box.
  proxies_.resize(static_cast<std::size_t>(bodies));
  margin_.resize(static_cast<std::size_t>(bodies));
  for (int i = 0; i < bodies; ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    const double speed = Vec2(qd(3 * i), qd(3 * i + 1)).norm() + std::abs(qd(3 * i + 2)) * reach_[k];
    margin_[k] = 2.0 * (step * speed + step * step * acceleration_[k]) + 0.01 * reach_[k];
    if (margin_floor) margin_[k] = std::max(margin_[k], (*margin_floor)[k]);
    const Pose pose = pose_of(i, q);
    proxies_[k].collides = collides_[k] != 0;
    proxies_[k].box = collides_[k] ? placed_aabb(i, pose, margin_[k]) : shape_aabb(shapes_[k], pose, margin_[k]);
    work += 40.0 * circle_count(shapes_[k]);
  }
  // Body pairs: the broad phase, then the narrow phase on each pair it finds.
  candidates_.clear();
  broad_phase_.find_pairs(proxies_, pairs_);
  work += 30.0 * bodies * (1.0 + std::log2(1.0 + bodies));
  for (const BodyPair& pair : pairs_) {
    if (holds(excluded_bodies_, pair.a, pair.b)) continue;
    const std::size_t a = static_cast<std::size_t>(pair.a), b = static_cast<std::size_t>(pair.b);
    collide_placed(placed_[a], placed_[b], margin_[a] + margin_[b], candidates_, &previous_keys_, true);
    work += narrow_work(shapes_[a], shapes_[b]);
    watched_.push_back({std::min(pair.a, pair.b), std::max(pair.a, pair.b), margin_[a] + margin_[b]});
  }
  // Every colliding body against every plane.
  for (int i = 0; i < bodies; ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    if (!collides_[k]) continue;
    for (std::size_t p = 0; p < planes_.size(); ++p) {
      if (holds(excluded_planes_, i, static_cast<int>(p))) continue;
      collide_placed_plane(static_cast<int>(p), plane_faces_[p], placed_[k], margin_[k], candidates_);
      work += 60.0 * circle_count(shapes_[k]);
    }
  }
  // Sorted by key: the order of the simulator's points.
  std::sort(candidates_.begin(), candidates_.end(),
            [](const ContactCandidate& x, const ContactCandidate& y) { return x.key < y.key; });
  for (const ContactCandidate& c : candidates_) out.push_back(c.pair);
  // Kept for a find of the same inputs.
  last_.valid = true;
  last_.q = q;
  last_.qd = qd;
  last_.step = step;
  last_.previous = previous_keys_;
  last_.has_floor = margin_floor != nullptr;
  if (margin_floor) last_.floor = *margin_floor;
  last_.out = out;
  return work;
}

double AutomaticContacts::unlisted_gap(const WatchedPair& pair, const Vector& q, const std::vector<FeaturePair>& listed) {
  // The listed points of this pair: a run of the list (sorted by key, whose first fields are the bodies).
  // (Feature ids are ≥ 0: a key precedes (a, b, −1, −1) when its bodies precede (a, b).)
  const auto by_bodies = [](const FeaturePair& x, const WatchedPair& y) {
    return x.body_a != y.body_a ? x.body_a < y.body_a : x.body_b < y.body_b;
  };
  auto next = std::lower_bound(listed.begin(), listed.end(), pair, by_bodies);
  listed_keys_.clear();
  for (auto it = next; it != listed.end() && it->body_a == pair.body_a && it->body_b == pair.body_b; ++it) {
    listed_keys_.push_back(contact_key(*it));
  }
  probe_.clear();
  const Pose pose_a = pose_of(pair.body_a, q), pose_b = pose_of(pair.body_b, q);
  if (!pose_a.position.allFinite() || !std::isfinite(pose_a.angle)) fail("pose_a", "must be finite numbers");
  if (!pose_b.position.allFinite() || !std::isfinite(pose_b.angle)) fail("pose_b", "must be finite numbers");
  const PlacedShape& placed_a = placed_at(pair.body_a, pose_a);
  const PlacedShape& placed_b = placed_at(pair.body_b, pose_b);
  collide_placed(placed_a, placed_b, pair.margin, probe_, &listed_keys_, false);
  // Both runs are in key order (narrow_phase.hpp): walk them together. Each point's gap is its distance
  // (feature_pair_distance).
  double smallest = pair.margin;
  for (const ContactCandidate& c : probe_) {
    while (next != listed.end() && contact_key(*next) < c.key) ++next;
    if (next != listed.end() && contact_key(*next) == c.key) continue;  // listed: its own gap event watches it
    smallest = std::min(smallest, c.frame.gap);
  }
  return smallest;
}

double AutomaticContacts::unlisted_gap_work(const WatchedPair& pair) const {
  return narrow_work(shapes_[static_cast<std::size_t>(pair.body_a)], shapes_[static_cast<std::size_t>(pair.body_b)]);
}

bool AutomaticContacts::margins_cover(const Vector& q0, const Vector& q1, std::vector<double>& floor) const {
  bool covered = true;
  floor.assign(margin_.size(), 0.0);
  for (std::size_t k = 0; k < margin_.size(); ++k) {
    const int i = 3 * static_cast<int>(k);
    const double moved = Vec2(q1(i) - q0(i), q1(i + 1) - q0(i + 1)).norm() + std::abs(q1(i + 2) - q0(i + 2)) * reach_[k];
    floor[k] = std::max(margin_[k], 2.0 * moved);
    covered = covered && moved <= margin_[k];
  }
  return covered;
}

double AutomaticContacts::gap(const FeaturePair& pair, const Vector& q) const {
  return feature_pair_distance(pair, pose_of(pair.body_a, q), pose_of(pair.body_b, q));
}

double AutomaticContacts::restitution(const FeaturePair& pair) const {
  const double e_a = pair.body_a == kWorld ? 0.0 : body_restitution_[static_cast<std::size_t>(pair.body_a)];
  const double e_b = pair.body_b == kWorld ? 0.0 : body_restitution_[static_cast<std::size_t>(pair.body_b)];
  return std::max(e_a, e_b);
}

bool AutomaticContacts::sticks(const FeaturePair& pair) const {
  const bool a = pair.body_a == kWorld || stick_[static_cast<std::size_t>(pair.body_a)];
  const bool b = pair.body_b == kWorld || stick_[static_cast<std::size_t>(pair.body_b)];
  return a && b;
}

double AutomaticContacts::friction(const FeaturePair& pair) const {
  if (sticks(pair)) return std::numeric_limits<double>::infinity();
  // Against a plane: the body's own μ; two bodies: the geometric mean.
  const double mu_b = body_friction_[static_cast<std::size_t>(pair.body_b)];
  if (pair.body_a == kWorld) return mu_b;
  return std::sqrt(body_friction_[static_cast<std::size_t>(pair.body_a)] * mu_b);
}

FeaturePair AutomaticContacts::pair_of(const ContactKey& key, const std::string& field) const {
  const int bodies = static_cast<int>(shapes_.size());
  // The feature of one side: a plane of the world, or a circle or face of a body's shape.
  auto feature = [&](int body, int id, const char* side) {
    if (body == kWorld) {
      const int plane = id - kFaceFeatureId;
      if (plane < 0 || plane >= static_cast<int>(planes_.size())) {
        fail(field, std::string(side) + " names no plane of the scenario");
      }
      return plane_feature(planes_[static_cast<std::size_t>(plane)], plane);
    }
    if (body < 0 || body >= bodies) fail(field, std::string(side) + " names no body of the scenario");
    const Shape& shape = shapes_[static_cast<std::size_t>(body)];
    const bool face = id >= kFaceFeatureId;
    const int index = face ? id - kFaceFeatureId : id;
    if (index < 0 || index >= (face ? face_count(shape) : circle_count(shape))) {
      fail(field, std::string(side) + " names no feature of the body's shape");
    }
    return face ? face_feature(shape, index) : circle_feature(shape, index);
  };
  if (!(key.body_a < key.body_b) || key.body_b == kWorld) fail(field, "must name two bodies, or the world then a body");
  FeaturePair pair;
  pair.body_a = key.body_a;
  pair.body_b = key.body_b;
  pair.a = feature(key.body_a, key.feature_a, "its first feature");
  pair.b = feature(key.body_b, key.feature_b, "its second feature");
  if (pair.a.kind == Feature::Kind::Face && pair.b.kind == Feature::Kind::Face) fail(field, "pairs two faces");
  return pair;
}

}  // namespace oblique

// Automatic contacts: the contact points of a scenario with "collide": "all", found by the simulator itself
// at the start of every step (the broad phase, broad_phase.hpp, then the narrow phase, narrow_phase.hpp),
// instead of being declared pair by pair.
//
// Which pairs: every two bodies that both collide (BodyDef::collides), and every colliding body with every
// plane, except
//   - a pair that already has a declared contact (a body–plane or disk–disk ContactDef): the declared one is
//     kept as it is, with its own e and stick, and the pair is not detected again;
//   - two bodies joined by a joint (pin, distance, slider, weld), which overlap at the joint by design (as
//     Box2D's collideConnected = false).
// Every shape pair is handled (disk, box, rod as a capsule or, of radius 0, a segment with flat ends, point,
// wheel spoke tips; against each other and against planes): see narrow_phase.hpp for the features of each.
// The points found at the last step are handed to the narrow phase, which keeps their faces where its
// choice ties (a thin rod resting on a thin rod keeps its side).
//
// Restitution of an automatic point: e_body = the body's `e`, or the scenario's `restitution` when the body
// sets none; a body pair takes the larger of its two e_body (Box2D's mixing rule: the bouncier body wins),
// a body against a plane its own e_body. A point sticks (a tangential row while active, as a declared
// contact's `stick`) when its body sticks, against a plane, or when both bodies stick.
//
// Friction of an automatic point that does not stick: μ_body = the body's `mu`, or the scenario's `mu` when
// the body sets none; a body pair takes the geometric mean √(μ_a μ_b) (Box2D's b2MixFriction): a body of
// μ = 0 (ice) makes every contact of its own frictionless whatever it touches, two equal bodies keep their μ,
// and the mean stays within the two values. A body against a plane takes its own μ_body (planes have no
// material of their own, as for e). A point that sticks has μ = +∞.
//
// The margin. The narrow phase runs once per step, at its start, and reports every feature pair whose gap
// is at most a margin, so that a contact that closes during the step is already a candidate. Body i gets
//   δᵢ = 2 (h (|vᵢ| + |ωᵢ| Rᵢ) + h² |aᵢ|) + 0.01 Rᵢ
// (h the integrator step, Rᵢ the distance from its centre to its farthest feature, aᵢ its free
// acceleration: gravity plus its constant force over its mass): twice what its points can travel in one step,
// plus a size-relative floor; a pair's margin is δ_a + δ_b (against a plane, δᵢ). The broad phase inflates
// each body's box by δᵢ.
//
// Contacts that appear inside a step. The narrow phase picks the feature pairs of two polygons from their
// reference and incident faces at the step start; as the bodies turn within the step another pair can become
// the one that closes (a spinning box's corner coming round onto the face of its neighbour while the corner
// listed slides off that face), and the points found at the start do not see it. So every body pair the
// broad phase reported at the start is watched (watched()): unlisted_gap is the smallest gap of a feature
// pair the narrow phase finds for it at another configuration but that is not among the points listed; the
// simulator locates the instant it crosses its event level as it locates a gap of a listed point, finds the
// points there again and resolves the impact (simulator.hpp). Against a plane the feature pairs are every
// circle of the shape, all listed within the margin: nothing to watch. (A resting point whose corner slides
// off the end of its face is the simulator's event too: its gap, below, grows past the gap tolerance.)
//
// The margin is honest when no body moves more than its δᵢ within the step: margins_cover checks it from the
// positions the step reached (|Δxᵢ| + |Δθᵢ| Rᵢ, what any point of the body can have travelled), and a step
// that outran its margins is taken again after the points are found with the margins it needs.
//
// The gap of a circle–face pair (contact_geometry.hpp) is measured to the face's line, which is the distance
// to the face only while the foot of the circle's centre lies within the face. gap() here is the distance to
// the face itself (feature_pair_distance): beyond an end of the face, the distance to that end (the end of
// the core edge, rounded by the shape's radius), which is never smaller; so a point whose foot slides off a
// face sees no false crossing. The constraint rows are those of contact_geometry.hpp (the same where it matters: at a touch,
// the foot is within the face). A point that leaves its feature — a box corner sliding off an edge — is not
// reported by the next step's narrow phase and is dropped (released if it was active); its successor (the
// edge's end corner) is found in its place.
#pragma once

#include <cmath>

#include <cstdint>
#include <vector>

#include "oblique/geometry/broad_phase.hpp"
#include "oblique/geometry/contact_geometry.hpp"
#include "oblique/geometry/narrow_phase.hpp"
#include "oblique/scenario/scenario.hpp"

namespace oblique {

/// Contact points a simulator keeps at once (declared and automatic); beyond it a step is refused with a
/// message, rather than letting the page freeze.
inline constexpr int kMaxContactPoints = 8192;

/// The distance from a shape's centre to its farthest contact feature, radius included (m).
double shape_reach(const Shape& shape);

/// A body pair the broad phase reported at the last find (header comment, "Contacts that appear inside a
/// step"): body_a < body_b, and the margin its points were found within.
struct WatchedPair {
  int body_a = 0, body_b = 0;
  double margin = 0.0;
};

/// Finds the automatic contact points of a scenario (header comment). Keeps its buffers from call to call.
class AutomaticContacts {
 public:
  /// Reads the scenario (a valid one); enabled() is false unless it says "collide": "all".
  explicit AutomaticContacts(const Scenario& scenario);

  bool enabled() const { return enabled_; }

  /// Writes to `out` (cleared first) the automatic contact points at (q, q̇) for a step of length `step`,
  /// sorted by key (contact_key, narrow_phase.hpp), and the watched body pairs (watched()). `previous`: the
  /// points found at the last step, sorted by key (the narrow phase keeps their faces where its choice
  /// ties). Body i's margin is at least `margin_floor[i]` when given (a step that outran its margins:
  /// margins_cover). Returns an estimate of the flops spent.
  double find(const Vector& q, const Vector& qd, double step, const std::vector<FeaturePair>& previous,
              std::vector<FeaturePair>& out, const std::vector<double>* margin_floor = nullptr);

  /// The body pairs of the last find, in the broad phase's order.
  const std::vector<WatchedPair>& watched() const { return watched_; }
  /// The smallest gap at q, at most the pair's margin, of a feature pair of `pair` the narrow phase finds
  /// within that margin and that `listed` (the automatic points, sorted by key) does not hold; the margin
  /// when there is none. The narrow phase keeps the listed points' faces where its choice ties.
  double unlisted_gap(const WatchedPair& pair, const Vector& q, const std::vector<FeaturePair>& listed);
  /// Flops of one unlisted_gap of `pair`, roughly.
  double unlisted_gap_work(const WatchedPair& pair) const;
  /// Whether every body moved, from q0 to q1, by at most its margin of the last find (|Δx| + |Δθ| R, the
  /// farthest any of its points went); otherwise `floor` gets, per body, the margin the step needs (twice
  /// what it moved, at least its margin).
  bool margins_cover(const Vector& q0, const Vector& q1, std::vector<double>& floor) const;

  /// The gap of an automatic point: to the face itself, not its line (header comment).
  double gap(const FeaturePair& pair, const Vector& q) const;
  /// e of an automatic point (header comment), from the body e set by set_body_restitution.
  double restitution(const FeaturePair& pair) const;
  /// Whether an automatic point sticks (header comment).
  bool sticks(const FeaturePair& pair) const;
  /// Coulomb's μ of an automatic point (header comment): kNoSlip (+∞) when it sticks.
  double friction(const FeaturePair& pair) const;
  /// Sets e of body i's automatic contacts (e_body); bodies start with their `e` or the scenario's.
  void set_body_restitution(int body, double e) { body_restitution_[static_cast<std::size_t>(body)] = e; }
  /// Sets μ of body i's automatic contacts (μ_body; +∞: the body sticks); bodies start with their `mu` or
  /// the scenario's, or stick.
  void set_body_friction(int body, double mu) {
    stick_[static_cast<std::size_t>(body)] = std::isinf(mu) ? 1 : 0;
    if (!std::isinf(mu)) body_friction_[static_cast<std::size_t>(body)] = mu;
  }

  /// The feature pair of a key, from the shapes; throws std::invalid_argument naming `field` when the key
  /// names no feature pair this scenario can detect.
  FeaturePair pair_of(const ContactKey& key, const std::string& field) const;

 private:
  bool enabled_ = false;
  std::vector<Shape> shapes_;
  std::vector<PlaneDef> planes_;
  std::vector<char> collides_, stick_;
  std::vector<double> body_restitution_, body_friction_;
  std::vector<double> reach_;          // Rᵢ: centre to farthest feature
  std::vector<double> acceleration_;   // |aᵢ|: gravity plus constant force over mass
  // Pairs left out: (body, plane) and (body, body), a < b, sorted.
  std::vector<std::pair<int, int>> excluded_planes_, excluded_bodies_;
  // Buffers.
  BroadPhase broad_phase_;
  std::vector<BroadPhaseProxy> proxies_;
  std::vector<BodyPair> pairs_;
  std::vector<double> margin_;
  std::vector<ContactCandidate> candidates_, probe_;
  std::vector<WatchedPair> watched_;
  std::vector<ContactKey> previous_keys_, listed_keys_;
  // Each colliding body's shape placed at the pose of its last use (a find, an unlisted gap); the faces
  // of the planes.
  std::vector<PlacedShape> placed_;
  std::vector<Feature> plane_faces_;
  // The inputs and points of the last find (its watched pairs and margins are still watched_ and
  // margin_): a find of the same inputs, bit for bit, gives them again without the search.
  struct LastFind {
    bool valid = false;
    Vector q, qd;
    double step = 0.0;
    std::vector<ContactKey> previous;
    bool has_floor = false;
    std::vector<double> floor;
    std::vector<FeaturePair> out;
    bool same(const Vector& q_now, const Vector& qd_now, double step_now, const std::vector<ContactKey>& previous_now,
              const std::vector<double>* floor_now) const;
  };
  LastFind last_;
  /// Body i's placed shape at `pose`, placed again only when the pose's bits differ from its last.
  const PlacedShape& placed_at(int i, const Pose& pose);
  /// shape_aabb of colliding body i at `pose`, from its placed shape (placed there as well).
  Aabb placed_aabb(int i, const Pose& pose, double inflation);
};

}  // namespace oblique

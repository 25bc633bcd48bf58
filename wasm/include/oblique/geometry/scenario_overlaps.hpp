// Overlaps in the initial state of a scenario: the contacts that exist at t = 0 whose shapes start inside
// each other, found once for the scenario check (scenario_check.hpp), which names them ("disk "b" starts
// 0.45 m inside plane "right"") for the CLI, the editor and the Simulator alike.
//
// Which contacts exist: the declared ones (a body against a plane, two disks, a rope), and with
// "collide": "all" every pair the simulator detects by itself (automatic_contacts.hpp): every two bodies
// that both collide and are not joined by a joint, and every colliding body against every plane. Each pair
// is measured with the exact signed distance of its shapes (shape_distance.hpp), so the check does not
// depend on which features a contact would use. An overlap is
//   - a body inside a plane or another body by more than kInitialPenetration (an initial state may overlap
//     that much: such a contact counts as touching);
//   - two thin rods (radius 0) lying on one line over a common length: two segments on one another have no
//     side to touch from;
//   - a rope stretched beyond its length by more than kInitialPenetration.
//
// Cost: body pairs come from the broad phase (broad_phase.hpp) on the shapes' boxes, so a scene of n
// bodies of comparable size measures O(n) pairs, not n(n − 1)/2; every body against every plane (at most
// kMaxPlanes). Every overlap is found and counted, whatever number the check then lists.
#pragma once

#include <cstddef>
#include <vector>

#include "oblique/scenario/scenario.hpp"

namespace oblique {

/// How far an initial state may overlap (m): a contact that starts this deep or less counts as touching.
inline constexpr double kInitialPenetration = 1e-6;

/// One overlap of the initial state.
struct InitialOverlap {
  enum class Kind {
    Plane,     ///< `body` starts inside plane `other`
    Body,      ///< `body` starts inside body `other` (other < body)
    ThinRods,  ///< thin rods `body` and `other` (other < body) lie on one line over a common length
    Rope,      ///< rope contact `other` starts stretched (`body` unused)
  };
  Kind kind = Kind::Plane;
  int body = 0;
  int other = 0;
  double amount = 0.0;  ///< m: the depth, the common length, or how far the rope is stretched
};

/// What a search found and what it measured.
struct OverlapSearch {
  std::vector<InitialOverlap> overlaps;  ///< by body, then planes before bodies, by index; ropes last, by contact
  std::size_t body_pairs_measured = 0;   ///< shape pairs whose distance was computed
  std::size_t plane_pairs_measured = 0;  ///< shape–plane pairs whose distance was computed
};

/// Which items of a scenario the search may use: those whose values are valid (scenario_check.hpp). A body
/// needs its shape, position and angle; a plane its point and normal; a contact its references, anchors and
/// length. Items left out are neither measured nor used to leave pairs out.
struct OverlapInputs {
  std::vector<char> bodies, planes, contacts, joints;
};

/// Every overlap of the initial state of `scenario` among the usable items.
OverlapSearch find_initial_overlaps(const Scenario& scenario, const OverlapInputs& usable);

}  // namespace oblique

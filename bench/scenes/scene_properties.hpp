// The properties every run of a property scene (property_scenes.hpp) must have, checked at every integrator
// step of the run: the laws of free rigid bodies that meet only each other and fixed planes, with no gravity
// and no force. Shared by the property test, its fuzzer and the sweep tool.
//
//   linear momentum   Σ m v is kept; against planes, only along the planes' common tangent, and only
//                     without friction (a plane pushes along its normal, friction along the tangent);
//   angular momentum  Σ (m x × v + I ω) about the origin is kept (no plane: every impulse is internal): from
//                     step to step to round-off, over the run to RK4's truncation (kAngularMomentumTolerance),
//                     both but for what the position projection moves (Simulator::last_drift, within the
//                     gap tolerance, times the momentum);
//   penetration       no two bodies, and no body and plane, closer than minus the simulator's gap tolerance
//                     (kRelativeGapTolerance × the smaller body's size) — or than they started, when they
//                     start overlapping within kInitialPenetration — measured with the exact signed distance
//                     of the shapes (shape_distance.hpp), not the narrow phase's contact points;
//   position jumps    no body moves farther in a step than its speed can take it: |Δx| ≤ h v_max and
//                     |Δθ| ≤ h ω_max, with v_max, ω_max the largest at either end of the step and in every
//                     impact inside it (q̇⁻ and q̇⁺ of the records), with kJumpSlack for the smooth phases'
//                     contact forces and the gap tolerance for the position projection (at the start,
//                     kInitialPenetration: the simulator puts overlapping bodies back on their contacts);
//   kinetic energy    never rises in any impact record beyond round-off (kImpactEnergySlack), nor from step
//                     to step beyond the integrator's truncation (kStepEnergySlack); with friction only in
//                     the smooth phases, as Newton's restitution with Coulomb friction may create energy in an
//                     impact (Kane's paradox, docs/friction.md);
//   first impact      at the time free flight predicts: the first root of the shapes' signed distance along
//                     their motions before any contact, found by conservative advancement (each step the
//                     distance over the fastest the gap can close), to kTimeTolerance and the time the
//                     approach takes to cover the simulator's event slack;
//   invariance        the impact instants (records within kTimeTolerance of each other count as one) are the
//                     same when the scene is translated, rotated by 90°, 180° or 270°, or mirrored, up to the
//                     first impact slower than twice the rest speed in either run (the Zeno rule makes an
//                     impact slower than the rest speed plastic: a threshold that round-off may cross, after
//                     which the runs may part) — each
//                     written exactly where it can be: a box turned by 90° is the same box with width and
//                     height swapped, every shape here is symmetric under 180°, and a mirror negates x, θ
//                     and ω; a rod's angle takes + kπ/2. Without planes, also when every body is given the
//                     same extra velocity (Galilean invariance: the same relative motion, the same impacts).
//
// A run that throws fails too. A two-sided scene (PropertyScene::two_sided) is checked for the laws only: its
// first impact and its impact times may be those of either side. Tolerances are relative to the scene's scales (the momenta of its start,
// its sizes) and are those of round-off: the runs that hold are exact to 1e-14 in momentum.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "oblique/scenario/scenario.hpp"
#include "property_scenes.hpp"

namespace oblique::scenes {

/// Relative round-off allowed in momentum, and in the kinetic energy of an impact.
inline constexpr double kMomentumTolerance = 1e-9;
inline constexpr double kImpactEnergySlack = 1e-9;
/// Relative change allowed in angular momentum over a run (in one step: kMomentumTolerance): RK4 keeps linear
/// invariants (Σ m v) exactly but not quadratic ones (Σ m x × v, like the kinetic energy): in smooth phases
/// with contact forces its truncation changes them by about (h ω)⁵ per step, up to 1e-8 over a run of
/// sliding contacts.
inline constexpr double kAngularMomentumTolerance = 1e-7;
/// Relative rise of the kinetic energy allowed in one step: RK4's truncation in a smooth phase with contact
/// forces, about (h ω)⁵ per step — 3e-9 at ω = 20 rad/s with h = 1 ms —, far below what a wrong force does.
inline constexpr double kStepEnergySlack = 1e-6;
/// Impact times agree to this (s): item 1 of issue 30's tolerance for a degenerate configuration's limit.
inline constexpr double kTimeTolerance = 1e-9;
/// Impact instants compared by the invariance checks: later ones may part by more than kTimeTolerance in a
/// scene of several bodies, as each impact turns a difference of round-off in the bodies' positions into
/// a larger one in their velocities (chaos, not a defect).
inline constexpr std::size_t kInvariantInstants = 3;
/// A step may move a body this factor of its fastest speed at its ends and impacts (smooth-phase forces).
inline constexpr double kJumpSlack = 1.25;

enum class Property {
  Runs, LinearMomentum, AngularMomentum, Penetration, PositionJump, KineticEnergy, FirstImpact, Translated,
  Rotated, Mirrored, Boosted
};
inline constexpr std::size_t kPropertyCount = 11;
const std::vector<Property>& all_properties();
/// "runs", "momentum", "angular-momentum", "penetration", "jump", "energy", "first-impact", "translated",
/// "rotated", "mirrored", "boosted".
const char* name(Property property);

/// A property that does not hold: where, and by how much.
struct PropertyFailure {
  Property property = Property::Runs;
  double time = 0.0;      ///< s, of the first sample or impact that breaks it
  double amount = 0.0;    ///< the worst excess, in the units `detail` says
  std::string detail;     ///< one line: what was measured against what
};

/// What the checks found for one scene: the first failure of each property that broke (at most one each),
/// the number of impacts, and which properties applied.
struct PropertyReport {
  std::vector<PropertyFailure> failures;
  std::vector<Property> checked;
  /// The largest ratio of what was measured to what is allowed, by property (as its index); > 1 breaks it.
  std::array<double, kPropertyCount> worst{};
  int impacts = 0;
  bool holds() const { return failures.empty(); }
  const PropertyFailure* failure(Property property) const;
};

/// The transformations of the invariance checks.
enum class Transform { Translate, Rotate90, Rotate180, Rotate270, Mirror, Boost };
/// The scene moved by `transform` (translation by (0.375, −0.625) m; a boost adds (0.375, 0.25) m/s to every
/// velocity), written exactly where it can be.
Scenario transformed(const Scenario& scenario, Transform transform);

struct PropertyOptions {
  /// The transformed runs whose impact times are compared (none: the laws only).
  std::vector<Transform> transforms = {Transform::Translate, Transform::Rotate90, Transform::Mirror, Transform::Boost};
};

/// The transformed runs of a sweep over many scenes, scene `i` of them: every one but with the quarter turns
/// of the rotation taken in turn (90°, 180°, 270°); or, with `one`, one transform in turn, a fifth of the
/// runs, every transform met over the scenes.
std::vector<Transform> transforms_for(std::size_t i, bool one = false);

/// Runs the scene (and its transformed copies) and checks every property that applies.
PropertyReport check_properties(const PropertyScene& scene, const PropertyOptions& options = {});

/// The run of a scene step by step, to see where a property breaks: t, K, the momentum Σ m v and the angular
/// momentum Σ (m x × v + I ω), then the impacts of the step with their fastest approach.
std::string trace_table(const PropertyScene& scene);

/// One line per failure: "<scene>: <property> at t = <t> s: <detail>".
std::string describe(const PropertyScene& scene, const PropertyReport& report);

}  // namespace oblique::scenes

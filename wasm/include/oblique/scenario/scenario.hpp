// A scenario: the one description behind the built-in examples, the editor, the CLI and the share links,
// as plain structs — no JSON here (the document format is read and written by scenario_json.hpp).
//
// Every field has a default (in the spirit of Box2D's b2DefaultWorldDef), so a C++ user builds a scenario
// by setting only what differs, and a document that leaves a field out — an old file, an old share link —
// still loads and means the same thing. What makes a scenario valid (ranges, references, geometry, the
// magnitude bounds below) is written once, in scenario_check.hpp, and checked by the document reader and
// by the Model; the format, its defaults and its limits are documented in docs/scenarios.md and
// docs/limits.md, and in web/scenarios/scenario.schema.json.
//
// Planar bodies in absolute coordinates: body i owns q[3i..3i+2] = (x, y, θ). The world (index
// kWorld) is fixed; half-planes belong to it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace oblique {

using Vec2 = Eigen::Vector2d;

/// Index used for "the world" wherever a body index is expected.
inline constexpr int kWorld = -1;

/// Current version of the document format.
inline constexpr int kScenarioVersion = 1;

/// Geometry of a body, used for its default inertia, its contact features and its drawing.
/// Each type uses only some fields (JSON keys per type: disk radius; box width, height; rod length,
/// radius; point radius; wheel radius, spokes); the others keep their defaults.
struct Shape {
  /// Wheel: a rimless wheel, `spokes` thin spokes of length `radius` from the centre, equally spaced, the
  /// first along the body x axis; it touches planes with its spoke tips (points, zero radius).
  enum class Type { Disk, Box, Rod, Point, Wheel };
  Type type = Type::Disk;
  double radius = 0.1;   ///< disk radius; rod (capsule) end radius; point: drawing radius, also used for
                         ///< its inertia (a point is a small disk, so that M stays positive definite);
                         ///< wheel: spoke length (centre to tip)
  double width = 0.2;    ///< box extent along the body x axis
  double height = 0.2;   ///< box extent along the body y axis
  double length = 1.0;   ///< rod length between the centres of its two ends (along the body x axis)
  int spokes = 6;        ///< wheel: number of spokes, kMinSpokes..kMaxSpokes; spoke j at angle 2πj/spokes
};

/// A rigid body with its initial state.
struct BodyDef {
  std::string name;
  Shape shape;
  double mass = 1.0;
  std::optional<double> inertia;  ///< about the centre of mass; from the shape when absent
  Vec2 position = Vec2::Zero();
  double angle = 0.0;
  Vec2 velocity = Vec2::Zero();
  double angular_velocity = 0.0;
  std::string color;  ///< view hint, CSS colour; empty = automatic
  // --- automatic contacts (Scenario::collide_all; automatic_contacts.hpp) ---
  bool collides = true;               ///< false: this body is left out of every automatic contact
  std::optional<double> restitution;  ///< the document's "e": e of its automatic contacts; the larger of
                                      ///< the two bodies' e for a pair (Scenario::restitution when unset)
  bool stick = false;                 ///< its automatic contacts do not slip (against a plane, or against a
                                      ///< body that sticks too), as a declared contact's `stick`
  /// The document's "mu": Coulomb's μ of its automatic contacts (Scenario::mu when unset); a pair of bodies
  /// takes the geometric mean √(μ_a μ_b), a body against a plane its own μ (automatic_contacts.hpp).
  std::optional<double> mu;
};

/// A fixed half-plane of the world: free space is {p : normal·(p − point) ≥ 0}.
struct PlaneDef {
  std::string name;
  Vec2 point = Vec2::Zero();
  Vec2 normal = Vec2(0.0, 1.0);  ///< not zero; made unit by the document reader and by the Model
};

/// A bilateral joint between body_a and body_b (either may be kWorld).
struct JointDef {
  enum class Type { Pin, Distance, Slider, Weld };
  Type type = Type::Pin;
  std::string name;
  int body_a = kWorld;
  int body_b = kWorld;
  Vec2 anchor_a = Vec2::Zero();  ///< in body_a's frame (world frame for kWorld)
  Vec2 anchor_b = Vec2::Zero();  ///< in body_b's frame (world frame for kWorld)
  std::optional<double> length;  ///< distance joint; the initial distance when absent
  Vec2 axis = Vec2(1.0, 0.0);    ///< slider direction in body_a's frame; not zero, made unit likewise
};

/// A unilateral contact, as the user declares it. The model expands it into contact points, one
/// unilateral row each (plus a tangential row while active when `stick`):
///   body–plane: disk → its centre with the disk radius; box → its four corners; rod → its two end
///   centres with the rod radius; point → its centre; wheel → its spoke tips;
///   disk–disk (two disks, or points as disks of radius 0): one point, gap = distance − (r_a + r_b);
///   rope: distance between the anchors ≤ length.
struct ContactDef {
  enum class Type { BodyPlane, DiskDisk, Rope };
  Type type = Type::BodyPlane;
  std::string name;
  /// BodyPlane: the body (the document's key "body"); DiskDisk: the first disk (or point); Rope: end a
  /// (may be kWorld). One field for the three, so that the model reads "the first body" alike.
  int body_a = kWorld;
  int body_b = kWorld;           ///< second disk (or point), or rope end b (may be kWorld); unused by BodyPlane
  int plane = -1;                ///< index into Scenario::planes (BodyPlane)
  Vec2 anchor_a = Vec2::Zero();  ///< rope anchor on body_a
  Vec2 anchor_b = Vec2::Zero();  ///< rope anchor on body_b
  double length = 1.0;           ///< rope length
  std::optional<double> restitution;  ///< e_i; Scenario::restitution when absent
  bool stick = false;            ///< no slip while active (adds a tangential row); not for ropes; μ = +∞
  /// Coulomb's μ ≥ 0 of its points (docs/friction.md); Scenario::mu when absent; 0 is frictionless. Not for
  /// ropes, nor beside `stick` (which is μ = +∞).
  std::optional<double> mu;
};

/// A constant generalized force on one body (e.g. a motor torque or a push).
struct ForceDef {
  int body = 0;
  Vec2 force = Vec2::Zero();
  double torque = 0.0;
};

/// An impact actuator: an impulse applied to one body at time t (the paper's i_u).
struct ImpulseDef {
  double time = 0.0;
  int body = 0;
  Vec2 impulse = Vec2::Zero();
  double angular = 0.0;          ///< angular impulse about the centre of mass
};

/// How the smooth phases are integrated and events resolved.
struct IntegratorDef {
  double step = 1e-3;              ///< fixed RK4 step (s)
  double event_tolerance = 1e-13;  ///< events located in time to this (s); tight enough that builds
                                   ///< differing in the last bits (native, wasm) log the same times
  double rest_speed = 1e-3;        ///< impacts slower than this (m/s) are plastic and start resting contact
  double projection_tolerance = 1e-14;  ///< constraint drift target after each step
};

/// Hints for the playground's view; no physical meaning.
struct ViewDef {
  Vec2 center = Vec2(0.0, 0.5);
  double width = 4.0;   ///< world units visible across
  bool trails = false;
};

/// A whole scenario, with defaults filled (valid when check_scenario_values finds nothing).
struct Scenario {
  int version = kScenarioVersion;    ///< the document's "oblique" key; 1 when absent
  std::string title;
  std::string description;
  Vec2 gravity = Vec2(0.0, -9.81);
  double restitution = 0.5;           ///< default e_i of contacts that do not set one
  double mu = 0.0;                    ///< default Coulomb μ of contacts and bodies that do not set one
  std::optional<double> nu;           ///< virtual mass; condition-optimal when absent
  double duration = 10.0;             ///< default run length (s)
  /// The document's "collide": "all" (true) finds the contacts of every pair of bodies, and of every body
  /// with every plane, by itself each step (automatic_contacts.hpp); "declared" (false, the default) keeps
  /// only the contacts listed in `contacts`. Declared contacts keep working beside automatic ones.
  bool collide_all = false;
  std::vector<BodyDef> bodies;
  std::vector<PlaneDef> planes;
  std::vector<JointDef> joints;
  std::vector<ContactDef> contacts;
  std::vector<ForceDef> forces;
  std::vector<ImpulseDef> impulses;
  IntegratorDef integrator;
  ViewDef view;
};

/// Documented limits that keep the page responsive (counts, and bytes of UTF-8 text).
inline constexpr int kMaxBodies = 256;
inline constexpr int kMaxPlanes = 32;
inline constexpr int kMaxJoints = 128;
inline constexpr int kMaxContacts = 256;
inline constexpr int kMaxImpulses = 256;
inline constexpr int kMaxForces = 256;
inline constexpr int kMinSpokes = 3;
inline constexpr int kMaxSpokes = 64;
inline constexpr std::size_t kMaxNameLength = 64;           ///< bytes (UTF-8) of a body, plane, joint, contact name
inline constexpr std::size_t kMaxTitleLength = 200;         ///< bytes
inline constexpr std::size_t kMaxDescriptionLength = 4000;  ///< bytes
inline constexpr std::size_t kMaxColorLength = 32;          ///< bytes
inline constexpr double kMaxDuration = 3600.0;              ///< s
inline constexpr double kMinStep = 1e-6;                    ///< s, smallest integrator step
inline constexpr double kMaxStep = 0.1;                     ///< s, largest integrator step

// ---- magnitude bounds (SI units) -------------------------------------------------------------------------
//
// Far beyond any mechanism Oblique is for, and far enough from overflow that every quantity of a legal
// scenario — positions, velocities, the energies — stays finite over kMaxDuration even under the largest
// forces: kMaxForce / kMinMass = 1e15 m/s² for an hour moves a body by about 6e21 m at 4e18 m/s, and
// kMaxForce / kMinInertia = 1e25 rad/s² spins it to 4e28 rad/s; K and V stay below 1e41 J, while doubles
// reach 1e308.

inline constexpr double kMinMass = 1e-6;           ///< kg
inline constexpr double kMaxMass = 1e6;            ///< kg
/// Moments of inertia (kg m²); the inertia from a shape always lies within them, given the bounds on mass
/// and size.
inline constexpr double kMinInertia = 1e-16;
inline constexpr double kMaxInertia = 1e14;
/// Sizes of shapes (radius, width, height, length; a rod's radius may also be 0), the lengths of distance
/// joints and ropes, and the least separation of the two anchors of a distance joint or a rope (m).
inline constexpr double kMinLength = 1e-4;
inline constexpr double kMaxLength = 1e4;
/// Every coordinate of a position, plane point, anchor or view centre (m), and of a velocity (m/s); an
/// angle (rad) and an angular velocity (rad/s).
inline constexpr double kMaxCoordinate = 1e4;
inline constexpr double kMaxSpeed = 1e4;
inline constexpr double kMaxAngle = 1e4;
inline constexpr double kMaxAngularSpeed = 1e4;
/// Each component of gravity (m/s², about 100 g).
inline constexpr double kMaxGravity = 1e3;
/// Each component of a constant force (N) and a torque (N m), of an impulse (N s) and an angular
/// impulse (N m s).
inline constexpr double kMaxForce = 1e9;
inline constexpr double kMaxImpulse = 1e9;
/// The virtual mass ν, when set, lies within this factor of the masses and inertias of the scenario
/// (beyond it the projections lose the digits that the impacts need).
inline constexpr double kMaxNuFactor = 1e6;
/// Coulomb's coefficient of friction μ (far beyond any real surface; `stick` is the infinite one).
inline constexpr double kMaxFrictionCoefficient = 1e3;
/// View width (m).
inline constexpr double kMaxViewWidth = 1e5;

}  // namespace oblique

#include "oblique/model/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "oblique/scenario/scenario_check.hpp"
#include "oblique/math/trigonometry.hpp"
#include "model/rigid_points.hpp"

namespace oblique {

namespace {

// The kinematics of body points, as the contact geometry computes them (rigid_points.hpp).
using detail::add_point_row;
using detail::perp;
using detail::point_state;
using detail::PointState;
using detail::rotate;
using detail::unit_and_length;
using detail::unit_rate_term;

/// World position of a point fixed in a body (or in the world).
inline Vec2 world_point(int body, const Vec2& local, const Vector& q) {
  if (body == kWorld) return local;
  const int i = 3 * body;
  return Vec2(q(i), q(i + 1)) + rotate(q(i + 2), local);
}

/// A direction made unit. Directions of a valid scenario are finite and not zero; components so large or
/// small that their squares would overflow or underflow are scaled first.
Vec2 unit_direction(const Vec2& v) {
  const double largest = std::max(std::abs(v.x()), std::abs(v.y()));
  if (largest > 1e150 || largest < 1e-150) {
    const Vec2 scaled = v / largest;
    return scaled / scaled.norm();
  }
  return v / v.norm();
}

/// The contact features of a body shape against a plane: centres in the body frame and radii.
void plane_features(const Shape& shape, std::vector<Vec2>& centres, double& radius) {
  centres.clear();
  radius = 0.0;
  switch (shape.type) {
    case Shape::Type::Disk:
      centres.push_back(Vec2::Zero());
      radius = shape.radius;
      break;
    case Shape::Type::Box: {
      const double w = 0.5 * shape.width, h = 0.5 * shape.height;
      centres = {Vec2(-w, -h), Vec2(w, -h), Vec2(w, h), Vec2(-w, h)};
      break;
    }
    case Shape::Type::Rod:
      centres = {Vec2(-0.5 * shape.length, 0.0), Vec2(0.5 * shape.length, 0.0)};
      radius = shape.radius;
      break;
    case Shape::Type::Point:
      centres.push_back(Vec2::Zero());
      break;
    case Shape::Type::Wheel: {
      for (int j = 0; j < shape.spokes; ++j) {
        const CosSin spoke = cos_sin(2.0 * kPi * j / shape.spokes);
        centres.emplace_back(shape.radius * spoke.cos, shape.radius * spoke.sin);
      }
      break;
    }
  }
}

/// Radius a disk or a point offers to a disk–disk contact: the disk's radius, 0 for a point.
double disk_radius(const Shape& shape) { return shape.type == Shape::Type::Disk ? shape.radius : 0.0; }

}  // namespace

Model::Model(const Scenario& scenario) {
  // The one set of rules of a valid scenario (scenario_check.hpp); below, everything is in range.
  require_valid_scenario(scenario, ScenarioUse::Model);

  // Bodies: mass matrix, initial state.
  const std::size_t bodies = scenario.bodies.size();
  body_count_ = static_cast<int>(bodies);
  const int n = dofs();
  gravity_ = scenario.gravity;
  mass_diagonal_.resize(n);
  initial_q_.resize(n);
  initial_qd_.resize(n);
  bias_force_ = Vector::Zero(n);
  applied_force_ = Vector::Zero(n);
  for (std::size_t b = 0; b < bodies; ++b) {
    const BodyDef& body = scenario.bodies[b];
    const double inertia = body.inertia ? *body.inertia : shape_inertia(body.shape, body.mass);
    const int i = 3 * static_cast<int>(b);
    mass_diagonal_.segment<3>(i) << body.mass, body.mass, inertia;
    initial_q_.segment<3>(i) << body.position.x(), body.position.y(), body.angle;
    initial_qd_.segment<3>(i) << body.velocity.x(), body.velocity.y(), body.angular_velocity;
    // h = −(m g, 0): gravity moved to the left of M q̈ + h = u + f.
    bias_force_.segment<2>(i) = -body.mass * gravity_;
  }

  // Constant forces and torques: u.
  for (const ForceDef& force : scenario.forces) {
    const int i = 3 * force.body;
    applied_force_.segment<2>(i) += force.force;
    applied_force_(i + 2) += force.torque;
  }
  // q̈* = M⁻¹(u − h) is constant in absolute coordinates.
  free_acceleration_ = (applied_force_ - bias_force_).cwiseQuotient(mass_diagonal_);

  // Planes: unit normals.
  planes_ = scenario.planes;
  for (PlaneDef& plane : planes_) plane.normal = unit_direction(plane.normal);

  // Joints, with the reference angle of sliders and welds from the initial state.
  auto angle_of = [&](int body) { return body == kWorld ? 0.0 : initial_q_(3 * body + 2); };
  auto anchor_world = [&](int body, const Vec2& local) {
    return point_state(body, local, initial_q_, initial_qd_).position;
  };
  for (std::size_t k = 0; k < scenario.joints.size(); ++k) {
    const JointDef& def = scenario.joints[k];
    JointData joint{def.type, def.body_a, def.body_b, def.anchor_a, def.anchor_b, def.axis, 0.0, 0.0};
    if (def.type == JointDef::Type::Distance) {
      joint.length = def.length ? *def.length
                                : (anchor_world(def.body_b, def.anchor_b) - anchor_world(def.body_a, def.anchor_a)).norm();
    }
    if (def.type == JointDef::Type::Slider) joint.axis = unit_direction(def.axis);
    joint.reference_angle = angle_of(def.body_b) - angle_of(def.body_a);
    joints_.push_back(joint);
    joint_row_total_ += joint_row_count(static_cast<int>(k));
  }

  // Contacts: one point per feature.
  std::vector<Vec2> centres;
  for (std::size_t k = 0; k < scenario.contacts.size(); ++k) {
    const ContactDef& def = scenario.contacts[k];
    ContactFeature point;
    point.contact = static_cast<int>(k);
    point.type = def.type;
    point.stick = def.stick && def.type != ContactDef::Type::Rope;
    point.mu = def.type == ContactDef::Type::Rope ? 0.0
               : point.stick                      ? std::numeric_limits<double>::infinity()
                                                  : def.mu.value_or(scenario.mu);
    switch (def.type) {
      case ContactDef::Type::BodyPlane: {
        point.body_a = def.body_a;
        point.plane = def.plane;
        plane_features(scenario.bodies[static_cast<std::size_t>(def.body_a)].shape, centres, point.radius_a);
        for (std::size_t j = 0; j < centres.size(); ++j) {
          point.feature = static_cast<int>(j);
          point.local_a = centres[j];
          points_.push_back(point);
        }
        break;
      }
      case ContactDef::Type::DiskDisk: {
        point.radius_a = disk_radius(scenario.bodies[static_cast<std::size_t>(def.body_a)].shape);
        point.radius_b = disk_radius(scenario.bodies[static_cast<std::size_t>(def.body_b)].shape);
        point.body_a = def.body_a;
        point.body_b = def.body_b;
        points_.push_back(point);
        break;
      }
      case ContactDef::Type::Rope: {
        point.body_a = def.body_a;
        point.body_b = def.body_b;
        point.local_a = def.anchor_a;
        point.local_b = def.anchor_b;
        point.length = def.length;
        points_.push_back(point);
        break;
      }
    }
  }
}

Vector Model::initial_positions() const { return initial_q_; }
Vector Model::initial_velocities() const { return initial_qd_; }

double Model::kinetic_energy(const Vector& qd) const {
  return 0.5 * qd.dot(mass_diagonal_.cwiseProduct(qd));
}

double Model::potential_energy(const Vector& q) const {
  // V = −Σ m g·x − Σ (F·x + τθ) = h·q − u·q, since h = −(m g, 0) and u = (F, τ).
  return bias_force_.dot(q) - applied_force_.dot(q);
}

int Model::joint_row_count(int joint) const {
  switch (joints_.at(static_cast<std::size_t>(joint)).type) {
    case JointDef::Type::Pin: return 2;
    case JointDef::Type::Distance: return 1;
    case JointDef::Type::Slider: return 2;
    case JointDef::Type::Weld: return 3;
  }
  return 0;
}

std::vector<const char*> Model::joint_row_parts(int joint) const {
  // In the order joint_rows writes them.
  switch (joints_.at(static_cast<std::size_t>(joint)).type) {
    case JointDef::Type::Pin: return {"x", "y"};
    case JointDef::Type::Distance: return {""};
    case JointDef::Type::Slider: return {"⊥", "θ"};
    case JointDef::Type::Weld: return {"x", "y", "θ"};
  }
  return {};
}

std::vector<ConstraintRowInfo> Model::row_layout(const std::vector<int>& points, bool with_tangents) const {
  std::vector<ConstraintRowInfo> rows;
  // Joints first, each with its components.
  for (int j = 0; j < joint_count(); ++j) {
    for (const char* part : joint_row_parts(j)) {
      ConstraintRowInfo row;
      row.joint = j;
      row.part = part;
      rows.push_back(row);
    }
  }
  // Then per point its normal row and, sticking, its tangential row.
  for (int k : points) {
    const ContactFeature& feature = points_.at(static_cast<std::size_t>(k));
    ConstraintRowInfo row;
    row.kind = ConstraintRowInfo::Kind::Normal;
    row.point = k;
    row.contact = feature.contact;
    row.feature = feature.feature;
    rows.push_back(row);
    if (with_tangents && feature.stick) {
      row.kind = ConstraintRowInfo::Kind::Tangent;
      rows.push_back(row);
    }
  }
  return rows;
}

void Model::joint_rows(int joint, const Vector& q, const Vector& qd, int row, ConstraintRows& out) const {
  const JointData& j = joints_[static_cast<std::size_t>(joint)];
  const PointState a = point_state(j.body_a, j.anchor_a, q, qd);
  const PointState b = point_state(j.body_b, j.anchor_b, q, qd);
  const Vec2 d = b.position - a.position;
  const Vec2 d_rate = b.velocity - a.velocity;
  const Vec2 d_convective = b.convective - a.convective;
  // Each row is started (zero) just before it is written, in order (a sparse A is written row after row).
  // Relative rotation row θ_b − θ_a − θ_ref (slider, weld): constant Jacobian, no convective term.
  auto angle_row = [&](int r) {
    out.start_row(r);
    out.phi(r) = b.angle - a.angle - j.reference_angle;
    if (j.body_b != kWorld) out.add(r, 3 * j.body_b + 2, 1.0);
    if (j.body_a != kWorld) out.add(r, 3 * j.body_a + 2, -1.0);
    out.adot_qd(r) = 0.0;
  };
  // Coincident anchors p_b − p_a = 0 (pin, weld): one row per world axis.
  auto point_rows = [&]() {
    for (int axis = 0; axis < 2; ++axis) {
      const Vec2 dir = axis == 0 ? Vec2(Vec2::UnitX()) : Vec2(Vec2::UnitY());
      out.start_row(row + axis);
      out.phi(row + axis) = d(axis);
      add_point_row(out, row + axis, j.body_b, dir, b.offset, 1.0);
      add_point_row(out, row + axis, j.body_a, dir, a.offset, -1.0);
      out.adot_qd(row + axis) = d_convective(axis);
    }
  };

  switch (j.type) {
    case JointDef::Type::Pin:
      point_rows();
      break;
    case JointDef::Type::Weld:
      point_rows();
      angle_row(row + 2);
      break;
    case JointDef::Type::Distance: {
      // φ = |d| − L, A = u·∂d/∂q, Ȧq̇ = (|ḋ|² − (u·ḋ)²)/|d| + u·d̈|_{q̈=0}.
      Vec2 unit;
      const double length = unit_and_length(d, unit);
      out.start_row(row);
      out.phi(row) = length - j.length;
      add_point_row(out, row, j.body_b, unit, b.offset, 1.0);
      add_point_row(out, row, j.body_a, unit, a.offset, -1.0);
      out.adot_qd(row) = unit_rate_term(unit, length, d_rate) + unit.dot(d_convective);
      break;
    }
    case JointDef::Type::Slider: {
      // φ = n·d with n = perp(R_a axis) turning with body a: ∂n/∂θ_a = −R_a axis, ṅ = −θ̇_a R_a axis,
      // n̈|_{q̈=0} = −θ̇_a² n, so φ̈|_{q̈=0} = −θ̇_a² n·d − 2θ̇_a (R_a axis)·ḋ + n·d̈|_{q̈=0}.
      const Vec2 axis = rotate(a.angle, j.axis);
      const Vec2 normal = perp(axis);
      const double w = a.angular_velocity;
      out.start_row(row);
      out.phi(row) = normal.dot(d);
      add_point_row(out, row, j.body_b, normal, b.offset, 1.0);
      add_point_row(out, row, j.body_a, normal, a.offset, -1.0);
      if (j.body_a != kWorld) out.add(row, 3 * j.body_a + 2, -axis.dot(d));
      out.adot_qd(row) = -w * w * normal.dot(d) - 2.0 * w * axis.dot(d_rate) + normal.dot(d_convective);
      angle_row(row + 1);
      break;
    }
  }
}

void Model::all_joint_rows(const Vector& q, const Vector& qd, int row, ConstraintRows& out) const {
  for (int k = 0; k < joint_count(); ++k) {
    joint_rows(k, q, qd, row, out);
    row += joint_row_count(k);
  }
}

double Model::contact_gap(int point, const Vector& q) const {
  const ContactFeature& c = points_[static_cast<std::size_t>(point)];
  switch (c.type) {
    case ContactDef::Type::BodyPlane: {
      const PlaneDef& plane = planes_[static_cast<std::size_t>(c.plane)];
      return plane.normal.dot(world_point(c.body_a, c.local_a, q) - plane.point) - c.radius_a;
    }
    case ContactDef::Type::DiskDisk: {
      const Vec2 d = q.segment<2>(3 * c.body_b) - q.segment<2>(3 * c.body_a);
      return d.norm() - c.radius_a - c.radius_b;
    }
    case ContactDef::Type::Rope:
      return c.length - (world_point(c.body_b, c.local_b, q) - world_point(c.body_a, c.local_a, q)).norm();
  }
  return 0.0;
}

ContactFrame Model::contact_frame(int point, const Vector& q) const {
  const ContactFeature& c = points_[static_cast<std::size_t>(point)];
  ContactFrame frame;
  switch (c.type) {
    case ContactDef::Type::BodyPlane: {
      const PlaneDef& plane = planes_[static_cast<std::size_t>(c.plane)];
      const Vec2 p = world_point(c.body_a, c.local_a, q);
      frame.normal = plane.normal;
      frame.gap = plane.normal.dot(p - plane.point) - c.radius_a;
      frame.point = p - (c.radius_a + frame.gap) * plane.normal;
      break;
    }
    case ContactDef::Type::DiskDisk: {
      const Vec2 xa = q.segment<2>(3 * c.body_a), xb = q.segment<2>(3 * c.body_b);
      const double length = unit_and_length(xb - xa, frame.normal);
      frame.gap = length - c.radius_a - c.radius_b;
      frame.point = xa + (c.radius_a + 0.5 * frame.gap) * frame.normal;
      break;
    }
    case ContactDef::Type::Rope: {
      const Vec2 b = world_point(c.body_b, c.local_b, q);
      Vec2 unit;
      const double length = unit_and_length(b - world_point(c.body_a, c.local_a, q), unit);
      frame.gap = c.length - length;
      frame.normal = -unit;
      frame.point = b;
      break;
    }
  }
  frame.tangent = perp(frame.normal);
  return frame;
}

void Model::contact_normal_row(int point, const Vector& q, const Vector& qd, int row, ConstraintRows& out) const {
  const ContactFeature& c = points_[static_cast<std::size_t>(point)];
  out.start_row(row);
  switch (c.type) {
    case ContactDef::Type::BodyPlane: {
      // φ = n·(p − p₀) − ρ, A = n·∂p/∂q, Ȧq̇ = n·(−θ̇² R r).
      const PlaneDef& plane = planes_[static_cast<std::size_t>(c.plane)];
      const PointState p = point_state(c.body_a, c.local_a, q, qd);
      out.phi(row) = plane.normal.dot(p.position - plane.point) - c.radius_a;
      add_point_row(out, row, c.body_a, plane.normal, p.offset, 1.0);
      out.adot_qd(row) = plane.normal.dot(p.convective);
      break;
    }
    case ContactDef::Type::DiskDisk: {
      // φ = |d| − r_a − r_b with d = x_b − x_a: A = u·∂d/∂q, Ȧq̇ = (|ḋ|² − (u·ḋ)²)/|d|.
      const PointState a = point_state(c.body_a, Vec2::Zero(), q, qd);
      const PointState b = point_state(c.body_b, Vec2::Zero(), q, qd);
      Vec2 unit;
      const double length = unit_and_length(b.position - a.position, unit);
      out.phi(row) = length - c.radius_a - c.radius_b;
      add_point_row(out, row, c.body_b, unit, b.offset, 1.0);
      add_point_row(out, row, c.body_a, unit, a.offset, -1.0);
      out.adot_qd(row) = unit_rate_term(unit, length, b.velocity - a.velocity);
      break;
    }
    case ContactDef::Type::Rope: {
      // φ = L − |d|: the distance joint's row with the opposite sign.
      const PointState a = point_state(c.body_a, c.local_a, q, qd);
      const PointState b = point_state(c.body_b, c.local_b, q, qd);
      Vec2 unit;
      const double length = unit_and_length(b.position - a.position, unit);
      out.phi(row) = c.length - length;
      add_point_row(out, row, c.body_b, unit, b.offset, -1.0);
      add_point_row(out, row, c.body_a, unit, a.offset, 1.0);
      out.adot_qd(row) =
          -(unit_rate_term(unit, length, b.velocity - a.velocity) + unit.dot(b.convective - a.convective));
      break;
    }
  }
}

void Model::contact_tangent_row(int point, const Vector& q, const Vector& qd, int row, ConstraintRows& out) const {
  const ContactFeature& c = points_[static_cast<std::size_t>(point)];
  out.start_row(row);
  out.phi(row) = 0.0;
  switch (c.type) {
    case ContactDef::Type::BodyPlane: {
      // Material point at the contact c = p − ρn: t·ṗ_c = t·ẋ + θ̇ (t·perp(R r) − ρ); Ȧq̇ = t·(−θ̇² R r).
      const PlaneDef& plane = planes_[static_cast<std::size_t>(c.plane)];
      const Vec2 tangent = perp(plane.normal);
      const PointState p = point_state(c.body_a, c.local_a, q, qd);
      add_point_row(out, row, c.body_a, tangent, p.offset, 1.0);
      out.add(row, 3 * c.body_a + 2, -c.radius_a);
      out.adot_qd(row) = tangent.dot(p.convective);
      break;
    }
    case ContactDef::Type::DiskDisk: {
      // Relative tangential velocity of the touching material points: t·(ẋ_b − ẋ_a) − r_b θ̇_b − r_a θ̇_a;
      // t turns with the line of centres: ṫ = −(t·ḋ)/|d| u, so Ȧq̇ = −(t·ḋ)(u·ḋ)/|d|.
      const PointState a = point_state(c.body_a, Vec2::Zero(), q, qd);
      const PointState b = point_state(c.body_b, Vec2::Zero(), q, qd);
      Vec2 unit;
      const double length = unit_and_length(b.position - a.position, unit);
      const Vec2 tangent = perp(unit);
      add_point_row(out, row, c.body_b, tangent, b.offset, 1.0);
      add_point_row(out, row, c.body_a, tangent, a.offset, -1.0);
      out.add(row, 3 * c.body_b + 2, -c.radius_b);
      out.add(row, 3 * c.body_a + 2, -c.radius_a);
      const Vec2 d_rate = b.velocity - a.velocity;
      out.adot_qd(row) = length > 1e-300 ? -tangent.dot(d_rate) * unit.dot(d_rate) / length : 0.0;
      break;
    }
    case ContactDef::Type::Rope:
      break;  // ropes do not stick; the row stays zero
  }
}

double Model::contact_normal_velocity(int point, const Vector& q, const Vector& qd) const {
  const ContactFeature& c = points_[static_cast<std::size_t>(point)];
  switch (c.type) {
    case ContactDef::Type::BodyPlane: {
      const PointState p = point_state(c.body_a, c.local_a, q, qd);
      return planes_[static_cast<std::size_t>(c.plane)].normal.dot(p.velocity);
    }
    case ContactDef::Type::DiskDisk: {
      const PointState a = point_state(c.body_a, Vec2::Zero(), q, qd);
      const PointState b = point_state(c.body_b, Vec2::Zero(), q, qd);
      Vec2 unit;
      unit_and_length(b.position - a.position, unit);
      return unit.dot(b.velocity - a.velocity);
    }
    case ContactDef::Type::Rope: {
      const PointState a = point_state(c.body_a, c.local_a, q, qd);
      const PointState b = point_state(c.body_b, c.local_b, q, qd);
      Vec2 unit;
      unit_and_length(b.position - a.position, unit);
      return -unit.dot(b.velocity - a.velocity);
    }
  }
  return 0.0;
}

double shape_inertia(const Shape& shape, double mass) {
  switch (shape.type) {
    case Shape::Type::Disk:
    case Shape::Type::Point:
      return 0.5 * mass * shape.radius * shape.radius;
    case Shape::Type::Box:
      return mass * (shape.width * shape.width + shape.height * shape.height) / 12.0;
    case Shape::Type::Rod:
      return mass * shape.length * shape.length / 12.0;
    case Shape::Type::Wheel:
      return mass * shape.radius * shape.radius / 3.0;
  }
  return 0.0;
}

}  // namespace oblique

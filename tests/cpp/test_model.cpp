// The planar model: every joint and contact row (φ, A, Ȧq̇) against central finite differences at random
// states, the contact-point expansion of each shape, and M, h, u and the energies.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>

#include <Eigen/Geometry>

#include "oblique/model/model.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

using testing::body_plane;
using testing::disk;
using testing::disk_disk;
using testing::joint;
using testing::make_body;
using testing::plane;

/// Every joint type and contact kind, between bodies and with the world, on a tilted plane.
Scenario zoo() {
  Scenario s;
  s.gravity = Vec2(0.3, -9.81);
  s.bodies.push_back(disk("disk", 1.0, 0.2, Vec2(0.1, 0.5)));
  BodyDef box = make_body("box", Shape::Type::Box, 2.0, Vec2(1.0, 0.7), 0.4);
  box.shape.width = 0.4;
  box.shape.height = 0.25;
  s.bodies.push_back(box);
  BodyDef capsule = make_body("rod", Shape::Type::Rod, 0.7, Vec2(-0.8, 1.1), -0.3);
  capsule.shape.length = 0.9;
  capsule.shape.radius = 0.05;
  s.bodies.push_back(capsule);
  BodyDef point = make_body("point", Shape::Type::Point, 0.3, Vec2(0.4, 1.6));
  point.shape.radius = 0.03;
  s.bodies.push_back(point);
  BodyDef wheel = make_body("wheel", Shape::Type::Wheel, 1.5, Vec2(2.0, 1.0), 0.2);
  wheel.shape.radius = 0.5;
  wheel.shape.spokes = 5;
  s.bodies.push_back(wheel);
  s.bodies.push_back(disk("disk2", 0.5, 0.15, Vec2(0.6, 0.3)));
  s.planes.push_back(plane(Vec2(0.0, -0.2), Vec2(0.2, 1.0)));

  s.joints.push_back(joint(JointDef::Type::Pin, kWorld, Vec2(0.0, 2.0), 0, Vec2(0.1, 0.05)));
  s.joints.push_back(joint(JointDef::Type::Pin, 0, Vec2(0.2, -0.1), 1, Vec2(-0.1, 0.1)));
  JointDef distance = joint(JointDef::Type::Distance, 1, Vec2(0.1, 0.0), 2, Vec2(0.3, 0.02));
  distance.length = 1.3;
  s.joints.push_back(distance);
  JointDef slider = joint(JointDef::Type::Slider, 2, Vec2(0.1, 0.2), 3, Vec2(0.01, -0.02));
  slider.axis = Vec2(0.6, 0.8);
  s.joints.push_back(slider);
  JointDef world_slider = joint(JointDef::Type::Slider, kWorld, Vec2(0.5, 0.5), 4, Vec2(0.1, 0.0));
  world_slider.axis = Vec2(1.0, 0.2).normalized();
  s.joints.push_back(world_slider);
  s.joints.push_back(joint(JointDef::Type::Weld, 4, Vec2(0.2, 0.1), 5, Vec2(-0.05, 0.02)));
  s.joints.push_back(joint(JointDef::Type::Weld, kWorld, Vec2(0.3, 0.1), 3, Vec2(0.0, 0.02)));

  for (int b = 0; b < 5; ++b) s.contacts.push_back(body_plane(b, 0, std::nullopt, b % 2 == 0));
  s.contacts.push_back(body_plane(1, 0, 0.3, true));
  ContactDef dd = disk_disk(0, 5);
  dd.stick = true;
  s.contacts.push_back(dd);
  s.contacts.push_back(disk_disk(3, 0));
  ContactDef rope;
  rope.type = ContactDef::Type::Rope;
  rope.body_a = 1;
  rope.anchor_a = Vec2(0.05, 0.1);
  rope.body_b = 4;
  rope.anchor_b = Vec2(-0.2, 0.1);
  rope.length = 1.4;
  s.contacts.push_back(rope);
  ContactDef world_rope = rope;
  world_rope.body_a = kWorld;
  world_rope.anchor_a = Vec2(1.0, 3.0);
  s.contacts.push_back(world_rope);
  return s;
}

struct RowSet {
  std::string name;
  int rows;
  std::function<void(const Model&, const Vector&, const Vector&, ConstraintRows&)> write;
  bool has_position;  // φ is a position-level function (false for tangential rows)
};

std::vector<RowSet> every_row_set(const Model& model) {
  std::vector<RowSet> sets;
  for (int j = 0; j < model.joint_count(); ++j) {
    sets.push_back({"joint " + std::to_string(j), model.joint_row_count(j),
                    [j](const Model& m, const Vector& q, const Vector& qd, ConstraintRows& out) { m.joint_rows(j, q, qd, 0, out); },
                    true});
  }
  for (int k = 0; k < model.contact_point_count(); ++k) {
    sets.push_back({"contact point " + std::to_string(k) + " normal", 1,
                    [k](const Model& m, const Vector& q, const Vector& qd, ConstraintRows& out) {
                      m.contact_normal_row(k, q, qd, 0, out);
                    },
                    true});
    if (model.contact_points()[static_cast<std::size_t>(k)].stick) {
      sets.push_back({"contact point " + std::to_string(k) + " tangent", 1,
                      [k](const Model& m, const Vector& q, const Vector& qd, ConstraintRows& out) {
                        m.contact_tangent_row(k, q, qd, 0, out);
                      },
                      false});
    }
  }
  return sets;
}

TEST(Model, ExpandsEveryShapeIntoItsContactPoints) {
  const Model model(zoo());
  // disk 1 + box 4 + rod 2 + point 1 + wheel 5, box again 4, disk–disk 2, ropes 2.
  EXPECT_EQ(model.contact_point_count(), 1 + 4 + 2 + 1 + 5 + 4 + 1 + 1 + 1 + 1);
  EXPECT_EQ(model.joint_row_total(), 2 + 2 + 1 + 2 + 2 + 3 + 3);
  const auto& points = model.contact_points();
  EXPECT_DOUBLE_EQ(points[0].radius_a, 0.2);   // disk: centre with its radius
  EXPECT_DOUBLE_EQ(points[1].radius_a, 0.0);   // box corners
  EXPECT_DOUBLE_EQ(points[3].local_a.x(), 0.2);
  EXPECT_DOUBLE_EQ(points[5].radius_a, 0.05);  // rod ends with the rod radius
  EXPECT_DOUBLE_EQ(points[6].local_a.x(), 0.45);
  EXPECT_DOUBLE_EQ(points[7].radius_a, 0.0);   // point
  EXPECT_NEAR(points[8 + 2].local_a.x(), 0.5 * std::cos(4 * testing::kPi / 5), 1e-15);  // spoke tip 2
  for (int k = 0; k < model.contact_point_count(); ++k) {
    EXPECT_GE(points[static_cast<std::size_t>(k)].contact, 0);
  }
  EXPECT_FALSE(points.back().stick);  // ropes never stick
}

TEST(Model, RowLayoutNamesEveryRowOfTheStackTheSimulatorAssembles) {
  const Model model(zoo());
  // Each joint names as many components as it has rows.
  int joint_rows = 0;
  for (int j = 0; j < model.joint_count(); ++j) {
    EXPECT_EQ(static_cast<int>(model.joint_row_parts(j).size()), model.joint_row_count(j)) << "joint " << j;
    joint_rows += model.joint_row_count(j);
  }
  EXPECT_EQ(joint_rows, model.joint_row_total());
  // Joints first, then per point its normal row and, sticking, its tangential row: as many rows as the
  // rows written by joint_rows, contact_normal_row and contact_tangent_row.
  std::vector<int> points;
  int sticking = 0;
  for (int k = 0; k < model.contact_point_count(); ++k) {
    points.push_back(k);
    if (model.contact_points()[static_cast<std::size_t>(k)].stick) ++sticking;
  }
  ASSERT_GT(sticking, 0);
  const auto layout = model.row_layout(points, true);
  ASSERT_EQ(static_cast<int>(layout.size()), model.joint_row_total() + model.contact_point_count() + sticking);
  EXPECT_EQ(static_cast<int>(model.row_layout(points, false).size()),
            model.joint_row_total() + model.contact_point_count());
  int row = 0;
  for (int j = 0; j < model.joint_count(); ++j) {
    for (const char* part : model.joint_row_parts(j)) {
      EXPECT_EQ(layout[static_cast<std::size_t>(row)].kind, ConstraintRowInfo::Kind::Joint);
      EXPECT_EQ(layout[static_cast<std::size_t>(row)].joint, j);
      EXPECT_STREQ(layout[static_cast<std::size_t>(row)].part, part);
      ++row;
    }
  }
  for (int k : points) {
    const ContactFeature& feature = model.contact_points()[static_cast<std::size_t>(k)];
    const ConstraintRowInfo& normal = layout[static_cast<std::size_t>(row++)];
    EXPECT_EQ(normal.kind, ConstraintRowInfo::Kind::Normal);
    EXPECT_EQ(normal.point, k);
    EXPECT_EQ(normal.contact, feature.contact);
    EXPECT_EQ(normal.feature, feature.feature);
    if (feature.stick) {
      EXPECT_EQ(layout[static_cast<std::size_t>(row)].kind, ConstraintRowInfo::Kind::Tangent);
      EXPECT_EQ(layout[static_cast<std::size_t>(row++)].point, k);
    }
  }
  // The parts of each type: pin x, y; distance one row; slider across, angle; weld x, y, angle.
  Scenario s;
  s.bodies.push_back(disk("a", 1.0, 0.1, Vec2(0.0, 1.0)));
  s.bodies.push_back(disk("b", 1.0, 0.1, Vec2(0.5, 1.0)));
  for (JointDef::Type type : {JointDef::Type::Pin, JointDef::Type::Distance, JointDef::Type::Slider,
                              JointDef::Type::Weld}) {
    // Coincident anchors (a distance joint between the centres, 0.5 apart).
    const bool distance = type == JointDef::Type::Distance;
    s.joints = {joint(type, 0, distance ? Vec2::Zero() : Vec2(0.25, 0.0), 1,
                      distance ? Vec2::Zero() : Vec2(-0.25, 0.0))};
    const auto parts = Model(s).joint_row_parts(0);
    std::string joined;
    for (const char* part : parts) joined += std::string(part) + ";";
    const char* expected = type == JointDef::Type::Pin ? "x;y;" : type == JointDef::Type::Distance ? ";"
                           : type == JointDef::Type::Slider ? "⊥;θ;" : "x;y;θ;";
    EXPECT_EQ(joined, expected);
  }
}

TEST(Model, RowsMatchFiniteDifferencesAtRandomStates) {
  const Model model(zoo());
  const int n = model.dofs();
  std::mt19937 engine(2024);
  std::normal_distribution<double> normal(0.0, 1.0);
  ConstraintRows rows, plus, minus;
  const double eps = 1e-6;
  for (int trial = 0; trial < 25; ++trial) {
    Vector q(n), qd(n);
    for (int i = 0; i < n; ++i) {
      q(i) = normal(engine);
      qd(i) = 2.0 * normal(engine);
    }
    for (const RowSet& set : every_row_set(model)) {
      rows.resize(set.rows, n);
      plus.resize(set.rows, n);
      minus.resize(set.rows, n);
      set.write(model, q, qd, rows);
      // A = ∂φ/∂q by central differences.
      if (set.has_position) {
        for (int j = 0; j < n; ++j) {
          Vector qp = q, qm = q;
          qp(j) += eps;
          qm(j) -= eps;
          set.write(model, qp, qd, plus);
          set.write(model, qm, qd, minus);
          for (int r = 0; r < set.rows; ++r) {
            const double numeric = (plus.phi(r) - minus.phi(r)) / (2 * eps);
            EXPECT_NEAR(rows.jacobian(r, j), numeric, 1e-7 * (1.0 + std::abs(numeric)))
                << set.name << " row " << r << " column " << j << " trial " << trial;
          }
        }
      }
      // Ȧq̇ = d/dt (A(q) q̇) along q + t q̇.
      const Vector qp = q + eps * qd, qm = q - eps * qd;
      set.write(model, qp, qd, plus);
      set.write(model, qm, qd, minus);
      const Vector numeric = (plus.jacobian * qd - minus.jacobian * qd) / (2 * eps);
      for (int r = 0; r < set.rows; ++r) {
        EXPECT_NEAR(rows.adot_qd(r), numeric(r), 2e-6 * (1.0 + std::abs(numeric(r))))
            << set.name << " row " << r << " trial " << trial;
      }
    }
  }
}

TEST(Model, ContactGapFrameAndNormalVelocityAgreeWithTheRow) {
  const Model model(zoo());
  const int n = model.dofs();
  std::mt19937 engine(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  ConstraintRows row;
  row.resize(1, n);
  for (int trial = 0; trial < 10; ++trial) {
    Vector q(n), qd(n);
    for (int i = 0; i < n; ++i) {
      q(i) = normal(engine);
      qd(i) = normal(engine);
    }
    for (int k = 0; k < model.contact_point_count(); ++k) {
      model.contact_normal_row(k, q, qd, 0, row);
      const ContactFrame frame = model.contact_frame(k, q);
      EXPECT_NEAR(frame.gap, row.phi(0), 1e-12);
      EXPECT_NEAR(model.contact_gap(k, q), row.phi(0), 1e-12);
      EXPECT_NEAR(model.contact_normal_velocity(k, q, qd), (row.jacobian * qd)(0), 1e-11);
      EXPECT_NEAR(frame.normal.norm(), 1.0, 1e-14);
      EXPECT_NEAR(frame.normal.dot(frame.tangent), 0.0, 1e-15);
    }
  }
}

TEST(Model, BodyPlaneTangentRowIsTheGradientOfTheRollingConstraint) {
  // For a body on a plane the stick row is ∂/∂q (t·p − ρθ): check it against finite differences.
  const Scenario s = zoo();
  const Model model(s);
  const int n = model.dofs();
  Vector q = model.initial_positions(), qd = Vector::Zero(n);
  ConstraintRows row;
  row.resize(1, n);
  const Vec2 normal = s.planes[0].normal.normalized();
  const Vec2 tangent(-normal.y(), normal.x());
  for (int k = 0; k < model.contact_point_count(); ++k) {
    const ContactFeature& c = model.contact_points()[static_cast<std::size_t>(k)];
    if (!c.stick || c.type != ContactDef::Type::BodyPlane) continue;
    auto rolling = [&](const Vector& x) {
      const int i = 3 * c.body_a;
      const double angle = x(i + 2);
      const Vec2 p = Vec2(x(i), x(i + 1)) + Eigen::Rotation2Dd(angle) * c.local_a;
      return tangent.dot(p) - c.radius_a * angle;
    };
    model.contact_tangent_row(k, q, qd, 0, row);
    for (int j = 0; j < n; ++j) {
      Vector qp = q, qm = q;
      qp(j) += 1e-6;
      qm(j) -= 1e-6;
      EXPECT_NEAR(row.jacobian(0, j), (rolling(qp) - rolling(qm)) / 2e-6, 1e-8) << "point " << k;
    }
  }
}

TEST(Model, InertiaForcesAndEnergies) {
  Scenario s = zoo();
  ForceDef push;
  push.body = 1;
  push.force = Vec2(2.0, -1.0);
  push.torque = 0.5;
  s.forces.push_back(push);
  const Model model(s);
  // M = diag(m, m, I), I from the shape unless given.
  EXPECT_DOUBLE_EQ(model.mass_matrix()(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(model.mass_matrix()(2, 2), 0.5 * 1.0 * 0.2 * 0.2);
  EXPECT_DOUBLE_EQ(model.mass_matrix()(5, 5), 2.0 * (0.4 * 0.4 + 0.25 * 0.25) / 12.0);
  EXPECT_DOUBLE_EQ(model.mass_matrix()(14, 14), 1.5 * 0.25 / 3.0);
  // M q̈* + h = u.
  const Vector residual = model.mass_matrix() * model.free_acceleration() + model.bias_force() - model.applied_force();
  EXPECT_LT(residual.norm(), 1e-12);
  EXPECT_NEAR(model.free_acceleration()(1), -9.81, 1e-12);
  EXPECT_NEAR(model.free_acceleration()(3), 0.3 + 1.0, 1e-12);
  // V(q + δ) − V(q) = −(u − h)·δ: the forces are conservative with this potential.
  const Vector q = model.initial_positions();
  Vector delta = Vector::LinSpaced(model.dofs(), -0.3, 0.4);
  EXPECT_NEAR(model.potential_energy(q + delta) - model.potential_energy(q),
              -(model.applied_force() - model.bias_force()).dot(delta), 1e-12);
  Vector qd = Vector::Ones(model.dofs());
  EXPECT_NEAR(model.kinetic_energy(qd), 0.5 * model.mass_diagonal().sum(), 1e-12);
}

TEST(Model, RejectsWhatCannotBeSimulatedNamingTheField) {
  auto message = [](const Scenario& s) {
    try {
      Model model(s);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  Scenario s = zoo();
  s.bodies[1].mass = 0.0;
  EXPECT_EQ(message(s), "/bodies/1/mass: must be positive, got 0");
  s = zoo();
  s.joints[2].body_b = 17;
  EXPECT_EQ(message(s).rfind("/joints/2/body_b: must be a body index", 0), 0u) << message(s);
  s = zoo();
  s.contacts[0].plane = 3;
  EXPECT_EQ(message(s).rfind("/contacts/0/plane: must be a plane index", 0), 0u) << message(s);
  s = zoo();
  s.contacts[6].body_b = 1;  // a box in a disk–disk contact
  EXPECT_EQ(message(s).rfind("/contacts/6/body_b: must be a disk", 0), 0u) << message(s);
  s = zoo();
  s.bodies.clear();
  s.joints.clear();
  s.contacts.clear();
  EXPECT_EQ(message(s), "/bodies: must have at least one body");
}

}  // namespace
}  // namespace oblique

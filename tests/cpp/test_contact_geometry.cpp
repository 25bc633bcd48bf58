// The contact geometry: the feature catalogue of every shape, and every row (φ, A, Ȧq̇ and the tangential
// row) of circle–circle and circle–face pairs against finite differences, for both orders of the bodies,
// the world on either side, and zero and non-zero radii; the rows reduce to Model's body–plane and
// disk–disk rows.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "error_message.hpp"
#include "oblique/geometry/contact_geometry.hpp"
#include "oblique/model/model.hpp"
#include "scenario_builders.hpp"
#include "shapes.hpp"

namespace oblique {
namespace {

using testing::box_shape;
using testing::message_of;
using testing::rod_shape;

constexpr int kBodies = 3;  // the pairs use two of them; the third's columns must stay zero
constexpr int kDofs = 3 * kBodies;

/// A world point of body `body` (world: itself) from its local coordinates, with Eigen's rotation (an
/// implementation independent of the one under test).
Vec2 to_world(int body, const Vec2& local, const Vector& q) {
  if (body == kWorld) return local;
  return Vec2(q(3 * body), q(3 * body + 1)) + Eigen::Rotation2Dd(q(3 * body + 2)) * local;
}

Vec2 to_local(int body, const Vec2& world, const Vector& q) {
  if (body == kWorld) return world;
  return Eigen::Rotation2Dd(-q(3 * body + 2)) * (world - Vec2(q(3 * body), q(3 * body + 1)));
}

// --- the feature catalogue ---------------------------------------------------------------------------------

TEST(ContactGeometry, BoxFeaturesAreCornersAndOutwardFaces) {
  const Shape box = box_shape(0.6, 0.2);
  ASSERT_EQ(circle_count(box), 4);
  ASSERT_EQ(face_count(box), 4);
  const Vec2 corners[4] = {Vec2(-0.3, -0.1), Vec2(0.3, -0.1), Vec2(0.3, 0.1), Vec2(-0.3, 0.1)};
  const Vec2 normals[4] = {Vec2(0, -1), Vec2(1, 0), Vec2(0, 1), Vec2(-1, 0)};
  for (int k = 0; k < 4; ++k) {
    const Feature corner = circle_feature(box, k);
    EXPECT_EQ(corner.kind, Feature::Kind::Circle);
    EXPECT_EQ(corner.index, k);
    EXPECT_EQ(corner.point, corners[k]);
    EXPECT_EQ(corner.radius, 0.0);
    const Feature face = face_feature(box, k);
    EXPECT_EQ(face.kind, Feature::Kind::Face);
    EXPECT_EQ(face.normal, normals[k]) << "face " << k;
    // Face k runs from corner k (at lower) to corner k + 1 (at upper) along τ = perp(ν).
    const Vec2 tangent(-face.normal.y(), face.normal.x());
    EXPECT_NEAR((face.point + face.lower * tangent - corners[k]).norm(), 0.0, 1e-15);
    EXPECT_NEAR((face.point + face.upper * tangent - corners[(k + 1) % 4]).norm(), 0.0, 1e-15);
  }
}

TEST(ContactGeometry, RodFeaturesAreEndCirclesAndSidesAtItsRadius) {
  const Shape rod = rod_shape(1.2, 0.05);
  ASSERT_EQ(circle_count(rod), 2);
  ASSERT_EQ(face_count(rod), 2);
  EXPECT_EQ(circle_feature(rod, 0).point, Vec2(-0.6, 0.0));
  EXPECT_EQ(circle_feature(rod, 1).point, Vec2(0.6, 0.0));
  EXPECT_EQ(circle_feature(rod, 1).radius, 0.05);
  const Feature below = face_feature(rod, 0), above = face_feature(rod, 1);
  EXPECT_EQ(below.normal, Vec2(0, -1));
  EXPECT_EQ(above.normal, Vec2(0, 1));
  EXPECT_NEAR((below.point - Vec2(0, -0.05)).norm(), 0.0, 1e-16);
  EXPECT_NEAR((above.point - Vec2(0, 0.05)).norm(), 0.0, 1e-16);
  EXPECT_DOUBLE_EQ(below.upper - below.lower, 1.2);
  EXPECT_DOUBLE_EQ(above.upper - above.lower, 1.2);
}

TEST(ContactGeometry, DiskPointAndWheelFeaturesMatchTheModelsPlaneContacts) {
  // The model expands body–plane contacts into the same circles, in the same order, to the bit.
  Scenario s;
  s.bodies.push_back(testing::disk("disk", 1.0, 0.2, Vec2(0, 1)));
  BodyDef box = testing::make_body("box", Shape::Type::Box, 1.0, Vec2(1, 1));
  box.shape = box_shape(0.4, 0.3);
  s.bodies.push_back(box);
  BodyDef rod = testing::make_body("rod", Shape::Type::Rod, 1.0, Vec2(2, 1));
  rod.shape = rod_shape(0.9, 0.07);
  s.bodies.push_back(rod);
  s.bodies.push_back(testing::make_body("point", Shape::Type::Point, 1.0, Vec2(3, 1)));
  BodyDef wheel = testing::make_body("wheel", Shape::Type::Wheel, 1.0, Vec2(4, 1));
  wheel.shape.radius = 0.45;
  wheel.shape.spokes = 7;
  s.bodies.push_back(wheel);
  s.planes.push_back(testing::plane(Vec2::Zero(), Vec2::UnitY()));
  for (int b = 0; b < 5; ++b) s.contacts.push_back(testing::body_plane(b, 0));
  const Model model(s);
  std::size_t point = 0;
  for (int b = 0; b < 5; ++b) {
    const Shape& shape = s.bodies[static_cast<std::size_t>(b)].shape;
    EXPECT_EQ(face_count(shape), shape.type == Shape::Type::Box ? 4 : shape.type == Shape::Type::Rod ? 2 : 0);
    for (int k = 0; k < circle_count(shape); ++k, ++point) {
      const ContactFeature& expected = model.contact_points().at(point);
      const Feature circle = circle_feature(shape, k);
      EXPECT_EQ(circle.point, expected.local_a) << "body " << b << " circle " << k;
      EXPECT_EQ(circle.radius, expected.radius_a) << "body " << b << " circle " << k;
    }
  }
  EXPECT_EQ(point, model.contact_points().size());
}

TEST(ContactGeometry, OutOfRangeFeaturesAndMalformedPairsAreNamed) {
  const Shape box = box_shape(0.2, 0.2);
  EXPECT_EQ(message_of([&] { circle_feature(box, 4); }).rfind("circle:", 0), 0u);
  EXPECT_EQ(message_of([&] { face_feature(Shape{}, 0); }), "face: this shape has no face");
  FeaturePair pair;
  pair.body_a = 0;
  pair.body_b = 0;
  EXPECT_EQ(message_of([&] { check_feature_pair(pair); }), "pair.body_b: must differ from body_a");
  pair.body_a = kWorld;
  pair.body_b = kWorld;
  EXPECT_EQ(message_of([&] { check_feature_pair(pair); }).rfind("pair.body_b: a contact needs at least one body", 0), 0u);
  pair.body_b = 1;
  pair.a = face_feature(box, 0);
  pair.b = face_feature(box, 1);
  EXPECT_EQ(message_of([&] { check_feature_pair(pair); }).rfind("pair: a contact point pairs a circle", 0), 0u);
  pair.b = circle_feature(box, 1);
  pair.b.radius = -0.1;
  EXPECT_EQ(message_of([&] { check_feature_pair(pair); }), "pair.b.radius: must not be negative, got -0.1");
  pair.b.radius = 0.0;
  pair.a.normal = Vec2(1, 1);
  EXPECT_EQ(message_of([&] { check_feature_pair(pair); }), "pair.a.normal: must be a unit vector");
  pair.a.normal = Vec2(0, 1);
  pair.a.point.x() = std::nan("");
  EXPECT_EQ(message_of([&] { check_feature_pair(pair); }), "pair.a.point: must be finite numbers");
  pair.a.point.x() = 0.0;
  EXPECT_EQ(message_of([&] { check_feature_pair(pair); }), "no error");
}

// --- rows against finite differences ---------------------------------------------------------------------

/// Every kind of pair: circle–circle and circle–face with the face on A or on B, bodies in both orders
/// and the world on either side, radii zero and not.
std::vector<std::pair<std::string, FeaturePair>> pair_zoo(std::mt19937& engine) {
  std::uniform_real_distribution<double> coordinate(-0.5, 0.5), radius(0.02, 0.3), angle(-testing::kPi, testing::kPi);
  auto circle = [&](bool rounded) {
    Feature f;
    f.kind = Feature::Kind::Circle;
    f.point = Vec2(coordinate(engine), coordinate(engine));
    f.radius = rounded ? radius(engine) : 0.0;
    return f;
  };
  auto face = [&]() {
    Feature f;
    f.kind = Feature::Kind::Face;
    const double a = angle(engine);
    f.normal = Vec2(std::cos(a), std::sin(a));
    f.point = Vec2(coordinate(engine), coordinate(engine));
    f.lower = -0.4;
    f.upper = 0.3;
    return f;
  };
  const std::pair<int, int> bodies[] = {{2, 0}, {0, 2}, {kWorld, 1}, {1, kWorld}};
  std::vector<std::pair<std::string, FeaturePair>> pairs;
  for (const auto& [body_a, body_b] : bodies) {
    for (int kind = 0; kind < 3; ++kind) {
      for (int rounded = 0; rounded < 2; ++rounded) {
        FeaturePair p;
        p.body_a = body_a;
        p.body_b = body_b;
        p.a = kind == 2 ? face() : circle(rounded == 1);
        p.b = kind == 1 ? face() : circle(rounded == 1);
        const char* kinds[] = {"circle-circle", "circle-face", "face-circle"};
        pairs.push_back({std::string(kinds[kind]) + " bodies " + std::to_string(body_a) + "," +
                             std::to_string(body_b) + (rounded ? " rounded" : " sharp"),
                         p});
      }
    }
  }
  return pairs;
}

void random_state(std::mt19937& engine, Vector& q, Vector& qd) {
  std::normal_distribution<double> normal(0.0, 1.0);
  q.resize(kDofs);
  qd.resize(kDofs);
  for (int i = 0; i < kDofs; ++i) {
    q(i) = normal(engine);
    qd(i) = 2.0 * normal(engine);
  }
}

TEST(ContactGeometry, NormalRowsMatchFiniteDifferences) {
  std::mt19937 engine(91);
  ConstraintRows row, plus, minus;
  row.resize(1, kDofs);
  plus.resize(1, kDofs);
  minus.resize(1, kDofs);
  const double eps = 1e-6;
  for (int trial = 0; trial < 20; ++trial) {
    for (const auto& [name, pair] : pair_zoo(engine)) {
      check_feature_pair(pair);
      Vector q, qd;
      random_state(engine, q, qd);
      feature_pair_normal_row(pair, q, qd, 0, row);
      // φ is the gap of the frame and of feature_pair_gap, to the bit.
      EXPECT_EQ(row.phi(0), feature_pair_gap(pair, q)) << name;
      EXPECT_EQ(row.phi(0), feature_pair_frame(pair, q).gap) << name;
      // A = ∂φ/∂q by central differences; columns of bodies outside the pair are zero.
      for (int j = 0; j < kDofs; ++j) {
        Vector qp = q, qm = q;
        qp(j) += eps;
        qm(j) -= eps;
        const double numeric = (feature_pair_gap(pair, qp) - feature_pair_gap(pair, qm)) / (2 * eps);
        EXPECT_NEAR(row.jacobian(0, j), numeric, 1e-7 * (1.0 + std::abs(numeric)))
            << name << " column " << j << " trial " << trial;
        if (j / 3 != pair.body_a && j / 3 != pair.body_b) EXPECT_EQ(row.jacobian(0, j), 0.0) << name;
      }
      // φ̇ = A q̇.
      EXPECT_NEAR(feature_pair_normal_velocity(pair, q, qd), (row.jacobian * qd)(0), 1e-12 * (1 + qd.norm()))
          << name;
      // Ȧq̇ = d/dt (A(q) q̇) along q + t q̇ (q̈ = 0).
      feature_pair_normal_row(pair, q + eps * qd, qd, 0, plus);
      feature_pair_normal_row(pair, q - eps * qd, qd, 0, minus);
      const double numeric = ((plus.jacobian * qd)(0) - (minus.jacobian * qd)(0)) / (2 * eps);
      EXPECT_NEAR(row.adot_qd(0), numeric, 2e-6 * (1.0 + std::abs(numeric))) << name << " trial " << trial;
      // And φ̈ along the same line by second differences of φ: Ȧq̇ is φ̈ at q̈ = 0.
      const double h = 1e-4;
      const double second = (feature_pair_gap(pair, q + h * qd) - 2 * feature_pair_gap(pair, q) +
                             feature_pair_gap(pair, q - h * qd)) / (h * h);
      EXPECT_NEAR(row.adot_qd(0), second, 1e-4 * (1.0 + std::abs(second))) << name << " trial " << trial;
    }
  }
}

TEST(ContactGeometry, FrameNormalPointsFromAToBAndThePointSitsInTheGap) {
  std::mt19937 engine(5);
  for (int trial = 0; trial < 20; ++trial) {
    for (const auto& [name, pair] : pair_zoo(engine)) {
      Vector q, qd;
      random_state(engine, q, qd);
      const ContactFrame frame = feature_pair_frame(pair, q);
      EXPECT_NEAR(frame.normal.norm(), 1.0, 1e-15) << name;
      EXPECT_NEAR(frame.normal.dot(frame.tangent), 0.0, 1e-16) << name;
      EXPECT_NEAR(frame.tangent.x(), -frame.normal.y(), 0.0) << name;
      // Moving B along N by δ opens the gap by δ; moving A along N closes it by δ.
      const double delta = 1e-3;
      for (int side = 0; side < 2; ++side) {
        const int body = side == 0 ? pair.body_a : pair.body_b;
        if (body == kWorld) continue;
        Vector moved = q;
        moved.segment<2>(3 * body) += delta * frame.normal;
        EXPECT_NEAR(feature_pair_gap(pair, moved) - frame.gap, side == 0 ? -delta : delta, 1e-12) << name;
      }
      // The point lies half the gap from each surface along N: from the surface point of A at +φ/2·N.
      const Vec2 surface_b = frame.point + 0.5 * frame.gap * frame.normal;
      const Vec2 surface_a = frame.point - 0.5 * frame.gap * frame.normal;
      if (pair.b.kind == Feature::Kind::Circle) {
        EXPECT_NEAR((surface_b - to_world(pair.body_b, pair.b.point, q)).norm(), pair.b.radius, 1e-12) << name;
      }
      if (pair.a.kind == Feature::Kind::Circle) {
        EXPECT_NEAR((surface_a - to_world(pair.body_a, pair.a.point, q)).norm(), pair.a.radius, 1e-12) << name;
      }
    }
  }
}

/// The two material points that touch, in their bodies' frames: a circle's rim point toward the other
/// body, and the foot of the circle centre on a face (computed here from the definitions, with Eigen's
/// rotation).
std::pair<Vec2, Vec2> touching_points(const FeaturePair& pair, const Vector& q) {
  const ContactFrame frame = feature_pair_frame(pair, q);
  const Vec2 n = frame.normal;
  auto surface = [&](int body, const Feature& f, const Feature& other, int other_body, double toward) {
    if (f.kind == Feature::Kind::Circle) return Vec2(to_world(body, f.point, q) + toward * f.radius * n);
    // The foot of the other circle's centre on the face line.
    const Vec2 c = to_world(other_body, other.point, q);
    const Vec2 p = to_world(body, f.point, q);
    const Vec2 normal = body == kWorld ? f.normal : Vec2(Eigen::Rotation2Dd(q(3 * body + 2)) * f.normal);
    return Vec2(c - normal.dot(c - p) * normal);
  };
  const Vec2 a = surface(pair.body_a, pair.a, pair.b, pair.body_b, 1.0);
  const Vec2 b = surface(pair.body_b, pair.b, pair.a, pair.body_a, -1.0);
  return {to_local(pair.body_a, a, q), to_local(pair.body_b, b, q)};
}

TEST(ContactGeometry, TangentRowsAreTheSlipOfTheTouchingPointsAndMatchFiniteDifferences) {
  std::mt19937 engine(17);
  ConstraintRows row, plus, minus;
  row.resize(1, kDofs);
  plus.resize(1, kDofs);
  minus.resize(1, kDofs);
  const double eps = 1e-6;
  for (int trial = 0; trial < 20; ++trial) {
    for (const auto& [name, pair] : pair_zoo(engine)) {
      Vector q, qd;
      random_state(engine, q, qd);
      feature_pair_tangent_row(pair, q, qd, 0, row);
      EXPECT_EQ(row.phi(0), 0.0);
      // A_t q̇ = T·(ṗ_B − ṗ_A) of the material points that touch, by differences of their positions.
      const auto [local_a, local_b] = touching_points(pair, q);
      const Vec2 rate_a = (to_world(pair.body_a, local_a, q + eps * qd) - to_world(pair.body_a, local_a, q - eps * qd)) / (2 * eps);
      const Vec2 rate_b = (to_world(pair.body_b, local_b, q + eps * qd) - to_world(pair.body_b, local_b, q - eps * qd)) / (2 * eps);
      const double slip = feature_pair_frame(pair, q).tangent.dot(rate_b - rate_a);
      EXPECT_NEAR((row.jacobian * qd)(0), slip, 1e-7 * (1.0 + std::abs(slip))) << name << " trial " << trial;
      // Ȧ_t q̇ = d/dt (A_t(q) q̇) along q + t q̇.
      feature_pair_tangent_row(pair, q + eps * qd, qd, 0, plus);
      feature_pair_tangent_row(pair, q - eps * qd, qd, 0, minus);
      const double numeric = ((plus.jacobian * qd)(0) - (minus.jacobian * qd)(0)) / (2 * eps);
      EXPECT_NEAR(row.adot_qd(0), numeric, 2e-6 * (1.0 + std::abs(numeric))) << name << " trial " << trial;
      for (int j = 0; j < kDofs; ++j) {
        if (j / 3 != pair.body_a && j / 3 != pair.body_b) EXPECT_EQ(row.jacobian(0, j), 0.0) << name;
      }
    }
  }
}

TEST(ContactGeometry, RowsDoNotDependOnTheOrderOfTheBodies) {
  std::mt19937 engine(3);
  ConstraintRows forward, backward;
  forward.resize(2, kDofs);
  backward.resize(2, kDofs);
  for (int trial = 0; trial < 10; ++trial) {
    for (const auto& [name, pair] : pair_zoo(engine)) {
      FeaturePair swapped = pair;
      std::swap(swapped.body_a, swapped.body_b);
      std::swap(swapped.a, swapped.b);
      Vector q, qd;
      random_state(engine, q, qd);
      feature_pair_normal_row(pair, q, qd, 0, forward);
      feature_pair_tangent_row(pair, q, qd, 1, forward);
      feature_pair_normal_row(swapped, q, qd, 0, backward);
      feature_pair_tangent_row(swapped, q, qd, 1, backward);
      // φ, A and Ȧq̇ of both rows are the same; the frame's normal flips.
      EXPECT_NEAR(forward.phi(0), backward.phi(0), 1e-14) << name;
      EXPECT_LT((forward.jacobian - backward.jacobian).cwiseAbs().maxCoeff(), 1e-13) << name;
      EXPECT_NEAR(forward.adot_qd(0), backward.adot_qd(0), 1e-12 * (1 + std::abs(forward.adot_qd(0)))) << name;
      EXPECT_NEAR(forward.adot_qd(1), backward.adot_qd(1), 1e-12 * (1 + std::abs(forward.adot_qd(1)))) << name;
      EXPECT_NEAR((feature_pair_frame(pair, q).normal + feature_pair_frame(swapped, q).normal).norm(), 0.0, 1e-14);
    }
  }
}

TEST(ContactGeometry, FootIsTheFaceCoordinateOfTheCircleCentre) {
  // A circle above face 2 (the top) of a box rotated by 0.3 rad, at face coordinate 0.05.
  const Shape box = box_shape(0.4, 0.2);
  FeaturePair pair;
  pair.body_a = 0;
  pair.body_b = 1;
  pair.a = face_feature(box, 2);
  pair.b = circle_feature(Shape{}, 0);
  const Pose pa{Vec2(1.0, 2.0), 0.3};
  const Vec2 tangent = Eigen::Rotation2Dd(0.3) * Vec2(-1, 0);  // τ = perp(ν) of the top face
  const Vec2 normal = Eigen::Rotation2Dd(0.3) * Vec2(0, 1);
  const Vec2 face_point = pa.position + Eigen::Rotation2Dd(0.3) * Vec2(0, 0.1);
  const Pose pb{face_point + 0.05 * tangent + 0.25 * normal, -1.0};
  EXPECT_NEAR(feature_pair_foot(pair, pa, pb), 0.05, 1e-15);
  EXPECT_NEAR(feature_pair_gap(pair, pa, pb), 0.25 - 0.1, 1e-15);
  FeaturePair cc;
  cc.body_a = 0;
  cc.body_b = 1;
  EXPECT_EQ(feature_pair_foot(cc, pa, pb), 0.0);
}

// --- Model's rows are special cases ----------------------------------------------------------------------

TEST(ContactGeometry, BodyPlaneAndDiskDiskRowsAreModelsRows) {
  // Every shape on a tilted plane, two disks and a disk with a point, all sticking: the model's rows and
  // the pairs (world plane face, body circle) and (circle, circle) agree.
  Scenario s;
  s.bodies.push_back(testing::disk("disk", 1.0, 0.2, Vec2(0.1, 0.5)));
  BodyDef box = testing::make_body("box", Shape::Type::Box, 2.0, Vec2(1.0, 0.7), 0.4);
  box.shape = box_shape(0.4, 0.25);
  s.bodies.push_back(box);
  BodyDef rod = testing::make_body("rod", Shape::Type::Rod, 0.7, Vec2(-0.8, 1.1), -0.3);
  rod.shape = rod_shape(0.9, 0.05);
  s.bodies.push_back(rod);
  BodyDef wheel = testing::make_body("wheel", Shape::Type::Wheel, 1.5, Vec2(2.0, 1.0), 0.2);
  wheel.shape.radius = 0.5;
  wheel.shape.spokes = 5;
  s.bodies.push_back(wheel);
  s.bodies.push_back(testing::disk("disk2", 0.5, 0.15, Vec2(0.6, 0.3)));
  s.bodies.push_back(testing::make_body("point", Shape::Type::Point, 0.3, Vec2(0.4, 1.6)));
  s.planes.push_back(testing::plane(Vec2(0.0, -0.2), Vec2(0.2, 1.0)));
  for (int b = 0; b < 4; ++b) s.contacts.push_back(testing::body_plane(b, 0, std::nullopt, true));
  ContactDef dd = testing::disk_disk(0, 4);
  dd.stick = true;
  s.contacts.push_back(dd);
  s.contacts.push_back(testing::disk_disk(5, 0));
  const Model model(s);
  const Feature plane = plane_feature(s.planes[0], 0);

  std::mt19937 engine(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  const int n = model.dofs();
  ConstraintRows expected, actual;
  expected.resize(2, n);
  actual.resize(2, n);
  for (int trial = 0; trial < 10; ++trial) {
    Vector q(n), qd(n);
    for (int i = 0; i < n; ++i) {
      q(i) = normal(engine);
      qd(i) = normal(engine);
    }
    for (int k = 0; k < model.contact_point_count(); ++k) {
      const ContactFeature& c = model.contact_points()[static_cast<std::size_t>(k)];
      FeaturePair pair;
      if (c.type == ContactDef::Type::BodyPlane) {
        pair.body_a = kWorld;
        pair.a = plane;
        pair.body_b = c.body_a;
        pair.b = circle_feature(s.bodies[static_cast<std::size_t>(c.body_a)].shape, c.feature);
      } else {
        pair.body_a = c.body_a;
        pair.a = circle_feature(s.bodies[static_cast<std::size_t>(c.body_a)].shape, 0);
        pair.body_b = c.body_b;
        pair.b = circle_feature(s.bodies[static_cast<std::size_t>(c.body_b)].shape, 0);
      }
      model.contact_normal_row(k, q, qd, 0, expected);
      feature_pair_normal_row(pair, q, qd, 0, actual);
      model.contact_tangent_row(k, q, qd, 1, expected);
      feature_pair_tangent_row(pair, q, qd, 1, actual);
      const std::string name = "contact point " + std::to_string(k);
      EXPECT_NEAR(actual.phi(0), expected.phi(0), 1e-14) << name;
      EXPECT_LT((actual.jacobian - expected.jacobian).cwiseAbs().maxCoeff(), 1e-14) << name;
      EXPECT_NEAR(actual.adot_qd(0), expected.adot_qd(0), 1e-13 * (1 + std::abs(expected.adot_qd(0)))) << name;
      EXPECT_NEAR(actual.adot_qd(1), expected.adot_qd(1), 1e-13 * (1 + std::abs(expected.adot_qd(1)))) << name;
      // The frame's normal is the model's: the plane normal (world → body), and from disk a to disk b.
      EXPECT_NEAR((feature_pair_frame(pair, q).normal - model.contact_frame(k, q).normal).norm(), 0.0, 1e-14) << name;
    }
  }
}

}  // namespace
}  // namespace oblique

// Constraint rows written straight into compressed rows (the simulator's sparse path) against the same rows
// written densely and converted by to_sparse: the same pattern (which fixes the Delassus ordering) and the
// same bits, on random scenes of every body shape, joint type and contact kind, and on feature pairs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "oblique/geometry/contact_geometry.hpp"
#include "oblique/model/model.hpp"
#include "oblique/sparse/sparse_rows.hpp"
#include "scenario_builders.hpp"
#include "comparisons.hpp"

namespace oblique {
namespace {

using testing::body_plane;
using testing::disk_disk;
using testing::joint;
using testing::make_body;
using testing::plane;
using testing::rope;

using testing::same_bits;

/// Pattern and values of two compressed matrices, bit for bit.
void expect_identical_rows(const SparseJacobian& expected, const SparseJacobian& actual,
                           const std::string& where) {
  ASSERT_EQ(expected.rows(), actual.rows()) << where;
  ASSERT_EQ(expected.cols(), actual.cols()) << where;
  ASSERT_EQ(expected.nonZeros(), actual.nonZeros()) << where;
  ASSERT_TRUE(actual.isCompressed()) << where;
  for (Eigen::Index i = 0; i <= expected.rows(); ++i) {
    ASSERT_EQ(expected.outerIndexPtr()[i], actual.outerIndexPtr()[i]) << where << ": row " << i;
  }
  for (Eigen::Index k = 0; k < expected.nonZeros(); ++k) {
    ASSERT_EQ(expected.innerIndexPtr()[k], actual.innerIndexPtr()[k]) << where << ": entry " << k;
  }
  EXPECT_TRUE(same_bits(expected.valuePtr(), actual.valuePtr(), expected.nonZeros())) << where;
}

/// Bodies of every shape at random poses, a quarter of them at angle 0 (exact zeros in their rows), joined by
/// joints of every type, on a level floor and a tilted plane, with disk–disk contacts and ropes.
Scenario random_rows_scene(std::mt19937& engine) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> shape_of(0, 4);
  Scenario s;
  const int bodies = 8;
  std::vector<int> disks;
  for (int b = 0; b < bodies; ++b) {
    const Vec2 position(1.5 * b + 0.2 * unit(engine), 2.0 + unit(engine));
    const double angle = b % 4 == 0 ? 0.0 : 3.0 * unit(engine);
    BodyDef body = make_body("b" + std::to_string(b), Shape::Type::Disk, 1.0 + unit(engine) * 0.5, position,
                             angle, Vec2(unit(engine), unit(engine)), 2.0 * unit(engine));
    switch (shape_of(engine)) {
      case 0: body.shape.radius = 0.2 + 0.1 * unit(engine); disks.push_back(b); break;
      case 1: body.shape.type = Shape::Type::Box; body.shape.width = 0.5; body.shape.height = 0.3; break;
      case 2:
        body.shape.type = Shape::Type::Rod;
        body.shape.length = 0.9;
        body.shape.radius = b % 2 ? 0.05 : 0.0;
        break;
      case 3: body.shape.type = Shape::Type::Point; body.shape.radius = 0.03; disks.push_back(b); break;
      default: body.shape.type = Shape::Type::Wheel; body.shape.radius = 0.4; body.shape.spokes = 5; break;
    }
    s.bodies.push_back(body);
  }
  s.planes.push_back(plane(Vec2(0.0, 0.0), Vec2(0.0, 1.0)));
  s.planes.push_back(plane(Vec2(0.0, -0.5), Vec2(0.3, 1.0)));
  // Joints of every type between neighbours and to the world, anchors sometimes on a body axis.
  const JointDef::Type types[] = {JointDef::Type::Pin, JointDef::Type::Distance, JointDef::Type::Slider,
                                  JointDef::Type::Weld};
  for (int b = 0; b + 1 < bodies; ++b) {
    const Vec2 anchor_a = b % 3 == 0 ? Vec2(0.1, 0.0) : Vec2(0.1 * unit(engine), 0.1 * unit(engine));
    const int a = b % 5 == 4 ? kWorld : b;
    const Vec2 world_anchor = s.bodies[static_cast<std::size_t>(b)].position + Vec2(0.0, 1.0);
    const Vec2 anchor_b(0.05 * unit(engine), 0.0);
    JointDef j = joint(types[b % 4], a, a == kWorld ? world_anchor : anchor_a, b + 1, anchor_b);
    if (j.type == JointDef::Type::Slider) {
      j.axis = b % 2 ? Vec2(1.0, 0.0) : Vec2(unit(engine), 1.0).normalized();
    }
    s.joints.push_back(j);
  }
  // Every body on both planes (sticking on the floor), disk–disk contacts, a rope to the world and one
  // between bodies.
  for (int b = 0; b < bodies; ++b) {
    s.contacts.push_back(body_plane(b, 0, std::nullopt, true));
    s.contacts.push_back(body_plane(b, 1));
  }
  for (std::size_t k = 0; k + 1 < disks.size(); ++k) {
    ContactDef c = disk_disk(disks[k], disks[k + 1]);
    c.stick = k % 2 == 0;
    s.contacts.push_back(c);
  }
  s.contacts.push_back(rope(kWorld, Vec2(0.0, 6.0), 0, Vec2(0.02, 0.01), 4.5));
  s.contacts.push_back(rope(1, Vec2(0.0, 0.0), bodies - 1, Vec2(0.02, 0.01), 12.0));
  return s;
}

/// Feature pairs of circles against circles and faces of other bodies and against the floor.
std::vector<FeaturePair> feature_pairs(const Scenario& s) {
  std::vector<FeaturePair> pairs;
  const int bodies = static_cast<int>(s.bodies.size());
  for (int a = 0; a < bodies; ++a) {
    const Shape& shape_a = s.bodies[static_cast<std::size_t>(a)].shape;
    for (int k = 0; k < circle_count(shape_a); ++k) {
      FeaturePair floor{kWorld, a, plane_feature(s.planes[0], 0), circle_feature(shape_a, k)};
      pairs.push_back(floor);
      const int b = (a + 1) % bodies;
      const Shape& shape_b = s.bodies[static_cast<std::size_t>(b)].shape;
      pairs.push_back({a, b, circle_feature(shape_a, k), circle_feature(shape_b, 0)});
      if (face_count(shape_b) > 0) {
        pairs.push_back({a, b, circle_feature(shape_a, k), face_feature(shape_b, k % face_count(shape_b))});
        pairs.push_back({b, a, face_feature(shape_b, 0), circle_feature(shape_a, k)});
      }
    }
  }
  return pairs;
}

/// [every joint; per contact point its normal and tangential row; per feature pair the same], written by the
/// model and contact_geometry into `out` (sized by the caller); returns the number of rows.
int write_rows(const Model& model, const std::vector<FeaturePair>& pairs, const Vector& q, const Vector& qd,
               ConstraintRows& out) {
  model.all_joint_rows(q, qd, 0, out);
  int row = model.joint_row_total();
  for (int k = 0; k < model.contact_point_count(); ++k) {
    model.contact_normal_row(k, q, qd, row++, out);
    // A rope has no tangential row (no friction).
    if (model.contact_points()[static_cast<std::size_t>(k)].type == ContactDef::Type::Rope) continue;
    model.contact_tangent_row(k, q, qd, row++, out);
  }
  for (const FeaturePair& pair : pairs) {
    feature_pair_normal_row(pair, q, qd, row++, out);
    feature_pair_tangent_row(pair, q, qd, row++, out);
  }
  return row;
}

/// The number of rows write_rows writes for a random_rows_scene (its two ropes have no tangential row).
int row_count(const Model& model, const std::vector<FeaturePair>& pairs) {
  const int ropes = 2;
  return model.joint_row_total() + 2 * model.contact_point_count() - ropes + 2 * static_cast<int>(pairs.size());
}

/// A random_rows_scene with its model and feature pairs, and the m × n size of the rows write_rows writes.
struct RowsScene {
  explicit RowsScene(std::mt19937& engine)
      : scenario(random_rows_scene(engine)), model(scenario), pairs(feature_pairs(scenario)), m(row_count(model, pairs)),
        n(model.dofs()) {}
  Scenario scenario;
  Model model;
  std::vector<FeaturePair> pairs;
  int m, n;
};

TEST(SparseAssembly, DirectAssemblyIsToSparseOfTheDenseRowsBitForBit) {
  std::mt19937 engine(20261127);
  std::normal_distribution<double> normal(0.0, 0.3);
  long zeros_left_out = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const RowsScene scene(engine);
    const Model& model = scene.model;
    const std::vector<FeaturePair>& pairs = scene.pairs;
    const int m = scene.m, n = scene.n;
    // At the initial state and at a perturbed one (every angle non-zero).
    Vector q = model.initial_positions(), qd = model.initial_velocities();
    for (int state = 0; state < 2; ++state) {
      const std::string where = "trial " + std::to_string(trial) + ", state " + std::to_string(state);
      ConstraintRows dense, sparse;
      dense.resize(m, n);
      ASSERT_EQ(write_rows(model, pairs, q, qd, dense), m);
      sparse.resize_sparse(m, n);
      write_rows(model, pairs, q, qd, sparse);
      SparseRowsBuilder keeping = sparse.sparse_rows;
      zeros_left_out += keeping.finish(SparseRowsBuilder::Zeros::Keep).nonZeros();
      const SparseJacobian& direct = sparse.finish_sparse();
      zeros_left_out -= direct.nonZeros();
      const SparseJacobian converted = to_sparse(dense.jacobian);
      expect_identical_rows(converted, direct, where);
      EXPECT_TRUE(same_bits(dense.phi.data(), sparse.phi.data(), m)) << where;
      EXPECT_TRUE(same_bits(dense.adot_qd.data(), sparse.adot_qd.data(), m)) << where;
      // Made dense again where a dense consumer needs it: the same matrix, bit for bit.
      const Matrix& again = sparse.dense_jacobian();
      ASSERT_EQ(again.rows(), m);
      ASSERT_EQ(again.cols(), n);
      EXPECT_TRUE(same_bits(dense.jacobian.data(), again.data(), again.size())) << where;
      for (int i = 0; i < n; ++i) {
        q(i) += normal(engine);
        qd(i) += normal(engine);
      }
    }
  }
  // The scenes do write exact zeros (a disk's angle column, an anchor on a body axis, a level floor).
  EXPECT_GT(zeros_left_out, 100);
}

TEST(SparseAssembly, EntriesThatSumToZeroAreLeftOutAsToSparseLeavesThem) {
  // Sums in the order the entries came: 0.1 + 0.2 − 0.3 is not zero, 1 − 1 is, and so is −0; NaN stays.
  SparseRowsBuilder builder;
  builder.start(5);
  Matrix dense = Matrix::Zero(3, 5);
  auto add = [&](int row, int col, double value) {
    builder.add(col, value);
    dense(row, col) += value;
  };
  builder.new_row();
  add(0, 3, 0.1);
  add(0, 1, 1.0);
  add(0, 3, 0.2);
  add(0, 1, -1.0);
  add(0, 3, -0.3);
  add(0, 4, -0.0);
  builder.new_row();
  add(1, 0, 2.0);
  add(1, 0, -2.0);
  builder.new_row();
  add(2, 2, std::nan(""));
  add(2, 0, 0.0);
  add(2, 4, 5.0);
  const SparseJacobian& a = builder.finish(SparseRowsBuilder::Zeros::Drop);
  EXPECT_EQ(a.nonZeros(), 3);
  EXPECT_EQ(a.outerIndexPtr()[1], 1);  // row 0: column 3 only
  EXPECT_EQ(a.outerIndexPtr()[2], 1);  // row 1: empty
  const SparseJacobian b = to_sparse(dense);
  ASSERT_EQ(b.nonZeros(), a.nonZeros());
  EXPECT_TRUE(std::equal(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros(), b.innerIndexPtr()));
  EXPECT_TRUE(std::equal(a.outerIndexPtr(), a.outerIndexPtr() + a.rows() + 1, b.outerIndexPtr()));
  EXPECT_EQ(a.valuePtr()[0], (0.1 + 0.2) - 0.3);
  EXPECT_TRUE(std::isnan(a.valuePtr()[1]));
  EXPECT_EQ(a.valuePtr()[2], 5.0);
}

TEST(SparseAssembly, ReassemblingTheSameRowsRefillsTheStoredMatrixBitForBit) {
  // One ConstraintRows reused from state to state, as the simulator reuses its buffers, against a fresh
  // conversion of the dense rows at each state. Every third state puts a body at angle 0, so exact zeros
  // come and go and the pattern changes; the others keep it and refill.
  std::mt19937 engine(20261129);
  std::normal_distribution<double> normal(0.0, 0.3);
  int refills = 0, compressions = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const RowsScene scene(engine);
    const Model& model = scene.model;
    const std::vector<FeaturePair>& pairs = scene.pairs;
    const int m = scene.m, n = scene.n;
    Vector q = model.initial_positions(), qd = model.initial_velocities();
    ConstraintRows reused;
    for (int state = 0; state < 12; ++state) {
      const std::string where = "trial " + std::to_string(trial) + ", state " + std::to_string(state);
      if (state % 3 == 2) q(3 * (state % model.body_count()) + 2) = 0.0;
      ConstraintRows dense;
      dense.resize(m, n);
      write_rows(model, pairs, q, qd, dense);
      reused.resize_sparse(m, n);
      write_rows(model, pairs, q, qd, reused);
      expect_identical_rows(to_sparse(dense.jacobian), reused.finish_sparse(), where);
      (reused.sparse_rows.refilled() ? refills : compressions) += 1;
      // A copy carries the pattern along and refills as the original would.
      ConstraintRows copy;
      copy.assign(reused);
      copy.resize_sparse(m, n);
      write_rows(model, pairs, q, qd, copy);
      expect_identical_rows(to_sparse(dense.jacobian), copy.finish_sparse(), where + ", copy");
      EXPECT_TRUE(copy.sparse_rows.refilled()) << where;
      for (int i = 0; i < n; ++i) {
        q(i) += normal(engine);
        qd(i) += 0.1 * normal(engine);
      }
    }
  }
  // States 1, 4, 7 and 10 of each trial keep the previous state's pattern.
  EXPECT_GE(refills, 30);
  EXPECT_GE(compressions, 30);
}

TEST(SparseAssembly, RefillMatchesAFullCompressionOnRandomPatterns) {
  // Rows with repeated columns whose terms are drawn from a few values, so that sums of exactly zero (and
  // −0) are common; the pattern is kept for several rounds and then changed (a column moved, an entry
  // added or removed, the other Zeros rule). A fresh builder compresses the same entries each round.
  std::mt19937 engine(29112026);
  std::uniform_int_distribution<int> column_of(0, 5), count_of(0, 4), pick(0, 6), chance(0, 9);
  const double values[] = {1.0, -1.0, 0.5, -0.5, 0.0, -0.0, 0.1};
  std::uniform_real_distribution<double> uniform(-2.0, 2.0);
  SparseRowsBuilder reused;
  std::vector<std::vector<int>> pattern;
  SparseRowsBuilder::Zeros zeros = SparseRowsBuilder::Zeros::Drop;
  int refills = 0, compressions = 0;
  for (int round = 0; round < 20000; ++round) {
    // A new pattern every few rounds.
    if (round % 5 == 0) {
      pattern.assign(static_cast<std::size_t>(1 + count_of(engine)), {});
      for (std::vector<int>& row : pattern) {
        row.resize(static_cast<std::size_t>(count_of(engine)));
        for (int& col : row) col = column_of(engine);
      }
      if (chance(engine) < 3) {
        zeros = zeros == SparseRowsBuilder::Zeros::Drop ? SparseRowsBuilder::Zeros::Keep
                                                         : SparseRowsBuilder::Zeros::Drop;
      }
    }
    SparseRowsBuilder fresh;
    reused.start(6);
    fresh.start(6);
    for (const std::vector<int>& row : pattern) {
      reused.new_row();
      fresh.new_row();
      for (int col : row) {
        // Mostly a few exact values (sums of zero), sometimes any value.
        const int k = pick(engine);
        const double value = k == 6 ? uniform(engine) : values[k];
        reused.add(col, value);
        fresh.add(col, value);
      }
    }
    const SparseJacobian& expected = fresh.finish(zeros);
    expect_identical_rows(expected, reused.finish(zeros), "round " + std::to_string(round));
    (reused.refilled() ? refills : compressions) += 1;
  }
  EXPECT_GT(refills, 2000);
  EXPECT_GT(compressions, 4000);
}

TEST(SparseAssembly, RowsOutOfOrderAreRefused) {
  ConstraintRows rows;
  rows.resize_sparse(2, 3);
  rows.start_row(0);
  EXPECT_THROW(rows.start_row(0), std::logic_error);
}

}  // namespace
}  // namespace oblique

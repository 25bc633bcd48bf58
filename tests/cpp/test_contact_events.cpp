// Contacts that come and go inside a step ("collide": "all"; simulator.hpp, "The active set" and "Automatic
// contacts"): a corner that the spin of an impact brings round onto the face of its neighbour is located
// where it closes, as any gap is, so that no body ever overlaps another beyond the gap tolerance (measured
// here by separating axes on the boxes themselves, not by the simulator's points); a corner that slides off
// the end of its face leaves the active set at the instant it does, so that no active point is ever apart;
// a restored state cannot put an apart point in the active set; and the budget and a restore change none of
// it. Short runs: these run in the sanitized suite too, where the simulator checks its active set after
// every committed step (contact_set_violation) and aborts on a violation.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "oblique/simulation/simulator.hpp"
#include "scenario_builders.hpp"
#include "comparisons.hpp"

namespace oblique {
namespace {

using testing::box;

/// Three 0.1 m boxes side by side, exactly touching, without gravity; the left one moves into the others at
/// 1 m/s and the right one is turned by 1e-7 rad, so that the impact spins the middle and right boxes and
/// brings the middle box's lower corner into the right box within the first step.
Scenario three_boxes(double e) {
  Scenario s;
  s.collide_all = true;
  s.gravity = Vec2::Zero();
  s.restitution = e;
  s.bodies.push_back(box("left", 1.0, 0.1, 0.1, Vec2(-0.1, 0.0), 0.0, Vec2(1.0, 0.0)));
  s.bodies.push_back(box("middle", 1.0, 0.1, 0.1, Vec2(0.0, 0.0)));
  s.bodies.push_back(box("right", 1.0, 0.1, 0.1, Vec2(0.1, 0.0), 1e-7));
  return s;
}

/// A block sliding at 1 m/s on a long heavy table that stands on the floor, off the table's edge.
Scenario block_off_a_table(double mu) {
  Scenario s;
  s.collide_all = true;
  s.restitution = 0.0;
  s.mu = mu;
  s.planes.push_back(testing::plane(Vec2::Zero(), Vec2(0.0, 1.0)));
  s.bodies.push_back(box("table", 100.0, 1.0, 0.2, Vec2(0.0, 0.1)));
  s.bodies.push_back(box("block", 1.0, 0.1, 0.1, Vec2(0.4, 0.25), 0.0, Vec2(1.0, 0.0)));
  return s;
}

/// The corners of a box body at q.
std::array<Vec2, 4> corners(const Scenario& s, const Vector& q, int body) {
  const Shape& shape = s.bodies[static_cast<std::size_t>(body)].shape;
  const double c = std::cos(q(3 * body + 2)), sn = std::sin(q(3 * body + 2));
  const Vec2 centre(q(3 * body), q(3 * body + 1));
  std::array<Vec2, 4> out;
  const double w = 0.5 * shape.width, h = 0.5 * shape.height;
  const Vec2 local[4] = {Vec2(-w, -h), Vec2(w, -h), Vec2(w, h), Vec2(-w, h)};
  for (int k = 0; k < 4; ++k) out[static_cast<std::size_t>(k)] = centre + Vec2(c * local[k].x() - sn * local[k].y(), sn * local[k].x() + c * local[k].y());
  return out;
}

/// How deep two convex polygons overlap (the least overlap of their projections on the edge normals of
/// both: positive when they overlap, the separation negated when apart).
double overlap(const std::array<Vec2, 4>& p, const std::array<Vec2, 4>& r) {
  double least = std::numeric_limits<double>::infinity();
  for (const std::array<Vec2, 4>* polygon : {&p, &r}) {
    for (std::size_t i = 0; i < 4; ++i) {
      const Vec2 edge = (*polygon)[(i + 1) % 4] - (*polygon)[i];
      const Vec2 axis = Vec2(edge.y(), -edge.x()).normalized();
      double p_lo = std::numeric_limits<double>::infinity(), p_hi = -p_lo, r_lo = p_lo, r_hi = -p_lo;
      for (const Vec2& v : p) p_lo = std::min(p_lo, axis.dot(v)), p_hi = std::max(p_hi, axis.dot(v));
      for (const Vec2& v : r) r_lo = std::min(r_lo, axis.dot(v)), r_hi = std::max(r_hi, axis.dot(v));
      least = std::min(least, std::min(p_hi, r_hi) - std::max(p_lo, r_lo));
    }
  }
  return least;
}

/// The deepest overlap of two boxes of `s` over every committed or shown state of a run to `until` in
/// calls of `dt`, and the time it was seen.
struct Deepest {
  double depth = -std::numeric_limits<double>::infinity();
  double time = 0.0;
};
Deepest deepest_overlap(const Scenario& s, double until, double dt, Simulator* run = nullptr) {
  Simulator own(s);
  Simulator& sim = run ? *run : own;
  Deepest out;
  for (int k = 1; k * dt <= until + 1e-12; ++k) {
    do sim.advance_to(k * dt); while (sim.work_limit_hit());
    const Vector& q = sim.positions();
    for (int a = 0; a < static_cast<int>(s.bodies.size()); ++a) {
      for (int b = a + 1; b < static_cast<int>(s.bodies.size()); ++b) {
        const double depth = overlap(corners(s, q, a), corners(s, q, b));
        if (depth > out.depth) out = {depth, sim.time()};
      }
    }
  }
  return out;
}

TEST(ContactEvents, ACornerThatAnImpactSpinsIntoItsNeighbourIsLocatedWhereItCloses) {
  // The first impact (t = 0) spins the middle box one way and the right one the other, so the middle box's
  // lower right corner and the right box's lower left one close at 1.2 m/s: unlocated, they overlap by
  // about 1.2 mm at the end of the first step (t = 1 ms) before an impact separates them there. Located,
  // the boxes never overlap by more than the 1e-7 rad turn makes them at the start (5e-9 m).
  for (double e : {0.0, 0.5, 1.0}) {
    const Scenario s = three_boxes(e);
    Simulator sim(s);
    const Deepest deepest = deepest_overlap(s, 0.05, 1e-4, &sim);
    EXPECT_LT(deepest.depth, 1e-8) << "e = " << e << ": overlap at t = " << deepest.time;
    // Every impact is located where its contact closes: none waits for the end of a step.
    for (const ImpactRecord& record : sim.impacts()) {
      const double steps = record.time / s.integrator.step;
      EXPECT_TRUE(record.time < 1e-6 || std::abs(steps - std::round(steps)) > 1e-6) << "e = " << e << ": t = " << record.time;
    }
    // No external force: momentum is kept (x, y and about the origin).
    const Vector& q = sim.positions();
    const Vector& qd = sim.velocities();
    double px = 0.0, py = 0.0, angular = 0.0;
    for (std::size_t b = 0; b < s.bodies.size(); ++b) {
      const int i = 3 * static_cast<int>(b);
      const double m = s.bodies[b].mass, inertia = m * (0.01 + 0.01) / 12.0;
      px += m * qd(i);
      py += m * qd(i + 1);
      angular += m * (q(i) * qd(i + 1) - q(i + 1) * qd(i)) + inertia * qd(i + 2);
    }
    EXPECT_NEAR(px, 1.0, 1e-12) << "e = " << e;
    EXPECT_NEAR(py, 0.0, 1e-12) << "e = " << e;
    EXPECT_NEAR(angular, 0.0, 1e-12) << "e = " << e;
    // No impact creates energy.
    for (const ImpactRecord& record : sim.impacts()) EXPECT_LE(record.result.kinetic_plus, record.result.kinetic_minus * (1.0 + 1e-12));
  }
}

TEST(ContactEvents, AStackWithATiltedMiddleBoxClosesItsGapWhereItCloses) {
  // Three boxes stacked on the floor, the middle one turned by 1e-7 rad: gravity tips it onto its other
  // corner after about 41 µs, and the box above follows at 45 µs; nothing overlaps meanwhile.
  Scenario s;
  s.collide_all = true;
  s.restitution = 0.0;
  s.planes.push_back(testing::plane(Vec2::Zero(), Vec2(0.0, 1.0)));
  s.bodies.push_back(box("bottom", 1.0, 0.1, 0.1, Vec2(0.0, 0.05)));
  s.bodies.push_back(box("middle", 1.0, 0.1, 0.1, Vec2(0.0, 0.15), 1e-7));
  s.bodies.push_back(box("top", 1.0, 0.1, 0.1, Vec2(0.0, 0.25)));
  Simulator sim(s);
  const Deepest deepest = deepest_overlap(s, 0.01, 1e-4, &sim);
  EXPECT_LT(deepest.depth, 1e-8) << "overlap at t = " << deepest.time;
  ASSERT_FALSE(sim.impacts().empty());
  EXPECT_LT(sim.impacts().front().time, 1e-4);
}

TEST(ContactEvents, ACornerSlidingOffItsFaceLeavesTheActiveSetWhereItLeavesIt) {
  // The block's leading lower corner leaves the table's top face at t ≈ 0.05 s: from then its row, which
  // measures the distance to the face's line, would hold the block up by a corner that no longer touches
  // anything. At every committed and shown state each active point touches, and the block, tipping over the
  // edge, never sinks into the table.
  for (double mu : {0.0, 0.2}) {
    const Scenario s = block_off_a_table(mu);
    Simulator sim(s);
    for (int k = 1; k <= 400; ++k) {
      do sim.advance_to(k * 5e-4); while (sim.work_limit_hit());
      EXPECT_EQ(sim.contact_set_violation(), "") << "mu = " << mu;
      for (int p = 0; p < sim.contact_point_count(); ++p) {
        const ContactPoint& point = sim.contact_points()[static_cast<std::size_t>(p)];
        if (point.state == ContactState::Active) EXPECT_LE(point.gap, sim.gap_tolerance(p)) << "mu = " << mu << ", t = " << sim.time();
      }
      const double depth = overlap(corners(s, sim.positions(), 0), corners(s, sim.positions(), 1));
      EXPECT_LT(depth, 1e-8) << "mu = " << mu << ", t = " << sim.time();
      if (::testing::Test::HasFailure()) return;
    }
    // It went over the edge: the block's centre is past the table's end and below its top.
    EXPECT_GT(sim.positions()(3), 0.5) << "mu = " << mu;
  }
}

TEST(ContactEvents, ARestoredStateCannotPutAnApartPointInTheActiveSet) {
  const Scenario s = block_off_a_table(0.0);
  Simulator sim(s);
  do sim.advance_to(0.02); while (sim.work_limit_hit());
  SimulationState state = sim.save_state();
  // A point of the block (body 1) on the table (body 0) is active; lift the block by 1 mm and restore.
  std::size_t k = state.active.size();
  for (std::size_t p = 0; p < state.active.size(); ++p) {
    const ContactPoint& point = sim.contact_points()[p];
    if (state.active[p] && point.body_a == 0 && point.body_b == 1) {
      k = p;
      break;
    }
  }
  ASSERT_LT(k, state.active.size());
  state.q(4) += 1e-3;
  const Vector before = sim.positions();
  try {
    sim.restore_state(state);
    FAIL() << "restored a state whose active point is 1 mm apart";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("state.active[" + std::to_string(k) + "]: ", 0), 0u) << message;
    EXPECT_NE(message.find("does not touch"), std::string::npos) << message;
  }
  // Nothing changed.
  EXPECT_EQ(sim.positions(), before);
  EXPECT_EQ(sim.contact_set_violation(), "");
}

/// Everything a run shows after each call, and the impacts it logs meanwhile, as doubles (compared bit for
/// bit). A restored simulator's log holds only what it logged itself.
std::vector<double> observe_run(Simulator& sim, double budget, double until, double dt) {
  sim.set_work_budget(budget);
  const std::size_t logged_before = sim.impacts().size();
  std::vector<double> out;
  for (int k = 1; k * dt <= until + 1e-12; ++k) {
    do sim.advance_to(k * dt); while (sim.work_limit_hit());
    out.push_back(sim.time());
    out.insert(out.end(), sim.positions().data(), sim.positions().data() + sim.positions().size());
    out.insert(out.end(), sim.velocities().data(), sim.velocities().data() + sim.velocities().size());
    for (const ContactPoint& p : sim.contact_points()) out.insert(out.end(), {p.gap, p.multiplier, static_cast<double>(p.state)});
  }
  for (std::size_t i = logged_before; i < sim.impacts().size(); ++i) {
    const ImpactRecord& record = sim.impacts()[i];
    out.push_back(record.time);
    out.insert(out.end(), record.result.qd_plus.data(), record.result.qd_plus.data() + record.result.qd_plus.size());
  }
  return out;
}

using testing::same_bits;

TEST(ContactEvents, TheBudgetAndARestoreChangeNothing) {
  // The contacts found inside a step are a function of the state: calls that stop after every evaluation,
  // and a run restored half-way, give the same bits as calls that never stop.
  for (const Scenario& s : {three_boxes(0.5), block_off_a_table(0.2)}) {
    Simulator whole(s), sliced(s);
    const std::vector<double> reference = observe_run(whole, std::numeric_limits<double>::max(), 0.06, 1.0 / 600);
    EXPECT_TRUE(same_bits(observe_run(sliced, 1.0, 0.06, 1.0 / 600), reference));
    // Restored at t = 0.03 s (between grid points) from a run that went there, the rest is the same.
    Simulator lead(s);
    do lead.advance_to(0.03 + 1e-4 / 3); while (lead.work_limit_hit());
    const SimulationState middle = lead.save_state();
    Simulator restored(s), straight(s);
    restored.restore_state(middle);
    do straight.advance_to(0.03 + 1e-4 / 3); while (straight.work_limit_hit());
    EXPECT_TRUE(same_bits(observe_run(restored, kWorkBudgetFlops, 0.06, 1.0 / 600),
                          observe_run(straight, kWorkBudgetFlops, 0.06, 1.0 / 600)));
  }
}

}  // namespace
}  // namespace oblique

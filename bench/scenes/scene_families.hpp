// The scene families of the scaling benchmarks, at any size: one set of scenarios shared by the benchmarks
// (native, wasm and Box2D), the tests and the CLI (build/native/oblique_scenes writes them as scenario
// documents), in the spirit of Box2D v3's shared/ folder. They live with the benchmarks because that is
// what they are for; tests and tools link the same library (CMake target oblique_scenes).
//
// Every family starts just before its first impact, so that a short benchmark window already holds the
// hard part (impacts and resting contact), and is built from exact arithmetic and the portable cos/sin, so
// that native and wasm builds build the same bits:
//
//   row      a striker (disk) at 1 m/s, 1 mm from a row of n − 1 touching disks resting on a floor (e = 0.9):
//            simultaneous impacts through the row, then sliding and further collisions;
//   chain    n rods (0.2 m, end radius 2 cm) pinned end to end, tilted by 0.05 rad, falling at 1 m/s with
//            the low end 5 mm above a floor (e = 0.5): links land one after another; with both ends of
//            neighbouring rods at each pin, the contact rows of a pin are redundant (A rank-deficient);
//   column   n disks stacked with 1 cm gaps, the lowest 1 cm above a floor, falling at 1 m/s (as if dropped
//            from 5 cm; e = 0.8): the bounce of each disk meets the next, up the column;
//   channel  n disks falling at 1 m/s down a vertical channel 1.5 diameters wide, alternately against the
//            left and the right wall with 1 cm gaps (e = 0.5): they pile up in a zigzag, each disk resting
//            on a wall and the disk below.
//
// Three more scenes are not scaling families but whole runs that the bench and the peers' comparison share
// with the tests (bench/README.md, "Whole runs"):
//
//   pile     n disks poured into a bin (e = 0.5, frictionless): rows of disks with 1 cm gaps, every other
//            row shifted by a radius so that each disk lands between two below it, falling at 1 m/s, the
//            lowest row 1 cm above the floor. No contact is declared ("collide": "all"): the simulator finds
//            every disk–disk and disk–wall pair itself, up to kMaxBodies disks. They land, bounce and pile up;
//   pile_mu  the same pile with Coulomb friction μ = 0.5 on every contact;
//   ball     one disk dropped from rest with its lowest point h = 1 m above a floor (e = 0.8): the apex
//            after bounce k is h·e^(2k), the closed form the peers' error is read against.
//
// Disks have radius 0.1 m and mass 1 kg; the integrator uses the scenario defaults (1 ms steps). Only the
// contacts that can occur are declared: in the row and the column the bodies keep their order along a line;
// in the channel (narrower than two diameters) disk i + 1 stays between disks i and i + 2, so only
// neighbours touch, and only the lowest disk can reach the floor. Sizes: row 2n − 1 contacts, chain n
// contacts (2n points) and n − 1 pins, column n contacts, channel 3n contacts. The pile declares none.
#pragma once

#include <string>
#include <vector>

#include "oblique/scenario/scenario.hpp"

namespace oblique::scenes {

enum class Family { Row, Chain, Column, Channel, Pile, PileMu, Ball };

/// The scaling families (row, chain, column, channel), in report order: the ones measured at every size.
const std::vector<Family>& all_families();
/// Every scene of this file, the scaling families first, then pile, pile_mu and ball.
const std::vector<Family>& every_scene();
/// "row", "chain", "column", "channel", "pile", "pile_mu", "ball".
const char* name(Family family);
/// The family of a name; throws std::invalid_argument naming "family" for an unknown one.
Family family_from_name(const std::string& name);

/// Largest family scene with declared contacts: 64 bodies, the most whose declared contacts (3 per body for
/// a channel) stay within kMaxContacts.
inline constexpr int kMaxSceneBodies = 64;
/// Restitution and μ of the piles, and the height the ball is dropped from (its lowest point above the floor).
inline constexpr double kPileRestitution = 0.5;
inline constexpr double kPileFriction = 0.5;
inline constexpr double kBallHeight = 1.0;
inline constexpr double kBallRestitution = 0.8;
/// Smallest and largest number of bodies of `family`'s scenes: 2..kMaxSceneBodies for the scaling families,
/// 2..kMaxBodies for the piles (no declared contact), 1..1 for the ball.
int min_bodies(Family family);
int max_bodies(Family family);
/// The scene of `family` with `bodies` bodies; throws std::invalid_argument naming "bodies" outside
/// min_bodies..max_bodies.
Scenario make_scene(Family family, int bodies);

Scenario striker_row(int bodies);
Scenario rod_chain(int bodies);
Scenario disk_column(int bodies);
Scenario disk_channel(int bodies);
/// `bodies` disks poured into a bin with Coulomb's `mu` on every contact (0: frictionless).
Scenario disk_pile(int bodies, double mu);
/// One disk dropped from rest kBallHeight above a floor.
Scenario dropped_ball();
/// rows × columns disks of radius 5 cm and 1 kg at rest, the lowest row on a floor (e = 0.5), `gap` apart (0:
/// exactly touching, each disk on the one below and beside it), with Coulomb's `mu`
/// everywhere (0: frictionless) and "collide": "all": the heaviest scenes of the work budget's wall-clock
/// measure (bench/README.md, "The worst single call"). Throws std::invalid_argument naming "bodies" beyond
/// kMaxBodies.
Scenario disk_grid(int rows, int columns, double gap, double mu);

/// Disks in each row of a pile of `bodies`: round(√(bodies / 2)), at least 2 (10 for 200, 6 for 64).
int pile_row_length(int bodies);
/// Half the inner width of a pile's bin: the row, its gaps and one radius of shift, with 5 mm to spare.
double pile_half_width(int bodies);

}  // namespace oblique::scenes

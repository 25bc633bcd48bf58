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
// Disks have radius 0.1 m and mass 1 kg; the integrator uses the scenario defaults (1 ms steps). Only the
// contacts that can occur are declared: in the row and the column the bodies keep their order along a line;
// in the channel (narrower than two diameters) disk i + 1 stays between disks i and i + 2, so only
// neighbours touch, and only the lowest disk can reach the floor. Sizes: row 2n − 1 contacts, chain n
// contacts (2n points) and n − 1 pins, column n contacts, channel 3n contacts.
#pragma once

#include <string>
#include <vector>

#include "oblique/scenario.hpp"

namespace oblique::scenes {

enum class Family { Row, Chain, Column, Channel };

/// The families, in report order.
const std::vector<Family>& all_families();
/// "row", "chain", "column", "channel".
const char* name(Family family);
/// The family of a name; throws std::invalid_argument naming "family" for an unknown one.
Family family_from_name(const std::string& name);

/// The scene of `family` with `bodies` bodies (2..kMaxBodies); throws std::invalid_argument naming "bodies".
Scenario make_scene(Family family, int bodies);

Scenario striker_row(int bodies);
Scenario rod_chain(int bodies);
Scenario disk_column(int bodies);
Scenario disk_channel(int bodies);

}  // namespace oblique::scenes

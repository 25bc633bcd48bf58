// Coulomb friction at the contact points of a run (docs/friction.md): the state of a frictional point.
#pragma once

namespace oblique {

/// Codes of SimulationState::sliding: 0 (sticks, or rests without friction), slides toward +t (and every
/// sliding `stick` point, which slides without friction), slides toward −t.
inline constexpr char kSlidesForward = 1;
inline constexpr char kSlidesBackward = 2;

/// The code of a slip speed v_t: kSlidesForward beyond +tolerance, kSlidesBackward below −tolerance, else 0.
inline char slide_code(double slip, double tolerance) {
  return slip > tolerance ? kSlidesForward : (slip < -tolerance ? kSlidesBackward : 0);
}
/// s = ±1 of a sliding code, 0 for 0.
inline int slide_direction(char code) { return code == kSlidesBackward ? -1 : (code == kSlidesForward ? 1 : 0); }

}  // namespace oblique

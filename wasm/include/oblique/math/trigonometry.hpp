// Cosine and sine that give the same bits in every build.
//
// The native CLI (glibc) and the WebAssembly module (musl) each bring their own std::cos and std::sin, both
// accurate to about an ulp but not identical, and a chaotic mechanism (a double pendulum) turns a one-ulp
// difference into a visibly different trajectory. Like Box2D v3's b2ComputeCosSin, Oblique computes the
// rotation of its bodies with one portable routine made of IEEE-754 additions and multiplications only
// (which every conforming build rounds identically when they are not fused — the build forbids fusing):
//
//   1. reduction: k = nearest integer to x·2/π, r = x − k·π/2 with π/2 split in three parts (Cody–Waite),
//      exact for |x| < 2¹⁹·π/2 ≈ 8.2·10⁵ rad;
//   2. kernels on |r| ≤ π/4: the Taylor series of sin to r¹⁷ and of cos to r¹⁸ by Horner's rule (the first
//      neglected terms are below 10⁻¹⁹, far under an ulp);
//   3. the quadrant k mod 4 picks ±sin r or ±cos r.
//
// Larger angles fall back to std::cos and std::sin (accurate, not portable); the tests check the result
// against the C library to a few ulps.
#pragma once

namespace oblique {

/// cos x and sin x together.
struct CosSin {
  double cos = 1.0;
  double sin = 0.0;
};

/// Portable cos and sin of `x` (radians).
CosSin cos_sin(double x);

/// π in double precision.
inline constexpr double kPi = 3.141592653589793238462643383279502884;

}  // namespace oblique

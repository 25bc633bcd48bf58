// Benchmark kernels shared by the native and the WebAssembly builds, so that wasm/native ratios compare the
// same code on the same inputs. Each kernel runs `iterations` times and returns a checksum that keeps the
// optimiser from removing the work.
#pragma once

#include <string>
#include <vector>

namespace oblique::bench {

/// Adds the kernel "simulate_<name>": one second of simulated time of the scenario document `json_text`
/// (the built-in scenarios, read by each driver from web/scenarios). Throws std::invalid_argument when the
/// document is not a valid scenario.
void add_scenario_kernel(const std::string& name, const std::string& json_text);

/// Adds the scaling kernels of every scene family (bench/scenes) at each of `sizes` bodies:
///   sim_<family>_n<N>               `seconds` of the scene from its start with today's Simulator, in frames
///                                   of 1/60 s as the page asks for them, each in as many calls as the work
///                                   budget takes (see last_worst_advance_ms)
///   assemble_dense_<family>_n<N>    the rows of that system (φ, A, Ȧq̇) written by the model into a dense
///                                   m×n ConstraintRows, as the simulator assembles them at every evaluation
///   smooth_dense_<family>_n<N>      q̈, f, λ of the system with every row active (scene_system.hpp) by the
///                                   dense Projection, as the simulator evaluates them today
///   smooth_sparse_<family>_n<N>     the same by the Delassus factorisation: A assembled row by row, the
///                                   symbolic analysis reused (as between two events)
///   impact_dense_<family>_n<N>      one impact with per-row restitution by the dense Projection
///   impact_sparse_<family>_n<N>     the same by the Delassus factorisation (S and the QMI deferred)
///   impact_classical_<family>_n<N>  the classical solve q̇⁺ = q̇⁻ − M⁻¹Aᵀ(AM⁻¹Aᵀ)⁻¹(I + E)Aq̇⁻ with a
///                                   dense pivoted LDLᵀ of the Schur complement
/// Throws std::invalid_argument for a size outside 2..64 or a non-positive duration.
void add_family_kernels(const std::vector<int>& sizes, double seconds);

/// Adds the kernels "sim_<family>_n<N>_<label>" of every scene family at each of `sizes` bodies: the scene
/// from t = `from` to t = `until` with today's Simulator, in frames of 1/60 s as sim_<family>_n<N> does
/// (last_worst_advance_ms, last_impact_count: the window's). The state at `from` is reached here, once and
/// untimed, in the same frames, and saved; each run restores it (bit for bit, restore_state) into one
/// simulator kept by the kernel, so that a window late in a scene — the scene at rest — costs only itself.
/// Windows added in increasing `from` share that run from the initial state. Throws std::invalid_argument
/// naming "label" (lower-case letters), "from" (a finite time ≥ 0) or "until" (a finite time after from), or
/// "bodies" for a size outside 2..64.
void add_family_window_kernels(const std::string& label, const std::vector<int>& sizes, double from, double until);

/// Adds the whole-run kernel of one scene (bench/scenes, any family by name, at `bodies`): the scene from its
/// start to t = `seconds`, in frames of 1/60 s as the page asks for them, construction included. With
/// `page_budget` each frame goes in calls of the default work budget, called again while the budget cuts
/// them ("page_<family>_n<N>", as the page's worker calls); without it each frame is one uninterrupted call
/// ("whole_<family>_n<N>"). A run stops early, between two calls, once the process has spent
/// `cpu_cap_seconds` of CPU time on it (std::clock; 0: no cap; a capped uninterrupted run makes calls of
/// about a tenth of a second so that it can stop): last_simulated_seconds says how far it got.
/// Throws std::invalid_argument naming "family", "bodies", "seconds" or "cpu_cap_seconds".
void add_whole_run_kernel(const std::string& family, int bodies, double seconds, double cpu_cap_seconds, bool page_budget);

/// The simulated time (s) at which the last sim_, whole_ or page_ kernel run ended.
double last_simulated_seconds();

/// Names of every kernel, in report order.
std::vector<std::string> kernel_names();

/// Runs kernel `name` `iterations` times; throws std::invalid_argument for an unknown name.
double run_kernel(const std::string& name, int iterations);

/// The longest single advance call of the last sim_ kernel run (a frame of 1/60 s, or the part of one its
/// work budget allowed), in wall-clock milliseconds.
double last_worst_advance_ms();
/// The impact records that run logged (plastic follow-ups included).
int last_impact_count();

/// The longest single advance call, in wall-clock milliseconds, of one run of the scenario document
/// `json_text` over its own `duration` (or `seconds` when positive), in frames of 1/60 s as the page asks for
/// them, each frame in as many calls as the work budget takes. Measures the target "no single 1/60 s advance
/// of a built-in scenario over 4 ms" on the whole run, where its slowest moments are (a pile settling, a
/// cascade of impacts), not on its first second only. Throws std::invalid_argument for an invalid document.
double worst_advance_ms_over_run(const std::string& json_text, double seconds);

/// A 64-bit FNV-1a hash (16 hex digits) of every number the sparse path computes on the scene families'
/// systems at `sizes` (q̈, f, λ, (I − S)q̇, q̇⁺, i_λ, γ): equal in the native and the wasm build when both
/// run the same floating-point operations in the same order.
std::string sparse_fingerprint(const std::vector<int>& sizes);

}  // namespace oblique::bench

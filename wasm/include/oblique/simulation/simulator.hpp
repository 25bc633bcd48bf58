// The event-driven simulator of a scenario (paper §2–4): smooth phases integrated with the projected
// acceleration, impacts resolved with the projected impact map, and the activation rule Γ between them.
//
// Smooth phase, on the current active set (every bilateral joint row, plus the normal row — and the
// tangential row when `stick` — of every active contact point):
//   q̈ = (I − S) q̈* + S q̈⊥,  q̈⊥ = −A⁺ Ȧq̇,  λ = A⁺ᵀ f          (dynamics.hpp; paper eqs. (13), (14))
// integrated by classical RK4. The committed steps end on the fixed grid k·IntegratorDef::step (or at an
// event or a scheduled impulse inside a grid step, the next step then ending on the grid again), so the
// trajectory does not depend on how a caller cuts time into advance calls: a call that ends between grid
// points shows a partial RK4 step from the last committed state to the requested time, without committing
// it (unless an event lies before that time: then the whole step is taken and the event handled). After
// each step the state is put back on the active constraints: positions by Gauss–Newton, q ← q − A⁺φ until
// max|φ| ≤ projection_tolerance (at most 8 passes); velocities by q̇ ← (I − S) q̇, the M-orthogonal
// projection onto N(A), which is the paper's plastic impact map with nothing to absorb.
//
// The smooth phase's q̈ and λ, the velocity projection and the frictionless impacts are solved through the
// Delassus factorisation of K = A M⁻¹ Aᵀ (delassus.hpp) with constrained_dynamics_sparse,
// project_velocity_sparse and solve_impact_sparse (sparse_dynamics.hpp): the paper's q̈, minimum-norm λ,
// (I − S)q̇ and impact to round-off, with no n×n operator, in every scene (kSparseSmoothPhaseCoordinates
// = 0, below). Each evaluation factorises as afresh: only the symbolic analysis of A's pattern (a pure
// function of it) is kept between evaluations, no result, so a restored state or a replayed step gives the
// same bits. Every impact solve (each pass of the Γ rule, the plastic follow-up, the sequential sub-impacts)
// has the same fields, flags and tolerances as the dense one; λ_max(EQE − Q) is left to the record
// (ImpactRecord::energy_consistency, on the coordinates A touches), computed when a summary with the
// projections' scalars or the panels ask. The dense ScaledProjection (scaled_projection.hpp: on the coordinates A touches, in mass-scaled
// form, so that no mass ratio amplifies round-off into motion the constraints do not cause) solves
//   - an evaluation whose kept rows of A are nearly dependent (sparse_path.hpp: a pivot ratio below 1e-8),
//     where K cannot be solved accurately — boxes resting face to face — or which dropped a row the dense
//     rule keeps (from kDroppedRowTrustCoordinates a smooth-phase solve that meets that row stays sparse);
//   - sliding friction (the oblique dynamics of contact_friction.hpp) and an impact with a frictional point
//     (Aghili's stick/slip impact, frictional_impact.hpp): dense only;
//   - everything, when a test forces the dense path (set_sparse_smooth_phase_threshold(INT_MAX)).
// An event is located from the step's quintic Hermite dense output, bracketed by real RK4 sub-steps
// (event_location.hpp) instead of the regula falsi below, to the same tolerance, when the event is a gap
// closing. The position projection's A⁺φ comes from a Delassus factorisation of A Aᵀ (unit weights:
// position_step), the dense complete orthogonal decomposition where that one is not accurate.
// The ν asked for (set_nu) is kept with each impact record, whose projections are recomputed from M and A
// as the paper writes them when it is shown.
//
// Events, located in time to IntegratorDef::event_tolerance by re-integrating one RK4 step from the step
// start with a shorter length (regula falsi with the Illinois modification on the earliest crossing, and a
// bisection every third pass):
//   - an inactive contact point's gap crossing below −its event slack (below its start value minus that when
//     it starts deeper, as an initial penetration may); the simulator stops just before the crossing (so
//     nothing penetrates by more than the slack) and resolves an impact;
//   - an active unilateral contact's multiplier λ turning negative (below −λ_tol): the contact is released
//     (Γ_ii = 0) at the first instant it would pull — a sticking one first slides (its tangential row leaves
//     A; with infinite friction a contact can need a pull that sliding removes) and separates only if it
//     still pulls; it sticks again at its next impact. With redundant contacts the minimum-norm λ = A⁺ᵀf
//     can pull where another split of f does not: a contact is released only when no split is free of
//     pulling (non-negative least squares). Releasing the hardest puller first can release the wrong one of
//     two (a box held from above and below), so after the releases — and with friction, once the set's
//     stick and slip are consistent — a separated point that touches at rest (|φ̇| ≤ v_tol) and that the
//     active set's dynamics drive into its partner (φ̈ < −a_tol, a_tol = 1e-9 × max(|g|, V²/L_min,
//     1e-6 m/s²)) joins the set again, once per settle (Simulator::settle; without it a pile chattered, one
//     plastic impact per microsecond);
//   - a scheduled impulse (ImpulseDef): steps end exactly at its time, where it is applied as the paper's
//     i_u through the same impact map.
//
// Impact resolution (the Γ rule, apply_activation_rule in activation_rule.hpp). Γ* = the inactive points
// touching (gap ≤ its gap tolerance, below) and approaching (φ̇ < −its speed tolerance v_tol, below), plus the point whose
// crossing stopped the step. The impact takes the islands of Γ* and of the bodies a scheduled impulse acts on
// (island_set.hpp: bodies linked by joints, touching points and Γ*; the world links nothing), or the whole
// system when it has neither: A is [their joints; their active contact rows; Γ* rows], and the points,
// joints and bodies of every other island keep their flags and velocities bit for bit (S is block diagonal
// over islands, so this is the whole system's impact to round-off). solve_impact runs with per-row
// restitution E (0 for joints and tangential rows, e_i for unilateral rows, 0 for an impact slower than
// the point's rest speed: IntegratorDef::rest_speed, or in a stack its nearly-resting speed, below). Then, repeatedly and with a bounded number of passes (kMaxImpactPasses):
//   1. a point outside A that touches, was at rest before the impact and approaches after it (φ̇⁺ < 0)
//      joins A, plastic; one that was separating before never joins (stopping it from q̇⁻ would push a
//      row that moves apart: positive work, energy from nowhere). If it approaches after the impact it
//      takes a sequential sub-impact of its own at the same instant, from q̇⁺ and with its own e — what
//      happens anyway when its gap is larger than the touching tolerance;
//   2. otherwise the unilateral row with the most tensile impulse (i_λ < 0) leaves A — the contact
//      separates (e.g. the trailing spoke of a rimless wheel);
//   and the impact is recomputed from q̇⁻. When nothing changes the impact is consistent. Afterwards every
//   point of A with φ̇⁺ ≤ v_tol becomes active (resting contact), the others of its islands separate.
//   If a point would leave A a second time (the rule cycles, as redundant contacts can make it) or the
//   passes run out, the fallback is taken: every touching point in A, every row plastic, no release —
//   nothing approaches after it (A q̇⁺ = 0), though an impulse may pull, which its flags then show.
// Only real impacts are logged (a point approaching faster than v_tol, a scheduled
// impulse, or any change of kinetic energy, as when a sticking point touches while it slips); a point that
// touches at rest is simply activated.
// With a rank-deficient A and unequal e_i the Newton law holds only in the least-squares sense, so a joint
// or a point about to rest may still move along its rows after the impact: a plastic follow-up impact on
// the new active set of the impact's islands (q̇⁺⁺ = (I − S) q̇⁺) stops them, and is logged as an impact of
// its own.
// Zeno rule: an impact slower than rest_speed is plastic, so a bouncing sequence ends in resting contact
// after finitely many impacts. Nearly resting (activation_rule.hpp): in a stack — a point that touches, one
// of whose bodies takes part in another active point before the impact (the body rests on, or carries,
// something already) — the bound is max(rest_speed, v_rest), v_rest = √(2ε|g|L) with ε =
// kNearlyRestingHeight and L the size of the point's smaller body: an impact whose bounce would rise less
// than a thousandth of that size is plastic, so a settling pile stops bouncing in a bounded number of
// impacts instead of resolving thousands of invisible ones (inelastic collapse). A lone body keeps rest_speed
// (the bouncing ball's closed form), and without gravity v_rest = 0: the rule is rest_speed alone. Each
// record keeps the bound of each of its points (ImpactRecord::rest_speeds). More than kMaxImpactsPerInstant impacts in a row, each within
// 100·event_tolerance of the last, make the next one take the fallback at once, which ends the cascade.
//
// Bounded work: one advance call spends at most its work budget (work_budget.hpp: kWorkBudgetFlops, about 3 ms of
// scalar WebAssembly), counted in estimated flops of each projection, solve and step. A call runs as transactions — the
// scheduled impulses due now and one step, with its events and impacts — and stops between two evaluations when the
// next would overrun the budget (after at least one, so every call makes progress), or between two parts of the largest
// (a smooth phase's or a position correction's Delassus factorisation between its dependent rows' searches and before
// its null basis, kept in progress by its workspace and taken up by the next call: WorkGate, delassus.hpp; a split's
// passive solves, the dense impact fallback's projections and its solve, a frictional impact's groups of
// bodies linked by its rows, each solved alone, and within a group its stick/slip search — the projections, the
// sticking impact, then one mode combination at a time, the search kept as the budget left it and taken up
// again by the next call, FrictionalImpactSearch): the transaction under way is
// undone, the call returns at the committed state before it with time() short of the target and work_limit_hit() true,
// and the next call takes the transaction again from its start, replaying the evaluations (and parts) already made
// (EvaluationReplay, checked against their inputs) and going on from there — a settle from the top of the last
// of its passes it reached, with the state it had there, rather than from its first (each pass is a function of
// that state and of the evaluations before it: SettlePass). The trajectory is on its fixed step grid
// whatever the calls, so the budget changes where a call returns, never the results. The settle of the initial
// state (the impact of the points that start touching, the forces of those at rest) is the first transaction:
// the constructor runs it within one call's budget — and, unlike an advance call, refuses even its first
// evaluation when that is larger than the budget —, and when it needs more, state.settling stays set and the
// next advance calls finish it before they move on. A restore does no evaluation: it puts the state back
// with the views it showed (SimulationState::shown), and the state's q̈ and λ are the first transaction of
// the next call (derive_restored), charged and replayed as any other. The impact log keeps the last
// impacts up to a memory budget (kImpactLogBytes, at most kMaxLoggedImpacts records; a record keeps no n×n matrix,
// impact_log.hpp); older ones are dropped and counted by dropped_impacts().
//
// State: SimulationState (simulation_state.hpp) holds everything that determines the future — the
// committed time, grid index, q, q̇, the per-point active/sliding/impacting flags, the next scheduled
// impulse, the Zeno counters and the time shown, with the views shown then. save_state and restore_state
// copy it out and back; q̈ and λ of the active set are recomputed from it bit for bit by the next call.
//
// The active set. Every point in it touches (gap ≤ its gap tolerance) and only its points carry a
// constraint force: at every committed state, a point outside the set has λ = 0 and no slip, and a point in
// it whose features part — a corner sliding off the end of its face, so that its row would hold apart bodies
// together — is released at the located instant it does (below). Debug builds check both after every
// committed transaction (contact_set_violation).
//
// Automatic contacts ("collide": "all"; automatic_contacts.hpp). The contact points are the model's declared
// points, then the automatic points of state.automatic. At the start of every transaction (before its step)
// the broad and narrow phases find the automatic points at the committed state, within a margin that covers
// the step; a point found again keeps its flags (active, sliding, impacting) by its key (bodies and
// features), a new point starts separated, and an active point no longer found is released (its feature
// left the other body's feature: a corner sliding off an edge), after which the state is settled again.
// Inside the step every body pair the broad phase reported is watched: the instant a feature pair not
// listed closes (a corner that the spin of an impact or of the smooth phase brings round onto another face),
// or an active point is no longer found, is located as a gap crossing is, and there the points are found
// again and the impact resolved. A step in which a body moves beyond its margin (the constraint forces can
// speed it up beyond its free acceleration) is taken again after the points are found with the margins it
// needs. Their work is counted in the budget. Without "collide": "all" nothing of this runs and the run is the one
// of the declared contacts, bit for bit.
//
// Friction (docs/friction.md; simulator_friction.cpp, contact_friction.hpp, frictional_impact.hpp). A point
// with 0 < μ < ∞ brings its tangential row into every impact's A, and the impact is Aghili's stick/slip
// impact (the frictional unit decides each point's mode; its record keeps the mode, μ_crit, the
// discriminator and the cone angles); a point the impact leaves slipping slides on. In a smooth phase an
// active frictional point sticks (its tangential row in A) or slides (state.sliding: the direction of its
// slip; the friction −μ s λ_n solved with the normal forces, an oblique projection). Two more events per
// point, located like the others (the min of each with the λ event): a sticking point whose multipliers
// leave the cone (μ λ_n − |λ_t| < −tolerance) starts to slide in the direction s = −sign(λ_t); a sliding
// point whose slip changes sign (s v_t < −v_tol) sticks if |λ_t| ≤ μ λ_n with its row back
// in A (with the other points whose slip changed sign with it: the other corner of a face), else slides the
// other way. Painlevé: when the sliding normal forces have no unique solution (their Schur complement W is
// not a P-matrix, contact_friction.hpp) at a committed state, the way out is a tangential impact — an impact
// without collision, every active point with e = 0 and its μ, through the frictional unit, which makes the
// point stick (for one point the sticking impulse is inside the cone whenever W ≤ 0); should the points be
// left in a Painlevé state still, they jam (every tangential row plastic). It is logged with `painleve`.
// Without a point of 0 < μ < ∞ none of this runs, and the run is the frictionless (or `stick`) one bit for
// bit.
//
// Determinism: no randomness, no threads, no unordered containers; the same scenario gives bit-identical
// trajectories and logs, and so does a restored state.
#pragma once

#include <cstddef>
#include <optional>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "oblique/simulation/activation_rule.hpp"
#include "oblique/geometry/automatic_contacts.hpp"
#include "oblique/math/dynamics.hpp"
#include "oblique/friction/contact_friction.hpp"
#include "oblique/sparse/delassus.hpp"
#include "oblique/simulation/evaluation_replay.hpp"
#include "oblique/friction/frictional_impact.hpp"
#include "oblique/math/impact.hpp"
#include "oblique/simulation/impact_log.hpp"
#include "oblique/simulation/island_set.hpp"
#include "oblique/model/model.hpp"
#include "oblique/math/projection.hpp"
#include "oblique/scenario/scenario.hpp"
#include "oblique/geometry/scenario_overlaps.hpp"
#include "oblique/simulation/simulation_state.hpp"
#include "oblique/simulation/work_budget.hpp"

namespace oblique {

namespace detail {

struct SparseStepProgress;
struct ObliqueSystem;

/// The smooth phase's oblique solve with sliding friction on the sparse path (sliding_dynamics), kept in
/// progress when the work budget stopped it, with the key of its inputs: the next call with those inputs
/// goes on from there. A copy of the simulator starts without it.
struct SlidingSolveWorkspace {
  SlidingSolveWorkspace() = default;
  SlidingSolveWorkspace(const SlidingSolveWorkspace&) {}
  SlidingSolveWorkspace& operator=(const SlidingSolveWorkspace&) { return *this; }
  SlidingSolveWorkspace(SlidingSolveWorkspace&&) noexcept = default;
  SlidingSolveWorkspace& operator=(SlidingSolveWorkspace&&) noexcept = default;
  std::shared_ptr<SparseStepProgress> progress;
  std::uint64_t key = 0;
  /// The system projection_work built and keyed (`progress` is its solve's) for the evaluation about to
  /// run, which takes it instead of building it again; dropped when the rows are assembled again.
  std::shared_ptr<ObliqueSystem> charged_system;
};

}  // namespace detail

/// Touching: a gap at most the point's gap tolerance, kRelativeGapTolerance × the size of the smaller of
/// its two bodies (a plane has no size: the body's), never below kMinGapTolerance (m). The size of a body is
/// the distance from its centre to its farthest contact feature, radius included (a point: its radius).
/// So the tolerance follows the scene: 1e-11 m for bodies of 10 cm, 1e-12 m (the floor) for 1 cm, so that
/// beads 1 nm apart are two separate contacts, resolved one after the other, as an exact event-driven code
/// resolves them; only gaps below 1e-10 of the bodies' size merge into one simultaneous impact. Below that,
/// a gap is round-off of the positions the projections and the event location leave (the located impact
/// stops 1e-13 s before the crossing, which at 100 m/s is 1e-11 m), and an impact that such a gap would
/// split in two is the same impact. The floor is near the round-off of positions (2⁻⁵² × 10⁴ m, the
/// largest coordinate, is 2e-12 m).
/// An initial state may penetrate by up to kInitialPenetration (such a point counts as touching); deeper,
/// the scenario check refuses it (scenario_overlaps.hpp). (Approaching and separating are beyond the speed
/// tolerance, below.)
inline constexpr double kRelativeGapTolerance = 1e-10;
/// Coordinates from which the smooth phase (q̈, λ, the velocity projection), the impacts and the gap events
/// run through the sparse Delassus factorisation instead of the dense ScaledProjection (header comment):
/// every scene, because the sparse path is the faster one at every size but for scenes of free flight
/// between rare impacts (docs/scaling.md, "Why every scene", has the measures). Forced dense, a few
/// built-ins with near-grazing, near-degenerate impacts (domino-row, box-stairs) follow another sequence of
/// impacts to the same rest, within round-off of the branch points; every other built-in logs the same
/// impacts on both paths.
inline constexpr int kSparseSmoothPhaseCoordinates = 0;
/// Coordinates from which a part of a frictional impact (the bodies its rows link) is solved by the
/// sparse stick/slip search (FrictionalImpactSearch on Delassus factorisations, frictional_impact.hpp)
/// instead of the dense projections of its coordinates: 10 bodies. The friction built-ins (one or two
/// bodies) stay on the dense search; a touching grid of 256 disks struck by one of them takes seconds a
/// step there (the dense projections of 768 coordinates, a pseudo-inverse of about 990 rows per mode
/// combination).
inline constexpr int kSparseFrictionCoordinates = 30;
inline constexpr double kMinGapTolerance = 1e-12;
/// Event slack: a separated point's gap must fall its slack below zero to be an event, so that rounding on
/// a point resting at zero without its row in A does not fire events. The slack follows the scene as the
/// gap tolerance does: kRelativeGapEventSlack × the size of the smaller of its two bodies (a tenth of its
/// gap tolerance, so that a point stopped at its crossing touches), never below kMinGapEventSlack (m) — the
/// round-off of coordinates of about 4 m.
inline constexpr double kRelativeGapEventSlack = 1e-11;
inline constexpr double kMinGapEventSlack = 1e-15;
/// Speed tolerance: a point approaches when φ̇ < −v_tol, separates when φ̇ > v_tol, and is at rest in
/// between (also a slip speed within it is no slip). v_tol = kRelativeSpeedTolerance × v_c, never below
/// kMinSpeedTolerance (m/s), with v_c the larger of √(|g| L) — the speed of the point's smaller body
/// (size L, as for the gap tolerance) falling about its own size — and the scene's speed scale V =
/// max over bodies of |v| + |ω| × size at the start of the step (or of the transaction): round-off in φ̇
/// is a fraction of the speeds the projections mix. 1e-9 m/s for 10 cm bodies under 9.81 m/s² at rest
/// (the fixed tolerance it replaces); a scene scaled in length by s and in time by √s (the same g) has
/// every tolerance scaled as its speeds and lengths, and runs the same impacts.
inline constexpr double kRelativeSpeedTolerance = 1e-9;
inline constexpr double kMinSpeedTolerance = 1e-15;
/// Largest initial joint violation |φ| that is projected away; beyond it the scenario is rejected.
inline constexpr double kInitialJointTolerance = 1e-3;
/// Impacts in a row, each within 100·event_tolerance of the last, before the next takes the fallback.
inline constexpr int kMaxImpactsPerInstant = 32;
/// Sequential sub-impacts resolved at one instant after an impact before the rest is left to the next step.
inline constexpr int kMaxSequentialImpacts = 4 * kMaxImpactsPerInstant;

/// State of a contact point: separated, in resting contact (its row is in A), or in the impact just
/// resolved (until the next step).
enum class ContactState : int { Inactive = 0, Active = 1, Impacting = 2 };

/// A contact point as the view sees it.
struct ContactPoint {
  int contact = 0;              ///< index of its ContactDef in Scenario::contacts; −1 for an automatic point
  int body_a = kWorld, body_b = kWorld;
  Vec2 point = Vec2::Zero();    ///< world point of contact
  Vec2 normal = Vec2::UnitY();  ///< unit, the direction in which the gap opens (see ContactFrame)
  double gap = 0.0;             ///< φ (m)
  double normal_velocity = 0.0; ///< φ̇ (m/s)
  double multiplier = 0.0;      ///< λ of its unilateral row while active (N), else 0: the minimum-norm
                                ///< λ = A⁺ᵀf, or a split without pulling when redundant contacts allow one
  ContactState state = ContactState::Inactive;
  /// Friction of an active point with 0 < μ < ∞ (docs/friction.md): `slip` 0 while it sticks, ±1 while it
  /// slides toward ±t (t = perp(normal)); `friction` the tangential force along t at the committed state,
  /// λ_t while it sticks, −μ s λ_n while it slides (N); `slip_speed` v_t = t q̇, the point's sliding speed
  /// along t (m/s): 0 while it sticks, and 0 too for a point at the edge of its cone that slides in name only
  /// (held by other rows, as a block at μ = tan θ on a slope). All three 0 for every other point.
  int slip = 0;
  double friction = 0.0;
  double slip_speed = 0.0;
};

/// Kinetic, potential (gravity and constant forces) and total energy (J).
struct Energy {
  double kinetic = 0.0, potential = 0.0, total = 0.0;
};

/// Integrates a scenario event by event. Accessors do not allocate.
///
/// Inside, as Pinocchio separates a Model from its Data: the model (the scenario with its overrides, the
/// Model, M factorised once), the state (SimulationState: everything that determines the future), what is
/// derived from the state (q̈ and λ of the active set), the views of the last call, the impact log, and
/// scratch buffers reused from step to step. Each stage says in one line what it reads and writes.
class Simulator {
 public:
  /// Builds the model and the initial state. The initial positions are projected onto the joints
  /// (violations up to kInitialJointTolerance), the initial velocities onto the joints and the touching
  /// contacts; touching points at rest become active, touching points that approach are resolved as an
  /// impact at t = 0. Throws std::invalid_argument naming the field if the scenario is invalid (the first
  /// issue of check_scenario_values, scenario_check.hpp, e.g. "/bodies/2/position: disk "b" starts 0.45 m
  /// inside plane "right"") or its initial state impossible ("joints[1]: not satisfied ...").
  explicit Simulator(Scenario scenario);

  /// Back to the scenario's initial state with the log cleared; the overrides (e, ν) are kept.
  void reset();

  /// Integrates to time() + dt, handling every event on the way; returns the number of impact records
  /// logged (a plastic follow-up counts as one more).
  /// Returns early, at a committed state, when the call's work budget is spent (work_limit_hit()): calling
  /// advance_to(target) again while work_limit_hit() goes on exactly as one longer call would have (the
  /// state may then be at the target time with what is due there — a scheduled impulse — still to come).
  /// dt must be finite and ≥ 0.
  /// A step that cannot be taken — more than kMaxContactPoints contact points (the message names the
  /// limit and the bodies that hold the most points), a state that diverges — throws std::runtime_error
  /// and is undone whole: the simulator is left exactly at the committed state before that step, shown as
  /// it was (the steps this call completed before it stay, with their impacts), and remains usable (a
  /// further call takes the same step again and fails the same way; restore_state or reset go elsewhere).
  int advance(double dt);
  /// Integrates until right after the next logged impact (true) or for max_dt (false); returns early
  /// (false) when the work budget is spent.
  bool advance_to_next_impact(double max_dt);
  /// advance and advance_to_next_impact toward an absolute time t (nothing when t ≤ time()): a caller that
  /// resumes after the work budget stopped a call reaches exactly t, which time() + (t − time()) need not
  /// be in floating point. t must be finite.
  int advance_to(double t);
  bool advance_to_next_impact_before(double t);

  /// Flops one advance call may spend (work_budget.hpp; default kWorkBudgetFlops); names "work_budget".
  void set_work_budget(double flops);
  double work_budget() const { return work_budget_; }
  /// Flops the last call spent (an advance, the constructor's first transaction, a restore), by the
  /// estimates of work_budget.hpp.
  double last_work() const { return work_.budget.spent(); }

  /// A copy of the state (simulation_state.hpp), with impact_count = impacts logged so far.
  SimulationState save_state() const;
  /// Puts a saved state back: advancing from it gives bit-identical results to advancing the run it was
  /// saved from (with the same e and ν). It shows the state as it was shown (state.shown: the positions
  /// and velocities at shown_time, the contact forces) at once, with no solve, and leaves q̈ and λ of the
  /// state to the next call, whose first transaction computes them within its work budget (at most
  /// work::restore of work_budget.hpp here, last_work()). A state without `shown` has its views computed
  /// here, whole: q̈ and λ, and the partial step to shown_time. The log is cut back to the state's impact_count (records logged
  /// after it are removed; the run logs them again); a state later than the log's end empties the log, its
  /// earlier impacts counting as dropped. Throws std::invalid_argument naming "state.<field>" when the
  /// state does not fit this scenario (sizes, non-finite numbers, an impossible time), changing nothing.
  void restore_state(const SimulationState& state);

  double time() const { return state_.shown_time; }
  const Vector& positions() const { return view_.q; }    ///< q, 3 per body
  const Vector& velocities() const { return view_.qd; }  ///< q̇
  Energy energy() const { return view_.energy; }
  /// max |φ| over joints and active contacts, and the penetration −φ of any contact, at the current state.
  double constraint_violation() const { return view_.violation; }
  /// Largest correction of the position projection over the last advance call (the drift it removed).
  double last_drift() const { return view_.drift; }
  const std::vector<ContactPoint>& contact_points() const { return view_.points; }
  /// Contact points now: the declared ones, then the automatic ones found at the last step start.
  int contact_point_count() const { return model_.contact_point_count() + static_cast<int>(state_.automatic.size()); }
  /// What each row of a record's A measures (ConstraintRowInfo of model.hpp; an automatic point has
  /// contact −1), from the record alone, whatever the contact points are now.
  std::vector<ConstraintRowInfo> record_rows(const ImpactRecord& record) const;
  /// The latest impact records (impact_log.hpp: no matrices; ImpactRecord::projection recomputes them).
  const std::deque<ImpactRecord>& impacts() const { return log_.records(); }
  /// Impacts dropped from the front of the log; impacts()[i] is impact number dropped_impacts() + i.
  std::size_t dropped_impacts() const { return log_.dropped(); }
  /// Bytes the impact log holds (at most kImpactLogBytes).
  std::size_t impact_log_bytes() const { return log_.bytes(); }
  /// The last advance call stopped at its work budget before its target time.
  bool work_limit_hit() const { return view_.work_limit_hit; }

  /// Sets e of every contact (and the scenario default); checks e ∈ [0, 1], naming "e".
  void set_restitution(double e);
  /// Sets e of one ContactDef; names "contacts[i].e" (or "contact" for a bad index).
  void set_contact_restitution(int contact, double e);
  /// Sets the virtual mass ν (> 0) of the projections shown for the impacts to come, or the
  /// condition-optimal default; names "nu". (The run itself solves in scaled coordinates, where ν changes
  /// nothing: S, R and every result are independent of ν.)
  void set_nu(std::optional<double> nu);
  /// Sets Coulomb's μ of every contact (ropes excepted), of every body's automatic contacts and the scenario
  /// default: μ ∈ [0, kMaxFrictionCoefficient], or +∞ for `stick`; names "mu". It takes effect at the
  /// committed state (docs/friction.md, "Changing μ during a run"): an active point that gains friction
  /// slides in the direction of its slip or sticks, settle() applies the cone, and a point made `stick`
  /// while it slips takes the sticking impact (logged); at t = 0 with nothing logged the run starts again
  /// with the new μ. Setting the μ a point already has changes nothing.
  void set_friction(double mu);
  /// Sets μ of one ContactDef as set_friction does; names "contacts[i].mu" (or "contact" for a bad index;
  /// a rope has no friction).
  void set_contact_friction(int contact, double mu);
  /// Puts back the μ the scenario states, of every contact and body (as set_friction, from the committed
  /// state).
  void reset_friction();
  /// Test-only switch of the smooth phase's path (not part of the scenario format): the sparse path runs
  /// when n ≥ `coordinates` (default kSparseSmoothPhaseCoordinates; 0 forces it, INT_MAX forces the dense
  /// one). Takes effect from the next evaluation; reset() runs the scenario from its start with it.
  void set_sparse_smooth_phase_threshold(int coordinates);
  /// Test-only switch of the frictional impacts' search: the sparse one for a part of at least
  /// `coordinates` coordinates (default kSparseFrictionCoordinates; 0 forces it, INT_MAX the dense one).
  void set_sparse_friction_threshold(int coordinates);
  /// The tolerances of a contact point (0 ≤ point < contact_point_count()), which follow the scene
  /// (kRelativeGapTolerance, kRelativeGapEventSlack, kRelativeSpeedTolerance): touching within gap_tolerance
  /// (m); a separated point's event at −event_slack (m); at rest within ±speed_tolerance (m/s, at the speed
  /// scale of the last step start).
  double gap_tolerance(int point) const;
  double event_slack(int point) const;
  double speed_tolerance(int point) const;

  /// What breaks the contract of the active set at the committed state, or "" (the header comment,
  /// "The active set"): a point in it whose gap exceeds its gap tolerance (its bodies do not touch, yet its
  /// row would hold them together), or a point outside it with a constraint force (λ ≠ 0) or a slip. Debug
  /// builds check it after every committed transaction and abort with this message; restore_state refuses
  /// a state that breaks it.
  std::string contact_set_violation() const;

  /// Whether the smooth phase runs through the sparse Delassus factorisation.
  bool sparse_smooth_phase() const { return n_ >= sparse_threshold_; }

  /// The scenario with the overrides applied.
  const Scenario& scenario() const { return scenario_; }
  const Model& model() const { return model_; }

 private:
  /// Which tangential rows a stack of rows takes: none (positions), those of sticking active points that
  /// do not slide (smooth phase), or those of every sticking point (impacts).
  enum class Tangents { None, Active, All };
  enum class StepOutcome { Smooth, Event, Impact };

  // The state: set-up, and what is derived from it.
  void initialize();
  void settle_initial_state();
  void collect_active_points();
  void derive_dynamics();
  void derive_restored();
  void refresh();
  void settle();
  // `kind`: kSettleEntry, or kLoadRoundsEntry for activate_at_rest's rounds, which keep resume points alike.
  std::uint64_t settle_entry_key(int kind = detail::kSettleEntry) const;
  void keep_settle_pass(std::uint64_t entry, std::size_t records_before, std::size_t pass, const std::vector<char>& joined);
  bool resume_settle(std::uint64_t entry, std::size_t& pass, std::vector<char>& joined);
  void release(int point);
  int approaching_at_rest(const std::vector<char>& joined);
  void activate_at_rest(const std::vector<int>& at_rest);
  double acceleration_tolerance() const;
  double normal_acceleration(int point);
  double slip_acceleration(int point);
  enum class RowKind { Normal, Tangent };
  const SparseJacobian& point_row(int point, RowKind kind, const Vector& q, const Vector& qd);

  // Rows and the smooth dynamics.
  bool has_tangent(int point, Tangents tangents) const;
  RowLayout layout_of(const std::vector<int>& points, Tangents tangents) const;
  // The same led by the rows of the scope's joints alone (an impact of some islands).
  RowLayout layout_of(const std::vector<int>& points, Tangents tangents, const std::vector<int>& joints,
                      int joint_rows) const;
  void assemble(const Vector& q, const Vector& qd, const std::vector<int>& points, const RowLayout& layout,
                ConstraintRows& rows, bool sparse = false) const;
  // φ, A and Ȧq̇ of `layout`'s rows at (q, q̇) into `rows` as sized, without compressing a sparse A.
  void write_rows(const Vector& q, const Vector& qd, const std::vector<int>& points, const RowLayout& layout,
                  ConstraintRows& rows) const;
  // work.rows of the active set, A in compressed rows when sparse_assembly() (smooth_dynamics factorises it).
  bool sparse_assembly() const;
  void assemble_active(const Vector& q, const Vector& qd);
  // φ and Ȧq̇ of work.rows again at the state's q and the velocity `qd`; A, a function of q alone, stays
  // as compressed before.
  void reassemble_rates(const Vector& qd);
  void evaluate_dynamics(const Vector& q, const Vector& qd, Vector& qdd, std::vector<double>* point_values);
  void split_multipliers(ConstraintRows& active, const Vector& force, const Vector& multipliers,
                         std::vector<double>& point_values);
  // `sparse_jacobian`: the same A in compressed rows, when the caller assembled it so (not converted again).
  // `jacobian` null: A in those compressed rows only, for a system too large to make dense (split_multipliers).
  bool carried_without_pull(const Matrix* jacobian, const Vector& force, const std::vector<bool>& unilateral,
                            double tolerance, Vector& split, const SparseJacobian* sparse_jacobian = nullptr);
  double projection_work(const Matrix& jacobian) const;
  /// The dense solve's work on A: the scaled projection of the coordinates A touches and the dynamics.
  double dense_projection_work(const Matrix& jacobian) const;
  /// The evaluation of `key` made before the budget stopped this transaction (null when none), charged
  /// what taking it from memory costs (work::replay, with the `dense_rows` of a dense A in its key).
  const detail::Evaluation* replayed(std::uint64_t key, int dense_rows);
  /// The work budget as a Delassus factorisation's gate: each of its pieces a WorkBudget::piece.
  WorkGate budget_gate();
  double projection_work(ConstraintRows& rows);
  ConstrainedDynamics smooth_dynamics(Vector* velocity);
  std::optional<ConstrainedDynamics> sparse_smooth_dynamics(const DelassusFactorization& delassus, Vector* velocity,
                                                            bool certified);
  double multiplier_tolerance() const;
  void rk4(double h, Vector& q_out, Vector& qd_out);
  /// Returns whether q was on the position constraints already (left as it came, work.position_rows then
  /// holding the rows at q and state.q̇).
  bool project_positions(Vector& q);
  double first_position_factorization_work();
  Vector position_step(ConstraintRows& rows);

  // Calls, steps and events.
  // `progress`: false for the constructor's call (WorkBudget::start), which may leave all to the next call.
  int run_until(double t_end, bool stop_at_impact, bool progress = true);
  bool run_transaction(double t_end, bool stop_at_impact, bool& presented);
  void begin_transaction();
  void commit_transaction();
  void roll_back_transaction();
  void fail_transaction();  // a step that threw: undone whole, the views of the state before it
  bool apply_due_impulses(bool stop_at_impact);
  StepOutcome step_to(double step_end, bool on_grid);
  void begin_step();
  bool trial_has_event(double h);
  void event_values(const Vector& q, const Vector& qd, std::vector<double>& out);
  static bool any_event(const std::vector<double>& values);
  double locate_event(double h, double& hi);
  void accept(const Vector& q, const Vector& qd, double new_time);
  std::vector<int> approaching_points() const;

  // Impacts: their islands, Γ, the new active set, the plastic follow-up, the log.
  /// The part of the system one impact takes (island_set.hpp): the bodies of the islands of its candidates
  /// and of the bodies its impulse acts on — every body when it has neither —, the joints among them, whose
  /// rows lead its A in ascending order, and the contact points of those bodies.
  struct ImpactScope {
    std::vector<char> bodies;  // per body: in the impact's islands
    std::vector<int> joints;   // joints with a body in them, ascending
    int joint_rows = 0;        // their rows
    std::vector<char> touching;  // per contact point: gap ≤ its gap tolerance at the impact's q
  };
  ImpactScope impact_scope(const std::vector<int>& candidates, const Vector& impulse);
  bool in_scope(const ImpactScope& scope, int point) const;  // a body of the point is in the scope
  bool resolve_impact(std::vector<int> candidates, const Vector& impulse, bool scheduled);
  bool resolve_single_impact(std::vector<int> candidates, const Vector& impulse, bool scheduled);
  ActivationOutcome choose_impact_set(const std::vector<int>& candidates, const Vector& impulse,
                                      const ImpactScope& scope);
  bool apply_impact(ActivationOutcome&& outcome, const ImpactScope& scope, bool approaching, bool scheduled);
  bool stop_residual_motion(const ImpactScope& scope);
  // `rows`: A dense, or in compressed rows (the Γ rule's on the sparse path); made dense only where needed.
  ImpactSolution solve_impact_on(ConstraintRows& rows, const Vector& qd_minus, const Vector& restitution,
                                 const Vector& impulse, const std::vector<bool>& unilateral,
                                 const std::vector<FrictionPair>& pairs = {});
  // `rest_speeds`: per point, the rest speed its plasticity used (ActivationOutcome::rest_speeds).
  void record_impact(const std::vector<int>& points, const RowLayout& layout, const ConstraintRows& rows,
                     ImpactSolution&& solution, const std::vector<double>& rest_speeds, int iterations,
                     bool scheduled, bool painleve = false);
  // The nearly-resting rule (activation_rule.hpp): the active points on each body, and a point's v_rest
  // when it touches and one of its bodies rests on another active point (a stack), else 0.
  std::vector<int> active_points_per_body() const;
  double nearly_resting_speed_of(int point, bool touching, const std::vector<int>& active_per_body) const;
  // Per listed point its rest speed now, max(rest_speed, its nearly-resting speed), for records of impacts
  // that are plastic whole (the follow-up, the tangential impact).
  std::vector<double> rest_speeds_of(const std::vector<int>& points) const;

  // The sparse path, n ≥ sparse_threshold_: every scene unless a test forces the dense one (simulator_sparse_path.cpp).
  // `key`: the impact's, from which those of its parts kept while it can be stopped are made.
  ImpactResult sparse_impact(ConstraintRows& rows, const Vector& qd_minus, const Vector& restitution,
                             const Vector& impulse, const std::vector<bool>& unilateral, std::uint64_t key);
  double sparse_locate_event(double h, double& hi);
  double restitution_of(int point) const;

  // Contact points: the model's declared points 0..D−1, then the automatic ones (state.automatic).
  const FeaturePair* automatic_pair(int point) const;  // null for a declared point
  double gap_of(int point, const Vector& q) const;
  ContactFrame frame_of(int point, const Vector& q) const;
  double normal_velocity_of(int point, const Vector& q, const Vector& qd) const;
  void normal_row_of(int point, const Vector& q, const Vector& qd, int row, ConstraintRows& out) const;
  void tangent_row_of(int point, const Vector& q, const Vector& qd, int row, ConstraintRows& out) const;
  bool sticks(int point) const;
  double friction_of(int point) const;  // Coulomb's μ: 0 frictionless, +∞ for `stick`

  // Friction (simulator_friction.cpp; contact_friction.hpp): the frictional pairs of an impact's A, the
  // smooth dynamics with sliding friction, the stick/slip events and switches, the Painlevé way out.
  bool frictional(int point) const;  // 0 < μ < ∞
  void detect_friction();            // has_friction_ from the μ now in force
  std::vector<double> point_frictions() const;  // μ of every contact point now
  void apply_friction_change(const std::vector<double>& before);  // set_friction's effect on the state
  std::vector<FrictionPair> friction_pairs(const std::vector<int>& points, const RowLayout& layout) const;
  // A in compressed rows: it is never made dense (but for a part small enough for the dense search).
  ImpactSolution frictional_impact(const SparseJacobian& jacobian, const Vector& qd_minus, const Vector& restitution,
                                   const Vector& impulse, const std::vector<bool>& unilateral,
                                   const std::vector<FrictionPair>& pairs);
  ImpactSolution frictional_part(const Vector& mass, const SparseJacobian& jacobian, const Vector& qd_minus,
                                 const Vector& restitution, const Vector& impulse, const std::vector<bool>& unilateral,
                                 const std::vector<FrictionPair>& pairs);
  void assemble_sliding(const Vector& q, const Vector& qd);
  ConstrainedDynamics sliding_dynamics(Vector* velocity);
  std::optional<ConstrainedDynamics> sparse_sliding_dynamics(Vector* velocity);
  // The oblique system of the sliding smooth phase at work.rows and work.sliding_rows, and the progress of
  // its solve kept in work.sliding_solve (a new one for other inputs).
  detail::ObliqueSystem sliding_system();
  detail::SparseStepProgress& sliding_progress(const detail::ObliqueSystem& system);
  bool sparse_sliding() const;
  double slip_speed(int point, const Vector& q, const Vector& qd);
  double friction_event_value(std::size_t j, const Vector& q, const Vector& qd, double normal, const Vector& multipliers);
  int friction_inconsistency(double tolerance);
  double tangential_multiplier(int point) const;
  void switch_friction(int point);
  void friction_event(int point);
  bool painleve_at_state();
  void tangential_impact();
  void friction_view(int point, ContactPoint& view) const;
  int contact_of(int point) const;  // ContactDef index, −1 for an automatic point
  double size_of(int point) const;  // the smaller body's size, or the body's against a plane (m)
  std::pair<int, int> bodies_of(int point) const;  // its two bodies (either may be the world)
  double size_of_bodies(int a, int b) const;  // the same of two bodies (either may be the world)
  void update_speed_scale();        // speed_scale_ from the committed velocities
  // `margin_floor`: each body's margin at least this (a step that outran its margins: cover_step).
  void update_automatic_contacts(const std::vector<double>* margin_floor = nullptr);
  void watch_pairs();         // the watched pairs of a find at the committed state, the points kept
  void price_watched_pairs();  // work.watch_work: the flops of one pass over the watched pairs
  std::vector<int> find_points_again(const std::vector<int>& points);
  bool cover_step(const Vector& q_end);
  double pair_slack(const WatchedPair& pair) const;
  double unlisted_gap(std::size_t j, const Vector& q);
  double apart_value(std::size_t k, const Vector& q) const;
  void pair_event_values(const Vector& q, std::vector<double>& out);
  bool pair_events_at_end(const Vector& q_end, std::vector<double>& out);
  void size_point_buffers();

  // Views.
  void present(double t_end);
  void show_committed();
  /// The views of the state at state.shown_time, after a restore or a rollback.
  void show_state_at_shown_time();
  void update_views();

  // --- The model: the scenario with its overrides, and what is computed from it once. ---
  Scenario scenario_;
  Model model_;
  Inertia inertia_;  // M, checked and factorised once for every projection
  int n_ = 0;
  std::vector<int> impulse_order_;           // scheduled impulses by time
  std::vector<double> contact_restitution_;  // per ContactDef
  std::vector<double> contact_friction_;     // μ per ContactDef (+∞: stick; 0 for a rope)
  Scenario document_friction_;              // the scenario as given, for reset_friction
  AutomaticContacts automatic_;              // finds the automatic contact points ("collide": "all")
  std::vector<double> body_size_;            // per body: centre to farthest contact feature (m)
  double gravity_norm_ = 0.0;                // |g| (m/s²)
  double smallest_body_size_ = 0.0;          // min of body_size_ (m)
  std::optional<double> nu_;
  int sparse_threshold_ = kSparseSmoothPhaseCoordinates;  // set_sparse_smooth_phase_threshold
  int sparse_friction_threshold_ = kSparseFrictionCoordinates;  // set_sparse_friction_threshold
  double force_scale_ = 1.0;  // Σ m · 1 m/s², the floor of the multiplier tolerance
  double speed_scale_ = 0.0;  // V of speed_tolerance, set from the state at each step and transaction start
  double work_budget_ = kWorkBudgetFlops;
  bool has_friction_ = false;  // some point may have 0 < μ < ∞ (else no friction code runs)

  // --- The state (everything that determines the future), and what is derived from it. ---
  SimulationState state_;
  struct Derived {
    std::vector<int> active_points;         // indices of the active points, ascending
    RowLayout layout;                       // rows of the smooth phase: joints, active normals and tangents
    RowLayout position_layout;              // rows with a position: joints and active normals
    Vector qdd, multipliers;                // q̈ and λ at the committed state
    std::vector<double> point_multiplier;   // λ of each active point's unilateral row, 0 for the others
    std::vector<SlidingContact> sliding;    // the sliding frictional points of the active set
    // A restored state whose q̈ and λ are not computed yet (derive_restored, the first transaction after
    // the restore): point_multiplier holds the λ it showed, and shown_friction its tangential forces.
    bool pending = false;
    std::vector<double> shown_friction;
  } derived_;

  // --- The impact log: the latest records, within a memory budget; M shared by them all. The records of
  // the transaction under way wait until it completes. ---
  ImpactLog log_;
  std::shared_ptr<const Inertia> record_inertia_;
  std::vector<ImpactRecord> pending_records_;

  // --- The views: what the last call shows (the committed state, or a partial step from it). ---
  struct Views {
    Vector q, qd;
    std::vector<ContactPoint> points;
    Energy energy;
    double violation = 0.0;
    double drift = 0.0;
    bool work_limit_hit = false;
    bool of_committed = false;  // written by show_committed from the state as it still is
  } view_;

  // A settle's state at the top of one of its passes, kept so that a settle taken again after the budget
  // stopped it goes on from there: under the key of its entry, with the replay's position and generation.
  struct SettlePass {
    std::uint64_t entry = 0, generation = 0;
    std::size_t position = 0, pass = 0;
    std::vector<char> joined;
    SimulationState state;
    Derived derived;
    std::size_t records_before = 0;      // the transaction's records when the settle began
    std::vector<ImpactRecord> records;   // those it logged since
  };

  // --- Scratch buffers, reused from step to step (nothing here outlives a call's meaning). ---
  struct Workspace {
    ConstraintRows rows;                    // A of the active set (compressed rows on the sparse path)
    ConstraintRows position_rows;           // the rows with a φ (joints, active normals)
    ConstraintRows joint_rows;              // joints only, for the violation
    std::vector<double> event_multipliers;  // λ per point at a trial state
    Vector stage_q, stage_qd, stage_qdd, sum_qd, sum_qdd;
    Vector trial_q, trial_qd, lo_q, lo_qd, hi_q, hi_qd;
    Vector start_q, start_qd, start_qdd, start_multipliers;  // the step start, to go back to
    std::vector<double> start_point_multiplier;
    std::vector<double> gap_threshold;      // crossing level of every inactive point in the current step
    std::vector<double> pair_threshold;     // the same of every watched pair (automatic_contacts.hpp)
    std::vector<double> apart_level;        // the gap beyond which an active point has parted, this step
    std::vector<double> lambda_level;       // the λ below which an active point pulls, this step
    std::vector<char> pair_located;         // watched pairs with an event at this step's end
    std::vector<double> margin_floor;       // the margins a step that outran them needs
    double watch_work = 0.0;                // flops of one pass over the watched pairs
    std::vector<double> values_start, values_lo, values_hi, values_trial;
    std::vector<FeaturePair> found;         // automatic points found at a step start
    ConstraintRows sliding_rows;            // tangential rows of the sliding points
    ConstraintRows point_row;               // one row of one point in compressed rows (point_row())
    Vector event_lambda;                    // λ at a trial state (friction's events)
    double lambda_tolerance = 0.0;          // of the current step
    // The work of the call, and the transaction under way (the impulses due now and one step): where it
    // started, to go back to when the budget runs out, and its evaluations, replayed when it is taken again.
    WorkBudget budget;
    SimulationState transaction_state;
    Derived transaction_derived;
    detail::EvaluationReplay replay;
    // The smooth phase's Delassus factorisation: only the symbolic analysis of the last pattern of A
    // outlives a call (factorize_as_new), never a result; a copy of the simulator starts without it.
    detail::DelassusWorkspace delassus;
    // The same for the non-negative split's solves on the sparse path: every row, then the passive ones.
    detail::DelassusWorkspace split_all_rows, split_passive_rows;
    // The same for the impacts' solves on the sparse path (the Γ rule's passes come back to their row sets).
    detail::DelassusWorkspace impact_delassus;
    // The same for the position projection's A⁺φ on the sparse path (A Aᵀ: unit weights).
    detail::DelassusWorkspace position_delassus;
    // The smooth phase's oblique solve with sliding friction, when the budget stopped it part-way.
    detail::SlidingSolveWorkspace sliding_solve;
    // Where each settle of the transaction under way stood at its last pass (resume_settle).
    std::vector<SettlePass> settle_passes;
    Vector unit_weights;
    IslandSet islands;  // the islands of the impact under way (impact_scope)
  } work_;
};

}  // namespace oblique

// The Simulator's settle (simulator.hpp): the active set made consistent at a committed state — the Γ
// rule's releases of pulling points, the points at rest that the set drives into their partner joining it,
// friction's stick/slip switches and Painlevé's way out — one pass at a time, and the resume points that
// let a settle stopped by the work budget go on from its last pass in the next call.
#include "oblique/simulation/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace oblique {

void Simulator::settle() {
  // reads the state and its λ ⇒ writes state.active/sliding (releasing pulling contacts), then refresh.
  // Release, one at a time, the active contact that pulls hardest, until every λ ≥ −tolerance (Γ rule).
  collect_active_points();
  refresh();
  // With friction, as many passes again for the stick/slip switches and the Painlevé way out.
  const std::size_t passes = (has_friction_ ? 4 : 3) * state_.active.size();
  std::vector<char> joined(state_.active.size(), 0);  // points that joined in this settle
  // Taken again after the budget stopped it: on from the last pass it reached, not from its first.
  const std::uint64_t entry = settle_entry_key();
  std::size_t guard = 0;
  const std::size_t records_before = pending_records_.size();
  resume_settle(entry, guard, joined);
  for (; guard <= passes; ++guard) {
    // (The first pass starts from the entry itself: nothing to keep.)
    if (guard > 0) keep_settle_pass(entry, records_before, guard, joined);
    const double tolerance = multiplier_tolerance();
    int worst = -1;
    double worst_value = -tolerance;
    for (int k : derived_.active_points) {
      // A point that joined in this settle stays, even if it pulls (below).
      if (joined[static_cast<std::size_t>(k)]) continue;
      if (derived_.point_multiplier[static_cast<std::size_t>(k)] < worst_value) {
        worst = k;
        worst_value = derived_.point_multiplier[static_cast<std::size_t>(k)];
      }
    }
    if (worst < 0 && has_friction_) {
      // Friction (contact_friction.hpp): a sticking point beyond its cone slides, a sliding point whose
      // slip changed sign sticks or reverses; a Painlevé state takes a tangential impact. A set consistent
      // in its friction goes on to the points at rest that it drives into their partner (below), as
      // without friction: a pile's points chatter the same way when their neighbours stick.
      const int inconsistent = friction_inconsistency(tolerance);
      const bool painleve = inconsistent < 0 && painleve_at_state();
      if (inconsistent >= 0) switch_friction(inconsistent);
      if (painleve) tangential_impact();
      if (inconsistent >= 0 || painleve) {
        collect_active_points();
        refresh();
        continue;
      }
    }
    if (worst < 0) {
      // Complementarity the other way: a point outside the set that touches at rest and that the set's
      // dynamics drive into its partner (φ̈ < 0) joins it, once per settle — releasing the hardest puller
      // first can release the wrong one of two (a box between two others: the one below pulls until the one
      // above is released), and a released point that approaches then meets its partner again micro-
      // seconds later in a plastic impact, which releases it again, without end. A point that joined stays
      // for the same reason even should it pull (sticking bodies wedged in a pile, where no set is free of
      // both pulling and approaching): it is held, and its λ event is then a pull beyond the one it starts
      // the step with.
      const int joining = approaching_at_rest(joined);
      if (joining < 0) break;
      joined[static_cast<std::size_t>(joining)] = 1;
      state_.active[static_cast<std::size_t>(joining)] = 1;
      state_.sliding[static_cast<std::size_t>(joining)] = 0;
      collect_active_points();
      refresh();
      continue;
    }
    release(worst);
    collect_active_points();
    refresh();
  }
}

std::uint64_t Simulator::settle_entry_key(int kind) const {
  // The state a settle starts from, and where in the transaction's evaluations it does: a settle taken
  // again has the same, and so does nothing else.
  detail::InputKey key(kind);
  key.add(state_.time).add(state_.q).add(state_.qd).add(state_.active).add(state_.sliding);
  key.add(static_cast<int>(work_.replay.position()));
  return key.value();
}

void Simulator::keep_settle_pass(std::uint64_t entry, std::size_t records_before, std::size_t pass,
                                 const std::vector<char>& joined) {
  // reads the state at the top of a settle's pass ⇒ writes it as that settle's resume point. Every pass
  // is a function of this state, of `joined` and of the evaluations recorded before it, so a settle that
  // goes on from here gives the bits of one that never stopped.
  std::vector<SettlePass>& kept = work_.settle_passes;
  auto it = std::find_if(kept.begin(), kept.end(), [&](const SettlePass& p) { return p.entry == entry; });
  if (it == kept.end()) it = kept.insert(kept.end(), SettlePass{});
  it->entry = entry;
  it->generation = work_.replay.generation();
  it->position = work_.replay.position();
  it->pass = pass;
  it->joined = joined;
  it->state = state_;
  it->derived = derived_;
  // The records of its tangential impacts (records are only ever appended): those since its entry.
  it->records_before = records_before;
  for (std::size_t i = records_before + it->records.size(); i < pending_records_.size(); ++i) {
    it->records.push_back(pending_records_[i]);
  }
}

bool Simulator::resume_settle(std::uint64_t entry, std::size_t& pass, std::vector<char>& joined) {
  // reads the resume points kept ⇒ writes the state, the records and the replay's cursor at the last pass
  // a settle with this entry reached, when the evaluations before it are still those recorded.
  std::vector<SettlePass>& kept = work_.settle_passes;
  kept.erase(std::remove_if(kept.begin(), kept.end(),
                            [&](const SettlePass& p) { return !work_.replay.holds(p.position, p.generation); }),
             kept.end());
  const auto it = std::find_if(kept.begin(), kept.end(), [&](const SettlePass& p) { return p.entry == entry; });
  if (it == kept.end()) return false;
  pass = it->pass;
  joined = it->joined;
  state_ = it->state;
  derived_ = it->derived;
  pending_records_.resize(it->records_before);
  pending_records_.insert(pending_records_.end(), it->records.begin(), it->records.end());
  work_.replay.seek(it->position);
  return true;
}

int Simulator::approaching_at_rest(const std::vector<char>& joined) {
  // reads the committed state and its q̈ ⇒ the separated point that touches, is at rest (|φ̇| ≤ v_tol) and
  // whose φ̈ = A_k q̈ + Ȧ_k q̇ is the most negative below −a_tol, a_tol = 1e-9 × max(|g|, V²/L_min, 1e-6 m/s²); −1 if none.
  if (contact_point_count() == 0 || !(smallest_body_size_ > 0.0)) return -1;
  const double tolerance = acceleration_tolerance();
  int chosen = -1;
  double lowest = -tolerance;
  for (int k = 0; k < contact_point_count(); ++k) {
    const std::size_t i = static_cast<std::size_t>(k);
    if (state_.active[i] || joined[i] || gap_of(k, state_.q) > gap_tolerance(k)) continue;
    const SparseJacobian& row = point_row(k, RowKind::Normal, state_.q, state_.qd);
    if (std::abs(row_dot(row, state_.qd)) > speed_tolerance(k)) continue;
    const double acceleration = row_dot(row, derived_.qdd) + work_.point_row.adot_qd(0);
    if (acceleration < lowest) {
      lowest = acceleration;
      chosen = k;
    }
  }
  return chosen;
}

void Simulator::release(int point) {
  // reads state.sliding ⇒ writes state.active/sliding of one point.
  // A sticking contact that pulls first slides (its tangential row leaves A: with no slip the contact can
  // need a pull where a sliding one would not); a contact that pulls while sliding, or never sticks,
  // separates.
  const std::size_t k = static_cast<std::size_t>(point);
  if (sticks(point) && !state_.sliding[k]) {
    state_.sliding[k] = 1;
  } else {
    state_.active[k] = 0;
    state_.sliding[k] = 0;
  }
}

}  // namespace oblique

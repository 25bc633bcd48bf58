#include "scene_system.hpp"

#include "oblique/model/model.hpp"

namespace oblique::scenes {

ConstraintSystem every_row_active(const Scenario& scenario) {
  const Model model(scenario);
  const Vector q = model.initial_positions();
  ConstraintSystem out;
  out.velocity = model.initial_velocities();
  // Joints first, then one normal row per contact point, as the simulator stacks them.
  ConstraintRows rows;
  rows.resize(model.joint_row_total() + model.contact_point_count(), model.dofs());
  model.all_joint_rows(q, out.velocity, 0, rows);
  for (int k = 0; k < model.contact_point_count(); ++k) {
    model.contact_normal_row(k, q, out.velocity, model.joint_row_total() + k, rows);
  }
  out.masses = model.mass_diagonal();
  out.jacobian = rows.jacobian;
  out.sparse = to_sparse(rows.jacobian);
  out.adot_qd = rows.adot_qd;
  out.bias = model.bias_force();
  out.applied = model.applied_force();
  return out;
}

}  // namespace oblique::scenes

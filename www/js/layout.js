// The layout of the arrays the wasm API returns (contactData, lawData, bodyPoses[3],
// bodyVelocities[3]), read once from Simulation.layout(): one description in the library,
// no strides or offsets written again here. Fields are looked up by name: layout.contact.gap.

/** Filled by readLayout(); each block has `stride` and one index per field name. */
export const layout = { contact: null, law: null, planar: null, spatial: null };

/** A block of field names with units ("gap [m]") → {stride, gap: 0, gap_rate: 1, …}. */
function block(fields) {
  const out = { stride: fields.length, fields };
  fields.forEach((f, i) => { out[f.split(" ")[0]] = i; });
  return out;
}

/** Reads the layout from the API (call once, after the wasm module is initialised). */
export function readLayout(Simulation) {
  if (layout.contact) return layout;
  const l = Simulation.layout();
  layout.contact = block(l.contact);
  layout.law = block(l.law);
  layout.planar = { pose: block(l.planar.positions), velocity: block(l.planar.velocities) };
  layout.spatial = { pose: block(l.spatial.positions), velocity: block(l.spatial.velocities) };
  return layout;
}

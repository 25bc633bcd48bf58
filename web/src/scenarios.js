// The built-in scenarios (web/scenarios/*.json, listed in teaching order by index.json), bundled by Vite as
// separate chunks: a scenario's JSON is fetched only when it is picked.
const files = import.meta.glob(['../scenarios/*.json', '!../scenarios/*.schema.json'], { import: 'default' });

/** The index entries `{id, file, title}` in teaching order (those whose file exists). */
export async function scenarioIndex() {
  const load = files['../scenarios/index.json'];
  if (!load) return [];
  const index = await load();
  const entries = Array.isArray(index) ? index : index.scenarios ?? [];
  return entries.filter((entry) => files[`../scenarios/${entry.file}`]);
}

/** The scenario document of an index entry. */
export async function scenarioDocument(entry) {
  const load = files[`../scenarios/${entry.file}`];
  if (!load) throw new Error(`scenario ${entry.id}: no file ${entry.file}`);
  // A copy: the module's object is shared and the page must not change it.
  return structuredClone(await load());
}

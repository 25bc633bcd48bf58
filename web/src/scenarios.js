// The built-in scenarios (web/scenarios/*.json, listed in teaching order by index.json). The index is bundled
// with the page (its first screen needs it at once); each scenario's JSON is a separate chunk, fetched only
// when it is picked.
const index = Object.values(import.meta.glob('../scenarios/index.json', { eager: true, import: 'default' }))[0];
const files = import.meta.glob(['../scenarios/*.json', '!../scenarios/*.schema.json', '!../scenarios/index.json'],
  { import: 'default' });

/** The index entries `{id, file, title}` in teaching order (those whose file exists). */
export function scenarioIndex() {
  const entries = Array.isArray(index) ? index : index?.scenarios ?? [];
  return entries.filter((entry) => files[`../scenarios/${entry.file}`]);
}

/** The scenario document of an index entry. */
export async function scenarioDocument(entry) {
  const load = files[`../scenarios/${entry.file}`];
  if (!load) throw new Error(`scenario ${entry.id}: no file ${entry.file}`);
  // A copy: the module's object is shared and the page must not change it.
  return structuredClone(await load());
}

// The built-in scenarios (web/scenarios/*.json, listed in teaching order by index.json). The index is bundled
// with the page (its first screen needs it at once); each scenario's JSON is a separate chunk, fetched only
// when it is picked.
const index = Object.values(import.meta.glob('../../scenarios/index.json', { eager: true, import: 'default' }))[0];
const files = import.meta.glob(['../../scenarios/*.json', '!../../scenarios/*.schema.json', '!../../scenarios/index.json'],
  { import: 'default' });

/** The index entries `{id, file, title}` in teaching order (those whose file exists). */
export function scenarioIndex() {
  const entries = Array.isArray(index) ? index : index?.scenarios ?? [];
  return entries.filter((entry) => files[`../../scenarios/${entry.file}`]);
}

/**
 * The documents asked for, by file: one asked for again (the page's first scenario, sent to the worker ahead
 * and then loaded) is not imported anew, which in Chromium waits for a later task, at worst behind a frame.
 */
const documents = new Map();

/** The scenario document of an index entry. */
export async function scenarioDocument(entry) {
  const load = files[`../../scenarios/${entry.file}`];
  if (!load) throw new Error(`scenario ${entry.id}: no file ${entry.file}`);
  if (!documents.has(entry.file)) {
    // A file that could not be fetched is asked for again next time.
    documents.set(entry.file, load().catch((error) => {
      documents.delete(entry.file);
      throw error;
    }));
  }
  // A copy: the module's object is shared and the page must not change it.
  return structuredClone(await documents.get(entry.file));
}

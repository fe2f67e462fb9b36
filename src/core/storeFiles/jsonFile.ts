// Reading one small JSON file (store.json, config.json, a journal, a cache, a marker): the one copy of
// "read it, parse it, and treat a missing or garbled file as absent". Such files are replaced whole
// (writeFileAtomic) or written once, so a garbled one was cut short by a kill or a full disk, or was
// written by someone else: the caller's fallback applies, never an exception in a hook.
import * as fs from 'node:fs';

/** What reading a JSON file found: its value, or why there is none (the text too when it is not JSON). */
export type JsonFileRead =
  | { ok: true; value: unknown }
  | { ok: false; why: 'missing' }
  | { ok: false; why: 'unreadable'; error: NodeJS.ErrnoException }
  | { ok: false; why: 'garbled'; text: string };

/** Reads and parses `file`, saying what stood in the way; for a caller whose answer depends on why (store.json). */
export function readJson(file: string): JsonFileRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const error = e as NodeJS.ErrnoException;
    return error.code === 'ENOENT' ? { ok: false, why: 'missing' } : { ok: false, why: 'unreadable', error };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, why: 'garbled', text };
  }
}

/** The parsed content of `file`, or undefined when it is missing, unreadable or not JSON. The caller checks its shape. */
export function readJsonFile(file: string): unknown {
  const r = readJson(file);
  return r.ok ? r.value : undefined;
}

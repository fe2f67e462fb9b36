// `verify` (fsck): re-hash every blob, parse every line, check every snapshot's blob exists and
// that the timeline index beside the log agrees with it.
// Errors make the store unsound; warnings (a torn line a killed hook left, leftover temp files)
// are reported and cost nothing — readers already skip them.
import { readJournal } from '../rewind/journal';
import { isSnap } from '../storeFiles/records';
import type { Store } from '../store';
import { checkIndex } from '../timeline/timelineIndex';

export interface VerifyReport {
  ok: boolean;
  format: number;
  lines: number;
  blobs: number;
  checkpoints: number;
  errors: string[];
  warnings: string[];
}

export function verifyStore(store: Store): VerifyReport {
  const errors: string[] = [];
  const warnings: string[] = [];
  const { records, problems } = store.read();
  for (const p of problems) {
    const msg = `files.jsonl line ${p.line}: ${p.reason}`;
    // Unparseable text is what a writer killed mid-line leaves: skipped by every reader, nothing
    // it described was ever recorded. A well-formed line with bad fields was written wrong: an error.
    if (p.reason.startsWith('not valid JSON')) warnings.push(msg);
    else errors.push(msg);
  }
  let blobs = 0;
  const bad = new Set<string>();
  for (const hash of store.blobs.list()) {
    blobs++;
    try {
      store.blobs.get(hash);
    } catch (e) {
      bad.add(hash);
      errors.push((e as Error).message);
    }
  }
  const missing = new Set<string>();
  for (const r of records) {
    if (!isSnap(r) || r.hash === null || bad.has(r.hash) || missing.has(r.hash)) continue;
    if (!store.blobs.has(r.hash)) {
      missing.add(r.hash);
      errors.push(`blob ${r.hash.slice(0, 12)} (snapshot of ${r.path}) is missing`);
    }
  }
  // The index beside the log is derived: wrong, it would give wrong plans; stale, it is just rebuilt.
  const badIndex = checkIndex(store.dir, store.logFile, { records, problems });
  if (badIndex) errors.push(badIndex);
  const temps = store.blobs.staleTemps(0);
  if (temps.length) warnings.push(`${temps.length} temporary blob file(s) left by interrupted writers (gc removes them)`);
  const j = readJournal(store);
  if (j) warnings.push(`an unfinished rewind (checkpoint ${j.checkpoint}) is waiting to be finished by the next command`);
  return {
    ok: errors.length === 0,
    format: store.meta().format,
    lines: records.length + problems.length,
    blobs,
    checkpoints: records.filter((r) => r.t === 'checkpoint').length,
    errors,
    warnings,
  };
}

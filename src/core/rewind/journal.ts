// The rewind journal: written (atomically) after the rewind checkpoint and before the first file
// write, removed once the results are recorded. A journal left behind means a rewind was killed
// half-way; the next command finishes it from here (recoverUnfinished).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fault } from '../faults';
import { writeFileAtomic } from '../storeFiles/fsx';
import { acquireStoreLock } from '../storeFiles/lock';
import type { SnapRecord } from '../storeFiles/records';
import type { Store } from '../store';
import { hashOnDisk, removeEmptiedDirs, removeEmptyDirs, type Write } from './writes';
import { STORE_FILE } from '../storeFiles/names';
import { readJsonFile } from '../storeFiles/jsonFile';
import { isError } from '../errors';

export interface Journal {
  checkpoint: string;
  target: string;
  started: number;
  pid: number;
  writes: Write[];
}

export function writeJournal(store: Store, j: Journal): void {
  const file = path.join(store.dir, STORE_FILE.rewindJournal);
  writeFileAtomic(file, JSON.stringify(j), { tmp: `${file}.tmp`, sync: true });
}

export function readJournal(store: Store): Journal | null {
  return (readJsonFile(path.join(store.dir, STORE_FILE.rewindJournal)) as Journal | null | undefined) ?? null;
}

export function removeJournal(store: Store): void {
  try {
    fs.unlinkSync(path.join(store.dir, STORE_FILE.rewindJournal));
  } catch {
    /* gone */
  }
}

export interface Recovery {
  checkpoint: string;
  target: string;
  written: string[];
  notWritten: string[];
  changedSince: string[];
}

/**
 * Finishes a rewind that was killed: records what it had already written (as `rewind`
 * snapshots), removes its temp files and journal. Afterwards both undo (rewind to its checkpoint)
 * and rewinding again work without --force. Takes the store lock, so it never races a rewind that
 * is running (that rewind finishes its own journal); returns null then, or when there is nothing to do.
 */
export function recoverUnfinished(store: Store): Recovery | null {
  if (!readJournal(store)) return null; // the common case: no lock file churn
  let release: () => void;
  try {
    release = acquireStoreLock(store.dir, 'recovery');
  } catch (e) {
    if (isError(e, 'store-busy')) return null;
    throw e;
  }
  try {
    fault('lock.acquired');
    return recoverLocked(store);
  } finally {
    release();
  }
}

/** The recovery itself; the caller holds the store lock. */
export function recoverLocked(store: Store): Recovery | null {
  const j = readJournal(store);
  if (!j) return null;
  if (j.pid === process.pid) return null; // our own rewind, still between begin and finish
  const rec: Recovery = { checkpoint: j.checkpoint, target: j.target, written: [], notWritten: [], changedSince: [] };
  const snaps: SnapRecord[] = [];
  for (const w of j.writes) {
    try {
      fs.unlinkSync(w.tmp);
    } catch {
      /* none */
    }
    const now = hashOnDisk(store, w.path);
    if (now === w.to) {
      const s = store.snapshot(w.path, 'rewind');
      if (s) snaps.push({ ...s, by: j.checkpoint, ...(w.origin && s.hash === w.to ? { origin: w.origin } : {}) });
      rec.written.push(w.path);
    } else if (now === w.expect) rec.notWritten.push(w.path);
    else {
      // Someone else's content (saved while the rewind ran or since): kept in the store, as a live rewind keeps it.
      rec.changedSince.push(w.path);
      const s = store.snapshot(w.path, 'observed');
      if (s) snaps.push(s);
    }
  }
  // Folders: those the finished deletions emptied, and those made for files never written.
  const written = new Set(rec.written);
  removeEmptiedDirs(j.writes.filter((w) => written.has(w.path)));
  removeEmptyDirs(j.writes.flatMap((w) => (written.has(w.path) ? [] : (w.made ?? []))));
  store.append(snaps);
  fault('recover.recorded');
  removeJournal(store);
  return rec;
}

// Retention and sweep. Checkpoints older than the retention period are dropped; for every path
// the latest snapshot before the oldest kept checkpoint is kept (so `stateAt` stays exact for every
// checkpoint that remains); shell-capture scan states untouched for the retention period are
// dropped; blobs nobody references — no kept line, no remaining scan state — are deleted. Runs
// under the store lock (no rewind at the same time) and the compaction lock (hooks wait while the
// log is rewritten).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { acquireCompactionLock, acquireStoreLock } from './lock';
import { isCheckpoint, isSnap, type LogRecord, type Sequenced } from './records';
import { referencedBlobs } from './scan/references';
import { stateCompanions, stateFiles } from './scan/stateFile';
import type { Store } from './store';

export interface GcReport {
  keptCheckpoints: number;
  droppedCheckpoints: number;
  droppedLines: number;
  blobsFreed: number;
  bytesFreed: number;
  tempFilesRemoved: number;
  scanStatesRemoved: number;
  bytesLeft: number;
}

/** Temp files a killed hook left in scan/ (a state being saved, git's output for a scan). */
function staleScanTemps(storeDir: string, olderThanMs: number, now: number): string[] {
  const dir = path.join(storeDir, 'scan');
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.tmp') || /^git-.*\.(out|status)$/.test(n))
    .map((n) => path.join(dir, n))
    .filter((f) => now - (fs.statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? now) > olderThanMs);
}

/** Removes scan states whose files (state, in-flight call…) were all last written before `cutoff`. */
function dropOldScanStates(storeDir: string, cutoff: number): number {
  let n = 0;
  for (const f of stateFiles(storeDir)) {
    const companions = stateCompanions(f);
    const newest = Math.max(...companions.map((c) => fs.statSync(c, { throwIfNoEntry: false })?.mtimeMs ?? 0));
    if (newest >= cutoff) continue;
    for (const c of companions) fs.rmSync(c, { force: true });
    n++;
  }
  return n;
}

/** Which records survive a retention cut (pure). */
export function retain(records: readonly Sequenced[], cutoffTime: number): { kept: LogRecord[]; droppedCheckpoints: number } {
  const firstKept = records.find((r) => isCheckpoint(r) && r.time >= cutoffTime);
  const boundary = firstKept ? firstKept.seq : Infinity;
  const lastBefore = new Map<string, Sequenced>();
  let droppedCheckpoints = 0;
  for (const r of records) {
    if (r.seq >= boundary) break;
    if (isSnap(r)) lastBefore.set(r.path, r);
    else if (isCheckpoint(r)) droppedCheckpoints++;
  }
  const keep = new Set<number>([...lastBefore.values()].map((r) => r.seq));
  const kept: LogRecord[] = [];
  for (const r of records) {
    if (r.seq >= boundary || keep.has(r.seq)) {
      const { seq: _seq, ...rest } = r;
      kept.push(rest as LogRecord);
    }
  }
  return { kept, droppedCheckpoints };
}

function dirBytes(dir: string): number {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += dirBytes(p);
    else {
      try {
        total += fs.lstatSync(p).size;
      } catch {
        /* gone */
      }
    }
  }
  return total;
}

export function storeBytes(store: Store): number {
  return dirBytes(store.dir);
}

export function gc(store: Store, keepDays: number, now = Date.now()): GcReport {
  const releaseStore = acquireStoreLock(store.dir, 'cleanup');
  try {
    const releaseCompaction = acquireCompactionLock(store.dir);
    let droppedCheckpoints = 0;
    let droppedLines = 0;
    let blobsFreed = 0;
    let bytesFreed = 0;
    let scanStatesRemoved = 0;
    let keptRecords: LogRecord[];
    try {
      const { records, problems } = store.read();
      const cut = retain(records, now - keepDays * 86400000);
      droppedCheckpoints = cut.droppedCheckpoints;
      keptRecords = cut.kept;
      droppedLines = records.length + problems.length - cut.kept.length;
      if (droppedLines > 0) {
        const tmp = `${store.logFile}.gc.tmp`;
        const fd = fs.openSync(tmp, 'w', 0o600);
        try {
          fs.writeSync(fd, keptRecords.map((r) => JSON.stringify(r)).join('\n') + (keptRecords.length ? '\n' : ''));
          fs.fsyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
        fs.renameSync(tmp, store.logFile);
      }
      // Sweep while hooks still wait: a blob a hook writes now could not be referenced yet. A
      // live session's scan state holds the only copy of files as they were before the next
      // shell command (untracked or dirty ones): those blobs stay.
      scanStatesRemoved = dropOldScanStates(store.dir, now - keepDays * 86400000);
      const referenced = referencedBlobs(store.dir);
      for (const r of keptRecords) if (r.t === 'snap' && r.hash) referenced.add(r.hash);
      for (const hash of [...store.blobs.list()]) {
        if (referenced.has(hash)) continue;
        const p = store.blobs.pathOf(hash);
        try {
          bytesFreed += fs.statSync(p).size;
          fs.unlinkSync(p);
          blobsFreed++;
        } catch {
          /* gone */
        }
      }
    } finally {
      releaseCompaction();
    }
    let tempFilesRemoved = 0;
    for (const t of [...store.blobs.staleTemps(3600000, now), ...staleScanTemps(store.dir, 3600000, now)]) {
      try {
        fs.unlinkSync(t);
        tempFilesRemoved++;
      } catch {
        /* gone */
      }
    }
    const keptCheckpoints = keptRecords.filter((r) => r.t === 'checkpoint').length;
    return {
      keptCheckpoints,
      droppedCheckpoints,
      droppedLines,
      blobsFreed,
      bytesFreed,
      tempFilesRemoved,
      scanStatesRemoved,
      bytesLeft: storeBytes(store),
    };
  } finally {
    releaseStore();
  }
}

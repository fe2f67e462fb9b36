// Retention and sweep. Checkpoints older than the retention period are dropped; for every path
// the latest snapshot before the oldest kept checkpoint is kept (so `stateAt` stays exact for every
// checkpoint that remains); shell-capture scan states untouched for the retention period are
// dropped; blobs nobody references — no kept line, no remaining scan state — are deleted. Runs
// under the store lock (no rewind at the same time) and the compaction lock (hooks wait while the
// log is rewritten).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errCode, writeFileAtomic } from '../storeFiles/fsx';
import { fault } from '../faults';
import { parseLogBytes, readGaps } from '../storeFiles/fileLog';
import { acquireCompactionLock, acquireStoreLock, liveWriters } from '../storeFiles/lock';
import { type CheckpointRecord, isCheckpoint, isSnap, type LogRecord, type Sequenced } from '../storeFiles/records';
import { referencedBlobs, stateBlobs } from '../scan/references';
import { stateCompanions, stateFile, stateFiles } from '../scan/stateFile';
import type { Store } from '../store';
import { STORE_FILE } from '../storeFiles/names';

export interface GcReport {
  /** With a size limit: how many checkpoints it dropped besides the retention days, and whether the store fits now. */
  sizeLimit?: { maxBytes: number; droppedCheckpoints: number; fits: boolean };
  keptCheckpoints: number;
  droppedCheckpoints: number;
  droppedLines: number;
  blobsFreed: number;
  bytesFreed: number;
  tempFilesRemoved: number;
  scanStatesRemoved: number;
  bytesLeft: number;
  /** Rewind checkpoints the cut would have dropped and kept instead, and why (see guardedRewinds). */
  kept: GcKept[];
}

/** A rewind checkpoint no clean-up removes: the undo of the last rewind, or a rewind that kept the user's own content. */
export interface GcKept {
  checkpoint: string;
  time: number;
  /** `last-rewind`: undoing the last rewind needs it; `kept-content`: its pre-rewind copies (what a forced or merged rewind overwrote) are recorded nowhere newer. */
  reason: 'last-rewind' | 'kept-content';
  /** For `kept-content`: the paths whose content only this rewind's undo brings back. */
  paths: string[];
}

/** Temp files a killed hook left in scan/ (a state being saved, git's output for a scan). */
function staleScanTemps(storeDir: string, olderThanMs: number, now: number): string[] {
  const dir = path.join(storeDir, STORE_FILE.scan);
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
  return retainFrom(records, Math.min(daysBoundary(records, cutoffTime), guardFloor(guardedRewinds(records))));
}

/** Pre-rewind snapshots whose path has the same content in a later snapshot (so they hold nothing only they have). */
function preRewindHeldLater(records: readonly Sequenced[]): Set<number> {
  const held = new Set<number>();
  const later = new Map<string, Set<string | null>>();
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    if (!isSnap(r)) continue;
    let hashes = later.get(r.path);
    if (r.phase === 'pre-rewind' && hashes?.has(r.hash)) held.add(r.seq);
    if (!hashes) later.set(r.path, (hashes = new Set()));
    hashes.add(r.hash);
  }
  return held;
}

/**
 * The rewind checkpoints no cut may pass (pure), oldest first: the last rewind's (its pre-rewind
 * snapshots and checkpoint are its undo), and every rewind whose pre-rewind snapshots hold content
 * the path's previous record did not (the user's edit a forced rewind or a merge overwrote) and no
 * later record holds either: dropping it would lose that content for good. A cut at such a checkpoint
 * keeps each path's last snapshot before it — exactly the pre-rewind copies — so its undo is exact.
 */
export function guardedRewinds(records: readonly Sequenced[]): (GcKept & { seq: number })[] {
  const heldLater = preRewindHeldLater(records);
  const last = new Map<string, string | null>();
  let pending: string[] = [];
  let lastRewind: Sequenced<CheckpointRecord> | undefined;
  const out: (GcKept & { seq: number })[] = [];
  for (const r of records) {
    if (isSnap(r)) {
      const own = r.phase === 'pre-rewind' && r.hash !== null && last.get(r.path) !== r.hash && !heldLater.has(r.seq);
      if (own) pending.push(r.path);
      last.set(r.path, r.hash);
    } else if (isCheckpoint(r) && r.kind === 'rewind') {
      lastRewind = r;
      if (pending.length)
        out.push({ seq: r.seq, checkpoint: r.id, time: r.time, reason: 'kept-content', paths: [...new Set(pending)].sort() });
      pending = [];
    }
  }
  if (lastRewind) {
    const same = out.at(-1)?.seq === lastRewind.seq;
    if (!same) out.push({ seq: lastRewind.seq, checkpoint: lastRewind.id, time: lastRewind.time, reason: 'last-rewind', paths: [] });
    else out.at(-1)!.reason = 'last-rewind';
  }
  return out;
}

const plain = ({ seq: _seq, ...g }: GcKept & { seq: number }): GcKept => g;

/** The oldest guarded checkpoint's sequence number (Infinity: none). */
function guardFloor(guard: readonly { seq: number }[]): number {
  return guard.length ? guard[0]!.seq : Infinity;
}

/** The sequence number of the oldest checkpoint a cut by time keeps (Infinity: none). */
function daysBoundary(records: readonly Sequenced[], cutoffTime: number): number {
  const firstKept = records.find((r) => isCheckpoint(r) && r.time >= cutoffTime);
  return firstKept ? firstKept.seq : Infinity;
}

/** Keeps everything from `boundary` on, plus each path's last snapshot before it (so stateAt stays exact). */
function retainFrom(records: readonly Sequenced[], boundary: number): { kept: LogRecord[]; droppedCheckpoints: number } {
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

/** Blob hashes the records kept from `boundary` on refer to (what retainFrom keeps, without building it). */
function keptHashes(records: readonly Sequenced[], boundary: number, into: Set<string>): Set<string> {
  const lastBefore = new Map<string, string | null>();
  for (const r of records) {
    if (!isSnap(r)) continue;
    if (r.seq >= boundary) {
      if (r.hash) into.add(r.hash);
    } else lastBefore.set(r.path, r.hash);
  }
  for (const h of lastBefore.values()) if (h) into.add(h);
  return into;
}

/**
 * The oldest checkpoint to keep so the store holds at most `maxBytes`: the cut moves from the
 * retention boundary towards newer checkpoints (the oldest sessions' blobs go first), never past the
 * newest checkpoint nor `floor` (the oldest guarded rewind: the undo of the last rewind, content only a
 * rewind kept), and every blob a kept checkpoint or a scan state needs stays. Binary search: what a later cut keeps
 * is a subset of what an earlier one keeps.
 */
export function sizeBoundary(
  records: readonly Sequenced[],
  from: number,
  maxBytes: number,
  blobSize: ReadonlyMap<string, number>,
  pinned: (boundary: number) => Set<string>,
  otherBytes: number,
  floor: number,
): { boundary: number; fits: boolean } {
  const cps = records.filter((r): r is Sequenced<CheckpointRecord> => isCheckpoint(r));
  const limit = Math.min(cps.at(-1)?.seq ?? Infinity, floor);
  const cands = cps.filter((c) => c.seq >= from && c.seq <= limit).map((c) => c.seq);
  if (cands.length === 0) return { boundary: from, fits: false };
  const bytes = (b: number) => {
    let n = otherBytes;
    for (const h of keptHashes(records, b, pinned(b))) n += blobSize.get(h) ?? 0;
    return n;
  };
  if (bytes(cands[0]!) <= maxBytes) return { boundary: cands[0]!, fits: true };
  let lo = 0; // too big
  let hi = cands.length - 1;
  if (bytes(cands[hi]!) > maxBytes) return { boundary: cands[hi]!, fits: false };
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (bytes(cands[mid]!) <= maxBytes) hi = mid;
    else lo = mid;
  }
  return { boundary: cands[hi]!, fits: true };
}

/** Sessions with a record from `boundary` on: they keep their scan state. */
function sessionsFrom(records: readonly Sequenced[], boundary: number): Set<string> {
  const out = new Set<string>();
  for (const r of records) if (r.seq >= boundary && (r.t === 'checkpoint' || r.t === 'snap') && r.session) out.add(r.session);
  return out;
}

/**
 * Scan states by session, for a size cut: a session whose every record is cut loses its scan state
 * (the baseline it would compare its next shell command with) and the copies only that state kept; a
 * state file of no session in the log always stays.
 */
function scanStatesBySession(storeDir: string, records: readonly Sequenced[]) {
  const bySession = new Map<string, { file: string; blobs: Set<string> }>();
  for (const sess of sessionsFrom(records, 0)) {
    const file = stateFile(storeDir, sess);
    const blobs = stateBlobs(file);
    if (blobs) bySession.set(sess, { file, blobs });
  }
  const known = new Set([...bySession.values()].map((v) => v.file));
  const always = new Set<string>();
  for (const f of stateFiles(storeDir)) if (!known.has(f.replace(/\.json$/, '.scan'))) for (const h of stateBlobs(f) ?? []) always.add(h);
  const pinned = (boundary: number) => {
    const out = new Set(always);
    for (const sess of sessionsFrom(records, boundary)) for (const h of bySession.get(sess)?.blobs ?? []) out.add(h);
    return out;
  };
  const dropCut = (boundary: number) => {
    const kept = sessionsFrom(records, boundary);
    let n = 0;
    for (const [sess, { file }] of bySession) {
      if (kept.has(sess)) continue;
      for (const c of stateCompanions(file)) fs.rmSync(c, { force: true });
      n++;
    }
    return n;
  };
  return { pinned, dropCut };
}

/** Every blob's size on disk. */
export function blobSizes(store: Store): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const h of store.blobs.list()) {
    const st = fs.statSync(store.blobs.pathOf(h), { throwIfNoEntry: false });
    if (st) sizes.set(h, st.size);
  }
  return sizes;
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

export interface GcLimits {
  /** Keep the store at most this big (besides the retention days): the oldest checkpoints go first. */
  maxBytes?: number;
}

function readLogBytes(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    if (errCode(e) === 'ENOENT') return Buffer.alloc(0);
    throw e;
  }
}

/**
 * Replaces the log with `kept` (and the gap lines of the kept span), unless it grew past the `readBytes`
 * gc read: a hook that stopped waiting for gc appended to it, and renaming the compacted copy over it would
 * drop that line. Checked at the rename (`beforeRename`); false when the log was left whole.
 */
function compact(store: Store, kept: readonly LogRecord[], readBytes: number): boolean {
  // Gap lines take no place in the sequence (they are placed by time): those of the kept span stay, after the records.
  const from = kept.find((r) => r.t === 'checkpoint')?.time ?? Number.POSITIVE_INFINITY;
  const lines: unknown[] = [...kept, ...readGaps(store.logFile, { to: readBytes }).filter((g) => g.time >= from)];
  const text = lines.map((r) => JSON.stringify(r)).join('\n') + (lines.length ? '\n' : '');
  const grown = () => (fs.statSync(store.logFile, { throwIfNoEntry: false })?.size ?? 0) !== readBytes;
  return writeFileAtomic(store.logFile, text, { tmp: `${store.logFile}.gc.tmp`, sync: true, beforeRename: () => !grown() });
}

/**
 * May unreferenced blobs be deleted now? Not while a hook records (one that stopped waiting for gc): a blob it
 * has just written is named by a line it has not appended yet. Hooks that come later wait for gc's lock.
 */
function sweepable(store: Store): boolean {
  return liveWriters(store.dir).length === 0;
}

export function gc(store: Store, keepDays: number, now = Date.now(), limits: GcLimits = {}): GcReport {
  const releaseStore = acquireStoreLock(store.dir, 'cleanup');
  try {
    const releaseCompaction = acquireCompactionLock(store.dir);
    let droppedCheckpoints = 0;
    let droppedLines = 0;
    let blobsFreed = 0;
    let bytesFreed = 0;
    let scanStatesRemoved = 0;
    let keptRecords: LogRecord[];
    let sizeLimit: GcReport['sizeLimit'];
    let kept: GcKept[] = [];
    try {
      // The log's bytes as read: a hook that gave up waiting for this gc (the agent is never blocked long)
      // may append after them, and nothing it appends may be lost (see `compact` and `sweepable`).
      const logBytes = readLogBytes(store.logFile);
      const { records, problems } = parseLogBytes(logBytes);
      fault('gc.read');
      const guard = guardedRewinds(records);
      const byDays = daysBoundary(records, now - keepDays * 86400000);
      let boundary = Math.min(byDays, guardFloor(guard));
      kept = guard.filter((g) => g.seq < byDays).map(plain);
      if (limits.maxBytes !== undefined && boundary !== Infinity) {
        const sizes = blobSizes(store);
        let blobTotal = 0;
        for (const n of sizes.values()) blobTotal += n;
        const scan = scanStatesBySession(store.dir, records);
        const r = sizeBoundary(records, boundary, limits.maxBytes, sizes, scan.pinned, storeBytes(store) - blobTotal, guardFloor(guard));
        const stop = guard.find((g) => g.seq === r.boundary);
        if (!r.fits && stop && !kept.some((k) => k.checkpoint === stop.checkpoint)) kept.push(plain(stop));
        const dropped = records.filter((x) => isCheckpoint(x) && x.seq >= boundary && x.seq < r.boundary).length;
        sizeLimit = { maxBytes: limits.maxBytes, droppedCheckpoints: dropped, fits: r.fits };
        if (dropped > 0) scanStatesRemoved += scan.dropCut(r.boundary);
        boundary = r.boundary;
      }
      const cut = retainFrom(records, boundary);
      droppedCheckpoints = cut.droppedCheckpoints;
      keptRecords = cut.kept;
      droppedLines = records.length + problems.length - cut.kept.length;
      if (droppedLines > 0 && !compact(store, keptRecords, logBytes.length)) {
        // A hook recorded meanwhile: the log stays whole (nothing dropped this time; the next gc compacts it).
        keptRecords = records;
        droppedCheckpoints = 0;
        droppedLines = 0;
      }
      // A live session's scan state holds the only copy of files as they were before the next
      // shell command (untracked or dirty ones): those blobs stay.
      scanStatesRemoved += dropOldScanStates(store.dir, now - keepDays * 86400000);
      const referenced = referencedBlobs(store.dir);
      // Every line in the log now (a hook's line appended since the read too) keeps its blob.
      for (const r of store.read().records) if (r.t === 'snap' && r.hash) referenced.add(r.hash);
      for (const hash of sweepable(store) ? [...store.blobs.list()] : []) {
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
      ...(sizeLimit ? { sizeLimit } : {}),
      keptCheckpoints,
      droppedCheckpoints,
      droppedLines,
      blobsFreed,
      bytesFreed,
      tempFilesRemoved,
      scanStatesRemoved,
      bytesLeft: storeBytes(store),
      kept,
    };
  } finally {
    releaseStore();
  }
}

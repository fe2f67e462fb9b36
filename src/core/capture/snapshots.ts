// A shell command's records: for every path its scan found changed, a `before` and an `after`
// snapshot attributed to the call. Old content of clean git files is copied out of git now
// (`git cat-file --batch`); content the scan copied without fsync is made durable before a line refers to it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBlobs } from '../git/objects';
import { isInside } from '../paths';
import type { SnapRecord } from '../storeFiles/records';
import { missingAncestors } from '../workspace/disk';
import { syncFileSystem } from '../storeFiles/fsx';
import type { Entry } from '../scan/table';
import { type Change, F_GITSTAT, F_LARGE, F_LINK, type ScanState } from '../scan/types';
import type { Store } from '../store';

/** Whose records these are: the shell call that made the changes. */
export interface CallMeta {
  session: string;
  tool: string;
  call?: string;
  time: number;
}

type Dirs = { has(rel: string): boolean };

/**
 * From this many changes on, the copies the lines refer to are made durable together, by one flush of the
 * store's file system, instead of one fsync each: 45,000 changed files spent most of a PostToolUse's ~20 s
 * in fsync. Below it an fsync each is cheaper than starting the flush.
 */
export const BATCH_SYNC_MIN = 64;

/** The `before`/`after` snapshots of what a command changed; `prevDirs` are the folders that stood before it. */
export function snapshotsOf(store: Store, state: ScanState, changes: Change[], prevDirs: Dirs, meta: CallMeta): SnapRecord[] {
  if (changes.length === 0) return [];
  const blobs = gitBlobsOf(state, changes);
  // Copies written or found unsynced in a batch: durable before this returns (the caller appends the lines after).
  const unsynced = changes.length >= BATCH_SYNC_MIN ? new Set<string>() : null;
  const out: SnapRecord[] = [];
  for (const c of changes) {
    const abs = path.join(state.root, ...c.path.split('/'));
    out.push(beforeSnap(store, state, c, abs, prevDirs, blobs, meta, unsynced));
    out.push({ ...afterSnap(store, state, c, abs, meta, unsynced), origin: 'shell' });
  }
  if (unsynced?.size && !syncFileSystem(store.dir)) for (const h of unsynced) syncBlob(store, h);
  return out;
}

/** fsyncs one blob already verified (a batch whose file system could not be flushed at once). */
function syncBlob(store: Store, hash: string): void {
  const fd = fs.openSync(store.blobs.pathOf(hash), 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** A sound copy of `hash` is in the store (verified; fsynced now, or left to the batch's flush). */
function durable(store: Store, hash: string, unsynced: Set<string> | null): boolean {
  if (!store.blobs.makeDurable(hash, !unsynced)) return false;
  unsynced?.add(hash);
  return true;
}

/** Old content of clean git files: one `git cat-file --batch` for all of them. */
function gitBlobsOf(state: ScanState, changes: Change[]): Map<string, Buffer | null> {
  const fromGit = changes.filter((c) => c.before && !c.before.hash && c.before.git && !(c.before.flags & F_LARGE));
  if (!fromGit.length || !state.git) return new Map<string, Buffer | null>();
  return readBlobs(
    state.root,
    fromGit.map((c) => ({ id: c.before!.git!, path: c.path })),
    state.git.filters,
  );
}

function putDurable(store: Store, data: Buffer, hash: string, unsynced: Set<string> | null): string {
  if (store.blobs.has(hash)) {
    if (durable(store, hash, unsynced)) return hash;
    try {
      fs.unlinkSync(store.blobs.pathOf(hash)); // written without fsync and damaged since: write it again
    } catch {
      /* gone */
    }
  }
  const put = store.blobs.put(data, hash, { sync: !unsynced });
  unsynced?.add(put);
  return put;
}

function withStat(e: Entry, after?: Entry | null): Partial<SnapRecord> {
  const x: Partial<SnapRecord> = { size: e.size, mtime: e.mtime };
  if (e.flags & F_LINK) x.link = true;
  else if (e.flags & F_GITSTAT && after && !(after.flags & F_LINK) && (after.mode & 0o111) === (e.mode & 0o111)) x.mode = after.mode;
  else x.mode = e.mode; // from git's index (0644/0755) when we never stat'ed the file ourselves
  return x;
}

/** Created by the command: folders it created too are removed again by a rewind. */
function createdDirs(state: ScanState, rel: string, prevDirs: Dirs): string[] {
  const dirs: string[] = [];
  const parts = rel.split('/');
  for (let i = parts.length - 1; i >= 1; i--) {
    if (prevDirs.has(parts.slice(0, i).join('/'))) break;
    dirs.push(path.join(state.root, ...parts.slice(0, i)));
  }
  return dirs;
}

function beforeSnap(
  store: Store,
  state: ScanState,
  c: Change,
  abs: string,
  prevDirs: Dirs,
  blobs: Map<string, Buffer | null>,
  meta: CallMeta,
  unsynced: Set<string> | null,
): SnapRecord {
  const b = c.before;
  if (!b) {
    const dirs = createdDirs(state, c.path, prevDirs);
    return { t: 'snap', path: abs, hash: null, ...(dirs.length ? { dirs } : {}), phase: 'before', ...meta };
  }
  if (b.flags & F_LARGE)
    return { t: 'snap', path: abs, hash: null, size: b.size, mtime: b.mtime, mode: b.mode, skipped: 'too-large', phase: 'before', ...meta };
  if (b.hash && durable(store, b.hash, unsynced)) return { t: 'snap', path: abs, hash: b.hash, ...withStat(b), phase: 'before', ...meta };
  if (b.git) {
    const data = blobs.get(`${b.git}\0${c.path}`);
    if (data && data.length % 4294967296 === b.size % 4294967296) {
      const hash = store.blobs.put(data, undefined, { sync: !unsynced });
      unsynced?.add(hash);
      return { t: 'snap', path: abs, hash, ...withStat(b, c.after), phase: 'before', ...meta };
    }
  }
  store.logError(`shell capture: the content of ${abs} before ${meta.tool} ${meta.call ?? ''} could not be recovered`);
  return { t: 'snap', path: abs, hash: null, size: b.size, mtime: b.mtime, skipped: 'unreadable', phase: 'before', ...meta };
}

function afterSnap(store: Store, state: ScanState, c: Change, abs: string, meta: CallMeta, unsynced: Set<string> | null): SnapRecord {
  const a = c.after;
  if (!a) {
    const dirs = missingAncestors(abs).filter((d) => isInside(d, state.root) && d !== state.root);
    return { t: 'snap', path: abs, hash: null, ...(dirs.length ? { dirs } : {}), phase: 'after', ...meta };
  }
  if (a.flags & F_LARGE || !c.data || !a.hash)
    return { t: 'snap', path: abs, hash: null, size: a.size, mtime: a.mtime, mode: a.mode, skipped: 'too-large', phase: 'after', ...meta };
  const hash = putDurable(store, c.data, a.hash, unsynced);
  return { t: 'snap', path: abs, hash, ...withStat(a), phase: 'after', ...meta };
}

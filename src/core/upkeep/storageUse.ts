// What a store's disk space is spent on, by session and by age: each blob counted once, for the
// oldest record that refers to it (the session that first copied that content, at that time). What is
// left is the log, shell capture's scan states and the blobs only they keep, and blobs nobody refers
// to (the next gc frees them).
import * as fs from 'node:fs';
import { blobSizes, storeBytes } from './gc';
import { isCheckpoint, isSnap } from '../storeFiles/records';
import { referencedBlobs } from '../scan/references';
import type { Store } from '../store';

const DAY = 86400000;
/** Copies a rewind makes (what it found on disk, what it wrote): the user's action, whatever session came before. */
const REWIND_PHASES = new Set(['pre-rewind', 'rewind']);

/** One agent session's share. */
export interface SessionUse {
  session: string;
  agent: string | null;
  /** Its first prompt (or its first checkpoint's label). */
  label: string;
  first: number;
  last: number;
  checkpoints: number;
  bytes: number;
}

export interface AgeUse {
  /** `0-1` (the last day), `1-7`, `7-30`, `30+` days old. */
  days: string;
  checkpoints: number;
  bytes: number;
}

export interface StorageUse {
  totalBytes: number;
  logBytes: number;
  /** File copies the timeline refers to (the sum of `sessions` and `own`, and of `byAge`). */
  recordedBytes: number;
  /** Copies only shell capture's scan states keep (a live session's baseline). */
  scanBytes: number;
  /** Copies nothing refers to any more: the next gc frees them. */
  unreferencedBytes: number;
  /** Everything else: scan states, the timeline index, locks, errors.log. */
  otherBytes: number;
  /** Agent sessions only: a rewind, its undo, a take or a manual checkpoint is the user's own action (`own`). */
  sessions: SessionUse[];
  /** The user's own actions: their checkpoints, and the copies first made by them (what a rewind found on disk). */
  own: { checkpoints: number; bytes: number };
  byAge: AgeUse[];
}

const AGES: { days: string; upTo: number }[] = [
  { days: '0-1', upTo: 1 },
  { days: '1-7', upTo: 7 },
  { days: '7-30', upTo: 30 },
  { days: '30+', upTo: Infinity },
];

function ageOf(time: number, now: number): AgeUse {
  return { days: AGES.find((a) => now - time < a.upTo * DAY)!.days, checkpoints: 0, bytes: 0 };
}

export function storageUse(store: Store, now = Date.now()): StorageUse {
  const sizes = blobSizes(store);
  const totalBytes = storeBytes(store);
  const logBytes = fs.statSync(store.logFile, { throwIfNoEntry: false })?.size ?? 0;
  const sessions = new Map<string, SessionUse>();
  const own = { checkpoints: 0, bytes: 0 };
  const ages = new Map(AGES.map((a) => [a.days, { days: a.days, checkpoints: 0, bytes: 0 }]));
  const counted = new Set<string>();
  /** The session of the last checkpoint: a snapshot that names none is its (none after the user's own checkpoint). */
  let current: SessionUse | undefined;
  const sessionOf = (id: string, time: number): SessionUse => {
    let s = sessions.get(id);
    if (!s) sessions.set(id, (s = { session: id, agent: null, label: '', first: time, last: time, checkpoints: 0, bytes: 0 }));
    s.first = Math.min(s.first, time);
    s.last = Math.max(s.last, time);
    return s;
  };
  for (const r of store.read().records) {
    if (isCheckpoint(r)) {
      ages.get(ageOf(r.time, now).days)!.checkpoints++;
      if (r.session === undefined) {
        own.checkpoints++;
        current = undefined;
        continue;
      }
      current = sessionOf(r.session, r.time);
      current.checkpoints++;
      current.agent ??= r.agent ?? null;
      if (!current.label || (r.kind === 'prompt' && !current.label.startsWith('"')))
        current.label = r.kind === 'prompt' ? `"${r.label}"` : r.label;
    } else if (isSnap(r) && r.hash && !counted.has(r.hash) && sizes.has(r.hash)) {
      counted.add(r.hash);
      const bytes = sizes.get(r.hash)!;
      const by = r.session !== undefined ? sessionOf(r.session, r.time) : REWIND_PHASES.has(r.phase) ? undefined : current;
      if (by) by.bytes += bytes;
      else own.bytes += bytes;
      ages.get(ageOf(r.time, now).days)!.bytes += bytes;
    }
  }
  let recordedBytes = 0;
  let scanBytes = 0;
  let unreferencedBytes = 0;
  const scan = referencedBlobs(store.dir);
  for (const [h, n] of sizes) {
    if (counted.has(h)) recordedBytes += n;
    else if (scan.has(h)) scanBytes += n;
    else unreferencedBytes += n;
  }
  return {
    totalBytes,
    logBytes,
    recordedBytes,
    scanBytes,
    unreferencedBytes,
    otherBytes: Math.max(0, totalBytes - logBytes - recordedBytes - scanBytes - unreferencedBytes),
    sessions: [...sessions.values()].sort((a, b) => b.bytes - a.bytes || a.first - b.first),
    own,
    byAge: [...ages.values()],
  };
}

// Comparing two points of the timeline: a checkpoint, the moment before a tool call, the end of an
// attempt, or the disk now. Reads the store's copies and the disk; writes nothing. `diff` prints
// it; the extension opens the same pairs in VS Code's multi-file diff editor.
import { ATTEMPT_POINT, type Attempt, type AttemptTree, attemptOfPoint, buildAttempts } from './attempts';
import { readDisk } from '../workspace/disk';
import { lineStats } from './lineStats';
import { pathKey } from '../paths';
import type { Sequenced } from '../storeFiles/records';
import { BEFORE_CALL, beforeCallTarget, type FileState, findCheckpoint, latestState, sameExec, stateAt } from './timeline';
import { AgentRewindError } from '../errors';

/** `now`: the disk as it is. */
export const NOW_POINT = 'now';

/** A point resolved: what it is, and the recorded state of every path known there (none for `now`: read the disk). */
export interface ResolvedPoint {
  point: string;
  kind: 'checkpoint' | 'before-call' | 'attempt' | 'now';
  /** The checkpoint whose state this is (a checkpoint, or a left attempt's end). */
  checkpoint?: string;
  attempt?: Attempt;
  /** The log position: records before it make its state (for the current attempt and now, past the end). */
  seq: number;
  state?: Map<string, FileState>;
}

/** The checkpoint a left attempt's end is, or an error saying why the attempt is no point to go to. */
export function attemptEnd(tree: AttemptTree, point: string): Attempt {
  const a = attemptOfPoint(tree, point);
  if (!a) throw new AgentRewindError('point-not-found', { point, attempts: tree.attempts.length });
  return a;
}

export function resolvePoint(records: readonly Sequenced[], point: string, tree?: AttemptTree): ResolvedPoint {
  const end = (records[records.length - 1]?.seq ?? -1) + 1;
  if (point === NOW_POINT) return { point, kind: 'now', seq: end };
  if (point.startsWith(ATTEMPT_POINT)) {
    const a = attemptEnd(tree ?? buildAttempts(records), point);
    if (!a.end) return { point, kind: 'attempt', attempt: a, seq: end, state: latestState(records) };
    return { point, kind: 'attempt', attempt: a, checkpoint: a.end.id, seq: a.end.seq, state: stateAt(records, a.end.seq) };
  }
  if (point.startsWith(BEFORE_CALL)) {
    const t = beforeCallTarget(records, point.slice(BEFORE_CALL.length));
    if (!t) throw new AgentRewindError('point-not-found', { point });
    return { point, kind: 'before-call', seq: t.seq, state: stateAt(records, t.seq + 1) };
  }
  const found = findCheckpoint(records, point);
  if (!found.ok)
    throw new AgentRewindError('point-not-found', { point, ...(found.reason === 'ambiguous' ? { matches: found.matches } : {}) });
  const c = found.checkpoint;
  return { point, kind: 'checkpoint', checkpoint: c.id, seq: c.seq, state: stateAt(records, c.seq) };
}

export type ChangeKind = 'added' | 'deleted' | 'modified' | 'mode';

export interface PointDiffFile {
  path: string;
  change: ChangeKind;
  plus: number;
  minus: number;
  binary?: boolean;
  tooLarge?: boolean;
}

/** One path at one point, as compared: whether it exists and, where known, its content. */
interface Side {
  exists: boolean;
  hash?: string;
  link?: boolean;
  mode?: number;
  /** Content not known (over the size limit): compared by size and time only. */
  tooLarge?: boolean;
  size?: number;
  mtime?: number;
  /** The record it comes from (two sides from one record are the same). */
  seq?: number;
  bytes: () => Buffer | null;
}

interface Sources {
  content: (hash: string) => Buffer;
  maxFileBytes: number;
}

function recordedSide(s: FileState, src: Sources): Side | undefined {
  if (s.skipped && s.skipped !== 'too-large') return undefined; // unreadable or special: nothing to compare
  const side: Side = {
    exists: s.hash !== null || !!s.skipped,
    seq: s.seq,
    bytes: () => (s.hash ? src.content(s.hash) : null),
  };
  if (s.hash) side.hash = s.hash;
  if (s.link) side.link = true;
  if (s.mode !== undefined) side.mode = s.mode;
  if (s.skipped) side.tooLarge = true;
  if (s.size !== undefined) side.size = s.size;
  if (s.mtime !== undefined) side.mtime = s.mtime;
  return side;
}

function diskSide(p: string, src: Sources, hashOf: (b: Buffer) => string): Side | undefined {
  const d = readDisk(p, src.maxFileBytes);
  switch (d.kind) {
    case 'missing':
      return { exists: false, bytes: () => null };
    case 'file':
      return { exists: true, hash: hashOf(d.data), mode: d.mode, bytes: () => d.data };
    case 'symlink':
      return { exists: true, hash: hashOf(d.data), link: true, bytes: () => d.data };
    case 'too-large':
      return { exists: true, tooLarge: true, size: d.size, mtime: d.mtime, mode: d.mode, bytes: () => null };
    default:
      return undefined;
  }
}

/** The change that takes `a` to `b`, or null when they hold the same. */
function compareSides(p: string, a: Side, b: Side): PointDiffFile | null {
  if (!a.exists && !b.exists) return null;
  if (a.tooLarge || b.tooLarge) {
    if (a.exists && b.exists) {
      const same = (a.seq !== undefined && a.seq === b.seq) || (a.size === b.size && a.mtime === b.mtime && a.hash === b.hash);
      if (same) return null;
    }
    const change: ChangeKind = !a.exists ? 'added' : !b.exists ? 'deleted' : 'modified';
    return { path: p, change, plus: 0, minus: 0, tooLarge: true };
  }
  if (a.exists && b.exists && a.hash === b.hash && !!a.link === !!b.link) {
    return a.link || sameExec(a.mode, b.mode) ? null : { path: p, change: 'mode', plus: 0, minus: 0 };
  }
  const change: ChangeKind = !a.exists ? 'added' : !b.exists ? 'deleted' : 'modified';
  let stats;
  try {
    stats = lineStats(a.bytes(), b.bytes());
  } catch {
    // A copy the store no longer holds: the change is known, its size in lines is not.
    return { path: p, change, plus: 0, minus: 0 };
  }
  return { path: p, change, plus: stats.insertions, minus: stats.deletions, ...(stats.binary ? { binary: true } : {}) };
}

export interface PointDiff {
  from: ResolvedPoint;
  to: ResolvedPoint;
  files: PointDiffFile[];
}

/**
 * The changes that take point `from`'s state to point `to`'s, over the recorded paths (only
 * `paths`, when given: absolute), sorted by path; only paths that differ. A path with no known state
 * at a recorded point (first recorded later, by a write) is left out rather than guessed.
 */
export function diffPoints(
  records: readonly Sequenced[],
  from: ResolvedPoint,
  to: ResolvedPoint,
  src: Sources & { hashOf: (b: Buffer) => string },
  paths?: readonly string[],
): PointDiff {
  const wanted = paths?.length ? new Set(paths.map((p) => pathKey(p))) : null;
  const all = new Set<string>();
  for (const s of [from.state, to.state]) if (s) for (const p of s.keys()) all.add(p);
  if (!from.state && !to.state) for (const p of latestState(records).keys()) all.add(p);
  const side = (pt: ResolvedPoint, p: string): Side | undefined => {
    if (!pt.state) return diskSide(p, src, src.hashOf);
    const s = pt.state.get(p);
    return s ? recordedSide(s, src) : undefined;
  };
  const files: PointDiffFile[] = [];
  for (const p of [...all].sort()) {
    if (wanted && !wanted.has(pathKey(p))) continue;
    const a = side(from, p);
    const b = a && side(to, p);
    const d = a && b ? compareSides(p, a, b) : null;
    if (d) files.push(d);
  }
  return { from, to, files };
}

/** A path that differs between two recorded states, with both (for the extension's multi-file diff: no disk reads, no line counts). */
export interface RecordedChange {
  path: string;
  change: ChangeKind;
  /** Its state at each point; absent where the path did not exist there. */
  from?: FileState;
  to?: FileState;
}

const existsIn = (s: FileState | undefined): s is FileState => !!s && (s.hash !== null || !!s.skipped);

/**
 * The paths whose recorded state differs between two points, sorted (a `now` point counts as the
 * latest recorded state: what the log says is on disk). A path unknown at either point is left out.
 */
export function recordedChanges(records: readonly Sequenced[], from: ResolvedPoint, to: ResolvedPoint): RecordedChange[] {
  let latest: Map<string, FileState> | undefined;
  const stateOf = (p: ResolvedPoint) => p.state ?? (latest ??= latestState(records));
  const a = stateOf(from);
  const b = stateOf(to);
  const out: RecordedChange[] = [];
  for (const p of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const x = a.get(p);
    const y = b.get(p);
    if (!x || !y || x.seq === y.seq) continue;
    const xe = existsIn(x);
    const ye = existsIn(y);
    if (!xe && !ye) continue;
    let change: ChangeKind;
    if (!xe) change = 'added';
    else if (!ye) change = 'deleted';
    else if (x.hash === y.hash && !x.skipped && !y.skipped && !!x.link === !!y.link) {
      if (x.link || sameExec(x.mode, y.mode)) continue;
      change = 'mode';
    } else change = 'modified';
    out.push({ path: p, change, ...(xe ? { from: x } : {}), ...(ye ? { to: y } : {}) });
  }
  return out;
}

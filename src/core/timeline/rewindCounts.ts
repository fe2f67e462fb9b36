// How many files a rewind to each checkpoint would write — the number the Files view, the preview
// and `agent-rewind checkpoints` show — for every checkpoint at once. A plan per checkpoint would
// fold every snapshot once per checkpoint (10,000 checkpoints × 60,000 snapshots). But what a
// rewind does to one path depends only on that path's snapshots around the target: between two
// consecutive snapshots of a path the verdict is the same for every target. So each path's
// snapshots are swept backwards once (the sessions that wrote after the target only grow), each
// stretch between two snapshots is judged by the plan's own pathVerdict, and a stretch whose path
// would be written adds one to the checkpoints inside it (a difference array, summed at the end).
import { type Action, NOT_A_CHANGE, type PathFacts, pathVerdict, REWIND_SESSION } from './changeSet';
import type { Sequenced, SnapRecord } from '../storeFiles/records';
import { stateOf } from './timeline';
import type { RewindSummary } from './turns';

export interface CountOptions {
  /** False for a path the store may not write (plan: `outside-workspace`). */
  allowed?: (path: string) => boolean;
  /** A reason a rewind would leave the path as it is now (plan: what it cannot keep a copy of), or null. */
  cannotKeep?: (path: string) => string | null;
}

/**
 * One path's snapshots in log order, read a field at a time: the timeline index reads them from its
 * snapshot columns (timelineIndex.ts) without building a record per snapshot.
 */
export interface SnapHistory {
  readonly length: number;
  seq(k: number): number;
  phase(k: number): SnapRecord['phase'];
  session(k: number): string | undefined;
  /**
   * Snapshot `k` as a record. It may be a view that the next call with the same `slot` (0, 1 or 2)
   * overwrites: the sweep reads the three it holds at once (latest, last before, first after) and keeps none.
   */
  record(k: number, slot: number): Sequenced<SnapRecord>;
}

/** A SnapHistory over records in memory. */
export class RecordHistory implements SnapHistory {
  constructor(private readonly rows: readonly Sequenced<SnapRecord>[]) {}
  get length(): number {
    return this.rows.length;
  }
  seq(k: number): number {
    return this.rows[k]!.seq;
  }
  phase(k: number): SnapRecord['phase'] {
    return this.rows[k]!.phase;
  }
  session(k: number): string | undefined {
    return this.rows[k]!.session;
  }
  record(k: number): Sequenced<SnapRecord> {
    return this.rows[k]!;
  }
}

/** Index of the first of `seqs` (ascending) at or above `seq`. */
function firstAtOrAbove(seqs: ArrayLike<number>, seq: number, from = 0): number {
  let lo = from;
  let hi = seqs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (seqs[mid]! >= seq) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * What a rewind to each of the checkpoints at `checkpointSeqs` (ascending) would write, counted
 * as the plan counts: `histories` gives each path's snapshots in log order. Returns one summary
 * per checkpoint, in the same order.
 */
export function rewindCounts(
  histories: Iterable<[string, SnapHistory]>,
  checkpointSeqs: ArrayLike<number>,
  opts: CountOptions = {},
): RewindSummary[] {
  const n = checkpointSeqs.length;
  const diff: Record<Action, Int32Array> = {
    restore: new Int32Array(n + 1),
    delete: new Int32Array(n + 1),
    recreate: new Int32Array(n + 1),
  };
  for (const [p, h] of histories) {
    const m = h.length;
    let allowed: boolean | undefined;
    const allowedP = opts.allowed ? (q: string) => (allowed ??= opts.allowed!(q)) : undefined;
    let kept: boolean | undefined;
    const writers = new Set<string>();
    const facts: PathFacts = { latest: h.record(m - 1, 0), writers, userAfter: [] };
    // The path's state now (its latest snapshot) is the same for every target: made once per path.
    const now = stateOf(facts.latest);
    // Stretch k: targets at or after snapshot k and before snapshot k + 1 (k = -1: before the first).
    for (let k = m - 2; k >= -1; k--) {
      const after = k + 1;
      const phase = h.phase(after);
      if (!NOT_A_CHANGE.has(phase)) writers.add(phase === 'rewind' ? REWIND_SESSION : (h.session(after) ?? ''));
      if (writers.size === 0) continue;
      // The checkpoints inside the stretch; none (a call's before and after): nothing to judge.
      const lo = k >= 0 ? firstAtOrAbove(checkpointSeqs, h.seq(k)) : 0;
      const hi = firstAtOrAbove(checkpointSeqs, h.seq(after), lo);
      if (lo >= hi) continue;
      facts.firstAfter = h.record(after, 1);
      if (k >= 0) facts.atOrBefore = h.record(k, 2);
      else delete facts.atOrBefore;
      const v = pathVerdict(p, facts, allowedP, now);
      if (!v?.action) continue;
      kept ??= !opts.cannotKeep?.(p);
      if (!kept) continue;
      diff[v.action][lo]!++;
      diff[v.action][hi]!--;
    }
  }
  const out: RewindSummary[] = new Array(n);
  let restore = 0;
  let del = 0;
  let recreate = 0;
  for (let i = 0; i < n; i++) {
    restore += diff.restore[i]!;
    del += diff.delete[i]!;
    recreate += diff.recreate[i]!;
    out[i] = { total: restore + del + recreate, restore, delete: del, recreate };
  }
  return out;
}

/** Each path's snapshots among `records`, in log order. */
export function snapsByPath(records: readonly Sequenced[]): Map<string, Sequenced<SnapRecord>[]> {
  const out = new Map<string, Sequenced<SnapRecord>[]>();
  for (const r of records) {
    if (r.t !== 'snap') continue;
    const s = r as Sequenced<SnapRecord>;
    let list = out.get(s.path);
    if (!list) out.set(s.path, (list = []));
    list.push(s);
  }
  return out;
}

/** Each path's snapshots among `records`, in log order, as rewindCounts reads them. */
export function historiesOf(records: readonly Sequenced[]): Map<string, SnapHistory> {
  const out = new Map<string, SnapHistory>();
  for (const [p, rows] of snapsByPath(records)) out.set(p, new RecordHistory(rows));
  return out;
}

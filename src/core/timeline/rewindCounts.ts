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
import type { RewindSummary } from './turns';

export interface CountOptions {
  /** False for a path the store may not write (plan: `outside-workspace`). */
  allowed?: (path: string) => boolean;
  /** A reason a rewind would leave the path as it is now (plan: what it cannot keep a copy of), or null. */
  cannotKeep?: (path: string) => string | null;
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
  histories: Iterable<[string, readonly Sequenced<SnapRecord>[]]>,
  checkpointSeqs: ArrayLike<number>,
  opts: CountOptions = {},
): RewindSummary[] {
  const n = checkpointSeqs.length;
  const diff: Record<Action, Int32Array> = {
    restore: new Int32Array(n + 1),
    delete: new Int32Array(n + 1),
    recreate: new Int32Array(n + 1),
  };
  for (const [p, rows] of histories) {
    const m = rows.length;
    let allowed: boolean | undefined;
    const allowedP = opts.allowed ? (q: string) => (allowed ??= opts.allowed!(q)) : undefined;
    let kept: boolean | undefined;
    const writers = new Set<string>();
    const facts: PathFacts = { latest: rows[m - 1]!, writers, userAfter: [] };
    // Stretch k: targets at or after snapshot k and before snapshot k + 1 (k = -1: before the first).
    for (let k = m - 2; k >= -1; k--) {
      const after = rows[k + 1]!;
      if (!NOT_A_CHANGE.has(after.phase)) writers.add(after.phase === 'rewind' ? REWIND_SESSION : (after.session ?? ''));
      if (writers.size === 0) continue;
      // The checkpoints inside the stretch; none (a call's before and after): nothing to judge.
      const lo = k >= 0 ? firstAtOrAbove(checkpointSeqs, rows[k]!.seq) : 0;
      const hi = firstAtOrAbove(checkpointSeqs, after.seq, lo);
      if (lo >= hi) continue;
      facts.firstAfter = after;
      if (k >= 0) facts.atOrBefore = rows[k]!;
      else delete facts.atOrBefore;
      const v = pathVerdict(p, facts, allowedP);
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
export function historiesOf(records: readonly Sequenced[]): Map<string, Sequenced<SnapRecord>[]> {
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

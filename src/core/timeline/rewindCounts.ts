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
import { AppendedRecords } from './growingLog';
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

/** The actions, by their number in a stretch list. */
const ACTIONS: readonly Action[] = ['restore', 'delete', 'recreate'];

/**
 * Where a rewind would write each path, by the plan's own pathVerdict, before any question to the
 * disk or the roots: for each path with something to write, a flat list of triples — the first
 * checkpoint of a stretch, the one after its last (indexes into `checkpointSeqs`, ascending), and
 * the action (ACTIONS). A pure function of the log: the timeline index keeps it, so `checkpoints`
 * adds these up instead of sweeping 60,000 snapshots (only the paths appended since are swept).
 */
export function rewindStretches(histories: Iterable<[string, SnapHistory]>, checkpointSeqs: ArrayLike<number>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [p, h] of histories) {
    const m = h.length;
    const writers = new Set<string>();
    const facts: PathFacts = { latest: h.record(m - 1, 0), writers, userAfter: [] };
    // The path's state now (its latest snapshot) is the same for every target: made once per path.
    const now = stateOf(facts.latest);
    let list: number[] | undefined;
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
      const v = pathVerdict(p, facts, undefined, now);
      if (!v?.action) continue;
      if (!list) out.set(p, (list = []));
      list.push(lo, hi, ACTIONS.indexOf(v.action));
    }
  }
  return out;
}

/**
 * The counts of `n` checkpoints from each path's stretches (rewindStretches): a path the store may
 * not write, or whose current content a rewind could not keep a copy of, counts nothing (asked once
 * per path, only of a path with something to write).
 */
export function sumStretches(stretches: Iterable<[string, readonly number[]]>, n: number, opts: CountOptions = {}): RewindSummary[] {
  const diff = stretchSteps(stretches, n, opts);
  const out: RewindSummary[] = new Array(n);
  let restore = 0;
  let del = 0;
  let recreate = 0;
  for (let i = 0; i < n; i++) {
    restore += diff[0]![i]!;
    del += diff[1]![i]!;
    recreate += diff[2]![i]!;
    out[i] = { total: restore + del + recreate, restore, delete: del, recreate };
  }
  return out;
}

/** sumStretches' totals alone, one number per checkpoint: no object for each of 10,000 checkpoints (what `checkpoints` prints). */
export function sumStretchTotals(stretches: Iterable<[string, readonly number[]]>, n: number, opts: CountOptions = {}): Int32Array {
  const diff = stretchSteps(stretches, n, opts);
  const out = new Int32Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) out[i] = total += diff[0]![i]! + diff[1]![i]! + diff[2]![i]!;
  return out;
}

/** Per action, where each stretch of the paths that count starts (+1) and ends (-1): the running sum is the count. */
function stretchSteps(stretches: Iterable<[string, readonly number[]]>, n: number, opts: CountOptions): Int32Array[] {
  const diff = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  for (const [p, list] of stretches) {
    if (list.length === 0 || (opts.allowed && !opts.allowed(p)) || opts.cannotKeep?.(p)) continue;
    for (let i = 0; i < list.length; i += 3) {
      diff[list[i + 2]!]![list[i]!]!++;
      diff[list[i + 2]!]![list[i + 1]!]!--;
    }
  }
  return diff;
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
  return sumStretches(rewindStretches(histories, checkpointSeqs), checkpointSeqs.length, opts);
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

/**
 * rewindStretches kept across appends, for a reader that holds the log parsed and reads only what was
 * appended (the extension's model, after each hook): a path the appended records recorded is swept
 * again (its latest state and the sessions after each target changed); every other path keeps its
 * stretches, which end at its last snapshot, before any appended checkpoint. Records that are not
 * the ones it saw plus appended ones (a rewritten log, a torn last line completed) are swept whole.
 */
export class IncrementalStretches {
  private byPath = new Map<string, Sequenced<SnapRecord>[]>();
  private stretches = new Map<string, readonly number[]>();
  private readonly seen = new AppendedRecords();
  /** How many paths the last `of` swept (for tests and the bench). */
  swept = 0;

  /** The stretches of `records` (log order) for the checkpoints at `checkpointSeqs` (theirs, ascending). */
  of(records: readonly Sequenced[], checkpointSeqs: ArrayLike<number>): ReadonlyMap<string, readonly number[]> {
    const from = this.seen.since(records);
    if (from === null) {
      this.byPath = snapsByPath(records);
      this.stretches = rewindStretches(
        [...this.byPath].map(([p, rows]): [string, SnapHistory] => [p, new RecordHistory(rows)]),
        checkpointSeqs,
      );
      this.swept = this.byPath.size;
    } else {
      const tails = snapsByPath(records.slice(from));
      const touched = new Map<string, SnapHistory>();
      for (const [p, tail] of tails) {
        const rows = this.byPath.get(p);
        if (rows) rows.push(...tail);
        else this.byPath.set(p, tail);
        touched.set(p, new RecordHistory(this.byPath.get(p)!));
      }
      const again = rewindStretches(touched, checkpointSeqs);
      for (const p of tails.keys()) this.stretches.set(p, again.get(p) ?? []);
      this.swept = tails.size;
    }
    return this.stretches;
  }
}

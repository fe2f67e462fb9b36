// What `checkpoints`, the counts and Store.roots read of the timeline without its snapshots: the checkpoint list (the
// index's list part, timelineIndex.ts) and the folders the checkpoints name (its keys part), each with the lines
// appended after the index.
import { readGaps, readLog } from '../storeFiles/fileLog';
import type { CheckpointRecord, GapRecord, Sequenced, SnapRecord } from '../storeFiles/records';
import { isCall } from '../storeFiles/records';
import type { AttemptTree } from './attempts';
import { type Folds, foldRows, foldsOf, sameStateAsPrevious } from './folding';
import { labelsFromIndex } from './indexedLabels';
import { checkpointLabel } from './presentation';
import type { RewindLookups } from './rewindLabels';
import { RecordHistory, rewindStretches, type SnapHistory, snapsByPath } from './rewindCounts';
import { ColumnHistory, SnapRows } from './snapColumns';
import { checkpoints, filesPerCheckpoint, type RecordedFolders, recordedFoldersOf } from './timeline';
import { type CheckpointColumns, type CheckpointSummary, columnsOf, fullRead, indexAndTail, summaryOf } from './timelineIndex';

export type { CheckpointColumns } from './timelineIndex';

export interface CheckpointList {
  /** The checkpoints, as columns: at 10,000 checkpoints, 10,000 objects that live to the end of a listing are most of its garbage collector's work. */
  columns: CheckpointColumns;
  /** The same checkpoints as objects, built when first asked for. */
  readonly checkpoints: CheckpointSummary[];
  /** Changed-file count by checkpoint id (filesPerCheckpoint), built when first asked for. */
  readonly files: Map<string, number>;
  /** Where a rewind to each of `checkpoints` would write (rewindStretches): kept in the index, only the paths appended since are swept. */
  stretches: () => Map<string, readonly number[]>;
  via: 'index' | 'full';
  /**
   * The label every surface shows of each of `checkpoints` (presentation.ts checkpointLabel): the recorded one, but a
   * rewind's said from its target, so a store recorded by an older build (nested or stale labels) reads as the views
   * say it. Reads the rewind checkpoints whole (a few); `tree` is asked only for a rewind to a rewind (an undo, a
   * switch, a take).
   */
  labels: (tree: () => AttemptTree) => string[];
  /** The rows the checkpoints fold into (folding.ts), as the Files view shows them: from the index's snapshot columns, no record built. */
  folds: () => Folds;
}

/**
 * The model labels of `list`: `rewindAt(i)` gives the `i`th checkpoint whole (asked only for rewinds), `calls` the
 * calls the list part kept (those a rewind cannot undo); a rewind to just before another call reads the log's calls.
 */
function modelLabels(
  list: readonly CheckpointSummary[],
  rewindAt: (i: number) => CheckpointRecord,
  calls: readonly Sequenced[],
  logFile: string,
  tree: () => AttemptTree,
): string[] {
  const rewinds = new Map<string, CheckpointRecord>();
  list.forEach((c, i) => {
    if (c.kind === 'rewind') rewinds.set(c.id, rewindAt(i));
  });
  if (rewinds.size === 0) return list.map((c) => c.label);
  const byId = new Map<string, CheckpointSummary | CheckpointRecord>(list.map((c) => [c.id, rewinds.get(c.id) ?? c]));
  let callMap: Map<string, { tool: string; summary: string }> | undefined;
  const callsOf = (records: readonly Sequenced[]) => {
    const m = new Map<string, { tool: string; summary: string }>();
    for (const r of records) if (isCall(r) && r.call && !m.has(r.call)) m.set(r.call, { tool: r.tool, summary: r.summary });
    return m;
  };
  let whole = false;
  const look: RewindLookups = {
    checkpoint: (id) => byId.get(id) as CheckpointRecord | undefined,
    call: (id) => {
      callMap ??= callsOf(calls);
      // A reversible call is not in the index: the log read whole once (only a rewind to just before such a call asks).
      if (!callMap.has(id) && !whole) {
        whole = true;
        callMap = callsOf(readLog(logFile).records);
      }
      return callMap.get(id);
    },
  };
  return list.map((c) => (c.kind === 'rewind' ? checkpointLabel(rewinds.get(c.id)!, look, tree) : c.label));
}

/** The list over `columns`, its objects built on first use. */
function listOf(
  columns: CheckpointColumns,
  stretches: () => Map<string, readonly number[]>,
  via: CheckpointList['via'],
  story: (list: CheckpointList) => Pick<CheckpointList, 'labels' | 'folds'>,
): CheckpointList {
  let cps: CheckpointSummary[] | undefined;
  let files: Map<string, number> | undefined;
  const list: CheckpointList = {
    columns,
    get checkpoints() {
      return (cps ??= columns.ids.map((id, i) => {
        const c: CheckpointSummary = {
          t: 'checkpoint',
          id,
          time: columns.time[i]!,
          kind: columns.kind[i]!,
          label: columns.label[i]!,
          seq: columns.seq[i]!,
        };
        if (columns.session[i] !== null) c.session = columns.session[i]!;
        if (columns.agent[i] !== null) c.agent = columns.agent[i]!;
        return c;
      }));
    },
    get files() {
      return (files ??= new Map(columns.ids.map((id, i) => [id, columns.files[i]!])));
    },
    stretches,
    via,
    labels: (tree) => story(list).labels(tree),
    folds: () => story(list).folds(),
  };
  return list;
}

/** Every checkpoint with its changed-file count: from the index's list part and the lines after it, without the snapshots. */
export function readCheckpointList(storeDir: string, logFile: string): CheckpointList {
  const it = indexAndTail(storeDir, logFile, (idx) => idx.listPart());
  if (!it) {
    const s = fullRead(storeDir, logFile);
    const cps = checkpoints(s.records);
    const files = filesPerCheckpoint(s.records);
    return listOf(
      columnsOf(cps.map(summaryOf), (c) => files.get(c.id)?.length ?? 0),
      () =>
        s.stretches ??
        rewindStretches(
          s.histories(),
          cps.map((c) => c.seq),
        ),
      'full',
      (list) => ({
        labels: (tree) =>
          modelLabels(
            list.checkpoints,
            (i) => cps[i]!,
            s.records.filter((r) => r.t === 'call'),
            logFile,
            tree,
          ),
        folds: () => foldsOf(s.records),
      }),
    );
  }
  const l = it.idx.listPart();
  // The last indexed checkpoint's span, and those after it, go on in the new lines.
  const newer = it.added.records.concat(it.partial.records);
  const n = l.ids.length;
  const lastOne = n ? [{ t: 'checkpoint', id: l.ids[n - 1]!, seq: l.seq[n - 1]! } as Sequenced] : [];
  const counted = filesPerCheckpoint([...lastOne, ...l.lastSpan, ...newer]);
  const newerCps = checkpoints(newer);
  const added = newerCps.map(summaryOf);
  const lastFiles = n ? counted.get(l.ids[n - 1]!)?.length : undefined;
  let columns: CheckpointColumns = l;
  if (added.length || (lastFiles !== undefined && lastFiles !== l.files[n - 1])) {
    const more = columnsOf(added, () => 0);
    columns = {
      ids: l.ids.concat(more.ids),
      seq: l.seq.concat(more.seq),
      time: l.time.concat(more.time),
      kind: l.kind.concat(more.kind),
      label: l.label.concat(more.label),
      session: l.session.concat(more.session),
      agent: l.agent.concat(more.agent),
      files: l.files.concat(more.files),
    };
    const files = columns.files as number[];
    if (lastFiles !== undefined) files[n - 1] = lastFiles;
    added.forEach((c, k) => (files[n + k] = counted.get(c.id)?.length ?? 0));
  }
  const stretches = (): Map<string, readonly number[]> => {
    const seqs = columns.seq;
    const out = new Map<string, readonly number[]>(l.stretchPaths.map((p, i) => [p, l.stretches[i]!]));
    // A path the new lines recorded: its whole history swept again (its latest state and the sessions after each target changed).
    const tails = snapsByPath(newer);
    if (tails.size === 0) return out;
    let rows: SnapRows;
    try {
      rows = new SnapRows(it.idx.snapPart());
    } catch {
      return rewindStretches(fullRead(storeDir, logFile).histories(), seqs);
    }
    const touched = new Map<string, SnapHistory>();
    for (const [p, tail] of tails) {
      const own = rows.rowsOf(p);
      touched.set(p, own.length ? new ColumnHistory(rows, own, tail) : new RecordHistory(tail));
    }
    const again = rewindStretches(touched, seqs);
    for (const p of tails.keys()) out.set(p, again.get(p) ?? []);
    return out;
  };
  const story = (list: CheckpointList): Pick<CheckpointList, 'labels' | 'folds'> => {
    const labels = (tree: () => AttemptTree): string[] => {
      try {
        return indexedLabels(tree);
      } catch {
        // The index replaced while being read (another writer): the log read whole.
        const s = fullRead(storeDir, logFile);
        const cps = checkpoints(s.records);
        return modelLabels(
          cps.map(summaryOf),
          (i) => cps[i]!,
          s.records.filter((r) => r.t === 'call'),
          logFile,
          tree,
        );
      }
    };
    const indexedLabels = (tree: () => AttemptTree): string[] =>
      labelsFromIndex(columns.label, l, newerCps) ??
      modelLabels(
        list.checkpoints,
        (i) => (i < n ? it.idx.checkpoint(i) : newerCps[i - n]!),
        it.idx
          .keys()
          .rest.filter((r) => r.t === 'call')
          .concat(newer.filter((r) => r.t === 'call')),
        logFile,
        tree,
      );
    const folds = (): Folds => {
      const same = new Set<string>();
      for (let i = 0; i < l.ids.length; i++) if (l.same[i]) same.add(l.ids[i]!);
      if (newerCps.length) {
        // The new checkpoints compared from the last indexed one on: each path the lines since it recorded, as it was
        // there (its last row at or before it), then those lines.
        let rows: SnapRows;
        try {
          rows = new SnapRows(it.idx.snapPart());
        } catch {
          return foldsOf(fullRead(storeDir, logFile).records);
        }
        const since = l.lastSpan.concat(newer);
        const at = lastOne[0]?.seq ?? -1;
        const before: Sequenced[] = [];
        for (const p of new Set(since.filter((r) => r.t === 'snap').map((r) => (r as Sequenced<SnapRecord>).path))) {
          const own = rows.rowsOf(p);
          let k = own.length - 1;
          while (k >= 0 && rows.c.seq[own[k]!]! > at) k--;
          if (k >= 0) before.push(rows.row(own[k]!));
        }
        before.sort((a, b) => a.seq - b.seq);
        const tail = sameStateAsPrevious([...before, ...lastOne, ...since]);
        for (const c of newerCps) if (tail.has(c.id)) same.add(c.id);
      }
      return foldRows(list.checkpoints as Sequenced<CheckpointRecord>[], same);
    };
    return { labels, folds };
  };
  return listOf(columns, stretches, 'index', story);
}

/**
 * The folders the checkpoints name (RecordedFolders: what Store.roots reads), from the index's keys part and the
 * lines after it, without parsing a checkpoint.
 */
export function readRecordedFolders(storeDir: string, logFile: string): RecordedFolders {
  const it = indexAndTail(storeDir, logFile, (idx) => idx.keys());
  if (!it) return recordedFoldersOf(checkpoints(fullRead(storeDir, logFile).records));
  const k = it.idx.keys().folders;
  const cps = checkpoints([...it.added.records, ...it.partial.records]);
  return recordedFoldersOf(cps, { named: k.named, cwds: k.cwds, roots: k.roots });
}

/**
 * The log's gap lines at or after `since` (ms), in order: those the index holds and those in the lines after it,
 * without searching the log's indexed bytes (28 MB at 10,000 checkpoints); null when there is no usable index.
 */
export function readGapsSince(storeDir: string, logFile: string, since: number): GapRecord[] | null {
  const it = indexAndTail(storeDir, logFile, (idx) => idx.keys());
  if (!it) return null;
  return it.idx
    .keys()
    .gaps.concat(readGaps(logFile, { from: it.idx.pos.size }))
    .filter((g) => g.time >= since);
}

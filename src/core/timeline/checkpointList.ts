// What `checkpoints`, the counts and Store.roots read of the timeline without its snapshots: the checkpoint list (the
// index's list part, timelineIndex.ts) and the folders the checkpoints name (its keys part), each with the lines
// appended after the index.
import { readGaps } from '../storeFiles/fileLog';
import type { GapRecord, Sequenced } from '../storeFiles/records';
import { RecordHistory, rewindStretches, type SnapHistory, snapsByPath } from './rewindCounts';
import { ColumnHistory, SnapRows } from './snapColumns';
import { checkpoints, filesPerCheckpoint, type RecordedFolders, recordedFoldersOf } from './timeline';
import { type CheckpointSummary, fullRead, indexAndTail, summaryOf } from './timelineIndex';

/** The checkpoints as columns, oldest first: what `checkpoints` prints of each, read in place (no object per checkpoint). */
export interface CheckpointColumns {
  ids: readonly string[];
  seq: readonly number[];
  time: readonly number[];
  kind: readonly CheckpointSummary['kind'][];
  label: readonly string[];
  session: readonly (string | null)[];
  agent: readonly (string | null)[];
  /** Changed-file count of each (filesPerCheckpoint). */
  files: readonly number[];
}

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
}

function columnsOf(cps: readonly CheckpointSummary[], files: (c: CheckpointSummary) => number): CheckpointColumns {
  return {
    ids: cps.map((c) => c.id),
    seq: cps.map((c) => c.seq),
    time: cps.map((c) => c.time),
    kind: cps.map((c) => c.kind),
    label: cps.map((c) => c.label),
    session: cps.map((c) => c.session ?? null),
    agent: cps.map((c) => c.agent ?? null),
    files: cps.map(files),
  };
}

/** The list over `columns`, its objects built on first use. */
function listOf(columns: CheckpointColumns, stretches: () => Map<string, readonly number[]>, via: CheckpointList['via']): CheckpointList {
  let cps: CheckpointSummary[] | undefined;
  let files: Map<string, number> | undefined;
  return {
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
  };
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
    );
  }
  const l = it.idx.listPart();
  // The last indexed checkpoint's span, and those after it, go on in the new lines.
  const newer = it.added.records.concat(it.partial.records);
  const n = l.ids.length;
  const lastOne = n ? [{ t: 'checkpoint', id: l.ids[n - 1]!, seq: l.seq[n - 1]! } as Sequenced] : [];
  const counted = filesPerCheckpoint([...lastOne, ...l.lastSpan, ...newer]);
  const added = checkpoints(newer).map(summaryOf);
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
  return listOf(columns, stretches, 'index');
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

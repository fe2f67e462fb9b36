// What `checkpoints`, the counts and Store.roots read of the timeline without its snapshots: the checkpoint list (the
// index's list part, timelineIndex.ts) and the folders the checkpoints name (its keys part), each with the lines
// appended after the index.
import { readGaps } from '../storeFiles/fileLog';
import type { GapRecord, Sequenced } from '../storeFiles/records';
import { RecordHistory, rewindStretches, type SnapHistory, snapsByPath } from './rewindCounts';
import { ColumnHistory, SnapRows } from './snapColumns';
import { checkpoints, filesPerCheckpoint, type RecordedFolders, recordedFoldersOf } from './timeline';
import { type CheckpointSummary, fullRead, indexAndTail, summaryOf } from './timelineIndex';

export interface CheckpointList {
  checkpoints: CheckpointSummary[];
  /** Changed-file count by checkpoint id (filesPerCheckpoint). */
  files: Map<string, number>;
  /** Where a rewind to each of `checkpoints` would write (rewindStretches): kept in the index, only the paths appended since are swept. */
  stretches: () => Map<string, readonly number[]>;
  via: 'index' | 'full';
}

/** Every checkpoint with its changed-file count: from the index's list part and the lines after it, without the snapshots. */
export function readCheckpointList(storeDir: string, logFile: string): CheckpointList {
  const it = indexAndTail(storeDir, logFile, (idx) => idx.listPart());
  if (!it) {
    const s = fullRead(storeDir, logFile);
    const cps = checkpoints(s.records);
    return {
      checkpoints: cps.map(summaryOf),
      files: new Map([...filesPerCheckpoint(s.records)].map(([id, f]) => [id, f.length])),
      stretches: () =>
        s.stretches ??
        rewindStretches(
          s.histories(),
          cps.map((c) => c.seq),
        ),
      via: 'full',
    };
  }
  const l = it.idx.listPart();
  const list: CheckpointSummary[] = new Array(l.ids.length);
  const files = new Map<string, number>();
  for (let i = 0; i < l.ids.length; i++) {
    const c: CheckpointSummary = { t: 'checkpoint', id: l.ids[i]!, time: l.time[i]!, kind: l.kind[i]!, label: l.label[i]!, seq: l.seq[i]! };
    if (l.session[i] !== null) c.session = l.session[i]!;
    if (l.agent[i] !== null) c.agent = l.agent[i]!;
    list[i] = c;
    files.set(c.id, l.files[i] ?? 0);
  }
  // The last indexed checkpoint's span, and those after it, go on in the new lines.
  const newer = it.added.records.concat(it.partial.records);
  const last = list[list.length - 1];
  for (const [id, f] of filesPerCheckpoint([...(last ? [last as Sequenced] : []), ...l.lastSpan, ...newer])) files.set(id, f.length);
  const all = list.concat(checkpoints(newer).map(summaryOf));
  const stretches = (): Map<string, readonly number[]> => {
    const seqs = all.map((c) => c.seq);
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
  return { checkpoints: all, files, stretches, via: 'index' };
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

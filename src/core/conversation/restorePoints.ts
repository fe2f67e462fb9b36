// Which point in time a file's content comes from when a rewind wrote it: the rewind's target
// checkpoint (a prompt, the moment before a risky tool call, an earlier rewind…). Pure over the
// sequenced records; used by both re-grounding texts to say "as it was before the prompt …".
import type { CheckpointKind, CheckpointRecord, Sequenced } from '../records';
import { isCheckpoint, isSnap } from '../records';
import { oneLine } from '../../shared/text';

export interface RestorePoint {
  /** The target's kind; `unknown` when the target is no longer in the store (GC) or was never recorded. */
  kind: CheckpointKind | 'unknown';
  label: string;
}

export interface RewindIndex {
  /** For every `rewind` snapshot (by seq): the rewind checkpoint it belongs to (the last one before it). */
  rewindOfSnap: Map<number, Sequenced<CheckpointRecord>>;
  byId: Map<string, Sequenced<CheckpointRecord>>;
}

/** One pass over the records. */
export function indexRewinds(records: readonly Sequenced[]): RewindIndex {
  const rewindOfSnap = new Map<number, Sequenced<CheckpointRecord>>();
  const byId = new Map<string, Sequenced<CheckpointRecord>>();
  let last: Sequenced<CheckpointRecord> | undefined;
  for (const r of records) {
    if (isCheckpoint(r)) {
      const c = r as Sequenced<CheckpointRecord>;
      byId.set(c.id, c);
      if (c.kind === 'rewind') last = c;
    } else if (isSnap(r) && r.phase === 'rewind' && last) rewindOfSnap.set(r.seq, last);
  }
  return { rewindOfSnap, byId };
}

/** The point a rewind snapshot's content was restored to, or undefined for any other snapshot. */
export function restorePointOf(index: RewindIndex, snapSeq: number): RestorePoint | undefined {
  const rw = index.rewindOfSnap.get(snapSeq);
  if (!rw) return undefined;
  const target = rw.target ? index.byId.get(rw.target) : undefined;
  if (!target) return { kind: 'unknown', label: '' };
  return { kind: target.kind, label: target.label };
}

/** "before the prompt "…"", "just before Bash: git push", … — completes "as it was …". */
export function describePoint(p: RestorePoint): string {
  switch (p.kind) {
    case 'prompt':
      return `before the prompt "${oneLine(p.label, 120)}"`;
    case 'before-tool':
      return `just before ${oneLine(p.label, 160)}`;
    case 'session-start':
      return 'when a session started';
    case 'rewind':
      return 'before an earlier rewind (that rewind was undone)';
    case 'manual':
      return `at the checkpoint "${oneLine(p.label, 120)}"`;
    default:
      return 'at an earlier point in time';
  }
}

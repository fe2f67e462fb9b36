// Which point in time a file's content comes from when a rewind wrote it: the rewind's target
// checkpoint (a prompt, the moment before a risky tool call, an earlier rewind…). Pure over the
// sequenced records; used by both re-grounding texts to say "as it was before the prompt …".
import type { CallRecord, CheckpointKind, CheckpointRecord, Sequenced } from '../storeFiles/records';
import { isCall, isCheckpoint, isSnap } from '../storeFiles/records';
import { oneLine } from '../../shared/text';
import { attemptBroughtBy, buildAttempts } from '../timeline/attempts';

export interface RestorePoint {
  /** The target's kind; `unknown` when the target is no longer in the store (GC) or was never recorded. */
  kind: CheckpointKind | 'before-call' | 'unknown';
  label: string;
  /** The target is the end of this attempt (a rewind checkpoint that left it): switching to it, or taking files from it. */
  attempt?: number;
}

export interface RewindIndex {
  /** For every `rewind` snapshot (by seq): the rewind checkpoint it belongs to (the last one before it). */
  rewindOfSnap: Map<number, Sequenced<CheckpointRecord>>;
  byId: Map<string, Sequenced<CheckpointRecord>>;
  /** Tool calls by id (the first call line of each), for rewinds to just before a call. */
  calls: Map<string, Sequenced<CallRecord>>;
  /** Rewind checkpoints that brought content from another attempt (a switch or a take), with its number. */
  attemptOf: Map<string, number>;
}

/** What a rewind checkpoint went back to: its target checkpoint, or the moment before its target call. */
export function targetOfRewind(
  index: RewindIndex,
  rw: CheckpointRecord,
): { seq: number; kind: RestorePoint['kind']; label: string } | undefined {
  if (rw.target) {
    const c = index.byId.get(rw.target);
    return c && { seq: c.seq, kind: c.kind, label: c.label };
  }
  if (rw.targetCall) {
    const call = index.calls.get(rw.targetCall);
    return call && { seq: call.seq - 1, kind: 'before-call', label: `${call.tool}: ${call.summary}` };
  }
  return undefined;
}

/** One pass over the records. */
export function indexRewinds(records: readonly Sequenced[]): RewindIndex {
  const rewindOfSnap = new Map<number, Sequenced<CheckpointRecord>>();
  const byId = new Map<string, Sequenced<CheckpointRecord>>();
  const calls = new Map<string, Sequenced<CallRecord>>();
  let last: Sequenced<CheckpointRecord> | undefined;
  for (const r of records) {
    if (isCheckpoint(r)) {
      const c = r as Sequenced<CheckpointRecord>;
      byId.set(c.id, c);
      if (c.kind === 'rewind') last = c;
    } else if (isSnap(r) && r.phase === 'rewind' && last) rewindOfSnap.set(r.seq, last);
    else if (isCall(r) && r.call && !calls.has(r.call)) calls.set(r.call, r as Sequenced<CallRecord>);
  }
  const tree = buildAttempts(records);
  const attemptOf = new Map<string, number>();
  for (const c of byId.values()) {
    const n = attemptBroughtBy(tree, c);
    if (n !== undefined) attemptOf.set(c.id, n);
  }
  return { rewindOfSnap, byId, calls, attemptOf };
}

/** The point a rewind snapshot's content was restored to, or undefined for any other snapshot. */
export function restorePointOf(index: RewindIndex, snapSeq: number): RestorePoint | undefined {
  const rw = index.rewindOfSnap.get(snapSeq);
  if (!rw) return undefined;
  const target = targetOfRewind(index, rw);
  if (!target) return { kind: 'unknown', label: '' };
  const attempt = index.attemptOf.get(rw.id);
  return { kind: target.kind, label: target.label, ...(attempt !== undefined ? { attempt } : {}) };
}

/** "before the prompt "…"", "just before Bash: git push", … — completes "as it was …". */
export function describePoint(p: RestorePoint): string {
  if (p.attempt !== undefined)
    return `at the end of attempt ${p.attempt} (an earlier attempt at this work that a rewind had set aside; the user brought its content back)`;
  switch (p.kind) {
    case 'prompt':
      return `before the prompt "${oneLine(p.label, 120)}"`;
    case 'before-tool':
    case 'before-call':
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

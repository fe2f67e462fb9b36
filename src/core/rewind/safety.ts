// The pre-rewind safety check, pure given what is on disk now. A rewind is the one action that
// overwrites the user's files, so for every path it would write: content that differs from the
// last recorded state refuses the whole rewind (that content is in no snapshot); equal content
// with a different mtime only warns. Only recorded paths are checked — the plan holds no others.
import type { BlockReason, WarningReason } from '../../shared/reasons';
import type { Change } from '../timeline/changeSet';
import { sameExec } from '../timeline/timeline';
import type { DiskFact } from '../workspace/disk';
import type { LineRange } from './lineMerge';

export type { DiskFact };

export type { BlockReason };

export interface Blocked {
  path: string;
  reason: BlockReason;
  /** For `your-edit`: where the user's content came from, for the words that name it. */
  edit?: EditOrigin;
  /** Chosen hunks (`--hunks` with keep-mine) that would overwrite the user's lines: the ranges, in the file now. */
  touching?: LineRange[];
}

export interface EditOrigin {
  /** When the content entered the timeline. */
  since: number;
  /** `observed`: seen at a turn boundary; `kept`: the copy a rewind kept before overwriting it; `found`: found before an agent's call. */
  how: 'observed' | 'kept' | 'found';
  /** A rewind put it back since (Undo, or a rewind to a point that had it). */
  restored?: { time: number; undo: boolean };
}

export interface Warning {
  path: string;
  reason: WarningReason;
  /** For `observed`: when the first of the user's edits that will be reverted was seen. */
  since?: number;
  /** For `restored-edit`: where the user's content came from. */
  edit?: EditOrigin;
}

export interface SafetyResult {
  blocked: Blocked[];
  warnings: Warning[];
}

export function checkOne(change: Change, disk: DiskFact): Blocked | Warning | null {
  const { path, from } = change;
  const recordedAbsent = from.hash === null && !from.skipped;
  if (recordedAbsent) return disk.kind === 'missing' ? null : { path, reason: 'created-outside' };
  if (disk.kind === 'missing') return { path, reason: 'deleted-outside' };
  if (disk.kind === 'other' || disk.kind === 'unreadable') return { path, reason: 'modified-outside' };
  if (from.skipped) {
    // Content was never stored (too large): size and mtime are all we can compare.
    if (disk.kind !== 'file' || disk.size !== from.size || disk.mtime !== from.mtime) return { path, reason: 'modified-outside' };
    return null;
  }
  if ((disk.kind === 'symlink') !== !!from.link || disk.hash !== from.hash) return { path, reason: 'modified-outside' };
  // Made executable (or not) since: a change of its own, as a content change is.
  if (!sameExec(from.mode, disk.mode)) return { path, reason: 'modified-outside' };
  if (from.mtime !== undefined && disk.mtime !== undefined && disk.mtime !== from.mtime) return { path, reason: 'touched' };
  return null;
}

export function checkSafety(changes: readonly Change[], disk: ReadonlyMap<string, DiskFact>): SafetyResult {
  const blocked: Blocked[] = [];
  const warnings: Warning[] = [];
  for (const c of changes) {
    const fact = disk.get(c.path) ?? { kind: 'missing' };
    const r = checkOne(c, fact);
    if (!r) continue;
    if (r.reason === 'touched') warnings.push(r as Warning);
    else blocked.push(r as Blocked);
  }
  return { blocked, warnings };
}

// Words for rewinds that undo rewinds. A rewind to a `rewind` checkpoint is an undo (it puts back
// what that rewind overwrote); a rewind to an undo's checkpoint is a redo, and so on. Following the
// chain of targets to the first point that is not a rewind gives labels that never nest
// ("Before undo of rewind to "Add due dates"", not "Before rewind to "Before rewind to "…"").
// Pure: the caller passes lookups over the records (and a localizer: English by default, as the CLI and the
// labels the store keeps say it; the extension passes vscode.l10n for what it shows).
import { ENGLISH, type Localizer } from '../../shared/l10n';
import type { CheckpointRecord, LogRecord } from '../storeFiles/records';
import { isCall, isCheckpoint } from '../storeFiles/records';
import { oneLine } from '../../shared/text';

export type RewindAction = 'rewind' | 'undo' | 'redo';

export interface RewindLookups {
  checkpoint: (id: string) => CheckpointRecord | undefined;
  call: (id: string) => { tool: string; summary: string } | undefined;
}

export interface RewindMeaning {
  action: RewindAction;
  /** The point the original rewind went back to, ready to follow "to ": `"Add due dates"`, `just before "Bash: git push"`. */
  point: string;
}

/** Where a rewind to `target` leads, in words. */
export function rewindMeaning(
  target: Pick<CheckpointRecord, 'kind' | 'label' | 'target' | 'targetCall'>,
  look: RewindLookups,
  l10n: Localizer = ENGLISH,
): RewindMeaning {
  let depth = 0;
  let cur: Pick<CheckpointRecord, 'kind' | 'label' | 'target' | 'targetCall'> | undefined = target;
  let point = l10n.t('an earlier point');
  // Bounded: a damaged store could, in theory, hold a cycle of targets.
  for (let guard = 0; cur && guard < 1000; guard++) {
    if (cur.kind !== 'rewind') {
      point = describeTarget(cur.kind, cur.label, l10n);
      break;
    }
    depth++;
    if (cur.targetCall) {
      const call = look.call(cur.targetCall);
      point = call ? describeTarget('before-call', `${call.tool}: ${call.summary}`, l10n) : l10n.t('just before a tool call');
      break;
    }
    cur = cur.target ? look.checkpoint(cur.target) : undefined;
  }
  return { action: depth === 0 ? 'rewind' : depth % 2 === 1 ? 'undo' : 'redo', point };
}

/** A point as it completes "rewind to …". */
export function describeTarget(kind: CheckpointRecord['kind'] | 'before-call', label: string, l10n: Localizer = ENGLISH): string {
  switch (kind) {
    case 'before-tool':
    case 'before-call':
      return l10n.t('just before "{0}"', oneLine(label, 80));
    case 'session-start':
      return label ? `"${oneLine(label, 80)}"` : l10n.t('the start of a session');
    default:
      return `"${oneLine(label, 80)}"`;
  }
}

/** The label of the checkpoint taken before a rewind to `target`: never nested. */
export function rewindCheckpointLabel(
  target: Pick<CheckpointRecord, 'kind' | 'label' | 'target' | 'targetCall'>,
  look: RewindLookups,
  l10n: Localizer = ENGLISH,
): string {
  const m = rewindMeaning(target, look, l10n);
  if (m.action === 'undo') return l10n.t('Before undo of rewind to {0}', m.point);
  if (m.action === 'redo') return l10n.t('Before redo of rewind to {0}', m.point);
  return l10n.t('Before rewind to {0}', m.point);
}

/** The label of the checkpoint taken before a rewind that brings back attempt `n`'s files: some (`take`) or all (a switch). */
export function attemptRewindLabel(n: number, take: boolean, l10n: Localizer = ENGLISH): string {
  return take ? l10n.t('Before taking files from Attempt {0}', n) : l10n.t('Before switching to Attempt {0}', n);
}

/** The label of the checkpoint taken before a rewind to just before a call (`label`: "Tool: summary"). */
export function rewindLabelBeforeCall(label: string, l10n: Localizer = ENGLISH): string {
  return l10n.t('Before rewind to {0}', describeTarget('before-call', label, l10n));
}

/** The label a `rewind` checkpoint shows, computed from its own target (old stores hold nested labels). */
export function labelOfRewindCheckpoint(
  c: Pick<CheckpointRecord, 'kind' | 'label' | 'target' | 'targetCall'>,
  look: RewindLookups,
  l10n: Localizer = ENGLISH,
): string {
  if (c.kind !== 'rewind') return c.label;
  if (c.targetCall) {
    const call = look.call(c.targetCall);
    return call ? rewindLabelBeforeCall(`${call.tool}: ${call.summary}`, l10n) : c.label;
  }
  const t = c.target ? look.checkpoint(c.target) : undefined;
  return t ? rewindCheckpointLabel(t, look, l10n) : c.label;
}

/**
 * Lookups over the records, in one pass made on the first question: only rewinds ask, and the
 * extension makes new lookups after every hook (10,000 checkpoints: a map of 30,000 calls each time).
 */
export function rewindLookups(records: readonly LogRecord[]): RewindLookups {
  let built: { cps: Map<string, CheckpointRecord>; calls: Map<string, { tool: string; summary: string }> } | undefined;
  const build = () => {
    if (built) return built;
    const cps = new Map<string, CheckpointRecord>();
    const calls = new Map<string, { tool: string; summary: string }>();
    for (const r of records) {
      if (isCheckpoint(r)) cps.set(r.id, r);
      else if (isCall(r) && r.call && !calls.has(r.call)) calls.set(r.call, { tool: r.tool, summary: r.summary });
    }
    return (built = { cps, calls });
  };
  return { checkpoint: (id) => build().cps.get(id), call: (id) => build().calls.get(id) };
}

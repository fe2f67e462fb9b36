// The timeline as a person reads it: one row per prompt. The checkpoints taken inside a turn
// (before a risky tool call) belong to its prompt. A session's start (startup, resume, clear,
// compact) is a row of its own where it happened, never folded into a later prompt: a resume
// hours after the prompt before it must not read as part of the next one. Pure over the
// checkpoints, oldest first.
import { countWords, ENGLISH, type Localizer } from '../../shared/l10n';
import type { CheckpointRecord, Sequenced } from '../storeFiles/records';
import { CHANGE_PHASES, latestState, stateAt, type SpanChange } from './timeline';
import { isCheckpoint, isSnap } from '../storeFiles/records';

export interface Turn {
  /** The row: a prompt, a session start, a manual or rewind checkpoint. */
  head: Sequenced<CheckpointRecord>;
  /** Checkpoints inside the turn (before-tool), oldest first. */
  inside: Sequenced<CheckpointRecord>[];
}

/** Rows oldest first. */
export function groupTurns(cps: readonly Sequenced<CheckpointRecord>[]): Turn[] {
  const rows: Turn[] = [];
  // Per session: the open row (a prompt's turn, or its start before the first prompt).
  const open = new Map<string, Turn>();
  for (const c of cps) {
    const s = c.session ?? '';
    if (c.kind === 'before-tool') {
      const t = open.get(s);
      if (t) t.inside.push(c);
      else rows.push({ head: c, inside: [] });
      continue;
    }
    const row: Turn = { head: c, inside: [] };
    rows.push(row);
    if (c.kind === 'prompt' || c.kind === 'session-start') open.set(s, row);
  }
  return rows;
}

/**
 * The files a turn changed (its prompt's span and the spans of the checkpoints inside it), each
 * with its state at the prompt and at the end of the turn.
 */
export function turnChanges(records: readonly Sequenced[], turn: Turn): SpanChange[] {
  const spans = new Set([turn.head.seq, ...turn.inside.map((c) => c.seq)]);
  const last = Math.max(...spans);
  const paths = new Set<string>();
  let inSpan = false;
  let end: number | undefined;
  for (const r of records) {
    if (isCheckpoint(r)) {
      if (r.seq > last) {
        end = r.seq;
        break;
      }
      inSpan = spans.has(r.seq);
    } else if (inSpan && isSnap(r) && CHANGE_PHASES.has(r.phase)) paths.add(r.path);
  }
  if (paths.size === 0) return [];
  const start = stateAt(records, turn.head.seq);
  const stop = end !== undefined ? stateAt(records, end) : latestState(records);
  const out: SpanChange[] = [];
  for (const p of [...paths].sort()) {
    const to = stop.get(p);
    if (to) out.push({ path: p, from: start.get(p), to });
  }
  return out;
}

/** What a rewind to a checkpoint would change: the one count the row, its tooltip and the preview share. */
export interface RewindSummary {
  total: number;
  restore: number;
  delete: number;
  recreate: number;
}

/** "7 files will change: 5 restored, 2 deleted" — the preview's wording, so the two always read alike. */
export function describeSummary(s: RewindSummary, l10n: Localizer = ENGLISH): string {
  if (s.total === 0) return l10n.t('No recorded file differs from this point: a rewind here changes nothing');
  const parts = [
    s.restore && l10n.t('{0} restored', s.restore),
    s.delete && l10n.t('{0} deleted', s.delete),
    s.recreate && l10n.t('{0} recreated', s.recreate),
  ].filter(Boolean);
  const files = countWords(s.total, l10n.t('1 file'), l10n.t('{0} files', s.total));
  return l10n.t('{0} will change: {1}', files, parts.join(', '));
}

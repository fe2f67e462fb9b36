// The timeline as a person reads it: one row per prompt. The checkpoints taken inside a turn
// (before a risky tool call) belong to its prompt, and a session's start or resume is folded into
// the first prompt that follows it in that session. Pure over the checkpoints, oldest first.
import type { CheckpointRecord, Sequenced } from '../storeFiles/records';
import { CHANGE_PHASES, latestState, stateAt, type SpanChange } from './timeline';
import { isCheckpoint, isSnap } from '../storeFiles/records';

export interface Turn {
  /** The row: a prompt, a manual or rewind checkpoint, or a session start no prompt followed. */
  head: Sequenced<CheckpointRecord>;
  /** Checkpoints inside the turn (before-tool), oldest first. */
  inside: Sequenced<CheckpointRecord>[];
  /** The session start (or resume) folded into this prompt. */
  sessionStart?: Sequenced<CheckpointRecord>;
}

/** Rows oldest first. */
export function groupTurns(cps: readonly Sequenced<CheckpointRecord>[]): Turn[] {
  const rows: Turn[] = [];
  // Per session: the open turn, and a session start waiting for its first prompt.
  const open = new Map<string, Turn>();
  const waiting = new Map<string, Turn>();
  for (const c of cps) {
    const s = c.session ?? '';
    if (c.kind === 'before-tool') {
      const t = open.get(s);
      if (t) t.inside.push(c);
      else rows.push({ head: c, inside: [] });
      continue;
    }
    if (c.kind === 'session-start') {
      const row: Turn = { head: c, inside: [] };
      rows.push(row);
      waiting.set(s, row);
      open.delete(s);
      continue;
    }
    if (c.kind === 'prompt') {
      const row: Turn = { head: c, inside: [] };
      const start = waiting.get(s);
      if (start) {
        // The start becomes part of this prompt's row: its place in the list is taken by the prompt.
        rows.splice(rows.indexOf(start), 1);
        row.sessionStart = start.head;
        row.inside.push(...start.inside);
        waiting.delete(s);
      }
      rows.push(row);
      open.set(s, row);
      continue;
    }
    rows.push({ head: c, inside: [] });
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
export function describeSummary(s: RewindSummary): string {
  if (s.total === 0) return 'No recorded file differs from this point: a rewind here changes nothing';
  const parts = [s.restore && `${s.restore} restored`, s.delete && `${s.delete} deleted`, s.recreate && `${s.recreate} recreated`].filter(
    Boolean,
  );
  return `${s.total} file${s.total === 1 ? '' : 's'} will change: ${parts.join(', ')}`;
}

// The rewind plan, pure: which recorded paths a rewind to a checkpoint would write and how
// (restore / delete / recreate), what it cannot restore, and which recorded calls in the discarded
// span it cannot undo. Disk facts and line counts are added by the store; nothing here does I/O.
import type { NotRestorableReason } from '../shared/reasons';
import type { CallRecord, CheckpointRecord, Sequenced, Severity } from './records';
import { isCall, isSnap } from './records';
import { type FileState, latestState, sameContent, stateAt } from './timeline';

export type Action = 'restore' | 'delete' | 'recreate';

export interface Change {
  path: string;
  action: Action;
  /** The latest recorded state: what the rewind expects to find on disk. */
  from: FileState;
  /** The state at the target checkpoint: what the rewind writes. */
  to: FileState;
  /** Sessions that changed the path after the target (`(rewind)` for a rewind's own writes). */
  sessions: string[];
}

export type { NotRestorableReason };

export interface NotRestorable {
  path: string;
  reason: NotRestorableReason;
}

export interface NotUndone {
  tool: string;
  summary: string;
  effect: 'irreversible' | 'compensatable';
  severity: Severity;
  compensation?: string;
  call?: string;
  session?: string;
  time: number;
}

export interface ChangeSet {
  changes: Change[];
  notRestorable: NotRestorable[];
  /** With a session filter: paths the chosen sessions changed that other sessions changed too. */
  conflicts: { path: string; sessions: string[] }[];
  notUndone: NotUndone[];
  /** Every session that changed something after the target, for grouping. */
  sessions: string[];
}

export interface ChangeOptions {
  /** Rewind only these sessions' changes. */
  sessions?: readonly string[];
  /** Only these paths ("restore this file only"). */
  paths?: readonly string[];
  /** A path for which this returns false is listed as not restorable (outside every workspace folder). */
  allowed?: (path: string) => boolean;
}

export const REWIND_SESSION = '(rewind)';

function actionFor(from: FileState, to: FileState): Action {
  if (to.hash === null && !to.skipped) return 'delete';
  if (from.hash === null && !from.skipped) return 'recreate';
  return 'restore';
}

export function computeChanges(records: readonly Sequenced[], target: Sequenced<CheckpointRecord>, opts: ChangeOptions = {}): ChangeSet {
  const at = stateAt(records, target.seq);
  const latest = latestState(records);
  const writers = new Map<string, Set<string>>();
  for (const r of records) {
    if (r.seq <= target.seq || !isSnap(r) || r.phase === 'baseline' || r.phase === 'pre-rewind') continue;
    const who = r.phase === 'rewind' ? REWIND_SESSION : (r.session ?? '');
    let set = writers.get(r.path);
    if (!set) writers.set(r.path, (set = new Set()));
    set.add(who);
  }
  const onlyPaths = opts.paths ? new Set(opts.paths) : null;
  const onlySessions = opts.sessions ? new Set(opts.sessions) : null;
  const changes: Change[] = [];
  const notRestorable: NotRestorable[] = [];
  const conflicts: ChangeSet['conflicts'] = [];
  const allSessions = new Set<string>();

  for (const [p, from] of latest) {
    if (onlyPaths && !onlyPaths.has(p)) continue;
    const to = at.get(p);
    // Same record (nothing after the target) or same content: nothing to write.
    if (to && (to.seq === from.seq || sameContent(to, from))) continue;
    const sessions = [...(writers.get(p) ?? [])].sort();
    for (const s of sessions) allSessions.add(s);
    if (onlySessions) {
      const mine = sessions.filter((s) => onlySessions.has(s));
      if (mine.length === 0) continue;
      if (mine.length < sessions.length) {
        conflicts.push({ path: p, sessions });
        continue;
      }
    }
    if (opts.allowed && !opts.allowed(p)) {
      notRestorable.push({ path: p, reason: 'outside-workspace' });
      continue;
    }
    if (!to) {
      notRestorable.push({ path: p, reason: 'unknown-at-target' });
      continue;
    }
    if (to.skipped) {
      notRestorable.push({ path: p, reason: to.skipped === 'too-large' ? 'too-large' : to.skipped });
      continue;
    }
    changes.push({ path: p, action: actionFor(from, to), from, to, sessions });
  }
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  notRestorable.sort((a, b) => (a.path < b.path ? -1 : 1));

  const notUndone = notUndoneAfter(records, target.seq, onlySessions);
  return { changes, notRestorable, conflicts, notUndone, sessions: [...allSessions].sort() };
}

/** Irreversible and compensatable calls recorded after `seq`: what a rewind there cannot undo. */
export function notUndoneAfter(records: readonly Sequenced[], seq: number, sessions?: ReadonlySet<string> | null): NotUndone[] {
  const out: NotUndone[] = [];
  for (const r of records) {
    if (r.seq <= seq || !isCall(r)) continue;
    const c = r as Sequenced<CallRecord>;
    if (c.effect !== 'irreversible' && c.effect !== 'compensatable') continue;
    if (sessions && !sessions.has(c.session ?? '')) continue;
    const item: NotUndone = {
      tool: c.tool,
      summary: c.summary,
      effect: c.effect,
      severity: c.severity ?? 'high',
      time: c.time,
    };
    if (c.compensation) item.compensation = c.compensation;
    if (c.call) item.call = c.call;
    if (c.session) item.session = c.session;
    out.push(item);
  }
  return out;
}

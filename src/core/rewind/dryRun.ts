// The dry run: which recorded files a rewind to a checkpoint would write (with line counts), what
// the safety check says about them, what it cannot restore and what it cannot undo. Touches nothing.
import { diskFact } from '../disk';
import { uncommittedPaths } from '../git/status';
import { lineStats, type LineStats } from '../lineStats';
import { type Change, type ChangeOptions, computeChanges, type NotRestorable, type NotUndone } from '../plan';
import type { CheckpointRecord, Sequenced } from '../records';
import { type Blocked, checkSafety, type DiskFact, type Warning } from '../safety';
import type { Store } from '../store';
import { findCheckpoint } from '../timeline';

export class CheckpointNotFoundError extends Error {
  constructor(
    readonly id: string,
    ambiguous: string[],
  ) {
    super(
      ambiguous.length
        ? `Checkpoint id "${id}" matches several checkpoints (${ambiguous.join(', ')}); give more of the id.`
        : `No checkpoint "${id}" in this store; run \`agent-rewind checkpoints\` to list them.`,
    );
  }
}

export interface PlanFile extends LineStats {
  path: string;
  action: Change['action'];
  sessions: string[];
}

export interface Plan {
  target: Sequenced<CheckpointRecord>;
  files: PlanFile[];
  blocked: Blocked[];
  warnings: Warning[];
  notUndone: NotUndone[];
  notRestorable: NotRestorable[];
  conflicts: { path: string; sessions: string[] }[];
  sessions: string[];
  /** Affected files with uncommitted changes in their git repository. */
  uncommitted: string[];
  /** For the apply step: the changes with their states. */
  changes: Change[];
  records: Sequenced[];
}

export interface PlanOptions extends Omit<ChangeOptions, 'allowed'> {
  /** Skip line statistics (the apply step does not need them). */
  noStats?: boolean;
  /** Skip asking git about uncommitted changes. */
  noGit?: boolean;
}

function contentOf(store: Store, hash: string | null): Buffer | null {
  return hash === null ? null : store.content(hash);
}

/** The dry run: touches nothing. */
export function makePlan(store: Store, targetId: string, opts: PlanOptions = {}): Plan {
  const { records } = store.read();
  const found = findCheckpoint(records, targetId);
  if (!found.ok) throw new CheckpointNotFoundError(targetId, found.reason === 'ambiguous' ? found.matches : []);
  const roots = store.roots(records);
  const set = computeChanges(records, found.checkpoint, { ...opts, allowed: (p) => store.mayWrite(p, roots) });
  const maxBytes = store.config().maxFileBytes;
  const disk = new Map<string, DiskFact>();
  // A rewind keeps a copy of everything it overwrites, so it never overwrites what it cannot copy
  // (over the size limit, or unreadable now): listed, left as it is — even with --force.
  const changes = set.changes.filter((c) => {
    const f = diskFact(c.path, maxBytes);
    const cannotKeep = f.kind === 'unreadable' ? 'unreadable' : f.kind === 'file' && f.hash === undefined ? 'too-large' : null;
    if (cannotKeep) set.notRestorable.push({ path: c.path, reason: cannotKeep });
    else disk.set(c.path, f);
    return !cannotKeep;
  });
  set.notRestorable.sort((a, b) => (a.path < b.path ? -1 : 1));
  const safety = checkSafety(changes, disk);
  const files: PlanFile[] = changes.map((c) => {
    let stats: LineStats = { insertions: 0, deletions: 0 };
    if (!opts.noStats) {
      try {
        stats = lineStats(c.from.skipped ? null : contentOf(store, c.from.hash), contentOf(store, c.to.hash));
      } catch {
        stats = { insertions: 0, deletions: 0, approximate: true };
      }
    }
    return { path: c.path, action: c.action, ...stats, sessions: c.sessions };
  });
  return {
    target: found.checkpoint,
    files,
    blocked: safety.blocked,
    warnings: safety.warnings,
    notUndone: set.notUndone,
    notRestorable: set.notRestorable,
    conflicts: set.conflicts,
    sessions: set.sessions,
    uncommitted: opts.noGit ? [] : uncommittedPaths(changes.map((c) => c.path)),
    changes,
    records,
  };
}

/** The JSON of `plan --json` (the documented fields first; extra fields after). */
export function planJson(plan: Plan) {
  return {
    target: plan.target.id,
    files: plan.files.map((f) => ({
      path: f.path,
      action: f.action,
      insertions: f.insertions,
      deletions: f.deletions,
      ...(f.binary ? { binary: true } : {}),
      ...(f.approximate ? { approximate: true } : {}),
      ...(f.sessions.length ? { sessions: f.sessions } : {}),
    })),
    blocked: plan.blocked,
    warnings: plan.warnings,
    notUndone: plan.notUndone.map((n) => ({
      tool: n.tool,
      summary: n.summary,
      effect: n.effect,
      severity: n.severity,
      ...(n.compensation ? { compensation: n.compensation } : {}),
      ...(n.session ? { session: n.session } : {}),
      time: new Date(n.time).toISOString(),
    })),
    notRestorable: plan.notRestorable,
    conflicts: plan.conflicts,
    uncommitted: plan.uncommitted,
    checkpoint: {
      id: plan.target.id,
      kind: plan.target.kind,
      label: plan.target.label,
      time: new Date(plan.target.time).toISOString(),
    },
  };
}

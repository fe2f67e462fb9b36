// Building the dry run and applying a rewind. The order on disk is fixed (DESIGN §3):
// `pre-rewind` snapshots of everything it will write, then the `rewind` checkpoint, then a journal,
// then the writes (each atomic), then `rewind` snapshots of the result — so the rewind checkpoint's
// state is exactly what was on disk before, and undo is a rewind to it. A refused rewind records
// nothing. A rewind killed half-way is finished from its journal by the next command.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { newId } from './ids';
import { diskFact, missingAncestors } from './disk';
import { fault } from './faults';
import { writeAll } from './fsx';
import { uncommittedPaths } from './git';
import { lineStats, type LineStats } from './lineStats';
import { acquireStoreLock, StoreBusyError } from './lock';
import { type Change, type ChangeOptions, computeChanges, type NotRestorable, type NotUndone } from './plan';
import type { CheckpointRecord, LogRecord, Sequenced, SnapRecord } from './records';
import { type Blocked, checkSafety, type DiskFact, type Warning } from './safety';
import type { Store } from './store';
import { findCheckpoint } from './timeline';

export class CheckpointNotFoundError extends Error {
  constructor(readonly id: string, ambiguous: string[]) {
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

/** The JSON of `plan --json` (DESIGN §5 fields first; extra fields after). */
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

// ---------------------------------------------------------------------------------------------
// Applying

export interface Write {
  path: string;
  action: Change['action'];
  /** What must be on disk right before we write (the pre-rewind hash); null = missing. */
  expect: string | null;
  /** What we write; null = delete. */
  to: string | null;
  link?: boolean;
  mode?: number;
  /** Folders to remove again after a delete, if empty (they did not exist at the target). */
  dirs?: string[];
  /** Folders a (re)creation will make (missing when the rewind began): removed again by a recovery that finds the file unwritten. */
  made?: string[];
  tmp: string;
}

export interface Journal {
  checkpoint: string;
  target: string;
  started: number;
  pid: number;
  writes: Write[];
}

export interface FileResult {
  path: string;
  action: Change['action'];
  ok: boolean;
  expected: string | null;
  actual: string | null;
  error?: string;
}

export type RewindOutcome =
  | { status: 'refused'; plan: Plan }
  | { status: 'nothing'; plan: Plan }
  | { status: 'done' | 'partial'; plan: Plan; checkpoint: CheckpointRecord; files: FileResult[] };

export interface RewindOptions extends PlanOptions {
  force?: boolean;
}

const JOURNAL = 'rewind-journal.json';

function tmpNameFor(p: string, id: string): string {
  const base = path.basename(p);
  const name = `.${base}.agent-rewind-${id}.tmp`;
  return path.join(path.dirname(p), Buffer.byteLength(name) > 200 ? `.agent-rewind-${id}.tmp` : name);
}

function writeJournal(store: Store, j: Journal): void {
  const file = path.join(store.dir, JOURNAL);
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    writeAll(fd, JSON.stringify(j));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

export function readJournal(store: Store): Journal | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(store.dir, JOURNAL), 'utf8')) as Journal;
  } catch {
    return null;
  }
}

function removeJournal(store: Store): void {
  try {
    fs.unlinkSync(path.join(store.dir, JOURNAL));
  } catch {
    /* gone */
  }
}

/** Can we write (create/replace/delete) `p`? The answer decides before anything is written. */
function preflight(w: Write): string | null {
  let dir = path.dirname(w.path);
  while (!fs.existsSync(dir)) {
    const up = path.dirname(dir);
    if (up === dir) return 'no existing parent folder';
    dir = up;
  }
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    return `permission denied: cannot write in ${dir}`;
  }
  return null;
}

function hashOnDisk(store: Store, p: string): string | null {
  const f = diskFact(p, store.config().maxFileBytes);
  return f.kind === 'missing' ? null : (f.hash ?? 'unknown');
}

/**
 * Removes the folders that did not exist at the target and that the deletions emptied, deepest
 * first — after all of them, since one deletion may empty a folder another's list names.
 * A folder that is not empty (the user's files, or a file kept for a reason) stays.
 */
export function removeEmptiedDirs(writes: readonly Write[]): void {
  removeEmptyDirs(writes.flatMap((w) => (w.to === null ? (w.dirs ?? []) : [])));
}

/** rmdir each of `dirs` that is empty, deepest first (so a parent emptied by its child goes too). */
function removeEmptyDirs(dirs: Iterable<string>): void {
  const depth = (d: string) => d.split(/[\\/]/).length;
  for (const d of [...new Set(dirs)].sort((a, b) => depth(b) - depth(a))) {
    try {
      fs.rmdirSync(d);
    } catch {
      /* not empty, or gone */
    }
  }
}

/** Writes one file atomically (temp in the same folder, fsync, rename), or deletes it. */
export function applyWriteFs(store: Store, w: Write): void {
  if (w.to === null) {
    try {
      fs.unlinkSync(w.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    return; // its folders go in removeEmptiedDirs, once every deletion is done
  }
  const data = store.content(w.to);
  fs.mkdirSync(path.dirname(w.path), { recursive: true });
  try {
    fs.unlinkSync(w.tmp);
  } catch {
    /* no leftover */
  }
  if (w.link) {
    fs.symlinkSync(data.toString(), w.tmp);
  } else {
    const fd = fs.openSync(w.tmp, 'wx', w.mode ?? 0o644);
    try {
      writeAll(fd, data);
      fs.fsyncSync(fd);
      if (w.mode !== undefined) fs.fchmodSync(fd, w.mode);
    } finally {
      fs.closeSync(fd);
    }
  }
  fault('rewind.tmp');
  fs.renameSync(w.tmp, w.path);
}

export interface RewindTxn {
  plan: Plan;
  checkpoint: CheckpointRecord;
  writes: Write[];
  /** Re-checks that `w.path` still holds what the plan expects (someone may be writing right now). */
  unchanged(w: Write): boolean;
  /** Records the result (rewind snapshots), verifies every written file, removes the journal, unlocks. */
  finish(errors?: ReadonlyMap<string, string>): FileResult[];
  /** Gives up before writing anything (lock released, journal removed; the recorded lines stay harmless). */
  abort(): void;
}

export type BeginOutcome =
  | { status: 'refused'; plan: Plan }
  | { status: 'nothing'; plan: Plan }
  | { status: 'blocked-io'; plan: Plan; problems: { path: string; error: string }[] }
  | { status: 'ready'; txn: RewindTxn };

/**
 * Plans under the store lock, runs the safety check, and when allowed records the pre-rewind
 * snapshots, the rewind checkpoint and the journal. The caller then writes (`applyWriteFs`, or a
 * VS Code WorkspaceEdit) and calls `finish`.
 */
export function beginRewind(store: Store, targetId: string, opts: RewindOptions = {}): BeginOutcome {
  const release = acquireStoreLock(store.dir, 'rewind');
  fault('lock.acquired');
  try {
    recoverLocked(store);
    const plan = makePlan(store, targetId, { ...opts, noStats: true });
    if (plan.blocked.length > 0 && !opts.force) {
      release();
      return { status: 'refused', plan };
    }
    if (plan.changes.length === 0) {
      release();
      return { status: 'nothing', plan };
    }
    const id = newId();
    const roots = store.roots(plan.records);
    const writes: Write[] = plan.changes.map((c) => {
      const w: Write = { path: c.path, action: c.action, expect: null, to: c.to.hash, tmp: tmpNameFor(c.path, id) };
      if (c.to.link) w.link = true;
      if (c.to.mode !== undefined) w.mode = c.to.mode;
      // Only folders inside the workspace (and never the workspace folder itself) are removed.
      if (c.to.hash === null && c.to.dirs) w.dirs = c.to.dirs.filter((d) => !roots.includes(d) && store.mayWrite(d, roots));
      if (c.to.hash !== null) {
        const made = missingAncestors(c.path);
        if (made.length) w.made = made;
      }
      return w;
    });
    const problems = writes.map((w) => ({ path: w.path, error: preflight(w) })).filter((p): p is { path: string; error: string } => p.error !== null);
    if (problems.length) {
      release();
      return { status: 'blocked-io', plan, problems };
    }
    fault('rewind.planned');
    // 1. what we are about to overwrite, 2. the checkpoint that makes this rewind undoable
    const now = Date.now();
    const pre: LogRecord[] = [];
    for (const w of writes) {
      const s = store.snapshot(w.path, 'pre-rewind', { time: now });
      if (s) pre.push(s);
      w.expect = !s || s.skipped ? 'unknown' : s.hash;
    }
    fault('rewind.presnaps');
    const checkpoint = store.checkpointRecord({
      id,
      kind: 'rewind',
      label: `Before rewind to "${truncate(plan.target.label, 80)}"`,
      target: plan.target.id,
      time: now,
    });
    store.append([...pre, checkpoint]);
    fault('rewind.checkpoint');
    // 3. the journal, so a crash from here on is finished by the next command
    writeJournal(store, { checkpoint: id, target: plan.target.id, started: now, pid: process.pid, writes });
    fault('rewind.journal');
    let done = false;
    const txn: RewindTxn = {
      plan,
      checkpoint,
      writes,
      unchanged: (w) => hashOnDisk(store, w.path) === w.expect,
      finish: (errors = new Map()) => {
        if (done) throw new Error('rewind already finished');
        done = true;
        try {
          fault('rewind.written');
          const results = recordResults(store, writes, errors);
          fault('rewind.recorded');
          removeJournal(store);
          return results;
        } finally {
          release();
        }
      },
      abort: () => {
        if (done) return;
        done = true;
        removeJournal(store);
        release();
      },
    };
    return { status: 'ready', txn };
  } catch (e) {
    release();
    throw e;
  }
}

function recordResults(store: Store, writes: readonly Write[], errors: ReadonlyMap<string, string>): FileResult[] {
  const snaps: SnapRecord[] = [];
  const results: FileResult[] = [];
  const now = Date.now();
  for (const w of writes) {
    try {
      fs.unlinkSync(w.tmp);
    } catch {
      /* no leftover */
    }
    const s = store.snapshot(w.path, 'rewind', { time: now });
    if (s) snaps.push(s);
    const actual = s ? s.hash : 'unknown';
    const err = errors.get(w.path);
    const ok = !err && actual === w.to && (!s || !!s.link === !!w.link);
    const r: FileResult = { path: w.path, action: w.action, ok, expected: w.to, actual };
    if (err) r.error = err;
    else if (!ok) r.error = 'the file on disk does not match the snapshot after writing';
    results.push(r);
  }
  store.append(snaps);
  return results;
}

/** The whole rewind with plain file-system writes (the CLI). */
export function rewind(store: Store, targetId: string, opts: RewindOptions = {}): RewindOutcome | Extract<BeginOutcome, { status: 'blocked-io' }> {
  const begun = beginRewind(store, targetId, opts);
  if (begun.status !== 'ready') return begun;
  const { txn } = begun;
  const errors = new Map<string, string>();
  for (const w of txn.writes) {
    if (!txn.unchanged(w)) {
      errors.set(w.path, 'changed while the rewind ran; left as it is');
      continue;
    }
    try {
      applyWriteFs(store, w);
    } catch (e) {
      errors.set(w.path, (e as Error).message);
    }
    fault('rewind.write');
  }
  removeEmptiedDirs(txn.writes.filter((w) => !errors.has(w.path)));
  const files = txn.finish(errors);
  return { status: files.every((f) => f.ok) ? 'done' : 'partial', plan: txn.plan, checkpoint: txn.checkpoint, files };
}

export interface Recovery {
  checkpoint: string;
  target: string;
  written: string[];
  notWritten: string[];
  changedSince: string[];
}

/**
 * Finishes a rewind that was killed: records what it had already written (as `rewind`
 * snapshots), removes its temp files and journal. Afterwards both undo (rewind to its checkpoint)
 * and rewinding again work without --force. Takes the store lock, so it never races a rewind that
 * is running (that rewind finishes its own journal); returns null then, or when there is nothing to do.
 */
export function recoverUnfinished(store: Store): Recovery | null {
  if (!readJournal(store)) return null; // the common case: no lock file churn
  let release: () => void;
  try {
    release = acquireStoreLock(store.dir, 'recovery');
  } catch (e) {
    if (e instanceof StoreBusyError) return null;
    throw e;
  }
  try {
    fault('lock.acquired');
    return recoverLocked(store);
  } finally {
    release();
  }
}

/** The recovery itself; the caller holds the store lock. */
function recoverLocked(store: Store): Recovery | null {
  const j = readJournal(store);
  if (!j) return null;
  if (j.pid === process.pid) return null; // our own rewind, still between begin and finish
  const rec: Recovery = { checkpoint: j.checkpoint, target: j.target, written: [], notWritten: [], changedSince: [] };
  const snaps: SnapRecord[] = [];
  for (const w of j.writes) {
    try {
      fs.unlinkSync(w.tmp);
    } catch {
      /* none */
    }
    const now = hashOnDisk(store, w.path);
    if (now === w.to) {
      const s = store.snapshot(w.path, 'rewind');
      if (s) snaps.push(s);
      rec.written.push(w.path);
    } else if (now === w.expect) rec.notWritten.push(w.path);
    else rec.changedSince.push(w.path);
  }
  // Folders: those the finished deletions emptied, and those made for files never written.
  const written = new Set(rec.written);
  removeEmptiedDirs(j.writes.filter((w) => written.has(w.path)));
  removeEmptyDirs(j.writes.flatMap((w) => (written.has(w.path) ? [] : (w.made ?? []))));
  store.append(snaps);
  fault('recover.recorded');
  removeJournal(store);
  return rec;
}

function truncate(s: string, n: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? one.slice(0, n - 1) + '…' : one;
}

// A rewind as a transaction: under the store lock it plans, lets the caller veto
// (VS Code: unsaved editors), runs the safety check, then records `pre-rewind` snapshots of
// everything it will write, the `rewind` checkpoint and the journal — in that order, so the
// rewind checkpoint's state is exactly what was on disk before and undo is a rewind to it. The
// writes come next (apply.ts), each path re-read right before it is written (`claim`): one that
// changed since (the user saved it meanwhile) is left as it is and its content recorded as an
// `observed` snapshot, never a `rewind` one — so the store holds it, and undo (which rewinds only
// what a rewind wrote) leaves it too. `finish` records the `rewind` snapshots of the result. A
// refused rewind records nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathKey } from '../paths';
import { fault } from '../faults';
import { AgentRewindError } from '../errors';
import { errCode } from '../storeFiles/fsx';
import { newId } from '../storeFiles/ids';
import { acquireStoreLock } from '../storeFiles/lock';
import type { CheckpointRecord, LogRecord, SnapRecord } from '../storeFiles/records';
import type { Store } from '../store';
import { makePlan, type Plan, type PlanOptions } from './plan';
import { recoverLocked, removeJournal, writeJournal } from './journal';
import { clearFolder, diskKey, foldersToMake, isFolder, preflight, snapKey, tmpNameFor, type Write } from './writes';
import { type Shaped, shapeWrites } from './shape';
import { attemptRewindLabel, rewindCheckpointLabel, rewindLabelBeforeCall, rewindLookups } from '../timeline/rewindLabels';
import { attemptToBring, buildAttempts } from '../timeline/attempts';
import { captureBeforeRewind } from '../capture/capture';

export interface RewindOptions extends PlanOptions {
  force?: boolean;
  /**
   * Called under the store lock with every path the rewind would write; the paths it returns
   * refuse the rewind before anything is recorded (VS Code: editors with unsaved changes).
   */
  veto?: (paths: string[]) => string[];
}

/**
 * Why a rewind left a path it meant to write as it is: its content on disk changed after the
 * rewind recorded it (`changed-during-rewind`), or (VS Code) its editor got unsaved changes
 * (`unsaved-during-rewind`). The current content stays; the store has a copy of it.
 */
export type SkipReason = 'changed-during-rewind' | 'unsaved-during-rewind';

export interface FileResult {
  path: string;
  action: Write['action'];
  ok: boolean;
  expected: string | null;
  actual: string | null;
  error?: string;
  /** Left as it is, not written: why. Never `ok`, never a failure. */
  skipped?: SkipReason;
}

export interface RewindTxn {
  plan: Plan;
  checkpoint: CheckpointRecord;
  writes: Write[];
  /**
   * Right before writing `w` (under the store lock): true when the path still holds what the rewind
   * recorded there. Otherwise (`reason` given, or the disk changed) the path is left as it is,
   * reported as skipped, and what the disk holds now is recorded (`observed`, its blob stored).
   */
  claim(w: Write, reason?: SkipReason): boolean;
  /** Records the result (rewind snapshots), verifies every written file, removes the journal, unlocks. */
  finish(errors?: ReadonlyMap<string, string>): FileResult[];
  /** Gives up before writing anything (lock released, journal removed; the recorded lines stay harmless). */
  abort(): void;
}

/** A path where the plan made under the lock is not the one the caller showed: its disk changed, or what the rewind would do there. */
export interface StalePath {
  path: string;
  why: 'disk' | 'plan';
}

export type BeginOutcome =
  | { status: 'refused'; plan: Plan }
  | { status: 'stale'; plan: Plan; changed: StalePath[] }
  | { status: 'vetoed'; plan: Plan; paths: string[] }
  | { status: 'nothing'; plan: Plan }
  | { status: 'blocked-io'; plan: Plan; problems: { path: string; error: string }[] }
  | { status: 'ready'; txn: RewindTxn };

/**
 * Plans under the store lock, runs the veto and the safety check, and when allowed records the
 * pre-rewind snapshots, the rewind checkpoint and the journal. The caller then writes and calls
 * `finish` (applyRewind does both).
 */
export function beginRewind(store: Store, targetId: string, opts: RewindOptions = {}): BeginOutcome {
  const release = acquireStoreLock(store.dir, 'rewind');
  fault('lock.acquired');
  let during: ReturnType<typeof captureBeforeRewind> | undefined;
  let appended = false;
  const settleCalls = () => during?.settle(appended);
  try {
    recoverLocked(store);
    const plan = makePlan(store, targetId, { ...opts, noStats: true });
    const changed = opts.expect ? staleAgainst(plan.seen, opts.expect) : [];
    if (changed.length) {
      release();
      return { status: 'stale', plan, changed };
    }
    const vetoed = opts.veto && plan.changes.length ? opts.veto(plan.changes.map((c) => c.path)) : [];
    if (vetoed.length) {
      release();
      return { status: 'vetoed', plan, paths: vetoed };
    }
    const shaped = shapeOf(store, plan, opts);
    if ((plan.blocked.some((b) => !shaped?.unblocked.has(b.path)) || plan.uncertain.length > 0) && !opts.force) {
      release();
      return { status: 'refused', plan };
    }
    if (plan.changes.length === 0) {
      release();
      return { status: 'nothing', plan };
    }
    const id = newId();
    const roots = store.roots();
    const deleting = new Set(plan.changes.filter((c) => c.to.hash === null).map((c) => pathKey(c.path)));
    const writes: Write[] = plan.changes.map((c) => {
      const w: Write = { path: c.path, action: c.action, expect: null, to: c.to.hash, tmp: tmpNameFor(c.path, id) };
      if (c.to.link) w.link = true;
      if (c.origin) w.origin = c.origin;
      if (c.to.mode !== undefined) w.mode = c.to.mode;
      // Only folders inside the workspace (and never the workspace folder itself) are removed.
      if (c.to.hash === null && c.to.dirs) w.dirs = c.to.dirs.filter((d) => !roots.includes(d) && store.mayWrite(d, roots));
      if (c.to.hash !== null) {
        const made = foldersToMake(c.path);
        if (made.length) w.made = made;
      }
      return w;
    });
    const problems = writes
      .map((w) => ({ path: w.path, error: preflight(w, deleting, pathKey) }))
      .filter((p): p is { path: string; error: string } => p.error !== null);
    if (problems.length) {
      release();
      return { status: 'blocked-io', plan, problems };
    }
    // Stored only once the rewind goes ahead (a refused one leaves nothing behind).
    const computed = recording(store, () => storeShaped(store, shaped, writes));
    fault('rewind.planned');
    // 0. what shell calls still running changed so far is theirs (and the undo's); what this rewind writes is not
    during = captureBeforeRewind(store);
    // 1. what we are about to overwrite, 2. the checkpoint that makes this rewind undoable
    const now = Date.now();
    const pre: LogRecord[] = [];
    for (const w of writes) {
      const s = recording(store, () => store.snapshot(w.path, 'pre-rewind', { time: now }));
      if (s) pre.push(s);
      w.expect = !s || s.skipped ? 'unknown' : s.hash;
      w.found = snapKey(s, w.path);
      // Computed from the bytes the plan read: if the file changed since, it is left as it is (each file's claim
      // before its write compares the disk with `found`, which then matches nothing).
      const from = computed.get(w.path);
      if (from !== undefined && w.expect !== from) {
        w.expect = from ?? 'unknown';
        w.found = 'changed-since-plan';
      }
    }
    fault('rewind.presnaps');
    const partial = !!(opts.paths?.length || opts.sessions?.length || opts.hunks?.size);
    const checkpoint = store.checkpointRecord({
      id,
      kind: 'rewind',
      label: rewindLabelOf(store, plan, partial),
      ...(plan.target.call ? { targetCall: plan.target.call.id } : { target: plan.target.id }),
      // Taking some files from a point leaves the attempt in progress as it is (attempts.ts).
      ...(partial ? { partial: true } : {}),
      time: now,
    });
    const lines = [...during.lines, ...pre, checkpoint];
    recording(store, () => store.append(lines));
    appended = true;
    // 3. the journal, so a crash from here on is finished by the next command
    recording(store, () => {
      fault('rewind.checkpoint');
      writeJournal(store, { checkpoint: id, target: plan.target.id, started: now, pid: process.pid, writes });
      fault('rewind.journal');
    });
    let done = false;
    const skipped = new Map<string, Skip>();
    const txn: RewindTxn = {
      plan,
      checkpoint,
      writes,
      claim: (w, reason) => {
        const now = w.found === undefined ? undefined : diskKey(store, w.path);
        // A folder found there may be gone: the folders this rewind's deletions emptied are removed before.
        let changed = now !== w.found && !(w.found === 'folder' && now === 'missing');
        // A folder where a file goes: the rewind deleted the recorded files in it just before; anything
        // else found in it now was put there meanwhile, and the folder stays.
        if (!changed && !reason && w.to !== null && now === 'folder') changed = clearFolder(w.path) !== null;
        if (!changed && !reason) return true;
        // What the user left there is in the store (and the log) before the rewind goes on.
        const s = changed ? store.snapshot(w.path, 'observed') : null;
        if (s) store.append([s]);
        skipped.set(w.path, { reason: changed ? 'changed-during-rewind' : reason!, actual: s ? s.hash : changed ? 'unknown' : w.expect });
        return false;
      },
      finish: (errors = new Map()) => {
        if (done) throw new Error('rewind already finished');
        done = true;
        try {
          fault('rewind.written');
          const results = recordResults(store, id, writes, errors, skipped);
          fault('rewind.recorded');
          removeJournal(store);
          return results;
        } finally {
          settleCalls();
          release();
        }
      },
      abort: () => {
        if (done) return;
        done = true;
        removeJournal(store);
        settleCalls();
        release();
      },
    };
    return { status: 'ready', txn };
  } catch (e) {
    settleCalls();
    release();
    throw e;
  }
}

/**
 * Where the plan under the lock (`now`) differs from the one the caller showed (`expect`): a path
 * in one and not the other is the plan's change; a path in both whose disk half differs changed on
 * disk; the same disk with other content to write is the plan's change (the store moved on).
 */
export function staleAgainst(now: ReadonlyMap<string, string>, expect: ReadonlyMap<string, string>): StalePath[] {
  const out: StalePath[] = [];
  const disk = (k: string) => k.slice(0, k.lastIndexOf(' '));
  for (const p of new Set([...now.keys(), ...expect.keys()])) {
    const a = now.get(p);
    const b = expect.get(p);
    if (a === b) continue;
    out.push({ path: p, why: a !== undefined && b !== undefined && disk(a) !== disk(b) ? 'disk' : 'plan' });
  }
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/**
 * Runs one of the store writes a rewind makes before it writes any file: one that fails (a full disk, a
 * read-only or foreign store) is said as that, with the promise it keeps — nothing was rewound.
 */
function recording<T>(store: Store, write: () => T): T {
  try {
    return write();
  } catch (e) {
    const code = errCode(e);
    if (code === undefined || e instanceof AgentRewindError) throw e;
    throw new AgentRewindError('store-write-failed', { dir: store.dir, code, detail: (e as Error).message });
  }
}

/** The rewind checkpoint's label: before a call, to another attempt's end, or to the checkpoint it names. */
function rewindLabelOf(store: Store, plan: Plan, partial: boolean): string {
  if (plan.target.call) return rewindLabelBeforeCall(plan.target.label);
  // To another attempt's end (only a rewind checkpoint can be one: the tree, from the whole log, is built only then).
  const brought = plan.target.kind === 'rewind' ? attemptToBring(buildAttempts(store.read().records), plan.target.id, partial) : undefined;
  if (brought !== undefined) return attemptRewindLabel(brought, partial);
  return rewindCheckpointLabel(
    plan.target.checkpoint ?? { kind: plan.target.kind === 'before-call' ? 'before-tool' : plan.target.kind, label: plan.target.label },
    rewindLookups(plan.records),
  );
}

/** Every folder (by identity key) above a file this rewind writes with content. */
function foldersOf(writes: readonly Write[]): Set<string> {
  const out = new Set<string>();
  for (const w of writes) {
    if (w.to === null) continue;
    for (let d = path.dirname(w.path); d !== path.dirname(d) && !out.has(pathKey(d)); d = path.dirname(d)) out.add(pathKey(d));
  }
  return out;
}

interface Skip {
  reason: SkipReason;
  /** What the disk held when the rewind left it (its `observed` snapshot's hash). */
  actual: string | null;
}

const SKIPPED_WORDS: Record<SkipReason, string> = {
  'changed-during-rewind': 'changed while the rewind ran; left as you saved it (a copy is in the store)',
  'unsaved-during-rewind': 'its editor got unsaved changes while the rewind ran; left as it is',
};

/** A `rewind` snapshot names its rewind and, when it holds what was written, the origin of that content (or that it is mixed). */
function withRewind(s: SnapRecord, w: Write, checkpoint: string): SnapRecord {
  const out: SnapRecord = { ...s, by: checkpoint };
  if (w.origin && s.hash === w.to) out.origin = w.origin;
  if (w.mixed && s.hash === w.to) out.mixed = w.mixed;
  return out;
}

/** Keep mine and chosen hunks: the content to write for the files that take less than the target's whole file. */
function shapeOf(store: Store, plan: Plan, opts: RewindOptions): Shaped | null {
  if (!opts.keepMine && !opts.hunks?.size) return null;
  const shaped = shapeWrites(
    store,
    { changes: plan.changes, blocked: plan.blocked, merges: plan.merges, disk: plan.bytes ?? new Map() },
    opts,
  );
  for (const t of shaped.touching) {
    const b = plan.blocked.find((x) => x.path === t.path);
    if (b) b.touching = t.from;
  }
  return shaped;
}

/**
 * Stores each computed content as a blob and makes it what its write writes (verified against it
 * after). Returns, by path, the hash of the disk's bytes it was computed from (null: missing).
 */
function storeShaped(store: Store, shaped: Shaped | null, writes: Write[]): Map<string, string | null> {
  const from = new Map<string, string | null>();
  if (!shaped) return from;
  for (const w of writes) {
    const s = shaped.contents.get(w.path);
    if (!s) continue;
    w.to = store.blobs.put(s.data);
    w.mixed = s.how;
    delete w.origin;
    from.set(w.path, s.mineHash);
  }
  return from;
}

/**
 * The permission bits are verified like the content: a file written with other bits than those
 * recorded at the target (a chmod that failed) is a failed file. Not on Windows (no such bits),
 * not for symlinks (their own mode means nothing).
 */
function wrongMode(w: Write, s: SnapRecord | null): string | null {
  if (process.platform === 'win32' || w.to === null || w.link || w.mode === undefined || !s || s.mode === undefined) return null;
  const [want, got] = [w.mode & 0o777, s.mode & 0o777];
  return want === got ? null : `written, but its permissions are ${got.toString(8)}, not ${want.toString(8)} as recorded`;
}

function recordResults(
  store: Store,
  checkpoint: string,
  writes: readonly Write[],
  errors: ReadonlyMap<string, string>,
  skipped: ReadonlyMap<string, Skip>,
): FileResult[] {
  const snaps: SnapRecord[] = [];
  const results: FileResult[] = [];
  const now = Date.now();
  let folders: Set<string> | undefined;
  for (const w of writes) {
    try {
      fs.unlinkSync(w.tmp);
    } catch {
      /* no leftover */
    }
    const left = skipped.get(w.path);
    if (left) {
      // Not written: no `rewind` snapshot (the rewind did not change it, so its undo leaves it too).
      const { reason, actual } = left;
      results.push({ path: w.path, action: w.action, ok: false, expected: w.to, actual, skipped: reason, error: SKIPPED_WORDS[reason] });
      continue;
    }
    let s = store.snapshot(w.path, 'rewind', { time: now });
    // A file deleted for a folder holding files this rewind wrote: no file there, as the target has it.
    if (!s && w.to === null && (folders ??= foldersOf(writes)).has(pathKey(w.path)) && isFolder(w.path))
      s = { t: 'snap', path: w.path, hash: null, phase: 'rewind', time: now };
    if (s) snaps.push(withRewind(s, w, checkpoint));
    const actual = s ? s.hash : 'unknown';
    const err = errors.get(w.path);
    const badMode = wrongMode(w, s);
    const ok = !err && actual === w.to && (!s || !!s.link === !!w.link) && !badMode;
    const r: FileResult = { path: w.path, action: w.action, ok, expected: w.to, actual };
    if (err) r.error = err;
    else if (badMode) r.error = badMode;
    else if (!ok) r.error = 'the file on disk does not match the snapshot after writing';
    results.push(r);
  }
  store.append(snaps);
  return results;
}

// The dry run: which recorded files a rewind to a checkpoint would write (with line counts), what
// the safety check says about them, what it cannot restore and what it cannot undo. Touches nothing.
import * as fs from 'node:fs';
import { diskFact, diskKind } from '../workspace/disk';
import { sha256 } from '../storeFiles/blobs';
import { uncommittedPaths } from '../git/status';
import { lineStats, type LineStats } from '../timeline/lineStats';
import {
  type Change,
  type ChangeOptions,
  type LeftAlone,
  computeChanges,
  type NotRestorable,
  type NotUndone,
  type PathFacts,
  type Uncertain,
  type YourEdit,
} from '../timeline/changeSet';
import type { Sequenced } from '../storeFiles/records';
import { type CountOptions, rewindCounts, type SnapHistory, sumStretches, sumStretchTotals } from '../timeline/rewindCounts';
import type { RewindSummary } from '../timeline/turns';
import { checkFilters } from './filters';
import { factKey, folderKeeps, isFolder } from './writes';
import { pathKey } from '../paths';
import { isoTime } from '../../shared/time';
import { notRecordedSince, notRestorableJson } from './gaps';
import { type Blocked, checkSafety, type DiskFact, type EditOrigin, type Warning } from './safety';
import { hunksFor, mergeOf, type MergeVerdict, stateBefore } from './shape';
import type { Hunk } from './lineMerge';
import type { Store } from '../store';
import { ATTEMPT_POINT, buildAttempts } from '../timeline/attempts';
import { attemptEnd } from '../timeline/compare';
import {
  BEFORE_CALL,
  beforeCallTarget,
  findCheckpoint,
  type RecordedFolders,
  type RewindTarget,
  targetOfCheckpoint,
} from '../timeline/timeline';
import { AgentRewindError } from '../errors';

/** A target string: a checkpoint id (or a unique prefix of one), `before:<call id>`, or `attempt:<n>` (the end of attempt n). */
export function resolveTarget(records: readonly Sequenced[], ref: string, find = (r: string) => findCheckpoint(records, r)): RewindTarget {
  if (ref.startsWith(ATTEMPT_POINT)) {
    // An attempt's end is the rewind checkpoint that left it: going there is that rewind's undo.
    const a = attemptEnd(buildAttempts(records), ref);
    if (!a.end) throw new AgentRewindError('attempt-in-progress', { n: a.n, ref });
    return resolveTarget(records, a.end.id, find);
  }
  if (ref.startsWith(BEFORE_CALL)) {
    const id = ref.slice(BEFORE_CALL.length);
    const t = beforeCallTarget(records, id);
    if (!t) throw new AgentRewindError('call-not-found', { id });
    return t;
  }
  const found = find(ref);
  if (!found.ok)
    throw new AgentRewindError('checkpoint-not-found', { id: ref, ambiguous: found.reason === 'ambiguous' ? found.matches : [] });
  return targetOfCheckpoint(found.checkpoint);
}

export interface PlanFile extends LineStats {
  path: string;
  action: Change['action'];
  sessions: string[];
  /** The contiguous changed line ranges between the disk now and the target (text files, with line statistics). */
  hunks?: Hunk[];
}

export interface Plan {
  target: RewindTarget;
  files: PlanFile[];
  blocked: Blocked[];
  warnings: Warning[];
  notUndone: NotUndone[];
  notRestorable: NotRestorable[];
  conflicts: { path: string; sessions: string[] }[];
  /** What a whole rewind would write that this scoped one leaves as it is (another session, a call outside the selection). */
  leftAlone: LeftAlone[];
  /** Paths whose state at the target is one of two versions: refused without force (which writes the later one). */
  uncertain: Uncertain[];
  sessions: string[];
  /** Affected files with uncommitted changes in their git repository. */
  uncommitted: string[];
  /** For the apply step: the changes with their states. */
  changes: Change[];
  records: Sequenced[];
  /** The bytes on disk of each changed file (null: missing), read for the safety check: kept when hunks or merges are wanted. */
  bytes?: Map<string, Buffer | null>;
  /** For each `modified-outside` file: what a three-way merge ("keep mine") of it gives. */
  merges: Map<string, MergeVerdict>;
  /**
   * What the plan found at each path it would write, and what it would write there, as one key
   * (seenKey). A caller that showed this plan passes it back as the rewind's `expect`: the rewind
   * plans again under the store lock and refuses (`stale`) where its own keys differ.
   */
  seen: Map<string, string>;
}

/** The key of one changed path: the disk there (factKey) and the content the rewind would write ('none': delete it). */
export const seenKey = (disk: DiskFact, to: string | null): string => `${factKey(disk)} ${to ?? 'none'}`;

export interface PlanOptions extends Omit<ChangeOptions, 'allowed'> {
  /** Skip line statistics (the apply step does not need them). */
  noStats?: boolean;
  /** Skip asking git about uncommitted changes. */
  noGit?: boolean;
  /**
   * Read the timeline through the index (store.timeline(): checkpoints, snapshots and the calls a
   * rewind cannot undo) rather than every line: for dry runs to a checkpoint. `plan.records` is
   * then only the calls a rewind cannot undo (the snapshots a plan reads are folded into facts, the
   * checkpoints' folders given apart), so a rewind (which records from them) reads the whole log.
   */
  viaIndex?: boolean;
  /** The log as the caller has already read it (the extension's incremental model): not read again. */
  records?: readonly Sequenced[];
  /** A `paths` or `sessions` entry that matches nothing recorded throws FilterNotFoundError (the CLI's filters). */
  strictFilters?: boolean;
  /** Merge the files the user changed since the agent left them (three-way, "keep mine") where that is clean. */
  keepMine?: boolean;
  /** Write only these hunks (ids from the plan's `hunks`) of these files, by absolute path. */
  hunks?: ReadonlyMap<string, readonly string[]>;
  /** The `seen` of the plan the user was shown (only the paths this rewind covers): a rewind whose own differs is refused as stale. */
  expect?: ReadonlyMap<string, string>;
}

/** The disk's bytes of a changed file: as the plan read them, or read again when they are what the safety check hashed. */
function bytesOf(
  p: string,
  bytes: ReadonlyMap<string, Buffer | null> | undefined,
  disk: ReadonlyMap<string, DiskFact>,
): Buffer | undefined {
  const kept = bytes?.get(p);
  if (kept) return kept;
  const f = disk.get(p);
  if (f?.kind !== 'file' || f.hash === undefined) return undefined;
  try {
    const data = fs.readFileSync(p);
    return sha256(data) === f.hash ? data : undefined;
  } catch {
    return undefined;
  }
}

function contentOf(store: Store, hash: string | null): Buffer | null {
  return hash === null ? null : store.content(hash);
}

/** Line statistics of writing the content `to` over the bytes `from` gives; approximate when a blob cannot be read. */
function statsOf(store: Store, from: () => Buffer | null, to: string | null): LineStats {
  try {
    return lineStats(from(), contentOf(store, to));
  } catch {
    return { insertions: 0, deletions: 0, approximate: true };
  }
}

function editOrigin(y: YourEdit): EditOrigin {
  const p = y.provenance;
  const e: EditOrigin = {
    since: p.since.time,
    how: p.since.phase === 'pre-rewind' ? 'kept' : p.since.phase === 'observed' ? 'observed' : 'found',
  };
  if (p.restoredBy) e.restored = { time: p.restoredBy.time, undo: p.restoredBy.undo };
  return e;
}

/** Why a rewind would leave a file as it is now — it cannot keep a copy of it (unreadable, over the size limit) — or null. */
function cannotKeepOf(f: DiskFact): 'unreadable' | 'too-large' | null {
  return f.kind === 'unreadable' ? 'unreadable' : f.kind === 'file' && f.hash === undefined ? 'too-large' : null;
}

/**
 * What the counts ask of a path the plan would write: may the store write it, can it keep a copy of what is there.
 * Asked of every recorded path at once, so the disk is only probed (diskKind: stat and open, the bytes neither read
 * nor hashed); the kinds it tells apart are the ones cannotKeepOf reads of a DiskFact.
 */
function countOptions(store: Store, recorded?: () => RecordedFolders): CountOptions {
  const maxBytes = store.config().maxFileBytes;
  return {
    allowed: store.mayWriter(store.roots(recorded)),
    cannotKeep: (p) => {
      const kind = diskKind(p, maxBytes);
      return kind === 'unreadable' ? 'unreadable' : kind === 'too-large' ? 'too-large' : null;
    },
  };
}

/**
 * A file goes where a folder stands now: the rewind removes the folder only when every file in it
 * (at any depth) is one it deletes — never the user's files (`folder-in-the-way`, left as it is).
 */
function folderInTheWay(c: Change, f: DiskFact, deleting: ReadonlySet<string>): 'folder-in-the-way' | null {
  if (f.kind !== 'other' || c.to.hash === null || !isFolder(c.path)) return null;
  return folderKeeps(c.path, (file) => deleting.has(pathKey(file))) === null ? null : 'folder-in-the-way';
}

/**
 * What a rewind to each checkpoint at `checkpointSeqs` (ascending) would write — the length of
 * makePlan's `files` for each, by the same per-path verdict and the same disk check — from each
 * path's snapshots (`histories`) in one sweep (rewindCounts.ts).
 */
export function rewindCountsOf(
  store: Store,
  histories: Iterable<[string, SnapHistory]>,
  checkpointSeqs: ArrayLike<number>,
): RewindSummary[] {
  return rewindCounts(histories, checkpointSeqs, countOptions(store));
}

/**
 * The same counts for `n` checkpoints by action (what the Files view's rows say), from the stretches already judged;
 * `recorded`: the folders the log names, from a reader holding the whole log (Store.roots).
 */
export function rewindSumsOf(
  store: Store,
  stretches: Iterable<[string, readonly number[]]>,
  n: number,
  recorded?: () => RecordedFolders,
): RewindSummary[] {
  return sumStretches(stretches, n, countOptions(store, recorded));
}

/**
 * The totals of the same counts for `n` checkpoints (what `checkpoints` prints), one number per checkpoint, from the stretches
 * already judged (the timeline index keeps them: CheckpointList.stretches).
 */
export function rewindTotalsOf(store: Store, stretches: Iterable<[string, readonly number[]]>, n: number): Int32Array {
  return sumStretchTotals(stretches, n, countOptions(store));
}

/**
 * Whether a dry run to `target` can read the timeline index (with `viaIndex`): a call target counts the
 * calls of its turn, which are not all in the skeleton; strict filters look at every path and session
 * ever recorded; a path filter reads every snapshot after the target (which calls changed the chosen
 * files), and attempts are built from the whole log. The others need the whole log (`records`).
 */
export function plansViaIndex(target: string, opts: Omit<PlanOptions, 'viaIndex' | 'records'>): boolean {
  const strict = opts.strictFilters && !!(opts.paths?.length || opts.sessions?.length);
  return !strict && !opts.paths?.length && !target.startsWith(BEFORE_CALL) && !target.startsWith(ATTEMPT_POINT);
}

/** The dry run: touches nothing. */
export function makePlan(store: Store, target: string, opts: PlanOptions = {}): Plan {
  const strict = opts.strictFilters && !!(opts.paths?.length || opts.sessions?.length);
  const indexed = opts.viaIndex && plansViaIndex(target, opts) ? store.timeline() : null;
  let records: Sequenced[];
  let to: RewindTarget;
  let facts: Map<string, PathFacts> | undefined;
  if (indexed) {
    // The checkpoint ids find the target; then the index folds each path's facts from its columns,
    // building only the records they name (or, read whole, only the paths recorded after it).
    to = resolveTarget([], target, indexed.findCheckpoint);
    const input = indexed.planInput(to.seq);
    records = input ? input.records : indexed.touchedAfter(to.seq);
    facts = input?.facts;
  } else {
    records = opts.records ? [...opts.records] : store.read().records;
    to = resolveTarget(records, target);
    if (strict) checkFilters(records, opts);
  }
  const roots = store.roots();
  const set = computeChanges(records, to, {
    ...opts,
    allowed: store.mayWriter(roots),
    ...(indexed ? { provenance: indexed.provenance } : {}),
    ...(facts ? { facts } : {}),
  });
  const maxBytes = store.config().maxFileBytes;
  const disk = new Map<string, DiskFact>();
  const stats = new Map<string, LineStats>();
  // The disk's bytes, for hunks and three-way merges (the same read as the safety check's hash).
  const bytes = !opts.noStats || opts.keepMine || opts.hunks?.size ? new Map<string, Buffer | null>() : undefined;
  const tooLargeMine: string[] = [];
  // A rewind keeps a copy of everything it overwrites, so it never overwrites what it cannot copy
  // (over the size limit, or unreadable now): listed, left as it is — even with --force.
  const deleting = new Set(set.changes.filter((c) => c.to.hash === null).map((c) => pathKey(c.path)));
  const changes = set.changes.filter((c) => {
    let read: Buffer | undefined;
    const f = diskFact(c.path, maxBytes, (data) => (read = data));
    const cannotKeep = cannotKeepOf(f) ?? folderInTheWay(c, f, deleting);
    if (cannotKeep) set.notRestorable.push({ path: c.path, reason: cannotKeep });
    // A folder the agent made where the file was (recorded as the file's deletion), holding only
    // files this rewind deletes: it goes, and the file comes back (not "created outside").
    else if (f.kind === 'other' && c.from.hash === null && !c.from.skipped && c.to.hash !== null && isFolder(c.path))
      disk.set(c.path, { kind: 'missing' });
    else disk.set(c.path, f);
    // Keep mine refuses rather than leave as it is a file the user changed that is past the size limit.
    if (cannotKeep === 'too-large' && opts.keepMine && (!c.from.skipped || c.from.size !== f.size || c.from.mtime !== f.mtime))
      tooLargeMine.push(c.path);
    if (bytes && !cannotKeep && (f.kind === 'file' || f.kind === 'missing')) bytes.set(c.path, read ?? null);
    // The file is what the log says it is (same sha256): the bytes just read are the `from` side of its
    // line statistics, not read again from the store (one file read less per changed file).
    if (!cannotKeep && !opts.noStats && read && !c.from.skipped && f.kind === 'file' && f.hash === c.from.hash) {
      const bytes: Buffer = read;
      stats.set(
        c.path,
        statsOf(store, () => bytes, c.to.hash),
      );
    }
    return !cannotKeep;
  });
  set.notRestorable.sort((a, b) => (a.path < b.path ? -1 : 1));
  // What was not recorded after the target at all: after what the log knows, each with its reason.
  set.notRestorable = notRecordedSince(store, to.time, {
    ...(opts.sessions ? { sessions: opts.sessions } : {}),
    ...(opts.paths ? { paths: opts.paths } : {}),
    known: set.notRestorable,
    active: [...set.sessions, ...set.notUndone.flatMap((n) => (n.session ? [n.session] : []))],
  });
  const safety = checkSafety(changes, disk);
  const kept = new Set(changes.map((c) => c.path));
  // Disk = last record, but the last record is the user's own content: refused all the same.
  const outside = new Set(safety.blocked.map((b) => b.path));
  const yourSince = new Map<string, number>();
  for (const y of set.yourEdits) {
    if (!kept.has(y.path) || outside.has(y.path)) continue;
    if (y.undoing) safety.warnings.push({ path: y.path, reason: 'restored-edit', since: y.provenance.since.time, edit: editOrigin(y) });
    else {
      safety.blocked.push({ path: y.path, reason: 'your-edit', edit: editOrigin(y) });
      yourSince.set(y.path, y.provenance.since.seq);
    }
  }
  for (const o of set.observed) if (kept.has(o.path)) safety.warnings.push({ path: o.path, reason: 'observed', since: o.time });
  const merges = new Map<string, MergeVerdict>();
  for (const p of tooLargeMine) safety.blocked.push({ path: p, reason: 'modified-outside' });
  safety.blocked.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const byPath = new Map(changes.map((c) => [c.path, c]));
  // What --keep-mine would do with each file the user changed since the agent left it: base what
  // the agent left — the latest record, or for the user's own recorded edit the state before it.
  let all: readonly Sequenced[] | undefined = indexed ? undefined : records;
  for (const b of safety.blocked) {
    let c = byPath.get(b.path)!;
    const since = yourSince.get(b.path);
    if (since !== undefined) {
      all ??= store.read().records;
      const base = stateBefore(all, b.path, since);
      if (!base) continue;
      c = { ...c, from: base };
    } else if (b.reason !== 'modified-outside') continue;
    const tooLarge = tooLargeMine.includes(b.path);
    merges.set(
      b.path,
      tooLarge ? { merge: 'never', reason: 'too-large' } : mergeOf(store, c, disk.get(b.path), bytesOf(b.path, bytes, disk)),
    );
  }
  const files: PlanFile[] = changes.map((c) => {
    const s: LineStats = opts.noStats
      ? { insertions: 0, deletions: 0 }
      : (stats.get(c.path) ?? statsOf(store, () => (c.from.skipped ? null : contentOf(store, c.from.hash)), c.to.hash));
    const f: PlanFile = { path: c.path, action: c.action, ...s, sessions: c.sessions };
    const hunks = opts.noStats || s.binary ? null : hunksFor(store, c, bytes?.get(c.path));
    if (hunks) f.hunks = hunks;
    return f;
  });
  return {
    target: to,
    files,
    blocked: safety.blocked,
    warnings: safety.warnings,
    notUndone: set.notUndone,
    notRestorable: set.notRestorable,
    conflicts: set.conflicts,
    leftAlone: set.leftAlone,
    uncertain: set.uncertain.filter((u) => kept.has(u.path)),
    sessions: set.sessions,
    uncommitted: opts.noGit ? [] : uncommittedPaths(changes.map((c) => c.path)),
    changes,
    records,
    merges,
    seen: new Map(changes.map((c) => [c.path, seenKey(disk.get(c.path) ?? { kind: 'missing' }, c.to.hash)])),
    ...(bytes ? { bytes } : {}),
  };
}

const iso = isoTime;

function editJson(e: EditOrigin) {
  return { since: iso(e.since), how: e.how, ...(e.restored ? { restored: { time: iso(e.restored.time), undo: e.restored.undo } } : {}) };
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
      ...(f.hunks ? { hunks: f.hunks } : {}),
      ...(f.binary ? { binary: true } : {}),
      ...(f.approximate ? { approximate: true } : {}),
      ...(f.sessions.length ? { sessions: f.sessions } : {}),
    })),
    blocked: plan.blocked.map((b) => ({
      path: b.path,
      reason: b.reason,
      ...mergeJson(b, plan.merges.get(b.path)),
      ...(b.edit ? { edit: editJson(b.edit) } : {}),
    })),
    warnings: plan.warnings.map((w) => ({
      path: w.path,
      reason: w.reason,
      ...(w.since !== undefined ? { since: iso(w.since) } : {}),
      ...(w.edit ? { edit: editJson(w.edit) } : {}),
    })),
    uncertain: plan.uncertain.map((u) => ({ path: u.path, reason: u.reason, recorded: iso(u.recorded.time), found: iso(u.found.time) })),
    notUndone: plan.notUndone.map((n) => ({
      tool: n.tool,
      summary: n.summary,
      effect: n.effect,
      severity: n.severity,
      ...(n.compensation ? { compensation: n.compensation } : {}),
      ...(n.session ? { session: n.session } : {}),
      time: new Date(n.time).toISOString(),
    })),
    notRestorable: notRestorableJson(plan.notRestorable),
    conflicts: plan.conflicts,
    leftAlone: leftAloneJson(plan),
    uncommitted: plan.uncommitted,
    checkpoint: {
      id: plan.target.id,
      kind: plan.target.kind,
      label: plan.target.label,
      time: new Date(plan.target.time).toISOString(),
    },
    ...(plan.target.call ? { call: plan.target.call } : {}),
  };
}

/**
 * `merge` and `conflicts` of a blocked file (what --keep-mine would do). A file that never merges (binary, too
 * large, a mode change, a deletion) carries neither — DESIGN §5 has no field for it; the text plan and a
 * refused --keep-mine name its reason.
 */
function mergeJson(b: Blocked, m: MergeVerdict | undefined) {
  if (!m || m.merge === 'never') return {};
  return {
    merge: m.merge,
    // The ranges in the file now, as DESIGN §5 gives them (the lines of each side are for the preview).
    ...(m.merge === 'conflict' ? { conflicts: m.conflicts.map((c) => ({ from: c.from })) } : {}),
    ...(b.touching ? { touching: b.touching.map((from) => ({ from })) } : {}),
  };
}

/** `leftAlone` of `plan --json` and `rewind --json`: `{ path, reason, sessions }` (and `with`, the chosen files sharing a call). */
export function leftAloneJson(plan: Pick<Plan, 'leftAlone'>) {
  return plan.leftAlone.map((l) => ({ path: l.path, reason: l.reason, sessions: l.sessions, ...(l.with ? { with: l.with } : {}) }));
}

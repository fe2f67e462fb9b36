// Shell capture: the file changes a shell command makes, recorded like agent edits.
// The recorder calls this module for shell tools (Bash, PowerShell) and at session start only; it
// is loaded lazily, so hooks for other tools never pay for it.
//
// - SessionStart: the baseline (core/scan/baseline.ts): stat every file that is not ignored; clean tracked
//   files of a git repository are described by their git blob id (nothing copied); dirty and
//   untracked files are copied into the store within a time budget, the rest before the next
//   command runs. A previous session's state for the same folder is reused as a stat cache. No
//   timeline lines are written: the baseline lives in `<store>/scan/<session>.json`.
// - PreToolUse: a scan folds in whatever changed since the last one (the user's own edits, other
//   tools) WITHOUT recording it — a timeline line would make the user's edit look like a recorded
//   state and let a later rewind overwrite it without the safety check's refusal — but copies the
//   new content into the store, so the command's `before` can refer to it.
// - PostToolUse (or PostToolUseFailure): a scan against that state; every path the command
//   modified, created, deleted (a move is a delete plus a create) gets a `before` and an `after`
//   snapshot attributed to the call (tool, call id, session). Old content of clean git files is
//   copied out of git at this moment (`git cat-file --batch`).
// - Above `maxScanFiles` files, capture is off for the session, and says so: errors.log, the
//   session-start checkpoint's label, and `<store>/capture.json` (per session: state, file count,
//   limit, message) for the CLI and the VS Code status bar.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { missingAncestors } from '../core/workspace/disk';
import { readBlobs } from '../core/git/objects';
import { isInside } from '../core/paths';
import { writeFileAtomic } from '../core/storeFiles/fsx';
import { withFileLock } from '../core/storeFiles/lock';
import type { LogRecord, SnapRecord } from '../core/storeFiles/records';
import { baseline, finishPending, pendingCount } from '../core/scan/baseline';
import { cancelPrefetch, prefetchScan } from '../core/scan/gitAssist';
import { durableBlob } from '../core/scan/references';
import { rescan } from '../core/scan/rescan';
import { loadState, peekState, readPending, savePending, saveState, stateFile, stateFiles } from '../core/scan/stateFile';
import type { Entry } from '../core/scan/table';
import { type Change, F_GITSTAT, F_LARGE, F_LINK, type ScanLimits, type ScanOptions, type ScanState } from '../core/scan/types';
import { allowedRoots, outsideAllowed, sessionRoot } from '../core/workspace/roots';
import type { Store } from '../core/store';
import type { ChangeSource, ChangeToken } from './changeSource';
import type { AfterToolEvent, BeforeToolEvent, EventBase, SessionStartEvent } from './events';

/** How long SessionStart may spend copying dirty/untracked files before leaving the rest for later. */
export const BASELINE_BUDGET_MS = 1500;

export interface CaptureStatus {
  session: string;
  root: string;
  /** `baseline`: the session's first scan is running (VS Code shows progress until it is not). */
  state: 'on' | 'off' | 'baseline';
  files: number;
  limit: number;
  /** Files whose baseline copy is still to be made (done before the next shell command). */
  pending?: number;
  baselineMs?: number;
  git?: boolean;
  message?: string;
  time: number;
}

function limitsOf(store: Store, root: string): ScanLimits {
  const c = store.config();
  return {
    maxFiles: c.maxScanFiles,
    maxFileBytes: c.maxFileBytes,
    excludes: c.excludes,
    skipAbs: isInside(store.dir, root) ? [store.dir] : [],
    report: (m) => store.logError(`shell capture: ${m}`),
  };
}

function optsOf(store: Store, root: string, storeContent: boolean): ScanOptions {
  return { storeDir: store.dir, limits: limitsOf(store, root), storeContent };
}

// ---- a file watcher's help (the resident recorder; hook processes have none)

/**
 * Per state file: the watcher's token taken just before the scan that produced the state as saved
 * (identified by its `scanned` time). Only a state this process saved itself can be narrowed: one
 * a hook saved meanwhile (the resident did not answer in time) has another `scanned`, and is scanned.
 */
const tokens = new Map<string, { scanned: number; token: ChangeToken }>();

/** Scans this process ran with a watcher at hand: narrowed to its paths, or whole (for status and tests). */
export const watchedScans = { narrowed: 0, whole: 0 };

/** The paths the watcher vouches changed since this state was scanned, or undefined (scan). */
function watchedChanges(source: ChangeSource | undefined, file: string, state: ScanState): ScanOptions['changed'] {
  if (!source) return undefined;
  const held = tokens.get(file);
  const paths = held && held.scanned === state.scanned ? source.changedSince(state.root, held.token) : undefined;
  if (!paths) {
    watchedScans.whole++;
    return undefined;
  }
  return { paths, covers: (dir) => source.covers(state.root, dir) };
}

function countScan(source: ChangeSource | undefined, changed: ScanOptions['changed'], narrowed: boolean | undefined): void {
  if (source && changed) watchedScans[narrowed ? 'narrowed' : 'whole']++;
}

/** After saving `state`: the token taken before the scan that made it (none: the next call scans). */
function keepToken(file: string, state: ScanState, token: ChangeToken | undefined): void {
  if (token && !state.off) tokens.set(file, { scanned: state.scanned, token });
  else tokens.delete(file);
}

export function offMessage(count: number, limit: number, store: Store): string {
  return (
    `Shell capture is off for this session: the workspace has more than ${limit.toLocaleString('en-US')} files that are not ignored ` +
    `(counted ${count.toLocaleString('en-US')} before stopping), the limit set by maxScanFiles. Files changed by shell commands will not be ` +
    `recorded or rewound; edits through the agent's file tools still are. To capture them, raise "maxScanFiles" in ` +
    `${path.join(store.dir, 'config.json')} (VS Code: the Agent Rewind "Max Scan Files" setting) or add large folders to "excludes", then start a new session.`
  );
}

// ---- status file

const STATUS = 'capture.json';

export function readCaptureStatus(storeDir: string): Record<string, CaptureStatus> {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(storeDir, STATUS), 'utf8')) as { sessions?: Record<string, CaptureStatus> };
    return v.sessions ?? {};
  } catch {
    return {};
  }
}

/** A baseline that started this long ago and never finished was killed (its hook is gone). */
export const BASELINE_STALE_MS = 120000;

/** Sessions whose baseline is running now. */
export function baselinesRunning(all: Record<string, CaptureStatus>, now = Date.now()): CaptureStatus[] {
  return Object.values(all).filter((s) => s.state === 'baseline' && now - s.time < BASELINE_STALE_MS);
}

function writeCaptureStatus(store: Store, s: CaptureStatus): void {
  try {
    const all = readCaptureStatus(store.dir);
    all[s.session] = s;
    const keep = Object.values(all)
      .sort((a, b) => b.time - a.time)
      .slice(0, 50);
    const file = path.join(store.dir, STATUS);
    writeFileAtomic(file, JSON.stringify({ sessions: Object.fromEntries(keep.map((k) => [k.session, k])) }, null, 2) + '\n');
  } catch (e) {
    store.logError(`shell capture: could not write ${STATUS}: ${(e as Error).message}`);
  }
}

// ---- a per-session lock around load → scan → save (hooks of parallel calls)

function withLock<T>(file: string, fn: () => T): T {
  // Never block the agent: after 5 s without the lock the scan goes on without it.
  return withFileLock(`${file}.lock`, 'shell capture', fn, { waitMs: 5000, staleMs: 60000 });
}

// ---- session start

/** The most recent scan state of another session for the same folder: a stat cache to start from. */
function reusableState(store: Store, root: string, session: string): ScanState | null {
  const own = stateFile(store.dir, session);
  const mine = loadState(own); // a resumed or compacted session: its own state is the best cache
  if (mine && mine.root === root && !mine.off) return mine;
  let best: { file: string; mtime: number } | null = null;
  for (const file of stateFiles(store.dir)) {
    if (file === own) continue;
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (!st || (best && st.mtimeMs <= best.mtime)) continue;
    // Cheap check before parsing the whole file: the header names the root.
    const h = peekState(file);
    if (h && h.root === root && !h.off) best = { file, mtime: st.mtimeMs };
  }
  return best ? loadState(best.file) : null;
}

function takeBaseline(
  store: Store,
  root: string,
  session: string,
  budgetMs: number,
  source?: ChangeSource,
): { state: ScanState; status: CaptureStatus } {
  const opts = optsOf(store, root, true);
  const token = source?.token(root); // before the walk: what changes during it is named later
  const file = stateFile(store.dir, session);
  writeCaptureStatus(store, { session, root, state: 'baseline', files: 0, limit: opts.limits.maxFiles, time: Date.now() });
  const r = baseline(root, session, { ...opts, budgetMs, reuse: reusableState(store, root, session) });
  const status: CaptureStatus = {
    session,
    root,
    state: 'on',
    files: r.files,
    limit: opts.limits.maxFiles,
    baselineMs: r.ms,
    git: !!r.state.git,
    time: Date.now(),
  };
  if (r.tooMany) {
    const message = offMessage(r.tooMany.count, opts.limits.maxFiles, store);
    r.state.off = { reason: 'too-many-files', files: r.tooMany.count, limit: opts.limits.maxFiles, message };
    r.state.files.clear();
    r.state.dirs.clear();
    status.state = 'off';
    status.message = message;
    store.logError(`shell capture: ${message}`, { root, session });
  } else if (r.pending) status.pending = r.pending;
  saveState(file, r.state);
  keepToken(file, r.state, token);
  writeCaptureStatus(store, status);
  return { state: r.state, status };
}

/**
 * SessionStart: takes the baseline. Returns a note for the session-start checkpoint's label when
 * capture is off (so `agent-rewind checkpoints` shows it), else null.
 */
export function captureSessionStart(
  store: Store,
  e: SessionStartEvent,
  explicit: readonly string[] = [],
  source?: ChangeSource,
): string | null {
  if (!e.cwd) return null;
  try {
    const file = stateFile(store.dir, e.session);
    const root = rootFor(store, e.cwd, explicit);
    if (!root) return null; // the recorder said why
    return withLock(file, () => {
      const { status } = takeBaseline(store, root, e.session, BASELINE_BUDGET_MS, source);
      return status.state === 'off' ? `shell capture off: more than ${status.limit} files (maxScanFiles)` : null;
    });
  } catch (err) {
    store.logError(`shell capture (session start): ${(err as Error).message}`, {
      stack: (err as Error).stack?.split('\n').slice(0, 4).join(' | '),
    });
    return null;
  }
}

/**
 * The workspace folder for a working folder: the known store root containing it, else its own root
 * (core/workspace/roots.ts); null when it has none (too broad a folder, or outside the folders VS Code has open): no scan there.
 */
function rootFor(store: Store, cwd: string, explicit: readonly string[]): string | null {
  if (outsideAllowed(cwd, allowedRoots(store.dir, explicit))) return null;
  const roots = store.roots().filter((r) => isInside(cwd, r));
  roots.sort((a, b) => a.length - b.length);
  return roots[0] ?? sessionRoot(cwd).root;
}

/**
 * Called as soon as a hook knows it carries a shell call: starts the git question its scan will
 * ask (see core/scan/gitAssist.ts `prefetchScan`), so git runs while the hook does its other work.
 */
export function prefetchShellScan(store: Store, session: string): void {
  try {
    prefetchScan(store.dir, session);
  } catch {
    /* the scan asks again itself */
  }
}

export { cancelPrefetch as cancelShellPrefetch };

// ---- before and after a shell command

/**
 * PreToolUse of a shell command: brings the state up to date with the disk (changes since the last
 * scan are not the command's), copies content the command might overwrite, marks the call pending.
 * Returns the lines to write before the call's checkpoint (none today; kept for the order of §3).
 */
export function captureBeforeShell(store: Store, e: BeforeToolEvent, explicit: readonly string[] = [], source?: ChangeSource): LogRecord[] {
  try {
    const file = stateFile(store.dir, e.session);
    return withLock(file, () => {
      let state = loadState(file);
      if (!state) {
        // No baseline (hooks connected mid-session, or a lost state): take it now, whole.
        const root = e.cwd ? rootFor(store, e.cwd, explicit) : null;
        if (!root) return [];
        state = takeBaseline(store, root, e.session, Number.POSITIVE_INFINITY, source).state;
      }
      if (state.off) return [];
      const opts = optsOf(store, state.root, true);
      const copied = finishPending(state, opts);
      const changed = watchedChanges(source, file, state);
      const token = source?.token(state.root);
      const r = rescan(state, { ...opts, ...(changed ? { changed } : {}) });
      countScan(source, changed, r.narrowed);
      if (r.tooMany) return turnOff(store, state, file, r.tooMany.count, opts.limits.maxFiles);
      // An unchanged state is not saved (its `scanned` stays the saved one's): it keeps its token.
      if (r.dirty || copied) {
        saveState(file, state);
        keepToken(file, state, token);
      }
      savePending(file, { call: e.callId ?? '', tool: e.tool, time: Date.now(), session: e.session });
      if (pendingCount(state) === 0) refreshStatus(store, state);
      return [];
    });
  } catch (err) {
    store.logError(`shell capture (before ${e.tool}): ${(err as Error).message}`, {
      stack: (err as Error).stack?.split('\n').slice(0, 4).join(' | '),
    });
    return [];
  }
}

function refreshStatus(store: Store, state: ScanState): void {
  const all = readCaptureStatus(store.dir);
  const s = all[state.session];
  if (s && s.pending) {
    delete s.pending;
    writeCaptureStatus(store, { ...s, time: Date.now() });
  }
}

function turnOff(store: Store, state: ScanState, file: string, count: number, limit: number): LogRecord[] {
  const message = offMessage(count, limit, store);
  state.off = { reason: 'too-many-files', files: count, limit, message };
  state.files.clear();
  state.dirs.clear();
  delete state.pending;
  saveState(file, state);
  savePending(file, null);
  store.logError(`shell capture: ${message}`, { root: state.root, session: state.session });
  writeCaptureStatus(store, { session: state.session, root: state.root, state: 'off', files: count, limit, message, time: Date.now() });
  return [];
}

/**
 * A shell call whose PostToolUse never came (the hook was killed, the agent crashed): at the next
 * turn boundary its changes are captured as if it had, attributed to it. Null when none is pending.
 */
export function orphanShellCall(store: Store, e: EventBase): LogRecord[] | null {
  const pending = readPending(stateFile(store.dir, e.session));
  if (!pending) return null;
  return captureAfterShell(store, {
    type: 'after_tool',
    agent: e.agent,
    session: e.session,
    tool: pending.tool,
    kind: { kind: 'shell', command: '', dialect: 'sh' },
    callId: pending.call,
    input: null,
    paths: [],
    shell: true,
    ok: false,
  });
}

/** PostToolUse / PostToolUseFailure of a shell command: the `before`/`after` snapshots of what it changed. */
export function captureAfterShell(store: Store, e: AfterToolEvent, source?: ChangeSource): LogRecord[] {
  try {
    const file = stateFile(store.dir, e.session);
    return withLock(file, () => {
      const state = loadState(file);
      if (!state || state.off) return [];
      const opts = optsOf(store, state.root, false);
      const since = state.pending?.call === (e.callId ?? '') ? state.pending.time : undefined;
      const changed = watchedChanges(source, file, state);
      const token = source?.token(state.root);
      const r = rescan(state, {
        ...opts,
        ...(since !== undefined ? { existedBefore: since - 1000 } : {}),
        ...(changed ? { changed } : {}),
      });
      if (r.tooMany) return turnOff(store, state, file, r.tooMany.count, opts.limits.maxFiles);
      const lines = snapshotsOf(store, state, r.changes, r.prevDirs, e);
      // The state now holds the content hashes of the `after` snapshots, all stored durably.
      if (r.dirty) {
        saveState(file, state);
        keepToken(file, state, token);
      }
      savePending(file, null);
      return lines;
    });
  } catch (err) {
    store.logError(`shell capture (after ${e.tool}): ${(err as Error).message}`, {
      stack: (err as Error).stack?.split('\n').slice(0, 4).join(' | '),
    });
    return [];
  }
}

function putDurable(store: Store, data: Buffer, hash: string): string {
  if (store.blobs.has(hash)) {
    if (durableBlob(store.dir, hash)) return hash;
    try {
      fs.unlinkSync(store.blobs.pathOf(hash)); // written without fsync and damaged since: write it again
    } catch {
      /* gone */
    }
  }
  return store.blobs.put(data, hash);
}

function snapshotsOf(
  store: Store,
  state: ScanState,
  changes: Change[],
  prevDirs: { has(rel: string): boolean },
  e: AfterToolEvent,
): SnapRecord[] {
  if (changes.length === 0) return [];
  const now = Date.now();
  const meta = { session: e.session, tool: e.tool, ...(e.callId ? { call: e.callId } : {}), time: now };
  // Old content of clean git files: one `git cat-file --batch` for all of them.
  const fromGit = changes.filter((c) => c.before && !c.before.hash && c.before.git && !(c.before.flags & F_LARGE));
  const blobs =
    fromGit.length && state.git
      ? readBlobs(
          state.root,
          fromGit.map((c) => ({ id: c.before!.git!, path: c.path })),
          state.git.filters,
        )
      : new Map<string, Buffer | null>();
  const out: SnapRecord[] = [];
  for (const c of changes) {
    const abs = path.join(state.root, ...c.path.split('/'));
    out.push(beforeSnap(store, state, c, abs, prevDirs, blobs, meta));
    out.push({ ...afterSnap(store, state, c, abs, meta), origin: 'shell' });
  }
  return out;
}

type Meta = { session: string; tool: string; call?: string; time: number };

function withStat(e: Entry, after?: Entry | null): Partial<SnapRecord> {
  const x: Partial<SnapRecord> = { size: e.size, mtime: e.mtime };
  if (e.flags & F_LINK) x.link = true;
  else if (e.flags & F_GITSTAT && after && !(after.flags & F_LINK) && (after.mode & 0o111) === (e.mode & 0o111)) x.mode = after.mode;
  else x.mode = e.mode; // from git's index (0644/0755) when we never stat'ed the file ourselves
  return x;
}

function beforeSnap(
  store: Store,
  state: ScanState,
  c: Change,
  abs: string,
  prevDirs: { has(rel: string): boolean },
  blobs: Map<string, Buffer | null>,
  meta: Meta,
): SnapRecord {
  const b = c.before;
  if (!b) {
    // Created by the command: folders it created too are removed again by a rewind.
    const dirs: string[] = [];
    const parts = c.path.split('/');
    for (let i = parts.length - 1; i >= 1; i--) {
      const rel = parts.slice(0, i).join('/');
      if (prevDirs.has(rel)) break;
      dirs.push(path.join(state.root, ...parts.slice(0, i)));
    }
    return { t: 'snap', path: abs, hash: null, ...(dirs.length ? { dirs } : {}), phase: 'before', ...meta };
  }
  if (b.flags & F_LARGE)
    return { t: 'snap', path: abs, hash: null, size: b.size, mtime: b.mtime, mode: b.mode, skipped: 'too-large', phase: 'before', ...meta };
  if (b.hash && durableBlob(store.dir, b.hash)) return { t: 'snap', path: abs, hash: b.hash, ...withStat(b), phase: 'before', ...meta };
  if (b.git) {
    const data = blobs.get(`${b.git}\0${c.path}`);
    if (data && data.length % 4294967296 === b.size % 4294967296) {
      const hash = store.blobs.put(data);
      return { t: 'snap', path: abs, hash, ...withStat(b, c.after), phase: 'before', ...meta };
    }
  }
  store.logError(`shell capture: the content of ${abs} before ${meta.tool} ${meta.call ?? ''} could not be recovered`);
  return { t: 'snap', path: abs, hash: null, size: b.size, mtime: b.mtime, skipped: 'unreadable', phase: 'before', ...meta };
}

function afterSnap(store: Store, state: ScanState, c: Change, abs: string, meta: Meta): SnapRecord {
  const a = c.after;
  if (!a) {
    const dirs = missingAncestors(abs).filter((d) => isInside(d, state.root) && d !== state.root);
    return { t: 'snap', path: abs, hash: null, ...(dirs.length ? { dirs } : {}), phase: 'after', ...meta };
  }
  if (a.flags & F_LARGE || !c.data || !a.hash)
    return { t: 'snap', path: abs, hash: null, size: a.size, mtime: a.mtime, mode: a.mode, skipped: 'too-large', phase: 'after', ...meta };
  const hash = putDurable(store, c.data, a.hash);
  return { t: 'snap', path: abs, hash, ...withStat(a), phase: 'after', ...meta };
}

/** Statuses for display: is shell capture on for each recent session, and if not, why. */
export function captureStatuses(storeDir: string): CaptureStatus[] {
  return Object.values(readCaptureStatus(storeDir)).sort((a, b) => a.time - b.time);
}

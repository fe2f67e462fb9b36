// Shell capture: the file changes a shell command makes, recorded like agent edits. Each function
// here is one whole step of a session's capture — load the scan state under its lock, scan, save,
// build the records — so the recorder's entry (recording/shellCapture.ts) calls one of them per event.
//
// - Session start: the baseline (../scan/baseline.ts): stat every file that is not ignored; clean tracked
//   files of a git repository are described by their git blob id (nothing copied); dirty and
//   untracked files are copied into the store within a time budget, the rest before the next
//   command runs. A previous session's state for the same folder is reused as a stat cache. No
//   timeline lines are written: the baseline lives in `<store>/scan/<session>.json`.
// - Before a shell call: a scan folds in whatever changed since the last one (the user's own edits, other
//   tools) WITHOUT recording it — a timeline line would make the user's edit look like a recorded
//   state and let a later rewind overwrite it without the safety check's refusal — but copies the
//   new content into the store, so the command's `before` can refer to it.
// - After it (or its failure): a scan against that state; every path the command modified, created,
//   deleted (a move is a delete plus a create) gets a `before` and an `after` snapshot attributed to
//   the call (./snapshots.ts).
// - Above `maxScanFiles` files, capture is off for the session, and says so: errors.log, the
//   session-start checkpoint's label, and `<store>/capture.json` (./status.ts). The limit is the
//   scanning path's (a hook without the resident, a root the watcher does not vouch for): where the
//   resident's watcher vouches, a shell call costs what it changed, and the limit is WATCHED_MAX_FILES
//   (the memory of the state) unless maxScanFiles is higher; a session turned off by the lower limit is
//   taken up again by the resident's next shell call.
import * as fs from 'node:fs';
import { isInside } from '../paths';
import { recentRecords } from '../storeFiles/fileLog';
import type { LogRecord, SnapRecord } from '../storeFiles/records';
import { allowedRoots, outsideAllowed, sessionRoot } from '../workspace/roots';
import { baseline, finishPending, pendingCount } from '../scan/baseline';
import { rescan } from '../scan/rescan';
import { loadState, peekState, readPending, savePending, saveState, stateFile, stateFiles } from '../scan/stateFile';
import type { ScanLimits, ScanOptions, ScanState } from '../scan/types';
import type { Store } from '../store';
import { type ChangeSight, countScan, countStart, holdsToken, includeUncovered, keepToken, watchedChanges } from './narrowing';
import { watchedBaseline } from './watchedStart';
import { snapshotsOf } from './snapshots';
import { type CaptureStatus, offMessage, refreshStatus, writeCaptureStatus } from './status';
import { keepState, keepUnchanged, takeState } from './heldStates';
import { CaptureHold } from './hold';
import { Unrecordable } from './unrecordable';

/** How long SessionStart may spend copying dirty/untracked files before leaving the rest for later. */
export const BASELINE_BUDGET_MS = 1500;

/** The shell call a capture step is for. */
export interface ShellCall {
  session: string;
  tool: string;
  callId?: string;
}

/**
 * Where a session's capture runs: the folders named on the hook's command line, the watcher (if any), and the
 * event's hold on the scan state (its lock, and the saves that wait for the event's append: ./hold.ts).
 */
export interface CaptureContext {
  explicit?: readonly string[];
  source?: ChangeSight;
  hold: CaptureHold;
}

/** The file limit where the resident's watcher vouches for the root (a scan there costs what changed, not the tree). */
export const WATCHED_MAX_FILES = 1_000_000;

/**
 * The scan's file limit for `root`: `maxScanFiles`, or at least WATCHED_MAX_FILES where the watcher vouches
 * for it — or for a state that holds more files than `maxScanFiles` already (the resident took it on: a hook's
 * scan of it, when the resident did not answer in time, costs one walk rather than the session's capture).
 */
export function fileLimit(maxScanFiles: number, root: string, source: ChangeSight | undefined, held = 0): number {
  return source?.token(root) !== undefined || held > maxScanFiles ? Math.max(maxScanFiles, WATCHED_MAX_FILES) : maxScanFiles;
}

function limitsOf(store: Store, root: string, sink?: Unrecordable, source?: ChangeSight, held = 0): ScanLimits {
  const c = store.config();
  return {
    maxFiles: fileLimit(c.maxScanFiles, root, source, held),
    maxFileBytes: c.maxFileBytes,
    excludes: c.excludes,
    skipAbs: isInside(store.dir, root) ? [store.dir] : [],
    report: (m) => store.logError(`shell capture: ${m}`),
    ...(sink ? { unrecordable: sink.add } : {}),
  };
}

function optsOf(store: Store, root: string, storeContent: boolean, sink?: Unrecordable, source?: ChangeSight, held = 0): ScanOptions {
  return { storeDir: store.dir, limits: limitsOf(store, root, sink, source, held), storeContent };
}

/** A failed step is logged, never thrown at the agent: capture just records less. */
function logged<T>(store: Store, what: string, fallback: T, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    store.logError(`shell capture (${what}): ${(err as Error).message}`, {
      stack: (err as Error).stack?.split('\n').slice(0, 4).join(' | '),
    });
    return fallback;
  }
}

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

/** Capture is off for this session: the state says why, and so do errors.log and capture.json. */
function markOff(store: Store, state: ScanState, count: number, limit: number): string {
  const message = offMessage(count, limit, store);
  state.off = { reason: 'too-many-files', files: count, limit, message };
  state.files.clear();
  state.dirs.clear();
  store.logError(`shell capture: ${message}`, { root: state.root, session: state.session });
  try {
    store.appendGaps([{ t: 'gap', path: state.root, reason: 'capture-off', session: state.session, time: Date.now() }]);
  } catch (e) {
    store.logError(`shell capture: recording that capture is off: ${(e as Error).message}`);
  }
  return message;
}

function takeBaseline(
  store: Store,
  root: string,
  session: string,
  budgetMs: number,
  ctx: CaptureContext,
): { state: ScanState; status: CaptureStatus } {
  const source = ctx.source;
  const sink = new Unrecordable();
  const opts = optsOf(store, root, true, sink, source);
  const token = source?.token(root); // before the walk: what changes during it is named later
  const file = stateFile(store.dir, session);
  const limit = opts.limits.maxFiles;
  writeCaptureStatus(store, { session, root, state: 'baseline', files: 0, limit, time: Date.now() });
  // A root the resident watches, with a state of it the watcher vouches for: that state brought up to date is the baseline.
  const warm = source && token !== undefined ? watchedBaseline(store.dir, root, session, source, opts) : null;
  if (source) countStart(!!warm);
  if (warm) {
    ctx.hold.save(() => {
      saveState(file, warm.state);
      keepState(file, warm.state);
      keepToken(file, warm.state, warm.token);
    }, false);
    const status: CaptureStatus = {
      session,
      root,
      state: 'on',
      files: warm.files,
      limit,
      baselineMs: warm.ms,
      git: !!warm.state.git,
      time: Date.now(),
    };
    if (warm.pending) status.pending = warm.pending;
    writeCaptureStatus(store, status);
    return { state: warm.state, status };
  }
  const r = baseline(root, session, { ...opts, budgetMs, reuse: reusableState(store, root, session) });
  const status: CaptureStatus = {
    session,
    root,
    state: 'on',
    files: r.files,
    limit,
    baselineMs: r.ms,
    git: !!r.state.git,
    time: Date.now(),
  };
  if (r.tooMany) {
    status.state = 'off';
    status.message = markOff(store, r.state, r.tooMany.count, limit);
  } else if (r.pending) status.pending = r.pending;
  ctx.hold.save(() => {
    saveState(file, r.state);
    keepState(file, r.state); // written whole, it is what a load gives: the first shell call need not read it
    keepToken(file, r.state, token);
  }, false);
  if (token !== undefined) includeUncovered(source, r.state);
  writeCaptureStatus(store, status);
  if (!r.tooMany) sink.flush(store, root, { session });
  return { state: r.state, status };
}

/**
 * The workspace folder for a working folder: the known store root containing it, else its own root
 * (core/workspace/roots.ts); null when it has none (too broad a folder, or outside the folders VS Code has open): no scan there.
 */
function rootFor(store: Store, cwd: string, explicit: readonly string[]): string | null {
  if (outsideAllowed(cwd, allowedRoots(store.dir, explicit))) return null;
  const roots = store.knownRoots().filter((r) => isInside(cwd, r));
  roots.sort((a, b) => a.length - b.length);
  return roots[0] ?? sessionRoot(cwd).root;
}

/** Does this session have a scan state yet (an agent without a session start takes its baseline at its first prompt)? */
export function hasBaseline(store: Store, session: string): boolean {
  return fs.existsSync(stateFile(store.dir, session));
}

/**
 * Session start: takes the baseline. Returns a note for the session-start checkpoint's label when
 * capture is off (so `agent-rewind checkpoints` shows it), else null.
 */
export function captureSessionStart(store: Store, session: string, cwd: string | undefined, ctx: CaptureContext): string | null {
  if (!cwd) return null;
  return logged(store, 'session start', null, () => {
    const root = rootFor(store, cwd, ctx.explicit ?? []);
    if (!root) return null; // the recorder said why
    return ctx.hold.locked(() => {
      const { status } = takeBaseline(store, root, session, BASELINE_BUDGET_MS, ctx);
      return status.state === 'off' ? `shell capture off: more than ${status.limit} files (maxScanFiles)` : null;
    });
  });
}

/** Capture turned off by a scan that found too many files: no call stays pending. */
function turnOff(store: Store, state: ScanState, file: string, count: number, limit: number, hold: CaptureHold): LogRecord[] {
  const message = markOff(store, state, count, limit);
  delete state.pending;
  hold.save(() => {
    saveState(file, state);
    savePending(file, null);
  }, false);
  writeCaptureStatus(store, { session: state.session, root: state.root, state: 'off', files: count, limit, message, time: Date.now() });
  return [];
}

/**
 * After a shell call's scan of the state in `file` (`savedScanned`: its `scanned` as taken; `token`: the
 * watcher's, taken before the scan; `fromOwnToken`: the watcher narrowed it from the token kept with the state): a
 * state that changed is saved, held and kept with its token. One that did not is not written: it is held
 * again as the disk has it, and keeps the token it was saved with — unless that token did not narrow this
 * scan (a hook saved the state, or the watch restarted since) while the watcher vouches now: then it is
 * saved (its journal, small) so that this scan's token narrows the next call's.
 */
function keepScanned(file: string, state: ScanState, dirty: boolean, savedScanned: number, token: unknown, fromOwnToken: boolean): void {
  if (dirty || (token !== undefined && !fromOwnToken)) {
    saveState(file, state);
    keepState(file, state);
    keepToken(file, state, token);
  } else keepUnchanged(file, state, savedScanned);
}

/**
 * Before a shell command: brings the state up to date with the disk (changes since the last
 * scan are not the command's), copies content the command might overwrite, marks the call pending.
 * Returns the lines to write before the call's checkpoint (none today; kept for the order of §3).
 */
export function captureBeforeShell(store: Store, e: ShellCall, cwd: string | undefined, ctx: CaptureContext): LogRecord[] {
  // Another shell call still pending (its PostToolUse never came, its hook died before the save, or it runs
  // beside this one): what changed since it started is its doing, captured as its `after`s first — as a turn
  // boundary would — not folded in below as if the user had made it, unrecorded.
  const orphan = captureOrphanShell(store, e.session, ctx, e.callId ?? '') ?? [];
  return [...orphan, ...beforeShellStep(store, e, cwd, ctx, stateFile(store.dir, e.session))];
}

function beforeShellStep(store: Store, e: ShellCall, cwd: string | undefined, ctx: CaptureContext, file: string): LogRecord[] {
  return logged(store, `before ${e.tool}`, [], () =>
    ctx.hold.locked(() => {
      let state = takeState(file);
      if (!state) {
        // No baseline (hooks connected mid-session, or a lost state): take it now, whole.
        const root = cwd ? rootFor(store, cwd, ctx.explicit ?? []) : null;
        if (!root) return [];
        state = takeBaseline(store, root, e.session, Number.POSITIVE_INFINITY, ctx).state;
      } else if (state.off && state.off.limit < fileLimit(store.config().maxScanFiles, state.root, ctx.source)) {
        // Turned off by a lower limit (a hook's own scan): the watcher vouches now, capture starts again.
        state = takeBaseline(store, state.root, e.session, Number.POSITIVE_INFINITY, ctx).state;
      }
      if (state.off) return [];
      const sink = new Unrecordable();
      const opts = optsOf(store, state.root, true, sink, ctx.source, state.files.size);
      const members = state.files.membership;
      // Pending copies made, or pending files gone (dropped from the state): the state differs from the disk's.
      const copied = finishPending(state, opts) > 0 || state.files.membership !== members;
      const savedScanned = state.scanned;
      const changed = watchedChanges(ctx.source, file, state);
      const fromOwnToken = !!changed && holdsToken(file, savedScanned);
      const token = ctx.source?.token(state.root);
      const r = rescan(state, { ...opts, ...(changed ? { changed } : {}) });
      countScan(ctx.source, state, changed, r);
      if (r.tooMany) return turnOff(store, state, file, r.tooMany.count, opts.limits.maxFiles, ctx.hold);
      // (Nothing here is logged: what changed before the command is folded in, not recorded.)
      const log = fs.statSync(store.logFile, { throwIfNoEntry: false })?.size ?? 0;
      const call = { call: e.callId ?? '', tool: e.tool, time: Date.now(), session: e.session, log };
      ctx.hold.save(() => {
        keepScanned(file, state, r.dirty || copied, savedScanned, token, fromOwnToken);
        savePending(file, call);
      }, false);
      if (pendingCount(state) === 0) refreshStatus(store, state);
      sink.flush(store, state.root, { session: e.session }); // found before the command ran: not its doing
      return [];
    }),
  );
}

/**
 * After a shell command (or its failure): the `before`/`after` snapshots of what it changed. `midCall`: a
 * rewind is about to write while the call runs — what it changed so far is recorded, and it stays pending.
 */
export function captureAfterShell(store: Store, e: ShellCall, ctx: CaptureContext, midCall = false): LogRecord[] {
  const file = stateFile(store.dir, e.session);
  return logged(store, `after ${e.tool}`, [], () =>
    ctx.hold.locked(() => {
      const state = takeState(file);
      if (!state || state.off) return [];
      const sink = new Unrecordable();
      const opts = optsOf(store, state.root, false, sink, ctx.source, state.files.size);
      const mine = state.pending?.call === (e.callId ?? '') ? state.pending : undefined;
      const since = mine?.time;
      const savedScanned = state.scanned;
      const stillPending = midCall ? (state.pending ?? null) : null;
      const changed = watchedChanges(ctx.source, file, state);
      const fromOwnToken = !!changed && holdsToken(file, savedScanned);
      const token = ctx.source?.token(state.root);
      const r = rescan(state, {
        ...opts,
        ...(since !== undefined ? { existedBefore: since - 1000 } : {}),
        ...(changed ? { changed } : {}),
      });
      countScan(ctx.source, state, changed, r);
      if (r.tooMany) return turnOff(store, state, file, r.tooMany.count, opts.limits.maxFiles, ctx.hold);
      const meta = { session: e.session, tool: e.tool, ...(e.callId ? { call: e.callId } : {}), time: Date.now() };
      const lines = apartFromRewinds(store, snapshotsOf(store, state, r.changes, r.prevDirs, meta), savedScanned, mine?.log);
      sink.flush(store, state.root, { session: e.session, tool: e.tool, ...(e.callId ? { call: e.callId } : {}) });
      // The state now holds the content hashes of the `after` snapshots, all stored durably; it is saved,
      // and the call is no longer pending, only once those lines are in the log (./hold.ts).
      ctx.hold.save(() => {
        keepScanned(file, state, r.dirty, savedScanned, token, fromOwnToken);
        savePending(file, stillPending);
      }, lines.length > 0);
      return lines;
    }),
  );
}

/**
 * A shell call whose PostToolUse never came (the hook was killed, the agent crashed): at the next
 * turn boundary its changes are captured as if it had, attributed to it. Null when none is pending.
 */
export function captureOrphanShell(store: Store, session: string, ctx: CaptureContext, except?: string): LogRecord[] | null {
  const file = stateFile(store.dir, session);
  const seen = readPending(file); // a look without the lock first: most events find none and take none
  if (!seen || seen.call === except) return null;
  return ctx.hold.locked(() => {
    // Decided under the lock: the call's own PostToolUse may have finished since the look (calls side by
    // side), and what changed after it is not that call's.
    const pending = readPending(file);
    if (!pending || pending.call !== seen.call) return null;
    const lines = captureAfterShell(store, { session, tool: pending.tool, callId: pending.call }, ctx);
    return pending.call ? notLoggedYet(store, pending.call, lines) : lines;
  });
}

/** How long a shell call may still be running: agents end their shell commands well before (minutes). */
const RUNNING_CALL_MS = 3600000;

/**
 * A rewind is about to write: every shell call still pending (its command may be running now) has what it
 * changed so far recorded as its own, before the rewind's `pre-rewind` snapshots — so the state at the
 * rewind's checkpoint (its undo) holds it — and stays pending. The holds keep those sessions' scans out
 * until the rewind has recorded what it wrote (`settle` then): its writes are the rewind's, never a call's.
 */
export function captureBeforeRewind(store: Store, now = Date.now()): { lines: LogRecord[]; settle(appended: boolean): void } {
  const holds: CaptureHold[] = [];
  const lines: LogRecord[] = [];
  for (const file of stateFiles(store.dir)) {
    const seen = file.endsWith('.scan') ? readPending(file) : null;
    // A call pending for longer than any command runs was cut off (its hook killed, its session gone): what
    // changed since is most likely the user's, left to that session's next boundary as before.
    if (!seen || now - seen.time > RUNNING_CALL_MS) continue;
    const hold = new CaptureHold(file);
    holds.push(hold);
    const got = logged(store, 'before a rewind', [], () =>
      hold.locked(() => {
        const pending = readPending(file);
        if (!pending || pending.call !== seen.call) return [];
        const call = { session: pending.session, tool: pending.tool, callId: pending.call };
        return captureAfterShell(store, call, { hold }, true);
      }),
    );
    lines.push(...(seen.call ? notLoggedYet(store, seen.call, got) : got));
  }
  const settle = (appended: boolean) => {
    for (const h of holds) h.settle(appended, (err) => store.logError(`shell capture (saving the scan state): ${(err as Error).message}`));
  };
  return { lines, settle };
}

/**
 * What rewinds wrote since `since` (their `rewind` snapshots, by path; the last one wins), looked for in what
 * was appended to the log since byte `from` (the call's start; unknown: the last LOGGED_SEARCH_BYTES).
 */
function rewindWrites(store: Store, since: number, from: number | undefined): Map<string, SnapRecord> {
  const out = new Map<string, SnapRecord>();
  const size = fs.statSync(store.logFile, { throwIfNoEntry: false })?.size ?? 0;
  // One byte more: the newline before `from`, so that the line starting there is read whole.
  const bytes = from === undefined ? LOGGED_SEARCH_BYTES : Math.min(LOGGED_SEARCH_BYTES, size - from + 1);
  if (bytes <= 1) return out;
  for (const r of recentRecords(store.logFile, bytes, '"phase":"rewind"'))
    if (r.t === 'snap' && r.phase === 'rewind' && r.time >= since) out.set(r.path, r);
  return out;
}

/**
 * A shell call's `before`/`after` pairs (./snapshots.ts) less what a rewind wrote since the last scan
 * (`since`; appended after byte `from`): a path that holds what the rewind wrote is the rewind's change, not the call's; one the call
 * changed again after it starts from what the rewind wrote.
 */
function apartFromRewinds(store: Store, lines: SnapRecord[], since: number, from: number | undefined): SnapRecord[] {
  const written = lines.length ? rewindWrites(store, since, from) : null;
  if (!written?.size) return lines;
  const out: SnapRecord[] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const before = lines[i]!;
    const after = lines[i + 1]!;
    const w = written.get(before.path);
    if (!w) out.push(before, after);
    else if (w.hash !== after.hash || !!w.link !== !!after.link || (w.mode ?? after.mode) !== after.mode) {
      const { dirs: _d, skipped: _s, size: _z, mtime: _m, mode: _o, link: _l, ...meta } = before;
      const stat = { size: w.size, mtime: w.mtime, ...(w.mode !== undefined ? { mode: w.mode } : {}), ...(w.link ? { link: true } : {}) };
      out.push({ ...meta, hash: w.hash, ...stat }, after);
    }
  }
  return out;
}

/** An event's hold on its session's shell capture (./hold.ts): one per event, settled once its lines are appended. */
export function holdCapture(store: Store, session: string): CaptureHold {
  return new CaptureHold(stateFile(store.dir, session));
}

/** How far back the log is searched for a call's snapshots that are there already. */
const LOGGED_SEARCH_BYTES = 8 * 1024 * 1024;

/**
 * The call's lines the log does not hold yet. Its hook may have appended them and died before the scan
 * state was saved (./hold.ts), or its resident died mid-append and the hook finished that append: then
 * the call's snapshots are there (all, or up to a torn line) and are not written twice.
 */
function notLoggedYet(store: Store, call: string, lines: LogRecord[]): LogRecord[] {
  const key = (r: SnapRecord) => `${r.phase}\0${r.path}\0${r.hash}`;
  const logged = new Set<string>();
  for (const r of recentRecords(store.logFile, LOGGED_SEARCH_BYTES, JSON.stringify(call)))
    if (r.t === 'snap' && r.call === call) logged.add(key(r));
  return logged.size ? lines.filter((r) => r.t !== 'snap' || !logged.has(key(r))) : lines;
}

// git's help for a scan: `git status` against our own copy of the index (where git keeps its
// untracked cache), or `git diff-files` where the index cannot be copied; the status a shell hook
// asks for early (`prefetchScan`: the one module-level slot of the scan); the index copy and the
// state's record of it; and which folders and paths are in the scan whatever git lists.
import * as fs from 'node:fs';
import { replaceFile, writeFileAtomic } from '../storeFiles/fsx';
import * as path from 'node:path';
import type { PendingGit } from '../git/run';
import { type CachedStatus, startCachedStatus, startModifiedTracked } from '../git/status';
import { gitIndexKey } from '../git/indexFile';
import { ALWAYS_SKIP, isForced, isIgnored, type Rules } from './ignore';
import { isInside } from '../paths';
import { lstat } from './entries';
import { indexCopyFile, readHeaderOnly, stateFile, validGitCache } from './stateFile';
import { indexOf, markGitIds, type Tracked, type TrackedEntry } from './tracked';
import { RACY_MS, type ScanLimits, type ScanOptions, type ScanState } from './types';
import { matchersFor } from './walker';
import { STORE_FILE } from '../storeFiles/names';

// ---- git's answer, asked for early
//
// A shell hook spends its first milliseconds loading code, opening the store and recording the
// call; git's status (see `startGitAssist`) needs none of that. So the hook starts it as soon as
// it knows the session (`prefetchScan`), and the scan takes it over if it is still the question
// the scan would ask: the same index copy, the index unchanged, asked moments ago.

let prefetched: { copy: string; key: string; started: number; job: PendingGit<CachedStatus> } | null = null;

/** Starts the `git status` a scan of this session's state will want, if the state says it can use one. */
export function prefetchScan(storeDir: string, session: string): void {
  cancelPrefetch();
  const file = stateFile(storeDir, session);
  const h = readHeaderOnly(file);
  if (!h || h === 'legacy' || h.off || h.dirTimes === false || !h.git || !validGitCache(h.gitCache) || h.gitCache.key !== h.indexKey)
    return;
  const copy = indexCopyFile(file);
  if (gitIndexKey(h.git.gitDir) !== h.gitCache.key || !fs.existsSync(copy)) return;
  prefetched = {
    copy,
    key: h.gitCache.key,
    started: Date.now(),
    job: statusOnCopy(h.root, copy, path.join(storeDir, STORE_FILE.scan), RACY_MS),
  };
}

/** The coarse file clock can lag the real one by a tick (1–10 ms); a generous margin for it. */
const CLOCK_TICK_MARGIN_MS = 50;

/** When the last status whose answer we used started: `<copy>.at` (a companion of the state). */
function readStatusStart(copy: string): number | undefined {
  try {
    const t = Number(fs.readFileSync(`${copy}.at`, 'utf8'));
    return Number.isFinite(t) && t > 0 ? t : undefined;
  } catch {
    return undefined;
  }
}

function writeStatusStart(copy: string, started: number): void {
  try {
    writeFileAtomic(`${copy}.at`, String(started));
  } catch {
    /* the next status then looks back further: slower, never wrong */
  }
}

/**
 * `git status` against our index copy, with the copy's mtime set back first. git treats a cached
 * folder whose mtime is not older than the index file as racy and lists it again (as it does
 * files). Two ways a folder's change hides behind an unchanged mtime: an entry added in the same
 * timestamp tick as the index was written (so: `racyMs` back), and an entry added in the same tick
 * as the previous status READ that folder — its cache then holds the folder's final mtime without
 * the entry, however long ago that was (seen under load: a created file missed for good). So the
 * copy's mtime also goes back to just before the previous status we used started (`<copy>.at`),
 * and git looks again at every folder changed since: a handful, the ones a command touched.
 * The start is recorded only when the answer is used (a cancelled status's writes are covered by
 * the older start still recorded).
 */
export function statusOnCopy(root: string, copy: string, tmpDir: string, racyMs: number): PendingGit<CachedStatus> {
  const started = Date.now();
  const previous = readStatusStart(copy);
  const backMs = Math.min(started - racyMs, previous === undefined ? Infinity : previous - CLOCK_TICK_MARGIN_MS);
  try {
    fs.utimesSync(copy, backMs / 1000, backMs / 1000);
  } catch {
    /* git will say what is wrong */
  }
  const job = startCachedStatus(root, copy, tmpDir);
  return {
    result: (timeoutMs) => {
      const r = job.result(timeoutMs);
      if (r) writeStatusStart(copy, started);
      return r;
    },
    cancel: () => job.cancel(),
  };
}

/** Stops a prefetched `git status` nobody took (the hook is done). */
export function cancelPrefetch(): void {
  prefetched?.job.cancel();
  prefetched = null;
}

/** The prefetched status for this index copy and key, if asked for within the last second. */
function takePrefetch(copy: string, key: string): PendingGit<CachedStatus> | null {
  const p = prefetched;
  prefetched = null;
  if (p && p.copy === copy && p.key === key && Date.now() - p.started < 1000) return p.job;
  p?.job.cancel();
  return null;
}

export interface Assist {
  /** Tracked paths (relative to the root) whose file may differ from the index our git ids were checked against. */
  modified: Set<string>;
  /** From git's untracked cache: the untracked files (and nested repositories, ending in `/`); null when git did not list them. */
  untracked: string[] | null;
}

export interface AssistJob {
  /** Git lists the untracked files too (our index copy's untracked cache): no folder checks of ours. */
  cached: boolean;
  /** Starting it changed the state (git ids re-checked against a new index, a new index copy). */
  dirty: boolean;
  finish(): Assist | null;
  cancel(): void;
}

/**
 * Git's help for a scan, started before the scan's own work so the two run at once. In a
 * repository whose index we can read, `git status` against our copy of the index (see
 * `ScanState.gitCache`): git stat-checks the tracked files and, with its untracked cache, lists
 * untracked files looking only into folders whose stat changed — both natively, so we stat neither
 * the clean tracked files nor the folders. Otherwise `git diff-files` (tracked files only). Null
 * when git cannot vouch for anything (then every file and folder is stat'ed by us).
 */
export function startGitAssist(state: ScanState, opts: ScanOptions, rules: Rules): AssistJob | null {
  if (!state.git || !state.indexKey) return null;
  const gitDir = state.git.gitDir;
  const key = gitIndexKey(gitDir);
  let dirty = false;
  let tracked: Tracked | null = null;
  if (key !== state.indexKey) {
    tracked = indexOf({ top: state.git.top, gitDir, objectFormat: state.git.objectFormat }, state.root);
    if (!tracked || tracked.key !== key) return null;
    markGitIds(state, tracked.entries);
    state.indexKey = key;
    dirty = true;
  }
  const tmpDir = path.join(opts.storeDir, STORE_FILE.scan);
  const copy = indexCopyFile(stateFile(opts.storeDir, state.session));
  if (state.dirTimes && (state.gitCache?.key !== key || !fs.existsSync(copy))) {
    tracked ??= indexOf({ top: state.git.top, gitDir, objectFormat: state.git.objectFormat }, state.root);
    const cache = cacheable(tracked, key) ? copyIndex(state, gitDir, key, copy, tracked!.entries, rules, opts.limits) : undefined;
    if (cache) state.gitCache = cache;
    else delete state.gitCache;
    dirty = true;
  }
  clearStaleLock(`${copy}.lock`);
  if (state.gitCache && state.dirTimes) {
    const top = state.git.top;
    const job = takePrefetch(copy, key) ?? statusOnCopy(state.root, copy, tmpDir, opts.racyMs ?? RACY_MS);
    return {
      cached: true,
      dirty,
      finish: () => {
        const r = job.result();
        if (!r || gitIndexKey(gitDir) !== key) {
          fs.rmSync(copy, { force: true }); // made again next time, whatever went wrong
          return null;
        }
        return underRoot(r, top, state.root);
      },
      cancel: () => job.cancel(),
    };
  }
  const job = startModifiedTracked(state.root, tmpDir);
  return {
    cached: false,
    dirty,
    finish: () => {
      const modified = job.result();
      return modified && gitIndexKey(gitDir) === key ? { modified, untracked: null } : null;
    },
    cancel: () => job.cancel(),
  };
}

/**
 * git takes `<copy>.lock` while it writes our index copy; a git killed then leaves it, and git would
 * never update the copy (nor its untracked cache) again. No git of ours runs longer than 20 s.
 */
function clearStaleLock(lock: string): void {
  const st = lstat(lock);
  if (st && Date.now() - st.mtimeMs > 30000) fs.rmSync(lock, { force: true });
}

/**
 * Can `git status` on a copy of this index stand in for our scan? The index must be one we read
 * ourselves (not split or sparse: then its copy would not be whole) and still be the one with
 * stat key `key`; and since git lists the whole repository, most of it must be under the root.
 */
export function cacheable(tracked: Tracked | null, key: string): tracked is Tracked {
  return tracked?.source === 'index' && tracked.key === key && tracked.entries.size * 2 >= tracked.total;
}

/** git's answer (paths relative to the repository's top) cut down to the root, relative to it. */
export function underRoot(r: CachedStatus, top: string, root: string): CachedStatus {
  const rel = path.relative(top, root).split(path.sep).join('/');
  const prefix = rel && !rel.startsWith('..') ? rel + '/' : '';
  const local = (p: string): string | null => (p.startsWith(prefix) && p.length > prefix.length ? p.slice(prefix.length) : null);
  const modified = new Set<string>();
  for (const p of r.modified) {
    const q = local(p);
    if (q) modified.add(q);
  }
  return { modified, untracked: r.untracked.map(local).filter((p): p is string => !!p) };
}

/** Is `rel` out of the scan whatever git's rules say (a skipped folder name, the store, our excludes)? */
export function excludedByUs(state: ScanState, rules: Rules, limits: ScanLimits, rel: string): boolean {
  const parts = rel.split('/');
  for (let i = 0; i < parts.length - 1; i++) if (ALWAYS_SKIP.has(parts[i]!)) return true;
  if (limits.skipAbs.some((d) => isInside(path.join(state.root, rel), d))) return true;
  return isForced(rules, rel, false);
}

/**
 * Copies the repository's index (stat key `key`) to `copy` for `git status` to keep its untracked
 * cache in; the cache record for the state, or undefined when the index changed while copied.
 */
function copyIndex(
  state: ScanState,
  gitDir: string,
  key: string,
  copy: string,
  tracked: Map<string, TrackedEntry>,
  rules: Rules,
  limits: ScanLimits,
): ScanState['gitCache'] {
  return copyIndexFile(gitDir, key, copy) ? cacheRecord(state, key, tracked, rules, limits) : undefined;
}

/** Copies the index (stat key `key`) to `copy`; false when it changed while copied, or cannot be. */
export function copyIndexFile(gitDir: string, key: string, copy: string): boolean {
  try {
    fs.mkdirSync(path.dirname(copy), { recursive: true, mode: 0o700 });
    const fill = (tmp: string) => {
      fs.copyFileSync(path.join(gitDir, 'index'), tmp);
      fs.chmodSync(tmp, 0o600);
    };
    if (!replaceFile(copy, fill, { beforeRename: () => gitIndexKey(gitDir) === key })) throw new Error('the index changed while copied');
    return true;
  } catch {
    fs.rmSync(copy, { force: true });
    return false;
  }
}

/** The state's record of a fresh index copy: its key, the submodules, the tracked paths not in the state. */
export function cacheRecord(
  state: ScanState,
  key: string,
  tracked: Map<string, TrackedEntry>,
  rules: Rules,
  limits: ScanLimits,
): NonNullable<ScanState['gitCache']> {
  const gitlinks: string[] = [];
  const watch: string[] = [];
  for (const [rel, te] of tracked) {
    if (te.mode === 0o160000) gitlinks.push(rel);
    else if (!state.files.has(rel) && !excludedByUs(state, rules, limits, rel)) watch.push(rel);
  }
  return { key, gitlinks, watch };
}

/**
 * Whether a folder is in the scan, decided once per folder, top down, as the walk would: folders
 * `known` to be in are; `.git`, `node_modules` and the like, the store, and ignored folders are not
 * — except folders holding tracked files (`trackedDirs`), which only our own excludes keep out.
 */
export function folderFilter(
  state: ScanState,
  rules: Rules,
  limits: ScanLimits,
  opts: { known?: { has(dir: string): boolean }; trackedDirs?: Set<string> },
): (dir: string) => boolean {
  const base = state.root + path.sep;
  const decided = new Map<string, boolean>();
  const folderIn = (dir: string): boolean => {
    if (dir === '' || opts.known?.has(dir)) return true;
    const known = decided.get(dir);
    if (known !== undefined) return known;
    const slash = dir.lastIndexOf('/');
    const parent = slash < 0 ? '' : dir.slice(0, slash);
    let ok = folderIn(parent) && !ALWAYS_SKIP.has(dir.slice(slash + 1)) && !limits.skipAbs.includes(base + dir);
    if (ok) ok = opts.trackedDirs?.has(dir) ? !isForced(rules, dir, true) : !isIgnored(rules, matchersFor(state, rules, parent), dir, true);
    decided.set(dir, ok);
    return ok;
  };
  return folderIn;
}

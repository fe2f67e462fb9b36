// A session's first scan state (`baseline`): the tree walked once — by git where it can, with
// clean tracked files taken from the index — and the content of the other files copied into the
// store within a time budget; what is left is pending, copied before the next command runs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BlobStore } from '../storeFiles/blobs';
import { gitBlobId } from '../git/objects';
import { type RepoInfo, repoInfo } from '../git/repo';
import type { PendingGit } from '../git/run';
import { type CachedStatus, modifiedTracked } from '../git/status';
import { gitIndexKey } from '../git/indexFile';
import { isIgnored, type Rules } from './ignore';
import {
  dirTimesWork,
  entryFromIndex,
  entryFromStat,
  listedEntry,
  lstat,
  readNow,
  reportUnnameable,
  ruleKey,
  sameEntryStat,
  unlisted,
} from './entries';
import { cacheable, cacheRecord, copyIndexFile, excludedByUs, folderFilter, statusOnCopy, underRoot } from './gitAssist';
import { quickPut } from './references';
import { indexCopyFile, stateFile } from './stateFile';
import { type DirStat, DirTable, type Entry, FileTable } from './table';
import { indexOf, indexState, markGitIds, type Tracked } from './tracked';
import { F_LARGE, F_LINK, F_PENDING, F_RACY, RACY_MS, type ScanOptions, type ScanState } from './types';
import { ancestorsOf, baseRuleFiles, matchersFor, rulesOfState, walk, type Walked, Walker } from './walker';
import { STORE_FILE } from '../storeFiles/names';

export interface BaselineResult {
  state: ScanState;
  files: number;
  /** Files whose content still has to be copied (budget ran out). */
  pending: number;
  copied: number;
  fromGit: number;
  reused: number;
  /**
   * How clean tracked files were found: `status` (git's stat check and its list of untracked
   * files against our index copy: no walk of ours), `diff-files` (git's stat check; the index file read by
   * us), `index` (the index file, our own stat check), `git` (`ls-files` + `diff-files`), `none`.
   */
  index: 'status' | 'diff-files' | 'index' | 'git' | 'none';
  ms: number;
  tooMany?: { count: number };
}

interface StartedStatus {
  key: string;
  copy: string;
  job: PendingGit<CachedStatus>;
}

/** Copies the index and starts `git status` on the copy (before we read the index ourselves: git runs meanwhile). */
function startBaselineStatus(state: ScanState, info: RepoInfo, opts: ScanOptions, racyMs: number): StartedStatus | null {
  if (opts.useGit === false || !state.dirTimes) return null;
  const key = gitIndexKey(info.gitDir);
  const copy = indexCopyFile(stateFile(opts.storeDir, state.session));
  if (key === '-' || key === '?' || !copyIndexFile(info.gitDir, key, copy)) return null;
  return { key, copy, job: statusOnCopy(state.root, copy, path.join(opts.storeDir, STORE_FILE.scan), racyMs) };
}

/**
 * The baseline's walk done by git: `git status` against a fresh copy of the index lists the
 * untracked files (and fills the untracked cache the session's scans will use) while we take every
 * clean tracked file's entry from the index; then we stat the files git says differ from it, and
 * walk ourselves only what git does not look into (submodules, nested repositories). Folders get
 * no stat of ours (marked racy: a scan of ours lists them when git cannot help); empty folders are
 * not known. Null when git cannot do it (the caller walks the tree).
 */
function walkWithGit(
  state: ScanState,
  info: RepoInfo,
  tracked: Tracked,
  rules: Rules,
  opts: ScanOptions,
  t0: number,
  racyMs: number,
  started: StartedStatus,
): { walked: Walked; modified: Set<string>; skipped: string[] } | null {
  const limits = opts.limits;
  const { copy, job } = started;
  // While git runs: every clean-looking tracked file by its index entry, no stat of ours.
  const files = new Map<string, Entry>();
  const toStat: string[] = [];
  const foreign: string[] = [];
  const trackedDirs = ancestorsOf(tracked.entries.keys());
  for (const [rel, te] of tracked.entries) {
    if (te.mode === 0o160000) foreign.push(rel);
    else if (excludedByUs(state, rules, limits, rel)) continue;
    else if (
      te.untrusted ||
      !te.stat ||
      !(te.mode === 0o120000 || te.mode === 0o100644 || te.mode === 0o100755) ||
      te.stat.size > limits.maxFileBytes
    )
      toStat.push(rel);
    else files.set(rel, entryFromIndex(te.stat, t0, racyMs));
  }
  const got = job.result();
  if (!got || gitIndexKey(info.gitDir) !== tracked.key) {
    fs.rmSync(copy, { force: true });
    return null;
  }
  const r = underRoot(got, info.top, state.root);
  const modified = new Set<string>();
  for (const rel of r.modified) {
    if (files.delete(rel) || tracked.entries.has(rel)) {
      modified.add(rel);
      toStat.push(rel);
    }
  }
  const base = state.root + path.sep;
  for (const rel of toStat) {
    const e = listedEntry(base, rel, t0, racyMs);
    if (e) files.set(rel, e);
    else files.delete(rel);
  }
  // The rule files in the tree, top down (a folder's rules decide whether the ones below count).
  const untracked = r.untracked;
  const ignoreFiles: Record<string, string> = baseRuleFiles(rules, null).keys;
  state.ignoreFiles = ignoreFiles;
  let folderIn = folderFilter(state, rules, limits, { trackedDirs });
  const dirOf = (rel: string) => rel.slice(0, Math.max(0, rel.lastIndexOf('/')));
  const candidates = [...files.keys(), ...untracked].filter((p) => p === '.gitignore' || p.endsWith('/.gitignore'));
  candidates.sort((a, b) => a.split('/').length - b.split('/').length);
  for (const rel of candidates) {
    if (!folderIn(dirOf(rel))) continue;
    const key = ruleKey(base + rel);
    if (key !== '-') ignoreFiles[rel] = key;
  }
  folderIn = folderFilter(state, rules, limits, { trackedDirs }); // decided again, with every rule file known
  const skipped: string[] = [];
  for (const rel of untracked) {
    if (rel.endsWith('/')) {
      if (folderIn(rel.slice(0, -1))) foreign.push(rel.slice(0, -1));
      continue;
    }
    if (files.has(rel) || !folderIn(dirOf(rel)) || isIgnored(rules, matchersFor(state, rules, dirOf(rel)), rel, false)) continue;
    const e = listedEntry(base, rel, t0, racyMs, skipped);
    if (e) files.set(rel, e);
  }
  for (const rel of skipped) reportUnnameable(limits, rel);
  // Folders: every one holding a file, unlisted by us; submodules and nested repositories walked by us.
  const dirs = new Map<string, DirStat>([['', unlisted()]]);
  for (const d of ancestorsOf(files.keys())) dirs.set(d, unlisted());
  let count = files.size;
  for (const rel of foreign) {
    if (!folderIn(rel) || !lstat(base + rel)?.isDirectory()) continue;
    const w = new Walker(rules, limits, null, { scanStart: t0, racyMs }, count);
    w.walk({ abs: base + rel, rel, matchers: matchersFor(state, rules, dirOf(rel)), dirty: true });
    count = w.count;
    for (const [p, e] of w.files) files.set(p, e);
    for (const [p, d] of w.dirs) dirs.set(p, d);
    for (const d of ancestorsOf([rel])) if (!dirs.has(d)) dirs.set(d, unlisted());
    Object.assign(ignoreFiles, w.ignoreFiles);
    if (w.tooMany) break;
  }
  const tooMany = files.size > limits.maxFiles;
  return { walked: { files, dirs, ignoreFiles, tooMany, count: Math.max(count, files.size) }, modified, skipped };
}

/**
 * The session's baseline: walk the tree (list every folder, stat every file); in a git
 * repository take the blob id of every clean tracked file from the index (no copy) — with git's
 * own stat check (`git diff-files`) vouching for those files, we do not stat them ourselves and
 * take their stat from the index; reuse a previous state's entries whose stat is unchanged; copy
 * the rest (dirty and untracked files) into the store, within `budgetMs` — what is left is marked
 * pending and copied by the next scan, before the next command runs.
 */
export function baseline(
  root: string,
  session: string,
  opts: ScanOptions & { budgetMs: number; reuse?: ScanState | null },
): BaselineResult {
  const t0 = Date.now();
  const racyMs = opts.racyMs ?? RACY_MS;
  const info = repoInfo(root);
  const state: ScanState = {
    v: 2,
    root,
    session,
    created: t0,
    scanned: t0,
    git: info
      ? { top: info.top, gitDir: info.gitDir, objectFormat: info.objectFormat, filters: info.filters, excludesFile: info.excludesFile }
      : null,
    dirTimes: dirTimesWork(opts.storeDir, root),
    files: new FileTable(),
    dirs: new DirTable(),
    ignoreFiles: {},
  };
  const rules = rulesOfState(state, opts.limits);
  const reuse = opts.reuse && opts.reuse.root === root ? opts.reuse : null;
  const started = info ? startBaselineStatus(state, info, opts, racyMs) : null;
  const tracked = info ? indexOf(info, root) : null;
  // git's stat check of the tracked files, against the index we just read.
  let vouched: Set<string> | null = null;
  let w: Walked | null = null;
  const byGit = started && cacheable(tracked, started.key);
  if (started && !byGit) {
    started.job.cancel();
    fs.rmSync(started.copy, { force: true });
  }
  const gw = byGit ? walkWithGit(state, info!, tracked, rules, opts, t0, racyMs, started) : null;
  if (gw) {
    w = gw.walked;
    vouched = gw.modified;
  } else if (tracked?.source === 'index' && opts.useGit !== false && tracked.entries.size) {
    vouched = modifiedTracked(root);
    if (vouched && gitIndexKey(info!.gitDir) !== tracked.key) vouched = null; // the index changed meanwhile
  }
  const adopt = vouched
    ? (rel: string): Entry | null => {
        const te = tracked!.entries.get(rel);
        if (!te || te.untrusted || !te.stat || vouched!.has(rel) || !(te.mode === 0o120000 || te.mode === 0o100644 || te.mode === 0o100755))
          return null;
        if (te.stat.size > opts.limits.maxFileBytes) return null;
        return entryFromIndex(te.stat, t0, racyMs);
      }
    : null;
  w ??= walk(root, rules, opts.limits, reuse && sameGit(reuse.git, state.git) ? reuse : null, {
    tracked: tracked?.entries ?? null,
    adopt,
    scanStart: t0,
    racyMs,
  });
  const index = tracked ? (gw ? 'status' : vouched ? 'diff-files' : tracked.source) : 'none';
  if (w.tooMany)
    return { state, files: w.count, pending: 0, copied: 0, fromGit: 0, reused: 0, index, ms: Date.now() - t0, tooMany: { count: w.count } };
  state.dirs = new DirTable(w.dirs);
  state.ignoreFiles = w.ignoreFiles;
  if (tracked && tracked.key !== '?') state.indexKey = tracked.key;
  const format = info?.objectFormat ?? 'sha1';
  let fromGit = 0;
  let reused = 0;
  const todo: string[] = [];
  const base = root + path.sep;
  for (const [rel, e] of w.files) {
    state.files.set(rel, e);
    if (e.git) {
      fromGit++; // adopted from the index
      continue;
    }
    if (!(e.flags & F_LINK) && e.size > opts.limits.maxFileBytes) {
      e.flags |= F_LARGE;
      continue;
    }
    const te = tracked?.entries.get(rel);
    const clean = te && !vouched ? indexState(tracked!, te, e, rel) : 'changed';
    if (clean === 'clean') {
      e.git = te!.id;
      fromGit++;
      continue;
    }
    const old = reuse?.files.get(rel);
    if (
      old &&
      sameEntryStat(old, e) &&
      !(old.flags & (F_RACY | F_PENDING | F_LARGE)) &&
      (old.git || (old.hash && new BlobStore(opts.storeDir).has(old.hash)))
    ) {
      e.hash = old.hash;
      e.git = old.git;
      reused++;
      continue;
    }
    if (clean === 'racy') {
      // Stat says clean, timing says "maybe not": compare the content with the blob.
      const r = readNow(base + rel, e, opts.limits);
      if (r?.data && gitBlobId(r.data, format) === te!.id) {
        e.git = te!.id;
        fromGit++;
        continue;
      }
    }
    e.flags |= F_PENDING;
    todo.push(rel);
  }
  if (tracked && reused) markGitIds(state, tracked.entries); // reused git ids: are they still the index's?
  if (gw)
    state.gitCache = {
      ...cacheRecord(state, tracked!.key, tracked!.entries, rules, opts.limits),
      ...(gw.skipped.length ? { skipped: gw.skipped } : {}),
    };
  let copied = 0;
  const deadline = t0 + opts.budgetMs;
  for (const rel of todo) {
    if (Date.now() > deadline) break;
    if (copyPending(state, rel, opts)) copied++;
  }
  return { state, files: state.files.size, pending: todo.length - copied, copied, fromGit, reused, index, ms: Date.now() - t0 };
}

function sameGit(a: ScanState['git'], b: ScanState['git']): boolean {
  return (a?.top ?? null) === (b?.top ?? null) && (a?.gitDir ?? null) === (b?.gitDir ?? null);
}

/** Copies one pending file's content into the store. False when it vanished (dropped from the state). */
export function copyPending(state: ScanState, rel: string, opts: ScanOptions): boolean {
  const e = state.files.get(rel);
  if (!e || !(e.flags & F_PENDING)) return false;
  const abs = path.join(state.root, rel);
  const st = lstat(abs);
  const r =
    st && (st.isFile() || st.isSymbolicLink()) ? readNow(abs, entryFromStat(st, Date.now(), opts.racyMs ?? RACY_MS), opts.limits) : null;
  if (!r) {
    state.files.delete(rel);
    return false;
  }
  if (r.data) r.entry.hash = quickPut(opts.storeDir, r.data);
  // The stat the content was read at: the next scan compares against it.
  r.entry.flags |= e.flags & F_RACY;
  state.files.set(rel, r.entry);
  return true;
}

/** Copies every pending file (before a command runs: its old content must be in the store). */
export function finishPending(state: ScanState, opts: ScanOptions): number {
  if (state.pendingAtLoad === 0) return 0;
  const todo = pendingPaths(state);
  let n = 0;
  for (const rel of todo) if (copyPending(state, rel, opts)) n++;
  return n;
}

function pendingPaths(state: ScanState): string[] {
  const t = state.files;
  const out: string[] = [];
  for (let i = 0; i < t.rows; i++) if (t.isLive(i) && t.flagsAt(i) & F_PENDING) out.push(t.pathAt(i));
  for (const [rel, e] of t.added()) if (e.flags & F_PENDING) out.push(rel);
  return out;
}

export function pendingCount(state: ScanState): number {
  return pendingPaths(state).length;
}

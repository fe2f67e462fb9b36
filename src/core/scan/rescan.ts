// The scan of a shell command's changes (`rescan`): everything that changed since the state was
// taken, with the state updated in place; and keeping the state's list of watched tracked paths
// and of the folders that went away.
import * as path from 'node:path';
import { sha256 } from '../storeFiles/blobs';
import { gitBlobId } from '../git/objects';
import type { Rules } from './ignore';
import { entryFromStat, lstat, readNow, sameEntryStat, sameStat } from './entries';
import { type Assist, excludedByUs, startGitAssist } from './gitAssist';
import { fromGit, type Incremental, incremental, under } from './incremental';
import { narrowTo } from './narrow';
import { quickPut } from './references';
import { type DirStat, DirTable, type Entry, type Peek, peekOf } from './table';
import { newPeek, trackedPaths } from './tracked';
import {
  type Change,
  F_LARGE,
  F_LINK,
  F_NOGIT,
  F_PENDING,
  F_RACY,
  RACY_MS,
  type ScanLimits,
  type ScanOptions,
  type ScanResult,
  type ScanState,
} from './types';
import { ruleFilesChanged, rulesOfState, walk, type Walked } from './walker';

/** An entry whose content git's stat check can vouch for: a clean git blob, checked against the current index. */
function gitVouchable(p: Peek): boolean {
  return p.hasGit && !p.hasHash && (p.flags & (F_RACY | F_PENDING | F_LARGE | F_NOGIT)) === 0;
}

/**
 * Keeps `gitCache.watch` the tracked paths that are not in the state: drops the ones that came
 * back, adds the tracked ones just deleted. True when it changed.
 */
function updateWatch(state: ScanState, gone: readonly string[], rules: Rules, limits: ScanLimits): boolean {
  const c = state.gitCache!;
  const watch = c.watch.filter((p) => !state.files.has(p));
  const deleted = gone.filter((p) => !state.files.has(p));
  if (deleted.length) {
    const tracked = trackedPaths(state);
    const known = new Set(watch);
    for (const p of deleted) if ((!tracked || tracked.has(p)) && !known.has(p) && !excludedByUs(state, rules, limits, p)) watch.push(p);
  }
  if (watch.length === c.watch.length && watch.every((p, i) => p === c.watch[i])) return false;
  state.gitCache = { ...c, watch };
  return true;
}

/** Folders (known to the state) that are gone with the files deleted from them, and every known folder below those. */
function goneFolders(state: ScanState, gone: readonly string[], already: readonly string[]): string[] {
  const base = state.root + path.sep;
  const seen = new Set(already);
  const tops: string[] = [];
  for (const rel of gone) {
    let gap = '';
    for (let i = rel.lastIndexOf('/'); i > 0; i = rel.lastIndexOf('/', i - 1)) {
      const d = rel.slice(0, i);
      if (seen.has(d)) break;
      seen.add(d);
      if (!state.dirs.has(d)) continue;
      if (lstat(base + d)?.isDirectory()) break;
      gap = d;
    }
    if (gap) tops.push(gap);
  }
  if (!tops.length) return [];
  const out: string[] = [];
  for (const [d] of state.dirs) if (!already.includes(d) && tops.some((t) => under(d, t))) out.push(d);
  return out;
}

/** One rescan as it runs: what it was asked, and its running totals. */
interface Pass {
  state: ScanState;
  opts: ScanOptions;
  limits: ScanLimits;
  scanStart: number;
  racyMs: number;
  /** The root with a separator: a relative path appended makes the absolute one. */
  base: string;
  changes: Change[];
  read: number;
  statted: number;
  dirty: boolean;
  /** Known files not found (deleted, or no longer a file). */
  gone: string[];
}

/**
 * The way this scan goes: narrowed to a watcher's paths, incremental from the folders' stats (with git's
 * help where it answers), or (null) a whole walk.
 */
function chooseWay(state: ScanState, opts: ScanOptions, rules: Rules, scanStart: number, racyMs: number) {
  const limits = opts.limits;
  const canInc = state.dirTimes && state.dirs.has('') && !ruleFilesChanged(state);
  const narrow = canInc && opts.changed ? narrowTo(state, opts.changed) : null;
  const gitJob = canInc && !narrow && opts.useGit !== false ? startGitAssist(state, opts, rules) : null;
  let inc: Incremental | null = null;
  let assist: Assist | null = null;
  if (narrow) inc = incremental(state, rules, limits, scanStart, racyMs, undefined, narrow.dirs);
  else if (gitJob?.cached) {
    assist = gitJob.finish();
    inc = assist?.untracked
      ? fromGit(state, rules, limits, assist.untracked, scanStart, racyMs)
      : incremental(state, rules, limits, scanStart, racyMs);
  } else if (canInc) {
    inc = incremental(state, rules, limits, scanStart, racyMs);
    if (!inc) gitJob?.cancel();
    else if (gitJob) assist = gitJob.finish();
  }
  return { narrow, gitJob, inc, assist };
}

/**
 * A file read again has the content the state recorded (our hash, else git's id): the state takes
 * the new stat, and only a moved executable bit is a change. False: the content differs.
 */
function sameContent(x: Pass, rel: string, prev: Entry, e: Entry, data: Buffer): boolean {
  const { state, opts } = x;
  const format = state.git?.objectFormat ?? 'sha1';
  const same = prev.hash ? sha256(data) === prev.hash : prev.git ? gitBlobId(data, format) === prev.git : false;
  if (!same) return false;
  e.hash = prev.hash;
  e.git = prev.git;
  e.flags |= prev.flags & F_NOGIT;
  // `chmod +x`: the same bytes, but executable now (or no longer) is a change a rewind undoes.
  const modeMoved = !(e.flags & F_LINK) && (prev.mode & 0o111) !== (e.mode & 0o111);
  // Known by git's id only: the `after` needs the content in the store, and git's index
  // (still the old mode) can no longer vouch for the file — our own stat checks it from now on.
  if (modeMoved && !e.hash) e.hash = opts.storeContent ? quickPut(opts.storeDir, data) : sha256(data);
  if (!sameEntryStat(prev, e) || prev.flags !== e.flags || prev.mode !== e.mode || prev.hash !== e.hash) {
    state.files.set(rel, e);
    x.dirty = true;
  }
  if (modeMoved) x.changes.push({ path: rel, before: prev, after: e, data });
  return true;
}

/** A file whose stat moved (or that is new): read, compared with the state, and a change when it is one. */
function visit(x: Pass, rel: string, cur: Entry): void {
  const { state, opts, limits } = x;
  const prev = state.files.get(rel);
  if (prev && sameEntryStat(prev, cur) && !(prev.flags & (F_RACY | F_PENDING))) return;
  if (prev && prev.flags & F_LARGE && cur.size > limits.maxFileBytes && sameEntryStat(prev, cur)) return;
  x.read++;
  const r = readNow(x.base + rel, cur, limits);
  if (!r) return; // vanished or unreadable between the stat and the read: looked at again next time
  const e = r.entry;
  if (r.data) {
    const comparable = prev && !(prev.flags & F_PENDING) && !(prev.flags & F_LARGE) && !!(prev.flags & F_LINK) === !!(e.flags & F_LINK);
    if (comparable && sameContent(x, rel, prev, e, r.data)) return;
    e.hash = opts.storeContent ? quickPut(opts.storeDir, r.data) : sha256(r.data);
  }
  x.dirty = true;
  state.files.set(rel, e);
  if (prev && prev.flags & F_PENDING) return; // a baseline copy finished now: the content is the state before, not a change
  // Was there all along, outside the scan until now — unless a folder above it is new since (moved
  // in: `mv dir elsewhere/` keeps its files' ctimes, yet the command made them appear here).
  if (!prev && opts.existedBefore !== undefined && cur.ctime < opts.existedBefore && !movedIn(state, rel, opts.existedBefore)) return;
  x.changes.push({ path: rel, before: prev ?? null, after: e, data: r.data });
}

/**
 * Every known file by its stat (git's, for the clean tracked ones it vouches for), then the new ones
 * the changed folders hold. Rows are read from the table's columns: no objects.
 */
function checkKnown(x: Pass, inc: Incremental, narrow: { files: Iterable<string> } | null, assist: Assist | null): void {
  const t = x.state.files;
  const pk = newPeek();
  const check = (rel: string, p: Peek) => {
    if (assist && gitVouchable(p) && !assist.modified.has(rel)) return;
    x.statted++;
    const st = lstat(x.base + rel);
    if (!st || !(st.isFile() || st.isSymbolicLink())) {
      x.gone.push(rel);
      return;
    }
    if (sameStat(p, st) && !(p.flags & (F_RACY | F_PENDING))) return;
    visit(x, rel, entryFromStat(st, x.scanStart, x.racyMs));
  };
  if (narrow) {
    for (const rel of narrow.files) {
      const e = t.get(rel);
      if (e) check(rel, peekOf(e, pk));
    }
  } else {
    for (let i = 0; i < t.rows; i++) if (t.isLive(i)) check(t.pathAt(i), t.peek(i, pk));
    for (const [rel, e] of [...t.added()]) check(rel, peekOf(e, pk));
  }
  for (const [rel, cur] of inc.fresh) visit(x, rel, cur);
}

/** Known files not found: deleted (a change), or now ignored (out of scope). */
function dropGone(x: Pass): void {
  for (const rel of x.gone) {
    const prev = x.state.files.get(rel);
    if (!prev) continue;
    const st = lstat(x.base + rel);
    x.state.files.delete(rel);
    x.dirty = true;
    if (st && (st.isFile() || st.isSymbolicLink())) continue; // now ignored: out of scope, not deleted
    if (prev.flags & F_PENDING) continue; // never captured: nothing to restore
    x.changes.push({ path: rel, before: prev, after: null });
  }
}

/** The incremental scan's folder changes, into the state; returns the folders known before it. */
function applyDirUpdates(x: Pass, inc: Incremental): { has(rel: string): boolean } {
  const state = x.state;
  if (!inc.dirUpdates.size && !inc.goneDirs.length) return state.dirs;
  // Updated in place; what was known before stays answerable for the snapshots' `dirs`.
  const table = state.dirs;
  const added = new Set<string>();
  const removed = new Set<string>();
  for (const d of inc.goneDirs) if (table.delete(d)) removed.add(d);
  for (const [d, s] of inc.dirUpdates) {
    const old = table.get(d);
    if (!old) added.add(d);
    if (!old || old.racy !== s.racy || !sameDirStat(old, s)) x.dirty = true;
    table.set(d, s);
  }
  if (removed.size) x.dirty = true;
  if (Object.keys(inc.newIgnoreFiles).length) {
    Object.assign(state.ignoreFiles, inc.newIgnoreFiles);
    x.dirty = true;
  }
  return { has: (rel: string) => removed.has(rel) || (!added.has(rel) && table.has(rel)) };
}

/** A whole walk's folders and ignore files replace the state's; returns the folders known before it. */
function applyWalkedDirs(x: Pass, w: Walked): { has(rel: string): boolean } {
  const state = x.state;
  const prevDirs = state.dirs;
  if (!sameDirs(state.dirs, w.dirs) || !sameKeys(state.ignoreFiles, w.ignoreFiles)) x.dirty = true;
  state.dirs = new DirTable(w.dirs);
  state.ignoreFiles = w.ignoreFiles;
  return prevDirs;
}

/**
 * Scans the workspace against `state`, updates it in place, and returns what changed since it was
 * taken. Files whose stat did not change (and were not racy) are not read; folders whose stat did
 * not change are not listed.
 */
export function rescan(state: ScanState, opts: ScanOptions): ScanResult {
  const scanStart = Date.now();
  const racyMs = opts.racyMs ?? RACY_MS;
  const limits = opts.limits;
  const rules = rulesOfState(state, limits);
  const way = chooseWay(state, opts, rules, scanStart, racyMs);
  const { narrow, gitJob, inc } = way;
  let assist = way.assist;
  let prevDirs: { has(rel: string): boolean } = state.dirs;
  const result = (r: Partial<ScanResult>): ScanResult => ({
    changes: [],
    read: 0,
    statted: 0,
    files: 0,
    listed: 0,
    walked: !inc,
    git: false,
    cached: false,
    dirty: false,
    prevDirs,
    ...r,
  });
  if (inc?.tooMany !== undefined) {
    if (!gitJob?.cached) gitJob?.cancel();
    return result({ files: inc.tooMany, listed: inc.listed, tooMany: { count: inc.tooMany } });
  }
  let w: Walked | null = null;
  if (!inc) {
    w = walk(state.root, rules, limits, state, { tracked: trackedPaths(state), scanStart, racyMs });
    if (w.tooMany) return result({ files: w.count, listed: w.dirs.size, tooMany: { count: w.count } });
  }
  if (!inc) assist = null;
  const base = state.root + path.sep;
  const x: Pass = {
    state,
    opts,
    limits,
    scanStart,
    racyMs,
    base,
    changes: [],
    read: 0,
    statted: 0,
    dirty: !!gitJob?.dirty || !!inc?.cacheChanged,
    gone: [],
  };
  if (inc) checkKnown(x, inc, narrow, assist);
  else {
    x.statted = w!.files.size;
    for (const [rel, cur] of w!.files) visit(x, rel, cur);
    for (const rel of state.files.keys()) if (!w!.files.has(rel)) x.gone.push(rel);
  }
  dropGone(x);
  // Git did not look at folders for us: the ones the deletions emptied away are found here.
  if (inc && assist?.untracked) inc.goneDirs.push(...goneFolders(state, x.gone, inc.goneDirs));
  if (state.gitCache && (x.gone.length || inc?.fresh.size)) x.dirty = updateWatch(state, x.gone, rules, limits) || x.dirty;
  prevDirs = inc ? applyDirUpdates(x, inc) : applyWalkedDirs(x, w!);
  // Without git the scan lists every folder it covers: one the state did not know was not there
  // before this command (birth times are not consulted: file times lag Date.now() by a tick). With
  // git (which lists no empty folder) one the state did not know but that was born before the
  // last scan was there before it: a rewind must not remove it.
  const known = prevDirs;
  const since = state.scanned;
  if (state.git) prevDirs = { has: (rel: string) => known.has(rel) || bornBefore(base + rel, since) };
  state.scanned = scanStart;
  x.changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return result({
    changes: x.changes,
    read: x.read,
    statted: x.statted,
    files: state.files.size,
    listed: inc ? inc.listed : state.dirs.size,
    git: !!assist,
    cached: !!assist?.untracked,
    ...(narrow && inc ? { narrowed: true, alone: narrow.alone, uncovered: narrow.uncovered } : {}),
    dirty: x.dirty,
  });
}

/**
 * Did `rel` arrive with a folder that was moved (or made) after `since`? Its first ancestor the
 * state knew as the same folder (same inode) ends the search; a newer one in between says yes.
 */
function movedIn(state: ScanState, rel: string, since: number): boolean {
  const base = state.root + path.sep;
  for (let i = rel.lastIndexOf('/'); i > 0; i = rel.lastIndexOf('/', i - 1)) {
    const d = rel.slice(0, i);
    const st = lstat(base + d);
    if (!st) return false;
    const known = state.dirs.get(d);
    if (known && (known.ino === 0 || known.ino === st.ino)) return false;
    if (st.ctimeMs >= since) return true;
  }
  return false;
}

/**
 * Made before `time` (a scan's start, by Date.now()), by its birth time (0 where there is none:
 * never before). No margin for the kernel's coarse file clock (a tick behind Date.now()): a margin
 * moves the boundary onto folders made shortly before the scan (a folder the command then moves
 * keeps that birth), and whether one falls on either side of it depends on scheduling — the
 * recorder-level differential's git variant failed 3 runs in 37 with 50 ms. A folder moved into
 * place keeps its birth time: it counts as there before.
 */
function bornBefore(abs: string, time: number): boolean {
  const bt = lstat(abs)?.birthtimeMs;
  return !!bt && bt < time;
}

function sameDirStat(a: DirStat, b: DirStat): boolean {
  return a.mtime === b.mtime && a.ctime === b.ctime && a.ino === b.ino;
}

function sameDirs(a: DirTable, b: Map<string, DirStat>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, s] of a) {
    const t = b.get(k);
    if (!t || t.racy !== s.racy || !sameDirStat(s, t)) return false;
  }
  return true;
}

function sameKeys(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => a[k] === b[k]);
}

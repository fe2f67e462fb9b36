// Workspace scan with a stat cache, for shell-made file changes (DESIGN §3, §4).
//
// The scan state (`<store>/scan/<session>.json`, written atomically) maps every file of the
// workspace that is not ignored to its stat (size, mtime, ctime, inode, mode) and to where its
// content can be found: a blob in our store (sha256) or, for a file that was clean in git when we
// looked, its git blob id — git already stores that content, so we copy it out (`git cat-file
// --batch`) only when a command changes the file. A scan stats every file (readdir with file types,
// ignored folders skipped before they are entered) and reads only files whose stat changed, or
// whose stat was taken so close to a write that the file system's timestamp granularity could hide
// a second one ("racy" entries, as git calls them).
//
// Content copied into the store by a scan is written without fsync (most of it is never needed);
// before a timeline line refers to such a blob it is re-verified and fsynced (`durableBlob`).
import type * as Crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitBlobId, gitStatus, indexEntries, modifiedTracked, type RepoInfo, repoInfo } from './gitObjects';
import { ALWAYS_SKIP, dirMatcher, isIgnored, type Matcher, type Rules, rulesFor } from './ignore';
import { readDisk } from './disk';

let cr: typeof Crypto | undefined;
function crypto(): typeof Crypto {
  return (cr ??= require('node:crypto') as typeof Crypto);
}
function sha256(data: Uint8Array): string {
  return crypto().createHash('sha256').update(data).digest('hex');
}

/** Entries whose mtime/ctime is this close to the scan are re-read next time (timestamp granularity). */
export const RACY_MS = 2000;

export const F_LINK = 1;
export const F_LARGE = 2;
/** Content not captured yet (baseline copy still to do). */
export const F_PENDING = 4;
export const F_RACY = 8;

/** One file: stat, content (sha256 in our store and/or git blob id), flags. */
export interface Entry {
  size: number;
  mtime: number;
  ctime: number;
  ino: number;
  mode: number;
  hash: string | null;
  git: string | null;
  flags: number;
}

type EntryTuple = [number, number, number, number, number, string | null, string | null, number];

export interface ScanState {
  v: 1;
  root: string;
  session: string;
  created: number;
  /** When the last scan started (ms). */
  scanned: number;
  git: Pick<RepoInfo, 'top' | 'gitDir' | 'objectFormat' | 'filters' | 'excludesFile'> | null;
  /** Capture is off for this session: why, and what to do about it. */
  off?: { reason: 'too-many-files'; files: number; limit: number; message: string };
  /** A shell call between its PreToolUse scan and its PostToolUse scan. */
  pending?: { call: string; tool: string; time: number; session: string };
  /** Stat key of the git index at the last full walk: while it is unchanged, `git status` finds changes (no walk). */
  indexKey?: string;
  files: Map<string, Entry>;
  dirs: Set<string>;
  /** `.gitignore` files met in the tree (relative path → stat key), and the rule files above it. */
  ignoreFiles: Record<string, string>;
}

export interface ScanLimits {
  maxFiles: number;
  maxFileBytes: number;
  excludes: readonly string[];
  /** Never scanned (the store itself, when it lives inside the workspace). */
  skipAbs: readonly string[];
}

// ---- state file

export function stateFile(storeDir: string, session: string): string {
  const safe = session.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || 'session';
  return path.join(storeDir, 'scan', `${safe}.json`);
}

export function loadState(file: string): ScanState | null {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (raw.v !== 1 || typeof raw.root !== 'string') return null;
  const files = new Map<string, Entry>();
  for (const [p, t] of Object.entries((raw.files ?? {}) as Record<string, EntryTuple>)) {
    if (!Array.isArray(t) || t.length < 8) continue;
    files.set(p, { size: t[0], mtime: t[1], ctime: t[2], ino: t[3], mode: t[4], hash: t[5], git: t[6], flags: t[7] });
  }
  return {
    v: 1,
    root: raw.root,
    session: String(raw.session ?? ''),
    created: Number(raw.created ?? 0),
    scanned: Number(raw.scanned ?? 0),
    git: (raw.git as ScanState['git']) ?? null,
    ...(raw.off ? { off: raw.off as ScanState['off'] } : {}),
    ...(readPending(file) ? { pending: readPending(file)! } : {}),
    ...(typeof raw.indexKey === 'string' ? { indexKey: raw.indexKey } : {}),
    files,
    dirs: new Set(Array.isArray(raw.dirs) ? (raw.dirs as string[]) : []),
    ignoreFiles: (raw.ignoreFiles as Record<string, string>) ?? {},
  };
}

export function saveState(file: string, s: ScanState): void {
  const files: Record<string, EntryTuple> = {};
  for (const [p, e] of s.files) files[p] = [e.size, e.mtime, e.ctime, e.ino, e.mode, e.hash, e.git, e.flags];
  const json = JSON.stringify({
    v: 1,
    root: s.root,
    session: s.session,
    created: s.created,
    scanned: s.scanned,
    git: s.git,
    ...(s.off ? { off: s.off } : {}),
    ...(s.indexKey ? { indexKey: s.indexKey } : {}),
    ignoreFiles: s.ignoreFiles,
    dirs: [...s.dirs],
    files,
  });
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  fs.writeFileSync(tmp, json, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

// The in-flight call lives in a small file beside the state, so a scan that found nothing to
// change does not rewrite the (large) state.
function pendingFile(file: string): string {
  return file.replace(/\.json$/, '') + '.pending';
}

function readPending(file: string): ScanState['pending'] | null {
  try {
    return JSON.parse(fs.readFileSync(pendingFile(file), 'utf8')) as ScanState['pending'];
  } catch {
    return null;
  }
}

export function savePending(file: string, pending: ScanState['pending'] | null): void {
  const pf = pendingFile(file);
  if (!pending) {
    try {
      fs.unlinkSync(pf);
    } catch {
      /* none */
    }
    return;
  }
  const tmp = `${pf}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(pending), { mode: 0o600 });
  fs.renameSync(tmp, pf);
}

// ---- blobs without fsync, made durable on demand

function blobPath(storeDir: string, hash: string): string {
  return path.join(storeDir, 'objects', hash.slice(0, 2), hash.slice(2));
}

/** Stores `data` under its sha256 (tmp + rename, no fsync: see durableBlob). */
export function quickPut(storeDir: string, data: Uint8Array, hash = sha256(data)): string {
  const dest = blobPath(storeDir, hash);
  if (fs.existsSync(dest)) return hash;
  const tmpDir = path.join(storeDir, 'objects', 'tmp');
  fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
  fs.mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
  const tmp = path.join(tmpDir, `${hash.slice(0, 16)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}`);
  fs.writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
  fs.renameSync(tmp, dest);
  return hash;
}

/** Verifies a blob written by quickPut and fsyncs it, before a timeline line refers to it. */
export function durableBlob(storeDir: string, hash: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(blobPath(storeDir, hash), 'r');
  } catch {
    return false;
  }
  try {
    const data = fs.readFileSync(fd);
    if (sha256(data) !== hash) return false;
    fs.fsyncSync(fd);
    return true;
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

// ---- walking

interface Walked {
  files: Map<string, fs.Stats>;
  dirs: Set<string>;
  ignoreFiles: Record<string, string>;
  tooMany: boolean;
  count: number;
}

function statKey(st: fs.Stats): string {
  return `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
}

/**
 * Every file under `root` that is not ignored, with its lstat. Ignore rules are tested only for
 * paths `prev` does not know, unless a rule file changed above them.
 */
export function walk(root: string, rules: Rules, limits: ScanLimits, prev: Pick<ScanState, 'files' | 'dirs' | 'ignoreFiles'> | null): Walked {
  const files = new Map<string, fs.Stats>();
  const dirs = new Set<string>();
  const ignoreFiles: Record<string, string> = {};
  let rootDirty = !prev;
  for (const f of rules.baseFiles) {
    const st = fs.statSync(f, { throwIfNoEntry: false });
    const key = st ? statKey(st) : '-';
    ignoreFiles[`<${f}>`] = key;
    if (prev && prev.ignoreFiles[`<${f}>`] !== key) rootDirty = true;
  }
  const skip = new Set(limits.skipAbs);
  const stack: { abs: string; rel: string; matchers: Matcher[]; dirty: boolean }[] = [{ abs: root, rel: '', matchers: rules.base, dirty: rootDirty }];
  let count = 0;
  while (stack.length) {
    const d = stack.pop()!;
    let ents: fs.Dirent[];
    try {
      ents = fs.readdirSync(d.abs, { withFileTypes: true });
    } catch {
      continue;
    }
    let matchers = d.matchers;
    let dirty = d.dirty;
    const giRel = d.rel ? `${d.rel}/.gitignore` : '.gitignore';
    const gi = ents.find((e) => e.name === '.gitignore' && (e.isFile() || e.isSymbolicLink()));
    if (gi) {
      const st = fs.statSync(path.join(d.abs, '.gitignore'), { throwIfNoEntry: false });
      const key = st ? statKey(st) : '-';
      ignoreFiles[giRel] = key;
      if (prev && prev.ignoreFiles[giRel] !== key) dirty = true;
      matchers = [...matchers, dirMatcher(d.abs, d.rel)];
    } else if (prev && prev.ignoreFiles[giRel] !== undefined) dirty = true;
    for (const e of ents) {
      const name = e.name;
      const rel = d.rel ? `${d.rel}/${name}` : name;
      const abs = path.join(d.abs, name);
      let isDir = e.isDirectory();
      let isFile = e.isFile() || e.isSymbolicLink();
      let st: fs.Stats | undefined;
      if (!isDir && !isFile && !e.isFIFO() && !e.isSocket() && !e.isBlockDevice() && !e.isCharacterDevice()) {
        st = fs.lstatSync(abs, { throwIfNoEntry: false }); // file systems that do not report types
        if (!st) continue;
        isDir = st.isDirectory();
        isFile = st.isFile() || st.isSymbolicLink();
      }
      if (isDir) {
        if (ALWAYS_SKIP.has(name) || skip.has(abs)) continue;
        if ((dirty || !prev?.dirs.has(rel)) && isIgnored(rules, matchers, rel, true)) continue;
        dirs.add(rel);
        stack.push({ abs, rel, matchers, dirty });
        continue;
      }
      if (!isFile) continue;
      if ((dirty || !prev?.files.has(rel)) && isIgnored(rules, matchers, rel, false)) continue;
      st ??= fs.lstatSync(abs, { throwIfNoEntry: false });
      if (!st || !(st.isFile() || st.isSymbolicLink())) continue;
      if (++count > limits.maxFiles) return { files, dirs, ignoreFiles, tooMany: true, count };
      files.set(rel, st);
    }
  }
  return { files, dirs, ignoreFiles, tooMany: false, count };
}

function sameStat(e: Entry, st: fs.Stats): boolean {
  return e.size === st.size && e.mtime === st.mtimeMs && e.ctime === st.ctimeMs && e.ino === st.ino;
}

function racy(st: { mtimeMs: number; ctimeMs: number }, scanStart: number, racyMs: number): boolean {
  return Math.max(st.mtimeMs, st.ctimeMs) > scanStart - racyMs;
}

function entryFromStat(st: fs.Stats, scanStart: number, racyMs = RACY_MS): Entry {
  return {
    size: st.size,
    mtime: st.mtimeMs,
    ctime: st.ctimeMs,
    ino: st.ino,
    mode: st.mode & 0o7777,
    hash: null,
    git: null,
    flags: (st.isSymbolicLink() ? F_LINK : 0) | (racy(st, scanStart, racyMs) ? F_RACY : 0),
  };
}

/** The content of a workspace path now: bytes (file or link target) with the stat they were read at. */
export interface Read {
  data: Buffer | null;
  entry: Entry;
}

function readNow(abs: string, st: fs.Stats, limits: ScanLimits, scanStart: number, racyMs = RACY_MS): Read | null {
  const r = readDisk(abs, limits.maxFileBytes);
  const e = entryFromStat(st, scanStart, racyMs);
  switch (r.kind) {
    case 'file':
      e.size = r.size;
      e.mtime = r.mtime;
      e.mode = r.mode;
      return { data: r.data, entry: e };
    case 'symlink':
      e.flags |= F_LINK;
      return { data: r.data, entry: e };
    case 'too-large':
      e.flags |= F_LARGE;
      e.size = r.size;
      e.mtime = r.mtime;
      return { data: null, entry: e };
    default:
      return null; // gone, unreadable or special: not a file we track
  }
}

// ---- the scan itself

export interface Change {
  path: string; // relative to the root, `/`-separated
  before: Entry | null;
  after: Entry | null;
  /** The new content (for `after`), already read. */
  data?: Buffer | null;
}

export interface ScanResult {
  changes: Change[];
  /** Paths whose content had to be read (stat changed, racy, or new). */
  read: number;
  files: number;
  /** The state changed and must be saved. */
  dirty: boolean;
  /** The folders known before this scan (to tell which folders a command created). */
  prevDirs: Set<string>;
  tooMany?: { count: number };
}

export interface ScanOptions {
  storeDir: string;
  limits: ScanLimits;
  /** Content of new and changed files is stored (quickPut) so a later command's `before` can use it. */
  storeContent: boolean;
  /** New paths whose ctime is older than this existed before (e.g. a rule stopped ignoring them): not created now. */
  existedBefore?: number;
  /** The timestamp-granularity window (default RACY_MS; tests use less). */
  racyMs?: number;
}

/** Builds the ignore rules of a state's root. */
export function rulesOfState(s: Pick<ScanState, 'root' | 'git'>, limits: ScanLimits): Rules {
  return rulesFor({
    root: s.root,
    ...(s.git ? { repoTop: s.git.top, gitDir: s.git.gitDir, excludesFile: s.git.excludesFile } : {}),
    excludes: limits.excludes,
  });
}

/**
 * Scans the workspace against `state`, updates it in place, and returns what changed since it was
 * taken. Files whose stat did not change (and were not racy) are not read.
 */
function indexKeyOf(state: Pick<ScanState, 'git'>): string | undefined {
  if (!state.git) return undefined;
  const st = fs.statSync(path.join(state.git.gitDir, 'index'), { throwIfNoEntry: false });
  return st ? statKey(st) : '-';
}

/**
 * The fast path in a git repository whose index did not change since the last full walk: the
 * candidates are what `git status` reports (its stat loop is native and uses git's own cache) plus
 * every entry that is not a clean git file. Null when git cannot answer (then we walk).
 */
function gitCandidates(state: ScanState, limits: ScanLimits): Walked | null {
  if (!state.git || !state.indexKey || indexKeyOf(state) !== state.indexKey) return null;
  const r = gitStatus(state.root);
  if (!r) return null;
  const top = state.git.top;
  const prefix = path.relative(top, state.root).split(path.sep).join('/');
  const files = new Map<string, fs.Stats>();
  const rules = rulesOfState(state, limits);
  const skip = limits.skipAbs.map((d) => path.relative(state.root, d).split(path.sep).join('/'));
  const consider = (rel: string) => {
    if (files.has(rel)) return;
    const parts = rel.split('/');
    if (parts.some((p) => ALWAYS_SKIP.has(p)) || skip.some((d) => d && (rel === d || rel.startsWith(d + '/')))) return;
    if (!state.files.has(rel) && rules.forced && isIgnored(rules, [], rel, false)) return;
    const st = fs.lstatSync(path.join(state.root, ...parts), { throwIfNoEntry: false });
    if (st && (st.isFile() || st.isSymbolicLink())) files.set(rel, st);
    else files.set(rel, null as unknown as fs.Stats); // gone (or a folder now): checked as a deletion
  };
  for (const p of r) {
    const rel = prefix ? (p.startsWith(prefix + '/') ? p.slice(prefix.length + 1) : null) : p;
    if (rel) consider(rel);
  }
  for (const [rel, e] of state.files) if (!e.git || e.hash || e.flags & (F_RACY | F_PENDING | F_LARGE)) consider(rel);
  if (files.size > limits.maxFiles) return null;
  return { files, dirs: state.dirs, ignoreFiles: state.ignoreFiles, tooMany: false, count: files.size };
}

export function rescan(state: ScanState, opts: ScanOptions): ScanResult {
  const scanStart = Date.now();
  const fast = gitCandidates(state, opts.limits);
  const w = fast ?? walk(state.root, rulesOfState(state, opts.limits), opts.limits, state);
  if (w.tooMany) return { changes: [], read: 0, files: w.count, dirty: false, prevDirs: state.dirs, tooMany: { count: w.count } };
  if (!fast && state.git) state.indexKey = indexKeyOf(state);
  const changes: Change[] = [];
  let read = 0;
  let dirty = false;
  const format = state.git?.objectFormat ?? 'sha1';
  for (const [rel, st] of w.files) {
    if (!st) continue; // the fast path's deletion candidates: below
    const prev = state.files.get(rel);
    if (prev && sameStat(prev, st) && !(prev.flags & (F_RACY | F_PENDING))) continue;
    const abs = path.join(state.root, rel);
    if (prev && (prev.flags & F_LARGE) && st.size > opts.limits.maxFileBytes && sameStat(prev, st)) continue;
    read++;
    const r = readNow(abs, st, opts.limits, scanStart, opts.racyMs);
    if (!r) continue;
    const e = r.entry;
    if (r.data) {
      if (prev && !(prev.flags & F_PENDING) && !(prev.flags & F_LARGE) && !!(prev.flags & F_LINK) === !!(e.flags & F_LINK)) {
        // Same content as recorded? Compare with what we know (our hash, else git's id).
        const same = prev.hash ? sha256(r.data) === prev.hash : prev.git ? gitBlobId(r.data, format) === prev.git : false;
        if (same) {
          e.hash = prev.hash;
          e.git = prev.git;
          if (!sameStat(prev, st) || prev.flags !== e.flags || prev.mode !== e.mode) {
            state.files.set(rel, e);
            dirty = true;
          }
          continue;
        }
      }
      e.hash = opts.storeContent ? quickPut(opts.storeDir, r.data) : sha256(r.data);
    }
    dirty = true;
    if (prev && prev.flags & F_PENDING) {
      // A baseline copy finished now: the content is the state before, not a change.
      state.files.set(rel, e);
      continue;
    }
    if (!prev && opts.existedBefore !== undefined && st.ctimeMs < opts.existedBefore) {
      state.files.set(rel, e); // was there all along, outside the scan until now
      continue;
    }
    state.files.set(rel, e);
    changes.push({ path: rel, before: prev ?? null, after: e, data: r.data });
  }
  const gone = fast ? [...w.files].filter(([, st]) => !st).map(([rel]) => rel) : [...state.files.keys()].filter((rel) => !w.files.has(rel));
  for (const rel of gone) {
    const prev = state.files.get(rel);
    if (!prev) continue;
    const st = fs.lstatSync(path.join(state.root, rel), { throwIfNoEntry: false });
    state.files.delete(rel);
    dirty = true;
    if (st && (st.isFile() || st.isSymbolicLink())) continue; // now ignored: out of scope, not deleted
    if (prev.flags & F_PENDING) continue; // never captured: nothing to restore
    changes.push({ path: rel, before: prev, after: null });
  }
  if (!fast && !sameSet(state.dirs, w.dirs)) dirty = true;
  const prevDirs = state.dirs;
  if (fast) {
    // No walk: folders of new files are added to what we know.
    state.dirs = new Set(prevDirs);
    for (const c of changes) if (!c.before) for (let p = path.posix.dirname(c.path); p !== '.'; p = path.posix.dirname(p)) state.dirs.add(p);
    if (changes.some((c) => c.path === '.gitignore' || c.path.endsWith('/.gitignore'))) delete state.indexKey; // walk next time
  } else {
    state.dirs = w.dirs;
    state.ignoreFiles = w.ignoreFiles;
  }
  state.scanned = scanStart;
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { changes, read, files: w.files.size, dirty, prevDirs };
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

export interface BaselineResult {
  state: ScanState;
  files: number;
  /** Files whose content still has to be copied (budget ran out). */
  pending: number;
  copied: number;
  fromGit: number;
  reused: number;
  ms: number;
  tooMany?: { count: number };
}

/**
 * The session's baseline: stat every file; in a git repository take the blob id of every clean
 * tracked file from the index (no copy); reuse a previous state's entries whose stat is unchanged;
 * copy the rest (dirty and untracked files) into the store, within `budgetMs` — what is left is
 * marked pending and copied by the next scan, before the next command runs.
 */
export function baseline(root: string, session: string, opts: ScanOptions & { budgetMs: number; reuse?: ScanState | null }): BaselineResult {
  const t0 = Date.now();
  const info = repoInfo(root);
  const state: ScanState = {
    v: 1,
    root,
    session,
    created: t0,
    scanned: t0,
    git: info ? { top: info.top, gitDir: info.gitDir, objectFormat: info.objectFormat, filters: info.filters, excludesFile: info.excludesFile } : null,
    files: new Map(),
    dirs: new Set(),
    ignoreFiles: {},
  };
  const rules = rulesOfState(state, opts.limits);
  const reuse = opts.reuse && opts.reuse.root === root ? opts.reuse : null;
  const w = walk(root, rules, opts.limits, reuse && sameGit(reuse.git, state.git) ? reuse : null);
  if (w.tooMany) return { state, files: w.count, pending: 0, copied: 0, fromGit: 0, reused: 0, ms: Date.now() - t0, tooMany: { count: w.count } };
  state.dirs = w.dirs;
  state.ignoreFiles = w.ignoreFiles;
  // After the walk: a file changed between our lstat and git's check is reported modified (copied).
  const indexKey = info ? indexKeyOf(state) : undefined;
  const index = info ? indexEntries(root) : null;
  const modified = info ? modifiedTracked(root) : null;
  let fromGit = 0;
  let reused = 0;
  const todo: string[] = [];
  for (const [rel, st] of w.files) {
    const e = entryFromStat(st, t0, opts.racyMs);
    const old = reuse?.files.get(rel);
    if (st.isFile() && st.size > opts.limits.maxFileBytes) {
      e.flags |= F_LARGE;
    } else if (old && sameStat(old, st) && !(old.flags & (F_RACY | F_PENDING | F_LARGE)) && (old.git || (old.hash && fs.existsSync(blobPath(opts.storeDir, old.hash))))) {
      e.hash = old.hash;
      e.git = old.git;
      reused++;
    } else {
      const ie = index?.get(rel);
      const modeOk = ie && (st.isSymbolicLink() ? ie.mode === '120000' : ie.mode === '100644' || ie.mode === '100755');
      if (ie && modeOk && !ie.untrusted && modified && !modified.has(rel)) {
        e.git = ie.id;
        fromGit++;
      } else {
        e.flags |= F_PENDING;
        todo.push(rel);
      }
    }
    state.files.set(rel, e);
  }
  if (indexKey && index && modified) state.indexKey = indexKey;
  let copied = 0;
  const deadline = t0 + opts.budgetMs;
  for (const rel of todo) {
    if (Date.now() > deadline) break;
    if (copyPending(state, rel, opts)) copied++;
  }
  const pending = [...state.files.values()].filter((e) => e.flags & F_PENDING).length;
  return { state, files: w.files.size, pending, copied, fromGit, reused, ms: Date.now() - t0 };
}

function sameGit(a: ScanState['git'], b: ScanState['git']): boolean {
  return (a?.top ?? null) === (b?.top ?? null) && (a?.gitDir ?? null) === (b?.gitDir ?? null);
}

/** Copies one pending file's content into the store. False when it vanished (dropped from the state). */
export function copyPending(state: ScanState, rel: string, opts: ScanOptions): boolean {
  const e = state.files.get(rel);
  if (!e || !(e.flags & F_PENDING)) return false;
  const abs = path.join(state.root, rel);
  const st = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (!st) {
    state.files.delete(rel);
    return false;
  }
  const r = readNow(abs, st, opts.limits, Date.now(), opts.racyMs);
  if (!r) {
    state.files.delete(rel);
    return false;
  }
  if (r.data) r.entry.hash = quickPut(opts.storeDir, r.data);
  // The stat the content was read at: the next scan compares against it.
  const keepRacy = e.flags & F_RACY;
  r.entry.flags |= keepRacy;
  state.files.set(rel, r.entry);
  return true;
}

/** Copies every pending file (before a command runs: its old content must be in the store). */
export function finishPending(state: ScanState, opts: ScanOptions): number {
  let n = 0;
  for (const [rel, e] of [...state.files]) if (e.flags & F_PENDING && copyPending(state, rel, opts)) n++;
  return n;
}

export function pendingCount(state: ScanState): number {
  let n = 0;
  for (const e of state.files.values()) if (e.flags & F_PENDING) n++;
  return n;
}

/** Blob hashes a scan state refers to (content a later `before` record may need): gc must keep them. */
export function referencedBlobs(storeDir: string): Set<string> {
  const out = new Set<string>();
  let names: string[];
  try {
    names = fs.readdirSync(path.join(storeDir, 'scan'));
  } catch {
    return out;
  }
  for (const n of names) {
    if (!n.endsWith('.json')) continue;
    const s = loadState(path.join(storeDir, 'scan', n));
    if (!s) continue;
    for (const e of s.files.values()) if (e.hash) out.add(e.hash);
  }
  return out;
}

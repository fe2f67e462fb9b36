// Workspace scan with a stat cache, for shell-made file changes (DESIGN §3, §4).
//
// The scan state (`<store>/scan/<session>.scan`, written atomically; format below) holds every
// file of the workspace that is not ignored with its stat (size, mtime, ctime, inode, mode) and
// where its content can be found: a blob in our store (sha256) or, for a file that was clean in
// git when we looked, its git blob id — git already stores that content, so we copy it out (`git
// cat-file --batch`) only when a command changes the file. It also holds every folder with its
// stat.
//
// A scan stats every known file and every known folder. Only folders whose stat changed are
// listed again (creating, deleting or renaming an entry changes its folder's mtime — POSIX, and
// what git's untracked cache relies on; checked once per session where we can, see
// `dirTimesWork`), and only files whose stat changed are read — or whose stat was taken so close
// to a write that the file system's timestamp granularity could hide a second one ("racy"
// entries, as git calls them; racy folders are listed again too). When a rule file (`.gitignore`,
// info/exclude, the global excludes file) changed, or a `.gitignore` appeared, the scan walks the
// whole tree again.
//
// In a git repository git does most of that natively (`startGitAssist`): `git status` against our
// own copy of the index (`<session>.index`, never the repository's), where git keeps its
// untracked cache, stat-checks the tracked files with threads and lists untracked files looking
// only into folders whose stat changed. We then stat only what git cannot vouch for (files we
// hold by our own hash: dirty, untracked, racy) and the new files it lists, filtered by our own
// rules; folders inside submodules and nested repositories still get our own folder check. The
// hook starts that git process as soon as it knows the session (`prefetchScan`), so git runs
// while the hook loads the state. Where the index cannot be copied and read by us, `git
// diff-files` vouches for the tracked files and we check every folder ourselves.
//
// The baseline (the first state of a session) walks the tree once; in a git repository it reads
// the index file (core/gitIndex.ts; `git ls-files` + `git diff-files` when it cannot) and takes
// the blob id of every tracked file whose stat matches its index entry, as git's own stat check
// would. Tracked files are never ignored (git's rule); our `excludes` setting applies to them too.
//
// Content copied into the store by a scan is written without fsync (most of it is never needed);
// before a timeline line refers to such a blob it is re-verified and fsynced (`durableBlob`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BlobStore, sha256 } from './blobs';
import { readDisk } from './disk';
import { writeAll } from './fsx';
import { type CachedStatus, gitBlobId, indexEntries, modifiedTracked, type PendingGit, type RepoInfo, repoInfo, startCachedStatus, startModifiedTracked } from './gitObjects';
import { type GitIndexEntry, gitIndexKey, readGitIndex } from './gitIndex';
import { fileNameOf, isInside } from './paths';
import { ALWAYS_SKIP, dirMatcher, isForced, isIgnored, type Matcher, type Rules, rulesFor } from './ignore';
import { type DirStat, DirTable, type Entry, FileTable, K_GIT, K_HASH, type Peek, peekOf } from './scanTable';

/** Entries whose mtime/ctime is this close to the scan are re-read next time (timestamp granularity). */
export const RACY_MS = 2000;

export const F_LINK = 1;
export const F_LARGE = 2;
/** Content not captured yet (baseline copy still to do). */
export const F_PENDING = 4;
export const F_RACY = 8;
/** Stat taken from git's index (git's stat check vouched for the file): mode is git's, size and inode 32 bits. */
export const F_GITSTAT = 16;
/** The git id is no longer the index's: the file is stat-checked by us, not by `git diff-files`. */
export const F_NOGIT = 32;

export type { DirStat, Entry } from './scanTable';

export interface ScanState {
  v: 2;
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
  /** Folder mtimes change when entries are added or removed: scans list only folders that changed. */
  dirTimes: boolean;
  /** Stat key of the git index our entries' git ids were checked against (see `gitAssist`). */
  indexKey?: string;
  /**
   * Our copy of the git index (`<session>.index`), where `git status` keeps its untracked cache:
   * the index's stat key when copied, the submodules under the root (git does not look inside
   * them for us), and tracked paths that are not in `files` (gone, or left out when copied) —
   * git would not tell us when one comes back as it was committed, so we stat them ourselves.
   * `skipped`: untracked names git lists that are not valid UTF-8 (said once, not at every scan).
   */
  gitCache?: { key: string; gitlinks: string[]; watch: string[]; skipped?: string[] };
  /** Entries pending a copy when the state was loaded (lets a scan skip the search). */
  pendingAtLoad?: number;
  files: FileTable;
  /** Every folder scanned (relative path; `''` is the root). */
  dirs: DirTable;
  /** `.gitignore` files met in the tree (relative path → stat key), and the rule files above it. */
  ignoreFiles: Record<string, string>;
}

export interface ScanLimits {
  maxFiles: number;
  maxFileBytes: number;
  excludes: readonly string[];
  /** Never scanned (the store itself, when it lives inside the workspace). */
  skipAbs: readonly string[];
  /** Told about entries the scan has to leave out (names that are not valid UTF-8). */
  report?: (message: string) => void;
}

/**
 * A name that is not valid UTF-8 reaches us with U+FFFD in it and cannot be opened under that
 * name, nor written to the timeline: it is left out of the scan, and said so.
 */
function reportUnnameable(limits: ScanLimits, rel: string): void {
  if (rel.includes('\ufffd')) limits.report?.(`left out ${JSON.stringify(rel)}: its name is not valid UTF-8, so it cannot be recorded or rewound`);
}

// ---- state file
//
// Binary, little-endian, loaded by every shell hook (so it must parse in a millisecond or two):
//   "ARSCAN2\n", u32 header length, header JSON ({v, root, session, created, scanned, git, off?,
//   dirTimes, indexKey?, gitCache?, pending, ignoreFiles, n, d, idBytes, pathBytes, dirPathBytes}), zero padding to 8 bytes, then
//   f64[n×5] file stats (size, mtime, ctime, ino, mode), f64[d×3] folder stats (mtime, ctime, ino),
//   u8[n] file flags, u8[n] id kinds (1: sha256 follows, 2: git id follows), u8[d] folder flags
//   (1: racy), the ids (raw bytes, in file order), the file paths and the folder paths (UTF-8,
//   NUL-separated). A file of another size than the header announces is treated as no state.
// Version 1 (`<session>.json`, one JSON object) is still read.

const MAGIC = Buffer.from('ARSCAN2\n', 'latin1');
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function stateFile(storeDir: string, session: string): string {
  return path.join(storeDir, 'scan', `${fileNameOf(session, 'session')}.scan`);
}

function legacyFile(file: string): string {
  return file.replace(/\.scan$/, '.json');
}

/** Scan state files in a store (current and version 1), for gc and for reuse across sessions. */
export function stateFiles(storeDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(storeDir, 'scan'));
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.scan') || n.endsWith('.json')).map((n) => path.join(storeDir, 'scan', n));
}

interface Header {
  v: 2;
  root: string;
  session: string;
  created: number;
  scanned: number;
  git: ScanState['git'];
  off?: ScanState['off'];
  dirTimes: boolean;
  indexKey?: string;
  gitCache?: ScanState['gitCache'];
  pending?: number;
  ignoreFiles: Record<string, string>;
  n: number;
  d: number;
  idBytes: number;
  pathBytes: number;
  dirPathBytes: number;
}

function readHeader(buf: Buffer): { h: Header; body: number } | null {
  if (buf.length < 12 || !buf.subarray(0, 8).equals(MAGIC)) return null;
  const len = buf.readUInt32LE(8);
  if (12 + len > buf.length) return null;
  let h: Header;
  try {
    h = JSON.parse(buf.toString('utf8', 12, 12 + len)) as Header;
  } catch {
    return null;
  }
  if (h.v !== 2 || typeof h.root !== 'string' || !Number.isInteger(h.n) || !Number.isInteger(h.d)) return null;
  return { h, body: (12 + len + 7) & ~7 };
}

/** The root, session and on/off state of a state file, without loading its entries. */
export function peekState(file: string): Pick<ScanState, 'root' | 'session' | 'off'> | null {
  const h = readHeaderOnly(file);
  if (h === 'legacy') {
    const s = loadLegacy(file);
    return s ? { root: s.root, session: s.session, ...(s.off ? { off: s.off } : {}) } : null;
  }
  return h ? { root: h.root, session: h.session, ...(h.off ? { off: h.off } : {}) } : null;
}

/** A state file's header alone (two small reads); 'legacy' for a version 1 state. */
function readHeaderOnly(file: string): Header | 'legacy' | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(12);
    if (fs.readSync(fd, head, 0, 12, 0) !== 12) return null;
    if (!head.subarray(0, 8).equals(MAGIC)) return 'legacy';
    const len = head.readUInt32LE(8);
    const buf = Buffer.alloc(12 + len);
    if (fs.readSync(fd, buf, 0, buf.length, 0) !== buf.length) return null;
    return readHeader(buf)?.h ?? null;
  } finally {
    fs.closeSync(fd);
  }
}

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
  if (!h || h === 'legacy' || h.off || h.dirTimes === false || !h.git || !validGitCache(h.gitCache) || h.gitCache.key !== h.indexKey) return;
  const copy = indexCopyFile(file);
  if (gitIndexKey(h.git.gitDir) !== h.gitCache.key || !fs.existsSync(copy)) return;
  prefetched = { copy, key: h.gitCache.key, started: Date.now(), job: statusOnCopy(h.root, copy, path.join(storeDir, 'scan'), RACY_MS) };
}

/**
 * `git status` against our index copy, with the copy's mtime set `racyMs` back first. git treats
 * a cached folder whose mtime is not older than the index file as racy and lists it again (as it
 * does files); an index written moments after a folder changed would otherwise let an entry
 * added in the same timestamp tick go unseen. So, like our own scan, git looks again at folders
 * changed in the last `racyMs`.
 */
function statusOnCopy(root: string, copy: string, tmpDir: string, racyMs: number): PendingGit<CachedStatus> {
  const back = (Date.now() - racyMs) / 1000;
  try {
    fs.utimesSync(copy, back, back);
  } catch {
    /* git will say what is wrong */
  }
  return startCachedStatus(root, copy, tmpDir);
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

/** Decodes a state file's body. `idsOnly`: just the content hashes (for gc), no entries. */
function decode(buf: Buffer, r: { h: Header; body: number }, file: string, idsOnly: boolean): ScanState | Set<string> | null {
  const { h } = r;
  const gitLen = h.git?.objectFormat === 'sha256' ? 32 : 20;
  let off = r.body;
  const fnumAt = off;
  off += h.n * 40;
  const dnumAt = off;
  off += h.d * 24;
  const fflagsAt = off;
  const kindsAt = off + h.n;
  const dflagsAt = off + 2 * h.n;
  off += 2 * h.n + h.d;
  const idsAt = off;
  const pathsAt = idsAt + h.idBytes;
  const dirPathsAt = pathsAt + h.pathBytes;
  if (dirPathsAt + h.dirPathBytes !== buf.length) return null;
  if (idsOnly) {
    const out = new Set<string>();
    let p = idsAt;
    for (let i = 0; i < h.n; i++) {
      const k = buf[kindsAt + i]!;
      if (k & K_HASH) out.add(buf.toString('hex', p, p + 32));
      p += (k & K_HASH ? 32 : 0) + (k & K_GIT ? gitLen : 0);
    }
    return out;
  }
  if (!LITTLE_ENDIAN) return null;
  const fnum = new Float64Array(buf.buffer.slice(buf.byteOffset + fnumAt, buf.byteOffset + dnumAt));
  const dnum = new Float64Array(buf.buffer.slice(buf.byteOffset + dnumAt, buf.byteOffset + fflagsAt));
  const paths = h.n ? buf.toString('utf8', pathsAt, dirPathsAt).split('\0') : [];
  const dirPaths = h.d ? buf.toString('utf8', dirPathsAt, buf.length).split('\0') : [];
  if (paths.length !== h.n || dirPaths.length !== h.d) return null;
  // Columns stay columns: rows become objects only when asked for (core/scanTable.ts).
  const files = FileTable.fromColumns(paths, fnum, buf.slice(fflagsAt, kindsAt), buf.slice(kindsAt, dflagsAt), buf.subarray(idsAt, pathsAt), gitLen);
  if (!files) return null;
  const dirs = DirTable.fromColumns(dirPaths, dnum, buf.slice(dflagsAt, dflagsAt + h.d));
  const pending = readPending(file);
  return {
    v: 2,
    root: h.root,
    session: String(h.session ?? ''),
    created: Number(h.created ?? 0),
    scanned: Number(h.scanned ?? 0),
    git: h.git ?? null,
    ...(h.off ? { off: h.off } : {}),
    ...(pending ? { pending } : {}),
    dirTimes: h.dirTimes !== false,
    ...(typeof h.indexKey === 'string' ? { indexKey: h.indexKey } : {}),
    ...(validGitCache(h.gitCache) ? { gitCache: h.gitCache } : {}),
    ...(typeof h.pending === 'number' ? { pendingAtLoad: h.pending } : {}),
    files,
    dirs,
    ignoreFiles: h.ignoreFiles ?? {},
  };
}

function validGitCache(c: unknown): c is NonNullable<ScanState['gitCache']> {
  const o = c as ScanState['gitCache'];
  const strings = (a: unknown) => Array.isArray(a) && a.every((x) => typeof x === 'string');
  return !!o && typeof o.key === 'string' && strings(o.gitlinks) && strings(o.watch) && (o.skipped === undefined || strings(o.skipped));
}

export function loadState(file: string): ScanState | null {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return file.endsWith('.scan') ? loadLegacy(legacyFile(file)) : null;
  }
  const r = readHeader(buf);
  if (!r) return file.endsWith('.json') ? loadLegacy(file) : null;
  return decode(buf, r, file, false) as ScanState | null;
}

type EntryTuple = [number, number, number, number, number, string | null, string | null, number];

/** A version 1 state (JSON). Its folders have no stats: the first scan lists them all. */
function loadLegacy(file: string): ScanState | null {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (raw.v !== 1 || typeof raw.root !== 'string') return null;
  const files = new FileTable();
  for (const [p, t] of Object.entries((raw.files ?? {}) as Record<string, EntryTuple>)) {
    if (!Array.isArray(t) || t.length < 8) continue;
    files.set(p, { size: t[0], mtime: t[1], ctime: t[2], ino: t[3], mode: t[4], hash: t[5], git: t[6], flags: t[7] });
  }
  const dirs = new DirTable(new Map([['', { mtime: -1, ctime: -1, ino: -1, racy: true }]]));
  for (const d of Array.isArray(raw.dirs) ? (raw.dirs as string[]) : []) dirs.set(d, { mtime: -1, ctime: -1, ino: -1, racy: true });
  const pending = readPending(file);
  return {
    v: 2,
    root: raw.root,
    session: String(raw.session ?? ''),
    created: Number(raw.created ?? 0),
    scanned: Number(raw.scanned ?? 0),
    git: (raw.git as ScanState['git']) ?? null,
    ...(raw.off ? { off: raw.off as ScanState['off'] } : {}),
    ...(pending ? { pending } : {}),
    dirTimes: true,
    files,
    dirs,
    // Unknown stat keys: the first scan finds every rule file "changed" and walks the tree.
    ignoreFiles: Object.fromEntries(Object.keys((raw.ignoreFiles as Record<string, string>) ?? {}).map((k) => [k, '?'])),
  };
}

export function saveState(file: string, s: ScanState): void {
  const gitLen = s.git?.objectFormat === 'sha256' ? 32 : 20;
  const f = s.files.columns(gitLen, F_PENDING);
  const dc = s.dirs.columns();
  const n = f.paths.length;
  const d = dc.paths.length;
  const meta = Buffer.alloc(2 * n + d); // file flags, id kinds, folder flags
  meta.set(f.flags, 0);
  meta.set(f.kinds, n);
  meta.set(dc.flags, 2 * n);
  const fnum = f.num;
  const dnum = dc.num;
  const ids = f.ids;
  const pending = f.pending;
  const pathBuf = Buffer.from(f.paths.join('\0'), 'utf8');
  const dirPathBuf = Buffer.from(dc.paths.join('\0'), 'utf8');
  const header: Header = {
    v: 2,
    root: s.root,
    session: s.session,
    created: s.created,
    scanned: s.scanned,
    git: s.git,
    ...(s.off ? { off: s.off } : {}),
    dirTimes: s.dirTimes,
    ...(s.indexKey ? { indexKey: s.indexKey } : {}),
    ...(s.gitCache ? { gitCache: s.gitCache } : {}),
    pending,
    ignoreFiles: s.ignoreFiles,
    n,
    d,
    idBytes: ids.length,
    pathBytes: pathBuf.length,
    dirPathBytes: dirPathBuf.length,
  };
  const hbuf = Buffer.from(JSON.stringify(header), 'utf8');
  const lead = Buffer.alloc(((12 + hbuf.length + 7) & ~7) - hbuf.length);
  MAGIC.copy(lead, 0);
  lead.writeUInt32LE(hbuf.length, 8);
  const parts = [lead.subarray(0, 12), hbuf, lead.subarray(12), Buffer.from(fnum.buffer, fnum.byteOffset, fnum.byteLength), Buffer.from(dnum.buffer, dnum.byteOffset, dnum.byteLength), meta, ids, pathBuf, dirPathBuf];
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    writeAll(fd, Buffer.concat(parts));
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  if (file.endsWith('.scan')) {
    try {
      fs.unlinkSync(legacyFile(file)); // a version 1 state of this session is now superseded
    } catch {
      /* none */
    }
  }
}

// The in-flight call lives in a small file beside the state, so a scan that found nothing to
// change does not rewrite the (large) state.
function pendingFile(file: string): string {
  return file.replace(/\.(scan|json)$/, '') + '.pending';
}

/** The shell call in flight for the state in `file` (its PreToolUse scanned, no PostToolUse yet), if any. */
export function readPending(file: string): ScanState['pending'] | null {
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

/** Every file that belongs to a state: the state itself, its version 1 form, its pending call, its index copy, their locks. */
export function stateCompanions(file: string): string[] {
  const base = file.replace(/\.(scan|json)$/, '');
  return [`${base}.scan`, `${base}.json`, `${base}.pending`, `${base}.index`, `${base}.scan.lock`, `${base}.json.lock`, `${base}.index.lock`];
}

/** Our copy of the git index for the state in `file` (see `ScanState.gitCache`). */
function indexCopyFile(file: string): string {
  return file.replace(/\.(scan|json)$/, '') + '.index';
}

// ---- blobs without fsync, made durable on demand

/** Stores `data` under its sha256 without fsync (most copies are never needed; see `durableBlob`). */
export function quickPut(storeDir: string, data: Uint8Array, hash = sha256(data)): string {
  return new BlobStore(storeDir).put(data, hash, { sync: false });
}

/** Verifies a blob written by quickPut and fsyncs it, before a timeline line refers to it. */
export function durableBlob(storeDir: string, hash: string): boolean {
  return new BlobStore(storeDir).makeDurable(hash);
}

// ---- stats

function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR (a parent is a file now), EACCES…: not a file we can scan
  }
}

/** A rule file's stat key (followed: a `.gitignore` may be a link); `-` when there is none. */
function ruleKey(p: string): string {
  try {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    return st ? statKey(st) : '-';
  } catch {
    return '-';
  }
}

function statKey(st: fs.Stats): string {
  return `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
}

function racy(st: { mtimeMs: number; ctimeMs: number }, scanStart: number, racyMs: number): boolean {
  return Math.max(st.mtimeMs, st.ctimeMs) > scanStart - racyMs;
}

function dirStat(st: fs.Stats, scanStart: number, racyMs: number): DirStat {
  return { mtime: st.mtimeMs, ctime: st.ctimeMs, ino: st.ino, racy: racy(st, scanStart, racyMs) };
}

/**
 * Does this file system change a folder's mtime when an entry is created in it? Tried once per
 * baseline in the store's own folder when the store is on the workspace's file system (a folder
 * set an hour back, a file created in it); elsewhere POSIX semantics are assumed. False: every
 * scan lists every folder.
 */
export function dirTimesWork(storeDir: string, root: string): boolean {
  const rs = lstat(root);
  const scanDir = path.join(storeDir, 'scan');
  try {
    fs.mkdirSync(scanDir, { recursive: true, mode: 0o700 });
  } catch {
    return true;
  }
  const ss = lstat(scanDir);
  if (!rs || !ss || rs.dev !== ss.dev) return true;
  const probe = path.join(scanDir, `probe.${process.pid}.${Math.random().toString(36).slice(2, 8)}`);
  try {
    fs.mkdirSync(probe, { mode: 0o700 });
    const old = new Date(Date.now() - 3600000);
    fs.utimesSync(probe, old, old);
    const before = fs.lstatSync(probe).mtimeMs;
    fs.writeFileSync(path.join(probe, 'x'), '');
    return fs.lstatSync(probe).mtimeMs !== before;
  } catch {
    return true;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

// ---- walking

interface Walked {
  /** Every file found, by its stat (`hash`/`git` null unless adopted from git's index). */
  files: Map<string, Entry>;
  dirs: Map<string, DirStat>;
  ignoreFiles: Record<string, string>;
  tooMany: boolean;
  count: number;
}

interface WalkOptions {
  /** Tracked paths (relative to the root): never ignored, and the folders above them are entered. */
  tracked?: { has(rel: string): boolean; keys(): Iterable<string> } | null;
  /** The entry of a file git vouches for (clean in its index): no lstat of ours. */
  adopt?: ((rel: string) => Entry | null) | null;
  scanStart?: number;
  racyMs?: number;
}

type Prev = Pick<ScanState, 'files' | 'dirs' | 'ignoreFiles'> | null;

interface WalkStart {
  abs: string;
  rel: string;
  matchers: Matcher[];
  dirty: boolean;
}

function ancestorsOf(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) {
      const d = p.slice(0, i);
      if (out.has(d)) break;
      out.add(d);
    }
  }
  return out;
}

class Walker {
  readonly files = new Map<string, Entry>();
  readonly dirs = new Map<string, DirStat>();
  readonly ignoreFiles: Record<string, string> = {};
  count = 0;
  tooMany = false;
  private readonly skip: Set<string>;
  private readonly tracked: WalkOptions['tracked'];
  private readonly trackedDirs: Set<string> | null;
  private readonly adopt: WalkOptions['adopt'];
  private readonly scanStart: number;
  private readonly racyMs: number;

  constructor(
    private readonly rules: Rules,
    private readonly limits: ScanLimits,
    private readonly prev: Prev,
    opts: WalkOptions,
    countFrom = 0,
  ) {
    this.skip = new Set(limits.skipAbs);
    this.tracked = opts.tracked ?? null;
    this.trackedDirs = this.tracked ? ancestorsOf(this.tracked.keys()) : null;
    this.adopt = opts.adopt ?? null;
    this.scanStart = opts.scanStart ?? Date.now();
    this.racyMs = opts.racyMs ?? RACY_MS;
    this.count = countFrom;
  }

  /** Is this path out of the scan (ignored, or excluded by our settings)? */
  private ignored(matchers: Matcher[], rel: string, isDir: boolean, dirty: boolean): boolean {
    if (isDir ? this.trackedDirs?.has(rel) : this.tracked?.has(rel)) return isForced(this.rules, rel, isDir);
    if (!dirty && (isDir ? this.prev?.dirs.has(rel) : this.prev?.files.has(rel))) return false;
    return isIgnored(this.rules, matchers, rel, isDir);
  }

  walk(start: WalkStart): void {
    const stack: WalkStart[] = [start];
    while (stack.length && !this.tooMany) {
      const d = stack.pop()!;
      // The folder's stat before its listing: an entry added after it changes the mtime again.
      const dst = lstat(d.abs);
      if (!dst || !dst.isDirectory()) {
        if (!dst) reportUnnameable(this.limits, d.rel);
        continue;
      }
      let ents: fs.Dirent[];
      try {
        ents = fs.readdirSync(d.abs, { withFileTypes: true });
      } catch {
        continue;
      }
      this.dirs.set(d.rel, dirStat(dst, this.scanStart, this.racyMs));
      let matchers = d.matchers;
      let dirty = d.dirty;
      const giRel = d.rel ? `${d.rel}/.gitignore` : '.gitignore';
      const gi = ents.find((e) => e.name === '.gitignore' && (e.isFile() || e.isSymbolicLink()));
      if (gi) {
        const key = ruleKey(path.join(d.abs, '.gitignore'));
        this.ignoreFiles[giRel] = key;
        if (this.prev && this.prev.ignoreFiles[giRel] !== key) dirty = true;
        matchers = [...matchers, dirMatcher(d.abs, d.rel)];
      } else if (this.prev && this.prev.ignoreFiles[giRel] !== undefined) dirty = true;
      const dirAbs = d.abs.endsWith(path.sep) ? d.abs : d.abs + path.sep;
      for (const e of ents) {
        const name = e.name;
        const rel = d.rel ? `${d.rel}/${name}` : name;
        const abs = dirAbs + name;
        let isDir = e.isDirectory();
        let isFile = e.isFile() || e.isSymbolicLink();
        let st: fs.Stats | undefined;
        if (!isDir && !isFile && !e.isFIFO() && !e.isSocket() && !e.isBlockDevice() && !e.isCharacterDevice()) {
          st = lstat(abs); // file systems that do not report types
          if (!st) {
            reportUnnameable(this.limits, rel);
            continue;
          }
          isDir = st.isDirectory();
          isFile = st.isFile() || st.isSymbolicLink();
        }
        if (isDir) {
          if (ALWAYS_SKIP.has(name) || this.skip.has(abs)) continue;
          if (this.ignored(matchers, rel, true, dirty)) continue;
          stack.push({ abs, rel, matchers, dirty });
          continue;
        }
        if (!isFile) continue;
        if (this.ignored(matchers, rel, false, dirty)) continue;
        let entry = !st && this.adopt ? this.adopt(rel) : null;
        if (entry && !!(entry.flags & F_LINK) !== e.isSymbolicLink()) entry = null;
        if (!entry) {
          st ??= lstat(abs);
          if (!st) reportUnnameable(this.limits, rel);
          if (!st || !(st.isFile() || st.isSymbolicLink())) continue;
          entry = entryFromStat(st, this.scanStart, this.racyMs);
        }
        if (++this.count > this.limits.maxFiles) {
          this.tooMany = true;
          return;
        }
        this.files.set(rel, entry);
      }
    }
  }

  result(): Walked {
    return { files: this.files, dirs: this.dirs, ignoreFiles: this.ignoreFiles, tooMany: this.tooMany, count: this.count };
  }
}

/** The rule files above the tree, with their stat keys; `changed` when one differs from `prev`. */
function baseRuleFiles(rules: Rules, prev: Prev): { keys: Record<string, string>; changed: boolean } {
  const keys: Record<string, string> = {};
  let changed = false;
  for (const f of rules.baseFiles) {
    const key = ruleKey(f);
    keys[`<${f}>`] = key;
    if (prev && prev.ignoreFiles[`<${f}>`] !== key) changed = true;
  }
  return { keys, changed };
}

/**
 * Every file under `root` that is not ignored, with its stat, and every folder with its stat.
 * Ignore rules are tested only for paths `prev` does not know, unless a rule file changed above
 * them; `tracked` paths are never ignored (only our excludes apply to them).
 */
export function walk(root: string, rules: Rules, limits: ScanLimits, prev: Prev, opts: WalkOptions = {}): Walked {
  const base = baseRuleFiles(rules, prev);
  const w = new Walker(rules, limits, prev, opts);
  Object.assign(w.ignoreFiles, base.keys);
  w.walk({ abs: root, rel: '', matchers: rules.base, dirty: !prev || base.changed });
  return w.result();
}

const TWO32 = 4294967296;

/** Same stat as recorded? Stats adopted from git's index hold the size and inode in 32 bits. */
function sameStat(e: Pick<Entry, 'size' | 'mtime' | 'ctime' | 'ino' | 'flags'>, st: { size: number; mtimeMs: number; ctimeMs: number; ino: number }): boolean {
  if (e.flags & F_GITSTAT) {
    return e.size === st.size % TWO32 && e.mtime === st.mtimeMs && (e.ino === 0 || e.ino === st.ino % TWO32) && (e.ctime === st.ctimeMs || process.platform === 'win32');
  }
  return e.size === st.size && e.mtime === st.mtimeMs && e.ctime === st.ctimeMs && e.ino === st.ino;
}

function sameEntryStat(e: Entry, cur: Entry): boolean {
  return sameStat(e, { size: cur.size, mtimeMs: cur.mtime, ctimeMs: cur.ctime, ino: cur.ino });
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

/**
 * A clean tracked file's entry from its index entry (git's stat check just vouched that the file's
 * stat is the one the index holds). Times are computed the way Node computes `mtimeMs`; the mode
 * is git's (0644 or 0755, not the file's exact bits).
 */
function entryFromIndex(ie: GitIndexEntry, scanStart: number, racyMs: number): Entry {
  const mtime = ie.mtimeSec * 1000 + ie.mtimeNsec / 1e6;
  const ctime = ie.ctimeSec * 1000 + ie.ctimeNsec / 1e6;
  const link = ie.mode === 0o120000;
  return {
    size: ie.size,
    mtime,
    ctime,
    ino: ie.ino,
    mode: link ? 0o777 : ie.mode & 0o777,
    hash: null,
    git: ie.id,
    flags: F_GITSTAT | (link ? F_LINK : 0) | (racy({ mtimeMs: mtime, ctimeMs: ctime }, scanStart, racyMs) ? F_RACY : 0),
  };
}

/** The content of a workspace path now: bytes (file or link target) with the stat they were read at. */
export interface Read {
  data: Buffer | null;
  entry: Entry;
}

function readNow(abs: string, cur: Entry, limits: ScanLimits): Read | null {
  const r = readDisk(abs, limits.maxFileBytes);
  const e: Entry = { ...cur, hash: null, git: null, flags: cur.flags & (F_LINK | F_RACY) };
  switch (r.kind) {
    case 'file':
      e.size = r.size;
      e.mtime = r.mtime;
      e.mode = r.mode;
      e.flags &= ~F_LINK;
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
  /** Paths we stat'ed ourselves (the others git's stat check vouched for). */
  statted: number;
  files: number;
  /** Folders listed (all of them when the scan walked the tree). */
  listed: number;
  /** The scan walked the whole tree (a rule file changed, or folder times cannot be trusted). */
  walked: boolean;
  /** git's stat check stood in for ours on clean tracked files. */
  git: boolean;
  /** git listed the untracked files from its untracked cache: no folder checks of ours (but submodules'). */
  cached: boolean;
  /** The state changed and must be saved. */
  dirty: boolean;
  /** The folders known before this scan (to tell which folders a command created). */
  prevDirs: { has(rel: string): boolean };
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
  /** Let `git diff-files` check the clean tracked files (default true; false: every file by our own stat). */
  useGit?: boolean;
}

/** Builds the ignore rules of a state's root. */
export function rulesOfState(s: Pick<ScanState, 'root' | 'git'>, limits: ScanLimits): Rules {
  return rulesFor({
    root: s.root,
    ...(s.git ? { repoTop: s.git.top, gitDir: s.git.gitDir, excludesFile: s.git.excludesFile } : {}),
    excludes: limits.excludes,
  });
}

/** The matchers that apply to paths in folder `rel`: the rules above the tree, then every `.gitignore` on the way down. */
function matchersFor(state: ScanState, rules: Rules, rel: string): Matcher[] {
  const out = [...rules.base];
  const parts = rel ? rel.split('/') : [];
  for (let i = 0; i <= parts.length; i++) {
    const d = parts.slice(0, i).join('/');
    if (state.ignoreFiles[d ? `${d}/.gitignore` : '.gitignore'] !== undefined) out.push(dirMatcher(path.join(state.root, ...parts.slice(0, i)), d));
  }
  return out;
}

interface Incremental {
  /** New paths found in folders that changed, with their stat. */
  fresh: Map<string, Entry>;
  /** Folder stats to store (changed, new) and folders that are gone. */
  dirUpdates: Map<string, DirStat>;
  goneDirs: string[];
  newIgnoreFiles: Record<string, string>;
  listed: number;
  /** More files than the limit: the count reached. */
  tooMany?: number;
  /** The state's `gitCache` changed. */
  cacheChanged?: boolean;
}

/** A rule file changed, appeared or went away: the tree must be walked again. */
function ruleFilesChanged(state: ScanState): boolean {
  for (const [k, key] of Object.entries(state.ignoreFiles)) {
    const f = k.startsWith('<') ? k.slice(1, -1) : path.join(state.root, ...k.split('/'));
    if (ruleKey(f) !== key) return true;
  }
  return false;
}

/** Is `rel` `dir` or below it? */
function under(rel: string, dir: string): boolean {
  return rel === dir || (rel.startsWith(dir) && rel.charCodeAt(dir.length) === 47); // '/'
}

/**
 * Lists only the folders whose stat changed (or was racy) — of every folder, or (`only`) of the
 * folders at or below the given ones. Null when the tree must be walked: a `.gitignore` appeared.
 * The caller has checked the rule files (`ruleFilesChanged`).
 */
function incremental(state: ScanState, rules: Rules, limits: ScanLimits, scanStart: number, racyMs: number, only?: readonly string[]): Incremental | null {
  const base = state.root + path.sep;
  const changed: { rel: string; st: fs.Stats }[] = [];
  const goneDirs: string[] = [];
  const dirUpdates = new Map<string, DirStat>();
  const dt = state.dirs;
  const check = (rel: string, mtime: number, ctime: number, ino: number, wasRacy: boolean) => {
    if (only && !only.some((d) => under(rel, d))) return;
    const st = lstat(rel ? base + rel : state.root);
    if (!st || !st.isDirectory()) goneDirs.push(rel);
    else if (wasRacy || st.mtimeMs !== mtime || st.ctimeMs !== ctime || st.ino !== ino) changed.push({ rel, st });
  };
  for (let i = 0; i < dt.rows; i++) if (dt.isLive(i)) check(dt.pathAt(i), dt.mtimeAt(i), dt.ctimeAt(i), dt.inoAt(i), dt.racyAt(i));
  for (const [rel, d] of dt.added()) check(rel, d.mtime, d.ctime, d.ino, d.racy);
  const fresh = new Map<string, Entry>();
  const newIgnoreFiles: Record<string, string> = {};
  const out: Incremental = { fresh, dirUpdates, goneDirs, newIgnoreFiles, listed: changed.length };
  if (changed.length === 0) return out;
  const skip = new Set(limits.skipAbs);
  let count = state.files.size;
  for (const { rel, st } of changed) {
    const abs = rel ? base + rel : state.root;
    let ents: fs.Dirent[];
    try {
      ents = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      continue; // gone meanwhile: its files are found missing
    }
    dirUpdates.set(rel, dirStat(st, scanStart, racyMs));
    let matchers: Matcher[] | null = null;
    for (const e of ents) {
      const name = e.name;
      const crel = rel ? `${rel}/${name}` : name;
      const cabs = path.join(abs, name);
      let isDir = e.isDirectory();
      let isFile = e.isFile() || e.isSymbolicLink();
      let cst: fs.Stats | undefined;
      if (!isDir && !isFile && !e.isFIFO() && !e.isSocket() && !e.isBlockDevice() && !e.isCharacterDevice()) {
        cst = lstat(cabs);
        if (!cst) {
          reportUnnameable(limits, crel);
          continue;
        }
        isDir = cst.isDirectory();
        isFile = cst.isFile() || cst.isSymbolicLink();
      }
      if (!isDir && !isFile) continue;
      if (isFile && name === '.gitignore' && state.ignoreFiles[crel] === undefined) return null; // a new rule file
      if (isDir ? state.dirs.has(crel) : state.files.has(crel)) continue; // known: checked by its own stat
      if (isDir && (ALWAYS_SKIP.has(name) || skip.has(cabs))) continue;
      matchers ??= matchersFor(state, rules, rel);
      if (isIgnored(rules, matchers, crel, isDir)) continue;
      if (isDir) {
        // A new folder: walk it whole (its own `.gitignore` files included).
        const w = new Walker(rules, limits, null, { scanStart, racyMs }, count);
        w.walk({ abs: cabs, rel: crel, matchers, dirty: true });
        if (w.tooMany) return { ...out, tooMany: w.count };
        count = w.count;
        for (const [p, s] of w.files) fresh.set(p, s);
        for (const [p, s] of w.dirs) dirUpdates.set(p, s);
        Object.assign(newIgnoreFiles, w.ignoreFiles);
        continue;
      }
      cst ??= lstat(cabs);
      if (!cst) reportUnnameable(limits, crel);
      if (!cst || !(cst.isFile() || cst.isSymbolicLink())) continue;
      fresh.set(crel, entryFromStat(cst, scanStart, racyMs));
      if (++count > limits.maxFiles) return { ...out, tooMany: count };
    }
  }
  return out;
}

/** Tracked paths under the state's root (for a walk in a git repository), from the index file or git. */
function trackedPaths(state: Pick<ScanState, 'root' | 'git'>): Map<string, TrackedEntry> | null {
  if (!state.git) return null;
  return indexOf({ top: state.git.top, gitDir: state.git.gitDir, objectFormat: state.git.objectFormat }, state.root)?.entries ?? null;
}

/** An entry whose content git's stat check can vouch for: a clean git blob, checked against the current index. */
function gitVouchable(p: Peek): boolean {
  return p.hasGit && !p.hasHash && (p.flags & (F_RACY | F_PENDING | F_LARGE | F_NOGIT)) === 0;
}

function newPeek(): Peek {
  return { size: 0, mtime: 0, ctime: 0, ino: 0, flags: 0, hasHash: false, hasGit: false };
}

/** Marks the entries whose git id is no longer the index's (F_NOGIT): we stat-check those ourselves. */
function markGitIds(state: ScanState, tracked: Map<string, TrackedEntry>): boolean {
  let changed = false;
  const t = state.files;
  const pk = newPeek();
  const fixed = (rel: string, git: () => string | null, p: Peek): number => {
    if (!p.hasGit || p.hasHash) return p.flags;
    const te = tracked.get(rel);
    const ok = !!te && !te.untrusted && te.id === git();
    return ok ? p.flags & ~F_NOGIT : p.flags | F_NOGIT;
  };
  for (let i = 0; i < t.rows; i++) {
    if (!t.isLive(i)) continue;
    const f = fixed(t.pathAt(i), () => t.gitAt(i), t.peek(i, pk));
    if (f !== pk.flags) {
      t.setFlagsAt(i, f);
      changed = true;
    }
  }
  for (const [rel, e] of t.added()) {
    const f = fixed(rel, () => e.git, peekOf(e, pk));
    if (f !== e.flags) {
      e.flags = f;
      changed = true;
    }
  }
  return changed;
}

interface Assist {
  /** Tracked paths (relative to the root) whose file may differ from the index our git ids were checked against. */
  modified: Set<string>;
  /** From git's untracked cache: the untracked files (and nested repositories, ending in `/`); null when git did not list them. */
  untracked: string[] | null;
}

interface AssistJob {
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
function startGitAssist(state: ScanState, opts: ScanOptions, rules: Rules): AssistJob | null {
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
  const tmpDir = path.join(opts.storeDir, 'scan');
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
function cacheable(tracked: Tracked | null, key: string): tracked is Tracked {
  return tracked?.source === 'index' && tracked.key === key && tracked.entries.size * 2 >= tracked.total;
}

/** git's answer (paths relative to the repository's top) cut down to the root, relative to it. */
function underRoot(r: CachedStatus, top: string, root: string): CachedStatus {
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
function excludedByUs(state: ScanState, rules: Rules, limits: ScanLimits, rel: string): boolean {
  const parts = rel.split('/');
  for (let i = 0; i < parts.length - 1; i++) if (ALWAYS_SKIP.has(parts[i]!)) return true;
  if (limits.skipAbs.some((d) => isInside(path.join(state.root, rel), d))) return true;
  return isForced(rules, rel, false);
}

/**
 * Copies the repository's index (stat key `key`) to `copy` for `git status` to keep its untracked
 * cache in; the cache record for the state, or undefined when the index changed while copied.
 */
function copyIndex(state: ScanState, gitDir: string, key: string, copy: string, tracked: Map<string, TrackedEntry>, rules: Rules, limits: ScanLimits): ScanState['gitCache'] {
  return copyIndexFile(gitDir, key, copy) ? cacheRecord(state, key, tracked, rules, limits) : undefined;
}

/** Copies the index (stat key `key`) to `copy`; false when it changed while copied, or cannot be. */
function copyIndexFile(gitDir: string, key: string, copy: string): boolean {
  const tmp = `${copy}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(copy), { recursive: true, mode: 0o700 });
    fs.copyFileSync(path.join(gitDir, 'index'), tmp);
    fs.chmodSync(tmp, 0o600);
    if (gitIndexKey(gitDir) !== key) throw new Error('the index changed while copied');
    fs.renameSync(tmp, copy);
    return true;
  } catch {
    fs.rmSync(tmp, { force: true });
    fs.rmSync(copy, { force: true });
    return false;
  }
}

/** The state's record of a fresh index copy: its key, the submodules, the tracked paths not in the state. */
function cacheRecord(state: ScanState, key: string, tracked: Map<string, TrackedEntry>, rules: Rules, limits: ScanLimits): NonNullable<ScanState['gitCache']> {
  const gitlinks: string[] = [];
  const watch: string[] = [];
  for (const [rel, te] of tracked) {
    if (te.mode === 0o160000) gitlinks.push(rel);
    else if (!state.files.has(rel) && !excludedByUs(state, rules, limits, rel)) watch.push(rel);
  }
  return { key, gitlinks, watch };
}

/**
 * The entry of a file git listed (or we watch), by our own stat; null when it is not a file now.
 * A name that is not valid UTF-8 cannot be stat'ed under the name we got: it goes to `skipped`.
 */
function listedEntry(base: string, rel: string, scanStart: number, racyMs: number, skipped?: string[]): Entry | null {
  const st = lstat(base + rel);
  if (!st && skipped && rel.includes('\ufffd')) skipped.push(rel);
  return st && (st.isFile() || st.isSymbolicLink()) ? entryFromStat(st, scanStart, racyMs) : null;
}

/** A folder we did not list ourselves (git did): racy, so that a scan of ours lists it when git cannot help. */
function unlisted(): DirStat {
  return { mtime: 0, ctime: 0, ino: 0, racy: true };
}

/**
 * Whether a folder is in the scan, decided once per folder, top down, as the walk would: folders
 * `known` to be in are; `.git`, `node_modules` and the like, the store, and ignored folders are not
 * — except folders holding tracked files (`trackedDirs`), which only our own excludes keep out.
 */
function folderFilter(state: ScanState, rules: Rules, limits: ScanLimits, opts: { known?: { has(dir: string): boolean }; trackedDirs?: Set<string> }): (dir: string) => boolean {
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

/**
 * The scan's new files from git's untracked list (and the watched tracked paths), checked against
 * our own rules; folders git does not look into for us (submodules, nested repositories) get our
 * own folder check. Null when the tree must be walked: a `.gitignore` or a nested repository appeared.
 */
function fromGit(state: ScanState, rules: Rules, limits: ScanLimits, untracked: readonly string[], scanStart: number, racyMs: number): Incremental | null {
  const cache = state.gitCache!;
  const base = state.root + path.sep;
  const fresh = new Map<string, Entry>();
  const dirUpdates = new Map<string, DirStat>();
  const out: Incremental = { fresh, dirUpdates, goneDirs: [], newIgnoreFiles: {}, listed: 0 };
  const foreign = [...cache.gitlinks];
  const folderIn = folderFilter(state, rules, limits, { known: state.dirs });
  let count = state.files.size;
  const skipped: string[] = [];
  // A watched path is tracked: never ignored (git's rule), our own exclusions were applied when it was added.
  const consider = (rel: string, watched: boolean) => {
    if (state.files.has(rel) || fresh.has(rel)) return true;
    const slash = rel.lastIndexOf('/');
    const dir = slash < 0 ? '' : rel.slice(0, slash);
    if (!watched && !folderIn(dir)) return true;
    if (rel.slice(slash + 1) === '.gitignore' && state.ignoreFiles[rel] === undefined && lstat(base + rel)) return false; // a new rule file
    if (!watched && isIgnored(rules, matchersFor(state, rules, dir), rel, false)) return true;
    const e = listedEntry(base, rel, scanStart, racyMs, watched ? undefined : skipped);
    if (!e) return true;
    fresh.set(rel, e);
    for (let d = dir; d !== '' && !state.dirs.has(d) && !dirUpdates.has(d); d = d.slice(0, Math.max(0, d.lastIndexOf('/')))) dirUpdates.set(d, unlisted());
    return ++count <= limits.maxFiles;
  };
  for (const rel of untracked) {
    if (rel.endsWith('/')) {
      const dir = rel.slice(0, -1);
      if (!folderIn(dir)) continue;
      if (!state.dirs.has(dir)) return null; // a nested repository appeared: walk
      foreign.push(dir);
      continue;
    }
    if (!consider(rel, false)) return count > limits.maxFiles ? { ...out, tooMany: count } : null;
  }
  for (const rel of cache.watch) if (!consider(rel, true)) return count > limits.maxFiles ? { ...out, tooMany: count } : null;
  // git lists them at every scan: each is said once.
  const said = new Set(cache.skipped ?? []);
  for (const rel of skipped) if (!said.has(rel)) reportUnnameable(limits, rel);
  if (skipped.length !== said.size || skipped.some((r) => !said.has(r))) {
    state.gitCache = { ...cache, skipped };
    out.cacheChanged = true;
  }
  if (foreign.length) {
    const own = incremental(state, rules, limits, scanStart, racyMs, foreign);
    if (!own || own.tooMany !== undefined) return own;
    for (const [p, e] of own.fresh) {
      if (!fresh.has(p) && ++count > limits.maxFiles) return { ...out, tooMany: count };
      fresh.set(p, e);
    }
    for (const [p, d] of own.dirUpdates) dirUpdates.set(p, d);
    out.goneDirs.push(...own.goneDirs);
    Object.assign(out.newIgnoreFiles, own.newIgnoreFiles);
    out.listed = own.listed;
  }
  return out;
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
  const canInc = state.dirTimes && state.dirs.has('') && !ruleFilesChanged(state);
  const gitJob = canInc && opts.useGit !== false ? startGitAssist(state, opts, rules) : null;
  let inc: Incremental | null = null;
  let assist: Assist | null = null;
  if (gitJob?.cached) {
    assist = gitJob.finish();
    inc = assist?.untracked ? fromGit(state, rules, limits, assist.untracked, scanStart, racyMs) : incremental(state, rules, limits, scanStart, racyMs);
  } else if (canInc) {
    inc = incremental(state, rules, limits, scanStart, racyMs);
    if (!inc) gitJob?.cancel();
    else if (gitJob) assist = gitJob.finish();
  }
  let prevDirs: { has(rel: string): boolean } = state.dirs;
  const result = (x: Partial<ScanResult>): ScanResult => ({ changes: [], read: 0, statted: 0, files: 0, listed: 0, walked: !inc, git: false, cached: false, dirty: false, prevDirs, ...x });
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
  const changes: Change[] = [];
  let read = 0;
  let statted = 0;
  let dirty = !!gitJob?.dirty || !!inc?.cacheChanged;
  const format = state.git?.objectFormat ?? 'sha1';
  const base = state.root + path.sep;
  const gone: string[] = [];

  const visit = (rel: string, cur: Entry) => {
    const prev = state.files.get(rel);
    if (prev && sameEntryStat(prev, cur) && !(prev.flags & (F_RACY | F_PENDING))) return;
    if (prev && prev.flags & F_LARGE && cur.size > limits.maxFileBytes && sameEntryStat(prev, cur)) return;
    read++;
    const r = readNow(base + rel, cur, limits);
    if (!r) return; // vanished or unreadable between the stat and the read: looked at again next time
    const e = r.entry;
    if (r.data) {
      if (prev && !(prev.flags & F_PENDING) && !(prev.flags & F_LARGE) && !!(prev.flags & F_LINK) === !!(e.flags & F_LINK)) {
        // Same content as recorded? Compare with what we know (our hash, else git's id).
        const same = prev.hash ? sha256(r.data) === prev.hash : prev.git ? gitBlobId(r.data, format) === prev.git : false;
        if (same) {
          e.hash = prev.hash;
          e.git = prev.git;
          e.flags |= prev.flags & F_NOGIT;
          if (!sameEntryStat(prev, e) || prev.flags !== e.flags || prev.mode !== e.mode) {
            state.files.set(rel, e);
            dirty = true;
          }
          return;
        }
      }
      e.hash = opts.storeContent ? quickPut(opts.storeDir, r.data) : sha256(r.data);
    }
    dirty = true;
    state.files.set(rel, e);
    if (prev && prev.flags & F_PENDING) return; // a baseline copy finished now: the content is the state before, not a change
    if (!prev && opts.existedBefore !== undefined && cur.ctime < opts.existedBefore) return; // was there all along, outside the scan until now
    changes.push({ path: rel, before: prev ?? null, after: e, data: r.data });
  };

  if (inc) {
    // Every known file by its stat (git's, for the clean tracked ones it vouches for), then the
    // new ones the changed folders hold. Rows are read from the table's columns: no objects.
    const t = state.files;
    const pk = newPeek();
    const check = (rel: string, p: Peek) => {
      if (assist && gitVouchable(p) && !assist.modified.has(rel)) return;
      statted++;
      const st = lstat(base + rel);
      if (!st || !(st.isFile() || st.isSymbolicLink())) {
        gone.push(rel);
        return;
      }
      if (sameStat(p, st) && !(p.flags & (F_RACY | F_PENDING))) return;
      visit(rel, entryFromStat(st, scanStart, racyMs));
    };
    for (let i = 0; i < t.rows; i++) if (t.isLive(i)) check(t.pathAt(i), t.peek(i, pk));
    for (const [rel, e] of [...t.added()]) check(rel, peekOf(e, pk));
    for (const [rel, cur] of inc.fresh) visit(rel, cur);
  } else {
    statted = w!.files.size;
    for (const [rel, cur] of w!.files) visit(rel, cur);
    for (const rel of state.files.keys()) if (!w!.files.has(rel)) gone.push(rel);
  }

  for (const rel of gone) {
    const prev = state.files.get(rel);
    if (!prev) continue;
    const st = lstat(base + rel);
    state.files.delete(rel);
    dirty = true;
    if (st && (st.isFile() || st.isSymbolicLink())) continue; // now ignored: out of scope, not deleted
    if (prev.flags & F_PENDING) continue; // never captured: nothing to restore
    changes.push({ path: rel, before: prev, after: null });
  }
  // Git did not look at folders for us: the ones the deletions emptied away are found here.
  if (inc && assist?.untracked) inc.goneDirs.push(...goneFolders(state, gone, inc.goneDirs));
  if (state.gitCache && (gone.length || inc?.fresh.size)) dirty = updateWatch(state, gone, rules, limits) || dirty;

  if (inc) {
    if (inc.dirUpdates.size || inc.goneDirs.length) {
      // Updated in place; what was known before stays answerable for the snapshots' `dirs`.
      const table = state.dirs;
      const added = new Set<string>();
      const removed = new Set<string>();
      for (const d of inc.goneDirs) if (table.delete(d)) removed.add(d);
      for (const [d, s] of inc.dirUpdates) {
        const old = table.get(d);
        if (!old) added.add(d);
        if (!old || old.racy !== s.racy || !sameDirStat(old, s)) dirty = true;
        table.set(d, s);
      }
      if (removed.size) dirty = true;
      prevDirs = { has: (rel: string) => removed.has(rel) || (!added.has(rel) && table.has(rel)) };
      if (Object.keys(inc.newIgnoreFiles).length) {
        Object.assign(state.ignoreFiles, inc.newIgnoreFiles);
        dirty = true;
      }
    }
  } else {
    if (!sameDirs(state.dirs, w!.dirs) || !sameKeys(state.ignoreFiles, w!.ignoreFiles)) dirty = true;
    state.dirs = new DirTable(w!.dirs);
    state.ignoreFiles = w!.ignoreFiles;
  }
  // A folder the state did not know (an empty one, which git does not list) but that was made
  // before the last scan was there before this command: a rewind must not remove it.
  const known = prevDirs;
  const since = state.scanned;
  prevDirs = { has: (rel: string) => known.has(rel) || bornBefore(base + rel, since) };
  state.scanned = scanStart;
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return result({ changes, read, statted, files: state.files.size, listed: inc ? inc.listed : state.dirs.size, git: !!assist, cached: !!assist?.untracked, dirty });
}

/** Made before `time`, by its birth time (0, or the ctime where there is none: never before). */
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

// ---- the index: which tracked files are clean

interface TrackedEntry {
  mode: number;
  id: string;
  /** The work tree may differ without the stat check noticing, or the entry is conflicted / intent-to-add. */
  untrusted: boolean;
  /** Index stat data (direct read), or null (listed by git). */
  stat: GitIndexEntry | null;
}

interface Tracked {
  entries: Map<string, TrackedEntry>;
  /** From the index file: its mtime (racy entries), whether it stores nanoseconds, its stat key. */
  mtimeMs: number;
  nsec: boolean;
  key: string;
  /** Entries in the whole index (under the root or not). */
  total: number;
  /** From git (when the index file could not be read): tracked paths whose file may differ. */
  modified: Set<string> | null;
  source: 'index' | 'git';
}

function indexOf(info: Pick<RepoInfo, 'top' | 'gitDir' | 'objectFormat'>, root: string): Tracked | null {
  const rel = path.relative(info.top, root).split(path.sep).join('/');
  const prefix = rel && !rel.startsWith('..') ? rel + '/' : '';
  const idx = readGitIndex(info.gitDir, info.objectFormat);
  if (idx) {
    const entries = new Map<string, TrackedEntry>();
    for (const ie of idx.entries) {
      if (prefix && !ie.path.startsWith(prefix)) continue;
      const p = prefix ? ie.path.slice(prefix.length) : ie.path;
      const dup = entries.get(p);
      const untrusted = ie.stage !== 0 || ie.assumeValid || ie.skipWorktree || ie.intentToAdd || !!dup;
      entries.set(p, { mode: ie.mode, id: ie.id, untrusted, stat: ie });
    }
    return { entries, mtimeMs: idx.mtimeMs, nsec: idx.nsec, key: idx.key, total: idx.entries.length, modified: null, source: 'index' };
  }
  // An index we do not read ourselves (split or sparse index, a future version): ask git.
  const key = gitIndexKey(info.gitDir);
  const listed = indexEntries(root);
  const modified = listed ? modifiedTracked(root) : null;
  if (!listed || !modified) return null;
  const entries = new Map<string, TrackedEntry>();
  for (const [p, e] of listed) entries.set(p, { mode: parseInt(e.mode, 8), id: e.id, untrusted: e.untrusted, stat: null });
  return { entries, mtimeMs: 0, nsec: false, key: gitIndexKey(info.gitDir) === key ? key : '?', total: entries.size, modified, source: 'git' };
}

function modeFits(te: TrackedEntry, link: boolean): boolean {
  return link ? te.mode === 0o120000 : te.mode === 0o100644 || te.mode === 0o100755;
}

/**
 * Our own stat check of one tracked file against its index entry, as git's would be: 'clean'
 * (the work-tree file is the index blob), 'racy' (its stat matches but it was modified too close
 * to the index's own write to be sure: compare the content), or 'changed'.
 */
function indexState(t: Tracked, te: TrackedEntry, e: Entry, rel: string): 'clean' | 'racy' | 'changed' {
  if (te.untrusted || !modeFits(te, !!(e.flags & F_LINK))) return 'changed';
  if (t.modified) return t.modified.has(rel) ? 'changed' : 'clean';
  const ie = te.stat!;
  if (ie.size !== e.size % TWO32) return 'changed';
  if (ie.ino !== 0 && ie.ino !== e.ino % TWO32) return 'changed';
  const mtime = ie.mtimeSec * 1000 + ie.mtimeNsec / 1e6;
  if (t.nsec ? Math.abs(e.mtime - mtime) >= 0.001 : Math.floor(e.mtime / 1000) !== ie.mtimeSec) return 'changed';
  // git for Windows stores the creation time as ctime; elsewhere a chmod or rename shows here.
  if (process.platform !== 'win32') {
    const ctime = ie.ctimeSec * 1000 + ie.ctimeNsec / 1e6;
    if (t.nsec ? Math.abs(e.ctime - ctime) >= 0.001 : Math.floor(e.ctime / 1000) !== ie.ctimeSec) return 'changed';
  }
  // Racily clean (git's rule): modified at or after the index was written.
  if (t.nsec ? mtime >= t.mtimeMs - 0.001 : ie.mtimeSec >= Math.floor(t.mtimeMs / 1000)) return 'racy';
  return 'clean';
}

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
  return { key, copy, job: statusOnCopy(state.root, copy, path.join(opts.storeDir, 'scan'), racyMs) };
}

/**
 * The baseline's walk done by git: `git status` against a fresh copy of the index lists the
 * untracked files (and fills the untracked cache the session's scans will use) while we take every
 * clean tracked file's entry from the index; then we stat the files git says differ from it, and
 * walk ourselves only what git does not look into (submodules, nested repositories). Folders get
 * no stat of ours (marked racy: a scan of ours lists them when git cannot help); empty folders are
 * not known. Null when git cannot do it (the caller walks the tree).
 */
function walkWithGit(state: ScanState, info: RepoInfo, tracked: Tracked, rules: Rules, opts: ScanOptions, t0: number, racyMs: number, started: StartedStatus): { walked: Walked; modified: Set<string>; skipped: string[] } | null {
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
    else if (te.untrusted || !te.stat || !(te.mode === 0o120000 || te.mode === 0o100644 || te.mode === 0o100755) || te.stat.size > limits.maxFileBytes) toStat.push(rel);
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
export function baseline(root: string, session: string, opts: ScanOptions & { budgetMs: number; reuse?: ScanState | null }): BaselineResult {
  const t0 = Date.now();
  const racyMs = opts.racyMs ?? RACY_MS;
  const info = repoInfo(root);
  const state: ScanState = {
    v: 2,
    root,
    session,
    created: t0,
    scanned: t0,
    git: info ? { top: info.top, gitDir: info.gitDir, objectFormat: info.objectFormat, filters: info.filters, excludesFile: info.excludesFile } : null,
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
        if (!te || te.untrusted || !te.stat || vouched!.has(rel) || !(te.mode === 0o120000 || te.mode === 0o100644 || te.mode === 0o100755)) return null;
        if (te.stat.size > opts.limits.maxFileBytes) return null;
        return entryFromIndex(te.stat, t0, racyMs);
      }
    : null;
  w ??= walk(root, rules, opts.limits, reuse && sameGit(reuse.git, state.git) ? reuse : null, { tracked: tracked?.entries ?? null, adopt, scanStart: t0, racyMs });
  const index = tracked ? (gw ? 'status' : vouched ? 'diff-files' : tracked.source) : 'none';
  if (w.tooMany) return { state, files: w.count, pending: 0, copied: 0, fromGit: 0, reused: 0, index, ms: Date.now() - t0, tooMany: { count: w.count } };
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
    if (old && sameEntryStat(old, e) && !(old.flags & (F_RACY | F_PENDING | F_LARGE)) && (old.git || (old.hash && new BlobStore(opts.storeDir).has(old.hash)))) {
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
  if (gw) state.gitCache = { ...cacheRecord(state, tracked!.key, tracked!.entries, rules, opts.limits), ...(gw.skipped.length ? { skipped: gw.skipped } : {}) };
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
  const r = st && (st.isFile() || st.isSymbolicLink()) ? readNow(abs, entryFromStat(st, Date.now(), opts.racyMs ?? RACY_MS), opts.limits) : null;
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

/** Blob hashes one state file refers to (content a later `before` record may need); null when unreadable. */
export function stateBlobs(file: string): Set<string> | null {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return null;
  }
  const r = readHeader(buf);
  if (r) return decode(buf, r, file, true) as Set<string> | null;
  const s = loadLegacy(file);
  if (!s) return null;
  const out = new Set<string>();
  for (const e of s.files.values()) if (e.hash) out.add(e.hash);
  return out;
}

/** Blob hashes every scan state in the store refers to: gc must keep them. */
export function referencedBlobs(storeDir: string): Set<string> {
  const out = new Set<string>();
  for (const f of stateFiles(storeDir)) for (const h of stateBlobs(f) ?? []) out.add(h);
  return out;
}

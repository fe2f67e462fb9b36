// The scan state file (`<store>/scan/<session>.scan`) and the files beside it: the binary codec
// (and the version 1 JSON form, still read), the in-flight shell call's small pending file, the
// list of a state's companion files, and where each lives.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { readOpen, readRange, writeFileAtomic } from '../storeFiles/fsx';
import { fileNameOf } from '../paths';
import { type DirStat, DirTable, type Entry, FileTable, K_GIT, K_HASH } from './table';
import { F_PENDING, type ScanState } from './types';
import { STORE_FILE } from '../storeFiles/names';
import { readJsonFile } from '../storeFiles/jsonFile';

// The format: binary, little-endian, loaded by every shell hook (so it must parse in a millisecond or two):
//   "ARSCAN2\n", u32 header length, header JSON ({v, root, session, created, scanned, git, off?,
//   dirTimes, indexKey?, gitCache?, pending, ignoreFiles, n, d, idBytes, pathBytes, dirPathBytes}), zero padding to 8 bytes, then
//   f64[n×5] file stats (size, mtime, ctime, ino, mode), f64[d×3] folder stats (mtime, ctime, ino),
//   u8[n] file flags, u8[n] id kinds (1: sha256 follows, 2: git id follows), u8[d] folder flags
//   (1: racy), the ids (raw bytes, in file order), the file paths and the folder paths (UTF-8,
//   NUL-separated). A file of another size than the header announces is treated as no state.
// Version 1 (`<session>.json`, one JSON object) is still read.
//
// The journal (`<session>.journal`, JSON): what changed since the state file with header `id` was
// written — the header's fields, the file and folder rows set, the loaded rows deleted. A shell call
// changes a handful of rows of a state that can hold 100,000: writing those (a few KB) instead of the
// whole state (MBs) keeps the call's cost flat in the tree's size. Each save writes the journal whole
// (atomically, against the same base) until it would list more than JOURNAL_ROWS rows, then the whole
// state is written with a new id — which makes the journal stale (ignored) before it is removed.

const MAGIC = Buffer.from('ARSCAN2\n', 'latin1');
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function stateFile(storeDir: string, session: string): string {
  return path.join(storeDir, STORE_FILE.scan, `${fileNameOf(session, 'session')}.scan`);
}

function legacyFile(file: string): string {
  return file.replace(/\.scan$/, '.json');
}

/** Scan state files in a store (current and version 1), for gc and for reuse across sessions. */
export function stateFiles(storeDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(storeDir, STORE_FILE.scan));
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.scan') || n.endsWith('.json')).map((n) => path.join(storeDir, STORE_FILE.scan, n));
}

export interface Header {
  v: 2;
  /** This writing of the state: the journal beside it names it as its base. */
  id?: string;
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

export function readHeader(buf: Buffer): { h: Header; body: number } | null {
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
export function readHeaderOnly(file: string): Header | 'legacy' | null {
  return readOpen(file, (fd) => {
    const head = readRange(fd, 0, 12);
    if (head.length !== 12) return null;
    if (!head.subarray(0, 8).equals(MAGIC)) return 'legacy';
    const len = head.readUInt32LE(8);
    const buf = readRange(fd, 0, 12 + len);
    if (buf.length !== 12 + len) return null;
    return readHeader(buf)?.h ?? null;
  });
}

/** Decodes a state file's body. `idsOnly`: just the content hashes (for gc), no entries. */
export function decode(buf: Buffer, r: { h: Header; body: number }, file: string, idsOnly: boolean): ScanState | Set<string> | null {
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
  // Columns stay columns: rows become objects only when asked for (table.ts).
  const files = FileTable.fromColumns(
    paths,
    fnum,
    buf.slice(fflagsAt, kindsAt),
    buf.slice(kindsAt, dflagsAt),
    buf.subarray(idsAt, pathsAt),
    gitLen,
  );
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
    ...(typeof h.id === 'string' && !h.off ? { journalBase: h.id } : {}),
    files,
    dirs,
    ignoreFiles: h.ignoreFiles ?? {},
  };
}

export function validGitCache(c: unknown): c is NonNullable<ScanState['gitCache']> {
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
  const state = decode(buf, r, file, false) as ScanState | null;
  if (state?.journalBase) applyJournal(state, readJournal(file, state.journalBase));
  return state;
}

type EntryTuple = [number, number, number, number, number, string | null, string | null, number];

/** A version 1 state (JSON). Its folders have no stats: the first scan lists them all. */
export function loadLegacy(file: string): ScanState | null {
  const raw = readJsonFile(file) as Record<string, unknown> | null | undefined;
  if (!raw || raw.v !== 1 || typeof raw.root !== 'string') return null;
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

/** Most rows a journal lists (files and folders), for a state of `rows` files: past it the whole state is written. */
export function journalRows(rows: number): number {
  return Math.max(256, Math.ceil(rows / 64));
}

/** The journal of the state in `file`. */
export function journalFile(file: string): string {
  return file.replace(/\.(scan|json)$/, '') + '.journal';
}

/** The header fields a journal carries (every field a scan may change; `off` is only ever written whole). */
type JournalHead = Pick<
  ScanState,
  'root' | 'session' | 'created' | 'scanned' | 'git' | 'dirTimes' | 'indexKey' | 'gitCache' | 'ignoreFiles'
>;

interface Journal {
  v: 1;
  base: string;
  head: JournalHead;
  files: [string, Entry][];
  filesGone: string[];
  dirs: [string, DirStat][];
  dirsGone: string[];
}

/** The journal written against the state file whose id is `base`; null when there is none, or one of another base. */
export function readJournal(file: string, base?: string): Journal | null {
  const j = readJsonFile(journalFile(file)) as Journal | null | undefined;
  const ok = j?.v === 1 && typeof j.base === 'string' && !!j.head && [j.files, j.filesGone, j.dirs, j.dirsGone].every(Array.isArray);
  return ok && (base === undefined || j.base === base) ? j : null;
}

function applyJournal(s: ScanState, j: Journal | null): void {
  if (!j) return;
  const h = j.head;
  s.created = h.created;
  s.scanned = h.scanned;
  s.git = h.git ?? null;
  s.dirTimes = h.dirTimes !== false;
  if (typeof h.indexKey === 'string') s.indexKey = h.indexKey;
  else delete s.indexKey;
  if (validGitCache(h.gitCache)) s.gitCache = h.gitCache;
  else delete s.gitCache;
  s.ignoreFiles = h.ignoreFiles ?? {};
  for (const rel of j.filesGone) s.files.delete(rel);
  for (const [rel, e] of j.files) s.files.set(rel, e);
  for (const rel of j.dirsGone) s.dirs.delete(rel);
  for (const [rel, d] of j.dirs) s.dirs.set(rel, d);
}

/**
 * Writes only what changed since the state was loaded (the journal), when it can; false when the whole
 * state must be written: a state built anew or turned off, or too many rows changed.
 */
function saveJournal(file: string, s: ScanState): boolean {
  if (!s.journalBase || s.off || !file.endsWith('.scan')) return false;
  const max = journalRows(s.files.rows);
  const files = s.files.changesSinceLoad(max);
  const dirs = files && s.dirs.changesSinceLoad(max - files.set.length - files.gone.length);
  if (!files || !dirs) return false;
  const head: JournalHead = {
    root: s.root,
    session: s.session,
    created: s.created,
    scanned: s.scanned,
    git: s.git,
    dirTimes: s.dirTimes,
    ...(s.indexKey ? { indexKey: s.indexKey } : {}),
    ...(s.gitCache ? { gitCache: s.gitCache } : {}),
    ignoreFiles: s.ignoreFiles,
  };
  const j: Journal = { v: 1, base: s.journalBase, head, files: files.set, filesGone: files.gone, dirs: dirs.set, dirsGone: dirs.gone };
  writeFileAtomic(journalFile(file), JSON.stringify(j));
  return true;
}

/**
 * Saves the state: its journal when only a few rows changed since it was loaded, else the whole state
 * (a new id; the journal of the old one is removed). Either way the state in memory is then what a
 * load of the file gives: written whole, its tables become the columns written, the new file is the
 * base of its next journal, and the pending count is the one written (a holder may use it again).
 */
export function saveState(file: string, s: ScanState): 'journal' | 'whole' {
  if (saveJournal(file, s)) return 'journal';
  saveWhole(file, s);
  fs.rmSync(journalFile(file), { force: true });
  return 'whole';
}

/** Writes the state whole, and makes the state in memory what a load of the written file gives (see `decode`). */
function saveWhole(file: string, s: ScanState): void {
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
    id: randomBytes(8).toString('hex'),
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
  const parts = [
    lead.subarray(0, 12),
    hbuf,
    lead.subarray(12),
    Buffer.from(fnum.buffer, fnum.byteOffset, fnum.byteLength),
    Buffer.from(dnum.buffer, dnum.byteOffset, dnum.byteLength),
    meta,
    ids,
    pathBuf,
    dirPathBuf,
  ];
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomic(file, Buffer.concat(parts));
  s.files.becomeColumns(f, gitLen);
  s.dirs.becomeColumns(dc);
  s.pendingAtLoad = pending;
  if (s.off) delete s.journalBase;
  else s.journalBase = header.id!;
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
  return (readJsonFile(pendingFile(file)) as ScanState['pending'] | undefined) ?? null;
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
  writeFileAtomic(pf, JSON.stringify(pending));
}

/** Every file that belongs to a state: the state itself, its version 1 form, its pending call, its index copy, their locks. */
export function stateCompanions(file: string): string[] {
  const base = file.replace(/\.(scan|json)$/, '');
  return [
    `${base}.scan`,
    `${base}.json`,
    `${base}.pending`,
    `${base}.journal`,
    `${base}.index`,
    `${base}.index.at`,
    `${base}.scan.lock`,
    `${base}.json.lock`,
    `${base}.index.lock`,
  ];
}

/** Our copy of the git index for the state in `file` (see `ScanState.gitCache`). */
export function indexCopyFile(file: string): string {
  return file.replace(/\.(scan|json)$/, '') + '.index';
}

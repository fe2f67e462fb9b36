// The latest recorded state of every path, kept in `latest.json` beside the log so that a turn
// boundary does not parse the whole log (10,000 recorded paths: a 2.4 MB log) at every prompt. The
// file is derived and disposable: it names the log it was made from (inode, length, a hash of the
// bytes just before that length) and is used only while the log still starts with those bytes;
// the log's tail after that length is parsed and folded in. Any doubt — a missing, torn or stale
// file, a log rewritten by gc — and the whole log is read, as without the cache. Written by
// temp-file-and-rename, so a kill leaves the old file or the new one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseLine } from '../storeFiles/fileLog';
import { eachLine } from '../storeFiles/jsonLines';
import { readRange } from '../storeFiles/fsx';
import { markAt, prefixHolds, writeDerived } from '../storeFiles/logPrefix';
import type { SnapRecord } from '../storeFiles/records';
import { STORE_FILE } from '../storeFiles/names';
import { readJsonFile } from '../storeFiles/jsonFile';

/** What the boundary observation compares with the disk. */
export type LatestState = Pick<SnapRecord, 'path' | 'hash' | 'size' | 'mtime' | 'mode' | 'link' | 'skipped'>;

/**
 * Columns, not an object per path: one JSON string of NUL-separated paths (a path never holds a
 * NUL), one of concatenated hashes, plain number arrays. Parsing 10,000 paths this way costs a few
 * milliseconds; an array per path cost thirty.
 */
interface CacheFile {
  v: 2;
  ino: number;
  size: number;
  /** sha256 of the (up to) 256 bytes of the log just before `size`. */
  mark: string;
  paths: string;
  /** 64 hex digits per path; 64 '-' for "no content" (missing, too large, unreadable). */
  hashes: string;
  /** -1: not recorded. */
  sizes: number[];
  mtimes: number[];
  modes: number[];
  /** One character per path: '-' plain, 'l' symlink, 't' too-large, 'u' unreadable, 's' special. */
  flags: string;
}

const NO_HASH = '-'.repeat(64);
const SKIPPED: Record<string, SnapRecord['skipped']> = { t: 'too-large', u: 'unreadable', s: 'special' };
const SKIP_FLAG: Record<string, string> = { 'too-large': 't', unreadable: 'u', special: 's' };

function toColumns(states: Iterable<LatestState>): Omit<CacheFile, 'v' | 'ino' | 'size' | 'mark'> {
  const paths: string[] = [];
  const hashes: string[] = [];
  const sizes: number[] = [];
  const mtimes: number[] = [];
  const modes: number[] = [];
  let flags = '';
  for (const r of states) {
    paths.push(r.path);
    hashes.push(r.hash ?? NO_HASH);
    sizes.push(r.size ?? -1);
    mtimes.push(r.mtime ?? -1);
    modes.push(r.mode ?? -1);
    flags += r.skipped ? (SKIP_FLAG[r.skipped] ?? 's') : r.link ? 'l' : '-';
  }
  return { paths: paths.join('\0'), hashes: hashes.join(''), sizes, mtimes, modes, flags };
}

type Columns = Omit<CacheFile, 'v' | 'ino' | 'size' | 'mark' | 'paths'> & { paths: string[] };

function columnsOf(c: CacheFile): Columns | null {
  const paths = c.paths === '' ? [] : c.paths.split('\0');
  const n = paths.length;
  const ok = c.hashes.length === n * 64 && c.sizes.length === n && c.mtimes.length === n && c.modes.length === n && c.flags.length === n;
  return ok ? { ...c, paths } : null;
}

function stateOf(c: Columns, i: number): LatestState {
  const h = c.hashes.slice(i * 64, i * 64 + 64);
  const s: LatestState = { path: c.paths[i]!, hash: h === NO_HASH ? null : h };
  if (c.sizes[i]! >= 0) s.size = c.sizes[i]!;
  if (c.mtimes[i]! >= 0) s.mtime = c.mtimes[i]!;
  if (c.modes[i]! >= 0) s.mode = c.modes[i]!;
  const f = c.flags[i]!;
  if (f === 'l') s.link = true;
  else if (f !== '-') s.skipped = SKIPPED[f] ?? 'special';
  return s;
}

/**
 * The latest state of every recorded path: the cached columns, shadowed by the records after
 * them (`later`). A state object is built only when asked for: most paths are only stat'ed.
 */
export class LatestTable {
  constructor(
    private readonly cols: Columns | null,
    private readonly later: Map<string, LatestState>,
  ) {}

  /** Records this hook is about to write count as the latest of their paths. */
  shadow(r: LatestState): void {
    this.later.set(r.path, r);
  }

  get size(): number {
    let n = this.later.size;
    if (this.cols) for (const p of this.cols.paths) if (!this.later.has(p)) n++;
    return n;
  }

  /**
   * Each path with its state. `plainFile` is set when the latest record is a regular file whose
   * size, mtime and executable bit are known — what a stat can vouch for without the state.
   */
  forEach(fn: (path: string, state: () => LatestState, plainFile: { size: number; mtime: number; mode: number } | null) => void): void {
    const c = this.cols;
    if (c) {
      const quick = { size: 0, mtime: 0, mode: 0 };
      for (let i = 0; i < c.paths.length; i++) {
        const p = c.paths[i]!;
        if (this.later.has(p)) continue;
        const plain = c.flags[i] === '-' && c.sizes[i]! >= 0 && c.mtimes[i]! >= 0 && c.hashes.charCodeAt(i * 64) !== 0x2d;
        if (plain) {
          quick.size = c.sizes[i]!;
          quick.mtime = c.mtimes[i]!;
          quick.mode = c.modes[i]!;
        }
        fn(p, () => stateOf(c, i), plain ? quick : null);
      }
    }
    for (const [p, r] of this.later) {
      const plain = !r.link && !r.skipped && r.hash !== null && r.size !== undefined && r.mtime !== undefined;
      fn(p, () => r, plain ? { size: r.size!, mtime: r.mtime!, mode: r.mode ?? -1 } : null);
    }
  }

  /** The latest state of one path, or undefined when nothing records it. */
  get(p: string): LatestState | undefined {
    const later = this.later.get(p);
    if (later) return later;
    const c = this.cols;
    const i = c ? c.paths.indexOf(p) : -1;
    return c && i >= 0 ? stateOf(c, i) : undefined;
  }

  /** Every path's state as a map (tests, tools: the hook path uses forEach). */
  toMap(): Map<string, LatestState> {
    const out = new Map<string, LatestState>();
    this.forEach((p, state) => out.set(p, state()));
    return out;
  }
}

/** Rewrite the cache once this much log has been appended since (a prompt adds a line or two). */
const REWRITE_AFTER_BYTES = 64 * 1024;

function readCache(file: string): CacheFile | null {
  const c = readJsonFile(file) as CacheFile | null | undefined;
  return c && c.v === 2 && typeof c.paths === 'string' && typeof c.hashes === 'string' && typeof c.size === 'number' ? c : null;
}

/**
 * The cache file's columns, parsed once per version of the file in a long-lived process (the
 * resident recorder answers every prompt of a session): `latest.json` is only ever replaced by
 * rename, so its device, inode, size and mtime name one content. A hook process reads it once anyway.
 */
let lastRead: { file: string; key: string; cache: CacheFile | null; cols: Columns | null } | undefined;

function readCacheOnce(file: string): { cache: CacheFile | null; cols: Columns | null } {
  let key: string;
  try {
    const st = fs.statSync(file);
    key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return { cache: null, cols: null };
  }
  if (lastRead?.file === file && lastRead.key === key) return lastRead;
  const cache = readCache(file);
  lastRead = { file, key, cache, cols: cache ? columnsOf(cache) : null };
  return lastRead;
}

/**
 * The latest snapshot of every recorded path, as the log says now. Uses and refreshes the cache
 * in `storeDir`; falls back to reading the whole log whenever the cache cannot vouch for a prefix.
 */
export function latestSnaps(storeDir: string, logFile: string): LatestTable {
  const cacheFile = path.join(storeDir, STORE_FILE.latest);
  let fd: number;
  try {
    fd = fs.openSync(logFile, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new LatestTable(null, new Map());
    throw e;
  }
  try {
    const st = fs.fstatSync(fd);
    const read = readCacheOnce(cacheFile);
    const cache = read.cache;
    const valid = cache !== null && prefixHolds(fd, st, cache);
    const cols = valid ? read.cols : null;
    const usable = cols !== null;
    const out = new Map<string, LatestState>(); // the records after the cached prefix (all of them without one)
    const from = usable ? cache!.size : 0;
    // The rest of the log: complete lines only (a line still being written is read next time).
    const buf = readRange(fd, from, st.size);
    const got = buf.length;
    const end = buf.lastIndexOf(0x0a, got - 1) + 1;
    if (end > 0) {
      // The log reader's own rules (parseLog): blank lines skipped, bad lines ignored.
      eachLine(buf.toString('utf8', 0, end), (line) => {
        const r = parseLine(line);
        if (typeof r !== 'string' && r.t === 'snap') out.set(r.path, r);
      });
    }
    const size = from + end;
    if (!usable || size - from >= REWRITE_AFTER_BYTES) {
      const table = new LatestTable(cols, out);
      const all = table.toMap();
      writeDerived(cacheFile, JSON.stringify({ v: 2, ino: st.ino, size, mark: markAt(fd, size), ...toColumns(all.values()) }));
      return new LatestTable(null, all);
    }
    return new LatestTable(cols, out);
  } finally {
    fs.closeSync(fd);
  }
}

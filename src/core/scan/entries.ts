// A scan's file and folder entries: an entry from a file's stat or from its git index entry,
// comparing stats (racy ones included), reading a file's content now, and the small stat helpers
// every part of the scan uses (lstat that never throws, rule file keys, whether folder mtimes work).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readDisk } from '../workspace/disk';
import { PATH_MAX } from '../paths';
import type { GitIndexEntry } from '../git/indexFile';
import type { DirStat, Entry } from './table';
import { F_GITSTAT, F_LARGE, F_LINK, F_RACY, RACY_MS, type ScanLimits } from './types';
import { STORE_FILE } from '../storeFiles/names';

/**
 * An entry the scan could not stat, said once per scan that meets it: a name that is not valid UTF-8
 * (it reaches us with U+FFFD in it and cannot be opened under that name, nor written to the timeline),
 * or a path longer than the system opens. Both are left out of the scan and reported as unrecordable.
 */
export function reportUnnameable(limits: ScanLimits, rel: string, abs?: string): void {
  if (rel.includes('\ufffd')) {
    limits.report?.(`left out ${JSON.stringify(rel)}: its name is not valid UTF-8, so it cannot be recorded or rewound`);
    limits.unrecordable?.(rel, 'name-encoding');
  } else if (abs !== undefined && Buffer.byteLength(abs) >= PATH_MAX) {
    limits.report?.(`left out ${JSON.stringify(rel)}: its path is ${Buffer.byteLength(abs)} bytes, over the ${PATH_MAX} the system opens`);
    limits.unrecordable?.(rel, 'path-length');
  }
}

/** A FIFO, socket or device that is not ignored: it has no content to record; reported as unrecordable. */
export function reportSpecial(limits: ScanLimits, rel: string): void {
  limits.unrecordable?.(rel, 'special-file');
}

/**
 * `rel` under `root` as a log line can hold it: a name that is not valid UTF-8 with its bytes above
 * 0x7F written `\xNN` (read again from its folder: the name we were given has U+FFFD in their place).
 */
export function escapedPath(root: string, rel: string): string {
  const parts = rel.split('/');
  let dir = root;
  for (let i = 0; i < parts.length; i++) {
    if (!parts[i]!.includes('\ufffd')) {
      dir = path.join(dir, parts[i]!);
      continue;
    }
    let raw: Buffer | undefined;
    try {
      raw = fs.readdirSync(dir, { encoding: 'buffer' }).find((b) => b.toString('utf8') === parts[i]);
    } catch {
      /* gone: shown as we got it */
    }
    const name = raw
      ? [...raw].map((b) => (b < 0x80 ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('')
      : parts[i]!;
    return path.join(dir, name, ...parts.slice(i + 1));
  }
  return dir;
}

export function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR (a parent is a file now), EACCES…: not a file we can scan
  }
}

/** A rule file's stat key (followed: a `.gitignore` may be a link); `-` when there is none. */
export function ruleKey(p: string): string {
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

export function dirStat(st: fs.Stats, scanStart: number, racyMs: number): DirStat {
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
  const scanDir = path.join(storeDir, STORE_FILE.scan);
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

export const TWO32 = 4294967296;

/** Same stat as recorded? Stats adopted from git's index hold the size and inode in 32 bits. */
export function sameStat(
  e: Pick<Entry, 'size' | 'mtime' | 'ctime' | 'ino' | 'flags'>,
  st: { size: number; mtimeMs: number; ctimeMs: number; ino: number },
): boolean {
  if (e.flags & F_GITSTAT) {
    return (
      e.size === st.size % TWO32 &&
      e.mtime === st.mtimeMs &&
      (e.ino === 0 || e.ino === st.ino % TWO32) &&
      (e.ctime === st.ctimeMs || process.platform === 'win32')
    );
  }
  return e.size === st.size && e.mtime === st.mtimeMs && e.ctime === st.ctimeMs && e.ino === st.ino;
}

export function sameEntryStat(e: Entry, cur: Entry): boolean {
  return sameStat(e, { size: cur.size, mtimeMs: cur.mtime, ctimeMs: cur.ctime, ino: cur.ino });
}

export function entryFromStat(st: fs.Stats, scanStart: number, racyMs = RACY_MS): Entry {
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
export function entryFromIndex(ie: GitIndexEntry, scanStart: number, racyMs: number): Entry {
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

export function readNow(abs: string, cur: Entry, limits: ScanLimits): Read | null {
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

/**
 * The entry of a file git listed (or we watch), by our own stat; null when it is not a file now.
 * A name that is not valid UTF-8 cannot be stat'ed under the name we got: it goes to `skipped`.
 */
export function listedEntry(base: string, rel: string, scanStart: number, racyMs: number, skipped?: string[]): Entry | null {
  const st = lstat(base + rel);
  if (!st && skipped && rel.includes('\ufffd')) skipped.push(rel);
  return st && (st.isFile() || st.isSymbolicLink()) ? entryFromStat(st, scanStart, racyMs) : null;
}

/** A folder we did not list ourselves (git did): racy, so that a scan of ours lists it when git cannot help. */
export function unlisted(): DirStat {
  return { mtime: 0, ctime: 0, ino: 0, racy: true };
}

// Small file-system helpers the store's durability depends on: the one atomic write (every "write a temp
// file, then rename it into place" in src/ goes through replaceFile; a unit test keeps it so) and the one
// bounded read.
import * as fs from 'node:fs';
import { AgentRewindError } from '../errors';

/**
 * Writes all of `data` at the fd's position. `fs.writeSync` returns after a *short* write (a full
 * disk writes what fits, then fails on the next call) without throwing; trusting it would rename a
 * truncated temp file into place as a blob, a journal or a restored file. This loops, so a short
 * write either completes or ends in the error (ENOSPC…) that the caller must see.
 */
export function writeAll(fd: number, data: Uint8Array | string): void {
  const buf = typeof data === 'string' ? Buffer.from(data) : data;
  let off = 0;
  while (off < buf.length) {
    const n = fs.writeSync(fd, buf, off, buf.length - off);
    if (n <= 0) throw Object.assign(new Error('write wrote nothing'), { code: 'EIO' });
    off += n;
  }
}

/** The error code of a thrown value, if any. */
export function errCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | null)?.code;
}

export interface ReplaceOptions {
  /**
   * The temp file's path (default: beside `file`, unique among live processes). A temp file found there is
   * a killed run's leftover (a journal names the caller's path; a pid comes back): it is removed and made anew.
   */
  tmp?: string;
  /** Called once the temp file is complete, just before it takes `file`'s place: false keeps `file` as it is. */
  beforeRename?: () => boolean | void;
  /** Hard-link instead of rename: never over a `file` that exists (then the link's EEXIST is thrown). */
  exclusive?: boolean;
}

/**
 * Makes `file` whole or not at all: `fill` writes a temp file beside it (it must create the file it is
 * given), which is then renamed into place, so a reader (or a kill) sees the old file or the new one,
 * never half. True when `file` was replaced; false when `beforeRename` kept the old one.
 * The temp file never stays behind, also when `fill` or the rename throws (the error is the caller's).
 */
export function replaceFile(file: string, fill: (tmp: string) => void, opts: ReplaceOptions = {}): boolean {
  const tmp = opts.tmp ?? `${file}.${process.pid}.${(tmpSeq++).toString(36)}.tmp`;
  let renamed = false;
  try {
    try {
      fill(tmp);
    } catch (e) {
      if (errCode(e) !== 'EEXIST') throw e;
      fs.rmSync(tmp, { force: true }); // a killed run's leftover (the caller's name, or an earlier process of our pid)
      fill(tmp);
    }
    if (opts.beforeRename?.() === false) return false;
    if (opts.exclusive) fs.linkSync(tmp, file);
    else {
      fs.renameSync(tmp, file);
      renamed = true;
    }
    return true;
  } finally {
    if (!renamed) fs.rmSync(tmp, { force: true });
  }
}
let tmpSeq = 0;

export interface WriteOptions extends ReplaceOptions {
  /** The new file's permission bits, under the umask (default 0600: the store holds copies of source files). */
  mode?: number;
  /** Set `mode` exactly, whatever the umask (a file whose recorded or former mode is put back). */
  exactMode?: boolean;
  /** fsync before the rename: the content is on disk before the name points at it (default: no). */
  sync?: boolean;
}

/**
 * What tells one version of a file from another without reading it: inode, size and nanosecond times
 * ('-' when there is none). A file replaced by rename is a new inode; one written in place moves its times.
 */
export function fileMark(file: string): string {
  const st = fs.statSync(file, { throwIfNoEntry: false, bigint: true });
  return st ? statMark(st) : '-';
}

/** `fileMark` of stats already taken (with `bigint: true`). */
export function statMark(st: fs.BigIntStats): string {
  return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/** `replaceFile` with `data` as the content: the temp file is created exclusively (never through a link left there). */
export function writeFileAtomic(file: string, data: Uint8Array | string, opts: WriteOptions = {}): boolean {
  const mode = opts.mode ?? 0o600;
  return replaceFile(
    file,
    (tmp) => {
      const fd = fs.openSync(tmp, 'wx', mode);
      try {
        writeAll(fd, data);
        if (opts.sync) fs.fsyncSync(fd);
        if (opts.exactMode) fs.fchmodSync(fd, mode);
      } finally {
        fs.closeSync(fd);
      }
    },
    opts,
  );
}

/** The bytes of `fd` from `from` up to `to` (fewer if the file is shorter now). */
export function readRange(fd: number, from: number, to: number): Buffer {
  const buf = Buffer.allocUnsafe(Math.max(0, to - from)); // every byte is read over, or cut off
  let got = 0;
  while (got < buf.length) {
    const n = fs.readSync(fd, buf, got, buf.length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  return got < buf.length ? buf.subarray(0, got) : buf;
}

/**
 * Opens `file` for reading, a regular file only (NotRegularFileError otherwise), never waiting on it: a FIFO
 * opened for reading blocks until someone writes to it, so it is opened non-blocking and refused after a look
 * at what it is. Every path a user or a payload gives (a transcript) and every store file is opened so.
 */
export function openRegularFile(file: string): number {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  let regular = false;
  try {
    regular = fs.fstatSync(fd).isFile();
  } finally {
    if (!regular) fs.closeSync(fd);
  }
  if (!regular) throw new AgentRewindError('not-regular-file', { file });
  return fd;
}

/**
 * The one bounded read: `file` opened for reading, handed to `read` (which takes what it needs with
 * `readRange`), and closed whatever happens; null when it cannot be opened or is not a regular file.
 */
export function readOpen<T>(file: string, read: (fd: number) => T): T | null {
  let fd: number;
  try {
    fd = openRegularFile(file);
  } catch {
    return null;
  }
  try {
    return read(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * All of `file` as UTF-8 text, a regular file only (`openRegularFile`: a FIFO is refused, never waited on);
 * unlike `readOpen` it throws when the file cannot be read, for a caller that names the file to the user.
 */
export function readRegularText(file: string): string {
  const fd = openRegularFile(file);
  try {
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** The first `maxBytes` of `file` (all of it when shorter), or null when it cannot be opened: a look at a file's head. */
export function readHead(file: string, maxBytes: number): Buffer | null {
  return readOpen(file, (fd) => readRange(fd, 0, maxBytes));
}

/**
 * The last `maxBytes` of `file` (all of it when shorter) and the offset they start at (> 0: the first line
 * there may be cut), or null when it cannot be opened: a look back from an append-only file's end.
 */
export function readTailBytes(file: string, maxBytes: number): { bytes: Buffer; from: number } | null {
  return readOpen(file, (fd) => {
    const size = fs.fstatSync(fd).size;
    const from = Math.max(0, size - maxBytes);
    return { bytes: readRange(fd, from, size), from };
  });
}

/**
 * Replaces a small file the extension owns (settings, open folders) by temp file and rename, so a hook
 * reads the old text or the new one, never half; returns false (and writes nothing) when it already holds `text`.
 */
export function replaceFileIfChanged(file: string, text: string): boolean {
  try {
    if (fs.readFileSync(file, 'utf8') === text) return false;
  } catch {
    /* first write */
  }
  return writeFileAtomic(file, text);
}

/**
 * Makes everything written to the file system that holds `dir` durable in one call (Linux `syncfs`,
 * through coreutils' `sync -f`): one flush for a large batch of files instead of an fsync each, which on
 * a busy disk cost milliseconds apiece. False where it cannot (another system, no such command, an
 * error): the caller then fsyncs each file itself.
 */
export function syncFileSystem(dir: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
    return spawnSync('sync', ['-f', dir], { stdio: 'ignore', timeout: 120000 }).status === 0;
  } catch {
    return false;
  }
}

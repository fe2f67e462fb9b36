// Reading what is on disk at a path without ever following it elsewhere: symlinks are read as
// links (never followed), FIFOs and devices are never opened, files are opened with O_NOFOLLOW and
// checked with fstat so the thing we read is the thing we stat'ed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256 } from '../storeFiles/blobs';

/** What is at a path on disk now. */
export interface DiskFact {
  kind: 'missing' | 'file' | 'symlink' | 'other' | 'unreadable';
  /** sha256 of the content (file) or of the link target (symlink); absent when too large to hash. */
  hash?: string;
  size?: number;
  mtime?: number;
  /** Permission bits (files). */
  mode?: number;
}

export type DiskRead =
  | { kind: 'missing'; missingDirs: string[] }
  | { kind: 'file'; data: Buffer; size: number; mtime: number; mode: number }
  | { kind: 'symlink'; data: Buffer; size: number; mtime: number }
  | { kind: 'too-large'; size: number; mtime: number; mode: number }
  | { kind: 'unreadable'; error: string }
  | { kind: 'other' };

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/** Ancestors of a missing path that are missing too, nearest first (so a rewind can remove them again). */
export function missingAncestors(p: string): string[] {
  const out: string[] = [];
  let dir = path.dirname(p);
  while (dir !== path.dirname(dir)) {
    try {
      fs.lstatSync(dir);
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') break;
      out.push(dir);
      dir = path.dirname(dir);
    }
  }
  return out;
}

/**
 * The checks `readDisk` makes before it reads a file's bytes: a missing path, a symlink (read as a link), anything but
 * a regular file, a file over `maxBytes`, one that cannot be opened; else the open file and what fstat says of it.
 */
function openChecked(p: string, maxBytes: number): DiskRead | { fd: number; fst: fs.Stats } {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing', missingDirs: missingAncestors(p) };
    return { kind: 'unreadable', error: code ?? String(e) };
  }
  if (st.isSymbolicLink()) {
    try {
      const target = fs.readlinkSync(p, { encoding: 'buffer' });
      return { kind: 'symlink', data: target, size: target.length, mtime: st.mtimeMs };
    } catch (e) {
      return { kind: 'unreadable', error: (e as NodeJS.ErrnoException).code ?? String(e) };
    }
  }
  if (!st.isFile()) return { kind: 'other' };
  if (st.size > maxBytes) return { kind: 'too-large', size: st.size, mtime: st.mtimeMs, mode: st.mode & 0o7777 };
  let fd: number;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing', missingDirs: missingAncestors(p) };
    if (code === 'ELOOP') return openChecked(p, maxBytes); // became a symlink in between
    return { kind: 'unreadable', error: code ?? String(e) };
  }
  let fst: fs.Stats;
  try {
    fst = fs.fstatSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    return { kind: 'unreadable', error: (e as NodeJS.ErrnoException).code ?? String(e) };
  }
  if (fst.isFile() && fst.size <= maxBytes) return { fd, fst };
  fs.closeSync(fd);
  return fst.isFile() ? { kind: 'too-large', size: fst.size, mtime: fst.mtimeMs, mode: fst.mode & 0o7777 } : { kind: 'other' };
}

export function readDisk(p: string, maxBytes: number): DiskRead {
  const opened = openChecked(p, maxBytes);
  if ('kind' in opened) return opened;
  const { fd, fst } = opened;
  try {
    // Read until EOF rather than trusting fstat's size: the file may grow while we read.
    const parts: Buffer[] = [];
    let total = 0;
    let buf = Buffer.allocUnsafe(Math.max(fst.size, 1) + 1);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, total);
      if (n === 0) break;
      parts.push(Buffer.from(buf.subarray(0, n)));
      total += n;
      if (total > maxBytes) return { kind: 'too-large', size: total, mtime: fst.mtimeMs, mode: fst.mode & 0o7777 };
      if (buf.length < 65536) buf = Buffer.allocUnsafe(65536);
    }
    const all = parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
    return { kind: 'file', data: all, size: all.length, mtime: fst.mtimeMs, mode: fst.mode & 0o7777 };
  } catch (e) {
    return { kind: 'unreadable', error: (e as NodeJS.ErrnoException).code ?? String(e) };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * What `readDisk` would find at `p`, from its checks alone (stat, open, fstat), without reading or hashing the bytes:
 * for the counts of every checkpoint (`checkpoints`, the Files view), which ask only whether a file could be kept.
 * It differs from `readDisk` only when the read itself fails after the open, or the file grows past `maxBytes` while
 * being read; the plan of that one rewind reads it whole and says so.
 */
export function diskKind(p: string, maxBytes: number): DiskRead['kind'] {
  const opened = openChecked(p, maxBytes);
  if ('kind' in opened) return opened.kind;
  fs.closeSync(opened.fd);
  return 'file';
}

/** The disk fact the safety check compares against the log; `read` gets a regular file's bytes (its hash is the fact's). */
export function diskFact(p: string, maxBytes: number, read?: (data: Buffer) => void): DiskFact {
  const r = readDisk(p, maxBytes);
  switch (r.kind) {
    case 'missing':
      return { kind: 'missing' };
    case 'file':
      read?.(r.data);
      return { kind: 'file', hash: sha256(r.data), size: r.size, mtime: r.mtime, mode: r.mode };
    case 'symlink':
      return { kind: 'symlink', hash: sha256(r.data), size: r.size, mtime: r.mtime };
    case 'too-large':
      return { kind: 'file', size: r.size, mtime: r.mtime };
    case 'unreadable':
      return { kind: 'unreadable' };
    default:
      return { kind: 'other' };
  }
}

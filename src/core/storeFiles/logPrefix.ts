// How a derived file beside an append-only log (latest.json, timeline.idx) names the log
// prefix it was made from: the log's inode, a length, and a hash of the bytes just before that
// length. The derived file is used only while the log still starts with those bytes; a log
// rewritten by gc (new inode), shrunk or replaced makes it stale, and the whole log is read.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { writeFileAtomic } from './fsx';

const MARK_BYTES = 256;

/** sha256 of the (up to) 256 bytes of the open file `fd` just before `end`. */
export function markAt(fd: number, end: number): string {
  const start = Math.max(0, end - MARK_BYTES);
  const buf = Buffer.alloc(end - start);
  fs.readSync(fd, buf, 0, buf.length, start);
  return createHash('sha256').update(buf).digest('hex');
}

/** True when the open log `fd` (stat `st`) still starts with the prefix a derived file names. */
export function prefixHolds(fd: number, st: fs.Stats, p: { ino: number; size: number; mark: string }): boolean {
  return p.ino === st.ino && p.size <= st.size && markAt(fd, p.size) === p.mark;
}

/**
 * sha256 of the first `size` bytes of the open file `fd`, read a MB at a time (28 MB: a few tens of
 * ms, against seconds to parse them): what lets a derived file vouch for a log copied to another
 * inode (a backup restored, a store copied), where `prefixHolds` cannot.
 */
export function prefixSum(fd: number, size: number): string {
  const h = createHash('sha256');
  const buf = Buffer.allocUnsafe(Math.min(size, 1 << 20));
  for (let at = 0; at < size;) {
    const n = fs.readSync(fd, buf, 0, Math.min(buf.length, size - at), at);
    if (n <= 0) throw new Error('the log ended before the prefix');
    h.update(buf.subarray(0, n));
    at += n;
  }
  return h.digest('hex');
}

/** Writes a derived file by temp-file-and-rename (a kill leaves the old file or the new one); never throws. */
export function writeDerived(file: string, text: string | Uint8Array): void {
  try {
    writeFileAtomic(file, text);
  } catch {
    /* derived: the next reader reads the log */
  }
}

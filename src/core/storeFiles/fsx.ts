// Small file-system helpers the store's durability depends on.
import * as fs from 'node:fs';

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

/** A sentence for a store write that failed because the disk is full (or another I/O error). */
export function storeWriteProblem(e: unknown): string {
  const code = errCode(e);
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk holding the store is full (or over quota); free some space and try again';
  if (code === 'EROFS') return 'the store is on a read-only file system';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied writing the store';
  return (e as Error)?.message ?? String(e);
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
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
  return true;
}

// Reads git's index file (`<git dir>/index`) directly, for shell capture's baseline: which tracked
// files are clean (their content is already a blob in git's object store) without spawning git.
// The format is git's documented one (Documentation/gitformat-index.txt), versions 2, 3 and 4.
// Read-only: the file is read once, never locked or written (we never touch .git).
//
// Anything we do not fully understand makes the reader give up (null) so the caller asks git
// instead: another version, a required extension (lowercase signature: a split index's `link`,
// a sparse index's `sdir`), a checksum that does not match, or any malformed length.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crypto } from '../storeFiles/blobs';
import { AgentRewindError } from '../errors';

export interface GitIndexEntry {
  /** Relative to the work-tree root, `/`-separated, as git stores it. */
  path: string;
  /** 0o100644, 0o100755, 0o120000 (symbolic link), 0o160000 (submodule). */
  mode: number;
  /** The blob's object id, hex. */
  id: string;
  /** 0 for a normal entry; 1–3 while a merge conflict is unresolved. */
  stage: number;
  /** "assume unchanged": git does not look at the work-tree file. */
  assumeValid: boolean;
  /** Sparse checkout: the work-tree file is not (supposed to be) there. */
  skipWorktree: boolean;
  /** `git add -N`: the id is the empty blob, not the content. */
  intentToAdd: boolean;
  ctimeSec: number;
  ctimeNsec: number;
  mtimeSec: number;
  mtimeNsec: number;
  ino: number;
  /** The file size, truncated to 32 bits. */
  size: number;
}

export interface GitIndex {
  version: number;
  entries: GitIndexEntry[];
  /** The index file's own mtime (ms): entries modified at or after it are "racily clean". */
  mtimeMs: number;
  /** The index file's stat (size, mtime, ctime, inode) when read: it changes whenever git rewrites it. */
  key: string;
  /** The index stores sub-second timestamps (git built without them writes 0). */
  nsec: boolean;
}

/**
 * Parses an index file's bytes. Throws GitIndexUnsupported for anything outside what we read
 * with certainty; `verify` checks the trailing checksum (on by default).
 */
export function parseGitIndex(buf: Buffer, objectFormat: 'sha1' | 'sha256' = 'sha1', verify = true): Omit<GitIndex, 'mtimeMs' | 'key'> {
  const hashLen = objectFormat === 'sha256' ? 32 : 20;
  const bad = (why: string): never => {
    throw new AgentRewindError('git-index-unsupported', { why });
  };
  if (buf.length < 12 + hashLen) bad('too short');
  if (buf.toString('latin1', 0, 4) !== 'DIRC') bad('not an index file');
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) bad(`index version ${version}`);
  const count = buf.readUInt32BE(8);
  const end = buf.length - hashLen; // the checksum follows the entries and extensions
  if (verify) {
    // git may be configured to skip the checksum (index.skipHash): it then writes zeros.
    const trailer = buf.subarray(end);
    if (trailer.some((b) => b !== 0)) {
      const sum = crypto().createHash(objectFormat).update(buf.subarray(0, end)).digest();
      if (!sum.equals(trailer)) bad('checksum mismatch');
    }
  }
  const entries: GitIndexEntry[] = new Array(count);
  let off = 12;
  let prev: Buffer = Buffer.alloc(0);
  let nsec = false;
  const fixed = 40 + hashLen + 2; // stat data, object id, flags
  for (let i = 0; i < count; i++) {
    if (off + fixed > end) bad('truncated entry');
    const flags = buf.readUInt16BE(off + 40 + hashLen);
    const extended = (flags & 0x4000) !== 0;
    let ext = 0;
    if (extended) {
      if (version < 3) bad('extended flags in a version 2 index');
      if (off + fixed + 2 > end) bad('truncated entry');
      ext = buf.readUInt16BE(off + fixed);
      if (ext & 0x1fff) bad('unknown extended flags');
    }
    const nameStart = off + fixed + (extended ? 2 : 0);
    let name: Buffer;
    let next: number;
    if (version === 4) {
      // A varint of bytes to drop from the previous path's end, then the rest of this one.
      let p = nameStart;
      if (p >= end) bad('truncated entry');
      let c = buf[p++]!;
      let strip = c & 0x7f;
      while (c & 0x80) {
        if (p >= end || strip > 0xffffff) bad('bad path prefix');
        c = buf[p++]!;
        strip = ((strip + 1) << 7) | (c & 0x7f);
      }
      if (strip > prev.length) bad('bad path prefix');
      const nul = buf.indexOf(0, p);
      if (nul < 0 || nul >= end) bad('unterminated path');
      name = Buffer.concat([prev.subarray(0, prev.length - strip), buf.subarray(p, nul)]);
      next = nul + 1;
    } else {
      const nul = buf.indexOf(0, nameStart);
      if (nul < 0 || nul >= end) bad('unterminated path');
      name = buf.subarray(nameStart, nul);
      // Entries are padded with 1–8 NULs to a multiple of 8 bytes.
      next = off + ((nameStart - off + name.length + 8) & ~7);
      if (next > end) bad('truncated entry');
    }
    const lenField = flags & 0xfff;
    if (lenField !== 0xfff ? lenField !== name.length : name.length < 0xfff) bad('path length mismatch');
    if (name.length === 0) bad('empty path');
    const mtimeNsec = buf.readUInt32BE(off + 12);
    const ctimeNsec = buf.readUInt32BE(off + 4);
    if (mtimeNsec || ctimeNsec) nsec = true;
    if (mtimeNsec > 999999999 || ctimeNsec > 999999999) bad('bad timestamp');
    entries[i] = {
      path: name.toString('utf8'),
      mode: buf.readUInt32BE(off + 24),
      id: buf.toString('hex', off + 40, off + 40 + hashLen),
      stage: (flags >> 12) & 3,
      assumeValid: (flags & 0x8000) !== 0,
      skipWorktree: (ext & 0x4000) !== 0,
      intentToAdd: (ext & 0x2000) !== 0,
      ctimeSec: buf.readUInt32BE(off),
      ctimeNsec,
      mtimeSec: buf.readUInt32BE(off + 8),
      mtimeNsec,
      ino: buf.readUInt32BE(off + 20),
      size: buf.readUInt32BE(off + 36),
    };
    prev = name;
    off = next;
  }
  // Extensions: a 4-byte signature and a 32-bit size. Uppercase first letter = optional (a cache
  // we may skip); anything else changes what the entries mean (split index, sparse directories).
  while (off < end) {
    if (off + 8 > end) bad('truncated extension');
    const c = buf[off]!;
    const size = buf.readUInt32BE(off + 4);
    if (off + 8 + size > end) bad('truncated extension');
    if (c < 0x41 || c > 0x5a) bad(`required extension ${JSON.stringify(buf.toString('latin1', off, off + 4))}`);
    off += 8 + size;
  }
  return { version, entries, nsec };
}

/**
 * The index of the repository whose git dir is `gitDir` (no file: a repository with nothing
 * added yet, an empty index), or null when we cannot read it with certainty (then ask git).
 */
export function readGitIndex(gitDir: string, objectFormat: 'sha1' | 'sha256' = 'sha1'): GitIndex | null {
  const file = path.join(gitDir, 'index');
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? { version: 2, entries: [], mtimeMs: 0, nsec: true, key: '-' } : null;
  }
  try {
    // The stat and the bytes of one open file: git replaces the index by rename, never in place.
    const st = fs.fstatSync(fd);
    const buf = fs.readFileSync(fd);
    const parsed = parseGitIndex(buf, objectFormat);
    return { ...parsed, mtimeMs: st.mtimeMs, key: fileKey(st) };
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

function fileKey(st: fs.Stats): string {
  return `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
}

/** The stat key of the index file now (`-`: none), to tell whether git rewrote it since `GitIndex.key`. */
export function gitIndexKey(gitDir: string): string {
  try {
    const st = fs.statSync(path.join(gitDir, 'index'), { throwIfNoEntry: false });
    return st ? fileKey(st) : '-';
  } catch {
    return '?';
  }
}

// Content-addressed whole-file blobs: objects/ab/cdef… named by the sha256 of the content.
// Written to a temp file, fsynced, then renamed into place, so a crash can never leave a blob
// whose content does not match its name. Read back with verification.
import type * as Crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fault, faultsArmed } from '../faults';
import { replaceFile, statMark, writeAll } from './fsx';
import { STORE_FILE } from './names';
import { AgentRewindError } from '../errors';

export const HASH_RE = /^[0-9a-f]{64}$/;

// Loaded on first use: most hook calls (reads, searches) hash nothing, and every millisecond of
// start-up is paid on every agent tool call.
let cryptoMod: typeof Crypto | undefined;
export function crypto(): typeof Crypto {
  return (cryptoMod ??= require('node:crypto') as typeof Crypto);
}

export function sha256(data: Uint8Array): string {
  return crypto().createHash('sha256').update(data).digest('hex');
}

/** True for what a blob is named by: 64 lowercase hex digits. */
export function isSha256(s: string): boolean {
  return HASH_RE.test(s);
}

/**
 * Blobs this process fsynced itself (written with sync, or made durable), by path, with their identity then
 * (inode, size, nanosecond times). A blob still of that identity is durable and sound: `makeDurable` need not
 * read, hash and fsync it again. A shell call's `before` is the previous call's `after` — already fsynced by
 * this very process (the resident) — and an fsync, even of a clean file, costs a flush of the disk's cache.
 */
const fsyncedHere = new Map<string, string>();
const FSYNCED_MAX = 100000;
/** Longer than Linux's default dirty-page expiry (30 s) plus its writeback interval (5 s), with margin. */
const WRITEBACK_MS = 60_000;

function noteFsynced(file: string, st: fs.BigIntStats): void {
  if (fsyncedHere.size >= FSYNCED_MAX) fsyncedHere.clear();
  fsyncedHere.set(file, statMark(st));
}

function fsyncedUnchanged(file: string): boolean {
  const known = fsyncedHere.get(file);
  if (known === undefined) return false;
  const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  if (st && st.isFile() && statMark(st) === known) return true;
  fsyncedHere.delete(file);
  return false;
}

export class BlobStore {
  readonly dir: string;
  private readonly tmpDir: string;

  constructor(storeDir: string) {
    this.dir = path.join(storeDir, STORE_FILE.objects);
    this.tmpDir = path.join(this.dir, 'tmp');
  }

  pathOf(hash: string): string {
    // A name from outside (a snapshot URI, a hand-edited log) must never lead out of objects/.
    if (!isSha256(hash)) throw new AgentRewindError('invalid-hash', { hash });
    return path.join(this.dir, hash.slice(0, 2), hash.slice(2));
  }

  has(hash: string): boolean {
    return isSha256(hash) && fs.existsSync(this.pathOf(hash));
  }

  /**
   * Stores `data` (deduplicated by hash) and returns its sha256. An existing blob of the wrong size
   * is damaged and written again; with `verify`, an existing blob is also re-hashed (used for the
   * pre-rewind snapshots: the one copy of what a rewind overwrites must be sound, not just present).
   * With `sync: false` the data is not fsynced (the scan's copies, most of which are never needed):
   * `makeDurable` verifies and fsyncs such a blob before a timeline line refers to it.
   */
  put(data: Uint8Array, knownHash?: string, opts: { verify?: boolean; sync?: boolean } = {}): string {
    const hash = knownHash ?? sha256(data);
    const dest = this.pathOf(hash);
    if (this.soundExisting(dest, hash, data.length, !!opts.verify)) {
      if (opts.sync !== false) this.durableIfRecent(dest);
      return hash;
    }
    fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
    fs.mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
    const tmp = path.join(this.tmpDir, `${hash.slice(0, 16)}.${process.pid}.${crypto().randomBytes(4).toString('hex')}`);
    const fill = (into: string) => {
      const fd = fs.openSync(into, 'wx', 0o600);
      try {
        if (faultsArmed) {
          // Kill tests: die with half the bytes in the temp file (never under the blob's name).
          const half = Math.floor(data.length / 2);
          writeAll(fd, data.subarray(0, half));
          fault('blob.write');
          writeAll(fd, data.subarray(half));
        } else writeAll(fd, data); // loops over short writes: a full disk throws, never truncates
        if (opts.sync !== false) fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    };
    // A failed write (full disk…) leaves no temp file behind and, above all, no blob.
    replaceFile(dest, fill, { tmp });
    if (opts.sync !== false) {
      const st = fs.statSync(dest, { bigint: true, throwIfNoEntry: false });
      if (st) noteFsynced(dest, st);
    }
    return hash;
  }

  /**
   * Verifies a blob written with `sync: false` and fsyncs it; false when it is missing or damaged.
   * `sync: false`: verifies only (the caller makes a whole batch durable at once: fsx.ts `syncFileSystem`).
   */
  makeDurable(hash: string, sync = true): boolean {
    const file = this.pathOf(hash);
    if (fsyncedUnchanged(file)) return true;
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return false;
    }
    try {
      if (sha256(fs.readFileSync(fd)) !== hash) return false;
      if (sync) {
        fs.fsyncSync(fd);
        noteFsynced(file, fs.fstatSync(fd, { bigint: true }));
      }
      return true;
    } catch {
      return false;
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * An existing blob a caller wants durable: a scan may have written it moments ago without fsync (`sync: false`), and
   * a timeline line about to name it must not outlive it in a crash. One changed within the kernel's writeback window
   * (dirty pages are written back within ~30 s) and not fsynced by this process is fsynced now; an older one is on
   * the disk already, so the common dedupe (an Edit's unchanged `before`) pays no flush.
   */
  private durableIfRecent(dest: string): void {
    if (fsyncedUnchanged(dest)) return;
    const st = fs.statSync(dest, { bigint: true, throwIfNoEntry: false });
    if (!st || Date.now() - Number(st.ctimeMs) > WRITEBACK_MS) return;
    const fd = fs.openSync(dest, 'r');
    try {
      fs.fsyncSync(fd);
      noteFsynced(dest, fs.fstatSync(fd, { bigint: true }));
    } finally {
      fs.closeSync(fd);
    }
  }

  private soundExisting(dest: string, hash: string, size: number, verify: boolean): boolean {
    let st: fs.Stats;
    try {
      st = fs.statSync(dest);
    } catch {
      return false;
    }
    if (!st.isFile() || st.size !== size) return false;
    if (!verify) return true;
    try {
      return sha256(fs.readFileSync(dest)) === hash;
    } catch {
      return false;
    }
  }

  /** Reads a blob and checks it against its name; throws BlobCorruptError otherwise. */
  get(hash: string): Buffer {
    const file = this.pathOf(hash);
    let data: Buffer;
    try {
      data = fs.readFileSync(file);
    } catch {
      throw new AgentRewindError('blob-corrupt', { hash, actual: null });
    }
    const actual = sha256(data);
    if (actual !== hash) throw new AgentRewindError('blob-corrupt', { hash, actual });
    return data;
  }

  /** Every blob hash on disk (for verify and gc). */
  *list(): Generator<string> {
    let fans: string[];
    try {
      fans = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    for (const fan of fans) {
      if (!/^[0-9a-f]{2}$/.test(fan)) continue;
      for (const rest of fs.readdirSync(path.join(this.dir, fan))) {
        const hash = fan + rest;
        if (HASH_RE.test(hash)) yield hash;
      }
    }
  }

  /** Leftover temp files from writers that were killed; safe to delete once old. */
  staleTemps(olderThanMs: number, now = Date.now()): string[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.tmpDir);
    } catch {
      return [];
    }
    const out: string[] = [];
    for (const n of names) {
      const p = path.join(this.tmpDir, n);
      try {
        if (now - fs.statSync(p).mtimeMs > olderThanMs) out.push(p);
      } catch {
        /* gone meanwhile */
      }
    }
    return out;
  }
}

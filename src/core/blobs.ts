// Content-addressed whole-file blobs: objects/ab/cdef… named by the sha256 of the content.
// Written to a temp file, fsynced, then renamed into place, so a crash can never leave a blob
// whose content does not match its name. Read back with verification.
import type * as Crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const HASH_RE = /^[0-9a-f]{64}$/;

// Loaded on first use: most hook calls (reads, searches) hash nothing, and every millisecond of
// start-up is paid on every agent tool call.
let cryptoMod: typeof Crypto | undefined;
function crypto(): typeof Crypto {
  return (cryptoMod ??= require('node:crypto') as typeof Crypto);
}

export function sha256(data: Uint8Array): string {
  return crypto().createHash('sha256').update(data).digest('hex');
}

export class BlobCorruptError extends Error {
  constructor(readonly hash: string, readonly actual: string | null) {
    super(
      actual === null
        ? `Blob ${hash.slice(0, 12)} is missing from the store; run \`agent-rewind verify\` to see what else is affected.`
        : `Blob ${hash.slice(0, 12)} does not match its content (found ${actual.slice(0, 12)}); run \`agent-rewind verify\`.`,
    );
  }
}

export class BlobStore {
  readonly dir: string;
  private readonly tmpDir: string;

  constructor(storeDir: string) {
    this.dir = path.join(storeDir, 'objects');
    this.tmpDir = path.join(this.dir, 'tmp');
  }

  pathOf(hash: string): string {
    return path.join(this.dir, hash.slice(0, 2), hash.slice(2));
  }

  has(hash: string): boolean {
    return fs.existsSync(this.pathOf(hash));
  }

  /** Stores `data` (deduplicated by hash) and returns its sha256. */
  put(data: Uint8Array, knownHash?: string): string {
    const hash = knownHash ?? sha256(data);
    const dest = this.pathOf(hash);
    if (fs.existsSync(dest)) return hash;
    fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
    fs.mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
    const tmp = path.join(this.tmpDir, `${hash.slice(0, 16)}.${process.pid}.${crypto().randomBytes(4).toString('hex')}`);
    const fd = fs.openSync(tmp, 'wx', 0o600);
    try {
      fs.writeSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, dest);
    return hash;
  }

  /** Reads a blob and checks it against its name; throws BlobCorruptError otherwise. */
  get(hash: string): Buffer {
    let data: Buffer;
    try {
      data = fs.readFileSync(this.pathOf(hash));
    } catch {
      throw new BlobCorruptError(hash, null);
    }
    const actual = sha256(data);
    if (actual !== hash) throw new BlobCorruptError(hash, actual);
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

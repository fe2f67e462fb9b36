// Loads a bundle of ours with V8's code cache. The hook is a new process on every agent tool call,
// and compiling its bundle (~350 KB) is ~5 ms of each; with the cache V8 skips most of it. The
// cache sits beside the bundle, named by the V8 version (two Node versions never overwrite each
// other's), made on the first run and written atomically.
//
// V8 is not trusted to check it: a release build does not verify the cache's checksum (a cache with
// bytes flipped in the middle crashes the process: seen with Node 20), and it knows the source only
// by its length. So the cache carries a header line of ours — the bundle it was made from (size,
// mtime, inode) and the SHA-256 of the cache bytes — and is handed to V8 only when both hold.
// Whatever fails, the bundle still loads and nothing is printed: a hook stays silent.
//
// node:crypto, node:vm and node:module are required here, when a bundle is loaded, not when dist/cli.js
// starts: a hook its resident records for never loads them (each is milliseconds of every start).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../core/storeFiles/fsx';

const MAGIC = 'agent-rewind code cache 1';

/** Where the code cache of `file` is kept. */
export const cacheFileOf = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.v8-${process.versions.v8}.cache`);

// Not core/storeFiles/blobs' sha256: dist/cli.js stays tiny (this file is all it adds to a bare node start).
const sha256 = (b: Uint8Array) => (require('node:crypto') as typeof import('node:crypto')).createHash('sha256').update(b).digest('hex');
const sourceId = (st: fs.Stats) => `${st.size} ${st.mtimeMs} ${st.ino}`;

/** The cache's bytes for V8, when the file is whole and made from this very bundle; else undefined. */
function validCache(cacheFile: string, source: fs.Stats): Buffer | undefined {
  let raw: Buffer;
  try {
    raw = fs.readFileSync(cacheFile);
  } catch {
    return undefined; // the first run here
  }
  const nl = raw.indexOf(0x0a);
  if (nl < 0) return undefined;
  const [magic, id, hash] = raw.toString('latin1', 0, nl).split('|');
  const data = raw.subarray(nl + 1);
  return magic === MAGIC && id === sourceId(source) && hash === sha256(data) ? data : undefined;
}

/** `require(file)` for a self-contained CommonJS bundle, compiled with (and, when missing or stale, making) its code cache. */
export function requireCached<T>(file: string): T {
  const vm = require('node:vm') as typeof import('node:vm');
  const { wrap } = require('node:module') as typeof import('node:module');
  const cacheFile = cacheFileOf(file);
  let script: import('node:vm').Script;
  let cached: Buffer | undefined;
  let st: fs.Stats;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      st = fs.fstatSync(fd);
      const source = fs.readFileSync(fd, 'utf8');
      cached = validCache(cacheFile, st);
      script = new vm.Script(wrap(source), { filename: file, ...(cached ? { cachedData: cached } : {}) });
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return require(file) as T;
  }
  const mod = { exports: {} as T, filename: file, id: file, loaded: false };
  (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, require, mod, file, path.dirname(file));
  mod.loaded = true;
  if (!cached || script.cachedDataRejected) {
    try {
      const data = script.createCachedData();
      writeFileAtomic(cacheFile, Buffer.concat([Buffer.from(`${MAGIC}|${sourceId(st)}|${sha256(data)}\n`, 'latin1'), data]));
    } catch {
      /* a read-only install: every run compiles, as without a cache */
    }
  }
  return mod.exports;
}

// Blobs and the scan: content copied by a scan is stored without fsync (`quickPut`) and made
// durable only when a timeline line refers to it (`durableBlob`); gc keeps every blob a scan state
// refers to (`referencedBlobs`), since a later `before` record may need it.
import * as fs from 'node:fs';
import { BlobStore, sha256 } from '../storeFiles/blobs';
import { decode, loadLegacy, readHeader, readJournal, stateFiles } from './stateFile';

/** Stores `data` under its sha256 without fsync (most copies are never needed; see `durableBlob`). */
export function quickPut(storeDir: string, data: Uint8Array, hash = sha256(data)): string {
  return new BlobStore(storeDir).put(data, hash, { sync: false });
}

/** Verifies a blob written by quickPut and fsyncs it, before a timeline line refers to it. */
export function durableBlob(storeDir: string, hash: string): boolean {
  return new BlobStore(storeDir).makeDurable(hash);
}

/** Blob hashes one state file refers to (content a later `before` record may need); null when unreadable. */
export function stateBlobs(file: string): Set<string> | null {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return null;
  }
  const r = readHeader(buf);
  if (r) {
    const ids = decode(buf, r, file, true) as Set<string> | null;
    // The journal's rows too (of any base: a stale one only keeps blobs a little longer).
    for (const [, e] of readJournal(file)?.files ?? []) if (ids && e?.hash) ids.add(e.hash);
    return ids;
  }
  const s = loadLegacy(file);
  if (!s) return null;
  const out = new Set<string>();
  for (const e of s.files.values()) if (e.hash) out.add(e.hash);
  return out;
}

/** Blob hashes every scan state in the store refers to: gc must keep them. */
export function referencedBlobs(storeDir: string): Set<string> {
  const out = new Set<string>();
  for (const f of stateFiles(storeDir)) for (const h of stateBlobs(f) ?? []) out.add(h);
  return out;
}

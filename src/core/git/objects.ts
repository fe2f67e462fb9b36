// Git objects: the id git gives a blob, and the content of blobs read out of git in one process
// (for a clean tracked file a shell command changed: its old content is git's blob).
import { crypto } from '../storeFiles/blobs';
import { git } from './run';

/** The git object id of `data` as a blob (what `git hash-object` prints). */
export function gitBlobId(data: Uint8Array, format: 'sha1' | 'sha256' = 'sha1'): string {
  return crypto().createHash(format).update(`blob ${data.length}\0`).update(data).digest('hex');
}

/**
 * Reads blobs out of git in one process (`git cat-file --batch`). With `filters`, the content is
 * what a checkout would write for the given path (smudge filters, end-of-line conversion).
 * Missing objects map to null.
 */
export function readBlobs(dir: string, wanted: readonly { id: string; path: string }[], filters: boolean): Map<string, Buffer | null> {
  const out = new Map<string, Buffer | null>();
  if (wanted.length === 0) return out;
  const input = wanted.map((w) => (filters ? `${w.id} ${w.path}` : w.id)).join('\n') + '\n';
  const r = git(
    dir,
    ['cat-file', filters ? '--batch=%(objectname) %(objecttype) %(objectsize)' : '--batch', ...(filters ? ['--filters'] : [])],
    { input, timeout: 60000 },
  );
  if (r.status !== 0) {
    for (const w of wanted) out.set(`${w.id}\0${w.path}`, null);
    return out;
  }
  const buf = r.stdout;
  let pos = 0;
  for (const w of wanted) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0) {
      out.set(`${w.id}\0${w.path}`, null);
      continue;
    }
    const header = buf.subarray(pos, nl).toString('utf8').split(' ');
    pos = nl + 1;
    if (header[1] !== 'blob') {
      out.set(`${w.id}\0${w.path}`, null);
      continue;
    }
    const size = Number(header[2]);
    out.set(`${w.id}\0${w.path}`, Buffer.from(buf.subarray(pos, pos + size)));
    pos += size + 1; // the content, then a newline
  }
  return out;
}

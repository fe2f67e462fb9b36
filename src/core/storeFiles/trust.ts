// Whose store this is. A store's content decides what a rewind writes: a folder another user owns, or
// one others may write, lets them replace store.json, the log and the blobs, and the owner's next rewind
// writes their bytes. So before anything is read from a store, the folder (where it really is, a symlink
// followed), the store files and folders in it, must belong to the user running us and be writable by
// nobody else. POSIX only: Windows has no such bits (its ACLs are the profile folder's).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { STORE_ENTRY_NAMES } from './names';
import { AgentRewindError } from '../errors';

const uid = (): number | null => (process.platform === 'win32' || !process.getuid ? null : process.getuid());

function checkOne(dir: string, p: string, st: fs.Stats, me: number): void {
  if (st.uid !== me) throw new AgentRewindError('store-not-trusted', { dir, offending: p, why: 'owner' });
  if ((st.mode & 0o022) !== 0) throw new AgentRewindError('store-not-trusted', { dir, offending: p, why: 'writable' });
}

/**
 * Throws StoreNotTrustedError unless the store at `dir` is the running user's alone: the folder (a symlink
 * followed to where it leads), and each store file and folder in it that exists (never a symlink). A folder
 * still to be made passes (it is made 0700 by us). Other errors (EACCES) are the caller's.
 */
export function checkStoreTrusted(dir: string): void {
  const me = uid();
  if (me === null) return;
  let real: string;
  try {
    real = fs.realpathSync.native(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  checkOne(dir, real === path.resolve(dir) ? dir : real, fs.statSync(real), me);
  for (const name of STORE_ENTRY_NAMES) {
    const p = path.join(real, name);
    const st = fs.lstatSync(p, { throwIfNoEntry: false }); // missing: nothing to check (no exception: this is every hook's path)
    if (!st) continue;
    if (st.isSymbolicLink()) throw new AgentRewindError('store-not-trusted', { dir, offending: path.join(dir, name), why: 'link' });
    checkOne(dir, path.join(dir, name), st, me);
  }
}

/** True when `checkStoreTrusted` passes; for a caller that only needs to stay away (the forwarding hook). */
export function storeTrusted(dir: string): boolean {
  try {
    checkStoreTrusted(dir);
    return true;
  } catch {
    return false;
  }
}

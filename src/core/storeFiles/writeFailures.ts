// When the store cannot be written (a full disk, a quota, a read-only or failing file system), the
// hook that finds out cannot write a line saying so either. It leaves an empty marker instead,
// `<store>/write-failed.<CODE>` — an empty file needs no data block — whose access time is the first
// such failure and whose modification time the last: `status` and plans read the window from them.
// The marker stays (a later plan over that window still says that window was not recorded).
import * as fs from 'node:fs';
import * as path from 'node:path';

const PREFIX = 'write-failed.';
/**
 * The errors that mean the disk refused the write itself (not a bad path, a lock, or the watcher's own
 * ENOSPC, "System limit for number of file watchers reached"), as node words them.
 */
const CODES = /\b(ENOSPC|EDQUOT|EROFS|EIO): (?:no space left on device|disk quota exceeded|read-only file system|i\/o error)/i;

export interface WriteFailure {
  /** The system's error code (ENOSPC: no space left). */
  code: string;
  /** The first and the last failure (ms). */
  first: number;
  last: number;
}

/** Notes a failure to write to the store when `message` names one of the codes above; never throws. */
export function noteWriteFailure(dir: string, message: string, now = Date.now()): void {
  const code = CODES.exec(message)?.[1];
  if (!code) return;
  const file = path.join(dir, PREFIX + code);
  try {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (!st) fs.closeSync(fs.openSync(file, 'a', 0o600));
    const t = new Date(now);
    fs.utimesSync(file, st ? st.atime : t, t);
  } catch {
    /* not even an empty file fits: errors.log (if it can) is all that is left */
  }
}

/** The store's write failures, by code. */
export function writeFailures(dir: string): WriteFailure[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.startsWith(PREFIX));
  } catch {
    return [];
  }
  const out: WriteFailure[] = [];
  for (const n of names) {
    const st = fs.statSync(path.join(dir, n), { throwIfNoEntry: false });
    if (st) out.push({ code: n.slice(PREFIX.length), first: Math.min(st.atimeMs, st.mtimeMs), last: st.mtimeMs });
  }
  return out.sort((a, b) => a.first - b.first);
}

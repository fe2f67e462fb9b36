// Coordination between processes sharing one store, with plain files (no native locks). One lock file
// format and one way to take it (tryLock), for:
// - `lock`: exclusive, held by a rewind or a gc; a second one is refused with a clear message.
// - a scan state's `.lock` (holdFileLock, held by one event's capture: core/capture/hold.ts): hooks of
//   parallel shell calls take turns, waiting briefly.
// - `writers/<pid>.<n>` + `gc.lock`: hooks announce themselves before writing and check for a
//   compaction; gc announces itself and waits for announced writers. Each side announces before
//   it looks at the other, so at least one of them always sees the other.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errCode, writeFileAtomic } from './fsx';
import { putMarker } from './markerFiles';
import { STORE_FILE } from './names';
import { readJsonFile } from './jsonFile';
import { AgentRewindError } from '../errors';

export interface LockInfo {
  pid: number;
  op: string;
  time: number;
}

/**
 * Does process `pid` still run? A zombie does not: it died, and its parent has not collected it yet (a
 * parent busy in a synchronous call, as a test that spawned it); signal 0 still reaches it (Linux: /proc).
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

const isZombie = (pid: number) => process.platform === 'linux' && procStat(pid)?.[0] === 'Z';

/**
 * The fields of /proc/<pid>/stat from the third on (state, parent, …; `[19]` is the start time in clock
 * ticks since boot), or undefined: the process is gone, or there is no /proc (not Linux).
 */
export function procStat(pid: number | 'self'): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name, which may hold spaces and parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

export function readLockInfo(file: string): LockInfo | null {
  const v = readJsonFile(file) as LockInfo | number | null | undefined;
  if (typeof v === 'number') return v > 0 ? { pid: v, op: 'shell capture', time: 0 } : null; // a bare pid: an older hook's scan lock
  return typeof v?.pid === 'number' ? v : null;
}

/**
 * Creates `file` exclusively with its content already in it: written beside it, then hard-linked
 * into place (fails if it exists), so nobody ever reads a lock without its holder. Where hard
 * links are not supported, an exclusive create.
 */
export function createWithContent(file: string, text: string): void {
  try {
    writeFileAtomic(file, text, { exclusive: true });
  } catch (e) {
    const code = errCode(e);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
    fs.writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
  }
}

/** A lock file nobody can read (a holder killed mid-write, where hard links are missing) is stale once this old. */
const UNREADABLE_STALE_MS = 5000;

/**
 * Takes the lock file `file` (created exclusively, with its holder in it): the release function, or the
 * live holder (null: unreadable) when another process has it. A lock whose holder is dead, or older than
 * `staleMs` when given, is taken over.
 */
function tryLock(file: string, op: string, staleMs?: number): { release: () => void } | { holder: LockInfo | null } {
  const info: LockInfo = { pid: process.pid, op, time: Date.now() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      createWithContent(file, JSON.stringify(info));
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (readLockInfo(file)?.pid === process.pid) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      return { release };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = readLockInfo(file);
      const age = Date.now() - mtimeOf(file);
      const stale = holder ? !processAlive(holder.pid) || (staleMs !== undefined && age > staleMs) : age > UNREADABLE_STALE_MS;
      if (!stale) return { holder };
      try {
        fs.unlinkSync(file);
      } catch {
        /* someone else took it over first */
      }
    }
  }
  return { holder: readLockInfo(file) };
}

/** Creates `file` exclusively; a lock left by a dead process is taken over; a live holder is a 'store-busy' error. */
export function acquireLockFile(file: string, op: string): () => void {
  const r = tryLock(file, op);
  if ('holder' in r) throw new AgentRewindError('store-busy', { holder: r.holder });
  return r.release;
}

/**
 * Takes the lock file `file`, waiting up to `waitMs` while another live process holds it; past that (or
 * when the lock cannot be made at all) the caller goes on without it: a hook never blocks the agent. A
 * holder older than `staleMs` is taken to be stuck and is taken over. Returns the release (a no-op when
 * it went on without the lock).
 */
export function holdFileLock(file: string, op: string, opts: { waitMs: number; staleMs: number }): () => void {
  const deadline = Date.now() + opts.waitMs;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    for (;;) {
      const r = tryLock(file, op, opts.staleMs);
      if ('release' in r) return r.release;
      if (Date.now() > deadline) break;
      sleepMs(15);
    }
  } catch {
    /* no lock to be had (a read-only folder…): go on without it */
  }
  return () => {};
}

function mtimeOf(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** The exclusive store lock for rewinds and gc. */
export function acquireStoreLock(storeDir: string, op: string): () => void {
  return acquireLockFile(path.join(storeDir, STORE_FILE.lock), op);
}

/** The lock of the store's resident recorder (resident/resident.ts). */
export const RESIDENT_LOCK = STORE_FILE.residentLock;

/** The store's resident recorder, when its lock names a live process (pid, since: `time`). */
export function residentHolder(storeDir: string): LockInfo | null {
  const h = readLockInfo(path.join(storeDir, RESIDENT_LOCK));
  return h && processAlive(h.pid) ? h : null;
}

export function storeLockHolder(storeDir: string): LockInfo | null {
  const h = readLockInfo(path.join(storeDir, STORE_FILE.lock));
  return h && processAlive(h.pid) ? h : null;
}

const sleepBuf = new Int32Array(new SharedArrayBuffer(4));
/** Blocks this thread for `ms` (hooks are synchronous end to end). */
export function sleepMs(ms: number): void {
  Atomics.wait(sleepBuf, 0, 0, ms);
}

let writerSeq = 0;

/**
 * Announces a recording process (a hook) for the duration of its writes. Waits (briefly) while a
 * compaction runs. Returns the function that withdraws the announcement.
 */
export function announceWriter(storeDir: string, maxWaitMs = 5000): () => void {
  const dir = path.join(storeDir, STORE_FILE.writers);
  const gcLock = path.join(storeDir, STORE_FILE.gcLock);
  const me = path.join(dir, `${process.pid}.${writerSeq++}`);
  const deadline = Date.now() + maxWaitMs;
  for (;;) {
    // A marker of its own (a pid is one live process's): one already there was left by a killed hook whose pid came back.
    putMarker(me);
    if (!fs.existsSync(gcLock)) break;
    fs.unlinkSync(me);
    const holder = readLockInfo(gcLock);
    if ((holder && !processAlive(holder.pid)) || Date.now() > deadline) {
      // A dead compaction, or one that takes too long: never block the agent. Appending
      // is still safe against a dead one; against a live one we record anyway and say so.
      if (holder && !processAlive(holder.pid)) {
        try {
          fs.unlinkSync(gcLock);
        } catch {
          /* gone */
        }
      }
      fs.writeFileSync(me, '', { flag: 'w', mode: 0o600 });
      break;
    }
    sleepMs(20);
  }
  return () => {
    try {
      fs.unlinkSync(me);
    } catch {
      /* gone */
    }
  };
}

/** Announced writers that are still alive (announcements of killed hooks are removed). */
export function liveWriters(storeDir: string, staleMs = 60000): string[] {
  const dir = path.join(storeDir, STORE_FILE.writers);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const live: string[] = [];
  for (const n of names) {
    const pid = Number(n.split('.')[0]);
    const f = path.join(dir, n);
    if (!Number.isInteger(pid) || !processAlive(pid) || Date.now() - mtimeOf(f) > staleMs) {
      try {
        fs.unlinkSync(f);
      } catch {
        /* gone */
      }
      continue;
    }
    live.push(n);
  }
  return live;
}

/** Blocks new writers and waits for announced ones to finish; throws a 'store-busy' error after `maxWaitMs`. */
export function acquireCompactionLock(storeDir: string, maxWaitMs = 10000): () => void {
  const release = acquireLockFile(path.join(storeDir, STORE_FILE.gcLock), 'gc');
  const deadline = Date.now() + maxWaitMs;
  while (liveWriters(storeDir).length > 0) {
    if (Date.now() > deadline) {
      release();
      throw new AgentRewindError('store-busy', { holder: { pid: 0, op: 'recording (an agent hook)', time: Date.now() } });
    }
    sleepMs(20);
  }
  return release;
}

// `agent-rewind resident --store DIR`: the store's resident recorder. One long-lived process per
// store (resident.lock), started detached by the first hook that finds none (forward.ts), listening
// on a Unix socket in a private folder (a named pipe on Windows) for hooks that hand it their
// payload, and recording each with the very code the hook runs (hook.ts `recordPayload`), in this
// process: the lines are the ones the hook alone would write. A hook spends only node's start;
// the recording code stays loaded and compiled here. It exits when idle, when its store goes away,
// or when a hook from a newer bundle arrives (that hook records itself and starts a new one).
// Nothing depends on it: killed at any moment, its hook records the payload itself (residentWire.ts).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { fault } from '../core/faults';
import { acquireLockFile, createWithContent, readLockInfo, RESIDENT_LOCK, StoreBusyError } from '../core/storeFiles/lock';
import type { LogRecord } from '../core/storeFiles/records';
import { logStoreError, Store } from '../core/store';
import type { ChangeSource } from '../recording/changeSource';
import { DirWatcher } from '../recording/watcher';
import { recordPayload } from './hook';
import {
  type BundleId,
  bundleIdOf,
  claimPending,
  PENDING_DIR,
  pendingFileOf,
  type Request,
  type ResidentStatus,
  SECRET_FILE,
  socketFolder,
  socketPathOf,
  socketPlace,
  STARTING_FILE,
  WIRE_VERSION,
} from './residentWire';
import { MAX_PAYLOAD } from './stdin';
import { storeFromArgs } from './storeArg';

/** Minutes without a hook after which the resident exits (`AGENT_REWIND_RESIDENT_IDLE_S` in seconds overrides). */
export const IDLE_DEFAULT_S = 10 * 60;
/** How often it checks that its store and its lock are still there. */
const CHECK_MS = 30000;
/** A header line longer than this is not ours. */
const MAX_HEADER = 1024 * 1024;

export function idleSeconds(env: NodeJS.ProcessEnv): number {
  const n = Number(env.AGENT_REWIND_RESIDENT_IDLE_S);
  return Number.isFinite(n) && n > 0 ? n : IDLE_DEFAULT_S;
}

/** The store's secret, made (0600, exclusively) by the first resident; hooks present it on connect. */
export function ensureSecret(dir: string): string {
  const file = path.join(dir, SECRET_FILE);
  try {
    createWithContent(file, randomBytes(32).toString('hex'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/** The private socket folder: made 0700, and refused when it is not a folder of ours that only we can enter. */
function preparedSocketFolder(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(folder);
  const mine = typeof process.getuid !== 'function' || st.uid === process.getuid();
  if (!st.isDirectory() || !mine || (st.mode & 0o077) !== 0) throw new Error(`${folder} is not a private folder of this user`);
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

interface Resident {
  dir: string;
  realDir: string;
  secret: string;
  bundle: BundleId;
  since: number;
  served: number;
  /** The file watcher over the store's roots, when there is one (watcherFor). */
  changes: ChangeSource | undefined;
  /** Stops listening and releases the lock (idempotent); the process then ends when its last reply is out. */
  stop: () => void;
}

/** Runs the resident until it is idle, replaced or its store is gone. Resolves with the exit code (0). */
export function runResident(args: string[], bundleFile: string): Promise<number> {
  const dir = storeFromArgs(args);
  if (!dir) return Promise.resolve(0);
  let release: () => void;
  let r: Resident;
  let socketPath: string;
  try {
    Store.open(dir); // an existing store only: a resident never creates one
    release = acquireLockFile(path.join(dir, RESIDENT_LOCK), 'resident');
  } catch (e) {
    if (!(e instanceof StoreBusyError)) logStoreError(dir, `resident recorder: ${(e as Error).message}`);
    return Promise.resolve(0); // another one runs (or no store): nothing to do
  }
  try {
    const realDir = fs.realpathSync(dir);
    const place = socketPlace();
    const folder = socketFolder(place);
    if (folder) preparedSocketFolder(folder);
    socketPath = socketPathOf(realDir, place);
    if (folder) fs.rmSync(socketPath, { force: true }); // a dead resident's socket: we hold the lock, so it is nobody's
    sweepPending(dir);
    r = {
      dir: path.resolve(dir),
      realDir,
      secret: ensureSecret(dir),
      bundle: bundleIdOf(bundleFile),
      since: Date.now(),
      served: 0,
      changes: watcherFor(dir),
      stop: () => {},
    };
    void r.changes?.watch(Store.open(dir).roots());
  } catch (e) {
    release();
    logStoreError(dir, `resident recorder: ${(e as Error).message}; hooks record by themselves`);
    return Promise.resolve(0);
  }
  return new Promise((resolve) => {
    const server = net.createServer((socket) => serve(r, socket, restartIdle));
    let idle: NodeJS.Timeout | undefined;
    const idleMs = idleSeconds(process.env) * 1000;
    function restartIdle() {
      clearTimeout(idle);
      idle = setTimeout(() => r.stop(), idleMs);
    }
    const check = setInterval(() => {
      const holder = readLockInfo(path.join(dir, RESIDENT_LOCK));
      if (!fs.existsSync(path.join(dir, 'store.json')) || holder?.pid !== process.pid) r.stop();
      sweepPending(dir); // the claims of hooks that stopped waiting
    }, CHECK_MS);
    let stopped = false;
    r.stop = () => {
      if (stopped) return;
      stopped = true;
      clearTimeout(idle);
      clearInterval(check);
      void r.changes?.close();
      server.close(() => resolve(0)); // unlinks the Unix socket; open conversations finish first
      release();
    };
    for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => r.stop());
    server.on('error', (e) => {
      logStoreError(dir, `resident recorder: cannot listen on ${socketPath}: ${e.message}; hooks record by themselves`);
      r.stop();
    });
    server.listen(socketPath, () => {
      try {
        if (socketFolder(socketPlace())) fs.chmodSync(socketPath, 0o600);
      } catch {
        /* the folder is 0700 already */
      }
      fs.rmSync(path.join(dir, STARTING_FILE), { force: true });
      restartIdle();
    });
  });
}

/**
 * Claims older than a minute: a hook's own (its `acceptBy` long past, no resident takes it now), or a
 * dead resident's whose hook got `D` or is gone too (it waits at most ~20 s).
 */
function sweepPending(dir: string): void {
  const folder = path.join(dir, PENDING_DIR);
  let names: string[] = [];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return;
  }
  for (const n of names) {
    try {
      const f = path.join(folder, n);
      if (Date.now() - fs.statSync(f).mtimeMs > 60000) fs.rmSync(f, { force: true });
    } catch {
      /* gone */
    }
  }
}

/** One connection: the header line, the payload, then the conversation of residentWire.ts. */
function serve(r: Resident, socket: net.Socket, touched: () => void): void {
  touched();
  let buf = Buffer.alloc(0);
  let request: Request | undefined;
  let taken = false;
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    if (taken) return;
    buf = Buffer.concat([buf, chunk]);
    if (!request) {
      const nl = buf.indexOf(0x0a);
      if (nl < 0) {
        if (buf.length > MAX_HEADER) socket.destroy();
        return;
      }
      try {
        request = JSON.parse(buf.toString('utf8', 0, nl)) as Request;
      } catch {
        socket.destroy();
        return;
      }
      buf = buf.subarray(nl + 1);
      const refusal = refusalOf(r, request);
      if (refusal !== undefined) {
        taken = true; // the payload's later chunks are nobody's here: the hook records it itself
        socket.end(refusal);
        return;
      }
    }
    const req = request as Extract<Request, { op: 'hook' }>;
    if (buf.length < req.size) return;
    taken = true;
    fault('resident.received');
    if (!claimedByResident(r, req)) {
      socket.end('R late\n'); // the hook stopped waiting and records it itself
      return;
    }
    fault('resident.claimed');
    void recordFor(r, socket, req, buf.subarray(0, req.size));
  });
}

/** Why a request is not served (the line to answer, `S` for a status), or undefined for a valid hook request. */
function refusalOf(r: Resident, request: Request): string | undefined {
  if (request.v !== WIRE_VERSION || typeof request.secret !== 'string' || !sameSecret(request.secret, r.secret)) return 'R secret\n';
  if (request.op === 'status') return `S ${JSON.stringify(statusOf(r))}\n`;
  const valid =
    request.op === 'hook' &&
    request.size >= 0 &&
    request.size <= MAX_PAYLOAD &&
    typeof request.acceptBy === 'number' &&
    /^[0-9a-f]{16}$/.test(request.id) &&
    typeof request.cwd === 'string' &&
    Array.isArray(request.args);
  if (!valid) return 'R request\n';
  if (request.bundle?.id === r.bundle.id) return undefined;
  // A hook from another build. From a newer one: this resident gives way (the hook starts its own).
  const newer = request.bundle.mtime >= r.bundle.mtime;
  if (newer) r.stop();
  return newer ? 'R replaced\n' : 'R other-bundle\n';
}

/** The payload is the resident's to record: whole before the hook's `acceptBy`, and its claim made first (residentWire.ts). */
function claimedByResident(r: Resident, req: Extract<Request, { op: 'hook' }>): boolean {
  if (Date.now() > req.acceptBy) return false;
  try {
    return claimPending(r.dir, req.id);
  } catch (e) {
    logStoreError(r.dir, `resident recorder: cannot claim a payload (${(e as Error).message}); its hook records it`);
    return false;
  }
}

/** Records one claimed payload, in this process, with the hook's own code; then `D`. */
async function recordFor(r: Resident, socket: net.Socket, req: Extract<Request, { op: 'hook' }>, payload: Buffer): Promise<void> {
  // Every change made before the hook asked is seen by the watcher first (a doubt there: the scan, as in a hook).
  const changes = r.changes && (await settled(r.changes, r.dir));
  const home = process.cwd();
  const pending = pendingFileOf(r.dir, req.id);
  let context = '';
  const dir = storeFromArgs(req.args.slice(1), req.env);
  try {
    process.chdir(req.cwd); // the hook's relative --store / --root mean what they meant there
    if (!dir || fs.realpathSync(dir) !== r.realDir) throw new Error('another store');
  } catch {
    process.chdir(home);
    fs.rmSync(pending, { force: true }); // our claim, given back before the refusal: the hook records it itself
    socket.end('R cwd\n');
    return;
  }
  try {
    // The write-ahead copy (residentWire.ts): were this process to die in its append, the hook finishes it.
    const beforeAppend = (records: readonly LogRecord[]) => {
      let text = '';
      for (const rec of records) text += JSON.stringify(rec) + '\n';
      try {
        fs.writeFileSync(pending, text, { mode: 0o600 }); // into our claim
      } catch (e) {
        logStoreError(r.dir, `resident recorder: no write-ahead copy (${(e as Error).message}); recording without it`);
      }
    };
    context = recordPayload(req.args[0], req.args, dir, payload.toString('utf8'), {
      env: req.env,
      beforeAppend,
      ...(changes ? { changes } : {}),
    });
    r.served++;
    void r.changes?.watch(Store.open(r.dir).roots()); // a session may have added a root
    fault('resident.appended');
  } catch (e) {
    logStoreError(r.dir, `resident recorder: ${(e as Error).message}`);
  } finally {
    try {
      process.chdir(home);
    } catch {
      /* stays where it is */
    }
  }
  // The copy goes once `D` is out: a death before that leaves it to the hook, which finds its text in the log.
  socket.end(`D ${JSON.stringify({ context })}\n`, () => fs.rmSync(pending, { force: true }));
}

function statusOf(r: Resident): ResidentStatus {
  let roots: string[] = [];
  try {
    roots = Store.open(r.dir).roots();
  } catch {
    /* the store went away: the check stops us soon */
  }
  return { pid: process.pid, since: r.since, roots, watches: r.changes?.stats().watches ?? 0, bundle: r.bundle.id, served: r.served };
}

/** The watcher, settled; undefined (scan) when settling failed. */
async function settled(changes: ChangeSource, dir: string): Promise<ChangeSource | undefined> {
  try {
    await changes.settle();
    return changes;
  } catch (e) {
    logStoreError(dir, `resident recorder: the file watcher failed (${(e as Error).message}); this call scans`);
    return undefined;
  }
}

/**
 * The store's file watcher (recording/watcher.ts): its cookies in a private folder of the store,
 * the store itself never watched. On unless `AGENT_REWIND_WATCH=0`; without it every call scans, as a hook does.
 */
function watcherFor(dir: string): ChangeSource | undefined {
  if (process.env.AGENT_REWIND_WATCH === '0') return undefined;
  return new DirWatcher(path.join(dir, 'watch-cookies'), (m) => logStoreError(dir, m), [dir]);
}

// `agent-rewind resident --store DIR`: the store's resident recorder. One long-lived process per
// store (resident.lock), started detached by the first hook that finds none (forward.ts), watching the
// store's private request folder for hooks that hand it their payload (residentWire.ts), and recording
// each with the very code the hook runs (recording/payload.ts `recordPayload`, with the hook's parser), in this process: the lines are the
// ones the hook alone would write. A hook spends only node's start; the recording code stays loaded
// and compiled here. It exits when idle, when its store goes away, or when a hook from a newer bundle
// arrives (that hook records itself and starts a new one). Nothing depends on it: killed at any
// moment, its hook records the payload itself (residentWire.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { holdScanStates } from '../core/capture/heldStates';
import { fallbacks, writeFallbacks } from '../core/capture/narrowing';
import { fault } from '../core/faults';
import { acquireLockFile, readLockInfo, RESIDENT_LOCK } from '../core/storeFiles/lock';
import { sweepMarkers } from '../core/storeFiles/markerFiles';
import { isError } from '../core/errors';
import type { LogRecord } from '../core/storeFiles/records';
import { logStoreError, Store } from '../core/store';
import type { ChangeSource } from '../recording/changeSource';
import { DirWatcher } from './watcher';
import { type ParsePayload, recordPayload } from '../recording/payload';
import {
  type BundleId,
  bundleIdOf,
  claimPending,
  type HookRequest,
  PENDING_DIR,
  pendingFileOf,
  putAnswer,
  readRequest,
  type Request,
  requestFileOf,
  requestIdOf,
  RESIDENT_OP,
  type ResidentStatus,
  STARTING_FILE,
  takeGo,
  WIRE_VERSION,
} from './residentWire';
import { MAX_PAYLOAD } from '../recording/stdin';
import { storeFromArgs } from '../recording/storeArg';
import { STORE_FILE } from '../core/storeFiles/names';

/** Minutes without a hook after which the resident exits (`AGENT_REWIND_RESIDENT_IDLE_S` in seconds overrides). */
export const IDLE_DEFAULT_S = 10 * 60;
/** How often it checks that its store and its lock are still there. */
const CHECK_MS = 30000;

export function idleSeconds(env: NodeJS.ProcessEnv): number {
  const n = Number(env.AGENT_REWIND_RESIDENT_IDLE_S);
  return Number.isFinite(n) && n > 0 ? n : IDLE_DEFAULT_S;
}

/** The request folder: made 0700, and refused when it is not a folder of ours that only we can enter. */
function preparedRequestFolder(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(folder);
  const mine = typeof process.getuid !== 'function' || st.uid === process.getuid();
  if (!st.isDirectory() || !mine || (st.mode & 0o077) !== 0) throw new Error(`${folder} is not a private folder of this user`);
}

interface Resident {
  dir: string;
  realDir: string;
  bundle: BundleId;
  since: number;
  served: number;
  /** The file watcher over the store's roots, when there is one (watcherFor). */
  changes: ChangeSource | undefined;
  /** Payloads being recorded now: the process ends only once none is. */
  busy: number;
  /** The fallbacks file's text as last written (writeFallbacks). */
  fallbacksText: string;
  /** Called when a recording ends: the process ends once it is stopped and none is left. */
  ended: () => void;
  /** Stops watching for requests and releases the lock (idempotent); the process then ends when its last answer is out. */
  stop: () => void;
  /** The hook's parser of payloads (cli/hook.ts): the resident records with the hook's own code. */
  parse: ParsePayload;
}

/**
 * Runs the resident until it is idle, replaced or its store is gone. Resolves with the exit code (0). `parse`:
 * the hook's parser of payloads, handed down by the hook bundle that runs this (cli/hook.ts).
 */
export function runResident(args: string[], bundleFile: string, parse: ParsePayload): Promise<number> {
  const dir = storeFromArgs(args);
  if (!dir) return Promise.resolve(0);
  let release: () => void;
  let r: Resident;
  try {
    Store.open(dir); // an existing store only: a resident never creates one
    release = acquireLockFile(path.join(dir, RESIDENT_LOCK), RESIDENT_OP);
  } catch (e) {
    if (!isError(e, 'store-busy')) logStoreError(dir, `resident recorder: ${(e as Error).message}`);
    return Promise.resolve(0); // another one runs (or no store): nothing to do
  }
  try {
    preparedRequestFolder(path.join(dir, PENDING_DIR));
    sweepPending(dir);
    r = {
      dir: path.resolve(dir),
      realDir: fs.realpathSync(dir),
      bundle: bundleIdOf(bundleFile),
      since: Date.now(),
      served: 0,
      busy: 0,
      fallbacksText: '',
      changes: watcherFor(dir),
      ended: () => {},
      stop: () => {},
      parse,
    };
    void r.changes?.watch(Store.open(dir).knownRoots());
    holdScanStates(); // it serves every shell call of its sessions: the state it saved last is used again
  } catch (e) {
    release();
    logStoreError(dir, `resident recorder: ${(e as Error).message}; hooks record by themselves`);
    return Promise.resolve(0);
  }
  return new Promise((resolve) => {
    let idle: NodeJS.Timeout | undefined;
    const idleMs = idleSeconds(process.env) * 1000;
    function restartIdle() {
      clearTimeout(idle);
      idle = setTimeout(() => r.stop(), idleMs);
    }
    const check = setInterval(() => {
      const holder = readLockInfo(path.join(dir, RESIDENT_LOCK));
      if (!fs.existsSync(path.join(dir, STORE_FILE.meta)) || holder?.pid !== process.pid) r.stop();
      sweepPending(dir); // the claims of hooks that stopped waiting, answers nobody read
    }, CHECK_MS);
    let requests: fs.FSWatcher | undefined;
    let stopped = false;
    const ended = () => {
      if (stopped && r.busy === 0) resolve(0);
    };
    r.stop = () => {
      if (stopped) return;
      stopped = true;
      clearTimeout(idle);
      clearInterval(check);
      requests?.close();
      void r.changes?.close();
      release();
      ended(); // else when the payloads being recorded are (recordFor)
    };
    r.ended = ended;
    for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => r.stop());
    try {
      requests = watchRequests(r, (id) => {
        if (stopped) return; // its hook claims it at its accept deadline
        restartIdle();
        serve(r, id);
      });
    } catch (e) {
      logStoreError(dir, `resident recorder: cannot watch for requests: ${(e as Error).message}; hooks record by themselves`);
      r.stop();
      return;
    }
    fs.rmSync(path.join(dir, STARTING_FILE), { force: true });
    restartIdle();
  });
}

/**
 * Watches the request folder (one folder, not recursive) and hands each request id to `serve`: those
 * that arrive, and those already there (a hook that wrote while this process started).
 */
function watchRequests(r: Resident, serve: (id: string) => void): fs.FSWatcher {
  const folder = path.join(r.dir, PENDING_DIR);
  const seen = (name: string) => {
    const id = requestIdOf(name);
    if (id) serve(id);
  };
  const w = fs.watch(folder, (_event, name) => {
    if (name) seen(String(name));
  });
  w.on('error', (e) => {
    logStoreError(r.dir, `resident recorder: the watch for requests failed (${e.message}); hooks record by themselves`);
    r.stop();
  });
  for (const n of fs.readdirSync(folder)) seen(n);
  return w;
}

/**
 * Files of the request folder older than a minute: a hook's own claim (its `acceptBy` long past, no resident
 * takes it now), a dead resident's claim whose hook got `D` or is gone too (it waits at most ~20 s), and the
 * requests, answers and start marks of hooks that ended without removing them (and any other stale file).
 */
function sweepPending(dir: string): void {
  sweepMarkers(path.join(dir, PENDING_DIR), 60000);
}

/**
 * One request, read once: events for its file repeat (the rename, a later change) and its file goes as
 * soon as it is read, so a later event finds nothing. Answered in its answer file (residentWire.ts).
 */
function serve(r: Resident, id: string): void {
  const got = readRequest(r.dir, id);
  if (!got) return; // taken already, withdrawn by its hook, or not whole (never: it is renamed into place)
  fs.rmSync(requestFileOf(r.dir, id), { force: true });
  const { request, payload } = got;
  const refusal = refusalOf(r, request);
  if (refusal !== undefined) return answer(r, id, refusal);
  const req = request as HookRequest;
  if (payload.length !== req.size) return answer(r, id, 'R request');
  fault('resident.received');
  if (!claimedByResident(r, req)) return; // the hook stopped waiting and records it itself
  fault('resident.claimed');
  r.busy++;
  void recordFor(r, req, payload).finally(() => {
    r.busy--;
    r.ended();
  });
}

/** Writes an answer; one that cannot be written leaves its hook to its deadlines (said in errors.log). */
function answer(r: Resident, id: string, line: string): void {
  try {
    putAnswer(r.dir, id, line);
  } catch (e) {
    logStoreError(r.dir, `resident recorder: cannot answer a hook (${(e as Error).message})`);
  }
}

/** Why a request is not served (the line to answer, `S` for a status), or undefined for a valid hook request. */
function refusalOf(r: Resident, request: Request): string | undefined {
  if (request.op === 'status') return `S ${JSON.stringify(statusOf(r))}`;
  const bundle = (request as Partial<HookRequest>).bundle;
  if (typeof bundle?.id !== 'string' || typeof bundle.mtime !== 'number') return 'R request';
  if (bundle.id !== r.bundle.id) {
    // A hook from another build. From a newer one: this resident gives way (the hook starts its own).
    const newer = bundle.mtime >= r.bundle.mtime;
    if (newer) r.stop();
    return newer ? 'R replaced' : 'R other-bundle';
  }
  const valid =
    request.v === WIRE_VERSION &&
    request.op === 'hook' &&
    request.size >= 0 &&
    request.size <= MAX_PAYLOAD &&
    typeof request.acceptBy === 'number' &&
    typeof request.cwd === 'string' &&
    Array.isArray(request.args);
  return valid ? undefined : 'R request';
}

/** The payload is the resident's to record: whole before the hook's `acceptBy`, and its claim made first (residentWire.ts). */
function claimedByResident(r: Resident, req: HookRequest): boolean {
  if (Date.now() > req.acceptBy) return false;
  try {
    return claimPending(r.dir, req.id);
  } catch (e) {
    logStoreError(r.dir, `resident recorder: cannot claim a payload (${(e as Error).message}); its hook records it`);
    return false;
  }
}

/** Records one claimed payload, in this process, with the hook's own code; then `D`. */
async function recordFor(r: Resident, req: HookRequest, payload: Buffer): Promise<void> {
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
    return answer(r, req.id, 'R cwd');
  }
  if (!startsRecording(r, req.id)) {
    process.chdir(home);
    return; // its hook took it back at its takeover time and records it itself: no answer, nobody waits for one
  }
  try {
    context = recordPayload(req.args[0], req.args, dir, payload.toString('utf8'), {
      parse: r.parse,
      env: req.env,
      beforeAppend: (records) => writeAheadCopy(r, pending, records),
      ...(changes ? { changes } : {}),
    });
    r.served++;
    void r.changes?.watch(Store.open(r.dir).knownRoots()); // a session may have added a root
    if (r.changes) noteFallbacks(r);
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
  // The copy goes once `D` is written: a death before that leaves it to the hook, which finds its text in the log.
  answer(r, req.id, `D ${JSON.stringify({ context })}`);
  fs.rmSync(pending, { force: true });
}

/**
 * The resident starts recording a payload it claimed (residentWire.ts `<id>.go`): false when its hook took it
 * back meanwhile. When nothing can be decided in the store, it records, as the holder of the claim.
 */
function startsRecording(r: Resident, id: string): boolean {
  try {
    return takeGo(r.dir, id);
  } catch (e) {
    logStoreError(r.dir, `resident recorder: cannot mark a payload as started (${(e as Error).message}); recording it`);
    return true;
  }
}

/** The write-ahead copy (residentWire.ts): were this process to die in its append, the hook finishes it. */
function writeAheadCopy(r: Resident, pending: string, records: readonly LogRecord[]): void {
  let text = '';
  for (const rec of records) text += JSON.stringify(rec) + '\n';
  try {
    fs.writeFileSync(pending, text, { mode: 0o600 }); // into our claim
  } catch (e) {
    logStoreError(r.dir, `resident recorder: no write-ahead copy (${(e as Error).message}); recording without it`);
  }
}

function statusOf(r: Resident): ResidentStatus {
  let roots: string[] = [];
  try {
    roots = Store.open(r.dir).knownRoots();
  } catch {
    /* the store went away: the check stops us soon */
  }
  const stats = r.changes?.stats();
  return {
    pid: process.pid,
    since: r.since,
    roots,
    watches: stats?.watches ?? 0,
    bundle: r.bundle.id,
    served: r.served,
    ...(r.changes ? { fallbacks: fallbacks(stats?.unwatched) } : {}),
  };
}

/** The watcher's fallbacks, for VS Code's status bar: written when they changed. */
function noteFallbacks(r: Resident): void {
  try {
    r.fallbacksText = writeFallbacks(r.dir, fallbacks(r.changes?.stats().unwatched), r.fallbacksText);
  } catch (e) {
    logStoreError(r.dir, `resident recorder: cannot write the watcher's fallbacks (${(e as Error).message})`);
  }
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
 * The store's file watcher (watcher.ts): its cookies in a private folder of the store,
 * the store itself never watched. On unless `AGENT_REWIND_WATCH=0`; without it every call scans, as a hook does.
 */
function watcherFor(dir: string): ChangeSource | undefined {
  if (process.env.AGENT_REWIND_WATCH === '0') return undefined;
  return new DirWatcher(path.join(dir, STORE_FILE.watchCookies), (m) => logStoreError(dir, m), [dir]);
}

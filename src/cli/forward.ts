// The forwarding hook: part of dist/cli.js, loaded before anything else of ours. It hands the payload
// to the store's resident recorder (resident.ts) over a local socket and waits for "appended": one
// round trip. It loads none of the recording code, nor node:crypto. When there is no resident, or it
// does not answer within ACCEPT_MS, or it refuses, the caller (main.ts) records the payload itself
// with dist/hook.js — the same code, the same lines — and starts a resident for the next hook. The
// protocol, and why a payload is never recorded twice nor lost: residentWire.ts.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import {
  residentOff,
  type BundleId,
  bundleIdOf,
  claimPending,
  type HookRequest,
  lineReader,
  type ResidentStatus,
  type StatusRequest,
  pendingFileOf,
  SECRET_FILE,
  STARTING_FILE,
  socketPathOf,
  socketPlace,
  WIRE_VERSION,
} from './residentWire';
import { appendJsonLines } from '../core/storeFiles/jsonLines';
import { HOOK_STDIN_DEADLINE_MS, readStdin, type StdinResult } from './stdin';
import { storeFromArgs } from './storeArg';

/**
 * How long the hook waits for the resident to take its payload (the header's `acceptBy`); then it
 * claims the payload and records it itself (`AGENT_REWIND_RESIDENT_ACCEPT_MS` overrides: a machine too loaded for this).
 */
export const ACCEPT_MS = 80;
const acceptMs = (env: NodeJS.ProcessEnv) => Number(env.AGENT_REWIND_RESIDENT_ACCEPT_MS) || ACCEPT_MS;
/** Once the resident holds the claim, its `D` is awaited up to here (process uptime): inside the 20 s a hook promises. */
const DONE_BY_MS = HOOK_STDIN_DEADLINE_MS + 1500;

export type ForwardResult =
  /** The resident appended the payload's lines; `context`: what to print. */
  | { kind: 'recorded'; context: string }
  /**
   * Record it here. `input`: stdin, when already read. `start`: no resident listens, start one.
   * `redelivered`: a resident took it and died before its append (see runHook).
   */
  | { kind: 'fallback'; input?: StdinResult; start: boolean; redelivered: boolean; dir?: string };

interface Conn {
  socket: net.Socket;
  /** Resolves true once connected, false on a connection error (with `start` telling whether none listens). */
  ready: Promise<boolean>;
  start: boolean;
}

function connect(socketPath: string): Conn {
  const socket = net.createConnection(socketPath);
  const conn: Conn = { socket, ready: Promise.resolve(false), start: false };
  conn.ready = new Promise((resolve) => {
    socket.once('connect', () => resolve(true));
    socket.once('error', (e: NodeJS.ErrnoException) => {
      // No socket, or a socket file a dead resident left: nobody listens. Anything else (EACCES…): leave it be.
      conn.start = e.code === 'ENOENT' || e.code === 'ECONNREFUSED';
      resolve(false);
    });
  });
  return conn;
}

/** How a conversation ended (converse). */
type Outcome =
  /** `D`: appended. */
  | { kind: 'done'; context: string }
  /** `R`: the resident will not record it (and holds no claim). */
  | { kind: 'refused'; reason: string }
  /** The hook claimed the payload (no answer in time, or the connection ended before the resident took it). */
  | { kind: 'mine'; ended: boolean }
  /** The resident claimed it and the connection ended without `D`: it died. */
  | { kind: 'died' }
  /** The resident claimed it and is still at work when the hook's own deadline comes: it records it. */
  | { kind: 'late' };

/** A request id: 16 hex digits, unique among live hooks (the pid) and across a pid's reuse (random bits). */
function requestId(): string {
  const rand = Math.floor(Math.random() * 0x100000000);
  return (process.pid >>> 0).toString(16).padStart(8, '0').slice(-8) + rand.toString(16).padStart(8, '0');
}

/** Hands the payload to the store's resident; says what the caller still has to do. */
export async function forwardHook(args: string[], hookBundle: string): Promise<ForwardResult> {
  const dir = storeFromArgs(args.slice(1));
  if (!dir || residentOff(process.env)) return { kind: 'fallback', start: false, redelivered: false };
  let secret: string;
  let socketPath: string;
  let bundle: BundleId;
  try {
    secret = fs.readFileSync(path.join(dir, SECRET_FILE), 'utf8').trim();
    socketPath = socketPathOf(fs.realpathSync.native(dir), socketPlace());
    bundle = bundleIdOf(hookBundle);
  } catch {
    // No secret yet: no resident ever ran for this store (or no store yet). This hook records and starts one.
    return { kind: 'fallback', start: true, redelivered: false, dir };
  }
  const conn = connect(socketPath); // connects while stdin is read
  const input = await readStdin(HOOK_STDIN_DEADLINE_MS);
  const connected = await conn.ready;
  if (input.kind !== 'ok' || !connected) {
    conn.socket.destroy();
    return { kind: 'fallback', input, start: !connected && conn.start, redelivered: false, dir };
  }
  const id = requestId();
  const payload = Buffer.from(input.text, 'utf8');
  const wait = acceptMs(process.env);
  const request: HookRequest = {
    v: WIRE_VERSION,
    op: 'hook',
    id,
    secret,
    bundle,
    args,
    env: process.env,
    cwd: process.cwd(),
    size: payload.length,
    acceptBy: Date.now() + wait,
  };
  let o: Outcome;
  try {
    o = await converse(conn.socket, request, payload, wait, () => claimedByHook(dir, id));
  } finally {
    conn.socket.destroy();
  }
  switch (o.kind) {
    case 'done':
      return { kind: 'recorded', context: o.context };
    case 'late':
      return { kind: 'recorded', context: '' };
    case 'refused':
      // A refusal from an older bundle: that resident exits, start ours.
      return { kind: 'fallback', input, start: o.reason === 'replaced', redelivered: false, dir };
    case 'mine':
      // The connection ended before the resident claimed it: it never will (it claims only on a live
      // connection), so the claim can go now. Claimed at the accept deadline, it stays (residentWire.ts).
      if (o.ended) fs.rmSync(pendingFileOf(dir, id), { force: true });
      return { kind: 'fallback', input, start: o.ended, redelivered: false, dir };
    case 'died':
      // With text in its claim it got to its append: finish that. Empty: nothing of it reached the log; record
      // it here (its dedupe marker, if any, is its own).
      if (finishPendingAppend(dir, id)) return { kind: 'recorded', context: '' };
      return { kind: 'fallback', input, start: true, redelivered: true, dir };
  }
}

/** The hook's claim (residentWire.ts): true when the payload is the hook's to record. */
function claimedByHook(dir: string, id: string): boolean {
  try {
    return claimPending(dir, id);
  } catch {
    return true; // no claim can be made in the store: neither can the resident's, so it never records this one
  }
}

/**
 * Sends the request and follows the resident to `D` or `R`; at `waitMs` without either, or when the
 * connection ends first, settles who records it with `claim`.
 */
function converse(socket: net.Socket, request: HookRequest, payload: Buffer, waitMs: number, claim: () => boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    let finished = false;
    /** The resident holds the claim: only `D`, its death, or the hook's own deadline ends the wait. */
    let residentHolds = false;
    let doneTimer: NodeJS.Timeout | undefined;
    const finish = (o: Outcome) => {
      if (finished) return;
      finished = true;
      clearTimeout(acceptTimer);
      clearTimeout(doneTimer);
      resolve(o);
    };
    const settle = (ended: boolean) => {
      if (finished) return;
      if (residentHolds) return ended ? finish({ kind: 'died' }) : undefined;
      if (claim()) return finish({ kind: 'mine', ended });
      residentHolds = true;
      if (ended) return finish({ kind: 'died' });
      doneTimer = setTimeout(() => finish({ kind: 'late' }), Math.max(0, DONE_BY_MS - process.uptime() * 1000));
    };
    const acceptTimer = setTimeout(() => settle(false), waitMs);
    socket.on(
      'data',
      lineReader((line) => {
        const sp = line.indexOf(' ');
        const kind = sp < 0 ? line : line.slice(0, sp);
        const rest = sp < 0 ? '' : line.slice(sp + 1);
        if (kind === 'D') finish({ kind: 'done', context: doneContext(rest) });
        else if (kind === 'R') finish({ kind: 'refused', reason: rest });
      }),
    );
    socket.on('close', () => settle(true));
    socket.on('error', () => settle(true));
    socket.write(JSON.stringify(request) + '\n');
    socket.write(payload);
  });
}

function doneContext(json: string): string {
  try {
    const v = JSON.parse(json) as { context?: unknown };
    return typeof v.context === 'string' ? v.context : '';
  } catch {
    return '';
  }
}

/**
 * Starts the store's resident, detached (its own process group, no stdio, not waited for): the hook
 * exits at once. `resident.starting` (made exclusively, stale after a few seconds) keeps a burst of
 * parallel hooks from starting one each; the resident's lock would stop the extras anyway.
 */
export function startResident(cliFile: string, dir: string): void {
  const marker = path.join(dir, STARTING_FILE);
  try {
    try {
      fs.writeFileSync(marker, String(process.pid), { flag: 'wx', mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || Date.now() - fs.statSync(marker).mtimeMs < STARTING_STALE_MS) return;
      fs.writeFileSync(marker, String(process.pid), { mode: 0o600 });
    }
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    spawn(process.execPath, [cliFile, 'resident', '--store', path.resolve(dir)], {
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
    }).unref();
  } catch {
    /* no resident: every hook records itself, as before */
  }
}

const STARTING_STALE_MS = 10000;

/** How far back in the log a dead resident's last append is looked for (other hooks may have appended since). */
const SEARCH_BACK = 8 * 1024 * 1024;

/**
 * The resident died holding the claim of request `id`: appends what of its write-ahead copy the log
 * lacks — nothing when its append was whole, the lines after a torn one (the torn fragment stays,
 * skipped by every reader as after any killed writer), or all of it. False when the claim holds no
 * text (it died before its append: the hook records the payload) or is gone. The claim goes either way.
 */
export function finishPendingAppend(dir: string, id: string): boolean {
  const pending = pendingFileOf(dir, id);
  let text: string;
  try {
    text = fs.readFileSync(pending, 'utf8');
  } catch {
    return false;
  }
  const lines = text.split('\n').filter((l) => l !== '');
  if (lines.length === 0) {
    fs.rmSync(pending, { force: true });
    return false;
  }
  const logFile = path.join(dir, 'files.jsonl');
  const present = linesPresent(logFile, lines, Buffer.byteLength(text));
  if (present < lines.length)
    appendJsonLines(
      logFile,
      lines.slice(present).map((l) => JSON.parse(l) as unknown),
    );
  fs.rmSync(pending, { force: true });
  return true;
}

/** How many of `lines`, from the first, stand whole and in order in the log's tail (0 when the first is not there). */
function linesPresent(logFile: string, lines: readonly string[], bytes: number): number {
  let tail: string;
  try {
    const fd = fs.openSync(logFile, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const from = Math.max(0, size - SEARCH_BACK - bytes);
      const buf = Buffer.alloc(size - from);
      fs.readSync(fd, buf, 0, buf.length, from);
      tail = buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return 0;
  }
  const logLines = tail.split('\n');
  // The last element is a line without its newline (torn, or none): not whole.
  const whole = logLines.slice(0, -1);
  const at = whole.lastIndexOf(lines[0]!);
  if (at < 0) return 0;
  let n = 0;
  while (n < lines.length && whole[at + n] === lines[n]) n++;
  return n;
}

/**
 * The running resident's own account (`agent-rewind status`), or null when none answers within
 * `timeoutMs` (none runs, or it is busy or stuck).
 */
export function askResident(dir: string, timeoutMs = 2000): Promise<ResidentStatus | null> {
  let secret: string;
  let socketPath: string;
  try {
    secret = fs.readFileSync(path.join(dir, SECRET_FILE), 'utf8').trim();
    socketPath = socketPathOf(fs.realpathSync(dir), socketPlace());
  } catch {
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    const done = (s: ResidentStatus | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(s);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.on('error', () => done(null));
    socket.on('close', () => done(null));
    socket.on(
      'data',
      lineReader((line) => {
        try {
          done(line.startsWith('S ') ? (JSON.parse(line.slice(2)) as ResidentStatus) : null);
        } catch {
          done(null);
        }
      }),
    );
    socket.write(JSON.stringify({ v: WIRE_VERSION, op: 'status', secret } satisfies StatusRequest) + '\n');
  });
}

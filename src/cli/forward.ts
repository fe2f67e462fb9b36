// The forwarding hook: part of dist/cli.js, loaded before anything else of ours. It hands the payload
// to the store's resident recorder (resident.ts) over a local socket and waits for "appended"; it
// loads none of the recording code. When there is no resident, or it does not accept within
// ACCEPT_MS, or it refuses, the caller (main.ts) records the payload itself with dist/hook.js — the
// same code, the same lines — and starts a resident for the next hook. The protocol, and why a
// payload is never recorded twice nor lost: residentWire.ts.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import {
  residentOff,
  type BundleId,
  bundleIdOf,
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
 * How long the hook waits for the resident's `A` after sending its payload; then it records the
 * payload itself (`AGENT_REWIND_RESIDENT_ACCEPT_MS` overrides: a machine too loaded for this).
 */
export const ACCEPT_MS = 80;
const acceptMs = (env: NodeJS.ProcessEnv) => Number(env.AGENT_REWIND_RESIDENT_ACCEPT_MS) || ACCEPT_MS;
/** After `G`, the resident's `D` is awaited up to here (process uptime): inside the 20 s a hook promises. */
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

/** Where this conversation stands when the socket ends or a deadline passes. */
interface Progress {
  accepted: boolean;
  go: boolean;
  done?: string;
  refused?: string;
  /** The connection ended (the resident closed it or died). */
  ended?: boolean;
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
    socketPath = socketPathOf(fs.realpathSync(dir), socketPlace());
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
  let p: Progress;
  const id = randomBytes(8).toString('hex');
  try {
    const payload = Buffer.from(input.text, 'utf8');
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
    };
    p = await converse(conn.socket, request, payload);
  } catch {
    p = { accepted: false, go: false }; // nothing said go: the resident drops it
  } finally {
    conn.socket.destroy();
  }
  if (p.done !== undefined) return { kind: 'recorded', context: p.done };
  // Never said go: the resident drops it. A refusal from an older bundle: that resident exits, start ours.
  if (!p.go) return { kind: 'fallback', input, start: p.refused === 'replaced', redelivered: false, dir };
  // Refused after go (it could not enter the hook's folder): it recorded nothing.
  if (p.refused !== undefined) return { kind: 'fallback', input, start: false, redelivered: false };
  // Said go, and the hook's own deadline came first: the resident lives and still records it.
  if (!p.ended) return { kind: 'recorded', context: '' };
  // Said go, and the resident died. With its pending copy: it got to its append; finish that.
  if (finishPendingAppend(dir, id)) return { kind: 'recorded', context: '' };
  // Without: nothing of it reached the log. Record it here (its dedupe marker, if any, is its own).
  return { kind: 'fallback', input, start: true, redelivered: true, dir };
}

/** Sends the request, says go on `A` within ACCEPT_MS, and follows the resident to `D` or its end. */
function converse(socket: net.Socket, request: HookRequest, payload: Buffer): Promise<Progress> {
  return new Promise((resolve) => {
    const p: Progress = { accepted: false, go: false };
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(acceptTimer);
      clearTimeout(doneTimer);
      resolve(p);
    };
    const acceptTimer = setTimeout(() => {
      if (!p.accepted) finish();
    }, acceptMs(process.env));
    let doneTimer: NodeJS.Timeout | undefined;
    socket.on(
      'data',
      lineReader((line) => {
        const [kind, ...rest] = line.split(' ');
        if (kind === 'A' && !finished && !p.accepted) {
          p.accepted = true;
          p.go = true;
          socket.write('G\n');
          clearTimeout(acceptTimer);
          doneTimer = setTimeout(finish, Math.max(0, DONE_BY_MS - process.uptime() * 1000));
        } else if (kind === 'D') {
          p.done = doneContext(rest.join(' '));
          finish();
        } else if (kind === 'R') {
          p.refused = rest[0] ?? '';
          finish();
        }
      }),
    );
    const ended = () => {
      p.ended = true;
      finish();
    };
    socket.on('close', ended);
    socket.on('error', ended);
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
 * The resident died after writing its pending copy of request `id`: appends what of that text the
 * log lacks — nothing when its append was whole, the lines after a torn one (the torn fragment stays,
 * skipped by every reader as after any killed writer), or all of it. False when there is no copy.
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

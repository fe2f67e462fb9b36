// A hook's stdin, read to its end within the hook's deadline. Its own small module: the forwarding
// hook (resident/forward.ts, in dist/cli.js) reads the payload before it knows whether the resident recorder
// or this process records it, and must not load the recording code to do so.
import * as fs from 'node:fs';
import { sleepMs } from '../core/storeFiles/lock';

/** Max bytes of stdin we accept: a payload carries a Write's whole content; beyond this it is bad input. */
export const MAX_PAYLOAD = 64 * 1024 * 1024;

/**
 * How long the hook waits for its stdin to close. An agent that never closes it (or a stuck pipe)
 * must not hang: after this the hook gives up, logs it and exits 0 — inside the 20 s we promise. Not
 * shorter: on a loaded machine a hook process can wait many seconds for a payload its agent already wrote.
 */
export const HOOK_STDIN_DEADLINE_MS = 18000;

export type StdinResult =
  { kind: 'ok'; text: string } | { kind: 'timeout' } | { kind: 'too-large'; head: string } | { kind: 'error'; message: string };

/** How much of a payload over MAX_PAYLOAD is kept: its start names the event, the tool and the file (the content comes after). */
const HEAD_BYTES = 64 * 1024;

function tooLarge(chunks: readonly Buffer[]): StdinResult {
  const head: Buffer[] = [];
  let n = 0;
  for (const c of chunks) {
    if (n >= HEAD_BYTES) break;
    head.push(c);
    n += c.length;
  }
  return { kind: 'too-large', head: Buffer.concat(head).subarray(0, HEAD_BYTES).toString('utf8') };
}

/** How often a pipe read without a stream is looked at again while its writer has not closed it. */
const PIPE_POLL_MS = 1;

/**
 * Reads `fd` to its end (0) or, on a non-blocking one, until the deadline; EAGAIN waits a millisecond.
 * `chunks` and `total`: what was read of it already (a stream's data, when its deadline comes).
 */
function readToEnd(fd: number, deadline: number, chunks: Buffer[] = [], total = 0): StdinResult {
  const buf = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = fs.readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') return { kind: 'error', message: (e as Error).message };
      if (Date.now() > deadline) return { kind: 'timeout' };
      sleepMs(PIPE_POLL_MS);
      continue;
    }
    if (n === 0) return { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') };
    total += n;
    if (total > MAX_PAYLOAD) return tooLarge(chunks);
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
}

/**
 * What stdin is: a file, a pipe (a shell's `|`, most non-node agents), a socket (what node's
 * child_process gives a child: every agent written in node), or something else (a terminal…).
 */
export type StdinShape = 'file' | 'pipe' | 'socket' | 'other';

export function stdinShape(): StdinShape {
  try {
    const st = fs.fstatSync(0);
    return st.isFile() ? 'file' : st.isFIFO() ? 'pipe' : st.isSocket() ? 'socket' : 'other';
  } catch {
    return 'other';
  }
}

/**
 * Makes stdin, a socket, non-blocking without a stream: libuv's pipe handle opened on fd 0 sets
 * O_NONBLOCK on it (what node's stream would do, for its ~4 ms) and is never read or closed. Node gives
 * stdin's flags back at exit, so the agent's end is as it was. False where that handle is not there.
 */
function socketNonBlocking(): boolean {
  try {
    const { Pipe, constants } = (process as unknown as { binding(name: string): PipeWrap }).binding('pipe_wrap');
    return new Pipe(constants.SOCKET).open(0) === 0;
  } catch {
    return false;
  }
}

interface PipeWrap {
  Pipe: new (type: number) => { open(fd: number): number };
  constants: { SOCKET: number };
}

/**
 * Stdin read without node's streams (which cost a hook ~4 ms of a ~60 ms start), where that can never
 * hang: a file (read to its end); a pipe on Linux reopened non-blocking through /proc, or a socket (what
 * every agent written in node gives its hook) made non-blocking, read until its writer closes it or the
 * deadline — so the hook always ends by itself, exit 0. Undefined for anything else, which the stream reads.
 */
function readStdinWithoutStream(deadlineMs: number, shape: StdinShape): StdinResult | undefined {
  if (shape === 'file') return readToEnd(0, Infinity);
  if (shape === 'socket' && process.platform !== 'win32' && socketNonBlocking()) return readToEnd(0, Date.now() + deadlineMs);
  if (shape !== 'pipe' || process.platform !== 'linux') return undefined;
  let fd: number;
  try {
    fd = fs.openSync('/proc/self/fd/0', fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    return readToEnd(fd, Date.now() + deadlineMs);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads stdin to its end within the deadline: without a stream where it can (above), else asynchronously (no busy wait). */
export function readStdin(deadlineMs: number, shape: StdinShape = stdinShape()): Promise<StdinResult> {
  const now = readStdinWithoutStream(deadlineMs, shape);
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const input = process.stdin;
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const finish = (r: StdinResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      input.removeAllListeners('data');
      if (r.kind !== 'ok') input.destroy(); // let the process end with the pipe still open
      resolve(r);
    };
    // On a starved machine the timer and the pipe's data become due together, and timers run first
    // in a loop turn: give the I/O poll of that turn its chance, then take what the pipe holds right now
    // without waiting (the whole payload and its end can be sitting there while the event loop never got to
    // them); no end there (EAGAIN), or any error: the writer has not closed stdin.
    const atDeadline = (): StdinResult => {
      const now = readToEnd(0, 0, chunks, total);
      return now.kind === 'error' ? { kind: 'timeout' } : now;
    };
    const timer = setTimeout(() => setImmediate(() => finish(atDeadline())), deadlineMs);
    input.on('data', (d: Buffer) => {
      total += d.length;
      if (total > MAX_PAYLOAD) finish(tooLarge(chunks));
      else chunks.push(d);
    });
    input.on('end', () => finish({ kind: 'ok', text: Buffer.concat(chunks).toString('utf8') }));
    input.on('error', (e) => finish({ kind: 'error', message: e.message }));
  });
}

// A hook's stdin, read to its end within the hook's deadline. Its own small module: the forwarding
// hook (forward.ts, in dist/cli.js) reads the payload before it knows whether the resident recorder
// or this process records it, and must not load the recording code to do so.
import * as fs from 'node:fs';

/** Max bytes of stdin we accept: a payload carries a Write's whole content; beyond this it is bad input. */
export const MAX_PAYLOAD = 64 * 1024 * 1024;

/**
 * How long the hook waits for its stdin to close. An agent that never closes it (or a stuck pipe)
 * must not hang: after this the hook gives up, logs it and exits 0 — inside the 20 s we promise. Not
 * shorter: on a loaded machine a hook process can wait many seconds for a payload its agent already wrote.
 */
export const HOOK_STDIN_DEADLINE_MS = 18000;

export type StdinResult = { kind: 'ok'; text: string } | { kind: 'timeout' } | { kind: 'too-large' } | { kind: 'error'; message: string };

/**
 * At the deadline, what the pipe holds right now, read without waiting: on a starved machine the
 * whole payload and its end can be sitting in the pipe while the event loop never got to them. The
 * payload when its end is there; null when the writer really has not closed stdin (EAGAIN).
 */
function drainNow(chunks: Buffer[], total: number): StdinResult | null {
  const buf = Buffer.allocUnsafe(1 << 16);
  try {
    for (;;) {
      const n = fs.readSync(0, buf, 0, buf.length, null);
      if (n === 0) return { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') };
      total += n;
      if (total > MAX_PAYLOAD) return { kind: 'too-large' };
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
  } catch {
    return null; // EAGAIN: nothing more, and no end: the writer is still holding stdin open
  }
}

/** Reads stdin to its end, asynchronously (no busy wait on a non-blocking pipe), within the deadline. */
export function readStdin(deadlineMs: number): Promise<StdinResult> {
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
    // in a loop turn: give the I/O poll of that turn its chance before giving up.
    const timer = setTimeout(() => setImmediate(() => finish(drainNow(chunks, total) ?? { kind: 'timeout' })), deadlineMs);
    input.on('data', (d: Buffer) => {
      total += d.length;
      if (total > MAX_PAYLOAD) finish({ kind: 'too-large' });
      else chunks.push(d);
    });
    input.on('end', () => finish({ kind: 'ok', text: Buffer.concat(chunks).toString('utf8') }));
    input.on('error', (e) => finish({ kind: 'error', message: e.message }));
  });
}

// Waiting in tests on a condition, never for a fixed time: a fixed sleep is too short on a loaded
// machine (a flaky test) and too long everywhere else. Each wait polls its condition and fails
// loudly, naming what it waited for, when the condition does not come within the time limit.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** How often a condition is asked again: a poll interval, not a wait for anything. */
const POLL_MS = 2;
const LIMIT_MS = 30000;

const blockFor = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Blocks until `cond()` holds (for code that must not yield, e.g. between two synchronous scans). */
export function waitUntilSync(cond: () => boolean, what: string, limitMs = LIMIT_MS): void {
  const end = Date.now() + limitMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`Timed out after ${limitMs} ms waiting for ${what}`);
    blockFor(POLL_MS);
  }
}

/** Resolves once `cond()` holds. */
export async function waitUntil(cond: () => boolean | Promise<boolean>, what: string, limitMs = LIMIT_MS): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`Timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** The newest mtime or ctime of `root` and everything under it (symlinks not followed). */
export function newestStamp(root: string): number {
  let newest = 0;
  const visit = (p: string) => {
    const st = fs.lstatSync(p);
    newest = Math.max(newest, st.mtimeMs, st.ctimeMs);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
  };
  visit(root);
  return newest;
}

/**
 * Waits until every stat under `root` is older than a scan's racy window (a stat newer than the
 * scan's start minus `racyMs` is not trusted): the clock has passed the newest mtime/ctime by it.
 */
export function pastRacyWindow(root: string, racyMs: number): void {
  const newest = newestStamp(root);
  waitUntilSync(() => Date.now() > newest + racyMs + 1, `the clock to pass ${root}'s newest stat by ${racyMs} ms`);
}

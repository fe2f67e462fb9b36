// Resident recorders for tests: started for one store, waited for by condition (never a fixed
// sleep), and stopped by the test that started them (`stopAll` in an `after`).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as assert from 'node:assert/strict';
import { CLI } from './cli';

/** Hooks that use a resident (and accept generously: a loaded test machine must not turn forwarding into fallback). */
export const RESIDENT_ON: NodeJS.ProcessEnv = { AGENT_REWIND_RESIDENT: '1', AGENT_REWIND_RESIDENT_ACCEPT_MS: '10000' };

const started = new Set<number>();

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `cond` until true (or throws after `ms`). */
export async function waitFor(cond: () => boolean, what: string, ms = 30000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** `agent-rewind status --json` of a store. */
export function status(store: string, env: NodeJS.ProcessEnv = {}): any {
  const r = spawnSync(process.execPath, [CLI, 'status', '--json', '--store', store], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`status exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The pid of the running resident of `store`, once `status` says it answers. Remembered for stopAll. */
export async function runningResident(store: string, what = 'the resident to answer'): Promise<number> {
  let pid = 0;
  await waitFor(() => {
    const s = status(store).resident;
    if (s.running) pid = s.pid;
    return s.running;
  }, what);
  started.add(pid);
  return pid;
}

/** Starts a resident for `store` (from `cli`, default the built one) and waits until it answers. */
export async function startResident(store: string, env: NodeJS.ProcessEnv = {}, cli = CLI): Promise<number> {
  const child = spawn(process.execPath, [cli, 'resident', '--store', store], {
    env: { ...process.env, ...RESIDENT_ON, ...env },
    stdio: 'ignore',
    detached: true,
  });
  started.add(child.pid!);
  child.unref();
  const pid = await runningResident(store);
  if (pid !== child.pid) throw new Error(`another resident (${pid}) answers for ${store}`);
  return pid;
}

/** Remembers a resident some hook started, so that stopAll stops it. */
export function adopt(pid: number): void {
  started.add(pid);
}

/** Stops a resident (SIGKILL when `hard`) and waits until it is gone. */
export async function stopResident(pid: number, hard = false): Promise<void> {
  if (!(pid > 0)) throw new Error(`stopResident: no resident pid (${pid}); kill(0) would signal this process group`);
  try {
    process.kill(pid, hard ? 'SIGKILL' : 'SIGTERM');
  } catch {
    /* gone already */
  }
  await waitFor(() => !alive(pid), `resident ${pid} to end`);
  started.delete(pid);
}

/** Every resident a test of this file started or adopted. */
export async function stopAll(): Promise<void> {
  for (const pid of [...started]) await stopResident(pid);
}

/** The resident's lock file (pid, since). */
export function lockOf(store: string): { pid: number } | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(store, 'resident.lock'), 'utf8'));
  } catch {
    return null;
  }
}

/** One Claude hook through the CLI (into `store`, with `env`), which must exit 0 and print nothing on stderr; its stdout. */
export function hookWith(store: string, payload: Record<string, unknown>, env: NodeJS.ProcessEnv, cli = CLI): string {
  const r = spawnSync(process.execPath, [cli, 'hook', 'claude'], {
    input: JSON.stringify(payload),
    env: { ...process.env, AGENT_REWIND_STORE: store, ...env },
    encoding: 'utf8',
    timeout: 60000,
  });
  assert.equal(r.status, 0, `hook exited ${r.status}: ${r.stderr}`);
  assert.equal(r.stderr, '');
  return r.stdout;
}

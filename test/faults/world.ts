// A workspace and a store for the kill tests: a recorded agent session (through the real recorder,
// in-process, so setting up hundreds of files takes milliseconds), the two states the tests move
// between, and the checks every iteration makes — the store verifies, every file holds one of the
// two states' bytes (never a torn or foreign one), no temp file is left in the workspace.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI } from '../helpers/cli';
import { recordingSession } from '../helpers/recording';
import { snapshotTree } from '../helpers/tmp';

/** Whether the process is stopped (SIGSTOP): its state in /proc (this tier runs on Linux). */
export function stopped(pid: number): boolean {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
}

/** A small seeded PRNG (mulberry32): the same seed gives the same kills. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const SEED = Number(process.env.FAULTS_SEED || Date.now() % 100000);

export type Tree = Record<string, string>;

export interface World {
  ws: string;
  store: string;
  /** The prompt checkpoint taken before the agent's edits. */
  start: string;
  /** The workspace at `start`, and after the agent. */
  before: Tree;
  after: Tree;
}

function content(rand: () => number, i: number, gen: number): Buffer {
  const kind = i % 7;
  if (kind === 0) return Buffer.alloc(0); // empty files
  if (kind === 1) return Buffer.from(Array.from({ length: 64 + Math.floor(rand() * 4000) }, () => Math.floor(rand() * 256))); // binary
  const lines = 1 + Math.floor(rand() * (kind === 2 ? 2000 : 60));
  let s = '';
  for (let l = 0; l < lines; l++) s += `// file ${i} generation ${gen} line ${l} ${rand().toString(36)}\n`;
  return Buffer.from(s);
}

/**
 * `n` files, then a prompt, then an agent session that modifies ~60% of them, deletes ~20% and
 * creates n/5 new ones (some in new nested folders), each through Write's before/after hooks.
 */
export function agentWorld(n: number, seed = SEED): World {
  const rand = prng(seed);
  const { ws, store, start: sessionStart, prompt, write } = recordingSession('kill-session');
  const rel = (i: number) => (i % 5 === 0 ? `src/mod${i % 13}/file-${i}.ts` : `file ${i} ünï.txt`);
  for (let i = 0; i < n; i++) {
    const p = path.join(ws, rel(i));
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content(rand, i, 0));
  }
  fs.writeFileSync(path.join(ws, 'user-notes.txt'), 'never touched by the agent\n');
  sessionStart();
  const start = prompt('change many files');
  const before = snapshotTree(ws);
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.6) write(path.join(ws, rel(i)), content(rand, i, 1));
    else if (r < 0.8) write(path.join(ws, rel(i)), null);
  }
  for (let i = 0; i < Math.ceil(n / 5); i++)
    write(path.join(ws, i % 3 === 0 ? `new/deep/er${i % 4}/n${i}.bin` : `added-${i}.txt`), content(rand, n + i, 1));
  return { ws, store: store.dir, start, before, after: snapshotTree(ws) };
}

export interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function env(store: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { AGENT_REWIND_RESIDENT: '0', ...process.env, AGENT_REWIND_STORE: store, ...extra };
  if (!extra.AGENT_REWIND_FAULT) delete e.AGENT_REWIND_FAULT;
  return e;
}

/** One CLI process, to the end. `fault` arms a fault point (AGENT_REWIND_FAULT). */
export function run(store: string, args: string[], opts: { fault?: string; input?: string } = {}): Run {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: env(store, opts.fault ? { AGENT_REWIND_FAULT: opts.fault } : {}),
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: 120000,
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - t0 };
}

/** One CLI process without blocking: optionally armed (`fault`), or SIGKILLed `killAfterMs` after its start. */
export function runAsync(
  store: string,
  args: string[],
  opts: { fault?: string; input?: string; killAfterMs?: number; started?: (pid: number) => void } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { env: env(store, opts.fault ? { AGENT_REWIND_FAULT: opts.fault } : {}) });
    if (child.pid !== undefined) opts.started?.(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.on('error', () => {}); // killed before it read its input
    child.stdin.end(opts.input ?? '');
    const timer = opts.killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr, ms: performance.now() - t0 });
    });
  });
}

/** One CLI process, SIGKILLed `afterMs` after it was spawned (if still running then). */
export function runKilledAt(store: string, args: string[], afterMs: number, input = ''): Promise<Run> {
  return runAsync(store, args, { input, killAfterMs: afterMs });
}

export function ok(r: Run, what: string): Run {
  assert.equal(r.status, 0, `${what}: exit ${r.status} (signal ${r.signal})\n${r.stderr}`);
  return r;
}

export function json<T = any>(store: string, args: string[]): T {
  return JSON.parse(ok(run(store, [...args, '--json']), args.join(' ')).stdout) as T;
}

export function rewindCheckpoints(store: string): string[] {
  return json<{ id: string; kind: string }[]>(store, ['checkpoints'])
    .filter((c) => c.kind === 'rewind')
    .map((c) => c.id);
}

/** `verify` passes (its own recovery of an unfinished rewind included); returns its report. */
export function assertSound(store: string, what: string) {
  const r = run(store, ['verify', '--json']);
  const report = JSON.parse(r.stdout || '{}');
  assert.equal(r.status, 0, `${what}: verify failed: ${JSON.stringify(report.errors)}\n${r.stderr}`);
  assert.equal(report.ok, true);
  return { report, stderr: r.stderr };
}

const TEMP = /\.agent-rewind-[A-Za-z0-9_-]+\.tmp$/;

/** Every file holds the bytes of one of the states (a missing file counts as one); nothing else is there. */
export function assertBetween(ws: string, a: Tree, b: Tree, what: string): { inA: number; inB: number } {
  const now = snapshotTree(ws);
  let inA = 0;
  let inB = 0;
  const files = new Set([...Object.keys(a), ...Object.keys(b), ...Object.keys(now)].filter((k) => !k.endsWith('/')));
  for (const f of files) {
    assert.ok(!TEMP.test(f), `${what}: a rewind temp file is left in the workspace: ${f}`);
    const v = now[f];
    assert.ok(v === a[f] || v === b[f], `${what}: ${f} holds neither state's bytes (lost or torn content)`);
    if (a[f] !== b[f]) {
      if (v === a[f]) inA++;
      else inB++;
    }
  }
  return { inA, inB };
}

export function tree(ws: string): Tree {
  return snapshotTree(ws);
}

/** The workspace is exactly `expected`; a failure names the paths that differ, not their bytes. */
export function assertTree(ws: string, expected: Tree, what: string): void {
  const now = snapshotTree(ws);
  const diff = [...new Set([...Object.keys(now), ...Object.keys(expected)])]
    .filter((k) => now[k] !== expected[k])
    .map((k) => `${k} (${k in expected ? (k in now ? 'other bytes' : 'missing') : 'unexpected'})`);
  assert.ok(diff.length === 0, `${what}: ${diff.length} path(s) differ: ${diff.slice(0, 8).join(', ')}`);
}

export { fs, path };

// The hook's watchdog is real: a hook whose stdin is never closed (a stuck agent, a pipe nobody
// ends) ends, silent, within the 20 s the product promises — the real `node dist/cli.js hook claude`:
// by itself (exit 0), whatever its stdin is (a socket, as node gives; a FIFO) and whether the store's
// resident recorder runs or not: an agent shows a hook ended by a signal as a failed hook.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { HOOK_STDIN_DEADLINE_MS } from '../../src/cli/hook';
import { CLI } from '../helpers/cli';
import { RESIDENT_ON, startResident, stopAll } from '../helpers/resident';
import { tempDir } from '../helpers/tmp';

/** What we promise the agent: a hook never holds it longer than this. */
const PROMISED_MS = 20000;

after(stopAll);

/** Runs a hook whose stdin (`stdin`: a socket from node, or a FIFO's fd) gets half a payload and stays open; how it ended. */
async function stuckHook(store: string, env: NodeJS.ProcessEnv, stdin: 'pipe' | number) {
  const child = spawn(process.execPath, [CLI, 'hook', 'claude'], {
    env: { ...process.env, AGENT_REWIND_STORE: store, ...env },
    stdio: [stdin, 'pipe', 'pipe'],
  });
  const half = '{"hook_event_name": "PreToolUse", '; // half a payload, and the pipe stays open
  if (typeof stdin === 'number') fs.writeSync(stdin, half);
  else child.stdin!.write(half);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  // Generous for a loaded machine; the product bound is the constant, not this wait.
  const limit = HOOK_STDIN_DEADLINE_MS + 15000;
  const end = await new Promise<{ code: number | null; signal: string | null } | 'still running'>((resolve) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('still running');
    }, limit);
    child.on('exit', (code, signal) => {
      clearTimeout(t);
      resolve({ code, signal });
    });
  });
  child.stdin?.destroy();
  return { end, out, errors: () => fs.readFileSync(path.join(store, 'errors.log'), 'utf8') };
}

describe('a hook whose stdin never closes', () => {
  it('exits 0 and prints nothing within the promised bound, and says so in errors.log', async () => {
    assert.ok(HOOK_STDIN_DEADLINE_MS < PROMISED_MS, 'the deadline itself is inside the promise');
    const store = path.join(tempDir(), 'store');
    const r = await stuckHook(store, {}, 'pipe');
    assert.deepEqual(r.end, { code: 0, signal: null }, 'the hook must exit on its own');
    assert.equal(r.out, '');
    assert.match(r.errors(), /stdin was not closed within/);
  });

  it('a pipe (a FIFO, as a shell or a non-node agent gives), read without a stream: exits 0 by itself, says so', async () => {
    const dir = tempDir();
    const fifo = path.join(dir, 'stdin.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
    const fd = fs.openSync(fifo, 'r+'); // read-write: the open does not wait, and a writer stays for ever
    try {
      const store = path.join(dir, 'store');
      const r = await stuckHook(store, {}, fd);
      assert.deepEqual(r.end, { code: 0, signal: null }, 'the hook must exit on its own');
      assert.equal(r.out, '');
      assert.match(r.errors(), /stdin was not closed within/);
    } finally {
      fs.closeSync(fd);
    }
  });

  it('a socket beside a running resident: the hook still exits 0 by itself within its deadline, never by a signal', async () => {
    const dir = tempDir();
    const store = path.join(dir, 'store');
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    const start = spawnSync(process.execPath, [CLI, 'hook', 'claude'], {
      input: JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'SessionStart', source: 'startup' }),
      env: { ...process.env, AGENT_REWIND_STORE: store, AGENT_REWIND_RESIDENT: '0' },
    });
    assert.equal(start.status, 0);
    await startResident(store);
    const began = Date.now();
    const r = await stuckHook(store, RESIDENT_ON, 'pipe');
    assert.deepEqual(r.end, { code: 0, signal: null }, 'the hook must exit on its own');
    assert.ok(Date.now() - began < PROMISED_MS + 10000, `ended after ${Date.now() - began} ms`);
    assert.equal(r.out, '');
    assert.match(r.errors(), /stdin was not closed within/);
    assert.doesNotMatch(r.errors(), /ended hook process/);
  });
});

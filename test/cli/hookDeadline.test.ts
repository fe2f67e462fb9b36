// The hook's watchdog is real: a hook whose stdin is never closed (a stuck agent, a pipe nobody
// ends) exits 0, silent, within the 20 s the product promises — the real `node dist/cli.js hook claude`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { HOOK_STDIN_DEADLINE_MS } from '../../src/cli/hook';
import { CLI } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

/** What we promise the agent: a hook never holds it longer than this. */
const PROMISED_MS = 20000;

describe('a hook whose stdin never closes', () => {
  it('exits 0 and prints nothing within the promised bound, and says so in errors.log', async () => {
    assert.ok(HOOK_STDIN_DEADLINE_MS < PROMISED_MS, 'the deadline itself is inside the promise');
    const store = path.join(tempDir(), 'store');
    const env = { ...process.env, AGENT_REWIND_STORE: store };
    const child = spawn(process.execPath, [CLI, 'hook', 'claude'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.write('{"hook_event_name": "PreToolUse", '); // half a payload, and the pipe stays open
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    // Generous for a loaded machine; the product bound is the constant, not this wait.
    const limit = HOOK_STDIN_DEADLINE_MS + 15000;
    const code = await new Promise<number | string>((resolve) => {
      const t = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('still running');
      }, limit);
      child.on('exit', (c) => {
        clearTimeout(t);
        resolve(c ?? -1);
      });
    });
    assert.equal(code, 0, `the hook must exit on its own (within ${limit} ms)`);
    assert.equal(out, '');
    assert.match(fs.readFileSync(path.join(store, 'errors.log'), 'utf8'), /stdin was not closed within/);
    child.stdin.destroy();
  });
});

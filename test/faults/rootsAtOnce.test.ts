// Two hooks adding workspace roots at once (sessions starting in two folders, one store): each reads
// store.json, adds its folder and writes it back. One that read before the other wrote must not write back
// a store.json without the other's folder — a root dropped makes every file there unrewindable. The first
// hook is stopped between its read and its write (AGENT_REWIND_FAULT=roots.read:1:stop) while the second runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitUntil } from '../helpers/wait';
import { fs, path, runAsync, stopped } from './world';
import { tempDir } from '../helpers/tmp';
import { cli } from '../helpers/cli';

const sessionStart = (session: string, cwd: string) =>
  JSON.stringify({ session_id: session, transcript_path: '', cwd, hook_event_name: 'SessionStart', source: 'startup' });

describe('workspace roots added by two hooks at once', () => {
  it('a hook stopped between reading and writing store.json loses no root another hook added meanwhile', async () => {
    const store = path.join(tempDir(), 'store');
    const [a, b] = [tempDir(), tempDir()];
    for (const d of [a, b]) fs.writeFileSync(path.join(d, 'x.txt'), 'x\n');
    const first = cli(['hook', 'claude'], { store, input: sessionStart('s0', a) }); // the store exists, with a
    assert.equal(first.status, 0, first.stderr);
    const c = tempDir();
    fs.writeFileSync(path.join(c, 'y.txt'), 'y\n');
    let pid = 0;
    const slow = runAsync(store, ['hook', 'claude'], {
      fault: 'roots.read:1:stop',
      input: sessionStart('s1', b),
      started: (p) => (pid = p),
    });
    await waitUntil(() => pid !== 0 && stopped(pid), 'the first hook to stop after reading store.json');
    // The second hook waits for the first one's lock a moment, then goes on without it (a hook never waits long).
    const r2 = await runAsync(store, ['hook', 'claude'], { input: sessionStart('s2', c) });
    assert.equal(r2.status, 0, r2.stderr);
    process.kill(pid, 'SIGCONT');
    const r1 = await slow;
    assert.equal(r1.status, 0, r1.stderr);
    const roots = (JSON.parse(fs.readFileSync(path.join(store, 'store.json'), 'utf8')) as { roots: string[] }).roots;
    assert.deepEqual([...roots].sort(), [a, b, c].sort());
  });
});

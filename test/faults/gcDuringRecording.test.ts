// Clean-up while an agent records: a hook waits for a running gc only briefly (the agent is never
// blocked), then records anyway. What it recorded then — a line in files.jsonl and the blob it names,
// here the user's own edit the hook copied before the agent's write — must survive the gc: neither the
// compacted log nor the sweep may drop it (gc stopped after reading the log, AGENT_REWIND_FAULT=gc.read:1:stop).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { cli } from '../helpers/cli';
import { waitUntil } from '../helpers/wait';
import { agentWorld, assertSound, fs, path, runAsync, stopped } from './world';

const sha = (b: string) => createHash('sha256').update(b).digest('hex');

describe('gc while a hook records', () => {
  for (const args of [
    ['--keep-days', '0'],
    ['--keep-days', '30'],
  ]) {
    it(`gc ${args.join(' ')}: the hook's line and its blob are kept`, async () => {
      const w = agentWorld(10, 99);
      const file = path.join(w.ws, 'user-notes.txt');
      const mine = 'the user edited this, then the agent wrote over it\n';
      fs.writeFileSync(file, mine);
      let pid = 0;
      const cleaning = runAsync(w.store, ['gc', ...args, '--json'], { fault: 'gc.read:1:stop', started: (p) => (pid = p) });
      await waitUntil(() => pid !== 0 && stopped(pid), 'gc to stop after reading the log');
      // The hook finds gc running, waits its few seconds, then records the file as it is before the agent's write.
      const input = { file_path: file, content: 'agent\n' };
      const hook = cli(['hook', 'claude'], {
        store: w.store,
        input: JSON.stringify({
          session_id: 'kill-session',
          transcript_path: '',
          cwd: w.ws,
          hook_event_name: 'PreToolUse',
          tool_name: 'Write',
          tool_input: input,
          tool_use_id: 'toolu_during_gc',
        }),
      });
      assert.equal(hook.status, 0, hook.stderr);
      process.kill(pid, 'SIGCONT');
      const r = await cleaning;
      assert.equal(r.status, 0, r.stderr);
      const lines = fs
        .readFileSync(path.join(w.store, 'files.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { t: string; path?: string; hash?: string; phase?: string });
      assert.ok(
        lines.some((l) => l.t === 'snap' && l.path === file && l.phase === 'before' && l.hash === sha(mine)),
        'the before snapshot the hook recorded is in the log',
      );
      const blob = path.join(w.store, 'objects', sha(mine).slice(0, 2), sha(mine).slice(2));
      assert.equal(fs.readFileSync(blob, 'utf8'), mine, 'and its blob is in the store');
      assertSound(w.store, 'after the gc');
    });
  }
});

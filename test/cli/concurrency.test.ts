import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cliAsync, cliJson } from '../helpers/cli';
import { sandbox } from '../helpers/tmp';
import * as fs from 'node:fs';

describe('concurrent hook processes', () => {
  it('dozens of hooks at once lose no record', async () => {
    const { ws, store } = sandbox();
    const N = 48;
    for (let i = 0; i < N; i++) fs.writeFileSync(path.join(ws, `f${i}.txt`), `content ${i}\n`.repeat(50));
    const runs: Promise<unknown>[] = [];
    for (let i = 0; i < N; i++) {
      const payload = {
        session_id: `s${i % 4}`,
        cwd: ws,
        hook_event_name: 'PreToolUse',
        tool_name: 'Edit',
        tool_use_id: `toolu_${i}`,
        tool_input: { file_path: path.join(ws, `f${i}.txt`) },
      };
      runs.push(cliAsync(['hook', 'claude'], { store, input: JSON.stringify(payload) }));
      // Prompts from other sessions: a prompt of the same session ends its turn, and would record
      // the `after` of these still-open calls (see src/recording/inflight.ts).
      runs.push(
        cliAsync(['hook', 'claude'], {
          store,
          input: JSON.stringify({ session_id: `p${i % 4}`, cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: `prompt ${i}` }),
        }),
      );
    }
    const results = (await Promise.all(runs)) as { status: number; stdout: string }[];
    assert.ok(results.every((r) => r.status === 0 && r.stdout === ''));
    const lines = fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8').trim().split('\n');
    assert.equal(lines.length, N * 3, 'N prompts + N calls + N snapshots');
    for (const l of lines) JSON.parse(l);
    assert.equal(cliJson<unknown[]>(['checkpoints'], { store }).length, N);
    assert.equal(cliJson(['verify'], { store }).ok, true);
  });
});

// `agent-rewind … | head`: when the reader goes away early, every command exits quietly (no
// EPIPE stack trace on stderr), with status 0.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { CLI } from '../helpers/cli';
import { sandbox } from '../helpers/tmp';

/** Runs the CLI, reads its first chunk of output, then closes the pipe, as `head -1` does. */
function firstLineThenClose(args: string[], store: string): Promise<{ status: number | null; stderr: string; got: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, AGENT_REWIND_STORE: store } });
    let stderr = '';
    let got = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', (d) => {
      got = String(d);
      child.stdout.destroy();
    });
    child.on('close', (status) => resolve({ status, stderr, got }));
  });
}

describe('output into a pipe that closes early', () => {
  it('checkpoints and checkpoints --json exit 0 without a word on stderr', async () => {
    const { ws, store } = sandbox();
    // A long timeline: far more output than a pipe buffers, so the writer meets the closed pipe.
    const lines: string[] = [];
    for (let i = 0; i < 4000; i++)
      lines.push(
        JSON.stringify({
          t: 'checkpoint',
          id: `cp${i}`,
          kind: 'prompt',
          label: `prompt number ${i} ${'x'.repeat(60)}`,
          time: 1e12 + i,
          session: 's',
          cwd: ws,
        }),
      );
    fs.mkdirSync(store, { recursive: true });
    fs.writeFileSync(path.join(store, 'files.jsonl'), lines.join('\n') + '\n');
    fs.writeFileSync(path.join(store, 'store.json'), JSON.stringify({ format: 1, created: 1, roots: [ws] }));
    for (const args of [['checkpoints'], ['checkpoints', '--json']]) {
      const r = await firstLineThenClose(args, store);
      assert.ok(r.got.length > 0, `${args.join(' ')} printed something first`);
      assert.equal(r.stderr, '', `${args.join(' ')}: nothing on stderr`);
      assert.equal(r.status, 0, `${args.join(' ')} exit status`);
    }
  });
});

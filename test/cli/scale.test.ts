// A generated store of thousands of checkpoints (bench/scaleStore.mjs, as the bench builds it):
// `checkpoints` and `plan` through the timeline index say exactly what they say from a full read
// of the log (no index), before and after more lines are appended. Not timed: `npm run bench` is.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { buildScaleStore } from '../../bench/scaleStore.mjs';
import { cli } from '../helpers/cli';
import { sandbox } from '../helpers/tmp';
import { STORE_FILE } from '../../src/core/storeFiles/names';

describe('a store of 2,000 checkpoints', () => {
  it('checkpoints and plan (oldest, middle, newest) through the index equal a full read', () => {
    const { ws, store } = sandbox();
    const { ids } = buildScaleStore(store, ws, { checkpoints: 2000, files: 60 });
    const index = path.join(store, STORE_FILE.timelineIndex);
    const run = (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const r = cli(args, { store, env });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    };
    /** Output without the index (a full read; it writes the index), then with it; and with the index turned off (AGENT_REWIND_INDEX=off). */
    const bothWays = (args: string[]) => {
      fs.rmSync(index, { force: true });
      const full = run(args);
      assert.ok(fs.existsSync(index), 'a full read writes the index');
      const indexed = run(args);
      assert.equal(run(args, { AGENT_REWIND_INDEX: 'off' }), full, `${args.join(' ')} with the index off`);
      return { full, indexed };
    };
    const compare = () => {
      const cps = bothWays(['checkpoints', '--json']);
      assert.equal(cps.indexed, cps.full);
      assert.ok((JSON.parse(cps.full) as unknown[]).length >= 2000);
      const fileCounts: number[] = [];
      for (const id of [ids[1]!, ids[1000]!, ids[ids.length - 1]!]) {
        const plan = bothWays(['plan', '--to', id, '--json']);
        assert.equal(plan.indexed, plan.full, `plan --to ${id}`);
        const p = JSON.parse(plan.full) as { target: string; files: unknown[] };
        assert.equal(p.target, id);
        fileCounts.push(p.files.length);
      }
      assert.equal(fileCounts[0], 60, 'the oldest target rewinds every file');
      const text = bothWays(['plan', '--to', ids[5]!]);
      assert.equal(text.indexed, text.full);
    };
    compare();
    // A new prompt after the index was written: read from the index plus the appended lines.
    const p = path.join(ws, 'src/m0/file0.ts');
    const time = Date.UTC(2027, 0, 1);
    const extra = [
      { t: 'checkpoint', id: 'cpNEWEST0001', time, kind: 'prompt', label: 'one more', session: 'sess-new', agent: 'claude', cwd: ws },
      { t: 'call', tool: 'Bash', call: 'push1', summary: 'git push', effect: 'irreversible', session: 'sess-new', time },
      { t: 'snap', path: p, hash: null, phase: 'after', origin: 'agent', session: 'sess-new', time },
    ];
    run(['checkpoints']); // the index as of before the append
    fs.appendFileSync(path.join(store, 'files.jsonl'), extra.map((r) => JSON.stringify(r) + '\n').join(''));
    const viaIndex = run(['plan', '--to', ids[1990]!, '--json']);
    fs.rmSync(index);
    assert.equal(viaIndex, run(['plan', '--to', ids[1990]!, '--json']));
    assert.match(viaIndex, /git push/);
    compare();
    const verify = JSON.parse(run(['verify', '--json'])) as { ok: boolean; errors: string[] };
    assert.deepEqual(verify.errors, []);
  });
});

// What the reading commands print on a generated store (bench/scaleStore.mjs, with rewinds, so
// there are attempts) stays byte for byte what it was when test/fixtures/timelineOutputs.json was
// recorded — each output's sha256, the workspace folder written as <ws> — whichever way the
// timeline is read: the log whole (no index), the index, the index plus appended lines, and an
// index whose log was copied (a backup restored: another inode, the same bytes). Making these
// reads faster must not change a byte of them. RECORD=1 writes the fixture again (only for a
// change of output that is meant).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { buildScaleStore } from '../../bench/scaleStore.mjs';
import { cli } from '../helpers/cli';
import { sandbox } from '../helpers/tmp';
import { STORE_FILE } from '../../src/core/storeFiles/names';

const FIXTURE = path.resolve(__dirname, '../fixtures/timelineOutputs.json');

/** The commands measured at scale (bench/timelineScale.mjs), with the points of a store of `ids`. */
function commands(ids: string[]): string[][] {
  const [oldest, middle, newest] = [ids[1]!, ids[Math.floor(ids.length / 2)]!, ids[ids.length - 1]!];
  return [
    ['checkpoints'],
    ['checkpoints', '--json'],
    ['attempts'],
    ['attempts', '--json'],
    ...[oldest, middle, newest].flatMap((id) => [
      ['plan', '--to', id],
      ['plan', '--to', id, '--json'],
    ]),
    ['diff', oldest, newest],
    ['diff', oldest, newest, '--json'],
    ['diff', middle, 'now', '--json'],
    ['diff', 'attempt:1', 'attempt:2', '--json'],
    ['diff', 'attempt:2', 'now'],
  ];
}

describe('reading commands on a store of 400 checkpoints with rewinds', () => {
  it('print exactly what they printed before, through a full read, the index, appended lines and a copied log', () => {
    const { ws, store } = sandbox();
    const built = buildScaleStore(store, ws, { checkpoints: 400, files: 40, rewindEvery: 50 });
    const log = path.join(store, 'files.jsonl');
    const index = path.join(store, STORE_FILE.timelineIndex);
    const wsReal = fs.realpathSync(ws);
    const run = (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const r = cli(args, { store, env, cwd: ws });
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
      return r.stdout.split(wsReal).join('<ws>');
    };
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    const cmds = commands(built.ids);
    const key = (args: string[]) => args.map((a) => (built.ids.includes(a) ? `#${built.ids.indexOf(a)}` : a)).join(' ');
    const outputs = (env: NodeJS.ProcessEnv = {}) => Object.fromEntries(cmds.map((args) => [key(args), run(args, env)]));

    const full = outputs({ AGENT_REWIND_INDEX: 'off' });
    const hashes = Object.fromEntries(Object.entries(full).map(([k, v]) => [k, sha(v)]));
    if (process.env.RECORD === '1') fs.writeFileSync(FIXTURE, JSON.stringify(hashes, null, 2) + '\n');
    const recorded = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as Record<string, string>;
    assert.deepEqual(hashes, recorded, 'the outputs of a full read changed');
    assert.match(full['attempts']!, /attempt:8/, 'the store has attempts');

    run(['checkpoints']); // writes the index
    assert.ok(fs.existsSync(index));
    assert.deepEqual(outputs(), full, 'through the index');

    // A copied log (a backup restored): another inode, the same bytes; the index beside it as it was.
    fs.copyFileSync(log, log + '.copy');
    fs.renameSync(log + '.copy', log);
    assert.deepEqual(outputs(), full, 'through an index whose log was copied');

    // Lines appended after the index (a checkpoint with nothing after it changes no output but the list).
    const before = fs.statSync(log).size;
    const extra = { t: 'call', tool: 'Read', call: 'read-more', summary: 'Read a file', effect: 'none', session: 'sess-x', time: 1 };
    fs.appendFileSync(log, JSON.stringify(extra) + '\n');
    assert.ok(fs.statSync(log).size > before);
    assert.deepEqual(outputs(), full, 'through the index and appended lines');
  });
});

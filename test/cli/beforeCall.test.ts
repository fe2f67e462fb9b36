// `agent-rewind plan|rewind --before-call <tool call id>`: the workspace as it was just before one
// tool call, with the same output and exit codes as `--to`, undoable.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';

function calls(store: string): { call: string; tool: string; summary: string }[] {
  return fs
    .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((r) => r.t === 'call');
}

describe('rewind to just before a tool call', () => {
  it('before the second of three writes in one turn: the first stays, the second and third are undone, and it can be undone', () => {
    const { ws, store } = sandbox();
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('three writes');
    s.write('one.txt', 'first\n');
    s.write('two.txt', 'second\n');
    s.write('one.txt', 'third\n');
    const second = calls(store)[1]!;
    assert.equal(second.tool, 'Write');

    const plan = cliJson<{
      target: string;
      files: { path: string; action: string }[];
      call: { step: number; of: number };
      checkpoint: { kind: string };
    }>(['plan', '--before-call', second.call], { store });
    assert.equal(plan.target, second.call);
    assert.equal(plan.checkpoint.kind, 'before-call');
    assert.deepEqual([plan.call.step, plan.call.of], [2, 3]);
    assert.deepEqual(plan.files.map((f) => [path.basename(f.path), f.action]).sort(), [
      ['one.txt', 'restore'],
      ['two.txt', 'delete'],
    ]);
    assert.match(cli(['plan', '--before-call', second.call], { store }).stdout, /just before step 2 of 3 of its turn/);

    const r = cliJson<{ status: string; checkpoint: string; undo: string }>(['rewind', '--before-call', second.call], { store });
    assert.equal(r.status, 'done');
    assert.equal(fs.readFileSync(path.join(ws, 'one.txt'), 'utf8'), 'first\n');
    assert.equal(fs.existsSync(path.join(ws, 'two.txt')), false);
    assert.equal(r.undo, `agent-rewind rewind --to ${r.checkpoint}`);
    assert.equal(cliJson<{ status: string }>(['rewind', '--to', r.checkpoint], { store }).status, 'done');
    assert.equal(fs.readFileSync(path.join(ws, 'one.txt'), 'utf8'), 'third\n');
    assert.equal(fs.readFileSync(path.join(ws, 'two.txt'), 'utf8'), 'second\n');
    assert.equal(cli(['verify'], { store }).status, 0);
  });

  it('refuses like --to (exit 3, nothing written) when the user changed a file since, and names --before-call in its ways out', () => {
    const { ws, store } = sandbox();
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('go');
    s.write('a.txt', 'agent\n');
    const call = calls(store)[0]!.call;
    fs.writeFileSync(path.join(ws, 'a.txt'), 'mine\n');
    const r = cli(['rewind', '--before-call', call], { store });
    assert.equal(r.status, 3);
    assert.match(r.stderr, new RegExp(`rewind --before-call ${call} --force`));
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'mine\n');
  });

  it('an unknown call id is an error naming it (exit 1); --to with --before-call is a usage error (exit 2)', () => {
    const { ws, store } = sandbox();
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('go');
    const r = cli(['plan', '--before-call', 'toolu_nope'], { store });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /No tool call "toolu_nope"/);
    const both = cli(['plan', '--before-call', 'x', '--to', 'y'], { store });
    assert.equal(both.status, 2);
  });
});

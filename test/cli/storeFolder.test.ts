// Where a store may live, through the real CLI: a folder that holds other things is never made a store
// (the CLI says so and exits 1, the hook stays silent and leaves nothing there); an empty or missing
// folder is fine; only a recorded event creates a store — read-only commands never do.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { snapshotTree, tempDir } from '../helpers/tmp';

/** A folder of someone's own files, with their modes and times as they were. */
function foreignFolder(): { dir: string; before: string } {
  const dir = path.join(tempDir(), 'Documents');
  fs.mkdirSync(path.join(dir, 'drafts'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'thesis.docx'), 'my thesis');
  fs.writeFileSync(path.join(dir, 'drafts', 'ch1.md'), '# one\n');
  return { dir, before: JSON.stringify(snapshotTree(dir)) };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a non-empty folder that is not a store', () => {
  it('every command exits 1 with one sentence naming the folder and what to do, and changes nothing', () => {
    const { dir, before } = foreignFolder();
    for (const args of [
      ['checkpoints'],
      ['plan', '--to', 'x'],
      ['verify'],
      ['gc'],
      ['checkpoint', '--label', 'mine'],
      ['rewind', '--to', 'x'],
    ]) {
      const r = cli([...args, '--store', dir]);
      assert.equal(r.status, 1, `${args[0]}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`^${escape(dir)} is not empty and is not an Agent Rewind store \\(it holds .*thesis\\.docx`));
      assert.match(r.stderr, /Choose an empty folder or an existing store/);
      assert.equal(JSON.stringify(snapshotTree(dir)), before, `${args[0]} changed the folder`);
    }
  });

  it('the hook exits 0, prints nothing and leaves nothing in the folder (no store, no errors.log)', () => {
    const { dir, before } = foreignFolder();
    const ws = tempDir();
    const s = new ClaudeSession(dir, ws);
    s.start(); // throws unless exit 0 with empty stdout
    s.prompt('write a file');
    s.write('a.txt', 'agent text\n');
    const bad = cli(['hook', 'claude'], { store: dir, input: 'not json at all' });
    assert.deepEqual([bad.status, bad.stdout, bad.stderr], [0, '', '']);
    assert.equal(JSON.stringify(snapshotTree(dir)), before);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'agent text\n', "the agent's work goes on");
  });
});

describe('an empty or missing folder', () => {
  it('read-only commands never create a store; the first hook event does', () => {
    const root = tempDir();
    const missing = path.join(root, 'store');
    for (const args of [['checkpoints'], ['plan', '--to', 'x'], ['verify'], ['gc']]) {
      const r = cli([...args, '--store', missing]);
      assert.equal(r.status, 1, `${args[0]}: ${r.stderr}`);
      assert.match(r.stderr, /No Agent Rewind store at .*record a session first/);
      assert.equal(fs.existsSync(missing), false, `${args[0]} created the store folder`);
    }
    const empty = tempDir();
    assert.equal(cli(['checkpoints', '--store', empty]).status, 1);
    assert.deepEqual(fs.readdirSync(empty), [], 'an empty folder stays empty');

    for (const store of [missing, empty]) {
      const s = new ClaudeSession(store, tempDir());
      s.start();
      s.prompt('hello');
      assert.ok(fs.existsSync(path.join(store, 'store.json')), 'the hook made the store');
      assert.equal(cliJson<unknown[]>(['checkpoints'], { store }).filter((c: any) => c.kind === 'prompt').length, 1);
    }
  });
});

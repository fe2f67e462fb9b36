// Clean-up by age never removes the undo of the last rewind, nor the user's own edits a forced rewind
// overwrote and kept in the store: `gc --keep-days 0` (what an idle workspace's automatic clean-up
// amounts to) leaves both rewinds undoable to the exact bytes, says what it kept and why, and the
// store verifies.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';

interface Checkpoint {
  id: string;
  kind: string;
  label: string;
}

describe('gc --keep-days 0 after rewinds', () => {
  it('keeps the undo of the last rewind and the edits a forced rewind kept; both undo to the exact bytes', () => {
    const { ws, store } = sandbox();
    const file = path.join(ws, 'a.txt');
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('one');
    s.write('a.txt', 'agent v1\n');
    s.prompt('two');
    s.write('a.txt', 'agent v2\n');
    // The user's own edit, never recorded by any tool: odd bytes, CRLF, no final newline.
    const mine = Buffer.from([0x6d, 0x69, 0x6e, 0x65, 0x0d, 0x0a, 0xff, 0x00, 0xfe]);
    fs.writeFileSync(file, mine);
    const prompts = cliJson<Checkpoint[]>(['checkpoints'], { store }).filter((c) => c.kind === 'prompt');
    assert.equal(prompts.length, 2);

    assert.equal(cli(['rewind', '--to', prompts[1]!.id], { store }).status, 3, 'the user edit blocks a plain rewind');
    const forced = cliJson<{ checkpoint: string }>(['rewind', '--to', prompts[1]!.id, '--force'], { store });
    assert.equal(fs.readFileSync(file, 'utf8'), 'agent v1\n');
    const last = cliJson<{ checkpoint: string }>(['rewind', '--to', prompts[0]!.id], { store });
    assert.equal(fs.existsSync(file), false);

    const r = cliJson<{ kept: { checkpoint: string; reason: string; paths: string[] }[]; droppedCheckpoints: number }>(
      ['gc', '--keep-days', '0'],
      { store },
    );
    assert.ok(r.droppedCheckpoints > 0, 'the session start and the prompts still go');
    const text = cli(['gc', '--keep-days', '0'], { store });
    // Undo the last rewind: the agent's v1 comes back.
    assert.equal(cli(['rewind', '--to', last.checkpoint], { store }).status, 0);
    assert.equal(fs.readFileSync(file, 'utf8'), 'agent v1\n');
    // Undo the forced one: the user's bytes come back, exactly.
    const undo = cli(['rewind', '--to', forced.checkpoint], { store });
    assert.equal(undo.status, 0, undo.stderr);
    assert.deepEqual(fs.readFileSync(file), mine);
    assert.deepEqual(
      r.kept.map((k) => [k.checkpoint, k.reason, k.paths]),
      [
        [forced.checkpoint, 'kept-content', [file]],
        [last.checkpoint, 'last-rewind', []],
      ],
    );
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`Kept checkpoint ${forced.checkpoint} .*your own edits a rewind overwrote.*a\\.txt`));
    assert.match(text.stdout, new RegExp(`Kept checkpoint ${last.checkpoint} .*the undo of the last rewind`));

    assert.equal(cli(['verify'], { store }).status, 0);
  });

  it('drops a rewind once nothing is only there: an old unforced rewind that is not the last goes', () => {
    const { ws, store } = sandbox();
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('one');
    s.write('a.txt', 'agent v1\n');
    s.prompt('two');
    s.write('a.txt', 'agent v2\n');
    const prompts = cliJson<Checkpoint[]>(['checkpoints'], { store }).filter((c) => c.kind === 'prompt');
    const first = cliJson<{ checkpoint: string }>(['rewind', '--to', prompts[1]!.id], { store });
    const second = cliJson<{ checkpoint: string }>(['rewind', '--to', prompts[0]!.id], { store });
    const r = cliJson<{ kept: { checkpoint: string; reason: string }[] }>(['gc', '--keep-days', '0'], { store });
    assert.deepEqual(
      r.kept.map((k) => [k.checkpoint, k.reason]),
      [[second.checkpoint, 'last-rewind']],
    );
    const left = cliJson<Checkpoint[]>(['checkpoints'], { store }).map((c) => c.id);
    assert.ok(!left.includes(first.checkpoint), 'nothing but recorded agent content was behind the first');
    assert.equal(cli(['verify'], { store }).status, 0);
  });
});

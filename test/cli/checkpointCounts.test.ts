// One count for a checkpoint, everywhere: `checkpoints` (text and --json `toRewind`) says what a
// rewind to it would write — exactly the number of files `plan --to` lists — for every checkpoint
// of a scripted session with prompts, a pre-call checkpoint, a session resumed, a rewind and its
// undo; `edited` (and the old `files`) say what the span itself wrote.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';

interface Cp {
  id: string;
  kind: string;
  label: string;
  toRewind: number;
  edited: number;
  files: number;
}

const list = (store: string) => cliJson<Cp[]>(['checkpoints'], { store });
const planFiles = (store: string, id: string) => cliJson<{ files: unknown[] }>(['plan', '--to', id], { store }).files.length;

/** Every checkpoint's toRewind against its own plan, and the text output's words against both. */
function assertOneCount(store: string): Cp[] {
  const cps = list(store);
  assert.deepEqual(
    cps.map((c) => [c.label, c.toRewind]),
    cps.map((c) => [c.label, planFiles(store, c.id)]),
    'toRewind is plan --to files, for every checkpoint',
  );
  const text = cli(['checkpoints'], { store }).stdout.trim().split('\n');
  assert.equal(text.length, cps.length);
  cps.forEach((c, i) => {
    const words = c.toRewind === 0 ? 'nothing to rewind' : c.toRewind === 1 ? '1 file to rewind' : `${c.toRewind} files to rewind`;
    assert.ok(text[i]!.includes(c.id) && text[i]!.includes(words), `row ${i} says "${words}": ${text[i]}`);
    assert.doesNotMatch(text[i]!, /file\(s\)/);
    assert.equal(c.files, c.edited, 'files is kept for old readers, equal to edited');
  });
  return cps;
}

describe("checkpoints: one count, the plan's", () => {
  it('prompts, a pre-call checkpoint, a resumed session, a rewind and its undo: toRewind == plan --to files for every checkpoint', () => {
    const { ws, store } = sandbox();
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('P1 add files');
    s.write('a.txt', 'a1\n');
    s.write('b.txt', 'b1\n');
    s.write('c.txt', 'c1\n');
    s.prompt('P2 edit one');
    s.edit('a.txt', 'a1', 'a2');
    s.bash('git push origin main'); // irreversible: a checkpoint before the call
    s.prompt('P3 more');
    s.write('d.txt', 'd1\n');
    s.edit('b.txt', 'b1', 'b2');
    s.start('resume');
    s.prompt('P4 one more');
    s.write('e.txt', 'e1\n');

    const before = assertOneCount(store);
    const byLabel = (label: string) => before.find((c) => c.label.startsWith(label))!;
    assert.ok(
      before.some((c) => c.kind === 'before-tool'),
      'a pre-call checkpoint is listed',
    );
    // The table of the issue: the start and P1 rewind all five files; P2 three (a, then d, b), P3 two; the turn counts are apart.
    assert.equal(byLabel('P1').toRewind, 5);
    assert.equal(byLabel('P1').edited, 3);
    assert.equal(byLabel('P2').toRewind, 4);
    assert.equal(byLabel('P2').edited, 1);
    assert.equal(byLabel('P3').toRewind, 3);
    assert.equal(byLabel('P4').toRewind, 1);
    assert.equal(before[before.length - 1]!.toRewind, 1);
    assert.match(cli(['checkpoints'], { store }).stdout, / 1 file to rewind /);

    // A rewind to P2, then its undo: the counts follow, and still agree with every plan.
    const r = cliJson<{ status: string; checkpoint: string }>(['rewind', '--to', byLabel('P2').id], { store });
    assert.equal(r.status, 'done');
    assert.equal(fs.existsSync(path.join(ws, 'd.txt')), false);
    const afterRewind = assertOneCount(store);
    assert.equal(afterRewind.find((c) => c.id === r.checkpoint)!.toRewind, 4, 'undoing the rewind writes back the 4 files it changed');
    assert.equal(afterRewind.find((c) => c.id === byLabel('P2').id)!.toRewind, 0, 'the files are as they were at P2');

    const undo = cliJson<{ status: string }>(['rewind', '--to', r.checkpoint], { store });
    assert.equal(undo.status, 'done');
    assert.equal(fs.readFileSync(path.join(ws, 'd.txt'), 'utf8'), 'd1\n');
    const afterUndo = assertOneCount(store);
    assert.equal(afterUndo.find((c) => c.id === byLabel('P2').id)!.toRewind, 4);
  });
});

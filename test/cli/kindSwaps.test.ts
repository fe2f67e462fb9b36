// The agent swaps a file for a folder or a folder for a file (a shell command: `rm -r d && echo > d`,
// `rm d && mkdir d …`): a rewind takes the path back to the target's kind in both directions, with
// or without --force, and its undo brings the agent's version back. A folder the agent made is
// removed only when everything in it is what this rewind deletes: one holding the user's files stays,
// and the file is listed as not restorable, with the reason.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox, snapshotTree } from '../helpers/tmp';

/** A session whose one shell call runs `swap` in `ws` after `setup`; returns the prompt checkpoint before it. */
function swapped(setup: (ws: string) => void, swap: (ws: string) => void) {
  const { ws, store } = sandbox();
  setup(ws);
  const s = new ClaudeSession(store, ws, 'sess-swap');
  s.start();
  s.prompt('swap it');
  const target = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).find((c) => c.kind === 'prompt')!.id;
  const before = snapshotTree(ws);
  s.bash('swap d', () => swap(ws));
  s.hook({ hook_event_name: 'Stop' });
  return { ws, store, target, before, after: snapshotTree(ws) };
}

function rewindOk(store: string, to: string, force: boolean) {
  const r = cli(['rewind', '--to', to, ...(force ? ['--force'] : []), '--json'], { store });
  assert.equal(r.status, 0, `${r.stderr}\n${r.stdout}`);
  return JSON.parse(r.stdout) as {
    status: string;
    checkpoint: string;
    files: { path: string; action: string; ok: boolean }[];
    counts: Record<string, number>;
    notRestorable: { path: string; reason: string }[];
  };
}

const folderToFile = () =>
  swapped(
    (ws) => {
      fs.mkdirSync(path.join(ws, 'd', 'sub'), { recursive: true });
      fs.writeFileSync(path.join(ws, 'd', 'f.txt'), 'inside the folder\n');
      fs.writeFileSync(path.join(ws, 'd', 'sub', 'g.txt'), 'deeper\n');
    },
    (ws) => {
      fs.rmSync(path.join(ws, 'd'), { recursive: true });
      fs.writeFileSync(path.join(ws, 'd'), 'now a file\n');
    },
  );

const fileToFolder = () =>
  swapped(
    (ws) => fs.writeFileSync(path.join(ws, 'd'), 'a file\n'),
    (ws) => {
      fs.rmSync(path.join(ws, 'd'));
      fs.mkdirSync(path.join(ws, 'd', 'sub'), { recursive: true });
      fs.writeFileSync(path.join(ws, 'd', 'a.txt'), 'made by the agent\n');
      fs.writeFileSync(path.join(ws, 'd', 'sub', 'b.txt'), 'also the agent\n');
    },
  );

describe('a rewind across a file ↔ folder swap by the agent', () => {
  for (const force of [false, true]) {
    const how = force ? 'with --force' : 'without --force';

    it(`a folder the agent replaced by a file: rewound ${how} (the file goes, the folder's files come back), undo brings the file back`, () => {
      const w = folderToFile();
      const plan = cliJson(['plan', '--to', w.target], { store: w.store });
      assert.deepEqual(plan.blocked, []);
      const r = rewindOk(w.store, w.target, force);
      assert.equal(r.status, 'done');
      assert.ok(r.files.every((f) => f.ok));
      assert.deepEqual(r.counts, { restored: 0, deleted: 1, recreated: 2, failed: 0, skipped: 0 });
      assert.deepEqual(snapshotTree(w.ws), w.before, 'the folder and its files, as at the target');
      rewindOk(w.store, r.checkpoint, false);
      assert.deepEqual(snapshotTree(w.ws), w.after, 'undo: the file again');
      assert.equal(cli(['verify'], { store: w.store }).status, 0);
    });

    it(`a file the agent replaced by a folder: not "created outside", rewound ${how} to the file, undo brings the folder and its files back`, () => {
      const w = fileToFolder();
      const plan = cliJson(['plan', '--to', w.target], { store: w.store });
      assert.deepEqual(plan.blocked, [], 'the agent made that folder');
      const r = rewindOk(w.store, w.target, force);
      assert.equal(r.status, 'done');
      assert.deepEqual(r.counts, { restored: 0, deleted: 2, recreated: 1, failed: 0, skipped: 0 });
      assert.deepEqual(snapshotTree(w.ws), w.before, 'the file, as at the target');
      const undo = rewindOk(w.store, r.checkpoint, false);
      assert.ok(undo.files.every((f) => f.ok));
      const back = snapshotTree(w.ws);
      delete w.after['d/sub/']; // an empty folder is not recorded: its files are
      assert.deepEqual(
        Object.fromEntries(Object.entries(back).filter(([k]) => !k.endsWith('/'))),
        Object.fromEntries(Object.entries(w.after).filter(([k]) => !k.endsWith('/'))),
        "undo: the agent's folder and files again",
      );
      assert.equal(cli(['verify'], { store: w.store }).status, 0);
    });
  }

  it('a folder holding a file the agent did not make is never removed: the file is not restorable (with the reason), even with --force', () => {
    const w = fileToFolder();
    fs.writeFileSync(path.join(w.ws, 'd', 'sub', 'mine.txt'), 'the user put this here\n'); // after the agent's turn
    const plan = cliJson(['plan', '--to', w.target], { store: w.store });
    assert.deepEqual(plan.notRestorable, [{ path: path.join(w.ws, 'd'), reason: 'folder-in-the-way' }]);
    const text = cli(['plan', '--to', w.target], { store: w.store });
    assert.match(text.stdout, /d: a folder stands there holding files this rewind does not remove; left as it is/);
    const r = rewindOk(w.store, w.target, true);
    assert.deepEqual(r.notRestorable, [{ path: path.join(w.ws, 'd'), reason: 'folder-in-the-way' }]);
    assert.equal(fs.readFileSync(path.join(w.ws, 'd', 'sub', 'mine.txt'), 'utf8'), 'the user put this here\n', "the user's file stays");
    assert.ok(fs.statSync(path.join(w.ws, 'd')).isDirectory());
    assert.equal(fs.existsSync(path.join(w.ws, 'd', 'a.txt')), false, "the agent's files in it are rewound");
  });
});

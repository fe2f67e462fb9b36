// The rewind on real files in temp folders, driven in-process through the recorder (the CLI
// tests drive the same through real hook processes).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { claudeToolKind } from '../../src/agents/claude/toolKind';
import { applyRewind, type FileWriter, rewind } from '../../src/core/rewind/apply';
import { makePlan } from '../../src/core/rewind/plan';
import { readJournal, recoverUnfinished } from '../../src/core/rewind/journal';
import { beginRewind } from '../../src/core/rewind/transaction';
import { applyWriteFs } from '../../src/core/rewind/writes';
import { record } from '../../src/recording/recorder';
import { verifyStore } from '../../src/core/upkeep/verify';
import { recordingSession } from '../helpers/recording';
import { snapshotTree } from '../helpers/tmp';
import { AgentRewindError } from '../../src/core/errors';

const setup = () => recordingSession();

describe('rewind', () => {
  it('brings the workspace back byte-exact to each checkpoint, and undo brings it forward again', async () => {
    const { ws, store, prompt, write } = setup();
    fs.writeFileSync(path.join(ws, 'existing.txt'), 'one\n');
    fs.writeFileSync(path.join(ws, 'untouched.txt'), 'user file\n');
    const p1 = prompt('first');
    const at1 = snapshotTree(ws);
    write('created.txt', 'new\n');
    write('existing.txt', 'one\ntwo\n');
    const p2 = prompt('second');
    const at2 = snapshotTree(ws);
    write('existing.txt', 'changed\n');
    write('deep/nested/dir/file.bin', Buffer.from([0, 255, 1, 2]));
    const atEnd = snapshotTree(ws);

    const r2 = await rewind(store, p2);
    assert.equal(r2.status, 'done');
    assert.deepEqual(snapshotTree(ws), at2, 'the nested folders the agent created are gone too');
    const r1 = await rewind(store, p1);
    assert.equal(r1.status, 'done', 'a second rewind right after the first needs no --force');
    assert.deepEqual(snapshotTree(ws), at1);
    assert.equal(fs.readFileSync(path.join(ws, 'untouched.txt'), 'utf8'), 'user file\n');
    if (r1.status !== 'done') return;
    assert.equal((await rewind(store, r1.checkpoint.id)).status, 'done');
    assert.deepEqual(snapshotTree(ws), at2, 'undo of the last rewind');
    if (r2.status !== 'done') return;
    assert.equal((await rewind(store, r2.checkpoint.id)).status, 'done');
    assert.deepEqual(snapshotTree(ws), atEnd, 'undo of the first rewind');
    assert.equal(verifyStore(store).ok, true);
  });

  it('records pre-rewind snapshots, then the rewind checkpoint, then rewind snapshots', async () => {
    const { store, prompt, write } = setup();
    const p1 = prompt('first');
    write('a.txt', 'x');
    const before = store.read().records.length;
    const r = await rewind(store, p1);
    assert.equal(r.status, 'done');
    const added = store.read().records.slice(before);
    assert.deepEqual(
      added.map((x) => (x.t === 'snap' ? `snap:${x.phase}` : x.t === 'checkpoint' ? `checkpoint:${x.kind}` : x.t)),
      ['snap:pre-rewind', 'checkpoint:rewind', 'snap:rewind'],
    );
  });

  it('refuses when the user changed a file after the agent, writing nothing; force keeps the user text recoverable', async () => {
    const { ws, store, prompt, write } = setup();
    const p1 = prompt('first');
    write('a.txt', 'agent\n');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'user work\n');
    const lines = fs.readFileSync(store.logFile, 'utf8');
    const refused = await rewind(store, p1);
    assert.equal(refused.status, 'refused');
    assert.deepEqual(refused.plan.blocked, [{ path: path.join(ws, 'a.txt'), reason: 'modified-outside' }]);
    assert.equal(fs.readFileSync(store.logFile, 'utf8'), lines, 'a refused rewind records nothing');
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'user work\n');
    const forced = await rewind(store, p1, { force: true });
    assert.equal(forced.status, 'done');
    assert.equal(fs.existsSync(path.join(ws, 'a.txt')), false);
    if (forced.status !== 'done') return;
    assert.equal((await rewind(store, forced.checkpoint.id)).status, 'done');
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'user work\n');
  });

  it('only warns when a file was touched without a content change', async () => {
    const { ws, store, prompt, write } = setup();
    const p1 = prompt('first');
    write('a.txt', 'agent\n');
    const t = new Date(Date.now() + 60000);
    fs.utimesSync(path.join(ws, 'a.txt'), t, t);
    const plan = makePlan(store, p1);
    assert.deepEqual(plan.blocked, []);
    assert.deepEqual(plan.warnings, [{ path: path.join(ws, 'a.txt'), reason: 'touched' }]);
    assert.equal((await rewind(store, p1)).status, 'done');
  });

  it('leaves files the agent did not change after the target alone, even when the user edited them', async () => {
    const { ws, store, prompt, write } = setup();
    write('early.txt', 'agent early\n');
    const p1 = prompt('first');
    write('late.txt', 'late\n');
    fs.writeFileSync(path.join(ws, 'early.txt'), 'user edit\n');
    assert.equal((await rewind(store, p1)).status, 'done');
    assert.equal(fs.readFileSync(path.join(ws, 'early.txt'), 'utf8'), 'user edit\n');
  });

  it('restores a recreated executable with its mode and a symlink as a link, not its target', async () => {
    const { ws, store, prompt } = setup();
    const script = path.join(ws, 'run.sh');
    const link = path.join(ws, 'link');
    fs.writeFileSync(script, '#!/bin/sh\necho hi\n', { mode: 0o755 });
    fs.chmodSync(script, 0o755);
    fs.symlinkSync('run.sh', link);
    const p1 = prompt('first');
    // One tool call that names both paths and deletes them.
    const e = {
      agent: 'claude',
      session: 's1',
      cwd: ws,
      tool: 'Write',
      kind: claudeToolKind('Write', {}),
      input: {},
      paths: [script, link],
      shell: false,
    };
    record(store, { ...e, type: 'before_tool' });
    fs.rmSync(script);
    fs.rmSync(link);
    record(store, { ...e, type: 'after_tool', ok: true });
    const r = await rewind(store, p1);
    assert.equal(r.status, 'done');
    assert.equal(fs.readFileSync(script, 'utf8'), '#!/bin/sh\necho hi\n');
    assert.equal(fs.statSync(script).mode & 0o777, 0o755);
    assert.equal(fs.lstatSync(link).isSymbolicLink(), true);
    assert.equal(fs.readlinkSync(link), 'run.sh');
  });

  // A folder the rewind cannot write in refuses it before anything is written: test/faults/hostile.test.ts
  // ("a read-only folder refuses the rewind…"), run as an unprivileged user, so it runs as root too.

  it('a rewind killed after some writes is finished by the next command: undo and rewind again need no force', async () => {
    const { ws, store, prompt, write } = setup();
    for (const n of ['a', 'b', 'c', 'd']) fs.writeFileSync(path.join(ws, `${n}.txt`), `${n}0\n`);
    const p1 = prompt('first');
    const at1 = snapshotTree(ws);
    for (const n of ['a', 'b', 'c', 'd']) write(`${n}.txt`, `${n}1\n`);
    const atEnd = snapshotTree(ws);
    const begun = beginRewind(store, p1);
    assert.equal(begun.status, 'ready');
    if (begun.status !== 'ready') return;
    // Simulate a kill after two of four writes: the journal stays, no rewind snapshots, lock held by "us".
    applyWriteFs(store, begun.txn.writes[0]!);
    applyWriteFs(store, begun.txn.writes[1]!);
    fs.writeFileSync(begun.txn.writes[2]!.tmp, 'half-written temp');
    const j = readJournal(store);
    assert.ok(j);
    fs.writeFileSync(path.join(store.dir, 'rewind-journal.json'), JSON.stringify({ ...j, pid: 2 ** 22 + 12345 }));
    fs.writeFileSync(path.join(store.dir, 'lock'), JSON.stringify({ pid: 2 ** 22 + 12345, op: 'rewind', time: 0 }));
    const rec = recoverUnfinished(store);
    assert.ok(rec);
    assert.equal(rec.written.length, 2);
    assert.equal(rec.notWritten.length, 2);
    assert.equal(fs.existsSync(begun.txn.writes[2]!.tmp), false, 'temp files removed');
    // undo the half rewind
    const undo = await rewind(store, begun.txn.checkpoint.id);
    assert.equal(undo.status, 'done');
    assert.deepEqual(snapshotTree(ws), atEnd);
    const again = await rewind(store, p1);
    assert.equal(again.status, 'done');
    assert.deepEqual(snapshotTree(ws), at1);
    assert.equal(verifyStore(store).ok, true);
  });

  it('never writes outside the workspace folders the store knows, nor into .git', async () => {
    const { ws, store, prompt } = setup();
    const p1 = prompt('first');
    const outside = path.join(path.dirname(ws), 'outside.txt');
    fs.writeFileSync(outside, 'precious');
    const gitFile = path.join(ws, '.git', 'config');
    fs.mkdirSync(path.dirname(gitFile));
    fs.writeFileSync(gitFile, 'cfg');
    // Tampered lines: snapshots naming files outside every workspace folder and inside .git.
    store.append([
      { t: 'snap', path: outside, hash: null, phase: 'before', time: 1 },
      {
        t: 'snap',
        path: outside,
        hash: store.blobs.put(Buffer.from('precious')),
        phase: 'after',
        time: 1,
        mtime: fs.statSync(outside).mtimeMs,
      },
      { t: 'snap', path: gitFile, hash: null, phase: 'before', time: 1 },
      { t: 'snap', path: gitFile, hash: store.blobs.put(Buffer.from('cfg')), phase: 'after', time: 1 },
    ]);
    const plan = makePlan(store, p1);
    assert.deepEqual(plan.files, []);
    assert.deepEqual(
      plan.notRestorable.map((n) => n.reason),
      ['outside-workspace', 'outside-workspace'],
    );
    await rewind(store, p1);
    assert.equal(fs.readFileSync(outside, 'utf8'), 'precious');
    assert.equal(fs.readFileSync(gitFile, 'utf8'), 'cfg');
  });
});

// The apply loop with writers other than the CLI's: whatever a writer leaves is verified like content
// (a mode it did not set is a failed file), and a writer that refuses at the moment of writing
// (VS Code: an editor dirtied after the check) ends the rewind with nothing written, reported as vetoed.
describe('rewind writers', { skip: process.platform === 'win32' ? 'no permission bits on Windows' : false }, () => {
  it('a file written with other permissions than recorded (its chmod failed) is a failed file, named with both modes', async () => {
    const { ws, store, prompt, write } = setup();
    write('run.sh', '#!/bin/sh\necho one\n', 0o755);
    const target = prompt('change it');
    write('run.sh', '#!/bin/sh\necho two\n', 0o644);
    // A writer that writes the content but leaves the mode as the file has it (as a failed chmod would).
    const noChmod: FileWriter = { writeOne: (w) => applyWriteFs(store, { ...w, mode: 0o644 }) };
    const r = await applyRewind(store, target, {}, noChmod);
    assert.equal(r.status, 'partial');
    assert.ok('files' in r);
    assert.deepEqual(
      r.files.map((f) => [path.basename(f.path), f.ok, f.error]),
      [['run.sh', false, 'written, but its permissions are 644, not 755 as recorded']],
    );
    assert.equal(fs.readFileSync(path.join(ws, 'run.sh'), 'utf8'), '#!/bin/sh\necho one\n');
  });

  it('a writer refusing at the moment of writing: nothing written, the journal finished, reported as vetoed with the paths', async () => {
    const { ws, store, prompt, write } = setup();
    write('a.txt', 'one\n');
    const target = prompt('next');
    write('a.txt', 'two\n');
    write('b.txt', 'new\n');
    const refusing: FileWriter = {
      begin(writes) {
        throw new AgentRewindError('write-refused', { paths: [writes[0]!.path] });
      },
      writeOne: () => assert.fail('nothing is written after a refusal'),
    };
    const r = await applyRewind(store, target, {}, refusing);
    assert.equal(r.status, 'vetoed');
    assert.ok('paths' in r);
    assert.deepEqual(r.paths, [path.join(ws, 'a.txt')]);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'two\n');
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'new\n');
    assert.equal(readJournal(store), null, 'no journal left: the transaction is finished');
    assert.deepEqual(verifyStore(store).errors, []);
    // Nothing is lost or half-done: a rewind now (the editor saved or closed) writes both.
    const again = await applyRewind(store, target, {}, { writeOne: (w) => applyWriteFs(store, w) });
    assert.equal(again.status, 'done');
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'one\n');
    assert.equal(fs.existsSync(path.join(ws, 'b.txt')), false);
  });
});

// The loop the VS Code writer runs in (one WorkspaceEdit per file, awaited): each path is claimed
// right before its own write, so what the user saves while an earlier file is being written is
// left as saved; the writer's own hold-back (an editor dirtied once writing began) leaves one file.
describe('each file checked right before it is written', () => {
  function twoFiles() {
    const { ws, store, prompt, write } = setup();
    write('a.txt', 'a at target\n');
    write('b.txt', 'b at target\n');
    const target = prompt('change both');
    write('a.txt', 'a by the agent\n');
    write('b.txt', 'b by the agent\n');
    return { ws, store, target, a: path.join(ws, 'a.txt'), b: path.join(ws, 'b.txt') };
  }

  it('a file saved while the one before it is being written (an async writer) is left as saved, kept in the store; undo leaves it too', async () => {
    const { store, target, a, b } = twoFiles();
    const written: string[] = [];
    const asyncWriter: FileWriter = {
      async writeOne(w) {
        await new Promise((r) => setImmediate(r)); // as VS Code applies an edit: other things happen meanwhile
        if (w.path === a) fs.writeFileSync(b, 'b saved by the user meanwhile\n');
        applyWriteFs(store, w);
        written.push(w.path);
      },
    };
    const r = await applyRewind(store, target, {}, asyncWriter);
    assert.equal(r.status, 'partial');
    assert.ok('files' in r);
    assert.deepEqual(written, [a], 'b was never handed to the writer');
    assert.deepEqual(
      r.files.map((f) => [path.basename(f.path), f.ok, f.skipped]),
      [
        ['a.txt', true, undefined],
        ['b.txt', false, 'changed-during-rewind'],
      ],
    );
    assert.equal(fs.readFileSync(a, 'utf8'), 'a at target\n');
    assert.equal(fs.readFileSync(b, 'utf8'), 'b saved by the user meanwhile\n');
    const kept = store
      .read()
      .records.filter((x) => x.t === 'snap' && x.path === b)
      .at(-1);
    assert.ok(kept && kept.t === 'snap' && kept.phase === 'observed' && kept.hash);
    assert.equal(store.content(kept.hash).toString(), 'b saved by the user meanwhile\n');
    assert.deepEqual(verifyStore(store).errors, []);
    const undo = await rewind(store, r.checkpoint.id);
    assert.equal(undo.status, 'done');
    assert.ok('files' in undo);
    assert.deepEqual(
      undo.files.map((f) => path.basename(f.path)),
      ['a.txt'],
      'the undo writes only what the rewind wrote',
    );
    assert.equal(fs.readFileSync(a, 'utf8'), 'a by the agent\n');
    assert.equal(fs.readFileSync(b, 'utf8'), 'b saved by the user meanwhile\n');
  });

  it("a writer's hold-back (an editor dirtied after writing began) leaves that file, with its reason; the others are written", async () => {
    const { store, target, a, b } = twoFiles();
    const r = await applyRewind(
      store,
      target,
      {},
      { holdBack: (w) => (w.path === b ? 'unsaved-during-rewind' : null), writeOne: (w) => applyWriteFs(store, w) },
    );
    assert.ok('files' in r);
    assert.deepEqual(
      r.files.map((f) => [path.basename(f.path), f.ok, f.skipped]),
      [
        ['a.txt', true, undefined],
        ['b.txt', false, 'unsaved-during-rewind'],
      ],
    );
    assert.equal(fs.readFileSync(a, 'utf8'), 'a at target\n');
    assert.equal(fs.readFileSync(b, 'utf8'), 'b by the agent\n');
    assert.deepEqual(verifyStore(store).errors, []);
  });
});

// Keep mine computes the merge from the bytes the plan read: a save that lands after that (here, while
// the rewind holds the lock, from its veto hook) is never merged over — the file is left as saved.
describe('keep mine under a racing save', () => {
  it('a save after the plan leaves the file as saved (a failed file, named), its earlier text kept in the store', async () => {
    const { ws, store, prompt, write } = setup();
    const file = path.join(ws, 'a.txt');
    write('a.txt', 'one\ntwo\nthree\nfour\n');
    const target = prompt('change line four');
    write('a.txt', 'one\ntwo\nthree\nFOUR\n');
    fs.writeFileSync(file, 'ONE\ntwo\nthree\nFOUR\n');
    const veto = () => {
      fs.writeFileSync(file, 'ONE!\ntwo\nthree\nFOUR\n');
      return [];
    };
    const r = await rewind(store, target, { keepMine: true, veto });
    assert.equal(r.status, 'partial');
    assert.ok('files' in r);
    assert.deepEqual(
      r.files.map((f) => [f.ok, f.error]),
      [[false, 'changed while the rewind ran; left as you saved it (a copy is in the store)']],
    );
    assert.equal(fs.readFileSync(file, 'utf8'), 'ONE!\ntwo\nthree\nFOUR\n');
  });

  it('without the race the merge is written, and its rewind snapshot says the file is mixed', async () => {
    const { ws, store, prompt, write } = setup();
    const file = path.join(ws, 'a.txt');
    write('a.txt', 'one\ntwo\nthree\nfour\n');
    const target = prompt('change line four');
    write('a.txt', 'one\ntwo\nthree\nFOUR\n');
    fs.writeFileSync(file, 'ONE\ntwo\nthree\nFOUR\n');
    const r = await rewind(store, target, { keepMine: true });
    assert.equal(r.status, 'done');
    assert.equal(fs.readFileSync(file, 'utf8'), 'ONE\ntwo\nthree\nfour\n');
    const snap = store
      .read()
      .records.filter((x) => x.t === 'snap' && x.path === file)
      .at(-1)!;
    assert.deepEqual([snap.t === 'snap' && snap.phase, snap.t === 'snap' && snap.mixed], ['rewind', 'keep-mine']);
  });

  it('a rewind given the plan a user saw (expect) writes nothing and records nothing when its own plan differs', async () => {
    const { ws, store, prompt, write } = setup();
    const p1 = prompt('first');
    write('a.txt', 'agent a\n');
    write('b.txt', 'agent b\n');
    const shown = makePlan(store, p1);
    // After the plan was shown: the user saves a.txt, and the agent writes c.txt (a path the plan did not name).
    fs.writeFileSync(path.join(ws, 'a.txt'), 'mine a\n');
    write('c.txt', 'agent c\n');
    const tree = snapshotTree(ws);
    const lines = store.read().records.length;
    const r = await rewind(store, p1, { expect: shown.seen, force: true });
    assert.equal(r.status, 'stale');
    assert.deepEqual(r.status === 'stale' && r.changed, [
      { path: path.join(ws, 'a.txt'), why: 'disk' },
      { path: path.join(ws, 'c.txt'), why: 'plan' },
    ]);
    assert.deepEqual(snapshotTree(ws), tree, 'nothing written, even with force');
    assert.equal(store.read().records.length, lines, 'nothing recorded');
    // Narrowed to b.txt, the plan the user saw still holds there: the rewind goes ahead.
    const b = path.join(ws, 'b.txt');
    const only = await rewind(store, p1, { paths: [b], expect: new Map([[b, shown.seen.get(b)!]]) });
    assert.equal(only.status, 'done');
    assert.equal(fs.existsSync(b), false);
    // The plan shown again (the new one): its click rewinds.
    const again = makePlan(store, p1);
    assert.equal((await rewind(store, p1, { expect: again.seen, force: true })).status, 'done');
    assert.deepEqual(fs.readdirSync(ws), []);
  });
});

// The user saves a file while a rewind is writing (the rewind stopped right after its first write,
// AGENT_REWIND_FAULT=rewind.write:1:stop, so the save lands mid-rewind for sure): each path is read
// again right before it is written, so a file saved meanwhile is left as the user saved it, its
// content is in the store (blob and an `observed` line), the summary says so, and the undo of that
// rewind leaves it too. Deleting works the same way. A failed write is counted as failed, not done.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { waitUntil } from '../helpers/wait';
import { agentWorld, assertSound, fs, json, ok, path, run, runAsync, type Run, stopped, tree, type World } from './world';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

interface PlanFile {
  path: string;
  action: string;
}
interface Line {
  t: string;
  path?: string;
  hash?: string | null;
  phase?: string;
  kind?: string;
}

function lines(store: string): Line[] {
  return fs
    .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}

function blob(store: string, hash: string): Buffer {
  return fs.readFileSync(path.join(store, 'objects', hash.slice(0, 2), hash.slice(2)));
}

/** Rewinds `w` to its start, stopped after the first write; `meanwhile` runs then; returns the finished run. */
async function rewindWithPause(w: World, meanwhile: () => void, args: string[] = []): Promise<Run> {
  let pid = 0;
  const rewinding = runAsync(w.store, ['rewind', '--to', w.start, ...args], { fault: 'rewind.write:1:stop', started: (p) => (pid = p) });
  await waitUntil(() => pid !== 0 && stopped(pid), 'the rewind to stop after its first write');
  meanwhile();
  process.kill(pid, 'SIGCONT');
  return rewinding;
}

function planned(w: World): PlanFile[] {
  return json<{ files: PlanFile[] }>(w.store, ['plan', '--to', w.start]).files;
}

describe('a file saved while a rewind writes', () => {
  it('is left as saved (text summary), kept in the store, and the undo leaves it too', async () => {
    const w = agentWorld(40, 3131);
    const files = planned(w);
    // The last file written with content (deletions go first, so it is never the first write).
    const saved = files.filter((f) => f.action === 'restore').at(-1)!.path;
    const mine = 'the user saved this while the rewind ran\n';
    const r = await rewindWithPause(w, () => fs.writeFileSync(saved, mine));

    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /: restored \d+, deleted \d+, recreated \d+ file\(s\); 1 file left as you saved it\./);
    assert.match(r.stdout, new RegExp(`left {3}restore  ${saved.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} — changed while the rewind ran`));
    assert.match(
      r.stderr,
      /1 file was saved while the rewind ran and left as you saved it \(a copy is in the store\).*run `agent-rewind rewind --to/,
    );
    assert.equal(fs.readFileSync(saved, 'utf8'), mine, 'on disk: as the user saved it');
    const log = lines(w.store);
    const cp = log.findIndex((l) => l.t === 'checkpoint' && l.kind === 'rewind');
    const kept = log.slice(cp).filter((l) => l.t === 'snap' && l.path === saved);
    assert.deepEqual(
      kept.map((l) => [l.phase, l.hash]),
      [['observed', sha(mine)]],
      'in the log after the rewind checkpoint: what the disk held, observed, no rewind snapshot',
    );
    assert.equal(blob(w.store, sha(mine)).toString(), mine, 'in the store: its blob');
    // Every other file is at the target.
    const rel = path.relative(w.ws, saved);
    const others = (t: Record<string, string>) => Object.fromEntries(Object.entries(t).filter(([k]) => k !== rel && !k.endsWith('/')));
    assert.deepEqual(others(tree(w.ws)), others(w.before), 'every other file is rewound');
    assertSound(w.store, 'after the rewind');

    // Undo: everything the rewind wrote goes back; the file it left is not overwritten.
    const rewindId = (lines(w.store).find((l) => l.t === 'checkpoint' && l.kind === 'rewind') as unknown as { id: string }).id;
    ok(run(w.store, ['rewind', '--to', rewindId]), 'undo');
    assert.deepEqual(others(tree(w.ws)), others(w.after), 'the undo puts every other file back');
    assert.equal(fs.readFileSync(saved, 'utf8'), mine, 'the undo leaves the saved file as the user saved it');
    assertSound(w.store, 'after the undo');
  });

  it('--json lists it in `skipped` with its reason and counts only what was written; a delete is left the same way', async () => {
    const w = agentWorld(40, 4141);
    const files = planned(w);
    const deletions = files.filter((f) => f.action === 'delete');
    assert.ok(deletions.length >= 2, 'the plan deletes at least two files');
    const restores = files.filter((f) => f.action === 'restore');
    const savedDel = deletions.at(-1)!.path; // not the first write: the first deletion is
    const savedRes = restores[0]!.path;
    const r = await rewindWithPause(w, () => {
      fs.writeFileSync(savedDel, 'kept: the rewind meant to delete this\n');
      fs.rmSync(savedRes); // deleting is a change too
    }, ['--json']);
    assert.equal(r.status, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.status, 'partial');
    assert.deepEqual(
      out.skipped,
      [savedDel, savedRes].sort().map((p) => ({ path: p, reason: 'changed-during-rewind' })),
    );
    const count = (a: string) => files.filter((f) => f.action === a && f.path !== savedDel && f.path !== savedRes).length;
    assert.deepEqual(out.counts, {
      restored: count('restore'),
      deleted: count('delete'),
      recreated: count('recreate'),
      failed: 0,
      skipped: 2,
    });
    for (const k of ['target', 'checkpoint', 'undo', 'files', 'warnings', 'notUndone', 'notRestorable', 'leftAlone'])
      assert.ok(k in out, k);
    const del = out.files.find((f: any) => f.path === savedDel);
    assert.deepEqual([del.ok, del.skipped], [false, 'changed-during-rewind']);
    assert.equal(fs.readFileSync(savedDel, 'utf8'), 'kept: the rewind meant to delete this\n');
    assert.equal(fs.existsSync(savedRes), false, 'the file the user deleted stays deleted');
    const observed = lines(w.store).filter((l) => l.phase === 'observed');
    assert.ok(observed.some((l) => l.path === savedDel && l.hash === sha('kept: the rewind meant to delete this\n')));
    assert.ok(observed.some((l) => l.path === savedRes && l.hash === null));
    assertSound(w.store, 'after the rewind');
  });

  it('a save that lands after the path was re-read but before the new content is renamed in is not overwritten', async () => {
    const w = agentWorld(40, 6161);
    // Stopped with the first file's new content complete in its temp file beside it, not renamed in yet
    // (the fsync of a large file on a busy disk takes that long): the user saves that very file then.
    let pid = 0;
    const rewinding = runAsync(w.store, ['rewind', '--to', w.start, '--json'], { fault: 'rewind.tmp:1:stop', started: (p) => (pid = p) });
    await waitUntil(() => pid !== 0 && stopped(pid), 'the rewind to stop before its first rename');
    const tmp = Object.keys(tree(w.ws)).find((k) => /\.agent-rewind-[A-Za-z0-9_-]+\.tmp$/.test(k));
    assert.ok(tmp, 'a temp file stands beside the file being written');
    const saved = path.join(
      w.ws,
      path.dirname(tmp),
      path
        .basename(tmp)
        .replace(/^\./, '')
        .replace(/\.agent-rewind-[A-Za-z0-9_-]+\.tmp$/, ''),
    );
    const mine = 'saved by the user just before the rename\n';
    fs.writeFileSync(saved, mine);
    process.kill(pid, 'SIGCONT');
    const r = await rewinding;
    assert.equal(fs.readFileSync(saved, 'utf8'), mine, `on disk: as the user saved it (${r.stdout})`);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.skipped, [{ path: saved, reason: 'changed-during-rewind' }]);
    assert.ok(
      lines(w.store).some((l) => l.phase === 'observed' && l.path === saved && l.hash === sha(mine)),
      'its content is kept in the store',
    );
    assertSound(w.store, 'after the rewind');
  });

  it('a write that fails is counted as failed, not as done (the text summary)', async () => {
    const w = agentWorld(40, 5151);
    const files = planned(w);
    // A file the rewind recreates in a subfolder: the user puts a file where that folder is, so the write fails.
    const target = files.find((f) => f.action === 'recreate' && path.dirname(f.path) !== w.ws);
    assert.ok(target, 'the plan recreates a file in a subfolder');
    const dir = path.dirname(target.path);
    const r = await rewindWithPause(w, () => {
      fs.rmSync(dir, { recursive: true });
      fs.writeFileSync(dir, 'in the way\n');
    });
    assert.equal(r.status, 1, r.stderr);
    const rows = r.stdout.split('\n').filter((l) => /^ {2}(ok {4}|FAILED|left {2}) /.test(l));
    const n = (mark: string, action = '') => rows.filter((l) => l.startsWith(`  ${mark}`) && l.includes(` ${action}`)).length;
    assert.ok(n('FAILED') >= 1, r.stdout);
    assert.ok(
      rows.some((l) => l.startsWith('  FAILED recreate ') && l.includes(target.path)),
      'the recreate in the folder that is a file now fails',
    );
    const summary = r.stdout.match(
      /restored (\d+), deleted (\d+), recreated (\d+) file\(s\); (\d+) failed(?:; (\d+) files? left as you saved (?:it|them))?\./,
    );
    assert.ok(summary, r.stdout);
    assert.deepEqual(
      summary.slice(1).map((x) => Number(x ?? 0)),
      [n('ok    ', 'restore '), n('ok    ', 'delete '), n('ok    ', 'recreate '), n('FAILED'), n('left  ')],
    );
    assert.ok(
      n('ok    ', 'recreate ') < files.filter((f) => f.action === 'recreate').length,
      'the failed recreate is not counted as recreated',
    );
    assert.match(r.stderr, /Some files could not be rewound/);
    assert.equal(fs.readFileSync(dir, 'utf8'), 'in the way\n');
    assertSound(w.store, 'after the failed write');
  });
});

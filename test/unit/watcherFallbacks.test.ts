// The file watcher's fallbacks (resident/watcher.ts): whenever it cannot vouch for a root it
// answers "scan" for that call, says why once (the report goes to errors.log in the resident), and
// vouches again from the next token where the watch can be restarted. Real folders and real
// inotify watches; only what this shared machine cannot produce without harming others (a network
// mount, the machine-wide limit on watched folders) is answered through the watcher's `WatchOs`.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { scanOptionsIn } from '../helpers/scanOptions';
import { baseline } from '../../src/core/scan/baseline';
import { rescan } from '../../src/core/scan/rescan';
import { DirWatcher, REAL_OS as REAL, type WatchOs } from '../../src/resident/watcher';
import { tempDir } from '../helpers/tmp';

/** A watched workspace with a folder in it, and every message the watcher said. */
async function watched(os: WatchOs = REAL) {
  const base = tempDir('ar-wfb-');
  const ws = path.join(base, 'ws');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'a.txt'), 'a\n');
  const said: string[] = [];
  const cookies = path.join(base, 'cookies');
  const w = new DirWatcher(cookies, (m) => said.push(m), [], os);
  await w.watch([ws]);
  return { ws, w, said, cookies };
}

/** Said exactly once, whatever happened after. */
function saidOnce(said: string[], what: string): void {
  assert.equal(said.filter((m) => m.includes(what)).length, 1, `"${what}" said once, in: ${JSON.stringify(said)}`);
}

/** The watcher vouches again: a change made after a fresh token is named. */
async function vouchesAgain(w: DirWatcher, ws: string): Promise<void> {
  await w.settle();
  const t = w.token(ws);
  assert.ok(t, 'a token after the restart');
  const file = path.join(ws, 'src', `again-${Date.now()}.txt`);
  fs.writeFileSync(file, 'x');
  await w.settle();
  assert.ok(w.changedSince(ws, t)?.has(file), 'the change after the restart is named');
}

describe('file watcher: every doubt falls back to the scan for that call, said once', () => {
  it('a clock jump between a token and its use', async () => {
    const { ws, w, said } = await watched();
    await w.settle();
    const t = w.token(ws)!;
    fs.writeFileSync(path.join(ws, 'src', 'b.txt'), 'b');
    await w.settle();
    // The wall clock moved 5 s against the monotonic one since the token was taken.
    assert.equal(w.changedSince(ws, { ...t, wall: t.wall - 5000 }), undefined);
    assert.equal(w.changedSince(ws, t), undefined, 'the old watch is gone: its tokens do not vouch');
    const t2 = w.token(ws)!;
    assert.equal(w.changedSince(ws, { ...t2, wall: t2.wall + 5000 }), undefined);
    saidOnce(said, 'the clock jumped');
    await vouchesAgain(w, ws);
    await w.close();
  });

  it('a .gitignore changes (the folders to watch change with it)', async () => {
    const { ws, w, said } = await watched();
    await w.settle();
    const t = w.token(ws)!;
    fs.writeFileSync(path.join(ws, '.gitignore'), 'src/\n');
    await w.settle();
    assert.equal(w.changedSince(ws, t), undefined);
    saidOnce(said, 'a .gitignore changed');
    fs.rmSync(path.join(ws, '.gitignore'));
    await vouchesAgain(w, ws);
    await w.close();
  });

  it("a folder's watch fails (a dropped watch)", async () => {
    const made: fs.FSWatcher[] = [];
    const { ws, w, said } = await watched({ ...REAL, watch: (d, l) => made[made.push(REAL.watch(d, l)) - 1]! });
    await w.settle();
    const t = w.token(ws)!;
    made[made.length - 1]!.emit('error', new Error('the watch was dropped'));
    made[made.length - 1]!.emit('error', new Error('the watch was dropped'));
    assert.equal(w.changedSince(ws, t), undefined);
    saidOnce(said, "a folder's watch failed (the watch was dropped)");
    await vouchesAgain(w, ws);
    await w.close();
  });

  it('the cookie does not come back in time (its folder was replaced: the watch on it is dead)', { timeout: 30000 }, async () => {
    const { ws, w, said, cookies } = await watched();
    await w.settle();
    const t = w.token(ws)!;
    fs.rmSync(cookies, { recursive: true });
    fs.mkdirSync(cookies);
    await w.settle();
    assert.equal(w.changedSince(ws, t), undefined);
    saidOnce(said, 'its events did not arrive within');
    await vouchesAgain(w, ws); // the cookie folder is watched anew
    await w.close();
  });

  it('the cookie cannot be written (its folder was removed)', async () => {
    const { ws, w, said, cookies } = await watched();
    await w.settle();
    const t = w.token(ws)!;
    fs.rmSync(cookies, { recursive: true });
    await w.settle();
    assert.equal(w.changedSince(ws, t), undefined);
    saidOnce(said, 'cannot write a cookie');
    await vouchesAgain(w, ws);
    await w.close();
  });

  it('more events at once than half the kernel queue (an overflow libuv would not report)', { timeout: 60000 }, async () => {
    const { ws, w, said } = await watched();
    await w.settle();
    const t = w.token(ws)!;
    const limit = Math.floor(Number(fs.readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8')) / 2);
    for (let i = 0; i <= limit; i++) fs.writeFileSync(path.join(ws, 'src', `g${i}`), '');
    await w.settle();
    assert.equal(w.changedSince(ws, t), undefined);
    saidOnce(said, `more than ${limit} file events at once`);
    await vouchesAgain(w, ws);
    await w.close();
  });

  it('the root is gone', async () => {
    const { ws, w, said } = await watched();
    await w.settle();
    const t = w.token(ws)!;
    fs.rmSync(ws, { recursive: true });
    await w.settle();
    await w.settle();
    assert.equal(w.changedSince(ws, t), undefined);
    assert.equal(w.token(ws), undefined);
    saidOnce(said, 'the folder is gone');
    await w.close();
  });

  it('a root on a network file system never vouches', async () => {
    const { ws, w, said } = await watched({ ...REAL, fsType: () => 0x6969 }); // NFS's statfs magic
    await w.settle();
    assert.equal(w.token(ws), undefined);
    assert.equal(w.stats().watches, 0);
    await w.watch([ws]);
    saidOnce(said, 'network or user-space file system');
    await w.close();
  });

  it("the OS's limit on watched folders, at the start and for a folder made later", async () => {
    const full = Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
    const atStart = await watched({
      ...REAL,
      watch: () => {
        throw full;
      },
    });
    assert.equal(atStart.w.token(atStart.ws), undefined);
    assert.equal(atStart.w.stats().watches, 0, 'no watch left behind');
    saidOnce(atStart.said, 'the system limit on watched folders is reached');
    await atStart.w.close();
    // Room for the two folders there are; the third, made by a command, hits the limit.
    let room = 2;
    const later = await watched({
      ...REAL,
      watch: (d, l) => {
        if (room-- <= 0) throw full;
        return REAL.watch(d, l);
      },
    });
    await later.w.settle();
    const t = later.w.token(later.ws)!;
    fs.mkdirSync(path.join(later.ws, 'src', 'new'));
    await later.w.settle();
    assert.equal(later.w.changedSince(later.ws, t), undefined);
    assert.equal(later.w.token(later.ws), undefined);
    saidOnce(later.said, 'the system limit on watched folders is reached');
    await later.w.close();
  });
});

describe('file watcher: a fallback is as small as its cause', () => {
  const denied = (dir: string): WatchOs => ({
    ...REAL,
    watch: (d, l) => {
      if (d === dir) throw Object.assign(new Error(`EACCES: permission denied, watch '${d}'`), { code: 'EACCES' });
      return REAL.watch(d, l);
    },
  });

  it('a folder below the root that cannot be watched: the root still vouches, that folder is scanned alone, the rest narrowed', async () => {
    const base = tempDir('ar-wfb-');
    const ws = path.join(base, 'ws');
    for (const f of ['src/a.txt', 'src/deep/b.txt', 'other/c.txt', 'top.txt']) {
      fs.mkdirSync(path.dirname(path.join(ws, f)), { recursive: true });
      fs.writeFileSync(path.join(ws, f), `${f}\n`);
    }
    const said: string[] = [];
    const w = new DirWatcher(path.join(base, 'cookies'), (m) => said.push(m), [], denied(path.join(ws, 'src')));
    await w.watch([ws]);
    const o = scanOptionsIn(path.join(base, 'store'), 1000);
    const state = baseline(ws, 's', { ...o, budgetMs: 1e9 }).state;
    await w.settle();
    const t = w.token(ws);
    assert.ok(t, 'the root vouches');
    assert.deepEqual(w.stats().unwatched, [path.join(ws, 'src')]);
    assert.equal(w.covers(ws, path.join(ws, 'src')), false);
    assert.equal(w.covers(ws, path.join(ws, 'src', 'deep')), false, 'nor what is below it');
    assert.equal(w.covers(ws, path.join(ws, 'other')), true);
    fs.writeFileSync(path.join(ws, 'src', 'a.txt'), 'changed, unwatched\n');
    fs.writeFileSync(path.join(ws, 'src', 'deep', 'b.txt'), 'changed deeper\n');
    fs.writeFileSync(path.join(ws, 'src', 'new.txt'), 'made there\n');
    fs.writeFileSync(path.join(ws, 'other', 'c.txt'), 'changed, watched\n');
    await w.settle();
    const paths = w.changedSince(ws, t!)!;
    assert.ok(paths, 'still vouching');
    const r = rescan(state, { ...o, changed: { paths, covers: (d) => w.covers(ws, d) } });
    await w.close();
    assert.equal(r.narrowed, true);
    assert.deepEqual([...r.alone!].sort(), ['src', 'src/deep']);
    assert.deepEqual(
      r.changes.map((c) => c.path),
      ['other/c.txt', 'src/a.txt', 'src/deep/b.txt', 'src/new.txt'],
    );
    saidOnce(said, `cannot watch ${path.join(ws, 'src')} (EACCES: permission denied`);
  });

  it('a folder handed over (`include`) is watched and counts as changed once; one that cannot be is listed as unwatched', async () => {
    const refused: WatchOs = {
      ...REAL,
      watch: (d, l) => {
        if (path.basename(d) === 'refused') throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        return REAL.watch(d, l);
      },
    };
    const { ws, w } = await watched(refused);
    fs.mkdirSync(path.join(ws, 'ignored', 'inner'), { recursive: true });
    fs.mkdirSync(path.join(ws, 'ignored', 'refused'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.gitignore'), 'ignored/\n');
    await w.settle();
    // the .gitignore made the watch restart; what it covers now excludes the ignored folder
    assert.equal(w.covers(ws, path.join(ws, 'ignored')), false);
    const t = w.token(ws)!;
    w.include(ws, [path.join(ws, 'ignored', 'inner'), path.join(ws, 'ignored', 'refused'), path.join(ws, 'ignored')]);
    assert.deepEqual(w.stats().unwatched, [path.join(ws, 'ignored', 'refused')]);
    assert.equal(w.covers(ws, path.join(ws, 'ignored', 'refused')), false);
    assert.equal(w.covers(ws, path.join(ws, 'ignored')), true);
    assert.equal(w.covers(ws, path.join(ws, 'ignored', 'inner')), true, 'parents first');
    assert.ok(w.changedSince(ws, t)!.has(path.join(ws, 'ignored')), 'what happened in it before its watch is looked at');
    const t2 = w.token(ws)!;
    fs.writeFileSync(path.join(ws, 'ignored', 'inner', 'x.txt'), 'x');
    await w.settle();
    assert.ok(w.changedSince(ws, t2)!.has(path.join(ws, 'ignored', 'inner', 'x.txt')));
    await w.close();
  });
});

describe('narrowed scans remember which folders the watcher covers only while neither the watches nor the folders change', () => {
  it('a folder whose watch went away (the coverage changed) and a folder new to the state are scanned alone again', () => {
    const base = tempDir('ar-wfb-');
    const ws = path.join(base, 'ws');
    for (const f of ['src/a.txt', 'other/c.txt']) {
      fs.mkdirSync(path.dirname(path.join(ws, f)), { recursive: true });
      fs.writeFileSync(path.join(ws, f), `${f}\n`);
    }
    const o = scanOptionsIn(path.join(base, 'store'), 1000);
    const state = baseline(ws, 's', { ...o, budgetMs: 1e9 }).state;
    const uncovered = new Set<string>();
    const changed = (paths: string[], coverage: number) => ({
      paths: new Set(paths),
      covers: (d: string) => !uncovered.has(d),
      coverage,
    });
    // Every folder watched: nothing named, nothing found; the answer is remembered for coverage 1.
    assert.deepEqual(
      rescan(state, { ...o, changed: changed([], 1) }).changes.map((c) => c.path),
      [],
    );
    // The watch of src went away (coverage 2): a change there that no event named is found.
    uncovered.add(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src', 'a.txt'), 'changed, unwatched\n');
    const r2 = rescan(state, { ...o, changed: changed([], 2) });
    assert.deepEqual(r2.alone, ['src']);
    assert.deepEqual(
      r2.changes.map((c) => c.path),
      ['src/a.txt'],
    );
    // A folder new to the state (named once), not covered: the next call, same coverage, scans it alone.
    fs.mkdirSync(path.join(ws, 'made'));
    fs.writeFileSync(path.join(ws, 'made', 'm.txt'), 'm\n');
    uncovered.add(path.join(ws, 'made'));
    assert.deepEqual(
      rescan(state, { ...o, changed: changed([path.join(ws, 'made')], 2) }).changes.map((c) => c.path),
      ['made/m.txt'],
    );
    fs.writeFileSync(path.join(ws, 'made', 'm.txt'), 'changed again, unwatched\n');
    const r4 = rescan(state, { ...o, changed: changed([], 2) });
    assert.deepEqual([...r4.alone!].sort(), ['made', 'src']);
    assert.deepEqual(
      r4.changes.map((c) => c.path),
      ['made/m.txt'],
    );
  });
});

// The file watcher's fallbacks (recording/watcher.ts): whenever it cannot vouch for a root it
// answers "scan" for that call, says why once (the report goes to errors.log in the resident), and
// vouches again from the next token where the watch can be restarted. Real folders and real
// inotify watches; only what this shared machine cannot produce without harming others (a network
// mount, the machine-wide limit on watched folders) is answered through the watcher's `WatchOs`.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { DirWatcher, REAL_OS as REAL, type WatchOs } from '../../src/recording/watcher';
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

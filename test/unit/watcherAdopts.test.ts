// The resident adopts a scan state a hook saved while it was starting (core/capture/narrowing.ts,
// `watchedChanges`): hooks that ran before the resident answered saved their states themselves, and
// the first scan of such a state was one of the whole tree. Where the watcher vouches for everything
// that changed since that state's scan began, the scan is narrowed instead: from the moment the root's
// watch was ready (`readySince`) for a state scanned after it; for one scanned while the watch was being
// set up, the same, with each folder watched later than the scan began (`watchedAt`) scanned alone;
// before the root's watch, the whole tree as before. Real folders, real inotify watches; every narrowed
// scan is checked against a whole scan of the same state — a change it missed would be lost work.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { scanOptionsIn } from '../helpers/scanOptions';
import { ADOPT_SLACK_MS, countScan, fallbacks, watchedChanges, watchedScans } from '../../src/core/capture/narrowing';
import { baseline } from '../../src/core/scan/baseline';
import { rescan } from '../../src/core/scan/rescan';
import { loadState, saveState, stateFile } from '../../src/core/scan/stateFile';
import { watchedBaseline } from '../../src/core/capture/watchedStart';
import type { ScanResult, ScanState } from '../../src/core/scan/types';
import { DirWatcher, REAL_OS, type WatchOs } from '../../src/resident/watcher';
import { waitUntil, waitUntilSync } from '../helpers/wait';
import { tempDir } from '../helpers/tmp';

const FOLDERS = ['', 'src', 'src/deep', 'docs', 'lib', 'lib/x', 'lib/y'];

/** A workspace of a few folders with two files each, every stat an hour old (nothing racy), and a store beside it. */
function tree() {
  const base = tempDir('ar-adopt-');
  const ws = path.join(base, 'ws');
  for (const d of FOLDERS) {
    fs.mkdirSync(path.join(ws, d), { recursive: true });
    for (const f of ['one.txt', 'two.txt']) fs.writeFileSync(path.join(ws, d, f), `${d}/${f}\n`);
  }
  const old = new Date(Date.now() - 3600_000);
  for (const d of [...FOLDERS].reverse()) {
    for (const f of ['one.txt', 'two.txt']) fs.utimesSync(path.join(ws, d, f), old, old);
    fs.utimesSync(path.join(ws, d), old, old);
  }
  const o = scanOptionsIn(path.join(base, 'store'), 10000);
  const file = stateFile(o.storeDir, 'hooked');
  return { base, ws, o, file, cookies: path.join(base, 'cookies') };
}

type Tree = ReturnType<typeof tree>;

/** A resident's watcher of the tree, its watch set up (through `os`: the real one unless a test steps into the set-up). */
async function watching(t: Tree, os: WatchOs = REAL_OS): Promise<DirWatcher> {
  const w = new DirWatcher(t.cookies, () => {}, [], os);
  await w.watch([t.ws]);
  return w;
}

/** The watcher's ready moment, once the clock is past it and its slack (a hook's scan from now on began after it). */
async function pastReady(t: Tree, w: DirWatcher): Promise<{ wall: number }> {
  const ready = w.readySince(t.ws);
  assert.ok(ready, 'the root vouches');
  await waitUntil(() => Date.now() > ready.wall + ADOPT_SLACK_MS, 'the clock past the ready moment and its slack');
  return ready;
}

/** A hook that recorded by itself: its own scan of the tree (no watcher), saved. */
function hookSaves(t: Tree): ScanState {
  const state = baseline(t.ws, 'hooked', { ...t.o, budgetMs: 1e9 }).state;
  saveState(t.file, state);
  return state;
}

/** Changes in folder `d`: a file appended to, one made, one removed. Returns the paths (relative) changed. */
function changeIn(ws: string, d: string, tag: string): string[] {
  const at = (f: string) => path.join(ws, d, f);
  const rel = (f: string) => (d ? `${d}/${f}` : f);
  fs.appendFileSync(at('one.txt'), `${tag}\n`);
  fs.writeFileSync(at(`${tag}.txt`), `${tag}\n`);
  const gone = fs.existsSync(at('two.txt')) ? ['two.txt'] : [];
  for (const f of gone) fs.rmSync(at(f));
  return [rel('one.txt'), rel(`${tag}.txt`), ...gone.map(rel)];
}

/** What a change says: its path, the content before and after (a whole scan and a narrowed one must agree on each). */
function changesOf(r: ScanResult): unknown[] {
  return r.changes.map((c) => [
    c.path,
    c.before?.hash ?? c.before?.git ?? null,
    c.after?.hash ?? null,
    c.after ? c.after.mode & 0o111 : null,
  ]);
}

function stateView(s: ScanState): unknown {
  const files: Record<string, unknown> = {};
  for (const [rel, e] of s.files) files[rel] = [e.hash ?? e.git ?? null, e.size, e.mode & 0o111];
  return { files, dirs: [...s.dirs.keys()].sort() };
}

/**
 * The resident's first shell scan of the state the hook saved, as shell capture runs it (settled, narrowed
 * by what the watcher vouches for, counted), and a whole scan of the same saved state: the two must agree.
 */
async function residentScans(t: Tree, w: DirWatcher) {
  await w.settle();
  const before = { ...watchedScans };
  const fb = fallbacks();
  const state = loadState(t.file)!;
  const changed = watchedChanges(w, t.file, state);
  const r = rescan(state, { ...t.o, ...(changed ? { changed } : {}) });
  countScan(w, state, changed, r);
  const whole = loadState(t.file)!;
  const rw = rescan(whole, t.o);
  assert.deepEqual(changesOf(r), changesOf(rw), 'the narrowed scan finds what the whole scan finds');
  assert.deepEqual(stateView(state), stateView(whole), 'and leaves the same state');
  const counted = {
    narrowed: watchedScans.narrowed - before.narrowed,
    adopted: watchedScans.adopted - before.adopted,
    whole: fallbacks().total - fb.total,
    notHeld: (fallbacks().byReason['state-not-held'] ?? 0) - (fb.byReason['state-not-held'] ?? 0),
    partial: fallbacks().partial - fb.partial,
  };
  return { r, counted, changed, paths: new Set(r.changes.map((c) => c.path)) };
}

describe('the resident adopts a state a hook saved while it was starting', () => {
  it('scanned after the watch was ready: narrowed from the ready moment, every change since found', async () => {
    const t = tree();
    const w = await watching(t);
    const ready = w.readySince(t.ws);
    assert.ok(ready, 'the root vouches');
    for (const d of FOLDERS)
      assert.ok(w.watchedAt(t.ws, path.join(t.ws, d))! <= ready.wall, `${d || 'the root'} watched before the ready moment`);
    // Changed after the watch was up, before the hook's scan: the hook's state holds them already.
    const early = changeIn(t.ws, 'src', 'early');
    await waitUntil(() => Date.now() > ready.wall + ADOPT_SLACK_MS, 'the clock past the ready moment and its slack');
    const saved = hookSaves(t);
    assert.ok(saved.scanned > ready.wall + ADOPT_SLACK_MS);
    // After the hook's scan: in every folder, a new folder, a folder moved.
    const later = FOLDERS.flatMap((d) => changeIn(t.ws, d, 'later'));
    fs.mkdirSync(path.join(t.ws, 'docs', 'made', 'deeper'), { recursive: true });
    fs.writeFileSync(path.join(t.ws, 'docs', 'made', 'deeper', 'new.txt'), 'new\n');
    fs.renameSync(path.join(t.ws, 'lib', 'y'), path.join(t.ws, 'moved-y'));
    const { r, counted, changed } = await residentScans(t, w);
    await w.close();
    assert.ok(changed, 'the watcher vouched');
    assert.equal(r.narrowed, true);
    assert.deepEqual(r.alone, [], 'every folder watched since before the scan');
    assert.deepEqual(counted, { narrowed: 1, adopted: 1, whole: 0, notHeld: 0, partial: 0 });
    const found = new Set(r.changes.map((c) => c.path));
    for (const p of [...later.filter((p) => !p.startsWith('lib/y/')), 'docs/made/deeper/new.txt', 'moved-y/one.txt', 'lib/y/one.txt'])
      assert.ok(found.has(p), `${p} found`);
    assert.ok(early.includes('src/early.txt') && !found.has('src/early.txt'), "made before the hook's scan: in its state, not a change");
  });

  it('scanned while the watch was being set up: narrowed, the folders watched after the scan began scanned alone', async () => {
    const t = tree();
    // The hook scans and saves while the resident's watch is half set up: the root and one folder
    // watched (long enough before for the slack), the others not yet. What it changes after its scan
    // in those others raises no event: the narrowed scan must look at each of them alone.
    const watched: { dir: string; at: number }[] = [];
    let saved = null as ScanState | null;
    let late: string[] = [];
    let unseen: string[] = [];
    const os: WatchOs = {
      ...REAL_OS,
      watch: (dir, listener) => {
        if (watched.length === 2 && !saved) {
          const last = watched[1]!.at;
          waitUntilSync(() => Date.now() > last + ADOPT_SLACK_MS + 20, 'the clock past the first watches and the slack');
          saved = hookSaves(t);
          const early = new Set(watched.map((x) => x.dir));
          late = FOLDERS.filter((d) => !early.has(path.join(t.ws, d)));
          // After the hook's scan, during the setup: every folder changed, watched or not yet.
          for (const d of FOLDERS) {
            const changed = changeIn(t.ws, d, 'during');
            if (late.includes(d)) unseen.push(...changed);
          }
        }
        const fw = REAL_OS.watch(dir, listener);
        watched.push({ dir, at: Date.now() });
        return fw;
      },
    };
    const w = await watching(t, os);
    const ready = w.readySince(t.ws);
    assert.ok(ready, 'the watch is ready');
    assert.ok(saved, 'the hook saved during its setup');
    const state: ScanState = saved;
    assert.ok(state.scanned > w.watchedAt(t.ws, t.ws)! + ADOPT_SLACK_MS, 'scanned after the root was watched');
    assert.ok(state.scanned <= ready.wall + ADOPT_SLACK_MS, 'but not after the ready moment and its slack');
    assert.ok(late.length >= 4, `folders watched after the scan began: ${late.join(', ')}`);
    // After the ready moment: more changes, seen by the watch.
    const after = changeIn(t.ws, 'lib/x', 'after');
    // The watcher alone does not know what changed in the late folders before their watch.
    await w.settle();
    const vouched = w.changedSince(t.ws, ready.token)!;
    unseen = unseen.filter((p) => !vouched.has(path.join(t.ws, p)));
    assert.ok(unseen.length > 0, 'changes no event named');
    const { r, counted } = await residentScans(t, w);
    await w.close();
    assert.equal(r.narrowed, true);
    assert.deepEqual([...r.alone!].sort(), [...late].sort(), 'the folders watched later than the scan began, each alone');
    assert.deepEqual(counted, { narrowed: 1, adopted: 1, whole: 0, notHeld: 0, partial: 1 });
    assert.deepEqual(fallbacks().wholeFolders, [], 'all of them watched: none shown as a folder it does not watch');
    const found = new Set(r.changes.map((c) => c.path));
    for (const p of [...unseen, ...after]) assert.ok(found.has(p), `${p} found`);
  });

  it('scanned before the root was watched: the whole tree, counted as a state not held', async () => {
    const t = tree();
    hookSaves(t);
    changeIn(t.ws, 'src/deep', 'before-watch');
    const w = await watching(t);
    changeIn(t.ws, 'docs', 'after-watch');
    const { r, counted, changed } = await residentScans(t, w);
    await w.close();
    assert.equal(changed, undefined);
    assert.equal(r.narrowed, undefined);
    assert.deepEqual(counted, { narrowed: 0, adopted: 0, whole: 1, notHeld: 1, partial: 0 });
    assert.ok(r.changes.some((c) => c.path === 'src/deep/before-watch.txt'));
  });

  it('a watcher that cannot say since when it vouches (a hook process has none): the whole tree, as before', async () => {
    const t = tree();
    const w = await watching(t);
    await pastReady(t, w);
    hookSaves(t);
    changeIn(t.ws, 'src', 'later');
    await w.settle();
    const state = loadState(t.file)!;
    const before = fallbacks().byReason['state-not-held'] ?? 0;
    const sight = { token: w.token.bind(w), changedSince: w.changedSince.bind(w), covers: w.covers.bind(w) };
    assert.equal(watchedChanges(sight, t.file, state), undefined);
    assert.equal(fallbacks().byReason['state-not-held'], before + 1);
    await w.close();
  });
});

describe('a session start adopts the state its hook saved while the resident was starting', () => {
  it('scanned after the watch was ready: the baseline is that state brought up to date — what a walk finds — not a walk', async () => {
    const t = tree();
    const w = await watching(t);
    await pastReady(t, w);
    hookSaves(t); // the session's startup, recorded by its hook itself
    for (const d of FOLDERS) changeIn(t.ws, d, 'since');
    await w.settle();
    const before = watchedScans.adopted;
    const warm = watchedBaseline(t.o.storeDir, t.ws, 'hooked', w, t.o); // its resume, through the resident
    await w.close();
    assert.ok(warm, 'the hook-saved state is adopted: no walk');
    assert.equal(watchedScans.adopted - before, 1);
    const walked = baseline(t.ws, 'walk', { ...t.o, budgetMs: 1e9 }).state;
    assert.deepEqual(stateView(warm.state), stateView(walked), 'what a walk of the tree finds now');
  });

  it('scanned before the root was watched: no state to start from (the tree is walked)', async () => {
    const t = tree();
    hookSaves(t);
    await waitUntil(() => Date.now() > loadState(t.file)!.scanned + ADOPT_SLACK_MS, 'the clock past the scan and the slack');
    const w = await watching(t);
    changeIn(t.ws, 'src', 'since');
    await w.settle();
    const warm = watchedBaseline(t.o.storeDir, t.ws, 'hooked', w, t.o);
    await w.close();
    assert.equal(warm, null);
  });
});

// The resident's held scan states (core/capture/heldStates.ts): the state a step saved is used again
// only while the disk still holds exactly what it saved; anything else that wrote the state or its
// journal meanwhile — a hook that recorded by itself, a new baseline — makes the next step load it.
// A state written whole is held too, and so is one a scan found unchanged (not saved): each is then
// exactly what a load of the file gives.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { captureAfterShell, captureBeforeShell, captureSessionStart, holdCapture } from '../../src/core/capture/capture';
import type { CaptureContext } from '../../src/core/capture/capture';
import { holdScanStates, keepState, keepUnchanged, takeState } from '../../src/core/capture/heldStates';
import { journalFile, loadState, savePending, saveState, stateFile } from '../../src/core/scan/stateFile';
import { Store } from '../../src/core/store';
import { DirTable, type Entry, FileTable } from '../../src/core/scan/table';
import { F_PENDING, type ScanState } from '../../src/core/scan/types';
import { tempDir } from '../helpers/tmp';

const entry = (size: number): Entry => ({ size, mtime: 1, ctime: 1, ino: size, mode: 0o100644, hash: null, git: null, flags: 0 });

/** A state of 300 files saved whole under a new store folder; its file. */
function savedState(): string {
  const file = stateFile(tempDir('ar-held-'), 'sess');
  const files = new Map<string, Entry>();
  for (let i = 0; i < 300; i++) files.set(`f${i}`, entry(i));
  const s: ScanState = {
    v: 2,
    root: path.sep + 'ws',
    session: 'sess',
    created: 1,
    scanned: 2,
    git: null,
    dirTimes: true,
    files: new FileTable(files),
    dirs: new DirTable(new Map()),
    ignoreFiles: {},
  };
  assert.equal(saveState(file, s), 'whole');
  return file;
}

/** A step as capture runs one: take, change a row, save, give back. */
function step(file: string, rel: string, size: number): ScanState {
  const s = takeState(file)!;
  s.files.set(rel, entry(size));
  s.scanned++;
  saveState(file, s);
  keepState(file, s);
  return s;
}

/**
 * Everything a step reads of a state: the header's fields (the journal's base and the pending count
 * included), every row as the state file's columns — read without handing out a row (a row handed out
 * counts as changed: the next save would list it).
 */
function view(s: ScanState) {
  const { files, dirs, ...rest } = s;
  return { rest, files: files.columns(s.git?.objectFormat === 'sha256' ? 32 : 20, F_PENDING), dirs: dirs.columns() };
}

describe('held scan states', () => {
  holdScanStates();

  it('the state a step saved as a journal is the next step’s, while the disk holds what it saved', () => {
    const file = savedState();
    const first = step(file, 'a', 1);
    assert.equal(takeState(file), first, 'the same object: not read again');
    // Taken, not shared: a second take (nothing given back) reads the disk, which has the first step's save.
    const again = takeState(file)!;
    assert.notEqual(again, first);
    assert.equal(again.files.get('a')!.size, 1);
  });

  it('a state another process saved meanwhile is loaded, and what it saved is there', () => {
    const file = savedState();
    const mine = step(file, 'a', 1);
    const other = loadState(file)!; // a hook that recorded by itself
    other.files.set('b', entry(2));
    other.scanned = 99;
    assert.equal(saveState(file, other), 'journal');
    const next = takeState(file)!;
    assert.notEqual(next, mine);
    assert.deepEqual([next.files.get('a')!.size, next.files.get('b')!.size, next.scanned], [1, 2, 99]);
  });

  it('a state written whole is held too, and is what a load gives: its next save is a journal again', () => {
    const file = savedState();
    const s = takeState(file)!;
    for (let i = 0; i < 300; i++) s.files.get(`f${i}`)!.size = 7; // more rows than a journal lists
    s.files.set('new', { ...entry(1000), flags: 4 }); // a pending copy: the header counts it
    s.scanned = 50;
    assert.equal(saveState(file, s), 'whole');
    keepState(file, s);
    assert.equal(takeState(file), s, 'held, not read again');
    assert.deepEqual(view(s), view(loadState(file)!), 'what a load of the file gives');
    assert.equal(s.pendingAtLoad, 1);
    // Its tables are the written file's columns now: a few rows changed are a journal against the new file.
    s.files.set('f1', entry(1));
    assert.equal(saveState(file, s), 'journal');
    keepState(file, s);
    assert.equal(takeState(file), s);
    assert.deepEqual(view(s), view(loadState(file)!));
  });

  it('the in-flight call is read from its file at every take', () => {
    const file = savedState();
    const held = step(file, 'a', 1);
    savePending(file, { call: 'toolu_1', tool: 'Bash', time: 5, session: 'sess' });
    assert.equal(takeState(file), held);
    assert.equal(held.pending?.call, 'toolu_1');
    saveState(file, held);
    keepState(file, held);
    savePending(file, null);
    assert.equal(takeState(file), held);
    assert.equal(held.pending, undefined);
  });

  it('a state taken, then written by another process before it is given back unchanged, is loaded again', () => {
    const file = savedState();
    const s = takeState(file)!;
    const other = loadState(file)!; // a hook that did not wait for the lock
    other.files.set('b', entry(2));
    saveState(file, other);
    keepUnchanged(file, s, s.scanned); // nothing changed by this step: but the disk did since the take
    const next = takeState(file)!;
    assert.notEqual(next, s);
    assert.equal(next.files.get('b')!.size, 2);
  });
});

/** A workspace and a store beside it, one session's shell steps through capture as the resident runs them (no watcher). */
function session() {
  const root = tempDir('ar-held-cap-');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(ws, 'src', `f${i}.txt`), `file ${i}\n`);
  // Old times: no entry is racy, so a scan with nothing to find changes nothing.
  const old = new Date(Date.now() - 3600_000);
  for (const f of fs.readdirSync(path.join(ws, 'src'))) fs.utimesSync(path.join(ws, 'src', f), old, old);
  fs.utimesSync(path.join(ws, 'src'), old, old);
  fs.utimesSync(ws, old, old);
  const store = Store.open(path.join(root, 'store'), { create: true });
  const file = stateFile(store.dir, 's');
  /** One hook event: its own hold on the session's capture, settled once its lines are "appended". */
  const event = <T>(fn: (ctx: CaptureContext) => T): T => {
    const hold = holdCapture(store, 's');
    try {
      return fn({ hold, explicit: [ws] });
    } finally {
      hold.settle(true, (e) => {
        throw e;
      });
    }
  };
  let n = 0;
  const bash = (effect: () => void = () => {}) => {
    const call = { session: 's', tool: 'Bash', callId: `toolu_${++n}` };
    event((ctx) => captureBeforeShell(store, call, ws, ctx));
    effect();
    return event((ctx) => captureAfterShell(store, call, ctx));
  };
  return { ws, store, file, event, bash };
}

describe('held scan states through shell capture', () => {
  holdScanStates();

  it('after a scan that found nothing (not saved) the state is held as the disk has it: what a load gives, its `scanned` the saved one', () => {
    const c = session();
    c.event((ctx) => captureSessionStart(c.store, 's', c.ws, ctx));
    c.bash(() => fs.appendFileSync(path.join(c.ws, 'src', 'f1.txt'), 'changed\n'));
    const s = takeState(c.file)!;
    saveState(c.file, s); // given back as a step gives it back
    keepState(c.file, s);
    const stat = fs.statSync(c.file, { bigint: true });
    const journal = fs.statSync(journalFile(c.file), { throwIfNoEntry: false, bigint: true });
    assert.equal(c.bash().length, 0, 'a call that changed nothing records nothing');
    assert.deepEqual(fs.statSync(c.file, { bigint: true }), stat, 'the state file is not written');
    assert.deepEqual(fs.statSync(journalFile(c.file), { throwIfNoEntry: false, bigint: true }), journal, 'nor its journal');
    const again = takeState(c.file)!;
    assert.equal(again, s, 'held after the unchanged scans, not read again');
    assert.deepEqual(view(again), view(loadState(c.file)!), 'exactly what a load of the file gives');
  });

  it('a state held after an unchanged scan is read again once a hook saved it (a journal, or whole)', () => {
    const c = session();
    c.event((ctx) => captureSessionStart(c.store, 's', c.ws, ctx));
    c.bash();
    const s = takeState(c.file)!;
    saveState(c.file, s);
    keepState(c.file, s);
    c.bash();
    assert.equal(takeState(c.file), s, 'held after the unchanged scans');
    keepUnchanged(c.file, s, s.scanned);
    // A hook that recorded by itself: its own scan found a change, and saved it as a journal.
    const byHook = loadState(c.file)!;
    byHook.files.set('src/by-hook.txt', { ...byHook.files.get('src/f2.txt')! });
    byHook.scanned = s.scanned + 1;
    assert.equal(saveState(c.file, byHook), 'journal');
    const next = takeState(c.file)!;
    assert.notEqual(next, s, 'loaded again');
    assert.ok(next.files.has('src/by-hook.txt'));
    assert.deepEqual(view(next), view(loadState(c.file)!));
    // Held again, then a hook writes it whole.
    keepUnchanged(c.file, next, next.scanned);
    assert.equal(takeState(c.file), next);
    keepUnchanged(c.file, next, next.scanned);
    const whole = loadState(c.file)!;
    delete whole.journalBase; // written whole (a new id)
    whole.files.delete('src/f3.txt');
    assert.equal(saveState(c.file, whole), 'whole');
    const last = takeState(c.file)!;
    assert.notEqual(last, next);
    assert.equal(last.files.has('src/f3.txt'), false);
  });

  it('the baseline (written whole) is held for the first shell call, and a call that changed files is held after its save', () => {
    const c = session();
    c.event((ctx) => captureSessionStart(c.store, 's', c.ws, ctx));
    const base = takeState(c.file)!;
    assert.equal(takeState(c.file) === base, false, 'taken, not shared');
    saveState(c.file, base);
    keepState(c.file, base);
    const lines = c.bash(() => fs.appendFileSync(path.join(c.ws, 'src', 'f4.txt'), 'changed\n'));
    assert.deepEqual(
      lines.flatMap((l) => (l.t === 'snap' ? [path.relative(c.ws, l.path)] : [])),
      [path.join('src', 'f4.txt'), path.join('src', 'f4.txt')],
    );
    const after = takeState(c.file)!;
    assert.equal(after, base, 'the same state object all along');
    assert.deepEqual(view(after), view(loadState(c.file)!));
  });
});

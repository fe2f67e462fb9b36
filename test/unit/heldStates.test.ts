// The resident's held scan states (core/capture/heldStates.ts): the state a step saved is used again
// only while the disk still holds exactly what it saved; anything else that wrote the state or its
// journal meanwhile — a hook that recorded by itself, a new baseline — makes the next step load it.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { holdScanStates, keepState, takeState } from '../../src/core/capture/heldStates';
import { loadState, savePending, saveState, stateFile } from '../../src/core/scan/stateFile';
import { DirTable, type Entry, FileTable } from '../../src/core/scan/table';
import type { ScanState } from '../../src/core/scan/types';
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
  keepState(file, s, saveState(file, s));
  return s;
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

  it('a state written whole is not held; the in-flight call is read from its file at every take', () => {
    const file = savedState();
    const s = takeState(file)!;
    for (let i = 0; i < 300; i++) s.files.get(`f${i}`)!.size = 7; // more rows than a journal lists
    keepState(file, s, saveState(file, s));
    assert.notEqual(takeState(file), s, 'loaded again');
    const held = step(file, 'a', 1);
    savePending(file, { call: 'toolu_1', tool: 'Bash', time: 5, session: 'sess' });
    assert.equal(takeState(file), held);
    assert.equal(held.pending?.call, 'toolu_1');
    keepState(file, held, saveState(file, held));
    savePending(file, null);
    assert.equal(takeState(file), held);
    assert.equal(held.pending, undefined);
  });
});

// The scan state file and its tables: what is saved is what is loaded — through edits made to a
// loaded table (rows changed in place, deleted, added) and a second save — and a damaged file is
// no state at all, never a wrong one. A few rows changed are saved as the journal beside the state,
// and what loads is the same as if the whole state had been written.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { stateBlobs } from '../../src/core/scan/references';
import { journalFile, journalRows, loadState, readJournal, saveState, stateFile } from '../../src/core/scan/stateFile';
import { DirTable, type DirStat, type Entry, FileTable } from '../../src/core/scan/table';
import { F_PENDING, type ScanState } from '../../src/core/scan/types';
import { tempDir } from '../helpers/tmp';

const hex = (n: number, len: number) =>
  n
    .toString(16)
    .padStart(len, '0')
    .repeat(Math.ceil(len / 8))
    .slice(0, len);

function entry(i: number): Entry {
  return {
    size: i * 7,
    mtime: 1_700_000_000_000 + i + 0.25, // sub-millisecond times survive
    ctime: 1_700_000_000_500 + i,
    ino: 2 ** 40 + i, // beyond 32 bits
    mode: i % 3 === 0 ? 0o100755 : 0o100644,
    hash: i % 2 === 0 ? hex(i, 64) : null,
    git: i % 3 !== 2 ? hex(i + 1, 40) : null,
    flags: i % 8,
  };
}

function state(root: string, files: Map<string, Entry>, dirs: Map<string, DirStat>): ScanState {
  return {
    v: 2,
    root,
    session: 'sess',
    created: 1,
    scanned: 2,
    git: { top: root, gitDir: path.join(root, '.git'), objectFormat: 'sha1', filters: false, excludesFile: null },
    dirTimes: true,
    files: new FileTable(files),
    dirs: new DirTable(dirs),
    ignoreFiles: { '.gitignore': '1:2:3', '<global>': '-' },
  };
}

const plain = (t: Iterable<[string, Entry]>) => new Map([...t].map(([k, v]) => [k, { ...v }]));

describe('scan state file', () => {
  it('loads exactly what was saved, edits to a loaded table included', () => {
    const dir = tempDir('ar-scanstate-');
    const file = stateFile(dir, 'sess');
    const files = new Map<string, Entry>();
    for (let i = 0; i < 500; i++) files.set(i % 10 === 0 ? `dir ${i}/naïve-${i}.txt` : `src/f${i}.ts`, entry(i));
    const dirs = new Map<string, DirStat>([
      ['', { mtime: 1.5, ctime: 2, ino: 3, racy: false }],
      ['src', { mtime: 4, ctime: 5, ino: 2 ** 45, racy: true }],
    ]);
    saveState(file, state('/ws', files, dirs));
    const loaded = loadState(file)!;
    assert.deepEqual(plain(loaded.files), files);
    assert.deepEqual(new Map(loaded.dirs), dirs);
    assert.deepEqual([loaded.root, loaded.session, loaded.ignoreFiles], ['/ws', 'sess', { '.gitignore': '1:2:3', '<global>': '-' }]);

    // Edit the loaded table the way a scan does, save, load again.
    const expected = plain(loaded.files);
    loaded.files.get('src/f1.ts')!.hash = hex(999, 64); // a row changed in place
    expected.get('src/f1.ts')!.hash = hex(999, 64);
    loaded.files.delete('src/f2.ts');
    expected.delete('src/f2.ts');
    loaded.files.set('new/file.txt', entry(1000));
    expected.set('new/file.txt', entry(1000));
    loaded.files.set('src/f3.ts', entry(3000)); // replaced
    expected.set('src/f3.ts', entry(3000));
    loaded.dirs.delete('src');
    loaded.dirs.set('new', { mtime: 9, ctime: 9, ino: 9, racy: false });
    assert.equal(loaded.files.size, expected.size);
    saveState(file, loaded);
    const again = loadState(file)!;
    assert.deepEqual(plain(again.files), expected);
    assert.deepEqual([...again.dirs.keys()].sort(), ['', 'new']);
    // gc's view: exactly the sha256 ids of the rows that have one.
    assert.deepEqual(stateBlobs(file), new Set([...expected.values()].flatMap((e) => (e.hash ? [e.hash] : []))));
  });

  it('a truncated or garbled state is no state (the next hook takes a new baseline), never a wrong one', () => {
    const dir = tempDir('ar-scanstate-');
    const file = stateFile(dir, 'sess');
    saveState(
      file,
      state(
        '/ws',
        new Map([
          ['a', entry(1)],
          ['b', entry(2)],
        ]),
        new Map(),
      ),
    );
    const good = fs.readFileSync(file);
    fs.writeFileSync(file, good.subarray(0, good.length - 3));
    assert.equal(loadState(file), null, 'truncated');
    fs.writeFileSync(file, Buffer.concat([good, Buffer.from('xx')]));
    assert.equal(loadState(file), null, 'trailing bytes');
    fs.writeFileSync(file, 'ARSCAN2\n\xff\xff\xff\xff{');
    assert.equal(loadState(file), null, 'a header length past the end');
  });
});

/** A saved state of `n` files under `dir`, loaded back (its tables are the file's columns). */
function savedAndLoaded(dir: string, n: number): { file: string; loaded: ScanState } {
  const file = stateFile(dir, 'sess');
  const files = new Map<string, Entry>();
  for (let i = 0; i < n; i++) files.set(`src/f${i}.ts`, entry(i));
  const dirs = new Map<string, DirStat>([
    ['', { mtime: 1, ctime: 1, ino: 1, racy: false }],
    ['src', { mtime: 2, ctime: 2, ino: 2, racy: false }],
    ['old', { mtime: 3, ctime: 3, ino: 3, racy: true }],
  ]);
  assert.equal(saveState(file, state('/ws', files, dirs)), 'whole', 'a state built anew is written whole');
  return { file, loaded: loadState(file)! };
}

/** Everything a load gives, as plain values (rows copied: reading them here hands out no table rows). */
function contents(s: ScanState) {
  const rest = { ...s } as Partial<ScanState>;
  delete rest.files;
  delete rest.dirs;
  delete rest.journalBase;
  delete rest.pendingAtLoad;
  return { rest, files: plain(s.files), dirs: new Map([...s.dirs].map(([k, v]) => [k, { ...v }])) };
}

describe('scan state journal', () => {
  it('a few rows changed are saved as the journal (the state file untouched); the load is what a whole save gives', () => {
    // What a scan does: a row changed in place, one by its flags only, one deleted, one added, one
    // replaced; a folder gone, one new; the header's fields moved on.
    const edit = (s: ScanState) => {
      s.files.get('src/f1.ts')!.hash = hex(999, 64);
      s.files.setFlagsAt(5, 0x40);
      s.files.delete('src/f2.ts');
      s.files.set('new/file.txt', entry(1000));
      s.files.set('src/f3.ts', entry(3000));
      s.dirs.delete('old');
      s.dirs.set('new', { mtime: 9, ctime: 9, ino: 9, racy: false });
      s.scanned = 77;
      s.indexKey = 'k2';
      s.gitCache = { key: 'k2', gitlinks: [], watch: ['w'] };
      s.ignoreFiles = { '.gitignore': '4:5:6' };
    };
    const j = savedAndLoaded(tempDir('ar-scanjournal-'), 2000);
    const stateBytes = fs.readFileSync(j.file);
    edit(j.loaded);
    assert.equal(saveState(j.file, j.loaded), 'journal');
    assert.deepEqual(fs.readFileSync(j.file), stateBytes, 'the state file is not rewritten');
    assert.ok(fs.statSync(journalFile(j.file)).size < 4000, 'the journal holds the changed rows only');
    const viaJournal = contents(loadState(j.file)!);
    assert.equal(viaJournal.files.get('src/f5.ts')!.flags, 0x40);
    assert.equal(viaJournal.files.has('src/f2.ts'), false);
    assert.deepEqual([...viaJournal.dirs.keys()].sort(), ['', 'new', 'src']);
    assert.deepEqual(
      [viaJournal.rest.scanned, viaJournal.rest.indexKey, viaJournal.rest.ignoreFiles],
      [77, 'k2', { '.gitignore': '4:5:6' }],
    );
    // The same edits on the same state, written whole, load the same.
    const w = savedAndLoaded(tempDir('ar-scanjournal-'), 2000);
    edit(w.loaded);
    delete w.loaded.journalBase;
    assert.equal(saveState(w.file, w.loaded), 'whole');
    assert.deepEqual(contents(loadState(w.file)!), viaJournal);
  });

  it('the journal lists exactly the rows touched since the load, in the file’s row order: not those only read through the columns', () => {
    const { file, loaded: s } = savedAndLoaded(tempDir('ar-scanjournal-'), 1000);
    const pk = { size: 0, mtime: 0, ctime: 0, ino: 0, flags: 0, hasHash: false, hasGit: false };
    for (let i = 0; i < s.files.rows; i++) s.files.peek(i, pk); // a scan's stat check of every row: no row handed out
    s.files.hashAt(3);
    s.files.set('src/f900.ts', entry(9000)); // replaced
    void s.files.get('src/f7.ts'); // handed out: may be changed through the object
    s.files.setFlagsAt(500, 0x40); // changed in its columns
    s.files.delete('src/f20.ts');
    s.files.set('added.txt', entry(1));
    void s.dirs.get('src');
    assert.equal(saveState(file, s), 'journal');
    const j = readJournal(file)!;
    assert.deepEqual(
      j.files.map(([rel]) => rel),
      ['src/f7.ts', 'src/f500.ts', 'src/f900.ts', 'added.txt'],
    );
    assert.deepEqual(j.filesGone, ['src/f20.ts']);
    assert.deepEqual(
      j.dirs.map(([rel]) => rel),
      ['src'],
    );
  });

  it('journals accumulate against the same state file: load, change, save, again', () => {
    const dir = tempDir('ar-scanjournal-');
    const { file } = savedAndLoaded(dir, 1000);
    const expected = contents(loadState(file)!);
    for (let round = 0; round < 5; round++) {
      const s = loadState(file)!;
      s.files.set(`round/${round}.txt`, entry(round));
      expected.files.set(`round/${round}.txt`, entry(round));
      s.files.delete(`src/f${round}.ts`);
      expected.files.delete(`src/f${round}.ts`);
      s.scanned = 100 + round;
      expected.rest.scanned = 100 + round;
      assert.equal(saveState(file, s), 'journal', `round ${round}`);
    }
    assert.deepEqual(contents(loadState(file)!), expected);
  });

  it('past journalRows changed rows the whole state is written, with a new id, and the journal goes', () => {
    const dir = tempDir('ar-scanjournal-');
    const { file, loaded } = savedAndLoaded(dir, 1000);
    const before = fs.readFileSync(file);
    const base = loaded.journalBase;
    for (let i = 0; i <= journalRows(1000); i++) loaded.files.get(`src/f${i}.ts`)!.size = 1;
    assert.equal(saveState(file, loaded), 'whole');
    assert.ok(loaded.journalBase && loaded.journalBase !== base, 'the new file is the base of the next journal');
    assert.equal(loaded.journalBase, loadState(file)!.journalBase);
    assert.notDeepEqual(fs.readFileSync(file), before);
    assert.equal(fs.existsSync(journalFile(file)), false);
    assert.equal(loadState(file)!.files.get('src/f7.ts')!.size, 1);
  });

  it('written whole, the state in memory is what a load of the file gives: the rows written, the new base, the pending count', () => {
    const dir = tempDir('ar-scanjournal-');
    const file = stateFile(dir, 'sess');
    const files = new Map<string, Entry>();
    for (let i = 0; i < 600; i++) files.set(`src/f${i}.ts`, entry(i)); // flags i % 8: every 8th of 4..7 is a pending copy
    files.set('bad/id.txt', { ...entry(3), hash: 'not hex', git: 'ab' }); // ids a load cannot give back are not kept
    const s = state('/ws', files, new Map([['', { mtime: 1, ctime: 1, ino: 1, racy: false }]]));
    s.indexKey = 'k1';
    s.gitCache = { key: 'k1', gitlinks: [], watch: ['gone.txt'] };
    assert.equal(saveState(file, s), 'whole', 'built anew');
    const loaded = loadState(file)!;
    // Read as the file's columns: a row handed out would count as changed (listed by the next journal).
    const view = (t: ScanState) => {
      const { files: f, dirs: d, ...rest } = t;
      return { rest, files: f.columns(20, F_PENDING), dirs: d.columns() };
    };
    assert.deepEqual(view(s), view(loaded));
    assert.equal(s.pendingAtLoad, 300);
    assert.equal(s.files.columns(20, F_PENDING).paths.length, 601);
    // Its tables are the file's columns: a few rows changed are a journal, and loads the same.
    const again = loadState(file)!;
    for (const t of [s, again]) {
      t.files.set('src/f1.ts', entry(4242));
      t.files.delete('src/f2.ts');
      t.dirs.set('new', { mtime: 2, ctime: 2, ino: 2, racy: true });
    }
    assert.equal(saveState(file, s), 'journal');
    assert.deepEqual(contents(loadState(file)!), contents(again));
    assert.deepEqual([s.files.get('bad/id.txt')!.hash, s.files.get('bad/id.txt')!.git], [null, null]);
    // A state turned off is written whole without a base (never journaled).
    s.off = { reason: 'too-many-files', files: 9, limit: 1, message: 'off' };
    s.files.clear();
    s.dirs.clear();
    assert.equal(saveState(file, s), 'whole');
    assert.equal(s.journalBase, undefined);
    assert.equal(loadState(file)!.journalBase, undefined);
  });

  it('a journal of another state file (a crash between the whole save and its removal) is not applied', () => {
    const dir = tempDir('ar-scanjournal-');
    const { file, loaded } = savedAndLoaded(dir, 1000);
    loaded.files.set('from/old/base.txt', entry(1));
    assert.equal(saveState(file, loaded), 'journal');
    const staleJournal = fs.readFileSync(journalFile(file));
    const s = loadState(file)!;
    s.dirs = new DirTable(new Map([['', { mtime: 5, ctime: 5, ino: 5, racy: false }]])); // a table built anew
    assert.equal(saveState(file, s), 'whole', 'a table built anew is written whole');
    fs.writeFileSync(journalFile(file), staleJournal);
    const again = loadState(file)!;
    assert.equal(again.files.has('from/old/base.txt'), true, 'written whole with the row');
    assert.deepEqual([...again.dirs.keys()], [''], 'the stale journal’s folders are not applied');
  });

  it('gc keeps the blobs a journal refers to', () => {
    const dir = tempDir('ar-scanjournal-');
    const { file, loaded } = savedAndLoaded(dir, 100);
    loaded.files.set('new.txt', { ...entry(1), hash: hex(4242, 64) });
    assert.equal(saveState(file, loaded), 'journal');
    assert.ok(stateBlobs(file)!.has(hex(4242, 64)));
  });
});

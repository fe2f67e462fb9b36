// The scan state file and its tables: what is saved is what is loaded — through edits made to a
// loaded table (rows changed in place, deleted, added) and a second save — and a damaged file is
// no state at all, never a wrong one.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { stateBlobs } from '../../src/core/scan/references';
import { loadState, saveState, stateFile } from '../../src/core/scan/stateFile';
import { DirTable, type DirStat, type Entry, FileTable } from '../../src/core/scan/table';
import type { ScanState } from '../../src/core/scan/types';
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

// diskKind (the counts' probe of the disk: stat and open, no read) tells what readDisk would find, in every shape a
// recorded path can take, so a checkpoint's count and its plan agree.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { diskKind, readDisk } from '../../src/core/workspace/disk';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-diskkind-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('diskKind', () => {
  it('says what readDisk finds, without reading: missing, file, empty, too large, symlink, dangling link, folder, fifo', () => {
    const at = (name: string) => path.join(dir, name);
    fs.writeFileSync(at('file'), 'hello');
    fs.writeFileSync(at('empty'), '');
    fs.writeFileSync(at('big'), 'x'.repeat(100));
    fs.symlinkSync('file', at('link'));
    fs.symlinkSync('nowhere', at('dangling'));
    fs.mkdirSync(at('folder'));
    execFileSync('mkfifo', [at('fifo')]);
    const names = ['file', 'empty', 'big', 'link', 'dangling', 'folder', 'fifo', 'missing', 'missing/deeper', 'file/under-a-file'];
    const kinds = names.map((n) => [n, diskKind(at(n), 50)]);
    assert.deepEqual(
      kinds,
      names.map((n) => [n, readDisk(at(n), 50).kind]),
    );
    assert.deepEqual(Object.fromEntries(kinds), {
      file: 'file',
      empty: 'file',
      big: 'too-large',
      link: 'symlink',
      dangling: 'symlink',
      folder: 'other',
      fifo: 'other',
      missing: 'missing',
      'missing/deeper': 'missing',
      'file/under-a-file': 'missing',
    });
  });
});

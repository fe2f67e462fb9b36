// The Windows-specific path code, pinned on any machine with path.win32: drive letters in either case,
// forward or back slashes, long-path (`\\?\`) and UNC forms name one file; drive-relative paths are
// bad input; the rewind's scoped plan and the unsaved-editor match use the same identity.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { checkAbsolutePath, isInside, pathKey } from '../../src/core/paths';
import { unsavedAmong } from '../../src/extension/model/unsavedPaths';

const W = path.win32;

describe('Windows paths (path.win32)', () => {
  it('a drive letter in either case, either slash, and the long-path prefix name one file', () => {
    const forms = [
      'C:\\Repo\\src\\a.ts',
      'c:\\repo\\SRC\\A.ts',
      'C:/Repo/src/a.ts',
      '\\\\?\\C:\\Repo\\src\\a.ts',
      '\\\\?\\c:\\repo\\src\\a.ts',
    ];
    assert.deepEqual(new Set(forms.map((f) => pathKey(f, 'win32'))), new Set(['c:\\repo\\src\\a.ts']));
    assert.equal(pathKey(W.join('C:\\Repo', 'src', 'a.ts'), 'win32'), 'c:\\repo\\src\\a.ts');
    assert.notEqual(pathKey('D:\\Repo\\src\\a.ts', 'win32'), pathKey('C:\\Repo\\src\\a.ts', 'win32'), 'another drive is another file');
  });

  it('UNC shares, with or without the long-path prefix, name one file', () => {
    assert.equal(pathKey('\\\\?\\UNC\\Server\\Share\\x.txt', 'win32'), pathKey('\\\\server\\share\\X.txt', 'win32'));
    assert.equal(pathKey('//server/share/x.txt', 'win32'), '\\\\server\\share\\x.txt');
  });

  it('inside a workspace folder whatever the form; a sibling with a common prefix is not inside', () => {
    assert.equal(isInside('\\\\?\\C:\\Repo\\src\\a.ts', 'c:\\repo', 'win32'), true);
    assert.equal(isInside('C:/Repo/src/a.ts', 'C:\\Repo\\', 'win32'), true);
    assert.equal(isInside('C:\\Repo2\\a.ts', 'C:\\Repo', 'win32'), false);
    assert.equal(isInside('D:\\Repo\\a.ts', 'C:\\Repo', 'win32'), false);
  });

  it('agent paths: absolute with a drive or UNC; drive-relative and relative are bad input; folded lexically', () => {
    assert.equal(checkAbsolutePath('C:\\Repo\\src\\..\\a.ts', 'win32'), 'C:\\Repo\\a.ts');
    assert.equal(checkAbsolutePath('C:/Repo/a.ts', 'win32'), 'C:\\Repo\\a.ts');
    assert.equal(checkAbsolutePath('\\\\server\\share\\a.ts', 'win32'), '\\\\server\\share\\a.ts');
    assert.equal(checkAbsolutePath('\\\\?\\C:\\Repo\\a.ts', 'win32'), '\\\\?\\C:\\Repo\\a.ts');
    assert.equal(checkAbsolutePath('C:\\Repo\\', 'win32'), 'C:\\Repo');
    assert.equal(checkAbsolutePath('C:\\', 'win32'), 'C:\\', 'a drive root keeps its separator');
    for (const bad of ['\\Repo\\a.ts', 'C:Repo\\a.ts', 'Repo\\a.ts', 'C:\\a\0b']) assert.equal(checkAbsolutePath(bad, 'win32'), null, bad);
  });

  it('an unsaved editor is found whatever form VS Code and the agent each use', () => {
    const rewound = ['C:\\Repo\\src\\a.ts', '\\\\?\\C:\\Repo\\b.ts', 'C:\\Repo\\c.ts'];
    const dirty = ['c:\\repo\\src\\a.ts', 'c:/Repo/B.ts'];
    assert.deepEqual(unsavedAmong(rewound, dirty, 'win32'), ['C:\\Repo\\src\\a.ts', '\\\\?\\C:\\Repo\\b.ts']);
  });
});

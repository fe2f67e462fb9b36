import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAbsolutePath, isInside, pathKey } from '../../src/core/paths';

describe('path checks', () => {
  it('accepts absolute paths and folds . and .. lexically', () => {
    assert.equal(checkAbsolutePath('/a/b/../c/./d', 'posix'), '/a/c/d');
    assert.equal(checkAbsolutePath('/a/b/', 'posix'), '/a/b');
  });
  it('rejects relative, empty, NUL-containing and non-string paths', () => {
    for (const bad of ['a/b', './x', '', '/a\0b', 42, null, undefined, {}])
      assert.equal(checkAbsolutePath(bad, 'posix'), null, String(bad));
  });
  it('treats a Windows path as bad input on POSIX and as a path on Windows', () => {
    assert.equal(checkAbsolutePath('C:\\Users\\me\\a.txt', 'posix'), null);
    assert.equal(checkAbsolutePath('C:\\Users\\me\\..\\a.txt', 'win32'), 'C:\\Users\\a.txt');
    assert.equal(checkAbsolutePath('\\Users\\a.txt', 'win32'), null, 'drive-relative');
  });
  it('folds case on case-insensitive platforms only', () => {
    assert.equal(pathKey('/A/b.TXT', 'linux'), '/A/b.TXT');
    assert.equal(pathKey('/A/b.TXT', 'darwin'), '/a/b.txt');
    assert.equal(pathKey('C:/A/B', 'win32'), 'c:\\a\\b');
    assert.equal(isInside('/Work/App/x', '/work/app', 'darwin'), true);
    assert.equal(isInside('/Work/App/x', '/work/app', 'linux'), false);
  });
  it('does not count a sibling with a common prefix as inside', () => {
    assert.equal(isInside('/work/app2/x', '/work/app', 'linux'), false);
    assert.equal(isInside('/work/app', '/work/app', 'linux'), true);
  });
});

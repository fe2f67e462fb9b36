import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unsavedAmong } from '../../src/extension/model/unsavedPaths';

describe('unsaved work among a rewind’s paths', () => {
  it('matches Windows paths whatever the drive letter case and separators', () => {
    const wanted = ['C:\\Users\\me\\app\\src\\a.ts', 'C:\\Users\\me\\app\\b.ipynb', 'C:\\Users\\me\\app\\c.txt'];
    // VS Code reports a lower-case drive letter (file:///c%3A/...) where the agent sent an upper-case one.
    const dirty = ['c:\\Users\\me\\app\\src\\a.ts', 'c:/users/ME/app/b.ipynb'];
    assert.deepEqual(unsavedAmong(wanted, dirty, 'win32'), ['C:\\Users\\me\\app\\src\\a.ts', 'C:\\Users\\me\\app\\b.ipynb']);
  });
  it('keeps case on Linux, where two names differing in case are two files', () => {
    assert.deepEqual(unsavedAmong(['/w/A.txt', '/w/b.txt'], ['/w/a.txt', '/w/b.txt', '/w/b.txt'], 'linux'), ['/w/b.txt']);
  });
});

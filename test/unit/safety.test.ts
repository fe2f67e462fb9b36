import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Change } from '../../src/core/timeline/changeSet';
import { checkOne, checkSafety } from '../../src/core/rewind/safety';
import { h } from '../helpers/records';

const change = (from: Partial<Change['from']>): Change => ({
  path: '/w/a',
  action: 'restore',
  from: { hash: h('a1'), mtime: 10, size: 2, seq: 1, phase: 'after', ...from },
  to: { hash: h('a0'), seq: 0, phase: 'before' },
  sessions: ['s'],
});

describe('safety check', () => {
  it('passes when disk matches the last record', () => {
    assert.equal(checkOne(change({}), { kind: 'file', hash: h('a1'), mtime: 10, size: 2 }), null);
  });
  it('refuses on content drift', () => {
    assert.deepEqual(checkOne(change({}), { kind: 'file', hash: h('user'), mtime: 11 }), { path: '/w/a', reason: 'modified-outside' });
  });
  it('only warns when content is equal but the mtime changed', () => {
    assert.deepEqual(checkOne(change({}), { kind: 'file', hash: h('a1'), mtime: 99 }), { path: '/w/a', reason: 'touched' });
  });
  it('refuses when a recorded file was deleted, or a recorded absence was filled', () => {
    assert.equal(checkOne(change({}), { kind: 'missing' })?.reason, 'deleted-outside');
    assert.equal(checkOne(change({ hash: null }), { kind: 'file', hash: h('x') })?.reason, 'created-outside');
    assert.equal(checkOne(change({ hash: null }), { kind: 'missing' }), null);
  });
  it('refuses when a file became a folder or a symlink', () => {
    assert.equal(checkOne(change({}), { kind: 'other' })?.reason, 'modified-outside');
    assert.equal(checkOne(change({}), { kind: 'symlink', hash: h('a1') })?.reason, 'modified-outside');
  });
  it('compares size and mtime for content that was too large to store', () => {
    const c = change({ hash: null, skipped: 'too-large', size: 5, mtime: 7 });
    assert.equal(checkOne(c, { kind: 'file', size: 5, mtime: 7 }), null);
    assert.equal(checkOne(c, { kind: 'file', size: 6, mtime: 7 })?.reason, 'modified-outside');
  });
  it('splits results into blocked and warnings', () => {
    const r = checkSafety(
      [change({}), { ...change({}), path: '/w/b' }],
      new Map([
        ['/w/a', { kind: 'file', hash: h('u') }],
        ['/w/b', { kind: 'file', hash: h('a1'), mtime: 1 }],
      ] as const),
    );
    assert.deepEqual(
      r.blocked.map((b) => b.path),
      ['/w/a'],
    );
    assert.deepEqual(
      r.warnings.map((w) => w.path),
      ['/w/b'],
    );
  });
});

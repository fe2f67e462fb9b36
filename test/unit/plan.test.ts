import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeChanges } from '../../src/core/timeline/changeSet';
import { checkpoints } from '../../src/core/timeline/timeline';
import { h, LogBuilder } from '../helpers/records';

const cp = (b: LogBuilder, id: string) => checkpoints(b.records()).find((c) => c.id === id)!;

describe('computeChanges', () => {
  it('restores edited files, deletes created ones, recreates deleted ones, leaves unchanged ones alone', () => {
    const b = new LogBuilder()
      .snap('/w/kept', h('k0'), 'before')
      .snap('/w/kept', h('k1'), 'after')
      .snap('/w/gone', h('g0'), 'after')
      .checkpoint('C1')
      .snap('/w/edit', h('e0'), 'before')
      .snap('/w/edit', h('e1'), 'after')
      .snap('/w/new', null, 'before')
      .snap('/w/new', h('n1'), 'after')
      .snap('/w/gone', h('g0'), 'before')
      .snap('/w/gone', null, 'after');
    const set = computeChanges(b.records(), cp(b, 'C1'));
    assert.deepEqual(
      set.changes.map((c) => [c.path, c.action]),
      [
        ['/w/edit', 'restore'],
        ['/w/gone', 'recreate'],
        ['/w/new', 'delete'],
      ],
    );
    assert.equal(set.changes.find((c) => c.path === '/w/edit')!.to.hash, h('e0'));
  });

  it('a file changed and changed back after the target is not written', () => {
    const b = new LogBuilder()
      .checkpoint('C1')
      .snap('/w/a', h('a0'), 'before')
      .snap('/w/a', h('a1'), 'after')
      .snap('/w/a', h('a1'), 'before')
      .snap('/w/a', h('a0'), 'after');
    assert.equal(computeChanges(b.records(), cp(b, 'C1')).changes.length, 0);
  });

  it('lists irreversible and compensatable calls after the target only, never read-only ones', () => {
    const b = new LogBuilder()
      .call('Bash', 'git commit -m one', 'compensatable', { compensation: 'git reset --soft abc' })
      .checkpoint('PUSH', 'before-tool')
      .call('Bash', 'git push', 'irreversible', { severity: 'high' })
      .call('Read', '/w/a', 'none')
      .call('Bash', 'mystery-tool', 'irreversible', { severity: 'low' });
    const set = computeChanges(b.records(), cp(b, 'PUSH'));
    assert.deepEqual(
      set.notUndone.map((n) => [n.summary, n.effect, n.severity]),
      [
        ['git push', 'irreversible', 'high'],
        ['mystery-tool', 'irreversible', 'low'],
      ],
    );
  });

  it('with a session filter, a path both sessions changed is a conflict and the other session is untouched', () => {
    const b = new LogBuilder()
      .checkpoint('C1')
      .snap('/w/mine', h('m0'), 'before', { session: 'A' })
      .snap('/w/mine', h('m1'), 'after', { session: 'A' })
      .snap('/w/theirs', h('t0'), 'before', { session: 'B' })
      .snap('/w/theirs', h('t1'), 'after', { session: 'B' })
      .snap('/w/both', h('b0'), 'before', { session: 'A' })
      .snap('/w/both', h('b1'), 'after', { session: 'A' })
      .snap('/w/both', h('b1'), 'before', { session: 'B' })
      .snap('/w/both', h('b2'), 'after', { session: 'B' });
    const all = computeChanges(b.records(), cp(b, 'C1'));
    assert.deepEqual(all.sessions, ['A', 'B']);
    assert.equal(all.changes.length, 3);
    const onlyA = computeChanges(b.records(), cp(b, 'C1'), { sessions: ['A'] });
    assert.deepEqual(
      onlyA.changes.map((c) => c.path),
      ['/w/mine'],
    );
    assert.deepEqual(onlyA.conflicts, [{ path: '/w/both', sessions: ['A', 'B'] }]);
  });

  it('one agent session, a rewind and more work: the only session is the agent’s, and choosing it writes every file', () => {
    const b = new LogBuilder()
      .checkpoint('C1')
      .snap('/w/a', h('a0'), 'before', { session: 'A' })
      .snap('/w/a', h('a1'), 'after', { session: 'A' })
      .snap('/w/b', h('b0'), 'before', { session: 'A' })
      .snap('/w/b', h('b1'), 'after', { session: 'A' })
      .checkpoint('C2')
      .snap('/w/a', h('a1'), 'pre-rewind')
      .checkpoint('R', 'rewind')
      .snap('/w/a', h('a0'), 'rewind')
      .snap('/w/a', h('a0'), 'before', { session: 'A' })
      .snap('/w/a', h('a2'), 'after', { session: 'A' })
      .snap('/w/c', h('c0'), 'pre-rewind')
      .checkpoint('R2', 'rewind')
      .snap('/w/c', h('c1'), 'rewind');
    const all = computeChanges(b.records(), cp(b, 'C1'));
    assert.deepEqual(all.sessions, ['A']);
    assert.deepEqual(
      all.changes.map((c) => [c.path, c.sessions]),
      [
        ['/w/a', ['A']],
        ['/w/b', ['A']],
        ['/w/c', []],
      ],
    );
    const onlyA = computeChanges(b.records(), cp(b, 'C1'), { sessions: ['A'] });
    assert.deepEqual(
      onlyA.changes.map((c) => c.path),
      ['/w/a', '/w/b'],
    );
    assert.deepEqual(onlyA.conflicts, []);
    assert.deepEqual(onlyA.leftAlone, []);
  });

  it('counts a rewind’s own writes as no session’s, and restricts to given paths', () => {
    const b = new LogBuilder()
      .checkpoint('C1')
      .snap('/w/a', h('a0'), 'before')
      .snap('/w/a', h('a1'), 'after')
      .snap('/w/b', h('b0'), 'before')
      .snap('/w/b', h('b1'), 'after')
      .snap('/w/a', h('a1'), 'pre-rewind')
      .checkpoint('R', 'rewind')
      .snap('/w/a', h('a0'), 'rewind');
    const set = computeChanges(b.records(), cp(b, 'C1'), { paths: ['/w/b'] });
    assert.deepEqual(
      set.changes.map((c) => c.path),
      ['/w/b'],
    );
    const undo = computeChanges(b.records(), cp(b, 'R'));
    assert.deepEqual(
      undo.changes.map((c) => [c.path, c.to.hash, c.sessions]),
      [['/w/a', h('a1'), []]],
    );
    assert.deepEqual(undo.sessions, []);
  });

  it('lists what it cannot restore: too large at the target, unknown at the target, outside the workspace', () => {
    const b = new LogBuilder()
      .snap('/w/big', null, 'after', { skipped: 'too-large', size: 99, mtime: 5 })
      .checkpoint('C1')
      .snap('/w/big', null, 'before', { skipped: 'too-large', size: 99, mtime: 5 })
      .snap('/w/big', h('small'), 'after')
      .snap('/w/postonly', h('p1'), 'after')
      .snap('/etc/passwd', h('x0'), 'before')
      .snap('/etc/passwd', h('x1'), 'after');
    const set = computeChanges(b.records(), cp(b, 'C1'), { allowed: (p) => p.startsWith('/w/') });
    assert.deepEqual(set.notRestorable, [
      { path: '/etc/passwd', reason: 'outside-workspace' },
      { path: '/w/big', reason: 'too-large' },
      { path: '/w/postonly', reason: 'unknown-at-target' },
    ]);
    assert.equal(set.changes.length, 0);
  });
});

// Finer than a turn: the state just before one tool call (core/timeline/timeline.ts beforeCallTarget with
// core/timeline/changeSet.ts computeChanges). A rewind there keeps what earlier calls of the turn wrote and undoes
// the call and every later one; its place in the turn is known ("step 2 of 3").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeChanges } from '../../src/core/timeline/changeSet';
import { beforeCallTarget, callChanges } from '../../src/core/timeline/timeline';
import { h, LogBuilder } from '../helpers/records';

/** One turn with three Writes (each: call line, before, after), then a push. */
function turn(): LogBuilder {
  const b = new LogBuilder().checkpoint('P1');
  for (const [n, f] of [
    [1, '/w/a'],
    [2, '/w/b'],
    [3, '/w/a'],
  ] as const) {
    b.call('Write', f, 'rewindable', { call: `c${n}` })
      .snap(f, n === 3 ? h('a1') : null, 'before', { call: `c${n}` })
      .snap(f, h(`${f.slice(3)}${n}`), 'after', { call: `c${n}`, origin: 'agent' });
  }
  return b.call('Bash', 'git push', 'irreversible', { call: 'c4', severity: 'high' });
}

describe('the state just before a tool call', () => {
  it('before the second of three writes: the first stays, the second and third are undone', () => {
    const records = turn().records();
    const t = beforeCallTarget(records, 'c2')!;
    assert.deepEqual(t.call && [t.call.step, t.call.of, t.call.tool], [2, 4, 'Write']);
    const set = computeChanges(records, t);
    assert.deepEqual(
      set.changes.map((c) => [c.path, c.action, c.to.hash]),
      [
        ['/w/a', 'restore', h('a1')],
        ['/w/b', 'delete', null],
      ],
    );
    assert.deepEqual(
      set.notUndone.map((n) => n.summary),
      ['git push'],
    );
  });

  it('before the first call is the turn’s own checkpoint state; before the push, only the push is not undone', () => {
    const records = turn().records();
    const first = computeChanges(records, beforeCallTarget(records, 'c1')!);
    assert.deepEqual(first.changes.map((c) => [c.path, c.action]).sort(), [
      ['/w/a', 'delete'],
      ['/w/b', 'delete'],
    ]);
    const push = computeChanges(records, beforeCallTarget(records, 'c4')!);
    assert.deepEqual(push.changes, []);
    assert.deepEqual(
      push.notUndone.map((n) => n.summary),
      ['git push'],
      'the call itself is among what the rewind cannot undo',
    );
  });

  it('an unknown call id has no target', () => {
    assert.equal(beforeCallTarget(turn().records(), 'nope'), null);
  });

  it('each call’s own files: its before and after snapshots, per path (what a step’s diff shows)', () => {
    const b = turn();
    // A call that named a file but left it as it was has no change to show.
    b.call('Edit', '/w/b', 'rewindable', { call: 'c5' })
      .snap('/w/b', h('b2'), 'before', { call: 'c5' })
      .snap('/w/b', h('b2'), 'after', { call: 'c5', origin: 'agent' });
    const steps = callChanges(b.records());
    assert.deepEqual(
      [...steps].map(([call, files]) => [call, files.map((f) => [f.path, f.from ? f.from.hash : 'unknown', f.to.hash])]),
      [
        ['c1', [['/w/a', null, h('a1')]]],
        ['c2', [['/w/b', null, h('b2')]]],
        ['c3', [['/w/a', h('a1'), h('a3')]]],
      ],
    );
  });
});

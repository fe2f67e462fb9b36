import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldRows, foldsOf, sameStateAsPrevious } from '../../src/core/timeline/folding';
import { checkpoints, stateAt } from '../../src/core/timeline/timeline';
import { h, LogBuilder } from '../helpers/records';

// The demo's shape: every prompt in a resumed session, a checkpoint before `git push` taken before the turn changed anything.
const demo = new LogBuilder()
  .checkpoint('S1', 'session-start', { label: 'Session started (startup)' })
  .snap('/w/a', h('a0'), 'baseline')
  .checkpoint('P1')
  .snap('/w/a', h('a0'), 'before')
  .snap('/w/a', h('a1'), 'after')
  .checkpoint('S2', 'session-start', { label: 'Session started (resume)' })
  .snap('/w/a', h('a1'), 'observed')
  .checkpoint('P2')
  .checkpoint('T1', 'before-tool', { label: 'Bash: git commit' })
  .snap('/w/b', null, 'before')
  .snap('/w/b', h('b1'), 'after')
  .checkpoint('T2', 'before-tool', { label: 'Bash: git push' })
  .checkpoint('S3', 'session-start', { label: 'Session started (resume)' })
  .snap('/w/c', h('c0'), 'observed')
  .checkpoint('P3');

describe('folding rows of identical workspace state', () => {
  it('a checkpoint is the same as the previous one exactly when its state (stateAt) is', () => {
    const records = demo.records();
    const cps = checkpoints(records);
    const key = (seq: number) => JSON.stringify([...stateAt(records, seq)].map(([p, s]) => [p, s.hash]).sort());
    const expected = cps
      .slice(1)
      .filter((c, i) => key(c.seq) === key(cps[i]!.seq))
      .map((c) => c.id);
    assert.deepEqual([...sameStateAsPrevious(records)], expected);
    assert.deepEqual(expected, ['P1', 'P2', 'T1', 'S3', 'P3']);
  });

  it('a session start folds into its prompt, a before-call row into its prompt; prompts never fold', () => {
    const { into, held } = foldsOf(demo.records());
    assert.deepEqual(Object.fromEntries(into), { S1: 'P1', S2: 'P2', S3: 'P3', T1: 'P2' });
    assert.deepEqual(
      [...held].map(([host, list]) => [host, list.map((c) => c.id)]),
      [
        ['P1', ['S1']],
        ['P2', ['S2', 'T1']],
        ['P3', ['S3']],
      ],
    );
    // T2 comes after the turn wrote /w/b: a row of its own (a file first seen at S3 was there at S3 already).
    assert.equal(into.has('T2'), false);
  });

  it('a user edit seen between the start and the prompt keeps the start its own row', () => {
    const records = new LogBuilder()
      .checkpoint('S', 'session-start')
      .snap('/w/a', h('a0'), 'baseline')
      .snap('/w/a', h('a9'), 'observed')
      .checkpoint('P')
      .records();
    assert.equal(foldsOf(records).into.size, 0);
  });

  it('content of unknown state (too large) never counts as identical', () => {
    const records = new LogBuilder()
      .checkpoint('P')
      .snap('/w/big', null, 'before', { skipped: 'too-large' })
      .checkpoint('T', 'before-tool')
      .records();
    assert.deepEqual([...sameStateAsPrevious(records)], []);
  });

  it('only neighbours of the same session fold; rewinds and manual checkpoints stay rows', () => {
    const cps = checkpoints(
      new LogBuilder()
        .checkpoint('P', 'prompt', { session: 'a' })
        .checkpoint('T', 'before-tool', { session: 'b' })
        .checkpoint('S', 'session-start', { session: 'a' })
        .checkpoint('Q', 'prompt', { session: 'b' })
        .checkpoint('R', 'rewind')
        .checkpoint('M', 'manual')
        .records(),
    );
    const all = new Set(cps.map((c) => c.id));
    assert.deepEqual([...foldRows(cps, all).into], []);
  });
});

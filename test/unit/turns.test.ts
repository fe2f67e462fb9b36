import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeChanges } from '../../src/core/timeline/changeSet';
import { checkpoints } from '../../src/core/timeline/timeline';
import { describeSummary, groupTurns, turnChanges } from '../../src/core/timeline/turns';
import { h, LogBuilder } from '../helpers/records';

// Two sessions; the second prompt's turn edits three files, one of them after a checkpoint before `git push`.
const b = new LogBuilder()
  .checkpoint('S', 'session-start', { label: 'Session started' })
  .snap('/w/a', h('a0'), 'baseline')
  .checkpoint('P1')
  .snap('/w/a', h('a0'), 'before')
  .snap('/w/a', h('a1'), 'after')
  .checkpoint('P2')
  .snap('/w/b', null, 'before')
  .snap('/w/b', h('b1'), 'after')
  .checkpoint('T', 'before-tool', { label: 'Bash: git push' })
  .snap('/w/c', h('c0'), 'before')
  .snap('/w/c', h('c1'), 'after')
  .snap('/w/a', h('a1'), 'before')
  .snap('/w/a', h('a2'), 'after')
  .checkpoint('S2', 'session-start', { label: 'Session started (resume)', session: 's2' })
  .checkpoint('M', 'manual');
const records = b.records();
const turns = groupTurns(checkpoints(records));
const ids = turns.map((t) => [t.head.id, t.inside.map((c) => c.id), t.sessionStart?.id]);

describe('turns', () => {
  it('one row per prompt: before-tool checkpoints inside their turn, the session start folded into its first prompt', () => {
    assert.deepEqual(ids, [
      ['P1', [], 'S'],
      ['P2', ['T'], undefined],
      ['S2', [], undefined],
      ['M', [], undefined],
    ]);
  });

  it("a turn's own edits include those after the checkpoints inside it", () => {
    const p2 = turns[1]!;
    const files = turnChanges(records, p2);
    assert.deepEqual(
      files.map((f) => [f.path, f.from?.hash ?? null, f.to.hash]),
      [
        ['/w/a', h('a1'), h('a2')],
        ['/w/b', null, h('b1')],
        ['/w/c', h('c0'), h('c1')],
      ],
    );
    assert.deepEqual(
      turnChanges(records, turns[0]!).map((f) => f.path),
      ['/w/a'],
    );
  });

  it('says the count the way the preview does', () => {
    const p2 = turns[1]!.head;
    const s = { total: 0, restore: 0, delete: 0, recreate: 0 };
    for (const c of computeChanges(records, p2).changes) {
      s.total++;
      s[c.action]++;
    }
    assert.equal(describeSummary(s), '3 files will change: 2 restored, 1 deleted');
    assert.match(describeSummary({ total: 0, restore: 0, delete: 0, recreate: 0 }), /changes nothing/);
  });
});

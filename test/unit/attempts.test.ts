import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { attemptOfPoint, buildAttempts, lineView, ownWork, ownWorkOfAll } from '../../src/core/timeline/attempts';
import { recordedChanges, resolvePoint } from '../../src/core/timeline/compare';
import { Store } from '../../src/core/store';
import { h, LogBuilder } from '../helpers/records';
import { tempDir } from '../helpers/tmp';

/** Prompt, work, rewind to the prompt, prompt differently: the sequence every attempt starts with. */
function twoAttempts(): LogBuilder {
  return new LogBuilder()
    .checkpoint('S', 'session-start')
    .checkpoint('P1', 'prompt', { agent: 'claude' })
    .snap('/w/a', h('a0'), 'before')
    .snap('/w/a', h('a1'), 'after')
    .snap('/w/b', null, 'before')
    .snap('/w/b', h('b1'), 'after')
    .snap('/w/a', h('a1'), 'pre-rewind')
    .snap('/w/b', h('b1'), 'pre-rewind')
    .checkpoint('R1', 'rewind', { target: 'P1' })
    .snap('/w/a', h('a0'), 'rewind')
    .snap('/w/b', null, 'rewind')
    .checkpoint('P2', 'prompt', { agent: 'claude', session: 's2' })
    .snap('/w/a', h('a0'), 'before', { session: 's2' })
    .snap('/w/a', h('a2'), 'after', { session: 's2' })
    .snap('/w/c', null, 'before', { session: 's2' })
    .snap('/w/c', h('c2'), 'after', { session: 's2' });
}

const shape = (records: ReturnType<LogBuilder['records']>) =>
  buildAttempts(records).attempts.map((a) => ({
    n: a.n,
    parent: a.parent,
    branchedAt: a.branchedAt,
    prompts: a.prompts.map((p) => p.id),
    files: a.files,
    end: a.end?.id,
    current: a.current,
  }));

describe('attempts', () => {
  it('a log without rewinds is one attempt in progress', () => {
    const b = new LogBuilder().checkpoint('P1').snap('/w/a', h('a1')).checkpoint('P2').snap('/w/b', h('b1'));
    const tree = buildAttempts(b.records());
    assert.equal(tree.current, 1);
    assert.deepEqual(shape(b.records()), [
      { n: 1, parent: undefined, branchedAt: undefined, prompts: ['P1', 'P2'], files: ['/w/a', '/w/b'], end: undefined, current: true },
    ]);
  });

  it('a rewind followed by new work starts a new attempt branching at the target; the earlier one ends at the rewind', () => {
    const records = twoAttempts().records();
    assert.deepEqual(shape(records), [
      { n: 1, parent: undefined, branchedAt: undefined, prompts: ['P1'], files: ['/w/a', '/w/b'], end: 'R1', current: false },
      { n: 2, parent: 1, branchedAt: 'P1', prompts: ['P2'], files: ['/w/a', '/w/c'], end: undefined, current: true },
    ]);
    const tree = buildAttempts(records);
    assert.equal(tree.current, 2);
    const second = tree.attempts[1]!;
    assert.deepEqual(second.sessions, ['s2']);
    assert.deepEqual(second.agents, ['claude']);
    assert.equal(tree.attempts[0]!.end!.time, records.find((r) => r.t === 'checkpoint' && r.id === 'R1')!.time);
    assert.equal(tree.attemptOf.get('P1'), 1);
    assert.equal(tree.attemptOf.get('P2'), 2);
  });

  it('a rewind nobody worked after is no attempt: rewinding again elsewhere, or undoing it, adds nothing', () => {
    const b = new LogBuilder()
      .checkpoint('P1')
      .snap('/w/a', h('a1'))
      .checkpoint('P2')
      .snap('/w/a', h('a2'))
      .checkpoint('R1', 'rewind', { target: 'P2' })
      .checkpoint('R2', 'rewind', { target: 'P1' })
      .checkpoint('U', 'rewind', { target: 'R2' });
    const tree = buildAttempts(b.records());
    // R1 left attempt 1; nothing followed; R2 moved the pending branch; U (undo of R2) returns to where R1 left off: still pending.
    assert.equal(tree.attempts.length, 1);
    assert.equal(tree.attempts[0]!.end?.id, 'R1');
    assert.equal(tree.current, null);
  });

  it('Undo of a rewind no work followed resumes the attempt it left', () => {
    const b = new LogBuilder()
      .checkpoint('P1')
      .snap('/w/a', h('a1'))
      .checkpoint('R1', 'rewind', { target: 'P1' })
      .checkpoint('U', 'rewind', { target: 'R1' })
      .checkpoint('P2')
      .snap('/w/a', h('a2'));
    assert.deepEqual(shape(b.records()), [
      { n: 1, parent: undefined, branchedAt: undefined, prompts: ['P1', 'P2'], files: ['/w/a'], end: undefined, current: true },
    ]);
    assert.equal(buildAttempts(b.records()).switches.size, 0, 'a plain undo, not a switch');
  });

  it('switching back and forth moves between the same two attempts (no new ones)', () => {
    const b = twoAttempts()
      // Switch to attempt 1 (rewind to its end): attempt 2 ends here.
      .checkpoint('R2', 'rewind', { target: 'R1' })
      // And back to attempt 2.
      .checkpoint('R3', 'rewind', { target: 'R2' })
      .checkpoint('P3')
      .snap('/w/d', h('d3'));
    assert.deepEqual(shape(b.records()), [
      { n: 1, parent: undefined, branchedAt: undefined, prompts: ['P1'], files: ['/w/a', '/w/b'], end: 'R3', current: false },
      { n: 2, parent: 1, branchedAt: 'P1', prompts: ['P2', 'P3'], files: ['/w/a', '/w/c', '/w/d'], end: undefined, current: true },
    ]);
    assert.deepEqual([...buildAttempts(b.records()).switches], ['R2', 'R3']);
  });

  it('work after switching back to an earlier attempt continues it', () => {
    const b = twoAttempts().checkpoint('R2', 'rewind', { target: 'R1' }).checkpoint('P3').snap('/w/e', h('e3'));
    const tree = buildAttempts(b.records());
    assert.equal(tree.current, 1);
    assert.deepEqual(
      tree.attempts[0]!.prompts.map((p) => p.id),
      ['P1', 'P3'],
    );
    assert.equal(tree.attempts[1]!.end?.id, 'R2');
  });

  it('taking files (a partial rewind) and its undo stay in the attempt in progress', () => {
    const b = twoAttempts()
      .checkpoint('T', 'rewind', { target: 'R1', partial: true })
      .snap('/w/b', h('b1'), 'rewind')
      .checkpoint('U', 'rewind', { target: 'T' });
    const tree = buildAttempts(b.records());
    assert.equal(tree.attempts.length, 2);
    assert.equal(tree.current, 2);
    assert.equal(tree.attempts[0]!.end?.id, 'R1');
    assert.deepEqual(tree.attempts[1]!.checkpoints, ['P2', 'T', 'U']);
  });

  it('a rewind to a point with no work since abandons nothing', () => {
    const b = new LogBuilder()
      .checkpoint('P1')
      .snap('/w/a', h('a1'))
      .checkpoint('P2')
      .checkpoint('R', 'rewind', { target: 'P2' })
      .checkpoint('P3');
    const tree = buildAttempts(b.records());
    assert.equal(tree.attempts.length, 1);
    assert.equal(tree.current, 1);
  });

  it('a rewind to a checkpoint of an earlier attempt branches from that attempt', () => {
    const b = twoAttempts().checkpoint('R2', 'rewind', { target: 'S' }).checkpoint('P3').snap('/w/x', h('x3'));
    assert.deepEqual(
      shape(b.records()).map((a) => [a.n, a.parent, a.branchedAt, a.end, a.current]),
      [
        [1, undefined, undefined, 'R1', false],
        [2, 1, 'P1', 'R2', false],
        [3, 1, 'S', undefined, true],
      ],
    );
  });

  it('a rewind to just before a tool call branches there', () => {
    const b = new LogBuilder()
      .checkpoint('P1')
      .call('Edit', 'a', 'rewindable', { call: 'c1' })
      .snap('/w/a', h('a0'), 'before', { call: 'c1' })
      .snap('/w/a', h('a1'), 'after', { call: 'c1' })
      .checkpoint('R', 'rewind', { targetCall: 'c1' })
      .checkpoint('P2')
      .snap('/w/a', h('a2'));
    const tree = buildAttempts(b.records());
    assert.equal(tree.attempts[1]!.branchedAtCall, 'c1');
    const call = b.records().find((r) => r.t === 'call')!;
    assert.equal(tree.attempts[1]!.branchSeq, call.seq - 1, 'its position: the moment before the call');
    assert.equal(tree.attempts[1]!.parent, 1);
  });

  it('names attempts as points: attempt:<n>', () => {
    const tree = buildAttempts(twoAttempts().records());
    assert.equal(attemptOfPoint(tree, 'attempt:1')?.end?.id, 'R1');
    assert.equal(attemptOfPoint(tree, 'attempt:2')?.current, true);
    assert.equal(attemptOfPoint(tree, 'attempt:3'), null);
    assert.equal(attemptOfPoint(tree, 'attempt:0'), null);
    assert.equal(attemptOfPoint(tree, 'attempt:x'), null);
    assert.equal(attemptOfPoint(tree, 'P1'), undefined);
  });

  it('old stores (rewind checkpoints without the partial field, format 0) read the same', () => {
    const dir = tempDir();
    fs.cpSync(path.join(__dirname, '../fixtures/stores/format-0'), dir, { recursive: true });
    const tree = buildAttempts(Store.open(dir).read().records);
    assert.equal(tree.attempts.length, 1);
    assert.deepEqual(
      tree.attempts[0]!.prompts.map((p) => p.id),
      ['oldprompt001'],
    );
    // Written before attempts existed, a whole rewind's line is the same as today's (twoAttempts has no `partial`).
    assert.equal(buildAttempts(twoAttempts().records()).attempts.length, 2);
  });
});

describe('the line (Files view layout)', () => {
  const records = twoAttempts().records();
  const seq = (id: string) => records.find((r) => r.t === 'checkpoint' && r.id === id)!.seq;
  const cp = (id: string) => records.find((r) => r.t === 'checkpoint' && r.id === id) as { id: string; seq: number; kind: 'prompt' };

  it('the current attempt and what led to it are on the line; the earlier attempt is one row where it was left', () => {
    const view = lineView(buildAttempts(records));
    const on = ['S', 'P1', 'R1', 'P2'].filter((id) => view.onLine(id, seq(id), cp(id).kind));
    // P1 was the branch point: a rewind to it undid its turn, which is attempt 1's work.
    assert.deepEqual(on, ['S', 'P2']);
    assert.deepEqual(
      view.rows.map((r) => [r.attempt.n, r.at]),
      [[1, seq('P1')]],
    );
  });

  it('right after a rewind (no new work yet), the work rewound away stays on the line: prompting again starts an attempt', () => {
    const b = new LogBuilder()
      .checkpoint('S', 'session-start')
      .checkpoint('P1')
      .snap('/w/a', h('a1'))
      .checkpoint('R1', 'rewind', { target: 'P1' });
    const rs = b.records();
    const tree = buildAttempts(rs);
    assert.equal(tree.current, null);
    const view = lineView(tree);
    const at = (id: string) => rs.find((r) => r.t === 'checkpoint' && r.id === id)!.seq;
    assert.equal(view.onLine('S', at('S'), 'session-start'), true);
    assert.equal(view.onLine('P1', at('P1'), 'prompt'), true);
    assert.equal(view.onLine('R1', at('R1'), 'rewind'), true);
    assert.deepEqual(view.rows, []);
    // The next prompt starts attempt 2: attempt 1 becomes one row where it left the line.
    const after = b.checkpoint('P2').snap('/w/a', h('a2')).records();
    const next = lineView(buildAttempts(after));
    assert.equal(next.onLine('P1', at('P1'), 'prompt'), false);
    assert.equal(next.onLine('R1', at('R1'), 'rewind'), false, "the rewind that left attempt 1 is attempt 1's row");
    assert.deepEqual(
      next.rows.map((r) => [r.attempt.n, r.at]),
      [[1, at('P1')]],
    );
  });

  it('rewind bookkeeping (a rewind and its undo) sits on the line, not inside the attempt later left', () => {
    const rs = new LogBuilder()
      .checkpoint('P1')
      .snap('/w/a', h('a1'))
      .checkpoint('P2')
      .snap('/w/a', h('a2'))
      .checkpoint('R1', 'rewind', { target: 'P2' })
      .snap('/w/a', h('a1'), 'rewind')
      .checkpoint('R2', 'rewind', { target: 'R1' })
      .snap('/w/a', h('a2'), 'rewind')
      .checkpoint('R3', 'rewind', { target: 'P2' })
      .snap('/w/a', h('a1'), 'rewind')
      .checkpoint('P3')
      .snap('/w/a', h('a3'))
      .records();
    const view = lineView(buildAttempts(rs));
    const c = (id: string) => rs.find((r) => r.t === 'checkpoint' && r.id === id) as { seq: number; kind: 'prompt' | 'rewind' };
    const on = ['P1', 'P2', 'R1', 'R2', 'R3', 'P3'].filter((id) => view.onLine(id, c(id).seq, c(id).kind));
    assert.deepEqual(on, ['P1', 'R1', 'R2', 'P3']);
  });

  it('a session started after the rewind and before new work is on the line, not inside the attempt left', () => {
    const rs = new LogBuilder()
      .checkpoint('S', 'session-start')
      .checkpoint('P1')
      .snap('/w/a', h('a1'))
      .checkpoint('R1', 'rewind', { target: 'P1' })
      .checkpoint('S2', 'session-start', { session: 's2' })
      .checkpoint('P2', 'prompt', { session: 's2' })
      .snap('/w/a', h('a2'), 'after', { session: 's2' })
      .records();
    const view = lineView(buildAttempts(rs));
    const at = (id: string) => rs.find((r) => r.t === 'checkpoint' && r.id === id)!.seq;
    const kind = (id: string) => (id.startsWith('S') ? 'session-start' : id.startsWith('R') ? 'rewind' : 'prompt');
    const on = ['S', 'P1', 'R1', 'S2', 'P2'].filter((id) => view.onLine(id, at(id), kind(id)));
    assert.deepEqual(on, ['S', 'S2', 'P2']);
  });

  it('after switching back to attempt 1, attempt 2 is the row and attempt 1 is the line', () => {
    const rs = twoAttempts().checkpoint('R2', 'rewind', { target: 'R1' }).records();
    const view = lineView(buildAttempts(rs));
    const at = (id: string) => rs.find((r) => r.t === 'checkpoint' && r.id === id)!.seq;
    assert.equal(view.onLine('P1', at('P1'), 'prompt'), true);
    assert.equal(view.onLine('P2', at('P2'), 'prompt'), false);
    assert.deepEqual(
      view.rows.map((r) => [r.attempt.n, r.at]),
      [[2, at('P1')]],
    );
  });
});

describe('recorded changes between two points', () => {
  it('the ends of two attempts: added, deleted, modified, by path', () => {
    const records = twoAttempts().records();
    const tree = buildAttempts(records);
    const changes = recordedChanges(records, resolvePoint(records, 'attempt:1', tree), resolvePoint(records, 'attempt:2', tree));
    assert.deepEqual(
      changes.map((c) => [c.path, c.change, c.from?.hash ?? null, c.to?.hash ?? null]),
      [
        ['/w/a', 'modified', h('a1'), h('a2')],
        ['/w/b', 'deleted', h('b1'), null],
        ['/w/c', 'added', null, h('c2')],
      ],
    );
    // The attempt in progress and now (as recorded) hold the same.
    assert.deepEqual(recordedChanges(records, resolvePoint(records, 'attempt:2', tree), resolvePoint(records, 'now', tree)), []);
    assert.throws(() => resolvePoint(records, 'attempt:3', tree), /No point "attempt:3"/);
    assert.throws(() => resolvePoint(records, 'zzzz', tree), /No point "zzzz"/);
  });
});

describe('ownWork: one count of an attempt for every surface', () => {
  it('an attempt rewound at its third prompt counts only the work from that prompt on; one off the line or in progress, all of it', () => {
    const b = new LogBuilder()
      .checkpoint('S', 'session-start', { agent: 'claude' })
      .checkpoint('P1', 'prompt', { agent: 'claude' })
      .snap('/w/a', null, 'before')
      .snap('/w/a', h('a1'), 'after')
      .checkpoint('P2', 'prompt', { agent: 'claude' })
      .snap('/w/b', null, 'before')
      .snap('/w/b', h('b1'), 'after')
      .checkpoint('P3', 'prompt', { agent: 'claude' })
      .snap('/w/a', h('a1'), 'before')
      .snap('/w/a', h('a3'), 'after')
      .snap('/w/c', null, 'before')
      .snap('/w/c', h('c3'), 'after')
      .snap('/w/a', h('a3'), 'pre-rewind')
      .snap('/w/c', h('c3'), 'pre-rewind')
      .checkpoint('R', 'rewind', { target: 'P3' })
      .snap('/w/a', h('a1'), 'rewind')
      .snap('/w/c', null, 'rewind')
      .checkpoint('Q3', 'prompt', { agent: 'claude', session: 's2' })
      .snap('/w/d', null, 'before', { session: 's2' })
      .snap('/w/d', h('d1'), 'after', { session: 's2' });
    const tree = buildAttempts(b.records());
    const own = ownWorkOfAll(tree);
    const one = own.get(1)!;
    assert.deepEqual(
      one.prompts.map((p) => p.id),
      ['P3'],
    );
    assert.deepEqual(one.files, ['/w/a', '/w/c']);
    assert.deepEqual(one.sessions, ['s1']);
    assert.deepEqual(one.agents, ['claude']);
    assert.deepEqual(tree.attempts[0]!.prompts.length, 3, 'the attempt itself still has every prompt it recorded');
    const two = own.get(2)!;
    assert.deepEqual(
      two.prompts.map((p) => p.id),
      ['Q3'],
    );
    assert.deepEqual(two.files, ['/w/d']);
    assert.deepEqual(ownWork(tree, tree.attempts[1]!), two);
  });
});

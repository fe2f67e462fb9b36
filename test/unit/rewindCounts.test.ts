// The per-checkpoint counts of one sweep equal a plan per checkpoint (computeChanges): on
// generated logs with every snapshot phase, several sessions, unrecorded changes, too-large
// content, paths outside the workspace and paths the disk cannot give a copy of.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeChanges } from '../../src/core/timeline/changeSet';
import type { CheckpointRecord, Sequenced, SnapPhase } from '../../src/core/storeFiles/records';
import { historiesOf, IncrementalStretches, rewindCounts, rewindStretches } from '../../src/core/timeline/rewindCounts';
import { checkpoints, filesPerCheckpoint } from '../../src/core/timeline/timeline';
import { sameStateAsPrevious } from '../../src/core/timeline/folding';
import { GrowingFolds } from '../../src/core/timeline/growingLog';
import { h, LogBuilder } from '../helpers/records';

const PHASES: SnapPhase[] = ['before', 'after', 'baseline', 'observed', 'pre-rewind', 'rewind'];

/** A small deterministic generator (the same logs every run). */
function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

function randomLog(seed: number): Sequenced[] {
  const r = rng(seed);
  const b = new LogBuilder();
  const paths = ['/w/a', '/w/b', '/w/c', '/w/out/d', '/w/big'];
  const contents = [h('x'), h('y'), h('z'), null];
  for (let i = 0; i < 60; i++) {
    if (r() < 0.2) {
      const kinds = ['prompt', 'session-start', 'before-tool', 'rewind', 'manual'] as const;
      b.checkpoint(`c${i}`, kinds[Math.floor(r() * kinds.length)]!, { session: r() < 0.5 ? 's1' : 's2' });
      continue;
    }
    const p = paths[Math.floor(r() * paths.length)]!;
    const phase = PHASES[Math.floor(r() * PHASES.length)]!;
    const extra: Record<string, unknown> = { session: r() < 0.5 ? 's1' : 's2' };
    if (p === '/w/big' && r() < 0.5) b.snap(p, null, phase, { ...extra, skipped: 'too-large', size: 99, mtime: 1 });
    else b.snap(p, contents[Math.floor(r() * contents.length)]!, phase, extra);
  }
  return b.records();
}

describe('rewindCounts: one sweep, the same count as a plan per checkpoint', () => {
  it('agrees with computeChanges on 300 generated logs', () => {
    const allowed = (p: string) => !p.startsWith('/w/out/');
    const cannotKeep = (p: string) => (p === '/w/c' ? 'unreadable' : null);
    let compared = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const records = randomLog(seed);
      const cps = checkpoints(records) as Sequenced<CheckpointRecord>[];
      const counts = rewindCounts(
        historiesOf(records),
        cps.map((c) => c.seq),
        { allowed, cannotKeep },
      );
      cps.forEach((c, i) => {
        const planned = computeChanges(records, c, { allowed }).changes.filter((ch) => !cannotKeep(ch.path));
        const by = (a: string) => planned.filter((ch) => ch.action === a).length;
        assert.deepEqual(
          counts[i],
          { total: planned.length, restore: by('restore'), delete: by('delete'), recreate: by('recreate') },
          `seed ${seed}, checkpoint ${c.id}`,
        );
        compared++;
      });
    }
    assert.ok(compared > 1000, `${compared} checkpoints compared`);
  });

  it('a checkpoint before any snapshot counts every path a session wrote; the last one counts none', () => {
    const records = new LogBuilder()
      .checkpoint('start', 'session-start')
      .snap('/w/a', null, 'before')
      .snap('/w/a', h('a'), 'after')
      .checkpoint('p2')
      .snap('/w/a', h('a'), 'before')
      .snap('/w/a', h('b'), 'after')
      .checkpoint('end')
      .records();
    const counts = rewindCounts(
      historiesOf(records),
      checkpoints(records).map((c) => c.seq),
    );
    assert.deepEqual(
      counts.map((c) => [c.total, c.delete, c.restore]),
      [
        [1, 1, 0],
        [1, 0, 1],
        [0, 0, 0],
      ],
    );
  });

  it('asks each path its disk and its write permission once, however many checkpoints it spans', () => {
    // What the CLI's cannotKeep does is read the file on disk (plan.ts's diskFact): once per path, not per checkpoint.
    const b = new LogBuilder();
    const paths = ['/w/a', '/w/b', '/w/c'];
    for (let i = 0; i < 400; i++) {
      b.checkpoint(`c${i}`);
      for (const p of paths) b.snap(p, h(`${p}${i}`), 'before').snap(p, h(`${p}${i + 1}`), 'after');
    }
    const records = b.checkpoint('last').records();
    const asked = { allowed: new Map<string, number>(), cannotKeep: new Map<string, number>() };
    const count = (m: Map<string, number>, p: string) => m.set(p, (m.get(p) ?? 0) + 1);
    const counts = rewindCounts(
      historiesOf(records),
      checkpoints(records).map((c) => c.seq),
      {
        allowed: (p) => (count(asked.allowed, p), true),
        cannotKeep: (p) => (count(asked.cannotKeep, p), null),
      },
    );
    assert.deepEqual(
      counts.map((c) => c.total),
      [...Array<number>(400).fill(3), 0],
    );
    assert.deepEqual(
      [...asked.allowed].sort(),
      paths.map((p) => [p, 1]),
    );
    assert.deepEqual(
      [...asked.cannotKeep].sort(),
      paths.map((p) => [p, 1]),
    );
  });
});

describe('IncrementalStretches: kept across appends, equal to a sweep of the whole log', () => {
  it('appended records sweep only their paths; the stretches equal a whole sweep after every append', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const all = randomLog(seed);
      const inc = new IncrementalStretches();
      // The log as a reader that reads only appended lines sees it: the same record objects, then more.
      for (const cut of [Math.floor(all.length / 3), Math.floor(all.length / 2), all.length - 1, all.length]) {
        const records = all.slice(0, cut);
        const seqs = checkpoints(records).map((c) => c.seq);
        const got = inc.of(records, seqs);
        const whole = rewindStretches(historiesOf(records), seqs);
        const nonEmpty = (m: ReadonlyMap<string, readonly number[]>) => [...m].filter(([, l]) => l.length > 0).sort();
        assert.deepEqual(nonEmpty(got), nonEmpty(whole), `seed ${seed}, first ${cut} records`);
      }
    }
  });

  it('sweeps only the paths the appended records recorded; a rewritten log (other records) is swept whole', () => {
    const b = new LogBuilder().checkpoint('c1').snap('/w/a', h('1'), 'before').snap('/w/a', h('2'), 'after');
    b.snap('/w/b', h('1'), 'before').snap('/w/b', h('2'), 'after').checkpoint('c2');
    const first = b.records();
    const inc = new IncrementalStretches();
    inc.of(
      first,
      checkpoints(first).map((c) => c.seq),
    );
    assert.equal(inc.swept, 2);
    b.snap('/w/b', h('3'), 'after');
    const more = [...first, ...b.records().slice(first.length)];
    const got = inc.of(
      more,
      checkpoints(more).map((c) => c.seq),
    );
    assert.equal(inc.swept, 1, 'only /w/b');
    assert.deepEqual(
      got.get('/w/b'),
      rewindStretches(
        historiesOf(more),
        checkpoints(more).map((c) => c.seq),
      ).get('/w/b'),
    );
    const rewritten = more.map((r) => ({ ...r }));
    inc.of(
      rewritten,
      checkpoints(rewritten).map((c) => c.seq),
    );
    assert.equal(inc.swept, 2, 'records it did not see: every path');
  });
});

describe('GrowingFolds: the files of each checkpoint and the folds, kept across appends, equal to passes over the whole log', () => {
  it('after every append equal to filesPerCheckpoint and sameStateAsPrevious of the whole log; other records start over', () => {
    let compared = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const all = randomLog(seed);
      const folds = new GrowingFolds();
      const cuts = [Math.floor(all.length / 4), Math.floor(all.length / 2), Math.floor(all.length / 2), all.length - 1, all.length];
      let before = 0;
      for (const cut of cuts) {
        const records = all.slice(0, cut);
        const got = folds.of(records);
        assert.equal(folds.folded, cut - before, `seed ${seed}: only the records appended since (${cut - before}) are folded`);
        before = cut;
        assert.deepEqual([...got.files].sort(), [...filesPerCheckpoint(records)].sort(), `seed ${seed}, first ${cut}: files`);
        assert.deepEqual([...got.same].sort(), [...sameStateAsPrevious(records)].sort(), `seed ${seed}, first ${cut}: folds`);
        compared++;
      }
      // The last line read again once complete (a new object for it), or the log read whole: folded from the start.
      const reread = [...all.slice(0, -1), { ...all[all.length - 1]! }];
      const got = folds.of(reread);
      assert.equal(folds.folded, reread.length);
      assert.deepEqual([...got.files].sort(), [...filesPerCheckpoint(reread)].sort());
      assert.deepEqual([...got.same].sort(), [...sameStateAsPrevious(reread)].sort());
    }
    assert.equal(compared, 300);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffLines } from 'diff';
import { lineStats } from '../../src/core/timeline/lineStats';

const b = (s: string) => Buffer.from(s);

describe('lineStats', () => {
  it('counts inserted and deleted lines of writing `to` over `from`', () => {
    assert.deepEqual(lineStats(b('a\nb\nc\n'), b('a\nB\nc\nd\n')), { insertions: 2, deletions: 1 });
  });
  it('counts a created file as insertions and a deleted one as deletions', () => {
    assert.deepEqual(lineStats(null, b('x\ny')), { insertions: 2, deletions: 0 });
    assert.deepEqual(lineStats(b('x\ny\n'), null), { insertions: 0, deletions: 2 });
  });
  it('does not diff binary content', () => {
    assert.deepEqual(lineStats(Buffer.from([0, 1, 2]), b('text')), { insertions: 0, deletions: 0, binary: true });
  });
  it('stays bounded on huge inputs and marks the estimate', () => {
    const big = Array.from({ length: 200000 }, (_, i) => `line ${i}`).join('\n');
    const other = Array.from({ length: 200000 }, (_, i) => `line ${i % 2 ? i : -i}`).join('\n');
    const t0 = process.hrtime.bigint();
    const r = lineStats(b(big), b(other));
    assert.equal(r.approximate, true);
    assert.equal(r.insertions, 99999);
    assert.equal(r.deletions, 99999);
    // Not a timing assertion on a noisy machine, only a guard against an unbounded diff (minutes).
    assert.ok(Number(process.hrtime.bigint() - t0) / 1e9 < 30);
  });
  it('falls back to the estimate when the edit budget is exceeded', () => {
    // A few lines in common, so the diff has to run (sides with no line in common are counted without it).
    const a = Array.from({ length: 20000 }, (_, i) => (i % 1000 ? `a${i}` : `k${i}`)).join('\n');
    const c = Array.from({ length: 20000 }, (_, i) => (i % 1000 ? `c${i}` : `k${i}`)).join('\n');
    const r = lineStats(b(a), b(c));
    assert.equal(r.approximate, true);
    assert.equal(r.insertions, 19980);
    assert.equal(r.deletions, 19980);
  });
  it('counts sides with no line in common exactly, without the diff', () => {
    const a = Array.from({ length: 20000 }, (_, i) => `a${i}`).join('\n');
    const c = Array.from({ length: 20000 }, (_, i) => `c${i}`).join('\n');
    assert.deepEqual(lineStats(b(a), b(c)), { insertions: 20000, deletions: 20000 });
  });
  it("gives the diff library's own counts (common lines trimmed first; CRLF and a missing last newline kept apart)", () => {
    let seed = 12345;
    const rnd = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % n;
    const pieces = ['x\n', 'y\n', 'z\n', 'x\r\n', 'y', '\n', 'q\n', 'x'];
    const text = () => Array.from({ length: rnd(12) }, () => pieces[rnd(pieces.length)]).join('');
    for (let i = 0; i < 3000; i++) {
      const from = text();
      const to = i % 3 ? text() : from.slice(0, rnd(from.length + 1)) + text() + from.slice(rnd(from.length + 1));
      if (from === '' || to === '' || from === to) continue;
      let insertions = 0;
      let deletions = 0;
      for (const ch of diffLines(from, to)) {
        if (ch.added) insertions += ch.count ?? 0;
        else if (ch.removed) deletions += ch.count ?? 0;
      }
      assert.deepEqual(lineStats(b(from), b(to)), { insertions, deletions }, JSON.stringify({ from, to }));
    }
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineStats } from '../../src/core/lineStats';

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
    const a = Array.from({ length: 20000 }, (_, i) => `a${i}`).join('\n');
    const c = Array.from({ length: 20000 }, (_, i) => `c${i}`).join('\n');
    const r = lineStats(b(a), b(c));
    assert.equal(r.approximate, true);
    assert.equal(r.insertions, 20000);
    assert.equal(r.deletions, 20000);
  });
});

// The line-level content of keep mine and hunks, pure: a three-way merge that reverts the agent's
// change and keeps the user's lines byte for byte, conflicts where both touch the same or adjacent
// lines (named in the lines of the file now), and a chosen subset of hunks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hunkIdsTouchingMine, hunkLinesOf, hunksOf, hunksTouchingMine, takeHunks, threeWay } from '../../src/core/rewind/lineMerge';

const text = (...lines: string[]) => Buffer.from(lines.join(''));
const L = (n: number, p = 'l') => Array.from({ length: n }, (_, i) => `${p}${i + 1}\n`);
const set = (lines: string[], at: number, ...v: string[]) => {
  const out = [...lines];
  out.splice(at, v.length, ...v);
  return out;
};

test('clean: the agent change reverted, the user lines kept; the same change on both sides merges once', () => {
  const target = L(10);
  const base = set(target, 6, 'agent7\n', 'agent8\n');
  const mine = set(base, 0, 'mine1\n');
  const r = threeWay(text(...base), text(...mine), text(...target));
  assert.deepEqual(r, { merge: 'clean', content: text(...set(target, 0, 'mine1\n')) });
  // The user already put line 7 back as the agent's change would: no conflict.
  const same = threeWay(text(...base), text(...target), text(...target));
  assert.deepEqual(same, { merge: 'clean', content: text(...target) });
});

test('conflicts: overlapping, adjacent, and two insertions at one place — ranges in the lines of the file now', () => {
  const target = L(10);
  const base = set(target, 4, 'agent5\n');
  // The user also inserted two lines at the top: the range is shifted by them.
  const mine = ['top1\n', 'top2\n', ...set(base, 4, 'mine5\n', 'mine6\n')];
  // Each side of the region, for the preview's side-by-side view: in mine, the base and the target, with their lines.
  assert.deepEqual(threeWay(text(...base), text(...mine), text(...target)), {
    merge: 'conflict',
    conflicts: [
      {
        from: [7, 2],
        base: [5, 2],
        target: [5, 2],
        lines: { mine: ['mine5\n', 'mine6\n'], base: ['agent5\n', 'l6\n'], target: ['l5\n', 'l6\n'] },
      },
    ],
  });
  const adjacent = set(base, 5, 'mine6\n');
  const near = threeWay(text(...base), text(...adjacent), text(...target));
  assert.deepEqual(near.merge === 'conflict' && near.conflicts.map((c) => [c.from, c.base, c.target, c.lines]), [
    [[5, 2], [5, 2], [5, 2], { mine: ['agent5\n', 'mine6\n'], base: ['agent5\n', 'l6\n'], target: ['l5\n', 'l6\n'] }],
  ]);
  // The agent also added a line at the top (the rewind removes it, cleanly): the target's range is one line up.
  const grown = ['t0\n', ...base];
  const r = threeWay(text(...grown), text(...set(grown, 5, 'mine5\n')), text(...target));
  assert.deepEqual(r.merge === 'conflict' && r.conflicts.map((c) => [c.from, c.base, c.target]), [
    [
      [6, 1],
      [6, 1],
      [5, 1],
    ],
  ]);
  const tBase = [...target];
  const agentInsert = [...L(3), 'agent\n', ...L(10).slice(3)];
  const userInsert = [...L(3), 'user\n', ...L(10).slice(3)];
  assert.equal(threeWay(text(...agentInsert), text(...userInsert), text(...tBase)).merge, 'conflict');
});

test('bytes survive: CRLF, no final newline, and bytes that are not UTF-8', () => {
  const target = Buffer.from('a\r\nb\r\nc\r\nd\r\ne');
  const base = Buffer.from('a\r\nb\r\nc\r\nAGENT\r\ne');
  const mine = Buffer.concat([Buffer.from([0xe9, 0xff, 0x0d, 0x0a]), Buffer.from('b\r\nc\r\nAGENT\r\ne')]);
  const r = threeWay(base, mine, target);
  assert.equal(r.merge, 'clean');
  assert.deepEqual(
    r.merge === 'clean' && r.content,
    Buffer.concat([Buffer.from([0xe9, 0xff, 0x0d, 0x0a]), Buffer.from('b\r\nc\r\nd\r\ne')]),
  );
});

test('hunks: ranges in the file now and the target, stable ids, and a chosen subset taken alone', () => {
  const target = L(20);
  const now = set(set(target, 1, 'x2\n'), 10, 'x11\n', 'x12\n');
  const hunks = hunksOf(text(...now), text(...target))!;
  assert.deepEqual(
    hunks.map((h) => [h.from, h.to, h.plus, h.minus]),
    [
      [[2, 1], [2, 1], 1, 1],
      [[11, 2], [11, 2], 2, 2],
    ],
  );
  assert.deepEqual(hunksOf(text(...now), text(...target)), hunks);
  assert.deepEqual(takeHunks(text(...now), text(...target), new Set([hunks[1]!.id])), text(...set(target, 1, 'x2\n')));
  // An insertion and a deletion: zero-line ranges name the line after which.
  const ins = hunksOf(text(...L(3)), text('l1\n', 'new\n', 'l2\n', 'l3\n'))!;
  assert.deepEqual(
    [ins[0]!.from, ins[0]!.to],
    [
      [1, 0],
      [2, 1],
    ],
  );
  assert.equal(hunksOf(Buffer.from([0, 1]), text('a\n')), null, 'binary: no hunks');
});

test("a hunk's lines for the preview: by the ids hunksOf gives, UTF-8, without line ends (CRLF too)", () => {
  const target = text('a\r\n', 'été\r\n', 'c\r\n', 'd\r\n', 'e\r\n');
  const current = text('a\r\n', 'ete\r\n', 'c\r\n', 'd\r\n', 'new\r\n', 'e\r\n');
  const hunks = hunksOf(current, target)!;
  const lines = hunkLinesOf(current, target)!;
  assert.deepEqual(
    hunks.map((h) => lines.get(h.id)),
    [
      { minus: ['ete'], plus: ['été'] },
      { minus: ['new'], plus: [] },
    ],
  );
  assert.equal(hunkLinesOf(Buffer.from([0, 1, 2]), target), null, 'binary: no lines to show');
});

test('the hunks that touch the user lines: the ids whose ranges the keep-mine check refuses, and only those', () => {
  const target = L(50);
  const base = set(target, 40, 'agent41\n');
  const mine = set(base, 0, 'mine1\n');
  const hunks = hunksOf(text(...mine), text(...target))!;
  assert.equal(hunks.length, 2);
  const over = hunkIdsTouchingMine(text(...base), text(...mine), text(...target));
  assert.deepEqual(over, [hunks[0]!.id], 'the hunk at line 1 reverts the user line; the one at 41 is the agent');
  const all = new Set(hunks.map((h) => h.id));
  assert.deepEqual(
    hunksTouchingMine(text(...base), text(...mine), text(...target), all),
    [hunks[0]!.from],
    'the same hunk as the transaction refuses',
  );
});

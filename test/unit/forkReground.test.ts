// Re-grounding facts and text, pure: which files still hold the discarded turns' edits, which were
// rewound, which irreversible actions already ran — and how the cut is found in the file timeline.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ForkLineage, LineageRecord } from '../../src/core/conversation/lineage';
import { ancestorsOf } from '../../src/core/conversation/lineage';
import { findCutCheckpoint, regroundFacts } from '../../src/core/conversation/regroundFacts';
import { regroundText } from '../../src/core/conversation/regroundText';
import { h, LogBuilder } from '../helpers/records';

const W = '/w';

function fork(extra: Partial<ForkLineage> = {}): ForkLineage {
  return {
    t: 'fork',
    v: 1,
    time: 9_999_999_999,
    agent: 'claude',
    source: 'transcript',
    parentSession: 's1',
    parentTranscript: '/p/s1.jsonl',
    session: 'f1',
    transcript: '/p/f1.jsonl',
    cutUuid: 'u2',
    cutPromptId: 'p-2',
    cutText: 'second',
    cutOccurrence: 0,
    ...extra,
  };
}

/** Two turns of session s1, plus a write by another session after the cut. */
function twoTurns(): LogBuilder {
  return new LogBuilder()
    .checkpoint('start', 'session-start')
    .checkpoint('c1', 'prompt', { promptId: 'p-1', label: 'first' })
    .snap(`${W}/a.txt`, null, 'before')
    .snap(`${W}/a.txt`, h('a1'), 'after')
    .checkpoint('c2', 'prompt', { promptId: 'p-2', label: 'second' })
    .snap(`${W}/a.txt`, h('a1'), 'before')
    .snap(`${W}/a.txt`, h('a2'), 'after')
    .snap(`${W}/b.txt`, null, 'before')
    .snap(`${W}/b.txt`, h('b1'), 'after')
    .checkpoint('bt', 'before-tool', { label: 'Bash: git push origin main' })
    .call('Bash', 'git push origin main', 'irreversible', { severity: 'high' })
    .call('Bash', 'git commit -m wip', 'compensatable', { severity: 'high', compensation: 'git reset --soft abc123' })
    .call('Bash', 'ls', 'none')
    .snap(`${W}/other.txt`, h('o1'), 'after', { session: 's2' });
}

test('conversation-only rewind: the files the discarded turns changed still hold those changes; their irreversible actions are listed', () => {
  const facts = regroundFacts(twoTurns().records(), fork(), []);
  assert.equal(facts.cutFound, true);
  assert.deepEqual(facts.stillEdited, [
    { path: `${W}/a.txt`, deleted: false },
    { path: `${W}/b.txt`, deleted: false },
  ]);
  assert.deepEqual(facts.reverted, []);
  assert.deepEqual(
    facts.actions.map((a) => [a.summary, a.effect, a.compensation]),
    [
      ['git push origin main', 'irreversible', undefined],
      ['git commit -m wip', 'compensatable', 'git reset --soft abc123'],
    ],
  );
  const text = regroundText(facts, fork());
  assert.match(text, /fork of session s1, cut before the prompt "second"/);
  assert.match(text, /still hold changes made in the discarded turns[\s\S]*\/w\/a\.txt\n- \/w\/b\.txt/);
  assert.match(text, /do not run them again[\s\S]*Bash: git push origin main \(irreversible\)/);
  assert.match(text, /git commit -m wip \(compensatable; it can be offset with: git reset --soft abc123\)/);
  assert.match(text, /Re-read any file/);
  assert.doesNotMatch(text, /other\.txt/, "another session's writes are not this conversation's");
});

test('both / files rewind after the cut: the rewound files are listed as reverted, not as still edited', () => {
  const b = twoTurns()
    .snap(`${W}/a.txt`, h('a2'), 'pre-rewind')
    .snap(`${W}/b.txt`, h('b1'), 'pre-rewind')
    .checkpoint('rw', 'rewind', { target: 'c2' })
    .snap(`${W}/a.txt`, h('a1'), 'rewind')
    .snap(`${W}/b.txt`, null, 'rewind');
  const facts = regroundFacts(b.records(), fork(), []);
  assert.deepEqual(facts.stillEdited, []);
  assert.deepEqual(facts.reverted, [
    { path: `${W}/a.txt`, deleted: false, asAtCut: true },
    { path: `${W}/b.txt`, deleted: true, asAtCut: true },
  ]);
  const text = regroundText(facts, fork());
  assert.match(text, /were rewound[\s\S]*\/w\/a\.txt \(restored to how it was before that prompt\)/);
  assert.match(text, /\/w\/b\.txt \(deleted: it did not exist before that prompt\)/);
  assert.match(text, /git push origin main/, 'a files rewind does not undo the push either');
});

test('a rewind further back than the cut also reverts files the kept turns wrote', () => {
  const b = twoTurns().checkpoint('rw', 'rewind', { target: 'c1' }).snap(`${W}/a.txt`, null, 'rewind').snap(`${W}/b.txt`, null, 'rewind');
  const facts = regroundFacts(b.records(), fork(), []);
  assert.deepEqual(
    facts.reverted.map((f) => [f.path, f.deleted, f.asAtCut]),
    [
      [`${W}/a.txt`, true, false],
      [`${W}/b.txt`, true, true],
    ],
  );
});

test('the cut checkpoint: by id, by prompt id, else by session + text + occurrence', () => {
  const records = new LogBuilder()
    .checkpoint('x1', 'prompt', { label: 'again', promptId: 'q1' })
    .checkpoint('x2', 'prompt', { label: 'again', promptId: 'q2' })
    .checkpoint('x3', 'prompt', { label: 'again', session: 's9' })
    .records();
  assert.equal(findCutCheckpoint(records, fork({ cutCheckpoint: 'x2' }), [])?.id, 'x2');
  assert.equal(findCutCheckpoint(records, fork({ cutPromptId: 'q2' }), [])?.id, 'x2');
  const byText = (occurrence: number) =>
    findCutCheckpoint(records, fork({ cutPromptId: undefined, cutText: 'again', cutOccurrence: occurrence }), [])?.id;
  assert.equal(byText(0), 'x1');
  assert.equal(byText(1), 'x2');
  assert.equal(byText(5), 'x2', 'never a checkpoint of another session');
  // A fork of a fork: the text may belong to the grandparent session.
  const lineage: LineageRecord[] = [fork({ session: 's1', parentSession: 's9' })];
  assert.deepEqual(ancestorsOf(lineage, 's1'), ['s9']);
  assert.equal(
    findCutCheckpoint(records, fork({ cutPromptId: undefined, parentSession: 's1', cutText: 'again', cutOccurrence: 2 }), lineage)?.id,
    'x3',
  );
  assert.equal(findCutCheckpoint(records, fork({ cutPromptId: 'nope', cutText: 'never typed' }), []), undefined);
});

test('when the cut is not in the file timeline, the text says so and still asks to re-read', () => {
  const facts = regroundFacts(new LogBuilder().checkpoint('c9').records(), fork({ cutPromptId: 'missing', cutText: 'missing' }), []);
  assert.equal(facts.cutFound, false);
  const text = regroundText(facts, fork());
  assert.match(text, /could not find that prompt in its file timeline/);
  assert.match(text, /Re-read any file/);
});

test('long lists are cut with a count of what was left out', () => {
  const b = new LogBuilder().checkpoint('c2', 'prompt', { promptId: 'p-2' });
  for (let i = 0; i < 45; i++) b.snap(`${W}/f${String(i).padStart(2, '0')}.txt`, h(`x${i}`), 'after');
  const text = regroundText(regroundFacts(b.records(), fork(), []), fork());
  assert.match(text, /…and 5 more/);
});

// Regression (compat tier): files rewound, the rewind undone, then the conversation forked. What is on
// disk now decides, not whether rewind snapshots exist: after the undo the disk is as the discarded
// turns left it, so the fork must hear "b.txt still holds the discarded turn's edit", not "rewound".
function rewoundThenUndone(): LogBuilder {
  return (
    new LogBuilder()
      .checkpoint('start', 'session-start')
      .checkpoint('c1', 'prompt', { promptId: 'p-1', label: 'first' })
      .snap(`${W}/a.txt`, h('a0'), 'before')
      .snap(`${W}/a.txt`, h('a1'), 'after')
      .checkpoint('c2', 'prompt', { promptId: 'p-2', label: 'second' })
      .snap(`${W}/b.txt`, h('b0'), 'before')
      .snap(`${W}/b.txt`, h('b1'), 'after')
      .checkpoint('bt', 'before-tool', { label: 'Bash: git push nowhere main' })
      .call('Bash', 'git push nowhere main', 'irreversible', { severity: 'high' })
      // rewind --to c1
      .snap(`${W}/a.txt`, h('a1'), 'pre-rewind', { session: undefined })
      .snap(`${W}/b.txt`, h('b1'), 'pre-rewind', { session: undefined })
      .checkpoint('rw1', 'rewind', { target: 'c1', label: 'Before rewind to "first"', session: undefined })
      .snap(`${W}/a.txt`, h('a0'), 'rewind', { session: undefined })
      .snap(`${W}/b.txt`, h('b0'), 'rewind', { session: undefined })
      // undo: rewind --to rw1
      .snap(`${W}/a.txt`, h('a0'), 'pre-rewind', { session: undefined })
      .snap(`${W}/b.txt`, h('b0'), 'pre-rewind', { session: undefined })
      .checkpoint('rw2', 'rewind', { target: 'rw1', label: 'Before rewind to "Before rewind to "first""', session: undefined })
      .snap(`${W}/a.txt`, h('a1'), 'rewind', { session: undefined })
      .snap(`${W}/b.txt`, h('b1'), 'rewind', { session: undefined })
  );
}

test('bug: files rewound and the rewind undone, then a fork — the re-grounding describes the disk now, not the rewind snapshots', () => {
  const facts = regroundFacts(rewoundThenUndone().records(), fork(), []);
  // The same facts a store without the rewind and its undo gives:
  const plain = new LogBuilder()
    .checkpoint('start', 'session-start')
    .checkpoint('c1', 'prompt', { promptId: 'p-1', label: 'first' })
    .snap(`${W}/a.txt`, h('a0'), 'before')
    .snap(`${W}/a.txt`, h('a1'), 'after')
    .checkpoint('c2', 'prompt', { promptId: 'p-2', label: 'second' })
    .snap(`${W}/b.txt`, h('b0'), 'before')
    .snap(`${W}/b.txt`, h('b1'), 'after')
    .checkpoint('bt', 'before-tool', { label: 'Bash: git push nowhere main' })
    .call('Bash', 'git push nowhere main', 'irreversible', { severity: 'high' });
  const expected = regroundFacts(plain.records(), fork(), []);
  assert.deepEqual(facts.stillEdited, [{ path: `${W}/b.txt`, deleted: false }]);
  assert.deepEqual(facts.reverted, []);
  assert.deepEqual(facts.stillEdited, expected.stillEdited);
  assert.deepEqual(facts.reverted, expected.reverted);
  assert.deepEqual(
    facts.actions.map((a) => a.summary),
    ['git push nowhere main'],
  );
  const text = regroundText(facts, fork());
  assert.equal(text, regroundText(expected, fork()));
  assert.match(text, /still hold changes made in the discarded turns[^\n]*\n- \/w\/b\.txt\n/);
  assert.doesNotMatch(text, /a\.txt/, 'a.txt holds exactly what the kept turn left');
  assert.doesNotMatch(text, /Files that were rewound|restored/);
  assert.match(text, /Bash: git push nowhere main \(irreversible\)/);
});

test('a file back at its cut state through a rewind of the discarded edit is "reverted to how it was before that prompt"; untouched by the discarded turns and back where it was: not mentioned', () => {
  const b = rewoundThenUndone()
    .snap(`${W}/b.txt`, h('b1'), 'pre-rewind', { session: undefined })
    .checkpoint('rw3', 'rewind', { target: 'c2', label: 'Before rewind to "second"', session: undefined })
    .snap(`${W}/b.txt`, h('b0'), 'rewind', { session: undefined });
  const facts = regroundFacts(b.records(), fork(), []);
  assert.deepEqual(facts.stillEdited, []);
  assert.deepEqual(
    facts.reverted.map((f) => [f.path, f.deleted, f.asAtCut]),
    [[`${W}/b.txt`, false, true]],
  );
  const text = regroundText(facts, fork());
  assert.ok(text.includes('/w/b.txt (restored to how it was before that prompt)'), text);
  assert.doesNotMatch(text, /a\.txt/);
});

test("a partial rewind leaves a file at neither the cut state nor the discarded turns' last state: said plainly, with the point it was restored to", () => {
  const b = new LogBuilder()
    .checkpoint('c1', 'prompt', { promptId: 'p-1', label: 'first' })
    .snap(`${W}/b.txt`, h('b0'), 'before')
    .checkpoint('c2', 'prompt', { promptId: 'p-2', label: 'second' })
    .snap(`${W}/b.txt`, h('b0'), 'before')
    .snap(`${W}/b.txt`, h('b1'), 'after')
    .checkpoint('c3', 'prompt', { promptId: 'p-3', label: 'third' })
    .snap(`${W}/b.txt`, h('b1'), 'before')
    .snap(`${W}/b.txt`, h('b2'), 'after')
    .snap(`${W}/b.txt`, h('b2'), 'pre-rewind', { session: undefined })
    .checkpoint('rw', 'rewind', { target: 'c3', label: 'Before rewind to "third"', session: undefined })
    .snap(`${W}/b.txt`, h('b1'), 'rewind', { session: undefined });
  const facts = regroundFacts(b.records(), fork(), []);
  assert.deepEqual(facts.stillEdited, []);
  assert.equal(facts.reverted.length, 1);
  assert.equal(facts.reverted[0]!.asAtCut, false);
  const text = regroundText(facts, fork());
  assert.match(text, /\/w\/b\.txt \([^)]*before the prompt "third"/);
  assert.doesNotMatch(text, /still hold changes/);
});

test('a file the discarded turns changed and another writer changed again afterwards is not claimed to hold the discarded edits unchanged', () => {
  const b = twoTurns().snap(`${W}/b.txt`, h('b9'), 'after', { session: 's2' });
  const facts = regroundFacts(b.records(), fork(), []);
  const note = facts.stillEdited.find((f) => f.path === `${W}/b.txt`);
  assert.ok(note, JSON.stringify(facts));
  assert.equal(note.changedSince, true);
  assert.match(regroundText(facts, fork()), /\/w\/b\.txt \(changed again since/);
});

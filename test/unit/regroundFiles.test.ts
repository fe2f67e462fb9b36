// Files-only re-grounding, pure: after a files-only rewind, which files a conversation that kept
// all its turns must re-read (and what they are now), which of its actions the rewind did not undo —
// and the cheap backward read of files.jsonl that keeps the hook fast when nothing was rewound.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { conversationRanges, filesRewoundFacts } from '../../src/core/conversation/filesRewound';
import type { ForkLineage } from '../../src/core/conversation/lineage';
import { tailWindow } from '../../src/core/conversation/regroundHook';
import { filesRewoundText } from '../../src/core/conversation/regroundText';
import type { Sequenced } from '../../src/core/storeFiles/records';
import { h, LogBuilder } from '../helpers/records';
import { tempDir } from '../helpers/tmp';

const W = '/w';
const NO = { session: undefined };

/** s1: turn 1 creates a.txt; turn 2 edits it, creates n.txt and pushes. */
function session(): LogBuilder {
  return new LogBuilder()
    .checkpoint('start', 'session-start')
    .checkpoint('c1', 'prompt', { label: 'first' })
    .snap(`${W}/a.txt`, null, 'before')
    .snap(`${W}/a.txt`, h('a1'), 'after')
    .checkpoint('c2', 'prompt', { label: 'second' })
    .snap(`${W}/a.txt`, h('a1'), 'before')
    .snap(`${W}/a.txt`, h('a2'), 'after')
    .snap(`${W}/n.txt`, null, 'before')
    .snap(`${W}/n.txt`, h('n1'), 'after')
    .checkpoint('bt', 'before-tool', { label: 'Bash: git push origin main' })
    .call('Bash', 'git push origin main', 'irreversible', { severity: 'high', call: 'toolu_push' })
    .call('Bash', 'ls', 'none');
}

/** A rewind as the store writes one: pre-rewind snapshots, the checkpoint, the rewind snapshots. */
function rewind(b: LogBuilder, id: string, target: string, writes: [string, string | null, string | null][]): LogBuilder {
  for (const [p, from] of writes) b.snap(`${W}/${p}`, from, 'pre-rewind', NO);
  b.checkpoint(id, 'rewind', { target, label: `Before rewind to "${target}"`, ...NO });
  for (const [p, , to] of writes) b.snap(`${W}/${p}`, to, 'rewind', NO);
  return b;
}

const seqOf = (records: readonly Sequenced[], id: string) => records.find((r) => r.t === 'checkpoint' && r.id === id)!.seq;
const facts = (b: LogBuilder, after = 'c2', session = 's1', skip?: Set<string>) => {
  const records = b.records();
  return filesRewoundFacts(records, conversationRanges(records, session, []), { after: seqOf(records, after), ...(skip ? { skip } : {}) });
};

test('a files-only rewind after the last turn: the reverted files, what they are now, and the actions the rewind did not undo', () => {
  const f = facts(
    rewind(session(), 'rw', 'c2', [
      ['a.txt', h('a2'), h('a1')],
      ['n.txt', h('n1'), null],
    ]),
  );
  assert.deepEqual(f.rewinds, ['rw']);
  assert.deepEqual(f.considered, ['rw']);
  assert.deepEqual(f.files, [
    { path: `${W}/a.txt`, deleted: false, recreated: false, restoredTo: { kind: 'prompt', label: 'second' } },
    { path: `${W}/n.txt`, deleted: true, recreated: false, restoredTo: { kind: 'prompt', label: 'second' } },
  ]);
  assert.deepEqual(
    f.actions.map((a) => a.summary),
    ['git push origin main'],
  );
  const text = filesRewoundText(f);
  assert.match(text, /^\[Agent Rewind\] Files were rewound outside this conversation/);
  assert.ok(text.includes('- /w/a.txt (now as it was before the prompt "second")'), text);
  assert.ok(text.includes('- /w/n.txt (deleted: it did not exist before the prompt "second")'), text);
  assert.match(text, /Re-read these files[^\n]*do not trust earlier tool results about them/);
  assert.match(text, /not undone by the rewind[^\n]*\n- Bash: git push origin main \(irreversible\)/);
  assert.doesNotMatch(text, /\bls\b/);
});

test('a rewind further back reaches files of earlier turns; a file deleted by the conversation and brought back is "recreated"', () => {
  const b = session()
    .checkpoint('c3', 'prompt', { label: 'third' })
    .snap(`${W}/n.txt`, h('n1'), 'before', { tool: 'Bash' })
    .snap(`${W}/n.txt`, null, 'after', { tool: 'Bash' });
  const f = facts(
    rewind(b, 'rw', 'c1', [
      ['a.txt', h('a2'), null],
      ['n.txt', null, null],
    ]),
    'c3',
  );
  // n.txt: the rewind "wrote" null over null — nothing changed for the conversation.
  assert.deepEqual(
    f.files.map((x) => [x.path, x.deleted, x.recreated]),
    [[`${W}/a.txt`, true, false]],
  );
  const back = facts(
    rewind(
      session().checkpoint('c3', 'prompt', { label: 'third' }).snap(`${W}/n.txt`, h('n1'), 'before').snap(`${W}/n.txt`, null, 'after'),
      'rw',
      'c3',
      [['n.txt', null, h('n1')]],
    ),
    'c3',
  );
  assert.deepEqual(back.files, [{ path: `${W}/n.txt`, deleted: false, recreated: true, restoredTo: { kind: 'prompt', label: 'third' } }]);
  assert.match(filesRewoundText(back), /\/w\/n\.txt \(recreated, as it was before the prompt "third"\)/);
});

test('nothing to say: a rewind and its undo, a rewind already told, files the conversation never changed or has seen since', () => {
  const undone = rewind(rewind(session(), 'rw', 'c2', [['a.txt', h('a2'), h('a1')]]), 'undo', 'rw', [['a.txt', h('a1'), h('a2')]]);
  assert.deepEqual(facts(undone).files, []);
  assert.deepEqual(facts(undone).considered, ['rw', 'undo'], 'both rewinds were looked at');

  const told = rewind(session(), 'rw', 'c2', [['a.txt', h('a2'), h('a1')]]);
  assert.deepEqual(facts(told, 'c2', 's1', new Set(['rw'])).files, []);
  assert.deepEqual(facts(told, 'c2', 's1', new Set(['rw'])).considered, []);

  const others = rewind(
    session().snap(`${W}/o.txt`, null, 'before', { session: 's2' }).snap(`${W}/o.txt`, h('o1'), 'after', { session: 's2' }),
    'rw',
    'c2',
    [['o.txt', h('o1'), null]],
  );
  assert.deepEqual(facts(others).files, [], "another session's file is not this conversation's");
  assert.equal(facts(others, 'c2', 's2').files.length, 1, "but it is that session's");

  const seen = rewind(session(), 'rw', 'c2', [['a.txt', h('a2'), h('a1')]])
    .snap(`${W}/a.txt`, h('a1'), 'before')
    .snap(`${W}/a.txt`, h('a3'), 'after');
  assert.deepEqual(facts(seen).files, [], 'edited again after the rewind: the conversation has seen it as it is');

  const before = rewind(session(), 'rw', 'c2', [['a.txt', h('a2'), h('a1')]]).checkpoint('c3', 'prompt', { label: 'third' });
  assert.deepEqual(facts(before, 'c3').files, [], 'a rewind before the previous turn was for that turn to tell');
});

test('rewound, then changed by someone else: said plainly, without claiming a restore point', () => {
  const b = rewind(session(), 'rw', 'c2', [['a.txt', h('a2'), h('a1')]]).snap(`${W}/a.txt`, h('zz'), 'after', { session: 's2' });
  const f = facts(b);
  assert.deepEqual(f.files, [{ path: `${W}/a.txt`, deleted: false, recreated: false, changedSince: true }]);
  assert.match(filesRewoundText(f), /\/w\/a\.txt \(rewound, then changed again by someone else\)/);
});

test('an undo of an earlier rewind that was already told is described as such', () => {
  const b = rewind(session(), 'rw', 'c2', [['a.txt', h('a2'), h('a1')]]).checkpoint('c3', 'prompt', { label: 'third' });
  rewind(b, 'undo', 'rw', [['a.txt', h('a1'), h('a2')]]);
  const f = facts(b, 'c3');
  // The prompt after the rewind began a second attempt: the undo brought the first attempt's content back.
  assert.deepEqual(
    f.files.map((x) => x.restoredTo),
    [{ kind: 'rewind', label: 'Before rewind to "c2"', attempt: 1 }],
  );
  assert.match(filesRewoundText(f), /now as it was at the end of attempt 1 \(an earlier attempt at this work that a rewind had set aside/);
});

test("a fork remembers its parent up to the cut: files the parent wrote before the cut count, the discarded turns' do not", () => {
  const fork: ForkLineage = {
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
    cutCheckpoint: 'c2',
    cutText: 'second',
    cutOccurrence: 0,
  };
  const b = session()
    .checkpoint('fs', 'session-start', { session: 'f1' })
    .checkpoint('f-p', 'prompt', { session: 'f1', label: 'other way' });
  rewind(b, 'rw', 'c1', [
    ['a.txt', h('a2'), null],
    ['n.txt', h('n1'), null],
  ]);
  const records = b.records();
  const ranges = conversationRanges(records, 'f1', [fork]);
  assert.deepEqual(ranges, [
    { session: 'f1', before: Infinity },
    { session: 's1', before: seqOf(records, 'c2') },
  ]);
  const f = filesRewoundFacts(records, ranges, { after: seqOf(records, 'f-p') });
  assert.deepEqual(
    f.files.map((x) => x.path),
    [`${W}/a.txt`],
    'n.txt came from the discarded turn: the fork never knew it',
  );
  assert.deepEqual(f.actions, [], 'the push was in the discarded turn');
});

test("tailWindow reads files.jsonl backwards only to the session's previous turn, across chunk boundaries and multi-byte text", () => {
  const dir = tempDir();
  const file = path.join(dir, 'files.jsonl');
  const b = new LogBuilder().checkpoint('old-rw', 'rewind', NO).checkpoint('p1', 'prompt', { label: 'é'.repeat(3000) });
  for (let i = 0; i < 3000; i++) b.snap(`${W}/f${i}-ü€.txt`, h(`x${i}`), 'after', { session: i % 2 ? 's1' : 's2' });
  b.checkpoint('other', 'prompt', { session: 's2' });
  b.checkpoint('rw1', 'rewind', NO);
  for (let i = 0; i < 2000; i++) b.snap(`${W}/g${i}-€.txt`, h(`y${i}`), 'rewind', NO);
  b.checkpoint('rw2', 'rewind', NO);
  fs.writeFileSync(file, b.text());
  assert.ok(fs.statSync(file).size > 4 * 64 * 1024);
  assert.deepEqual(tailWindow(file, 's1'), { previousTurn: 'p1', rewinds: ['rw2', 'rw1'] });
  assert.deepEqual(tailWindow(file, 's2'), { previousTurn: 'other', rewinds: ['rw2', 'rw1'] });
  assert.deepEqual(tailWindow(file, 'nobody'), { rewinds: ['rw2', 'rw1', 'old-rw'] }, 'no turn of that session: read to the start');
  fs.appendFileSync(file, '{"t":"checkpoint","id":"torn'); // a torn last line is skipped
  assert.deepEqual(tailWindow(file, 's1').previousTurn, 'p1');
  assert.deepEqual(tailWindow(path.join(dir, 'missing.jsonl'), 's1'), { rewinds: [] });
});

test('a keep-mine or partial rewind: the file that now mixes the point’s lines with the user’s is named as such, so the agent re-reads it', () => {
  const b = session();
  b.snap(`${W}/a.txt`, h('a2'), 'pre-rewind', NO);
  b.snap(`${W}/n.txt`, h('n1'), 'pre-rewind', NO);
  b.checkpoint('rw', 'rewind', { target: 'c2', label: 'Before rewind to "c2"', ...NO });
  b.snap(`${W}/a.txt`, h('a1+mine'), 'rewind', { ...NO, mixed: 'keep-mine' });
  b.snap(`${W}/n.txt`, null, 'rewind', NO);
  const f = facts(b);
  assert.deepEqual(
    f.files.map((x) => [x.path, !!x.mixed]),
    [
      [`${W}/a.txt`, true],
      [`${W}/n.txt`, false],
    ],
  );
  const text = filesRewoundText(f);
  assert.match(
    text,
    /\/w\/a\.txt \(rewound only in part: it now mixes lines as they were .* with lines the user or another attempt wrote since/,
  );
  assert.match(text, /\/w\/n\.txt \(deleted/);
});

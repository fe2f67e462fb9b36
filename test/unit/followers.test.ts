// Transcripts (Claude Code, Codex, Gemini CLI) and lineage.jsonl followed as they grow (the extension's Conversation view): each read
// parses only the lines appended since the last, a half-written last line waits until it is complete,
// and a shrunk or replaced file is read whole — always the same answer as a whole read of the file.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { readTimeline, TranscriptFollower } from '../../src/agents/claude/transcriptTimeline';
import type { TranscriptTimeline } from '../../src/agents/common/timeline';
import { readRolloutTimeline, RolloutFollower } from '../../src/agents/codex/rolloutTimeline';
import { ChatFollower, readChatTimeline } from '../../src/agents/gemini/chatTimeline';
import { followAnyTimeline } from '../../src/agents/capabilities';
import { appendLineage, type ForkLineage, LineageFollower, readLineage } from '../../src/core/conversation/lineage';
import { IncrementalLines } from '../../src/core/storeFiles/logTail';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-follow-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const REAL = path.resolve(__dirname, '../fixtures/transcripts/real-2.1.332-two-prompts.jsonl');

function fork(n: number): ForkLineage {
  return {
    t: 'fork',
    v: 1,
    time: 1000 + n,
    agent: 'claude',
    source: 'transcript',
    parentSession: 'parent',
    parentTranscript: '/p.jsonl',
    session: `fork-${n}`,
    transcript: `/f${n}.jsonl`,
    cutUuid: `u${n}`,
    cutText: `prompt ${n}`,
    cutOccurrence: 0,
  };
}

test('lineage: appended lines are read alone, and the records equal a whole read', () => {
  const dir = fs.mkdtempSync(path.join(tmp, 'lin-'));
  const f = new LineageFollower(dir);
  assert.deepEqual(f.read(), [], 'no lineage.jsonl yet: none');
  appendLineage(dir, fork(1));
  appendLineage(dir, fork(2));
  assert.deepEqual(f.read(), readLineage(dir));
  appendLineage(dir, { t: 'regrounded', session: 'fork-1', time: 5 });
  const after3 = f.read();
  assert.equal(f.lastRead, 'tail');
  assert.equal(after3.length, 3);
  assert.deepEqual(after3, readLineage(dir));
});

test('lineage: a half-written last line waits; once complete it is read once', () => {
  const dir = fs.mkdtempSync(path.join(tmp, 'lin-'));
  const file = path.join(dir, 'lineage.jsonl');
  appendLineage(dir, fork(1));
  const f = new LineageFollower(dir);
  assert.equal(f.read().length, 1);
  const line = JSON.stringify(fork(2)) + '\n';
  fs.appendFileSync(file, line.slice(0, 20));
  assert.equal(f.read().length, 1, 'the torn line is not a record yet');
  assert.equal(f.lastRead, 'tail');
  fs.appendFileSync(file, line.slice(20));
  assert.deepEqual(
    f.read().map((r) => r.session),
    ['fork-1', 'fork-2'],
  );
  assert.equal(f.lastRead, 'tail');
});

test('lineage: a truncated or replaced file is read whole, never mixed with the old records', () => {
  const dir = fs.mkdtempSync(path.join(tmp, 'lin-'));
  const file = path.join(dir, 'lineage.jsonl');
  for (const n of [1, 2, 3]) appendLineage(dir, fork(n));
  const f = new LineageFollower(dir);
  assert.equal(f.read().length, 3);
  // Truncated to its first line.
  fs.truncateSync(file, fs.readFileSync(file, 'utf8').indexOf('\n') + 1);
  assert.deepEqual(
    f.read().map((r) => r.session),
    ['fork-1'],
  );
  assert.equal(f.lastRead, 'full');
  // Replaced (a new file renamed over it) with one longer than what was read: still a whole read.
  const other = path.join(dir, 'other.jsonl');
  fs.writeFileSync(other, [fork(7), fork(8), fork(9)].map((r) => JSON.stringify(r) + '\n').join(''));
  fs.renameSync(other, file);
  assert.deepEqual(
    f.read().map((r) => r.session),
    ['fork-7', 'fork-8', 'fork-9'],
  );
  assert.equal(f.lastRead, 'full');
  // Rewritten in place with the same length but other bytes (the same inode): the mark tells.
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, text.replace(/fork-9/g, 'fork-0'));
  assert.deepEqual(
    f.read().map((r) => r.session),
    ['fork-7', 'fork-8', 'fork-0'],
  );
  assert.equal(f.lastRead, 'full');
});

test('the generic reader folds only new complete lines, with their byte offsets', () => {
  const file = path.join(tmp, 'lines.txt');
  fs.writeFileSync(file, 'a\nbb\n');
  const seen: [string, number][] = [];
  const r = new IncrementalLines(file, { start: () => seen, add: (s, line, offset) => void s.push([line.toString(), offset]) });
  r.read();
  fs.appendFileSync(file, 'ccc\nd');
  r.read();
  assert.deepEqual(seen, [
    ['a', 0],
    ['bb', 2],
    ['ccc', 5],
  ]);
  fs.appendFileSync(file, 'd\n');
  r.read();
  assert.deepEqual(seen.at(-1), ['dd', 9]);
});

test('a real Claude Code transcript written in pieces: every read equals a whole read, and reads only the new lines', () => {
  const file = path.join(tmp, '3a7c2a4e-0000-4000-8000-000000000001.jsonl');
  const all = fs.readFileSync(REAL);
  const ends: number[] = [];
  for (let i = all.indexOf(0x0a); i >= 0; i = all.indexOf(0x0a, i + 1)) ends.push(i + 1);
  assert.ok(ends.length > 10, 'the fixture has lines to append');
  fs.writeFileSync(file, all.subarray(0, ends[2]!));
  const f = new TranscriptFollower(file);
  assert.deepEqual(f.timeline(), readTimeline(file));
  assert.equal(f.lastRead, 'full');
  let prev = ends[2]!;
  const cuts = [ends[5]!, ends[5]! + 7 /* mid-line: a line still being written */, ends[Math.floor(ends.length / 2)]!, all.length];
  for (const cut of cuts) {
    fs.appendFileSync(file, all.subarray(prev, cut));
    prev = cut;
    const t = f.timeline();
    assert.equal(f.lastRead, 'tail');
    // A whole read counts a half-written last line as a bad line; the follower waits for it.
    const whole = readTimeline(file);
    assert.deepEqual(all[cut - 1] === 0x0a ? t : t.prompts, all[cut - 1] === 0x0a ? whole : whole.prompts);
  }
  assert.ok(f.timeline().prompts.length >= 2, 'both prompts are read');
  // Replaced by an earlier copy (shorter): read whole, equal to a whole read.
  fs.writeFileSync(file + '.new', all.subarray(0, ends[5]!));
  fs.renameSync(file + '.new', file);
  assert.deepEqual(f.timeline(), readTimeline(file));
  assert.equal(f.lastRead, 'full');
});

const FIXTURES = path.resolve(__dirname, '../fixtures/agents');
const FORMATS: {
  name: string;
  fixture: string;
  file: string;
  follow: (f: string) => { timeline(): TranscriptTimeline; lastRead: 'full' | 'tail' };
  whole: (f: string) => TranscriptTimeline;
}[] = [
  {
    name: 'Codex rollout (real 0.171.0)',
    fixture: path.join(FIXTURES, 'codex/real-0.171.0/rollout.jsonl'),
    file: 'rollout-2026-12-01T10-00-00-0199a0b1-0000-7000-8000-000000000001.jsonl',
    follow: (f) => new RolloutFollower(f),
    whole: (f) => readRolloutTimeline(f),
  },
  {
    name: 'Gemini CLI chat (real 0.61.0)',
    fixture: path.join(FIXTURES, 'gemini/real-0.61.0/chat-after-prompt-2.jsonl'),
    file: 'session-2026-12-01T10-00-0199a0b1.jsonl',
    follow: (f) => new ChatFollower(f),
    whole: (f) => readChatTimeline(f),
  },
];

for (const fmt of FORMATS) {
  test(`a real ${fmt.name} written in pieces: every read equals a whole read, and reads only the new lines`, () => {
    const file = path.join(fs.mkdtempSync(path.join(tmp, 'fmt-')), fmt.file);
    const all = fs.readFileSync(fmt.fixture);
    const ends: number[] = [];
    for (let i = all.indexOf(0x0a); i >= 0; i = all.indexOf(0x0a, i + 1)) ends.push(i + 1);
    assert.ok(ends.length >= 6, 'the fixture has lines to append');
    fs.writeFileSync(file, all.subarray(0, ends[1]!));
    const f = fmt.follow(file);
    assert.deepEqual(f.timeline(), fmt.whole(file));
    assert.equal(f.lastRead, 'full');
    // The dispatcher picks this follower by the file's content.
    assert.equal(followAnyTimeline(file).constructor, f.constructor);
    let prev = ends[1]!;
    const mid = ends[Math.floor(ends.length / 2)]!;
    for (const cut of [ends[2]!, ends[2]! + 5 /* mid-line: still being written */, mid, all.length]) {
      fs.appendFileSync(file, all.subarray(prev, cut));
      prev = cut;
      const t = f.timeline();
      assert.equal(f.lastRead, 'tail');
      const whole = fmt.whole(file);
      // A whole read may count a half-written last line as a bad line; the follower waits for it.
      assert.deepEqual(all[cut - 1] === 0x0a ? t : t.prompts, all[cut - 1] === 0x0a ? whole : whole.prompts);
    }
    assert.ok(f.timeline().prompts.length >= 2, 'both prompts are read');
    fs.writeFileSync(file + '.new', all.subarray(0, ends[3]!));
    fs.renameSync(file + '.new', file);
    assert.deepEqual(f.timeline(), fmt.whole(file));
    assert.equal(f.lastRead, 'full', 'a replaced file is read whole');
  });
}

// Forking a transcript: the fork re-reads as exactly the prefix before the cut, every kept tool_use
// has its result, the parent stays byte-identical, and refused cuts write nothing.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { checkFork, danglingToolUses } from '../../src/agents/claude/forkCheck';
import { isWholeParentMetadata } from '../../src/agents/claude/forkPlan';
import { forkTranscript } from '../../src/agents/claude/forkTranscript';
import { isRealPrompt, TranscriptGraph } from '../../src/agents/claude/transcriptChain';
import { readTranscript } from '../../src/agents/claude/transcriptRead';
import { readTimeline } from '../../src/agents/claude/transcriptTimeline';
import { isError } from '../../src/core/errors';
import { tempDir } from '../helpers/tmp';

const FIX = path.resolve(__dirname, '../fixtures/transcripts');
const FIXTURES = ['split-parallel.jsonl', 'sidechain-meta.jsonl', 'compact.jsonl', 'dead-branch.jsonl', 'real-2.1.332-two-prompts.jsonl'];
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Copies a fixture into a fresh project folder as `<session>.jsonl`, the way Claude Code names it. */
function place(name: string): string {
  const dir = tempDir('ar-fork-');
  const src = path.join(FIX, name);
  const t = readTimeline(src);
  const file = path.join(dir, `${t.session}.jsonl`);
  fs.copyFileSync(src, file);
  return file;
}

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const listing = (dir: string) => fs.readdirSync(dir).sort();
const jsonLines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

for (const name of FIXTURES) {
  test(`${name}: every fork re-reads as exactly the prefix before its cut`, () => {
    const file = place(name);
    const parent = readTimeline(file);
    const hash = sha(file);
    assert.ok(parent.prompts.length >= 2);
    for (let i = 1; i < parent.prompts.length; i++) {
      const cut = parent.prompts[i]!;
      const f = forkTranscript(file, cut.uuid);
      assert.match(f.session, UUID_V4);
      assert.equal(f.transcript, path.join(path.dirname(file), `${f.session}.jsonl`));
      assert.equal(f.parent, parent.session);
      assert.equal(f.resume, `claude --resume ${f.session}`);
      assert.equal(fs.statSync(f.transcript).mode & 0o777, 0o600);
      const fork = readTimeline(f.transcript);
      assert.equal(fork.session, f.session);
      assert.deepEqual(fork.prompts, parent.prompts.slice(0, i), 'same prompts, texts, times, tools and results');
      const { entries } = readTranscript(f.transcript);
      assert.deepEqual(danglingToolUses(entries), [], 'every kept tool_use has its tool_result');
      const carrying = jsonLines(f.transcript).filter((l) => 'sessionId' in l);
      assert.ok(carrying.length > 0, 'the fork has lines that name their session');
      assert.deepEqual(new Set(carrying.map((l) => l.sessionId)), new Set([f.session]), 'every one names the fork');
      assert.equal(sha(file), hash, 'the parent is byte-identical');
    }
  });
}

test('kept lines are the parent lines unchanged but for sessionId; dropped: sidechain, progress, whole-parent metadata, later turns', () => {
  const file = place('split-parallel.jsonl');
  const parentLines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const jumpCut = readTimeline(file).prompts[1]!; // before "Push it"
  const f = forkTranscript(file, jumpCut.uuid);
  const fork = jsonLines(f.transcript);
  const types = fork.map((l) => l.type as string);
  for (const t of [
    'progress',
    'summary',
    'last-prompt',
    'queue-operation',
    'custom-title',
    'ai-title',
    'file-history-snapshot',
    'cost-state',
  ]) {
    assert.ok(!types.includes(t), `${t} is dropped`);
  }
  for (const t of ['permission-mode', 'tools-used', 'mode', 'content-replacement', 'api-request', 'attachment', 'future-chain-entry']) {
    assert.ok(types.includes(t), `${t} is kept`);
  }
  assert.deepEqual(
    fork.filter((l) => l.type === 'future-metadata').map((l) => l.about),
    ['written before the second prompt'],
    'metadata written after the cut is dropped',
  );
  assert.ok(!fork.some((l) => l.uuid === jumpCut.uuid), 'the cut prompt itself is gone');
  // Byte-for-byte: every fork line, with its sessionId put back, is a line of the parent.
  const parentSet = new Set(
    parentLines.map((l) => {
      try {
        return JSON.stringify(JSON.parse(l));
      } catch {
        return l;
      }
    }),
  );
  for (const l of fork) {
    const back = { ...l, sessionId: '11111111-1111-4111-8111-111111111111' };
    if (l.parentUuid === '00000000-0000-4000-8000-000000000007') continue; // re-parented over the dropped progress line (below)
    assert.ok(parentSet.has(JSON.stringify(back)), `line ${JSON.stringify(l).slice(0, 80)} comes from the parent`);
  }
  // The result whose parent was a progress line now hangs off the tool_use line it answers.
  const resultB = fork.find((l) => JSON.stringify(l.message ?? '').includes('"tool_use_id":"toolu_B"'))!;
  assert.equal(resultB.parentUuid, '00000000-0000-4000-8000-000000000007');
});

test('the parallel tool result that branches off the chain is kept (real CLI shape)', () => {
  const file = place('real-2.1.332-two-prompts.jsonl');
  const t = readTimeline(file);
  const { entries } = readTranscript(file);
  const g = new TranscriptGraph(entries);
  const onChain = new Set(g.current().chain.map((e) => e.uuid));
  const firstWrite = t.prompts[0]!.tools[0]!.id;
  const branchResult = entries.find((e) => e.user?.results.some((r) => r.toolUseId === firstWrite))!;
  assert.ok(!onChain.has(branchResult.uuid), 'in the real CLI the first parallel result is off the parent chain');
  const f = forkTranscript(file, t.prompts[1]!.uuid);
  assert.ok(readTranscript(f.transcript).entries.some((e) => e.uuid === branchResult.uuid));
});

test('the fork checker fails on a fork that drops a tool result', () => {
  const file = place('split-parallel.jsonl');
  const t = readTimeline(file);
  const f = forkTranscript(file, t.prompts[1]!.uuid);
  const good = readTranscript(f.transcript);
  const expect = { session: f.session, leaf: good.entries.filter((e) => e.uuid).at(-1)!.uuid!, prompts: [t.prompts[0]!.uuid] };
  assert.deepEqual(checkFork(good.entries, 0, expect), []);
  // Drop the result of the first parallel Write.
  const lines = fs.readFileSync(f.transcript, 'utf8').split('\n').filter(Boolean);
  const broken = path.join(path.dirname(file), 'broken.jsonl');
  fs.writeFileSync(broken, lines.filter((l) => !l.includes('"tool_use_id":"toolu_A"')).join('\n') + '\n');
  const bad = readTranscript(broken);
  const problems = checkFork(bad.entries, 0, expect);
  assert.ok(
    problems.some((p) => p.includes('toolu_A') && p.includes('no tool_result')),
    problems.join('; '),
  );
  assert.deepEqual(danglingToolUses(bad.entries), ['toolu_A']);
});

test('the checker also catches a wrong sessionId, a sidechain line and a broken parent link', () => {
  const file = place('dead-branch.jsonl');
  const t = readTimeline(file);
  const f = forkTranscript(file, t.prompts[1]!.uuid);
  const lines = fs
    .readFileSync(f.transcript, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  lines[1].sessionId = 'someone-else';
  lines.push({
    type: 'user',
    uuid: 'side',
    parentUuid: null,
    isSidechain: true,
    sessionId: f.session,
    message: { role: 'user', content: 'x' },
  });
  lines.push({ type: 'attachment', uuid: 'orphan', parentUuid: 'nowhere', sessionId: f.session });
  const broken = path.join(path.dirname(file), 'broken.jsonl');
  fs.writeFileSync(broken, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const problems = checkFork(readTranscript(broken).entries, 0, {
    session: f.session,
    leaf: t.prompts[0]!.uuid,
    prompts: [t.prompts[0]!.uuid],
  }).join('\n');
  assert.match(problems, /sessionId someone-else/);
  assert.match(problems, /sidechain/);
  assert.match(problems, /parent that is not in the fork/);
});

function refused(file: string, uuid: string, reason: string): void {
  const dir = path.dirname(file);
  const before = listing(dir);
  const hash = sha(file);
  assert.throws(
    () => forkTranscript(file, uuid),
    (e: unknown) => isError(e, 'cut-refused') && e.details.reason === reason && /^[^\n]+\.$/.test(e.message),
  );
  assert.deepEqual(listing(dir), before, 'nothing written');
  assert.equal(sha(file), hash);
}

test('cuts anywhere but before a real prompt, or before the first prompt, are refused and write nothing', () => {
  const file = place('split-parallel.jsonl');
  const t = readTimeline(file);
  const { entries } = readTranscript(file);
  refused(file, t.prompts[0]!.uuid, 'first-prompt');
  refused(file, 'no-such-uuid', 'not-found');
  refused(file, entries.find((e) => e.type === 'assistant')!.uuid!, 'not-a-prompt');
  refused(file, entries.find((e) => e.user?.kind === 'tool-result')!.uuid!, 'not-a-prompt');
  refused(file, entries.find((e) => e.type === 'attachment')!.uuid!, 'not-a-prompt');

  const side = place('sidechain-meta.jsonl');
  const se = readTranscript(side).entries;
  refused(side, se.find((e) => e.sidechain)!.uuid!, 'sidechain');
  refused(side, se.find((e) => e.user?.kind === 'meta')!.uuid!, 'not-a-prompt');
  refused(side, se.find((e) => e.user?.kind === 'command-output')!.uuid!, 'not-a-prompt');
  refused(side, se.find((e) => e.user?.kind === 'interrupt')!.uuid!, 'not-a-prompt');

  const compact = place('compact.jsonl');
  const ce = readTranscript(compact).entries;
  refused(compact, ce.find((e) => e.user?.kind === 'compact-summary')!.uuid!, 'not-a-prompt');
  refused(compact, readTimeline(compact).prompts[0]!.uuid, 'first-prompt');
  // A prompt before the boundary is no longer on the chain a resume rebuilds.
  refused(compact, ce.find((e) => isRealPrompt(e))!.uuid!, 'off-branch');

  const dead = place('dead-branch.jsonl');
  const dp = readTranscript(dead).entries.find((e) => e.user?.text === 'Make it read YAML')!;
  refused(dead, dp.uuid!, 'off-branch');
});

test('whole-parent metadata: known types and title/summary-shaped unknown ones', () => {
  for (const t of [
    'summary',
    'last-prompt',
    'queue-operation',
    'custom-title',
    'ai-title',
    'file-history-snapshot',
    'cost-state',
    'agent-title',
    'session-summary',
  ])
    assert.ok(isWholeParentMetadata(t), t);
  for (const t of ['mode', 'permission-mode', 'tools-used', 'content-replacement', 'api-request', 'atis-latch', 'future-metadata'])
    assert.ok(!isWholeParentMetadata(t), t);
});

test('two forks of the same parent get different ids and both stay resumable', () => {
  const file = place('real-2.1.332-two-prompts.jsonl');
  const cut = readTimeline(file).prompts[1]!.uuid;
  const a = forkTranscript(file, cut);
  const b = forkTranscript(file, cut);
  assert.notEqual(a.session, b.session);
  assert.deepEqual(readTimeline(a.transcript).prompts, readTimeline(b.transcript).prompts);
  // A fork of a fork works the same way.
  const grand = place('split-parallel.jsonl');
  const gt = readTimeline(grand);
  const f1 = forkTranscript(grand, gt.prompts[2]!.uuid);
  const f2 = forkTranscript(f1.transcript, gt.prompts[1]!.uuid);
  assert.equal(f2.parent, f1.session);
  assert.deepEqual(readTimeline(f2.transcript).prompts, gt.prompts.slice(0, 1));
});

test('a transcript whose kept turn lost a tool result (a crash mid-call) is refused as unclean, writing nothing', () => {
  const dir = tempDir('ar-fork-');
  const file = path.join(dir, 's.jsonl');
  const line = (o: Record<string, unknown>) => JSON.stringify({ isSidechain: false, sessionId: 's', ...o });
  fs.writeFileSync(
    file,
    [
      line({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'first' } }),
      line({
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u1',
        message: { id: 'm1', content: [{ type: 'tool_use', id: 'toolu_lost', name: 'Bash', input: { command: 'ls' } }] },
      }),
      line({ type: 'user', uuid: 'u2', parentUuid: 'a1', message: { role: 'user', content: 'second' } }),
      line({
        type: 'user',
        uuid: 'u3',
        parentUuid: 'u2',
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'x', content: 'r' },
            { type: 'text', text: 'and this' },
          ],
        },
      }),
    ].join('\n') + '\n',
  );
  refused(file, 'u2', 'unclean');
  refused(file, 'u3', 'carries-results');
});

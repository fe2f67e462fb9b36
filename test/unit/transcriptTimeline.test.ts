// The conversation timeline of each fixture: real prompts only, on the current chain, in order,
// with their tool calls (split assistant lines and parallel calls included) and results.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { TranscriptGraph } from '../../src/agents/claude/transcriptChain';
import { readTranscript } from '../../src/agents/claude/transcriptRead';
import { readTimeline } from '../../src/agents/claude/transcriptTimeline';

const FIX = path.resolve(__dirname, '../fixtures/transcripts');
const fx = (name: string) => path.join(FIX, name);
const texts = (file: string) => readTimeline(fx(file)).prompts.map((p) => p.text);

test('split assistant lines and parallel tool calls: every call of the turn, each with its result', () => {
  const t = readTimeline(fx('split-parallel.jsonl'));
  assert.equal(t.session, '11111111-1111-4111-8111-111111111111');
  assert.equal(t.badLines, 1, 'the torn line is skipped and counted');
  assert.deepEqual(
    t.prompts.map((p) => p.text),
    ['Create the retry module', 'Push it', 'Now add jitter\nand a test for it'],
  );
  const [first, second] = t.prompts;
  assert.deepEqual(
    first!.tools.map((x) => [x.id, x.name, x.effect, x.result?.isError]),
    [
      ['toolu_A', 'Write', 'rewindable', false],
      ['toolu_B', 'Write', 'rewindable', false],
      ['toolu_C', 'Bash', 'none', false],
    ],
  );
  assert.equal(first!.tools[0]!.summary, '/home/user/project/src/retry.ts');
  assert.deepEqual(first!.replies, ["I'll write both files.", 'Created src/retry.ts and its test.']);
  assert.deepEqual(
    second!.tools.map((x) => [x.name, x.summary, x.effect, x.severity]),
    [['Bash', 'git push origin main', 'irreversible', 'high']],
  );
  assert.equal(first!.time, '2026-11-30T09:00:02.000Z');
  assert.equal(first!.promptId, 'p-1');
});

test('the chain is walked through progress lines and line types never seen before', () => {
  const { entries } = readTranscript(fx('split-parallel.jsonl'));
  const g = new TranscriptGraph(entries);
  const { chain } = g.current();
  const types = new Set(chain.map((e) => e.type));
  assert.ok(types.has('future-chain-entry'));
  assert.ok(types.has('progress'));
  assert.equal(chain[0]!.user?.text, 'Create the retry module', 'the walk reaches the root');
});

test('meta lines, command caveats and outputs, interruptions, tool results and sidechain lines are not prompts', () => {
  const t = readTimeline(fx('sidechain-meta.jsonl'));
  assert.deepEqual(
    t.prompts.map((p) => p.text),
    ['Review the parser', '/model opus', '/review src/lexer.ts', '[image]', '! git status', 'Thanks, ship it'],
  );
  const all = t.prompts.flatMap((p) => p.tools.map((x) => x.id));
  assert.ok(!all.includes('toolu_S'), 'a subagent tool call is not part of the main conversation');
  assert.deepEqual(
    t.prompts[0]!.tools.map((x) => x.name),
    ['Task'],
  );
  assert.deepEqual(
    t.prompts[5]!.tools.map((x) => [x.name, x.effect]),
    [['mcp__deploy__release', 'irreversible']],
  );
});

test('a compacted conversation: the chain starts at the boundary, the summary is not a prompt', () => {
  assert.deepEqual(texts('compact.jsonl'), ['Now migrate the data', 'Verify the counts']);
});

test('a rewind inside Claude Code leaves a dead branch that is not shown', () => {
  assert.deepEqual(texts('dead-branch.jsonl'), ['Write the config loader', 'Make it read TOML instead', 'Add a test']);
  const t = readTimeline(fx('dead-branch.jsonl'));
  assert.deepEqual(
    t.prompts[1]!.tools.map((x) => x.id),
    ['toolu_3'],
  );
});

test('the real CLI 2.1.332 transcript: two prompts, parallel Writes, Bash, Edit and a failed push', () => {
  const t = readTimeline(fx('real-2.1.332-two-prompts.jsonl'));
  assert.deepEqual(
    t.prompts.map((p) => p.text),
    ['Create notes.txt and todo.txt, then list the folder', 'Mark the first todo done and push'],
  );
  assert.deepEqual(
    t.prompts[0]!.tools.map((x) => [x.name, x.summary]),
    [
      ['Write', '/home/user/project/notes.txt'],
      ['Write', '/home/user/project/todo.txt'],
      ['Bash', 'ls'],
    ],
  );
  assert.deepEqual(
    t.prompts[1]!.tools.map((x) => [x.name, x.effect, x.result?.isError]),
    [
      ['Edit', 'rewindable', false],
      ['Bash', 'irreversible', true],
    ],
  );
  for (const p of t.prompts) {
    assert.match(p.time!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(p.promptId, 'real prompts carry the promptId the hooks see as prompt_id');
  }
});

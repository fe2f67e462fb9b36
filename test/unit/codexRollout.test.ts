// Codex rollouts, on the real 0.171.0 capture (test/fixtures/agents/codex/real-0.171.0/rollout.jsonl):
// the reader finds the two prompts with their tool calls and results; the forker cuts before prompt 2
// right after turn 1's task_complete, under a new id, where `codex resume` looks, mode 0600, parent
// byte-identical — and refuses cuts it cannot make cleanly, writing nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { codexConversation } from '../../src/agents/codex/conversation';
import { forkRollout, sessionsRoot } from '../../src/agents/codex/forkRollout';
import { isCodexRollout, readRollout } from '../../src/agents/codex/rolloutRead';
import { readRolloutTimeline, turnsOf } from '../../src/agents/codex/rolloutTimeline';
import { AgentRewindError, isError } from '../../src/core/errors';
import { tempDir } from '../helpers/tmp';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'agents');
const ROLLOUT = path.join(FIXTURES, 'codex', 'real-0.171.0', 'rollout.jsonl');
const PARENT_ID = '01a23d05-fbd8-71f3-968f-5b0b26d117c9';

/** The capture copied into a CODEX_HOME layout, as Codex keeps it. */
function codexHome(): { home: string; parent: string } {
  const home = tempDir('ar-codex-home-');
  const parent = path.join(home, 'sessions', '2026', '12', '03', `rollout-2026-12-03T17-48-52-${PARENT_ID}.jsonl`);
  fs.mkdirSync(path.dirname(parent), { recursive: true });
  fs.copyFileSync(ROLLOUT, parent);
  return { home, parent };
}

test('the format is told by content: a rollout is Codex, a Claude Code transcript is not', () => {
  assert.equal(isCodexRollout(ROLLOUT), true);
  const claude = fs
    .readdirSync(path.join(FIXTURES, '..', 'transcripts'))
    .map((f) => path.join(FIXTURES, '..', 'transcripts', f))
    .filter((f) => f.endsWith('.jsonl'));
  assert.ok(claude.length > 0);
  for (const f of claude) assert.equal(isCodexRollout(f), false, f);
  assert.equal(isCodexRollout(path.join(FIXTURES, 'no-such-file')), false);
});

test('the timeline: two prompts (id = turn id), their replies, tool calls under the hook names, results', () => {
  const t = readRolloutTimeline(ROLLOUT);
  assert.equal(t.session, PARENT_ID);
  assert.equal(t.badLines, 0);
  assert.equal(t.prompts.length, 2);
  const [p1, p2] = t.prompts;
  assert.match(p1!.text, /^Add a greeting helper/);
  assert.equal(p1!.uuid, p1!.promptId);
  assert.equal(p1!.time, '2026-12-03T17:48:52.621Z');
  assert.equal(p1!.cwd, '/WORKSPACE');
  assert.deepEqual(
    p1!.tools.map((x) => `${x.name} ${x.effect}`),
    [
      'apply_patch rewindable',
      'apply_patch rewindable',
      'Bash none',
      'Bash none',
      'Bash rewindable',
      'Bash compensatable',
      'Bash irreversible',
    ],
  );
  assert.equal(p1!.tools[0]!.summary, 'src/greet.js, src/app.js, src/old.js');
  assert.ok(
    p1!.tools.every((x) => x.result && !x.result.isError),
    'turn 1: every call answered, none failed',
  );
  assert.ok(p1!.replies.some((r) => r.startsWith('Added src/greet.js')));
  assert.deepEqual(
    p2!.tools.map((x) => x.result?.isError),
    [false, true, true],
    'prompt 2: the patch worked; cat of a missing file and the failed patch are errors',
  );
});

test('a fork before prompt 2: turn 1 only, new id everywhere, in sessions/<today>, 0600, parent untouched', () => {
  const { home, parent } = codexHome();
  const before = fs.readFileSync(parent);
  const t = readRolloutTimeline(parent);
  const now = new Date(2026, 11, 4, 9, 5, 7);
  const f = forkRollout(parent, t.prompts[1]!.uuid, { newId: '01a30000-0000-7000-8000-000000000001', now });
  assert.deepEqual(fs.readFileSync(parent), before, 'parent byte-identical');
  assert.equal(
    f.transcript,
    path.join(home, 'sessions', '2026', '12', '04', 'rollout-2026-12-04T09-05-07-01a30000-0000-7000-8000-000000000001.jsonl'),
  );
  assert.equal(fs.statSync(f.transcript).mode & 0o777, 0o600);
  assert.equal(f.parent, PARENT_ID);
  assert.equal(f.resume, 'codex resume 01a30000-0000-7000-8000-000000000001');
  assert.equal(f.cut.text, 'Also mention the greeting in the README');
  assert.equal(f.cwd, '/WORKSPACE');
  const text = fs.readFileSync(f.transcript, 'utf8');
  assert.equal(text.includes(PARENT_ID), false, 'no line names the parent any more');
  const lines = text.trimEnd().split('\n');
  assert.equal(lines.length, 51, 'lines 0..50: up to turn 1 task_complete');
  const last = JSON.parse(lines[50]!) as { payload: { type: string } };
  assert.equal(last.payload.type, 'task_complete');
  // Lines without the id are copied byte for byte.
  const parentLines = before.toString('utf8').split('\n');
  const withoutId = lines.map((l, i) => ({ l, i })).filter(({ i }) => !parentLines[i]!.includes(PARENT_ID));
  assert.ok(withoutId.length > 0, 'some lines do not name the parent');
  assert.deepEqual(
    withoutId.map(({ l }) => l),
    withoutId.map(({ i }) => parentLines[i]),
    'lines without the id unchanged',
  );
  const forked = readRolloutTimeline(f.transcript);
  assert.equal(forked.session, f.session);
  assert.deepEqual(
    forked.prompts.map((p) => p.uuid),
    [t.prompts[0]!.uuid],
  );
  assert.equal(sessionsRoot(parent), path.join(home, 'sessions'));
  // The fork can itself be read and forked again (its only prompt is the first: refused).
  assert.throws(
    () => forkRollout(f.transcript, t.prompts[0]!.uuid),
    (e: unknown) => isError(e, 'cut-refused'),
  );
});

test('refused cuts write nothing: the first prompt, an unknown id, a turn that never finished', () => {
  const { home, parent } = codexHome();
  const files = () => fs.readdirSync(path.join(home, 'sessions'), { recursive: true }).length;
  const n = files();
  const t = readRolloutTimeline(parent);
  assert.throws(
    () => forkRollout(parent, t.prompts[0]!.uuid),
    (e: unknown) => isError(e, 'cut-refused') && e.details.reason === 'first-prompt',
  );
  assert.throws(
    () => forkRollout(parent, 'nope'),
    (e: unknown) => isError(e, 'cut-refused') && e.details.reason === 'not-found',
  );
  // Turn 1 without its task_complete (Codex killed mid-turn): no clean place to cut before turn 2.
  const open = path.join(path.dirname(parent), `rollout-2026-12-03T17-48-53-01a23d05-0000-7000-8000-000000000000.jsonl`);
  const kept = fs
    .readFileSync(parent, 'utf8')
    .split('\n')
    .filter((l) => !/"type":"task_complete"/.test(l) || !l.includes(t.prompts[0]!.uuid));
  fs.writeFileSync(open, kept.join('\n'));
  assert.throws(
    () => forkRollout(open, t.prompts[1]!.uuid),
    (e: unknown) => isError(e, 'cut-refused') && e.details.reason === 'open-turn',
  );
  assert.equal(files(), n + 1, 'nothing but the file this test wrote');
  assert.equal(codexConversation.fork.refused(new AgentRewindError('cut-refused', { message: 'x', reason: 'unpaired' })), true);
  // A rollout that is not there is a failure, not a refused cut: its own code and words.
  const missing = path.join(home, 'sessions', 'rollout-gone.jsonl');
  assert.throws(
    () => forkRollout(missing, 'nope'),
    (e: unknown) =>
      isError(e, 'rollout-missing') &&
      !codexConversation.fork.refused(e) &&
      e.message ===
        `No Codex rollout at ${missing}; check the path (Codex keeps them in $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl).`,
  );
});

test('turns: each task_started to its task_complete; the reader keeps byte offsets that match the file', () => {
  const r = readRollout(ROLLOUT);
  const turns = turnsOf(r.entries);
  assert.equal(turns.length, 2);
  assert.ok(turns.every((x) => x.end !== null && x.prompt));
  const buf = fs.readFileSync(ROLLOUT);
  for (const e of r.entries)
    assert.equal(
      buf
        .subarray(e.offset, e.offset + e.bytes)
        .toString('utf8')
        .startsWith('{"timestamp"'),
      true,
    );
});

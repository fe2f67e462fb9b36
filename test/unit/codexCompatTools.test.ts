// The Codex compat tools against the real 0.171.0 capture (test/fixtures/agents/codex/real-0.171.0): the rollout
// reader finds the two prompts, the cut before prompt 2 lands after turn 1's task_complete, the copy fork keeps
// only turn 1 under a new id and leaves the parent alone, the reference fork names the same cut Codex's own
// thread/fork did, and the scripted Responses server answers 400 for an unpaired call — so explore.ts's
// green checks mean something.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readRequests, startScriptedModel } from '../compat/kit/model.mjs';
import { callPairingProblems, itemsForStep, type RequestRecord } from '../compat/kit/wire/responses.mjs';
import { cutBeforeTurn, forkByCopy, forkByReference, prompts, readLines, sessionIdOf } from '../compat/codex/rollout';
import { tempDir } from '../helpers/tmp';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'agents', 'codex', 'real-0.171.0');
const ROLLOUT = path.join(FIXTURE, 'rollout.jsonl');

test('the real rollout: two prompts, each a UserMessage item of its own turn', () => {
  const lines = readLines(ROLLOUT);
  assert.ok(
    lines.every((l) => l.obj),
    'every line parses',
  );
  const ps = prompts(lines);
  assert.equal(ps.length, 2);
  assert.match(ps[0]!.text, /^Add a greeting helper/);
  assert.equal(ps[1]!.text, 'Also mention the greeting in the README');
  assert.notEqual(ps[0]!.turnId, ps[1]!.turnId);
  assert.equal(lines[0]!.obj!.type, 'session_meta');
  assert.ok(
    lines.every((l, i) => l.obj!.ordinal === i),
    'ordinal counts lines from 0',
  );
});

test('the cut before prompt 2 goes right after turn 1 ends, and there is none before prompt 1', () => {
  const lines = readLines(ROLLOUT);
  const [p1, p2] = prompts(lines);
  const cut = cutBeforeTurn(lines, p2!.turnId)!;
  const before = lines[cut - 1]!.obj!;
  assert.equal(before.type, 'event_msg');
  assert.equal(before.payload.type, 'task_complete');
  assert.equal(before.payload.turn_id, p1!.turnId);
  assert.ok(
    lines.slice(cut).every((l) => l.obj!.payload?.turn_id !== p1!.turnId),
    'nothing of turn 1 after the cut',
  );
  assert.equal(cutBeforeTurn(lines, p1!.turnId), null);
  assert.equal(cutBeforeTurn(lines, 'no-such-turn'), null);
});

test('forkByCopy keeps turn 1 only, under a new id, and never touches the parent', () => {
  const home = tempDir('ar-codex-fork-');
  const parent = path.join(home, 'parent.jsonl');
  fs.copyFileSync(ROLLOUT, parent);
  const before = fs.readFileSync(parent);
  const lines = readLines(parent);
  const cut = cutBeforeTurn(lines, prompts(lines)[1]!.turnId)!;
  const when = new Date();
  const fork = forkByCopy(parent, cut, home, { when });
  assert.deepEqual(fs.readFileSync(parent), before);
  assert.equal(fork.parent, sessionIdOf(lines));
  assert.match(fork.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.ok(fork.file.startsWith(path.join(home, 'sessions')) && fork.file.endsWith(`-${fork.id}.jsonl`));
  assert.equal((fs.statSync(fork.file).mode & 0o777).toString(8), '600');
  const copy = readLines(fork.file);
  assert.equal(copy.length, cut);
  assert.equal(sessionIdOf(copy), fork.id);
  assert.equal(fork.parentIdLeft, 0);
  assert.ok(!fs.readFileSync(fork.file, 'utf8').includes(fork.parent), 'no line names the parent id');
  assert.deepEqual(
    prompts(copy).map((p) => p.text),
    [prompts(lines)[0]!.text],
  );
  assert.throws(() => forkByCopy(parent, cut, home, { id: fork.id, when }), /EEXIST/, 'exclusive create');
});

test('forkByReference writes the history_base Codex itself wrote for the same cut (end_ordinal_exclusive 51)', () => {
  const home = tempDir('ar-codex-ref-');
  const lines = readLines(ROLLOUT);
  const cut = cutBeforeTurn(lines, prompts(lines)[1]!.turnId)!;
  const fork = forkByReference(ROLLOUT, cut, home);
  const meta = readLines(fork.file)[0]!.obj!;
  assert.equal(meta.type, 'session_meta');
  assert.equal(meta.ordinal, 51);
  assert.deepEqual(meta.payload.history_base, {
    thread_id: sessionIdOf(lines),
    end_ordinal_exclusive: 51,
    end_byte_offset: lines.slice(0, 51).reduce((n, l) => n + Buffer.byteLength(l.raw) + 1, 0),
  });
  assert.equal(meta.payload.forked_from_id, sessionIdOf(lines));
  assert.equal(meta.payload.id, fork.id);
});

test('the scripted Responses server: steps become items, an unpaired call is a 400', async () => {
  const items = itemsForStep({ text: 'hi', calls: [{ exec: 'ls' }, { patch: '*** Begin Patch\n*** End Patch' }] });
  assert.deepEqual(
    items.map((i) => `${i.type}:${(i as any).name ?? ''}`),
    ['message:', 'function_call:exec_command', 'custom_tool_call:apply_patch'],
  );
  const call = { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: '{}' };
  const out = { type: 'function_call_output', call_id: 'c1', output: 'ok' };
  assert.deepEqual(callPairingProblems({ input: [call, out] }), []);
  assert.equal(callPairingProblems({ input: [call] }).length, 1);
  assert.equal(callPairingProblems({ input: [out] }).length, 1);

  const log = path.join(tempDir('ar-codex-mock-'), 'requests.jsonl');
  const m = await startScriptedModel({ wire: 'openai-responses', log, script: [{ exec: 'ls' }] });
  try {
    const tools = [{ type: 'function', name: 'exec_command' }];
    const post = (input: unknown[]) =>
      fetch(`${m.url}/v1/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', stream: true, tools, input }) });
    const bad = await post([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x' }] }, call]);
    assert.equal(bad.status, 400);
    const ok = await post([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x' }] }]);
    const sse = await ok.text();
    assert.match(sse, /event: response\.output_item\.done\ndata: .*"name":"exec_command"/);
    assert.match(sse, /event: response\.completed\n/);
    const reqs = readRequests<RequestRecord>(log);
    assert.deepEqual(
      reqs.map((r) => r.status),
      [400, 200],
    );
    assert.deepEqual(reqs[1]!.userTexts, ['x']);
    assert.equal(m.remaining(), 0);
  } finally {
    await m.close();
  }
});

// The Gemini CLI 0.61 captures (test/fixtures/agents/gemini/real-0.61.0/, made by
// test/compat/gemini/explore.ts) read by the compat tier's chat-file reader and forker, and the
// scripted Gemini API's checks: the fixtures keep saying what the README says they say.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { type ChatMessage, dropDuplicateResponses, forkChat, partsOf, prompts, readChat } from '../compat/gemini/chatFile';
import { callPairingProblems, sampleFor, sideKind } from '../compat/kit/wire/gemini.mjs';
import { tempDir } from '../helpers/tmp';

const dir = path.join(__dirname, '..', 'fixtures', 'agents', 'gemini', 'real-0.61.0');
const PROMPT1 = 'Release 1.1.0: add a changelog, bump the version, drop the old notes, turn debug off, add two docs, commit and push.';
const PROMPT2 = 'Also say in the changelog that the release was pushed.';
const lines = (f: string) =>
  fs
    .readFileSync(path.join(dir, f), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

/** How many function responses each call gets, the way the CLI rebuilds the history on resume. */
function responsesPerCall(messages: ChatMessage[]): Map<string, number> {
  const counts = new Map<string, number>();
  let open: string[] = [];
  const add = (id?: string) => id && open.includes(id) && counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const m of messages) {
    if (m.type === 'gemini') {
      const inContent = partsOf(m.content).flatMap((p) => (p.functionCall?.id ? [p.functionCall.id] : []));
      open = [...new Set([...inContent, ...(m.toolCalls ?? []).map((c) => c.id)])];
      for (const id of open) counts.set(id, 0);
      for (const c of m.toolCalls ?? []) for (const p of Array.isArray(c.result) ? c.result : []) add(p.functionResponse?.id);
    } else if (m.type === 'user') for (const p of partsOf(m.content)) add(p.functionResponse?.id);
  }
  return counts;
}

test('the chat after prompt 2 replays to both prompts, and the hook_context prefix is not part of the prompt', () => {
  const chat = readChat(path.join(dir, 'chat-after-prompt-2.jsonl'));
  assert.deepEqual(
    prompts(chat).map((p) => p.text),
    [PROMPT1, PROMPT2],
  );
  const sessionId = lines('hooks.jsonl')[0].payload.session_id;
  assert.equal(chat.meta.sessionId, sessionId);
  assert.ok(chat.recordKinds['$set:sessionId'], 'the resume writes $set.sessionId');
  assert.ok((chat.recordKinds['$set:messages'] ?? 0) >= 2, 'the resume writes a $set.messages checkpoint');
  assert.ok(chat.meta.projectHash && /^[0-9a-f]{64}$/.test(chat.meta.projectHash));
});

test('0.61 answers every call of turn 1 more than once after a resume; dropDuplicateResponses leaves one each', () => {
  const chat = readChat(path.join(dir, 'chat-after-prompt-2.jsonl'));
  const before = responsesPerCall(chat.messages);
  assert.ok(before.size >= 9, `${before.size} calls`);
  assert.ok(
    [...before.values()].some((n) => n > 1),
    'the fixture shows the duplication',
  );
  const { messages, dropped } = dropDuplicateResponses(chat.messages);
  assert.ok(dropped.length > 0);
  assert.deepEqual([...new Set(responsesPerCall(messages).values())], [1]);
});

test('forkChat: a new file beside the parent, cut before prompt 2, new id, parent byte-identical', () => {
  const tmp = tempDir('ar-gemini-fork-');
  const parent = path.join(tmp, 'session-2026-12-01T10-00-aaaaaaaa.jsonl');
  fs.copyFileSync(path.join(dir, 'chat-after-prompt-2.jsonl'), parent);
  const bytes = fs.readFileSync(parent);
  const chat = readChat(parent);
  const cut = prompts(chat)[1]!;
  const now = new Date('2026-12-03T12:34:56Z');
  const fork = forkChat(parent, cut.id, '12345678-0000-4000-8000-000000000000', { repair: true, now });
  assert.ok(fs.readFileSync(parent).equals(bytes));
  assert.equal(path.dirname(fork.file), tmp);
  // One minute before `now`: never the name the CLI gives its own start-up file on a later resume.
  assert.equal(path.basename(fork.file), 'session-2026-12-03T12-33-12345678-fork.jsonl');
  assert.equal(fs.statSync(fork.file).mode & 0o777, 0o600);
  const first = JSON.parse(fs.readFileSync(fork.file, 'utf8').split('\n')[0]!);
  assert.equal(first.sessionId, fork.session);
  assert.equal(first.projectHash, chat.meta.projectHash);
  const forked = readChat(fork.file);
  assert.deepEqual(
    prompts(forked).map((p) => p.text),
    [PROMPT1],
  );
  assert.deepEqual([...new Set(responsesPerCall(forked.messages).values())], [1]);
  assert.ok(!fs.readFileSync(fork.file, 'utf8').includes('Pushed to origin'));
  assert.throws(() => forkChat(parent, chat.messages[0]!.id, 'x'), /not a prompt/);
  assert.throws(() => forkChat(parent, prompts(chat)[0]!.id, 'y'), /before the first prompt/);
  assert.throws(() => forkChat(parent, cut.id, fork.session, { now }), /EEXIST/);
});

test('the captured hooks: BeforeTool and AfterTool come in pairs, in order, with no call id', () => {
  const tools = lines('hooks.jsonl').filter((l) => l.event === 'BeforeTool' || l.event === 'AfterTool');
  assert.equal(tools.length % 2, 0);
  for (let i = 0; i < tools.length; i += 2) {
    assert.equal(tools[i].event, 'BeforeTool');
    assert.equal(tools[i + 1].event, 'AfterTool');
    assert.equal(tools[i + 1].payload.tool_name, tools[i].payload.tool_name);
    assert.deepEqual(tools[i + 1].payload.tool_input, tools[i].payload.tool_input);
    assert.deepEqual(Object.keys(tools[i].payload).sort(), [
      'cwd',
      'hook_event_name',
      'session_id',
      'timestamp',
      'tool_input',
      'tool_name',
      'transcript_path',
    ]);
  }
  assert.deepEqual([...new Set(tools.map((t) => t.payload.tool_name))].sort(), ['replace', 'run_shell_command', 'write_file']);
});

test('the scripted Gemini API flags unpaired function responses and answers JSON side requests by schema', () => {
  const call = { role: 'model', parts: [{ functionCall: { id: 'a', name: 'write_file', args: {} } }] };
  const resp = { functionResponse: { id: 'a', name: 'write_file', response: { output: 'ok' } } };
  assert.deepEqual(
    callPairingProblems({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }, call, { role: 'user', parts: [resp] }] }),
    [],
  );
  assert.equal(callPairingProblems({ contents: [call, { role: 'user', parts: [resp, resp] }] }).length, 1);
  assert.equal(callPairingProblems({ contents: [call, { role: 'user', parts: [{ text: 'no answer' }] }] }).length, 1);
  assert.equal(callPairingProblems({ contents: [{ role: 'user', parts: [resp] }] }).length, 1);
  const schema = { type: 'OBJECT', properties: { complexity_reasoning: { type: 'STRING' }, complexity_score: { type: 'INTEGER' } } };
  assert.deepEqual(Object.keys(sampleFor(schema) as object), ['complexity_reasoning', 'complexity_score']);
  assert.equal(sideKind({ systemInstruction: { parts: [{ text: 'You are a specialized Task Routing AI.' }] } }), 'router-classifier');
});

// The compat kit's parts that every real-client tier leans on: the scripted model server's OpenAI
// chat-completions wire (OpenCode, Qwen Code, Factory Droid speak it) and the one hook recorder.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { readRequests, startScriptedModel } from '../compat/kit/model.mjs';
import { callPairingProblems, type RequestRecord } from '../compat/kit/wire/chat.mjs';

const tempDir = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), p));

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const r = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, text: await r.text() };
}

const TOOLS = [{ type: 'function', function: { name: 'write', parameters: { type: 'object' } } }];

/** The assistant message a client rebuilds from the stream: text and tool calls, arguments joined. */
function assemble(sse: string): {
  text: string;
  calls: { id: string; name: string; args: string }[];
  finish: string | null;
  done: boolean;
} {
  const calls: { id: string; name: string; args: string }[] = [];
  let text = '';
  let finish: string | null = null;
  const lines = [...sse.matchAll(/^data: (.*)$/gm)].map((m) => m[1]!);
  for (const l of lines.filter((x) => x !== '[DONE]')) {
    const choice = (JSON.parse(l) as { choices: { delta: Record<string, any>; finish_reason: string | null }[] }).choices[0];
    if (!choice) continue;
    text += choice.delta.content ?? '';
    for (const t of choice.delta.tool_calls ?? []) {
      calls[t.index] ??= { id: t.id, name: t.function?.name ?? '', args: '' };
      calls[t.index]!.args += t.function?.arguments ?? '';
    }
    finish = choice.finish_reason ?? finish;
  }
  return { text, calls, finish, done: lines[lines.length - 1] === '[DONE]' };
}

test('chat wire: streams a tool call in pieces, 400s an unanswered call, answers side requests without a step, logs unknown paths', async () => {
  const log = path.join(tempDir('ar-kit-'), 'requests.jsonl');
  const m = await startScriptedModel({
    wire: 'openai-chat',
    log,
    label: 'L',
    script: [{ call: { name: 'write', args: { filePath: '/w/a', content: 'x' } } }, { text: 'Done.' }],
  });
  try {
    const user = { role: 'user', content: 'make a' };
    const first = assemble(
      (await post(m.url, { model: 'm', stream: true, stream_options: { include_usage: true }, tools: TOOLS, messages: [user] })).text,
    );
    assert.equal(first.finish, 'tool_calls');
    assert.ok(first.done, 'the stream ends with [DONE]');
    assert.equal(first.calls.length, 1);
    assert.equal(first.calls[0]!.name, 'write');
    assert.deepEqual(JSON.parse(first.calls[0]!.args), { filePath: '/w/a', content: 'x' });

    const call = { id: first.calls[0]!.id, type: 'function', function: { name: 'write', arguments: first.calls[0]!.args } };
    const unanswered = await post(m.url, {
      model: 'm',
      tools: TOOLS,
      messages: [user, { role: 'assistant', content: null, tool_calls: [call] }],
    });
    assert.equal(unanswered.status, 400);
    assert.match(JSON.parse(unanswered.text).error.message, /did not have response messages/);

    const side = await post(m.url, { model: 'm', messages: [{ role: 'user', content: 'a title?' }] });
    assert.equal(JSON.parse(side.text).choices[0].message.content, 'Scripted session');

    const answered = [
      user,
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: call.id, content: 'ok' },
    ];
    const last = await post(m.url, { model: 'm', tools: TOOLS, messages: answered });
    assert.equal(JSON.parse(last.text).choices[0].message.content, 'Done.');
    assert.equal(m.remaining(), 0, 'the rejected and the side request consumed no step');

    assert.equal((await fetch(`${m.url}/v1/models`)).status, 200);
    assert.equal((await fetch(`${m.url}/v1/embeddings`, { method: 'POST', body: '{}' })).status, 404);

    const logged = readRequests<RequestRecord>(log);
    assert.deepEqual(
      logged.map((r) => [r.kind, r.status, r.label]),
      [
        ['main', 200, 'L'],
        ['main', 400, 'L'],
        ['side', 200, 'L'],
        ['main', 200, 'L'],
        ['unknown', 404, 'L'],
      ],
    );
    assert.deepEqual(logged[3]!.toolResults, [{ id: call.id, content: 'ok' }]);
    assert.deepEqual(logged[3]!.userTexts, ['make a']);
  } finally {
    await m.close();
  }
});

test('chat wire: a tool message that answers no call is a pairing problem', () => {
  assert.equal(
    callPairingProblems({
      messages: [
        { role: 'user', content: 'x' },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      ],
    }).length,
    1,
  );
  assert.deepEqual(callPairingProblems({ messages: [{ role: 'user', content: 'x' }] }), []);
});

test('the hook recorder: one line per run with event, cwd, agent env and payload; replies from a file; exits 0', () => {
  const dir = tempDir('ar-rec-');
  const log = path.join(dir, 'hooks.jsonl');
  const recorder = path.join(__dirname, '..', 'compat', 'kit', 'recordHook.mjs');
  fs.writeFileSync(`${log}.reply.Stop`, '{"decision":"approve"}');
  const payload = { session_id: 's1', transcript_path: path.join(dir, 'missing.jsonl'), tool_name: 'Write' };
  const run = (event: string) =>
    spawnSync(process.execPath, [recorder, log, event], {
      cwd: dir,
      input: JSON.stringify(payload),
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', QWEN_PROJECT_DIR: dir, OTHER: '1' },
    });
  const pre = run('PreToolUse');
  const stop = run('Stop');
  assert.equal(pre.status, 0);
  assert.equal(pre.stdout, '', 'nothing printed without a reply');
  assert.equal(stop.stdout, '{"decision":"approve"}');
  const lines = fs
    .readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => l.event),
    ['PreToolUse', 'Stop'],
  );
  assert.equal(lines[0].cwd, fs.realpathSync(dir));
  assert.deepEqual(lines[0].env, { QWEN_PROJECT_DIR: dir });
  assert.ok(lines[0].otherEnv.includes('OTHER'));
  assert.deepEqual(lines[0].transcript, { exists: false });
  assert.deepEqual(lines[0].payload, payload);
});

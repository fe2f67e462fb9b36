// The compat tier's checkers and scripted API server can fail: each is fed a broken input (a
// dropped tool_result, a missing PostToolUse, a new chain line type…) and must flag it — so a green
// compat run means something.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { CHAIN_LINE_TYPES, METADATA_LINE_TYPES } from '../../src/agents/claude/knownFormats';
import { KNOWN_PAYLOAD_FIELDS } from '../../src/agents/claude/hookPayload';
import {
  checkAllAccepted,
  checkEventOrder,
  checkNotUndone,
  checkPromptCheckpoints,
  checkResumedRequest,
  lineTypeDrift,
  payloadFieldDrift,
  planProblems,
  treeDiff,
} from '../compat/checkers';
import { readRequests, startScriptedModel } from '../compat/kit/model.mjs';
import { type RequestRecord, summarizeRequest, toolPairingProblems } from '../compat/kit/wire/anthropic.mjs';
import { tempDir } from '../helpers/tmp';

const use = (id: string, name = 'Write') => ({ type: 'tool_use', id, name, input: { file_path: '/w/a' } });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });

/** A resumed conversation as the CLI sends it: turn 1 with two parallel calls, then a new prompt. */
function body(opts: { dropResult?: boolean; extraPrompt?: string } = {}) {
  return {
    model: 'm',
    stream: true,
    tools: [{ name: 'Write' }],
    system: [{ type: 'text', text: 'You are Claude Code.' }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>ctx</system-reminder>' },
          { type: 'text', text: 'Add a greeting helper' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'On it.' }, use('toolu_a'), use('toolu_b')] },
      { role: 'user', content: opts.dropResult ? [result('toolu_a')] : [result('toolu_a'), result('toolu_b')] },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      ...(opts.extraPrompt
        ? [
            { role: 'user', content: opts.extraPrompt },
            { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
          ]
        : []),
      { role: 'user', content: 'Only keep the helper' },
    ],
  };
}

function record(b: unknown) {
  const problems = toolPairingProblems(b);
  return { ...summarizeRequest(b), status: (problems.length ? 400 : 200) as 200 | 400, problems };
}

const EXPECT = {
  userTexts: ['Add a greeting helper', 'Only keep the helper'],
  forbidden: ['Commit the greeting work'],
  toolNames: ['Write', 'Write'],
};

test('tool pairing: a dropped tool_result is flagged the way the real API refuses it', () => {
  assert.deepEqual(toolPairingProblems(body()), []);
  const p = toolPairingProblems(body({ dropResult: true }));
  assert.equal(p.length, 1);
  assert.match(p[0]!, /toolu_b/);
  assert.match(p[0]!, /without `tool_result`/);
});

test('tool pairing: a tool_result answering nothing, and a tool_use at the very end, are flagged', () => {
  const orphan = body();
  (orphan.messages[2]!.content as unknown[]).push(result('toolu_zzz'));
  assert.match(toolPairingProblems(orphan).join(' '), /unexpected `tool_use_id`.*toolu_zzz/);
  const dangling = {
    messages: [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: [use('toolu_end')] },
    ],
  };
  assert.match(toolPairingProblems(dangling).join(' '), /toolu_end/);
});

test('resumed-request checker: passes the right conversation, flags a dropped result, a discarded prompt, wrong calls', () => {
  assert.deepEqual(checkResumedRequest(record(body()), EXPECT), []);
  const dropped = checkResumedRequest(record(body({ dropResult: true })), EXPECT);
  assert.ok(
    dropped.some((p) => /answered 400/.test(p)),
    dropped.join('\n'),
  );
  assert.ok(
    dropped.some((p) => /toolu_b .*has no tool_result/.test(p)),
    dropped.join('\n'),
  );
  // The same request even if a lenient server had accepted it:
  assert.ok(
    checkResumedRequest({ ...record(body({ dropResult: true })), status: 200, problems: [] }, EXPECT).some((p) => /toolu_b/.test(p)),
  );
  assert.ok(
    checkResumedRequest(record(body({ extraPrompt: 'Commit the greeting work and push it' })), EXPECT).some((p) =>
      /discarded user text/.test(p),
    ),
  );
  assert.ok(checkResumedRequest(record(body()), { ...EXPECT, toolNames: ['Write', 'Edit'] }).some((p) => /tool calls Write,Write/.test(p)));
  assert.ok(
    checkResumedRequest(record(body()), { ...EXPECT, userTexts: ['Only keep the helper', 'Add a greeting helper'] }).some((p) =>
      /out of order/.test(p),
    ),
  );
  assert.deepEqual(checkResumedRequest(undefined, EXPECT), ['no request reached the model']);
});

test('summarizeRequest strips system reminders from user texts but keeps them in the full text', () => {
  const s = summarizeRequest(body());
  assert.deepEqual(s.userTexts, ['Add a greeting helper', 'Only keep the helper']);
  assert.match(s.text, /<system-reminder>ctx/);
  assert.match(s.text, /You are Claude Code/);
  assert.equal(s.summary.split(' | ')[1], 'assistant:T(On it.),U(Write),U(Write)');
});

test('plan checker: passes the expected plan, flags a wrong or missing action, a blocked file, and an extra file unless allowed', () => {
  const root = path.join(path.sep, 'ws');
  const plan = (files: [string, string][], blocked: unknown[] = []) => ({
    files: files.map(([f, action]) => ({ path: path.join(root, f), action })),
    blocked,
  });
  const want = { 'a.txt': 'restore', 'b.txt': 'delete' };
  assert.deepEqual(
    planProblems(
      plan([
        ['a.txt', 'restore'],
        ['b.txt', 'delete'],
      ]),
      root,
      want,
    ),
    [],
  );
  assert.deepEqual(planProblems(plan([['a.txt', 'delete']]), root, want), [
    'a.txt: planned delete, expected restore',
    'b.txt: planned nothing, expected delete',
  ]);
  assert.deepEqual(
    planProblems(
      plan(
        [
          ['a.txt', 'restore'],
          ['b.txt', 'delete'],
        ],
        [{ path: 'a.txt' }],
      ),
      root,
      want,
    ),
    ['blocked: [{"path":"a.txt"}]'],
  );
  const extra = plan([
    ['a.txt', 'restore'],
    ['b.txt', 'delete'],
    ['c.txt', 'restore'],
  ]);
  assert.deepEqual(planProblems(extra, root, want), ['also planned: c.txt']);
  assert.deepEqual(planProblems(extra, root, want, true), []);
});

test('all-accepted checker flags a rejected request', () => {
  assert.deepEqual(checkAllAccepted([{ n: 0, label: 'a', status: 200, problems: [] }]), []);
  assert.equal(checkAllAccepted([{ n: 1, label: 'a', status: 400, problems: ['x'] }]).length, 1);
});

const ev = (hook_event_name: string, extra: Record<string, unknown> = {}) => ({ hook_event_name, ...extra });
const GOOD = [
  ev('SessionStart', { source: 'startup' }),
  ev('UserPromptSubmit'),
  ev('PreToolUse', { tool_use_id: 'a', tool_name: 'Write' }),
  ev('PreToolUse', { tool_use_id: 'b', tool_name: 'Write' }),
  ev('PostToolUse', { tool_use_id: 'b', tool_name: 'Write' }),
  ev('PostToolUseFailure', { tool_use_id: 'a', tool_name: 'Write' }),
  ev('Notification'),
  ev('Stop'),
  ev('SessionEnd'),
];

test('event-order checker: passes interleaved parallel calls, flags every broken order', () => {
  assert.deepEqual(checkEventOrder(GOOD), []);
  const without = (i: number) => GOOD.filter((_, k) => k !== i);
  assert.ok(checkEventOrder(without(5)).some((p) => /PreToolUse a never answered/.test(p)));
  assert.ok(checkEventOrder(without(2)).some((p) => /without a PreToolUse/.test(p)));
  assert.ok(checkEventOrder(without(0)).some((p) => /not SessionStart/.test(p)));
  assert.ok(checkEventOrder(without(7)).some((p) => /no Stop/.test(p)));
  assert.ok(checkEventOrder(without(8)).some((p) => /not SessionEnd/.test(p)));
  assert.ok(checkEventOrder([GOOD[0]!, GOOD[2]!, GOOD[1]!, ...GOOD.slice(3)]).some((p) => /before UserPromptSubmit/.test(p)));
  assert.ok(
    checkEventOrder([...GOOD.slice(0, 8), ev('PreToolUse', { tool_use_id: 'c' }), ev('PostToolUse', { tool_use_id: 'c' }), GOOD[8]!]).some(
      (p) => /after Stop/.test(p),
    ),
  );
  assert.ok(
    checkEventOrder([GOOD[0]!, GOOD[1]!, ev('PreToolUse', { tool_name: 'Bash' }), ...GOOD.slice(7)]).some((p) =>
      /without tool_use_id/.test(p),
    ),
  );
});

test('line-type drift: a new chain type is flagged, a new metadata type reported, garbage counted', () => {
  const lines = [
    JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null }),
    JSON.stringify({ type: 'attachment', uuid: 'u2', parentUuid: 'u1' }),
    JSON.stringify({ type: 'thought-bubble', uuid: 'u3', parentUuid: 'u2' }),
    JSON.stringify({ type: 'last-prompt' }),
    JSON.stringify({ type: 'shiny-new-metadata' }),
    '{torn',
    '',
  ];
  const r = lineTypeDrift(lines, CHAIN_LINE_TYPES, METADATA_LINE_TYPES);
  assert.deepEqual(r.unknownChain, ['thought-bubble']);
  assert.deepEqual(r.unknownMetadata, ['shiny-new-metadata']);
  assert.equal(r.garbage, 1);
  assert.deepEqual(r.chain, { user: 1, attachment: 1, 'thought-bubble': 1 });
  assert.deepEqual(lineTypeDrift(lines.slice(0, 2), CHAIN_LINE_TYPES, METADATA_LINE_TYPES).unknownChain, []);
});

test('payload-field drift lists fields outside KNOWN_PAYLOAD_FIELDS, per event', () => {
  const r = payloadFieldDrift(
    [
      { hook_event_name: 'Stop', session_id: 's', brand_new: 1 },
      { hook_event_name: 'SessionStart', session_id: 's' },
    ],
    KNOWN_PAYLOAD_FIELDS,
  );
  assert.deepEqual(r.unknown, ['brand_new']);
  assert.equal(r.counts.session_id, 2);
  assert.deepEqual(r.perEvent.Stop, ['brand_new', 'hook_event_name', 'session_id']);
});

test('notUndone checker: flags a missing entry, a wrong effect or compensation, and a listed-but-earlier call', () => {
  const list = [
    {
      tool: 'Bash',
      summary: 'git -c user.name=A commit -m x',
      effect: 'compensatable',
      severity: 'high',
      compensation: 'git -C /w reset --soft abc',
    },
    { tool: 'Bash', summary: 'git -C /w push origin main', effect: 'irreversible', severity: 'high' },
  ];
  const good = [
    { summary: ['commit'], effect: 'compensatable' as const, compensation: 'git -C /w reset --soft abc' },
    { summary: ['-C /w', 'push'], effect: 'irreversible' as const },
  ];
  assert.deepEqual(checkNotUndone(list, good), []);
  assert.equal(checkNotUndone(list.slice(0, 1), good).length, 1);
  assert.ok(checkNotUndone(list, [{ summary: ['push'], effect: 'compensatable' }])[0]!.includes('effect irreversible'));
  assert.ok(
    checkNotUndone(list, [{ summary: ['commit'], effect: 'compensatable', compensation: /reset --soft def/ }])[0]!.includes('compensation'),
  );
  assert.equal(checkNotUndone(list, [], ['push']).length, 1);
  // One listed entry cannot satisfy two expectations.
  assert.equal(
    checkNotUndone(list.slice(1), [
      { summary: ['push'], effect: 'irreversible' },
      { summary: ['push'], effect: 'irreversible' },
    ]).length,
    1,
  );
});

test('prompt-checkpoint checker: flags a wrong label, a missing prompt, another session', () => {
  const cps = [
    { id: '1', kind: 'session-start', label: 'Session started', session: 's', time: '' },
    { id: '2', kind: 'prompt', label: 'First', session: 's', time: '' },
    { id: '3', kind: 'before-tool', label: 'Bash: git push', session: 's', time: '' },
    { id: '4', kind: 'prompt', label: 'Second', session: 's', time: '' },
  ];
  assert.deepEqual(checkPromptCheckpoints(cps, ['First', 'Second'], 's'), []);
  assert.equal(checkPromptCheckpoints(cps, ['First', 'Second!'], 's').length, 1);
  assert.equal(checkPromptCheckpoints(cps, ['First', 'Second', 'Third']).length, 1);
  assert.equal(checkPromptCheckpoints(cps, ['First', 'Second'], 'other').length, 2);
});

test('tree diff: flags different content, a missing file, an extra file', () => {
  const a = { x: 'YQ==', y: 'Yg==' };
  assert.deepEqual(treeDiff(a, { ...a }, ['x', 'y', 'z']), []);
  assert.equal(treeDiff(a, { x: 'Yw==', y: 'Yg==' }, ['x']).length, 1);
  assert.match(treeDiff(a, { x: 'YQ==' }, ['y'])[0]!, /missing/);
  assert.match(treeDiff(a, { ...a, z: 'eg==' }, ['z'])[0]!, /should not exist/);
});

async function post(url: string, b: unknown): Promise<{ status: number; text: string }> {
  const r = await fetch(`${url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(b),
  });
  return { status: r.status, text: await r.text() };
}

test('scripted server: streams SSE like the real API, 400s a dropped tool_result, answers side requests, logs main-loop requests', async () => {
  const log = path.join(tempDir('ar-mock-'), 'requests.jsonl');
  const m = await startScriptedModel({
    wire: 'anthropic',
    log,
    script: [{ tool_use: { name: 'Write', input: { file_path: '/w/a', content: 'x' } } }, { text: 'Done.' }],
    label: 'L',
  });
  try {
    const first = await post(m.url, body());
    assert.equal(first.status, 200);
    const events = [...first.text.matchAll(/^event: (\S+)$/gm)].map((x) => x[1]);
    assert.deepEqual(events, [
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const deltas = [...first.text.matchAll(/^data: (.*)$/gm)].map((x) => JSON.parse(x[1]!)).filter((d) => d.type === 'content_block_delta');
    assert.deepEqual(JSON.parse(deltas.map((d) => d.delta.partial_json).join('')), { file_path: '/w/a', content: 'x' });
    assert.match(first.text, /"stop_reason":"tool_use"/);

    const side = await post(m.url, { model: 'm', stream: false, messages: [{ role: 'user', content: 'title?' }] });
    assert.equal(side.status, 200);
    assert.equal(JSON.parse(side.text).content[0].type, 'text');

    const bad = await post(m.url, body({ dropResult: true }));
    assert.equal(bad.status, 400);
    assert.equal(JSON.parse(bad.text).error.type, 'invalid_request_error');

    const last = await post(m.url, body());
    assert.match(last.text, /"text_delta","text":"Done\."/);
    assert.equal(m.remaining(), 0, 'the rejected request and the side request consumed no step');
    const logged = readRequests<RequestRecord>(log);
    assert.deepEqual(
      logged.map((r) => [r.n, r.status, r.label]),
      [
        [0, 200, 'L'],
        [1, 400, 'L'],
        [2, 200, 'L'],
      ],
    );
    assert.equal(m.stats.side, 1);
    assert.equal((await fetch(`${m.url}/v1/other`)).status, 404);
    assert.ok(fs.existsSync(log));
  } finally {
    await m.close();
  }
});

// The Gemini CLI adapter on what the real 0.61.0 sent (test/fixtures/agents/gemini/real-0.61.0/
// hooks.jsonl): every event we connect maps to an internal event, relative `file_path`s are made
// absolute against `cwd`, both ends of a call get the same call id; and the connector's settings
// edits: merged, idempotent, milliseconds, undone byte for byte.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { parseGeminiPayload, KNOWN_PAYLOAD_FIELDS, GEMINI_RECORDED_EVENTS } from '../../src/agents/gemini/hookPayload';
import {
  connectGemini,
  disconnectGemini,
  geminiConnectionState,
  geminiHooksOff,
  GEMINI_HOOK_TIMEOUT_MS,
} from '../../src/agents/gemini/settings';
import type { AgentEvent } from '../../src/recording/events';
import { tempDir } from '../helpers/tmp';
import { registry } from '../../src/agents/registry';

const geminiConnector = registry.connector('gemini')!;

const dir = path.join(__dirname, '..', 'fixtures', 'agents', 'gemini', 'real-0.61.0');
const hookLines = fs
  .readFileSync(path.join(dir, 'hooks.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { event: string; payload: Record<string, unknown> });

function mapped(): { event: string; r: ReturnType<typeof parseGeminiPayload> }[] {
  return hookLines.map((l) => ({ event: l.event, r: parseGeminiPayload(JSON.stringify(l.payload), {}) }));
}

test('every payload the real CLI sent is understood: recorded events map, the rest is ignored, nothing is bad input', () => {
  const types: Record<string, string[]> = {};
  for (const { event, r } of mapped()) {
    assert.notEqual(r.kind, 'bad', `${event}: ${r.kind === 'bad' ? r.reason : ''}`);
    (types[event] ??= []).push(r.kind === 'event' ? r.event.type : 'ignore');
  }
  assert.deepEqual([...new Set(types.SessionStart)], ['session_start']);
  assert.deepEqual([...new Set(types.BeforeAgent)], ['prompt']);
  assert.deepEqual([...new Set(types.BeforeTool)], ['before_tool']);
  assert.deepEqual([...new Set(types.AfterTool)], ['after_tool']);
  assert.deepEqual([...new Set(types.AfterAgent)], ['stop']);
  assert.deepEqual([...new Set(types.SessionEnd)], ['session_end']);
  for (const e of ['BeforeModel', 'AfterModel', 'BeforeToolSelection', 'PreCompress'])
    assert.deepEqual([...new Set(types[e])], ['ignore'], e);
  for (const l of hookLines)
    for (const k of Object.keys(l.payload)) assert.ok(KNOWN_PAYLOAD_FIELDS.has(k), `unknown field ${k} in ${l.event}`);
  assert.deepEqual([...GEMINI_RECORDED_EVENTS].sort(), [
    'AfterAgent',
    'AfterTool',
    'BeforeAgent',
    'BeforeTool',
    'SessionEnd',
    'SessionStart',
  ]);
});

test('tools: write_file / replace are file writes with absolute paths (relative ones resolved against cwd); the shell is a shell; pairs share a call id', () => {
  const tools = mapped()
    .map((m) => m.r)
    .filter((r): r is { kind: 'event'; event: AgentEvent } => r.kind === 'event')
    .map((r) => r.event)
    .filter((e) => e.type === 'before_tool' || e.type === 'after_tool');
  const writes = tools.filter((e) => e.type === 'before_tool' && e.kind.kind === 'file-write');
  const paths = writes.flatMap((e) => (e.type === 'before_tool' ? e.paths : []));
  assert.ok(paths.includes('/WORKSPACE/CHANGELOG.md'), 'write_file CHANGELOG.md (relative in the payload)');
  assert.ok(paths.includes('/WORKSPACE/docs/b.md'), 'write_file docs/b.md (relative)');
  assert.ok(paths.includes('/WORKSPACE/version.txt'));
  assert.ok(paths.every((p) => path.isAbsolute(p)));
  const shells = tools.filter((e) => e.type === 'before_tool' && e.shell);
  assert.ok(shells.some((e) => e.type === 'before_tool' && e.kind.kind === 'shell' && e.kind.command === 'git push -q origin main'));
  for (let i = 0; i < tools.length; i += 2) {
    const [b, a] = [tools[i]!, tools[i + 1]!];
    assert.equal(b.type, 'before_tool');
    assert.equal(a.type, 'after_tool');
    const [before, after] = [b as Extract<typeof b, { type: 'before_tool' }>, a as Extract<typeof a, { type: 'after_tool' }>];
    assert.ok(before.pairKey && before.pairKey === after.pairKey, `${before.tool}: ${before.pairKey} / ${after.pairKey}`);
    assert.equal(before.agent, 'gemini');
  }
  // The failing replace (edit_no_occurrence_found) ends not ok.
  assert.ok(tools.some((e) => e.type === 'after_tool' && e.tool === 'replace' && !e.ok));
});

test('the prompt keeps its hook event name for the output; a relative file_path without cwd is bad input, logged not thrown', () => {
  const r = parseGeminiPayload(JSON.stringify({ session_id: 's', hook_event_name: 'BeforeAgent', cwd: '/w', prompt: 'hi' }), {});
  assert.ok(r.kind === 'event' && r.event.type === 'prompt' && r.event.hookEvent === 'BeforeAgent' && r.event.contextAtPromptOnly);
  const bad = parseGeminiPayload(
    JSON.stringify({ session_id: 's', hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: { file_path: 'a.txt' } }),
    {},
  );
  assert.equal(bad.kind, 'bad');
  const fromEnv = parseGeminiPayload(
    JSON.stringify({ session_id: 's', hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: { file_path: 'a.txt' } }),
    { GEMINI_PROJECT_DIR: '/proj' },
  );
  assert.ok(fromEnv.kind === 'event' && fromEnv.event.type === 'before_tool' && fromEnv.event.paths[0] === '/proj/a.txt');
  const mcp = parseGeminiPayload(
    JSON.stringify({
      session_id: 's',
      cwd: '/w',
      hook_event_name: 'BeforeTool',
      tool_name: 'create_issue',
      tool_input: {},
      mcp_context: { server_name: 'github', tool_name: 'create_issue' },
    }),
    {},
  );
  assert.ok(mcp.kind === 'event' && mcp.event.type === 'before_tool' && mcp.event.kind.kind === 'remote');
  assert.equal(parseGeminiPayload('{"hook_event_name":"BeforeAgent"}', {}).kind, 'bad');
});

const CMD = `'/n/node' '/x/cli.js' hook gemini --store '/s' --connected-by=agent-rewind`;

test('connect: our handler on six events, timeout in milliseconds, `.*` matcher on tool events; idempotent; disconnect restores the bytes', () => {
  const user =
    '{\n    // mine\n    "general": { "vimMode": true },\n    "hooks": {\n        "BeforeTool": [\n            { "matcher": "write_file", "hooks": [ { "type": "command", "command": "./mine.sh" } ] }\n        ]\n    }\n}\n';
  const once = connectGemini(user, CMD);
  assert.equal(connectGemini(once, CMD), once, 'idempotent');
  assert.ok(once.includes('// mine') && once.includes('"vimMode": true') && once.includes('./mine.sh'));
  assert.ok(once.includes('\n            {\n                "matcher": ".*"'), 'written with the file’s 4-space indentation');
  const parsed = JSON.parse(once.replace('// mine', '')) as {
    hooks: Record<string, { matcher?: string; hooks: { timeout: number; name: string }[] }[]>;
  };
  for (const e of GEMINI_RECORDED_EVENTS) {
    const ours = parsed.hooks[e]!.flatMap((g) => g.hooks.map((h) => ({ ...h, matcher: g.matcher }))).filter(
      (h) => h.name === 'agent-rewind',
    );
    assert.equal(ours.length, 1, e);
    assert.equal(ours[0]!.timeout, GEMINI_HOOK_TIMEOUT_MS);
    assert.equal(ours[0]!.matcher, e === 'BeforeTool' || e === 'AfterTool' ? '.*' : undefined);
  }
  assert.equal(geminiConnectionState(once, CMD), 'connected');
  const moved = CMD.replace("'/s'", "'/elsewhere'");
  assert.equal(geminiConnectionState(once, moved), 'outdated');
  const re = connectGemini(once, moved);
  assert.equal((re.match(/connected-by=agent-rewind/g) ?? []).length, 6, 'replaced, not added');
  assert.equal(disconnectGemini(re), user, 'byte for byte');
  assert.equal(geminiConnectionState(user, CMD), 'disconnected');
  assert.match(geminiHooksOff('{"hooksConfig":{"enabled":false}}') ?? '', /runs no hook/);
  assert.match(geminiHooksOff('{"hooksConfig":{"disabled":["agent-rewind"]}}') ?? '', /skips our hook/);
});

test('the connector: a new .gemini/settings.json is created, and removed again by disconnect', () => {
  const ws = tempDir('ar-gemini-connect-');
  const target = { node: '/n/node', cli: '/x/cli.js', store: '/s' };
  assert.equal(geminiConnector.state(ws, target), 'disconnected');
  const r = geminiConnector.connect(ws, target);
  assert.ok(r.changed && fs.existsSync(path.join(ws, '.gemini', 'settings.json')));
  assert.ok(r.notes.some((n) => /trusted folder/.test(n)));
  assert.equal(geminiConnector.connect(ws, target).changed, false);
  assert.equal(geminiConnector.state(ws, target), 'connected');
  assert.deepEqual(geminiConnector.disconnect(ws), { files: [path.join(ws, '.gemini', 'settings.json')], changed: true });
  assert.ok(!fs.existsSync(path.join(ws, '.gemini', 'settings.json')));
  assert.equal(geminiConnector.detect(ws, { PATH: '' }, ''), '.gemini in this workspace');
});

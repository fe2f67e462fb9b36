import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseVscodePayload } from '../../src/agents/vscode/hookPayload';
import { detectAgent } from '../../src/agents/detect';
import { fixtureText, WS } from './agentFixtures';

const ev = (rel: string) => {
  const r = parseVscodePayload(fixtureText(`vscode/${rel}`));
  assert.equal(r.kind, 'event', JSON.stringify(r));
  return r.kind === 'event' ? r : (null as never);
};

test('vscode: lifecycle events map to the internal protocol, with the ISO timestamp as the stamp', () => {
  const s = ev('session-start.json');
  assert.equal(s.event.type, 'session_start');
  assert.equal(s.event.agent, 'vscode');
  assert.equal(s.event.cwd, WS);
  assert.equal(s.stamp, String(Date.parse('2026-12-03T10:00:00.700Z')));
  const p = ev('prompt.json');
  assert.equal(p.event.type === 'prompt' && p.event.text, 'Move the retry logic into src/net/retry.ts');
  assert.equal(ev('stop.json').event.type, 'stop');
});

test('vscode: file tools name absolute paths, paired by tool_use_id', () => {
  const c = ev('pre-create_file.json').event;
  assert.ok(c.type === 'before_tool');
  assert.deepEqual(c.paths, [`${WS}/src/net/retry.ts`]);
  assert.equal(c.callId, 'toolu_vrtx_0111Qm7Yk2Lx9Pw3Rt5Vb8Nc__vscode-1765291183211');
  const m = ev('pre-multi_replace_string_in_file.json').event;
  assert.ok(m.type === 'before_tool');
  assert.deepEqual(m.paths, [`${WS}/src/net/client.ts`, `${WS}/src/net/server.ts`]);
  const a = ev('pre-apply_patch.json').event;
  assert.ok(a.type === 'before_tool');
  assert.deepEqual(a.paths, [
    `${WS}/test/net.test.ts`,
    `${WS}/test/retry.test.ts`,
    `${WS}/test/fixtures/empty.json`,
    `${WS}/test/old.test.ts`,
  ]);
  const i = ev('pre-insert_edit_into_file.json').event;
  assert.ok(i.type === 'before_tool' && i.kind.kind === 'file-write');
  const post = ev('post-create_file.json').event;
  assert.ok(post.type === 'after_tool' && post.ok);
});

test('vscode: the terminal is a shell call, MCP tools are remote, legacy camelCase fields still read', () => {
  const t = ev('pre-run_in_terminal.json').event;
  assert.ok(t.type === 'before_tool' && t.shell && t.kind.kind === 'shell');
  assert.equal(t.kind.kind === 'shell' && t.kind.command, 'npm test -- --run retry');
  const m = ev('pre-mcp_github_create_issue.json').event;
  assert.ok(m.type === 'before_tool' && m.kind.kind === 'remote');
  assert.equal(m.kind.kind === 'remote' && m.kind.server, 'github');
  const l = ev('legacy-camel-pre-replace_string_in_file.json').event;
  assert.ok(l.type === 'before_tool');
  assert.deepEqual(l.paths, [`${WS}/src/net/client.ts`]);
});

test('vscode: a relative path without a cwd is bad input, not a guess', () => {
  const r = parseVscodePayload(
    JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: 's',
      tool_name: 'create_file',
      tool_input: { filePath: 'a.txt', content: '' },
    }),
  );
  assert.equal(r.kind, 'bad');
});

test('detection: the payload’s shape wins over the name', () => {
  const none = {};
  assert.equal(detectAgent('claude', fixtureText('vscode/pre-create_file.json'), none), 'vscode');
  assert.equal(detectAgent('claude', fixtureText('vscode/legacy-camel-pre-replace_string_in_file.json'), none), 'vscode');
  assert.equal(detectAgent('claude', fixtureText('cursor/prompt.json'), none), 'cursor');
  assert.equal(detectAgent('vscode', fixtureText('cline/vscode-4.1/prompt.json'), none), 'cline');
  assert.equal(detectAgent('vscode', fixtureText('copilot/pascal/03-PreToolUse-Write.json'), { COPILOT_CLI: '1' }), 'copilot');
  assert.equal(detectAgent('copilot', fixtureText('copilot/pascal/03-PreToolUse-Write.json'), none), 'copilot');
  // Claude Code's own payloads (permission_mode, no timestamp) stay claude, even under COPILOT_CLI.
  const claude = JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 's',
    permission_mode: 'default',
    tool_name: 'Write',
    tool_input: {},
  });
  assert.equal(detectAgent('claude', claude, { COPILOT_CLI: '1' }), 'claude');
  assert.equal(detectAgent('claude', claude, none), 'claude');
  // Gemini's payloads look like VS Code's, but its name is never overridden.
  assert.equal(detectAgent('gemini', fixtureText('vscode/session-start.json'), none), 'gemini');
});
